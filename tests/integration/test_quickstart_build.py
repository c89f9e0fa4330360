"""What the README's two commands build, in a fresh build directory, without building it:

    examples/quickstart.sh  --> builds the binary only (the demo needs nothing else)
    tests/build.sh          --> then, in the same directory, builds every test binary too

Both run as a user runs them (the quick start installs what is missing, then builds, then runs
the demo). `cmake` on their PATH is a stand-in: it configures with the real CMake, and for
`cmake --build DIR [--target T...]` it records the commands ninja has for those targets
(`ninja -t commands`: in a directory where nothing is built yet, all of them run) instead of
building. The quick start's last step, `s3fault demo`, finds a stand-in binary there.
"""

import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path

import harness

REPO = Path(__file__).resolve().parents[2]
# A link: a compiler command with -o and without -c.
LINKED = re.compile(r"^(?!.* -c ).*c\+\+ .* -o (\S+)", re.M)


class QuickStartBuildTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="quickstart-build-", dir=harness.scratch_root()))
        cls.build = cls.work / "build"
        cls.build.mkdir()
        shims = cls.work / "bin"
        shims.mkdir()
        cls.log = cls.work / "ninja-dry-run.log"
        real_cmake = shutil.which("cmake")
        cmake = shims / "cmake"
        cmake.write_text(
            "#!/bin/bash\n"
            '[ "$1" = --build ] || exec ' + real_cmake + ' "$@"\n'
            'dir=$2; shift 2; targets=()\n'
            'while [ $# -gt 0 ] && [ "$1" != -- ]; do\n'
            '  if [ "$1" = --target ]; then\n'
            '    shift; while [ $# -gt 0 ] && [[ $1 != -* ]]; do targets+=("$1"); shift; done\n'
            '  else shift; fi\n'
            'done\n'
            f'echo "== cmake --build $dir --target ${{targets[*]:-(default)}}" >>{cls.log}\n'
            f'exec ninja -C "$dir" -t commands "${{targets[@]}}" >>{cls.log}\n')
        cmake.chmod(cmake.stat().st_mode | stat.S_IXUSR)
        cls.env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}",
                   "S3FAULT_BUILD_DIR": str(cls.build)}
        # The demo at the quick start's end: a stand-in, as nothing was built.
        demo = cls.build / "s3fault"
        demo.write_text('#!/bin/sh\necho "demo stand-in: $*"\n')
        demo.chmod(0o755)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def run_step(self, *command):
        """Runs COMMAND; its output and the executables its build links."""
        start = self.log.stat().st_size if self.log.exists() else 0
        out = subprocess.run(command, capture_output=True, text=True, env=self.env, cwd=REPO,
                             timeout=600)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        with open(self.log) as log:
            log.seek(start)
            commands = log.read()
        self.assertIn("== cmake --build", commands)
        return out.stdout, LINKED.findall(commands)

    def test_the_quick_start_builds_the_binary_then_the_test_command_the_tests(self):
        stdout, linked = self.run_step("bash", "examples/quickstart.sh")
        self.assertIn("demo stand-in: demo", stdout)
        self.assertIn("s3fault", linked)
        self.assertEqual([exe for exe in linked if exe != "s3fault"], [],
                         "the quick start builds more than the binary")

        _, linked = self.run_step("bash", "tests/build.sh")
        tests = {Path(exe).name for exe in linked if exe.startswith("tests/")}
        for expected in ("s3fault_unit_tests", "s3fault_origin_tests", "s3fault_gate_tests",
                         "s3fault_audit_tests", "s3fault_bench_tests"):
            self.assertIn(expected, tests)


if __name__ == "__main__":
    unittest.main()
