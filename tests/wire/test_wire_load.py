"""Load-shaped schedules through the real proxy, on raw sockets: an in-flight admission limit
(RustFS refusing concurrent 64 MiB uploads with 503 SlowDown) and a token-bucket burst. The
verdicts are exact counts read from the bytes each client got, from what reached the store and
from the admin API's counters; nothing waits on a timer to decide a verdict.

    16 raw clients ──PUT heads (64 MiB declared)──> s3fault proxy ──4 admitted──> ScriptedStore
                   <──12 x 503 SlowDown at once──┘
"""

from __future__ import annotations

import json
import select
import socket
import struct
import threading
import unittest
import urllib.request
import xml.etree.ElementTree as ElementTree

from wire import (DEADLINE, Connection, ScriptedStore, content_length, fault_args,
                  start_store_and_proxy, wait_until)

UPLOAD = 64 * 1024 * 1024
BODY = bytes(UPLOAD)
OK = b'HTTP/1.1 200 OK\r\nETag: "stored"\r\nContent-Length: 0\r\n\r\n'


def put_head(key: str, length: int) -> bytes:
    return (b"PUT /bucket/%s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n"
            % (key.encode(), length))


def get_head(key: str) -> bytes:
    return b"GET /bucket/%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % key.encode()


class RecordingStore:
    """A store handler that reads each request's body to its end (without keeping it) and
    answers 200; it records (request line, body bytes) for every request that reached it."""

    def __init__(self):
        self.requests: list[tuple[bytes, int]] = []
        self._lock = threading.Lock()

    def __call__(self, conn: Connection, store: ScriptedStore) -> None:
        scratch = bytearray(1 << 20)
        while True:
            try:
                head = conn.read_head()
            except (EOFError, OSError):
                return
            if b"/store-fails" in head.split(b"\r\n", 1)[0]:
                return  # the store drops the connection without an answer
            left = content_length(head)
            taken = min(left, len(conn.buffer))
            conn.buffer = conn.buffer[taken:]
            got = taken
            while got < left:
                n = conn.sock.recv_into(scratch, min(len(scratch), left - got))
                if n == 0:
                    return
                got += n
            with self._lock:
                self.requests.append((head.split(b"\r\n", 1)[0], got))
            conn.send(OK)


def rule_counters(admin: str, name: str) -> dict:
    with urllib.request.urlopen(f"{admin}/rules/{name}", timeout=DEADLINE) as answer:
        return json.load(answer)["counters"]


def metrics_text(admin: str) -> str:
    with urllib.request.urlopen(admin + "/metrics", timeout=DEADLINE) as answer:
        return answer.read().decode()


def read_answer(conn: Connection) -> tuple[bytes, bytes]:
    head = conn.read_head()
    return head, conn.read_exact(content_length(head))


def assert_slowdown(test: unittest.TestCase, head: bytes, body: bytes) -> None:
    test.assertTrue(head.startswith(b"HTTP/1.1 503 "), head)
    test.assertEqual(ElementTree.fromstring(body).findtext("Code"), "SlowDown", body)


class InFlightAdmissionTest(unittest.TestCase):
    def test_sixteen_concurrent_64mib_uploads_four_admitted_twelve_refused(self):
        recorder = RecordingStore()
        store, proxy = start_store_and_proxy(
            self, recorder, "--admin", "127.0.0.1:0",
            *fault_args("error SlowDown name=admission op=PutObject in-flight-over=4 "
                        "min-body=64MiB"))
        clients = [proxy.connect() for _ in range(16)]
        self.addCleanup(lambda: [client.close() for client in clients])
        for i, client in enumerate(clients):
            client.send(put_head(f"upload-{i}", UPLOAD))  # the head only: no body yet
        self.assertTrue(wait_until(lambda: rule_counters(proxy.admin, "admission")["matched"] == 16),
                        rule_counters(proxy.admin, "admission"))

        # Twelve answers come with no body sent; they are read as they arrive.
        refused: list[Connection] = []
        pending = {client.sock: client for client in clients}
        while len(refused) < 12:
            readable, _, _ = select.select(list(pending), [], [], DEADLINE)
            self.assertTrue(readable, f"only {len(refused)} refusals arrived")
            for sock in readable:
                client = pending.pop(sock)
                assert_slowdown(self, *read_answer(client))
                refused.append(client)
        admitted = list(pending.values())
        self.assertEqual(len(admitted), 4)
        counters = rule_counters(proxy.admin, "admission")
        self.assertEqual((counters["in_flight"], counters["peak_in_flight"],
                          counters["refusals"], counters["injected"]), (4, 4, 12, 12), counters)
        for client in refused:
            client.close()

        # A small upload is not one of the rule's matches: in it goes, though the rule is full.
        small = proxy.connect()
        self.addCleanup(small.close)
        small.send(put_head("small", 10) + b"0123456789")
        self.assertEqual(read_answer(small), (OK, b""))
        self.assertEqual(rule_counters(proxy.admin, "admission")["matched"], 16)

        # The four admitted send their bodies and get the store's answer.
        for client in admitted:
            client.send(BODY)
            self.assertEqual(read_answer(client), (OK, b""))
        self.assertTrue(wait_until(lambda: rule_counters(proxy.admin, "admission")["in_flight"] == 0),
                        rule_counters(proxy.admin, "admission"))

        # With every slot free again, the next upload is admitted.
        late = proxy.connect()
        self.addCleanup(late.close)
        late.send(put_head("late", UPLOAD))
        late.send(BODY)
        self.assertEqual(read_answer(late), (OK, b""))

        uploads = [entry for entry in recorder.requests if entry[1] == UPLOAD]
        self.assertEqual(len(uploads), 5, recorder.requests)  # 4 admitted + the late one
        self.assertEqual(len(recorder.requests), 6)  # and the small one; no refused one
        self.assertTrue(wait_until(lambda: rule_counters(proxy.admin, "admission")["in_flight"] == 0))
        counters = rule_counters(proxy.admin, "admission")
        self.assertEqual(counters, {"matched": 17, "injected": 12, "skipped": 5, "in_flight": 0,
                                    "peak_in_flight": 4, "refusals": 12})
        text = metrics_text(proxy.admin)
        self.assertIn('s3fault_rule_in_flight{rule="admission"} 0\n', text)
        self.assertIn('s3fault_rule_in_flight_peak{rule="admission"} 4\n', text)
        self.assertIn('s3fault_rule_refusals_total{rule="admission"} 12\n', text)
        self.assertEqual(store.errors, [])


