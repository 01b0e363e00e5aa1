#!/usr/bin/env bash
# The build uses only what .ci/install-deps installs on a fresh Debian 12 machine.
#   build_deps.sh BUILD_DIR SOURCE_DIR            passes when every used package is covered
#   build_deps.sh BUILD_DIR SOURCE_DIR PACKAGE    drops PACKAGE from a copy of the list and passes
#                                                 only when the check then fails naming PACKAGE
# (the second form shows that the check can fail). Exit 77 (skipped) without dpkg, except on CI.
set -euo pipefail
build=$1 src=$2 drop=${3:-}
if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  echo "SKIP: dpkg-query or python3 missing (not a Debian machine?)"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
check="$src/tests/packaging/check_build_deps.py"
if [ -z "$drop" ]; then
  exec python3 "$check" "$build" "$src/.ci/install-deps"
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpufrontier-deps.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
grep -qw -- "$drop" "$src/.ci/install-deps" || { echo "FAIL: $drop is not in .ci/install-deps"; exit 1; }
sed -E "s/(^|[[:space:]])$drop([[:space:]]|\$)/\1\2/" "$src/.ci/install-deps" >"$scratch/install-deps"
if grep -qw -- "$drop" "$scratch/install-deps"; then echo "FAIL: could not drop $drop"; exit 1; fi
set +e
out=$(python3 "$check" "$build" "$scratch/install-deps" 2>&1)
rc=$?
set -e
echo "$out"
if [ $rc -eq 1 ] && grep -q "from the Debian package '$drop'" <<<"$out"; then
  echo "ok: without $drop in the list the check fails and names it"
  exit 0
fi
echo "FAIL: without $drop in the list the check should fail naming it (exit $rc)"
exit 1
