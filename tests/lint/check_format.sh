#!/usr/bin/env bash
# Checks that every C++/CUDA source follows .clang-format (clang-format 14, as Debian 12 ships).
# Usage: check_format.sh SOURCE_DIR. Exit 77 (skipped) when clang-format is missing, except on CI.
set -euo pipefail
src=$1
cf=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$cf" ]; then
  echo "clang-format is not installed (.ci/install-deps installs it)"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
cd "$src"
mapfile -t files < <(find app models ui probes tests -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' \) \
  -not -path 'tests/fixtures/*' | sort)
bad=()
for f in "${files[@]}"; do
  "$cf" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "${#bad[@]} of ${#files[@]} files are not formatted; run: clang-format -i ${bad[*]}"
  for f in "${bad[@]}"; do "$cf" "$f" | diff -u "$f" - | head -20 || true; done
  exit 1
fi
echo "${#files[@]} files follow .clang-format"
