#!/bin/bash
# The sanitizer pass of the test command: builds everything with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer (tests/build-sanitizers.sh), runs the unit, wire and integration
# tests against that build, replays the fuzz corpora, then gives each fuzz target a short run.
# Any sanitizer report fails the test it happened in: UBSan halts on the first error, ASan's
# leak check turns a leak at exit into a failing exit status.
#
#   tests/run-sanitizers.sh [ctest arguments...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${S3FAULT_SANITIZER_BUILD_DIR:-$root/build-sanitizers}
bash "$root/tests/build-sanitizers.sh"
export ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Tests that assert resident memory read it with this set: ASan's shadow memory and quarantine
# make RSS figures meaningless, so they check descriptors and behaviour but not RSS.
export S3FAULT_SANITIZED=1
# The gate of the aws cli example reader runs in the normal pass only: under the sanitizers it
# adds minutes of aws cli start-ups and no s3fault code that gate.builtin_readers and gate.judge
# (run here) do not already drive through every fault of the matrix.
if [ $# -eq 0 ]; then
  export S3FAULT_CTEST_EXCLUDE='^integration\.origin\.gate\.aws_cli_reader$'
fi
bash "$root/tests/run-ctest.sh" "$build" "$@"
bash "$root/tests/fuzz/run-smoke.sh" "$build"
