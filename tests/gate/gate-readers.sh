#!/bin/bash
# Gates every example reader in examples/readers/ with `s3fault gate` and regenerates
# docs/readers.md from the reports.
#
#   tests/gate/gate-readers.sh [--bin PATH] [--out DIR] [--upstream URL --access-key K
#                              --secret-key S] [--no-render]
#
#   --bin PATH  the s3fault binary (default: build/s3fault)
#   --out DIR   where the reports go (default: docs/readers); the document is written beside it,
#               as DIR.md (docs/readers.md by default)
#   --upstream URL, --access-key K, --secret-key S
#               gate the readers against that store instead of the gate's embedded origin (the
#               secret is shown as <secret> in the recorded command)
#   --no-render only the reports (tests/gate/gate-profile.sh renders its own comparison)
#   --writers   gate the example writers in examples/writers/ (and the built-in writers) with
#               `s3fault gate --writer` instead: reports in docs/writers, docs/writers.md rendered
#               by docs/writers/render_writers.py (tests/gate/gate-writers.sh does this)
#
# For each reader - aws-cli, boto3-download-file, boto3-naive-parts, rclone, s3cmd, aws-sdk-js,
# minio-js - it runs, from the repository root:
#
#   BIN gate --reader examples/readers/<file> --json DIR/<reader>.json --timeout 60 --jobs 2
#
# (with --writers: aws-cli, boto3-upload-file, boto3-naive, rclone, s3cmd, aws-sdk-js, minio-js
# from examples/writers/, then builtin:naive and builtin:careful, each with `gate --writer`)
# (the gate starts its own embedded store and fault-injecting proxy on 127.0.0.1 and stops them)
# and writes DIR/<reader>.meta.json: the reader's name and file, its client and the client's
# version, the exact gate command, the gate's exit status and the date in UTC. Then it runs
# docs/readers/render_readers.py.
# Gate exit status 1 (some run had a verdict its scenario does not accept: the reader has bugs)
# is expected and recorded; 2 (the gate could not run) or anything else stops this script with
# an error, as does a client that is not installed (tests/deps.sh installs them all).
# Prints one line per reader: "<reader>: N runs, N passed, N failed, N not exercised, N not
# judged (exit E)".
# The gate's own output goes to a scratch directory under ${TMPDIR:-/tmp}, kept when something
# fails. Needs: python3, node, and the clients of the readers (tests/deps.sh).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$script_dir/../.." && pwd)

usage() {
  echo "usage: tests/gate/gate-readers.sh [--bin PATH] [--out DIR] [--upstream URL" \
       "--access-key K --secret-key S] [--no-render] [--writers]" >&2
  exit 2
}
bin=$root/build/s3fault
out=
role=reader
upstream=() # gate arguments naming another store, as run
upstream_shown=() # ... as recorded, the secret left out
render=1
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --upstream | --access-key)
      [ $# -ge 2 ] || usage; upstream+=("$1" "$2"); upstream_shown+=("$1" "$2"); shift 2 ;;
    --secret-key)
      [ $# -ge 2 ] || usage; upstream+=("$1" "$2"); upstream_shown+=("$1" "<secret>"); shift 2 ;;
    --no-render) render=0; shift ;;
    --writers) role=writer; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
  esac
done

me=gate-${role}s.sh
examples=examples/${role}s
renderer=$root/docs/${role}s/render_${role}s.py
out=${out:-$root/docs/${role}s}

