"""The proxy's relay, byte for byte: what the client sends is what the store receives (less
hop-by-hop fields), and what the store sends is what the client receives. Also the framing edge
cases that real clients rarely produce on demand: chunked bodies with extensions and trailers,
100-continue, pipelining, close-delimited bodies, a store that dies mid-body or sends garbage."""

from __future__ import annotations

import time
import unittest
import xml.etree.ElementTree as ElementTree

import socket

from wire import (Connection, Proxy, ScriptedStore, answer_every_request, content_length,
                  free_port, start_store_and_proxy, wait_until)

OK_EMPTY = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"


class RelayTest(unittest.TestCase):
    def start(self, handler, *proxy_args: str) -> tuple[ScriptedStore, Proxy]:
        store, proxy = start_store_and_proxy(self, handler, *proxy_args)
        self.addCleanup(lambda: self.assertEqual(store.errors, [], "store handler errors"))
        return store, proxy

    def assert_s3_error(self, response: bytes, status: int, code: str) -> None:
        head, _, body = response.partition(b"\r\n\r\n")
        self.assertTrue(head.startswith(f"HTTP/1.1 {status} ".encode()), head)
        self.assertIn(b"x-amz-request-id: ", head)
        root = ElementTree.fromstring(body[: content_length(head + b"\r\n\r\n")])
        self.assertEqual(root.tag, "Error")
        self.assertEqual(root.findtext("Code"), code)
        self.assertTrue(root.findtext("Message"))

    def test_request_and_response_bytes_are_exact_except_hop_by_hop(self):
        request = (
            b"PUT /bucket/a%20b%2Fc%C3%A9?partNumber=2&uploadId=x%3Dy%2F HTTP/1.1\r\n"
            b"Host: 127.0.0.1:1234\r\n"
            b"x-amz-date: 20261129T000000Z\r\n"
            b"X-Amz-Content-SHA256: UNSIGNED-PAYLOAD\r\n"
            b"Connection: keep-alive, X-Hop\r\n"
            b"X-Hop: drop me\r\n"
            b"Keep-Alive: timeout=5\r\n"
            b"Authorization: AWS4-HMAC-SHA256 Credential=AK/20261129/us-east-1/s3/aws4_request, "
            b"SignedHeaders=host;x-amz-date, Signature=abc\r\n"
            b"x-amz-meta-Dup: one\r\n"
            b"x-amz-meta-Dup: two\r\n"
            b"Content-Length: 11\r\n\r\n"
            b"hello world")
        expected_at_store = b"".join(
            line + b"\r\n" for line in request.split(b"\r\n\r\n")[0].split(b"\r\n")
            if not line.lower().startswith((b"connection:", b"x-hop:", b"keep-alive:"))
        ) + b"\r\nhello world"
        response = (b"HTTP/1.1 200 Fine By Me\r\nETag: \"5eb63bbbe01eeed093cb22bb8f5acdc3\"\r\n"
                    b"x-amz-request-id: R1\r\nx-amz-id-2: I2\r\nConnection: keep-alive\r\n"
                    b"Keep-Alive: timeout=60\r\nContent-Length: 3\r\n\r\nabc")
        expected_at_client = response.replace(b"Connection: keep-alive\r\n", b"").replace(
            b"Keep-Alive: timeout=60\r\n", b"")

        def handler(conn: Connection, store: ScriptedStore):
            head = conn.read_head()
            store.received.append(head + conn.read_exact(content_length(head)))
            conn.send(response)
            conn.read_until_close()

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.send(request)
        head = client.read_head()
        got = head + client.read_exact(content_length(head))
        self.assertEqual(store.received, [expected_at_store])
        self.assertEqual(got, expected_at_client)

    def test_chunked_upload_with_extensions_and_trailers_passes_unchanged(self):
        body = (b"10;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648\r\n"
                b"0123456789abcdef\r\n"
                b"3\r\nxyz\r\n"
                b"0\r\nx-amz-checksum-crc32:sOO8/Q==\r\nx-amz-trailer-signature:abc\r\n\r\n")
        head = (b"PUT /b/k HTTP/1.1\r\nHost: h\r\nContent-Encoding: aws-chunked\r\n"
                b"x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER\r\n"
                b"x-amz-decoded-content-length: 19\r\nx-amz-trailer: x-amz-checksum-crc32\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n")

        def handler(conn: Connection, store: ScriptedStore):
            store.received.append(conn.read_head() + conn.read_exact(len(body)))
            conn.send(OK_EMPTY)
            conn.read_until_close()

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.send(head + body[:7])
        time.sleep(0.05)  # split the body across reads on purpose
        client.send(body[7:])
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))
        self.assertEqual(store.received, [head + body])

    def test_chunked_response_with_trailers_passes_unchanged(self):
        response = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: x-t\r\n\r\n"
                    b"5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nx-t: done\r\n\r\n")

        _, proxy = self.start(answer_every_request(response))
        client = proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        self.assertEqual(client.read_exact(len(response)), response)
        # The connection is still usable: the chunked end was found exactly.
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        self.assertEqual(client.read_exact(len(response)), response)

    def test_expect_100_continue_is_relayed(self):
        def handler(conn: Connection, store: ScriptedStore):
            head = conn.read_head()
            conn.send(b"HTTP/1.1 100 Continue\r\n\r\n")
            store.received.append(conn.read_exact(content_length(head)))
            conn.send(OK_EMPTY)
            conn.read_until_close()

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.sock.settimeout(0.8)  # the proxy must pass the 100 on, not wait out its 1 s
        client.send(b"PUT /b/k HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n"
                    b"Content-Length: 4\r\n\r\n")
        self.assertEqual(client.read_head(), b"HTTP/1.1 100 Continue\r\n\r\n")
        client.send(b"data")
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))
        self.assertEqual(store.received, [b"data"])

    def test_store_refusing_expect_answers_at_once_and_closes(self):
        refusal = (b"HTTP/1.1 403 Forbidden\r\nContent-Type: application/xml\r\n"
                   b"Content-Length: 7\r\n\r\n<Error>")

        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            conn.send(refusal)
            store.received.append(conn.read_until_close())

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.sock.settimeout(0.8)
        client.send(b"PUT /b/k HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n"
                    b"Content-Length: 1000000\r\n\r\n")
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 403 Forbidden"), head)
        self.assertIn(b"Connection: close\r\n", head)
        self.assertEqual(client.read_exact(7), b"<Error>")
        client.sock.settimeout(5)
        rest, how = client.read_outcome()
        self.assertEqual((rest, how), (b"", "eof"))
        self.assertTrue(wait_until(lambda: store.received))
        self.assertEqual(store.received, [b""])  # no body byte was sent to the store

    def test_store_dying_mid_body_never_looks_complete(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + b"x" * 1000)
            time.sleep(0.05)

        _, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        head = client.read_head()
        self.assertIn(b"Content-Length: 100000", head)
        body, how = client.read_outcome()
        self.assertLess(len(body), 100000)
        self.assertEqual(how, "reset")
        self.assertTrue(proxy.wait_for_log("store failed mid-body"), proxy.log)

    def test_close_delimited_response_is_relayed_and_closes(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" + b"y" * 70000)

        _, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        head = client.read_head()
        self.assertIn(b"Connection: close\r\n", head)
        body, how = client.read_outcome()
        self.assertEqual((len(body), how), (70000, "eof"))

    def test_pipelined_requests_are_answered_in_order(self):
        def handler(conn: Connection, store: ScriptedStore):
            for _ in range(2):
                head = conn.read_head()
                path = head.split(b" ")[1]
                store.received.append(path)
                conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(path), path))
            conn.read_until_close()

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"GET /b/one HTTP/1.1\r\nHost: h\r\n\r\nGET /b/two HTTP/1.1\r\nHost: h\r\n\r\n")
        for path in (b"/b/one", b"/b/two"):
            head = client.read_head()
            self.assertEqual(client.read_exact(content_length(head)), path)
        self.assertEqual(store.received, [b"/b/one", b"/b/two"])

    def test_store_connections_are_reused_across_clients(self):
        store, proxy = self.start(answer_every_request(OK_EMPTY))
        for _ in range(3):
            client = proxy.connect()
            client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
            self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200"))
            client.close()
        # --threads 2: at most one store connection per worker.
        self.assertLessEqual(store.connections, 2)
        self.assertTrue(proxy.wait_for_log("upstream=reused"), proxy.log)

    def test_store_closing_a_pooled_connection_is_survived(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            conn.send(OK_EMPTY)  # then close without saying so

        store, proxy = self.start(handler)
        client = proxy.connect()
        for _ in range(3):
            time.sleep(0.05)
            client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
            self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))
        self.assertEqual(store.connections, 3)

    def test_head_response_has_no_body(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 12345\r\nETag: \"e\"\r\n\r\n")
            conn.read_head()
            conn.send(OK_EMPTY)
            conn.read_until_close()

        _, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"HEAD /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        self.assertIn(b"Content-Length: 12345", client.read_head())
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))

    def test_content_length_with_transfer_encoding_is_refused(self):
        def handler(conn: Connection, store: ScriptedStore):
            store.received.append(conn.read_until_close())

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"POST /b?delete HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        response, _ = client.read_outcome()
        self.assertTrue(response.startswith(b"HTTP/1.1 400 "), response)
        self.assertEqual(store.connections, 0)

    def test_garbage_from_the_store_is_a_502(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            conn.send(b"SSH-2.0-OpenSSH_9.2\r\n\r\n")

        _, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        response, _ = client.read_outcome()
        self.assert_s3_error(response, 502, "BadGateway")

    def test_oversized_request_head_is_refused(self):
        _, proxy = self.start(lambda conn, store: conn.read_until_close())
        client = proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\nx-big: " + b"a" * 70000 + b"\r\n\r\n")
        response, _ = client.read_outcome()
        self.assert_s3_error(response, 400, "RequestHeaderSectionTooLarge")

    def test_bad_chunked_upload_closes_both_sides(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            store.received.append(conn.read_until_close())

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"PUT /b/k HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                    b"5\r\nhello\r\nZZ\r\n")
        _, how = client.read_outcome()
        self.assertIn(how, ("eof", "reset"))
        self.assertTrue(wait_until(lambda: store.received))
        self.assertEqual(store.received, [b"5\r\nhello\r\n"])

    def test_silent_store_gives_504_after_upstream_timeout(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            conn.read_until_close()  # never answers

        _, proxy = self.start(handler, "--upstream-timeout", "300ms")
        client = proxy.connect()
        started = time.monotonic()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        response, _ = client.read_outcome()
        self.assert_s3_error(response, 504, "GatewayTimeout")
        self.assertLess(time.monotonic() - started, 5)

    def test_silent_store_on_a_pooled_connection_gets_the_request_once(self):
        def handler(conn: Connection, store: ScriptedStore):
            while True:
                try:
                    head = conn.read_head()
                except (EOFError, OSError):
                    return
                store.received.append(head.split(b" ")[1])
                if head.startswith(b"GET /b/silent "):
                    conn.read_until_close()  # never answers
                    return
                conn.send(OK_EMPTY)

        store, proxy = self.start(handler, "--upstream-timeout", "500ms")
        client = proxy.connect()
        client.send(b"GET /b/first HTTP/1.1\r\nHost: h\r\n\r\n")
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))
        started = time.monotonic()
        client.send(b"GET /b/silent HTTP/1.1\r\nHost: h\r\n\r\n")  # on the pooled connection
        response, _ = client.read_outcome()
        elapsed = time.monotonic() - started
        self.assert_s3_error(response, 504, "GatewayTimeout")
        # A timeout is no sign of a stale connection: the store has the request; not sent twice.
        self.assertEqual(store.received, [b"/b/first", b"/b/silent"])
        self.assertLess(elapsed, 0.95)

    def test_endless_interim_responses_end_in_a_502(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            try:
                for _ in range(500):
                    conn.send(b"HTTP/1.1 100 Continue\r\n\r\n")
                    time.sleep(0.02)
            except OSError:
                store.received.append(b"closed by the proxy")

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        interim = 0
        while (head := client.read_head()).startswith(b"HTTP/1.1 100 "):
            interim += 1
        self.assertLessEqual(interim, 8)
        self.assert_s3_error(head + client.read_exact(content_length(head)), 502, "BadGateway")
        self.assertTrue(wait_until(lambda: store.received))

    def test_bytes_after_a_response_never_answer_the_next_request(self):
        stowaway = b"HTTP/1.1 200 OK\r\nContent-Length: 8\r\nx-smuggled: yes\r\n\r\nsmuggled"

        def handler(conn: Connection, store: ScriptedStore):
            if not store.received:  # the first connection's first answer
                store.received.append(conn.read_head())
                # No body on a 204 by definition: what follows is not part of this response.
                conn.send(b"HTTP/1.1 204 No Content\r\n\r\n" + stowaway)
            answer_every_request(OK_EMPTY)(conn, store)

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"DELETE /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 204 No Content"))
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 200 OK"), head)
        self.assertNotIn(b"x-smuggled", head)
        self.assertEqual(content_length(head), 0)
        self.assertEqual(store.connections, 2)  # the first one was not reused

    def test_idle_client_connection_is_closed(self):
        _, proxy = self.start(lambda conn, store: None, "--idle-timeout", "200ms")
        client = proxy.connect()
        data, how = client.read_outcome()
        self.assertEqual((data, how), (b"", "eof"))

    def test_slow_request_head_is_cut_off(self):
        store, proxy = self.start(lambda conn, store: None, "--header-timeout", "300ms")
        client = proxy.connect()
        started = time.monotonic()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n")  # and never the blank line
        data, how = client.read_outcome()
        self.assertEqual(data, b"")
        self.assertIn(how, ("eof", "reset"))
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(store.connections, 0)

    def test_client_leaving_mid_download_releases_the_store_connection(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\n")
            chunk = b"c" * 65536
            try:
                for _ in range(16384):
                    conn.send(chunk)
            except OSError as error:
                store.received.append(type(error).__name__.encode())

        store, proxy = self.start(handler)
        client = proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        client.read_head()
        client.read_exact(1024 * 1024)
        client.close()
        self.assertTrue(wait_until(lambda: store.received),
                        "the store kept sending to a departed client")
        self.assertTrue(proxy.wait_for_log("client went away mid-body"), proxy.log)

    def test_store_down_during_a_large_upload_still_answers_502(self):
        # No Expect: the client sends all 20 MiB before it reads; the proxy must drain the body
        # it cannot forward, so the client reads the 502 instead of meeting a reset.
        proxy = Proxy(f"http://127.0.0.1:{free_port()}")
        self.addCleanup(lambda: self.assertEqual(proxy.stop(), 0))
        client = proxy.connect()
        body = b"z" * (20 * 1024 * 1024)
        client.send(b"PUT /b/k HTTP/1.1\r\nHost: h\r\nContent-Length: %d\r\n\r\n" % len(body)
                    + body)
        head = client.read_head()
        self.assert_s3_error(head + client.read_exact(content_length(head)), 502, "BadGateway")

    def test_stopped_store_gives_502_then_recovers(self):
        port = free_port()
        proxy = Proxy(f"http://127.0.0.1:{port}")
        self.addCleanup(lambda: self.assertEqual(proxy.stop(), 0))
        client = proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        head = client.read_head()
        self.assert_s3_error(head + client.read_exact(content_length(head)), 502, "BadGateway")
        # The same port comes back: the same proxy process serves again.
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(1)
        self.addCleanup(listener.close)
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        upstream, _ = listener.accept()
        upstream_conn = Connection(upstream)
        upstream_conn.read_head()
        upstream_conn.send(OK_EMPTY)
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK"))
        upstream.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
