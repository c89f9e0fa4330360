"""The Debian package as `cmake --build BUILD --target package` writes it: its name, its control
fields (run-time dependencies computed by dpkg-shlibdeps, not listed by hand; bash-completion
recommended), what it installs where, a stripped binary that is the build's, the Python client
where Debian's python3 finds it, the Node client where `npm install PATH` takes it, and
lintian's verdict (no error, no warning). tests/package/clean-room.sh installs it with
apt in a Debian root that has nothing else.

    python3 tests/package/check_package.py BUILD_DIR
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

BUILD = Path(sys.argv.pop(1) if len(sys.argv) > 1 else "build").resolve()


def run(*args, check=True, cwd=None) -> str:
    out = subprocess.run(args, capture_output=True, text=True, timeout=600, cwd=cwd)
    if check and out.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))}: exit {out.returncode}\n{out.stderr}")
    return out.stdout + out.stderr if not check else out.stdout


class DebianPackageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Under tests/build.sh's lock: another build in BUILD would race ninja on its outputs.
        run("flock", BUILD / ".build-lock", "cmake", "--build", BUILD, "--target", "package")
        # The version CPack was given (CMakeLists.txt's project version).
        version = re.search(r'set\(CPACK_PACKAGE_VERSION "([^"]+)"\)',
                            (BUILD / "CPackConfig.cmake").read_text()).group(1)
        arch = run("dpkg", "--print-architecture").strip()
        cls.deb = BUILD / f"s3fault_{version}_{arch}.deb"
        cls.version = version
        cls.root = Path(tempfile.mkdtemp(dir=BUILD))
        run("dpkg-deb", "-x", cls.deb, cls.root)

    def field(self, name: str) -> str:
        return run("dpkg-deb", "--field", self.deb, name).strip()

    def test_the_control_fields(self):
        self.assertEqual(self.field("Package"), "s3fault")
        self.assertEqual(self.field("Version"), self.version)
        self.assertRegex(self.field("Maintainer"), r"^[^<>]+ <[^@<>]+@[^@<>]+>$")
        self.assertEqual(self.field("Section"), "devel")
        self.assertRegex(self.field("Description"), r"^\S.*\n .*fault")

    def test_it_recommends_bash_completion_which_loads_its_completion(self):
        # Debian 12's root shell sources no bash-completion: the package's completion needs it.
        recommends = {r.strip().split(" ")[0] for r in self.field("Recommends").split(",")}
        self.assertIn("bash-completion", recommends)

    def test_the_dependencies_are_the_libraries_the_binary_links(self):
        # Every shared library the binary needs (its NEEDED entries), as a package dependency:
        # the package of each library file, as dpkg knows it on this machine.
        needed = re.findall(r"NEEDED\s+\[(.+?)\]|\(NEEDED\)\s+Shared library: \[(.+?)\]",
                            run("readelf", "-d", self.root / "usr/bin/s3fault"))
        libraries = [a or b for a, b in needed]
        self.assertTrue(libraries)
        depends = {d.strip().split(" ")[0] for d in self.field("Depends").split(",")}
        for library in libraries:
            path = run("sh", "-c", f"ldconfig -p | awk '$1 == \"{library}\" {{print $NF; exit}}'").strip()
            self.assertTrue(path, library)
            # dpkg knows a file by the path its package ships it at: /lib or /usr/lib.
            owners = {run("dpkg", "-S", p, check=False).split(":")[0]
                      for p in (path, os.path.realpath(path))}
            owner = next((o for o in owners if not o.startswith("dpkg-query")), "none")
            # A library's shlibs may name a virtual package its owner provides (libspdlog1.10
            # provides libspdlog1.10-fmt9).
            provides = run("dpkg-query", "-W", "-f=${Provides}", owner, check=False)
            names = {owner} | {p.strip().split(" ")[0] for p in provides.split(",") if p.strip()}
            self.assertTrue(names & depends, f"{library} ({path}) is in {owner}, not a dependency")

    def test_it_installs_the_binary_the_pages_the_completion_and_the_docs(self):
        usr = self.root / "usr"
        expected = ["bin/s3fault", "share/bash-completion/completions/s3fault",
                    "share/doc/s3fault/copyright", "share/doc/s3fault/changelog.gz",
                    "share/doc/s3fault/README.md", "share/doc/s3fault/docs/gate.md",
                    "share/doc/s3fault/examples/readers/boto3-naive-parts.py",
                    "share/doc/s3fault/examples/writers",
                    "share/doc/s3fault/matrices/builtin-matrix.yaml",
                    "share/doc/s3fault/profiles/rgw-16.2.yaml",
                    "lib/python3/dist-packages/s3fault/pytest_plugin.py"]
        self.assertEqual([p for p in expected if not (usr / p).exists()], [])
        pages = Path(tempfile.mkdtemp(dir=BUILD))
        run(BUILD / "s3fault", "manpages", pages)
        self.assertEqual(sorted(p.name + ".gz" for p in pages.iterdir()),
                         sorted(p.name for p in (usr / "share/man/man1").iterdir()))
        self.assertTrue(os.access(usr / "share/doc/s3fault/examples/readers/boto3-naive-parts.py",
                                  os.X_OK))

    def test_the_binary_is_the_builds_and_stripped(self):
        binary = self.root / "usr/bin/s3fault"
        self.assertEqual(run(binary, "--version"), run(BUILD / "s3fault", "--version"))
        self.assertNotIn(".debug_info", run("readelf", "-S", binary))
        self.assertIn(".debug_info", run("readelf", "-S", BUILD / "s3fault"))

    def test_debians_python_finds_the_client_and_pytest_its_plugin(self):
        site = self.root / "usr/lib/python3/dist-packages"
        env = {**os.environ, "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
        out = subprocess.run(["/usr/bin/python3", "-c", "import s3fault, sys; print(s3fault.__file__)"],
                             capture_output=True, text=True, env=env)
        self.assertEqual(out.stdout.strip(), str(site / "s3fault/__init__.py"), out.stderr)
        entry_points = list(site.glob("s3fault-*.dist-info/entry_points.txt"))
        self.assertEqual(len(entry_points), 1)
        self.assertIn("s3fault = s3fault.pytest_plugin", entry_points[0].read_text())
        self.assertEqual(list(site.rglob("*.pyc")), [])

    def test_npm_installs_the_node_client_from_where_the_package_puts_it(self):
        # /usr/share/s3fault/node, as extracted; `npm install PATH` in an empty project.
        node = self.root / "usr/share/s3fault/node"
        self.assertEqual(sorted(p.name for p in node.iterdir()) if node.is_dir() else [],
                         ["README.md", "index.js", "package.json"])
        project = Path(tempfile.mkdtemp(dir=BUILD))
        (project / "package.json").write_text('{"name": "empty-project", "private": true}')
        run("npm", "install", "--offline", "--no-audit", "--no-fund", "--loglevel=error",
            "--prefix", project, node)
        names = run("node", "-e", "const s = require('s3fault'); "
                    "console.log(Object.keys(s).filter(k => typeof s[k] === 'function').sort()"
                    ".join(' '))", cwd=project)
        for name in ("AdminClient", "startOrigin", "startProxy"):
            self.assertIn(name, names.split())

    def test_lintian_finds_no_error_and_no_warning(self):
        out = run("lintian", "--allow-root", self.deb, check=False)
        problems = [line for line in out.splitlines() if re.match(r"^[EW]: ", line)]
        self.assertEqual(problems, [])


if __name__ == "__main__":
    unittest.main()
