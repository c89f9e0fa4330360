#!/bin/bash
# The package on a machine that has nothing else: builds build/s3fault_*.deb, makes a minimal
# Debian 12 root with debootstrap (--variant=minbase, from Debian's packages), installs the .deb
# in it with apt (which resolves its dependencies from Debian, as on a user's machine) and runs
# `s3fault demo` and a gate inside it. A dependency missing from the package fails it here.
# The root is unmounted and removed afterwards, whatever happened. Needs root; takes a few
# minutes, most of it debootstrap's downloads (docs/install.md).
#
#   tests/package/clean-room.sh            (S3FAULT_BUILD_DIR, DEBIAN_MIRROR to override)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${S3FAULT_BUILD_DIR:-$root/build}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
started=$(date +%s)
[ "$(id -u)" = 0 ] || { echo "clean-room.sh: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y debootstrap

flock "$build/.build-lock" cmake --build "$build" --target package # tests/build.sh's lock
deb=$(ls -t "$build"/s3fault_*.deb | head -n 1)
echo "== package: $deb"

room=$(mktemp -d /var/tmp/s3fault-clean-room.XXXXXX)
leave() {
  mountpoint -q "$room/proc" && umount "$room/proc"
  rm -rf --one-file-system "$room"
  echo "== removed $room; wall time $(($(date +%s) - started)) s"
}
trap leave EXIT
trap "exit 130" INT TERM

echo "== debootstrap --variant=minbase bookworm $room $mirror"
debootstrap --variant=minbase bookworm "$room" "$mirror" >"$room.debootstrap.log" 2>&1 ||
  { tail -n 30 "$room.debootstrap.log"; exit 1; }
rm -f "$room.debootstrap.log"
mount -t proc proc "$room/proc" # the gate runs its built-in readers as /proc/self/exe
cp "$deb" "$room/tmp/"
inside() { chroot "$room" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

echo "== apt-get install ./$(basename "$deb")"
inside apt-get update -q
# As the README says to, so with the package's Recommends (bash-completion, which brings no
# library: a library missing from Depends still fails the first run of the binary below).
inside env DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/$(basename "$deb")"
echo "== inside the root"
inside s3fault --version
inside sh -c 'test -f /usr/share/man/man1/s3fault-gate.1.gz &&
              test -f /usr/share/bash-completion/completions/s3fault && echo "man pages and completion installed"'
# The one line docs/install.md gives for a root shell, which sources no bash-completion.
inside bash --norc --noprofile -c '. /usr/share/bash-completion/bash_completion &&
  __load_completion s3fault && complete -p s3fault' | grep -q ' s3fault$' ||
  { echo "FAIL: the completion is not loaded after sourcing bash_completion" >&2; exit 1; }
echo "bash completion loaded after '. /usr/share/bash-completion/bash_completion'"
inside s3fault demo --color never
inside s3fault gate --reader builtin:robust-parts --shapes 1KiB --jobs 2
echo "== clean room: the package installed and ran"
