"""Per-request faults (--allow-header-faults) at byte level: a request's x-s3fault-fault field
gives it that fault and no configured rule; the field never reaches the store, the request
otherwise arrives byte for byte as sent; the next request without it is untouched. Refused
(400, nothing sent to the store, the proxy serving on): without the flag, when the signature
covers the field, with two fields, and with a rule that has mistakes."""

from __future__ import annotations

import unittest

from wire import content_length, header, record_and_answer, start_store_and_proxy, wait_until

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nETag: \"e\"\r\n\r\nok"
ALLOW = "--allow-header-faults"




def request(*fields: bytes) -> bytes:
    return (b"GET /bucket/key HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            b"".join(field + b"\r\n" for field in fields) + b"\r\n")


SIGNED = (b"Authorization: AWS4-HMAC-SHA256 Credential=CLIENT/20261201/us-east-1/s3/aws4_request, "
          b"SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=" + b"0" * 64,
          b"x-amz-date: 20261201T120000Z", b"x-amz-content-sha256: UNSIGNED-PAYLOAD")


class HeaderFaultTest(unittest.TestCase):
    def answers(self, proxy, *requests: bytes) -> list[tuple[bytes, bytes]]:
        """Sends the requests one after another on one connection: (head, body) of each."""
        client = proxy.connect()
        out = []
        for sent in requests:
            client.send(sent)
            head = client.read_head()
            out.append((head, client.read_exact(content_length(head))))
        client.close()
        return out

    def test_the_field_is_the_requests_fault_alone_and_never_reaches_the_store(self):
        store, proxy = start_store_and_proxy(self, record_and_answer(OK), ALLOW,
                                             "--fault", "set-header x-configured yes")
        own = request(b"X-Other: 1", b"x-s3fault-fault: set-header x-own mine", *SIGNED)
        plain = request(b"X-Other: 1", *SIGNED)
        (own_head, own_body), (plain_head, plain_body) = self.answers(proxy, own, plain)
        self.assertTrue(wait_until(lambda: len(store.received) == 2))
        # The store got the request minus exactly that field (the signature does not cover it).
        self.assertEqual(store.received[0], plain)
        self.assertEqual(store.received[1], plain)
        # The request's own fault applied, and no configured rule; the next one is back to the
        # configured rules.
        self.assertEqual((header(own_head, b"x-own"), header(own_head, b"x-configured")),
                         (b"mine", None))
        self.assertEqual((header(plain_head, b"x-own"), header(plain_head, b"x-configured")),
                         (None, b"yes"))
        self.assertEqual((own_body, plain_body), (b"ok", b"ok"))
        self.assertTrue(proxy.wait_for_log("faults=x-s3fault-fault:set-header"), proxy.log)

    def test_an_error_fault_answers_without_the_store(self):
        store, proxy = start_store_and_proxy(self, record_and_answer(OK), ALLOW)
        [(head, body)] = self.answers(proxy, request(b"x-s3fault-fault: error SlowDown name=mine"))
        self.assertTrue(head.startswith(b"HTTP/1.1 503 "), head)
        self.assertIn(b"<Code>SlowDown</Code>", body)
        self.assertEqual(store.received, [])
        self.assertTrue(proxy.wait_for_log("faults=mine:error"), proxy.log)

    def test_refusals_name_the_reason_and_send_nothing_to_the_store(self):
        cases = [
            ((), request(b"x-s3fault-fault: error SlowDown"), b"start it with --allow-header-faults"),
            ((ALLOW,), request(b"x-s3fault-fault: truncate abc"), b"truncate.at"),
            ((ALLOW,), request(b"x-s3fault-fault: error SlowDown", b"x-s3fault-fault: reset"),
             b"give one per request"),
            ((ALLOW,), request(b"x-s3fault-fault: error SlowDown",
                               SIGNED[0].replace(b"SignedHeaders=host;",
                                                 b"SignedHeaders=host;x-s3fault-fault;"),
                               *SIGNED[1:]),
             b"add it after signing"),
        ]
        for args, sent, reason in cases:
            with self.subTest(reason=reason):
                store, proxy = start_store_and_proxy(self, record_and_answer(OK), *args)
                [(head, body)] = self.answers(proxy, sent)
                self.assertTrue(head.startswith(b"HTTP/1.1 400 "), head)
                self.assertIn(b"<Code>InvalidRequest</Code>", body)
                self.assertIn(reason, body)
                # Still serving: a request without the field goes through untouched.
                [(head, body)] = self.answers(proxy, request(b"X-Other: 1"))
                self.assertEqual((head.split(b"\r\n")[0], body), (b"HTTP/1.1 200 OK", b"ok"))
                self.assertEqual(store.received, [request(b"X-Other: 1")])


if __name__ == "__main__":
    unittest.main()
