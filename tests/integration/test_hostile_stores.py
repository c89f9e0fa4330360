"""10,000 exchanges with a hostile STORE behind `s3fault proxy`, while a well-behaved client keeps
reading and checking objects through the same proxy; and slowloris clients trickling their heads.

    hostile clients (8 threads) ─┐                         ┌─> /b/<case>/<n>: misbehaves
                                 ├─> s3fault proxy ────────┤
    good client (http.client) ───┘   (2 s deadlines)       └─> /b/good/<name>: the right bytes
                                                      HostileStore (threads, 127.0.0.1 port 0)

The store decides by the request's path. What a hostile client must see from the proxy:
- the store fails before its response head is complete: a clear 502 BadGateway (504
  GatewayTimeout when a deadline ran out), as an S3 XML error;
- the store fails in the middle of the body: a reset before the body's declared end, so a short
  body can never look complete;
- the store sends bytes after a valid response: the valid response, and the bytes never reach
  anyone (the connection is not reused);
- every exchange ends within the proxy's deadline plus slack, never a hang.
The store checks its side: no request it was slow to answer reached it twice, and the proxy let
go of every connection it stalled on by the deadline. A warm-up of 1,000 exchanges first brings
the proxy's caches (pooled store connections, buffers) to their working size; after the 10,000
the proxy's open descriptors are back to that level, and its resident memory within a few MiB of
it. Pipes are counted apart: the splice pipes a worker caches come and go with the traffic (a
pipe that still holds bytes when a transfer fails is closed), up to a fixed bound.
"""

from __future__ import annotations

import collections
import dataclasses
import fcntl
import hashlib
import http.client
import random
import select
import socket
import struct
import termios
import threading
import time
import unittest
import xml.etree.ElementTree as ElementTree
from typing import Callable, Optional

import harness

HOSTILE_EXCHANGES = 10_000
WARM_UP_EXCHANGES = 1_000
HOSTILE_THREADS = 8
PROXY_WORKERS = 2
# Pipe descriptors the proxy may hold when idle: its stdout and stderr, and the splice pipes
# each worker caches (at most 8, two ends each), kept or dropped as the traffic goes.
PIPE_DESCRIPTORS_MAX = 2 + PROXY_WORKERS * 8 * 2
PROXY_DEADLINE = 2.0  # the proxy's --upstream-timeout, --header-timeout, --io-timeout, ...
SLACK = 4.0  # a busy 2-core machine (another build running) may delay any step by this much
HANG = 20.0  # an exchange still open this long is a hang
SMALL_BODY = 1000  # relayed through the proxy's buffers
LARGE_BODY = 300_000  # relayed with splice (plain TCP, Content-Length >= 64 KiB)
UPLOAD_BODY = b"u" * (1024 * 1024)
# Between two reads, as an application does: a good client reading flat out would take a
# Python core from the hostile side on a 2-core machine.
GOOD_CLIENT_PAUSE = 0.005
SLOWLORIS_CLIENTS = 48
# Long enough that, trickled at 100-200 ms a byte, it would take 17-34 s to arrive whole.
SLOWLORIS_HEAD = (b"GET /b/good/small HTTP/1.1\r\nHost: store.test\r\n"
                  b"User-Agent: slowloris/1.0 (one byte at a time)\r\n"
                  b"x-padding: " + b"p" * 60 + b"\r\n\r\n")
_deadline = f"{PROXY_DEADLINE:g}s"
PROXY_ARGS = ["--log-level", "warn", "--threads", str(PROXY_WORKERS),
              "--upstream-timeout", _deadline, "--header-timeout", _deadline,
              "--io-timeout", _deadline, "--connect-timeout", _deadline]

# What the good client reads; sizes cover an empty body, bodies inline with the head, copied and
# spliced bodies, and a chunked one.
_object_bytes = random.Random(7).randbytes
GOOD_OBJECTS = {
    "empty": b"",
    "one": b"\x00",
    "small": _object_bytes(4000),
    "spliced": _object_bytes(300_000),
    "large": _object_bytes(2 * 1024 * 1024 + 7),
    "chunked": _object_bytes(200_000),
}


