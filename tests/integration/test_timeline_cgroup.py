"""`--store-cgroup` for real: a store moved into a cgroup v1 the test makes (memory, pids,
cpuacct), sampled by `s3fault proxy --timeline` and `s3fault bench --timeline` under traffic.
The samples match what the test reads itself from the cgroup's files and from /proc.

Run directly, it uses a separate `s3fault origin`; with S3FAULT_STORE_ENV (a store started by
tests/stores/*.sh: Ceph RGW's mon, osd and radosgw), that store's processes, moved back where
they were afterwards."""

import json
import os
import subprocess
import time
import unittest

import boto3
import botocore.config

import cgroup_v1
import harness
from test_bench import run_bench

# How close a sample must be to the test's own reading, taken while the store is idle:
# - threads: exactly for the origin, within 2 for Ceph (thread_slack);
# - the cgroup's memory and anonymous memory: within 4 MiB or 5 % (page cache and the kernel's
#   per-CPU charge batches move a little between the two reads);
# - anonymous memory against /proc's RssAnon: within 25 % or 16 MiB (the cgroup counts every
#   anonymous page charged to it, /proc the resident pages mapped by each process);
# - CPU time: within 0.5 s (the store spends a little between the two reads).
MEMORY_SLACK = 4 * 1024 * 1024


def close(sample: float, truth: float, fraction: float, slack: float) -> bool:
    return abs(sample - truth) <= max(slack, fraction * truth)


class CgroupTimelineChecks:
    """The checks for a store whose processes are in self.cgroup, at self.store."""

    def client(self, endpoint: str):
        return boto3.client(
            "s3", endpoint_url=endpoint, aws_access_key_id=self.store.access_key,
            aws_secret_access_key=self.store.secret_key, region_name=self.store.region,
            config=botocore.config.Config(s3={"addressing_style": "path"}))

    # An idle origin starts and ends no thread; Ceph's daemons may, now and then, a few.
    thread_slack = 0
    # Whether the store was started inside the cgroup; one moved in later keeps its earlier
    # pages charged where they were, so its memory cannot be checked against /proc.
    started_inside = True

    def assert_sample_matches(self, sample: dict, kernel: dict, proc: dict) -> None:
        where = f"sample {sample}, cgroup {kernel}, /proc {proc}"
        print(f"{self.id()}: {where}")
        self.assertLessEqual(abs(sample["threads"] - kernel["threads"]), self.thread_slack, where)
        self.assertLessEqual(abs(sample["threads"] - proc["threads"]), self.thread_slack, where)
        self.assertTrue(close(sample["memory_bytes"], kernel["memory_bytes"], 0.05, MEMORY_SLACK),
                        where)
        self.assertTrue(close(sample["anon_bytes"], kernel["anon_bytes"], 0.05, MEMORY_SLACK),
                        where)
        if self.started_inside:
            self.assertTrue(
                close(sample["anon_bytes"], proc["anon_bytes"], 0.25, 4 * MEMORY_SLACK), where)
        self.assertTrue(close(sample["cpu_seconds"], kernel["cpu_seconds"], 0, 0.5), where)
        # cpuacct counts from when the processes joined; /proc from when they started.
        self.assertTrue(close(sample["cpu_seconds"],
                              proc["cpu_seconds"] - self.cpu_before_joining, 0, 0.5), where)

    def test_the_proxy_samples_the_stores_cgroup(self):
        report_path = self.tmp / "proxy.json"
        proxy = harness.ProxyProcess(self.store.endpoint, [
            "--timeline", "250ms", "--store-cgroup", self.cgroup.path, "--report",
            str(report_path)], name="proxy-cgroup")
        proxy.start()
        self.addCleanup(proxy.stop)  # if the test fails before it stops the proxy itself
        client = self.client(proxy.url)
        bucket = harness.unique_bucket_name("cgroup")
        client.create_bucket(Bucket=bucket)
        deadline = time.monotonic() + 3
        n = 0
        while time.monotonic() < deadline:
            client.put_object(Bucket=bucket, Key=f"k{n % 8}", Body=os.urandom(256 * 1024))
            client.get_object(Bucket=bucket, Key=f"k{n % 8}")["Body"].read()
            n += 1
        for key in range(min(n, 8)):
            client.delete_object(Bucket=bucket, Key=f"k{key}")
        client.delete_bucket(Bucket=bucket)
        # Idle: two intervals go by, then the test reads what the kernel keeps, and the proxy
        # takes its last sample as it stops.
        time.sleep(0.6)
        kernel = self.cgroup.figures()
        proc = cgroup_v1.proc_figures(self.cgroup.pids())
        harness.stop_and_check(proxy)
        report = json.loads(report_path.read_text())
        intervals = report["timeline"]["intervals"]
        self.assertIn(self.cgroup.path, report["timeline"]["store"])
        self.assertTrue(all("store" in i for i in intervals), intervals[-1])
        self.assert_sample_matches(intervals[-1]["store"], kernel, proc)
        # The traffic moved the CPU: the store's CPU % is above 0 in some interval.
        self.assertGreater(max(i["store"]["cpu_percent"] for i in intervals), 0)
        log = proxy.log_path.read_text()
        self.assertIn(f"Store (cgroup {self.cgroup.path} (v1: memory, pids, cpuacct)): peak", log)

    def test_the_bench_samples_the_stores_cgroup(self):
        report_path = self.tmp / "bench.json"
        result = run_bench("--endpoint", self.store.endpoint, "--access-key",
                           self.store.access_key, "--secret-key", self.store.secret_key,
                           "--region", self.store.region, "--ops", "get", "--sizes", "64KiB",
                           "--concurrency", "2", "--duration", "1s", "--rounds", "2",
                           "--objects", "2", "--store-cgroup", self.cgroup.path, "--timeline",
                           "250ms", "--json", str(report_path))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        kernel = self.cgroup.figures()
        proc = cgroup_v1.proc_figures(self.cgroup.pids())
        report = json.loads(report_path.read_text())
        intervals = report["timeline"]["intervals"]
        self.assertGreaterEqual(len(intervals), 6, intervals)
        self.assertTrue(all("store" in i for i in intervals), intervals)
        # The bench's last sample was taken as its last run ended; the store has been idle since.
        self.assert_sample_matches(intervals[-1]["store"], kernel, proc)
        self.assertGreater(sum(i["operations"]["get"]["requests"] for i in intervals
                               if "get" in i["operations"]), 0)
        self.assertIn("Timeline: ", result.stdout)
        self.assertIn(f"Store (cgroup {self.cgroup.path}", result.stdout)


