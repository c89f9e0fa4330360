"""`s3fault bench` from the outside: its CSV, JSON and HTML files carry exactly the figures it
prints; a baseline comparison, against baselines with fixed figures no machine reaches, flags a
regression, passes an improvement, refuses to pass what it cannot judge and warns about (or with
--strict refuses) a baseline measured differently; an `s3fault proxy` in the path counts exactly
the requests the bench made; bad options exit 2 naming the option. (test_bench_store.py runs it against RGW and s3rver with
--store-pid.)"""

import csv
import io
import json
import subprocess
import unittest
import urllib.request
from pathlib import Path

import harness

# The figures of the medians table, in the order of its columns after operation, size, conc.
TABLE_FIGURES = ["mib_per_second", None, "ops_per_second", None, "latency_p50_ms",
                 "latency_p90_ms", "latency_p99_ms", "latency_max_ms", "ttfb_p50_ms",
                 "ttfb_p90_ms", "ttfb_p99_ms", "ttfb_max_ms", "operations", "errors", "retries"]


def run_bench(*args: str, timeout: float = 600,
              env: dict[str, str] = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(harness.proxy_binary()), "bench", "--progress", "never", *args],
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL,
                          env=dict(harness.clean_client_env(), **(env or {})))


def medians_table(stdout: str) -> dict[tuple[str, str, str], dict[str, str]]:
    """The rows of the medians table: (operation, size, conc) -> figure key -> printed text."""
    rows = {}
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith(("Medians of", "Figures of")))
    for line in lines[start + 2:]:
        if not line.strip():
            break
        fields = line.split()
        values = fields[3:]
        figures = {}
        for key, value in zip(TABLE_FIGURES, values):
            if key is not None:
                figures[key] = value
        rows[tuple(fields[:3])] = figures
    return rows


