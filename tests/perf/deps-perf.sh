#!/bin/bash
# Installs what tests/perf/run-proxy-perf.sh compares s3fault with and drives the load with:
# nginx, HAProxy, mitmproxy and wrk, from Debian's packages, on Debian 12, as root.
#
# The packages' own services are never started (a policy-rc.d that denies every start is in
# place during the install): the benchmark starts its own instances on 127.0.0.1 with its own
# configuration files, and nothing listens on port 80 afterwards.
# Idempotent: a re-run on a ready machine does no apt work.
set -euo pipefail

packages=(nginx-light haproxy mitmproxy wrk)
missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" = 0 ] || { echo "deps-perf.sh: missing ${missing[*]} and not root" >&2; exit 1; }

log=$(mktemp /tmp/s3fault-deps-perf.XXXXXX.log)
policy=/usr/sbin/policy-rc.d
placed_policy=no
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# s3fault tests/perf/deps-perf.sh: no service starts during the install\nexit 101\n' >"$policy"
  chmod +x "$policy"
  placed_policy=yes
fi
cleanup() { if [ "$placed_policy" = yes ]; then rm -f "$policy"; fi; }
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
apt_get=(apt-get -o DPkg::Lock::Timeout=600)
if ! "${apt_get[@]}" update >>"$log" 2>&1 ||
  ! "${apt_get[@]}" install -y --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
  echo "deps-perf.sh: FAILED: apt-get install ${missing[*]}; log:" >&2
  cat "$log" >&2
  exit 1
fi
echo "deps-perf.sh: installed ${missing[*]}"
