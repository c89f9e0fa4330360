"""`s3fault gate` and `s3fault demo` as a user runs them: the built-in readers (the naive one
fails exactly where the bug is, the robust one passes), reader commands with placeholders and
stdout output, a hung reader killed at the timeout, bad options, and the one-command demo.
The aws cli example reader is gated in GateExampleReadersTest."""

import json
import os
import shlex
import subprocess
import sys
import time
import unittest
import xml.dom.minidom
from pathlib import Path

import harness

REPO = Path(__file__).resolve().parents[2]
MULTIPART_SHAPES = {"mp-20MiB-8-8-4", "mp-16MiB-8-8", "mp-8MiB+1"}


class GateRun:
    """One `s3fault gate` process, run to the end, with its JSON and JUnit read back."""

    def __init__(self, tmp: Path, name: str, args: list[str], timeout: float = 1200,
                 env: dict[str, str] = None):
        self.json_path = tmp / f"{name}.json"
        self.junit_path = tmp / f"{name}.xml"
        command = [str(harness.proxy_binary()), "gate", "--color", "never",
                   "--json", str(self.json_path), "--junit", str(self.junit_path), *args]
        started = time.monotonic()
        # TMPDIR: the scratch and repro.sh directories the gate makes stay in the test's.
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                stdin=subprocess.DEVNULL, cwd=REPO,
                                env=dict(harness.clean_client_env(), TMPDIR=str(tmp),
                                         **(env or {})))
        self.elapsed = time.monotonic() - started
        self.code = result.returncode
        self.stdout = result.stdout
        self.stderr = result.stderr
        self.report = json.loads(self.json_path.read_text()) if self.json_path.exists() else None

    def describe(self) -> str:
        return f"exit {self.code}\nstdout:\n{self.stdout[-8000:]}\nstderr:\n{self.stderr[-3000:]}"

    def verdicts(self) -> dict[tuple[str, str], str]:
        return {(r["scenario"], r["shape"]): r["verdict"] for r in self.report["runs"]}

    def failed(self) -> dict[tuple[str, str], str]:
        return {(r["scenario"], r["shape"]): r["verdict"] for r in self.report["runs"]
                if r["outcome"] == "failed"}


# The built-in readers' full matrices run four at a time: verdicts do not depend on --jobs
# (test_gate_judge.GateJobsTest), and most of a run is waiting (a stalled body, a throttle, a
# reader's back-off), so four overlap on two cores: 47 s for robust-parts alone at 2, 30 s at 4.
JOBS = ("--jobs", "4")


def scratch(purpose: str) -> Path:
    path = harness.scratch_root() / harness.unique_bucket_name(purpose)
    path.mkdir(parents=True)
    return path


