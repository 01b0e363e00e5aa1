#!/usr/bin/env bash
# The includes under models/, ui/ and app/ follow ARCHITECTURE.md's layering (check_layers.py).
#   layers.sh SOURCE_DIR              the tree as it is passes
#   layers.sh SOURCE_DIR --bad        a copy with one deliberate bad include per rule must fail, naming each
set -euo pipefail
src=$1
check="$src/tests/lint/check_layers.py"
if [ "${2:-}" != "--bad" ]; then
  exec python3 "$check" "$src"
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpufrontier-layers.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
for d in models ui app; do cp -r "$src/$d" "$scratch/"; done
echo '#include "store/catalogstore.h"' >>"$scratch/models/projection/frontier.cpp"   # projection -> store
echo '#include "viewmodels/offertablemodel.h"' >>"$scratch/models/domain/offer.cpp" # domain -> viewmodels
echo '#include "store/catalogstore.h"' >>"$scratch/ui/offerspage.cpp"                # ui -> store
echo '#include "cli.h"' >>"$scratch/models/report/report.cpp"                        # models -> app
echo '#include "offer.h"' >>"$scratch/models/providers/vastai.cpp"                   # unqualified
echo '#include "viewmodels/offertablemodel.h"' >>"$scratch/app/cli_offers.cpp"      # CLI -> viewmodels
set +e
out=$(python3 "$check" "$scratch")
rc=$?
set -e
echo "$out"
[ $rc -eq 1 ] || { echo "FAIL: expected exit 1, got $rc"; exit 1; }
for expect in "models/projection/frontier.cpp" "models/domain/offer.cpp" "ui/offerspage.cpp" \
              "models/report/report.cpp" "models/providers/vastai.cpp" "app/cli_offers.cpp"; do
  grep -q "^$expect:" <<<"$out" || { echo "FAIL: the bad include in $expect was not reported"; exit 1; }
done
n=$(grep -c ": #include" <<<"$out")
[ "$n" -eq 6 ] || { echo "FAIL: expected exactly the 6 deliberate bad includes, got $n"; exit 1; }
echo "ok: each deliberate bad include is reported"
