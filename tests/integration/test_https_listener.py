"""The proxy's TLS listener (--tls-self-signed) in front of a plain-HTTP store.

boto3 (verify=False) and the aws cli (--no-verify-ssl) each upload objects of 0 bytes, 65537 bytes
and 40 MiB (multipart, 8 MiB parts) through https, download them, and compare sha256; the store,
asked directly, must hold the same bytes.
"""

import socket
import ssl
import urllib.parse

import boto3.s3.transfer

import harness
from harness import MIB

SIZES = (0, 65537, 40 * MIB)
PART_SIZE = 8 * MIB


class HttpsListenerTest(harness.ProxyTestCase):
    def setUp(self):
        super().setUp()
        self.proxy = self.start_proxy(["--tls-self-signed"])
        self.assertTrue(self.proxy.url.startswith("https://"),
                        f"listening line announced {self.proxy.url}, expected https://")

    def make_sources(self) -> dict[int, tuple]:
        """size -> (path, sha256)."""
        sources = {}
        for size in SIZES:
            path = self.tmp / f"source-{size}.bin"
            sources[size] = (path, harness.make_random_file(path, size))
        return sources

    def assert_store_holds(self, bucket: str, key: str, sha: str, size: int) -> None:
        response = self.direct.get_object(Bucket=bucket, Key=key)
        got_sha, got_len = harness.sha256_stream(response["Body"])
        self.assertEqual((got_len, got_sha), (size, sha), f"store copy of {key} differs")

    def test_listener_speaks_tls(self):
        """A TLS handshake succeeds and the certificate is served (self-signed, so unverified)."""
        host, port = urllib.parse.urlsplit(self.proxy.url).netloc.rsplit(":", 1)
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        with socket.create_connection((host, int(port)), timeout=10) as raw:
            with context.wrap_socket(raw, server_hostname=host) as tls:
                self.assertIsNotNone(tls.version())
                self.assertTrue(tls.getpeercert(binary_form=True), "no certificate presented")

    def test_boto3(self):
        bucket = self.new_bucket("tls-boto3", create=False)
        client = harness.boto3_client(self.proxy.url, self.store, verify=False)
        transfer = boto3.s3.transfer.TransferConfig(
            multipart_threshold=PART_SIZE, multipart_chunksize=PART_SIZE, max_concurrency=4)
        client.create_bucket(Bucket=bucket)
        for size, (path, sha) in self.make_sources().items():
            with self.subTest(size=size):
                key = f"boto3-{size}.bin"
                client.upload_file(str(path), bucket, key, Config=transfer)
                self.assert_store_holds(bucket, key, sha, size)
                target = self.tmp / f"download-{size}.bin"
                client.download_file(bucket, key, str(target), Config=transfer)
                self.assertEqual(target.stat().st_size, size)
                self.assertEqual(harness.sha256_file(target), sha)
                head = client.head_object(Bucket=bucket, Key=key)
                self.assertEqual(head["ContentLength"], size)
                client.delete_object(Bucket=bucket, Key=key)
        self.assertEqual(client.list_objects_v2(Bucket=bucket).get("KeyCount"), 0)
        client.delete_bucket(Bucket=bucket)

    def test_aws_cli(self):
        bucket = self.new_bucket("tls-awscli", create=False)
        cli = harness.AwsCli(self.proxy.url, self.store, self.tmp / "aws", verify_ssl=False,
                             multipart_mib=8)
        cli.run("s3", "mb", f"s3://{bucket}")
        sources = self.make_sources()
        for size, (path, sha) in sources.items():
            with self.subTest(size=size):
                key = f"cli-{size}.bin"
                cli.run("s3", "cp", "--only-show-errors", str(path), f"s3://{bucket}/{key}")
                self.assert_store_holds(bucket, key, sha, size)
                target = self.tmp / f"download-{size}.bin"
                cli.run("s3", "cp", "--only-show-errors", f"s3://{bucket}/{key}", str(target))
                self.assertEqual(target.stat().st_size, size)
                self.assertEqual(harness.sha256_file(target), sha)
        self.assertEqual(cli.list_objects(bucket),
                         {f"cli-{size}.bin": size for size in sources})
        cli.run("s3", "rb", "--force", f"s3://{bucket}")
        self.assertNotIn(bucket, [b["Name"] for b in self.direct.list_buckets()["Buckets"]])


if __name__ == "__main__":
    harness.main()
