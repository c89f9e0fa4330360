"""`s3fault report` on saved timelines, and its HTML page rendered by headless Chromium: the page
opens with the drift verdict the terminal printed, word for word (before any chart); it has a
latency chart per operation, the throughput, requests and errors charts and the store's threads,
memory and CPU charts; it has no script and fits a window 1280 pixels wide. --against puts the
runs comparison second, as printed. Files without a timeline, with a bad field or an output that
cannot be written exit as `s3fault report --help` says.

    timelines made here (timeline_json's layout), no proxy or store needed:
      drift.json    GetObject's latency rising from 20 to 40 ms, the store's threads and
                    anonymous memory growing; PutObject steady
      steady.json   the same without the rise
    s3fault report drift.json --html drift.html --csv drift.csv     -> "Drift: drift"
    s3fault report steady.json --against drift.json --html compare.html
    chromium --headless --dump-dom / --screenshot drift.html

The screenshot goes to docs/timeline-page.png with S3FAULT_WRITE_SCREENSHOT=1, else to the
test's log directory (or its scratch folder). Needs the `chromium` package (tests/deps.sh);
fails, does not skip, when it is missing."""

import json
import math
import os
import random
import shutil
import subprocess
import unittest
from pathlib import Path

import harness
from test_bench_html import WINDOW_WIDTH, Chromium, Page, layout_probe

REPO_ROOT = Path(__file__).resolve().parents[2]
INTERVALS = 600  # of 1 s: a sixth is 100 intervals, 5 blocks of 20 a side
REQUESTS = 100  # per operation and interval: enough that a steady p90 is told from a 10 % change
MIB = 1024 * 1024
# metrics/latency_histogram.hpp: below 2^6 us a bucket per value, then 32 per power of two.
EXACT_LIMIT_BITS, SUB_BUCKET_BITS = 6, 5
# Latency, throughput and errors (one latency chart per operation), then the store's three.
OPERATIONS = ["GetObject", "PutObject"]
CHART_KINDS = ["latency"] * len(OPERATIONS) + ["throughput", "requests", "errors", "threads",
                                               "memory", "cpu"]


def bucket_of(micros: int) -> int:
    """The latency histogram's bucket of a value in microseconds (latency_histogram::bucket_of)."""
    if micros < 1 << EXACT_LIMIT_BITS:
        return micros
    top = micros.bit_length() - 1
    sub = (micros >> (top - SUB_BUCKET_BITS)) - (1 << SUB_BUCKET_BITS)
    return (1 << EXACT_LIMIT_BITS) + (top - EXACT_LIMIT_BITS) * (1 << SUB_BUCKET_BITS) + sub


def buckets(medians_us: float, rng: random.Random) -> list[list[int]]:
    """REQUESTS latencies lognormal around `medians_us` (sigma 0.5), as [[bucket, count], ...]."""
    counts: dict[int, int] = {}
    for _ in range(REQUESTS):
        bucket = bucket_of(int(medians_us * math.exp(rng.gauss(0, 0.5))))
        counts[bucket] = counts.get(bucket, 0) + 1
    return [[b, c] for b, c in sorted(counts.items())]


def timeline(rising: bool, seed: int) -> dict:
    """A timeline as timeline_json writes it: per interval GetObject (1 MiB each, its latency
    rising from 20 to 40 ms when `rising`) and PutObject (steady 50 ms), and the store's
    reading (threads and anonymous memory growing when `rising`)."""
    rng = random.Random(seed)
    intervals = []
    for second in range(INTERVALS):
        share = second / INTERVALS if rising else 0
        get_us = 20_000 * (1 + share)
        anon = int((100 + 300 * share) * MIB)
        operations = {
            "GetObject": {"requests": REQUESTS, "errors": 1 if second % 97 == 0 else 0,
                          "retries": 0, "bytes": REQUESTS * MIB,
                          "latency_buckets": buckets(get_us, rng),
                          "ttfb_buckets": buckets(get_us / 2, rng)},
            "PutObject": {"requests": REQUESTS, "errors": 0, "retries": 1 if second % 50 == 0
                          else 0, "bytes": REQUESTS * MIB // 4,
                          "latency_buckets": buckets(50_000, rng),
                          "ttfb_buckets": buckets(40_000, rng)},
        }
        store = {"threads": int(20 + 60 * share), "memory_bytes": anon + 50 * MIB,
                 "anon_bytes": anon, "cpu_seconds": second * 0.3,
                 "cpu_percent": 30 + rng.uniform(-3, 3)}
        intervals.append({"start": second, "end": second + 1, "operations": operations,
                          "store": store})
    return {"interval_s": 1, "resolution_s": 1, "bytes_kept": 3 * MIB, "byte_cap": 32 * MIB,
            "store": "cgroup /docker/<store> (v2)", "intervals": intervals}


