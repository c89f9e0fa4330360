"""`s3fault journal summary` and `s3fault journal to-har` on a journal written by hand
(docs/journal.md), run as the real binary:

    old.jsonl + new.jsonl --> s3fault journal summary [--json] --> figures checked exactly
                          --> s3fault journal to-har -o FILE  --> har-validator (npm) + fields

Several operations, a 503 SlowDown from a fault, a reset with no status, redacted headers; a bad
line or a missing file exits 2 naming it, prints nothing and leaves no -o file behind.
"""

import json
import shutil
import subprocess
import unittest
from pathlib import Path

import harness

# Two rotated files, oldest first: the HAR must keep this order.
OLD_LINES = [
    {"time": "2026-12-03T14:30:00.123Z", "client": "127.0.0.1:40112", "method": "GET",
     "target": "/photos/cat.jpg?partNumber=2", "operation": "GetObject", "bucket": "photos",
     "key": "cat.jpg", "part": 2, "status": 206, "request_bytes": 0, "response_bytes": 8388608,
     "ttfb_ms": 1.84, "duration_ms": 12.5, "outcome": "ok", "request_id": "1733236200123-000042",
     "request_headers": [["Host", "127.0.0.1:8080"], ["Authorization", "REDACTED"],
                         ["x-amz-date", "20261203T143000Z"]]},
    {"time": "2026-12-03T14:30:01.000Z", "client": "127.0.0.1:40112", "method": "GET",
     "target": "/photos/dog.jpg", "operation": "GetObject", "status": 200, "request_bytes": 0,
     "response_bytes": 100, "ttfb_ms": 2, "duration_ms": 4, "outcome": "ok",
     "request_headers": [["Host", "127.0.0.1:8080"]]},
    {"time": "2026-12-03T14:30:02.000Z", "client": "127.0.0.1:40114", "method": "PUT",
     "target": "/photos/new.bin", "operation": "PutObject", "status": 200, "request_bytes": 1024,
     "response_bytes": 0, "ttfb_ms": 7.5, "duration_ms": 8, "outcome": "ok",
     "request_headers": [["Host", "127.0.0.1:8080"],
                         ["X-Amz-Security-Token", "REDACTED"]]},
]
NEW_LINES = [
    {"time": "2026-12-03T14:30:03.000Z", "client": "127.0.0.1:40116", "method": "GET",
     "target": "/photos/cat.jpg", "operation": "GetObject", "status": 503, "request_bytes": 0,
     "response_bytes": 250, "ttfb_ms": 0.5, "duration_ms": 1, "outcome": "ok",
     "error_code": "SlowDown", "faults": "slow-gets:s3-error", "request_id": "proxy-7",
     "request_headers": [["Host", "127.0.0.1:8080"]]},
    {"time": "2026-12-03T14:30:04.000Z", "client": "127.0.0.1:40118", "method": "PUT",
     "target": "/photos/big.bin", "operation": "PutObject", "status": 0, "request_bytes": 4096,
     "response_bytes": 0, "duration_ms": 30, "outcome": "fault: connection reset",
     "faults": "reset-puts:reset", "request_headers": [["Host", "127.0.0.1:8080"]]},
    {"time": "2026-12-03T14:30:05.000Z", "client": "127.0.0.1:40120", "method": "GET",
     "target": "/photos?list-type=2&prefix=a%2Fb%20c&fetch-owner", "operation": "ListObjectsV2",
     "status": 200, "request_bytes": 0, "response_bytes": 500, "ttfb_ms": 2.5, "duration_ms": 3,
     "outcome": "ok", "request_headers": [["host", "localhost:9000"]]},
    {"time": "2026-12-03T14:30:06.000Z", "client": "127.0.0.1:40122", "method": "HEAD",
     "target": "/photos/none", "operation": "HeadObject", "status": 404, "request_bytes": 0,
     "response_bytes": 0, "ttfb_ms": 0.5, "duration_ms": 0.75, "outcome": "ok",
     "error_code": "NoSuchKey", "request_headers": []},
]

TABLE_HEADER = ["operation", "status", "requests", "errors", "faults", "bytes_in", "bytes_out",
                "p50_ms", "p90_ms", "p99_ms", "ttfb_p50_ms", "ttfb_p99_ms"]
