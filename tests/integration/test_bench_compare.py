"""`s3fault bench` as a judge of speed that says what it could see: stores compared side by side
in one run (--store NAME=URL), and "inconclusive" where the rounds could not have seen a change of
--min-change, which is never a pass.

    one s3fault origin under two names           no figure flagged; the detectable change shown
    the origin, and the origin behind a 100 ms   every get figure of the delayed store slower,
    delay rule (s3fault proxy)                   its latency at least the delay
    the origin, and the origin behind throttle   the summary line names the range of ratios
    a baseline whose rounds are 40 % apart       inconclusive, exit 1, the rounds that would do;
                                                 --allow-inconclusive: exit 0, said
    two shards of a store comparison, merged     each store's runs summed, the stores compared
    a baseline file of several stores            FILE:NAME chooses one; without it, refused

No assertion depends on the machine's speed: the delays and throttles make differences no
machine can hide, and the baseline's spread makes one no round can see."""

import csv
import datetime
import io
import json
import re
import subprocess
import unittest
from pathlib import Path

import harness
from test_bench import run_bench
from test_bench_html import terminal_verdict as verdict_lines

COMPARED = ["mib_per_second", "ops_per_second", "latency_p50_ms", "latency_p99_ms", "ttfb_p50_ms"]
DELAY_MS = 100


def comparisons(report: dict, store: str) -> dict[str, dict[str, dict]]:
    """cell name -> figure key -> the JSON's comparison of `store`'s cell with the reference."""
    found = {}
    for cell in report["cells"]:
        if cell.get("store") == store:
            name = f"{cell['operation']} {cell['size']} c={cell['concurrency']}"
            found[name] = cell.get("versus", {})
    return found


