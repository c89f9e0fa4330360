"""Every `s3fault ...` command line in the code blocks of README.md and docs/*.md, run through the
binary's own command-line parsing and validation (S3FAULT_PARSE_ONLY=1: parse, validate, run
nothing; exit 0, or 2 with the message a user would get):

    ```sh block --> lines (continuations joined, `$ ` prompts and # comments dropped)
                --> the words from `s3fault`/`build/s3fault` to the first shell operator
                --> S3FAULT_PARSE_ONLY=1 s3fault WORDS --> exit 0

A line with an elided part (a word `...`, or a `<secret>` placeholder) says what it leaves
out and is not checked; the count of checked lines must stay above a floor, so
that a change to the extraction cannot quietly check nothing.

    python3 tests/integration/test_doc_command_lines.py
"""

import os
import re
import shlex
import subprocess
import unittest
from pathlib import Path

import harness

REPO = Path(__file__).resolve().parents[2]
# The documents whose command lines a user copies.
DOCUMENTS = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
SUBCOMMANDS = {"proxy", "origin", "audit", "gate", "demo", "read", "write", "bench", "fixture",
               "profile", "journal", "report", "completion", "manpages"}
OPERATORS = {"|", "||", "&", "&&", ";", ">", ">>", "<", "2>", "2>&1", ")", "("}
# Lines that say what they leave out; they show a shape, not a command to copy.
ELIDED = re.compile(r"(^|\s)(\.\.\.|…)(\s|$)|<[a-z][a-z-]*>")
# Command lines that read a file an earlier step writes, by their words, with why. They are
# still parsed; only the check of the file (and, for the proxy, of its rules) is left out.
NEEDS_EARLIER_FILE = {
    "proxy --upstream http://127.0.0.1:9 --faults rules.yaml --check":
        "docs/faults.md shows --check refusing a rules.yaml with mistakes",
    "proxy --upstream http://127.0.0.1:9000 --profile my-store.yaml --resign-access-key AK "
    "--resign-secret-key SK": "docs/profiles.md: the profile the audit line above it writes",
    "report without-knobs.json --against with-knobs.json --html compare.html":
        "docs/timeline.md: the reports of two earlier runs",
}
# Command lines the docs show refused, by their words, with the refusal they show: each must
# still be refused so.
SHOWN_REFUSED = {
    "proxy --upstream http://127.0.0.1:9000 --profile rgw-16.2":
        "s3fault proxy: --profile rgw-16.2: rules rgw-ignores-part-number (strip-query)",
}
CHECKED_AT_LEAST = 60


def code_blocks(text: str):
    """(first line number, lines) of each fenced code block."""
    block, start = None, 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            if block is None:
                block, start = [], number + 1
            else:
                yield start, block
                block = None
        elif block is not None:
            block.append(line)


def command_lines(path: Path):
    """(where, text) of each shell line of PATH's code blocks that runs s3fault."""
    for start, block in code_blocks(path.read_text()):
        joined, first = "", None
        for offset, line in enumerate(block):
            if first is None:
                first = start + offset
            stripped = line.strip()
            if stripped.startswith("$ "):
                stripped = stripped[2:]
            if stripped.endswith("\\"):
                joined += stripped[:-1] + " "
                continue
            joined += stripped
            if re.search(r"(^|[\s/])s3fault\s+[a-z]", joined):
                yield f"{path.relative_to(REPO)}:{first}", joined
            joined, first = "", None


