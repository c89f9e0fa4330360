"""The proxy survives an upstream that is down, answers S3-style 502s meanwhile, and serves
requests again once the upstream comes up on the same address; and it copes with the store
closing idle pooled connections.

The test owns its upstream: a private s3rver started (tests/stores/start-s3rver.sh) on a port
the proxy was already pointed at, and stopped by its PID.

    phase 1: nothing on the port      -> 502 + <Error><Code>..</Code>..</Error>, proxy alive
    phase 2: s3rver starts on the port -> same proxy process: create/put/get succeed
    phase 3: s3rver stopped again      -> 502 again, proxy alive
"""

import hashlib
import http.client
import os
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

import botocore.exceptions

import harness


def raw_request(url: str, method: str, path: str, body: bytes = b"", timeout: float = 30):
    """(status, headers, body) of one plain HTTP request, no client library in between."""
    netloc = urllib.parse.urlsplit(url).netloc
    host, port = netloc.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        connection.request(method, path, body=body or None,
                           headers={"Content-Length": str(len(body))} if body else {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


class UpstreamDownTest(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="s3f-upstream-down-", dir=harness.scratch_root())
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)
        self.port = harness.pick_free_port()
        self.upstream = f"http://127.0.0.1:{self.port}"
        self.proxy = harness.ProxyProcess(self.upstream, name="proxy-upstream-down")
        self.proxy.start()
        self.addCleanup(self.stop_proxy_and_check)
        # Credentials s3rver accepts; the requests of phase 1 never reach a store anyway.
        self.credentials = harness.Store("s3rver", self.upstream, "S3RVER", "S3RVER",
                                         "us-east-1", ())
        self.client = harness.boto3_client(self.proxy.url, self.credentials)

    def stop_proxy_and_check(self):
        was_alive = self.proxy.alive()
        code = self.proxy.stop()
        self.assertTrue(was_alive, f"proxy had exited ({code}) before the end\n"
                                   f"{self.proxy.describe_stderr()}")
        self.assertEqual(code, 0, f"proxy exit code on SIGTERM\n{self.proxy.describe_stderr()}")

    def assert_alive(self):
        self.assertTrue(self.proxy.alive(), f"proxy died\n{self.proxy.describe_stderr()}")

    def assert_s3_error_502(self, status, headers, body, what):
        self.assertEqual(status, 502, f"{what}: status {status}, body {body[:500]!r}")
        self.assertIn("xml", headers.get("content-type", ""),
                      f"{what}: Content-Type {headers.get('content-type')!r} is not XML")
        try:
            root = ET.fromstring(body)
        except ET.ParseError as e:
            self.fail(f"{what}: body is not XML ({e}): {body[:500]!r}")
        self.assertEqual(root.tag, "Error", f"{what}: root element {root.tag!r}: {body[:500]!r}")
        code = root.findtext("Code")
        self.assertTrue(code and code.strip(), f"{what}: no <Code> in {body[:500]!r}")
        self.assertIsNotNone(root.find("Message"), f"{what}: no <Message> in {body[:500]!r}")
        if "content-length" in headers:
            self.assertEqual(int(headers["content-length"]), len(body))

    def assert_boto3_sees_502(self, what):
        with self.assertRaises(botocore.exceptions.ClientError) as ctx:
            self.client.get_object(Bucket="some-bucket", Key="some/key")
        response = ctx.exception.response
        self.assertEqual(response["ResponseMetadata"]["HTTPStatusCode"], 502, what)
        self.assertTrue(response.get("Error", {}).get("Code"), f"{what}: no error code parsed")

    def test_502_while_down_then_recovers_on_same_port(self):
        # --- phase 1: nothing listens upstream ---
        self.assertTrue(harness.port_is_free(self.port))
        status, headers, body = raw_request(self.proxy.url, "GET", "/some-bucket/some/key")
        self.assert_s3_error_502(status, headers, body, "raw GET, upstream down")
        self.assert_alive()

        status, headers, body = raw_request(self.proxy.url, "PUT", "/some-bucket/put-key",
                                            body=os.urandom(100_000))
        self.assert_s3_error_502(status, headers, body, "raw PUT with 100 kB body, upstream down")
        self.assert_alive()

        self.assert_boto3_sees_502("boto3 GetObject, upstream down")
        self.assert_alive()

        # --- phase 2: the upstream comes up on exactly that port ---
        s3rver = harness.PrivateS3rver(self.tmp / "s3rver", self.port)
        s3rver.start()
        self.addCleanup(s3rver.stop)
        self.assert_alive()

        bucket = harness.unique_bucket_name("upstream-down")
        payload = os.urandom(300_000)
        self.client.create_bucket(Bucket=bucket)
        self.client.put_object(Bucket=bucket, Key="back.bin", Body=payload)
        got = self.client.get_object(Bucket=bucket, Key="back.bin")["Body"].read()
        self.assertEqual(hashlib.sha256(got).hexdigest(), hashlib.sha256(payload).hexdigest())
        direct = harness.boto3_client(s3rver.store.endpoint, s3rver.store)
        self.assertEqual(direct.head_object(Bucket=bucket, Key="back.bin")["ContentLength"],
                         len(payload))
        harness.delete_bucket_fully(direct, bucket)
        self.assert_alive()

        # --- phase 3: the upstream goes away again (connections the proxy may keep are dead) ---
        s3rver.stop()
        status, headers, body = raw_request(self.proxy.url, "GET", f"/{bucket}/back.bin")
        self.assert_s3_error_502(status, headers, body, "raw GET after upstream stopped again")
        self.assert_boto3_sees_502("boto3 GetObject after upstream stopped again")
        self.assert_alive()


class StoreClosesIdleConnectionTest(unittest.TestCase):
    """s3rver closes idle keep-alive connections after 5 s. A proxy that pools upstream
    connections must notice that, not relay the dead connection's error to the client."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="s3f-idle-close-", dir=harness.scratch_root())
        self.addCleanup(tmp.cleanup)
        self.s3rver = harness.PrivateS3rver(Path(tmp.name) / "s3rver", harness.pick_free_port())
        store = self.s3rver.start()
        self.addCleanup(self.s3rver.stop)
        self.proxy = harness.ProxyProcess(store.endpoint, name="proxy-idle-close")
        self.proxy.start()
        self.addCleanup(self.stop_proxy_and_check)
        self.client = harness.boto3_client(self.proxy.url, store)

    def stop_proxy_and_check(self):
        code = self.proxy.stop()
        self.assertEqual(code, 0, f"proxy exit code on SIGTERM\n{self.proxy.describe_stderr()}")

    def established_to_store(self) -> str:
        """The proxy's ESTABLISHED connections to the store (only the proxy talks to it)."""
        return subprocess.run(
            ["ss", "-Htn", "state", "established", f"( dport = :{self.s3rver.port} )"],
            capture_output=True, text=True, check=True).stdout.strip()

    def test_requests_after_store_closed_idle_connection(self):
        bucket = harness.unique_bucket_name("idle-close")
        self.client.create_bucket(Bucket=bucket)
        self.addCleanup(harness.delete_bucket_fully, self.client, bucket)
        self.client.put_object(Bucket=bucket, Key="first", Body=b"first")

        # Wait (bounded) until the store has closed the idle upstream connection, or the proxy
        # dropped it itself: then no connection to the store is ESTABLISHED any more.
        deadline = time.monotonic() + 20
        while self.established_to_store() and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertEqual(self.established_to_store(), "",
                         "store did not close the idle connection within 20 s")

        # A non-idempotent PUT first: it must not be lost on the dead connection.
        payload = os.urandom(200_000)
        self.client.put_object(Bucket=bucket, Key="second", Body=payload)
        got = self.client.get_object(Bucket=bucket, Key="second")["Body"].read()
        self.assertEqual(hashlib.sha256(got).digest(), hashlib.sha256(payload).digest())
        self.assertTrue(self.proxy.alive(), self.proxy.describe_stderr())


if __name__ == "__main__":
    harness.main()
