"""The admin API's guard: loopback only without a token; with --admin-token every request needs
`Authorization: Bearer TOKEN` (401 otherwise) but the liveness probe `GET /health`, and the token
never appears in the logs."""

import json
import subprocess
import unittest
import urllib.error
import urllib.request

import harness

TOKEN = "s3fault-test-token-0123456789"


def get(url: str, authorization: str = None) -> int:
    request = urllib.request.Request(url)
    if authorization is not None:
        request.add_header("Authorization", authorization)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class AdminTokenTest(unittest.TestCase):
    def test_requests_need_the_bearer_token(self):
        origin = harness.OriginProcess()
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        proxy = harness.ProxyProcess(origin.url, ["--admin", "127.0.0.1:0", "--admin-token",
                                                  TOKEN])
        proxy.start()
        self.addCleanup(proxy.stop)  # also when an assertion fails before the end
        admin = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                     if line.startswith("admin on "))
        self.assertEqual(get(admin + "/rules"), 401)
        self.assertEqual(get(admin + "/rules", "Bearer wrong-token-0123456789"), 401)
        self.assertEqual(get(admin + "/metrics", "Bearer " + TOKEN[:-1]), 401)
        self.assertEqual(get(admin + "/rules", "Bearer " + TOKEN), 200)
        self.assertEqual(get(admin + "/metrics", "Bearer " + TOKEN), 200)
        # A liveness probe carries no token; it learns only that the proxy is up.
        with urllib.request.urlopen(admin + "/health", timeout=30) as response:
            self.assertEqual((response.status, json.loads(response.read())), (200, {"status": "ok"}))
        self.assertEqual(get(admin + "/health?verbose=1"), 200)
        self.assertEqual(get(admin + "/version"), 401)
        self.assertEqual(get(admin + "/stats"), 401)
        self.assertEqual(proxy.stop(), 0, proxy.describe_stderr())
        log = proxy.log_path.read_text() if proxy.log_path else ""
        self.assertIn("refused: no valid bearer token", log)
        self.assertNotIn(TOKEN, log + "\n".join(proxy.stdout_lines))
        self.assertNotIn("wrong-token", log)

    def run_proxy(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(harness.proxy_binary()), "proxy", "--listen", "127.0.0.1:0",
                               "--upstream", "http://127.0.0.1:9", *args],
                              capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL)

    def test_non_loopback_needs_a_token_and_tokens_must_be_long(self):
        result = self.run_proxy("--admin", "0.0.0.0:0")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("without --admin-token the admin API listens on loopback addresses only",
                      result.stderr)
        result = self.run_proxy("--admin", "127.0.0.1:0", "--admin-token", "short")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("--admin-token: at least 16 characters, got 5", result.stderr)
        result = self.run_proxy("--admin-token", TOKEN)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("--admin-token needs --admin", result.stderr)


if __name__ == "__main__":
    unittest.main()
