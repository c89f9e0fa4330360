#!/bin/bash
# Builds the Python client's wheel, BUILD_DIR/clients-python/dist/s3fault-VERSION-py3-none-any.whl,
# and prints its path. No registry (--no-index) and no build isolation: the system's setuptools
# and wheel (Debian's python3-setuptools, python3-wheel) build it, with its pip (python3-pip).
# pip builds a directory in place, and setuptools then writes build/ and s3fault.egg-info into
# it, so the build works on a copy under BUILD_DIR: nothing is written into the source tree.
# run-tests.sh, the README's install and clients/CMakeLists.txt (the Debian package) all use it.
#
#   clients/python/build-wheel.sh BUILD_DIR      ($PYTHON: the python3 to build with)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mkdir -p "${1:?usage: build-wheel.sh BUILD_DIR}" && cd "$1" && pwd)/clients-python
python=${PYTHON:-/usr/bin/python3}
# A fresh copy and an empty dist/: a file deleted from the source, or an older version's wheel,
# does not linger in the wheel or beside it.
rm -rf "$out/source" "$out/dist"
mkdir -p "$out"
cp -r "$here" "$out/source"
# A developer's old in-place build would put its stale build/lib into the wheel.
rm -rf "$out/source/build" "$out/source"/*.egg-info
# --no-cache-dir: nothing written under $HOME either (a package build may not have one).
"$python" -m pip wheel --quiet --no-index --no-deps --no-build-isolation --no-cache-dir \
  --disable-pip-version-check -w "$out/dist" "$out/source" >&2
ls "$out"/dist/s3fault-*.whl
