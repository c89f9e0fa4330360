"""examples/scale/ and examples/ci/ against the binary under test: every `s3fault` command the
Kubernetes Indexed Job, the GitHub Actions matrix and the CI recipes (GitHub Actions, GitLab CI)
run names a subcommand and options the binary's --help lists (so the examples cannot drift from
the CLI); the shard counts the scale examples spell in several places agree; each CI recipe's gate
job installs the .deb its package job makes and publishes the JUnit report its gate writes; and
examples/scale/mpirun-bench.sh, run with three ranks under OpenMPI's mpirun against an
`s3fault origin`, merges the three parts into one report that holds all their operations.

    YAML file --run:/command:/args:/script: text--> shell lines --shlex--> s3fault commands
                                                                       |
    s3fault [SUB [merge]] --help --Options:/Subcommands:--> known names --+--> problems, by file
"""

import json
import os
import posixpath
import re
import shlex
import shutil
import subprocess
import unittest
from fnmatch import fnmatchcase
from pathlib import Path

import yaml

import harness

REPO = Path(__file__).resolve().parents[2]
SCALE = REPO / "examples" / "scale"
K8S_JOB = SCALE / "k8s-gate-indexed-job.yaml"
GITHUB_MATRIX = SCALE / "github-actions-gate-matrix.yml"
MPIRUN_BENCH = SCALE / "mpirun-bench.sh"
# The CI recipes: a package job builds the .deb, a gate job installs it and gates a reader.
GITHUB_CI = REPO / "examples" / "ci" / "github-actions.yml"
GITLAB_CI = REPO / "examples" / "ci" / "gitlab-ci.yml"
# A file the package target writes (build/s3fault_VERSION_ARCH.deb), to match the recipes'
# globs against.
SAMPLE_DEB = "build/s3fault_0.1.0_amd64.deb"

# Keys whose text is a command line or a shell script (GitHub Actions `run:`, Kubernetes
# `command:` and `args:`).
COMMAND_KEYS = ("run", "command", "args")
# GitLab CI's keys: a list of shell lines (or one), each a script of its own.
SCRIPT_KEYS = ("script", "before_script", "after_script")
# What a placeholder of the launcher becomes before the text is split like a shell would:
# ${{ matrix.shard }} (GitHub), $(...) and $((...)) (shell, and Kubernetes' own $(VAR)).
PLACEHOLDER = "X"
SHELL_OPERATOR = re.compile(r"^[();<>|&]+$")


class UniqueKeyLoader(yaml.SafeLoader):
    """A YAML loader that refuses a key given twice in one mapping (PyYAML keeps the last one
    silently, so a duplicated `volumeMounts:` or `run:` would hide the first)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def load_documents(path: Path) -> list:
    with open(path) as f:
        return [doc for doc in yaml.load_all(f, Loader=UniqueKeyLoader) if doc is not None]


def command_texts(node) -> list[str]:
    """Every command line or script under a run:/command:/args: key anywhere in `node`. A list
    that starts a program itself (["s3fault", "gate", ...]) is one command line; any other list
    (["/bin/sh", "-c"], [script]) is texts of their own."""
    texts = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in SCRIPT_KEYS:
                texts += script_lines(value)
            elif key in COMMAND_KEYS and isinstance(value, str):
                texts.append(value)
            elif key in COMMAND_KEYS and isinstance(value, list):
                words = [str(w) for w in value]
                if any(is_s3fault(w) for w in words):
                    texts.append(shlex.join(words))
                else:
                    texts += words
            else:
                texts += command_texts(value)
    elif isinstance(node, list):
        for item in node:
            texts += command_texts(item)
    return texts


def script_lines(value) -> list[str]:
    """A GitLab script: a string, or a list of them (nested lists, as YAML anchors make them,
    flattened)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [line for item in value for line in script_lines(item)]
    return []


def is_s3fault(word: str) -> bool:
    return word == "s3fault" or word.endswith("/s3fault")


