#!/bin/bash
# Start a throw-away single-node Ceph RADOS Gateway (S3) on 127.0.0.1, for s3fault's tests.
#
#   mon + osd (memstore, data in RAM) + radosgw (beast frontend); no mgr, no systemd, no /etc/ceph,
#   auth none. Needs: apt-get install --no-install-recommends ceph-mon ceph-osd radosgw (tests/deps.sh).
#
# Environment (all optional):
#   RGW_DIR      state directory (default /tmp/s3fault-rgw); WIPED at start
#   RGW_PORT     S3 port          \
#   MON_PORT     mon msgr v1 port  > picked automatically among free ports when not given
#   MON_V2_PORT  mon msgr v2 port /
#   ACCESS_KEY / SECRET_KEY   S3 credentials (default testaccesskey / testsecretkey)
#
# On success prints "S3 ready ..." and writes $RGW_DIR/endpoint.env (shell syntax, also read by
# tests/integration/harness.py):
#   S3_STORE=rgw S3_ENDPOINT=http://127.0.0.1:PORT S3_ACCESS_KEY=.. S3_SECRET_KEY=.. S3_PIDS="mon osd rgw"
# The file appears only once the endpoint answers with working credentials.
# Daemon PIDs are also in $RGW_DIR/pids; stop with stop-rgw.sh (same RGW_DIR): it kills only those.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$script_dir/store-helpers.sh"
DIR=${RGW_DIR:-/tmp/s3fault-rgw}
ACCESS_KEY=${ACCESS_KEY:-testaccesskey}
SECRET_KEY=${SECRET_KEY:-testsecretkey}

case "$DIR" in
  "" | / | /tmp | /tmp/ | "$HOME" | "$HOME/") echo "refusing to use RGW_DIR=$DIR" >&2; exit 2 ;;
esac
for tool in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph ss curl; do
  command -v "$tool" >/dev/null || { echo "start-rgw.sh: $tool not found (run tests/deps.sh)" >&2; exit 2; }
done

# A previous run in the same directory may have left daemons behind (crashed test run): stop
# them first, by the PIDs recorded there (stop-rgw.sh checks they are really ours).
RGW_DIR=$DIR "$script_dir/stop-rgw.sh"

# --- ports -----------------------------------------------------------------------------------
RGW_PORT=${RGW_PORT:-$(pick_free_port)}
MON_PORT=${MON_PORT:-$(pick_free_port "$RGW_PORT")}
MON_V2_PORT=${MON_V2_PORT:-$(pick_free_port "$RGW_PORT" "$MON_PORT")}

# Refuse to start beside another cluster: `ceph osd new` below would register with whatever mon
# answers on these ports, even another cluster's.
# Only listeners count here: connections in TIME_WAIT (say, from a proxy to an RGW that was just
# stopped) do not keep a restarted RGW from binding the same port.
for p in $MON_V2_PORT $MON_PORT $RGW_PORT; do
  if ss -Hltn "( sport = :$p )" | grep -q .; then
    echo "port $p is already in use; set MON_PORT, MON_V2_PORT and RGW_PORT to free ports" >&2
    exit 1
  fi
done

export CEPH_CONF=$DIR/ceph.conf
t0=$(date +%s%N)
rm -rf "$DIR"
mkdir -p "$DIR"/{mon/a,osd/0,log,run,rgw,crash}
FSID=$(cat /proc/sys/kernel/random/uuid)

cat >"$CEPH_CONF" <<EOF
[global]
fsid = $FSID
mon host = [v2:127.0.0.1:$MON_V2_PORT,v1:127.0.0.1:$MON_PORT]
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
# radosgw defaults ms_mon_client_mode to 'secure', which auth=none cannot do (-13 EACCES loop)
ms mon client mode = crc secure
auth cluster required = none
auth service required = none
auth client required = none
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
log file = $DIR/log/\$name.log
pid file = $DIR/run/\$name.pid
keyring = /dev/null
crash dir = $DIR/crash
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
osd objectstore = memstore
memstore device bytes = 4294967296
osd data = $DIR/osd/\$id
mon data = $DIR/mon/\$id
# speed: mon batches map changes for 1 s by default -> ~2 s per pool creation
paxos propose interval = 0.01
paxos min wait = 0.001
[mon]
mon initial members = a
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw data = $DIR/rgw
rgw thread pool size = 64
# A deleted object's data waits for garbage collection, 2 h by default: a test that writes and
# deletes gigabytes (the gate's fixtures) would fill the memstore OSD, and RGW then stops answering
# writes. Collect a second after the delete, every 5 s.
rgw gc obj min wait = 1
rgw gc processor period = 5
rgw gc processor max time = 5
EOF

