"""The texts made from s3fault's command definitions: the man pages (`s3fault manpages DIR`, run
by the build for the package), the bash completion (`s3fault completion bash`) and the version
(`--version`, and the "version" of every JSON report).

    s3fault SUB --help --Options:/Subcommands:--> names --+
    s3fault manpages DIR --man -l--> rendered page --------+--> every name in its page
    s3fault completion bash --bash + bash-completion--> COMPREPLY for set COMP_WORDS
"""

import json
import os
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

import harness

REPO = Path(__file__).resolve().parents[2]
BASH_COMPLETION = Path("/usr/share/bash-completion/bash_completion")


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=120, **kwargs)


def help_sections(command: list[str]) -> dict[str, list[str]]:
    """The first word of each entry of the --help sections (Options:, Positionals:,
    Subcommands:) of `s3fault COMMAND`."""
    out = run(str(harness.proxy_binary()), *command, "--help")
    assert out.returncode == 0, out.stderr
    sections, current = {}, None
    for line in out.stdout.splitlines():
        if re.match(r"^[A-Z][A-Za-z]*:$", line):
            current = line[:-1]
            sections[current] = []
        elif line[:1].strip():
            current = None  # text at the margin: the footer, after the sections
        elif current and re.match(r"^  \S", line):
            sections[current].append(line.split()[0])
    return sections


def commands() -> list[list[str]]:
    """s3fault and every subcommand its --help lists, depth first."""
    found, todo = [], [[]]
    while todo:
        command = todo.pop(0)
        found.append(command)
        todo += [command + [sub] for sub in help_sections(command).get("Subcommands", [])]
    return found


def option_names(entry: str) -> list[str]:
    """"-h,--help" -> ["-h", "--help"]; a positional's name as it is."""
    return [name for name in entry.split(",") if name]


class ManPagesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = Path(tempfile.mkdtemp(dir=harness.scratch_root()))
        out = run(str(harness.proxy_binary()), "manpages", str(cls.dir))
        assert out.returncode == 0, out.stderr

    def rendered(self, page: Path) -> str:
        # Wide, so that no option name is broken across lines.
        out = run("man", "-l", str(page), env={**os.environ, "MANWIDTH": "250", "LC_ALL": "C.UTF-8"})
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout

    @staticmethod
    def tag_lines(text: str) -> str:
        """The entries' heads of the OPTIONS and SUBCOMMANDS sections (indented 7 columns; what
        each does is indented further), so that a name only mentioned in a description does not
        count."""
        heads, section = [], None
        for line in text.splitlines():
            if re.match(r"^[A-Z][A-Z ]+$", line):
                section = line
            elif section in ("OPTIONS", "SUBCOMMANDS") and re.match(r"^ {7}\S", line):
                heads.append(line)
        return "\n".join(heads)

    def test_every_command_has_a_page_with_every_option_of_its_help(self):
        missing = []
        everything = commands()
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()),
                         sorted("-".join(["s3fault"] + c) + ".1" for c in everything))
        for command in everything:
            page = self.dir / ("-".join(["s3fault"] + command) + ".1")
            if not page.exists():
                missing.append(f"{page.name}: no page")
                continue
            tags = self.tag_lines(self.rendered(page))
            sections = help_sections(command)
            names = [n for section in ("Options", "Positionals")
                     for entry in sections.get(section, []) for n in option_names(entry)]
            names += sections.get("Subcommands", [])
            self.assertTrue(names, command)
            missing += [f"{page.name}: {n}" for n in names if not re.search(
                rf"(?<![\w-]){re.escape(n)}(?![\w-])", tags)]
        self.assertEqual(missing, [])

    def test_a_page_has_the_sections_of_a_man_page_and_groff_has_no_complaint(self):
        page = self.dir / "s3fault-gate.1"
        text = self.rendered(page)
        for heading in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SUBCOMMANDS", "SEE ALSO"):
            self.assertRegex(text, rf"(?m)^{heading}$")
        self.assertRegex(text, r"s3fault-gate - Puts an S3 reader through store misbehaviours")
        self.assertIn("s3fault gate --reader builtin:naive-parts", text)  # an example, as written
        warnings = run("man", "--warnings", "-l", "-Tutf8", "-Z", str(page),
                       env={**os.environ, "MANWIDTH": "80", "LC_ALL": "C.UTF-8"})
        self.assertEqual(warnings.stderr, "")

    def test_the_pages_name_the_docs_and_examples_where_the_package_installs_them(self):
        # `see docs/faults.md` is right in a clone (--help), not for a reader of the man page:
        # the package puts the docs and the examples under /usr/share/doc/s3fault/.
        relative, absent = [], []
        for page in sorted(self.dir.iterdir()):
            text = page.read_text()
            relative += [f"{page.name}: {m.group(0)}" for m in
                         re.finditer(r"(?<![\w./-])(docs|examples)/[\w./-]*", text)]
            for m in re.finditer(r"/usr/share/doc/s3fault/([\w./-]*[\w/])", text):
                # What the package installs there is copied from the checkout, path for path.
                if m.group(1).startswith(("docs/", "examples/")) \
                        and not (REPO / m.group(1)).exists():
                    absent.append(f"{page.name}: {m.group(0)}")
        self.assertEqual(relative, [])
        self.assertEqual(absent, [])


class BashCompletionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        out = run(str(harness.proxy_binary()), "completion", "bash")
        assert out.returncode == 0, out.stderr
        # Where the package puts it, for bash-completion's own loader to find by the command name.
        cls.dir = Path(tempfile.mkdtemp(dir=harness.scratch_root()))
        (cls.dir / "completions").mkdir()
        (cls.dir / "completions" / "s3fault").write_text(out.stdout)

    def complete(self, *words: str) -> list[str]:
        """COMPREPLY for the command line `words` with the cursor on the last word, as bash does
        on TAB: bash-completion loaded, s3fault's completion found by its loader."""
        script = (f"source {BASH_COMPLETION}\n"
                  "__load_completion s3fault || exit 3\n"
                  f"COMP_WORDS=({' '.join(repr(w) for w in words)})\n"
                  f"COMP_CWORD={len(words) - 1}\n"
                  f"COMP_LINE={' '.join(words)!r}\nCOMP_POINT=${{#COMP_LINE}}\n"
                  "_s3fault s3fault\n"
                  "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
        out = run("bash", "--norc", "--noprofile", "-c", script,
                  env={**os.environ, "BASH_COMPLETION_USER_DIR": str(self.dir)})
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(out.stderr, "")
        return [line for line in out.stdout.splitlines() if line]

    def test_a_subcommand_from_its_first_letters(self):
        self.assertEqual(sorted(self.complete("s3fault", "pro")), ["profile", "proxy"])
        self.assertEqual(self.complete("s3fault", "gate", "--jobs", "2", "m"), ["merge"])

    def test_an_option_of_the_subcommand_named(self):
        self.assertEqual(self.complete("s3fault", "proxy", "--pre"), ["--preset"])
        self.assertIn("--shapes", self.complete("s3fault", "gate", "--sh"))
        self.assertNotIn("--shapes", self.complete("s3fault", "proxy", "--sh"))

    def test_values_from_the_registries(self):
        presets = self.complete("s3fault", "proxy", "--preset", "")
        self.assertIn("rustfs-parts-count", presets)
        profiles = run(str(harness.proxy_binary()), "profile", "list").stdout.split("\n")
        self.assertEqual(sorted(self.complete("s3fault", "proxy", "--profile", "")),
                         sorted(line.split()[0] for line in profiles if line.strip()))
        self.assertIn("strip-header", self.complete("s3fault", "proxy", "--fault", ""))
        self.assertEqual(self.complete("s3fault", "proxy", "--log-format", ""), ["text", "json"])
        self.assertIn("builtin:robust-parts", self.complete("s3fault", "gate", "--reader", "b"))

    def test_op_names_from_the_operation_catalogue(self):
        self.assertEqual(self.complete("s3fault", "proxy", "--fault", "op=CompleteMul"),
                         ["op=CompleteMultipartUpload"])
        # As bash splits it by default (COMP_WORDBREAKS holds '='): op, =, the name.
        self.assertEqual(self.complete("s3fault", "proxy", "--fault", "op", "=", "UploadPartC"),
                         ["UploadPartCopy"])


class VersionTest(unittest.TestCase):
    def version(self) -> str:
        out = run(str(harness.proxy_binary()), "--version")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(out.stdout.startswith("s3fault "), out.stdout)
        return out.stdout.strip()[len("s3fault "):]

    def test_the_version_names_the_commit_it_was_built_from(self):
        version = self.version()
        self.assertRegex(version, r"^\d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(, modified)?|unknown)\)$")
        head = run("git", "-C", str(REPO), "rev-parse", "--short=12", "HEAD")
        if head.returncode == 0 and "commit unknown" not in version:
            # A commit made after the build would differ: the binary must name an ancestor.
            commit = re.search(r"commit ([0-9a-f]{12})", version).group(1)
            ancestor = run("git", "-C", str(REPO), "merge-base", "--is-ancestor", commit, "HEAD")
            self.assertEqual(ancestor.returncode, 0, f"{commit} is not in this checkout's history")

    def test_every_json_report_carries_the_same_version(self):
        version = self.version()
        tmp = Path(tempfile.mkdtemp(dir=harness.scratch_root()))
        # A bench and a gate that cannot reach their store still write their reports.
        unreachable = "http://127.0.0.1:9"
        run(str(harness.proxy_binary()), "bench", "--endpoint", unreachable, "--duration", "1s",
            "--json", str(tmp / "bench.json"))
        run(str(harness.proxy_binary()), "audit", "--checks", "part.*", "--json", str(tmp / "audit.json"))
        run(str(harness.proxy_binary()), "gate", "--reader", "builtin:robust-parts", "--shapes", "1KiB",
            "--scenarios", "baseline,strip-content-range", "--json", str(tmp / "gate.json"))
        for name in ("bench", "audit", "gate"):
            report = json.loads((tmp / f"{name}.json").read_text())
            self.assertEqual(report.get("version"), version, name)


if __name__ == "__main__":
    unittest.main()
