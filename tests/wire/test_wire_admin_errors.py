"""Every refusal of the admin API has the one documented shape,
{"error": {"code": ..., "message": ..., "details": [...]}}, whichever part of the server refused:
the token check (401), the router (404, 405), the rules (400, 409), or the reading of the
request itself (413, 431, 400). Clients read the code and the message from it."""

from __future__ import annotations

import json
import socket
import unittest

from wire import DEADLINE, Proxy, free_port

TOKEN = "a-token-of-at-least-16-characters"
AUTH = f"Authorization: Bearer {TOKEN}\r\n".encode()


def request(method: str, path: str, body: bytes = b"", auth: bytes = AUTH) -> bytes:
    return (f"{method} {path} HTTP/1.1\r\nHost: admin\r\nContent-Length: {len(body)}\r\n".encode()
            + auth + b"Connection: close\r\n\r\n" + body)


class AdminErrorsTest(unittest.TestCase):
    def setUp(self):
        # No store behind it: the admin API needs none.
        self.proxy = Proxy(f"http://127.0.0.1:{free_port()}", "--admin", "127.0.0.1:0",
                           "--admin-token", TOKEN, "--admin-body-limit", "1KiB")
        self.addCleanup(lambda: self.assertEqual(self.proxy.stop(), 0))
        self.admin_port = int(self.proxy.admin.rsplit(":", 1)[1])

    def exchange(self, data: bytes) -> tuple[int, dict]:
        """Sends raw bytes to the admin API; the answer's status and JSON body."""
        with socket.create_connection(("127.0.0.1", self.admin_port), timeout=DEADLINE) as sock:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        self.assertIn(b"Content-Type: application/json", head)
        return int(head.split(b" ")[1]), json.loads(body)

    def assert_error_shape(self, status: int, body: dict, expected_status: int, code: str):
        self.assertEqual(status, expected_status, body)
        self.assertEqual(list(body), ["error"], body)
        error = body["error"]
        self.assertEqual(sorted(error), ["code", "details", "message"], body)
        self.assertEqual(error["code"], code)
        self.assertIsInstance(error["message"], str)
        self.assertTrue(error["message"], body)
        self.assertIsInstance(error["details"], list)

    def test_every_refusal_has_the_documented_shape(self):
        self.assertEqual(self.exchange(request("POST", "/rules", b'{"fault": "delay 1ms name=d"}'))[0],
                         201)
        cases = [
            ("no token", request("GET", "/rules", auth=b""), 401, "unauthorized"),
            ("wrong token", request("GET", "/rules", auth=b"Authorization: Bearer nope\r\n"), 401,
             "unauthorized"),
            ("unknown path", request("GET", "/nope"), 404, "not_found"),
            ("unknown rule", request("POST", "/rules/nope/enable"), 404, "no_such_rule"),
            ("method", request("PATCH", "/rules"), 405, "method_not_allowed"),
            ("rule method", request("PATCH", "/rules/d"), 405, "method_not_allowed"),
            ("replace by another name", request("PUT", "/rules/d", b'{"fault": "delay 2ms name=e"}'),
             400, "name_differs"),
            ("replace a rule not there", request("PUT", "/rules/nope", b'{"fault": "delay 2ms"}'),
             404, "no_such_rule"),
            ("unknown exchange", request("GET", "/exchanges/999999"), 404, "no_such_exchange"),
            ("bad exchange id", request("GET", "/exchanges/x"), 400, "bad_id"),
            ("bad JSON", request("POST", "/rules", b'{"rules": ['), 400, "invalid_json"),
            ("bad YAML", request("POST", "/rules", b"rules: [\n"), 400, "invalid_rules"),
            ("bad rule", request("POST", "/rules", b'{"fault": "truncate abc"}'), 400,
             "invalid_rules"),
            ("name taken", request("POST", "/rules", b'{"fault": "delay 1ms name=d"}'), 409,
             "name_taken"),
            ("body too large", request("POST", "/rules", b"x" * 2048), 413, "body_too_large"),
            ("head too large", b"GET /rules HTTP/1.1\r\nx-big: " + b"a" * 9000 + b"\r\n\r\n",
             431, "head_too_large"),
            ("not HTTP", b"HELLO THERE\r\n\r\n", 400, "bad_request"),
        ]
        for name, data, status, code in cases:
            with self.subTest(name):
                self.assert_error_shape(*self.exchange(data), status, code)
        # Mistakes in the rules are listed one by one in details.
        _, body = self.exchange(request("POST", "/rules", b'{"fault": "truncate abc"}'))
        self.assertTrue(body["error"]["details"], body)


if __name__ == "__main__":
    unittest.main()