class BenchOriginTest(unittest.TestCase):
    def setUp(self):
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("bench")
        self.tmp.mkdir(parents=True)
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)

    def test_files_carry_the_printed_figures(self):
        csv_path, json_path, html_path = (self.tmp / "a.csv", self.tmp / "a.json",
                                          self.tmp / "a.html")
        result = run_bench("--endpoint", self.origin.url, "--ops", "get,put", "--sizes",
                           "1MiB,3MiB", "--concurrency", "1,2", "--duration", "400ms",
                           "--rounds", "3", "--csv", str(csv_path), "--json", str(json_path),
                           "--html", str(html_path))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        table = medians_table(result.stdout)
        self.assertEqual(len(table), 8, result.stdout)

        rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
        self.assertEqual(len(rows), 8)
        for row in rows:
            printed = table[(row["operation"], row["size"], row["concurrency"])]
            for key, text in printed.items():
                self.assertEqual(row[key], text, f"{row['operation']} {row['size']} "
                                                 f"c={row['concurrency']} {key}")
            self.assertEqual(row["runs"], "3")
            # The throughput range printed next to the median is the CSV's min and max.
            self.assertIn(f"[{row['mib_per_second_min']}..{row['mib_per_second_max']}]",
                          result.stdout)

        report = json.loads(json_path.read_text())
        self.assertEqual(len(report["cells"]), 8)
        self.assertEqual(len(report["runs"]), 24)
        for cell in report["cells"]:
            printed = table[(cell["operation"], cell["size"], str(cell["concurrency"]))]
            for key, text in printed.items():
                self.assertEqual(cell["figures"][key]["median"], float(text), key)
        # Every run was printed as it finished, with the figures the JSON keeps for it.
        for run in report["runs"]:
            self.assertIn(f"{run['figures']['mib_per_second']:.2f} MiB/s", result.stdout)
        # Reads and writes were exact: no errors, and the operations add up to the bytes.
        for run in report["runs"]:
            self.assertEqual(run["figures"]["errors"], 0)
            self.assertEqual(run["bytes"], run["figures"]["operations"] * run["size_bytes"])
        # Counts are whole numbers in the JSON: "operations": 1816, never 1816.0.
        for key in ("operations", "errors", "retries"):
            for run in report["runs"]:
                self.assertIs(type(run["figures"][key]), int, (key, run["figures"]))
            for cell in report["cells"]:
                for column in ("median", "min", "max"):
                    self.assertIs(type(cell["figures"][key][column]), int, (key, cell["figures"]))

        html = html_path.read_text()
        self.assertIn("<svg", html)
        self.assertNotIn("<script", html)
        for row in rows:
            self.assertIn(row["mib_per_second"], html)

    # Baselines with fixed per-round figures that no machine reaches: unreachably fast (every
    # run is slower) or unreachably slow (every run is faster). The comparison is then tested
    # end to end (file, rounds, statistics, exit status) without depending on the machine's
    # speed or calm; the statistics themselves are unit tested on fixed numbers.
    COMMON = ["--ops", "get", "--sizes", "256KiB", "--concurrency", "2", "--count", "20",
              "--rounds", "3"]
    SETTINGS = {"count": 20, "rounds": 3, "objects": 8, "part_size": 8 << 20, "verify": True,
                "control": False}

    def fixed_baseline(self, name: str, mib_per_second: list, latency_ms: list,
                       settings: dict | None = None) -> Path:
        def figure(rounds):
            return {"median": sorted(rounds)[len(rounds) // 2], "min": min(rounds),
                    "max": max(rounds)}
        figures, rounds = {}, {}
        if mib_per_second:
            ops = [v * 4 for v in mib_per_second]  # 256 KiB objects: 4 per MiB
            for key, values in (("mib_per_second", mib_per_second), ("ops_per_second", ops),
                                ("latency_p50_ms", latency_ms), ("latency_p99_ms", latency_ms),
                                ("ttfb_p50_ms", latency_ms)):
                figures[key] = figure(values)
                rounds[key] = values
        errors = 0 if mib_per_second else 20
        figures["errors"] = {"median": errors, "min": errors, "max": errors}
        document = {"tool": "s3fault bench", "settings": settings or self.SETTINGS,
                    "cells": [{"operation": "get", "size": "256KiB", "size_bytes": 256 << 10,
                               "concurrency": 2, "runs": 3, "figures": figures,
                               "rounds": rounds}]}
        path = self.tmp / name
        path.write_text(json.dumps(document))
        return path

    def test_a_baseline_no_machine_reaches_is_a_regression(self):
        base = self.fixed_baseline("fast.json", [1e6, 1.01e6, 0.99e6], [0.001, 0.00101, 0.00099])
        run = run_bench("--endpoint", self.origin.url, *self.COMMON, "--baseline", str(base),
                        "--csv", str(self.tmp / "slow.csv"), "--json", str(self.tmp / "slow.json"))
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        row = next(csv.DictReader(io.StringIO((self.tmp / "slow.csv").read_text())))
        self.assertEqual(row["mib_per_second_change"], "slower", run.stdout)
        self.assertEqual(row["latency_p50_ms_change"], "worse", run.stdout)
        self.assertLess(float(row["mib_per_second_p_value"]), 0.01)
        self.assertEqual(len(row["mib_per_second_rounds"].split(";")), 3)
        # The verdict, last: the count, then each regression with baseline -> now and its change.
        self.assertRegex(run.stdout, r"\nVerdict: 5 regressions against the baseline \S+fast\.json "
                                     r"\(5 figures of 1 cell\)\n  get 256KiB c=2 MiB/s: "
                                     r"1000000\.00 → \d+\.\d\d \(-\d+\.\d %, slower; p [<\d.]+\)\n")
        report = json.loads((self.tmp / "slow.json").read_text())
        self.assertEqual(report["statistics"]["alpha"], 0.01)
        self.assertEqual(report["baseline_mismatches"], [])
        self.assertEqual(len(report["regressions"]), 5)
        judged = report["cells"][0]["versus"]["mib_per_second"]
        self.assertTrue(judged["regression"])
        self.assertEqual(judged["rounds"], [3, 3])
        self.assertNotIn("warning", run.stderr)

    def test_a_baseline_every_machine_beats_is_no_regression(self):
        base = self.fixed_baseline("slow.json", [0.01, 0.0101, 0.0099], [1e6, 1.01e6, 0.99e6])
        run = run_bench("--endpoint", self.origin.url, *self.COMMON, "--baseline", str(base),
                        "--csv", str(self.tmp / "fast.csv"))
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("\nVerdict: no regressions: 5 figures of 1 cell compared with the baseline ",
                      run.stdout)
        row = next(csv.DictReader(io.StringIO((self.tmp / "fast.csv").read_text())))
        self.assertEqual(row["mib_per_second_change"], "faster", run.stdout)
        self.assertEqual(row["latency_p99_ms_change"], "better", run.stdout)

    def test_a_baseline_whose_operations_failed_cannot_judge_and_does_not_pass(self):
        base = self.fixed_baseline("failed.json", [], [])
        run = run_bench("--endpoint", self.origin.url, *self.COMMON, "--baseline", str(base),
                        "--json", str(self.tmp / "unjudged.json"))
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("not judged: the baseline has no value (every operation of the cell "
                      "failed)", run.stdout)
        self.assertIn("\nVerdict: not judged, so the bench does not pass: 5 of 5 figures of 1 "
                      "cell compared with the baseline ", run.stdout)
        self.assertNotIn("+100", run.stdout)
        report = json.loads((self.tmp / "unjudged.json").read_text())
        self.assertEqual(len(report["not_judged"]), 5, report["not_judged"])
        self.assertEqual(report["regressions"], [])

        # One round on each side is no spread to judge by either.
        single = self.fixed_baseline("single.json", [1e6], [0.001], dict(self.SETTINGS, rounds=1))
        once = run_bench("--endpoint", self.origin.url, *self.COMMON[:-1], "1", "--baseline",
                         str(single))
        self.assertEqual(once.returncode, 1, once.stdout + once.stderr)
        self.assertIn("one round on each side: no spread to judge by", once.stdout)

    def test_a_baseline_measured_differently_is_warned_about_and_refused_with_strict(self):
        other = dict(self.SETTINGS)
        del other["count"]
        other.update(duration_ms=2000, rounds=5, verify=False)
        base = self.fixed_baseline("other.json", [0.01, 0.0101, 0.0099], [1e6, 1.01e6, 0.99e6],
                                   other)
        run = run_bench("--endpoint", self.origin.url, *self.COMMON, "--baseline", str(base),
                        "--json", str(self.tmp / "warned.json"), "--csv",
                        str(self.tmp / "warned.csv"))
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        expected = ["--count 20 here, --duration 2s in the baseline",
                    "--rounds: 3 here, 5 in the baseline", "verification: on here, off in the "
                    "baseline"]
        for line in expected:
            self.assertIn("warning: not measured as the baseline " + str(base) + " was: " + line,
                          run.stderr)
            self.assertIn(line, run.stdout)
        self.assertEqual(json.loads((self.tmp / "warned.json").read_text())[
            "baseline_mismatches"], expected)
        row = next(csv.DictReader(io.StringIO((self.tmp / "warned.csv").read_text())))
        self.assertEqual(row["baseline_mismatch"], "; ".join(expected))

        strict = run_bench("--endpoint", self.origin.url, *self.COMMON, "--baseline", str(base),
                           "--strict")
        self.assertEqual(strict.returncode, 2, strict.stdout + strict.stderr)
        self.assertIn("--strict: not comparing runs measured differently", strict.stderr)
        self.assertNotIn("round 1/3", strict.stdout)

        # A CSV of an older version says nothing of its settings: that is said too.
        old = self.tmp / "old.csv"
        old.write_text("operation,size,size_bytes,concurrency,runs,mib_per_second\n"
                       "get,256KiB,262144,2,3,0.01\n")
        older = run_bench("--endpoint", self.origin.url, *self.COMMON, "--baseline", str(old),
                          "--strict")
        self.assertEqual(older.returncode, 2, older.stdout + older.stderr)
        self.assertIn("does not say how it was measured", older.stderr)

    def test_a_corrupted_read_is_an_error_unless_verification_is_off(self):
        # Every GET body with one flipped byte and the right length: only the content check
        # sees it. --no-verify (length only) must then pass, and say that it did not look.
        proxy = harness.ProxyProcess(self.origin.url, ["--fault", "corrupt 1000 op=GetObject"])
        proxy.start()
        self.addCleanup(harness.stop_and_check, proxy)
        args = ["--endpoint", proxy.url, "--ops", "get", "--sizes", "64KiB", "--concurrency",
                "1", "--count", "5", "--rounds", "1", "--attempts", "1"]
        checked = run_bench(*args)
        self.assertEqual(checked.returncode, 1, checked.stdout + checked.stderr)
        self.assertIn("5 operations failed", checked.stdout)
        self.assertIn("the body's bytes differ from the object's (content hash)", checked.stdout)
        self.assertIn("content verified (a hash of every byte read", checked.stdout)
        unchecked = run_bench(*args, "--no-verify")
        self.assertEqual(unchecked.returncode, 0, unchecked.stdout + unchecked.stderr)
        self.assertIn("no operation failed; content NOT verified, lengths only (--no-verify)",
                      unchecked.stdout)

    def test_proxy_counts_the_requests_the_bench_made(self):
        proxy = harness.ProxyProcess(self.origin.url, ["--admin", "127.0.0.1:0"])
        proxy.start()
        self.addCleanup(proxy.stop)
        admin = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                     if line.startswith("admin on "))
        report_path = self.tmp / "through.json"
        result = run_bench("--endpoint", proxy.url, "--ops", "get,put,list", "--sizes", "64KiB",
                           "--concurrency", "3", "--count", "25", "--rounds", "2", "--objects",
                           "4", "--json", str(report_path))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        report = json.loads(report_path.read_text())

        def operations(op: str) -> int:
            return sum(run["figures"]["operations"] for run in report["runs"]
                       if run["operation"] == op)

        self.assertEqual(operations("get"), 50)
        with urllib.request.urlopen(admin + "/metrics", timeout=30) as response:
            text = response.read().decode()
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="GetObject",
                                status_class="2xx"), operations("get"))
        # The put cell's operations plus the 4 fixtures get and list read.
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="PutObject",
                                status_class="2xx"), operations("put") + 4)
        # The list cell's operations plus the one listing of the clean-up.
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="ListObjectsV2",
                                status_class="2xx"), operations("list") + 1)
        self.assertEqual(harness.prometheus_value(text, "s3fault_response_body_bytes_total",
                                operation="GetObject", status_class="2xx"),
                         operations("get") * 64 * 1024)
        self.assertNotIn('status_class="5xx"', text)

    def test_no_endpoint_benches_the_embedded_origin_with_its_own_keys_and_region(self):
        # The keys and region of a store of the user's, in the environment, are not for it.
        result = run_bench("--ops", "get", "--sizes", "4KiB", "--count", "3", "--rounds", "1",
                           env={"AWS_ACCESS_KEY_ID": "AKIAUSERSOWNSTORE",
                                "AWS_SECRET_ACCESS_KEY": "users-own-secret",
                                "AWS_DEFAULT_REGION": "eu-west-1"})
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("no --endpoint: benchmarking the embedded origin at", result.stdout)
        self.assertIn("no operation failed", result.stdout)

    def test_bad_options_exit_2_naming_the_option(self):
        cases = [
            (["--ops", "get,fly"], "--ops: 'fly' is not an operation"),
            (["--sizes", "10XB"], "--sizes: '10XB' is not a size"),
            (["--concurrency", "0"], "--concurrency: '0' is not a whole number from 1 to 1024"),
            (["--duration", "soon"], "--duration: 'soon' is not a duration"),
            (["--part-size", "1MiB"], "--part-size: 1MiB: S3 parts"),
            (["--baseline", str(self.tmp / "missing.csv")], "missing.csv: cannot be read"),
            (["--store-pid", "4194305"], "--store-pid: cannot read /proc/4194305"),
            (["--access-key", "k"], "--access-key and --secret-key go together"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                result = run_bench("--endpoint", self.origin.url, *args)
                self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
                self.assertIn(message, result.stderr)
        bad_url = run_bench("--endpoint", "http://127.0.0.1:1/bucket")
        self.assertEqual(bad_url.returncode, 2, bad_url.stdout + bad_url.stderr)
        self.assertIn("--endpoint: 'http://127.0.0.1:1/bucket': must not have a path",
                      bad_url.stderr)
        both = run_bench("--endpoint", self.origin.url, "--duration", "1s", "--count", "3")
        self.assertEqual(both.returncode, 2)
        self.assertIn("excludes", both.stderr)
        wrong = run_bench("--endpoint", self.origin.url, "--access-key", "s3fault",
                          "--secret-key", "not-the-secret", "--count", "1")
        self.assertEqual(wrong.returncode, 2)
        self.assertIn("cannot be benchmarked", wrong.stderr)
        self.assertIn("SignatureDoesNotMatch", wrong.stderr)
        self.assertNotIn("not-the-secret", wrong.stdout + wrong.stderr)


if __name__ == "__main__":
    unittest.main()
