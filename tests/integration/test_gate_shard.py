"""`s3fault gate --shard K/N` and `s3fault gate merge` as a CI matrix runs them: three shards of
the robust reader's gate against one `s3fault origin`, merged, give the verdict of every run and
the exit status of one unsharded gate; a missing shard and a shard
beyond the count are refused with exit 2; shards without --upstream each start the embedded
origin, name it in their reports and merge, but not with parts judged against another store."""

import json
import subprocess
import unittest
import xml.dom.minidom
from pathlib import Path

import harness

REPO = Path(__file__).resolve().parents[2]
# Two small shapes keep the four gates short: one single PUT, one multipart with a 1-byte part.
SHAPES = ("--shapes", "1KiB,mp-8MiB+1")
# A third of the matrix, with every kind of verdict the robust reader gets (passes, NOT_EXERCISED
# on the single PUT): enough runs for three shards; the whole matrix is the acceptance
# check, run by hand (docs/gate.md).
SCENARIOS = ("--scenarios", "strip-parts-count,parts-count-*,slowdown-first-2,truncate-close,"
                            "corrupt,reset-mid-body-once,replaced-between-reads")
READER = ("--reader", "builtin:robust-parts")


class Command:
    """One s3fault command run to its end, its JSON report read back when it wrote one."""

    def __init__(self, args: list[str], json_path: Path = None, cwd: Path = REPO,
                 timeout: float = 600):
        self.args = [str(harness.proxy_binary()), *args]
        self.json_path = json_path
        self._cwd = cwd
        self._timeout = timeout
        self.process = None

    def start(self, tmp: Path) -> "Command":
        # TMPDIR: the scratch and repro.sh directories the gate makes stay in the test's.
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL, text=True, cwd=self._cwd,
                                        env=dict(harness.clean_client_env(), TMPDIR=str(tmp)))
        return self

    def finish(self) -> "Command":
        self.stdout, self.stderr = self.process.communicate(timeout=self._timeout)
        self.code = self.process.returncode
        self.report = (json.loads(self.json_path.read_text())
                       if self.json_path and self.json_path.exists() else None)
        return self

    def run(self, tmp: Path) -> "Command":
        return self.start(tmp).finish()

    def describe(self) -> str:
        return (f"{' '.join(self.args)}\nexit {self.code}\nstdout:\n{self.stdout[-6000:]}\n"
                f"stderr:\n{self.stderr[-3000:]}")


def verdicts(report: dict) -> dict[str, str]:
    return {run["key"]: run["verdict"] for run in report["runs"] if run.get("owned", True)}


def testcases(junit: Path) -> list[tuple[str, str, str]]:
    """Each JUnit testcase: its suite, its name and how it ended."""
    cases = []
    for case in xml.dom.minidom.parse(str(junit)).getElementsByTagName("testcase"):
        ended = [n.tagName for n in case.childNodes
                 if n.nodeType == n.ELEMENT_NODE and n.tagName in ("failure", "error", "skipped")]
        cases.append((case.parentNode.getAttribute("name"), case.getAttribute("name"),
                      ",".join(ended) or "passed"))
    return cases


