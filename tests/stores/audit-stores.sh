#!/bin/bash
# Audits every store s3fault is tested against and regenerates docs/stores.md from the reports.
#
#   tests/stores/audit-stores.sh [--bin PATH] [--out DIR]
#
#   --bin PATH  the s3fault binary (default: build/s3fault)
#   --out DIR   where the reports go (default: docs/stores); the document is written beside it,
#               as DIR.md (docs/stores.md by default)
#
# For each store - origin (`s3fault origin` on a free port), rgw (start-rgw.sh), s3rver
# (start-s3rver.sh), swift (start-swift.sh: OpenStack Swift with s3api) - it starts the store in a scratch directory under ${TMPDIR:-/tmp}, runs
# `s3fault audit` against it, and stops it again (by PID, also when something fails). Writes
# DIR/<store>.json (the audit's JSON report) and DIR/<store>.meta.json (store name, version, the
# audit command with the secret key replaced by <secret>, how the store was started, the audit's
# exit status, the date in UTC), then runs docs/stores/render_stores.py.
# Audit exit status 1 (the store misses MUST checks) is expected and recorded; 2 (the store could
# not be used at all) or anything else stops this script with an error.
# Prints one line per store: "<store>: N passed, N failed, N deviations, N skipped, N errors (exit E)".
# Secret keys are never written to a file. Needs: python3, and what start-rgw.sh,
# start-s3rver.sh and start-swift.sh need (tests/deps.sh). Takes about 2 minutes (RGW starts in
# 30-60 s).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$script_dir/../.." && pwd)

usage() { echo "usage: tests/stores/audit-stores.sh [--bin PATH] [--out DIR]" >&2; exit 2; }
bin=$root/build/s3fault
out=$root/docs/stores
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
  esac
done

