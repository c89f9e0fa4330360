"""An https store behind the proxy: its certificate is verified by default, and a store whose
certificate the proxy cannot verify gets the client a 502 that says so (never plain bytes from
an unverified peer); --upstream-ca with the store's certificate, or --upstream-insecure, let the
exchange through. The "store" is `s3fault origin` behind an `s3fault proxy` TLS listener with a
certificate made here for 127.0.0.1."""

import subprocess
import unittest

import harness


def make_certificate(directory):
    cert, key = directory / "store.crt", directory / "store.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class UpstreamTlsTest(unittest.TestCase):
    def setUp(self):
        tmp = harness.scratch_root() / harness.unique_bucket_name("upstream-tls")
        tmp.mkdir(parents=True)
        cert, key = make_certificate(tmp)
        self.cert = cert
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)
        # The https store: a TLS listener in front of the origin.
        self.tls_front = harness.ProxyProcess(self.origin.url, ["--tls-cert", str(cert),
                                                                "--tls-key", str(key)],
                                              name="tls-front")
        self.tls_front.start()
        self.addCleanup(harness.stop_and_check, self.tls_front)
        self.assertTrue(self.tls_front.url.startswith("https://"), self.tls_front.url)
        self.bucket = harness.unique_bucket_name("upstream-tls")
        harness.boto3_client(self.origin.url, self.origin.store()).create_bucket(
            Bucket=self.bucket)

    def proxy_to_store(self, *args):
        proxy = harness.ProxyProcess(self.tls_front.url, list(args), name="proxy")
        proxy.start()
        self.addCleanup(harness.stop_and_check, proxy)
        return harness.boto3_client(proxy.url, self.origin.store())

    def test_an_unverifiable_store_is_refused_with_a_clear_error(self):
        client = self.proxy_to_store()
        with self.assertRaises(client.exceptions.ClientError) as caught:
            client.head_bucket(Bucket=self.bucket)
        self.assertEqual(caught.exception.response["ResponseMetadata"]["HTTPStatusCode"], 502)
        client = self.proxy_to_store()
        with self.assertRaises(client.exceptions.ClientError) as caught:
            client.list_objects_v2(Bucket=self.bucket)
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"], "BadGateway")
        self.assertIn("certificate verify failed", error["Message"])

    def test_the_stores_ca_lets_the_exchange_through(self):
        client = self.proxy_to_store("--upstream-ca", str(self.cert))
        client.put_object(Bucket=self.bucket, Key="k", Body=b"through verified tls")
        self.assertEqual(client.get_object(Bucket=self.bucket, Key="k")["Body"].read(),
                         b"through verified tls")

    def test_insecure_skips_the_verification(self):
        client = self.proxy_to_store("--upstream-insecure")
        client.put_object(Bucket=self.bucket, Key="k", Body=b"x" * 2_000_000)
        self.assertEqual(len(client.get_object(Bucket=self.bucket, Key="k")["Body"].read()),
                         2_000_000)


if __name__ == "__main__":
    unittest.main()
