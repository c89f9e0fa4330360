"""Byte-exact soak: GiBs of random-size objects through `s3fault proxy` (in front of an anonymous
in-memory `s3fault origin`) at concurrency 32, every byte checked, while the admin API replaces
the rule set 1,000 times.

    S3FAULT_SOAK_GIB   GiB to read and verify in all (half per phase); default 2 (the CI run).
                       The long run: S3FAULT_SOAK_GIB=40 ctest -R integration.soak -V

    32 keep-alive connections --> s3fault proxy --admin --> s3fault origin --anonymous
       24 data readers: whole and ranged GETs of data/*, SHA-256 of exactly the bytes asked for
        4 probe readers: probe/* carries x-soak-a and x-soak-b, set by two rules of each set
        4 fault witnesses: other/* keys, where the rules must fire, exactly as written
    admin client (a process of its own) --PUT /rules x 1,000, paced by the bytes verified-->
                                                     the same proxy's --admin port

Phase 1 has no rules at all. Phase 2 installs rules that would damage any body they wrongly
matched (corrupt, truncate, reset, errors, header edits), all on other/* keys, and then swaps in a
new generation of the rule set 1,000 times during the load. Each generation sets both probe
headers to its own number, so an exchange that saw half of one set and half of another would
show two different numbers. Nothing may fail: zero mismatches, zero dropped or replaced
connections, every status as expected, every admin change answered 200, probe generations never
torn and never older than the last change confirmed before the request, the witnesses' faults
equal to the rules' counters, and the proxy's descriptors and memory back to their level after
phase 1.
"""

from __future__ import annotations

import dataclasses
import hashlib
import http.client
import json
import multiprocessing
import os
import random
import re
import threading
import time
import unittest
import urllib.request
from typing import Callable, Optional

import harness

SOAK_GIB = float(os.environ.get("S3FAULT_SOAK_GIB", "2"))
SEED = 20_240_917
DATA_READERS = 24
PROBE_READERS = 4
FAULT_WITNESSES = 4
ADMIN_CHANGES = 1000
BUCKET = "soak"
KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB
SPLICE_THRESHOLD = 64 * KIB  # the proxy splices bodies of at least this many bytes
CHUNK = MIB
TIMEOUT = 60.0
# The admin client's process is spawned, not forked: the test's process runs 32 threads.
SPAWN = multiprocessing.get_context("spawn")


# --------------------------------------------------------------------------------------------
# Objects
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SoakObject:
    key: str
    data: bytes
    sha256: str
    etag: str  # quoted MD5, as the store answers for a single PUT

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def path(self) -> str:
        return f"/{BUCKET}/{self.key}"


def make_object(key: str, size: int, rng: random.Random) -> SoakObject:
    data = b"".join(rng.randbytes(min(MIB, size - at)) for at in range(0, size, MIB))
    return SoakObject(key, data, hashlib.sha256(data).hexdigest(),
                      f'"{hashlib.md5(data).hexdigest()}"')


def data_sizes(rng: random.Random) -> list[int]:
    """Edges (empty, tiny, around 4 KiB, 64 KiB and 1 MiB), random multiples of 64 KiB +-1, a few
    big ones, and 100 log-uniform sizes from 1 byte to 48 MiB."""
    sizes = [0, 1, 2, 7, 1000, 4095, 4096, 4097]
    for boundary in (SPLICE_THRESHOLD, 2 * SPLICE_THRESHOLD, MIB):
        sizes += [boundary - 1, boundary, boundary + 1]
    for _ in range(12):
        sizes.append(rng.randint(1, 160) * SPLICE_THRESHOLD + rng.choice((-1, 0, 1)))
    sizes += [16 * MIB + 3, 32 * MIB - 5, 48 * MIB]
    sizes += [int(2 ** rng.uniform(0, 25.58)) for _ in range(100)]
    return sizes


# Rules that would damage any body they matched, each on its own prefix of other/. Every
# generation of the rule set carries them unchanged (so they keep their counters).
OTHER_RULES = {
    "corrupt": "corrupt count=1",
    "truncate": "truncate 50% mode=consistent",
    "cut": "truncate 1000 mode=close",
    "reset": "reset-after 1000",
    "error": "error SlowDown",
    "set-etag": 'set-header etag "soak-bogus"',
    "strip-etag": "strip-header etag",
}
CLOSING_FAULTS = {"cut", "reset"}  # these end the connection by design
WITNESS_SIZES = (3000, 300 * KIB)


