"""`s3fault bench --shard K/N --start-at` and `s3fault bench merge`, as mpirun or a CI matrix
runs them: three shards of one bench against one `s3fault origin`, merged, count exactly the
GetObject requests and bytes the origin logged, and carry the percentiles of the three parts'
raw histograms added together. A shard whose clock is 5 s off is refused at merge with the
measured spread; parts of different --sizes, a shard without --endpoint, a cell with fewer
clients than shards and `+N` under `--shard auto` without $S3FAULT_START_AT are refused."""

import datetime
import json
import math
import re
import socket
import subprocess
import unittest
from pathlib import Path

import harness

BENCH = {"--ops": "get", "--sizes": "64KiB", "--concurrency": "6", "--duration": "1s",
         "--rounds": "2", "--objects": "4", "--progress": "never"}


def bench_options(**changed) -> list[str]:
    """BENCH with options changed (duration="" leaves --duration out, e.g. for --count)."""
    options = dict(BENCH, **{f"--{k.replace('_', '-')}": v for k, v in changed.items()})
    return [item for k, v in options.items() if v != "" for item in (k, v)]


class Run:
    """One s3fault command to its end."""

    def __init__(self, args: list[str], env: dict = None):
        self.args = [str(harness.proxy_binary()), *args]
        self.env = dict(harness.clean_client_env(), **(env or {}))
        self.process = None

    def start(self) -> "Run":
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL, text=True, env=self.env)
        return self

    def finish(self, timeout: float = 300) -> "Run":
        self.stdout, self.stderr = self.process.communicate(timeout=timeout)
        self.code = self.process.returncode
        return self

    def run(self) -> "Run":
        return self.start().finish()

    def describe(self) -> str:
        return (f"{' '.join(self.args)}\nexit {self.code}\nstdout:\n{self.stdout[-4000:]}\n"
                f"stderr:\n{self.stderr[-3000:]}")


def start_in(seconds: float) -> str:
    at = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


