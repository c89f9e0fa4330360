"""Document actions (xml-set, xml-remove, replace-with-error) on raw sockets: the proxy reads the
store's whole body, edits it and sends it with its new Content-Length. Checked byte for byte
against what the store itself answers, and where they must change nothing (no such element, a
body that is not XML, one over the 1 MiB cap, a rule whose status does not match).

    raw client ──> s3fault proxy --fault RULE ──> s3fault origin --anonymous   (real S3 bodies)
                                              └─> ScriptedStore                (chunked, huge)
"""

from __future__ import annotations

import json
import re
import unittest
import urllib.request

from wire import (DEADLINE, Connection, Origin, Proxy, ScriptedStore, answer_every_request,
                  content_length, header, start_store_and_proxy, wait_until)

MIB = 1024 * 1024
BUCKET = b"docs-bucket"


def element(body: bytes, name: bytes) -> bytes | None:
    found = re.search(b"<" + name + b">(.*?)</" + name + b">", body, re.S)
    return found.group(1) if found else None


def chunked(body: bytes, piece: int) -> bytes:
    """`body` in chunked coding, `piece` bytes a chunk, with an extension and a trailer."""
    out = b""
    for start in range(0, len(body), piece):
        chunk = body[start:start + piece]
        out += b"%x;ext=1\r\n" % len(chunk) + chunk + b"\r\n"
    return out + b"0\r\nx-amz-checksum-crc32: AAAAAA==\r\n\r\n"


def exchange(conn: Connection, request: bytes, head_request: bool = False) -> tuple[bytes, bytes]:
    """Sends `request`; returns the answer's head and its Content-Length body."""
    conn.send(request)
    head = conn.read_head()
    return head, b"" if head_request else conn.read_exact(content_length(head))


def request(method: bytes, target: bytes, body: bytes = b"") -> bytes:
    length = b"Content-Length: %d\r\n" % len(body) if body or method in (b"PUT", b"POST") else b""
    return b"%s %s HTTP/1.1\r\nHost: docs.test\r\n%s\r\n" % (method, target, length) + body


def upstream_connections(proxy: Proxy) -> dict:
    """Store connections the proxy used: {"new": N, "reused": M}."""
    with urllib.request.urlopen(f"{proxy.admin}/metrics", timeout=DEADLINE) as answer:
        text = answer.read().decode()
    return {reuse: int(count) for reuse, count in
            re.findall(r'^s3fault_upstream_connections_total\{reuse="(\w+)"\} (\d+)$', text, re.M)}


def rule_counters(proxy: Proxy, name: str) -> dict:
    with urllib.request.urlopen(f"{proxy.admin}/rules/{name}", timeout=DEADLINE) as answer:
        counters = json.load(answer)["counters"]
    return {key: counters[key] for key in ("matched", "injected", "skipped")}