def open_descriptors(pid: int) -> int:
    """The process's open descriptors, pipes apart (see pipe_descriptors)."""
    return sum(1 for target in harness.descriptor_targets(pid) if not target.startswith("pipe:"))


def pipe_descriptors(pid: int) -> int:
    return sum(1 for target in harness.descriptor_targets(pid) if target.startswith("pipe:"))


# --------------------------------------------------------------------------------------------
# The hostile store
# --------------------------------------------------------------------------------------------


def reset(sock: socket.socket) -> None:
    """Closes with a TCP RST (SO_LINGER 0), as a crashed store or a middlebox does, once the
    bytes sent before have left, so the offset is exact."""
    wait_until_sent(sock)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def wait_until_sent(sock: socket.socket) -> None:
    """Waits (at most 1 s) until the peer's kernel has every byte sent: a reset, or a close with
    request bytes unread (which the kernel turns into a reset), drops what is still queued."""
    deadline = time.monotonic() + 1.0
    while unsent_bytes(sock) > 0 and time.monotonic() < deadline:
        time.sleep(0.001)


def unsent_bytes(sock: socket.socket) -> int:
    """Bytes in the socket's send queue that the peer's kernel has not acknowledged."""
    return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0]


def ok_head(length: Optional[int] = None, extra: bytes = b"") -> bytes:
    framing = b"Content-Length: %d\r\n" % length if length is not None else b""
    return b"HTTP/1.1 200 OK\r\nx-amz-request-id: HOSTILE\r\n" + framing + extra + b"\r\n"


def chunked(body: bytes, chunk_size: int = 8192) -> bytes:
    out = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + chunk_size]), body[i:i + chunk_size])
                   for i in range(0, len(body), chunk_size))
    return out + b"0\r\n\r\n"


@dataclasses.dataclass(frozen=True)
class StoreCase:
    """One way for the store to misbehave once it has read a request, and what the proxy's
    client must see: "502" or "504" (an S3 error from the proxy), "reset" (a reset before the
    body's end), or "200" / "204" / "403" (the store's valid answer, which comes with the
    misbehaviour)."""

    name: str
    misbehave: Callable[["HostileStore", socket.socket], None]
    expect: str
    stalls: bool = False  # holds the store connection until the proxy's deadline closes it
    upload: bool = False  # the client PUTs UPLOAD_BODY (else it GETs)


def send_then_close(data: bytes) -> Callable[["HostileStore", socket.socket], None]:
    def misbehave(store: "HostileStore", sock: socket.socket) -> None:
        sock.sendall(data)

    return misbehave


def send_then_reset(data: bytes) -> Callable[["HostileStore", socket.socket], None]:
    def misbehave(store: "HostileStore", sock: socket.socket) -> None:
        if data:
            sock.sendall(data)
        reset(sock)

    return misbehave


def send_then_stall(data: bytes) -> Callable[["HostileStore", socket.socket], None]:
    def misbehave(store: "HostileStore", sock: socket.socket) -> None:
        if data:
            sock.sendall(data)
        store.hold_until_closed(sock)

    return misbehave


def trickle_head(store: "HostileStore", sock: socket.socket) -> None:
    """A slowloris store: one byte of a long head every 150 ms; the head's deadline must hold."""
    for byte in ok_head(10, b"x-slow: " + b"s" * 200 + b"\r\n"):
        sock.sendall(bytes([byte]))
        readable, _, _ = select.select([sock], [], [], 0.15)
        if readable:  # the proxy closed: stop
            store.hold_until_closed(sock)
            return
    store.hold_until_closed(sock)


def endless_interim_responses(store: "HostileStore", sock: socket.socket) -> None:
    """`100 Continue` every 5 ms and never a final answer."""
    started = time.monotonic()
    while time.monotonic() - started < HANG:
        sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        readable, _, _ = select.select([sock], [], [], 0.005)
        if readable:
            break
    store.hold_until_closed(sock)


def reset_mid_upload(store: "HostileStore", sock: socket.socket) -> None:
    """Takes part of the request body, then resets."""
    taken = 0
    while taken < len(UPLOAD_BODY) // 4:
        chunk = sock.recv(65536)
        if not chunk:
            return
        taken += len(chunk)
    reset(sock)


