#!/usr/bin/env bash
# gpufrontier --help / --version / usage errors work without any display (no X, no Wayland,
# no QT_QPA_PLATFORM): they are answered before the QApplication exists.
#   gui_nodisplay.sh GPUFRONTIER VERSION
source "$(dirname "$0")/common.sh"
exe=$1 version=$2
run() { env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM -u XDG_SESSION_TYPE "$exe" "$@"; }

out=$(run --version 2>&1) || fail "--version exited $? without a display: $out"
grep -q "gpufrontier $version" <<<"$out" || fail "--version printed: $out"
ok "--version: $out"

out=$(run --help 2>&1) || fail "--help exited $? without a display: $out"
grep -q "Usage:" <<<"$out" || fail "--help printed no usage: $out"
grep -q -- "--db <PATH>" <<<"$out" || fail "--help does not list --db: $out"
ok "--help lists the options"

set +e
out=$(run --no-such-flag 2>&1); rc=$?
set -e
[ $rc -eq 2 ] || fail "an unknown flag should exit 2, got $rc: $out"
grep -q "no-such-flag" <<<"$out" || fail "the message does not name the flag: $out"
ok "unknown flag: exit 2 ($out)"

set +e
out=$(run stray 2>&1); rc=$?
set -e
[ $rc -eq 2 ] || fail "a stray argument should exit 2, got $rc: $out"
ok "stray argument: exit 2"

# Qt's own options next to ours (QApplication takes them; the early answer must not trip on them).
for qt in "-platform offscreen" "-style fusion" "-style=fusion" "-reverse" "--platform offscreen"; do
  # shellcheck disable=SC2086
  out=$(run $qt --version 2>&1) || fail "$qt --version exited $? without a display: $out"
  grep -q "gpufrontier $version" <<<"$out" || fail "$qt --version printed: $out"
done
ok "Qt's own options (-platform, -style, -reverse) with --version"
# shellcheck disable=SC2086
out=$(run -style fusion --help 2>&1) || fail "-style fusion --help exited $?: $out"
grep -q "Usage:" <<<"$out" || fail "-style fusion --help printed no usage: $out"
set +e
out=$(run -style fusion --no-such-flag 2>&1); rc=$?
set -e
[ $rc -eq 2 ] || fail "an unknown flag next to a Qt option should exit 2, got $rc: $out"
ok "Qt's own options with --help and with an unknown flag"