def shell_lines(text: str) -> list[str]:
    """The lines of a script as a shell would run them: continuations joined, placeholders of
    the launcher made plain words, comment lines left out."""
    text = re.sub(r"\$\{\{.*?\}\}", PLACEHOLDER, text)
    text = re.sub(r"\$\(\(.*?\)\)", PLACEHOLDER, text)
    text = re.sub(r"\$\([^()]*\)", PLACEHOLDER, text)
    text = re.sub(r"\\\n", " ", text)
    return [line for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def simple_commands(text: str) -> list[list[str]]:
    """The words of every simple command of a script (split at ;, &&, ||, |, redirections)."""
    commands = []
    for line in shell_lines(text):
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = []
        for word in lexer:
            if SHELL_OPERATOR.match(word):
                if words:
                    commands.append(words)
                words = []
            else:
                words.append(word)
        if words:
            commands.append(words)
    return commands


def program_args(node, program: str) -> list[list[str]]:
    """The arguments of every run of `program` in the scripts under `node`."""
    return [words[1:] for text in command_texts(node) for words in simple_commands(text)
            if words and words[0] == program]


def installed_debs(node) -> list[str]:
    """The .deb files `apt-get install` is given under `node`."""
    return [arg for args in program_args(node, "apt-get") if "install" in args
            for arg in args if arg.endswith(".deb")]


def s3fault_commands(text: str) -> list[list[str]]:
    """Every s3fault invocation in a script: the words after the binary, up to the end of its
    simple command (;, &&, ||, |, a redirection)."""
    commands = []
    for line in shell_lines(text):
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
        for i, word in enumerate(words):
            if not is_s3fault(word):
                continue
            args = []
            for arg in words[i + 1:]:
                if SHELL_OPERATOR.match(arg):
                    break
                args.append(arg)
            commands.append(args)
    return commands


class CliHelp:
    """The subcommands and options the binary under test lists in `s3fault [SUB...] --help`."""

    def __init__(self):
        self._texts: dict[tuple[str, ...], str] = {}

    def text(self, path: tuple[str, ...]) -> str:
        if path not in self._texts:
            result = subprocess.run([str(harness.proxy_binary()), *path, "--help"],
                                    capture_output=True, text=True, timeout=30,
                                    stdin=subprocess.DEVNULL)
            if result.returncode != 0:
                raise AssertionError(f"s3fault {' '.join(path)} --help exited "
                                     f"{result.returncode}:\n{result.stderr}")
            self._texts[path] = result.stdout
        return self._texts[path]

    def _entries(self, path: tuple[str, ...], section: str) -> list[str]:
        """First word of each entry of a section ("Options:", "Subcommands:"): the lines
        indented by exactly two spaces, up to the next line that is not indented."""
        entries, inside = [], False
        for line in self.text(path).splitlines():
            if line == section:
                inside = True
            elif inside and line and not line.startswith(" "):
                inside = False
            elif inside and re.match(r"^  \S", line):
                entries.append(line.split()[0])
        return entries

    def subcommands(self, path: tuple[str, ...]) -> set[str]:
        return set(self._entries(path, "Subcommands:"))

    def options(self, path: tuple[str, ...]) -> set[str]:
        """`--verify,--no-verify{false}` -> {--verify, --no-verify}."""
        names = set()
        for entry in self._entries(path, "Options:"):
            for name in re.sub(r"\{[^}]*\}", "", entry).split(","):
                if name.startswith("-"):
                    names.add(name)
        return names

    def problems(self, words: list[str]) -> tuple[tuple[str, ...], list[str]]:
        """The subcommand path of `s3fault WORDS...` and what in it the CLI does not know."""
        if words and words[0].startswith("--"):  # s3fault --version
            known = self.options(())
            return (), [f"{w.split('=', 1)[0]} is not an option of `s3fault` (s3fault --help)"
                        for w in words if w.startswith("--") and w.split("=", 1)[0] not in known]
        if not words or words[0] not in self.subcommands(()):
            return (), [f"`{words[0] if words else ''}` is not a subcommand of s3fault "
                        f"(s3fault --help)"]
        path = (words[0],)
        if len(words) > 1 and words[1] in self.subcommands(path):
            path += (words[1],)
        known = self.options(path)
        unknown = [w.split("=", 1)[0] for w in words[len(path):]
                   if w.startswith("--") and w.split("=", 1)[0] not in known]
        where = f"s3fault {' '.join(path)} --help"
        return path, [f"{option} is not an option of `s3fault {' '.join(path)}` ({where})"
                      for option in unknown]


def cli_problems(help: CliHelp, name: str, texts: list[str]) -> tuple[int, list[str]]:
    """How many s3fault commands `texts` run, and every subcommand or option among them the
    binary does not know, named with the file and the command."""
    count, problems = 0, []
    for text in texts:
        for words in s3fault_commands(text):
            count += 1
            _, found = help.problems(words)
            problems += [f"{name}: `s3fault {shlex.join(words)}`: {p}" for p in found]
    return count, problems


def option_value(words: list[str], option: str):
    """The value after `option` in a command's words (or after `option=`), None when absent."""
    for i, word in enumerate(words):
        if word == option and i + 1 < len(words):
            return words[i + 1]
        if word.startswith(option + "="):
            return word.split("=", 1)[1]
    return None


def merged_parts(words: list[str]) -> list[str]:
    """The positional arguments of `gate merge ...` (the parts), without the options' values."""
    parts, skip = [], False
    for word in words[2:]:
        if skip:
            skip = False
        elif word.startswith("--"):
            skip = "=" not in word and word != "--help"
        else:
            parts.append(Path(word).name)
    return parts


def commands_of(node, subcommand: tuple[str, ...]) -> list[list[str]]:
    """The s3fault commands under `node` whose subcommand path is `subcommand`."""
    found = []
    for text in command_texts(node):
        for words in s3fault_commands(text):
            path_length = len(subcommand)
            is_deeper = len(words) > path_length and words[path_length] == "merge"
            if tuple(words[:path_length]) == subcommand and not is_deeper:
                found.append(words)
    return found


class ScaleExampleCommandsTest(unittest.TestCase):
    """The YAML examples read as their launchers would, checked against the current binary."""

    @classmethod
    def setUpClass(cls):
        cls.help = CliHelp()

    def test_every_s3fault_command_is_one_the_cli_knows(self):
        total, problems = 0, []
        for path in (K8S_JOB, GITHUB_MATRIX, GITHUB_CI, GITLAB_CI):
            count, found = cli_problems(self.help, path.name, command_texts(load_documents(path)))
            self.assertGreater(count, 0, f"{path.name}: no s3fault command found")
            total += count
            problems += found
        self.assertFalse(problems, "\n" + "\n".join(problems))
        # The gate and merge of each scale example and the matrix's origin; each CI recipe's
        # --version and gate (guards the extraction).
        self.assertGreaterEqual(total, 9)

    def test_a_misspelt_option_or_subcommand_is_caught(self):
        script = ("status=0\n"
                  "build/s3fault gate --reader 'x --not-checked' --upstream \"$S\" \\\n"
                  "  --shard ${{ matrix.shard }}/3 --jsn gate-${{ matrix.shard }}.json \\\n"
                  "  || status=$?\n"
                  "# s3fault gate --commented-out\n"
                  "s3fault gate merge a.json --junit=all.xml --html all.html\n"
                  "s3fault gaet --reader x\n"
                  "k=$((JOB_COMPLETION_INDEX + 1)) && exec s3fault bench --shard auto \\\n"
                  "  --shards $(n)\n")
        # A GitLab job: its script lines (a plain scalar folded over two lines among them).
        gitlab_job = yaml.safe_load("before_script:\n"
                                    "  - s3fault --verison\n"
                                    "script:\n"
                                    "  - status=0\n"
                                    "  - s3fault gate --reader x\n"
                                    "    --junt g.xml || status=$?\n"
                                    "after_script: s3fault --version\n")
        count, problems = cli_problems(self.help, "example.yml",
                                       [script, *command_texts(gitlab_job)])
        self.assertEqual(count, 7)
        self.assertEqual(len(problems), 5, "\n".join(problems))
        self.assertIn("--jsn is not an option of `s3fault gate`", problems[0])
        self.assertIn("--html is not an option of `s3fault gate merge`", problems[1])
        self.assertIn("`gaet` is not a subcommand of s3fault", problems[2])
        self.assertIn("--verison is not an option of `s3fault`", problems[3])
        self.assertIn("--junt is not an option of `s3fault gate`", problems[4])

    def test_the_indexed_job_and_its_merge_agree_on_the_shards(self):
        docs = load_documents(K8S_JOB)
        jobs = [d for d in docs if d.get("kind") == "Job"]
        gate_jobs = [j for j in jobs if commands_of(j, ("gate",))]
        merge_jobs = [j for j in jobs if commands_of(j, ("gate", "merge"))]
        self.assertEqual((len(gate_jobs), len(merge_jobs)), (1, 1), "one gate Job, one merge Job")
        gate_job, merge_job = gate_jobs[0], merge_jobs[0]
        [gate] = commands_of(gate_job, ("gate",))
        self.assertEqual(option_value(gate, "--shard"), "auto")
        self.assertIsNotNone(option_value(gate, "--shards"), "an Indexed Job gives no count")
        shards = int(option_value(gate, "--shards"))
        spec = gate_job["spec"]
        self.assertEqual(spec["completionMode"], "Indexed")
        self.assertEqual(spec["completions"], shards, "completions == --shards")
        self.assertEqual(spec["parallelism"], shards, "every shard at once")
        self.assertIsNotNone(option_value(gate, "--upstream"))

        part = Path(option_value(gate, "--json")).name
        self.assertIn("{shard}", part)
        [merge] = commands_of(merge_job, ("gate", "merge"))
        self.assertEqual(merged_parts(merge),
                         [part.replace("{shard}", str(k)) for k in range(1, shards + 1)],
                         "the merge names every part, in shard order")
        merge_env = {e["name"]: e.get("value")
                     for e in merge_job["spec"]["template"]["spec"]["containers"][0]["env"]}
        gate_env = {e["name"]: e.get("value")
                    for e in gate_job["spec"]["template"]["spec"]["containers"][0]["env"]}
        self.assertEqual(merge_env["SHARDS"], str(shards), "the merge waits for every shard")
        self.assertEqual(merge_env["RUN"], gate_env["RUN"], "both Jobs use one report directory")

        claims = {v["persistentVolumeClaim"]["claimName"]
                  for j in (gate_job, merge_job) for v in j["spec"]["template"]["spec"]["volumes"]}
        [pvc] = [d for d in docs if d.get("kind") == "PersistentVolumeClaim"]
        self.assertEqual(claims, {pvc["metadata"]["name"]}, "one shared volume")
        self.assertIn("ReadWriteMany", pvc["spec"]["accessModes"], "pods on several nodes")

    def test_the_matrix_and_its_merge_job_agree_on_the_shards(self):
        [workflow] = load_documents(GITHUB_MATRIX)
        gate_job, merge_job = workflow["jobs"]["gate"], workflow["jobs"]["merge"]
        shards = gate_job["strategy"]["matrix"]["shard"]
        self.assertEqual(shards, list(range(1, len(shards) + 1)), "matrix shards 1..N")
        self.assertFalse(gate_job["strategy"].get("fail-fast", True),
                         "every shard runs to its end")

        gate_runs = [s["run"] for s in gate_job["steps"] if commands_of(s, ("gate",))]
        self.assertEqual(len(gate_runs), 1, "one gate step")
        spelled = re.findall(r"--shard \$\{\{ matrix\.shard \}\}/(\d+)", gate_runs[0])
        self.assertEqual(spelled, [str(len(shards))],
                         "--shard ${{ matrix.shard }}/N, N the matrix's")
        [gate] = commands_of(gate_job, ("gate",))
        self.assertIsNotNone(option_value(gate, "--upstream"))
        json_part = re.search(r"--json ((?:\$\{\{[^}]*\}\}|\S)+)", gate_runs[0]).group(1)
        self.assertIn("${{ matrix.shard }}", json_part)

        uploads = [s for s in gate_job["steps"]
                   if s.get("uses", "").startswith("actions/upload-artifact")]
        self.assertEqual(len(uploads), 1)
        self.assertEqual(uploads[0].get("if"), "always()", "the part is uploaded whatever happened")
        self.assertIn(json_part, uploads[0]["with"]["path"])

        needs = merge_job["needs"]
        self.assertIn("gate", [needs] if isinstance(needs, str) else needs)
        self.assertEqual(merge_job.get("if"), "always()", "the merge runs after failed shards too")
        self.assertTrue(any(s.get("uses", "").startswith("actions/download-artifact")
                            for s in merge_job["steps"]))
        [merge] = commands_of(merge_job, ("gate", "merge"))
        self.assertEqual(merged_parts(merge),
                         [json_part.replace("${{ matrix.shard }}", str(k)) for k in shards],
                         "the merge names every part, in shard order")
        self.assertIsNotNone(option_value(merge, "--json"))
        self.assertIsNotNone(option_value(merge, "--junit"))
        # The job fails on the merge's status (after the reports are uploaded).
        [merge_step] = [s for s in merge_job["steps"] if commands_of(s, ("gate", "merge"))]
        last = merge_job["steps"][-1]
        self.assertIn(f"steps.{merge_step['id']}.outputs.status", last["run"])
        self.assertIn("exit 1", last["run"])


    def test_github_expressions_name_steps_and_jobs_that_exist(self):
        for path in (GITHUB_MATRIX, GITHUB_CI):
            [workflow] = load_documents(path)
            problems = expression_problems(workflow)
            self.assertFalse(problems, f"{path.name}:\n" + "\n".join(problems))
        broken = {"jobs": {"a": {"steps": [
            {"run": "echo ${{ steps.later.outputs.status }}"}, {"id": "later", "run": "true"},
            {"run": "echo ${{ needs.b.result }} ${{ matrix.shard }"}]}}}
        self.assertEqual(len(expression_problems(broken)), 3, expression_problems(broken))

    def test_the_github_recipe_gates_the_package_its_package_job_makes(self):
        [workflow] = load_documents(GITHUB_CI)
        package_job, gate_job = workflow["jobs"]["package"], workflow["jobs"]["gate"]
        for job in (package_job, gate_job):
            self.assertEqual(job.get("container"), "debian:12")

        # The package job: builds the package and uploads the .deb.
        self.assertIn(["--build", "build", "--target", "package"],
                      program_args(package_job, "cmake"))
        [upload] = steps_using(package_job, "actions/upload-artifact")
        uploaded = upload["with"]["path"].split()
        self.assertTrue(any(fnmatchcase(SAMPLE_DEB, glob) for glob in uploaded),
                        f"the package job uploads {uploaded}, not {SAMPLE_DEB}")

        # The gate job: downloads that artifact and installs the .deb in it with apt-get.
        needs = gate_job.get("needs", [])
        self.assertIn("package", [needs] if isinstance(needs, str) else needs)
        [download] = steps_using(gate_job, "actions/download-artifact")
        self.assertEqual(download["with"]["name"], upload["with"]["name"],
                         "the gate job downloads the package job's artifact")
        # upload-artifact stores a lone file under its own name; download-artifact puts it in
        # `path` (default: the workspace).
        landed = posixpath.normpath(posixpath.join(download["with"].get("path", "."),
                                                   posixpath.basename(SAMPLE_DEB)))
        self.assert_installs_local_deb(gate_job, landed)

        # In this order: checkout (it empties the workspace), download, install, gate, reports,
        # then the step that fails the job.
        steps = gate_job["steps"]
        [install] = [s for s in steps if installed_debs(s)]
        [gate_step] = [s for s in steps if commands_of(s, ("gate",))]
        [reports] = steps_using(gate_job, "actions/upload-artifact")
        order = [steps.index(s) for s in
                 (*steps_using(gate_job, "actions/checkout"), download, install, gate_step,
                  reports)]
        self.assertEqual(order, sorted(order), "checkout, download, install, gate, upload")

        [gate] = commands_of(gate_step, ("gate",))
        junit, json_report = option_value(gate, "--junit"), option_value(gate, "--json")
        self.assertIsNotNone(junit, "the gate writes a JUnit report")
        self.assertIsNotNone(json_report, "the gate writes a JSON report")
        self.assertEqual(reports.get("if"), "always()",
                         "the reports are uploaded whatever happened")
        self.assertIn(junit, reports["with"]["path"].split(), "the JUnit file written is uploaded")
        self.assertIn(json_report, reports["with"]["path"].split())

        # The job fails on the gate's status, recorded by the gate step, after the upload.
        self.assertIn("|| status=$?", gate_step["run"])
        self.assertIn('"status=$status" >>"$GITHUB_OUTPUT"', gate_step["run"])
        last = steps[-1]
        self.assertIn(f"steps.{gate_step['id']}.outputs.status", last["run"])
        self.assertIn("exit 1", last["run"])

    def test_the_gitlab_recipe_gates_the_package_its_package_job_makes(self):
        [pipeline] = load_documents(GITLAB_CI)
        package_job, gate_job = pipeline["package"], pipeline["gate"]
        for job in (package_job, gate_job):
            self.assertEqual(job.get("image"), "debian:12")
        stages = pipeline["stages"]
        self.assertLess(stages.index(package_job["stage"]), stages.index(gate_job["stage"]))

        # The package job: builds the package and keeps the .deb as an artifact.
        self.assertIn(["--build", "build", "--target", "package"],
                      program_args(package_job, "cmake"))
        kept = package_job["artifacts"]["paths"]
        self.assertTrue(any(fnmatchcase(SAMPLE_DEB, glob) for glob in kept),
                        f"the package job keeps {kept}, not {SAMPLE_DEB}")

        # The gate job: gets the package job's artifacts (at the same paths) and installs the
        # .deb with apt-get.
        needs = gate_job.get("needs", gate_job.get("dependencies", []))
        needed = {n if isinstance(n, str) else n["job"]:
                  isinstance(n, str) or n.get("artifacts", True) for n in needs}
        self.assertTrue(needed.get("package"), "the gate job takes the package job's artifacts")
        self.assert_installs_local_deb(gate_job, posixpath.normpath(SAMPLE_DEB))

        [gate] = commands_of(gate_job, ("gate",))
        junit, json_report = option_value(gate, "--junit"), option_value(gate, "--json")
        self.assertIsNotNone(junit, "the gate writes a JUnit report")
        self.assertIsNotNone(json_report, "the gate writes a JSON report")
        artifacts = gate_job["artifacts"]
        self.assertEqual(artifacts.get("when"), "always", "the reports are kept whatever happened")
        reported = artifacts["reports"]["junit"]
        self.assertIn(junit, [reported] if isinstance(reported, str) else reported,
                      "the JUnit file written is the pipeline's JUnit report")
        self.assertIn(json_report, artifacts["paths"])

        # The job ends with the gate's status: recorded by the gate's line, exited with last.
        script = script_lines(gate_job["script"])
        [gate_line] = [line for line in script if commands_of({"script": [line]}, ("gate",))]
        status = re.search(r"\|\|\s*(\w+)=\$\?\s*$", gate_line)
        self.assertIsNotNone(status, "the gate's line records its status: ... || status=$?")
        self.assertRegex(script[-1], rf'^exit "?\${status.group(1)}"?$')

    def assert_installs_local_deb(self, job, landed: str):
        """`apt-get install` in `job` is given a local path (./ or /, else apt takes it for a
        package name) that matches `landed`, where the package job's .deb is."""
        debs = installed_debs(job)
        self.assertTrue(debs, "the gate job installs a .deb with apt-get install")
        for deb in debs:
            self.assertTrue(deb.startswith(("./", "/")), f"{deb}: not a local path for apt-get")
            self.assertTrue(fnmatchcase(posixpath.basename(deb), "s3fault_*.deb"), deb)
        self.assertTrue(any(fnmatchcase(landed, posixpath.normpath(deb)) for deb in debs),
                        f"apt-get installs {debs}; the package job's .deb lands at {landed}")


def steps_using(job: dict, action: str) -> list[dict]:
    """The steps of a GitHub Actions job that use `action` (any version)."""
    return [s for s in job["steps"] if s.get("uses", "").split("@")[0] == action]


def expression_problems(workflow: dict) -> list[str]:
    """In a GitHub Actions workflow: a ${{ without its }}, and a steps.ID or needs.JOB that
    names no earlier step of its job, or no job it needs."""
    problems = []

    def strings(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for value in node.values():
                yield from strings(value)
        elif isinstance(node, list):
            for item in node:
                yield from strings(item)

    for name, job in workflow["jobs"].items():
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        before = set()
        for step in [{"job": {k: v for k, v in job.items() if k != "steps"}},
                     *job.get("steps", [])]:
            for text in strings(step):
                if text.count("${{") != len(re.findall(r"\$\{\{.*?\}\}", text, re.S)):
                    problems.append(f"{name}: unclosed ${{{{ in {text!r}")
                for expression in re.findall(r"\$\{\{(.*?)\}\}", text, re.S):
                    for step_id in re.findall(r"\bsteps\.([\w-]+)", expression):
                        if step_id not in before:
                            problems.append(f"{name}: steps.{step_id}: no earlier step has that id")
                    for job_id in re.findall(r"\bneeds\.([\w-]+)", expression):
                        if job_id not in needs:
                            problems.append(f"{name}: needs.{job_id}: not in the job's needs")
            if "id" in step:
                before.add(step["id"])
    return problems


class MpirunBenchTest(unittest.TestCase):
    """examples/scale/mpirun-bench.sh with three ranks on this machine against one origin."""

    def test_three_ranks_bench_one_origin_and_merge_into_one_report(self):
        if shutil.which("mpirun") is None:
            self.fail("mpirun is not installed: tests/deps.sh installs Debian's openmpi-bin")
        out = harness.scratch_root() / harness.unique_bucket_name("scale-mpirun")
        origin = harness.OriginProcess(name="scale-mpirun-origin")
        origin.start()
        try:
            env = dict(harness.clean_client_env(), S3FAULT=str(harness.proxy_binary()),
                       S3FAULT_ENDPOINT=origin.url, AWS_ACCESS_KEY_ID=origin.access_key,
                       AWS_SECRET_ACCESS_KEY=origin.secret_key, AWS_REGION=harness.ORIGIN_REGION,
                       NP="3", OPS="get", SIZES="64KiB", CONCURRENCY="6", DURATION="1s",
                       ROUNDS="2", OUT=str(out))
            for inherited in ("S3FAULT_START_AT", "HOSTFILE", "MPIRUN_ARGS", "START_DELAY"):
                env.pop(inherited, None)
            run = harness.run_command(["bash", str(MPIRUN_BENCH)], env, timeout=300, check=False)
        finally:
            harness.stop_and_check(origin)
        described = (f"exit {run.returncode}\nstdout:\n{run.stdout[-8000:]}\n"
                     f"stderr:\n{run.stderr[-4000:]}")
        self.assertEqual(run.returncode, 0, described)

        parts = [json.loads((out / f"part-{k}.json").read_text()) for k in (1, 2, 3)]
        merged = json.loads((out / "merged.json").read_text())
        self.assertEqual(merged["shards"], 3, described)
        for name in ("merged.csv", "merged.html"):
            self.assertGreater((out / name).stat().st_size, 0, name)
        for k, part in enumerate(parts, start=1):
            self.assertEqual((part["shard"]["index"], part["shard"]["count"]), (k, 3))
            self.assertIn(f"OMPI_COMM_WORLD_RANK={k - 1}", part["shard"]["source"])
            self.assertIn(f"[1,{k - 1}]<stdout>:s3fault bench:", run.stdout, "tagged output")
        self.assertEqual(len({part["start_at"] for part in parts}), 1,
                         "every rank resolved --start-at to the same instant")

        def succeeded(report: dict) -> int:
            return sum(r["counts"]["succeeded"] for r in report["runs"])

        self.assertGreater(succeeded(merged), 0)
        self.assertEqual(succeeded(merged), sum(succeeded(p) for p in parts),
                         "the merged runs hold every part's operations")
        self.assertEqual(len(merged["runs"]), len(parts[0]["runs"]), "one run per cell and round")


if __name__ == "__main__":
    unittest.main()
