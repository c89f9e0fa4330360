"""Test harness for s3fault's integration tests: real stores, a real proxy process, real clients.

Data flow of a typical test::

    client (boto3 / aws cli / rclone) --> s3fault proxy (subprocess, port 0) --> store
                                                              (RGW / s3rver / Swift)
                                                                                    ^
    harness checks (sha256, statuses, headers) and cleanup go directly to the store --+

The stores are started by CTest fixtures (tests/stores/start-*.sh), which write an env file; the
test learns which store to use from S3FAULT_STORE_ENV (path of that env file): S3_STORE (rgw,
s3rver, swift), S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION and S3_PIDS. Swift's access
key is tempauth's account:user (`test:tester`), colon included; clients take it as it is.

Tests of the embedded store (OriginTestCase) start their own `s3fault origin` instead, the same
way as the proxy (port 0, `listening on URL`, SIGTERM -> exit 0), and may put a proxy in front:

    client (aws cli / boto3 / rclone / s3cmd / Node SDKs) --> [s3fault proxy] --> s3fault origin

Environment read here:
    S3FAULT_BIN        the s3fault binary (default: <repo>/build/s3fault)
    S3FAULT_STORE_ENV  endpoint.env of the store under test (written by tests/stores/start-*.sh)
    S3FAULT_ORIGIN_STANDIN_ENV  optional: an endpoint.env whose store OriginTestCase uses instead
                       of starting `s3fault origin` (for development; CTest never sets it)
    S3FAULT_TEST_TMP   where test files go (default: the system temp dir)
    S3FAULT_TEST_LOGS  where proxy and origin logs go (default: a temp dir)

Python: the standard library and Debian's boto3 (run with /usr/bin/python3). The Node clients
(tests/node) run with the machine's `node`.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import http.client
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse
import urllib.request
import uuid
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterable, Optional

import boto3
import botocore.auth
import botocore.awsrequest
import botocore.config
import botocore.credentials
import botocore.exceptions

REPO_ROOT = Path(__file__).resolve().parents[2]
STORES_DIR = REPO_ROOT / "tests" / "stores"
AWS_CLI = "/usr/bin/aws"
RCLONE = "/usr/bin/rclone"
MIB = 1024 * 1024
# Set by tests/run-sanitizers.sh: s3fault runs under ASan, whose shadow memory and quarantine
# make resident-memory figures meaningless (descriptors and behaviour are still checked).
SANITIZED = os.environ.get("S3FAULT_SANITIZED") == "1"


def descriptor_targets(pid: int) -> list[str]:
    """What each open descriptor of `pid` points at ("socket:[N]", "pipe:[N]", a path)."""
    targets = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except FileNotFoundError:
            pass  # closed while listed
    return targets


def resident_mib(pid: int) -> float:
    """VmRSS of `pid` in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def timed_threads(target, count: int) -> float:
    """Runs `target` on `count` threads at once; returns the seconds until all have ended."""
    threads = [threading.Thread(target=target) for _ in range(count)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - started


def assert_memory_settled(test: unittest.TestCase, before_mib: float, after_mib: float,
                          limit_mib: float, what: str = "resident memory grew") -> None:
    """Asserts resident memory grew by less than `limit_mib`, except in the sanitizer build."""
    if SANITIZED:
        print(f"(resident memory {before_mib:.1f} -> {after_mib:.1f} MiB not checked: ASan build)")
        return
    test.assertLess(after_mib - before_mib, limit_mib, what)

# The tests talk to 127.0.0.1 only: make sure no proxy from the environment is put in between.
for _var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
    os.environ.pop(_var, None)
os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"

# The TLS tests use self-signed certificates on purpose.
warnings.filterwarnings("ignore", message="Unverified HTTPS request")


def proxy_binary() -> Path:
    """Path of the s3fault binary under test."""
    return Path(os.environ.get("S3FAULT_BIN", REPO_ROOT / "build" / "s3fault"))


def scratch_root() -> Path:
    """Where tests put their temporary files and state directories."""
    root = Path(os.environ.get("S3FAULT_TEST_TMP", tempfile.gettempdir()))
    root.mkdir(parents=True, exist_ok=True)
    return root


# --------------------------------------------------------------------------------------------
# Stores
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Store:
    """One running S3 store, as described by the env file its start script wrote."""

    name: str  # "rgw", "s3rver" or "swift"
    endpoint: str  # http://127.0.0.1:PORT
    access_key: str
    secret_key: str
    region: str
    pids: tuple[int, ...]

    @property
    def port(self) -> int:
        return int(self.endpoint.rsplit(":", 1)[1])


def read_env_file(path: Path) -> dict[str, str]:
    """Parses the KEY=VALUE lines (values possibly double-quoted) written by tests/stores/*.sh."""
    values: dict[str, str] = {}
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, raw = line.split("=", 1)
        parts = shlex.split(raw) if raw else [""]
        values[key] = " ".join(parts)
    return values


def store_from_env_file(path: Path) -> Store:
    values = read_env_file(path)
    return Store(
        name=values["S3_STORE"],
        endpoint=values["S3_ENDPOINT"],
        access_key=values["S3_ACCESS_KEY"],
        secret_key=values["S3_SECRET_KEY"],
        region=values.get("S3_REGION", "us-east-1"),
        pids=tuple(int(p) for p in values.get("S3_PIDS", "").split()),
    )


def store_under_test() -> Store:
    """The store chosen by S3FAULT_STORE_ENV; checks its processes are still alive."""
    env_path = os.environ.get("S3FAULT_STORE_ENV")
    if not env_path:
        raise RuntimeError("S3FAULT_STORE_ENV is not set (path of a store's endpoint.env)")
    if not Path(env_path).is_file():
        raise RuntimeError(f"{env_path} does not exist: did the store fixture start?")
    store = store_from_env_file(Path(env_path))
    dead = [pid for pid in store.pids if not pid_alive(pid)]
    if dead:
        raise RuntimeError(f"store {store.name} processes {dead} are not running")
    return store


def pid_alive(pid: int) -> bool:
    """True while pid runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def port_is_free(port: int) -> bool:
    """True when nothing is bound to 127.0.0.1:port (bind without SO_REUSEADDR succeeds)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def pick_free_port() -> int:
    """A port where nothing listens, in 20000-29999 (below the ephemeral range, so no outgoing
    connection takes it while a test waits before binding it)."""
    for _ in range(500):
        port = random.randint(20000, 29999)
        if port_is_free(port):
            return port
    raise RuntimeError("no free port found")


class PrivateS3rver:
    """An s3rver a test starts and stops itself (tests/stores/start-s3rver.sh), on a given port.

    Stopped by its PID (read from the env file the script writes); stop() asserts it is gone.
    """

    def __init__(self, state_dir: Path, port: int):
        self.state_dir = Path(state_dir)
        self.port = port
        self.store: Optional[Store] = None

    def start(self) -> Store:
        env = dict(os.environ, S3RVER_DIR=str(self.state_dir), S3RVER_PORT=str(self.port))
        result = subprocess.run(
            ["bash", str(STORES_DIR / "start-s3rver.sh")],
            env=env, capture_output=True, text=True, timeout=60,
        )
        if result.returncode != 0:
            raise RuntimeError(f"start-s3rver.sh failed ({result.returncode}):\n"
                               f"{result.stdout}\n{result.stderr}")
        self.store = store_from_env_file(self.state_dir / "endpoint.env")
        return self.store

    def stop(self) -> None:
        if self.store is None:
            return
        for pid in self.store.pids:
            if pid_alive(pid):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while any(pid_alive(p) for p in self.store.pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in self.store.pids:
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while any(pid_alive(p) for p in self.store.pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = [p for p in self.store.pids if pid_alive(p)]
        self.store = None
        if alive:
            raise RuntimeError(f"s3rver {alive} did not exit")


# --------------------------------------------------------------------------------------------
# The proxy process
# --------------------------------------------------------------------------------------------

_LOG_PATHS_USED: set[Path] = set()
LISTENING_RE = re.compile(r"^listening on (https?)://127\.0\.0\.1:(\d+)$")


class ListeningProcess:
    """One `s3fault SUBCOMMAND` subprocess that binds 127.0.0.1 port 0 and reports its address
    with the single line `listening on URL` on stdout (the proxy and the origin both do).

    start() waits (with a timeout) for that line. Two threads keep draining stdout and stderr for
    the whole life of the process so its pipes never fill; stderr goes to a log file and its tail
    is kept for error messages. stop() sends SIGTERM to the PID and returns the exit code (SIGKILL
    after a timeout, reported as a failure).
    """

    def __init__(self, subcommand: str, args: Iterable[str], name: str):
        self.subcommand = subcommand
        self.args = [str(proxy_binary()), subcommand, *args]
        self.name = name
        self.url: Optional[str] = None
        self.process: Optional[subprocess.Popen] = None
        self.stdout_lines: list[str] = []
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=60)
        self.log_path: Optional[Path] = None
        self._listening = _OneShot()
        self._threads: list[threading.Thread] = []

    def start(self, timeout: float = 20.0) -> str:
        binary = proxy_binary()
        if not binary.is_file():
            raise RuntimeError(f"s3fault binary {binary} does not exist (build it, or set "
                               f"S3FAULT_BIN)")
        log_dir = Path(os.environ.get("S3FAULT_TEST_LOGS") or tempfile.mkdtemp(prefix="s3fault-logs-"))
        log_dir.mkdir(parents=True, exist_ok=True)
        # One file per proxy, named after it; a re-run of the test overwrites its old log.
        self.log_path = log_dir / f"{self.name}.stderr.log"
        suffix = 1
        while self.log_path in _LOG_PATHS_USED:
            suffix += 1
            self.log_path = log_dir / f"{self.name}-{suffix}.stderr.log"
        _LOG_PATHS_USED.add(self.log_path)
        self.process = subprocess.Popen(
            self.args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self._threads = [
            threading.Thread(target=self._drain_stdout, daemon=True),
            threading.Thread(target=self._drain_stderr, daemon=True),
        ]
        for t in self._threads:
            t.start()
        url = self._listening.wait(timeout)
        if url is None:
            code = self.process.poll()
            self._kill_now()
            state = f"exited with {code}" if code is not None else f"no line within {timeout} s"
            raise RuntimeError(
                f"{self.subcommand} did not report 'listening on ...' ({state}); command: "
                f"{shlex.join(self.args)}\nstdout: {self.stdout_lines}\n{self.describe_stderr()}")
        self.url = url
        return url

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 15.0) -> int:
        """SIGTERM by PID, wait; returns the exit code. Raises if it had to be SIGKILLed."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self._kill_now()
            raise AssertionError(f"{self.subcommand} pid {self.pid} ignored SIGTERM for "
                                 f"{timeout} s; killed\n"
                                 f"{self.describe_stderr()}")
        for t in self._threads:
            t.join(5)
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe:
                pipe.close()
        return code

    def wait_for_log(self, text: str, after: int = 0, timeout: float = 60.0) -> str:
        """The log once `text` is in it past offset `after`. A running process's lines reach the
        file late: the server batches info lines (up to 100 ms) and a thread here copies them."""
        deadline = time.monotonic() + timeout
        while True:
            log = self.log_path.read_text() if self.log_path and self.log_path.exists() else ""
            if log.find(text, after) >= 0:
                return log
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.subcommand} did not log {text!r} within {timeout} s\n"
                                     f"{log[after:]}")
            time.sleep(0.05)

    def describe_stderr(self) -> str:
        tail = "\n".join(self.stderr_tail)
        return f"{self.subcommand} stderr (full log {self.log_path}), last lines:\n{tail}"

    def _kill_now(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def _drain_stdout(self) -> None:
        assert self.process and self.process.stdout
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self.stdout_lines.append(line)
            match = LISTENING_RE.match(line)
            if match:
                self._listening.set(f"{match.group(1)}://127.0.0.1:{match.group(2)}")
        self._listening.set(None)

    def _drain_stderr(self) -> None:
        assert self.process and self.process.stderr and self.log_path
        with open(self.log_path, "w") as log:
            for raw in self.process.stderr:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                self.stderr_tail.append(line)
                log.write(line + "\n")
                log.flush()


class ProxyProcess(ListeningProcess):
    """One `s3fault proxy` subprocess on 127.0.0.1 port 0, in front of `upstream`."""

    def __init__(self, upstream: str, extra_args: Iterable[str] = (), name: str = "proxy"):
        super().__init__("proxy", ["--listen", "127.0.0.1:0", "--upstream", upstream,
                                   *extra_args], name)


ORIGIN_REGION = "us-east-1"


class OriginProcess(ListeningProcess):
    """One `s3fault origin` subprocess (the embedded S3 store) on 127.0.0.1 port 0.

    Keys are always passed explicitly, so a test knows them without relying on the defaults;
    `data_dir` None keeps the objects in memory. store() describes it like the stores started by
    tests/stores/*.sh, so every client helper below works with it unchanged.
    """

    def __init__(self, data_dir: Optional[Path] = None, access_key: str = "s3fault",
                 secret_key: str = "s3fault-secret", extra_args: Iterable[str] = (),
                 name: str = "origin"):
        args = ["--listen", "127.0.0.1:0", "--access-key", access_key, "--secret-key", secret_key,
                "--region", ORIGIN_REGION]
        if data_dir is not None:
            args += ["--data-dir", str(data_dir)]
        super().__init__("origin", [*args, *extra_args], name)
        self.access_key = access_key
        self.secret_key = secret_key

    def start(self, timeout: float = 20.0) -> str:
        if not binary_has_subcommand("origin"):
            raise RuntimeError(f"{proxy_binary()} has no 'origin' subcommand (yet): "
                               f"`s3fault --help` does not list it")
        return super().start(timeout)

    def store(self) -> Store:
        assert self.url is not None, "start() first"
        return Store(name="origin", endpoint=self.url, access_key=self.access_key,
                     secret_key=self.secret_key, region=ORIGIN_REGION, pids=(self.pid,))


def binary_has_subcommand(subcommand: str) -> bool:
    """True when `s3fault --help` lists `subcommand` (the binary under test may predate it)."""
    result = subprocess.run([str(proxy_binary()), "--help"], capture_output=True, text=True,
                            timeout=30, stdin=subprocess.DEVNULL)
    return re.search(rf"^\s+{re.escape(subcommand)}\s", result.stdout, re.MULTILINE) is not None


def stop_and_check(server: ListeningProcess) -> None:
    """Stops a proxy or origin by PID and fails unless it was still running, exited 0 on SIGTERM
    and wrote nothing on stdout but its `listening on` line."""
    was_alive = server.alive()
    code = server.stop()
    if not was_alive:
        raise AssertionError(f"{server.subcommand} pid {server.pid} had already exited with "
                             f"{code} before the test ended\n{server.describe_stderr()}")
    if code != 0:
        raise AssertionError(f"{server.subcommand} exited with {code} on SIGTERM (expected 0)\n"
                             f"{server.describe_stderr()}")
    if len(server.stdout_lines) != 1:
        raise AssertionError(f"{server.subcommand} stdout should be the single 'listening on' "
                             f"line, was: {server.stdout_lines}")


class _OneShot:
    """A value set once by one thread and waited for by another (later sets are ignored)."""

    def __init__(self):
        self._event = threading.Event()
        self._value = None

    def set(self, value) -> None:
        if not self._event.is_set():
            self._value = value
            self._event.set()

    def wait(self, timeout: float):
        self._event.wait(timeout)
        return self._value



# --------------------------------------------------------------------------------------------
# Files and digests
# --------------------------------------------------------------------------------------------


def make_random_file(path: Path, size: int) -> str:
    """Writes `size` random bytes to path (1 MiB at a time); returns their sha256 hex digest."""
    digest = hashlib.sha256()
    with open(path, "wb") as f:
        remaining = size
        while remaining > 0:
            chunk = os.urandom(min(MIB, remaining))
            digest.update(chunk)
            f.write(chunk)
            remaining -= len(chunk)
    return digest.hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(MIB), b""):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_stream(stream, chunk_size: int = MIB) -> tuple[str, int]:
    """sha256 hex digest and byte count of a file-like or botocore StreamingBody, read in chunks."""
    digest = hashlib.sha256()
    count = 0
    while True:
        chunk = stream.read(chunk_size)
        if not chunk:
            break
        digest.update(chunk)
        count += len(chunk)
    return digest.hexdigest(), count


def multipart_etag(path: Path, part_size: int) -> str:
    """The ETag S3 gives `path` uploaded in parts of `part_size` (the last one shorter), quoted:
    hex(md5(concatenated binary md5 of each part)) + "-" + part count."""
    part_digests = b""
    count = 0
    with open(path, "rb") as f:
        for part in iter(lambda: f.read(part_size), b""):
            part_digests += hashlib.md5(part).digest()
            count += 1
    return f'"{hashlib.md5(part_digests).hexdigest()}-{count}"'


def file_tail(path: Path, count: int) -> bytes:
    """The last `count` bytes of a file (all of it if shorter)."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - count))
        return f.read()


def unique_bucket_name(purpose: str) -> str:
    """A bucket name no other test (or earlier run) uses: s3f-<purpose>-<random>."""
    purpose = re.sub(r"[^a-z0-9-]", "-", purpose.lower())[:30].strip("-")
    return f"s3f-{purpose}-{uuid.uuid4().hex[:12]}"


# --------------------------------------------------------------------------------------------
# Clients
# --------------------------------------------------------------------------------------------


def boto3_client(endpoint: str, store: Store, verify: bool = True, read_timeout: float = 120):
    """An S3 client for `endpoint` with path-style addressing and NO retries, so that every
    error the proxy produces reaches the test."""
    config = botocore.config.Config(
        region_name=store.region,
        signature_version="s3v4",
        s3={"addressing_style": "path"},
        retries={"total_max_attempts": 1, "mode": "standard"},
        connect_timeout=10,
        read_timeout=read_timeout,
        max_pool_connections=16,
    )
    return boto3.session.Session().client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=store.access_key,
        aws_secret_access_key=store.secret_key,
        verify=verify,
        config=config,
    )


def clean_client_env() -> dict[str, str]:
    """os.environ without AWS_* / RCLONE_* settings that could redirect or re-configure clients."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("AWS_", "RCLONE_"))}


def run_command(args: list[str], env: dict[str, str], timeout: float = 300,
                check: bool = True) -> subprocess.CompletedProcess:
    """Runs a client command; on failure (check=True) raises with its full output."""
    try:
        result = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout,
                                stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"timed out after {timeout} s: {shlex.join(args)}\n"
                             f"stdout: {e.stdout}\nstderr: {e.stderr}") from None
    if check and result.returncode != 0:
        raise AssertionError(f"exit {result.returncode}: {shlex.join(args)}\n"
                             f"stdout: {result.stdout}\nstderr: {result.stderr}")
    return result


class AwsCli:
    """Debian's aws cli (/usr/bin/aws) with its own config and credentials files in a temp dir.

    awscli 2.9 ignores AWS_ENDPOINT_URL, so --endpoint-url is passed on every call.
    """

    def __init__(self, endpoint: str, store: Store, config_dir: Path, verify_ssl: bool = True,
                 multipart_mib: int = 8):
        self.endpoint = endpoint
        self.verify_ssl = verify_ssl
        config_dir.mkdir(parents=True, exist_ok=True)
        self.config_file = config_dir / "aws-config"
        self.credentials_file = config_dir / "aws-credentials"
        self.config_file.write_text(
            "[default]\n"
            f"region = {store.region}\n"
            "output = json\n"
            "s3 =\n"
            "  addressing_style = path\n"
            f"  multipart_threshold = {multipart_mib}MB\n"
            f"  multipart_chunksize = {multipart_mib}MB\n"
            "  max_concurrent_requests = 4\n")
        self.credentials_file.write_text(
            "[default]\n"
            f"aws_access_key_id = {store.access_key}\n"
            f"aws_secret_access_key = {store.secret_key}\n")
        self.env = clean_client_env()
        self.env.update(
            AWS_CONFIG_FILE=str(self.config_file),
            AWS_SHARED_CREDENTIALS_FILE=str(self.credentials_file),
            AWS_ACCESS_KEY_ID=store.access_key,
            AWS_SECRET_ACCESS_KEY=store.secret_key,
            AWS_DEFAULT_REGION=store.region,
            AWS_EC2_METADATA_DISABLED="true",
            AWS_PAGER="",
            AWS_MAX_ATTEMPTS="1",
            AWS_RETRY_MODE="standard",
        )
        if "AWS_CA_BUNDLE" in os.environ:
            self.env["AWS_CA_BUNDLE"] = os.environ["AWS_CA_BUNDLE"]

    def run(self, *args: str, timeout: float = 300, check: bool = True):
        cmd = [AWS_CLI, "--endpoint-url", self.endpoint]
        if not self.verify_ssl:
            cmd.append("--no-verify-ssl")
        return run_command(cmd + list(args), self.env, timeout, check)

    def list_objects(self, bucket: str) -> dict[str, int]:
        """key -> size, via s3api list-objects-v2."""
        out = self.run("s3api", "list-objects-v2", "--bucket", bucket, "--output", "json").stdout
        data = json.loads(out) if out.strip() else {}
        return {o["Key"]: int(o["Size"]) for o in data.get("Contents", [])}


class Rclone:
    """rclone with a temp config file naming one s3 remote, `s3t:`.

    rclone 1.60 fails when AWS_CA_BUNDLE is set, so the environment is cleaned of AWS_*.
    """

    REMOTE = "s3t"

    def __init__(self, endpoint: str, store: Store, config_dir: Path, verify_ssl: bool = True):
        config_dir.mkdir(parents=True, exist_ok=True)
        self.verify_ssl = verify_ssl
        self.config_file = config_dir / "rclone.conf"
        provider = "Ceph" if store.name == "rgw" else "Other"
        self.config_file.write_text(
            f"[{self.REMOTE}]\n"
            "type = s3\n"
            f"provider = {provider}\n"
            "env_auth = false\n"
            f"access_key_id = {store.access_key}\n"
            f"secret_access_key = {store.secret_key}\n"
            f"endpoint = {endpoint}\n"
            f"region = {store.region}\n"
            "force_path_style = true\n")
        self.env = clean_client_env()

    def run(self, *args: str, timeout: float = 300, check: bool = True):
        cmd = [RCLONE, "--config", str(self.config_file), "--retries", "1",
               "--low-level-retries", "1", "--contimeout", "10s", "--timeout", "120s"]
        if not self.verify_ssl:
            cmd.append("--no-check-certificate")
        return run_command(cmd + list(args), self.env, timeout, check)

    def path(self, bucket: str, key: str = "") -> str:
        return f"{self.REMOTE}:{bucket}/{key}" if key else f"{self.REMOTE}:{bucket}"

    def list_objects(self, bucket: str) -> dict[str, int]:
        """key -> size, via lsjson -R."""
        out = self.run("lsjson", "-R", "--files-only", self.path(bucket)).stdout
        return {o["Path"]: int(o["Size"]) for o in json.loads(out)}


S3CMD = "/usr/bin/s3cmd"


class S3cmd:
    """Debian's s3cmd with its own config file (path-style: host_bucket has no %(bucket)s).

    s3cmd has no setting to turn its retries off: it retries failed requests after sleeping and
    then may succeed. run() therefore fails on any "Retrying" warning, so a request the store or
    the proxy got wrong once cannot hide behind a retry.
    """

    def __init__(self, endpoint: str, store: Store, config_dir: Path, multipart_mib: int = 8):
        config_dir.mkdir(parents=True, exist_ok=True)
        parsed = urllib.parse.urlsplit(endpoint)
        self.config_file = config_dir / "s3cmd.cfg"
        self.config_file.write_text(
            "[default]\n"
            f"access_key = {store.access_key}\n"
            f"secret_key = {store.secret_key}\n"
            f"host_base = {parsed.netloc}\n"
            f"host_bucket = {parsed.netloc}\n"
            f"use_https = {parsed.scheme == 'https'}\n"
            "signature_v2 = False\n"
            f"bucket_location = {store.region}\n"
            f"multipart_chunk_size_mb = {multipart_mib}\n"
            "socket_timeout = 120\n"
            "proxy_host =\n"
            "proxy_port = 0\n"
            "progress_meter = False\n")
        self.env = clean_client_env()

    def run(self, *args: str, timeout: float = 300, check: bool = True):
        result = run_command([S3CMD, "--config", str(self.config_file), *args], self.env,
                             timeout, check)
        if check and "Retrying" in result.stderr:
            raise AssertionError(f"s3cmd retried a failed request: {shlex.join(args)}\n"
                                 f"stderr: {result.stderr}")
        return result

    def list_objects(self, bucket: str) -> dict[str, int]:
        """key -> size, parsed from `s3cmd ls -r s3://bucket` (lines: DATE TIME SIZE URI)."""
        out = self.run("ls", "-r", f"s3://{bucket}").stdout
        prefix = f"s3://{bucket}/"
        objects: dict[str, int] = {}
        for line in out.splitlines():
            match = re.match(r"^\S+ \S+\s+(\d+)\s+(s3://.*)$", line)
            if not match or not match.group(2).startswith(prefix):
                raise AssertionError(f"unexpected line in s3cmd ls output: {line!r}\n{out}")
            objects[match.group(2)[len(prefix):]] = int(match.group(1))
        return objects


NODE_DIR = REPO_ROOT / "tests" / "node"


class NodeS3Client:
    """One of the Node client scripts of tests/node (client-aws-sdk.mjs, client-minio.mjs), run
    with the machine's `node`. Every script takes the same operations (make-bucket, upload,
    download, list, delete-object, remove-bucket), reads endpoint and keys from S3_* variables and
    prints one JSON object on stdout; run() returns it, or raises with the script's output when
    the operation failed."""

    def __init__(self, script: str, endpoint: str, store: Store, required_package: str):
        self.script = NODE_DIR / script
        self.node = shutil.which("node") or "/usr/bin/node"
        if not (NODE_DIR / "node_modules" / required_package / "package.json").is_file():
            raise RuntimeError(f"{required_package} is not installed in {NODE_DIR}/node_modules "
                               f"(run tests/deps.sh)")
        self.env = clean_client_env()
        self.env.update(S3_ENDPOINT=endpoint, S3_ACCESS_KEY=store.access_key,
                        S3_SECRET_KEY=store.secret_key, S3_REGION=store.region,
                        # Node 20 works; only the SDK's "future versions need Node 22" notice.
                        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED="true")

    def run(self, operation: str, *args: str, timeout: float = 300) -> dict:
        result = run_command([self.node, str(self.script), operation, *args], self.env, timeout,
                             check=False)
        lines = result.stdout.strip().splitlines()
        try:
            output = json.loads(lines[-1]) if lines else None
        except json.JSONDecodeError:
            output = None
        if result.returncode != 0 or not isinstance(output, dict):
            raise AssertionError(f"{self.script.name} {operation} {' '.join(args)} failed "
                                 f"(exit {result.returncode})\nstdout: {result.stdout}\n"
                                 f"stderr: {result.stderr}")
        return output


# --------------------------------------------------------------------------------------------
# Raw signed requests (to see the exact status line and headers, no SDK in between)
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RawResponse:
    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]  # as received: order, spelling, duplicates
    body: bytes

    def header(self, name: str) -> Optional[str]:
        """The value of header `name` (any case); None when absent; raises when repeated."""
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        if len(values) > 1:
            raise AssertionError(f"header {name} appears {len(values)} times: {values}")
        return values[0] if values else None

    def error_code(self) -> Optional[str]:
        """<Code> of an S3 XML error body, None when the body is not one."""
        try:
            root = ET.fromstring(self.body)
        except ET.ParseError:
            return None
        code = root.find("Code") if root.tag == "Error" else None
        return code.text if code is not None else None

    def describe(self) -> str:
        head = "\n".join(f"  {k}: {v}" for k, v in self.headers)
        body = self.body[:600].decode("utf-8", "replace") if self.body else ""
        if len(self.body) > 600 or (self.body and not self.body.lstrip().startswith(b"<")):
            body = f"<{len(self.body)} bytes, sha256 {hashlib.sha256(self.body).hexdigest()}>"
        return f"HTTP {self.status} {self.reason}\n{head}\n{body}"


def signed_raw_request(endpoint: str, store: Store, method: str, path: str, query: str = "",
                       headers: Optional[dict[str, str]] = None, secret_key: Optional[str] = None,
                       timeout: float = 60) -> RawResponse:
    """Signs one body-less request with botocore's SigV4 signer for `endpoint` (the address the
    client talks to: the store, or a proxy in front of it) and sends it with http.client.

    `path` must already be URL-encoded; `query` is the raw query string (e.g. "partNumber=1").
    `secret_key` overrides the store's (to make a signature the store must reject).
    """
    target = path + (f"?{query}" if query else "")
    request = botocore.awsrequest.AWSRequest(method=method, url=endpoint + target,
                                             headers=dict(headers or {}))
    credentials = botocore.credentials.Credentials(store.access_key,
                                                   secret_key or store.secret_key)
    botocore.auth.S3SigV4Auth(credentials, "s3", store.region).add_auth(request)
    parsed = urllib.parse.urlsplit(endpoint)
    connection_type = (http.client.HTTPSConnection if parsed.scheme == "https"
                       else http.client.HTTPConnection)
    connection = connection_type(parsed.hostname, parsed.port, timeout=timeout)
    try:
        # Host comes from http.client (host:port, as signed); no Accept-Encoding is added.
        connection.putrequest(method, target, skip_accept_encoding=True)
        for name, value in request.headers.items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
        return RawResponse(response.status, response.reason, tuple(response.getheaders()), body)
    finally:
        connection.close()


def delete_bucket_fully(client, bucket: str) -> None:
    """Deletes every object, version, delete marker and unfinished multipart upload of bucket,
    then the bucket. A bucket that does not exist is fine (the test may have deleted it already)."""
    try:
        paginator = client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=bucket):
            for obj in page.get("Contents", []):
                client.delete_object(Bucket=bucket, Key=obj["Key"])
        delete_all_versions(client, bucket)
        try:
            uploads = client.list_multipart_uploads(Bucket=bucket).get("Uploads", [])
        except botocore.exceptions.ClientError as e:
            if e.response.get("Error", {}).get("Code") != "NotImplemented":  # s3rver
                raise
            uploads = []
        for upload in uploads:
            client.abort_multipart_upload(Bucket=bucket, Key=upload["Key"],
                                          UploadId=upload["UploadId"])
        client.delete_bucket(Bucket=bucket)
    except botocore.exceptions.ClientError as e:
        if e.response.get("Error", {}).get("Code") not in ("NoSuchBucket", "404"):
            raise


def delete_all_versions(client, bucket: str) -> None:
    """Removes every version and delete marker (stores without ListObjectVersions: nothing)."""
    try:
        pages = list(client.get_paginator("list_object_versions").paginate(Bucket=bucket))
    except botocore.exceptions.ClientError as e:
        if e.response.get("Error", {}).get("Code") in ("NotImplemented", "MethodNotAllowed"):
            return
        raise
    for page in pages:
        for entry in page.get("Versions", []) + page.get("DeleteMarkers", []):
            client.delete_object(Bucket=bucket, Key=entry["Key"], VersionId=entry["VersionId"])


# --------------------------------------------------------------------------------------------
# Base test case
# --------------------------------------------------------------------------------------------


class ProxyTestCase(unittest.TestCase):
    """Base for tests that run traffic through a fresh s3fault proxy in front of the store named
    by S3FAULT_STORE_ENV. Gives: self.store, self.direct (boto3 straight to the store, used for
    checks and cleanup), self.tmp (a per-test temp dir), start_proxy(), new_bucket()."""

    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.store = store_under_test()

    def setUp(self):
        self.direct = boto3_client(self.store.endpoint, self.store)
        tmp = tempfile.TemporaryDirectory(prefix=f"s3f-{self._testMethodName}-", dir=scratch_root())
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)

    def start_proxy(self, extra_args: Iterable[str] = (), upstream: Optional[str] = None,
                    ) -> ProxyProcess:
        """Starts a proxy in front of the store (or `upstream`); a cleanup stops it by PID and
        fails the test unless it exits 0 on SIGTERM."""
        proxy = ProxyProcess(upstream or self.store.endpoint, extra_args,
                             name=f"proxy-{self._testMethodName}")
        proxy.start()
        self.addCleanup(self._stop_proxy_and_check, proxy)
        return proxy

    def _stop_proxy_and_check(self, proxy: ProxyProcess) -> None:
        stop_and_check(proxy)

    def new_bucket(self, purpose: str, create: bool = True) -> str:
        """A unique bucket name, created directly on the store when `create`; always removed
        (directly on the store) when the test ends."""
        name = unique_bucket_name(purpose)
        if create:
            self.direct.create_bucket(Bucket=name)
        self.addCleanup(delete_bucket_fully, self.direct, name)
        return name

    def assertProxyAlive(self, proxy: ProxyProcess) -> None:
        self.assertTrue(proxy.alive(), f"proxy pid {proxy.pid} died (exit {proxy.process.poll()})"
                                       f"\n{proxy.describe_stderr()}")


class OriginTestCase(unittest.TestCase):
    """Base for tests against `s3fault origin`. Each test starts its own origin (port 0, objects
    in the per-test temp dir, fresh random keys) and, when it wants one, its own proxy in front of
    it; cleanups stop both by PID and fail the test unless each exits 0 on SIGTERM.

        client --> [s3fault proxy] --> s3fault origin <-- checks (boto3, direct)

    S3FAULT_ORIGIN_STANDIN_ENV (path of an endpoint.env written by tests/stores/start-*.sh) makes
    start_origin() return that running store instead: for proving the client plumbing while the
    origin is not there, or for comparing a real store. CTest never sets it.
    """

    maxDiff = None

    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix=f"s3f-{self._testMethodName}-", dir=scratch_root())
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)

    def start_origin(self, extra_args: Iterable[str] = ()) -> Store:
        standin = os.environ.get("S3FAULT_ORIGIN_STANDIN_ENV")
        if standin:
            store = store_from_env_file(Path(standin))
            print(f"NOTE: S3FAULT_ORIGIN_STANDIN_ENV: testing {store.name} at {store.endpoint}, "
                  f"not s3fault origin", file=sys.stderr)
            return store
        data_dir = self.tmp / "origin-data"
        data_dir.mkdir()
        origin = OriginProcess(data_dir=data_dir, access_key=f"s3f-test-{uuid.uuid4().hex[:8]}",
                               secret_key=uuid.uuid4().hex, extra_args=extra_args,
                               name=f"origin-{self._testMethodName}")
        origin.start()
        self.addCleanup(stop_and_check, origin)
        return origin.store()

    def start_proxy(self, upstream: Store, extra_args: Iterable[str] = ()) -> ProxyProcess:
        proxy = ProxyProcess(upstream.endpoint, extra_args, name=f"proxy-{self._testMethodName}")
        proxy.start()
        self.addCleanup(stop_and_check, proxy)
        return proxy

    def new_bucket_name(self, purpose: str, store: Store) -> str:
        """A unique bucket name; whatever is left of it is removed directly on `store` at the end
        (cleanups run before the origin's stop)."""
        name = unique_bucket_name(purpose)
        self.addCleanup(delete_bucket_fully, boto3_client(store.endpoint, store), name)
        return name


def main() -> None:
    """Entry point of each test file: verbose unittest, exit status 1 on failure."""
    # Unclosed pooled sockets of boto3 clients and library deprecations are noise here.
    unittest.main(verbosity=2, buffer=False, warnings="ignore")


if __name__ == "__main__":
    sys.exit("harness.py is a library; run the test_*.py files")


def metrics_once_counted(admin: str, **labels) -> str:
    """GET /metrics once the exchange with `labels` is counted. The proxy counts an exchange after
    its last byte is written, so a client can hold the whole answer a moment before it is."""
    deadline = time.monotonic() + 30
    while True:
        with urllib.request.urlopen(admin + "/metrics", timeout=30) as answer:
            text = answer.read().decode()
        if prometheus_value(text, "s3fault_requests_total", **labels) or \
                time.monotonic() > deadline:
            return text
        time.sleep(0.05)


def prometheus_value(text: str, name: str, **labels: str) -> float:
    """The value of one series in Prometheus text (labels in the order written); 0 if absent."""
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    match = re.search(rf"^{re.escape(name)}{{{re.escape(wanted)}}} (\S+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0
