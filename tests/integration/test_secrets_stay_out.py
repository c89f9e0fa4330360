"""A planted secret key, session token and request signatures never reach anything s3fault
writes: the proxy's log (debug level, text and JSON), its stdout, its --report file and its admin
API, the origin's log, and the output and files of `s3fault audit` and `s3fault bench`."""

import json
import re
import secrets
import subprocess
import unittest
import urllib.request

import boto3
import botocore.config

import harness

SECRET = "planted-secret-" + secrets.token_hex(8)
TOKEN = "planted-session-token-" + secrets.token_hex(8)


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode()


class SecretsStayOutTest(unittest.TestCase):
    def test_no_output_carries_a_secret(self):
        tmp = harness.scratch_root() / harness.unique_bucket_name("secrets")
        tmp.mkdir(parents=True)
        origin = harness.OriginProcess(secret_key=SECRET, extra_args=["--log-level", "debug"])
        origin.start()
        self.addCleanup(origin.stop)
        report = tmp / "report.json"
        proxies = []
        for log_format in ("text", "json"):
            proxy = harness.ProxyProcess(
                origin.url, ["--log-level", "debug", "--log-format", log_format, "--admin",
                             "127.0.0.1:0", "--report", str(report.with_suffix(f".{log_format}")),
                             "--fault", "error SlowDown op=GetObject first=1 name=slow"],
                name=f"proxy-{log_format}")
            proxy.start()
            self.addCleanup(proxy.stop)
            proxies.append(proxy)

        signatures = set()
        for proxy in proxies:
            store = origin.store()
            client = harness.boto3_client(proxy.url, store)
            client.meta.events.register(
                "before-send.s3",
                lambda request, **_: signatures.update(
                    re.findall(r"Signature=([0-9a-f]{64})",
                               request.headers.get("Authorization", b"").decode()
                               if isinstance(request.headers.get("Authorization"), bytes)
                               else request.headers.get("Authorization", ""))))
            token_client = boto3.session.Session().client(
                "s3", endpoint_url=proxy.url, aws_access_key_id=store.access_key,
                aws_secret_access_key=SECRET, aws_session_token=TOKEN,
                region_name=store.region,
                config=botocore.config.Config(s3={"addressing_style": "path"},
                                                      retries={"total_max_attempts": 1}))
            bucket = harness.unique_bucket_name("secrets")
            client.create_bucket(Bucket=bucket)
            client.put_object(Bucket=bucket, Key="k", Body=b"x" * 100)
            with self.assertRaises(client.exceptions.ClientError):
                client.get_object(Bucket=bucket, Key="k")  # the SlowDown rule
            self.assertEqual(client.get_object(Bucket=bucket, Key="k")["Body"].read(), b"x" * 100)
            try:
                token_client.head_object(Bucket=bucket, Key="k")
            except Exception:
                pass  # whether the origin accepts a session token is not the point here
            url = client.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "k"},
                                                ExpiresIn=600)
            signatures.update(re.findall(r"X-Amz-Signature=([0-9a-f]{64})", url))
            self.assertEqual(fetch(url), "x" * 100)
            admin = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                         if line.startswith("admin on "))
            admin_text = "".join(fetch(admin + path) for path in ("/rules", "/metrics", "/stats"))
            self.assertIn("GetObject", admin_text)
            (tmp / f"admin-{proxy.name}.txt").write_text(admin_text)

        outputs = {}
        audit_json = tmp / "audit.json"
        bench_json = tmp / "bench.json"
        for name, args in (
                ("audit", ["audit", "--endpoint", proxies[0].url, "--access-key", "s3fault",
                           "--secret-key", SECRET, "--checks", "part.*", "--json",
                           str(audit_json)]),
                ("bench", ["bench", "--endpoint", proxies[0].url, "--access-key", "s3fault",
                           "--secret-key", SECRET, "--count", "3", "--rounds", "1",
                           "--concurrency", "1", "--sizes", "4KiB", "--json", str(bench_json)])):
            result = subprocess.run([str(harness.proxy_binary()), *args], capture_output=True,
                                    text=True, timeout=300, stdin=subprocess.DEVNULL,
                                    env=harness.clean_client_env())
            outputs[name] = result.stdout + result.stderr
            self.assertIn(result.returncode, (0, 1), outputs[name])

        for proxy in proxies:
            self.assertEqual(proxy.stop(), 0, proxy.describe_stderr())
            outputs[proxy.name + " log"] = proxy.log_path.read_text()
            outputs[proxy.name + " stdout"] = "\n".join(proxy.stdout_lines)
        self.assertEqual(origin.stop(), 0)
        outputs["origin log"] = origin.log_path.read_text()
        for path in tmp.iterdir():
            outputs[path.name] = path.read_text()
        self.assertGreater(len(signatures), 5)
        self.assertIn("GetObject", outputs["proxy-json log"])  # the logs did record the traffic
        for where, text in outputs.items():
            for planted in [SECRET, TOKEN, *signatures]:
                self.assertNotIn(planted, text, f"{where} carries a secret")


if __name__ == "__main__":
    unittest.main()
