#!/bin/bash
# The embedded origin against nginx serving the same files: wrk reads one object from
# `s3fault origin --anonymous` (memory storage) and the same bytes from an nginx with 1 worker
# and sendfile, on the loads of bench-ceiling.sh (GET 4 KiB at 64 connections, GET 10 MiB at
# 32). Prints one line per load with both rates and the ratio; a benchmark that prints figures,
# not a pass/fail test. Debian 12, as root (installs wrk and nginx through deps-perf.sh).
#
#   tests/perf/origin-vs-nginx.sh [SECONDS]     each run lasts SECONDS (default 5), 3 runs per side
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-5}
bash "$root/tests/perf/deps-perf.sh"
bash "$root/tests/build.sh" >/dev/null
s3fault=${S3FAULT_BIN:-$root/build/s3fault}
work=$(mktemp -d /tmp/s3fault-origin-vs.XXXXXX)
origin_pid=
nginx_pid=
cleanup() {
  [ -n "$origin_pid" ] && kill "$origin_pid" 2>/dev/null && wait "$origin_pid" 2>/dev/null
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$s3fault" origin --listen 127.0.0.1:0 --anonymous >"$work/origin.log" 2>&1 &
origin_pid=$!
for _ in $(seq 100); do
  grep -q '^listening on ' "$work/origin.log" && break
  sleep 0.1
done
origin_url=$(sed -n 's/^listening on //p' "$work/origin.log" | head -n 1)
[ -n "$origin_url" ] || { echo "origin-vs-nginx: the origin did not start" >&2; exit 1; }
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

# The median of three numbers, one per line.
median() { sort -g | sed -n 2p; }

wrk_rate() { # URL CONCURRENCY
  for _ in 1 2 3; do
    wrk -t2 -c"$2" -d"${seconds}s" "$1" | sed -n 's/^Requests\/sec: *//p'
  done | median
}

measure() { # SIZE_BYTES SIZE_NAME CONCURRENCY
  local bytes=$1 name=$2 conc=$3
  head -c "$bytes" /dev/urandom >"$work/data/same/obj-$name"
  curl -sf -X PUT --data-binary @"$work/data/same/obj-$name" "$origin_url/same/obj-$name" >/dev/null
  # Both serve the same bytes, or the comparison means nothing.
  cmp -s <(curl -sf "$origin_url/same/obj-$name") "$work/data/same/obj-$name" &&
    cmp -s <(curl -sf "$nginx_url/same/obj-$name") "$work/data/same/obj-$name" || {
    echo "origin-vs-nginx: the two servers do not return the same $name object" >&2
    exit 1
  }
  local origin nginx
  origin=$(wrk_rate "$origin_url/same/obj-$name" "$conc")
  nginx=$(wrk_rate "$nginx_url/same/obj-$name" "$conc")
  /usr/bin/python3 - "$name" "$conc" "$origin" "$nginx" <<'EOF'
import sys
name, conc, origin, nginx = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
print(f"GET {name:6} c={conc:<3} s3fault origin {origin:10.1f} req/s   nginx {nginx:10.1f} req/s   "
      f"origin/nginx {origin / nginx:.2f}x")
EOF
}

echo "origin-vs-nginx: wrk -t2, medians of 3 runs of ${seconds}s per side; nginx 1 worker, sendfile"
measure 4096 4KiB 64
measure $((10 * 1024 * 1024)) 10MiB 32
