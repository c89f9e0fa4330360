#!/bin/bash
# The install clients/python/README.md shows, run as written: its sh block (the one that calls
# build-wheel.sh; the main README shows the same one) in a fresh directory under BUILD_DIR whose
# clients/ is the repository's, so that the block's build/ is a fresh one: a new wheel, a new
# venv, and pytest on a three-line test with the s3fault_proxy fixture. Then nothing may have
# been written where an in-place build writes (clients/python/build, *.egg-info); other files a
# developer edits meanwhile do not count.
#
#   clients/python/test-install.sh BUILD_DIR      (S3FAULT_BIN: the binary the fixture runs)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${1:?usage: test-install.sh BUILD_DIR}" && pwd)

# The ```sh block of a markdown file that mentions build-wheel.sh.
install_block() {
  awk '/^```sh$/ { inside = 1; block = ""; next }
       /^```$/ && inside { if (block ~ /build-wheel\.sh/) printf "%s", block; inside = 0; next }
       inside { block = block $0 "\n" }' "$1"
}
commands=$(install_block "$root/clients/python/README.md")
[ -n "$commands" ] || { echo "FAIL: no install block in clients/python/README.md" >&2; exit 1; }
if [ "$commands" != "$(install_block "$root/README.md")" ]; then
  echo "FAIL: README.md and clients/python/README.md show different install commands" >&2
  exit 1
fi

work=$build/clients-python-install
rm -rf "$work"
mkdir -p "$work"
ln -s "$root/clients" "$work/clients"
cat >"$work/test_reader.py" <<'EOF'
def test_reader(s3fault_proxy):
    s3fault_proxy.add("strip-header x-amz-mp-parts-count name=strip")
    assert s3fault_proxy.counters("strip")["matched"] == 0
EOF
touch "$work/started"
(cd "$work" && bash -euxo pipefail -c "$commands")

written=$(find "$root/clients/python" -newer "$work/started" \( -path "$root/clients/python/build" \
  -o -path "$root/clients/python/build/*" -o -name '*.egg-info' -o -path '*.egg-info/*' \) -print)
if [ -n "$written" ]; then
  echo "FAIL: the install wrote into the source tree:" >&2
  echo "$written" >&2
  exit 1
fi
echo "ok: the README's install, a fresh venv, pytest with s3fault_proxy; nothing in clients/python"