def s3fault_words(line: str):
    """The words of the s3fault command in LINE, or None when LINE does not run one: s3fault
    must be where the shell runs a command (first, after variable assignments, `sudo`, `time`
    or `exec`, or after an operator), so that output that names it is not taken for a command."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:  # an unclosed quote: not a shell line (prose, output)
        return None
    command_position = True
    for i, word in enumerate(words):
        if word in OPERATORS:
            command_position = True
        elif command_position and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word)
                                   or word in ("sudo", "time", "exec")):
            continue
        elif command_position and (word == "s3fault" or word.endswith("/s3fault")) \
                and i + 1 < len(words) and words[i + 1] in SUBCOMMANDS:
            rest = words[i + 1:]
            end = next((j for j, w in enumerate(rest) if w in OPERATORS), len(rest))
            if end > 1 and re.match(r"^[\d.]+$", rest[1]):
                return None  # a row of a results table ("s3fault origin 28310.8 req/s")
            return rest[:end]
        else:
            command_position = False
    return None


def checked_lines():
    for path in DOCUMENTS:
        for where, line in command_lines(path):
            words = s3fault_words(line)
            if words is None or ELIDED.search(line):
                continue
            yield where, line, words


class DocCommandLinesTest(unittest.TestCase):
    def status(self, words, parse_only=True):
        """(exit status, first line of the message) of `s3fault WORDS`, run from the
        repository's root, where the docs' relative paths point."""
        env = {**os.environ, "S3FAULT_PARSE_ONLY": "1" if parse_only else "0"}
        out = subprocess.run([str(harness.proxy_binary()), *words], capture_output=True,
                             text=True, env=env, timeout=30, cwd=REPO)
        message = (out.stderr or out.stdout).strip().splitlines()
        return out.returncode, message[0] if message else ""

    def test_every_command_line_in_the_docs_parses(self):
        refused, checked, rules_checked = [], 0, 0
        for where, line, words in checked_lines():
            checked += 1
            status, message = self.status(words)
            if status == 2 and "File does not exist" in message \
                    and " ".join(words) in NEEDS_EARLIER_FILE:
                continue
            if status == 0 and words[0] == "proxy" and " ".join(words) not in NEEDS_EARLIER_FILE \
                    and not any(w == "--check" or w.startswith("--list-") for w in words):
                # The proxy's own check of its rules (--fault, --faults, --preset, --profile),
                # which listens nowhere.
                status, message = self.status(words + ["--check"], parse_only=False)
                rules_checked += 1
            shown_refused = SHOWN_REFUSED.get(" ".join(words))
            if shown_refused is not None:
                if status != 2 or not message.startswith(shown_refused):
                    refused.append(f"{where}: {line}\n    shown refused, but exit {status}: "
                                   f"{message}")
            elif status != 0:
                refused.append(f"{where}: {line}\n    exit {status}: {message}")
        self.assertEqual(refused, [], f"\n{len(refused)} of {checked} command lines refused:\n"
                         + "\n".join(refused))
        self.assertGreaterEqual(checked, CHECKED_AT_LEAST)
        self.assertGreater(rules_checked, 3)

    def test_parse_only_refuses_a_bad_command_line(self):
        # The check itself: what S3FAULT_PARSE_ONLY=1 refuses and what it lets through.
        self.assertEqual(self.status(["proxy", "--upstream", "127.0.0.1:9000"])[0], 2)
        self.assertEqual(self.status(["proxy", "--no-such-option"])[0], 2)
        self.assertEqual(self.status(["proxy", "--listen", "127.0.0.1:0", "--upstream",
                                      "http://127.0.0.1:9000"])[0], 0)
        # Parse only: an origin that would listen until stopped exits at once.
        self.assertEqual(self.status(["origin", "--listen", "127.0.0.1:0"])[0], 0)

    def test_the_extraction_finds_commands_not_output(self):
        self.assertEqual(s3fault_words("FOO=1 build/s3fault gate --list | head  # c"),
                         ["gate", "--list"])
        self.assertEqual(s3fault_words("$ s3fault proxy --check --faults 'a b.yaml'"[2:]),
                         ["proxy", "--check", "--faults", "a b.yaml"])
        self.assertIsNone(s3fault_words("GET 4KiB c=64 wrk 1 req/s s3fault bench 2 ops/s"))
        self.assertIsNone(s3fault_words("  s3fault origin     28310.8 req/s"))


if __name__ == "__main__":
    unittest.main()
