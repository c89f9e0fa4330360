"""`s3fault proxy --timeline` under real traffic: a delay that grows over the run is judged slower
in the last sixth than in the first, a steady run has no drift and says what it could detect, a
store whose threads and memory grow as it serves shows its peaks with r near 1, and the JSON
report, the CSV and GET /timeline carry the same intervals."""

import csv
import io
import json
import subprocess
import threading
import time
import unittest
import urllib.request
from pathlib import Path

import boto3
import botocore.config

import harness

REPO = Path(__file__).resolve().parents[2]
GROWING_STORE = REPO / "tests" / "support" / "growing_store.py"


def client_for(endpoint: str, store: harness.Store):
    return boto3.client(
        "s3", endpoint_url=endpoint, aws_access_key_id=store.access_key,
        aws_secret_access_key=store.secret_key, region_name=store.region,
        config=botocore.config.Config(retries={"total_max_attempts": 1},
                                      s3={"addressing_style": "path"}))


def drive_gets(clients: list, bucket: str, seconds: float, every: float = 0) -> int:
    """GETs of one small object for `seconds`, one after another on each client at once, each
    client's starting `every` seconds apart when given (a paced load: its throughput is the
    clock's, not the machine's); returns how many."""
    done = [0] * len(clients)
    started = time.monotonic()
    deadline = started + seconds

    def drive(index: int) -> None:
        while time.monotonic() < deadline:
            clients[index].get_object(Bucket=bucket, Key="k")["Body"].read()
            done[index] += 1
            if every:
                time.sleep(max(0.0, started + done[index] * every - time.monotonic()))

    threads = [threading.Thread(target=drive, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done)


def figure(report: dict, operation: str, name: str) -> dict:
    ops = {o["operation"]: o for o in report["drift"]["operations"]}
    return next(f for f in ops[operation]["figures"] if f["figure"] == name)


class TimelineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = harness.scratch_root() / harness.unique_bucket_name("timeline")
        cls.tmp.mkdir(parents=True)
        cls.origin = harness.OriginProcess()
        cls.origin.start()
        cls.addClassCleanup(harness.stop_and_check, cls.origin)
        cls.store = cls.origin.store()
        direct = client_for(cls.origin.url, cls.store)
        cls.bucket = harness.unique_bucket_name("timeline")
        direct.create_bucket(Bucket=cls.bucket)
        direct.put_object(Bucket=cls.bucket, Key="k", Body=b"x" * 4096)

    def run_proxy(self, name: str, args: list[str], seconds: float, every: float = 0,
                  interval: str = "250ms") -> tuple[dict, str]:
        """A proxy with `args` and --timeline `interval` under `seconds` of GETs from 4 clients
        (paced `every` seconds when given); its --report and the stderr it wrote at exit."""
        report_path = self.tmp / f"{name}.json"
        proxy = harness.ProxyProcess(self.origin.url, ["--timeline", interval, "--report",
                                                       str(report_path), *args], name=name)
        proxy.start()
        self.addCleanup(proxy.stop)  # if the test fails before it stops the proxy itself
        drive_gets([client_for(proxy.url, self.store) for _ in range(4)], self.bucket, seconds,
                   every)
        harness.stop_and_check(proxy)
        return json.loads(report_path.read_text()), proxy.log_path.read_text()

    def test_a_delay_that_grows_is_judged_slower_at_the_end(self):
        # 0 ms for the first 1.5 s, then 15, 30 and 45 ms in later windows: a load that degrades.
        rules = ["--fault", "delay 15ms op=GetObject after=1500ms until=3s name=d15",
                 "--fault", "delay 30ms op=GetObject after=3s until=4500ms name=d30",
                 "--fault", "delay 45ms op=GetObject after=4500ms name=d45"]
        report, log = self.run_proxy("growing-delay", rules, 6.0)
        self.assertEqual(report["drift"]["verdict"], "drift", log)
        p50 = figure(report, "GetObject", "latency p50")
        self.assertEqual(p50["verdict"], "slower", p50)
        self.assertGreater(p50["last"], p50["first"] + 30, p50)
        self.assertIn("Drift: drift, the first sixth", log)
        self.assertRegex(log, r"GetObject latency p50: [0-9.]+ -> [0-9.]+ ms, \+[0-9.]+ % .*: slower")

    def test_a_steady_run_has_no_drift_and_says_what_it_could_detect(self):
        # A fixed 20 ms makes each request's latency the timer's, and 4 clients paced at one
        # request every 40 ms make the throughput the clock's: steady on a busy machine too.
        # --min-change 100 asks whether a doubling or a halving is excluded: 10 s of it tell
        # that even with two busy loops taking both cores (seen: p90 could detect +39 %, MiB/s
        # +58 %), while a change of 50 % they could not always tell there.
        report, log = self.run_proxy(
            "steady", ["--fault", "delay 20ms op=GetObject", "--min-change", "100"], 10.0, 0.04)
        drift = report["drift"]
        self.assertEqual(drift["verdict"], "no drift", log)
        for name in ("latency p50", "latency p90", "MiB/s"):
            one = figure(report, "GetObject", name)
            self.assertEqual(one["verdict"], "no change", one)
            drop, rise = one["detectable_percent"]
            self.assertTrue(-100 <= drop < 0 < rise <= 100, one)
        self.assertIn("Drift: no drift", log)
        self.assertRegex(log, r"GetObject latency p50: .*could detect -[0-9.]+/\+[0-9.]+ %: no change")

    def test_the_report_csv_and_admin_carry_the_same_intervals(self):
        report_path = self.tmp / "three-ways.json"
        csv_path = self.tmp / "three-ways.csv"
        page_path = self.tmp / "three-ways.html"
        proxy = harness.ProxyProcess(self.origin.url, [
            "--timeline", "200ms", "--report", str(report_path), "--timeline-csv", str(csv_path),
            "--report-html", str(page_path),
            "--admin", "127.0.0.1:0", "--store-pid", str(self.origin.pid)], name="three-ways")
        proxy.start()
        self.addCleanup(proxy.stop)  # if the test fails before it stops the proxy itself
        admin = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                     if line.startswith("admin on "))
        requests = drive_gets([client_for(proxy.url, self.store)], self.bucket, 2.0)
        with urllib.request.urlopen(admin + "/timeline", timeout=30) as answer:
            live = json.loads(answer.read())
        proxy.stop()
        report = json.loads(report_path.read_text())
        intervals = report["timeline"]["intervals"]
        self.assertEqual(sum(i["operations"].get("GetObject", {}).get("requests", 0)
                             for i in intervals), requests)
        # The live answer has what was recorded by then, without the buckets.
        self.assertGreater(len(live["timeline"]["intervals"]), 5)
        self.assertLessEqual(len(live["timeline"]["intervals"]), len(intervals))
        self.assertNotIn("latency_buckets", json.dumps(live))
        self.assertEqual(live["timeline"]["intervals"][0]["start"], intervals[0]["start"])
        rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
        self.assertEqual(sum(int(r["requests"]) for r in rows if r["operation"] == "GetObject"),
                         requests)
        # The origin's own figures in every interval, as /proc has them.
        status = Path(f"/proc/{self.origin.pid}/status").read_text()
        threads = int(next(l.split()[1] for l in status.splitlines() if l.startswith("Threads:")))
        self.assertTrue(all(i["store"]["threads"] == threads for i in intervals), intervals[-1])
        self.assertEqual(report["timeline"]["store"], f"PID {self.origin.pid}")
        # The page states the verdict before its first chart.
        page = page_path.read_text()
        self.assertIn(f'<section class="verdict {report["drift"]["verdict"].replace(" ", "-")}',
                      page)
        self.assertLess(page.index('class="verdict'), page.index("<svg"))

    def test_a_store_that_grows_shows_its_peaks_and_r_near_one(self):
        store = subprocess.Popen(["/usr/bin/python3", str(GROWING_STORE)],
                                 stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        self.addCleanup(store.wait, 10)
        self.addCleanup(store.terminate)
        port = int(store.stdout.readline().split()[-1])
        report_path = self.tmp / "growing-store.json"
        proxy = harness.ProxyProcess(f"http://127.0.0.1:{port}", [
            "--timeline", "200ms", "--report", str(report_path), "--store-pid", str(store.pid)],
            name="growing-store")
        proxy.start()
        self.addCleanup(proxy.stop)  # if the test fails before it stops the proxy itself
        # 120 requests over about 3 s: each leaves the store one more thread holding 1 MiB.
        for n in range(120):
            with urllib.request.urlopen(f"{proxy.url}/bucket/key{n}", timeout=30) as answer:
                answer.read()
            time.sleep(0.025)
        harness.stop_and_check(proxy)
        report = json.loads(report_path.read_text())
        trend = report["drift"]["store"]
        self.assertGreaterEqual(trend["peak_threads"], 120, trend)
        self.assertGreaterEqual(trend["peak_anon_bytes"], 120 * 1024 * 1024, trend)
        self.assertGreater(trend["threads_memory_r"], 0.95, trend)
        self.assertGreater(trend["last_sixth_threads"], trend["first_sixth_threads"] + 60, trend)
        log = proxy.log_path.read_text()
        self.assertRegex(log, r"Store \(PID [0-9]+\): peak [0-9]+ threads")
        self.assertRegex(log, r"r\(threads, memory\) = 0\.9[0-9]")

    def test_a_path_that_is_not_a_cgroup_is_refused(self):
        result = subprocess.run(
            [str(harness.proxy_binary()), "proxy", "--upstream", self.origin.url, "--listen",
             "127.0.0.1:0", "--timeline", "1s", "--store-cgroup", "/no-such-cgroup-here"],
            capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("/no-such-cgroup-here", result.stderr)
        self.assertIn("not a cgroup", result.stderr)
        missing = subprocess.run(
            [str(harness.proxy_binary()), "proxy", "--upstream", self.origin.url,
             "--store-pid", "1"], capture_output=True, text=True, timeout=30,
            stdin=subprocess.DEVNULL)
        self.assertEqual(missing.returncode, 2, missing.stderr)
        self.assertIn("--store-pid needs --timeline INTERVAL", missing.stderr)


if __name__ == "__main__":
    unittest.main()
