#!/bin/bash
# The Python client's tests as a user runs them: a virtual environment of the build (with the
# system's packages, for pytest), `pip install` of clients/python from the repository (no
# registry: --no-index, and the system's setuptools builds it), then pytest on
# clients/python/tests against the build's s3fault binary. The fixtures come from the installed
# package's pytest plugin, so a broken package fails here.
#
#   clients/python/run-tests.sh BUILD_DIR [pytest arguments...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${1:?usage: run-tests.sh BUILD_DIR}" && pwd)
shift
venv=$build/clients-python/venv
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
# Built from a copy, so that setuptools' build/ and egg-info stay out of the source tree.
source_copy=$build/clients-python/source
rm -rf "$source_copy"
cp -r "$root/clients/python" "$source_copy"
"$venv/bin/python" -m pip install --quiet --no-index --no-build-isolation --no-deps \
  --force-reinstall "$source_copy"
cd "$build/clients-python"
S3FAULT_BIN=${S3FAULT_BIN:-$build/s3fault} exec "$venv/bin/python" -m pytest -p no:cacheprovider -v \
  "$root/clients/python/tests" "$@"