def make_cgroup(test_class) -> None:
    """test_class.cgroup, made, and removed (after its processes are released) with the class."""
    why = cgroup_v1.writable()
    if why:
        raise AssertionError(f"cannot make a cgroup v1 here: {why}")
    test_class.cgroup = cgroup_v1.Cgroup(f"s3fault-test-{os.getpid()}-{test_class.__name__}")
    # Cleanups first, so that a create() that fails half-way leaves nothing behind.
    test_class.addClassCleanup(test_class.cgroup.remove)
    test_class.addClassCleanup(test_class.cgroup.release)
    test_class.cgroup.create()


class OriginInCgroupTest(CgroupTimelineChecks, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = harness.scratch_root() / harness.unique_bucket_name("timeline-cgroup")
        cls.tmp.mkdir(parents=True)
        make_cgroup(cls)
        origin = harness.OriginProcess()
        origin.args = cls.cgroup.launcher(origin.args)
        origin.start()
        # Cleanups run last first: the origin stops, then the emptied cgroup is removed.
        cls.addClassCleanup(harness.stop_and_check, origin)
        cls.store = origin.store()
        cls.cpu_before_joining = 0.0


class StoreInCgroupTest(CgroupTimelineChecks, unittest.TestCase):
    thread_slack = 2
    started_inside = False

    @classmethod
    def setUpClass(cls):
        cls.tmp = harness.scratch_root() / harness.unique_bucket_name("timeline-cgroup")
        cls.tmp.mkdir(parents=True)
        cls.store = harness.store_under_test()
        make_cgroup(cls)
        cls.cpu_before_joining = cgroup_v1.proc_figures(list(cls.store.pids))["cpu_seconds"]
        for pid in cls.store.pids:
            cls.cgroup.add(pid)


if __name__ == "__main__":
    suite = StoreInCgroupTest if os.environ.get("S3FAULT_STORE_ENV") else OriginInCgroupTest
    result = unittest.TextTestRunner(verbosity=2).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(suite))
    raise SystemExit(0 if result.wasSuccessful() else 1)
