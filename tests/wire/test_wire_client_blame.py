"""Who is blamed when an upload fails: a client that sends malformed chunked framing, or that
ends its body early, gets a 400 that says so (never a 502 that blames the store), the log says
the client did it, and the proxy goes on serving; a store that fails still gets the client a 502.

    raw client ──bad body──> s3fault proxy ──head, the good part of the body──> ScriptedStore
               <──400──────                  (then closed: the store does not wait for the rest)
"""

from __future__ import annotations

import socket
import unittest
import xml.etree.ElementTree as ElementTree

from wire import (Connection, Proxy, ScriptedStore, content_length, start_store_and_proxy,
                  wait_until)

CHUNKED_PUT = b"PUT /b/k HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
GOOD_BODY = b"hello"

# name, body after CHUNKED_PUT, what the log and the error's message say went wrong
MALFORMED_FRAMING = [
    ("bad chunk size", b"zz\r\nabc\r\n0\r\n\r\n", "chunk size is not a hex number"),
    ("over-long chunk-size line", b"1" * 40 + b"\r\nabc\r\n", "chunk size too large"),
    ("over-long chunk extension", b"5;" + b"e" * 5000 + b"\r\nhello\r\n0\r\n\r\n",
     "chunk extension too long"),
    ("bare LF in a chunk extension", b"5;a\nb\r\nhello\r\n0\r\n\r\n",
     "control character in a chunk extension"),
    ("trailer garbage", b"5\r\nhello\r\n0\r\ngarbage\r\n\r\n", "trailer line is not a field"),
    ("chunk longer than its size", b"3\r\nhello\r\n0\r\n\r\n", "chunk data not followed by CRLF"),
]


def store_handler(conn: Connection, store: ScriptedStore) -> None:
    """Answers each GET with GOOD_BODY; records an upload's body until the proxy closes."""
    while True:
        try:
            head = conn.read_head()
        except (EOFError, OSError):
            return
        if not head.startswith(b"GET "):
            store.received.append(conn.read_until_close())
            return
        conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(GOOD_BODY) + GOOD_BODY)


def blamed_the_store(proxy: Proxy) -> bool:
    """Whether the proxy logged an exchange that it answered with a 502 for the store."""
    return any(" 502 op=" in line and "no response from the store" in line for line in proxy.log)


class ClientBlameTest(unittest.TestCase):
    def setUp(self):
        self.store, self.proxy = start_store_and_proxy(self, store_handler)
        self.addCleanup(lambda: self.assertEqual(self.store.errors, [], "store handler errors"))

    def s3_error(self, response: bytes) -> tuple[bytes, str, str]:
        """The status line, <Code> and <Message> of an S3 error answer."""
        head, _, body = response.partition(b"\r\n\r\n")
        root = ElementTree.fromstring(body[: content_length(head + b"\r\n\r\n")])
        self.assertEqual(root.tag, "Error", response)
        return head.split(b"\r\n")[0], root.findtext("Code"), root.findtext("Message")

    def assert_still_serving(self) -> None:
        client = self.proxy.connect()
        client.send(b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n")
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 200 OK"), head)
        self.assertEqual(client.read_exact(len(GOOD_BODY)), GOOD_BODY)
        client.close()

    def test_malformed_chunked_framing_is_the_clients_400(self):
        for name, body, why in MALFORMED_FRAMING:
            with self.subTest(name):
                uploads_before = len(self.store.received)
                client = self.proxy.connect()
                client.send(CHUNKED_PUT + body)
                response, how = client.read_outcome()
                client.close()
                status, code, message = self.s3_error(response)
                print(f"\n{name}: {status.decode()} {code}: {message}", end="")
                self.assertEqual(how, "eof", "the answer must not be lost to a reset")
                self.assertEqual(status, b"HTTP/1.1 400 Bad Request")
                self.assertEqual(code, "IncompleteBody")
                self.assertIn("client sent malformed chunked framing: " + why, message)
                self.assertTrue(self.proxy.wait_for_log(
                    "client sent malformed chunked framing: " + why), self.proxy.log)
                # The store saw at most the well-formed part, then its connection closed.
                self.assertTrue(wait_until(lambda: len(self.store.received) > uploads_before))
                self.assertTrue(body.startswith(self.store.received[-1]))
                self.assert_still_serving()

    def test_a_body_the_client_ends_early_is_its_400(self):
        cases = [("chunk shorter than its size", CHUNKED_PUT + b"a\r\nhel"),
                 ("body shorter than its length",
                  b"PUT /b/k HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nhel")]
        for name, request in cases:
            with self.subTest(name):
                client = self.proxy.connect()
                client.send(request)
                client.sock.shutdown(socket.SHUT_WR)  # the client is done sending
                response, _ = client.read_outcome()
                client.close()
                status, code, message = self.s3_error(response)
                self.assertEqual((status, code), (b"HTTP/1.1 400 Bad Request", "IncompleteBody"))
                self.assertIn("client ended the request body early", message)
                self.assertTrue(self.proxy.wait_for_log("client ended the request body early"),
                                self.proxy.log)
                self.assertFalse(blamed_the_store(self.proxy), self.proxy.log)
                self.assert_still_serving()

    def test_a_client_that_vanishes_mid_body_gets_no_blame_on_the_store(self):
        client = self.proxy.connect()
        client.send(CHUNKED_PUT + b"a\r\nhel")
        client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                               b"\x01\x00\x00\x00\x00\x00\x00\x00")
        client.close()  # a reset: nothing can reach this client any more
        self.assertTrue(self.proxy.wait_for_log("client went away during the upload"),
                        self.proxy.log)
        self.assertFalse(blamed_the_store(self.proxy), self.proxy.log)
        self.assert_still_serving()


class StoreBlameTest(unittest.TestCase):
    def test_a_store_that_fails_mid_upload_still_gets_a_502(self):
        def handler(conn: Connection, store: ScriptedStore):
            conn.read_head()
            store.received.append(conn.read_exact(3))  # then it dies

        store, proxy = start_store_and_proxy(self, handler)
        client = proxy.connect()
        client.send(CHUNKED_PUT + b"5\r\nhello\r\n")
        self.assertTrue(wait_until(lambda: store.received))
        client.send(b"0\r\n\r\n")
        response, _ = client.read_outcome()
        self.assertTrue(response.startswith(b"HTTP/1.1 502 Bad Gateway"), response)
        self.assertIn(b"<Code>BadGateway</Code>", response)
        self.assertTrue(wait_until(lambda: blamed_the_store(proxy)), proxy.log)
        self.assertFalse(any("client sent" in line or "client ended" in line
                             for line in proxy.log), proxy.log)


if __name__ == "__main__":
    unittest.main()
