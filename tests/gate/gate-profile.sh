#!/bin/bash
# Gates every example reader twice, against real Ceph RGW and against `s3fault origin` behind
# `s3fault proxy --profile rgw-16.2`, and renders the two side by side in
# docs/profiles/readers.md: a profile that imitates a store should leave a reader's verdicts as
# the store does.
#
#   tests/gate/gate-profile.sh [--bin PATH]
#
# Starts RGW with tests/stores/start-rgw.sh (in its own state directory), an origin and the
# profile proxy on 127.0.0.1 port 0, runs tests/gate/gate-readers.sh --no-render for each store
# (reports in docs/profiles/readers-rgw/ and docs/profiles/readers-rgw-16.2/), and once more
# against the gate's own embedded origin without a profile (docs/profiles/readers-origin/), stops
# what it started (by PID), then runs docs/profiles/render_profile_readers.py.
# About 70 minutes on 2 cores (21 gate runs of 126 reader runs each; minio-js alone takes 10).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$script_dir/../.." && pwd)
bin=$root/build/s3fault
case "${1:-}" in
  --bin) [ $# -ge 2 ] || { echo "usage: tests/gate/gate-profile.sh [--bin PATH]" >&2; exit 2; }
         bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2") ;;
  "") ;;
  *) echo "usage: tests/gate/gate-profile.sh [--bin PATH]" >&2; exit 2 ;;
esac
[ -x "$bin" ] || { echo "gate-profile.sh: $bin is not an executable (tests/build.sh)" >&2; exit 2; }
cd "$root"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/s3fault-gate-profile.XXXXXX")
export RGW_DIR=$scratch/rgw
pids=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  bash "$root/tests/stores/stop-rgw.sh" >/dev/null 2>&1 || true
  if [ "$status" = 0 ]; then rm -rf "$scratch"; else echo "gate-profile.sh: logs in $scratch" >&2; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# listen NAME COMMAND...: starts a process that prints "listening on URL" (its PID kept for the
# cleanup; not in a command substitution, whose subshell would keep the PID to itself).
listen() {
  local name=$1
  shift
  "$@" >"$scratch/$name.out" 2>"$scratch/$name.err" &
  pids+=($!)
  for _ in $(seq 100); do
    if grep -q '^listening on ' "$scratch/$name.out"; then
      return 0
    fi
    sleep 0.1
  done
  echo "gate-profile.sh: $name did not start:" >&2
  cat "$scratch/$name.err" >&2
  return 1
}
url_of() { grep '^listening on ' "$scratch/$1.out" | awk '{print $3}'; }

bash tests/stores/start-rgw.sh >"$scratch/rgw-start.log" 2>&1 || {
  cat "$scratch/rgw-start.log" >&2
  exit 1
}
# shellcheck disable=SC1091
. "$RGW_DIR/endpoint.env"
key=gate-profile-key
secret=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
listen origin "$bin" origin --listen 127.0.0.1:0 --access-key "$key" --secret-key "$secret"
listen proxy "$bin" proxy --listen 127.0.0.1:0 --upstream "$(url_of origin)" --profile rgw-16.2 \
  --resign-access-key "$key" --resign-secret-key "$secret"
profiled=$(url_of proxy)

bash tests/gate/gate-readers.sh --bin "$bin" --out docs/profiles/readers-rgw --no-render \
  --upstream "$S3_ENDPOINT" --access-key "$S3_ACCESS_KEY" --secret-key "$S3_SECRET_KEY"
bash tests/gate/gate-readers.sh --bin "$bin" --out docs/profiles/readers-rgw-16.2 --no-render \
  --upstream "$profiled" --access-key "$key" --secret-key "$secret"
# The plain origin, without the profile: where its verdicts differ from RGW's, the profile has
# something to reproduce.
bash tests/gate/gate-readers.sh --bin "$bin" --out docs/profiles/readers-origin --no-render
python3 docs/profiles/render_profile_readers.py
echo "gate-profile.sh: wrote docs/profiles/readers.md" >&2
