"""Request-head actions at byte level: a scripted store records exactly the head the proxy sent
it. Edits change only what they name; a signed request is either signed again with the proxy's
keys or, without keys, sent exactly as the client sent it (and the rule does not count)."""

from __future__ import annotations

import re
import unittest

from wire import fault_args, record_and_answer, start_store_and_proxy, wait_until

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


RESIGN = ["--resign-access-key", "PROXYKEY", "--resign-secret-key", "proxysecret"]


def request(target: bytes, *fields: bytes) -> bytes:
    return (b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            b"".join(field + b"\r\n" for field in fields) + b"\r\n")


SIGNED = (b"Authorization: AWS4-HMAC-SHA256 Credential=CLIENT/20261201/eu-west-1/s3/aws4_request, "
          b"SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=" + b"0" * 64,
          b"x-amz-date: 20261201T120000Z", b"x-amz-content-sha256: UNSIGNED-PAYLOAD",
          b"Range: bytes=-5", b"X-Unsigned: kept")


class RequestEditTest(unittest.TestCase):
    def exchange(self, sent: bytes, *rules: str, extra: tuple[str, ...] = ()):
        store, proxy = start_store_and_proxy(self, record_and_answer(OK), *fault_args(*rules),
                                             *extra)
        client = proxy.connect()
        client.send(sent)
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 200 OK\r\n"), head)
        self.assertEqual(client.read_exact(2), b"ok")
        client.close()
        self.assertTrue(wait_until(lambda: store.received))
        self.assertTrue(proxy.wait_for_log(" 200 "), proxy.log)
        return store.received[0], proxy

    def test_unsigned_request_loses_exactly_the_parameter(self):
        sent = request(b"/b/k?versionId=v%2F1&partNumber=1", b"X-Other: 1")
        received, proxy = self.exchange(sent, "strip-query partNumber name=drop")
        self.assertEqual(received, request(b"/b/k?versionId=v%2F1", b"X-Other: 1"))
        self.assertTrue(proxy.wait_for_log("faults=drop:strip-query"), proxy.log)

    def test_a_request_without_the_parameter_is_sent_as_it_came_and_not_counted(self):
        sent = request(b"/b/k?versionId=1", b"X-Other: 1")
        received, proxy = self.exchange(sent, "strip-query partNumber name=drop")
        self.assertEqual(received, sent)
        self.assertFalse(any("faults=" in line for line in proxy.log), proxy.log)

    def test_signed_edit_without_keys_is_not_sent_and_not_counted(self):
        sent = request(b"/b/k?partNumber=1", *SIGNED)
        received, proxy = self.exchange(sent, "strip-query partNumber name=drop",
                                        "rewrite-request-header Range '^bytes=-([0-9]+)$' "
                                        "'bytes=0-\\1' name=prefix")
        self.assertEqual(received, sent)
        self.assertFalse(any("faults=" in line for line in proxy.log), proxy.log)
        self.assertTrue(proxy.wait_for_log("request edit not applied"), proxy.log)

    def test_a_field_the_signature_does_not_cover_is_edited_without_keys(self):
        sent = request(b"/b/k", *SIGNED)
        received, _ = self.exchange(sent, "strip-request-header X-Unsigned")
        self.assertEqual(received, sent.replace(b"X-Unsigned: kept\r\n", b""))

    def test_signed_edit_with_keys_is_signed_again_for_the_clients_region(self):
        sent = request(b"/b/k?partNumber=1", *SIGNED)
        received, proxy = self.exchange(sent, "strip-query partNumber name=drop", extra=RESIGN)
        lines = received.split(b"\r\n")
        self.assertEqual(lines[0], b"GET /b/k HTTP/1.1")
        fields = [line for line in lines[1:] if line]
        # The client's fields arrive unchanged (the signer puts x-amz-content-sha256, with the
        # client's value, after them); only Authorization and x-amz-date are new.
        self.assertEqual([f for f in fields if not f.lower().startswith((b"authorization",
                                                                         b"x-amz-date"))],
                         [b"Host: 127.0.0.1", b"Range: bytes=-5", b"X-Unsigned: kept",
                          b"x-amz-content-sha256: UNSIGNED-PAYLOAD"])
        authorization = [f for f in fields if f.startswith(b"Authorization: ")]
        self.assertEqual(len(authorization), 1, fields)
        self.assertRegex(authorization[0].decode(),
                         r"^Authorization: AWS4-HMAC-SHA256 Credential=PROXYKEY/\d{8}/eu-west-1/"
                         r"s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;"
                         r"x-amz-date;x-unsigned, Signature=[0-9a-f]{64}$")
        self.assertNotIn(b"0" * 64, received)
        self.assertEqual(len([f for f in fields if f.lower().startswith(b"x-amz-date:")]), 1)
        self.assertTrue(proxy.wait_for_log("faults=drop:strip-query"), proxy.log)
        self.assertFalse(any("proxysecret" in line for line in proxy.log))

    def test_resign_signs_an_anonymous_request(self):
        sent = request(b"/b/k", b"X-Other: 1")
        received, proxy = self.exchange(sent, "resign name=sign", extra=RESIGN)
        self.assertRegex(received.decode(), r"\r\nAuthorization: AWS4-HMAC-SHA256 "
                                            r"Credential=PROXYKEY/\d{8}/us-east-1/s3/aws4_request")
        self.assertIn(b"\r\nx-amz-content-sha256: UNSIGNED-PAYLOAD\r\n", received)
        self.assertTrue(proxy.wait_for_log("faults=sign:resign"), proxy.log)

    def test_chunk_signed_uploads_are_not_signed_again(self):
        body = b"0\r\n\r\n"
        sent = (b"PUT /b/k HTTP/1.1\r\nHost: 127.0.0.1\r\n" + SIGNED[0] + b"\r\nRange: bytes=-5\r\n" +
                b"x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD\r\n"
                b"x-amz-date: 20261201T120000Z\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        store, proxy = start_store_and_proxy(self, record_and_answer(OK),
                                             *fault_args("set-request-header Range 'bytes=0-1' name=edit"),
                                             *RESIGN)
        client = proxy.connect()
        client.send(sent)
        self.assertTrue(client.read_head().startswith(b"HTTP/1.1 200 OK\r\n"))
        self.assertTrue(wait_until(lambda: store.received))
        self.assertEqual(store.received[0], sent)
        self.assertTrue(proxy.wait_for_log("s3fault signs heads, not chunks"), proxy.log)
        self.assertFalse(any("faults=" in line for line in proxy.log), proxy.log)


if __name__ == "__main__":
    unittest.main(verbosity=2)
