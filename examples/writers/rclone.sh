#!/bin/bash
# Writer for `s3fault gate --writer`: rclone (Debian's /usr/bin/rclone when present, else `rclone`
# on PATH) uploading the input with `rclone copyto`, through a remote defined on the fly by
# RCLONE_CONFIG_S3FAULT_* environment variables (no rclone.conf is read or written). rclone HEADs
# the key, sends a CreateBucket (an answer that the bucket is already there counts as success),
# then makes one PutObject with Content-MD5 for a file up to its --s3-upload-cutoff (200 MiB by
# default in rclone 1.60); above it a CreateMultipartUpload, UploadParts of --s3-chunk-size
# (5 MiB by default, grown to stay under 10,000 parts), 4 at a time (--s3-upload-concurrency),
# and a CompleteMultipartUpload. After the upload it HEADs the object and compares its size (and
# the MD5 when the ETag is one: not for multipart objects) with the file's.
#
#   s3fault gate --writer examples/writers/rclone.sh
#
# Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_INPUT, AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); uploads the
# file $S3FAULT_INPUT to s3://$S3FAULT_BUCKET/$S3FAULT_KEY; exits 0 when rclone says it
# succeeded, non-zero otherwise. By hand, against `s3fault origin --listen 127.0.0.1:9000`
# (bucket demo created):
#
#   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
#   S3FAULT_INPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
#   AWS_REGION=us-east-1 examples/writers/rclone.sh
#
# Settings as in examples/readers/rclone.sh and tests/integration/harness.py (class Rclone):
# provider Other, path-style URLs, keys given explicitly (env_auth false), no configuration file.
# Retries (--retries 3, --low-level-retries 10) are left at rclone's defaults on purpose: the gate
# shows how the real client behaves, retries included.
# --ignore-times makes rclone upload even when an object of the same size and modification time
# already sits under the key (without it `rclone copyto` skips the file and exits 0);
# --error-on-no-transfer makes "nothing was uploaded" an error (exit 9) rather than a success.
set -euo pipefail

: "${S3FAULT_ENDPOINT:?not set}" "${S3FAULT_BUCKET:?not set}" "${S3FAULT_KEY:?not set}"
: "${S3FAULT_INPUT:?not set}" "${AWS_ACCESS_KEY_ID:?not set}" "${AWS_SECRET_ACCESS_KEY:?not set}"

rclone=/usr/bin/rclone
[ -x "$rclone" ] || rclone=$(command -v rclone) ||
  { echo "rclone.sh: rclone not found" >&2; exit 127; }

# Only the endpoint given: no HTTP proxy in between.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
# rclone 1.60 fails to set up its S3 client when AWS_CA_BUNDLE is set (see harness.py).
unset AWS_CA_BUNDLE

export RCLONE_CONFIG_S3FAULT_TYPE=s3
export RCLONE_CONFIG_S3FAULT_PROVIDER=Other
export RCLONE_CONFIG_S3FAULT_ENV_AUTH=false
export RCLONE_CONFIG_S3FAULT_ACCESS_KEY_ID=$AWS_ACCESS_KEY_ID
export RCLONE_CONFIG_S3FAULT_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY
export RCLONE_CONFIG_S3FAULT_ENDPOINT=$S3FAULT_ENDPOINT
export RCLONE_CONFIG_S3FAULT_REGION=${AWS_REGION:-${AWS_DEFAULT_REGION:-us-east-1}}
export RCLONE_CONFIG_S3FAULT_FORCE_PATH_STYLE=true

status=0
"$rclone" --config /dev/null copyto --ignore-times --error-on-no-transfer \
  "$S3FAULT_INPUT" "s3fault:$S3FAULT_BUCKET/$S3FAULT_KEY" || status=$?
if [ "$status" = 9 ]; then
  echo "rclone.sh: nothing uploaded to s3://$S3FAULT_BUCKET/$S3FAULT_KEY" >&2
fi
exit "$status"
