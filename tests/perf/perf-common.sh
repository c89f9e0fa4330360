# shellcheck shell=bash
# Helpers of the shell benchmarks in tests/perf/; sourced, not run.

# Installs wrk, nginx and the rest (deps-perf.sh), builds s3fault incrementally and sets s3fault
# to the binary (S3FAULT_BIN when given).
prepare_perf_run() { # ROOT
  bash "$1/tests/perf/deps-perf.sh"
  bash "$1/tests/build.sh" >/dev/null
  # shellcheck disable=SC2034 # s3fault is read by the sourcing script
  s3fault=${S3FAULT_BIN:-$1/build/s3fault}
}

# Starts `s3fault origin --anonymous` (memory storage unless ARGS say otherwise) on a free port
# of 127.0.0.1, its log in WORK_DIR/origin.log, and sets origin_pid and origin_url; exits naming
# SCRIPT when it does not start.
start_anonymous_origin() { # S3FAULT_BINARY WORK_DIR SCRIPT [ARGS...]
  "$1" origin --listen 127.0.0.1:0 --anonymous "${@:4}" >"$2/origin.log" 2>&1 &
  # shellcheck disable=SC2034 # origin_pid is read by the sourcing script
  origin_pid=$!
  for _ in $(seq 100); do
    grep -q '^listening on ' "$2/origin.log" && break
    sleep 0.1
  done
  origin_url=$(sed -n 's/^listening on //p' "$2/origin.log" | head -n 1)
  [ -n "$origin_url" ] || { echo "$3: the origin did not start" >&2; exit 1; }
}

# The median of numbers, one per line (of an even count, the lower middle one).
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
