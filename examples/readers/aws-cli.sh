#!/bin/bash
# Reader for `s3fault gate`: the AWS CLI v2 (Debian's /usr/bin/aws when present, else `aws` on
# PATH) downloading the object with `aws s3 cp`. For an object above its multipart threshold
# (8 MiB by default) the CLI makes a HeadObject, then ranged GetObjects of 8 MiB run in parallel,
# and writes them to a temporary file that it renames to the output when all have arrived.
#
#   s3fault gate --reader examples/readers/aws-cli.sh
#
# Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_OUTPUT, AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); writes the
# object to $S3FAULT_OUTPUT; exits 0 on success, non-zero on any error. To run it by hand against
# any store, set those variables yourself, e.g. for `s3fault origin --listen 127.0.0.1:9000`:
#
#   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
#   S3FAULT_OUTPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
#   AWS_REGION=us-east-1 examples/readers/aws-cli.sh
#
# Configuration files are not read (AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE point at
# /dev/null), so nothing on the machine changes what the gate measures. Retries are left at the
# CLI's defaults on purpose: the gate shows how the real client behaves, retries included.
set -euo pipefail

: "${S3FAULT_ENDPOINT:?not set}" "${S3FAULT_BUCKET:?not set}" "${S3FAULT_KEY:?not set}"
: "${S3FAULT_OUTPUT:?not set}" "${AWS_ACCESS_KEY_ID:?not set}" "${AWS_SECRET_ACCESS_KEY:?not set}"

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

exec "$aws" s3 cp "s3://$S3FAULT_BUCKET/$S3FAULT_KEY" "$S3FAULT_OUTPUT" \
  --endpoint-url "$S3FAULT_ENDPOINT" --no-progress
