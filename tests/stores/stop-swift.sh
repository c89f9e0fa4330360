#!/bin/bash
# Stop the daemons started by start-swift.sh (same SWIFT_DIR), by PID only.
#
# A PID from $SWIFT_DIR/pids is signalled only if that process still belongs to this Swift (its
# environment carries S3FAULT_SWIFT_DIR=$SWIFT_DIR), so a recycled PID is never hit.
# SIGTERM in the reverse order of start (proxy first, memcached last), SIGKILL after 5 s.
# Exit status 0 when none of our daemons is left running (also when there was nothing to stop).
DIR=${SWIFT_DIR:-/tmp/s3fault-swift}
[ -f "$DIR/pids" ] || exit 0

. "$(dirname "${BASH_SOURCE[0]}")/store-helpers.sh"
ours() { tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | grep -qxF "S3FAULT_SWIFT_DIR=$DIR"; }

ours_pids=()
for pid in $(tac "$DIR/pids"); do
  alive "$pid" && ours "$pid" && ours_pids+=("$pid")
done

status=0
for pid in "${ours_pids[@]}"; do kill "$pid" 2>/dev/null; done
for pid in "${ours_pids[@]}"; do wait_gone "$pid" || status=1; done
if [ $status = 0 ]; then
  rm -f "$DIR/pids" "$DIR/endpoint.env"
else
  echo "stop-swift.sh: some daemons of $DIR did not exit: ${ours_pids[*]}" >&2
fi
exit $status
