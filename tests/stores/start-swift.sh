#!/bin/bash
# Start a throw-away OpenStack Swift all-in-one with the s3api middleware on 127.0.0.1, for
# s3fault's tests.
#
#   account + container + object servers (one replica, one device in $SWIFT_DIR, rings built on
#   the fly) + proxy server (s3api, tempauth, slo for multipart, object versioning) + a private
#   memcached for the proxy's `cache` filter (tempauth keeps its tokens there). No systemd, no
#   /etc/swift, no system memcached. Needs: apt-get install --no-install-recommends swift-proxy
#   swift-object swift-container swift-account memcached (tests/deps.sh).
#
# Environment (all optional):
#   SWIFT_DIR             state directory (default /tmp/s3fault-swift); WIPED at start
#   SWIFT_PORT            S3 (proxy) port    \
#   SWIFT_ACCOUNT_PORT    account server      \
#   SWIFT_CONTAINER_PORT  container server     > picked automatically among free ports
#   SWIFT_OBJECT_PORT     object server       /  when not given
#   SWIFT_MEMCACHED_PORT  the private memcached
#   The S3 credentials are tempauth's: access key `test:tester`, secret `testing`.
#
# On success prints "S3 ready ..." and writes $SWIFT_DIR/endpoint.env (shell syntax, also read by
# tests/integration/harness.py):
#   S3_STORE=swift S3_ENDPOINT=http://127.0.0.1:PORT S3_ACCESS_KEY=test:tester
#   S3_SECRET_KEY=testing S3_PIDS="memcached account container object proxy"
# The file appears only once a signed S3 request (ListBuckets) succeeds.
# Daemon PIDs are also in $SWIFT_DIR/pids; stop with stop-swift.sh (same SWIFT_DIR): it kills only
# those. Server logs (run with -v, so they reach stderr) are in $SWIFT_DIR/log.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$script_dir/store-helpers.sh"
DIR=${SWIFT_DIR:-/tmp/s3fault-swift}
ACCESS_KEY=test:tester
SECRET_KEY=testing

case "$DIR" in
  "" | / | /tmp | /tmp/ | "$HOME" | "$HOME/") echo "refusing to use SWIFT_DIR=$DIR" >&2; exit 2 ;;
esac
for tool in swift-proxy-server swift-account-server swift-container-server swift-object-server \
  swift-ring-builder memcached ss curl /usr/bin/python3; do
  command -v "$tool" >/dev/null || {
    echo "start-swift.sh: $tool not found (run tests/deps.sh)" >&2
    exit 2
  }
done

# A previous run in the same directory may have left daemons behind (crashed test run): stop
# them first, by the PIDs recorded there (stop-swift.sh checks they are really ours).
SWIFT_DIR=$DIR "$script_dir/stop-swift.sh"

# --- ports -----------------------------------------------------------------------------------
SWIFT_PORT=${SWIFT_PORT:-$(pick_free_port)}
SWIFT_ACCOUNT_PORT=${SWIFT_ACCOUNT_PORT:-$(pick_free_port "$SWIFT_PORT")}
SWIFT_CONTAINER_PORT=${SWIFT_CONTAINER_PORT:-$(pick_free_port "$SWIFT_PORT" "$SWIFT_ACCOUNT_PORT")}
SWIFT_OBJECT_PORT=${SWIFT_OBJECT_PORT:-$(pick_free_port "$SWIFT_PORT" "$SWIFT_ACCOUNT_PORT" \
  "$SWIFT_CONTAINER_PORT")}
SWIFT_MEMCACHED_PORT=${SWIFT_MEMCACHED_PORT:-$(pick_free_port "$SWIFT_PORT" "$SWIFT_ACCOUNT_PORT" \
  "$SWIFT_CONTAINER_PORT" "$SWIFT_OBJECT_PORT")}

# Refuse to start on a taken port: the proxy would otherwise talk to another cluster's servers
# or another memcached (and its tokens). Only listeners count: connections in TIME_WAIT from a
# Swift that was just stopped do not keep a restarted one from binding the same port.
all_ports=("$SWIFT_PORT" "$SWIFT_ACCOUNT_PORT" "$SWIFT_CONTAINER_PORT" "$SWIFT_OBJECT_PORT"
  "$SWIFT_MEMCACHED_PORT")
if [ "$(printf '%s\n' "${all_ports[@]}" | sort -u | wc -l)" != 5 ]; then
  echo "start-swift.sh: the five ports must differ: ${all_ports[*]}" >&2
  exit 1
