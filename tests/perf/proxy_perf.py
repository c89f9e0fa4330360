#!/usr/bin/python3
"""Puts the same load through each path to the same origin and prints one table.

Paths: direct; s3fault proxy with no rules; s3fault with a header rule and a body rule active on
other keys; nginx proxy_pass; HAProxy; mitmproxy in reverse mode. The origin is an nginx serving
files from tmpfs (sendfile) and taking PUTs with its DAV module, so that it costs the machine
as little as possible and the proxies' differences show.

Loads (wrk, from Debian): GET 10 MiB at c=32, GET 4 KiB at c=64, GET 4 KiB at c=1 (added
latency), PUT 8 MiB at c=8, one 1 GiB GET at c=1; then, once per path, GET 64 MiB at c=256 for
the peak resident memory.

Runs are interleaved (round -> load -> path) and repeated; medians are quoted. Each load's round
starts with the direct run, then the proxies in an order that rotates each round. A path run
right after a direct one was 5 to 12 % slower than after another proxy, for seconds (idling does
not help, load does), so the path after a direct run first gets --settle seconds of unmeasured
load. For each proxy the CPU seconds of its processes (utime + stime from /proc)
per GiB moved and the highest resident memory sampled during the runs are reported, and for
every path how busy the whole machine was during its runs ("busy %", all cores, from
/proc/stat): near 100 % a load is bound by the cores the client, origin and proxy share.

Only 127.0.0.1; every process started here is stopped here, by PID.
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

MIB = 1024 * 1024
GIB = 1024 * MIB
REPO = Path(__file__).resolve().parents[2]

LOADS = [
    # name, method, object, connections, duration factor
    {"name": "GET 10 MiB c=32", "method": "GET", "object": "obj-10m", "size": 10 * MIB, "c": 32},
    {"name": "GET 4 KiB c=64", "method": "GET", "object": "obj-4k", "size": 4096, "c": 64},
    {"name": "GET 4 KiB c=1", "method": "GET", "object": "obj-4k", "size": 4096, "c": 1},
    {"name": "PUT 8 MiB c=8", "method": "PUT", "object": "put-8m", "size": 8 * MIB, "c": 8},
    {"name": "GET 1 GiB c=1", "method": "GET", "object": "obj-1g", "size": GIB, "c": 1},
]
MEMORY_LOAD = {"name": "GET 64 MiB c=256", "method": "GET", "object": "obj-64m",
               "size": 64 * MIB, "c": 256}


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 15) -> None:
    import socket
    deadline = time.time() + timeout
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def process_tree(pid: int) -> list[int]:
    """`pid` and its children (nginx workers), read from /proc."""
    pids = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat[stat.rfind(")") + 2:].split()[1])
            if ppid == pid:
                pids.append(int(entry.name))
    return pids


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        rest = fields[fields.rfind(")") + 2:].split()
        total += (int(rest[11]) + int(rest[12])) / tick  # utime, stime (fields 14 and 15)
    return total


def machine_times() -> tuple[int, int]:
    """(busy, total) jiffies of every core since boot, from the first line of /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = fields[3] + fields[4]  # idle, iowait
    return sum(fields) - idle, sum(fields)


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


class RssSampler:
    """The highest summed VmRSS of some processes, sampled every 50 ms on a thread."""

    def __init__(self, pids: list[int]):
        self.pids = pids
        self.peak = rss_bytes(pids) if pids else 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(0.05):
            if self.pids:
                self.peak = max(self.peak, rss_bytes(self.pids))

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


class Server:
    """One server process of ours: started with a command line, stopped by its PID."""

    def __init__(self, name: str, args: list[str], port: int, log: Path, env=None):
        self.name, self.args, self.port, self.log = name, args, port, log
        self.env = env
        self.process = None

    def start(self):
        self.process = subprocess.Popen(self.args, stdin=subprocess.DEVNULL,
                                        stdout=open(self.log, "wb"), stderr=subprocess.STDOUT,
                                        env=self.env, start_new_session=True)
        try:
            wait_for_port(self.port)
        except RuntimeError:
            self.stop()
            raise RuntimeError(f"{self.name} did not start: {self.log.read_text()[-2000:]}")
        time.sleep(0.2)  # nginx forks its workers after it listens

    def pids(self) -> list[int]:
        return process_tree(self.process.pid)

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def nginx_origin(work: Path, port: int) -> Server:
    data = work / "data"
    conf = work / "origin-nginx.conf"
    conf.write_text(f"""
user root; daemon off; master_process on; worker_processes 1; pid {work}/origin-nginx.pid;
error_log {work}/origin-nginx.error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path {work}/origin-body; client_max_body_size 0;
  server {{
    listen 127.0.0.1:{port} reuseport backlog=4096; root {data};
    location / {{ dav_methods PUT; create_full_put_path on; }}
  }}
}}
""")
    return Server("origin nginx", ["nginx", "-c", str(conf), "-e", f"{work}/origin-nginx.error.log"],
                  port, work / "origin-nginx.log")


