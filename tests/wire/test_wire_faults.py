"""Every fault action through the proxy, at byte level: a scripted store sends a known response
and records what reached it; the raw client checks exactly what it was given."""

from __future__ import annotations

import time
import unittest
import xml.etree.ElementTree as ElementTree

from wire import (Connection, Proxy, ScriptedStore, answer_every_request, content_length,
                  fault_args, start_store_and_proxy, wait_until)

BODY = bytes(range(256)) * 400  # 102400 bytes, every offset recognisable
RESPONSE = (b"HTTP/1.1 206 Partial Content\r\nETag: \"e-3\"\r\nx-amz-mp-parts-count: 3\r\n"
            b"Content-Range: bytes 1000-103399/500000\r\nContent-Length: %d\r\n\r\n" % len(BODY)
            + BODY)
GET = b"GET /bucket/key.bin?partNumber=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


class FaultActionTest(unittest.TestCase):
    def start(self, *faults: str, handler=None) -> tuple[ScriptedStore, Proxy]:
        return start_store_and_proxy(self, handler or answer_every_request(RESPONSE),
                                     *fault_args(*faults))

    def get(self, proxy: Proxy, request: bytes = GET) -> tuple[Connection, bytes]:
        client = proxy.connect()
        client.send(request)
        return client, client.read_head()

    def test_strip_set_header_and_set_status(self):
        _, proxy = self.start("strip-header x-amz-mp-parts-count",
                              "set-header ETag '\"changed\"'", "set-status 200")
        client, head = self.get(proxy)
        self.assertTrue(head.startswith(b"HTTP/1.1 200 OK\r\n"), head)
        self.assertNotIn(b"x-amz-mp-parts-count", head)
        self.assertIn(b"ETag: \"changed\"\r\n", head)
        self.assertEqual(client.read_exact(content_length(head)), BODY)

    def test_truncate_close_keeps_the_length_and_closes(self):
        _, proxy = self.start("truncate 1000")
        client, head = self.get(proxy)
        self.assertEqual(content_length(head), len(BODY))
        body, how = client.read_outcome()
        self.assertEqual((body, how), (BODY[:1000], "eof"))
        self.assertTrue(proxy.wait_for_log("faults=truncate-1:truncate"), proxy.log)

    def test_truncate_consistent_rewrites_length_and_range(self):
        _, proxy = self.start("truncate 50% mode=consistent")
        client, head = self.get(proxy)
        half = len(BODY) // 2
        self.assertEqual(content_length(head), half)
        self.assertIn(b"Content-Range: bytes 1000-%d/500000\r\n" % (1000 + half - 1), head)
        self.assertEqual(client.read_exact(half), BODY[:half])
        # The short body looked complete, and the connection carries the next exchange.
        client.send(GET)
        self.assertEqual(content_length(client.read_head()), half)
        self.assertEqual(client.read_exact(half), BODY[:half])

    def test_truncate_length_only_keeps_the_range_of_a_206(self):
        _, proxy = self.start("truncate 1000 mode=length-only")
        client, head = self.get(proxy)
        # The store's head byte for byte, but for the length: the range still claims the span.
        store_head = RESPONSE[:RESPONSE.index(b"\r\n\r\n") + 4]
        expected = store_head.replace(b"Content-Length: %d\r\n" % len(BODY),
                                      b"Content-Length: 1000\r\n")
        self.assertIn(b"Content-Range: bytes 1000-103399/500000\r\n", expected)
        self.assertEqual(head, expected)
        self.assertEqual(client.read_exact(1000), BODY[:1000])
        # Exactly the cut: the next bytes on the connection are the second answer's head.
        client.send(GET)
        self.assertEqual(client.read_head(), expected)
        self.assertEqual(client.read_exact(1000), BODY[:1000])
        self.assertTrue(proxy.wait_for_log("faults=truncate-1:truncate"), proxy.log)

    def test_corrupt_flips_exactly_the_given_bytes(self):
        _, proxy = self.start("corrupt 0,5,102399")
        client, head = self.get(proxy)
        got = client.read_exact(content_length(head))
        expected = bytearray(BODY)
        for offset in (0, 5, 102399):
            expected[offset] ^= 0xFF
        self.assertEqual(got, bytes(expected))

    def test_reset_after_bytes(self):
        _, proxy = self.start("reset-after 4096")
        client, _ = self.get(proxy)
        body, how = client.read_outcome()
        self.assertEqual((body, how), (BODY[:4096], "reset"))

    def test_delay_stall_throttle_and_first_byte_delay_take_their_time(self):
        for fault, at_least in (("delay 300ms", 0.3), ("first-byte-delay 300ms", 0.3),
                                ("stall 1000 300ms", 0.3), ("throttle 200KiB/s", 0.4)):
            with self.subTest(fault=fault):
                store, proxy = self.start(fault)
                started = time.monotonic()
                client, head = self.get(proxy)
                self.assertEqual(client.read_exact(content_length(head)), BODY)
                self.assertGreaterEqual(time.monotonic() - started, at_least)

    def test_error_answers_for_the_store_and_head_gets_no_body(self):
        store, proxy = self.start("error SlowDown retry_after=2")
        client, head = self.get(proxy)
        self.assertTrue(head.startswith(b"HTTP/1.1 503 "), head)
        self.assertIn(b"Retry-After: 2\r\n", head)
        root = ElementTree.fromstring(client.read_exact(content_length(head)))
        self.assertEqual(root.findtext("Code"), "SlowDown")
        client.send(b"HEAD /bucket/key.bin HTTP/1.1\r\nHost: h\r\n\r\n")
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 503 "), head)
        self.assertEqual(content_length(head), 0)
        self.assertEqual(store.connections, 0)

    def test_reset_and_hang_before_the_store(self):
        store, proxy = self.start("reset")
        client, how = proxy.connect(), None
        client.send(GET)
        self.assertEqual(client.read_outcome(), (b"", "reset"))
        store2, hanging = self.start("hang")
        client = hanging.connect()
        client.sock.settimeout(0.5)
        client.send(GET)
        self.assertEqual(client.read_outcome(), (b"", "timeout"))
        self.assertEqual((store.connections, store2.connections), (0, 0))

    def test_forward_then_error_reaches_the_store(self):
        def handler(conn: Connection, store: ScriptedStore):
            head = conn.read_head()
            store.received.append(head.split(b" ")[1])
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            conn.read_until_close()

        store, proxy = self.start("forward-then-error InternalError", handler=handler)
        client, head = self.get(proxy, b"PUT /bucket/k HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
        self.assertTrue(head.startswith(b"HTTP/1.1 500 "), head)
        self.assertEqual(store.received, [b"/bucket/k"])

    def test_forward_then_reset_lets_the_store_act_and_the_client_gets_only_a_reset(self):
        def handler(conn: Connection, store: ScriptedStore):
            head = conn.read_head()
            store.received.append(conn.read_exact(content_length(head)))
            conn.send(b"HTTP/1.1 200 OK\r\nETag: \"e\"\r\nContent-Length: 2\r\n\r\nok")
            conn.read_until_close()

        store, proxy = self.start("forward-then-reset op=PutObject name=lost", handler=handler)
        client = proxy.connect()
        client.send(b"PUT /bucket/k HTTP/1.1\r\nHost: h\r\nContent-Length: "
                    + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)
        self.assertEqual(client.read_outcome(), (b"", "reset"))
        self.assertTrue(wait_until(lambda: store.received))
        self.assertEqual(store.received[0], BODY)
        self.assertTrue(proxy.wait_for_log("faults=lost:forward-then-reset"), proxy.log)
        self.assertTrue(proxy.wait_for_log("the store answered 200, the client got a reset"),
                        proxy.log)

    def test_request_stall_pauses_the_upload_once_at_the_offset(self):
        def handler(conn: Connection, store: ScriptedStore):
            head = conn.read_head()
            first = conn.read_exact(1000)
            at = time.monotonic()
            rest = conn.read_exact(content_length(head) - 1000)
            store.received.append((first + rest, time.monotonic() - at))
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

        store, proxy = self.start("request-stall 1000 300ms name=pause", handler=handler)
        started = time.monotonic()
        client, head = self.get(proxy, b"PUT /bucket/k HTTP/1.1\r\nHost: h\r\nContent-Length: "
                                + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)
        took = time.monotonic() - started
        self.assertTrue(head.startswith(b"HTTP/1.1 200 "), head)
        self.assertTrue(wait_until(lambda: store.received))
        body, waited = store.received[0]
        self.assertEqual(body, BODY)
        # The client's clock bounds the pause from below on any machine; the store's reads only
        # place it (a store thread that reads the first 1000 bytes late shortens its gap, so the
        # gap gets a tolerance: without the pause it is a millisecond).
        self.assertGreaterEqual(took, 0.3, "the exchange took less than the pause")
        self.assertGreaterEqual(waited, 0.2, "the bytes after offset 1000 came without the pause")
        self.assertTrue(proxy.wait_for_log("faults=pause:request-stall"), proxy.log)

    def test_request_reset_after_cuts_the_upload(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            store.received.append(conn.read_until_close())

        store, proxy = self.start("request-reset-after 100", handler=handler)
        client = proxy.connect()
        client.send(b"PUT /bucket/k HTTP/1.1\r\nHost: h\r\nContent-Length: 5000\r\n\r\n"
                    + b"u" * 5000)
        _, how = client.read_outcome()
        self.assertEqual(how, "reset")
        self.assertTrue(wait_until(lambda: store.received))
        self.assertEqual(store.received[0], b"u" * 100)

    def test_request_corrupt_flips_exactly_the_given_upload_bytes(self):
        def handler(conn: Connection, store: ScriptedStore):
            head = conn.read_head()
            store.received.append(conn.read_exact(content_length(head)))
            conn.send(b"HTTP/1.1 200 OK\r\nETag: \"e\"\r\nContent-Length: 0\r\n\r\n")

        store, proxy = self.start("request-corrupt 0,5,102399 name=flip", handler=handler)
        client, head = self.get(proxy, b"PUT /bucket/k HTTP/1.1\r\nHost: h\r\nContent-Length: "
                                + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)
        self.assertTrue(head.startswith(b"HTTP/1.1 200 "), head)
        expected = bytearray(BODY)
        for offset in (0, 5, 102399):
            expected[offset] ^= 0xFF
        self.assertTrue(wait_until(lambda: store.received))
        self.assertEqual(store.received[0], bytes(expected))
        self.assertTrue(proxy.wait_for_log("faults=flip:request-corrupt"), proxy.log)

    def test_request_corrupt_of_an_empty_upload_changes_nothing_and_does_not_count(self):
        def handler(conn: Connection, store: ScriptedStore):
            store.received.append(conn.read_head())
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

        store, proxy = self.start("request-corrupt 0 name=flip", handler=handler)
        client, head = self.get(proxy, b"PUT /bucket/k HTTP/1.1\r\nHost: h\r\n"
                                b"Content-Length: 0\r\n\r\n")
        self.assertTrue(head.startswith(b"HTTP/1.1 200 "), head)
        self.assertTrue(proxy.wait_for_log("PUT /bucket/k 200"), proxy.log)
        self.assertEqual([line for line in proxy.log if "faults=flip" in line], [])

    def test_rules_match_by_operation_and_part(self):
        _, proxy = self.start("strip-header x-amz-mp-parts-count op=GetObject part=2")
        _, head = self.get(proxy)  # part 1: untouched
        self.assertIn(b"x-amz-mp-parts-count: 3", head)
        _, head = self.get(proxy, GET.replace(b"partNumber=1", b"partNumber=2"))
        self.assertNotIn(b"x-amz-mp-parts-count", head)


if __name__ == "__main__":
    unittest.main(verbosity=2)
