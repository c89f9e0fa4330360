#!/bin/bash
# Stop the s3rver started by start-s3rver.sh (same S3RVER_DIR), by PID only.
#
# The PID from $S3RVER_DIR/pids is signalled only if that process is still our s3rver (its
# command line names our data directory), so a recycled PID is never hit.
# SIGTERM, then SIGKILL after 5 s. Exit status 0 when it is gone (or there was nothing to stop).
DIR=${S3RVER_DIR:-/tmp/s3fault-s3rver}
[ -f "$DIR/pids" ] || exit 0

. "$(dirname "${BASH_SOURCE[0]}")/store-helpers.sh"
ours() { tr '\0' '\n' <"/proc/$1/cmdline" 2>/dev/null | grep -qxF "$DIR/data"; }

status=0
for pid in $(cat "$DIR/pids"); do
  if ! alive "$pid" || ! ours "$pid"; then continue; fi
  kill "$pid" 2>/dev/null
  for _ in $(seq 1 100); do
    alive "$pid" || break
    sleep 0.05
  done
  if alive "$pid"; then
    kill -9 "$pid" 2>/dev/null
    for _ in $(seq 1 40); do
      alive "$pid" || break
      sleep 0.05
    done
  fi
  if alive "$pid"; then
    echo "stop-s3rver.sh: s3rver $pid of $DIR did not exit" >&2
    status=1
  fi
done
[ $status = 0 ] && rm -f "$DIR/pids" "$DIR/endpoint.env"
exit $status
