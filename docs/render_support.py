"""What the generated documents' renderers share (docs/stores/render_stores.py,
docs/readers/render_readers.py, docs/profiles/render_profile_readers.py): writing the document,
or with --check comparing it with what is on disk. Standard library only."""

import difflib
import sys


def write_or_check(text: str, output: str, check: bool, script: str, generators: str) -> int:
    """Writes `text` to `output` (exit status 0); with `check`, writes nothing and returns 1 with
    a diff when `output` differs. `script` names the renderer in messages, `generators` what
    produces the document ("tests/gate/gate-readers.sh and docs/readers/render_readers.py")."""
    if not check:
        with open(output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return 0
    try:
        with open(output, encoding="utf-8", newline="") as f:
            current = f.read()
    except FileNotFoundError:
        current = None
    if current == text:
        return 0
    name = script.rsplit("/", 1)[-1]
    if current is None:
        print(f"{name}: {output} does not exist", file=sys.stderr)
    else:
        sys.stdout.writelines(difflib.unified_diff(
            current.splitlines(keepends=True), text.splitlines(keepends=True),
            fromfile=f"{output} (on disk)", tofile=f"{output} (generated)"))
    print(f"{name}: {output} is not what {generators} generate; regenerate it instead of "
          f"editing it (python3 {script})", file=sys.stderr)
    return 1