# Start "$@" as a daemon in its own session (so a test runner's process-group kill or a closed
# terminal does not reach it), output to log file $1-named, and record its PID.
# setsid does not fork here (a background job is not a group leader), so $! is the daemon's PID.
start_daemon() {
  local name=$1
  shift
  setsid "$@" </dev/null >"$DIR/log/$name.out" 2>&1 &
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
last_pid_alive() { kill -0 "$(tail -1 "$DIR/pids")" 2>/dev/null; }
die() { echo "start-rgw.sh: $1; logs in $DIR/log" >&2; RGW_DIR=$DIR "$script_dir/stop-rgw.sh"; exit 1; }

# --- mon ---
monmaptool --create --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_V2_PORT,v1:127.0.0.1:$MON_PORT]" \
  "$DIR/monmap" >/dev/null
ceph-mon --mkfs -i a --monmap "$DIR/monmap" >"$DIR/log/mon-mkfs.out" 2>&1 || die "ceph-mon --mkfs failed"
: >"$DIR/pids"
start_daemon mon.a ceph-mon -f -i a

# --- osd (memstore) ---
OSD_UUID=$(cat /proc/sys/kernel/random/uuid)
OSD_ID=$(timeout 60 ceph osd new "$OSD_UUID" 2>"$DIR/log/osd-new.err") || die "ceph osd new failed"
ceph-osd -i "$OSD_ID" --mkfs --osd-uuid "$OSD_UUID" >"$DIR/log/osd-mkfs.out" 2>&1 || die "ceph-osd --mkfs failed"
start_daemon "osd.$OSD_ID" ceph-osd -f -i "$OSD_ID"
# Wait for the OSD to be active before rgw creates its pools (otherwise the first PGs are only
# created on the next mon tick: ~5 s lost). Not fatal: rgw's own wait below is the real check.
osd_active() { grep -q "state: booting -> active" "$DIR/log/osd.$OSD_ID.log" 2>/dev/null; }
wait_until 300 osd_active || echo "start-rgw.sh: warning: OSD not active after 30 s" >&2

# --- rgw ---
start_daemon rgw.a radosgw -f -n client.rgw.a
rgw_answers() {
  curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$RGW_PORT/" && return 0
  last_pid_alive || die "radosgw exited"
  return 1
}
wait_until 1200 rgw_answers || die "radosgw did not answer within 120 s"

timeout 60 radosgw-admin user create --uid=tester --display-name=tester \
  --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >"$DIR/log/user-create.out" 2>&1 ||
  die "radosgw-admin user create failed"

# Ready only when a signed request succeeds (ListBuckets with the new key).
signed_list_ok() {
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 \
    --aws-sigv4 "aws:amz:us-east-1:s3" --user "$ACCESS_KEY:$SECRET_KEY" \
    -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "http://127.0.0.1:$RGW_PORT/") || true
  [ "$code" = 200 ]
}
wait_until 300 signed_list_ok || die "signed ListBuckets did not succeed within 30 s"

pids=$(tr '\n' ' ' <"$DIR/pids" | sed 's/ $//')
cat >"$DIR/endpoint.env.tmp" <<EOF
S3_STORE=rgw
S3_ENDPOINT=http://127.0.0.1:$RGW_PORT
S3_ACCESS_KEY=$ACCESS_KEY
S3_SECRET_KEY=$SECRET_KEY
S3_REGION=us-east-1
S3_PIDS="$pids"
RGW_MON_PORT=$MON_PORT
RGW_MON_V2_PORT=$MON_V2_PORT
RGW_DIR=$DIR
EOF
mv "$DIR/endpoint.env.tmp" "$DIR/endpoint.env"
echo "S3 ready on http://127.0.0.1:$RGW_PORT after $((($(date +%s%N) - t0) / 1000000)) ms;" \
  "pids: $pids; env: $DIR/endpoint.env"
