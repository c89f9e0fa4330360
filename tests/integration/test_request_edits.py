"""Request-head actions against `s3fault origin`, which verifies every SigV4 signature: the proxy
edits what the store is sent and signs it again with --resign-access-key/--resign-secret-key.

    aws cli ──signed──> s3fault proxy ──edited, signed again──> s3fault origin

- `strip-query partNumber`: `aws s3api get-object --part-number 1` of a 2-part object gets the
  whole object with status 200, as from a store that ignores partNumber (Ceph RGW 16). Without
  the keys the edit is not sent (the signature covers the query): the reader gets part 1, the
  rule does not count, and the proxy says why.
- `resign`: a client with a wrong secret is let in, as by a store that accepts any signature
  (s3rver 3.7); without the rule the origin answers 403.
- `head-as-get`: `aws s3api head-object --range bytes=0-9` gets the head of the ranged GET
  (Content-Length 10), as from Ceph RGW 16 or s3rver; the origin verified the GET's signature.
"""

import dataclasses
import json
import os
import re
import subprocess
from unittest import mock

import harness
from harness import MIB

PART_SIZE = 5 * MIB
OBJECT_SIZE = 7 * MIB  # two parts: 5 MiB + 2 MiB
KEY = "edits/object.bin"


class RequestEditsTest(harness.OriginTestCase):
    def setUp(self):
        super().setUp()
        self.origin = self.start_origin()
        self.bucket = self.new_bucket_name("edits", self.origin)
        self.source = self.tmp / "source.bin"
        self.source_sha = harness.make_random_file(self.source, OBJECT_SIZE)
        cli = harness.AwsCli(self.origin.endpoint, self.origin, self.tmp / "aws-direct",
                             multipart_mib=5)
        cli.run("s3", "mb", f"s3://{self.bucket}")
        cli.run("s3", "cp", "--only-show-errors", str(self.source), f"s3://{self.bucket}/{KEY}")

    def proxy_with(self, *rules: str, resign: bool = True) -> harness.ProxyProcess:
        args = [arg for rule in rules for arg in ("--fault", rule)]
        if resign:
            args += ["--resign-access-key", self.origin.access_key,
                     "--resign-secret-key", self.origin.secret_key]
        return self.start_proxy(self.origin, args)

    def cli_through(self, proxy: harness.ProxyProcess, name: str,
                    secret_key: str = None) -> harness.AwsCli:
        store = dataclasses.replace(self.origin, endpoint=proxy.url,
                                    secret_key=secret_key or self.origin.secret_key)
        return harness.AwsCli(proxy.url, store, self.tmp / name, multipart_mib=5)

    def get_part_one(self, cli: harness.AwsCli, out_name: str, check: bool = True):
        out = self.tmp / out_name
        result = cli.run("s3api", "get-object", "--bucket", self.bucket, "--key", KEY,
                         "--part-number", "1", str(out), check=check)
        return result, out

    def log_lines(self, proxy: harness.ProxyProcess, text: str) -> list[str]:
        return [line for line in proxy.wait_for_log(text).splitlines() if text in line]

    def exchange_lines(self, proxy: harness.ProxyProcess, text: str) -> list[str]:
        """The exchange log lines (level info) that mention `text`."""
        return [line for line in self.log_lines(proxy, text) if " info " in line]

    def test_strip_query_part_number_serves_the_whole_object_with_a_valid_signature(self):
        proxy = self.proxy_with("strip-query partNumber op=GetObject name=ignore-part-number")
        result, out = self.get_part_one(self.cli_through(proxy, "aws-proxy"), "whole.bin")
        answer = json.loads(result.stdout)
        self.assertEqual(answer["ContentLength"], OBJECT_SIZE, answer)
        self.assertNotIn("PartsCount", answer)
        self.assertNotIn("ContentRange", answer)
        self.assertEqual(harness.sha256_file(out), self.source_sha)
        # The proxy's log line: the store answered 200 and the rule injected.
        lines = self.exchange_lines(proxy, "partNumber=1")
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r" 200 ")
        self.assertIn("faults=ignore-part-number:strip-query", lines[0])

    def test_without_keys_the_signed_edit_is_not_sent_and_not_counted(self):
        proxy = self.proxy_with("strip-query partNumber op=GetObject name=ignore-part-number",
                                resign=False)
        result, out = self.get_part_one(self.cli_through(proxy, "aws-nokeys"), "part.bin")
        answer = json.loads(result.stdout)
        self.assertEqual(answer["ContentLength"], PART_SIZE, answer)
        self.assertEqual(answer["PartsCount"], 2, answer)
        self.assertEqual(out.read_bytes(), self.source.read_bytes()[:PART_SIZE])
        lines = self.exchange_lines(proxy, "partNumber=1")
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r" 206 ")
        self.assertNotIn("faults=", lines[0])
        self.assertTrue(self.log_lines(proxy, "request edit not applied: the edit changes what "
                                              "the request's signature covers"),
                        proxy.describe_stderr())
        self.assertTrue(self.log_lines(proxy, "'strip-query' edits requests, and without "
                                              "--resign-access-key"), proxy.describe_stderr())

    def test_resign_lets_a_wrong_secret_in_and_without_it_the_origin_refuses(self):
        wrong = "0" * 32
        plain = self.start_proxy(self.origin)
        refused, _ = self.get_part_one(self.cli_through(plain, "aws-wrong", wrong), "refused.bin",
                                       check=False)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("SignatureDoesNotMatch", refused.stderr)

        proxy = self.proxy_with("resign name=any-signature")
        result, out = self.get_part_one(self.cli_through(proxy, "aws-resigned", wrong),
                                        "resigned.bin")
        self.assertEqual(json.loads(result.stdout)["ContentLength"], PART_SIZE)
        self.assertEqual(out.read_bytes(), self.source.read_bytes()[:PART_SIZE])
        self.assertTrue(self.log_lines(proxy, "faults=any-signature:resign"))

    def test_the_resign_secret_comes_from_the_environment_unless_given(self):
        """$S3FAULT_RESIGN_SECRET_KEY (CLI11's envname) stands in for --resign-secret-key: the
        proxy signs with it; the option, when given, wins; and a secret there without
        --resign-access-key is refused as the option would be."""
        wrong = "0" * 32
        resign = ["--fault", "resign name=any-signature",
                  "--resign-access-key", self.origin.access_key]
        with mock.patch.dict(os.environ, {"S3FAULT_RESIGN_SECRET_KEY": self.origin.secret_key}):
            from_env = self.start_proxy(self.origin, resign)
        result, out = self.get_part_one(self.cli_through(from_env, "aws-env", wrong), "env.bin")
        self.assertEqual(json.loads(result.stdout)["ContentLength"], PART_SIZE)
        self.assertEqual(out.read_bytes(), self.source.read_bytes()[:PART_SIZE])

        with mock.patch.dict(os.environ, {"S3FAULT_RESIGN_SECRET_KEY": "not-the-secret"}):
            given = self.start_proxy(self.origin, resign + ["--resign-secret-key",
                                                            self.origin.secret_key])
        result, _ = self.get_part_one(self.cli_through(given, "aws-given", wrong), "given.bin")
        self.assertEqual(json.loads(result.stdout)["ContentLength"], PART_SIZE)

        alone = subprocess.run(
            [str(harness.proxy_binary()), "proxy", "--listen", "127.0.0.1:0", "--upstream",
             self.origin.endpoint], capture_output=True, text=True, timeout=30,
            stdin=subprocess.DEVNULL, env={**os.environ, "S3FAULT_RESIGN_SECRET_KEY": "s"})
        self.assertEqual(alone.returncode, 2, alone.stderr)
        self.assertIn("--resign-access-key and --resign-secret-key (or "
                      "$S3FAULT_RESIGN_SECRET_KEY) go together", alone.stderr)

    def test_head_as_get_answers_a_ranged_head_as_the_ranged_get_with_a_valid_signature(self):
        proxy = self.proxy_with("head-as-get op=HeadObject header=range name=ranged-head")
        cli = self.cli_through(proxy, "aws-head")
        result = cli.run("s3api", "head-object", "--bucket", self.bucket, "--key", KEY,
                         "--range", "bytes=0-9")
        self.assertEqual(json.loads(result.stdout)["ContentLength"], 10, result.stdout)
        lines = self.exchange_lines(proxy, "faults=ranged-head:head-as-get")
        self.assertEqual(len(lines), 1, proxy.describe_stderr())
        self.assertRegex(lines[0], r"HEAD \S+ 206 .* out=0 ")
        # Without a Range the HEAD is the origin's own: the whole length.
        whole = cli.run("s3api", "head-object", "--bucket", self.bucket, "--key", KEY)
        self.assertEqual(json.loads(whole.stdout)["ContentLength"], OBJECT_SIZE)

    def test_the_resign_secret_is_never_logged(self):
        proxy = self.proxy_with("resign")
        self.get_part_one(self.cli_through(proxy, "aws-secret"), "secret.bin")
        log = proxy.wait_for_log("partNumber=1")
        self.assertNotIn(self.origin.secret_key, log)
        self.assertNotIn(self.origin.secret_key, "\n".join(proxy.stdout_lines))


if __name__ == "__main__":
    harness.main()
