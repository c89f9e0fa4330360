"""The proof of a store profile: `s3fault origin` behind `s3fault proxy --profile NAME` must audit
as the real store did, check by check.

    real store  <── s3fault audit                       (the store the profile imitates)
    s3fault origin <── s3fault proxy --profile NAME <── s3fault audit

Every check gets the same verdict from both, except the ones the profile lists under
`not_reproduced` (deviations no action can express): those fail on the real store and still pass
behind the profile, and the test requires exactly that, so the list cannot hide anything else.
Run with S3FAULT_STORE_ENV naming a running RGW or s3rver (the CTest fixtures start them).
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest
import urllib.request

import yaml

import harness
from test_audit import AuditRun

PROFILE_OF_STORE = {"rgw": "rgw-16.2", "s3rver": "s3rver-3.7"}
PROFILES = harness.REPO_ROOT / "faults" / "profiles"


def audit_args(store: harness.Store) -> list[str]:
    return ["--endpoint", store.endpoint, "--access-key", store.access_key,
            "--secret-key", store.secret_key, "--region", store.region]


def compare(real: dict[str, str], imitated: dict[str, str],
            not_reproduced: set[str]) -> list[str]:
    """Every disagreement the profile does not explain, as text."""
    problems = []
    for check, verdict in real.items():
        got = imitated.get(check, "missing")
        if check in not_reproduced:
            if verdict == "PASS" or got != "PASS":
                problems.append(f"{check}: listed as not reproduced, but the store gave {verdict} "
                                f"and the origin behind the profile {got}")
        elif got != verdict:
            problems.append(f"{check}: the store gave {verdict}, the origin behind the profile "
                            f"{got}")
    problems += [f"{check}: only behind the profile" for check in imitated if check not in real]
    return problems


class ProfileProofTest(harness.OriginTestCase):
    """One audit of the real store (which also emits its profile), then the origin behind the
    shipped profile and behind the emitted one: both must audit as the store did."""

    def audit_behind(self, origin: harness.Store, profile: str, label: str) -> AuditRun:
        proxy = self.start_proxy(origin, ["--profile", profile,
                                          "--resign-access-key", origin.access_key,
                                          "--resign-secret-key", origin.secret_key])
        behind = harness.Store(name=f"origin+{label}", endpoint=proxy.url,
                               access_key=origin.access_key, secret_key=origin.secret_key,
                               region=origin.region, pids=())
        run = AuditRun(self.tmp, f"origin-{label}", audit_args(behind))
        self.assertIn(run.code, (0, 1), run.describe())
        return run

    def assert_agree(self, real: AuditRun, imitated: AuditRun, profile_text: str, label: str):
        profile = yaml.safe_load(profile_text)
        not_reproduced = {item["check"] for item in profile["profile"].get("not_reproduced", [])}
        problems = compare(real.verdicts(), imitated.verdicts(), not_reproduced)
        table = "\n".join(f"  {check:40} {verdict:6} {imitated.verdicts().get(check)}"
                          for check, verdict in real.verdicts().items())
        self.assertEqual(problems, [], f"per check (store, behind {label}):\n{table}")
        self.assertEqual(real.code, imitated.code)
        print(f"{label}: {len(real.verdicts())} checks agree with the store "
              f"({len(not_reproduced)} listed as not reproduced)", file=sys.stderr)

    def test_the_origin_behind_the_shipped_and_the_emitted_profile_audits_as_the_store(self):
        store = harness.store_under_test()
        name = PROFILE_OF_STORE[store.name]
        emitted = self.tmp / f"{store.name}-emitted.yaml"
        real = AuditRun(self.tmp, f"{store.name}-real",
                        audit_args(store) + ["--emit-profile", str(emitted),
                                             "--profile-name", f"{store.name}-emitted"])
        self.assertIn(real.code, (0, 1), real.describe())
        self.assertIn(f"profile {store.name}-emitted written to {emitted}", real.stdout)

        origin = self.start_origin()  # one origin: each audit makes its own bucket
        shipped = self.audit_behind(origin, name, name)
        self.assert_agree(real, shipped, (PROFILES / f"{name}.yaml").read_text(), name)
        replayed = self.audit_behind(origin, str(emitted), emitted.name)
        self.assert_agree(real, replayed, emitted.read_text(), emitted.name)
        # Kept for the note and docs/profiles.md: what the emitter wrote.
        logs = os.environ.get("S3FAULT_TEST_LOGS")
        if logs:
            os.makedirs(logs, exist_ok=True)
            (harness.Path(logs) / emitted.name).write_text(emitted.read_text())


class CompareTest(unittest.TestCase):
    """The comparison itself must fail on every kind of disagreement."""

    def test_a_different_verdict_is_a_problem(self):
        self.assertEqual(len(compare({"a": "FAIL"}, {"a": "PASS"}, set())), 1)
        self.assertEqual(len(compare({"a": "SKIP"}, {"a": "FAIL"}, set())), 1)

    def test_a_listed_check_must_fail_on_the_store_and_pass_behind_the_profile(self):
        self.assertEqual(compare({"a": "FAIL"}, {"a": "PASS"}, {"a"}), [])
        self.assertEqual(len(compare({"a": "PASS"}, {"a": "PASS"}, {"a"})), 1)
        self.assertEqual(len(compare({"a": "FAIL"}, {"a": "FAIL"}, {"a"})), 1)

    def test_missing_and_extra_checks_are_problems(self):
        self.assertEqual(len(compare({"a": "PASS"}, {}, set())), 1)
        self.assertEqual(len(compare({}, {"a": "PASS"}, set())), 1)

    def test_agreement_is_no_problem(self):
        self.assertEqual(compare({"a": "PASS", "b": "FAIL"}, {"a": "PASS", "b": "FAIL"}, set()),
                         [])


class ProfileCommandTest(unittest.TestCase):
    """`s3fault profile list|show` and `proxy --profile` as a user meets them."""

    def run_s3fault(self, *args: str) -> subprocess.CompletedProcess:
        try:
            return subprocess.run([str(harness.proxy_binary()), *args], capture_output=True,
                                  text=True, timeout=60, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as running:
            self.fail(f"s3fault {' '.join(args)} was still running after 60 s (it should have "
                      f"exited); stderr: {running.stderr}")

    def test_a_profile_without_the_resigning_keys_is_refused_naming_the_keys_and_rules(self):
        refused = self.run_s3fault("proxy", "--listen", "127.0.0.1:0",
                                   "--upstream", "http://127.0.0.1:9", "--profile", "rgw-16.2")
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertEqual(refused.stdout, "")
        # The rules of rgw-16.2 that edit signed parts of requests, and nothing else.
        self.assertIn("s3fault proxy: --profile rgw-16.2: rules rgw-ignores-part-number "
                      "(strip-query), rgw-ranged-head (head-as-get), rgw-no-object-attributes "
                      "(strip-query) edit signed requests and need --resign-access-key and "
                      "--resign-secret-key (the store's keys); --partial-profile runs without "
                      "them, those rules not applied to signed requests", refused.stderr)
        self.assertNotIn("rgw-304-without-etag", refused.stderr)
        # --check refuses what the proxy would refuse to start with, and passes what it takes.
        checked = self.run_s3fault("proxy", "--check", "--profile", "rgw-16.2")
        self.assertEqual(checked.returncode, 2, checked.stdout)
        self.assertIn("--profile rgw-16.2: rules rgw-ignores-part-number (strip-query)",
                      checked.stderr)
        partial = self.run_s3fault("proxy", "--check", "--profile", "rgw-16.2",
                                   "--partial-profile")
        self.assertEqual(partial.returncode, 0, partial.stderr)

    def test_a_partial_profile_is_marked_in_the_stats_and_the_report(self):
        scratch = tempfile.TemporaryDirectory(prefix="s3f-partial-", dir=harness.scratch_root())
        self.addCleanup(scratch.cleanup)
        report = harness.Path(scratch.name)
        cases = {"partial": ["--partial-profile"],
                 "whole": ["--resign-access-key", "AK", "--resign-secret-key", "SK"]}
        for label, extra in cases.items():
            proxy = harness.ProxyProcess("http://127.0.0.1:9", [
                "--profile", "rgw-16.2", "--admin", "127.0.0.1:0",
                "--report", str(report / f"{label}.json"), *extra], name=f"proxy-{label}")
            proxy.start()
            try:
                admin = next(line.split()[-1] for line in proxy.stdout_lines
                             if line.startswith("admin on "))
                with urllib.request.urlopen(admin + "/stats", timeout=30) as answer:
                    stats = json.loads(answer.read())
            finally:
                self.assertEqual(proxy.stop(), 0, proxy.describe_stderr())
            written = json.loads((report / f"{label}.json").read_text())
            for where, document in (("/stats", stats), ("--report", written)):
                self.assertIn("profile", document, f"{label}: no profile block in {where}")
                block = document["profile"]
                self.assertEqual(block["profiles"], ["rgw-16.2"], where)
                self.assertEqual(block["partial"], label == "partial", where)
                not_applied = [rule["rule"] for rule in block["not_applied"]]
                self.assertEqual(not_applied, ["rgw-ignores-part-number", "rgw-ranged-head",
                                               "rgw-no-object-attributes"]
                                 if label == "partial" else [], where)
            if label == "partial":
                self.assertIn("profile rgw-16.2 applied partially", proxy.log_path.read_text())

    def test_list_names_every_shipped_profile(self):
        listed = self.run_s3fault("profile", "list")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        names = [line.split()[0] for line in listed.stdout.splitlines()]
        self.assertEqual(names, sorted(p.stem for p in PROFILES.glob("*.yaml")))
        self.assertIn("rgw-16.2  Ceph RADOS Gateway 16.2.15 (pacific) (", listed.stdout)

    def test_show_prints_the_shipped_file(self):
        shown = self.run_s3fault("profile", "show", "s3rver-3.7")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertEqual(shown.stdout, (PROFILES / "s3rver-3.7.yaml").read_text())

    def test_an_unknown_profile_is_refused_naming_the_shipped_ones(self):
        for args in (("profile", "show", "rgw-99"),
                     ("proxy", "--upstream", "http://127.0.0.1:9", "--profile", "rgw-99")):
            refused = self.run_s3fault(*args)
            self.assertEqual(refused.returncode, 2, refused.stdout)
            self.assertIn("profile 'rgw-99': neither a shipped profile (rgw-16.2, "
                          "rustfs-1.0.0-rc.5, s3rver-3.7) nor a file", refused.stderr)


if __name__ == "__main__":
    if os.environ.get("S3FAULT_STORE_ENV"):
        unittest.main(defaultTest="ProfileProofTest")
    else:
        unittest.main(argv=sys.argv[:1] + ["CompareTest", "ProfileCommandTest"])