class DocumentTest(unittest.TestCase):
    def assert_counters(self, proxy: Proxy, name: str, expected: dict) -> None:
        """The rule's counters, once they settle: an exchange settles its injections just after
        the client has its last byte."""
        wait_until(lambda: rule_counters(proxy, name) == expected)
        self.assertEqual(rule_counters(proxy, name), expected)

    def start_origin(self, *faults: str) -> tuple[Origin, Proxy]:
        origin = Origin()
        self.addCleanup(lambda: self.assertEqual(origin.stop(), 0, "origin exit code"))
        args = [arg for fault in faults for arg in ("--fault", fault)]
        proxy = Proxy(origin.url, *args, "--admin", "127.0.0.1:0")
        self.addCleanup(lambda: self.assertEqual(proxy.stop(), 0, "proxy exit code"))
        direct = origin.connect()
        self.addCleanup(direct.close)
        head, _ = exchange(direct, request(b"PUT", b"/" + BUCKET))
        self.assertTrue(head.startswith(b"HTTP/1.1 200 "), head)
        return origin, proxy

    def start_scripted(self, response: bytes, *faults: str) -> tuple[ScriptedStore, Proxy]:
        args = [arg for fault in faults for arg in ("--fault", fault)]
        return start_store_and_proxy(self, answer_every_request(response), *args, "--admin",
                                     "127.0.0.1:0")

    def upload_parts(self, conn: Connection, key: bytes) -> tuple[bytes, bytes]:
        """Starts a multipart upload of `key` with two parts; returns (upload id, Complete body)."""
        _, body = exchange(conn, request(b"POST", b"/%s/%s?uploads" % (BUCKET, key)))
        upload_id = element(body, b"UploadId")
        parts = b""
        for number, data in ((1, b"first part "), (2, b"second part")):
            head, _ = exchange(conn, request(
                b"PUT", b"/%s/%s?partNumber=%d&uploadId=%s" % (BUCKET, key, number, upload_id),
                data))
            parts += (b"<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>"
                      % (number, header(head, b"ETag")))
        return upload_id, b"<CompleteMultipartUpload>" + parts + b"</CompleteMultipartUpload>"

    def complete(self, conn: Connection, key: bytes, upload_id: bytes, xml: bytes):
        return exchange(conn, request(b"POST", b"/%s/%s?uploadId=%s" % (BUCKET, key, upload_id),
                                      xml))

    # --- xml-set ---------------------------------------------------------------------------

    def test_xml_set_empties_the_etag_of_a_real_complete_result(self):
        origin, proxy = self.start_origin(
            'xml-set CompleteMultipartUploadResult/ETag "" op=CompleteMultipartUpload name=rgw')
        client = proxy.connect()
        upload_id, xml = self.upload_parts(client, b"obj")
        head, body = self.complete(client, b"obj", upload_id, xml)
        self.assertTrue(head.startswith(b"HTTP/1.1 200 "), head)
        # The origin answers a repeated Complete as the first: the body the proxy edited.
        _, original = self.complete(origin.connect(), b"obj", upload_id, xml)
        etag = element(original, b"ETag")
        self.assertTrue(etag and etag.endswith(b'-2"'), original)
        self.assertEqual(body, original.replace(b"<ETag>%s</ETag>" % etag, b"<ETag></ETag>"))
        self.assertEqual(content_length(head), len(body))
        self.assertIsNone(header(head, b"Transfer-Encoding"))
        # The same socket carries the next exchange, and the object is the two parts.
        head, body = exchange(client, request(b"GET", b"/%s/obj" % BUCKET))
        self.assertEqual(body, b"first part second part")
        self.assert_counters(proxy, "rgw", {"matched": 1, "injected": 1, "skipped": 0})
        # Five exchanges, one store connection: the edited body was read to its end.
        wait_until(lambda: sum(upstream_connections(proxy).values()) == 5)
        self.assertEqual(upstream_connections(proxy), {"new": 1, "reused": 4})

    def test_xml_set_leaves_bodies_without_the_element_or_not_xml_alone(self):
        origin, proxy = self.start_origin('xml-set CompleteMultipartUploadResult/ETag "" name=set')
        client, direct = proxy.connect(), origin.connect()
        exchange(direct, request(b"PUT", b"/%s/text" % BUCKET, b"<ETag>not a document"))
        for target in (b"/%s/text" % BUCKET, b"/%s/missing" % BUCKET, b"/%s?list-type=2" % BUCKET):
            with self.subTest(target=target):
                head, body = exchange(client, request(b"GET", target))
                direct_head, direct_body = exchange(direct, request(b"GET", target))
                self.assertEqual(head.split(b"\r\n")[0], direct_head.split(b"\r\n")[0])
                ids = (header(direct_head, b"x-amz-request-id"), header(head, b"x-amz-request-id"))
                self.assertEqual(body, direct_body.replace(*ids))
                self.assertEqual(content_length(head), len(body))
        self.assert_counters(proxy, "set", {"matched": 3, "injected": 0, "skipped": 3})

    # --- xml-remove ------------------------------------------------------------------------

    def test_xml_remove_takes_the_resource_out_of_a_404(self):
        origin, proxy = self.start_origin("xml-remove Error/Resource status=404 name=rgw")
        client, direct = proxy.connect(), origin.connect()
        head, body = exchange(client, request(b"GET", b"/%s/no-such-key" % BUCKET))
        direct_head, direct_body = exchange(direct, request(b"GET", b"/%s/no-such-key" % BUCKET))
        self.assertTrue(head.startswith(b"HTTP/1.1 404 "), head)
        resource = b"<Resource>/%s/no-such-key</Resource>" % BUCKET
        self.assertIn(resource, direct_body)
        # Byte for byte the store's error without its Resource (each answer has its request id).
        ids = (header(direct_head, b"x-amz-request-id"), header(head, b"x-amz-request-id"))
        self.assertEqual(body, direct_body.replace(*ids).replace(resource, b""))
        self.assertEqual(content_length(head), len(body))
        # Not applied: a 200 (no status match), and a HEAD 404 (no body to edit).
        exchange(direct, request(b"PUT", b"/%s/there" % BUCKET, b"<Error><Resource/></Error>"))
        head, body = exchange(client, request(b"GET", b"/%s/there" % BUCKET))
        self.assertEqual(body, b"<Error><Resource/></Error>")
        head, _ = exchange(client, request(b"HEAD", b"/%s/no-such-key" % BUCKET), True)
        self.assertTrue(head.startswith(b"HTTP/1.1 404 "), head)
        self.assert_counters(proxy, "rgw", {"matched": 2, "injected": 1, "skipped": 1})

    # --- replace-with-error ----------------------------------------------------------------

    def test_replace_with_error_on_a_200_complete_after_the_store_completed(self):
        origin, proxy = self.start_origin(
            "replace-with-error InternalError op=CompleteMultipartUpload name=aws")
        client = proxy.connect()
        upload_id, xml = self.upload_parts(client, b"obj")
        head, body = self.complete(client, b"obj", upload_id, xml)
        request_id = header(head, b"x-amz-request-id")
        self.assertTrue(head.startswith(b"HTTP/1.1 200 OK\r\n"), head)
        self.assertEqual(header(head, b"Content-Type"), b"application/xml")
        self.assertEqual(body, b'<?xml version="1.0" encoding="UTF-8"?><Error>'
                               b"<Code>InternalError</Code><Message>We encountered an internal "
                               b"error. Please try again.</Message><Resource>/%s/obj</Resource>"
                               b"<RequestId>%s</RequestId></Error>" % (BUCKET, request_id))
        self.assertEqual(content_length(head), len(body))
        # The store did complete the upload.
        _, stored = exchange(origin.connect(), request(b"GET", b"/%s/obj" % BUCKET))
        self.assertEqual(stored, b"first part second part")
        head, body = exchange(client, request(b"GET", b"/%s/obj" % BUCKET))  # same socket
        self.assertEqual(body, b"first part second part")
        self.assert_counters(proxy, "aws", {"matched": 1, "injected": 1, "skipped": 0})

    def test_replace_with_error_answers_for_the_store_on_a_status_only(self):
        origin, proxy = self.start_origin(
            "replace-with-error InternalError 500 status=404 op=CompleteMultipartUpload name=rgw")
        client = proxy.connect()
        upload_id, xml = self.upload_parts(client, b"obj")
        # An unknown upload id: the store says 404 NoSuchUpload, the client is told 500.
        head, body = self.complete(client, b"obj", b"unknown-upload", xml)
        self.assertTrue(head.startswith(b"HTTP/1.1 500 Internal Server Error\r\n"), head)
        self.assertEqual(element(body, b"Code"), b"InternalError")
        self.assertEqual(element(body, b"RequestId"), header(head, b"x-amz-request-id"))
        self.assertEqual(content_length(head), len(body))
        # The store answered 200: nothing replaced, the store's own body.
        head, body = self.complete(client, b"obj", upload_id, xml)
        self.assertTrue(head.startswith(b"HTTP/1.1 200 "), head)
        _, original = self.complete(origin.connect(), b"obj", upload_id, xml)
        self.assertEqual(body, original)
        # A status rule is matched only once the status is known: the 200 is no match at all.
        self.assert_counters(proxy, "rgw", {"matched": 1, "injected": 1, "skipped": 0})

    def test_replace_with_error_on_a_head_sends_no_body(self):
        _, proxy = self.start_origin("replace-with-error InternalError 500 status=404 name=head")
        client = proxy.connect()
        client.send(request(b"HEAD", b"/%s/no-such-key" % BUCKET))
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 500 "), head)
        self.assertEqual(header(head, b"Content-Length"), b"0")
        self.assertEqual(header(head, b"Content-Type"), b"application/xml")
        # Nothing followed the head: the next answer starts right there.
        head, _ = exchange(client, request(b"GET", b"/%s/no-such-key" % BUCKET))
        self.assertTrue(head.startswith(b"HTTP/1.1 500 "), head)
        self.assert_counters(proxy, "head", {"matched": 2, "injected": 2, "skipped": 0})

    def test_rgw_rules_edit_the_replacement_in_rule_order(self):
        # The first rule waits for the status, the last does not: still applied in this order.
        origin, proxy = self.start_origin(
            "replace-with-error InternalError 500 status=404 op=CompleteMultipartUpload",
            "xml-remove Error/Resource status=4xx,5xx",
            'xml-set Error/Message "" name=quiet')
        client = proxy.connect()
        _, xml = self.upload_parts(client, b"obj")
        head, body = self.complete(client, b"obj", b"unknown-upload", xml)
        self.assertTrue(head.startswith(b"HTTP/1.1 500 "), head)
        self.assertEqual(body, b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError'
                               b"</Code><Message></Message><RequestId>%s</RequestId></Error>"
                               % header(head, b"x-amz-request-id"))
        self.assertEqual(content_length(head), len(body))
        # Only the error had a Message: the 200s (empty or not XML) do not count for `quiet`.
        self.assert_counters(proxy, "quiet", {"matched": 4, "injected": 1, "skipped": 3})

    # --- framing: a chunked store body, one ended by close, one over the cap -----------------

    XML = (b'<?xml version="1.0" encoding="UTF-8"?>\n<CompleteMultipartUploadResult>\n'
           b"  <Bucket>b</Bucket>\n  <ETag>&quot;e-2&quot;</ETag>\n"
           b"</CompleteMultipartUploadResult>\n")
    EDITED = XML.replace(b"<ETag>&quot;e-2&quot;</ETag>", b"<ETag></ETag>")

    def test_a_chunked_store_body_goes_out_with_its_new_length(self):
        store_head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-MD5: x==\r\n"
                      b"x-amz-checksum-crc32: AAAAAA==\r\nTransfer-Encoding: chunked\r\n\r\n")
        store, proxy = self.start_scripted(store_head + chunked(self.XML, 7),
                                           'xml-set CompleteMultipartUploadResult/ETag "" name=set')
        client = proxy.connect()
        for _ in range(2):  # the second on the same sockets, both sides
            head, body = exchange(client, request(b"POST", b"/b/k?uploadId=u"))
            self.assertEqual(head.split(b"\r\n")[1:], [
                b"Content-Type: application/xml", b"Content-Length: %d" % len(self.EDITED),
                b"", b""])
            self.assertEqual(body, self.EDITED)
        self.assertEqual(store.connections, 1)
        self.assert_counters(proxy, "set", {"matched": 2, "injected": 2, "skipped": 0})

    def test_body_actions_act_on_the_edited_body(self):
        response = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(self.XML) + self.XML
        _, proxy = self.start_scripted(response, 'xml-set CompleteMultipartUploadResult/ETag ""',
                                       "truncate 50% mode=consistent name=cut")
        client = proxy.connect()
        head, body = exchange(client, request(b"GET", b"/b/k"))
        self.assertEqual(body, self.EDITED[:len(self.EDITED) // 2])
        self.assert_counters(proxy, "cut", {"matched": 1, "injected": 1, "skipped": 0})

    def test_an_unchanged_chunked_body_passes_as_the_store_sent_it(self):
        response = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + chunked(self.XML, 5))
        store, proxy = self.start_scripted(response, "xml-remove CompleteMultipartUploadResult/Key "
                                                     "name=remove")
        client = proxy.connect()
        for _ in range(2):
            client.send(request(b"GET", b"/b/k"))
            self.assertEqual(client.read_exact(len(response)), response)
        self.assertEqual(store.connections, 1)
        self.assert_counters(proxy, "remove", {"matched": 2, "injected": 0, "skipped": 2})

    def test_a_body_ended_by_close_gets_a_length_and_the_client_keeps_its_connection(self):
        def handler(conn: Connection, store: ScriptedStore) -> None:
            conn.read_head()
            conn.send(b"HTTP/1.1 200 OK\r\n\r\n" + self.XML)  # then close

        store, proxy = start_store_and_proxy(
            self, handler, "--fault", 'xml-set CompleteMultipartUploadResult/ETag ""')
        client = proxy.connect()
        for _ in range(2):
            head, body = exchange(client, request(b"GET", b"/b/k"))
            self.assertEqual(header(head, b"Connection"), None)
            self.assertEqual(body, self.EDITED)
        self.assertEqual(store.connections, 2)

    @staticmethod
    def error_of(size: int) -> bytes:
        """An S3 error body of exactly `size` bytes, its Message padded."""
        frame = b"<Error><Message></Message><Resource>/b/k</Resource></Error>"
        return frame.replace(b"<Message>", b"<Message>" + b"m" * (size - len(frame)))

    def test_a_body_over_the_cap_passes_unchanged_and_is_not_counted(self):
        big = self.error_of(MIB + 1)
        for framing in ("length", "chunked"):
            with self.subTest(framing=framing):
                if framing == "length":
                    response = (b"HTTP/1.1 404 Not Found\r\nContent-Length: %d\r\n\r\n" % len(big)
                                + big)
                else:
                    response = (b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + chunked(big, 64 * 1024))
                store, proxy = self.start_scripted(response, "xml-remove Error/Resource name=big")
                client = proxy.connect()
                for _ in range(2):  # the store's body was read to its end: both sockets reused
                    client.send(request(b"GET", b"/b/k"))
                    self.assertEqual(client.read_exact(len(response)), response)
                self.assert_counters(proxy, "big", {"matched": 2, "injected": 0, "skipped": 2})
                self.assertEqual(store.connections, 1)

    def test_a_body_at_the_cap_is_edited(self):
        body = self.error_of(MIB)
        response = b"HTTP/1.1 404 Not Found\r\nContent-Length: %d\r\n\r\n" % len(body) + body
        _, proxy = self.start_scripted(response, "xml-remove Error/Resource name=cap")
        head, edited = exchange(proxy.connect(), request(b"GET", b"/b/k"))
        self.assertEqual(edited, body.replace(b"<Resource>/b/k</Resource>", b""))
        self.assert_counters(proxy, "cap", {"matched": 1, "injected": 1, "skipped": 0})


if __name__ == "__main__":
    unittest.main(verbosity=2)