class SlotReleaseTest(unittest.TestCase):
    """Whichever way an admitted exchange ends, its slot comes back, once: the in-flight count
    returns to exactly 0 (a second release would wrap it below zero) and the next upload gets in."""

    def test_a_slot_comes_back_however_the_exchange_ends(self):
        recorder = RecordingStore()
        store, proxy = start_store_and_proxy(
            self, recorder, "--admin", "127.0.0.1:0",
            *fault_args("error SlowDown name=one op=PutObject in-flight-over=1"))

        def counters() -> dict:
            return rule_counters(proxy.admin, "one")

        def start_upload(key: str) -> Connection:
            client = proxy.connect()
            self.addCleanup(client.close)
            client.send(put_head(key, 1 << 20))
            self.assertTrue(wait_until(lambda: counters()["in_flight"] == 1), counters())
            # The slot is held: another upload is refused at once.
            probe = proxy.connect()
            probe.send(put_head("probe", 1 << 20))
            assert_slowdown(self, *read_answer(probe))
            probe.close()
            return client

        def reset(client: Connection) -> None:
            client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.sock.close()

        endings = {
            "the client goes away after the head": lambda client: client.sock.close(),
            "the client resets mid-body": lambda client: (client.send(b"x" * 1000),
                                                           reset(client)),
        }
        for what, end in endings.items():
            with self.subTest(what):
                end(start_upload("upload"))
                self.assertTrue(wait_until(lambda: counters()["in_flight"] == 0), counters())
        with self.subTest("the store fails before answering"):
            client = start_upload("store-fails")
            head, _ = read_answer(client)
            self.assertTrue(head.startswith(b"HTTP/1.1 502 "), head)
            client.close()
            self.assertTrue(wait_until(lambda: counters()["in_flight"] == 0), counters())
        with self.subTest("the upload completes"):
            client = start_upload("upload")
            client.send(bytes(1 << 20))
            self.assertEqual(read_answer(client), (OK, b""))
            self.assertTrue(wait_until(lambda: counters()["in_flight"] == 0), counters())
        late = proxy.connect()
        self.addCleanup(late.close)
        late.send(put_head("late", 10) + b"0123456789")
        self.assertEqual(read_answer(late), (OK, b""))
        self.assertTrue(wait_until(lambda: counters()["in_flight"] == 0), counters())
        self.assertEqual(counters(), {"matched": 9, "injected": 4, "skipped": 5, "in_flight": 0,
                                      "peak_in_flight": 1, "refusals": 4})


class TokenBucketTest(unittest.TestCase):
    def test_a_burst_of_three_then_slowdown(self):
        recorder = RecordingStore()
        store, proxy = start_store_and_proxy(
            self, recorder, "--admin", "127.0.0.1:0",
            *fault_args("error SlowDown name=burst rate=0.001 burst=3"))
        client = proxy.connect()
        self.addCleanup(client.close)
        statuses = []
        for i in range(6):
            client.send(get_head(f"k{i}"))
            head, body = read_answer(client)
            if head.startswith(b"HTTP/1.1 503 "):
                assert_slowdown(self, head, body)
            statuses.append(int(head.split()[1]))
        # 0.001 tokens a second: none comes back within this test, so exactly three pass.
        self.assertEqual(statuses, [200, 200, 200, 503, 503, 503])
        self.assertEqual(len(recorder.requests), 3)
        counters = rule_counters(proxy.admin, "burst")
        self.assertEqual((counters["matched"], counters["injected"], counters["refusals"],
                          counters["skipped"]), (6, 3, 3, 3), counters)
        self.assertIn('s3fault_rule_refusals_total{rule="burst"} 3\n', metrics_text(proxy.admin))
        self.assertEqual(store.errors, [])


if __name__ == "__main__":
    unittest.main()