# The histogram of metrics/latency_histogram.hpp, re-done here: values below 64 us exact, then
# 32 buckets per power of two; a quantile is its bucket's midpoint, at most the maximum.
def bucket_lowest(bucket: int) -> int:
    if bucket < 64:
        return bucket
    above = bucket - 64
    return (32 + above % 32) << (above // 32 + 6 - 5)


def quantile(buckets: dict[int, int], maximum: int, q: float) -> int:
    rank = max(1, math.ceil(q * sum(buckets.values())))
    seen = 0
    for bucket in sorted(buckets):
        seen += buckets[bucket]
        if seen >= rank:
            low, high = bucket_lowest(bucket), bucket_lowest(bucket + 1) - 1
            return min(low + (high - low) // 2, maximum)
    return maximum


class BenchShardTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = harness.scratch_root() / harness.unique_bucket_name("bench-shard")
        cls.tmp.mkdir(parents=True)
        cls.use_new_origin("origin")
        try:
            # Three processes as a launcher starts them: one start time, each its own shard.
            at = start_in(4)
            shards = [cls.bench(["--shard", f"{k}/3", "--start-at", at,
                                 "--json", str(cls.tmp / "part-{shard}.json")]).start()
                      for k in (1, 2, 3)]
            cls.shards = [shard.finish() for shard in shards]
        finally:
            # Stopped now, so that its log is whole when the tests count what it served; the
            # other tests bench a second one.
            harness.stop_and_check(cls.origin)
        cls.counted_origin = cls.origin
        cls.use_new_origin("origin-for-the-other-tests")

    @classmethod
    def tearDownClass(cls):
        harness.stop_and_check(cls.origin)

    @classmethod
    def use_new_origin(cls, name: str) -> None:
        cls.origin = harness.OriginProcess(name=name)
        cls.origin.start()
        cls.endpoint = ["--endpoint", cls.origin.url, "--access-key", cls.origin.access_key,
                        "--secret-key", cls.origin.secret_key]

    @classmethod
    def bench(cls, args: list[str], env: dict = None, **changed) -> Run:
        return Run(["bench", *cls.endpoint, *bench_options(**changed), *args], env)

    def parts(self) -> list[dict]:
        for shard in self.shards:
            self.assertEqual(shard.code, 0, shard.describe())
        return [json.loads((self.tmp / f"part-{k}.json").read_text()) for k in (1, 2, 3)]

    def merge(self, files: list[str], name: str) -> Run:
        return Run(["bench", "merge", *[str(self.tmp / f) for f in files],
                    "--json", str(self.tmp / name)]).run()

    def origin_gets(self, buckets: list[str]) -> tuple[int, int]:
        """GetObject requests the origin logged on the buckets, and their body bytes."""
        count = total = 0
        pattern = re.compile(r" GET /([^/?]+)/\S+ 200 GetObject in=\d+ out=(\d+) ")
        for line in self.counted_origin.log_path.read_text().splitlines():
            match = pattern.search(line)
            if match and match.group(1) in buckets:
                count += 1
                total += int(match.group(2))
        return count, total

    def test_merged_counts_are_the_parts_and_what_the_origin_served(self):
        parts = self.parts()
        merged = self.merge(["part-1.json", "part-2.json", "part-3.json"], "merged.json")
        self.assertEqual(merged.code, 0, merged.describe())
        report = json.loads((self.tmp / "merged.json").read_text())
        self.assertEqual(report["shards"], 3)
        self.assertEqual([c["concurrency"] for c in report["cells"]], [6])
        self.assertEqual([r["workers"] for r in report["runs"]], [6, 6])
        self.assertEqual([p["workers"] for p in parts[0]["runs"]], [2, 2])
        ops = sum(r["counts"]["succeeded"] for r in report["runs"])
        self.assertEqual(ops, sum(r["counts"]["succeeded"] for p in parts for r in p["runs"]))
        self.assertGreater(ops, 0)
        self.assertEqual(sum(r["counts"]["errors"] + r["counts"]["retries"]
                             for r in report["runs"]), 0)
        served, served_bytes = self.origin_gets([p["bucket"] for p in parts])
        self.assertEqual(served, ops, "the origin's log of GetObject answers")
        self.assertEqual(served_bytes, sum(r["bytes"] for r in report["runs"]))
        self.assertEqual(served_bytes, ops * 64 * 1024)
        for run in report["runs"]:
            windows = [(r["started_unix_us"], r["ended_unix_us"])
                       for p in parts for r in p["runs"] if r["round"] == run["round"]]
            self.assertEqual(run["started_unix_us"], min(w[0] for w in windows))
            self.assertEqual(run["ended_unix_us"], max(w[1] for w in windows))
            seconds = (run["ended_unix_us"] - run["started_unix_us"]) / 1e6
            self.assertAlmostEqual(run["figures"]["ops_per_second"],
                                   run["counts"]["succeeded"] / seconds, delta=0.051)

    def test_the_merged_page_says_it_was_merged_and_from_which_shards(self):
        # The terminal said "3 shards of ..."; the page did not say it was merged at all.
        self.parts()
        files = [str(self.tmp / f"part-{k}.json") for k in (3, 1, 2)]
        merged = Run(["bench", "merge", *files, "--html", str(self.tmp / "merged.html")]).run()
        self.assertEqual(merged.code, 0, merged.describe())
        self.assertIn("s3fault bench merge: 3 shards of ", merged.stdout)
        page = (self.tmp / "merged.html").read_text()
        self.assertIn('<section class="merged" data-shards="3">', page)
        self.assertIn("Merged by s3fault bench merge from 3 shards", page)
        at = [page.index(f'<li data-shard="{k}/3">shard {k}/3 (--shard {k}/3): '
                         f'{self.tmp / f"part-{k}.json"}, ') for k in (1, 2, 3)]
        self.assertEqual(at, sorted(at), "in shard order")
        self.assertIn("; merged from 3 shards (rates over each run's whole window)", page)

    def test_merged_percentiles_are_those_of_the_parts_histograms_added(self):
        parts = self.parts()
        merged = self.merge(["part-3.json", "part-1.json", "part-2.json"], "shuffled.json")
        self.assertEqual(merged.code, 0, merged.describe())
        report = json.loads((self.tmp / "shuffled.json").read_text())
        for run in report["runs"]:
            buckets, maximum = {}, 0
            for part in parts:
                (ours,) = [r for r in part["runs"] if r["round"] == run["round"]]
                for bucket, count in ours["counts"]["latency_us"]["buckets"]:
                    buckets[bucket] = buckets.get(bucket, 0) + count
                maximum = max(maximum, ours["counts"]["latency_us"]["max_us"])
            for q, key in ((0.5, "latency_p50_ms"), (0.99, "latency_p99_ms")):
                self.assertEqual(run["figures"][key], quantile(buckets, maximum, q) / 1000, key)
            self.assertEqual(run["figures"]["latency_max_ms"], maximum / 1000)

    def test_each_shard_says_which_it_is_and_ran_in_its_slot(self):
        parts = self.parts()
        for k, (part, shard) in enumerate(zip(parts, self.shards), start=1):
            self.assertEqual(part["shard"], {"index": k, "count": 3, "source": f"--shard {k}/3"})
            self.assertTrue(part["paced"])
            self.assertIsInstance(part["clock_offset_ms"], int)
            self.assertIn(f"shard {k}/3 (--shard {k}/3)", shard.stdout)
        starts = [p["runs"][0]["started_unix_us"] for p in parts]
        self.assertEqual(len({p["start_at"] for p in parts}), 1)
        # Not a timing threshold: the slot is 3.1 s after the start, so a shard more than a slot
        # late would have started the next round's slot instead.
        self.assertLess(max(starts) - min(starts), 3_000_000, starts)

    def test_a_shard_whose_clock_is_off_is_refused_at_merge(self):
        at = start_in(3)
        skewed = [self.bench(["--shard", f"{k}/2", "--start-at", at,
                              "--json", str(self.tmp / "skew-{shard}.json"),
                              *(["--test-clock-offset", "5s"] if k == 2 else [])],
                             rounds="1").start()
                  for k in (1, 2)]
        for run in skewed:
            self.assertEqual(run.finish().code, 0, run.describe())
        merged = self.merge(["skew-1.json", "skew-2.json"], "skew.json")
        self.assertEqual(merged.code, 2, merged.describe())
        spread = re.search(r"the shards' clocks disagree by (\d+\.\d+) s", merged.stderr)
        self.assertIsNotNone(spread, merged.describe())
        self.assertAlmostEqual(float(spread.group(1)), 5.0, delta=0.3)
        self.assertFalse((self.tmp / "skew.json").exists())

    def test_parts_of_different_sizes_are_refused_naming_the_setting(self):
        counted = {"count": "4", "duration": "", "rounds": "1"}
        one = self.bench(["--shard", "1/2", "--json", str(self.tmp / "sizes-1.json")],
                         **counted).run()
        two = self.bench(["--shard", "2/2", "--json", str(self.tmp / "sizes-2.json")],
                         sizes="4KiB", **counted).run()
        self.assertEqual((one.code, two.code), (0, 0), one.describe() + two.describe())
        merged = self.merge(["sizes-1.json", "sizes-2.json"], "sizes.json")
        self.assertEqual(merged.code, 2, merged.describe())
        self.assertIn("the parts were run with different --sizes", merged.stderr)
        missing = self.merge(["sizes-1.json"], "missing.json")
        self.assertEqual(missing.code, 2, missing.describe())
        self.assertIn("shard 2/2 is missing", missing.stderr)

    def test_shards_that_cannot_work_together_are_refused(self):
        refused = {
            "needs --endpoint": Run(["bench", *bench_options(), "--shard", "2/3"]),
            "every shard needs at least one client":
                self.bench(["--shard", "1/3"], concurrency="2"),
            "set S3FAULT_START_AT once for the launch":
                self.bench(["--shard", "auto", "--start-at", "+5s"],
                           {"OMPI_COMM_WORLD_RANK": "0", "OMPI_COMM_WORLD_SIZE": "3"}),
            "shard 4 is outside 1..3": self.bench(["--shard", "4/3"]),
            "no launcher's variables are set": self.bench(["--shard", "auto"]),
            "compare the merged report": self.bench(["--shard", "1/3", "--baseline",
                                                     str(self.tmp / "none.json")]),
        }
        for reason, run in refused.items():
            run.run()
            self.assertEqual(run.code, 2, run.describe())
            self.assertIn(reason, run.stderr, run.describe())

    def test_a_shard_that_cannot_run_writes_why_and_merge_names_it(self):
        with socket.socket() as probe:  # a port nothing listens on once closed
            probe.bind(("127.0.0.1", 0))
            closed = probe.getsockname()[1]
        lost = Run(["bench", "--endpoint", f"http://127.0.0.1:{closed}", *bench_options(),
                    "--timeout", "2", "--shard", "2/2", "--json", str(self.tmp / "lost-{shard}.json")])
        self.assertEqual(lost.run().code, 2, lost.describe())
        report = json.loads((self.tmp / "lost-2.json").read_text())
        self.assertIn("cannot be benchmarked", report["error"])
        self.assertEqual(report["shard"]["index"], 2)
        fine = self.bench(["--shard", "1/2", "--json", str(self.tmp / "lost-1.json")],
                          count="4", duration="", rounds="1").run()
        self.assertEqual(fine.code, 0, fine.describe())
        merged = self.merge(["lost-1.json", "lost-2.json"], "lost.json")
        self.assertEqual(merged.code, 2, merged.describe())
        self.assertIn("lost-2.json: shard 2/2 could not run: the store at", merged.stderr)


if __name__ == "__main__":
    unittest.main()