# Paths given relative to the caller's directory become absolute; everything below runs from
# the repository root, where paths inside the repository are shown relative to it.
abs_path() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
shown_path() { case "$1" in "$root"/*) echo "${1#"$root"/}" ;; *) echo "$1" ;; esac; }
bin=$(abs_path "$bin")
out=$(abs_path "$out")
out=${out%/}
[ -x "$bin" ] || { echo "audit-stores.sh: $bin is not an executable (build it: tests/build.sh)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "audit-stores.sh: python3 not found" >&2; exit 2; }
mkdir -p "$out"
cd "$root"
bin_shown=$(shown_path "$bin")
out_shown=$(shown_path "$out")

scratch=$(mktemp -d "${TMPDIR:-/tmp}/s3fault-audit-stores.XXXXXX")
origin_pid=""
rgw_started=0
s3rver_started=0
swift_started=0

# --- stopping stores -------------------------------------------------------------------------
stop_origin() {
  [ -n "$origin_pid" ] || return 0
  local pid=$origin_pid
  # Only our origin: the PID must still run the binary with "origin" in its command line.
  if [ -e "/proc/$pid" ] && tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF origin; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 200); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
  fi
  wait "$pid" 2>/dev/null || true
  origin_pid=""
}
stop_rgw() {
  [ "$rgw_started" = 1 ] || return 0
  RGW_DIR=$scratch/rgw "$script_dir/stop-rgw.sh"
  rgw_started=0
}
stop_s3rver() {
  [ "$s3rver_started" = 1 ] || return 0
  S3RVER_DIR=$scratch/s3rver "$script_dir/stop-s3rver.sh"
  s3rver_started=0
swift_started=0
}
stop_swift() {
  [ "$swift_started" = 1 ] || return 0
  SWIFT_DIR=$scratch/swift "$script_dir/stop-swift.sh"
  swift_started=0
}
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_origin || status=1
  stop_rgw || status=1
  stop_s3rver || status=1
  stop_swift || status=1
  if [ "$status" = 0 ]; then
    rm -rf "$scratch"
  else
    echo "audit-stores.sh: failed; logs kept in $scratch" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- starting stores: each sets endpoint, access_key, secret_key, region -----------------------
endpoint="" access_key="" secret_key="" region=""

start_origin() {
  mkdir -p "$scratch/origin"
  # Own session, so that a terminal's Ctrl-C reaches only this script, whose trap stops it.
  setsid "$bin" origin --listen 127.0.0.1:0 </dev/null >"$scratch/origin/origin.out" \
    2>"$scratch/origin/origin.log" &
  origin_pid=$!
  local line=""
  for _ in $(seq 1 200); do
    line=$(grep -m1 '^listening on ' "$scratch/origin/origin.out" 2>/dev/null) || true
    [ -n "$line" ] && break
    kill -0 "$origin_pid" 2>/dev/null || break
    sleep 0.05
  done
  if [ -z "$line" ]; then
    echo "audit-stores.sh: s3fault origin did not start; log:" >&2
    cat "$scratch/origin/origin.log" >&2
    return 1
  fi
  endpoint=${line#listening on }
  access_key=s3fault
  secret_key=s3fault-secret
  region=us-east-1
}

# Reads S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION from the endpoint.env file $1.
read_endpoint_env() {
  # shellcheck disable=SC1090
  endpoint=$(. "$1" && echo "$S3_ENDPOINT")
  # shellcheck disable=SC1090
  access_key=$(. "$1" && echo "$S3_ACCESS_KEY")
  # shellcheck disable=SC1090
  secret_key=$(. "$1" && echo "$S3_SECRET_KEY")
  # shellcheck disable=SC1090
  region=$(. "$1" && echo "${S3_REGION:-us-east-1}")
}

start_rgw() {
  rgw_started=1
  RGW_DIR=$scratch/rgw "$script_dir/start-rgw.sh" >"$scratch/start-rgw.out" 2>&1 || {
    echo "audit-stores.sh: start-rgw.sh failed:" >&2
    cat "$scratch/start-rgw.out" >&2
    return 1
  }
  read_endpoint_env "$scratch/rgw/endpoint.env"
}

start_s3rver() {
  s3rver_started=1
  S3RVER_DIR=$scratch/s3rver "$script_dir/start-s3rver.sh" >"$scratch/start-s3rver.out" 2>&1 || {
    echo "audit-stores.sh: start-s3rver.sh failed:" >&2
    cat "$scratch/start-s3rver.out" >&2
    return 1
  }
  read_endpoint_env "$scratch/s3rver/endpoint.env"
}

start_swift() {
  swift_started=1
  SWIFT_DIR=$scratch/swift "$script_dir/start-swift.sh" >"$scratch/start-swift.out" 2>&1 || {
    echo "audit-stores.sh: start-swift.sh failed:" >&2
    cat "$scratch/start-swift.out" >&2
    return 1
  }
  read_endpoint_env "$scratch/swift/endpoint.env"
}

# --- versions --------------------------------------------------------------------------------
first_line() { printf '%s\n' "${1%%$'\n'*}"; }
version_origin() { "$bin" --version; }
version_rgw() {
  local v=""
  v=$(radosgw --version 2>/dev/null) || v=""
  [ -n "$v" ] || v=$(ceph --version 2>/dev/null) || v=""
  first_line "${v:-unknown}"
}
version_s3rver() {
  # start-s3rver.sh runs tests/node/node_modules/s3rver (installed by tests/deps.sh).
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' \
    "$root/tests/node/node_modules/s3rver/package.json"
}

version_swift() {
  # start-swift.sh runs Debian's Swift; the proxy (with s3api) is what the audit talks to.
  local v
  v=$(dpkg-query -W -f='${Version}' swift-proxy 2>/dev/null) || v=""
  echo "swift-proxy ${v:-unknown} (Debian), s3api"
}

# --- one store -------------------------------------------------------------------------------
# audit_store KEY "DISPLAY NAME" "HOW IT IS STARTED": start, audit, stop, write the meta file.
audit_store() {
  local key=$1 name=$2 started_by=$3
  echo "audit-stores.sh: $key: starting ($started_by)" >&2
  "start_$key"
  local version
  version=$("version_$key")

  local json=$out/$key.json junit=$scratch/$key.junit.xml
  local cmd=("$bin_shown" audit --endpoint "$endpoint" --access-key "$access_key"
    --secret-key "$secret_key" --region "$region"
    --json "$(shown_path "$json")" --junit "$junit" --color never)
  # The command as shown: shell-quoted, the secret key replaced.
  local shown="" arg prev=""
  for arg in "${cmd[@]}"; do
    if [ "$prev" = --secret-key ]; then
      shown+=" <secret>"
    else
      shown+=" $(printf '%q' "$arg")"
    fi
    prev=$arg
  done
  shown=${shown# }

  local date status=0
  date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  echo "audit-stores.sh: $key: auditing $endpoint" >&2
  rm -f "$json"
  "${cmd[@]}" >"$scratch/$key.audit.out" 2>&1 || status=$?
  "stop_$key"
  if [ "$status" != 0 ] && [ "$status" != 1 ]; then
    echo "audit-stores.sh: $key: s3fault audit exited with status $status:" >&2
    tail -n 40 "$scratch/$key.audit.out" >&2
    return 1
  fi
  [ -f "$json" ] || { echo "audit-stores.sh: $key: no report written to $json" >&2; return 1; }

  python3 - "$out/$key.meta.json" "$key" "$name" "$version" "$shown" "$started_by" "$status" \
    "$date" <<'EOF'
import json, sys
path, key, name, version, command, started_by, status, date = sys.argv[1:]
meta = {"key": key, "store": name, "version": version, "command": command,
        "started_by": started_by, "audit_exit_status": int(status), "date": date}
with open(path, "w", encoding="utf-8", newline="\n") as f:
    json.dump(meta, f, indent=2)
    f.write("\n")
EOF
  # The secret must not have reached a file (unless it is also the access key, shown on purpose).
  if [ "$secret_key" != "$access_key" ] && grep -qF -- "$secret_key" "$json" "$out/$key.meta.json"; then
    echo "audit-stores.sh: $key: the secret key appears in $json or $key.meta.json; removing them" >&2
    rm -f "$json" "$out/$key.meta.json"
    return 1
  fi

  python3 - "$json" "$key" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(f"{sys.argv[2]}: {s['passed']} passed, {s['failed']} failed, {s['deviations']} deviations, "
      f"{s['skipped']} skipped, {s['errors']} errors (exit {s['exit_status']})")
EOF
}

audit_store origin "s3fault origin" "$bin_shown origin --listen 127.0.0.1:0"
audit_store rgw "Ceph RADOS Gateway" "tests/stores/start-rgw.sh"
audit_store s3rver "s3rver" "tests/stores/start-s3rver.sh"
audit_store swift "OpenStack Swift (s3api)" "tests/stores/start-swift.sh"

python3 "$root/docs/stores/render_stores.py" --results "$out_shown" --output "$out_shown.md"
echo "audit-stores.sh: wrote $out_shown/*.json and $out_shown.md" >&2