def rule_set(generation: int) -> list[dict]:
    """Generation `generation` of the rule set: the damaging rules on other/*, and the two probe
    rules, set to this generation's number and placed differently in odd and even generations."""
    tag = f"g{generation}"
    probes = [{"name": f"probe-{side}", "match": {"key": "probe/*"},
               "actions": [{"type": "set-header", "name": f"x-soak-{side}", "value": tag}]}
              for side in ("a", "b")]
    others = [{"name": f"other-{kind}", "match": {"operations": ["GetObject"],
                                                  "key": f"other/{kind}/*"},
               "actions": [spec]}
              for kind, spec in OTHER_RULES.items()]
    if generation % 2:
        return [probes[0], *others, probes[1]]
    return [probes[1], probes[0], *others]


def generation_of(value: Optional[str]) -> int:
    match = re.fullmatch(r"g(\d+)", value or "")
    return int(match.group(1)) if match else -1


# --------------------------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------------------------


class DroppedConnection(Exception):
    """The keep-alive connection was closed, reset or replaced when it should not have been."""


@dataclasses.dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    length: int  # body bytes received
    error: Optional[BaseException] = None  # the body ended by an error (closing faults only)

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name)


class KeepAliveClient:
    """One persistent HTTP/1.1 connection to 127.0.0.1:port. request() raises DroppedConnection
    when the connection fails, is announced closed, or http.client would have opened a new one."""

    def __init__(self, port: int):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        self.connection.connect()
        self.socket = self.connection.sock

    def close(self) -> None:
        self.connection.close()

    def request(self, method: str, path: str, body: bytes = b"",
                headers: Optional[dict[str, str]] = None,
                on_bytes: Callable[[memoryview], None] = lambda chunk: None,
                buffer: Optional[memoryview] = None) -> Answer:
        if self.connection.sock is not self.socket:
            raise DroppedConnection(f"{method} {path}: the connection had been closed")
        try:
            self.connection.request(method, path, body=body or None, headers=headers or {})
            response = self.connection.getresponse()
            length = read_body(response, buffer or memoryview(bytearray(CHUNK)), on_bytes)
        except (OSError, http.client.HTTPException) as error:
            raise DroppedConnection(f"{method} {path}: {error!r}") from error
        if response.length:
            # http.client ends a body cut short by a close quietly; its remaining length tells.
            raise DroppedConnection(f"{method} {path}: the connection closed {response.length} "
                                    f"bytes before the end of the body")
        if response.will_close:
            raise DroppedConnection(f"{method} {path}: answered with Connection: close")
        return Answer(response.status, response.headers, length)


def read_body(response: http.client.HTTPResponse, buffer: memoryview,
              on_bytes: Callable[[memoryview], None]) -> int:
    """Reads the body in chunks into `buffer`, handing each chunk to on_bytes; the byte count."""
    total = 0
    while True:
        count = response.readinto(buffer)
        if not count:
            return total
        on_bytes(buffer[:count])
        total += count


