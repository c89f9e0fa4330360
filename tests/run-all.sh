#!/bin/bash
# The README's test command: installs what is missing, builds incrementally, checks formatting,
# then runs every test (unit tests, and integration tests that start Ceph RGW, s3rver and
# OpenStack Swift on 127.0.0.1 and drive real clients through the proxy). Then the sanitizer pass
# (tests/run-sanitizers.sh): the same tests (but one, see there) against an ASan + UBSan build,
# the fuzz corpora, and a short run of every fuzz target. Safe to re-run.
#
#   tests/run-all.sh                  everything
#   tests/run-all.sh -R hostile       only the matching tests of the normal build (ctest args)
#   S3FAULT_SANITIZERS=0 tests/run-all.sh   skip the sanitizer pass
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tests/deps.sh"
bash "$root/tests/build.sh"
bash "$root/tests/check-format.sh"
sanitizers=0
[ $# -eq 0 ] && [ "${S3FAULT_SANITIZERS:-1}" != 0 ] && sanitizers=1

# The sanitizer build compiles at the lowest priority while the normal pass runs: the integration
# tests mostly wait on stores and clients, and the build takes only the CPU they leave idle.
build_pid=
build_log=
stop_build() {
  [ -n "$build_pid" ] && kill -- "-$build_pid" 2>/dev/null
  [ -n "$build_log" ] && rm -f "$build_log"
  true
}
trap stop_build EXIT
trap "exit 130" INT TERM
if [ $sanitizers = 1 ]; then
  build_log=$(mktemp /tmp/s3fault-sanitizer-build.XXXXXX)
  # setsid: the build is its own process group, so an early exit ends its compilers too. A new
  # session is also a new scheduler autogroup where the kernel has them (Linux's default): nice
  # then counts only inside the group, so the group itself is made nice too (by the child, once
  # it is in its own session).
  setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 bash "$0"' \
    "$root/tests/build-sanitizers.sh" >"$build_log" 2>&1 &
  build_pid=$!
fi

bash "$root/tests/run-ctest.sh" "${S3FAULT_BUILD_DIR:-$root/build}" "$@"
if [ $sanitizers = 1 ]; then
  build_status=0
  wait "$build_pid" || build_status=$?
  build_pid=
  echo "sanitizer build (at low priority during the tests above): exit $build_status"
  [ $build_status = 0 ] || { cat "$build_log"; exit $build_status; }
  bash "$root/tests/run-sanitizers.sh"
fi
