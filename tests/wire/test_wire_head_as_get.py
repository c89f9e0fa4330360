"""head-as-get on raw sockets: a HEAD with a Range reaches the store as a GET of that range, and
the client gets the store's head for it (206, Content-Range, the range's Content-Length) and not
one body byte, on a connection that goes on serving. The store's body is read and dropped (a
short one, chunked or not, so the store connection is pooled) or left with its connection.

    raw client ──HEAD + Range──> s3fault proxy --fault 'head-as-get ...' ──GET + Range──> store
               <──206 head only──                                       <──206 head + body──
    store: s3fault origin --anonymous (real S3 answers), or a ScriptedStore (chunked, huge,
    delimited by close, signed requests)
"""

from __future__ import annotations

import json
import re
import unittest
import urllib.request

from wire import (DEADLINE, Connection, Origin, Proxy, ScriptedStore, content_length, header,
                  wait_until)

BUCKET = b"head-as-get"
DATA = bytes(range(100))
RULE = "head-as-get op=HeadObject header=range name=ranged-head"
OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


def request(method: bytes, target: bytes, *fields: bytes, body: bytes = b"") -> bytes:
    length = [b"Content-Length: %d" % len(body)] if method == b"PUT" else []
    return (b"%s %s HTTP/1.1\r\nHost: wire.test\r\n" % (method, target) +
            b"".join(field + b"\r\n" for field in (*fields, *length)) + b"\r\n" + body)


def status_of(head: bytes) -> int:
    return int(head.split(b" ", 2)[1])


def metrics(proxy: Proxy) -> str:
    with urllib.request.urlopen(f"{proxy.admin}/metrics", timeout=DEADLINE) as answer:
        return answer.read().decode()


def upstream_connections(proxy: Proxy) -> dict:
    """Store connections the proxy used: {"new": N, "reused": M}."""
    return {reuse: int(count) for reuse, count in
            re.findall(r'^s3fault_upstream_connections_total\{reuse="(\w+)"\} (\d+)$',
                       metrics(proxy), re.M)}


def rule_counters(proxy: Proxy, name: str) -> dict:
    with urllib.request.urlopen(f"{proxy.admin}/rules/{name}", timeout=DEADLINE) as answer:
        counters = json.load(answer)["counters"]
    return {key: counters[key] for key in ("matched", "injected", "skipped")}


def answer_in_turn(*answers: bytes):
    """A ScriptedStore handler: reads request heads on any connection and sends the answers in
    the order the requests came (the last one again for any further request), recording each
    head."""
    def handler(conn: Connection, store: ScriptedStore) -> None:
        while True:
            try:
                conn.await_bytes()
            except (EOFError, OSError):
                return
            store.received.append(conn.read_head())
            try:
                conn.send(answers[min(len(store.received), len(answers)) - 1])
            except OSError:
                return  # the proxy closed a connection whose body it did not want
    return handler


