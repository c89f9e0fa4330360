#!/bin/bash
# The embedded origin against nginx serving the same files: wrk reads one object from
# `s3fault origin --anonymous` (memory storage) and the same bytes from an nginx with 1 worker
# and sendfile, on the loads of bench-ceiling.sh (GET 4 KiB at 64 connections, GET 10 MiB at
# 32). Prints one line per load with both rates and the ratio; a benchmark that prints figures,
# not a pass/fail test. Debian 12, as root (installs wrk and nginx through deps-perf.sh).
#
#   tests/perf/origin-vs-nginx.sh [SECONDS]     each run lasts SECONDS (default 5), 3 runs per side
#
# WITH_RGW=1 adds a third side: a throw-away Ceph RADOS Gateway (tests/stores/start-rgw.sh,
# memstore) holding the same objects with a public-read ACL, so that wrk's unsigned GETs work.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-5}
# shellcheck source=tests/perf/perf-common.sh
. "$root/tests/perf/perf-common.sh"
prepare_perf_run "$root"
work=$(mktemp -d /tmp/s3fault-origin-vs.XXXXXX)
origin_pid=
nginx_pid=
rgw_url=
cleanup() {
  [ -n "$origin_pid" ] && kill "$origin_pid" 2>/dev/null && wait "$origin_pid" 2>/dev/null
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  [ -f "$work/rgw/pids" ] && RGW_DIR="$work/rgw" bash "$root/tests/stores/stop-rgw.sh" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

start_anonymous_origin "$s3fault" "$work" origin-vs-nginx
curl -sf -X PUT "$origin_url/same" >/dev/null

# A free port for nginx: bind port 0 once and give it back.
nginx_port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/data/same" "$work/nginx-body"
cat >"$work/nginx.conf" <<EOF
user root; daemon off; master_process on; worker_processes 1; pid $work/nginx.pid;
error_log $work/nginx.error.log warn;
events { worker_connections 4096; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path $work/nginx-body;
  server { listen 127.0.0.1:$nginx_port reuseport backlog=4096; root $work/data; }
}
EOF
nginx -c "$work/nginx.conf" -e "$work/nginx.error.log" &
nginx_pid=$!
nginx_url=http://127.0.0.1:$nginx_port
for _ in $(seq 100); do
  curl -s -o /dev/null "$nginx_url/" && break
  sleep 0.1
done

if [ "${WITH_RGW:-}" = 1 ]; then
  RGW_DIR="$work/rgw" bash "$root/tests/stores/start-rgw.sh" >"$work/rgw.log" 2>&1 || {
    echo "origin-vs-nginx: RGW did not start:" >&2
    tail -n 20 "$work/rgw.log" >&2
    exit 1
  }
  # shellcheck disable=SC1091
  . "$work/rgw/endpoint.env"
  rgw_url=$S3_ENDPOINT
  rgw_aws() {
    AWS_ACCESS_KEY_ID=$S3_ACCESS_KEY AWS_SECRET_ACCESS_KEY=$S3_SECRET_KEY AWS_DEFAULT_REGION=us-east-1 \
      aws --endpoint-url "$rgw_url" s3api "$@" >/dev/null
  }
  rgw_aws create-bucket --bucket same
fi

wrk_rate() { # URL CONCURRENCY
  local run out
  for run in 1 2 3; do
    out=$(wrk -t2 -c"$2" -d"${seconds}s" "$1")
    # A rate of error answers or broken connections is not the server's rate.
    if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
      echo "origin-vs-nginx: $1 at c=$2, run $run: not every answer was a success:" >&2
      echo "$out" >&2
      exit 1
    fi
    sed -n 's/^Requests\/sec: *//p' <<<"$out"
  done | median
}

measure() { # SIZE_BYTES SIZE_NAME CONCURRENCY
  local bytes=$1 name=$2 conc=$3
  head -c "$bytes" /dev/urandom >"$work/data/same/obj-$name"
  curl -sf -X PUT --data-binary @"$work/data/same/obj-$name" "$origin_url/same/obj-$name" >/dev/null
  local servers=("$origin_url" "$nginx_url")
  if [ -n "$rgw_url" ]; then
    rgw_aws put-object --bucket same --key "obj-$name" --body "$work/data/same/obj-$name" \
      --acl public-read
    servers+=("$rgw_url")
  fi
  # Every side serves the same bytes, or the comparison means nothing.
  local server rates=()
  for server in "${servers[@]}"; do
    cmp -s <(curl -sf "$server/same/obj-$name") "$work/data/same/obj-$name" || {
      echo "origin-vs-nginx: $server does not return the $name object that was stored" >&2
      exit 1
    }
  done
  local rate
  for server in "${servers[@]}"; do
    rate=$(wrk_rate "$server/same/obj-$name" "$conc")
    rates+=("$rate")
  done
  /usr/bin/python3 - "$name" "$conc" "${rates[@]}" <<'EOF'
import sys
name, conc, origin, nginx, *rgw = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
line = (f"GET {name:6} c={conc:<3} s3fault origin {origin:10.1f} req/s   nginx {nginx:10.1f} req/s "
        f"({origin / nginx:.2f}x)")
if rgw:
    line += f"   RGW {rgw[0]:10.1f} req/s ({origin / rgw[0]:.2f}x)"
print(line)
EOF
}

echo "origin-vs-nginx: wrk -t2, medians of 3 runs of ${seconds}s per side; nginx 1 worker, sendfile;" \
  "(Nx): the origin's rate over that side's"
measure 4096 4KiB 64
measure $((10 * 1024 * 1024)) 10MiB 32
