"""What README.md and docs/profiles.md say of each shipped profile's audit, held to an audit.

    docs/stores/STORE.json   (the real store's audit, recorded by tests/stores/audit-stores.sh)
    s3fault origin <── s3fault proxy --profile NAME <── s3fault audit      (run here)

For every shipped profile learned from an audit, the origin behind it is audited and compared
with the recorded audit of the store it imitates, check by check. The checks that differ must be
the profile's `not_reproduced` ones, and README.md and docs/profiles.md must say exactly that: a
profile that audits as its store "check by check", one that differs "but for N checks", and the
table of docs/profiles.md the verdict counts and the checks that differ. Runs without a store.
"""

import json
import re
import sys
import unittest

import yaml

import harness
from test_audit import AuditRun
from test_profiles import PROFILES, audit_args

# The shipped profiles learned from an audit, and the recorded audit of the store they imitate.
RECORDED_STORE_OF_PROFILE = {"rgw-16.2": "rgw", "s3rver-3.7": "s3rver"}
DOCS = harness.REPO_ROOT / "docs"


def counts(report: dict) -> str:
    summary = report["summary"]
    return f"{summary['passed']} passed, {summary['failed']} failed, {summary['skipped']} skipped"


def differing_checks(recorded: dict[str, str], behind: dict[str, str]) -> list[str]:
    """Checks whose verdict differs, in the recorded audit's order (plus checks only one has)."""
    ids = list(recorded) + [check for check in behind if check not in recorded]
    return [check for check in ids if recorded.get(check) != behind.get(check)]


def readme_claim(readme: str, profile: str) -> str:
    """What README.md says of the origin behind `profile`: 'check by check' or 'but for N'."""
    match = re.search(rf"behind\s+`{re.escape(profile)}`[^;.]*?(check\s+by\s+check|but\s+for\s+"
                      rf"(\d+)\s+checks?)", readme)
    if not match:
        return "nothing"
    return "check by check" if match.group(2) is None else f"but for {match.group(2)}"


def profiles_table_row(doc: str, profile: str) -> list[str]:
    """The cells of the row of docs/profiles.md's audit table naming (`profile`)."""
    for line in doc.splitlines():
        if line.startswith("|") and f"(`{profile}`)" in line:
            return [cell.strip() for cell in line.strip("|").split("|")]
    return []


class RecordedAuditTest(harness.OriginTestCase):
    """Each audit-learned profile against its store's recorded audit, and what the docs say."""

    def test_every_audit_learned_shipped_profile_has_a_recorded_store_audit(self):
        for path in PROFILES.glob("*.yaml"):
            source = yaml.safe_load(path.read_text())["profile"].get("source", "")
            if source.startswith("s3fault audit"):
                self.assertIn(path.stem, RECORDED_STORE_OF_PROFILE, f"{path}: learned from an "
                              f"audit, but no recorded store audit is compared with it")

    def test_the_docs_say_which_checks_differ_behind_each_shipped_profile(self):
        origin = self.start_origin()
        readme = (harness.REPO_ROOT / "README.md").read_text()
        profiles_doc = (DOCS / "profiles.md").read_text()
        problems = []
        for profile, store in RECORDED_STORE_OF_PROFILE.items():
            recorded = json.loads((DOCS / "stores" / f"{store}.json").read_text())
            proxy = self.start_proxy(origin, ["--profile", profile,
                                              "--resign-access-key", origin.access_key,
                                              "--resign-secret-key", origin.secret_key])
            behind = harness.Store(name=f"origin+{profile}", endpoint=proxy.url,
                                   access_key=origin.access_key, secret_key=origin.secret_key,
                                   region=origin.region, pids=())
            run = AuditRun(self.tmp, f"origin-{profile}", audit_args(behind))
            self.assertIn(run.code, (0, 1), run.describe())
            differ = differing_checks({c["id"]: c["verdict"] for c in recorded["checks"]},
                                      run.verdicts())
            not_reproduced = [item["check"] for item in
                              yaml.safe_load((PROFILES / f"{profile}.yaml").read_text())
                              ["profile"].get("not_reproduced", [])]
            print(f"{profile}: {counts(run.report)} behind the profile, {counts(recorded)} "
                  f"recorded; differ: {differ or 'none'}", file=sys.stderr)
            if sorted(differ) != sorted(not_reproduced):
                problems.append(f"{profile}: checks that differ {differ}, listed as not "
                                f"reproduced {not_reproduced}")
            said = readme_claim(readme, profile)
            meant = "check by check" if not differ else f"but for {len(differ)}"
            if said != meant:
                problems.append(f"README.md says of `{profile}` {said!r}, the audit shows "
                                f"{meant!r}")
            row = profiles_table_row(profiles_doc, profile)
            if not row:
                problems.append(f"docs/profiles.md: no row naming (`{profile}`) in the audit table")
                continue
            if row[1] != counts(recorded) or row[2] != counts(run.report):
                problems.append(f"docs/profiles.md row of {profile} says {row[1]!r} and "
                                f"{row[2]!r}; recorded {counts(recorded)!r}, behind it now "
                                f"{counts(run.report)!r}")
            listed = re.findall(r"`([a-z]+\.[a-z0-9-]+)`", row[-1])
            if sorted(listed) != sorted(differ) or (not differ and row[-1] != "none"):
                problems.append(f"docs/profiles.md row of {profile} lists {row[-1]!r} as the "
                                f"checks that differ; the audit shows {differ or 'none'}")
        self.assertEqual(problems, [])


class ClaimParsingTest(unittest.TestCase):
    """The readers of the docs must see a wrong claim."""

    def test_readme_claims(self):
        self.assertEqual(readme_claim("behind `a-1` audits as A did, check by check;", "a-1"),
                         "check by check")
        self.assertEqual(readme_claim("behind `b-2` as B did but for 5 checks (", "b-2"),
                         "but for 5")
        self.assertEqual(readme_claim("behind\n  `a-1` audits as A did, check\n  by check", "a-1"),
                         "check by check")
        self.assertEqual(readme_claim("behind `b-2`. It differs check by check", "b-2"), "nothing")

    def test_differing_checks(self):
        self.assertEqual(differing_checks({"a": "PASS", "b": "FAIL"}, {"a": "PASS", "b": "PASS",
                                                                        "c": "SKIP"}), ["b", "c"])


if __name__ == "__main__":
    harness.main()