class BenchCompareTest(unittest.TestCase):
    def setUp(self):
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("compare")
        self.tmp.mkdir(parents=True)
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)

    def proxy(self, rule: str) -> str:
        proxy = harness.ProxyProcess(self.origin.url, ["--fault", rule])
        proxy.start()
        self.addCleanup(harness.stop_and_check, proxy)
        return proxy.url

    def test_one_store_under_two_names_differs_in_nothing_and_says_what_it_could_see(self):
        # A 50 % change at a false-alarm rate of 0.1 % between a store and itself would be a
        # bias of the bench (the order of the stores), not noise.
        path = self.tmp / "same.json"
        run = run_bench("--store", f"a={self.origin.url}", "--store", f"b={self.origin.url}",
                        "--ops", "get", "--sizes", "64KiB", "--concurrency", "2", "--count", "40",
                        "--alpha", "0.001", "--min-change", "50", "--allow-inconclusive",
                        "--json", str(path))
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        report = json.loads(path.read_text())
        self.assertEqual(report["settings"]["rounds"], 4, "3 rounds, rounded up for 2 stores")
        # The order rotated: a first in rounds 1 and 3, b first in 2 and 4.
        firsts = [next(r.get("store") for r in report["runs"] if r["round"] == n)
                  for n in (1, 2, 3, 4)]
        self.assertEqual(firsts, ["a", "b", "a", "b"])
        judged = comparisons(report, "b")["get 64KiB c=2"]
        self.assertEqual(sorted(judged), sorted(COMPARED))
        for key, c in judged.items():
            self.assertTrue(c["judged"], key)
            self.assertEqual(c["rounds"], [4, 4], key)
            self.assertFalse(c["flagged"], (key, c))
            self.assertIn(c["change"], ["no difference", "cannot tell"], key)
            self.assertGreater(c["detectable_rise_percent"], 0, key)
        # Side by side in the terminal, then the statistics with the detectable change.
        self.assertIn("Stores side by side: medians, then each store's over a's (the reference)",
                      run.stdout)
        self.assertRegex(run.stdout, r"get 64KiB c=2\s+b\s+MiB/s\s+[\d.]+\s+[\d.]+\s+[\d.]+x\s+4/4"
                                     r"\s+\[[\d.]+x, [\d.]+x\]\s+[\d.<]+\s+-[\d.]+/\+[\d.]+\s+")
        self.assertRegex(verdict_lines(run.stdout)[0],
                         r"^Verdict: (judged|inconclusive, passed with --allow-inconclusive): ")

    def test_a_delayed_store_is_slower_on_every_get_figure(self):
        delayed = self.proxy(f"delay {DELAY_MS}ms op=GetObject")
        path, csv_path = self.tmp / "delay.json", self.tmp / "delay.csv"
        run = run_bench("--store", f"direct={self.origin.url}", "--store", f"delayed={delayed}",
                        "--ops", "get", "--sizes", "64KiB", "--concurrency", "1,2", "--count",
                        "6", "--json", str(path), "--csv", str(csv_path))
        report = json.loads(path.read_text())
        for cell, judged in comparisons(report, "delayed").items():
            for key in COMPARED:
                c = judged[key]
                self.assertEqual(c["change"], "slower" if "second" in key else "worse",
                                 (cell, key, c))
            # By the right ratio: the delayed store's latency over the direct one's, as the
            # medians printed say (to their rounding).
            p50 = judged["latency_p50_ms"]
            self.assertAlmostEqual(1 + p50["delta_percent"] / 100, p50["now"] / p50["reference"],
                                   delta=0.01 * p50["now"] / p50["reference"])
        # Every GET waits for the delay: its latency and TTFB at least that.
        for cell in report["cells"]:
            if cell.get("store") == "delayed":
                self.assertGreaterEqual(cell["figures"]["latency_p50_ms"]["min"], DELAY_MS)
                self.assertGreaterEqual(cell["figures"]["ttfb_p50_ms"]["min"], DELAY_MS)
        # A store slower than the reference is a finding, not a failure.
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        headline, *details = verdict_lines(run.stdout)
        self.assertRegex(headline, r"^Verdict: judged: delayed compared with direct \(the "
                                   r"reference\) on 10 figures of 2 cells")
        self.assertRegex(details[0], r"^get MiB/s, delayed against direct: [\d.]+x(-[\d.]+x)? "
                                     r"slower in 2 of 2 cells \([\d.]+x(-[\d.]+x)? of direct\)$")
        # The CSV has a row per cell and store, the store named.
        rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
        self.assertEqual([(r["store"], r["concurrency"]) for r in rows],
                         [("direct", "1"), ("delayed", "1"), ("direct", "2"), ("delayed", "2")])
        self.assertEqual(rows[1]["mib_per_second_change"], "slower")
        self.assertEqual(rows[1]["verdict"], "judged")
        self.assertEqual(rows[0]["mib_per_second_change"], "", "the reference is not compared")

    def test_a_throttled_store_is_summed_up_as_a_range_over_the_cells(self):
        throttled = self.proxy("throttle 4MiB/s op=GetObject")
        path = self.tmp / "throttle.json"
        # Time to first byte is not throttled: those figures may not tell, which is not this
        # test's point.
        run = run_bench("--store", f"direct={self.origin.url}", "--store",
                        f"throttled={throttled}", "--ops", "get", "--sizes", "64KiB,256KiB",
                        "--concurrency", "1,2", "--count", "4", "--allow-inconclusive", "--json",
                        str(path))
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        report = json.loads(path.read_text())
        ratios = [c["mib_per_second"]["now"] / c["mib_per_second"]["reference"]
                  for c in comparisons(report, "throttled").values()]
        self.assertEqual(len(ratios), 4)
        line = verdict_lines(run.stdout)[1]
        match = re.fullmatch(r"get MiB/s, throttled against direct: ([\d.]+)x-([\d.]+)x slower "
                             r"in 4 of 4 cells \(([\d.]+)x-([\d.]+)x of direct\)", line)
        self.assertIsNotNone(match, line)
        # The range is that of the cells' ratios, as the JSON has them (to two digits).
        self.assertAlmostEqual(float(match.group(3)), min(ratios), delta=0.05 * min(ratios))
        self.assertAlmostEqual(float(match.group(4)), max(ratios), delta=0.05 * max(ratios))
        self.assertAlmostEqual(float(match.group(2)), 1 / min(ratios), delta=0.05 / min(ratios))

    def baseline_like(self, report: dict, spread: float) -> Path:
        """The report as a baseline whose two rounds per figure lie `spread` apart around its
        medians: measured the same way, but too noisy to see a change of 10 %."""
        for cell in report["cells"]:
            for key, rounds in cell["rounds"].items():
                middle = cell["figures"][key]["median"]
                cell["rounds"][key] = [middle * (1 - spread / 2), middle * (1 + spread / 2)]
        path = self.tmp / "noisy.json"
        path.write_text(json.dumps(report))
        return path

    def test_rounds_too_few_to_see_min_change_are_inconclusive_and_do_not_pass(self):
        common = ["--endpoint", self.origin.url, "--ops", "get", "--sizes", "64KiB",
                  "--concurrency", "2", "--count", "20", "--rounds", "2"]
        first = self.tmp / "first.json"
        made = run_bench(*common, "--json", str(first))
        self.assertEqual(made.returncode, 0, made.stdout + made.stderr)
        base = self.baseline_like(json.loads(first.read_text()), 0.4)
        path, csv_path = self.tmp / "now.json", self.tmp / "now.csv"
        run = run_bench(*common, "--baseline", str(base), "--json", str(path), "--csv",
                        str(csv_path))
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        headline, summary, *figures = verdict_lines(run.stdout)
        self.assertEqual(headline, f"Verdict: inconclusive, so the bench does not pass: 5 of 5 "
                                   f"figures of 1 cell compared with the baseline {base} could "
                                   f"not tell a change of 10.0 % (--min-change) from none")
        # How many rounds would do: a number, or none where the noise is beyond 1000 rounds.
        advice = (r"(\d+ rounds on each side \(this run and a baseline measured the same way\) "
                  r"would bring every figure under 10.0 % at this noise|no number of rounds would "
                  r"bring every figure under 10.0 % at this noise \(see the figures below\))")
        self.assertRegex(summary, r"^the smallest change these rounds could detect: "
                                  r"-[\d.]+/\+[\d.]+ % \(get 64KiB c=2 \S+( p\d\d)?, 2/2 "
                                  r"rounds\); " + advice + "$")
        self.assertEqual(len(figures), 5)
        for line in figures:
            self.assertRegex(line, r"^get 64KiB c=2 \S+( p\d\d)?: cannot tell: detectable "
                                   r"-[\d.]+/\+[\d.]+ % with 2/2 rounds; (\d+ rounds on each "
                                   r"side would do|more than 1000 rounds on each side would be "
                                   r"needed) at this noise$")
        # The throughput's noise is the baseline's 40 %: a number of rounds would see 10 %.
        self.assertRegex(figures[0], r"^get 64KiB c=2 MiB/s: .* \d+ rounds on each side would "
                                     r"do at this noise$")
        report = json.loads(path.read_text())
        self.assertEqual(report["verdict"]["outcome"], "inconclusive")
        self.assertEqual(len(report["inconclusive"]), 5)
        self.assertGreater(report["inconclusive"][0]["rounds_needed"], 2)
        row = next(csv.DictReader(io.StringIO(csv_path.read_text())))
        self.assertEqual(row["verdict"], "inconclusive")
        self.assertEqual(row["mib_per_second_change"], "cannot tell")
        self.assertGreater(int(row["mib_per_second_rounds_needed"]), 2)

        allowed = run_bench(*common, "--baseline", str(base), "--allow-inconclusive")
        self.assertEqual(allowed.returncode, 0, allowed.stdout + allowed.stderr)
        self.assertTrue(verdict_lines(allowed.stdout)[0].startswith(
            "Verdict: inconclusive, passed with --allow-inconclusive: 5 of 5 figures"))

    def test_shards_of_a_store_comparison_merge_store_by_store(self):
        # Paced, as a launcher runs shards: each run of each store has its slot, so that the
        # shards' runs of one store overlap and their rates add up.
        delayed = self.proxy(f"delay {DELAY_MS}ms op=GetObject")
        parts = [self.tmp / "part-1.json", self.tmp / "part-2.json"]
        start = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=6))
        args = ["bench", "--progress", "never", "--store", f"direct={self.origin.url}",
                "--store", f"delayed={delayed}", "--ops", "get", "--sizes", "64KiB",
                "--concurrency", "2", "--duration", "1s", "--rounds", "2", "--start-at",
                start.strftime("%Y-%m-%dT%H:%M:%SZ")]
        shards = [subprocess.Popen([str(harness.proxy_binary()), *args, "--shard", f"{k}/2",
                                    "--json", str(parts[k - 1])], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True,
                                   env=harness.clean_client_env()) for k in (1, 2)]
        for shard in shards:
            out, err = shard.communicate(timeout=300)
            self.assertEqual(shard.returncode, 0, out + err)
            # A shard holds a share of each cell's clients: it compares nothing itself.
            self.assertIn("Verdict: none in a shard: its stores are compared once the shards' "
                          "reports are merged (s3fault bench merge)", out)
        merged_path = self.tmp / "merged.json"
        merged = subprocess.run([str(harness.proxy_binary()), "bench", "merge", *map(str, parts),
                                 "--allow-inconclusive", "--json", str(merged_path)],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(merged.returncode, 0, merged.stdout + merged.stderr)
        report = json.loads(merged_path.read_text())
        self.assertEqual([s["name"] for s in report["stores"]], ["direct", "delayed"])
        self.assertTrue(report["paced"])
        documents = [json.loads(p.read_text()) for p in parts]
        self.assertEqual(len(report["runs"]), 4)
        for run in report["runs"]:
            summed = sum(r["figures"]["operations"] for d in documents for r in d["runs"]
                         if r.get("store") == run.get("store") and r["round"] == run["round"])
            self.assertEqual(run["figures"]["operations"], summed, run)
            self.assertEqual(run["workers"], 2)
        judged = comparisons(report, "delayed")["get 64KiB c=2"]
        self.assertEqual(judged["latency_p50_ms"]["change"], "worse", judged)
        self.assertIn("Verdict: ", merged.stdout)
        self.assertIn("delayed compared with direct", merged.stdout)

    def test_a_baseline_of_several_stores_is_compared_with_the_one_named(self):
        delayed = self.proxy(f"delay {DELAY_MS}ms op=GetObject")
        both = self.tmp / "both.csv"
        made = run_bench("--store", f"direct={self.origin.url}", "--store", f"delayed={delayed}",
                         "--ops", "get", "--sizes", "64KiB", "--concurrency", "1", "--count", "4",
                         "--csv", str(both))
        self.assertEqual(made.returncode, 0, made.stdout + made.stderr)
        common = ["--endpoint", self.origin.url, "--ops", "get", "--sizes", "64KiB",
                  "--concurrency", "1", "--count", "4", "--rounds", "4"]
        ambiguous = run_bench(*common, "--baseline", str(both))
        self.assertEqual(ambiguous.returncode, 2, ambiguous.stdout + ambiguous.stderr)
        self.assertIn(f"--baseline: {both} holds the cells of 2 stores (direct, delayed): name "
                      f"the one to compare with, e.g. --baseline {both}:direct", ambiguous.stderr)
        unknown = run_bench(*common, "--baseline", f"{both}:minio")
        self.assertEqual(unknown.returncode, 2)
        self.assertIn(f"{both} has no store 'minio' (its stores: direct, delayed)", unknown.stderr)
        # This run has no delay: against the delayed store's cells it is faster, and said so.
        named = run_bench(*common, "--baseline", f"{both}:delayed", "--allow-inconclusive")
        self.assertIn(f"compared with the baseline {both}:delayed", named.stdout)
        self.assertRegex(named.stdout, r"get\s+64KiB\s+1\s+lat p50 .* better\n")

    def test_bad_store_options_are_named(self):
        url = self.origin.url
        cases = [
            (["--store", "a"], "--store 'a': give NAME=URL"),
            (["--store", "a=http://127.0.0.1:1/x"], "--store a: 'http://127.0.0.1:1/x': must not "
                                                    "have a path"),
            (["--store", f"a={url}", "--store", f"a={url}"], "--store: 'a' is named twice"),
            (["--store", f"a b={url}", "--store", f"b={url}"], "a store's name is 1 to 32"),
            (["--store", f"a={url}", "--store", f"b={url}", "--store-pid", "1"],
             "--store-pid 1: with several stores, name the store: --store-pid NAME=PID"),
            (["--store", f"a={url}", "--store-keys", "zz=k:s"],
             "--store-keys zz=...: no --store is named 'zz' (the stores: a)"),
            (["--endpoint", url, "--store-keys", "a=k:s"], "--store-keys names a --store"),
            (["--store", f"a={url}", "--store", f"b={url}", "--baseline", "x.json"],
             "--baseline with several --store"),
            (["--endpoint", url, "--store", f"a={url}"], "excludes"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                result = run_bench(*args, "--count", "1")
                self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
                self.assertIn(message, result.stderr)


if __name__ == "__main__":
    unittest.main()
