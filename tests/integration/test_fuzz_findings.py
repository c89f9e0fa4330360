"""What the fuzz targets found, checked end to end on the real binary: each input that once
crashed, hung or hit undefined behaviour now gets a clear answer, and the process keeps serving.
(The inputs themselves are replayed under the sanitizers by the fuzz.*.seeds tests.)"""

import json
import socket
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.request
from pathlib import Path

import harness


def raw_exchange(port: int, request: bytes) -> tuple[int, bytes]:
    """Sends `request` as is and reads the whole answer (the server closes or Content-Length)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    return int(head[9:12]), body


class FuzzFindingsTest(unittest.TestCase):
    def start_proxy(self, *args: str) -> tuple[harness.ProxyProcess, str]:
        proxy = harness.ProxyProcess("http://127.0.0.1:9", ["--admin", "127.0.0.1:0", *args])
        proxy.start()
        self.addCleanup(proxy.stop)
        admin = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                     if line.startswith("admin on "))
        return proxy, admin

    def test_admin_answers_bytes_that_are_not_utf8_with_json(self):
        # fuzz_admin_api: the answer named the path, and rendering it as JSON threw.
        proxy, admin = self.start_proxy()
        port = int(admin.rsplit(":", 1)[1])
        status, body = raw_exchange(port, b"GET /versi\xb5n HTTP/1.1\r\nHost: a\r\n\r\n")
        self.assertEqual(status, 404)
        answer = json.loads(body)
        self.assertIn("/versi\ufffdn", json.dumps(answer, ensure_ascii=False))
        with urllib.request.urlopen(admin + "/health", timeout=10) as response:
            self.assertEqual(response.status, 200)
        self.assertTrue(proxy.alive())

    def test_long_and_short_forms_of_a_repeatable_key_add_up(self):
        # fuzz_fault_spec: `match.status=5xx status=503` ended the process (uncaught exception).
        spec = "set-header x-seen yes match.status=5xx status=503 name=both"
        proxy, admin = self.start_proxy("--fault", spec)
        request = urllib.request.Request(admin + "/rules", method="POST", data=json.dumps(
            {"fault": spec.replace("name=both", "name=again")}).encode())
        with urllib.request.urlopen(request, timeout=10) as response:
            self.assertEqual(response.status, 201)
        with urllib.request.urlopen(admin + "/rules/both", timeout=10) as response:
            rule = json.loads(response.read())
        self.assertEqual(rule["definition"]["match"]["status"], ["5xx", 503])
        self.assertTrue(proxy.alive())

    def test_a_regex_with_a_huge_back_reference_is_refused(self):
        # fuzz_fault_spec: libstdc++'s regex compiler overflowed on `\2222222222222222222`. Header
        # regexes are RE2 now, which has no back-references: refused as one.
        proxy, admin = self.start_proxy()
        request = urllib.request.Request(admin + "/rules", method="POST", data=json.dumps(
            {"fault": "reset header='etag~(a)\\2222222222222222222'"}).encode())
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        self.assertEqual(refused.exception.code, 400)
        self.assertIn("back-references are not supported (RE2 syntax)",
                      refused.exception.read().decode())
        self.assertTrue(proxy.alive())

    def test_a_rules_file_with_a_nul_byte_is_refused_at_once(self):
        # fuzz_rule_file: yaml-cpp looped without end on text holding control characters.
        with tempfile.TemporaryDirectory(dir=harness.scratch_root()) as tmp:
            rules = Path(tmp) / "bad.yaml"
            rules.write_bytes(b"rules:\n  - actions: \"reset\x00\"\n")
            result = subprocess.run(
                [str(harness.proxy_binary()), "proxy", "--listen", "127.0.0.1:0", "--upstream",
                 "http://127.0.0.1:9", "--faults", str(rules)],
                capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("bad.yaml:2:20: byte 0x00 is not allowed in YAML", result.stderr)

    def test_origin_refuses_a_request_date_past_2262(self):
        # fuzz_sigv4: x-amz-date 9999-12-31 overflowed the clock's nanoseconds (undefined
        # behaviour); now it is a malformed date, refused like any other.
        origin = harness.OriginProcess()
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        port = int(origin.url.rsplit(":", 1)[1])
        status, body = raw_exchange(port, (
            b"GET /b/k HTTP/1.1\r\nHost: 127.0.0.1\r\nx-amz-date: 99991231T000000Z\r\n"
            b"x-amz-content-sha256: UNSIGNED-PAYLOAD\r\nAuthorization: AWS4-HMAC-SHA256 "
            b"Credential=s3fault/99991231/us-east-1/s3/aws4_request, SignedHeaders=host;"
            b"x-amz-date, Signature=" + b"0" * 64 + b"\r\n\r\n"))
        self.assertEqual(status, 403, body)
        self.assertIn(b"<Code>", body)
        status, _ = raw_exchange(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.assertEqual(status, 403)  # still serving (unsigned: AccessDenied)


if __name__ == "__main__":
    unittest.main()
