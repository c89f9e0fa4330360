#!/bin/bash
# Writer for `s3fault gate --writer`: s3cmd (Debian's /usr/bin/s3cmd when present, else `s3cmd`
# on PATH) uploading the input with `s3cmd put`, with a configuration file generated for the
# endpoint in a temporary directory (removed on exit). s3cmd makes one PutObject for a file up to
# its multipart chunk size (multipart_chunk_size_mb, 15 MiB by default); above it a
# CreateMultipartUpload, UploadParts of 15 MiB one after the other and a
# CompleteMultipartUpload. It compares the ETag of each answer with the MD5 of what it sent. A
# 503 is retried after a wait, at a lower speed; a 400 (a body that does not match its signed
# SHA-256) is not. A CompleteMultipartUpload answered 200 with an Error body is an error, not
# retried, and s3cmd 2.3 leaves that upload open (its abort is a no-op).
#
#   s3fault gate --writer examples/writers/s3cmd.sh
#
# Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_INPUT, AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); uploads the
# file $S3FAULT_INPUT to s3://$S3FAULT_BUCKET/$S3FAULT_KEY; exits 0 when s3cmd says it
# succeeded, non-zero otherwise. By hand, against `s3fault origin --listen 127.0.0.1:9000`
# (bucket demo created):
#
#   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
#   S3FAULT_INPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
#   AWS_REGION=us-east-1 examples/writers/s3cmd.sh
#
# Settings as in examples/readers/s3cmd.sh and tests/integration/harness.py (class S3cmd):
# host_base and host_bucket both the endpoint's HOST:PORT (path-style URLs), signature v4, HTTPS
# only for an https:// endpoint, no proxy; no ~/.s3cfg is read. s3cmd's retries (it sleeps and
# retries failed requests, "Retrying" on stderr) and its multipart chunk size are left at their
# defaults on purpose: the gate shows how the real client behaves, retries included.
set -euo pipefail

: "${S3FAULT_ENDPOINT:?not set}" "${S3FAULT_BUCKET:?not set}" "${S3FAULT_KEY:?not set}"
: "${S3FAULT_INPUT:?not set}" "${AWS_ACCESS_KEY_ID:?not set}" "${AWS_SECRET_ACCESS_KEY:?not set}"

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

config_dir=$(mktemp -d "${TMPDIR:-/tmp}/s3cmd-writer.XXXXXX")
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
"$s3cmd" --config "$config" put "$S3FAULT_INPUT" "s3://$S3FAULT_BUCKET/$S3FAULT_KEY"
