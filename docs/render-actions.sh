#!/bin/bash
# Rewrites the actions table of docs/faults.md from the action registry itself
# (`s3fault proxy --list-actions markdown`); the unit test catalogue.docs_actions_table_* fails
# until this has run after an action is added or changed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
binary=${S3FAULT_BIN:-$root/build/s3fault}
table=$("$binary" proxy --list-actions markdown)
python3 - "$root/docs/faults.md" "$table" <<'PY'
import sys
path, table = sys.argv[1], sys.argv[2]
text = open(path).read()
begin = text.index("<!-- BEGIN actions table")
begin = text.index("\n", begin) + 1
end = text.index("<!-- END actions table")
open(path, "w").write(text[:begin] + table.rstrip("\n") + "\n" + text[end:])
PY
echo "docs/faults.md: actions table rewritten"
