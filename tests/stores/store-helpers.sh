# shellcheck shell=bash
# Helpers the start-*.sh and stop-*.sh scripts share; sourced, not run. Messages name the
# script that sourced this file.

# True when something uses TCP port $1 on this host (listening or connected).
port_in_use() { ss -Hatn "( sport = :$1 )" | grep -q .; }

# Prints a free port in 20000-29999: below the Linux ephemeral range (32768+) so that no
# outgoing connection can grab it, and away from Ceph's OSD range (6800-7300). Excludes the
# ports given as arguments.
pick_free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + RANDOM % 10000))
    [[ " $* " == *" $p "* ]] && continue
    port_in_use "$p" || { echo "$p"; return 0; }
  done
  echo "${0##*/}: found no free port" >&2
  return 1
}

# True while process $1 runs. A killed daemon is re-parented to PID 1, which may reap it late:
# zombies count as gone.
alive() { [ -e "/proc/$1" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

# Waits up to 5 s for process $1 to be gone; then SIGKILL, and up to 2 s more. False when it
# is still there.
wait_gone() {
  for _ in $(seq 1 100); do
    alive "$1" || return 0
    sleep 0.05
  done
  kill -9 "$1" 2>/dev/null
  for _ in $(seq 1 40); do
    alive "$1" || return 0
    sleep 0.05
  done
  return 1
}