def stall_mid_upload(store: "HostileStore", sock: socket.socket) -> None:
    """Stops reading the request body until past the proxy's deadline, and never answers."""
    time.sleep(PROXY_DEADLINE + 1)
    store.hold_until_closed(sock)


def refuse_upload_and_close(store: "HostileStore", sock: socket.socket) -> None:
    """Answers 403 before the request body, as S3 does, and closes without reading the body
    (the unread bytes make the close a reset)."""
    sock.sendall(b"HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 7\r\n\r\n"
                 b"<Error>")
    wait_until_sent(sock)


def smuggle_a_second_response(store: "HostileStore", sock: socket.socket) -> None:
    """A valid answer with an unasked-for second one behind it, then the connection kept open
    for more requests: a proxy that reused it would hand the stowaway to another client."""
    sock.sendall(ok_head(2) + b"ok" + ok_head(8, b"x-smuggled: yes\r\n") + b"smuggled")
    store.serve_requests(sock)


def answer_no_content_with_a_body(store: "HostileStore", sock: socket.socket) -> None:
    """204 has no body by definition; the bytes after it must not become the next answer."""
    sock.sendall(b"HTTP/1.1 204 No Content\r\n\r\n" + ok_head(8, b"x-smuggled: yes\r\n") +
                 b"smuggled")
    store.serve_requests(sock)


_garbage = random.Random(11)
RANDOM_BYTES = bytes(b for b in _garbage.randbytes(400) if b not in b"\r\n")
TLS_SERVER_HELLO = (b"\x16\x03\x03\x00\x31\x02\x00\x00\x2d\x03\x03" + _garbage.randbytes(32) +
                    b"\x00\x13\x01\x00\x00\x05\xff\x01\x00\x01\x00")
PARTIAL_HEAD = b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nx-amz-"
LONG_HEADER_LINE = ok_head(0, b"x-big: " + b"a" * 100_000 + b"\r\n")
MANY_HEADERS = ok_head(0, b"".join(b"x-h%d: v\r\n" % i for i in range(20_000)))
CHUNKED_HEAD = ok_head(None, b"Transfer-Encoding: chunked\r\n")


def status_line(line: bytes) -> bytes:
    return line + b"\r\nContent-Length: 0\r\n\r\n"


def body_cut(length: int, at: int) -> bytes:
    """A head announcing `length` body bytes, and the first `at` of them."""
    return ok_head(length) + b"b" * at


