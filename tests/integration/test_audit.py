"""`s3fault audit` as a user runs it: the real binary against `s3fault origin` (every check
passes), against the origin behind `s3fault proxy` with a fault (exactly the checks that fault
breaks fail, and no others), against Ceph RGW, s3rver and OpenStack Swift (runs to completion),
and the ways it refuses to start.

    S3FAULT_STORE_ENV unset: the origin tests (AuditOriginTest)
    S3FAULT_STORE_ENV set:   AuditStoreTest against that store
"""

import json
import os
import re
import signal
import subprocess
import sys
import unittest
import xml.dom.minidom

import harness


def catalog_ids() -> list[str]:
    listed = subprocess.run([str(harness.proxy_binary()), "audit", "--list"], capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL, check=True)
    return [line.split()[0] for line in listed.stdout.splitlines() if line.strip()]


# What a user's shell often holds: keys and a region for a store of theirs.
USERS_STORE_ENVIRONMENT = {"AWS_ACCESS_KEY_ID": "AKIAUSERSOWNSTORE", "AWS_SECRET_ACCESS_KEY":
                           "users-own-secret", "AWS_DEFAULT_REGION": "eu-west-1"}


class AuditRun:
    """One `s3fault audit` process, run to the end, with its JSON and JUnit files read back."""

    def __init__(self, tmp, name: str, args: list[str], timeout: float = 600,
                 env: dict[str, str] = None):
        self.json_path = tmp / f"{name}.json"
        self.junit_path = tmp / f"{name}.xml"
        command = [str(harness.proxy_binary()), "audit", "--color", "never",
                   "--json", str(self.json_path), "--junit", str(self.junit_path), *args]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                stdin=subprocess.DEVNULL,
                                env=dict(harness.clean_client_env(), **(env or {})))
        self.code = result.returncode
        self.stdout = result.stdout
        self.stderr = result.stderr
        self.report = json.loads(self.json_path.read_text()) if self.json_path.exists() else None

    def describe(self) -> str:
        return f"exit {self.code}\nstdout:\n{self.stdout[-6000:]}\nstderr:\n{self.stderr[-3000:]}"

    def verdicts(self) -> dict[str, str]:
        return {check["id"]: check["verdict"] for check in self.report["checks"]}

    def not_passed(self) -> dict[str, str]:
        return {id_: v for id_, v in self.verdicts().items() if v != "PASS"}

    def junit(self):
        return xml.dom.minidom.parse(str(self.junit_path))

    def check_failures(self):
        """The checks' <failure> elements, without the exit status's own testcase."""
        return [f for f in self.junit().getElementsByTagName("failure")
                if f.parentNode.getAttribute("classname") != "audit.exit-status"]


