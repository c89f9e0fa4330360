"""`s3fault gate --writer` as a judge: each verdict (STORED, REJECTED, SILENT_LOSS, TORN, HUNG)
produced by a scripted writer and read back from the store, a naive writer caught by a Complete
answered 200 with an <Error> while a careful one passes, open uploads counted, the repro.sh
reproducing the loss (exit 1), a writer that cannot run a gate error, a baseline that is not STORED
leaving every other run NOT_JUDGED, a fault that never fired NOT_EXERCISED, a writer waiting for
ever on an answer that never comes HUNG with its open upload named, and --jobs changing no
verdict."""

import re
import subprocess
import unittest

import harness
from test_gate import REPO, GateRun, scratch

SELF = str(harness.proxy_binary())
SCENARIOS = REPO / "tests/gate/scenarios"
MULTIPART_WRITER = str(REPO / "tests/gate/writers/multipart_writer.py")
CAREFUL = f"'{SELF}' write careful --endpoint {{endpoint}} --bucket {{bucket}} --key {{key}}"
# One writer per verdict, chosen by the run's key (gate/<scenario>/<shape>).
SCRIPTED = ("case {key} in "
            f"*/slowdown-first-2/*) exec '{SELF}' write naive --endpoint {{endpoint}} "
            "--bucket {bucket} --key {key} --input {input};; "
            "*/slowdown-always/*) exit 0;; "
            "*/overwrite-complete-200-error-once/*) exit 0;; "
            f"*/overwrite-slowdown-always/*) exec '{SELF}' write naive --endpoint {{endpoint}} "
            "--bucket {bucket} --key {key} --input {input};; "
            "*/complete-internal-error-once/*) exec sleep 600;; "
            "*/reset-mid-upload-once/*) head -c 777 /dev/zero >\"$HOME/other\"; "
            f"{CAREFUL} --input \"$HOME/other\"; exit 1;; "
            f"*) exec {CAREFUL} --input {{input}};; esac")


def run_of(run: GateRun, scenario: str, shape: str) -> dict:
    return next(r for r in run.report["runs"] if (r["scenario"], r["shape"]) == (scenario, shape))


