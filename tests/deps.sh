#!/bin/bash
# Install everything s3fault needs to build and to run its integration tests, on Debian 12, as root.
#
# Idempotent: Debian packages are checked with dpkg-query first, so a re-run on a ready machine
# does no apt work at all; `npm install` in tests/node runs only when node_modules is missing or
# package.json / package-lock.json changed since the last install.
# Quiet on success (one summary line); on failure prints the log of the step that failed.
#
# Usage: sudo tests/deps.sh          everything above
#        sudo tests/deps.sh build    only what building s3fault (tests/build.sh) and its Debian
#                                    package (cmake --build build --target package) need: no
#                                    clients, stores, Node.js or npm packages, no clang tools
#                                    (examples/ci/github-actions.yml, examples/ci/gitlab-ci.yml)
set -euo pipefail

mode=${1:-all}
case $mode in
  all | build) ;;
  *)
    echo "usage: tests/deps.sh [build]" >&2
    exit 2
    ;;
esac

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
node_dir=$repo_root/tests/node

# The compiler and libraries of tests/build.sh; then clang and clang-format, for
# tests/build-sanitizers.sh, the libFuzzer targets and tests/check-format.sh.
build_packages=(cmake ninja-build g++ pkg-config libboost1.74-dev libboost-context1.74-dev libssl-dev
  libxxhash-dev libisal-dev libgoogle-perftools-dev libspdlog-dev
  libfmt-dev libcli11-dev libpugixml-dev nlohmann-json3-dev libyaml-cpp-dev libre2-dev libgtest-dev
  zlib1g-dev googletest)
clang_packages=(clang-format clang libclang-rt-14-dev)
# `build` only: what the package target needs besides the compiler. CPack's dpkg-shlibdeps
# (dpkg-dev) and `file` (without them the package gets no Depends); python3 with pip,
# setuptools and wheel, which build the Python client's wheel (clients/CMakeLists.txt; without
# them the package leaves the client out); git, for the commit `s3fault --version` names.
package_packages=(dpkg-dev file git python3 python3-pip python3-setuptools python3-wheel)
# The full install also checks the package: lintian, debootstrap for the clean room
# (tests/package/), man-db (man -l of the generated pages) and bash-completion (the completion
# test loads it).
package_check_packages=(lintian debootstrap man-db bash-completion)
# Store daemons: Ceph RGW (start-rgw.sh) and OpenStack Swift with s3api plus its own memcached
# (start-swift.sh); and prometheus for its promtool, which checks /metrics (test_proxy_metrics.py).
# All without their recommended packages (prometheus would bring a node exporter).
store_packages=(ceph-mon ceph-osd radosgw swift-proxy swift-object swift-container swift-account
  memcached prometheus)
# python3-pytest, -venv, -pip, -setuptools and -wheel: the Python client built, installed and
# tested without a registry (clients/python/build-wheel.sh, run-tests.sh, test-install.sh);
# -venv carries ensurepip, without which `python3 -m venv` fails on Debian.
# python3-prometheus-client: its text parser reads /metrics back
# (tests/unit/metrics/parse_exposition.py, test_wire_first_byte_times).
# openmpi-bin: mpirun for examples/scale/mpirun-bench.sh (test_scale_examples.py).
client_packages=(awscli python3-boto3 python3-yaml rclone s3cmd curl time iproute2 chromium
  python3-pytest python3-venv python3-pip python3-setuptools python3-wheel
  python3-prometheus-client openmpi-bin)

log=$(mktemp /tmp/s3fault-deps.XXXXXX.log)
# Print the log of the failing step and the step's name, then exit non-zero.
fail() {
  echo "deps.sh: FAILED: $1" >&2
  echo "----- log ($log) -----" >&2
  cat "$log" >&2
  exit 1
}

# Prints the packages of "$@" that are not installed (dpkg status other than "install ok installed").
missing_packages() {
  local pkg status
  for pkg in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || echo "$pkg"
  done
}

# Node.js and npm: a machine may already carry a newer Node.js (e.g. NodeSource's, which
# provides and conflicts with Debian's `npm` package). Only when a command is absent do we ask
# Debian for it.
node_packages=()
if [ "$mode" = all ]; then
  command -v node >/dev/null 2>&1 || node_packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || node_packages+=(npm)
  wanted=("${build_packages[@]}" "${clang_packages[@]}" "${client_packages[@]}"
    "${package_packages[@]}" "${package_check_packages[@]}")
else
  wanted=("${build_packages[@]}" "${package_packages[@]}")
  store_packages=()
fi

mapfile -t missing < <(missing_packages "${wanted[@]}" "${node_packages[@]}")
mapfile -t missing_stores < <(missing_packages "${store_packages[@]}")

installed_count=0
if [ $((${#missing[@]} + ${#missing_stores[@]})) -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing packages (${missing[*]} ${missing_stores[*]}) and not root"
  export DEBIAN_FRONTEND=noninteractive
  # Wait for another apt/dpkg run to finish instead of failing on its lock.
  apt_get=(apt-get -o DPkg::Lock::Timeout=600)
  "${apt_get[@]}" update >>"$log" 2>&1 || fail "apt-get update"
  if [ ${#missing[@]} -gt 0 ]; then
    "${apt_get[@]}" install -y "${missing[@]}" >>"$log" 2>&1 ||
      fail "apt-get install ${missing[*]}"
  fi
  # The Ceph and Swift daemons pull in a lot of recommended extras (mgr modules, python stacks,
  # rsync and xfsprogs for Swift's replicators) we never use.
  if [ ${#missing_stores[@]} -gt 0 ]; then
    "${apt_get[@]}" install -y --no-install-recommends "${missing_stores[@]}" >>"$log" 2>&1 ||
      fail "apt-get install --no-install-recommends ${missing_stores[*]}"
  fi
  installed_count=$((${#missing[@]} + ${#missing_stores[@]}))
  still_missing=$(missing_packages "${wanted[@]}" "${store_packages[@]}" | tr '\n' ' ')
  [ -z "$still_missing" ] || fail "still not installed after apt-get: $still_missing"
fi
if [ "$mode" = build ]; then
  rm -f "$log"
  echo "deps.sh: ok (build: apt packages installed: $installed_count)"
  exit 0
fi
command -v node >/dev/null 2>&1 || fail "node not found after install"
command -v npm >/dev/null 2>&1 || fail "npm not found after install"

# npm packages (s3rver, the JS SDK clients, har-validator for `journal to-har`, puppeteer-core
# for clicking the dashboard in Debian's chromium) into
# tests/node/node_modules, as listed in tests/node/package.json.
# The stamp is written after a successful install; a newer package.json or lock file re-runs it.
npm_ran=no
stamp=$node_dir/node_modules/.s3fault-installed
if [ ! -f "$stamp" ] || [ "$node_dir/package.json" -nt "$stamp" ] ||
  { [ -f "$node_dir/package-lock.json" ] && [ "$node_dir/package-lock.json" -nt "$stamp" ]; }; then
  (cd "$node_dir" && npm install --no-audit --no-fund --loglevel=error --omit-lockfile-registry-resolved) >>"$log" 2>&1 ||
    fail "npm install in $node_dir"
  [ -f "$node_dir/node_modules/s3rver/bin/s3rver.js" ] || fail "s3rver missing after npm install"
  touch "$stamp"
  npm_ran=yes
fi

rm -f "$log"
echo "deps.sh: ok (apt packages installed: $installed_count, npm install: $npm_ran," \
  "node $(node --version))"
