#!/bin/bash
# Reader for `s3fault gate`: rclone (Debian's /usr/bin/rclone when present, else `rclone` on PATH)
# downloading the object with `rclone copyto`, through a remote defined on the fly by
# RCLONE_CONFIG_S3FAULT_* environment variables (no rclone.conf is read or written). rclone makes
# two HeadObjects, then one GetObject of the whole object (multi-thread downloads only start at
# --multi-thread-cutoff, 250 MiB), writes to a partial file and checks the size it received
# (and the MD5 when the ETag is one: not for multipart objects) before renaming it to the output.
#
#   s3fault gate --reader examples/readers/rclone.sh
#
# Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_OUTPUT, AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); writes the
# object to $S3FAULT_OUTPUT; exits 0 on success, non-zero on any error. By hand, against
# `s3fault origin --listen 127.0.0.1:9000`:
#
#   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
#   S3FAULT_OUTPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
#   AWS_REGION=us-east-1 examples/readers/rclone.sh
#
# Settings as in tests/integration/harness.py (class Rclone): provider Other, path-style URLs,
# keys given explicitly (env_auth false). Retries (--retries 3, --low-level-retries 10) are left
# at rclone's defaults on purpose: the gate shows how the real client behaves, retries included.
# --ignore-times makes rclone transfer even when an output file of the same size already exists;
# --error-on-no-transfer makes a missing object an error (exit 9): without it `rclone copyto`
# of a key that does not exist copies nothing and exits 0.
set -euo pipefail

: "${S3FAULT_ENDPOINT:?not set}" "${S3FAULT_BUCKET:?not set}" "${S3FAULT_KEY:?not set}"
: "${S3FAULT_OUTPUT:?not set}" "${AWS_ACCESS_KEY_ID:?not set}" "${AWS_SECRET_ACCESS_KEY:?not set}"

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
  "s3fault:$S3FAULT_BUCKET/$S3FAULT_KEY" "$S3FAULT_OUTPUT" || status=$?
if [ "$status" = 9 ]; then
  echo "rclone.sh: nothing copied: s3://$S3FAULT_BUCKET/$S3FAULT_KEY is not an object" >&2
fi
exit "$status"