def s3fault_proxy(work: Path, port: int, origin: int, workers: int, rules: bool) -> Server:
    args = [str(REPO / "build" / "s3fault"), "proxy", "--listen", f"127.0.0.1:{port}",
            "--upstream", f"http://127.0.0.1:{origin}", "--threads", str(workers),
            "--log-level", "warn"]
    if rules:
        # A header rule and a body rule that match other keys only: their cost is the matching.
        args += ["--fault", "strip-header x-amz-mp-parts-count key=elsewhere/*",
                 "--fault", "corrupt count=1 key=elsewhere/*"]
    name = "s3fault-rules" if rules else "s3fault"
    return Server(name, args, port, work / f"{name}-{workers}.log")


def nginx_proxy(work: Path, port: int, origin: int, workers: int) -> Server:
    conf = work / f"proxy-nginx-{workers}.conf"
    conf.write_text(f"""
user root; daemon off; master_process on; worker_processes {workers};
pid {work}/proxy-nginx-{workers}.pid;
error_log {work}/proxy-nginx.error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off; keepalive_requests 1000000;
  client_body_temp_path {work}/proxy-body; client_max_body_size 0;
  proxy_temp_path {work}/proxy-temp;
  upstream origin {{ server 127.0.0.1:{origin}; keepalive 512; keepalive_requests 1000000; }}
  server {{
    listen 127.0.0.1:{port} reuseport backlog=4096;
    location / {{
      proxy_pass http://origin; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off; proxy_request_buffering off; proxy_buffer_size 256k;
      proxy_buffers 8 256k; proxy_busy_buffers_size 512k;
    }}
  }}
}}
""")
    return Server("nginx", ["nginx", "-c", str(conf), "-e", f"{work}/proxy-nginx.error.log"], port,
                  work / f"proxy-nginx-{workers}.log")


def haproxy_proxy(work: Path, port: int, origin: int, workers: int) -> Server:
    conf = work / f"haproxy-{workers}.cfg"
    conf.write_text(f"""
global
  nbthread {workers}
  maxconn 4000
  tune.bufsize 262144
defaults
  mode http
  timeout connect 5s
  timeout client 120s
  timeout server 120s
  option http-keep-alive
  option splice-auto
  http-reuse always
frontend in
  bind 127.0.0.1:{port}
  default_backend origin
backend origin
  server origin 127.0.0.1:{origin}
""")
    return Server("haproxy", ["haproxy", "-f", str(conf), "-db"], port,
                  work / f"haproxy-{workers}.log")


def mitmproxy_proxy(work: Path, port: int, origin: int) -> Server:
    # One Python process (mitmproxy has no worker setting); bodies streamed, not buffered.
    return Server("mitmproxy", ["mitmdump", "--mode", f"reverse:http://127.0.0.1:{origin}",
                                "--listen-host", "127.0.0.1", "--listen-port", str(port),
                                "--set", "stream_large_bodies=1", "--set", "termlog_verbosity=error",
                                "--set", "flow_detail=0", "-q"],
                  port, work / "mitmproxy.log",
                  env={**os.environ, "HOME": str(work)})