class GateBuiltinReadersTest(unittest.TestCase):
    def setUp(self):
        self.tmp = scratch("gate")

    def test_naive_parts_is_caught_silently_truncating(self):
        run = GateRun(self.tmp, "naive", ["--reader", "builtin:naive-parts", *JOBS])
        self.assertEqual(run.code, 1, run.describe())
        verdicts = run.verdicts()
        for shape in MULTIPART_SHAPES:
            self.assertEqual(verdicts[("strip-parts-count", shape)], "SILENT_CORRUPTION",
                             run.describe())
            self.assertEqual(verdicts[("baseline", shape)], "CORRECT", run.describe())
        for shape in ("empty", "1KiB", "single-20MiB"):
            # A single-PUT object's part 1 carries no x-amz-mp-parts-count: nothing to strip.
            self.assertEqual(verdicts[("strip-parts-count", shape)], "NOT_EXERCISED",
                             run.describe())
        truncated = next(r for r in run.report["runs"]
                         if (r["scenario"], r["shape"]) == ("strip-parts-count", "mp-20MiB-8-8-4"))
        self.assertEqual((truncated["expected_bytes"], truncated["actual_bytes"],
                          truncated["first_difference"], truncated["exit_code"]),
                         (20 * harness.MIB, 8 * harness.MIB, 8 * harness.MIB, 0))
        self.assertEqual(truncated["traffic"]["by_operation"], {"GetObject": 1})
        self.assertEqual(truncated["traffic"]["faults_injected"], 1)
        self.assertIn("SILENT_CORRUPTION", run.stdout)
        totals = run.report["summary"]
        self.assertRegex(run.stdout, rf"{totals['passed']} passed, {totals['failed']} failed")
        suites = xml.dom.minidom.parse(str(run.junit_path)).getElementsByTagName("testsuites")[0]
        # The failed runs, and the exit status's own testcase.
        self.assertEqual(suites.getAttribute("failures"), str(totals["failed"] + 1))
        self.assertEqual(len(run.report["runs"]), totals["runs"])

    def test_robust_parts_passes_every_scenario(self):
        run = GateRun(self.tmp, "robust", ["--reader", "builtin:robust-parts", *JOBS])
        self.assertEqual(run.code, 0, run.describe())
        self.assertEqual(run.failed(), {})
        verdicts = run.verdicts()
        for shape in MULTIPART_SHAPES:
            self.assertEqual(verdicts[("strip-parts-count", shape)], "CORRECT")
            self.assertEqual(verdicts[("slowdown-first-2", shape)], "CORRECT")
        slowdown = next(r for r in run.report["runs"]
                        if (r["scenario"], r["shape"]) == ("slowdown-first-2", "1KiB"))
        self.assertEqual(slowdown["traffic"]["retries"], 2, slowdown)
        self.assertEqual(slowdown["traffic"]["faults_injected"], 2, slowdown)
        self.assertEqual(verdicts[("slowdown-always", "1KiB")], "REJECTED")
        self.assertIn("0 failed", run.stdout)

    def test_ranged_reader_misses_only_corruption_of_multipart_objects(self):
        # Ranged GETs carry no checksum and a multipart ETag cannot be checked without the part
        # boundaries: the documented limit of a range-wise reader, and the gate shows it.
        run = GateRun(self.tmp, "ranged", ["--reader", "builtin:ranged", *JOBS])
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.failed(), {("corrupt", shape): "SILENT_CORRUPTION"
                                         for shape in MULTIPART_SHAPES}, run.describe())
        self.assertEqual(run.verdicts()[("corrupt", "single-20MiB")], "REJECTED")


class GateCommandsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = scratch("gate-cmd")
        self.bin = str(harness.proxy_binary())

    def test_placeholders_and_stdout_output(self):
        to_file = (f"'{self.bin}' read robust-parts --endpoint {{endpoint}} --bucket {{bucket}} "
                   f"--key {{key}} --output {{output}}")
        to_stdout = (f"'{self.bin}' read robust-parts --endpoint \"$S3FAULT_ENDPOINT\" "
                     f"--bucket \"$S3FAULT_BUCKET\" --key \"$S3FAULT_KEY\" --output -")
        for name, command in (("file", to_file), ("stdout", to_stdout)):
            run = GateRun(self.tmp, name, ["--reader", command, "--scenarios",
                                           "baseline,strip-parts-count", "--shapes",
                                           "1KiB,mp-8MiB+1"])
            self.assertEqual(run.code, 0, run.describe())
            self.assertEqual(run.verdicts(), {("baseline", "1KiB"): "CORRECT",
                                              ("baseline", "mp-8MiB+1"): "CORRECT",
                                              ("strip-parts-count", "1KiB"): "NOT_EXERCISED",
                                              ("strip-parts-count", "mp-8MiB+1"): "CORRECT"},
                             run.describe())

    def test_the_keys_and_region_come_from_the_environment_as_in_every_command(self):
        # A store in eu-west-1 refuses what is signed for us-east-1 (AuthorizationHeaderMalformed);
        # with only AWS_DEFAULT_REGION naming its region, the gate must sign for that one, as
        # audit, read and bench do.
        store = harness.ListeningProcess("origin", [
            "--listen", "127.0.0.1:0", "--access-key", "eu-key", "--secret-key", "eu-secret",
            "--region", "eu-west-1"], "origin-eu-west-1")
        store.start()
        self.addCleanup(harness.stop_and_check, store)
        run = GateRun(self.tmp, "region", ["--upstream", store.url, "--reader",
                                           "builtin:robust-parts", "--scenarios",
                                           "baseline,strip-parts-count", "--shapes", "mp-8MiB+1"],
                      env={"AWS_ACCESS_KEY_ID": "eu-key", "AWS_SECRET_ACCESS_KEY": "eu-secret",
                           "AWS_DEFAULT_REGION": "eu-west-1"})
        self.assertEqual(run.code, 0, run.describe())
        self.assertEqual(run.verdicts(), {("baseline", "mp-8MiB+1"): "CORRECT",
                                          ("strip-parts-count", "mp-8MiB+1"): "CORRECT"},
                         run.describe())

    def test_a_hung_reader_is_killed_at_the_timeout(self):
        run = GateRun(self.tmp, "hung", ["--reader", "sleep 60", "--timeout", "1",
                                         "--scenarios", "baseline", "--shapes", "1KiB"])
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.verdicts(), {("baseline", "1KiB"): "HUNG"})
        self.assertLess(run.elapsed, 20, "the gate waited for the sleeping reader")
        self.assertIn("1 failed", run.stdout)

    def test_exit_zero_with_nothing_written_is_silent_corruption(self):
        run = GateRun(self.tmp, "liar", ["--reader", "true", "--scenarios", "baseline",
                                         "--shapes", "1KiB"])
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.verdicts(), {("baseline", "1KiB"): "SILENT_CORRUPTION"})
        liar = run.report["runs"][0]
        self.assertEqual((liar["actual_bytes"], liar["first_difference"]), (0, 0))
        self.assertIn("it made no request to the proxy", liar["why"])

    def test_exit_zero_without_a_request_is_never_correct(self):
        # The empty object's bytes are "right" whatever the reader did: without a request to
        # the proxy it cannot have read it, so the gate cannot judge and says so.
        run = GateRun(self.tmp, "empty-liar", ["--reader", "true", "--shapes", "empty"])
        self.assertEqual(run.code, 2, run.describe())
        self.assertIn("exited 0 without a single request to the proxy", run.stderr)
        # Still a report, that says the gate could not judge: a CI that collects it shows red.
        self.assertEqual(run.report["summary"]["exit_status"], 2, run.report["summary"])
        self.assertIn("exited 0 without a single request", run.report["error"])
        errors = xml.dom.minidom.parse(str(run.junit_path)).getElementsByTagName("error")
        self.assertEqual([e.getAttribute("type") for e in errors], ["COULD_NOT_RUN"])

    def test_a_bad_upstream_is_named_in_the_reports_it_still_writes(self):
        run = GateRun(self.tmp, "bad-upstream", ["--reader", "builtin:robust-parts",
                                                 "--upstream", "http://127.0.0.1:1/bucket"])
        self.assertEqual(run.code, 2, run.describe())
        why = "--upstream: 'http://127.0.0.1:1/bucket': must not have a path"
        self.assertIn(why, run.stderr)
        self.assertIn(why, run.report["error"])
        errors = xml.dom.minidom.parse(str(run.junit_path)).getElementsByTagName("error")
        self.assertEqual([e.getAttribute("type") for e in errors], ["COULD_NOT_RUN"])
        self.assertIn(why, errors[0].getAttribute("message"))

    def test_every_usage_mistake_is_reported_at_once_and_in_the_reports(self):
        run = GateRun(self.tmp, "mistakes", ["--reader", "builtin:nope", "--access-key", "k",
                                             "--max-not-exercised", "lots"])
        self.assertEqual(run.code, 2, run.describe())
        for mistake in ("--reader builtin:nope: no built-in reader 'nope'",
                        "--access-key and --secret-key go together",
                        "--max-not-exercised lots: not a number of runs (e.g. 10) or a share of "
                        "them (e.g. 25%)"):
            self.assertIn("s3fault gate: " + mistake, run.stderr)
            self.assertIn(mistake, run.report["error"])
        errors = xml.dom.minidom.parse(str(run.junit_path)).getElementsByTagName("error")
        self.assertEqual([e.getAttribute("type") for e in errors], ["COULD_NOT_RUN"])

    def test_a_gate_that_judged_nothing_fails_and_says_why(self):
        # parts-count-low needs a multipart shape: on 1KiB only the baseline runs.
        run = GateRun(self.tmp, "nothing", ["--reader", "builtin:robust-parts", "--shapes", "1KiB",
                                            "--scenarios", "parts-count-low"])
        self.assertEqual(run.code, 1, run.describe())
        self.assertIn("exit status 1: nothing was judged: parts-count-low: needs a multipart "
                      "shape; none selected", run.stdout)
        self.assertEqual(run.report["summary"]["exit_status"], 1)
        self.assertEqual(run.report["unplanned_scenarios"],
                         [{"scenario": "parts-count-low",
                           "reason": "needs a multipart shape; none selected"}])
        junit = xml.dom.minidom.parse(str(run.junit_path))
        skipped = [s.getAttribute("message") for s in junit.getElementsByTagName("skipped")]
        self.assertIn("needs a multipart shape; none selected", skipped)
        self.assertEqual(junit.getElementsByTagName("testsuites")[0].getAttribute("failures"), "1")
        only_baseline = GateRun(self.tmp, "only-baseline", ["--reader", "builtin:robust-parts",
                                                            "--shapes", "1KiB", "--scenarios",
                                                            "baseline"])
        self.assertEqual(only_baseline.code, 1, only_baseline.describe())
        self.assertIn("nothing was judged: only the baseline ran", only_baseline.stdout)

    def test_every_unknown_name_is_refused_beside_known_ones(self):
        run = GateRun(self.tmp, "typo", ["--reader", "builtin:robust-parts", "--shapes",
                                         "1KiB,mp-20MB-8-8-4", "--scenarios",
                                         "internal-error-once,slowdwn-first-2"])
        self.assertEqual(run.code, 2, run.describe())
        self.assertIn("no scenario matches 'slowdwn-first-2' (nearest: slowdown-first-2)",
                      run.stderr)
        self.assertIn("no shape matches 'mp-20MB-8-8-4' (nearest: mp-20MiB-8-8-4)", run.stderr)
        self.assertEqual(run.report["summary"]["exit_status"], 2)
        self.assertEqual(run.report["runs"], [])
        excluded = GateRun(self.tmp, "typo-exclude", ["--reader", "builtin:robust-parts",
                                                      "--exclude", "1KB"])
        self.assertEqual(excluded.code, 2, excluded.describe())
        self.assertIn("--exclude: no scenario or shape matches '1KB' (nearest: 1KiB)",
                      excluded.stderr)

    def test_a_report_path_that_cannot_be_written_is_refused_before_any_run(self):
        gate = subprocess.run([self.bin, "gate", "--reader", "builtin:robust-parts",
                               "--json", str(self.tmp / "no-such-dir" / "r.json"),
                               "--junit", str(self.tmp / "r.xml")],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(gate.returncode, 2, gate.stdout + gate.stderr)
        self.assertIn("--json " + str(self.tmp / "no-such-dir" / "r.json") +
                      ": cannot write: No such file or directory", gate.stderr)
        self.assertNotIn("baseline", gate.stdout, "a run was made before the check")
        errors = xml.dom.minidom.parse(str(self.tmp / "r.xml")).getElementsByTagName("error")
        self.assertEqual(len(errors), 1)

    def test_bad_options_exit_2(self):
        unknown = subprocess.run([self.bin, "gate", "--reader", "builtin:nope"],
                                 capture_output=True, text=True, timeout=60)
        self.assertEqual(unknown.returncode, 2)
        self.assertIn("builtin:robust-parts", unknown.stderr)
        nothing = subprocess.run([self.bin, "gate", "--reader", "true", "--scenarios", "x*"],
                                 capture_output=True, text=True, timeout=60)
        self.assertEqual(nothing.returncode, 2)
        self.assertIn("no scenario matches 'x*'", nothing.stderr)
        missing = subprocess.run([self.bin, "gate"], capture_output=True, text=True, timeout=60)
        self.assertEqual(missing.returncode, 2)
        self.assertIn("give one of --reader or --writer", missing.stderr)

    def test_demo_shows_the_bug_and_the_fix(self):
        demo = subprocess.run([self.bin, "demo", "--color", "never"], capture_output=True,
                              text=True, timeout=300)
        self.assertEqual(demo.returncode, 0, demo.stdout + demo.stderr)
        self.assertIn("wrote 8388608 of 20971520 bytes, first difference at offset 8388608",
                      demo.stdout)
        self.assertIn("=> SILENT_CORRUPTION", demo.stdout)
        self.assertIn("wrote 20971520 of 20971520 bytes, sha256 matches the object", demo.stdout)
        self.assertIn("=> CORRECT", demo.stdout)

    def test_the_demos_next_commands_work_from_any_directory(self):
        demo = subprocess.run([self.bin, "demo", "--color", "never"], capture_output=True,
                              text=True, timeout=300, cwd="/")
        listing = subprocess.run([self.bin, "gate", "--list"], capture_output=True, text=True,
                                 timeout=60, check=True)
        scenarios = listing.stdout.split("Shapes (--shapes):")[0].splitlines()[1:]
        misbehaviours = [line.split()[0] for line in scenarios
                         if line.startswith("  ") and not line.startswith("   ")]
        misbehaviours.remove("baseline")
        self.assertIn(f"through the gate's {len(misbehaviours)} store misbehaviours", demo.stdout)
        suggested = [shlex.split(line) for line in demo.stdout.splitlines()
                     if " gate --reader " in line]
        self.assertEqual(len(suggested), 2, demo.stdout)
        for words in suggested:
            self.assertEqual(Path(words[0]).resolve(), Path(self.bin).resolve())
        example = Path(suggested[1][3])
        self.assertTrue(example.is_absolute() and example.is_file(), suggested[1])


class GateExampleReadersTest(unittest.TestCase):
    def test_aws_cli_example_runs_every_scenario_to_a_verdict(self):
        tmp = scratch("gate-aws")
        run = GateRun(tmp, "aws-cli", ["--reader", "examples/readers/aws-cli.sh", "--jobs", "2"])
        self.assertIn(run.code, (0, 1), run.describe())
        planned = {(r["scenario"], r["shape"]) for r in run.report["runs"]}
        self.assertEqual(len(planned), run.report["summary"]["runs"])
        listing = subprocess.run([str(harness.proxy_binary()), "gate", "--list"],
                                 capture_output=True, text=True, timeout=60, check=True)
        self.assertGreaterEqual(len(run.report["runs"]), 90, run.describe())
        self.assertFalse(run.report["interrupted"])
        for r in run.report["runs"]:
            self.assertIn(r["verdict"], ("CORRECT", "REJECTED", "SILENT_CORRUPTION", "HUNG",
                                         "NOT_EXERCISED"))
        self.assertEqual(run.verdicts()[("baseline", "mp-20MiB-8-8-4")], "CORRECT",
                         run.describe())
        self.assertIn("baseline", listing.stdout)
        print(f"aws cli: {run.report['summary']}", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
