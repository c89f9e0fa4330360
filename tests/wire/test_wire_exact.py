"""Each action does exactly what it says, checked on raw sockets at both ends of the proxy:
byte counts of resets, framing that matches the status, the proxy's own answers carrying what a
store's would, and what is logged and counted for answers the client never got.

    raw client ──> s3fault proxy --fault RULE ──> ScriptedStore (records every byte it got)
"""

from __future__ import annotations

import json
import socket
import threading
import unittest
import urllib.request

from wire import (DEADLINE, Connection, Proxy, ScriptedStore, answer_every_request,
                  content_length, fault_args, header, start_store_and_proxy, wait_until)

MIB = 1024 * 1024
BIG = bytes(range(256)) * (16 * 1024)  # 4 MiB, every offset recognisable
BIG_RESPONSE = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(BIG) + BIG
GET = b"GET /bucket/key HTTP/1.1\r\nHost: h\r\n\r\n"
RUNS = 20


def read_until_reset(conn: Connection) -> tuple[int, str]:
    """Reads everything up to the end of the connection: (bytes, 'reset' | 'eof' | 'timeout')."""
    total, how = len(conn.buffer), "eof"
    conn.buffer = b""
    try:
        while True:
            chunk = conn.sock.recv(65536)
            if not chunk:
                break
            total += len(chunk)
    except ConnectionResetError:
        how = "reset"
    except socket.timeout:
        how = "timeout"
    return total, how


def metrics_text(admin: str) -> str:
    with urllib.request.urlopen(admin + "/metrics", timeout=DEADLINE) as answer:
        return answer.read().decode()


