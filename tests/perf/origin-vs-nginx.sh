#!/bin/bash
# The embedded origin against nginx serving the same files: wrk reads one object from
# `s3fault origin --anonymous` and the same bytes from an nginx with 1 worker and sendfile, on
# the loads of bench-ceiling.sh (GET 4 KiB at 64 connections, GET 10 MiB at 32). The sides:
#   origin                  the defaults: memory storage, half the cores as threads
#   origin --data-dir       the object in a data directory under /tmp (sent with sendfile)
#   origin --threads NPROC  memory storage, a thread per core (the default before 2026-12)
#   nginx                   the reference
# Prints per load and side the rate, p50, p99, wrk's timeouts and errors, and the ratios of the
# rate and the p99 over nginx's; it runs to the end whatever they are (a timeout is a figure).
# A benchmark that prints figures, not a pass/fail test. Debian 12, as root (installs wrk and
# nginx through deps-perf.sh).
#
#   tests/perf/origin-vs-nginx.sh [SECONDS]     each run lasts SECONDS (default 5), 3 runs per side
#
# WITH_RGW=1 adds a side: a throw-away Ceph RADOS Gateway (tests/stores/start-rgw.sh,
# memstore) holding the same objects with a public-read ACL, so that wrk's unsigned GETs work.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-5}
# shellcheck source=tests/perf/perf-common.sh
. "$root/tests/perf/perf-common.sh"
prepare_perf_run "$root"
work=$(mktemp -d /tmp/s3fault-origin-vs.XXXXXX)
origin_pids=()
nginx_pid=
rgw_url=
cleanup() {
  local pid
  for pid in "${origin_pids[@]}"; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  [ -f "$work/rgw/pids" ] && RGW_DIR="$work/rgw" bash "$root/tests/stores/stop-rgw.sh" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

# The sides, in the order printed; nginx is added last, as the reference.
side_names=()
side_urls=()
start_origin_side() { # NAME ARGS...
  local dir
  dir="$work/side-${#side_names[@]}"
  mkdir -p "$dir"
  start_anonymous_origin "$s3fault" "$dir" origin-vs-nginx "${@:2}"
  origin_pids+=("$origin_pid")
  curl -sf -X PUT "$origin_url/same" >/dev/null
  side_names+=("$1")
  side_urls+=("$origin_url")
}
start_origin_side "origin"
start_origin_side "origin --data-dir" --data-dir "$work/origin-data"
start_origin_side "origin --threads $(nproc)" --threads "$(nproc)"

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
  side_names+=("RGW")
  side_urls+=("$rgw_url")
  rgw_aws() {
    AWS_ACCESS_KEY_ID=$S3_ACCESS_KEY AWS_SECRET_ACCESS_KEY=$S3_SECRET_KEY AWS_DEFAULT_REGION=us-east-1 \
      aws --endpoint-url "$rgw_url" s3api "$@" >/dev/null
  }
  rgw_aws create-bucket --bucket same
fi

wrk_runs() { # URL CONCURRENCY OUT: three wrk runs with --latency, their outputs in OUT
  local run
  : >"$3"
  for run in 1 2 3; do
    echo "=== run $run" >>"$3"
    # A timeout or an error answer is a figure to report, not a reason to stop.
    wrk -t2 -c"$2" -d"${seconds}s" --latency "$1" >>"$3" 2>&1 || true
  done
}

measure() { # SIZE_BYTES SIZE_NAME CONCURRENCY
  local bytes=$1 name=$2 conc=$3 index server
  head -c "$bytes" /dev/urandom >"$work/data/same/obj-$name"
  for index in "${!side_names[@]}"; do
    if [ "${side_names[$index]}" = RGW ]; then
      rgw_aws put-object --bucket same --key "obj-$name" --body "$work/data/same/obj-$name" \
        --acl public-read
    else
      curl -sf -X PUT --data-binary @"$work/data/same/obj-$name" \
        "${side_urls[$index]}/same/obj-$name" >/dev/null
    fi
  done
  # Every side serves the same bytes, or the comparison means nothing.
  local urls=("${side_urls[@]}" "$nginx_url") names=("${side_names[@]}" nginx) figures=()
  for server in "${urls[@]}"; do
    cmp -s <(curl -sf "$server/same/obj-$name") "$work/data/same/obj-$name" || {
      echo "origin-vs-nginx: $server does not return the $name object that was stored" >&2
      exit 1
    }
  done
  for index in "${!urls[@]}"; do
    wrk_runs "${urls[$index]}/same/obj-$name" "$conc" "$work/wrk-$name-$index.txt"
    figures+=("${names[$index]}=$work/wrk-$name-$index.txt")
  done
  /usr/bin/python3 "$root/tests/perf/wrk_figures.py" "GET $name c=$conc" "${figures[@]}"
}

echo "origin-vs-nginx: wrk -t2 --latency, 3 runs of ${seconds}s per side; nginx 1 worker, sendfile."
echo "  req/s, p50 and p99 are medians over the runs; timeouts (requests wrk gave up on after 2 s," \
  "left out of its percentiles) and errors (non-2xx, broken connections) are totals;" \
  "(Nx): the side's req/s and p99 over nginx's"
measure 4096 4KiB 64
measure $((10 * 1024 * 1024)) 10MiB 32