# Paths given relative to the caller's directory become absolute; everything below runs from
# the repository root, where paths inside the repository are shown relative to it.
abs_path() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
shown_path() { case "$1" in "$root"/*) echo "${1#"$root"/}" ;; *) echo "$1" ;; esac; }
bin=$(abs_path "$bin")
out=$(abs_path "$out")
out=${out%/}
if [ ! -x "$bin" ]; then
  echo "$me: $bin is not an executable (build it: tests/build.sh)" >&2
  exit 2
fi
command -v python3 >/dev/null || { echo "$me: python3 not found" >&2; exit 2; }
mkdir -p "$out"
cd "$root"
bin_shown=$(shown_path "$bin")
out_shown=$(shown_path "$out")

scratch=$(mktemp -d "${TMPDIR:-/tmp}/s3fault-gate-${role}s.XXXXXX")
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ "$status" = 0 ]; then
    rm -rf "$scratch"
  else
    echo "$me: failed; logs kept in $scratch" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- client versions: each prints one line, or fails when the client is missing ----------------
first_line() { printf '%s\n' "${1%%$'\n'*}"; }
# The readers prefer Debian's clients in /usr/bin; so does this.
client_path() { if [ -x "/usr/bin/$1" ]; then echo "/usr/bin/$1"; else command -v "$1"; fi; }
# The version field of tests/node/node_modules/<package>/package.json (installed by tests/deps.sh).
npm_version() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' \
    "$root/tests/node/node_modules/$1/package.json"
}
node_version() { local node; node=$(command -v node) && "$node" --version; }

version_aws_cli() {
  local aws v
  aws=$(client_path aws) || return 1
  v=$("$aws" --version 2>&1) || return 1  # awscli v1 prints it on stderr
  first_line "$v"
}
version_boto3() {
  # The readers run with /usr/bin/python3 (their #! line).
  /usr/bin/python3 -c 'import boto3, botocore
print(f"boto3 {boto3.__version__} (botocore {botocore.__version__})")'
}
version_rclone() {
  local rclone v
  rclone=$(client_path rclone) || return 1
  v=$("$rclone" version) || return 1
  first_line "$v"
}
version_s3cmd() {
  local s3cmd v
  s3cmd=$(client_path s3cmd) || return 1
  v=$("$s3cmd" --version) || return 1
  first_line "$v"
}
version_aws_sdk_js() {
  local v n
  v=$(npm_version @aws-sdk/client-s3) || return 1
  n=$(node_version) || return 1
  echo "@aws-sdk/client-s3 $v (node $n)"
}
version_lib_storage() {
  local v c n
  v=$(npm_version @aws-sdk/lib-storage) || return 1
  c=$(npm_version @aws-sdk/client-s3) || return 1
  n=$(node_version) || return 1
  echo "@aws-sdk/lib-storage $v, @aws-sdk/client-s3 $c (node $n)"
}
version_s3fault() { "$bin" --version; }
version_minio_js() {
  local v n
  v=$(npm_version minio) || return 1
  n=$(node_version) || return 1
  echo "minio $v (node $n)"
}

# --- one reader ------------------------------------------------------------------------------
# gate_reader KEY FILE CLIENT VERSION_FUNCTION: run the gate, write the meta file.
gate_reader() {
  local key=$1 file=$2 client=$3 version_fn=$4
  local reader=$examples/$file
  case "$file" in
    builtin:*) reader=$file ;;
    *) [ -x "$reader" ] || { echo "$me: $key: $reader is not an executable" >&2; return 1; } ;;
  esac
  local version
  if ! version=$("$version_fn" 2>"$scratch/$key.version.err") || [ -z "$version" ]; then
    echo "$me: $key: no version of $client (install it: tests/deps.sh):" >&2
    cat "$scratch/$key.version.err" >&2
    return 1
  fi

  local json=$out/$key.json
  local cmd=("$bin_shown" gate "--$role" "$reader" --json "$(shown_path "$json")" --timeout 60
             --jobs 2)
  # The command as shown: shell-quoted, as it could be pasted into a shell at the root.
  local shown="" arg
  for arg in "${cmd[@]}" "${upstream_shown[@]}"; do
    shown+=" $(printf '%q' "$arg")"
  done
  shown=${shown# }
  cmd+=("${upstream[@]}")

  local date status=0
  date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  echo "$me: $key: $shown" >&2
  rm -f "$json"
  # TMPDIR: the failing runs' repro.sh files go to the scratch directory, removed at the end.
  TMPDIR=$scratch "${cmd[@]}" </dev/null >"$scratch/$key.gate.out" 2>&1 || status=$?
  if [ "$status" != 0 ] && [ "$status" != 1 ]; then
    echo "$me: $key: s3fault gate exited with status $status:" >&2
    tail -n 40 "$scratch/$key.gate.out" >&2
    return 1
  fi
  [ -f "$json" ] || { echo "$me: $key: no report written to $json" >&2; return 1; }

  python3 - "$out/$key.meta.json" "$key" "$reader" "$client" "$version" "$shown" "$status" \
    "$date" "$role" <<'EOF'
import json, sys
path, key, reader, client, version, command, status, date, role = sys.argv[1:]
meta = {"key": key, role: key, f"{role}_command": reader, "client": client,
        "client_version": version, "command": command, "gate_exit_status": int(status),
        "date": date}
with open(path, "w", encoding="utf-8", newline="\n") as f:
    json.dump(meta, f, indent=2)
    f.write("\n")
EOF

  python3 - "$json" "$key" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(f"{sys.argv[2]}: {s['runs']} runs, {s['passed']} passed, {s['failed']} failed, "
      f"{s['not_exercised']} not exercised, {s['not_judged']} not judged "
      f"(exit {s['exit_status']})")
EOF
}

if [ "$role" = reader ]; then
  gate_reader aws-cli aws-cli.sh "AWS CLI" version_aws_cli
  gate_reader boto3-download-file boto3-download-file.py boto3 version_boto3
  gate_reader boto3-naive-parts boto3-naive-parts.py boto3 version_boto3
  gate_reader rclone rclone.sh rclone version_rclone
  gate_reader s3cmd s3cmd.sh s3cmd version_s3cmd
  gate_reader aws-sdk-js aws-sdk-js.mjs "AWS SDK for JavaScript v3" version_aws_sdk_js
  gate_reader minio-js minio-js.mjs "MinIO JavaScript client" version_minio_js
else
  gate_reader aws-cli aws-cli.sh "AWS CLI" version_aws_cli
  gate_reader boto3-upload-file boto3-upload-file.py boto3 version_boto3
  gate_reader boto3-naive boto3-naive.py boto3 version_boto3
  gate_reader rclone rclone.sh rclone version_rclone
  gate_reader s3cmd s3cmd.sh s3cmd version_s3cmd
  gate_reader aws-sdk-js aws-sdk-js.mjs "AWS SDK for JavaScript v3 (lib-storage Upload)" \
    version_lib_storage
  gate_reader minio-js minio-js.mjs "MinIO JavaScript client" version_minio_js
  gate_reader builtin-naive builtin:naive "s3fault write naive" version_s3fault
  gate_reader builtin-careful builtin:careful "s3fault write careful" version_s3fault
fi

if [ "$render" = 1 ]; then
  python3 "$renderer" --results "$out_shown" --output "$out_shown.md"
  echo "$me: wrote $out_shown/*.json and $out_shown.md" >&2
else
  echo "$me: wrote $out_shown/*.json" >&2
fi
