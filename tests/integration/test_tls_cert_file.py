"""--tls-self-signed-cert FILE: the proxy's self-signed certificate written for clients' CA
bundles. boto3 (by IP and by name) and the aws cli verify the listener against the file; a
certificate made by another proxy does not pass for it; the key never reaches the file."""

import ssl
import subprocess
import unittest
import urllib.parse
from pathlib import Path

import botocore.exceptions

import harness


class SelfSignedCertificateFileTest(unittest.TestCase):
    def setUp(self):
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)
        self.store = self.origin.store()
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("tls-cert")
        self.tmp.mkdir(parents=True)

    def start_proxy(self, cert: Path) -> harness.ProxyProcess:
        proxy = harness.ProxyProcess(self.origin.url, ["--tls-self-signed",
                                                       "--tls-self-signed-cert", str(cert)])
        proxy.start()
        self.addCleanup(lambda: self.assertEqual(proxy.stop(), 0, "proxy exit code"))
        return proxy

    def test_clients_verify_the_listener_with_the_written_certificate(self):
        cert = self.tmp / "proxy.pem"
        proxy = self.start_proxy(cert)
        pem = cert.read_text()
        self.assertTrue(pem.startswith("-----BEGIN CERTIFICATE-----"), pem)
        self.assertNotIn("PRIVATE KEY", pem)
        host, port = urllib.parse.urlsplit(proxy.url).netloc.rsplit(":", 1)
        served = ssl.get_server_certificate((host, int(port)))
        self.assertEqual(ssl.PEM_cert_to_DER_cert(served), ssl.PEM_cert_to_DER_cert(pem))

        bucket = harness.unique_bucket_name("tls-cert")
        for name in ("127.0.0.1", "localhost"):
            with self.subTest(host=name):
                client = harness.boto3_client(f"https://{name}:{port}", self.store,
                                              verify=str(cert))
                if name == "127.0.0.1":
                    client.create_bucket(Bucket=bucket)
                client.put_object(Bucket=bucket, Key=f"k-{name}", Body=b"verified")
                self.assertEqual(client.get_object(Bucket=bucket, Key=f"k-{name}")["Body"].read(),
                                 b"verified")
        cli = harness.AwsCli(proxy.url, self.store, self.tmp / "aws")
        cli.env["AWS_CA_BUNDLE"] = str(cert)
        self.assertEqual(set(cli.list_objects(bucket)), {"k-127.0.0.1", "k-localhost"})

        other_cert = self.tmp / "other.pem"
        other = self.start_proxy(other_cert)
        self.assertNotEqual(other_cert.read_text(), pem)
        stranger = harness.boto3_client(other.url, self.store, verify=str(cert))
        with self.assertRaises(botocore.exceptions.SSLError):
            stranger.list_objects_v2(Bucket=bucket)

    def test_the_file_needs_the_self_signed_listener(self):
        result = subprocess.run([str(harness.proxy_binary()), "proxy", "--upstream",
                                 self.origin.url, "--tls-self-signed-cert",
                                 str(self.tmp / "x.pem")],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("--tls-self-signed-cert needs --tls-self-signed", result.stderr)
        self.assertFalse((self.tmp / "x.pem").exists())

    def test_a_file_that_cannot_be_written_is_refused_before_listening(self):
        target = self.tmp / "no-such-dir" / "x.pem"
        result = subprocess.run([str(harness.proxy_binary()), "proxy", "--listen", "127.0.0.1:0",
                                 "--upstream", self.origin.url, "--tls-self-signed",
                                 "--tls-self-signed-cert", str(target)],
                                capture_output=True, text=True, timeout=60)
        # Written while the listener is made: it fails like a port that cannot be bound.
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout, "", "nothing listened")
        self.assertIn(f"--tls-self-signed-cert cannot write {target}: No such file or directory",
                      result.stderr)
        self.assertEqual(list(self.tmp.iterdir()), [], "no temporary file left behind")


if __name__ == "__main__":
    harness.main()
