#!/usr/bin/env bash
# Checks that every tracked C++ and OpenCL file matches .clang-format (clang-format 14, Debian 12's).
#   scripts/check_format.sh          list the files that differ, exit 1 if any
#   scripts/check_format.sh --fix    rewrite them in place
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-clang-format-14}
# Kernels too (kernels/.clang-format keeps their textual includes in order).
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cl' '*.clh')
if [ "${1:-}" = "--fix" ]; then
  "$CLANG_FORMAT" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$CLANG_FORMAT" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  printf 'not formatted: %s\n' "${bad[@]}" >&2
  echo "gvflab: ${#bad[@]} file(s) differ from .clang-format; run scripts/check_format.sh --fix" >&2
  exit 1
fi
echo "format: ${#files[@]} C++ and OpenCL files match .clang-format"
