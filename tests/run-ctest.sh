#!/bin/bash
# Runs the CTest suite of one build directory, for tests/run-all.sh and tests/run-sanitizers.sh.
# Without arguments: the unit tests (independent processes, no servers, no timing) two at a time,
# then every other test one at a time, as the stores' fixtures and the measuring tests expect.
# With arguments: exactly `ctest ARGS` (e.g. -R hostile).
# S3FAULT_CTEST_EXCLUDE (a ctest -E regex) leaves matching tests out of the second part.
#
#   tests/run-ctest.sh BUILD_DIR [ctest arguments...]
set -euo pipefail
build=$1
shift
cd "$build"
if [ $# -gt 0 ]; then
  exec ctest --output-on-failure --timeout 900 "$@"
fi
status=0
ctest --output-on-failure --timeout 900 -L '^unit$' -j "${S3FAULT_UNIT_JOBS:-2}" || status=$?
exclude=()
[ -n "${S3FAULT_CTEST_EXCLUDE:-}" ] && exclude=(-E "$S3FAULT_CTEST_EXCLUDE")
ctest --output-on-failure --timeout 900 -LE '^unit$' "${exclude[@]}" || status=$?
exit $status
