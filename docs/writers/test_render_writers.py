"""docs/writers/render_writers.py must render a writer's report as a writer's: its verdicts
(SILENT_LOSS and TORN failing, marked ✗), the writers' counts, the writer's command and stderr,
the bytes the writer sent and the uploads it left open; a reader's words must not leak in."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "readers"))
import render_readers  # noqa: E402


def run(scenario, shape, verdict, outcome, **extra):
    return {"scenario": scenario, "shape": shape, "verdict": verdict, "outcome": outcome,
            "passed": outcome == "passed", "why": f"why {scenario}", "exit_code": 0,
            "traffic": {"requests": 3, "by_operation": {"UploadPart": 2, "PutObject": 1},
                        "retries": 0, "faults_injected": 1, "errors": 0,
                        "bytes_to_reader": 11, "bytes_from_reader": 2048},
            **extra}


class RenderWritersTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        runs = [run("baseline", "1KiB", "STORED", "passed", open_uploads=0),
                run("complete-200-error-once", "11MiB", "SILENT_LOSS", "failed", open_uploads=1,
                    writer_stderr_tail="uploaded\nall done"),
                run("reset-mid-upload-once", "11MiB", "TORN", "failed",
                    open_uploads={"unknown": "ListMultipartUploads 501 NotImplemented"}),
                # Its fault never fired: its STORED says nothing and is not counted.
                run("slowdown-once", "1KiB", "STORED", "not_exercised", open_uploads=0)]
        report = {"role": "writer", "writer": "examples/writers/naive.py",
                  "scenarios": [{"name": "complete-200-error-once",
                                 "expectation": "must-recover"}],
                  "runs": runs,
                  "summary": {"runs": 4, "passed": 1, "failed": 2, "not_exercised": 1,
                              "not_judged": 0, "exit_status": 1,
                              "verdicts": {"STORED": 2, "REJECTED": 0, "SILENT_LOSS": 1,
                                           "TORN": 1, "HUNG": 0}}}
        with open(os.path.join(self.dir.name, "boto3-naive.json"), "w", encoding="utf-8") as f:
            json.dump(report, f)
        self.text = render_readers.render(self.dir.name, self.dir.name + ".md",
                                          render_readers.WRITER)

    def test_verdicts_are_a_writers(self):
        self.assertIn("**SILENT_LOSS 1/1** ✗", self.text)
        self.assertIn("**TORN**", self.text)
        self.assertNotIn("SILENT\\_LOSS", self.text)  # a reader's renderer escapes it
        self.assertIn("writers' verdicts of the 3 judged runs: 1 STORED, 0 REJECTED, 1 SILENT_LOSS, "
                      "1 TORN, 0 HUNG", self.text)
        self.assertIn("SILENT_LOSS, TORN and HUNG never pass.", self.text)

    def test_the_writer_its_traffic_and_open_uploads(self):
        self.assertIn("- Writer: `examples/writers/naive.py`", self.text)
        self.assertIn("2048 bytes from the writer", self.text)
        self.assertNotIn("to the reader", self.text)
        self.assertIn("1 open upload left", self.text)
        self.assertIn("open uploads unknown: ListMultipartUploads 501 NotImplemented", self.text)
        self.assertIn("stderr (last line): `all done`", self.text)
        self.assertIn("# How S3 writers cope with a faulty store", self.text)
        self.assertIn("tests/gate/gate-writers.sh", self.text)


if __name__ == "__main__":
    unittest.main()
