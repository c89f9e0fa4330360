"""Byte-level tools for testing the proxy's relay: a scripted store on a raw socket that records
exactly what reached it, and a raw client. They let a test assert on the exact bytes each side
sees, which no real store or client exposes.

    raw client ──bytes──> s3fault proxy (subprocess, port 0) ──bytes──> ScriptedStore (thread)
"""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable, List, Optional

REPO_ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 10.0  # seconds any single wait in these tests may take


def s3fault_binary() -> str:
    return os.environ.get("S3FAULT_BIN", str(REPO_ROOT / "build" / "s3fault"))


class Connection:
    """A socket with a receive buffer, for reading heads and exact byte counts."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.sock.settimeout(DEADLINE)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        if not chunk:
            return False
        self.buffer += chunk
        return True

    def await_bytes(self) -> None:
        """Waits until at least one byte is buffered (they stay there for the reads below)."""
        while not self.buffer:
            if not self._fill():
                raise EOFError("closed before any byte")

    def read_head(self) -> bytes:
        """Reads through the blank line that ends a head; returns the head with it."""
        while b"\r\n\r\n" not in self.buffer:
            if not self._fill():
                raise EOFError(f"closed before a complete head; got {self.buffer!r}")
        end = self.buffer.index(b"\r\n\r\n") + 4
        head, self.buffer = self.buffer[:end], self.buffer[end:]
        return head

    def read_exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            if not self._fill():
                raise EOFError(f"closed after {len(self.buffer)} of {n} bytes")
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def read_until_close(self) -> bytes:
        """Everything until the peer closes. A reset counts as a close here; see read_outcome."""
        try:
            while self._fill():
                pass
        except ConnectionResetError:
            pass
        data, self.buffer = self.buffer, b""
        return data

    def read_outcome(self) -> tuple[bytes, str]:
        """Reads until the connection ends; returns the bytes and 'eof', 'reset' or 'timeout'."""
        try:
            while self._fill():
                pass
            how = "eof"
        except ConnectionResetError:
            how = "reset"
        except socket.timeout:
            how = "timeout"
        data, self.buffer = self.buffer, b""
        return data, how

    def close(self) -> None:
        self.sock.close()


def wait_until(predicate: Callable[[], bool]) -> bool:
    """Polls `predicate` until it holds or DEADLINE passes (other threads record asynchronously)."""
    deadline = time.time() + DEADLINE
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def answer_every_request(response: bytes) -> Callable[[Connection, "ScriptedStore"], None]:
    """A store handler that sends `response` to each request head until the peer closes."""

    def handler(conn: Connection, store: "ScriptedStore") -> None:
        while True:
            try:
                conn.read_head()
            except (EOFError, OSError):
                return
            conn.send(response)

    return handler


def record_and_answer(response: bytes) -> Callable[[Connection, "ScriptedStore"], None]:
    """A store handler that records each request (head and Content-Length body) exactly as it
    arrived in `store.received`, and answers it with `response`."""

    def handler(conn: Connection, store: "ScriptedStore") -> None:
        while True:
            try:
                head = conn.read_head()
            except (EOFError, OSError):
                return
            store.received.append(head + conn.read_exact(content_length(head)))
            conn.send(response)

    return handler


def content_length(head: bytes) -> int:
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value.strip())
    return 0


def header(head: bytes, name: bytes) -> bytes | None:
    """The value of the first field `name` (case-insensitive) of a head, or None."""
    for line in head.split(b"\r\n")[1:]:
        field, _, value = line.partition(b":")
        if field.strip().lower() == name.lower():
            return value.strip()
    return None


class ScriptedStore:
    """A store that runs `handler(connection, store)` for each accepted connection and records
    every byte it received in `received` (one bytes object per connection)."""

    def __init__(self, handler: Callable[[Connection, "ScriptedStore"], None]):
        self.handler = handler
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        self.received: List[bytes] = []
        self.errors: List[str] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _serve(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._run_one, args=(sock,), daemon=True).start()

    def _run_one(self, sock: socket.socket) -> None:
        conn = Connection(sock)
        try:
            self.handler(conn, self)
        except Exception as error:  # recorded, and asserted empty by the tests
            self.errors.append(repr(error))
        finally:
            sock.close()

    def close(self) -> None:
        # shutdown wakes the thread blocked in accept(); close alone would leave it listening.
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ListeningProcess:
    """An s3fault subprocess that listens on a port: raw connections to it, and its stop."""

    process: subprocess.Popen
    port: int

    def connect(self) -> Connection:
        return Connection(socket.create_connection(("127.0.0.1", self.port), timeout=DEADLINE))

    def stop(self) -> int:
        self.process.terminate()
        try:
            return self.process.wait(timeout=DEADLINE)
        finally:
            if self.process.poll() is None:
                self.process.kill()


class Origin(ListeningProcess):
    """`s3fault origin --anonymous` on a free port (raw requests need no signature)."""

    def __init__(self):
        self.process = subprocess.Popen(
            [s3fault_binary(), "origin", "--listen", "127.0.0.1:0", "--anonymous",
             "--min-part-size", "1", "--threads", "1", "--log-level", "warn"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on http://"):
            self.process.kill()
            raise RuntimeError(f"origin did not start: {line!r}")
        self.url = line.split()[-1]
        self.port = int(self.url.rsplit(":", 1)[1])


class Proxy(ListeningProcess):
    """`s3fault proxy` as a subprocess on a free port."""

    def __init__(self, upstream: str, *extra: str):
        self.process = subprocess.Popen(
            [s3fault_binary(), "proxy", "--listen", "127.0.0.1:0", "--upstream", upstream,
             "--threads", "2", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # With --admin, "admin on URL" comes first.
        self.admin: Optional[str] = None
        line = self.process.stdout.readline()
        if line.startswith("admin on "):
            self.admin = line.split()[-1]
            line = self.process.stdout.readline()
        if not line.startswith("listening on http://"):
            self.process.kill()
            raise RuntimeError(f"proxy did not start: {line!r} {self.process.stderr.read()}")
        self.port = int(line.strip().rsplit(":", 1)[1])
        self.log: List[str] = []
        self._reader = threading.Thread(target=self._read_log, daemon=True)
        self._reader.start()

    def _read_log(self) -> None:
        for line in self.process.stderr:
            self.log.append(line)

    def wait_for_log(self, text: str) -> bool:
        """True once a log line containing `text` has arrived (lines arrive asynchronously)."""
        deadline = time.time() + DEADLINE
        while time.time() < deadline:
            if any(text in line for line in self.log):
                return True
            time.sleep(0.01)
        return False



def fault_args(*faults: str) -> list[str]:
    """`--fault RULE` for each rule."""
    return [arg for fault in faults for arg in ("--fault", fault)]


def start_store_and_proxy(test, handler, *proxy_args: str) -> tuple[ScriptedStore, Proxy]:
    """A ScriptedStore running `handler` and a Proxy in front of it, both ended when `test`
    ends; the proxy must then exit 0."""
    store = ScriptedStore(handler)
    test.addCleanup(store.close)
    proxy = Proxy(store.url, *proxy_args)
    test.addCleanup(lambda: test.assertEqual(proxy.stop(), 0, "proxy exit code"))
    return store, proxy