# Nearest-rank percentiles worked out by hand from the lines above.
EXPECTED_ROWS = [
    ["GetObject", "2xx", 2, 0, 0, 0, 8388708, 4, 12.5, 12.5, 1.84, 2],
    ["GetObject", "5xx", 1, 1, 1, 0, 250, 1, 1, 1, 0.5, 0.5],
    ["HeadObject", "4xx", 1, 1, 0, 0, 0, 0.75, 0.75, 0.75, 0.5, 0.5],
    ["ListObjectsV2", "2xx", 1, 0, 0, 0, 500, 3, 3, 3, 2.5, 2.5],
    ["PutObject", "2xx", 1, 0, 0, 1024, 0, 8, 8, 8, 7.5, 7.5],
    ["PutObject", "none", 1, 1, 1, 4096, 0, 30, 30, 30, None, None],
    ["all", "all", 7, 3, 2, 5120, 8389458, 4, 30, 30, 1.84, 7.5],
]

VALIDATE_HAR_JS = """
const validator = require('har-validator');
const har = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
validator.har(har).then(() => console.log('valid HAR'), (error) => {
  console.error(JSON.stringify(error.errors || error.message, null, 1));
  process.exit(1);
});
"""


def table_cell(value) -> str:
    """A figure as the table prints it: shortest form, '-' for none."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else str(value)


def write_lines(path: Path, lines: list) -> str:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


class JournalCommandsTest(unittest.TestCase):
    def setUp(self):
        self.binary = str(harness.proxy_binary())
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("journal")
        self.tmp.mkdir(parents=True)
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.old = write_lines(self.tmp / "s3.1.jsonl", OLD_LINES)
        self.new = write_lines(self.tmp / "s3.jsonl", NEW_LINES)
        # A blank line in the middle is skipped.
        text = Path(self.new).read_text().splitlines(keepends=True)
        Path(self.new).write_text("".join(text[:2] + ["\n"] + text[2:]))

    def journal(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([self.binary, "journal", *args], capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL)

    def validate_har(self, path: Path) -> subprocess.CompletedProcess:
        return subprocess.run(["node", "-e", VALIDATE_HAR_JS, str(path)], cwd=harness.NODE_DIR,
                              capture_output=True, text=True, timeout=60)

    def test_summary_table_has_the_exact_figures(self):
        result = self.journal("summary", self.old, self.new)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0].split(), TABLE_HEADER)
        self.assertEqual([line.split() for line in lines[1:]],
                         [[table_cell(cell) if not isinstance(cell, str) else cell
                           for cell in row] for row in EXPECTED_ROWS])
        # Figures are right-aligned, so every line of the table is as wide as the header.
        self.assertEqual({len(line) for line in lines}, {len(lines[0])}, result.stdout)

    def test_summary_json_has_the_same_figures(self):
        result = self.journal("summary", "--json", self.old, self.new)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout),
                         [dict(zip(TABLE_HEADER, row)) for row in EXPECTED_ROWS])

    def test_an_empty_journal_is_an_all_row_of_zeros(self):
        empty = self.tmp / "empty.jsonl"
        empty.write_text("")
        result = self.journal("summary", str(empty))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual([line.split() for line in result.stdout.splitlines()],
                         [TABLE_HEADER, ["all", "all", "0", "0", "0", "0", "0"] + ["-"] * 5])

    def test_to_har_is_valid_har_with_the_journal_fields(self):
        har_path = self.tmp / "s3.har"
        result = self.journal("to-har", self.old, self.new, "-o", str(har_path))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "")
        validation = self.validate_har(har_path)
        self.assertEqual(validation.returncode, 0, validation.stderr)

        har = json.loads(har_path.read_text())
        version = subprocess.run([self.binary, "--version"], capture_output=True, text=True,
                                 timeout=60).stdout.strip().removeprefix("s3fault ")
        self.assertEqual(har["log"]["version"], "1.2")
        self.assertEqual(har["log"]["creator"], {"name": "s3fault", "version": version})
        entries = har["log"]["entries"]
        self.assertEqual([e["startedDateTime"] for e in entries],
                         [line["time"] for line in OLD_LINES + NEW_LINES])
        for entry, line in zip(entries, OLD_LINES + NEW_LINES):
            timings = entry["timings"]
            self.assertEqual(entry["time"], line["duration_ms"])
            self.assertAlmostEqual(timings["send"] + timings["wait"] + timings["receive"],
                                   entry["time"], places=9)
            self.assertEqual(entry["request"]["bodySize"], line["request_bytes"])
            self.assertEqual(entry["response"]["content"]["size"], line["response_bytes"])

        cat = entries[0]
        self.assertEqual(cat["request"]["url"], "http://127.0.0.1:8080/photos/cat.jpg?partNumber=2")
        self.assertEqual(cat["request"]["headers"][1],
                         {"name": "Authorization", "value": "REDACTED"})
        self.assertEqual(cat["request"]["queryString"], [{"name": "partNumber", "value": "2"}])
        self.assertEqual(cat["response"]["statusText"], "Partial Content")
        self.assertEqual(cat["timings"], {"send": 0, "wait": 1.84, "receive": 10.66})
        self.assertEqual(entries[2]["request"]["headers"][1],
                         {"name": "X-Amz-Security-Token", "value": "REDACTED"})

        slow = entries[3]
        self.assertEqual((slow["response"]["status"], slow["response"]["statusText"]),
                         (503, "Service Unavailable"))
        self.assertEqual(slow["_s3fault"]["error_code"], "SlowDown")
        self.assertEqual(slow["_s3fault"]["faults"], "slow-gets:s3-error")
        self.assertEqual(slow["_s3fault"]["request_id"], "proxy-7")

        reset = entries[4]
        self.assertEqual((reset["response"]["status"], reset["response"]["statusText"]), (0, ""))
        self.assertEqual(reset["timings"], {"send": 0, "wait": 30, "receive": 0})
        self.assertEqual(reset["_s3fault"]["outcome"], "fault: connection reset")

        listing = entries[5]
        self.assertEqual(listing["request"]["url"],
                         "http://localhost:9000/photos?list-type=2&prefix=a%2Fb%20c&fetch-owner")
        self.assertEqual(listing["request"]["queryString"],
                         [{"name": "list-type", "value": "2"}, {"name": "prefix", "value": "a/b c"},
                          {"name": "fetch-owner", "value": ""}])
        self.assertEqual(entries[6]["request"]["url"], "http://localhost/photos/none")

        # Without -o the same document goes to standard output.
        to_stdout = self.journal("to-har", self.old, self.new)
        self.assertEqual(to_stdout.returncode, 0, to_stdout.stderr)
        self.assertEqual(json.loads(to_stdout.stdout), har)

    def test_the_validator_rejects_a_broken_har(self):
        # The check above means something only if har-validator refuses what is not HAR 1.2.
        har_path = self.tmp / "broken.har"
        self.assertEqual(self.journal("to-har", self.old, "-o", str(har_path)).returncode, 0)
        har = json.loads(har_path.read_text())
        del har["log"]["entries"][0]["timings"]
        har_path.write_text(json.dumps(har))
        self.assertNotEqual(self.validate_har(har_path).returncode, 0)

    def test_a_bad_line_exits_2_naming_file_and_line(self):
        bad = self.tmp / "bad.jsonl"
        without_status = dict(OLD_LINES[1])
        del without_status["status"]
        bad.write_text(json.dumps(OLD_LINES[0]) + "\n\n" + json.dumps(without_status) + "\n")
        for args in (["summary"], ["summary", "--json"], ["to-har"]):
            with self.subTest(args=args):
                result = self.journal(*args, self.old, str(bad))
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertEqual(result.stdout, "")
                self.assertEqual(result.stderr, f"{bad}:3: missing field \"status\"\n")

        not_json = self.tmp / "not-json.jsonl"
        not_json.write_text(json.dumps(OLD_LINES[0]) + "\n{\"time\": \n")
        result = self.journal("summary", str(not_json))
        self.assertEqual(result.returncode, 2)
        self.assertTrue(result.stderr.startswith(f"{not_json}:2: not JSON: "), result.stderr)

        har_path = self.tmp / "out" / "s3.har"
        har_path.parent.mkdir()
        result = self.journal("to-har", self.old, str(bad), "-o", str(har_path))
        self.assertEqual(result.returncode, 2)
        self.assertEqual(list(har_path.parent.iterdir()), [], "nothing written, no temp file")
        # An earlier HAR is left as it was.
        har_path.write_text("earlier")
        result = self.journal("to-har", str(bad), "-o", str(har_path))
        self.assertEqual(result.returncode, 2)
        self.assertEqual(har_path.read_text(), "earlier")
        self.assertEqual(list(har_path.parent.iterdir()), [har_path])

    def test_a_missing_file_exits_2(self):
        missing = self.tmp / "absent.jsonl"
        for args in (["summary"], ["to-har", "-o", str(self.tmp / "x.har")]):
            with self.subTest(args=args):
                result = self.journal(*args, self.old, str(missing))
                self.assertEqual(result.returncode, 2)
                self.assertEqual(result.stdout, "")
                self.assertEqual(result.stderr,
                                 f"cannot read {missing}: No such file or directory\n")
        self.assertFalse((self.tmp / "x.har").exists())


if __name__ == "__main__":
    harness.main()
