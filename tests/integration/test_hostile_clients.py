"""10,000 hostile client exchanges against `s3fault proxy` (in front of `s3fault origin`) while a
well-behaved client keeps reading and checking an object through it.

Each hostile exchange gets a clear 4xx or a closed connection within the deadline, never a hang
and never a crash: request smuggling (Content-Length with Transfer-Encoding, two different
Content-Lengths, bad chunk sizes), oversized header lines and header blocks, bad methods and
targets, and clients that vanish in the head, in the body, or while the answer is on its way.
A warm-up of 1,000 such exchanges first brings the proxy's caches (pooled store connections,
splice pipes, buffers) to their working size; after the 10,000 the proxy's open descriptors are
back to that level, and its resident memory within a few MiB of it."""

import hashlib
import os
import random
import socket
import threading
import time
import unittest

import harness

HOSTILE_EXCHANGES = 10_000
DEADLINE = 10.0


def open_descriptors(pid: int) -> int:
    return len(harness.descriptor_targets(pid))


def hostile_requests(key_path: str):
    """(name, bytes to send, expectation): "4xx" = an answer 400..431 must come back;
    "vanish" = the client sends and closes without reading (nothing to assert but survival)."""
    return [
        ("cl-and-te", b"POST /b?delete HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "4xx"),
        ("two-lengths", b"PUT /b/k HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n"
                        b"Content-Length: 5\r\n\r\nabcde", "4xx"),
        ("bad-chunk-size", b"PUT /b/k HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                           b"zz\r\nabc\r\n0\r\n\r\n", "4xx"),
        ("huge-chunk-size", b"PUT /b/k HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                            b"fffffffffffffffffffff\r\nabc\r\n", "4xx"),
        ("long-header-line", b"GET /b/k HTTP/1.1\r\nHost: h\r\nx-big: " + b"a" * 70000 +
                             b"\r\n\r\n", "4xx"),
        ("many-headers", b"GET /b/k HTTP/1.1\r\nHost: h\r\n" +
                         b"".join(b"x-h%d: v\r\n" % i for i in range(5000)) + b"\r\n", "4xx"),
        ("bad-method", b"G\x00T /b/k HTTP/1.1\r\nHost: h\r\n\r\n", "4xx"),
        ("bad-target", b"GET b k HTTP/1.1\r\nHost: h\r\n\r\n", "4xx"),
        ("bad-version", b"GET /b/k HTTP/9.9\r\nHost: h\r\n\r\n", "4xx"),
        ("not-http", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64), "4xx"),
        ("vanish-in-head", b"GET " + key_path.encode() + b" HTTP/1.1\r\nHost: h\r\nx-a:",
         "vanish"),
        ("vanish-in-body", b"PUT /b/vanish HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n"
                           + b"x" * 5000, "vanish"),
        ("vanish-before-answer", b"GET " + key_path.encode() + b" HTTP/1.1\r\nHost: h\r\n\r\n",
         "vanish"),
    ]


def run_hostile(port: int, name: str, data: bytes, expect: str) -> str:
    """Sends one hostile request; returns "" when the proxy behaved, else what went wrong."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE)
    try:
        try:
            sock.sendall(data)
        except OSError:
            return ""  # the proxy refused and closed while we were still sending: a refusal
        if expect == "vanish":
            # Leave with a reset at a random moment, as a crashed client does.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            return ""
        received = b""
        started = time.monotonic()
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            except socket.timeout:
                return f"{name}: no answer and no close within {DEADLINE} s"
            if not chunk:
                break
            received += chunk
            if expect == "4xx" and b"\r\n\r\n" in received:
                break
            if time.monotonic() - started > DEADLINE:
                return f"{name}: still open after {DEADLINE} s"
        if expect == "4xx":
            status = received[9:12]
            if not (received.startswith(b"HTTP/1.1 4") and status.isdigit()):
                return f"{name}: expected a 4xx answer, got {received[:60]!r}"
        return ""
    finally:
        sock.close()


class HostileClientsTest(unittest.TestCase):
    def test_ten_thousand_hostile_exchanges_beside_a_good_client(self):
        origin = harness.OriginProcess()
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        proxy = harness.ProxyProcess(origin.url, ["--log-level", "warn", "--header-timeout",
                                                  "2s"])
        proxy.start()
        self.addCleanup(proxy.stop)  # also when an assertion fails before the end
        port = int(proxy.url.rsplit(":", 1)[1])
        store = origin.store()
        client = harness.boto3_client(proxy.url, store)
        bucket = harness.unique_bucket_name("hostile")
        client.create_bucket(Bucket=bucket)
        body = os.urandom(3 * 1024 * 1024 + 7)
        digest = hashlib.sha256(body).hexdigest()
        client.put_object(Bucket=bucket, Key="good", Body=body)
        good_reads = []
        good_errors = []
        stop = threading.Event()

        def good_client():
            own = harness.boto3_client(proxy.url, store)
            while not stop.is_set():
                try:
                    data = own.get_object(Bucket=bucket, Key="good")["Body"].read()
                    good_reads.append(hashlib.sha256(data).hexdigest() == digest)
                except Exception as error:  # noqa: BLE001 - every failure is a finding
                    good_errors.append(repr(error))

        cases = hostile_requests(f"/{bucket}/good")
        rng = random.Random(9)
        problems = []
        counts = {name: 0 for name, _, _ in cases}
        lock = threading.Lock()

        def hostile_batch(exchanges: int) -> float:
            remaining = iter(range(exchanges))

            def hostile_worker():
                while True:
                    with lock:
                        if next(remaining, None) is None:
                            return
                        name, data, expect = cases[rng.randrange(len(cases))]
                        counts[name] += 1
                    problem = run_hostile(port, name, data, expect)
                    if problem:
                        with lock:
                            problems.append(problem)

            return harness.timed_threads(hostile_worker, 8)

        def settled_descriptors(target: int) -> int:
            # Connections the hostile clients left are closed by the proxy's deadlines (2 s head).
            deadline = time.monotonic() + 15
            while open_descriptors(proxy.pid) > target and time.monotonic() < deadline:
                time.sleep(0.2)
            return open_descriptors(proxy.pid)

        good = threading.Thread(target=good_client)
        good.start()
        hostile_batch(1000)  # warm-up: caches reach their working size
        time.sleep(3)
        fds_before = settled_descriptors(0)
        rss_before = harness.resident_mib(proxy.pid)
        hostile_seconds = hostile_batch(HOSTILE_EXCHANGES)
        stop.set()
        good.join()

        self.assertTrue(proxy.alive(), proxy.describe_stderr())
        self.assertEqual(problems[:10], [], f"{len(problems)} hostile exchanges misbehaved")
        self.assertEqual(good_errors[:5], [])
        self.assertGreater(len(good_reads), 5)
        self.assertTrue(all(good_reads), "the good client read wrong bytes")
        time.sleep(3)
        fds_after = settled_descriptors(fds_before)
        rss_after = harness.resident_mib(proxy.pid)
        print(f"\n{HOSTILE_EXCHANGES} hostile exchanges after 1000 to warm up in {hostile_seconds:.1f} s "
              f"({', '.join(f'{k} {v}' for k, v in counts.items())}); good client: "
              f"{len(good_reads)} verified reads; descriptors {fds_before} -> {fds_after}; "
              f"resident {rss_before:.1f} -> {rss_after:.1f} MiB")
        # The good client's own connections (to the proxy, and the proxy's to the store, and a
        # pipe) may be open at either moment: a few descriptors either way. A leak of even one
        # per thousand hostile exchanges would show as ten.
        self.assertLessEqual(fds_after, fds_before + 4)
        harness.assert_memory_settled(self, rss_before, rss_after, 8.0)
        self.assertEqual(proxy.stop(), 0, proxy.describe_stderr())


    def test_both_framings_are_named_and_malformed_heads_are_no_retries(self):
        origin = harness.OriginProcess()
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        proxy = harness.ProxyProcess(origin.url, ["--admin", "127.0.0.1:0"])
        proxy.start()
        self.addCleanup(proxy.stop)
        port = int(proxy.url.rsplit(":", 1)[1])
        heads = [b"PUT /b/k HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                 b"PUT /b/k HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n"
                 b"Content-Length: 4\r\n\r\n0\r\n\r\n",
                 b"PUT /b/k HTTP/1.1\r\nHost: h\r\ncontent-length: 4\r\n"
                 b"transfer-encoding: gzip, chunked\r\n\r\n0\r\n\r\n"]
        for head in heads:
            with socket.create_connection(("127.0.0.1", port), timeout=DEADLINE) as sock:
                sock.sendall(head)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            self.assertTrue(answer.startswith(b"HTTP/1.1 400 "), answer[:80])
            self.assertIn(b"both Content-Length and Transfer-Encoding", answer)
        admin = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                     if line.startswith("admin on "))
        # Counted as the client errors they are, and never as retries, though all look alike.
        labels = {"operation": "Other", "status_class": "4xx"}
        text = harness.metrics_once_counted(admin, **labels)
        deadline = time.monotonic() + 30
        while harness.prometheus_value(text, "s3fault_requests_total", **labels) < 3 and \
                time.monotonic() < deadline:
            text = harness.metrics_once_counted(admin, **labels)
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", **labels), 3)
        self.assertEqual(harness.prometheus_value(text, "s3fault_retries_total", **labels), 0)
        log = proxy.wait_for_log('other="malformed request head: both Content-Length')
        self.assertEqual(log.count("op=Other"), 3, log)

if __name__ == "__main__":
    unittest.main()
