#!/bin/bash
# Configures (the first time) and builds s3fault with Ninja in build/. Incremental: a re-run
# rebuilds only what changed. CI=true turns warnings into errors.
#
#   tests/build.sh                  everything: the binary, the tests, the package's texts
#   tests/build.sh TARGET...        only these CMake targets (the quick start: s3fault)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${S3FAULT_BUILD_DIR:-$root/build}
werror=OFF
[ "${CI:-}" = true ] && werror=ON
if [ ! -f "$build/build.ninja" ] || [ "${CI:-}" = true ]; then
  cmake -S "$root" -B "$build" -G Ninja -DS3FAULT_WERROR=$werror >/dev/null
fi
targets=()
[ $# -gt 0 ] && targets=(--target "$@")
# One build at a time in one build dir: two ninja runs there would race on its logs and outputs.
exec flock "$build/.build-lock" cmake --build "$build" "${targets[@]}" -- -j"$(nproc)"
