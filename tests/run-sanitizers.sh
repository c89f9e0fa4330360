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
# Left to the normal pass, where their verdicts are judged: whole gate matrices whose s3fault
# code the tests run here already drive. Under the sanitizers they add minutes of waiting
# (stalls, throttles, a reader's back-off) and of aws cli start-ups.
# - gate.aws_cli_reader: aws cli through every scenario; the gate, proxy and origin code is
#   the same as for the built-in readers.
# - gate.builtin_readers.naive_parts and .ranged: the same matrix as .robust_parts (run here,
#   at --jobs 4), with a simpler reader whose code the reader unit tests run here too.
# - gate.jobs: that matrix again at --jobs 1 and 4 to compare verdicts; gate.ctrl_c (run here)
#   keeps the gate's stop path under the sanitizers.
# - gate.judge: verdicts of readers made to fool the gate; what they drive in the gate, proxy
#   and origin the gate tests run here drive too (gate.builtin_readers.robust_parts, .repro,
#   .scenario_files, .ctrl_c).
# - scale.*: the examples' commands against --help, and the mpirun example, whose shards and
#   merge bench.shard (run here) drives the same way.
# - package.*: the Debian package holds the normal build's binary, not this one.
# - bench.html: four benches to compare a page with the terminal and the JSON; the page is
#   rendered here by the bench report unit tests, and bench.shard and the other bench tests run
#   the same bench code.
# - profile.s3rver: the audit and profile code it runs is run here by profile.rgw and
#   audit.s3rver.
# - timeline: seconds of paced traffic for drift verdicts; the proxy's and the bench's timeline
#   code runs here in timeline.cgroup and timeline_cgroup.rgw, and the drift in the metrics
#   unit tests.
# - report.timeline_page: Chromium reading the page; the page's code runs here in the metrics
#   unit tests (TimelineHtml).
if [ $# -eq 0 ]; then
  export S3FAULT_CTEST_EXCLUDE='^(integration\.origin\.(gate\.(judge|aws_cli_reader|builtin_readers\.(naive_parts|ranged)|jobs)|scale\..*|bench\.html|timeline)|integration\.profile\.s3rver|integration\.report\.timeline_page|package\..*)$'
fi
bash "$root/tests/run-ctest.sh" "$build" "$@"
bash "$root/tests/fuzz/run-smoke.sh" "$build"
