#!/bin/bash
# The Python client's tests as a user runs them: a virtual environment of the build (with the
# system's packages, for pytest), `pip install` of the wheel build-wheel.sh makes (no registry:
# --no-index, and the system's setuptools builds it), then pytest on
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
# The wheel the README's install uses, built without writing into the source tree.
wheel=$("$root/clients/python/build-wheel.sh" "$build")
"$venv/bin/python" -m pip install --quiet --no-index --no-deps --force-reinstall "$wheel"
cd "$build/clients-python"
# -B and no cacheprovider: no __pycache__ or .pytest_cache written into clients/python/tests.
S3FAULT_BIN=${S3FAULT_BIN:-$build/s3fault} exec "$venv/bin/python" -B -m pytest \
  -p no:cacheprovider -v "$root/clients/python/tests" "$@"
