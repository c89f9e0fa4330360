#!/bin/bash
# The README's test command: installs what is missing, builds incrementally, checks formatting,
# then runs every test (unit tests, and integration tests that start Ceph RGW and s3rver on
# 127.0.0.1 and drive real clients through the proxy). Safe to re-run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tests/deps.sh"
bash "$root/tests/build.sh"
bash "$root/tests/check-format.sh"
cd "${S3FAULT_BUILD_DIR:-$root/build}"
ctest --output-on-failure --timeout 900 "$@"
