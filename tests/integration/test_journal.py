"""--journal FILE: one JSON line per exchange, read back byte for byte from the file the proxy
wrote. Real boto3 traffic (signed, so with an Authorization field to redact) through a proxy
with a fault; the line of each exchange must carry what the client saw on the wire: its
status, the x-amz-request-id it got, the S3 error code of its error body, the bytes, the
faults applied. Rotation must keep every line whole and lose none. The log lines name the
operation, the request id, and the bucket of a virtual-hosted request."""

import http.client
import json
import re
import subprocess
import unittest
import urllib.parse
from pathlib import Path

import botocore.exceptions

import harness

SECRET_MARKERS = ("Signature=", "Credential=")


class JournalTest(unittest.TestCase):
    def setUp(self):
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)
        self.store = self.origin.store()
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("journal")
        self.tmp.mkdir(parents=True)
        self.journal = self.tmp / "s3.jsonl"

    def start_proxy(self, *extra: str) -> harness.ProxyProcess:
        proxy = harness.ProxyProcess(self.origin.url, [
            "--journal", str(self.journal), "--s3-domain", "localhost",
            "--fault", "error SlowDown op=GetObject key=slow first=1 name=slow", *extra])
        proxy.start()
        return proxy

    def stop(self, proxy: harness.ProxyProcess) -> None:
        self.assertEqual(proxy.stop(), 0, "proxy exit code")

    def lines(self, *paths: Path) -> list[dict]:
        out = []
        for path in paths:
            for number, text in enumerate(path.read_text().splitlines(), 1):
                try:
                    out.append(json.loads(text))
                except json.JSONDecodeError as error:
                    self.fail(f"{path}:{number} is not one JSON object ({error}): {text[:200]}")
        return out

    def test_each_line_is_what_the_client_saw(self):
        proxy = self.start_proxy()
        client = harness.boto3_client(proxy.url, self.store)
        bucket = harness.unique_bucket_name("journal")
        client.create_bucket(Bucket=bucket)
        put = client.put_object(Bucket=bucket, Key="obj", Body=b"x" * 1000)
        got = client.get_object(Bucket=bucket, Key="obj", Range="bytes=10-109")
        self.assertEqual(len(got["Body"].read()), 100)
        with self.assertRaises(botocore.exceptions.ClientError) as missing:
            client.get_object(Bucket=bucket, Key="nope")
        with self.assertRaises(botocore.exceptions.ClientError) as slow:
            client.get_object(Bucket=bucket, Key="slow")
        # Virtual-hosted and unsigned: the store refuses it with its own error document.
        netloc = urllib.parse.urlsplit(proxy.url).netloc
        connection = http.client.HTTPConnection(netloc, timeout=30)
        connection.request("GET", "/vobj", headers={"Host": f"{bucket}.localhost"})
        anonymous = connection.getresponse()
        anonymous_body = anonymous.read()
        connection.close()
        self.stop(proxy)

        lines = self.lines(self.journal)
        self.assertEqual([(l["method"], l["operation"]) for l in lines], [
            ("PUT", "CreateBucket"), ("PUT", "PutObject"), ("GET", "GetObject"),
            ("GET", "GetObject"), ("GET", "GetObject"), ("GET", "GetObject")])
        create, put_line, ranged, nosuch, slowed, virtual = lines
        meta = lambda response: response["ResponseMetadata"]
        self.assertEqual((put_line["status"], put_line["bucket"], put_line["key"],
                          put_line["request_bytes"], put_line["request_id"]),
                         (200, bucket, "obj", 1000, meta(put)["RequestId"]))
        self.assertEqual((ranged["status"], ranged["range"], ranged["response_bytes"],
                          ranged["request_id"]),
                         (206, "bytes=10-109", 100, meta(got)["RequestId"]))
        self.assertGreaterEqual(ranged["duration_ms"], ranged["ttfb_ms"])
        # The store's part of the wait: its head came before the client's first byte left.
        self.assertLessEqual(ranged["store_ttfb_ms"], ranged["ttfb_ms"])
        self.assertEqual((nosuch["status"], nosuch["error_code"], nosuch["request_id"]),
                         (404, "NoSuchKey", meta(missing.exception.response)["RequestId"]))
        self.assertEqual((slowed["status"], slowed["error_code"], slowed["faults"],
                          slowed["request_id"]),
                         (503, "SlowDown", "slow:error",
                          meta(slow.exception.response)["RequestId"]))
        self.assertGreaterEqual(slowed["ttfb_ms"], 0, "the proxy answered: a first byte")
        self.assertNotIn("store_ttfb_ms", slowed, "the proxy answered: no store head")
        code = re.search(rb"<Code>([^<]+)</Code>", anonymous_body).group(1).decode()
        self.assertEqual((virtual["status"], virtual["bucket"], virtual["key"],
                          virtual["error_code"], virtual["request_id"]),
                         (anonymous.status, bucket, "vobj", code,
                          anonymous.getheader("x-amz-request-id")))
        self.assertTrue(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", create["time"]))

        for line in lines[:-1]:
            fields = dict((name.lower(), value) for name, value in line["request_headers"])
            self.assertEqual(fields["authorization"], "REDACTED")
            self.assertIn("x-amz-date", fields)
        raw = self.journal.read_text()
        self.assertNotIn(self.store.secret_key, raw)
        for marker in SECRET_MARKERS:
            self.assertNotIn(marker, raw)

        log = Path(proxy.log_path).read_text()
        self.assertRegex(log, rf"GET /{bucket}/obj 206 op=GetObject in=0 out=100 .* id="
                              + re.escape(meta(got)["RequestId"]))
        self.assertRegex(log, r"GET /vobj \d+ op=GetObject bucket=" + re.escape(bucket) + " ")

    def test_rotation_keeps_every_line_whole(self):
        proxy = self.start_proxy("--journal-max-size", "8KiB", "--journal-files", "50")
        client = harness.boto3_client(proxy.url, self.store)
        bucket = harness.unique_bucket_name("journal-rot")
        client.create_bucket(Bucket=bucket)
        requests = 1 + 120
        # No empty body: botocore's Expect: 100-continue after a zero-length PUT stalls the
        # next PUT on that connection for 60 s (boto/botocore#3755), whatever the store.
        for i in range(120):
            client.put_object(Bucket=bucket, Key=f"k{i:03}", Body=b"z" * (i + 1))
        self.stop(proxy)

        rotated = sorted(self.tmp.glob("s3.*.jsonl"), key=lambda p: -int(p.name.split(".")[1]))
        self.assertGreater(len(rotated), 3, "120 lines of ~700 bytes in 8 KiB files")
        files = [*rotated, self.journal]
        for path in files:
            self.assertLessEqual(path.stat().st_size, 8 * 1024, path)
        lines = self.lines(*files)
        self.assertEqual(len(lines), requests)
        keys = [l.get("key") for l in lines if l["operation"] == "PutObject"]
        self.assertEqual(keys, [f"k{i:03}" for i in range(120)], "every line, oldest first")
        self.assertEqual([l["request_bytes"] for l in lines[1:]], list(range(1, 121)))

    def test_a_journal_that_cannot_be_opened_is_refused_before_listening(self):
        blocker = self.tmp / "a-file"
        blocker.write_text("not a directory")
        target = blocker / "j.jsonl"
        run = subprocess.run([str(harness.proxy_binary()), "proxy", "--listen", "127.0.0.1:0",
                              "--upstream", self.origin.url, "--journal", str(target)],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertEqual(run.stdout, "", "nothing listened")
        self.assertIn(f"--journal {target}: cannot open it", run.stderr)

if __name__ == "__main__":
    unittest.main()
