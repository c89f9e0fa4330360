#!/bin/bash
# A short run of every fuzz target (CI): each starts from its committed corpus (seeds and found
# crashes) in a scratch copy, runs for FUZZ_SECONDS (default 20) under ASan and UBSan, and fails
# on any crash, leak, timeout or sanitizer report, keeping the input that caused it.
#
#   tests/fuzz/run-smoke.sh [build-dir]       (default: build-sanitizers)
#   FUZZ_SECONDS=600 tests/fuzz/run-smoke.sh  a longer hunt
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-sanitizers}
seconds=${FUZZ_SECONDS:-20}
work=$(mktemp -d /tmp/s3fault-fuzz.XXXXXX)
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1

# Runs one target; its output goes to $work/NAME.log.
fuzz_one() {
  local name=$1
  local corpus=$work/$name-corpus
  mkdir -p "$corpus" "$work/$name-artifacts"
  cp "$root/tests/fuzz/corpus/$name/"* "$corpus/"
  if "$build/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/$name-artifacts/" \
      "$corpus" >"$work/$name.log" 2>&1; then
    echo "ok"
  else
    echo "FAILED"
  fi
}

names=()
for dir in "$root"/tests/fuzz/corpus/*/; do
  names+=("$(basename "$dir")")
done
failed=0
# Two at a time: CI machines have two cores.
for ((i = 0; i < ${#names[@]}; i += 2)); do
  pids=()
  for name in "${names[@]:i:2}"; do
    fuzz_one "$name" >"$work/$name.verdict" &
    pids+=($!)
  done
  wait "${pids[@]}"
done
for name in "${names[@]}"; do
  verdict=$(cat "$work/$name.verdict")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
  coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$work/$name.log" | tail -1)
  inputs=$(ls "$work/$name-corpus" | wc -l)
  printf 'fuzz %-17s %-6s %9s runs in %ss, %s, corpus %s\n' "$name" "$verdict" "${runs:-?}" \
    "$seconds" "${coverage:-no coverage line}" "$inputs"
  if [ "$verdict" != ok ]; then
    failed=1
    echo "----- fuzz_$name output (last 60 lines) -----"
    tail -60 "$work/$name.log"
    for artifact in "$work/$name-artifacts/"*; do
      [ -e "$artifact" ] || continue
      echo "input that failed: $artifact ($(wc -c <"$artifact") bytes; add it to tests/fuzz/corpus/$name/ as crash-<what> once fixed)"
    done
  fi
done
if [ $failed = 0 ]; then
  rm -rf "$work"
else
  echo "fuzz: kept $work"
fi
exit $failed
