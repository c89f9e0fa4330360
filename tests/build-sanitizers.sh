#!/bin/bash
# Builds s3fault, its tests and the libFuzzer targets with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-sanitizers/ (beside the normal build/). Incremental.
# -O1 with line tables only: quick to compile, still a readable stack in every report.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${S3FAULT_SANITIZER_BUILD_DIR:-$root/build-sanitizers}
werror=OFF
[ "${CI:-}" = true ] && werror=ON
if [ ! -f "$build/build.ninja" ] || [ "${CI:-}" = true ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
    -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -gline-tables-only" -DS3FAULT_SANITIZE=ON -DS3FAULT_FUZZ=ON \
    -DS3FAULT_WERROR=$werror >/dev/null
fi
cmake --build "$build" -- -j"$(nproc)"
