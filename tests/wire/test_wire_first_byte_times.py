"""The proxy's time figures against a raw client's own clock. TTFB runs from the request head's
arrival to the first response byte sent to the client, whatever held it (a delay rule, a
first-byte delay, the store); store_ttfb from the request written to the store to the store's
first response head. Only bounds that cannot flake are asserted: a delay is a lower bound, and
the proxy's TTFB can never exceed what the client measured from sending its head to its first
byte (both clocks are CLOCK_MONOTONIC; the proxy reads its clock after the head arrived and
before the first byte leaves).

    raw client (monotonic clock) ──> s3fault proxy --log-format json ──> ScriptedStore
"""

from __future__ import annotations

import json
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from wire import (Connection, Proxy, ScriptedStore, content_length, fault_args, s3fault_binary,
                  start_store_and_proxy, wait_until)

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nx-amz-request-id: R1\r\n\r\nok"
GET = b"GET /bucket/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
# Rounding of the logged milliseconds, nothing more: the bound itself is exact.
SLACK_MS = 1.0


def answer_after(pause: float, response: bytes = OK):
    """A store handler that answers each request `pause` seconds after its head arrived (a slow
    store, not a wait for readiness)."""

    def handler(conn: Connection, store: ScriptedStore) -> None:
        while True:
            try:
                head = conn.read_head()
            except (EOFError, OSError):
                return
            conn.read_exact(content_length(head))
            time.sleep(pause)
            conn.send(response)

    return handler


def exchange_lines(proxy: Proxy) -> list[dict]:
    """The proxy's JSON log lines of finished exchanges, in order."""
    lines = []
    for line in list(proxy.log):
        try:
            parsed = json.loads(line)
        except ValueError:
            continue
        if isinstance(parsed, dict) and parsed.get("event") == "exchange":
            lines.append(parsed)
    return lines


def only_exchange(proxy: Proxy) -> dict:
    assert wait_until(lambda: len(exchange_lines(proxy)) == 1), proxy.log
    return exchange_lines(proxy)[0]


def timed_first_byte(client: Connection, request: bytes) -> float:
    """Sends `request` and waits for the first response byte: the milliseconds in between, as
    the client's clock saw them."""
    sent = time.monotonic()
    client.send(request)
    client.await_bytes()
    return (time.monotonic() - sent) * 1000.0


