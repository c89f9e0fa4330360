#!/bin/bash
# Stop the daemons started by start-rgw.sh (same RGW_DIR), by PID only.
#
# A PID from $RGW_DIR/pids is signalled only if that process still belongs to this cluster (its
# environment carries CEPH_CONF=$RGW_DIR/ceph.conf), so a recycled PID is never hit.
# Default: SIGKILL (state is throw-away memstore; a graceful stop costs ~2 s per daemon, and
# rgw/osd hang on SIGTERM if the mon is already gone).
# GRACEFUL=1: SIGTERM in order rgw -> osd -> mon, each waited for.
# Exit status 0 when none of our daemons is left running (also when there was nothing to stop).
DIR=${RGW_DIR:-/tmp/s3fault-rgw}
[ -f "$DIR/pids" ] || exit 0

. "$(dirname "${BASH_SOURCE[0]}")/store-helpers.sh"
ours() { tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | grep -qxF "CEPH_CONF=$DIR/ceph.conf"; }

ours_pids=()
for pid in $(tac "$DIR/pids"); do
  alive "$pid" && ours "$pid" && ours_pids+=("$pid")
done

status=0
if [ "${GRACEFUL:-0}" = 1 ]; then
  for pid in "${ours_pids[@]}"; do
    kill "$pid" 2>/dev/null
    wait_gone "$pid" || status=1
  done
else
  for pid in "${ours_pids[@]}"; do kill -9 "$pid" 2>/dev/null; done
  for pid in "${ours_pids[@]}"; do wait_gone "$pid" || status=1; done
fi
if [ $status = 0 ]; then
  rm -f "$DIR/pids" "$DIR/endpoint.env"
else
  echo "stop-rgw.sh: some daemons of $DIR did not exit: ${ours_pids[*]}" >&2
fi
exit $status
