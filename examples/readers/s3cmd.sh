#!/bin/bash
# Reader for `s3fault gate`: s3cmd (Debian's /usr/bin/s3cmd when present, else `s3cmd` on PATH)
# downloading the object with `s3cmd get`, with a configuration file generated for the endpoint
# in a temporary directory (removed on exit). s3cmd makes a HeadObject, then one GetObject of the
# whole object, and reads Content-Length bytes of it: a body that ends early is retried from where
# it stopped (a ranged GET). s3cmd 2.3 only warns when the MD5 of what it received differs from a
# single-part ETag ("MD5 signatures do not match") and still exits 0.
#
#   s3fault gate --reader examples/readers/s3cmd.sh
#
# Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_OUTPUT, AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); writes the
# object to $S3FAULT_OUTPUT; exits 0 on success, non-zero on any error. By hand, against
# `s3fault origin --listen 127.0.0.1:9000`:
#
#   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
#   S3FAULT_OUTPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
#   AWS_REGION=us-east-1 examples/readers/s3cmd.sh
#
# Settings as in tests/integration/harness.py (class S3cmd): host_base and host_bucket both the
# endpoint's HOST:PORT (path-style URLs), signature v4, HTTPS only for an https:// endpoint, no
# proxy. s3cmd's retries (it sleeps and retries failed requests, "Retrying" on stderr) are left
# at their defaults on purpose: the gate shows how the real client behaves, retries included.
# --force overwrites an output file that already exists.
set -euo pipefail

: "${S3FAULT_ENDPOINT:?not set}" "${S3FAULT_BUCKET:?not set}" "${S3FAULT_KEY:?not set}"
: "${S3FAULT_OUTPUT:?not set}" "${AWS_ACCESS_KEY_ID:?not set}" "${AWS_SECRET_ACCESS_KEY:?not set}"

s3cmd=/usr/bin/s3cmd
[ -x "$s3cmd" ] || s3cmd=$(command -v s3cmd) ||
  { echo "s3cmd.sh: s3cmd not found" >&2; exit 127; }

# http://HOST:PORT[/] -> HOST:PORT, and whether to speak HTTPS.
case "$S3FAULT_ENDPOINT" in
  https://*) use_https=True; hostport=${S3FAULT_ENDPOINT#https://} ;;
  http://*) use_https=False; hostport=${S3FAULT_ENDPOINT#http://} ;;
  *) echo "s3cmd.sh: S3FAULT_ENDPOINT is not an http(s):// URL: $S3FAULT_ENDPOINT" >&2; exit 2 ;;
esac
hostport=${hostport%%/*}

config_dir=$(mktemp -d "${TMPDIR:-/tmp}/s3cmd-reader.XXXXXX")
trap 'rm -rf "$config_dir"' EXIT
config=$config_dir/s3cmd.cfg
# The secret goes into a file readable by this user only (mktemp -d is mode 0700).
cat >"$config" <<CFG
[default]
access_key = $AWS_ACCESS_KEY_ID
secret_key = $AWS_SECRET_ACCESS_KEY
host_base = $hostport
host_bucket = $hostport
use_https = $use_https
signature_v2 = False
bucket_location = ${AWS_REGION:-${AWS_DEFAULT_REGION:-us-east-1}}
proxy_host =
proxy_port = 0
progress_meter = False
CFG

# Not exec: the trap removes the configuration afterwards; the exit status is s3cmd's.
"$s3cmd" --config "$config" get --force "s3://$S3FAULT_BUCKET/$S3FAULT_KEY" "$S3FAULT_OUTPUT"
