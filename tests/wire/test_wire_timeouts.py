"""Timeouts measure inactivity, not size: an upload or download that moves steadily passes however
long it takes (here at least twice --upstream-timeout and many times --io-timeout), byte-exact;
a store that stops reading or sending, or does not answer after the body, is cut.

    raw client (paced) ──> s3fault proxy --upstream-timeout 1s --io-timeout 1s ──> ScriptedStore

S3FAULT_LONG_TRANSFER_MIB sets the size of the long transfers (default 256; the acceptance run
of issue 15 used 2048).
"""

from __future__ import annotations

import hashlib
import os
import socket
import time
import unittest

from wire import Connection, Proxy, ScriptedStore, content_length, start_store_and_proxy

MIB = 1024 * 1024
SIZE_MIB = int(os.environ.get("S3FAULT_LONG_TRANSFER_MIB", "256"))
BLOCK = bytes((i * 7 + 3) % 251 for i in range(MIB))  # one MiB, repeated with its index
UPSTREAM_TIMEOUT_S = 1.0
AT_LEAST_S = 2.5 * UPSTREAM_TIMEOUT_S  # each long transfer lasts longer than this
STALL_S = 20  # a store that stops moving stops this long: far past every proxy timeout
TIMEOUTS = ("--upstream-timeout", "1s", "--io-timeout", "1s")


def block(index: int) -> bytes:
    return index.to_bytes(8, "big") + BLOCK[8:]


def paced(total_mib: int, seconds: float):
    """Yields (index, pause before it) so that total_mib blocks take at least `seconds`."""
    started = time.monotonic()
    for index in range(total_mib):
        due = started + seconds * index / total_mib
        yield index, max(0.0, due - time.monotonic())


class InactivityTimeoutTest(unittest.TestCase):
    def start(self, handler) -> tuple[ScriptedStore, Proxy]:
        return start_store_and_proxy(self, handler, *TIMEOUTS)

    def test_a_long_paced_upload_reaches_a_healthy_store_byte_exact(self):
        def store_hashes_the_upload(conn: Connection, store: ScriptedStore) -> None:
            length = content_length(conn.read_head())
            digest, left = hashlib.sha256(conn.buffer), length - len(conn.buffer)
            conn.buffer = b""
            while left > 0:
                chunk = conn.sock.recv(min(left, 1 << 20))
                if not chunk:
                    raise EOFError(f"upload ended {left} bytes early")
                digest.update(chunk)
                left -= len(chunk)
            body = digest.hexdigest().encode()
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            conn.read_until_close()

        store, proxy = self.start(store_hashes_the_upload)
        client = proxy.connect()
        client.sock.settimeout(60)
        expected = hashlib.sha256()
        started = time.monotonic()
        client.send(b"PUT /bucket/long HTTP/1.1\r\nHost: h\r\nContent-Length: %d\r\n\r\n"
                    % (SIZE_MIB * MIB))
        for index, pause in paced(SIZE_MIB, AT_LEAST_S):
            time.sleep(pause)
            data = block(index)
            expected.update(data)
            client.sock.sendall(data)
        head = client.read_head()
        elapsed = time.monotonic() - started
        self.assertTrue(head.startswith(b"HTTP/1.1 200 "), head)
        self.assertEqual(client.read_exact(content_length(head)).decode(), expected.hexdigest())
        self.assertGreater(elapsed, 2 * UPSTREAM_TIMEOUT_S)
        self.assertEqual(store.errors, [])
        print(f"upload of {SIZE_MIB} MiB took {elapsed:.1f} s behind --upstream-timeout 1s: "
              f"byte-exact", flush=True)

    def test_a_long_paced_download_reaches_the_client_byte_exact(self):
        def store_sends_blocks(conn: Connection, store: ScriptedStore) -> None:
            conn.read_head()
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (SIZE_MIB * MIB))
            for index in range(SIZE_MIB):
                conn.send(block(index))
            conn.read_until_close()

        _, proxy = self.start(store_sends_blocks)
        client = proxy.connect()
        client.sock.settimeout(60)
        started = time.monotonic()
        client.send(b"GET /bucket/long HTTP/1.1\r\nHost: h\r\n\r\n")
        head = client.read_head()
        self.assertEqual(content_length(head), SIZE_MIB * MIB)
        for index, pause in paced(SIZE_MIB, AT_LEAST_S):
            time.sleep(pause)
            self.assertEqual(client.read_exact(MIB), block(index), f"block {index}")
        elapsed = time.monotonic() - started
        self.assertGreater(elapsed, 2 * UPSTREAM_TIMEOUT_S)
        print(f"download of {SIZE_MIB} MiB took {elapsed:.1f} s behind --io-timeout 1s: "
              f"byte-exact", flush=True)

    def test_a_store_that_stops_reading_the_upload_is_cut(self):
        def store_stops_reading(conn: Connection, store: ScriptedStore) -> None:
            conn.read_head()
            conn.read_exact(100 * 1024)
            time.sleep(STALL_S)  # then it would answer: the client must never see this
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

        _, proxy = self.start(store_stops_reading)
        client = proxy.connect()
        client.sock.settimeout(STALL_S / 2)
        client.send(b"PUT /bucket/k HTTP/1.1\r\nHost: h\r\nContent-Length: %d\r\n\r\n" % (64 * MIB))
        for index in range(64):
            client.sock.sendall(block(index))  # the proxy drains what the store no longer takes
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 504 "), head)

    def test_a_store_that_does_not_answer_after_the_body_is_cut(self):
        def store_never_answers(conn: Connection, store: ScriptedStore) -> None:
            length = content_length(conn.read_head())
            conn.read_exact(length)
            time.sleep(STALL_S)
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

        _, proxy = self.start(store_never_answers)
        client = proxy.connect()
        client.sock.settimeout(STALL_S / 2)
        client.send(b"PUT /bucket/k HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789")
        head = client.read_head()
        self.assertTrue(head.startswith(b"HTTP/1.1 504 "), head)
        self.assertTrue(proxy.wait_for_log("did not answer in time") or
                        proxy.wait_for_log("timed out"), proxy.log)

    def test_a_store_that_stops_sending_the_body_is_cut(self):
        def store_stops_sending(conn: Connection, store: ScriptedStore) -> None:
            conn.read_head()
            conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (8 * MIB) + BLOCK[:100000])
            time.sleep(STALL_S)

        _, proxy = self.start(store_stops_sending)
        client = proxy.connect()
        client.sock.settimeout(STALL_S / 2)
        client.send(b"GET /bucket/k HTTP/1.1\r\nHost: h\r\n\r\n")
        client.read_head()
        body, how = client.read_outcome()
        self.assertEqual((len(body), how), (100000, "reset"))
        self.assertEqual(body, BLOCK[:100000])


if __name__ == "__main__":
    unittest.main(verbosity=2)
