#!/usr/bin/env bash
# Validates the desktop entry or the AppStream metainfo.
#   validate.sh desktop FILE | validate.sh metainfo FILE
source "$(dirname "$0")/common.sh"
kind=$1 file=$2
case "$kind" in
desktop)
    need desktop-file-validate desktop-file-utils
    out=$(desktop-file-validate "$file" 2>&1) || { echo "$out"; fail "desktop-file-validate $file"; }
    # Hints are fine; warnings and errors are not (desktop-file-validate exits 0 on warnings).
    if echo "$out" | grep -qiE 'error|warning'; then echo "$out"; fail "desktop-file-validate reports problems"; fi
    [ -n "$out" ] && echo "$out"
    ok "desktop-file-validate $file"
    ;;
metainfo)
    need appstreamcli appstream
    appstreamcli validate --no-net --pedantic "$file" || fail "appstreamcli validate --no-net --pedantic $file"
    ok "appstreamcli validate --no-net --pedantic $file"
    ;;
*) fail "unknown kind $kind" ;;
esac