def get_once(port: int, path: str, collect: bytearray) -> Answer:
    """A GET on a connection of its own, for faults that end the connection: the body ends with
    the error instead of raising it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request("GET", path)
        try:
            response = connection.getresponse()
        except ConnectionResetError as error:
            # A reset that overtakes the head: the client learns nothing but the reset.
            return Answer(0, http.client.HTTPMessage(), 0, error)
        buffer = memoryview(bytearray(64 * KIB))
        answer = Answer(response.status, response.headers, 0)
        try:
            answer.length = read_body(response, buffer, collect.extend)
            if response.length:
                answer.error = http.client.IncompleteRead(bytes(collect), response.length)
        except OSError as error:
            answer.length = len(collect)
            answer.error = error
        return answer
    finally:
        connection.close()


def pick_range(rng: random.Random, size: int) -> tuple[str, int, int]:
    """A Range header for an object of `size` > 0 bytes and the first and last byte it covers."""
    kind = rng.random()
    if kind < 0.35:
        first = rng.randrange(size)
        last = rng.randrange(first, size)
        return f"bytes={first}-{last}", first, last
    if kind < 0.5:
        count = rng.randint(1, size)
        return f"bytes=-{count}", size - count, size - 1
    if kind < 0.65:
        first = rng.randrange(size)
        return f"bytes={first}-", first, size - 1
    if kind < 0.75:
        first = rng.randrange(size)
        return f"bytes={first}-{size + 1000}", first, size - 1
    # Bodies just under, at and over the splice threshold, starting anywhere.
    count = min(size, SPLICE_THRESHOLD + rng.choice((-1, 0, 1)))
    first = rng.randint(0, size - count)
    return f"bytes={first}-{first + count - 1}", first, first + count - 1


# --------------------------------------------------------------------------------------------
# Bookkeeping shared by the threads
# --------------------------------------------------------------------------------------------


class Shared:
    """Numbers the reader threads share with the admin client's process (shared memory): the
    bytes verified in the running phase, on which the admin client paces its changes; the
    generation it is installing (`attempted`, set before its PUT is sent) and the last one
    answered 200 (`confirmed`); and a stop flag. A probe that reads `confirmed` before its
    request and `attempted` after the answer must see a generation between the two."""

    def __init__(self):
        self.verified = SPAWN.RawValue("q", 0)
        self.attempted = SPAWN.RawValue("q", 0)
        self.confirmed = SPAWN.RawValue("q", 0)
        self.stopped = SPAWN.RawValue("b", 0)


class Progress:
    """Bytes verified in the running phase, counted by the reader threads."""

    def __init__(self, shared: Shared):
        self.condition = threading.Condition()
        self.shared = shared

    def add(self, count: int) -> None:
        with self.condition:
            self.shared.verified.value += count
            self.condition.notify_all()

    def wait_for(self, count: int, stop: threading.Event) -> None:
        with self.condition:
            self.condition.wait_for(lambda: self.shared.verified.value >= count or
                                    stop.is_set())


@dataclasses.dataclass
class Tally:
    """What one thread did and found; summed after each phase."""

    reads: int = 0
    ranged_reads: int = 0
    bytes: int = 0
    mismatches: list[str] = dataclasses.field(default_factory=list)
    dropped: list[str] = dataclasses.field(default_factory=list)
    unexpected: list[str] = dataclasses.field(default_factory=list)
    torn: list[str] = dataclasses.field(default_factory=list)
    generations: set[int] = dataclasses.field(default_factory=set)
    faults_seen: dict[str, int] = dataclasses.field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        for field in dataclasses.fields(self):
            mine, theirs = getattr(self, field.name), getattr(other, field.name)
            if isinstance(mine, dict):
                for key, value in theirs.items():
                    mine[key] = mine.get(key, 0) + value
            elif isinstance(mine, set):
                mine |= theirs
            else:
                setattr(self, field.name, mine + theirs)


@dataclasses.dataclass
class Phase:
    name: str
    rules: bool  # phase 2: the rules on other/* and probe/* are in force
    target_bytes: int
    shared: Shared = dataclasses.field(default_factory=Shared)
    stop: threading.Event = dataclasses.field(default_factory=threading.Event)

    def __post_init__(self):
        self.progress = Progress(self.shared)


# --------------------------------------------------------------------------------------------
# The admin client
# --------------------------------------------------------------------------------------------


def replace_rules(admin: KeepAliveClient, generation: int, shared: Shared) -> str:
    """PUT /rules with generation `generation`; "" when the answer is 200 and lists exactly that
    set, else what is wrong."""
    wanted = rule_set(generation)
    shared.attempted.value = generation
    body = bytearray()
    answer = admin.request("PUT", "/rules", body=json.dumps({"rules": wanted}).encode(),
                           headers={"Content-Type": "application/json"}, on_bytes=body.extend)
    listed = json.loads(body)["rules"] if answer.status == 200 else []
    values = {r["definition"]["actions"][0].get("value") for r in listed
              if r["name"].startswith("probe-")}
    if ([r["name"] for r in listed] != [r["name"] for r in wanted] or
            values != {f"g{generation}"}):
        return f"PUT /rules generation {generation}: {answer.status} {bytes(body[:300])!r}"
    shared.confirmed.value = generation
    return ""


def run_admin_client(admin_port: int, target_bytes: int, shared: Shared,
                     installed: multiprocessing.Event, results: multiprocessing.Queue) -> None:
    """The admin client, in a process of its own (in the test's process its exchanges would
    wait for the GIL of 32 busy reader threads at every turn), on one keep-alive connection:
    installs generation 1 and sets `installed`, then makes the ADMIN_CHANGES changes to
    generations 2, 3, ..., the k-th once k/(N+1) of the phase's bytes are verified, so they
    spread over the whole load. Puts the list of problems on `results`."""
    problems = []
    admin = KeepAliveClient(admin_port)
    try:
        problem = replace_rules(admin, 1, shared)
        installed.set()
        if problem:
            problems.append(problem)
            return
        for k in range(1, ADMIN_CHANGES + 1):
            due = target_bytes * k // (ADMIN_CHANGES + 1)
            while shared.verified.value < due and not shared.stopped.value:
                time.sleep(0.001)  # shared memory has no condition variable across processes
            if shared.stopped.value:
                problems.append(f"the phase stopped after {k - 1} changes")
                break
            problem = replace_rules(admin, k + 1, shared)
            if problem:
                problems.append(problem)
    except DroppedConnection as error:
        problems.append(str(error))
    finally:
        installed.set()
        admin.close()
        results.put(problems)


def stop_admin_client(process: multiprocessing.Process, shared: Shared) -> None:
    """Ends the admin client's process when the test ends early (it stops on its own after its
    last change): asks it to stop, then SIGTERM by its PID."""
    shared.stopped.value = 1
    process.join(30)
    if process.is_alive():
        process.terminate()
        process.join(10)


# --------------------------------------------------------------------------------------------
# The proxy's resources
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Descriptors:
    """The proxy's open descriptors: sockets (listeners, clients, the store), pipes (its stdout
    and stderr, idle splice pipes) and the rest (event loops, timers)."""

    sockets: int
    pipes: int
    others: int

    @property
    def total(self) -> int:
        return self.sockets + self.pipes + self.others


def proxy_descriptors(pid: int) -> Descriptors:
    targets = harness.descriptor_targets(pid)
    sockets = sum(t.startswith("socket:") for t in targets)
    pipes = sum(t.startswith("pipe:") for t in targets)
    return Descriptors(sockets, pipes, len(targets) - sockets - pipes)


# --------------------------------------------------------------------------------------------
# The test
# --------------------------------------------------------------------------------------------


class SoakTest(unittest.TestCase):
    def test_byte_exact_under_load_with_a_thousand_rule_changes(self):
        origin = harness.ListeningProcess(
            "origin", ["--listen", "127.0.0.1:0", "--anonymous", "--log-level", "warn"],
            name="origin-soak")
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        # Pooled store connections are dropped after 1 s idle, so the descriptors settle.
        self.proxy = harness.ProxyProcess(origin.url, [
            "--admin", "127.0.0.1:0", "--log-level", "warn", "--seed", str(SEED),
            "--upstream-idle-timeout", "1s"], name="proxy-soak")
        self.proxy.start()
        self.addCleanup(self.proxy.stop)  # also when an assertion fails before the end
        self.port = int(self.proxy.url.rsplit(":", 1)[1])
        self.admin_url = next(line.split(" ", 2)[2] for line in self.proxy.stdout_lines
                              if line.startswith("admin on "))
        self.admin_port = int(self.admin_url.rsplit(":", 1)[1])

        self.make_objects()
        started = time.monotonic()
        self.upload_objects()
        upload_seconds = time.monotonic() - started
        fds_start, rss_start = self.settled_proxy_figures()

        half = int(SOAK_GIB * GIB / 2)
        no_rules = Phase("phase 1, no rules", rules=False, target_bytes=half)
        phase_1 = self.run_phase(no_rules)
        self.assertEqual(self.fault_metrics(), {}, "faults injected without rules")
        fds_warm, rss_warm = self.settled_proxy_figures()

        with_rules = Phase("phase 2, rules on other keys", rules=True, target_bytes=half)
        phase_2 = self.run_phase(with_rules, admin=True)
        fds_end, rss_end = self.settled_proxy_figures()

        self.report(upload_seconds, [phase_1, phase_2],
                    (fds_start, fds_warm, fds_end), (rss_start, rss_warm, rss_end))
        for _, tally, _ in (phase_1, phase_2):
            self.assertEqual(tally.mismatches[:10], [], f"{len(tally.mismatches)} mismatches")
            self.assertEqual(tally.dropped[:10], [], f"{len(tally.dropped)} dropped connections")
            self.assertEqual(tally.unexpected[:10], [], f"{len(tally.unexpected)} bad answers")
            self.assertEqual(tally.torn[:10], [], f"{len(tally.torn)} torn or stale rule sets")
        self.assertEqual(self.admin_problems[:10], [])
        self.assertEqual(with_rules.shared.confirmed.value, ADMIN_CHANGES + 1)
        self.assertGreaterEqual(phase_1[1].bytes, half)
        self.assertGreaterEqual(phase_2[1].bytes, half)
        # Phase 1 saw no rule at all; phase 2 many generations (the pacing spreads the changes
        # over the load, so the probes see a good share of them).
        self.assertEqual(phase_1[1].generations, {-1})
        self.assertGreaterEqual(len(phase_2[1].generations), 20, sorted(phase_2[1].generations))
        self.assertNotIn(-1, phase_2[1].generations)
        self.check_fault_counters(phase_2[1].faults_seen)
        # Every socket of the load is closed again, the store connections pooled included (a
        # leak of one per thousand exchanges would be a dozen); splice pipes stay open, at most
        # 8 idle ones per worker (2 descriptors each) beside the proxy's stdout and stderr.
        self.assertLessEqual(fds_end.sockets, fds_warm.sockets, "sockets leaked in phase 2")
        self.assertLessEqual(fds_end.pipes, 2 + 2 * 8 * (os.cpu_count() or 1))
        self.assertEqual(fds_end.others, fds_warm.others)
        harness.assert_memory_settled(self, rss_warm, rss_end, 8.0,
                                      "resident memory grew during phase 2")
        self.assertTrue(self.proxy.alive(), self.proxy.describe_stderr())
        self.assertEqual(self.proxy.stop(), 0, self.proxy.describe_stderr())

    # --- set-up -----------------------------------------------------------------------------

    def make_objects(self) -> None:
        rng = random.Random(SEED)
        self.data_objects = [make_object(f"data/{i:03d}-{size}", size, rng)
                             for i, size in enumerate(data_sizes(rng))]
        self.probe_objects = [make_object("probe/small", 1000, rng),
                              make_object("probe/large", 200 * KIB, rng)]
        self.witness_objects = {kind: [make_object(f"other/{kind}/{size}", size, rng)
                                       for size in WITNESS_SIZES]
                                for kind in OTHER_RULES}
        self.all_objects = [*self.data_objects, *self.probe_objects,
                            *(o for objects in self.witness_objects.values() for o in objects)]

    def upload_objects(self) -> None:
        """Creates the bucket and PUTs every object through the proxy, on 8 connections; the
        ETag each PUT gets back must be the MD5 of what was sent."""
        client = KeepAliveClient(self.port)
        self.assertEqual(client.request("PUT", f"/{BUCKET}").status, 200)
        client.close()
        problems: list[str] = []

        def upload(objects: list[SoakObject]) -> None:
            client = KeepAliveClient(self.port)
            try:
                for obj in objects:
                    answer = client.request("PUT", obj.path, body=obj.data)
                    if (answer.status, answer.header("etag")) != (200, obj.etag):
                        problems.append(f"PUT {obj.key}: {answer.status} {answer.header('etag')}")
            except DroppedConnection as error:
                problems.append(str(error))
            finally:
                client.close()

        uploaders = [threading.Thread(target=upload, args=(self.all_objects[i::8],))
                     for i in range(8)]
        for uploader in uploaders:
            uploader.start()
        for uploader in uploaders:
            uploader.join()
        self.assertEqual(problems, [])

    # --- one phase ----------------------------------------------------------------------------

    def run_phase(self, phase: Phase, admin: bool = False) -> tuple[Phase, Tally, float]:
        """Runs the 32 readers (and the admin client) until the phase's bytes are verified and
        every admin change is made; returns the phase, the summed tally and the seconds."""
        tallies = [Tally() for _ in range(DATA_READERS + PROBE_READERS + FAULT_WITNESSES)]
        roles = ([self.data_reader] * DATA_READERS + [self.probe_reader] * PROBE_READERS +
                 [self.fault_witness] * FAULT_WITNESSES)
        threads = [threading.Thread(target=self.guarded, args=(role, phase, tally, index))
                   for index, (role, tally) in enumerate(zip(roles, tallies))]
        if admin:
            installed, results = SPAWN.Event(), SPAWN.Queue()
            admin_client = SPAWN.Process(target=run_admin_client, args=(
                self.admin_port, phase.target_bytes, phase.shared, installed, results),
                daemon=True)
            admin_client.start()
            self.addCleanup(stop_admin_client, admin_client, phase.shared)
            self.assertTrue(installed.wait(120), "the admin client did not start")
            if phase.shared.confirmed.value != 1:
                self.fail(f"generation 1 was not installed: {results.get(timeout=10)}")
        started = time.monotonic()
        for thread in threads:
            thread.start()
        phase.progress.wait_for(phase.target_bytes, phase.stop)
        if admin:
            self.admin_problems = results.get(timeout=600)
            admin_client.join()
            self.assertEqual(admin_client.exitcode, 0)
        phase.stop.set()
        for thread in threads:
            thread.join()
        seconds = time.monotonic() - started
        total = Tally()
        for tally in tallies:
            total.merge(tally)
        return phase, total, seconds

    def guarded(self, role, phase: Phase, tally: Tally, index: int) -> None:
        """Runs one reader; an exception ends the phase (and the test fails on it)."""
        try:
            role(phase, tally, random.Random(SEED * 100 + index))
        except BaseException as error:  # noqa: BLE001 - every failure is a finding
            tally.unexpected.append(f"{role.__name__} {index} stopped: {error!r}")
            phase.stop.set()
            phase.shared.stopped.value = 1
            phase.progress.add(0)

    def data_reader(self, phase: Phase, tally: Tally, rng: random.Random) -> None:
        """Whole and ranged GETs of random data objects on one keep-alive connection."""
        client = KeepAliveClient(self.port)
        buffer = memoryview(bytearray(CHUNK))
        try:
            while not phase.stop.is_set():
                obj = rng.choice(self.data_objects)
                headers, first, last = {}, 0, obj.size - 1
                ranged = obj.size > 0 and rng.random() < 0.25
                if ranged:
                    headers["Range"], first, last = pick_range(rng, obj.size)
                digest = hashlib.sha256()
                try:
                    answer = client.request("GET", obj.path, headers=headers,
                                            on_bytes=digest.update, buffer=buffer)
                except DroppedConnection as error:
                    tally.dropped.append(str(error))
                    client = KeepAliveClient(self.port)
                    continue
                expected = (hashlib.sha256(memoryview(obj.data)[first:last + 1]).hexdigest()
                            if ranged else obj.sha256)
                wanted_head = ((206, f"bytes {first}-{last}/{obj.size}", None) if ranged
                               else (200, None, obj.etag))
                head = (answer.status, answer.header("content-range"),
                        None if ranged else answer.header("etag"))
                what = f"{phase.name}: GET {obj.key} {headers.get('Range', 'whole')}"
                if head != wanted_head or answer.header("x-soak-a") is not None:
                    tally.unexpected.append(f"{what}: head {head}, expected {wanted_head}")
                elif answer.length != last - first + 1 or digest.hexdigest() != expected:
                    tally.mismatches.append(f"{what}: {answer.length} bytes, sha256 "
                                            f"{digest.hexdigest()}, expected {expected}")
                tally.reads += 1
                tally.ranged_reads += ranged
                tally.bytes += answer.length
                phase.progress.add(answer.length)
        finally:
            client.close()

    def probe_reader(self, phase: Phase, tally: Tally, rng: random.Random) -> None:
        """GETs of probe/* on one keep-alive connection: both probe headers come from the same
        generation, never older than the last change confirmed before the request was sent."""
        client = KeepAliveClient(self.port)
        buffer = memoryview(bytearray(CHUNK))
        last_seen = -1
        try:
            while not phase.stop.is_set():
                obj = rng.choice(self.probe_objects)
                digest = hashlib.sha256()
                confirmed = phase.shared.confirmed.value if phase.rules else -1
                try:
                    answer = client.request("GET", obj.path, on_bytes=digest.update,
                                            buffer=buffer)
                except DroppedConnection as error:
                    tally.dropped.append(str(error))
                    client = KeepAliveClient(self.port)
                    continue
                attempted = phase.shared.attempted.value if phase.rules else -1
                a, b = answer.header("x-soak-a"), answer.header("x-soak-b")
                generation = generation_of(a)
                what = f"{phase.name}: GET {obj.key}"
                if (answer.status, answer.header("etag")) != (200, obj.etag):
                    tally.unexpected.append(f"{what}: {answer.status} {answer.header('etag')}")
                elif answer.length != obj.size or digest.hexdigest() != obj.sha256:
                    tally.mismatches.append(f"{what}: {answer.length} bytes, wrong sha256")
                if a != b or (a is None) == phase.rules:
                    tally.torn.append(f"{what}: x-soak-a {a}, x-soak-b {b}")
                elif not confirmed <= generation <= attempted or generation < last_seen:
                    tally.torn.append(f"{what}: generation {generation}, after {last_seen} on "
                                      f"this connection, {confirmed} confirmed before, "
                                      f"{attempted} attempted after")
                last_seen = max(last_seen, generation)
                tally.generations.add(generation)
                tally.reads += 1
                tally.bytes += answer.length
                phase.progress.add(answer.length)
        finally:
            client.close()

    def fault_witness(self, phase: Phase, tally: Tally, rng: random.Random) -> None:
        """GETs of other/* keys: without rules each is intact; with them each carries exactly
        its rule's fault. Faults that end a connection get a connection of their own."""
        client = KeepAliveClient(self.port)
        try:
            while not phase.stop.is_set():
                kind = rng.choice(list(OTHER_RULES))
                obj = rng.choice(self.witness_objects[kind])
                body = bytearray()
                try:
                    if phase.rules and kind in CLOSING_FAULTS:
                        answer = get_once(self.port, obj.path, body)
                    else:
                        answer = client.request("GET", obj.path, on_bytes=body.extend)
                except DroppedConnection as error:
                    tally.dropped.append(str(error))
                    client = KeepAliveClient(self.port)
                    continue
                what = f"{phase.name}: GET {obj.key}"
                problem = (self.witnessed_fault(kind, obj, answer, bytes(body)) if phase.rules
                           else intact(obj, answer, bytes(body)))
                if problem:
                    tally.unexpected.append(f"{what}: {problem}")
                elif phase.rules:
                    tally.faults_seen[kind] = tally.faults_seen.get(kind, 0) + 1
                tally.reads += 1
                tally.bytes += answer.length
                phase.progress.add(answer.length)
        finally:
            client.close()

    @staticmethod
    def witnessed_fault(kind: str, obj: SoakObject, answer: Answer, body: bytes) -> str:
        """"" when `answer` carries exactly the fault of rule other-KIND, else what is wrong."""
        status, etag = answer.status, answer.header("etag")
        if kind == "corrupt":
            # Exactly one byte differs, with all its bits flipped: the XOR of the two bodies,
            # read as one number, is 0xFF at that byte's position and zero everywhere else.
            difference = (int.from_bytes(body, "little") ^
                          int.from_bytes(obj.data, "little"))
            position = max(difference.bit_length() - 1, 0) // 8
            ok = (status == 200 and len(body) == obj.size and
                  difference == 0xFF << (8 * position))
            return "" if ok else f"{status}, {len(body)} bytes, not one byte flipped"
        if kind == "truncate":
            ok = (status == 200 and len(body) in (obj.size // 2, (obj.size + 1) // 2) and
                  answer.header("content-length") == str(len(body)) and
                  body == obj.data[:len(body)])
            return "" if ok else f"{status}, {len(body)} bytes of {obj.size}"
        if kind == "reset" and status == 0:
            return "" if isinstance(answer.error, ConnectionResetError) else repr(answer.error)
        if kind in CLOSING_FAULTS:
            ok = (status == 200 and answer.error is not None and
                  answer.header("content-length") == str(obj.size) and
                  len(body) <= 1000 and body == obj.data[:len(body)] and
                  (kind == "reset" or len(body) == 1000))
            return "" if ok else f"{status}, {len(body)} bytes, ended by {answer.error!r}"
        if kind == "error":
            ok = status == 503 and b"<Code>SlowDown</Code>" in body
            return "" if ok else f"{status} {body[:200]!r}"
        wanted_etag = {"set-etag": "soak-bogus", "strip-etag": None}[kind]
        ok = status == 200 and etag == wanted_etag and body == obj.data
        return "" if ok else f"{status}, etag {etag}, {len(body)} bytes"

    # --- the admin API ---------------------------------------------------------------------------

    def rules_listing(self) -> dict[str, dict]:
        with urllib.request.urlopen(self.admin_url + "/rules", timeout=TIMEOUT) as response:
            return {r["name"]: r for r in json.load(response)["rules"]}

    def fault_metrics(self) -> dict[str, float]:
        """s3fault_faults_injected_total per rule, from GET /metrics."""
        with urllib.request.urlopen(self.admin_url + "/metrics", timeout=TIMEOUT) as response:
            text = response.read().decode()
        return {m.group(1): float(m.group(2)) for m in re.finditer(
            r'^s3fault_faults_injected_total\{rule="([^"]+)"\} (\S+)$', text, re.MULTILINE)}

    def check_fault_counters(self, seen: dict[str, int]) -> None:
        """Every damaging rule fired, as often as the witnesses saw it: in /rules (counters kept
        across the 1,000 replacements, the definitions being unchanged) and in /metrics."""
        listing = self.rules_listing()
        metrics = self.fault_metrics()
        self.assertEqual(sorted(seen), sorted(OTHER_RULES), f"faults seen: {seen}")
        for kind, count in seen.items():
            name = f"other-{kind}"
            self.assertGreater(count, 0, name)
            self.assertEqual(listing[name]["counters"]["injected"], count, name)
            self.assertEqual(metrics.get(name), count, name)
        self.assertEqual(listing["probe-a"]["definition"]["actions"][0]["value"],
                         f"g{ADMIN_CHANGES + 1}")

    # --- measurements -----------------------------------------------------------------------------

    def settled_proxy_figures(self) -> tuple[Descriptors, float]:
        """The proxy's open descriptors and resident MiB once the load's connections are gone.
        A worker drops its pooled store connections idle longer than --upstream-idle-timeout
        (1 s) when it next looks for one: after 1.5 s, a GET on each of a few new connections
        (handed to the workers in turn) leaves one per worker."""
        time.sleep(1.5)
        for _ in range(4):
            client = KeepAliveClient(self.port)
            self.assertEqual(client.request("GET", self.probe_objects[0].path).status, 200)
            client.close()
        pid = self.proxy.pid
        deadline = time.monotonic() + 10
        count, previous = proxy_descriptors(pid), -1
        while count != previous and time.monotonic() < deadline:
            time.sleep(0.3)  # until the proxy has closed the sessions of those connections
            count, previous = proxy_descriptors(pid), count
        return count, harness.resident_mib(pid)

    def report(self, upload_seconds: float, phases, descriptors, resident) -> None:
        objects = self.all_objects
        sizes = [o.size for o in self.data_objects]
        lines = [f"byte-exact soak: S3FAULT_SOAK_GIB={SOAK_GIB:g}, seed {SEED}, "
                 f"{DATA_READERS + PROBE_READERS + FAULT_WITNESSES} keep-alive connections "
                 f"({DATA_READERS} data, {PROBE_READERS} probe, {FAULT_WITNESSES} witness); "
                 f"{len(objects)} objects, {sum(o.size for o in objects) / MIB:.1f} MiB "
                 f"(data {min(sizes)} B .. {max(sizes) / MIB:.1f} MiB) uploaded in "
                 f"{upload_seconds:.1f} s"]
        for phase, tally, seconds in phases:
            lines.append(
                f"{phase.name}: {tally.bytes / GIB:.2f} GiB verified in {seconds:.1f} s "
                f"({tally.bytes / MIB / seconds:.0f} MiB/s), {tally.reads} reads "
                f"({tally.ranged_reads} ranged), {len(tally.mismatches)} mismatches, "
                f"{len(tally.dropped)} dropped connections, {len(tally.unexpected)} unexpected "
                f"answers, {len(tally.torn)} torn or stale rule sets")
        rules_tally = phases[1][1]
        lines.append(
            f"admin: {ADMIN_CHANGES} rule set replacements during phase 2, "
            f"{phases[1][0].shared.confirmed.value - 1} answered 200 with the new set; probes saw "
            f"{len(rules_tally.generations)} distinct generations; witnessed faults "
            f"{', '.join(f'{k} {v}' for k, v in sorted(rules_tally.faults_seen.items()))}")
        lines.append(f"proxy (after upload -> after phase 1 -> after phase 2): descriptors "
                     f"{' -> '.join(str(d.total) for d in descriptors)} (sockets "
                     f"{' -> '.join(str(d.sockets) for d in descriptors)}, pipes "
                     f"{' -> '.join(str(d.pipes) for d in descriptors)}), resident "
                     f"{' -> '.join(f'{r:.1f}' for r in resident)} MiB")
        print("\n" + "\n".join(lines))


def intact(obj: SoakObject, answer: Answer, body: bytes) -> str:
    """"" when `answer` is the whole object, unchanged, else what is wrong."""
    ok = (answer.status == 200 and answer.header("etag") == obj.etag and
          hashlib.sha256(body).hexdigest() == obj.sha256)
    return "" if ok else f"{answer.status}, etag {answer.header('etag')}, {len(body)} bytes"


if __name__ == "__main__":
    harness.main()
