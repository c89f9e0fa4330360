"""docs/profiles/render_profile_readers.py must list every run whose verdict or outcome differs
between RGW and the origin behind the profile, and every run or reader only one side has; it may
say "the same" only when every run matches."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render_profile_readers as renderer  # noqa: E402


def run(scenario: str, shape: str, verdict: str = "CORRECT", outcome: str = "passed") -> dict:
    return {"scenario": scenario, "shape": shape, "verdict": verdict, "outcome": outcome,
            "passed": outcome == "passed", "why": f"why {verdict} | {outcome}"}


def write(directory: str, reader: str, gate_runs: list) -> None:
    os.makedirs(directory, exist_ok=True)
    summary = {k: sum(1 for r in gate_runs if r["outcome"] == k) for k in renderer.OUTCOMES}
    with open(os.path.join(directory, reader + ".json"), "w", encoding="utf-8") as f:
        json.dump({"runs": gate_runs, "summary": summary}, f)
    meta = {"client_version": "client 1.0", "command": f"gate --reader {reader}",
            "date": "2026-12-01T00:00:00Z", "gate_exit_status": 1}
    with open(os.path.join(directory, reader + ".meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f)


class RenderProfileReadersTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.real = os.path.join(self.dir.name, "real")
        self.profiled = os.path.join(self.dir.name, "profiled")
        self.plain = os.path.join(self.dir.name, "plain")
        self.same = [run("baseline", "small"), run("truncate", "small", "SILENT_CORRUPTION",
                                                   "failed")]

    def render(self) -> str:
        return renderer.render(self.real, self.profiled, self.plain)

    def row(self, text: str, reader: str) -> str:
        return next(line for line in text.splitlines() if line.startswith(f"| `{reader}` |"))

    def test_matching_runs_are_the_same(self):
        write(self.real, "aws-cli", self.same)
        write(self.profiled, "aws-cli", self.same)
        text = self.render()
        self.assertIn("| `aws-cli` | client 1.0 | 2 | 2 | 0 | (not gated) | 1 / 1 / 0 / 0 | "
                      "1 / 1 / 0 / 0 |", text)
        self.assertIn("Every run got the same verdict and outcome on RGW and behind the profile.",
                      text)

    def test_a_differing_verdict_is_listed(self):
        write(self.real, "aws-cli", self.same)
        write(self.profiled, "aws-cli", [self.same[0], run("truncate", "small")])
        text = self.render()
        self.assertIn("| `aws-cli` | client 1.0 | 2 | 1 | 1 |", self.row(text, "aws-cli"))
        self.assertNotIn("Every run got the same", text)
        self.assertIn("| `truncate` | `small` | SILENT_CORRUPTION, failed | CORRECT, passed |", text)
        self.assertIn("why SILENT_CORRUPTION \\| failed", text, "a | in a why must be escaped")

    def test_a_differing_outcome_with_the_same_verdict_is_listed(self):
        write(self.real, "aws-cli", [run("part", "mp", "CORRECT", "passed")])
        write(self.profiled, "aws-cli", [run("part", "mp", "CORRECT", "not_exercised")])
        text = self.render()
        self.assertIn("| `aws-cli` | client 1.0 | 1 | 0 | 1 |", self.row(text, "aws-cli"))
        self.assertIn("| `part` | `mp` | CORRECT, passed | CORRECT, not exercised |", text)

    def test_a_run_on_one_side_only_is_listed(self):
        write(self.real, "aws-cli", self.same)
        write(self.profiled, "aws-cli", self.same[:1])
        text = self.render()
        self.assertIn("| `aws-cli` | client 1.0 | 1 | 1 | 1 |", self.row(text, "aws-cli"))
        self.assertIn("| `truncate` | `small` | run on RGW only |", text)
        self.assertNotIn("Every run got the same", text)

    def test_a_reader_gated_on_one_side_only_is_listed(self):
        write(self.real, "aws-cli", self.same)
        write(self.real, "rclone", self.same)
        write(self.profiled, "aws-cli", self.same)
        write(self.profiled, "s3cmd", self.same)
        text = self.render()
        self.assertIn("(gated only on RGW)", self.row(text, "rclone"))
        self.assertIn("(gated only behind the profile)", self.row(text, "s3cmd"))

    def test_what_the_plain_origin_does_differently_is_shown_and_whether_the_profile_matched(self):
        write(self.real, "aws-cli", self.same + [run("part", "mp", "CORRECT", "not_exercised")])
        write(self.profiled, "aws-cli", self.same + [run("part", "mp", "CORRECT", "passed")])
        write(self.plain, "aws-cli", [run("baseline", "small"), run("truncate", "small"),
                                      run("part", "mp", "CORRECT", "passed")])
        text = self.render()
        self.assertIn("| `aws-cli` | client 1.0 | 3 | 2 | 1 | 2 |", self.row(text, "aws-cli"))
        self.assertIn("Without the profile, 2 runs differ from RGW; behind the profile, 1 of them "
                      "match RGW", text)
        self.assertIn("| `truncate` | `small` | SILENT_CORRUPTION, failed | CORRECT, passed | "
                      "SILENT_CORRUPTION, failed |", text)
        self.assertIn("| `part` | `mp` | CORRECT, not exercised | CORRECT, passed | "
                      "CORRECT, passed ✗ |", text)

    def test_a_plain_origin_like_rgw_is_said(self):
        for directory in (self.real, self.profiled, self.plain):
            write(directory, "aws-cli", self.same)
        text = self.render()
        self.assertIn("| `aws-cli` | client 1.0 | 2 | 2 | 0 | 0 |", self.row(text, "aws-cli"))
        self.assertIn("the plain origin gives every run RGW's verdict", text)
        self.assertIn("- plain origin: `gate --reader aws-cli` (2026-12-01T00:00:00Z, gate exit 1)",
                      text)

    def test_one_run_that_differs_is_in_the_singular(self):
        write(self.real, "aws-cli", self.same)
        write(self.profiled, "aws-cli", self.same)
        write(self.plain, "aws-cli", [self.same[0], run("truncate", "small")])
        self.assertIn("Without the profile, 1 run differs from RGW; behind the profile, 1 of them "
                      "match RGW", self.render())


if __name__ == "__main__":
    unittest.main(verbosity=2)