UNITS = {"B": 1, "KB": 1024, "MB": MIB, "GB": GIB, "TB": 1024 * GIB}
TIME_UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def parse_time(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(match.group(1)) * TIME_UNITS[match.group(2)]


def run_wrk(port: int, load: dict, seconds: float, work: Path) -> dict:
    threads = 1 if load["c"] < 4 else 2
    args = ["wrk", "-t", str(threads), "-c", str(load["c"]), "-d", f"{int(seconds)}s",
            "--latency",
            "--timeout", "60s"]
    if load["method"] == "PUT":
        args += ["-s", str(work / "put.lua")]
    args.append(f"http://127.0.0.1:{port}/bench/{load['object']}")
    out = subprocess.run(args, capture_output=True, text=True, timeout=seconds + 120).stdout
    requests = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", out)
    if not requests:
        raise RuntimeError(f"wrk printed no result: {' '.join(args)}\n{out}")
    count = int(requests.group(1))
    elapsed = float(requests.group(2)) * TIME_UNITS[requests.group(3)]
    latency = dict(re.findall(r"^\s+(50|99)%\s+(\S+)$", out, re.MULTILINE))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    # A GET's bytes are what wrk read, responses still in flight at the end included: counting
    # whole responses only would make one 1 GiB stream in 3 s read as 2, 3 or 4 GiB. A PUT's are
    # the bodies of the requests answered (wrk reads only their small responses).
    read = re.search(r"requests in [\d.]+\w+, ([\d.]+)([KMGT]?B) read", out)
    if load["method"] == "GET" and read:
        moved = float(read.group(1)) * UNITS[read.group(2)]
    else:
        moved = count * load["size"]
    return {"requests": count, "seconds": elapsed, "bytes": moved,
            "mb_per_s": moved / MIB / elapsed, "req_per_s": count / elapsed,
            "p50_ms": parse_time(latency["50"]) * 1000 if "50" in latency else None,
            "p99_ms": parse_time(latency["99"]) * 1000 if "99" in latency else None,
            "errors": (int(errors.group(1)) if errors else 0),
            "socket_errors": socket_errors.group(1) if socket_errors else ""}


def measure(server, port: int, load: dict, seconds: float, work: Path,
            settle: float = 0) -> dict:
    if settle > 0:
        run_wrk(port, load, settle, work)
    pids = server.pids() if server else []
    cpu_before = cpu_seconds(pids)
    busy_before, total_before = machine_times()
    sampler = RssSampler(pids)
    result = run_wrk(port, load, seconds, work)
    busy_after, total_after = machine_times()
    # How much of the machine the run used (every process: wrk, origin, proxy, interrupts):
    # near 100 % the load is bound by the cores, not by the path's own waiting.
    result["machine_busy_pct"] = (100.0 * (busy_after - busy_before)
                                  / max(1, total_after - total_before))
    result["peak_rss_mib"] = sampler.stop() / MIB if pids else None
    result["cpu_s_per_gib"] = ((cpu_seconds(pids) - cpu_before) / (result["bytes"] / GIB)
                               if pids and result["bytes"] else None)
    return result


def prepare_data(work: Path) -> None:
    data = work / "data" / "bench"
    data.mkdir(parents=True)
    for name, size in [("obj-4k", 4096), ("obj-10m", 10 * MIB), ("obj-64m", 64 * MIB),
                       ("obj-1g", GIB)]:
        with open(data / name, "wb") as f:
            block = os.urandom(MIB if size >= MIB else size)
            for _ in range(max(1, size // len(block))):
                f.write(block)
    (work / "put.lua").write_text(
        'wrk.method = "PUT"\n'
        f'wrk.body = string.rep("s", {8 * MIB})\n'
        'wrk.headers["Content-Type"] = "application/octet-stream"\n')


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def ratio(value, base):
    return "-" if value is None or not base else f"{value / base:.2f}x"


def print_table(results: dict, paths: list[str], workers: int, out) -> None:
    out.write(f"\n== {workers} worker{'s' if workers > 1 else ''} per proxy "
              f"(mitmproxy: always 1); medians of the rounds ==\n")
    header = (f"{'load':<18} {'path':<15} {'MiB/s':>9} {'req/s':>9} {'x direct':>8} "
              f"{'p50 ms':>9} {'x':>6} {'p99 ms':>9} {'x':>6} {'CPU s/GiB':>9} {'peak RSS MiB':>12}"
              f" {'errors':>6} {'busy %':>6}\n")
    out.write(header)
    for load in LOADS + [MEMORY_LOAD]:
        direct = results.get((load["name"], "direct", workers))
        for path in paths:
            runs = results.get((load["name"], path, workers))
            if not runs:
                continue
            mbs = median([r["mb_per_s"] for r in runs])
            rps = median([r["req_per_s"] for r in runs])
            p50 = median([r["p50_ms"] for r in runs])
            p99 = median([r["p99_ms"] for r in runs])
            cpu = median([r["cpu_s_per_gib"] for r in runs])
            rss = max([r["peak_rss_mib"] for r in runs if r["peak_rss_mib"] is not None],
                      default=None)
            errors = sum(r["errors"] for r in runs)
            busy = median([r.get("machine_busy_pct") for r in runs])
            base = {k: median([r[k] for r in direct]) for k in ("mb_per_s", "p50_ms", "p99_ms")} \
                if direct else {}
            if load is MEMORY_LOAD:
                # Few of these transfers end within a run: only the memory figure means much.
                mbs = rps = p50 = p99 = cpu = None
            out.write(f"{load['name']:<18} {path:<15} {fmt(mbs):>9} {fmt(rps):>9} "
                      f"{ratio(mbs, base.get('mb_per_s')):>8} {fmt(p50, 3):>9} "
                      f"{ratio(p50, base.get('p50_ms')):>6} {fmt(p99, 3):>9} "
                      f"{ratio(p99, base.get('p99_ms')):>6} {fmt(cpu, 2):>9} {fmt(rss):>12} "
                      f"{errors:>6} {fmt(busy, 0):>6}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=3, help="per run (whole seconds: wrk)")
    parser.add_argument("--workers", default="1,2", help="worker counts to run, e.g. 1,2")
    parser.add_argument("--paths", default="direct,s3fault,s3fault-rules,nginx,haproxy,mitmproxy")
    parser.add_argument("--loads", default="",
                        help="only the loads whose name contains one of these comma-separated "
                             "texts, e.g. '4 KiB c=64'")
    parser.add_argument("--settle", type=int, default=4,
                        help="seconds of unmeasured load through the path that follows a direct "
                             "run, before it is measured (0: none)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory load")
    parser.add_argument("--json", help="write every run here")
    args = parser.parse_args()
    for tool in ("nginx", "haproxy", "mitmdump", "wrk"):
        if shutil.which(tool) is None:
            print(f"proxy_perf: {tool} not found (run tests/perf/deps-perf.sh)", file=sys.stderr)
            return 2
    paths = args.paths.split(",")
    loads = [load for load in LOADS
             if not args.loads or any(part in load["name"] for part in args.loads.split(","))]
    worker_counts = [int(w) for w in args.workers.split(",")]
    work = Path(tempfile.mkdtemp(prefix="s3fault-perf-", dir="/dev/shm"))
    servers: list[Server] = []
    results: dict = {}
    started = time.time()
    try:
        prepare_data(work)
        origin_port = free_port()
        origin = nginx_origin(work, origin_port)
        origin.start()
        servers.append(origin)
        for workers in worker_counts:
            # Every proxy of this worker count, started once and kept for all its runs.
            by_path = {"direct": (None, origin_port)}
            for path in paths:
                if path == "direct":
                    continue
                port = free_port()
                if path == "s3fault":
                    server = s3fault_proxy(work, port, origin_port, workers, rules=False)
                elif path == "s3fault-rules":
                    server = s3fault_proxy(work, port, origin_port, workers, rules=True)
                elif path == "nginx":
                    server = nginx_proxy(work, port, origin_port, workers)
                elif path == "haproxy":
                    server = haproxy_proxy(work, port, origin_port, workers)
                elif path == "mitmproxy":
                    server = mitmproxy_proxy(work, port, origin_port)
                else:
                    raise SystemExit(f"unknown path {path}")
                server.start()
                servers.append(server)
                by_path[path] = (server, port)
            for round_number in range(args.rounds):
                for load in loads:
                    proxies = [path for path in paths if path != "direct"]
                    turn = round_number % len(proxies) if proxies else 0
                    order = ([path for path in paths if path == "direct"] + proxies[turn:] +
                             proxies[:turn])
                    previous = None
                    for path in order:
                        server, port = by_path[path]
                        seconds = args.seconds
                        if load["name"].startswith("GET 1 GiB") and path == "mitmproxy":
                            seconds = max(seconds, 8)  # at least one whole GiB
                        settle = args.settle if previous == "direct" else 0
                        previous = path
                        result = measure(server, port, load, seconds, work, settle)
                        result.update({"load": load["name"], "path": path, "workers": workers,
                                       "round": round_number + 1})
                        results.setdefault((load["name"], path, workers), []).append(result)
                        print(f"[{time.time() - started:6.0f} s] w={workers} round "
                              f"{round_number + 1} {load['name']:<16} {path:<14} "
                              f"{result['mb_per_s']:9.1f} MiB/s {result['req_per_s']:9.1f} req/s"
                              f" p50 {fmt(result['p50_ms'], 3)} ms", flush=True)
            for path in paths if not args.no_memory else []:
                server, port = by_path[path]
                result = measure(server, port, MEMORY_LOAD, args.seconds, work)
                result.update({"load": MEMORY_LOAD["name"], "path": path, "workers": workers,
                               "round": 1})
                results.setdefault((MEMORY_LOAD["name"], path, workers), []).append(result)
                print(f"[{time.time() - started:6.0f} s] w={workers} memory {path:<14} peak RSS "
                      f"{fmt(result['peak_rss_mib'])} MiB", flush=True)
            for path in paths:
                server, _ = by_path[path]
                if server is not None:
                    server.stop()
                    servers.remove(server)
    finally:
        for server in reversed(servers):
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    for workers in worker_counts:
        print_table(results, paths, workers, sys.stdout)
    print(f"\n{sum(len(v) for v in results.values())} runs in {time.time() - started:.0f} s; "
          f"{os.cpu_count()} cores; origin: nginx 1 worker, sendfile, tmpfs")
    if args.json:
        Path(args.json).write_text(json.dumps([r for v in results.values() for r in v], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
