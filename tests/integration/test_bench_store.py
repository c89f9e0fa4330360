"""`s3fault bench --store-pid` against a store started by tests/stores/*.sh (Ceph RGW: mon, osd
and radosgw; s3rver: node; Swift: memcached and the account, container, object and proxy
servers): the figures show the processes' memory, threads and CPU."""

import json
import unittest

import harness
from test_bench import run_bench


class BenchStoreTest(unittest.TestCase):
    def test_store_pid_shows_memory_and_threads(self):
        store = harness.store_under_test()
        tmp = harness.scratch_root() / harness.unique_bucket_name("bench-store")
        tmp.mkdir(parents=True)
        report_path = tmp / "store.json"
        pids = [str(pid) for pid in store.pids]
        result = run_bench("--endpoint", store.endpoint, "--access-key", store.access_key,
                           "--secret-key", store.secret_key, "--ops", "get,put", "--sizes",
                           "1MiB", "--concurrency", "2", "--duration", "1s", "--rounds", "1",
                           "--store-pid", ",".join(pids), "--json", str(report_path))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("Store processes (pid " + ", ".join(pids) + ")", result.stdout)
        report = json.loads(report_path.read_text())
        for cell in report["cells"]:
            figures = cell["figures"]
            self.assertGreater(figures["store_rss_max_mib"]["median"], 10, cell)
            self.assertGreaterEqual(figures["store_threads_max"]["median"], len(pids), cell)
            self.assertGreater(figures["store_cpu_mean_percent"]["median"], 0, cell)
            self.assertEqual(figures["errors"]["median"], 0, cell)


if __name__ == "__main__":
    unittest.main()
