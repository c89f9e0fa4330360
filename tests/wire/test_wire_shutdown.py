"""Shutdown with exchanges still open: SIGINT or SIGTERM, a drain timeout that expires, and every
combination of rules (none, hang, delay, throttles), a plain or TLS listener, and an upload or a
download in flight. The proxy must exit 0 (under the sanitizer build too, where a use-after-free
would abort it) and end the drain with a line naming how many exchanges it cut.

    raw client (plain or TLS) ──> s3fault proxy --drain-timeout 1s ──> ScriptedStore (stalls)
                                        ^ SIGINT / SIGTERM while the exchange is open
"""

from __future__ import annotations

import json
import re
import signal
import socket
import ssl
import subprocess
import threading
import time
import unittest
import urllib.request

from wire import (DEADLINE, Connection, ScriptedStore, answer_every_request, s3fault_binary,
                  wait_until)

GET = b"GET /bucket/key HTTP/1.1\r\nHost: h\r\n\r\n"
PUT_HEAD = b"PUT /bucket/key HTTP/1.1\r\nHost: h\r\nContent-Length: 1048576\r\n\r\n"
BODY = b"b" * 262144


def stalling_store(conn: Connection, store: ScriptedStore) -> None:
    """Answers a GET with a head and part of a large body, then stalls; reads an upload without
    ever answering. Either way the exchange stays open until the proxy cuts it."""
    head = conn.read_head()
    store.received.append(head)
    if head.startswith(b"GET"):
        conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 104857600\r\n\r\n" + BODY)
    conn.read_until_close()


class DrainingProxy:
    """`s3fault proxy --drain-timeout 1s --admin` as a subprocess; stderr collected."""

    def __init__(self, upstream: str, *extra: str, drain: str = "1s"):
        self.process = subprocess.Popen(
            [s3fault_binary(), "proxy", "--listen", "127.0.0.1:0", "--upstream", upstream,
             "--threads", "2", "--drain-timeout", drain, "--admin", "127.0.0.1:0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.port = self.admin = None
        for line in self.process.stdout:
            if line.startswith("admin on "):
                self.admin = line.split()[-1]
            elif line.startswith("listening on "):
                self.port = int(line.strip().rsplit(":", 1)[1])
                break
        if self.port is None or self.admin is None:
            self.process.kill()
            raise RuntimeError(f"proxy did not start: {self.process.stderr.read()}")
        self.stderr = ""
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()

    def _read_stderr(self) -> None:
        self.stderr = self.process.stderr.read()

    def active_connections(self) -> int:
        with urllib.request.urlopen(self.admin + "/metrics", timeout=DEADLINE) as answer:
            text = answer.read().decode()
        match = re.search(r"^s3fault_active_connections (\d+)", text, re.MULTILINE)
        return int(match.group(1)) if match else -1

    def rules_matched(self) -> int:
        """Exchanges the rules have decided on: the request head was read and judged."""
        with urllib.request.urlopen(self.admin + "/rules", timeout=DEADLINE) as answer:
            rules = json.load(answer)["rules"]
        return sum(r["counters"]["matched"] for r in rules)

    def stop(self, signum: int) -> tuple[int, str]:
        self.process.send_signal(signum)
        try:
            code = self.process.wait(timeout=DEADLINE + 20)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        self._reader.join(DEADLINE)
        return code, self.stderr


def open_client(port: int, tls: bool) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE)
    if not tls:
        return sock
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context.wrap_socket(sock)


class ShutdownTest(unittest.TestCase):
    CASES = [
        # (rule or None, listener TLS, what is in flight, signal)
        (None, False, "download", signal.SIGINT),
        (None, False, "upload", signal.SIGTERM),
        ("hang", False, "download", signal.SIGINT),
        ("hang", False, "download", signal.SIGTERM),
        ("delay 1h", False, "download", signal.SIGTERM),
        ("throttle 10KiB/s", False, "download", signal.SIGINT),
        ("request-throttle 10KiB/s", False, "upload", signal.SIGTERM),
        ("hang", True, "download", signal.SIGINT),
        (None, True, "download", signal.SIGTERM),
        (None, True, "upload", signal.SIGINT),
        ("throttle 10KiB/s", True, "download", signal.SIGTERM),
        ("request-throttle 10KiB/s", True, "upload", signal.SIGINT),
    ]

    def test_drain_timeout_cuts_open_exchanges_and_exits_0(self):
        for rule, tls, direction, signum in self.CASES:
            with self.subTest(rule=rule, tls=tls, direction=direction, signal=signum.name):
                store = ScriptedStore(stalling_store)
                self.addCleanup(store.close)
                extra = ["--fault", rule] if rule else []
                if tls:
                    extra.append("--tls-self-signed")
                proxy = DrainingProxy(store.url, *extra)
                client = open_client(proxy.port, tls)
                self.addCleanup(client.close)
                if direction == "download":
                    client.sendall(GET)
                else:
                    client.sendall(PUT_HEAD + BODY)
                # In flight: the proxy holds the connection (and the store has the request,
                # unless the rule keeps it from the store).
                self.assertTrue(wait_until(lambda: proxy.active_connections() == 1))
                # A connection counts from its accept; the exchange is open once its head is
                # judged (a signal before that finds an idle connection, and nothing to cut).
                if rule is not None:
                    self.assertTrue(wait_until(lambda: proxy.rules_matched() == 1))
                if rule is None or "throttle" in rule:
                    self.assertTrue(wait_until(lambda: len(store.received) == 1))
                code, log = proxy.stop(signum)
                self.assertEqual(code, 0, log[-3000:])
                self.assertIn("drain timeout of 1000 ms reached: 1 exchanges cut", log,
                              log[-3000:])
                self.assertNotIn("AddressSanitizer", log)

    def test_a_drain_that_finishes_says_nothing_was_cut(self):
        store = ScriptedStore(stalling_store)
        self.addCleanup(store.close)
        proxy = DrainingProxy(store.url)
        code, log = proxy.stop(signal.SIGTERM)
        self.assertEqual(code, 0, log)
        self.assertIn("drain done: 0 exchanges cut", log)

    def test_an_idle_pooled_store_connection_does_not_hold_up_the_drain(self):
        # The store connection goes back to the pool after a whole exchange and the client
        # leaves: nothing is in flight, so the drain ends at once, not when the idle
        # connection's last read deadline (--io-timeout, 60 s) would have passed.
        answer = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
        store = ScriptedStore(answer_every_request(answer))
        self.addCleanup(store.close)
        proxy = DrainingProxy(store.url, drain="30s")
        client = Connection(open_client(proxy.port, False))
        client.send(GET)
        head = client.read_head()
        self.assertIn(b" 200 ", head)
        self.assertEqual(client.read_exact(5), b"hello")
        client.close()
        self.assertTrue(wait_until(lambda: proxy.active_connections() == 0),
                        "the client connection did not end")
        code, log = proxy.stop(signal.SIGTERM)
        self.assertEqual(code, 0, log)
        self.assertIn("drain done: 0 exchanges cut", log)
        self.assertNotIn("drain timeout", log)


if __name__ == "__main__":
    unittest.main(verbosity=2)
