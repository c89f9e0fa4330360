#!/bin/bash
# The proxy benchmark in one command, on Debian 12 as root: installs what it needs (the build
# and test packages of tests/deps.sh, then nginx, HAProxy, mitmproxy and wrk), builds s3fault
# incrementally, and runs tests/perf/proxy_perf.py, which prints the table of every path and
# load. Arguments go to proxy_perf.py (e.g. --rounds 5, --workers 1, --json runs.json).
# About 13 minutes on a 2-core machine with the defaults.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bash "$root/tests/deps.sh"
bash "$root/tests/perf/deps-perf.sh"
bash "$root/tests/build.sh" >/dev/null
exec /usr/bin/python3 "$root/tests/perf/proxy_perf.py" "$@"