class GateWritersTest(unittest.TestCase):
    def setUp(self):
        self.tmp = scratch("gate-writers")

    def test_each_verdict_from_a_scripted_writer(self):
        run = GateRun(self.tmp, "scripted",
                      ["--writer", SCRIPTED, "--shapes", "1KiB", "--timeout", "10",
                       "--scenarios", "slowdown-*,complete-internal-error-once,"
                                      "reset-mid-upload-once,complete-200-error-once,"
                                      "overwrite-*"])
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.report["role"], "writer")
        self.assertEqual(run.report["writer"], SCRIPTED)
        self.assertEqual(run.verdicts(), {
            ("baseline", "1KiB"): "STORED",
            ("slowdown-first-2", "1KiB"): "REJECTED",
            ("slowdown-always", "1KiB"): "SILENT_LOSS",
            ("complete-internal-error-once", "1KiB"): "HUNG",
            ("reset-mid-upload-once", "1KiB"): "TORN",
            ("complete-200-error-once", "1KiB"): "NOT_EXERCISED",
            ("overwrite-slowdown-always", "1KiB"): "REJECTED",
            ("overwrite-complete-200-error-once", "1KiB"): "SILENT_LOSS"}, run.describe())
        self.assertEqual(set(run.failed()), {("slowdown-first-2", "1KiB"),
                                             ("slowdown-always", "1KiB"),
                                             ("complete-internal-error-once", "1KiB"),
                                             ("reset-mid-upload-once", "1KiB"),
                                             ("overwrite-complete-200-error-once", "1KiB")})
        kept = run_of(run, "overwrite-slowdown-always", "1KiB")
        self.assertEqual(kept["outcome"], "passed")
        self.assertIn("the key holds the object it held before", kept["why"])
        self.assertIn("still holds the object it held before",
                      run_of(run, "overwrite-complete-200-error-once", "1KiB")["why"])
        torn = run_of(run, "reset-mid-upload-once", "1KiB")
        self.assertIn("777 bytes that are neither the input", torn["why"])
        self.assertIn("503 SlowDown", run_of(run, "slowdown-first-2", "1KiB")["why"])
        self.assertIn("no object under the key", run_of(run, "slowdown-always", "1KiB")["why"])
        self.assertEqual(run.report["summary"]["verdicts"],
                         {"STORED": 2, "REJECTED": 2, "SILENT_LOSS": 2, "TORN": 1, "HUNG": 1})
        # The closing line's parenthesis counts the 7 judged runs: not the not exercised one,
        # whose STORED says nothing about its fault.
        self.assertIn("(verdicts of the 7 judged runs: 1 stored, 2 rejected, 2 silent loss, "
                      "1 torn, 1 hung;", run.stdout)
        for key in run.failed():
            self.assertIn(f"repro: bash {run_of(run, *key)['repro_file']}\n", run.stdout)

    def test_naive_loses_the_object_to_a_complete_answered_200_with_an_error(self):
        args = ["--scenarios", "complete-200-error-once", "--shapes", "1KiB,11MiB"]
        naive = GateRun(self.tmp, "naive", ["--writer", "builtin:naive", *args])
        self.assertEqual(naive.code, 1, naive.describe())
        lost = run_of(naive, "complete-200-error-once", "11MiB")
        self.assertEqual((lost["verdict"], lost["outcome"]), ("SILENT_LOSS", "failed"))
        self.assertEqual(lost["why"], "exit 0, but the store holds no object under the key")
        self.assertEqual(lost["open_uploads"], 1)
        self.assertIn("1 open upload left (the gate aborted it)", naive.stdout)
        self.assertEqual(lost["traffic"]["faults_injected"], 1)
        careful = GateRun(self.tmp, "careful", ["--writer", "builtin:careful", *args])
        self.assertEqual(careful.code, 0, careful.describe())
        stored = run_of(careful, "complete-200-error-once", "11MiB")
        self.assertEqual((stored["verdict"], stored["outcome"]), ("STORED", "passed"))
        self.assertEqual((stored["open_uploads"], stored["traffic"]["retries"]), (0, 1))
        # One PUT meets no Complete: not exercised, never a pass.
        self.assertEqual(run_of(careful, "complete-200-error-once", "1KiB")["verdict"],
                         "NOT_EXERCISED")

        replay = subprocess.run(["bash", lost["repro_file"]], capture_output=True, text=True,
                                timeout=300, cwd="/", env=harness.clean_client_env())
        files = re.search(r"files in (\S+)", replay.stdout).group(1)
        try:
            self.assertEqual(replay.returncode, 1, replay.stdout + replay.stderr)
            self.assertIn("writer exit status 0", replay.stdout)
            self.assertIn("SILENT_LOSS reproduced: the writer exited 0, and the key holds no object",
                          replay.stdout)
        finally:
            subprocess.run(["rm", "-rf", files], check=False)

    def test_a_writer_waiting_for_ever_on_a_silent_store_is_hung_with_its_open_upload_named(self):
        # The writers' no-answer-once with a timeout of 5 s (the built-in one's is 90 s): a
        # writer without a response timeout is HUNG, and on 11 MiB (multipart) it leaves its
        # upload open; one that gives up after 1 s and sends the request again stores the object.
        no_answer = ["--scenario-file", str(SCENARIOS / "no-answer-short-writer.yaml"),
                     "--scenarios", "no-answer-once-5s", "--shapes", "1KiB,11MiB",
                     "--timeout", "600", "--jobs", "2"]
        patient = GateRun(self.tmp, "patient", ["--writer", MULTIPART_WRITER, *no_answer])
        self.assertEqual(patient.code, 1, patient.describe())
        for shape, left_open in (("1KiB", 0), ("11MiB", 1)):
            hung = run_of(patient, "no-answer-once-5s", shape)
            self.assertEqual(hung["verdict"], "HUNG", patient.describe())
            self.assertIn("still running after 5 s", hung["why"])
            self.assertLess(hung["seconds"], 60, "the scenario's 5 s, not --timeout 600")
            self.assertEqual(hung["traffic"]["faults_injected"], 1, hung)
            self.assertEqual(hung["open_uploads"], left_open, hung)
        self.assertIn("1 open upload left (the gate aborted it)",
                      run_of(patient, "no-answer-once-5s", "11MiB")["why"])
        retrying = GateRun(self.tmp, "retrying",
                           ["--writer", f"{MULTIPART_WRITER} --timeout 1", *no_answer])
        self.assertEqual(retrying.code, 0, retrying.describe())
        for shape in ("1KiB", "11MiB"):
            stored = run_of(retrying, "no-answer-once-5s", shape)
            self.assertEqual((stored["verdict"], stored["open_uploads"]), ("STORED", 0),
                             retrying.describe())
            self.assertEqual(stored["traffic"]["faults_injected"], 1, stored)

    def test_a_writer_that_cannot_run_is_a_gate_error(self):
        missing = GateRun(self.tmp, "missing", ["--writer", "./no-such-writer.sh"])
        self.assertEqual(missing.code, 2, missing.describe())
        self.assertIn("the writer cannot run", missing.stderr)
        self.assertIn("exited 127", missing.stderr)
        failing = GateRun(self.tmp, "false", ["--writer", "false", "--shapes", "1KiB"])
        self.assertEqual(failing.code, 2, failing.describe())
        self.assertIn("without a single request to the proxy", failing.stderr)

    def test_a_baseline_that_is_not_stored_leaves_every_other_run_not_judged(self):
        run = GateRun(self.tmp, "true", ["--writer", "true", "--shapes", "1KiB"])
        self.assertEqual(run.code, 1, run.describe())
        verdicts = run.verdicts()
        self.assertEqual(verdicts.pop(("baseline", "1KiB")), "SILENT_LOSS")
        self.assertGreater(len(verdicts), 8)
        self.assertEqual(set(verdicts.values()), {"NOT_JUDGED"}, run.describe())
        self.assertIn("the baseline of 1KiB was SILENT_LOSS, so the writer cannot write",
                      run_of(run, "slowdown-first-2", "1KiB")["why"])

    def test_no_fault_reaching_the_writer_fails_the_gate(self):
        run = GateRun(self.tmp, "unexercised", ["--writer", "builtin:careful", "--scenarios",
                                                "complete-200-error-once", "--shapes", "1KiB"])
        self.assertEqual(run.code, 1, run.describe())
        self.assertIn("nothing was judged: complete-200-error-once: not exercised on any shape",
                      run.stdout)

    def test_jobs_do_not_change_a_verdict(self):
        args = ["--writer", "builtin:naive", "--scenarios", "slowdown-*,complete-*",
                "--shapes", "1KiB,8MiB+1"]
        one = GateRun(self.tmp, "one", [*args, "--jobs", "1"])
        three = GateRun(self.tmp, "three", [*args, "--jobs", "3"])
        self.assertEqual(one.code, 1, one.describe())
        self.assertEqual(three.code, 1, three.describe())
        self.assertEqual([(r["scenario"], r["shape"], r["verdict"],
                           r["traffic"]["faults_injected"], r["open_uploads"])
                          for r in one.report["runs"]],
                         [(r["scenario"], r["shape"], r["verdict"],
                           r["traffic"]["faults_injected"], r["open_uploads"])
                          for r in three.report["runs"]])

    def test_a_scenario_file_adds_writer_scenarios(self):
        scenarios = self.tmp / "ours.yaml"
        scenarios.write_text(
            "scenarios:\n"
            "  - name: ours-complete-slowdown\n"
            "    description: SlowDown on the first CompleteMultipartUpload\n"
            "    expect: must-recover\n"
            "    rules:\n"
            "      - error SlowDown op=CompleteMultipartUpload first=1\n"
            "shapes:\n"
            "  - name: ours-65MiB\n"
            "    description: more than the S3 client keeps in memory by default\n"
            "    size: 65MiB\n")
        args = ["--scenario-file", str(scenarios), "--scenarios", "ours-*",
                "--shapes", "11MiB,ours-*"]
        careful = GateRun(self.tmp, "ours-careful", ["--writer", "builtin:careful", *args])
        self.assertEqual(careful.code, 0, careful.describe())
        self.assertEqual(careful.verdicts()[("ours-complete-slowdown", "11MiB")], "STORED")
        self.assertEqual(careful.verdicts()[("ours-complete-slowdown", "ours-65MiB")], "STORED")
        naive = GateRun(self.tmp, "ours-naive", ["--writer", "builtin:naive", *args])
        self.assertEqual(naive.code, 1, naive.describe())
        self.assertEqual(naive.verdicts()[("ours-complete-slowdown", "11MiB")], "REJECTED")
        scenarios.write_text("scenarios:\n  - name: broken\n    rules: [explode now]\n")
        broken = GateRun(self.tmp, "broken", ["--writer", "builtin:careful", *args])
        self.assertEqual(broken.code, 2, broken.describe())
        self.assertIn("ours.yaml:", broken.stderr)

    def test_an_action_of_the_other_role_is_a_gate_error(self):
        scenarios = self.tmp / "actions.yaml"
        scenarios.write_text(
            "scenarios:\n"
            "  - name: ours-overwrite\n"
            "    description: an older object first\n"
            "    action: overwrite\n"
            "    needs_injection: false\n")
        reader = GateRun(self.tmp, "overwrite-reader",
                         ["--reader", "builtin:robust-parts", "--scenario-file", str(scenarios),
                          "--scenarios", "ours-*", "--shapes", "1KiB"])
        self.assertEqual(reader.code, 2, reader.describe())
        self.assertIn("action overwrite is for writers; this gate runs a reader", reader.stderr)
        scenarios.write_text(
            "scenarios:\n"
            "  - name: ours-replaced\n"
            "    description: the object replaced after the first GET\n"
            "    action: replace-after-first-read\n"
            "    needs_injection: false\n")
        writer = GateRun(self.tmp, "replace-writer",
                         ["--writer", "builtin:careful", "--scenario-file", str(scenarios),
                          "--scenarios", "ours-*", "--shapes", "1KiB"])
        self.assertEqual(writer.code, 2, writer.describe())
        self.assertIn("action replace-after-first-read is for readers; this gate runs a writer",
                      writer.stderr)

    def test_bad_writer_options_are_refused(self):
        unknown = GateRun(self.tmp, "unknown", ["--writer", "builtin:nope"])
        self.assertEqual(unknown.code, 2)
        self.assertIn("no built-in writer 'nope' (known: builtin:naive builtin:careful)",
                      unknown.stderr)
        both = GateRun(self.tmp, "both", ["--writer", "builtin:naive",
                                          "--reader", "builtin:ranged"])
        self.assertEqual(both.code, 2)
        self.assertIn("give one of --reader or --writer", both.stderr)


if __name__ == "__main__":
    unittest.main()