def body_cut_cases(end: str, misbehave: Callable, offsets: tuple[str, ...]) -> list[StoreCase]:
    """`close` or `reset` at each named offset of a small (copied) and a large (spliced) body."""
    cases = []
    for size, length in (("small", SMALL_BODY), ("large", LARGE_BODY)):
        at = {"0": 0, "1": 1, "half": length // 2, "last-byte": length - 1}
        cases += [StoreCase(f"{end}-{size}-at-{offset}", misbehave(body_cut(length, at[offset])),
                            "reset") for offset in offsets]
    return cases


STORE_CASES = [
    # Before the response head is complete: 502, or 504 when a deadline ran out.
    StoreCase("random-bytes", send_then_close(RANDOM_BYTES), "502"),
    StoreCase("not-http-text", send_then_close(b"<html>It works!</html>\r\n\r\n"), "502"),
    StoreCase("tls-record", send_then_close(TLS_SERVER_HELLO), "502"),
    StoreCase("partial-head-close", send_then_close(PARTIAL_HEAD), "502"),
    StoreCase("long-header-line", send_then_close(LONG_HEADER_LINE), "502"),
    StoreCase("many-headers", send_then_close(MANY_HEADERS), "502"),
    StoreCase("bad-status-code", send_then_close(status_line(b"HTTP/1.1 2x0 OK")), "502"),
    StoreCase("bad-version", send_then_close(status_line(b"HTTP/1.x 200 OK")), "502"),
    StoreCase("switching-protocols", send_then_close(
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
        "502"),
    StoreCase("negative-length", send_then_close(
        b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"), "502"),
    StoreCase("non-numeric-length", send_then_close(
        b"HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n12abc"), "502"),
    StoreCase("two-lengths", send_then_close(
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello"), "502"),
    StoreCase("length-and-chunked", send_then_close(
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"5\r\nhello\r\n0\r\n\r\n"), "502"),
    StoreCase("reset-before-head", send_then_reset(b""), "502"),
    StoreCase("reset-in-head", send_then_reset(PARTIAL_HEAD), "502"),
    StoreCase("endless-100-continue", endless_interim_responses, "502"),
    StoreCase("partial-head-stall", send_then_stall(PARTIAL_HEAD), "504", stalls=True),
    StoreCase("trickled-head", trickle_head, "504", stalls=True),
    StoreCase("silent", send_then_stall(b""), "504", stalls=True),
    # In the body: the client's connection is reset before the body's end.
    *body_cut_cases("close", send_then_close, ("0", "1", "half", "last-byte")),
    *body_cut_cases("reset", send_then_reset, ("0", "half", "last-byte")),
    StoreCase("reset-unframed-body", send_then_reset(ok_head() + b"u" * 5000), "reset"),
    StoreCase("bad-chunk-size", send_then_close(CHUNKED_HEAD + b"5\r\nhello\r\nzz\r\nabc\r\n"),
              "reset"),
    StoreCase("huge-chunk-size", send_then_close(CHUNKED_HEAD + b"f" * 21 + b"\r\nabc\r\n"),
              "reset"),
    StoreCase("chunked-close-early", send_then_close(CHUNKED_HEAD + chunked(b"c" * 20_000)[:-5]),
              "reset"),
    StoreCase("stall-in-body", send_then_stall(body_cut(LARGE_BODY, LARGE_BODY // 2)), "reset",
              stalls=True),
    # A valid answer followed by bytes nobody asked for: they must never reach another client.
    StoreCase("smuggled-response", smuggle_a_second_response, "200"),
    StoreCase("no-content-with-body", answer_no_content_with_a_body, "204"),
    # Uploads: the store fails or answers while the request body is on its way.
    StoreCase("reset-mid-upload", reset_mid_upload, "502", upload=True),
    StoreCase("refuse-upload-and-close", refuse_upload_and_close, "403", upload=True),
    StoreCase("stall-mid-upload", stall_mid_upload, "504", stalls=True, upload=True),
]
STORE_ANSWER_BODIES = {"200": b"ok", "204": b"", "403": b"<Error>"}
CASES_BY_NAME = {case.name: case for case in STORE_CASES}
# Stalling cases hold a hostile thread for the proxy's 2 s deadline: they are drawn rarely, so
# that 10,000 exchanges fit in well under a minute on 2 cores.
STALL_WEIGHT = 1
FAST_WEIGHT = 40


class HostileStore:
    """A threaded HTTP/1.1 store on 127.0.0.1 port 0: GET /b/good/<name> gets the right bytes
    (keep-alive), GET or PUT /b/<case>/<n> gets the case's misbehaviour. It records how often
    each request reached it and how long the proxy held connections it stalled on."""

    def __init__(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(512)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.requests_seen: collections.Counter[str] = collections.Counter()
        self.longest_hold = 0.0  # seconds from a stall to the proxy's close
        self.errors: list[str] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept_forever, daemon=True).start()

    def close(self) -> None:
        # shutdown wakes the thread blocked in accept(); close alone would leave it listening.
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()

    def _accept_forever(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve_connection, args=(sock,), daemon=True).start()

    def _serve_connection(self, sock: socket.socket) -> None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.serve_requests(sock)
        except OSError:
            pass  # the proxy closed or reset the connection: that is its job here
        except Exception as error:  # noqa: BLE001 - recorded, and asserted empty by the tests
            self.errors.append(repr(error))
        finally:
            sock.close()

    def serve_requests(self, sock: socket.socket) -> None:
        """Answers requests on `sock` until one names a misbehaviour (or the proxy closes)."""
        buffered = b""
        while True:
            sock.settimeout(120)  # a pooled connection waits this long for its next request
            while b"\r\n\r\n" not in buffered:
                chunk = sock.recv(65536)
                if not chunk:
                    return
                buffered += chunk
            head, buffered = buffered.split(b"\r\n\r\n", 1)
            path = head.split(b" ", 2)[1].decode()
            with self._lock:
                self.requests_seen[path] += 1
            _, folder, name = path.split("/", 3)[1:]
            if folder == "good":
                body = GOOD_OBJECTS[name]
                if name == "chunked":
                    sock.sendall(CHUNKED_HEAD + chunked(body))
                else:
                    sock.sendall(ok_head(len(body)) + body)
                continue
            CASES_BY_NAME[folder].misbehave(self, sock)
            return

    def hold_until_closed(self, sock: socket.socket) -> None:
        """Says nothing more and waits for the proxy to close (at most HANG seconds)."""
        started = time.monotonic()
        sock.settimeout(HANG)
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass
        held = time.monotonic() - started
        with self._lock:
            self.longest_hold = max(self.longest_hold, held)


# --------------------------------------------------------------------------------------------
# What a client sees
# --------------------------------------------------------------------------------------------


def chunked_body_complete(body: bytes) -> bool:
    """True when `body` is a whole chunked message: chunks, the last chunk and the blank line."""
    position = 0
    while True:
        line_end = body.find(b"\r\n", position)
        if line_end < 0:
            return False
        try:
            size = int(body[position:line_end].split(b";")[0], 16)
        except ValueError:
            return False
        position = line_end + 2
        if size == 0:
            rest = body[position:]
            return rest.startswith(b"\r\n") or b"\r\n\r\n" in rest
        position += size + 2
        if position > len(body):
            return False


@dataclasses.dataclass
class Response:
    """One response as a raw client read it: `ended` is "complete" (the body's framing said it
    was whole), "eof", "reset" or "timeout"."""

    head: bytes = b""
    body: bytes = b""
    ended: str = ""
    seconds: float = 0.0

    @property
    def status(self) -> int:
        return int(self.head[9:12]) if self.head[9:12].isdigit() else 0

    def header(self, name: str) -> Optional[str]:
        for line in self.head.split(b"\r\n")[1:]:
            field, _, value = line.partition(b":")
            if field.strip().lower() == name.encode():
                return value.strip().decode("latin-1")
        return None

    def is_complete(self) -> bool:
        """The body is whole by its own framing (an unframed body is whole at EOF only)."""
        if self.status in (204, 304) or 100 <= self.status < 200:
            return True
        length = self.header("content-length")
        if length is not None:
            return len(self.body) >= int(length)
        if (self.header("transfer-encoding") or "").lower() == "chunked":
            return chunked_body_complete(self.body)
        return self.ended == "eof"


def fetch(port: int, path: str, upload: Optional[bytes] = None) -> Response:
    """GET `path` (or PUT `upload` to it) through the proxy on a new connection; reads one final
    response (1xx skipped) until its body is whole or the connection ends."""
    response = Response()
    started = time.monotonic()
    sock = socket.create_connection(("127.0.0.1", port), timeout=HANG)
    received = b""
    if upload is None:
        request = f"GET {path} HTTP/1.1\r\nHost: store.test\r\n\r\n".encode()
    else:
        request = (f"PUT {path} HTTP/1.1\r\nHost: store.test\r\n"
                   f"Content-Length: {len(upload)}\r\n\r\n").encode() + upload
    try:
        try:
            sock.sendall(request)
        except OSError:
            pass  # the proxy stopped taking the upload: its answer (or reset) is read below
        while True:
            if not response.head and b"\r\n\r\n" in received:
                head, received = received.split(b"\r\n\r\n", 1)
                if head[9:10] == b"1" and head[9:12] != b"101":
                    continue  # an interim response: the final one follows
                response.head = head + b"\r\n\r\n"
            if response.head:
                response.body = received
                if response.is_complete() and response.ended != "eof":
                    response.ended = "complete"
                    break
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                response.ended = "reset"
                break
            except socket.timeout:
                response.ended = "timeout"
                break
            if not chunk:
                response.ended = "eof"
                if response.head and response.is_complete():
                    response.ended = "complete"  # a body delimited by the connection's end
                break
            received += chunk
    finally:
        sock.close()
    if not response.head:
        response.body = received  # whatever arrived that was not a head
    response.seconds = time.monotonic() - started
    return response


def check_response(case: StoreCase, response: Response) -> str:
    """"" when the client saw what the case demands, else what went wrong."""
    seen = f"{response.head[:60]!r} + {len(response.body)} body bytes, {response.ended}"
    if response.ended == "timeout":
        return f"{case.name}: no answer and no close within {HANG} s (a hang)"
    if response.header("x-smuggled") is not None:
        return f"{case.name}: a response the store smuggled behind another reached a client"
    if response.seconds > PROXY_DEADLINE + SLACK:
        return f"{case.name}: took {response.seconds:.1f} s (deadline {PROXY_DEADLINE} s): {seen}"
    if case.expect in ("502", "504"):
        code = "BadGateway" if case.expect == "502" else "GatewayTimeout"
        if response.status != int(case.expect) or response.ended != "complete":
            return f"{case.name}: expected a whole {case.expect} answer, got {seen}"
        if not response.header("x-amz-request-id"):
            return f"{case.name}: the {case.expect} has no x-amz-request-id"
        if ElementTree.fromstring(response.body).findtext("Code") != code:
            return f"{case.name}: expected the S3 error code {code}, got {response.body[:200]!r}"
        return ""
    if case.expect == "reset":
        # A head may or may not have arrived before the reset; the body never looks whole.
        if response.ended != "reset" or (response.head and response.status != 200):
            return f"{case.name}: expected the store's 200 cut off by a reset, got {seen}"
        return ""
    # The store's answer, as it sent it, and nothing else.
    expected_body = STORE_ANSWER_BODIES[case.expect]
    if (response.status != int(case.expect) or response.ended != "complete"
            or response.body != expected_body):
        return f"{case.name}: expected the store's {case.expect} {expected_body!r}, got {seen}"
    return ""


class HostileTraffic:
    """Runs numbered hostile exchanges through the proxy from several threads (the path
    /b/<case>/<number> tells the store what to do) and keeps what went wrong."""

    def __init__(self, port: int):
        self.port = port
        self.counts: collections.Counter[str] = collections.Counter()
        self.problems: list[str] = []
        self.slowest = {"stalled": 0.0, "other": 0.0}  # seconds, by kind of case
        self._lock = threading.Lock()

    def run(self, exchanges: list[tuple[int, StoreCase]], threads: int) -> float:
        """Runs every exchange, each on a new client connection; returns the seconds taken."""
        remaining = iter(exchanges)

        def hostile_client() -> None:
            while True:
                with self._lock:
                    exchange = next(remaining, None)
                if exchange is None:
                    return
                number, case = exchange
                response = fetch(self.port, f"/b/{case.name}/{number}",
                                 UPLOAD_BODY if case.upload else None)
                problem = check_response(case, response)
                with self._lock:
                    self.counts[case.name] += 1
                    kind = "stalled" if case.stalls else "other"
                    self.slowest[kind] = max(self.slowest[kind], response.seconds)
                    if problem:
                        self.problems.append(problem)

        return harness.timed_threads(hostile_client, threads)


class GoodClient:
    """Reads every good object through the proxy in turn on one keep-alive connection (a new one
    after any failure) and checks each byte, until stopped."""

    def __init__(self, port: int):
        self.port = port
        self.verified_reads = 0
        self.errors: list[str] = []
        self.stop = threading.Event()
        self._digests = {name: hashlib.sha256(body).hexdigest()
                         for name, body in GOOD_OBJECTS.items()}
        self._thread = threading.Thread(target=self._read_until_stopped)

    def start(self) -> None:
        self._thread.start()

    def finish(self) -> None:
        self.stop.set()
        self._thread.join()

    def _read_until_stopped(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HANG)
        names = list(GOOD_OBJECTS)
        while not self.stop.is_set():
            name = names[self.verified_reads % len(names)]
            try:
                connection.request("GET", f"/b/good/{name}")
                answer = connection.getresponse()
                data = answer.read()
                if answer.status != 200 or hashlib.sha256(data).hexdigest() != self._digests[name]:
                    self.errors.append(f"{name}: status {answer.status}, {len(data)} bytes, "
                                       f"not the object's bytes")
                self.verified_reads += 1
                self.stop.wait(GOOD_CLIENT_PAUSE)
            except (OSError, http.client.HTTPException) as error:
                self.errors.append(f"{name}: {error!r}")
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HANG)
        connection.close()


def trickle_request(port: int, rng: random.Random) -> tuple[float, bytes, str]:
    """Sends SLOWLORIS_HEAD one byte every 100-200 ms until the proxy ends the connection;
    returns the seconds from the first byte to that end, what the proxy sent, and how it ended
    ("eof", "reset", or "timeout" when the whole head went out and nothing came back)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=HANG)
    started = time.monotonic()
    received = b""
    how = "timeout"
    try:
        for byte in SLOWLORIS_HEAD:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break  # closed under us: read what there is below
            readable, _, _ = select.select([sock], [], [], rng.uniform(0.1, 0.2))
            if readable:
                break
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                how = "reset"
                break
            except socket.timeout:
                break
            if not chunk:
                how = "eof"
                break
            received += chunk
    finally:
        sock.close()
    return time.monotonic() - started, received, how


def settled_descriptors(pid: int, target: Optional[int] = None) -> int:
    """The proxy's open descriptors once what the hostile side left is closed (by the proxy's
    deadlines): once they are down to `target`, or with no target once they have not changed
    for a second; at most 15 s."""
    deadline = time.monotonic() + 15
    count = open_descriptors(pid)
    unchanged_since = time.monotonic()
    while time.monotonic() < deadline:
        if target is not None and count <= target:
            break
        if target is None and time.monotonic() - unchanged_since >= 1.0:
            break
        time.sleep(0.1)
        latest = open_descriptors(pid)
        if latest != count:
            count, unchanged_since = latest, time.monotonic()
    return count


# --------------------------------------------------------------------------------------------
# The tests
# --------------------------------------------------------------------------------------------


class HostileStoresTest(unittest.TestCase):
    def start_proxy(self, store: HostileStore) -> harness.ProxyProcess:
        proxy = harness.ProxyProcess(store.url, PROXY_ARGS, name=f"proxy-{self._testMethodName}")
        proxy.start()
        self.addCleanup(harness.stop_and_check, proxy)  # also when an assertion fails
        return proxy

    def start_store(self) -> HostileStore:
        store = HostileStore()
        self.addCleanup(store.close)
        return store

    def test_ten_thousand_hostile_store_exchanges_beside_a_good_client(self):
        store = self.start_store()
        proxy = self.start_proxy(store)
        port = int(proxy.url.rsplit(":", 1)[1])
        good = GoodClient(port)
        traffic = HostileTraffic(port)
        weights = [STALL_WEIGHT if case.stalls else FAST_WEIGHT for case in STORE_CASES]
        plan = list(enumerate(random.Random(13).choices(
            STORE_CASES, weights, k=WARM_UP_EXCHANGES + HOSTILE_EXCHANGES)))

        good.start()
        traffic.run(plan[:WARM_UP_EXCHANGES], HOSTILE_THREADS)  # caches reach their working size
        fds_before = settled_descriptors(proxy.pid)
        rss_before = harness.resident_mib(proxy.pid)
        hostile_seconds = traffic.run(plan[WARM_UP_EXCHANGES:], HOSTILE_THREADS)
        good.finish()

        self.assertTrue(proxy.alive(), proxy.describe_stderr())
        self.assertEqual(traffic.problems[:10], [],
                         f"{len(traffic.problems)} hostile exchanges misbehaved")
        self.assertEqual(good.errors[:5], [], f"{len(good.errors)} good reads failed")
        self.assertGreater(good.verified_reads, 20)
        self.assertEqual(store.errors, [])
        # A request the store was slow to answer is never sent twice; one it dropped before any
        # byte of an answer may be, once, on a fresh connection (the pooled one may have been
        # stale).
        for path, seen in store.requests_seen.items():
            folder = path.split("/")[2]
            if folder != "good":
                allowed = 1 if CASES_BY_NAME[folder].expect == "504" else 2
                self.assertLessEqual(seen, allowed, f"{path} reached the store {seen} times")
        self.assertLessEqual(store.longest_hold, PROXY_DEADLINE + SLACK,
                             "the proxy held a stalled store connection past its deadline")
        fds_after = settled_descriptors(proxy.pid, fds_before)
        pipes_after = pipe_descriptors(proxy.pid)
        rss_after = harness.resident_mib(proxy.pid)
        counts = ", ".join(f"{case.name} {traffic.counts[case.name]}" for case in STORE_CASES)
        print(f"\n{HOSTILE_EXCHANGES} hostile store exchanges after {WARM_UP_EXCHANGES} to warm "
              f"up in {hostile_seconds:.1f} s ({counts}); slowest: stalled "
              f"{traffic.slowest['stalled']:.1f} s, other {traffic.slowest['other']:.1f} s; good "
              f"client: {good.verified_reads} verified reads; descriptors {fds_before} -> "
              f"{fds_after} (and {pipes_after} of pipes, at most {PIPE_DESCRIPTORS_MAX}); "
              f"resident {rss_before:.1f} -> {rss_after:.1f} MiB")
        # The good client's connection (and the proxy's to the store) may be open at either
        # moment: a few descriptors either way. A leak of even one per thousand hostile
        # exchanges would show as ten.
        self.assertLessEqual(fds_after, fds_before + 4)
        self.assertLessEqual(pipes_after, PIPE_DESCRIPTORS_MAX)
        harness.assert_memory_settled(self, rss_before, rss_after, 8.0)

    def test_slowloris_clients_are_cut_off_at_the_header_deadline(self):
        """--header-timeout bounds a whole request head from its first byte: a client trickling
        its head is cut off after 2 s, not kept alive by each byte it sends."""
        store = self.start_store()
        proxy = self.start_proxy(store)
        port = int(proxy.url.rsplit(":", 1)[1])
        good = GoodClient(port)
        good.start()
        fds_before = settled_descriptors(proxy.pid)
        results: list[tuple[float, bytes, str]] = []
        lock = threading.Lock()

        def slowloris(seed: int) -> None:
            result = trickle_request(port, random.Random(seed))
            with lock:
                results.append(result)

        clients = [threading.Thread(target=slowloris, args=(seed,))
                   for seed in range(SLOWLORIS_CLIENTS)]
        for client in clients:
            client.start()
        for client in clients:
            client.join()
        good.finish()

        self.assertTrue(proxy.alive(), proxy.describe_stderr())
        self.assertEqual(len(results), SLOWLORIS_CLIENTS)
        for seconds, received, how in results:
            # No answer (the head never completed), a close, and at the deadline: not before it,
            # and not pushed back by the bytes that kept arriving.
            self.assertEqual((received, how in ("eof", "reset")), (b"", True), (received, how))
            self.assertGreaterEqual(seconds, PROXY_DEADLINE * 0.9)
            self.assertLessEqual(seconds, PROXY_DEADLINE + SLACK)
        self.assertEqual(good.errors[:5], [], f"{len(good.errors)} good reads failed")
        self.assertGreater(good.verified_reads, 6)
        fds_after = settled_descriptors(proxy.pid, fds_before)
        pipes_after = pipe_descriptors(proxy.pid)
        times = sorted(seconds for seconds, _, _ in results)
        print(f"\n{SLOWLORIS_CLIENTS} slowloris clients (one byte every 100-200 ms) cut off after "
              f"{times[0]:.2f}-{times[-1]:.2f} s with no answer; good client: "
              f"{good.verified_reads} verified reads; descriptors {fds_before} -> {fds_after} "
              f"(and {pipes_after} of pipes)")
        self.assertLessEqual(fds_after, fds_before + 4)
        self.assertLessEqual(pipes_after, PIPE_DESCRIPTORS_MAX)


if __name__ == "__main__":
    harness.main()