class ExactFaultTest(unittest.TestCase):
    def start(self, *args: str, handler=None) -> tuple[ScriptedStore, Proxy]:
        return start_store_and_proxy(self, handler or answer_every_request(BIG_RESPONSE), *args)

    def test_reset_after_delivers_exactly_n_bytes_then_a_reset(self):
        _, proxy = self.start("--fault", "reset-after 1MiB")
        for run in range(RUNS):
            client = proxy.connect()
            client.send(GET)
            head = client.read_head()
            self.assertEqual(content_length(head), len(BIG))
            got, how = read_until_reset(client)
            client.close()
            self.assertEqual((got, how), (MIB, "reset"), f"run {run + 1} of {RUNS}")
        self.assertTrue(proxy.wait_for_log("fault: connection reset mid-body"))
        print(f"reset-after 1MiB: {RUNS} of {RUNS} runs gave the client exactly {MIB} body "
              f"bytes, then a reset", flush=True)

    def test_reset_after_to_a_client_that_already_left_ends_the_exchange(self):
        # The client reads the head and closes before the body comes: the proxy's bytes meet its
        # kernel's RST. Nothing can be delivered any more, so the exchange ends and is reported
        # then, not at --io-timeout (the kernel still counts the unacknowledged bytes).
        client_gone = threading.Event()

        def head_then_body_once_the_client_left(conn: Connection, store: ScriptedStore) -> None:
            try:
                conn.read_head()
                conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 65536\r\n\r\n")
                client_gone.wait(DEADLINE)
                conn.send(b"b" * 65536)
                conn.read_until_close()
            except OSError:
                pass

        _, proxy = self.start("--fault", "reset-after 50%", "--io-timeout", "600s",
                              "--drain-timeout", "600s",
                              handler=head_then_body_once_the_client_left)
        client = proxy.connect()
        client.send(GET)
        self.assertEqual(content_length(client.read_head()), 65536)
        client.close()
        client_gone.set()
        self.assertTrue(proxy.wait_for_log("fault: connection reset mid-body"), proxy.log)
        reported = next(line for line in proxy.log if "GET /bucket/key" in line)
        self.assertNotIn("unacknowledged", reported)

    def test_reset_after_a_fraction_delivers_exactly_that_share_then_a_reset(self):
        _, proxy = self.start("--fault", "reset-after 50%")
        for run in range(RUNS):
            client = proxy.connect()
            client.send(GET)
            self.assertEqual(content_length(client.read_head()), len(BIG))
            got, how = read_until_reset(client)
            client.close()
            self.assertEqual((got, how), (len(BIG) // 2, "reset"), f"run {run + 1} of {RUNS}")
        odd = b"HTTP/1.1 200 OK\r\nContent-Length: 1001\r\n\r\n" + b"o" * 1001
        _, proxy = self.start("--fault", "reset-after 50%", handler=answer_every_request(odd))
        client = proxy.connect()
        client.send(GET)
        client.read_head()
        self.assertEqual(read_until_reset(client), (500, "reset"))  # rounded down

    def test_reset_after_a_fraction_of_an_undeclared_length_is_skipped(self):
        chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                   b"5\r\nhello\r\n0\r\n\r\n")
        store = ScriptedStore(answer_every_request(chunked))
        self.addCleanup(store.close)
        proxy = Proxy(store.url, "--fault", "reset-after 50% name=half", "--admin", "127.0.0.1:0")
        self.addCleanup(proxy.stop)
        client = proxy.connect()
        for _ in range(2):  # the whole body, and the connection carries the next exchange
            client.send(GET)
            self.assertIn(b"Transfer-Encoding: chunked", client.read_head())
            self.assertEqual(client.read_exact(len(b"5\r\nhello\r\n0\r\n\r\n")),
                             b"5\r\nhello\r\n0\r\n\r\n")
        # Counters settle when an exchange ends, just before its log line: wait for both lines.
        self.assertTrue(wait_until(lambda: sum("GET /bucket/" in line for line in proxy.log) == 2),
                        proxy.log)
        with urllib.request.urlopen(proxy.admin + "/rules/half", timeout=DEADLINE) as answer:
            counters = json.load(answer)["counters"]
        self.assertEqual(counters, {"matched": 2, "injected": 0, "skipped": 2})

    def test_request_reset_after_a_fraction_cuts_the_upload_at_that_share(self):
        def store_reads_until_reset(conn: Connection, store: ScriptedStore) -> None:
            conn.read_head()
            got, how = read_until_reset(conn)
            store.received.append(f"{got} {how}".encode())

        store, proxy = self.start("--fault", "request-reset-after 25%",
                                  handler=store_reads_until_reset)
        client = proxy.connect()
        client.send(b"PUT /bucket/key HTTP/1.1\r\nHost: h\r\nContent-Length: %d\r\n\r\n"
                    % len(BIG))
        try:
            client.sock.sendall(BIG)
            _, how = read_until_reset(client)
        except ConnectionResetError:
            how = "reset"  # met while still sending: the same fault
        self.assertEqual(how, "reset")
        self.assertTrue(wait_until(lambda: store.received))
        self.assertEqual(store.received[0], b"%d reset" % (len(BIG) // 4))

    def test_request_reset_after_lets_exactly_n_bytes_reach_the_store(self):
        def store_reads_until_reset(conn: Connection, store: ScriptedStore) -> None:
            conn.read_head()
            got, how = read_until_reset(conn)
            store.received.append(f"{got} {how}".encode())

        store, proxy = self.start("--fault", "request-reset-after 1MiB",
                                  handler=store_reads_until_reset)
        upload = b"PUT /bucket/key HTTP/1.1\r\nHost: h\r\nContent-Length: %d\r\n\r\n" % len(BIG)
        for run in range(RUNS):
            client = proxy.connect()
            client.send(upload)
            try:
                client.sock.sendall(BIG)
                _, how = read_until_reset(client)
            except ConnectionResetError:
                how = "reset"  # met while still sending: the same fault
            client.close()
            self.assertEqual(how, "reset", f"run {run + 1}: the client must see a reset")
            self.assertTrue(wait_until(lambda: len(store.received) == run + 1))
            self.assertEqual(store.received[run], b"%d reset" % MIB, f"run {run + 1} of {RUNS}")
        print(f"request-reset-after 1MiB: {RUNS} of {RUNS} runs gave the store exactly {MIB} "
              f"body bytes, then a reset", flush=True)

    def test_truncate_length_only_of_a_200_sends_exactly_the_cut(self):
        store, proxy = self.start("--fault", "truncate 50% mode=length-only")
        half = len(BIG) // 2
        client = proxy.connect()
        for _ in range(2):
            client.send(GET)
            self.assertEqual(client.read_head(),
                             b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % half)
            self.assertEqual(client.read_exact(half), BIG[:half])
        # Not a byte more, and the store's connection carried both (its rest was read and dropped).
        client.sock.settimeout(0.3)
        self.assertEqual(read_until_reset(client), (0, "timeout"))
        self.assertEqual(store.connections, 1)

    def test_an_upload_reset_is_logged_and_counted_as_a_reset_not_a_status(self):
        def store_reads_until_reset(conn: Connection, store: ScriptedStore) -> None:
            conn.read_head()
            read_until_reset(conn)

        store = ScriptedStore(store_reads_until_reset)
        self.addCleanup(store.close)
        proxy = Proxy(store.url, "--fault", "request-reset-after 1000", "--admin", "127.0.0.1:0",
                      "--log-format", "json")
        self.addCleanup(proxy.stop)
        client = proxy.connect()
        client.send(b"PUT /bucket/key HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n")
        try:
            client.sock.sendall(b"u" * 100000)
            self.assertEqual(read_until_reset(client), (0, "reset"))
        except ConnectionResetError:
            pass  # met while still sending: the same fault
        self.assertTrue(proxy.wait_for_log('"outcome":"fault: upload reset after 1000 bytes"'),
                        proxy.log)
        line = next(entry for entry in proxy.log if "upload reset" in entry)
        self.assertIn('"status":0', line)
        self.assertIn('"response_bytes":0', line)
        counted = 's3fault_requests_total{operation="PutObject",status_class="none"} 1'
        # The proxy logs an exchange, then counts it: the log line can come first.
        wait_until(lambda: counted in metrics_text(proxy.admin))
        text = metrics_text(proxy.admin)
        self.assertIn(counted, text)
        self.assertNotIn('status_class="5xx"', text)

    def test_hang_is_logged_without_a_status(self):
        _, proxy = self.start("--fault", "hang", "--log-format", "json")
        client = proxy.connect()
        client.send(GET)
        client.sock.settimeout(0.3)
        self.assertEqual(read_until_reset(client), (0, "timeout"))
        client.close()
        self.assertTrue(proxy.wait_for_log('"outcome":"fault: no answer (hang)"'), proxy.log)
        line = next(entry for entry in proxy.log if "no answer (hang)" in entry)
        self.assertIn('"status":0', line)


    def test_a_fault_that_changed_nothing_is_not_counted(self):
        store = ScriptedStore(answer_every_request(BIG_RESPONSE))
        self.addCleanup(store.close)
        proxy = Proxy(store.url, "--fault", "truncate 100% name=whole", "--fault",
                      "truncate 50% mode=consistent key=half name=half", "--admin", "127.0.0.1:0")
        self.addCleanup(proxy.stop)
        client = proxy.connect()
        for key, length in ((b"key", len(BIG)), (b"half", len(BIG) // 2)):
            client.send(GET.replace(b"/bucket/key", b"/bucket/" + key))
            head = client.read_head()
            self.assertEqual(len(client.read_exact(content_length(head))), length)
        with urllib.request.urlopen(proxy.admin + "/rules", timeout=DEADLINE) as answer:
            rules = {rule["name"]: rule["counters"] for rule in json.load(answer)["rules"]}
        self.assertEqual(rules["whole"], {"matched": 2, "injected": 0, "skipped": 2})
        self.assertEqual(rules["half"], {"matched": 1, "injected": 1, "skipped": 0})
        self.assertTrue(proxy.wait_for_log("/bucket/half"))
        lines = [line for line in proxy.log if "GET /bucket/" in line]
        self.assertNotIn("faults=", lines[0])
        self.assertIn("faults=half:truncate", lines[1])
        injected = 's3fault_faults_injected_total{rule="half"} 1'
        # The proxy logs an exchange, then counts it: the log line can come first.
        wait_until(lambda: injected in metrics_text(proxy.admin))
        text = metrics_text(proxy.admin)
        self.assertIn(injected, text)
        self.assertNotIn('rule="whole"', text)


    def test_a_strip_of_an_absent_header_is_not_counted(self):
        response = (b"HTTP/1.1 200 OK\r\nETag: \"e\"\r\nx-amz-mp-parts-count: 2\r\n"
                    b"Content-Length: 5\r\n\r\nhello")
        store = ScriptedStore(answer_every_request(response))
        self.addCleanup(store.close)
        proxy = Proxy(store.url, "--fault", "strip-header x-amz-checksum-crc32 name=absent",
                      "--fault", "strip-header x-amz-mp-parts-count key=present name=present",
                      "--admin", "127.0.0.1:0")
        self.addCleanup(proxy.stop)
        client = proxy.connect()
        client.send(GET)
        self.assertEqual(client.read_head() + client.read_exact(5), response)  # untouched
        client.send(GET.replace(b"/bucket/key", b"/bucket/present"))
        self.assertEqual(client.read_head(),
                         b"HTTP/1.1 200 OK\r\nETag: \"e\"\r\nContent-Length: 5\r\n\r\n")
        self.assertEqual(client.read_exact(5), b"hello")
        # Counters settle when an exchange ends, just before its log line.
        self.assertTrue(proxy.wait_for_log("/bucket/present"))
        with urllib.request.urlopen(proxy.admin + "/rules", timeout=DEADLINE) as answer:
            rules = {rule["name"]: rule["counters"] for rule in json.load(answer)["rules"]}
        self.assertEqual(rules["absent"], {"matched": 2, "injected": 0, "skipped": 2})
        self.assertEqual(rules["present"], {"matched": 1, "injected": 1, "skipped": 0})
        lines = [line for line in proxy.log if "GET /bucket/" in line]
        self.assertNotIn("faults=", lines[0])
        self.assertIn("faults=present:strip-header", lines[1])
        self.assertNotIn("absent", lines[1])
        injected = 's3fault_faults_injected_total{rule="present"} 1'
        # The proxy logs an exchange, then counts it: the log line can come first.
        wait_until(lambda: injected in metrics_text(proxy.admin))
        text = metrics_text(proxy.admin)
        self.assertIn(injected, text)
        self.assertNotIn('rule="absent"', text)


class FramingTest(unittest.TestCase):
    """Statuses without a body go out with none, whatever the store sent; and the connection
    carries the next exchange, which shows the framing was right."""

    SMALL = b"HTTP/1.1 200 OK\r\nETag: \"e\"\r\nContent-Length: 5\r\n\r\nhello"

    def start(self, response: bytes, *faults: str) -> Proxy:
        return start_store_and_proxy(self, answer_every_request(response), *fault_args(*faults))[1]

    def exchange_twice(self, proxy: Proxy, request: bytes = GET) -> list[bytes]:
        client = proxy.connect()
        heads = []
        for _ in range(2):
            client.send(request)
            heads.append(client.read_head())
        # Nothing but the two heads came: no body bytes after a bodyless status.
        client.sock.settimeout(0.3)
        self.assertEqual(read_until_reset(client), (0, "timeout"))
        return heads

    def test_set_status_204_sends_no_body_and_no_length(self):
        for head in self.exchange_twice(self.start(self.SMALL, "set-status 204")):
            self.assertTrue(head.startswith(b"HTTP/1.1 204 No Content\r\n"), head)
            self.assertIsNone(header(head, b"Content-Length"))
            self.assertIsNone(header(head, b"Transfer-Encoding"))

    def test_set_status_304_keeps_the_length_but_sends_no_body(self):
        for head in self.exchange_twice(self.start(self.SMALL, "set-status 304")):
            self.assertTrue(head.startswith(b"HTTP/1.1 304 Not Modified\r\n"), head)
            self.assertEqual(header(head, b"Content-Length"), b"5")

    def test_a_chunked_body_is_dropped_for_a_bodyless_status(self):
        chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                   b"5\r\nhello\r\n0\r\n\r\n")
        for head in self.exchange_twice(self.start(chunked, "set-status 204")):
            self.assertTrue(head.startswith(b"HTTP/1.1 204 "), head)
            self.assertIsNone(header(head, b"Transfer-Encoding"))

    def test_a_status_with_a_body_gets_a_length_when_the_store_sent_none(self):
        no_content = b"HTTP/1.1 204 No Content\r\nETag: \"e\"\r\n\r\n"
        for head in self.exchange_twice(self.start(no_content, "set-status 200")):
            self.assertTrue(head.startswith(b"HTTP/1.1 200 OK\r\n"), head)
            self.assertEqual(header(head, b"Content-Length"), b"0")

    def test_head_answers_carry_the_length_and_no_body(self):
        proxy = self.start(self.SMALL, "set-status 404")
        for head in self.exchange_twice(proxy, b"HEAD /bucket/key HTTP/1.1\r\nHost: h\r\n\r\n"):
            self.assertTrue(head.startswith(b"HTTP/1.1 404 Not Found\r\n"), head)
            self.assertEqual(header(head, b"Content-Length"), b"5")

    def test_consistent_truncation_of_a_range_to_zero_is_an_empty_object(self):
        ranged = (b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 100-104/1000\r\n"
                  b"Content-Length: 5\r\n\r\nhello")
        proxy = self.start(ranged, "truncate 0 mode=consistent")
        for head in self.exchange_twice(proxy):
            self.assertTrue(head.startswith(b"HTTP/1.1 200 OK\r\n"), head)
            self.assertEqual(header(head, b"Content-Length"), b"0")
            self.assertIsNone(header(head, b"Content-Range"))

    def test_length_only_truncation_of_a_range_to_zero_keeps_the_206(self):
        ranged = (b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 100-104/1000\r\n"
                  b"Content-Length: 5\r\n\r\nhello")
        proxy = self.start(ranged, "truncate 0 mode=length-only")
        for head in self.exchange_twice(proxy):
            self.assertEqual(head, b"HTTP/1.1 206 Partial Content\r\n"
                             b"Content-Range: bytes 100-104/1000\r\nContent-Length: 0\r\n\r\n")

    def test_framing_header_edits_are_refused_with_what_to_use(self):
        for fault in ("strip-header Content-Length", "set-header Transfer-Encoding chunked",
                      "set-header content-length 3", "set-status 100"):
            with self.subTest(fault=fault):
                store = ScriptedStore(answer_every_request(self.SMALL))
                self.addCleanup(store.close)
                with self.assertRaises(RuntimeError) as refused:
                    Proxy(store.url, "--fault", fault)
                message = str(refused.exception)
                self.assertRegex(message, "use truncate|1xx are interim", message)


class LocalAnswerTest(unittest.TestCase):
    """Answers the proxy makes itself look like a store's: Date, Server, both request ids, and a
    reason phrase for any status."""

    def answer(self, *args: str) -> bytes:
        _, proxy = start_store_and_proxy(self, answer_every_request(FramingTest.SMALL), *args)
        client = proxy.connect()
        client.send(GET)
        return client.read_head()

    def assert_store_like(self, head: bytes, server: bytes) -> None:
        self.assertRegex(header(head, b"Date") or b"",
                         rb"^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$")
        self.assertEqual(header(head, b"Server"), server)
        self.assertRegex(header(head, b"x-amz-request-id") or b"", rb"^[0-9A-F]{16}$")
        self.assertRegex(header(head, b"x-amz-id-2") or b"", rb"^[A-Za-z0-9+/]{64}$")
        self.assertEqual(head.count(b"x-amz-request-id"), 1, head)

    def test_fault_errors_carry_what_a_store_answer_does(self):
        head = self.answer("--fault", "error SlowDown")
        self.assertTrue(head.startswith(b"HTTP/1.1 503 Service Unavailable\r\n"), head)
        self.assert_store_like(head, b"AmazonS3")

    def test_any_status_gets_a_reason_phrase(self):
        head = self.answer("--fault", "error Custom 587", "--server-header", "MinIO")
        self.assertTrue(head.startswith(b"HTTP/1.1 587 Server Error\r\n"), head)
        self.assert_store_like(head, b"MinIO")
        head = self.answer("--fault", "set-status 477")
        self.assertTrue(head.startswith(b"HTTP/1.1 477 Client Error\r\n"), head)

    def test_gateway_errors_carry_what_a_store_answer_does(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        proxy = Proxy(f"http://127.0.0.1:{port}")  # nothing listens there
        self.addCleanup(proxy.stop)
        client = proxy.connect()
        client.send(GET)
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 502 Bad Gateway\r\n"), head)
        self.assert_store_like(head, b"AmazonS3")


if __name__ == "__main__":
    unittest.main(verbosity=2)
