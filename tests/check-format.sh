#!/bin/bash
# Fails when a C++ file differs from what .clang-format asks for; prints the files to fix.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: not formatted (run: clang-format -i ${bad[*]})" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