fi
for p in "${all_ports[@]}"; do
  if ss -Hltn "( sport = :$p )" | grep -q .; then
    echo "port $p is already in use; set SWIFT_PORT, SWIFT_ACCOUNT_PORT, SWIFT_CONTAINER_PORT," \
      "SWIFT_OBJECT_PORT and SWIFT_MEMCACHED_PORT to free ports" >&2
    exit 1
  fi
done

t0=$(date +%s%N)
rm -rf "$DIR"
mkdir -p "$DIR"/{node/d1,log}
# The servers drop privileges to `user` (default: swift); stay who we are, so they can write $DIR.
user=$(id -un)

# Swift reads swift.conf (hash prefix/suffix, storage policies) and the rings from swift_dir.
cat >"$DIR/swift.conf" <<EOF
[swift-hash]
swift_hash_path_suffix = s3fault
swift_hash_path_prefix = s3fault
[storage-policy:0]
name = Policy-0
default = yes
[swift-constraints]
# ListParts and s3api's max_upload_part_num below go up to S3's 10000 parts.
container_listing_limit = 10000
EOF

# --- rings and storage servers ----------------------------------------------------------------
# One device, one replica, 2^4 partitions: all data on $DIR/node/d1.
for server in account:"$SWIFT_ACCOUNT_PORT" container:"$SWIFT_CONTAINER_PORT" \
  object:"$SWIFT_OBJECT_PORT"; do
  name=${server%%:*}
  port=${server##*:}
  (
    cd "$DIR"
    swift-ring-builder "$name.builder" create 4 1 1
    swift-ring-builder "$name.builder" add "r1z1-127.0.0.1:$port/d1" 1
    swift-ring-builder "$name.builder" rebalance
  ) >>"$DIR/log/rings.out" 2>&1 || {
    echo "start-swift.sh: building the $name ring failed; see $DIR/log/rings.out" >&2
    exit 1
  }
  cat >"$DIR/$name-server.conf" <<EOF
[DEFAULT]
swift_dir = $DIR
devices = $DIR/node
mount_check = false
bind_ip = 127.0.0.1
bind_port = $port
workers = 0
user = $user
log_name = $name-server
[pipeline:main]
pipeline = $name-server
[app:$name-server]
use = egg:swift#$name
EOF
done

# --- proxy ------------------------------------------------------------------------------------
# Pipeline order as in Swift's proxy-server.conf-sample (s3api checks it at start-up): s3api just
# before tempauth, slo after them (multipart uploads are SLO manifests), versioned_writes (with
# allow_object_versioning: the `object_versioning` that s3api's PUT ?versioning needs) followed
# by symlink, which object versioning is built on.
cat >"$DIR/proxy-server.conf" <<EOF
[DEFAULT]
swift_dir = $DIR
bind_ip = 127.0.0.1
bind_port = $SWIFT_PORT
workers = 0
user = $user
log_name = proxy-server

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk
  s3api tempauth copy slo dlo versioned_writes symlink proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
# The region in GetBucketLocation and the one SigV4 signatures are checked against.
location = us-east-1
# S3 ACLs kept by s3api (owner, grants) instead of Swift container ACLs: ACL answers and owner
# checks as S3 gives them.
s3_acl = true
# ListBuckets lists only the requester's buckets (needs s3_acl).
check_bucket_owner = true
dns_compliant_bucket_names = true
allow_multipart_uploads = true
# AWS: every part but the last at least 5 MiB (EntityTooSmall), up to 10000 parts.
min_segment_size = 5242880
max_upload_part_num = 10000
max_parts_listing = 1000
allowable_clock_skew = 900

[filter:tempauth]
use = egg:swift#tempauth
# S3 access key test:tester (account:user), secret testing; .admin owns the account.
user_test_tester = $SECRET_KEY .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$SWIFT_MEMCACHED_PORT

[filter:slo]
use = egg:swift#slo
# As many segments as s3api's max_upload_part_num.
max_manifest_segments = 10000

[filter:versioned_writes]
use = egg:swift#versioned_writes
allow_object_versioning = true

[filter:symlink]
use = egg:swift#symlink

[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:bulk]
use = egg:swift#bulk
[filter:copy]
use = egg:swift#copy
[filter:dlo]
use = egg:swift#dlo
EOF

# Start "$@" as a daemon in its own session (so a test runner's process-group kill or a closed
# terminal does not reach it), output to log file $1-named, and record its PID. Each daemon
# carries S3FAULT_SWIFT_DIR=$DIR in its environment: stop-swift.sh signals only PIDs that do.
# setsid does not fork here (a background job is not a group leader) and env execs, so $! is the
# daemon's PID.
start_daemon() {
  local name=$1
  shift
  setsid env S3FAULT_SWIFT_DIR="$DIR" "$@" </dev/null >"$DIR/log/$name.log" 2>&1 &
  echo $! >>"$DIR/pids"
}

# Up to $1 tenths of a second, until command "${@:2}" succeeds; fails otherwise.
wait_until() {
  local tenths=$1
  shift
  for _ in $(seq 1 "$tenths"); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}
all_alive() {
  local pid
  while read -r pid; do kill -0 "$pid" 2>/dev/null || return 1; done <"$DIR/pids"
}
die() {
  echo "start-swift.sh: $1; logs in $DIR/log" >&2
  SWIFT_DIR=$DIR "$script_dir/stop-swift.sh"
  exit 1
}

: >"$DIR/pids"
# memcached refuses to run as root unless told which user to be.
memcached_user=()
[ "$(id -u)" = 0 ] && memcached_user=(-u root)
start_daemon memcached memcached -l 127.0.0.1 -p "$SWIFT_MEMCACHED_PORT" -U 0 -m 64 \
  "${memcached_user[@]}"
# -v: log to stderr (the log file) as well. Swift also logs to syslog: /dev/log when it is a
# socket, else UDP to 127.0.0.1:514 (its built-in fallback; nothing needs to listen there).
for name in account container object; do
  start_daemon "$name" "swift-$name-server" "$DIR/$name-server.conf" -v
done
start_daemon proxy swift-proxy-server "$DIR/proxy-server.conf" -v

# Any HTTP answer from each storage server, and the proxy's /healthcheck.
listening() { ss -Hltn "( sport = :$1 )" | grep -q .; }
servers_answer() {
  all_alive || die "a Swift daemon exited"
  local p
  for p in $SWIFT_MEMCACHED_PORT $SWIFT_ACCOUNT_PORT $SWIFT_CONTAINER_PORT $SWIFT_OBJECT_PORT; do
    listening "$p" || return 1
  done
  [ "$(curl -s --max-time 2 "http://127.0.0.1:$SWIFT_PORT/healthcheck")" = OK ]
}
wait_until 600 servers_answer || die "Swift did not answer within 60 s"

# Ready only when a signed S3 request succeeds: ListBuckets through s3api, tempauth (which needs
# memcached) and the account server. curl's --aws-sigv4 cannot take an access key with a colon,
# so botocore (python3-boto3) signs it.
signed_list_ok() {
  /usr/bin/python3 - "http://127.0.0.1:$SWIFT_PORT/" "$ACCESS_KEY" "$SECRET_KEY" \
    <<'EOF' >/dev/null 2>&1
import sys, urllib.request
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
url, key, secret = sys.argv[1:]
request = AWSRequest(method="GET", url=url, headers={"x-amz-content-sha256": "UNSIGNED-PAYLOAD"})
SigV4Auth(Credentials(key, secret), "s3", "us-east-1").add_auth(request)
signed = urllib.request.Request(url, headers=dict(request.headers))
with urllib.request.urlopen(signed, timeout=5) as response:
    sys.exit(0 if response.status == 200 else 1)
EOF
}
wait_until 300 signed_list_ok || die "signed ListBuckets did not succeed within 30 s"

pids=$(tr '\n' ' ' <"$DIR/pids" | sed 's/ $//')
cat >"$DIR/endpoint.env.tmp" <<EOF
S3_STORE=swift
S3_ENDPOINT=http://127.0.0.1:$SWIFT_PORT
S3_ACCESS_KEY=$ACCESS_KEY
S3_SECRET_KEY=$SECRET_KEY
S3_REGION=us-east-1
S3_PIDS="$pids"
SWIFT_ACCOUNT_PORT=$SWIFT_ACCOUNT_PORT
SWIFT_CONTAINER_PORT=$SWIFT_CONTAINER_PORT
SWIFT_OBJECT_PORT=$SWIFT_OBJECT_PORT
SWIFT_MEMCACHED_PORT=$SWIFT_MEMCACHED_PORT
SWIFT_DIR=$DIR
EOF
mv "$DIR/endpoint.env.tmp" "$DIR/endpoint.env"
echo "S3 ready on http://127.0.0.1:$SWIFT_PORT after $((($(date +%s%N) - t0) / 1000000)) ms;" \
  "pids: $pids; env: $DIR/endpoint.env"
