#!/bin/bash
# Rewrites the actions table of docs/faults.md from the action registry itself
# (`s3fault proxy --list-actions markdown`), and its operations table from the catalogue of S3
# operations (`s3fault proxy --list-operations markdown`); the unit tests
# catalogue.docs_*_table_* fail until this has run after either changed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
binary=${S3FAULT_BIN:-$root/build/s3fault}
rewrite() { # NAME TABLE: the text between "<!-- BEGIN NAME table" and "<!-- END NAME table"
  python3 - "$root/docs/faults.md" "$1" "$2" <<'PY'
import sys
path, name, table = sys.argv[1:]
text = open(path).read()
begin = text.index(f"<!-- BEGIN {name} table")
begin = text.index("\n", begin) + 1
end = text.index(f"<!-- END {name} table")
open(path, "w").write(text[:begin] + table.rstrip("\n") + "\n" + text[end:])
PY
  echo "docs/faults.md: $1 table rewritten"
}
rewrite actions "$("$binary" proxy --list-actions markdown)"
rewrite operations "$("$binary" proxy --list-operations markdown)"