class GateShardTest(unittest.TestCase):
    """One origin, one unsharded gate and three shards for the whole class (they are the slow
    part); each test checks one thing about them."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = harness.scratch_root() / harness.unique_bucket_name("gate-shard")
        cls.tmp.mkdir(parents=True)
        cls.origin = harness.OriginProcess()
        cls.origin.start()
        cls.upstream = ["--upstream", cls.origin.url, "--access-key", cls.origin.access_key,
                        "--secret-key", cls.origin.secret_key,
                        "--region", harness.ORIGIN_REGION]
        try:
            shards = [cls.gate(["--shard", f"{k}/3", "--json", str(cls.tmp / "s{shard}.json"),
                                "--jobs", "2"], cls.tmp / f"s{k}.json").start(cls.tmp)
                      for k in (1, 2, 3)]
            cls.whole = cls.gate(["--json", str(cls.tmp / "whole.json"),
                                  "--junit", str(cls.tmp / "whole.xml"), "--jobs", "2"],
                                 cls.tmp / "whole.json").run(cls.tmp)
            cls.shards = [shard.finish() for shard in shards]
        except BaseException:
            harness.stop_and_check(cls.origin)
            raise

    @classmethod
    def tearDownClass(cls):
        harness.stop_and_check(cls.origin)

    @classmethod
    def gate(cls, args: list[str], json_path: Path) -> Command:
        return Command(["gate", "--color", "never", *READER, *SHAPES, *SCENARIOS, *cls.upstream,
                        *args],
                       json_path)

    def merge(self, parts: list[str], name: str) -> Command:
        return Command(["gate", "merge", *[str(self.tmp / p) for p in parts], "--color", "never",
                        "--json", str(self.tmp / f"{name}.json"),
                        "--junit", str(self.tmp / f"{name}.xml")],
                       self.tmp / f"{name}.json").run(self.tmp)

    def test_the_merged_shards_give_the_verdicts_and_exit_status_of_one_gate(self):
        self.assertEqual(self.whole.code, 0, self.whole.describe())
        merged = self.merge(["s1.json", "s2.json", "s3.json"], "all")
        self.assertEqual(merged.code, self.whole.code, merged.describe())
        self.assertEqual(verdicts(merged.report), verdicts(self.whole.report), merged.describe())
        self.assertEqual([r["key"] for r in merged.report["runs"]],
                         [r["key"] for r in self.whole.report["runs"]], "plan order")
        self.assertEqual(merged.report["summary"]["exit_status"],
                         self.whole.report["summary"]["exit_status"])
        self.assertEqual(merged.report["shards"], 3)
        self.assertEqual([p["shard"] for p in merged.report["parts"]], ["1/3", "2/3", "3/3"])
        self.assertIn("s3fault gate merge: reader builtin:robust-parts, 3 shards", merged.stdout)
        self.assertEqual(testcases(self.tmp / "all.xml"), testcases(self.tmp / "whole.xml"))

    def test_each_shard_owns_its_share_and_leaves_the_whole_verdict_to_merge(self):
        owned = []
        for k, shard in enumerate(self.shards, start=1):
            self.assertIn(shard.code, (0, 1), shard.describe())
            self.assertEqual(shard.code, self.whole.code, shard.describe())
            self.assertEqual(shard.report["shard"], {"index": k, "count": 3,
                                                     "source": f"--shard {k}/3"})
            self.assertIn(f"shard {k}/3 (--shard {k}/3)", shard.stdout.splitlines()[0])
            self.assertIn("the whole verdict comes from `s3fault gate merge`",
                          shard.report["summary"]["exit_reason"])
            owned += list(verdicts(shard.report))
            for run in shard.report["runs"]:
                if not run["owned"]:
                    self.assertEqual(run["scenario"], "baseline", run["key"])
        self.assertEqual(sorted(owned), sorted(verdicts(self.whole.report)),
                         "every run owned by exactly one shard")
        sizes = [len(verdicts(s.report)) for s in self.shards]
        self.assertLessEqual(max(sizes) - min(sizes), 1, sizes)

    def test_a_missing_shard_is_named_and_the_merge_exits_2(self):
        merged = self.merge(["s1.json", "s3.json"], "missing")
        self.assertEqual(merged.code, 2, merged.describe())
        self.assertIn("shard 2/3 is missing", merged.stderr)
        self.assertIn("shard 2/3 is missing", merged.report["error"])
        self.assertEqual(merged.report["summary"]["exit_status"], 2)

    def test_an_unsharded_report_is_not_a_part(self):
        merged = self.merge(["s1.json", "whole.json"], "unsharded")
        self.assertEqual(merged.code, 2, merged.describe())
        self.assertIn("whole.json: has no \"shard\" field: made without --shard", merged.stderr)

    def test_shards_without_upstream_each_judge_against_a_named_embedded_origin(self):
        # A CI matrix job has no store of its own: each shard starts the embedded origin, every
        # part names it (with its version), and the parts merge like the shards of one store.
        embedded = [Command(["gate", "--color", "never", *READER, *SHAPES, *SCENARIOS,
                             "--shard", f"{k}/3", "--jobs", "2",
                             "--json", str(self.tmp / "embedded-{shard}.json")],
                            self.tmp / f"embedded-{k}.json").start(self.tmp) for k in (1, 2, 3)]
        embedded = [shard.finish() for shard in embedded]
        for k, shard in enumerate(embedded, start=1):
            self.assertEqual(shard.code, self.whole.code, shard.describe())
            store = f"embedded origin (s3fault {shard.report['version']})"
            self.assertEqual(shard.report["store"], store)
            self.assertEqual(shard.report["upstream"], "embedded origin")
            self.assertIn(f"store {store} at http://127.0.0.1:", shard.stdout.splitlines()[1])
            self.assertEqual(self.shards[k - 1].report["store"], self.origin.url)
        merged = self.merge(["embedded-1.json", "embedded-2.json", "embedded-3.json"],
                            "embedded")
        self.assertEqual(merged.code, self.whole.code, merged.describe())
        self.assertEqual(verdicts(merged.report), verdicts(self.whole.report), merged.describe())
        self.assertEqual(merged.report["store"], embedded[0].report["store"])
        self.assertIn(f"store {embedded[0].report['store']}\n", merged.stdout)

        # A part judged against another store is not a part of this gate.
        mixed = self.merge(["s1.json", "embedded-2.json", "s3.json"], "mixed")
        self.assertEqual(mixed.code, 2, mixed.describe())
        different = (f"the parts were judged against different stores: {self.origin.url} vs "
                     f"{embedded[1].report['store']} ({self.tmp / 's1.json'} vs "
                     f"{self.tmp / 'embedded-2.json'})")
        self.assertIn(different, mixed.stderr)
        self.assertIn(different, mixed.report["error"])

    def test_a_shard_beyond_the_count_is_refused(self):
        run = Command(["gate", *READER, *SHAPES, *self.upstream, "--shard", "4/3"]).run(self.tmp)
        self.assertEqual(run.code, 2, run.describe())
        self.assertIn("--shard", run.stderr)
        self.assertEqual(run.stdout, "", "nothing ran")


if __name__ == "__main__":
    unittest.main()
