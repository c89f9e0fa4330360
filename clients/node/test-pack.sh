#!/bin/bash
# The Node client as a user installs it: `npm pack` into BUILD_DIR (no tarball, lock file or
# node_modules written into clients/node), the tarball shipping exactly index.js, README.md and
# package.json (package.json's `files`: no tests), `npm install` of it offline in an empty
# project, and require('s3fault') there giving the helpers.
#
#   clients/node/test-pack.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "${1:?usage: test-pack.sh BUILD_DIR}" && pwd)
work=$build/clients-node-pack
rm -rf "$work"
mkdir -p "$work/project"   # --pack-destination must exist
touch "$work/started"

# --offline everywhere: nothing here needs the registry, and audit/fund would ask it.
(cd "$here" && npm pack --offline --silent --pack-destination "$work" >/dev/null)
tarball=$(ls "$work"/s3fault-*.tgz)
shipped=$(tar tzf "$tarball" | sort | tr '\n' ' ')
expected="package/README.md package/index.js package/package.json "
if [ "$shipped" != "$expected" ]; then
  echo "FAIL: $tarball holds: $shipped; expected: $expected" >&2
  exit 1
fi

# A package.json of its own, or npm would take a project further up the tree for this one.
cd "$work/project"
echo '{"name": "empty-project", "private": true}' >package.json
npm install --offline --no-audit --no-fund --loglevel=error "$tarball"
node -e "
  const s3fault = require('s3fault');
  const where = require.resolve('s3fault');
  if (!where.startsWith(process.cwd() + '/node_modules/')) {
    throw new Error('required from ' + where);
  }
  for (const name of ['AdminClient', 'startOrigin', 'startProxy']) {
    if (typeof s3fault[name] !== 'function') throw new Error('s3fault.' + name + ' is missing');
  }"

# What npm writes when it works in place: a tarball, node_modules, a lock file.
written=$(find "$here" -newer "$work/started" \( -name '*.tgz' -o -name node_modules \
  -o -name package-lock.json \) -print)
if [ -n "$written" ]; then
  echo "FAIL: npm pack or install wrote into clients/node:" >&2
  echo "$written" >&2
  exit 1
fi
echo "ok: $(basename "$tarball") ships $shipped; installed offline and required in an empty project"