class AuditOriginTest(unittest.TestCase):
    def setUp(self):
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("audit")
        self.tmp.mkdir(parents=True)
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)
        self.store = self.origin.store()
        self.keys = ["--access-key", self.store.access_key, "--secret-key", self.store.secret_key]

    def audit(self, name: str, endpoint: str, *extra: str) -> AuditRun:
        return AuditRun(self.tmp, name, ["--endpoint", endpoint, *self.keys, *extra])

    def start_proxy(self, *args: str) -> harness.ProxyProcess:
        proxy = harness.ProxyProcess(self.origin.url, list(args))
        proxy.start()
        self.addCleanup(lambda: self.assertEqual(proxy.stop(), 0, "proxy exit code"))
        return proxy

    def assert_no_buckets_left(self):
        client = harness.boto3_client(self.origin.url, self.store)
        self.assertEqual(client.list_buckets()["Buckets"], [], "the audit left its bucket behind")

    def test_a_versioned_audit_bucket_passes_and_is_left_clean(self):
        client = harness.boto3_client(self.origin.url, self.store)
        client.create_bucket(Bucket="audited-versioned")
        self.addCleanup(harness.delete_bucket_fully, client, "audited-versioned")
        client.put_bucket_versioning(Bucket="audited-versioned",
                                     VersioningConfiguration={"Status": "Enabled"})
        client.put_object(Bucket="audited-versioned", Key="theirs", Body=b"not the audit's")
        run = self.audit("versioned-bucket", self.origin.url, "--bucket", "audited-versioned")
        self.assertEqual(run.code, 0, run.describe())
        self.assertEqual(run.not_passed(), {}, run.describe())
        listing = client.list_object_versions(Bucket="audited-versioned")
        left = [(v["Key"], v.get("Size")) for v in
                listing.get("Versions", []) + listing.get("DeleteMarkers", [])]
        self.assertEqual(left, [("theirs", 15)],
                         "the audit removes its versions and delete markers, and only those")

    def test_origin_passes_every_check(self):
        run = self.audit("origin", self.origin.url)
        self.assertEqual(run.code, 0, run.describe())
        ids = catalog_ids()
        self.assertGreaterEqual(len(ids), 40)
        self.assertEqual(list(run.verdicts()), ids, "one result per catalog entry, in order")
        self.assertEqual(run.not_passed(), {}, run.describe())
        summary = run.report["summary"]
        self.assertEqual((summary["passed"], summary["failed"], summary["exit_status"]),
                         (len(ids), 0, 0))
        self.assertIn(f"{len(ids)} passed, 0 failed, 0 deviations, 0 skipped, 0 errors",
                      run.stdout)
        self.assertIn("every MUST check passed", run.stdout)
        suites = run.junit().getElementsByTagName("testsuites")[0]
        # One testcase per check, and the exit status's own.
        self.assertEqual(suites.getAttribute("tests"), str(len(ids) + 1))
        self.assertEqual(suites.getAttribute("failures"), "0")
        self.assertEqual(len(run.junit().getElementsByTagName("testcase")), len(ids) + 1)
        for check in run.report["checks"]:
            self.assertGreater(check["seconds"], 0, check["id"])
            self.assertTrue(check["exchanges"], f"{check['id']} shows no exchange")
        self.assert_no_buckets_left()

    def test_over_https_through_the_proxy_every_check_passes(self):
        proxy = self.start_proxy("--tls-self-signed")
        self.assertTrue(proxy.url.startswith("https://"), proxy.url)
        refused = self.audit("tls-verified", proxy.url)
        self.assertEqual(refused.code, 2, refused.describe())
        self.assertIn("certificate verify failed", refused.stderr)
        run = self.audit("tls", proxy.url, "--insecure")
        self.assertEqual(run.code, 0, run.describe())
        self.assertEqual(run.not_passed(), {}, run.describe())

    def test_parts_count_stripped_fails_exactly_the_parts_count_checks(self):
        proxy = self.start_proxy("--preset", "rustfs-parts-count")
        run = self.audit("rustfs", proxy.url)
        self.assertEqual(run.code, 1, run.describe())
        # The part reads of GetObjectAttributes' object and of an older version lose it too.
        self.assertEqual(run.not_passed(), {"part.count-header": "FAIL",
                                            "part.head-count-header": "FAIL",
                                            "attrs.parts-agree": "FAIL",
                                            "version.part-read": "FAIL"}, run.describe())
        self.assertIn("4 MUST checks not met: part.count-header, part.head-count-header, "
                      "attrs.parts-agree, version.part-read", run.stdout)
        failing = [check for check in run.report["checks"]
                   if check["verdict"] == "FAIL" and check["id"].startswith("part.")]
        for check in failing:
            unmet = [e for e in check["expectations"] if not e["met"]]
            # 3 + 2 parts of the two multipart fixtures, each without its count.
            self.assertEqual(len(unmet), 5, check)
            for point in unmet:
                self.assertIn("no x-amz-mp-parts-count", point["observed"])
        self.assertEqual(len(run.check_failures()), 4)

    def test_content_range_stripped_fails_part_and_range_reads_and_no_others(self):
        proxy = self.start_proxy("--preset", "no-content-range")
        run = self.audit("no-content-range", proxy.url)
        self.assertEqual(run.code, 1, run.describe())
        expected = {"part.content-range", "part.totals-agree", "part.single-object-part-one",
                    "range.closed", "range.open-ended", "range.suffix", "range.end-clamped",
                    "range.suffix-longer", "range.last-byte", "range.one-byte-object",
                    "range.across-parts", "range.multipart-suffix", "version.range-read"}
        self.assertEqual(run.not_passed(), {id_: "FAIL" for id_ in expected}, run.describe())

    def test_invalid_part_for_a_missing_part_is_a_deviation(self):
        # What RGW-like stores answer (ceph s3-tests expect it): 400 InvalidPart, not 416.
        proxy = self.start_proxy(
            "--fault", "error InvalidPart 400 op=GetObject,HeadObject key=*multipart-uneven "
                       "part=4-10000",
            "--fault", "error InvalidPart 400 op=GetObject,HeadObject key=*multipart-equal "
                       "part=3-10000",
            "--fault", "error InvalidPart 400 op=GetObject,HeadObject key=*single part=2-10000")
        run = self.audit("invalid-part", proxy.url)
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.not_passed(), {
            "part.single-object-part-two": "DEVIATION", "part.past-count": "DEVIATION",
            "part.head-past-count": "DEVIATION", "part.highest-number": "DEVIATION"},
            run.describe())
        reasons = {c["id"]: c["reason"] for c in run.report["checks"]}
        self.assertIn("400 InvalidPart instead of 416 InvalidPartNumber",
                      reasons["part.past-count"])
        self.assertIn("DEVIATION", run.stdout)
        types = {f.getAttribute("type") for f in run.check_failures()}
        self.assertEqual(types, {"DEVIATION"})

    def test_checks_glob_and_strict(self):
        run = self.audit("parts-only", self.origin.url, "--checks", "part.*count*,etag.zero-byte",
                         "--strict")
        self.assertEqual(run.code, 0, run.describe())
        self.assertEqual(sorted(run.verdicts()),
                         ["etag.zero-byte", "part.count-absent-plain", "part.count-absent-single",
                          "part.count-header", "part.head-count-header", "part.head-past-count",
                          "part.past-count"])
        # A SHOULD failure decides the exit status only with --strict.
        proxy = self.start_proxy("--preset", "parts-count-low")
        lenient = self.audit("should-lenient", proxy.url, "--checks", "part.count-absent-single")
        strict = self.audit("should-strict", proxy.url, "--checks", "part.count-absent-single",
                            "--strict")
        self.assertEqual((lenient.code, strict.code), (0, 1),
                         lenient.describe() + strict.describe())
        self.assertEqual(lenient.verdicts(), {"part.count-absent-single": "FAIL"})

    def test_unusable_stores_exit_2_with_the_reason(self):
        closed_port = harness.pick_free_port()
        unreachable = self.audit("unreachable", f"http://127.0.0.1:{closed_port}")
        self.assertEqual(unreachable.code, 2, unreachable.describe())
        self.assertIn(f"the store at http://127.0.0.1:{closed_port} cannot be audited",
                      unreachable.stderr)
        self.assertIn("connect", unreachable.stderr)
        wrong = AuditRun(self.tmp, "wrong-secret", ["--endpoint", self.origin.url, "--access-key",
                                                    self.store.access_key, "--secret-key", "nope"])
        self.assertEqual(wrong.code, 2, wrong.describe())
        self.assertIn("403", wrong.stderr)
        self.assertIn("SignatureDoesNotMatch", wrong.stderr)
        self.assertNotIn("nope", wrong.stderr + wrong.stdout, "the secret is never printed")
        nothing = self.audit("no-checks", self.origin.url, "--checks", "nothing.*")
        self.assertEqual(nothing.code, 2, nothing.describe())
        self.assertIn("--checks: no check matches 'nothing.*'", nothing.stderr)
        # One typo beside a known name is refused too, and the reports say why.
        typo = self.audit("typo", self.origin.url, "--checks", "part.status,part.stauts")
        self.assertEqual(typo.code, 2, typo.describe())
        self.assertIn("no check matches 'part.stauts' (nearest: part.status)", typo.stderr)
        self.assertEqual(typo.report["summary"]["exit_status"], 2)
        self.assertEqual(typo.report["checks"], [])
        self.assertEqual(len(typo.junit().getElementsByTagName("error")), 1)
        self.assert_no_buckets_left()

    def test_every_usage_mistake_is_reported_at_once_and_in_the_reports(self):
        """The checks, the keys and the endpoint are checked in one step: each mistake on a line of
        its own, all of them in the reports still written (exit 2)."""
        run = AuditRun(self.tmp, "mistakes", ["--endpoint", "ftp://127.0.0.1:1", "--access-key",
                                              "k", "--checks", "part.stauts"])
        self.assertEqual(run.code, 2, run.describe())
        mistakes = ["no check matches 'part.stauts' (nearest: part.status)",
                    "--access-key and --secret-key go together",
                    "--endpoint: 'ftp://127.0.0.1:1': must start with http:// or https://"]
        for mistake in mistakes:
            self.assertRegex(run.stderr, r"(?m)^s3fault audit: .*" + re.escape(mistake))
            self.assertIn(mistake, run.report["error"])
        self.assertEqual(run.report["summary"]["exit_status"], 2)
        self.assertEqual(len(run.junit().getElementsByTagName("error")), 1)

    def test_ctrl_c_stops_after_the_check_in_progress_and_cleans_up(self):
        self.stop_midway(signal.SIGINT)

    def test_sigterm_stops_the_same_way(self):
        self.stop_midway(signal.SIGTERM)

    def stop_midway(self, stop_signal):
        # Every GET waits 200 ms, so the audit is still early in its catalog when it is stopped.
        proxy = self.start_proxy("--fault", "delay 200ms op=GetObject")
        json_path = self.tmp / f"stopped-{stop_signal.name}.json"
        junit_path = self.tmp / f"stopped-{stop_signal.name}.xml"
        command = [str(harness.proxy_binary()), "audit", "--color", "never", "--endpoint",
                   proxy.url, *self.keys, "--json", str(json_path), "--junit", str(junit_path)]
        audit = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, stdin=subprocess.DEVNULL,
                                 env=harness.clean_client_env())
        self.addCleanup(lambda: audit.poll() is None and audit.kill())
        lines = []
        for line in audit.stdout:
            lines.append(line)
            if "part.status" in line:
                break
        audit.send_signal(stop_signal)
        rest, errors = audit.communicate(timeout=60)
        output = "".join(lines) + rest
        self.assertEqual(audit.returncode, 130, output + errors)
        self.assertRegex(output, r"interrupted: \d+ of \d+ checks ran")
        self.assertRegex(output, r"exit status 130: interrupted after \d+ of \d+ checks")
        self.assertNotIn("check passed", output)
        self.assert_no_buckets_left()
        report = json.loads(json_path.read_text())
        self.assertEqual(report["summary"]["exit_status"], 130, report["summary"])
        self.assertTrue(report["cut_off_checks"])
        self.assertEqual(len(report["checks"]) + len(report["cut_off_checks"]),
                         len(catalog_ids()))
        junit = xml.dom.minidom.parse(str(junit_path))
        interrupted = [e for e in junit.getElementsByTagName("error")
                       if e.getAttribute("type") == "INTERRUPTED"]
        self.assertEqual(len(interrupted), len(report["cut_off_checks"]) + 1)

    # --- the checks added with 304 headers, auth, versions, attributes, Complete retries -----

    def start_anonymous_origin(self) -> harness.ListeningProcess:
        """An origin that takes every request, signed or not (whatever the signature says)."""
        origin = harness.ListeningProcess("origin", ["--listen", "127.0.0.1:0", "--anonymous",
                                                     "--region", harness.ORIGIN_REGION],
                                          "anonymous-origin")
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        return origin

    def test_the_new_checks_that_need_no_new_origin_feature_pass(self):
        run = self.audit("new-checks", self.origin.url, "--checks",
                         "cond.*,auth.*,upload.complete-unknown-upload", "--strict")
        self.assertEqual(run.code, 0, run.describe())
        self.assertEqual(run.not_passed(), {}, run.describe())
        for id_ in ("cond.304-etag", "cond.head-304-etag", "cond.304-last-modified",
                    "cond.head-304-last-modified", "cond.put-if-none-match-star",
                    "auth.wrong-secret", "auth.anonymous", "auth.presign-expired",
                    "upload.complete-unknown-upload"):
            self.assertIn(id_, run.verdicts())
        self.assertNotIn(self.store.secret_key, run.stdout + run.stderr +
                         run.json_path.read_text(), "the secret is never printed")
        self.assert_no_buckets_left()

    def test_versions_attributes_and_complete_retry_pass_on_the_origin(self):
        # Needs the origin's versioning, GetObjectAttributes and 200 on a Complete retry.
        run = self.audit("origin-features", self.origin.url, "--checks",
                         "version.*,attrs.*,upload.*", "--strict")
        self.assertEqual(run.verdicts(), {
            "attrs.parts-agree": "PASS", "attrs.parts-pagination": "PASS",
            "version.get-older": "PASS", "version.part-read": "PASS",
            "version.range-read": "PASS", "version.delete-marker": "PASS",
            "upload.complete-retry": "PASS", "upload.complete-unknown-upload": "PASS"},
            run.describe())
        self.assertEqual(run.code, 0, run.describe())
        self.assert_no_buckets_left()

    def test_a_304_without_etag_fails_exactly_the_304_etag_checks(self):
        proxy = self.start_proxy("--fault", "strip-header ETag status=304")
        run = self.audit("304-no-etag", proxy.url, "--checks", "cond.*,etag.*,agree.*")
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.not_passed(), {"cond.304-etag": "FAIL",
                                            "cond.head-304-etag": "FAIL"}, run.describe())
        check = next(c for c in run.report["checks"] if c["id"] == "cond.304-etag")
        unmet = [e for e in check["expectations"] if not e["met"]]
        # If-None-Match and If-Modified-Since: both 304s lack it.
        self.assertEqual(len(unmet), 2, check)
        for point in unmet:
            self.assertIn("no ETag", point["observed"])

    def test_a_304_without_last_modified_fails_the_should_checks(self):
        proxy = self.start_proxy("--fault", "strip-header Last-Modified status=304")
        lenient = self.audit("304-no-date", proxy.url, "--checks", "cond.*")
        self.assertEqual(lenient.code, 0, lenient.describe())
        self.assertEqual(lenient.not_passed(), {"cond.304-last-modified": "FAIL",
                                                "cond.head-304-last-modified": "FAIL"},
                         lenient.describe())
        strict = self.audit("304-no-date-strict", proxy.url, "--checks", "cond.*", "--strict")
        self.assertEqual(strict.code, 1, strict.describe())

    def test_a_last_modified_that_is_not_an_imf_fixdate_fails_its_check(self):
        # HEAD's Last-Modified replaced: an ISO date, a date in the future, a weekday that is
        # not the date's, the obsolete RFC 850 form. Each fails agree.last-modified alone.
        for name, value in (("iso", "2026-12-06T05:00:00Z"),
                            ("future", "Fri, 01 Jan 2100 00:00:00 GMT"),
                            ("weekday", "Mon, 06 Nov 1994 08:49:37 GMT"),
                            ("rfc850", "Sunday, 06-Nov-94 08:49:37 GMT")):
            with self.subTest(name=name):
                proxy = self.start_proxy("--fault", f"set-header Last-Modified '{value}' "
                                                    "op=HeadObject")
                run = self.audit(f"last-modified-{name}", proxy.url, "--checks",
                                 "agree.last-modified")
                self.assertEqual(run.not_passed(), {"agree.last-modified": "FAIL"},
                                 run.describe())
                self.assertIn(value, json.dumps(run.report))

    def test_a_store_that_accepts_any_signature_fails_the_auth_checks(self):
        origin = self.start_anonymous_origin()
        run = self.audit("accepts-anything", origin.url, "--checks", "auth.*")
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.not_passed(), {"auth.wrong-secret": "FAIL", "auth.anonymous": "FAIL",
                                            "auth.presign-expired": "FAIL"}, run.describe())
        self.assertIn("3 MUST checks not met: auth.wrong-secret, auth.anonymous, "
                      "auth.presign-expired", run.stdout)
        for check in run.report["checks"]:
            observed = [e["observed"] for e in check["expectations"] if not e["met"]]
            self.assertTrue(any("status 200" in o for o in observed), check)

    def test_an_anonymous_audit_skips_the_auth_checks(self):
        origin = self.start_anonymous_origin()
        run = AuditRun(self.tmp, "anonymous", ["--endpoint", origin.url, "--anonymous",
                                               "--checks", "auth.*,part.count-header"])
        self.assertEqual(run.code, 0, run.describe())
        self.assertEqual(run.verdicts(), {"part.count-header": "PASS", "auth.wrong-secret": "SKIP",
                                          "auth.anonymous": "SKIP",
                                          "auth.presign-expired": "SKIP"}, run.describe())
        for check in run.report["checks"]:
            if check["id"].startswith("auth."):
                self.assertIn("without credentials", check["reason"])

    def test_a_put_that_ignores_if_none_match_fails_the_may_check(self):
        # The 412 the origin answers turned into a 200: what a store ignoring the header says.
        proxy = self.start_proxy("--fault", "set-status 200 op=PutObject status=412")
        run = self.audit("put-overwrites", proxy.url, "--checks", "cond.*")
        self.assertEqual(run.code, 0, run.describe())  # MAY: never decides the exit status
        self.assertEqual(run.not_passed(), {"cond.put-if-none-match-star": "FAIL"},
                         run.describe())
        strict = self.audit("put-overwrites-strict", proxy.url, "--checks",
                            "cond.put-if-none-match-star", "--strict")
        self.assertEqual(strict.code, 0, strict.describe())

    def test_complete_of_an_unknown_upload_answering_400_fails(self):
        proxy = self.start_proxy(
            "--fault", "error InvalidRequest 400 op=CompleteMultipartUpload "
                       "key=*complete-unknown-upload")
        run = self.audit("unknown-upload", proxy.url, "--checks", "upload.complete-unknown-upload")
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.verdicts(), {"upload.complete-unknown-upload": "FAIL"})

    def test_a_complete_retry_answering_no_such_upload_fails(self):
        # The first Complete goes through; the retry gets what a store that forgot it answers.
        proxy = self.start_proxy(
            "--fault", "error NoSuchUpload 404 op=CompleteMultipartUpload key=*complete-retry "
                       "skip=1")
        run = self.audit("complete-retry", proxy.url, "--checks", "upload.complete-retry",
                         "--strict")
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.verdicts(), {"upload.complete-retry": "FAIL"})
        check = run.report["checks"][0]
        observed = [e["observed"] for e in check["expectations"] if not e["met"]]
        self.assertIn("the retried Complete: status 404 NoSuchUpload", observed, check)

    def test_versioned_reads_without_version_ids_fail(self):
        proxy = self.start_proxy("--fault", "strip-header x-amz-version-id query=versionId")
        run = self.audit("no-version-id", proxy.url, "--checks", "version.*")
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.not_passed(), {"version.get-older": "FAIL",
                                            "version.part-read": "FAIL",
                                            "version.range-read": "FAIL"}, run.describe())
        self.assert_no_buckets_left()

    def test_a_complete_without_a_version_id_fails_every_versioned_read(self):
        # A store that versions PUTs but does not say which version a Complete made (Swift's
        # s3api): every version.* check fails, none SKIPs, and the reads are still judged.
        proxy = self.start_proxy("--fault",
                                 "strip-header x-amz-version-id op=CompleteMultipartUpload")
        run = self.audit("complete-no-version-id", proxy.url, "--checks", "version.*")
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.not_passed(), {"version.get-older": "FAIL",
                                            "version.part-read": "FAIL",
                                            "version.range-read": "FAIL",
                                            "version.delete-marker": "FAIL"}, run.describe())
        self.assertIn("no x-amz-version-id on the Complete", run.stdout)
        self.assert_no_buckets_left()

    def test_a_delete_marker_not_announced_fails(self):
        proxy = self.start_proxy("--fault",
                                 "strip-header x-amz-delete-marker method=GET,HEAD status=404")
        run = self.audit("no-delete-marker", proxy.url, "--checks", "version.*")
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.not_passed(), {"version.delete-marker": "FAIL"}, run.describe())
        self.assert_no_buckets_left()

    def test_attributes_disagreeing_with_part_reads_fail(self):
        proxy = self.start_proxy("--fault", "set-header x-amz-mp-parts-count 3 "
                                            "key=*attributes-multipart query=partNumber")
        run = self.audit("attrs-disagree", proxy.url, "--checks", "attrs.*")
        self.assertEqual(run.code, 1, run.describe())
        self.assertEqual(run.not_passed(), {"attrs.parts-agree": "FAIL"}, run.describe())

    def test_a_bad_endpoint_is_named_in_the_reports_it_still_writes(self):
        run = AuditRun(self.tmp, "bad-endpoint", ["--endpoint", "http://127.0.0.1:1/bucket"])
        self.assertEqual(run.code, 2, run.describe())
        why = "--endpoint: 'http://127.0.0.1:1/bucket': must not have a path"
        self.assertIn(why, run.stderr)
        errors = run.junit().getElementsByTagName("error")
        self.assertEqual(len(errors), 1, run.describe())
        self.assertIn(why, errors[0].getAttribute("message"))
        self.assertIn(why, json.dumps(run.report))

    def test_no_endpoint_audits_an_embedded_origin(self):
        # With the keys and region of a store of the user's in the environment, which the
        # embedded origin would refuse: it is audited with its own.
        run = AuditRun(self.tmp, "embedded", [], env=USERS_STORE_ENVIRONMENT)
        self.assertEqual(run.code, 0, run.describe())
        self.assertIn("no --endpoint: auditing the embedded origin at http://127.0.0.1:",
                      run.stdout)
        self.assertEqual(run.not_passed(), {})


