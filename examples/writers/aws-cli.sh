#!/bin/bash
# Writer for `s3fault gate --writer`: the AWS CLI v2 (Debian's /usr/bin/aws when present, else
# `aws` on PATH) uploading the input with `aws s3 cp`. Above its multipart threshold (8 MiB by
# default) the CLI makes a CreateMultipartUpload, UploadParts of 8 MiB in parallel and a
# CompleteMultipartUpload.
#
# Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_INPUT, AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION; uploads the file $S3FAULT_INPUT to
# s3://$S3FAULT_BUCKET/$S3FAULT_KEY; exits 0 when the CLI says it succeeded, non-zero otherwise.
# By hand, against `s3fault origin --listen 127.0.0.1:9000` (bucket demo created):
#
#   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
#   S3FAULT_INPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
#   AWS_REGION=us-east-1 examples/writers/aws-cli.sh
#
# Configuration files are not read, so nothing on the machine changes what the gate measures.
# Retries are left at the CLI's defaults on purpose: the gate shows how the real client behaves.
set -euo pipefail

: "${S3FAULT_ENDPOINT:?not set}" "${S3FAULT_BUCKET:?not set}" "${S3FAULT_KEY:?not set}"
: "${S3FAULT_INPUT:?not set}" "${AWS_ACCESS_KEY_ID:?not set}" "${AWS_SECRET_ACCESS_KEY:?not set}"

aws=/usr/bin/aws
[ -x "$aws" ] || aws=$(command -v aws) ||
  { echo "aws-cli.sh: aws not found" >&2; exit 127; }

# Only the endpoint given: no HTTP proxy in between, no instance metadata lookups.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export AWS_EC2_METADATA_DISABLED=true
# Isolated from any configuration on the machine; the client's own defaults otherwise.
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_MAX_ATTEMPTS AWS_RETRY_MODE AWS_ENDPOINT_URL
export AWS_DEFAULT_REGION=${AWS_REGION:-${AWS_DEFAULT_REGION:-us-east-1}}
export AWS_PAGER=""

exec "$aws" s3 cp "$S3FAULT_INPUT" "s3://$S3FAULT_BUCKET/$S3FAULT_KEY" \
  --endpoint-url "$S3FAULT_ENDPOINT" --no-progress
