#!/bin/bash
# The bench's own ceiling: `s3fault bench` against wrk on the same loads against the same
# `s3fault origin --anonymous` (memory storage), so that what the bench reports is known to be
# the store's limit and not the bench's. Prints one line per load with both rates and the ratio;
# a benchmark that prints figures, not a pass/fail test. Debian 12, as root (installs wrk).
#
#   tests/perf/bench-ceiling.sh [SECONDS [RUNS]]   each run lasts SECONDS (default 5); RUNS runs
#                                                  per side (default 3), taking turns
#
# Loads: GET 4 KiB at 64 in flight, GET 10 MiB at 32 (the bench signs its requests with SigV4
# and the anonymous origin ignores the signature; wrk sends unsigned GETs). The bench runs with
# its default content check, and once more with --no-verify to show what the check costs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-5}
runs=${2:-3}
# shellcheck source=tests/perf/perf-common.sh
. "$root/tests/perf/perf-common.sh"
prepare_perf_run "$root"
work=$(mktemp -d /tmp/s3fault-ceiling.XXXXXX)
origin_pid=
cleanup() {
  [ -n "$origin_pid" ] && kill "$origin_pid" 2>/dev/null && wait "$origin_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

start_anonymous_origin "$s3fault" "$work" bench-ceiling
url=$origin_url
curl -sf -X PUT "$url/ceiling" >/dev/null

# One run of the bench; prints its ops/s.
bench_rate() { # SIZE_NAME CONCURRENCY [BENCH_ARGS...]
  local name=$1 conc=$2
  shift 2
  "$s3fault" bench --endpoint "$url" --ops get --sizes "$name" --concurrency "$conc" \
    --duration "${seconds}s" --rounds 1 --objects 1 --progress never --json "$work/b.json" "$@" \
    >/dev/null
  /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cells"][0]["figures"]["ops_per_second"]["median"])' "$work/b.json"
}

measure() { # SIZE_BYTES SIZE_NAME CONCURRENCY
  local bytes=$1 name=$2 conc=$3
  head -c "$bytes" /dev/urandom >"$work/body"
  curl -sf -X PUT --data-binary @"$work/body" "$url/ceiling/obj-$name" >/dev/null
  # The three sides take turns, so that a change in the machine's load hits each alike.
  local wrk_runs=() bench_runs=() plain_runs=()
  for _ in $(seq "$runs"); do
    wrk_runs+=("$(wrk -t2 -c"$conc" -d"${seconds}s" "$url/ceiling/obj-$name" |
      sed -n 's/^Requests\/sec: *//p')")
    bench_runs+=("$(bench_rate "$name" "$conc")")
    plain_runs+=("$(bench_rate "$name" "$conc" --no-verify)")
  done
  local wrk_rates bench_rates plain_rates
  wrk_rates=$(printf '%s\n' "${wrk_runs[@]}" | median)
  bench_rates=$(printf '%s\n' "${bench_runs[@]}" | median)
  plain_rates=$(printf '%s\n' "${plain_runs[@]}" | median)
  /usr/bin/python3 - "$name" "$conc" "$wrk_rates" "$bench_rates" "$plain_rates" <<'EOF'
import sys
name, conc, wrk, bench, plain = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
print(f"GET {name:6} c={conc:<3} wrk {wrk:10.1f} req/s   s3fault bench {bench:10.1f} ops/s "
      f"({bench / wrk:.2f}x)   --no-verify {plain:10.1f} ops/s ({plain / wrk:.2f}x)")
EOF
}

echo "bench-ceiling: $url, medians of $runs runs of ${seconds}s per side, taking turns"
measure 4096 4KiB 64
measure $((10 * 1024 * 1024)) 10MiB 32
