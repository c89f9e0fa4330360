"""A cgroup v1 made by a test in the memory, pids and cpuacct hierarchies (writable on these
machines), the processes it moves into it, and the figures the kernel keeps for it, read the way
a person would check `--store-cgroup`: memory.usage_in_bytes, memory.stat's total_rss,
pids.current, cpuacct.usage; and /proc/PID for each process in it."""

from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
HIERARCHIES = ("memory", "pids", "cpuacct")


def writable() -> str:
    """Why a test cannot make a v1 cgroup here, or '' when it can."""
    for name in HIERARCHIES:
        hierarchy = ROOT / name
        if not (hierarchy / "cgroup.procs").exists():
            return f"no cgroup v1 {name} hierarchy at {hierarchy}"
    return ""


def cgroup_of(pid: int, hierarchy: str) -> str:
    """The path of `pid`'s cgroup in `hierarchy`, as /proc/PID/cgroup writes it."""
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if hierarchy in controllers.split(","):
            return path
    raise AssertionError(f"pid {pid} is in no {hierarchy} cgroup")


class Cgroup:
    """/NAME in each hierarchy; processes moved in are moved back to where they were by
    release(), and remove() deletes the directories (call both, in that order, on cleanup)."""

    def __init__(self, name: str):
        self.path = "/" + name
        self.moved: dict[int, dict[str, str]] = {}  # pid -> hierarchy -> where it was

    def directory(self, hierarchy: str) -> Path:
        return ROOT / hierarchy / self.path.lstrip("/")

    def create(self) -> None:
        for hierarchy in HIERARCHIES:
            self.directory(hierarchy).mkdir()

    def launcher(self, command: list[str]) -> list[str]:
        """`command` started inside the cgroup: a shell joins it, then execs the command (same
        PID), so that all its memory and CPU are charged here. (A process moved in later keeps
        its earlier pages charged where they were: this kernel refuses
        memory.move_charge_at_immigrate.)"""
        joins = " && ".join(f"echo $$ > {self.directory(h) / 'cgroup.procs'}"
                            for h in HIERARCHIES)
        return ["/bin/sh", "-c", joins + ' && exec "$@"', "sh", *command]

    def add(self, pid: int) -> None:
        self.moved[pid] = {h: cgroup_of(pid, h) for h in HIERARCHIES}
        for hierarchy in HIERARCHIES:
            (self.directory(hierarchy) / "cgroup.procs").write_text(str(pid))

    def release(self) -> None:
        for pid, where in self.moved.items():
            for hierarchy, path in where.items():
                back = ROOT / hierarchy / path.lstrip("/") / "cgroup.procs"
                try:
                    back.write_text(str(pid))
                except ProcessLookupError:
                    pass  # it has ended: nothing to move
        self.moved.clear()

    def remove(self) -> None:
        for hierarchy in HIERARCHIES:
            if self.directory(hierarchy).exists():
                self.directory(hierarchy).rmdir()

    def pids(self) -> list[int]:
        text = (self.directory("memory") / "cgroup.procs").read_text()
        return [int(p) for p in text.split()]

    def figures(self) -> dict:
        """What the kernel keeps for the cgroup now."""
        stat = dict(line.split() for line in
                    (self.directory("memory") / "memory.stat").read_text().splitlines())
        return {
            "memory_bytes": int((self.directory("memory") / "memory.usage_in_bytes").read_text()),
            "anon_bytes": int(stat["total_rss"]),
            "threads": int((self.directory("pids") / "pids.current").read_text()),
            "cpu_seconds": int((self.directory("cpuacct") / "cpuacct.usage").read_text()) / 1e9,
        }


def proc_figures(pids: list[int]) -> dict:
    """/proc's figures of `pids`, summed: threads, RssAnon and CPU time (utime + stime)."""
    import os
    ticks = os.sysconf("SC_CLK_TCK")
    threads = anon = 0
    cpu = 0.0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                threads += int(line.split()[1])
            elif line.startswith("RssAnon:"):
                anon += int(line.split()[1]) * 1024
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu += (int(fields[11]) + int(fields[12])) / ticks
    return {"threads": threads, "anon_bytes": anon, "cpu_seconds": cpu}
