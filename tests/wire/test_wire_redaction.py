"""Presigned-URL credentials stay out of everything the proxy writes, however the client spells
their names: SigV4 percent-decodes query names (X%2DAmz%2DSignature, %58-Amz-Signature and
X-Amz%2dSignature are all X-Amz-Signature to it), so the log (text and JSON), the journal and
the HAR made from the journal redact them as they do the plain names."""

from __future__ import annotations

import json
import subprocess
import tempfile
import unittest
from pathlib import Path

from wire import answer_every_request, s3fault_binary, start_store_and_proxy

OK_EMPTY = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
SECRETS = ["sig0secret", "cred0secret", "token0secret", "v2sig0secret", "v2key0secret"]
# Every spelling SigV4 takes for a name (any byte escaped, either case of hex digits), a value
# with '+' and %20 in it, and SigV2's names.
PRESIGNED_TARGETS = [
    "/b/k?X%2DAmz%2DSignature=sig0secret&X-Amz%2dCredential=cred0secret%2F20261129",
    "/b/k?%58-Amz-Security-Token=token0secret+more%20here&partNumber=1",
    "/b/k?X-Amz-Signatur%65=sig0secret&x%2damz%2dcredential=cred0secret",
    "/b/k?%53ignature=v2sig0secret&AWSAccessKey%49d=v2key0secret&Expires=1",
]


class RedactionTest(unittest.TestCase):
    def run_traffic(self, *log_args: str) -> tuple[str, Path]:
        """Sends every presigned target through a proxy with a journal; its log and journal."""
        journal = Path(tempfile.mkdtemp(prefix="s3fault-redaction-")) / "journal.jsonl"
        _, proxy = start_store_and_proxy(self, answer_every_request(OK_EMPTY), "--journal",
                                         str(journal), *log_args)
        client = proxy.connect()
        for target in PRESIGNED_TARGETS:
            client.send(f"GET {target} HTTP/1.1\r\nHost: h\r\n\r\n".encode())
            self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))
        client.close()
        self.assertTrue(proxy.wait_for_log("partNumber=1"), proxy.log)
        self.assertEqual(proxy.stop(), 0)
        return "".join(proxy.log), journal

    def assert_no_secret(self, where: str, text: str) -> None:
        for secret in SECRETS:
            self.assertNotIn(secret, text, f"{where} gives {secret} away")

    def test_text_log_journal_and_har_redact_every_spelling(self):
        log, journal = self.run_traffic()
        self.assert_no_secret("the text log", log)
        self.assert_no_secret("the journal", journal.read_text())
        har = subprocess.run([s3fault_binary(), "journal", "to-har", str(journal)],
                             capture_output=True, text=True, timeout=30, check=True).stdout
        self.assert_no_secret("the HAR", har)
        names = [q["name"] for e in json.loads(har)["log"]["entries"]
                 for q in e["request"]["queryString"] if q["value"] == "REDACTED"]
        self.assertEqual(sorted(set(names)), ["AWSAccessKeyId", "Signature", "X-Amz-Credential",
                                              "X-Amz-Security-Token", "X-Amz-Signature",
                                              "x-amz-credential"])

    def test_json_log_redacts_every_spelling(self):
        log, _ = self.run_traffic("--log-format", "json")
        self.assert_no_secret("the JSON log", log)


if __name__ == "__main__":
    unittest.main()
