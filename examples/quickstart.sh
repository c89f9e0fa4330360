#!/bin/bash
# The README's main-job command: installs what building needs and is missing (`tests/deps.sh
# build`), builds the binary only (tests/build.sh s3fault, incremental; tests/run-all.sh builds
# the tests and everything else in the same build/), then runs `s3fault demo`, which reproduces
# the silent-truncation bug through the proxy: an embedded S3 store and `s3fault proxy --preset
# rustfs-parts-count` in one process, a 20 MiB object in three parts, a naive part-wise reader
# that returns 8 MiB and exits 0, and a robust reader that reads it all. Starts nothing that
# outlives it. Safe to re-run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tests/deps.sh" build
bash "$root/tests/build.sh" s3fault >/dev/null
exec "${S3FAULT_BUILD_DIR:-$root/build}/s3fault" demo