def run_report(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(harness.proxy_binary()), "report", *args], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL,
                          env=harness.clean_client_env())


def verdict_lines(stdout: str, headline_prefix: str, stop_at: str = "") -> list[str]:
    """The lines the page's verdict box must show: from the line starting with
    `headline_prefix` to the end (or to the line starting with `stop_at`), unindented."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(headline_prefix))
    shown = []
    for line in lines[start:]:
        if stop_at and shown and line.startswith(stop_at):
            break
        shown.append(line.strip())
    return shown


class TimelinePageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = harness.scratch_root() / harness.unique_bucket_name("timeline-page")
        cls.tmp.mkdir(parents=True)
        cls.chromium = Chromium(cls.tmp)
        cls.addClassCleanup(shutil.rmtree, cls.chromium.profile, ignore_errors=True)
        # As the proxy writes its --report: the stats, then "timeline" (and "drift", which
        # `s3fault report` judges again).
        cls.drift_json, cls.steady_json = cls.tmp / "drift.json", cls.tmp / "steady.json"
        for path, rising in ((cls.drift_json, True), (cls.steady_json, False)):
            path.write_text(json.dumps({"uptime_s": INTERVALS, "operations": {},
                                        "timeline": timeline(rising, seed=7), "drift": {}}))

        cls.drift_html, cls.drift_csv = cls.tmp / "drift.html", cls.tmp / "drift.csv"
        cls.drift_run = run_report(str(cls.drift_json), "--html", str(cls.drift_html), "--csv",
                                   str(cls.drift_csv))
        if cls.drift_run.returncode != 0:
            raise AssertionError(f"s3fault report exited {cls.drift_run.returncode}:\n"
                                 f"{cls.drift_run.stdout}{cls.drift_run.stderr}")
        cls.drift_page = Page(cls.chromium.dump_dom(cls.drift_html))

        cls.compare_html = cls.tmp / "compare.html"
        cls.compare_run = run_report(str(cls.steady_json), "--against", str(cls.drift_json),
                                     "--html", str(cls.compare_html))
        if cls.compare_run.returncode != 0:
            raise AssertionError(f"s3fault report --against exited {cls.compare_run.returncode}:"
                                 f"\n{cls.compare_run.stdout}{cls.compare_run.stderr}")
        cls.compare_page = Page(cls.chromium.dump_dom(cls.compare_html))

    def test_stdout_says_the_drift(self):
        out = self.drift_run.stdout
        self.assertRegex(out, r"(?m)^Timeline: 600 intervals of 1(\.0+)? s kept")
        self.assertRegex(out, r"(?m)^Drift: drift, the first sixth \(to 100 s\) against the "
                              r"last \(from 500 s\), 5 blocks of 20 intervals a side")
        self.assertRegex(out, r"(?m)^  GetObject latency p50: \S+ -> \S+ ms, \+\d+\.\d % .*: "
                              r"slower$")
        self.assertRegex(out, r"(?m)^  PutObject latency p50: .*: no change$")
        self.assertRegex(out, r"(?m)^Store \(cgroup /docker/<store> \(v2\)\): peak 79 threads")
        # The steady run, alone: no drift.
        steady = self.compare_run.stdout
        self.assertRegex(steady, r"(?m)^Drift: no drift, the first sixth")

    def test_the_csv_has_a_row_per_interval_and_operation(self):
        rows = self.drift_csv.read_text().splitlines()
        self.assertTrue(rows[0].startswith("start_s,end_s,operation,requests,"), rows[0])
        self.assertEqual(len(rows), 1 + INTERVALS * len(OPERATIONS))

    def test_the_page_opens_with_the_printed_verdict(self):
        page = self.drift_page
        self.assertEqual(page.order[0], "verdict")
        self.assertEqual(page.order.count("verdict"), 1)
        self.assertIn("drift", page.verdict_class)
        self.assertEqual(page.verdict, verdict_lines(self.drift_run.stdout, "Drift:"))
        self.assertEqual(page.scripts, 0)

    def test_the_page_has_every_chart(self):
        kinds = [next(k for k in CHART_KINDS if k in chart["class"])
                 for chart in self.drift_page.charts]
        self.assertEqual(kinds, CHART_KINDS)
        self.assertEqual([c["operation"] for c in self.drift_page.charts_of("latency")],
                         OPERATIONS)
        for chart in self.drift_page.charts:
            # A path per series, and both sixths shaded.
            self.assertGreaterEqual(chart["inside"]["series"], 1, chart["class"])
            self.assertEqual(chart["inside"]["sixth"], 2, chart["class"])
        # The page escaped the store's description: it reads as text, not as a tag.
        self.assertIn("Store (cgroup /docker/<store> (v2)): peak 79 threads",
                      "\n".join(self.drift_page.verdict))

    def test_the_comparison_follows_the_verdict(self):
        page = self.compare_page
        self.assertEqual(page.order[:2], ["verdict", "verdict"])
        self.assertEqual(page.order[2:], ["chart"] * len(CHART_KINDS))
        out = self.compare_run.stdout
        against = f"{self.drift_json} against {self.steady_json}: worse"
        self.assertIn(against, out)
        self.assertRegex(out, r"(?m)^  GetObject latency p50: .*: slower")
        # Page.verdict holds the lines of both boxes, the drift's then the comparison's.
        printed = (verdict_lines(out, "Drift:", stop_at=str(self.drift_json))
                   + verdict_lines(out, against))
        self.assertEqual(page.verdict, printed)
        # The last box's classes: the comparison's, worse.
        self.assertEqual(page.verdict_class, ["verdict", "comparison", "worse"])

    def test_the_page_fits_1280_pixels(self):
        fits = layout_probe(self.chromium, self.tmp, self.drift_html, "")
        self.assertEqual(fits["inner"], WINDOW_WIDTH, fits)
        self.assertLessEqual(fits["scroll"], fits["client"], fits)
        self.assertEqual(fits["boxes"], 0, fits)

    def test_the_screenshot(self):
        if os.environ.get("S3FAULT_WRITE_SCREENSHOT") == "1":
            png = REPO_ROOT / "docs" / "timeline-page.png"
        else:
            logs = os.environ.get("S3FAULT_TEST_LOGS")
            png = (Path(logs) if logs else self.tmp) / "timeline-page.png"
        png.parent.mkdir(parents=True, exist_ok=True)
        png.unlink(missing_ok=True)
        self.chromium.screenshot(self.drift_html, png)
        data = png.read_bytes()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n", "not a PNG")
        self.assertEqual(int.from_bytes(data[16:20], "big"), WINDOW_WIDTH)
        print(f"screenshot: {png}")

    def test_mistakes_exit_as_the_help_says(self):
        no_timeline = self.tmp / "stats.json"
        no_timeline.write_text(json.dumps({"uptime_s": 1, "operations": {}}))
        result = run_report(str(no_timeline))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"{no_timeline} has no timeline: run the proxy or the bench with "
                      f"--timeline INTERVAL", result.stderr)

        bad = json.loads(self.drift_json.read_text())
        bad["timeline"]["intervals"][3]["start"] = "soon"
        bad_json = self.tmp / "bad.json"
        bad_json.write_text(json.dumps(bad))
        result = run_report(str(bad_json))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"{bad_json}: timeline.intervals[3].start: a number is required",
                      result.stderr)

        not_json = self.tmp / "not.json"
        not_json.write_text("{")
        result = run_report(str(not_json))
        self.assertEqual((result.returncode, result.stderr.strip()),
                         (2, f"s3fault report: {not_json}: not JSON"))

        result = run_report(str(self.tmp / "missing.json"))
        self.assertEqual(result.returncode, 2, result.stderr)

        result = run_report(str(self.drift_json), "--alpha", "2")
        self.assertEqual(result.returncode, 2, result.stderr)

        # Read and judged, printed, but the page cannot be written: 1.
        result = run_report(str(self.drift_json), "--html", str(self.tmp / "no" / "page.html"))
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("Drift: drift", result.stdout)
        self.assertIn("s3fault report: --html: ", result.stderr)


if __name__ == "__main__":
    unittest.main()
