#!/bin/bash
# Benches one S3 store from NP processes at once under OpenMPI's mpirun, then merges their reports
# into one, as if a single process had run every client.
#
#   S3FAULT_ENDPOINT=http://store:9000 AWS_ACCESS_KEY_ID=K AWS_SECRET_ACCESS_KEY=S \
#     NP=6 HOSTFILE=hosts.txt OUT=/shared/bench examples/scale/mpirun-bench.sh
#
# Settings, from the environment:
#   S3FAULT_ENDPOINT   the store, http(s)://HOST:PORT (required; every rank must reach it)
#   AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION   the store's keys and region (read by
#                      `s3fault bench` from the environment, never put on a command line)
#   NP=3               ranks (processes); each runs its share of every cell's clients
#   HOSTFILE           an OpenMPI hostfile ("host1 slots=4" per line) for several machines; passed
#                      as --hostfile. Unset: every rank on this machine.
#   OPS=get  SIZES=1MiB  CONCURRENCY=12  DURATION=10s  ROUNDS=3   the bench's cells, as
#                      `s3fault bench --ops/--sizes/--concurrency/--duration/--rounds` (CONCURRENCY
#                      is the total of all ranks: a cell of 12 clients on 3 ranks runs 4 on each)
#   START_DELAY=10s    how long after now the first run starts on every rank; long enough for
#                      mpirun to start every rank (and their prefill), or a rank starts late
#   OUT=s3fault-bench-<UTC time>   where the parts and the merged reports go
#   S3FAULT=s3fault    the s3fault binary (the same path on every machine)
#   MPIRUN_ARGS        more mpirun options, word-split (e.g. "--mca btl_tcp_if_include eth0")
#
# Writes OUT/part-K.json (one per rank, K = rank + 1), then OUT/merged.json, merged.csv and
# merged.html from `s3fault bench merge`, and exits with the merge's status: 0 when every
# operation succeeded, 1 when some failed, 2 when the parts cannot be merged (settings that
# differ, a part missing or twice, runs whose windows overlap by less than 90 %, clocks more than
# 2 s apart).
#
# Several machines:
#   - OUT must be a directory every machine sees at the same path (NFS or the like): each rank
#     writes its part on its own machine, and the merge here reads them all.
#   - S3FAULT must be installed at the same path everywhere; the AWS_* keys, AWS_REGION and
#     S3FAULT_START_AT are passed to the remote ranks with mpirun -x.
#   - The machines' clocks must be NTP-synced (chrony, systemd-timesyncd): every rank starts each
#     run at the same wall-clock instant, and the merge refuses parts whose clocks (each compared
#     with the store's Date header) are more than 2 s apart.
set -euo pipefail

endpoint=${S3FAULT_ENDPOINT:?set S3FAULT_ENDPOINT to the store, e.g. http://127.0.0.1:9000}
np=${NP:-3}
s3fault=${S3FAULT:-s3fault}
out=${OUT:-s3fault-bench-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"

# One instant for every rank: the ranks resolve --start-at +DELAY from S3FAULT_START_AT, not from
# the moment each of them happens to start.
S3FAULT_START_AT=$(date -u +%FT%TZ)
export S3FAULT_START_AT

mpirun_args=(-np "$np" --oversubscribe --tag-output -x S3FAULT_START_AT)
# A laptop or a CI runner has fewer cores than ranks: --oversubscribe (above) lets them share.
# OpenMPI refuses to run as root unless told; containers often are root.
if [ "$(id -u)" = 0 ]; then
  mpirun_args+=(--allow-run-as-root)
fi
if [ -n "${HOSTFILE:-}" ]; then
  mpirun_args+=(--hostfile "$HOSTFILE")
fi
# Only the variables that are set (mpirun -x of an unset one warns).
for var in AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_REGION AWS_DEFAULT_REGION; do
  if [ -n "${!var:-}" ]; then
    mpirun_args+=(-x "$var")
  fi
done
if [ -n "${MPIRUN_ARGS:-}" ]; then
  # shellcheck disable=SC2206  # word-split on purpose: several options in one variable
  mpirun_args+=($MPIRUN_ARGS)
fi

echo "== $np ranks bench $endpoint from $S3FAULT_START_AT + ${START_DELAY:-10s}; parts in $out"
# --tag-output prefixes every line with [job,rank]; no live progress line under mpirun.
mpirun_status=0
mpirun "${mpirun_args[@]}" \
  "$s3fault" bench --endpoint "$endpoint" \
  --ops "${OPS:-get}" --sizes "${SIZES:-1MiB}" --concurrency "${CONCURRENCY:-12}" \
  --duration "${DURATION:-10s}" --rounds "${ROUNDS:-3}" \
  --shard auto --start-at "+${START_DELAY:-10s}" --progress never \
  --json "$out/part-{shard}.json" || mpirun_status=$?
echo "== mpirun exited with status $mpirun_status"

parts=()
for ((k = 1; k <= np; k++)); do
  parts+=("$out/part-$k.json")
  if [ ! -f "$out/part-$k.json" ]; then
    echo "== $out/part-$k.json is missing (on several machines, is $out shared by all?)" >&2
  fi
done

# The verdict is the merge's: it names every part it refuses.
echo "== merging ${#parts[@]} parts"
merge_status=0
"$s3fault" bench merge "${parts[@]}" \
  --json "$out/merged.json" --csv "$out/merged.csv" --html "$out/merged.html" || merge_status=$?
echo "== s3fault bench merge exited with status $merge_status; reports: $out/merged.*"
exit "$merge_status"