class AuditStoreTest(unittest.TestCase):
    """A real store: the audit runs every check to a verdict and cleans up after itself."""

    def test_audit_runs_to_completion(self):
        store = harness.store_under_test()
        tmp = harness.scratch_root() / harness.unique_bucket_name("audit")
        tmp.mkdir(parents=True)
        run = AuditRun(tmp, store.name, ["--endpoint", store.endpoint, "--access-key",
                                         store.access_key, "--secret-key", store.secret_key,
                                         "--region", store.region])
        self.assertIn(run.code, (0, 1), run.describe())
        self.assertEqual(list(run.verdicts()), catalog_ids(), run.describe())
        errors = {id_: v for id_, v in run.verdicts().items() if v == "ERROR"}
        self.assertEqual(errors, {}, run.describe())
        self.assertEqual(run.code, run.report["summary"]["exit_status"])
        totals = run.report["summary"]
        self.assertIn(f"{totals['passed']} passed, {totals['failed']} failed", run.stdout)
        run.junit()  # parses
        bucket = run.report["bucket"]
        client = harness.boto3_client(store.endpoint, store)
        names = [b["Name"] for b in client.list_buckets()["Buckets"]]
        self.assertNotIn(bucket, names, "the audit left its bucket behind")
        print(f"{store.name}: {totals}", file=sys.stderr)


if __name__ == "__main__":
    if os.environ.get("S3FAULT_STORE_ENV"):
        unittest.main(defaultTest="AuditStoreTest")
    else:
        unittest.main(argv=sys.argv[:1] + (sys.argv[1:] or ["AuditOriginTest"]))
