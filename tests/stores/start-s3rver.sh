#!/bin/bash
# Start a throw-away s3rver 3.7.1 (Node fake S3) on 127.0.0.1, for s3fault's tests.
#
#   Uses tests/node/node_modules/s3rver (installed by tests/deps.sh). Credentials S3RVER/S3RVER.
#
# Environment (all optional):
#   S3RVER_DIR   state directory (default /tmp/s3fault-s3rver); WIPED at start. Objects live in
#                $S3RVER_DIR/data, the log in $S3RVER_DIR/s3rver.log
#   S3RVER_PORT  S3 port; picked automatically among free ports when not given
#
# On success prints "S3 ready ..." and writes $S3RVER_DIR/endpoint.env:
#   S3_STORE=s3rver S3_ENDPOINT=http://127.0.0.1:PORT S3_ACCESS_KEY=S3RVER S3_SECRET_KEY=S3RVER S3_PIDS=PID
# The file appears only once the endpoint answers. Stop with stop-s3rver.sh (same S3RVER_DIR).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$script_dir/store-helpers.sh"
s3rver_js=$(cd "$script_dir/../node" && pwd)/node_modules/s3rver/bin/s3rver.js
DIR=${S3RVER_DIR:-/tmp/s3fault-s3rver}

case "$DIR" in
  "" | / | /tmp | /tmp/ | "$HOME" | "$HOME/") echo "refusing to use S3RVER_DIR=$DIR" >&2; exit 2 ;;
esac
command -v node >/dev/null || { echo "start-s3rver.sh: node not found (run tests/deps.sh)" >&2; exit 2; }
[ -f "$s3rver_js" ] || { echo "start-s3rver.sh: $s3rver_js missing (run tests/deps.sh)" >&2; exit 2; }

# Stop what a previous run in the same directory may have left behind, by its recorded PID.
S3RVER_DIR=$DIR "$script_dir/stop-s3rver.sh"

PORT=${S3RVER_PORT:-$(pick_free_port)}
if ss -Hltn "( sport = :$PORT )" | grep -q .; then
  echo "start-s3rver.sh: port $PORT is already listening" >&2
  exit 1
fi

t0=$(date +%s%N)
rm -rf "$DIR"
mkdir -p "$DIR/data"
# Own session: a test runner's process-group kill does not reach it; setsid does not fork here
# (a background job is not a group leader), so $! is node's PID.
setsid node "$s3rver_js" -d "$DIR/data" -a 127.0.0.1 -p "$PORT" --no-vhost-buckets \
  </dev/null >"$DIR/s3rver.log" 2>&1 &
pid=$!
echo "$pid" >"$DIR/pids"

ok=0
for _ in $(seq 1 300); do
  # Any HTTP answer (s3rver answers / with a bucket list or an error) means it is serving.
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$PORT/") || true
  if [ "$code" != 000 ]; then ok=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [ $ok != 1 ]; then
  echo "start-s3rver.sh: s3rver did not answer on port $PORT within 30 s; log:" >&2
  cat "$DIR/s3rver.log" >&2
  S3RVER_DIR=$DIR "$script_dir/stop-s3rver.sh"
  exit 1
fi

cat >"$DIR/endpoint.env.tmp" <<EOF
S3_STORE=s3rver
S3_ENDPOINT=http://127.0.0.1:$PORT
S3_ACCESS_KEY=S3RVER
S3_SECRET_KEY=S3RVER
S3_REGION=us-east-1
S3_PIDS="$pid"
S3RVER_DIR=$DIR
EOF
mv "$DIR/endpoint.env.tmp" "$DIR/endpoint.env"
echo "S3 ready on http://127.0.0.1:$PORT after $((($(date +%s%N) - t0) / 1000000)) ms;" \
  "pid: $pid; env: $DIR/endpoint.env"