class FirstByteTimesTest(unittest.TestCase):
    def start(self, handler, *args: str) -> tuple[ScriptedStore, Proxy]:
        store, proxy = start_store_and_proxy(self, handler, "--log-format", "json", *args)
        self.addCleanup(lambda: self.assertEqual(store.errors, [], "store handler errors"))
        return store, proxy

    def assert_within_client_time(self, line: dict, client_ms: float) -> None:
        self.assertLessEqual(line["ttfb_ms"], client_ms + SLACK_MS, line)

    def test_a_delay_rule_is_in_the_ttfb_everywhere_and_not_in_the_stores(self):
        tmp = Path(tempfile.mkdtemp(prefix="s3fault-ttfb-"))
        journal = tmp / "j.jsonl"
        _, proxy = self.start(answer_after(0), *fault_args("delay 700ms op=GetObject"),
                              "--admin", "127.0.0.1:0", "--journal", str(journal))
        client = proxy.connect()
        client_ms = timed_first_byte(client, GET)
        head = client.read_head()
        self.assertEqual(client.read_exact(content_length(head)), b"ok")
        line = only_exchange(proxy)
        self.assertGreaterEqual(line["ttfb_ms"], 700, line)
        self.assert_within_client_time(line, client_ms)
        # The store was asked after the delay and answered before the client's first byte.
        self.assertLessEqual(line["store_ttfb_ms"], line["ttfb_ms"] - 700, line)

        stats = json.load(urllib.request.urlopen(proxy.admin + "/stats", timeout=10))
        [gets] = [o for o in stats["operations"] if o["operation"] == "GetObject"]
        self.assertGreaterEqual(gets["ttfb_ms"]["max"], 700, gets)  # the maximum is exact
        self.assertLess(gets["store_ttfb_ms"]["max"], gets["ttfb_ms"]["max"] - 699, gets)
        self.assertEqual(gets["recent_store_ttfb_ms"]["count"], 1, gets)
        metrics = urllib.request.urlopen(proxy.admin + "/metrics", timeout=10).read().decode()
        sums = {sample.name: sample.value
                for family in text_string_to_metric_families(metrics)
                for sample in family.samples
                if sample.name.endswith("time_to_first_byte_seconds_sum")}
        self.assertGreaterEqual(sums["s3fault_time_to_first_byte_seconds_sum"], 0.7, sums)
        self.assertLess(sums["s3fault_store_time_to_first_byte_seconds_sum"], sums[
            "s3fault_time_to_first_byte_seconds_sum"] - 0.699, sums)

        client.close()
        self.assertEqual(proxy.stop(), 0)
        [entry] = [json.loads(text) for text in journal.read_text().splitlines()]
        self.assertEqual((entry["ttfb_ms"], entry["store_ttfb_ms"]),
                         (line["ttfb_ms"], line["store_ttfb_ms"]))
        har = tmp / "j.har"
        subprocess.run([s3fault_binary(), "journal", "to-har", str(journal), "-o", str(har)],
                       check=True, timeout=60)
        [har_entry] = json.loads(har.read_text())["log"]["entries"]
        self.assertEqual(har_entry["timings"]["wait"], entry["ttfb_ms"])
        self.assertEqual(har_entry["_s3fault"]["store_ttfb_ms"], entry["store_ttfb_ms"])

    def test_a_first_byte_delay_comes_after_the_stores_time(self):
        _, proxy = self.start(answer_after(0.2), *fault_args("first-byte-delay 500ms"))
        client = proxy.connect()
        client_ms = timed_first_byte(client, GET)
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))
        line = only_exchange(proxy)
        self.assertGreaterEqual(line["store_ttfb_ms"], 200, line)
        self.assertGreaterEqual(line["ttfb_ms"], line["store_ttfb_ms"] + 500, line)
        self.assert_within_client_time(line, client_ms)

    def test_an_interim_100_continue_is_the_first_byte(self):
        def handler(conn: Connection, store: ScriptedStore) -> None:
            head = conn.read_head()
            conn.send(b"HTTP/1.1 100 Continue\r\n\r\n")
            conn.read_exact(content_length(head))
            time.sleep(0.5)  # a slow store: the final answer comes long after the 100
            conn.send(OK)
            conn.read_until_close()

        _, proxy = self.start(handler)
        client = proxy.connect()
        client_ms = timed_first_byte(
            client, b"PUT /bucket/key HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n"
                    b"Content-Length: 4\r\n\r\n")
        self.assertEqual(client.read_head(), b"HTTP/1.1 100 Continue\r\n\r\n")
        client.send(b"data")
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))
        line = only_exchange(proxy)
        self.assert_within_client_time(line, client_ms)
        self.assertLessEqual(line["store_ttfb_ms"], line["ttfb_ms"], line)

    def test_an_answer_of_the_proxys_own_has_a_ttfb_and_no_store_ttfb(self):
        store, proxy = self.start(answer_after(0), *fault_args("delay 300ms", "error SlowDown"))
        client = proxy.connect()
        client_ms = timed_first_byte(client, GET)
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 503 "))
        line = only_exchange(proxy)
        self.assertGreaterEqual(line["ttfb_ms"], 300, line)
        self.assert_within_client_time(line, client_ms)
        self.assertNotIn("store_ttfb_ms", line)
        self.assertEqual(store.connections, 0)

    def test_no_answer_sent_no_ttfb(self):
        def swallow_the_body(conn: Connection, store: ScriptedStore) -> None:
            head = conn.read_head()
            store.received.append(head)
            conn.read_until_close()  # never answers: the client leaves mid-upload

        store, proxy = self.start(swallow_the_body)
        client = proxy.connect()
        client.send(b"PUT /bucket/key HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n" +
                    b"x" * 10)
        self.assertTrue(wait_until(lambda: len(store.received) == 1))
        # A reset: the client is gone, nothing can be sent to it (a FIN would be a body ended
        # early, which the proxy answers with a 400).
        client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                               b"\x01\x00\x00\x00\x00\x00\x00\x00")
        client.close()
        line = only_exchange(proxy)
        self.assertIn("client went away during the upload", line["outcome"])
        self.assertEqual(line["status"], 0, line)
        self.assertNotIn("ttfb_ms", line)
        self.assertNotIn("store_ttfb_ms", line)


if __name__ == "__main__":
    unittest.main()
