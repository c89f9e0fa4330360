#!/bin/bash
# An aws cli round trip through `s3fault proxy` in front of a throw-away Ceph RADOS Gateway on
# 127.0.0.1: a 40 MiB multipart upload, a listing, a download and a byte-for-byte check. Installs
# what is missing and builds first. Everything it starts is stopped by PID at the end. Safe to
# re-run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tests/deps.sh"
bash "$root/tests/build.sh" >/dev/null
s3fault=${S3FAULT_BUILD_DIR:-$root/build}/s3fault

work=$(mktemp -d /tmp/s3fault-quickstart.XXXXXX)
proxy_pid=""
cleanup() {
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null && wait "$proxy_pid" 2>/dev/null
  RGW_DIR=$work/rgw bash "$root/tests/stores/stop-rgw.sh" || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== starting Ceph RGW on 127.0.0.1"
RGW_DIR=$work/rgw bash "$root/tests/stores/start-rgw.sh" | tail -1
# shellcheck disable=SC1091
source "$work/rgw/endpoint.env"

echo "== starting s3fault proxy in front of $S3_ENDPOINT"
"$s3fault" proxy --listen 127.0.0.1:0 --upstream "$S3_ENDPOINT" \
  >"$work/proxy.out" 2>"$work/proxy.log" &
proxy_pid=$!
for _ in $(seq 1 100); do
  grep -q '^listening on ' "$work/proxy.out" && break
  kill -0 "$proxy_pid" 2>/dev/null || { cat "$work/proxy.log"; exit 1; }
  sleep 0.05
done
proxy_url=$(sed -n 's/^listening on //p' "$work/proxy.out")
echo "   $(cat "$work/proxy.out")"

export AWS_ACCESS_KEY_ID=$S3_ACCESS_KEY AWS_SECRET_ACCESS_KEY=$S3_SECRET_KEY
export AWS_CONFIG_FILE=$work/aws-config AWS_SHARED_CREDENTIALS_FILE=$work/aws-credentials
printf '[default]\nregion = us-east-1\ns3 =\n  multipart_threshold = 8MB\n  multipart_chunksize = 8MB\n' \
  >"$AWS_CONFIG_FILE"
aws=(/usr/bin/aws --endpoint-url "$proxy_url")

echo "== aws cli through the proxy"
head -c $((40 * 1024 * 1024)) /dev/urandom >"$work/upload.bin"
"${aws[@]}" s3 mb s3://quickstart
"${aws[@]}" s3 cp --no-progress "$work/upload.bin" s3://quickstart/object.bin
"${aws[@]}" s3 ls s3://quickstart
"${aws[@]}" s3 cp --no-progress s3://quickstart/object.bin "$work/download.bin"
up=$(sha256sum <"$work/upload.bin" | cut -d' ' -f1)
down=$(sha256sum <"$work/download.bin" | cut -d' ' -f1)
"${aws[@]}" s3 rm s3://quickstart/object.bin
"${aws[@]}" s3 rb s3://quickstart

echo "== what the proxy saw (one line per exchange)"
# Stopped first: it writes its log in batches, and the last lines come at its end.
kill "$proxy_pid" && wait "$proxy_pid" || true
proxy_pid=""
grep -E ' (GET|PUT|POST|HEAD|DELETE) ' "$work/proxy.log" | sed 's/^/   /'
echo "== sha256 uploaded:   $up"
echo "   sha256 downloaded: $down"
if [ "$up" = "$down" ]; then
  echo "OK: 40 MiB went up in parts and came back byte for byte through s3fault proxy"
else
  echo "MISMATCH: the downloaded object differs from the uploaded one" >&2
  exit 1
fi
