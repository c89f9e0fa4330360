"""`s3fault origin` and `s3fault proxy` as child processes: started on 127.0.0.1 port 0, ready
once they print `listening on URL`, stopped by their PID with SIGTERM (exit status returned)."""

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterable, Optional

from s3fault.admin import AdminClient


def binary() -> str:
    """The s3fault binary: $S3FAULT_BIN, else `s3fault` on the PATH."""
    found = os.environ.get("S3FAULT_BIN") or shutil.which("s3fault")
    if not found:
        raise FileNotFoundError("no s3fault binary: set S3FAULT_BIN or put s3fault on the PATH")
    return found


class S3faultProcess:
    """One `s3fault SUBCOMMAND ARGS`; its stdout lines are kept, its stderr goes to `log_path`."""

    def __init__(self, subcommand: str, args: Iterable[str], log_dir: Optional[Path] = None):
        self.args = [binary(), subcommand, "--listen", "127.0.0.1:0", *args]
        self.log_dir = Path(log_dir or tempfile.mkdtemp(prefix=f"s3fault-{subcommand}-"))
        self.log_path = self.log_dir / f"{subcommand}.stderr.log"
        self.stdout_lines: list[str] = []
        self.url: Optional[str] = None
        self.process: Optional[subprocess.Popen] = None

    def start(self, timeout: float = 20) -> "S3faultProcess":
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(self.args, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=open(self.log_path, "wb"),
                                        text=True)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        deadline = time.monotonic() + timeout
        while self.url is None:
            if self.process.poll() is not None or time.monotonic() > deadline:
                code = self.process.poll()
                self.stop()
                raise RuntimeError(f"{' '.join(self.args)} did not start (exit {code}):\n"
                                   f"{self.log_path.read_text()[-3000:]}")
            time.sleep(0.02)
        return self

    def _read_stdout(self):
        for line in self.process.stdout:
            line = line.rstrip("\n")
            self.stdout_lines.append(line)
            if line.startswith("listening on ") and self.url is None:
                self.url = line[len("listening on "):]

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text()

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM to our PID; the exit status (the proxy drains first). SIGKILL after
        `timeout`, reported as -9."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def __enter__(self):
        return self.start()

    def __exit__(self, *_):
        self.stop()


class Origin(S3faultProcess):
    """`s3fault origin`: an in-memory S3 store. `anonymous` (the default here) accepts unsigned
    requests, so that plain HTTP clients can use it; otherwise clients sign with
    `access_key`/`secret_key`."""

    def __init__(self, anonymous: bool = True, access_key: str = "s3fault",
                 secret_key: str = "s3fault-secret", args: Iterable[str] = (), **kwargs):
        keys = ["--anonymous"] if anonymous else ["--access-key", access_key,
                                                  "--secret-key", secret_key]
        super().__init__("origin", [*keys, "--log-level", "warn", *args], **kwargs)
        self.access_key, self.secret_key = access_key, secret_key


class Proxy(S3faultProcess):
    """`s3fault proxy` in front of `upstream`, with its admin API on a free port: `admin` is its
    AdminClient, and add/preset/counters/... are shortcuts to it."""

    def __init__(self, upstream: str, args: Iterable[str] = (), **kwargs):
        super().__init__("proxy", ["--upstream", upstream, "--admin", "127.0.0.1:0", *args],
                         **kwargs)
        self.admin: Optional[AdminClient] = None

    def start(self, timeout: float = 20) -> "Proxy":
        super().start(timeout)
        admin_url = next(line[len("admin on "):] for line in self.stdout_lines
                         if line.startswith("admin on "))
        self.admin = AdminClient(admin_url)
        return self

    def add(self, rules):
        return self.admin.add(rules)

    def replace(self, rules):
        return self.admin.replace(rules)

    def preset(self, *names: str):
        return self.admin.preset(*names)

    def delete(self, name=None):
        return self.admin.delete(name)

    def counters(self, name: str) -> dict:
        return self.admin.counters(name)

    def stats(self) -> dict:
        return self.admin.stats()
