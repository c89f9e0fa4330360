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
bash "$root/tests/run-ctest.sh" "${S3FAULT_BUILD_DIR:-$root/build}" "$@"
if [ $# -eq 0 ] && [ "${S3FAULT_SANITIZERS:-1}" != 0 ]; then
  bash "$root/tests/run-sanitizers.sh"
fi
