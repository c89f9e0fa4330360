"""Fault rules end to end: `s3fault proxy` with --preset/--fault/--faults and the admin API, in
front of `s3fault origin`, driven by real clients (aws cli, botocore-signed raw requests)."""

import json
import os
import socket
import subprocess
import unittest
import urllib.error
import urllib.request

import harness
from harness import MIB

PER_RESPONSE = {"date", "x-amz-request-id", "x-amz-id-2"}


def admin_call(url: str, method: str, path: str, body=None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


class FaultRulesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("faults")
        self.tmp.mkdir(parents=True)
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)
        self.store = self.origin.store()
        self.direct = harness.boto3_client(self.origin.url, self.store)
        self.bucket = harness.unique_bucket_name("faults")
        self.direct.create_bucket(Bucket=self.bucket)

    def start_proxy(self, *args: str) -> harness.ProxyProcess:
        proxy = harness.ProxyProcess(self.origin.url, list(args))
        proxy.start()
        self.addCleanup(lambda: self.assertEqual(proxy.stop(), 0, "proxy exit code"))
        return proxy

    def upload_three_parts(self, key: str) -> bytes:
        body = harness.os.urandom(20 * MIB)
        created = self.direct.create_multipart_upload(Bucket=self.bucket, Key=key)
        parts = []
        for number, start in enumerate(range(0, len(body), 8 * MIB), start=1):
            part = self.direct.upload_part(Bucket=self.bucket, Key=key, PartNumber=number,
                                           UploadId=created["UploadId"],
                                           Body=body[start:start + 8 * MIB])
            parts.append({"PartNumber": number, "ETag": part["ETag"]})
        self.direct.complete_multipart_upload(Bucket=self.bucket, Key=key,
                                              UploadId=created["UploadId"],
                                              MultipartUpload={"Parts": parts})
        return body

    def test_rustfs_parts_count_preset_strips_only_the_parts_count(self):
        self.upload_three_parts("three.bin")
        proxy = self.start_proxy("--preset", "rustfs-parts-count")
        path = f"/{self.bucket}/three.bin"
        direct = harness.signed_raw_request(self.origin.url, self.store, "GET", path,
                                            "partNumber=1")
        proxied = harness.signed_raw_request(proxy.url, self.store, "GET", path, "partNumber=1")
        self.assertEqual(direct.status, 206, direct.describe())
        self.assertEqual(direct.header("x-amz-mp-parts-count"), "3")
        self.assertEqual(proxied.status, 206, proxied.describe())
        self.assertIsNone(proxied.header("x-amz-mp-parts-count"))
        keep = lambda r: [(k, v) for k, v in r.headers
                          if k.lower() not in PER_RESPONSE | {"x-amz-mp-parts-count"}]
        self.assertEqual(keep(proxied), keep(direct))
        self.assertEqual(proxied.body, direct.body)
        # A plain GET is not a partNumber read: the preset does not match it (and the header
        # was never there).
        plain = harness.signed_raw_request(proxy.url, self.store, "GET", path)
        self.assertEqual(plain.status, 200)

    def test_aws_cli_rides_out_two_slowdowns_per_key(self):
        source = self.tmp / "object.bin"
        sha = harness.make_random_file(source, 3 * MIB)
        self.direct.upload_file(str(source), self.bucket, "slow.bin")
        proxy = self.start_proxy("--admin", "127.0.0.1:0", "--fault",
                                 "error SlowDown op=GetObject first=2 per-key name=slowdown-two")
        admin_url = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                         if line.startswith("admin on "))
        aws = harness.AwsCli(proxy.url, self.store, self.tmp / "aws")
        aws.env["AWS_MAX_ATTEMPTS"] = "5"  # the client's own retries are what this test is about
        target = self.tmp / "back.bin"
        aws.run("s3", "cp", "--no-progress", f"s3://{self.bucket}/slow.bin", str(target))
        self.assertEqual(harness.sha256_file(target), sha)
        status, rules = admin_call(admin_url, "GET", "/rules")
        self.assertEqual(status, 200)
        counters = rules["rules"][0]["counters"]
        self.assertEqual(counters["injected"], 2, rules)
        self.assertGreaterEqual(counters["matched"], 3, rules)

    def test_close_truncation_makes_boto3_fail_loudly(self):
        source = self.tmp / "object.bin"
        harness.make_random_file(source, 4 * MIB)
        self.direct.upload_file(str(source), self.bucket, "cut.bin")
        proxy = self.start_proxy("--fault", "truncate 50% op=GetObject")
        client = harness.boto3_client(proxy.url, self.store)
        response = client.get_object(Bucket=self.bucket, Key="cut.bin")
        self.assertEqual(response["ContentLength"], 4 * MIB)  # the length header was kept
        with self.assertRaises(Exception) as raised:
            response["Body"].read()
        # botocore notices the connection ended before Content-Length bytes arrived.
        self.assertIn("IncompleteRead", type(raised.exception).__name__ + repr(raised.exception))

    def test_admin_api_changes_apply_to_the_next_exchange(self):
        self.direct.put_object(Bucket=self.bucket, Key="k", Body=b"hello")
        proxy = self.start_proxy("--admin", "127.0.0.1:0")
        admin_url = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                         if line.startswith("admin on "))
        path = f"/{self.bucket}/k"
        self.assertEqual(harness.signed_raw_request(proxy.url, self.store, "GET", path).status, 200)
        status, _ = admin_call(admin_url, "POST", "/rules",
                               {"fault": "error InternalError op=GetObject name=boom"})
        self.assertEqual(status, 201)
        failed = harness.signed_raw_request(proxy.url, self.store, "GET", path)
        self.assertEqual((failed.status, failed.error_code()), (500, "InternalError"))
        status, body = admin_call(admin_url, "POST", "/rules",
                                  {"fault": "error InternalError name=boom"})
        self.assertEqual((status, body["error"]["code"]), (409, "name_taken"))
        status, body = admin_call(admin_url, "POST", "/rules", {"fault": "truncate abc"})
        self.assertEqual((status, body["error"]["code"]), (400, "invalid_rules"))
        self.assertTrue(body["error"]["details"], body)
        status, _ = admin_call(admin_url, "POST", "/rules/boom/disable")
        self.assertEqual(status, 200)
        self.assertEqual(harness.signed_raw_request(proxy.url, self.store, "GET", path).status, 200)
        status, body = admin_call(admin_url, "DELETE", "/rules/nope")
        self.assertEqual((status, body["error"]["code"]), (404, "no_such_rule"))
        status, body = admin_call(admin_url, "DELETE", "/rules")
        self.assertEqual((status, body["rules"]), (200, []))

    def test_admin_api_answers_what_it_cannot_read_and_keeps_serving(self):
        self.direct.put_object(Bucket=self.bucket, Key="k", Body=b"hello")
        proxy = self.start_proxy("--admin", "127.0.0.1:0", "--admin-body-limit", "64KiB")
        admin_url = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                         if line.startswith("admin on "))
        port = int(admin_url.rsplit(":", 1)[1])

        def exchange(head: bytes, body: bytes = b"") -> tuple[int, dict]:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
                conn.sendall(head + body)
                answer = b""
                while chunk := conn.recv(65536):
                    answer += chunk
            status_line, _, rest = answer.partition(b"\r\n")
            return int(status_line.split()[1]), json.loads(rest.partition(b"\r\n\r\n")[2])

        def post(body: bytes) -> bytes:
            return (b"POST /rules HTTP/1.1\r\nHost: admin\r\nContent-Type: application/json\r\n"
                    b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body))

        # One byte over the limit: 413 naming the limit. At the limit: read, and judged (not
        # JSON, so as a YAML rules document: a plain text is not one).
        over = b"x" * (64 * 1024 + 1)
        status, body = exchange(post(over), over)
        self.assertEqual((status, body["error"]["code"]), (413, "body_too_large"), body)
        self.assertIn("65536 bytes", body["error"]["message"])
        self.assertIn("--admin-body-limit", body["error"]["message"])
        at_limit = b"x" * (64 * 1024)
        status, body = exchange(post(at_limit), at_limit)
        self.assertEqual((status, body["error"]["code"]), (400, "invalid_rules"), body)
        status, body = exchange(b"GET /rules HTTP/1.1\r\nHost: admin\r\nX-Pad: " +
                                b"p" * 9000 + b"\r\n\r\n")
        self.assertEqual((status, body["error"]["code"]), (431, "head_too_large"), body)
        status, body = exchange(b"HELLO THERE\r\n\r\n")
        self.assertEqual((status, body["error"]["code"]), (400, "bad_request"), body)
        # Nothing changed, every refusal was logged, and both APIs still serve.
        status, body = admin_call(admin_url, "GET", "/rules")
        self.assertEqual((status, body["rules"]), (200, []))
        path = f"/{self.bucket}/k"
        self.assertEqual(harness.signed_raw_request(proxy.url, self.store, "GET", path).status, 200)
        log = proxy.wait_for_log("admin - - refused: 400")
        self.assertIn("admin POST /rules refused: 413", log)
        self.assertIn("refused: 431 the request head is over", log)

    def test_a_fault_for_one_request_added_after_signing(self):
        # boto3 signs, then its before-send hook adds the field: the origin checks the signature
        # of what the proxy forwards (the field removed) and accepts it.
        self.direct.put_object(Bucket=self.bucket, Key="k", Body=b"hello")
        proxy = self.start_proxy("--allow-header-faults")
        client = harness.boto3_client(proxy.url, self.store)
        faults = {"k": "error SlowDown"}

        def add_fault(request, **_):
            key = request.url.rsplit("/", 1)[-1]
            if key in faults:
                request.headers["x-s3fault-fault"] = faults.pop(key)

        client.meta.events.register("before-send.s3.GetObject", add_fault)
        with self.assertRaises(client.exceptions.ClientError) as refused:
            client.get_object(Bucket=self.bucket, Key="k")
        self.assertEqual(refused.exception.response["Error"]["Code"], "SlowDown")
        self.assertEqual(client.get_object(Bucket=self.bucket, Key="k")["Body"].read(), b"hello")
        faults["k"] = "set-header x-s3fault-was here"
        answer = client.get_object(Bucket=self.bucket, Key="k")
        self.assertEqual((answer["Body"].read(), answer["ResponseMetadata"]["HTTPHeaders"].get(
            "x-s3fault-was")), (b"hello", "here"))

    def test_admin_body_limit_must_be_a_size(self):
        for value in ("abc", "0", "2GiB"):
            result = subprocess.run([str(harness.proxy_binary()), "proxy", "--upstream",
                                     self.origin.url, "--admin", "127.0.0.1:0",
                                     "--admin-body-limit", value],
                                    capture_output=True, text=True, timeout=60)
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn(f"--admin-body-limit: '{value}' is not a size", result.stderr)

    def test_rules_file_with_three_mistakes_names_all_three(self):
        rules = self.tmp / "bad.yaml"
        rules.write_text(
            "rules:\n"
            "  - name: one\n"
            "    actions: [{type: truncate, at: abc}]\n"
            "  - name: two\n"
            "    match: {operations: [GetObjects]}\n"
            "    actions: [{type: reset}]\n"
            "  - name: three\n"
            "    schedule: {probability: 2}\n"
            "    actions: [{type: reset}]\n")
        result = subprocess.run(
            [str(harness.proxy_binary()), "proxy", "--listen", "127.0.0.1:0", "--upstream",
             self.origin.url, "--faults", str(rules)],
            capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stdout, "")
        for name, field in (("one", "at"), ("two", "operations"), ("three", "probability")):
            self.assertRegex(result.stderr, rf"rule \d+ \({name}\):.*{field}")

    def test_every_option_mistake_is_reported_at_once(self):
        """Mistakes CLI11 cannot see alone are gathered in one step: each named with its option,
        one line each, together with the rules' mistakes; exit 2 before anything is written."""
        cert, journal = self.tmp / "self-signed.pem", self.tmp / "journal.jsonl"
        env = {k: v for k, v in os.environ.items() if k != "S3FAULT_RESIGN_SECRET_KEY"}
        result = subprocess.run(
            [str(harness.proxy_binary()), "proxy", "--listen", "127.0.0.1:0", "--upstream",
             self.origin.url, "--watch", "--watch-interval", "0s", "--server-header", "a\x01b",
             "--resign-access-key", "AK", "--tls-self-signed-cert", str(cert),
             "--upstream-insecure", "--admin-token", "t" * 20, "--admin-body-limit", "0",
             "--journal", str(journal), "--journal-max-size", "abc",
             "--fault", "no-such-action"],
            capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, env=env)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stdout, "")
        for mistake in ("--watch-interval must be longer than 0",
                        "--watch needs --faults FILE",
                        "--upstream-ca and --upstream-insecure need an https:// upstream",
                        "--server-header: must be text without control characters",
                        "--resign-access-key and --resign-secret-key (or "
                        "$S3FAULT_RESIGN_SECRET_KEY) go together",
                        "--tls-self-signed-cert needs --tls-self-signed",
                        "--admin-token needs --admin HOST:PORT",
                        "--admin-body-limit: '0' is not a size",
                        "--journal-max-size: 'abc' is not a size"):
            self.assertIn("s3fault proxy: " + mistake, result.stderr)
        self.assertIn("the fault rules have 1 mistake", result.stderr)
        self.assertFalse(cert.exists())
        self.assertFalse(journal.exists())

    def test_seed_option_overrides_rules_files_that_disagree(self):
        one = self.tmp / "one.yaml"
        one.write_text("seed: 1\nrules:\n  - {name: a, actions: [{type: reset}]}\n")
        two = self.tmp / "two.yaml"
        two.write_text("seed: 2\nrules:\n  - {name: b, actions: [{type: reset}]}\n")
        files = ["--faults", str(one), "--faults", str(two)]
        refused = subprocess.run(
            [str(harness.proxy_binary()), "proxy", "--listen", "127.0.0.1:0", "--upstream",
             self.origin.url, *files],
            capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertIn(f"{two}: seed: 2 differs from the seed 1 of {one}", refused.stderr)
        self.assertIn("--seed", refused.stderr)
        proxy = self.start_proxy(*files, "--seed", "7", "--admin", "127.0.0.1:0")
        admin_url = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                         if line.startswith("admin on "))
        status, body = admin_call(admin_url, "GET", "/rules")
        self.assertEqual(status, 200)
        self.assertEqual(body["seed"], 7)
        self.assertEqual([r["name"] for r in body["rules"]], ["a", "b"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