class HeadAsGetTest(unittest.TestCase):
    def start_proxy(self, upstream: str, *extra: str) -> Proxy:
        proxy = Proxy(upstream, "--fault", RULE, "--admin", "127.0.0.1:0", *extra)
        self.addCleanup(lambda: self.assertEqual(proxy.stop(), 0, "proxy exit code"))
        return proxy

    def start_scripted(self, *answers: bytes, extra: tuple[str, ...] = ()):
        store = ScriptedStore(answer_in_turn(*answers))
        self.addCleanup(store.close)
        return store, self.start_proxy(store.url, *extra)

    def connect(self, proxy: Proxy) -> Connection:
        conn = proxy.connect()
        self.addCleanup(conn.close)
        return conn

    def assert_counters(self, proxy: Proxy, expected: dict) -> None:
        """The rule's counters, once they settle (just after the client has its answer)."""
        wait_until(lambda: rule_counters(proxy, "ranged-head") == expected)
        self.assertEqual(rule_counters(proxy, "ranged-head"), expected)

    def test_a_ranged_head_gets_the_ranged_gets_head_and_the_connection_serves_on(self):
        origin = Origin()
        self.addCleanup(lambda: self.assertEqual(origin.stop(), 0, "origin exit code"))
        direct = origin.connect()
        self.addCleanup(direct.close)
        direct.send(request(b"PUT", b"/" + BUCKET))
        self.assertEqual(status_of(direct.read_head()), 200)
        direct.send(request(b"PUT", b"/%s/k" % BUCKET, body=DATA))
        stored = direct.read_head()
        self.assertEqual(status_of(stored), 200, stored)
        # What the origin itself answers, as AWS does: HEAD ignores Range.
        direct.send(request(b"HEAD", b"/%s/k" % BUCKET, b"Range: bytes=0-9"))
        aws_like = direct.read_head()
        self.assertEqual((status_of(aws_like), content_length(aws_like)), (200, len(DATA)))

        proxy = self.start_proxy(origin.url)
        client = self.connect(proxy)
        client.send(request(b"HEAD", b"/%s/k" % BUCKET, b"Range: bytes=0-9"))
        head = client.read_head()
        self.assertEqual(status_of(head), 206, head)
        self.assertEqual(header(head, b"Content-Range"), b"bytes 0-9/100")
        self.assertEqual(content_length(head), 10)
        self.assertEqual(header(head, b"ETag"), header(stored, b"ETag"))
        self.assertIsNone(header(head, b"Connection"))
        # The same connection serves on, and what comes first is the next answer's head: not one
        # byte of the GET's body came after the HEAD's answer.
        client.send(request(b"GET", b"/%s/k" % BUCKET, b"Range: bytes=10-14"))
        head = client.read_head()
        self.assertEqual((status_of(head), header(head, b"Content-Range")), (206, b"bytes 10-14/100"))
        self.assertEqual(client.read_exact(5), DATA[10:15])
        # A HEAD without a Range is left as it is: the whole object's head.
        client.send(request(b"HEAD", b"/%s/k" % BUCKET))
        head = client.read_head()
        self.assertEqual((status_of(head), content_length(head)), (200, len(DATA)))
        self.assertIsNone(header(head, b"Content-Range"))
        # A ranged HEAD of a missing key: the GET's 404 and its error body's length, no body.
        client.send(request(b"HEAD", b"/%s/missing" % BUCKET, b"Range: bytes=0-9"))
        head = client.read_head()
        self.assertEqual(status_of(head), 404, head)
        self.assertGreater(content_length(head), 0)
        client.send(request(b"HEAD", b"/%s/k" % BUCKET, b"Range: bytes=-3"))
        head = client.read_head()
        self.assertEqual((status_of(head), header(head, b"Content-Range")), (206, b"bytes 97-99/100"))
        self.assertEqual(content_length(head), 3)
        self.assertTrue(proxy.wait_for_log("faults=ranged-head:head-as-get"), proxy.log)
        self.assert_counters(proxy, {"matched": 3, "injected": 3, "skipped": 0})
        # Each GET's body was read to its end: one store connection served all five. The proxy
        # counts an exchange after writing its last byte, so the client may hold the fifth
        # answer a moment before it is counted.
        expected = {"new": 1, "reused": 4}
        wait_until(lambda: upstream_connections(proxy) == expected)
        self.assertEqual(upstream_connections(proxy), expected)

    def test_chunks_of_the_gets_body_never_reach_the_client(self):
        chunked = (b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/100\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n"
                   b"4\r\n0123\r\n6;ext=1\r\n456789\r\n0\r\nx-trailer: 1\r\n\r\n")
        store, proxy = self.start_scripted(chunked, OK)
        client = self.connect(proxy)
        client.send(request(b"HEAD", b"/b/k", b"Range: bytes=0-9"))
        head = client.read_head()
        self.assertEqual(head, b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/100\r\n"
                               b"Transfer-Encoding: chunked\r\n\r\n")
        client.send(request(b"GET", b"/b/other"))
        self.assertEqual(client.read_head() + client.read_exact(2), OK)
        self.assertEqual(store.received, [
            b"GET /b/k HTTP/1.1\r\nHost: wire.test\r\nRange: bytes=0-9\r\n\r\n",
            b"GET /b/other HTTP/1.1\r\nHost: wire.test\r\n\r\n"])
        self.assertEqual(store.connections, 1)
        self.assertEqual(store.errors, [])

    def test_a_long_body_is_left_with_its_store_connection(self):
        big = b"x" * (3 * 1024 * 1024)
        long_answer = (b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-%d/%d\r\n"
                       b"Content-Length: %d\r\n\r\n" % (len(big) - 1, len(big), len(big)) + big)
        store, proxy = self.start_scripted(long_answer, OK)
        client = self.connect(proxy)
        client.send(request(b"HEAD", b"/b/k", b"Range: bytes=0-"))
        head = client.read_head()
        self.assertEqual(content_length(head), len(big))
        client.send(request(b"GET", b"/b/other"))
        self.assertEqual(client.read_head() + client.read_exact(2), OK)
        # The 3 MiB were not read through: the proxy opened a second store connection instead.
        self.assertEqual(store.connections, 2)
        self.assertEqual(store.received[0],
                         b"GET /b/k HTTP/1.1\r\nHost: wire.test\r\nRange: bytes=0-\r\n\r\n")

    def test_a_body_delimited_by_close_keeps_the_client_connection(self):
        until_close = b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/100\r\n\r\n0123456789"

        def close_after_first(conn: Connection, store: ScriptedStore) -> None:
            store.received.append(conn.read_head())
            conn.send(until_close if len(store.received) == 1 else OK)
            if len(store.received) > 1:
                conn.read_until_close()

        store = ScriptedStore(close_after_first)
        self.addCleanup(store.close)
        proxy = self.start_proxy(store.url)
        client = self.connect(proxy)
        client.send(request(b"HEAD", b"/b/k", b"Range: bytes=0-9"))
        head = client.read_head()
        self.assertEqual(head, b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/100\r\n\r\n")
        client.send(request(b"GET", b"/b/other"))
        self.assertEqual(client.read_head() + client.read_exact(2), OK)
        self.assertEqual(store.connections, 2)
        self.assertTrue(store.received[0].startswith(b"GET /b/k HTTP/1.1\r\n"), store.received)

    def test_other_requests_reach_the_store_as_sent(self):
        store, proxy = self.start_scripted(OK)
        client = self.connect(proxy)
        sent = request(b"GET", b"/b/k", b"Range: bytes=0-9")
        client.send(sent)
        self.assertEqual(client.read_head() + client.read_exact(2), OK)
        self.assertEqual(store.received, [sent])
        self.assert_counters(proxy, {"matched": 0, "injected": 0, "skipped": 0})

    def test_a_signed_head_without_keys_is_sent_as_it_came_and_not_counted(self):
        head_answer = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"
        store, proxy = self.start_scripted(head_answer)
        client = self.connect(proxy)
        sent = request(b"HEAD", b"/b/k", b"Range: bytes=0-9",
                       b"Authorization: AWS4-HMAC-SHA256 Credential=AK/20261201/us-east-1/s3/"
                       b"aws4_request, SignedHeaders=host;range, Signature=" + b"0" * 64)
        client.send(sent)
        self.assertEqual(client.read_head(), head_answer)
        self.assertEqual(store.received, [sent])
        self.assertTrue(proxy.wait_for_log("request edit not applied"), proxy.log)
        self.assert_counters(proxy, {"matched": 1, "injected": 0, "skipped": 1})
        # With the store's keys the HEAD goes as a GET signed for it (the origin checks such
        # signatures in integration.profile.*; here, that the method is what was signed).
        store, proxy = self.start_scripted(b"HTTP/1.1 206 Partial Content\r\nContent-Length: 10"
                                           b"\r\n\r\n0123456789", OK,
                                           extra=("--resign-access-key", "PROXYKEY",
                                                  "--resign-secret-key", "proxysecret"))
        client = self.connect(proxy)
        client.send(sent)
        self.assertEqual(client.read_head(),
                         b"HTTP/1.1 206 Partial Content\r\nContent-Length: 10\r\n\r\n")
        client.send(request(b"GET", b"/b/other"))
        self.assertEqual(client.read_head() + client.read_exact(2), OK)
        self.assertTrue(store.received[0].startswith(b"GET /b/k HTTP/1.1\r\n"), store.received)
        self.assertRegex(store.received[0].decode(),
                         r"\r\nAuthorization: AWS4-HMAC-SHA256 Credential=PROXYKEY/\d{8}/"
                         r"us-east-1/s3/aws4_request, SignedHeaders=[a-z0-9;-]+, "
                         r"Signature=[0-9a-f]{64}\r\n")
        self.assert_counters(proxy, {"matched": 1, "injected": 1, "skipped": 0})


if __name__ == "__main__":
    unittest.main(verbosity=2)
