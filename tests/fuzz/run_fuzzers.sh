#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (a separate build folder) and runs each for a bounded time.
# Usage: run_fuzzers.sh SOURCE_DIR BUILD_DIR [SECONDS_PER_TARGET]   (env GF_FUZZ_SECONDS overrides)
# Inputs in tests/fuzz/regressions/<target>/ (crashes found earlier) are replayed first. Each input is
# bounded in time (-timeout) and memory (-rss_limit_mb, which also limits one malloc).
# Exit 77 (CTest "skipped") when clang or libFuzzer is not installed.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$2
secs=${GF_FUZZ_SECONDS:-${3:-20}}
here=$src/tests/fuzz
fixtures=$src/tests/fixtures/providers

if ! command -v clang++ >/dev/null 2>&1; then
  echo "clang++ not found (apt package clang): fuzzing skipped"; exit 77
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <cstdint>\n#include <cstddef>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t){return 0;}\n' > "$probe/p.cpp"
if ! clang++ -fsanitize=fuzzer "$probe/p.cpp" -o "$probe/p" >/dev/null 2>&1; then
  echo "clang++ cannot link libFuzzer (apt package libclang-rt-14-dev): fuzzing skipped"; exit 77
fi

gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
cmake -S "$here" -B "$build" "${gen[@]}" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE= >/dev/null
cmake --build "$build" -j "$(nproc)"

declare -A seeds=(
  [fuzz_jsonstream]="aws/region_index.json aws/spot.json azure/page1.json gcp/skus-page1.json vastai/search-offers-raw.RTX4090.2024.cli-capture.json aws/offer-index.us-east-2.excerpt.opencost-test.fixed.json"
  [fuzz_aws_offers]="aws/offer-index.us-east-2.excerpt.opencost-test.fixed.json aws/offer-index.cn-northwest-1.excerpt.opencost-test.VERBATIM.txt aws/offer-index.csv.global-sample-20250912.ec2-priceit.csv aws/us-west-2.json"
  [fuzz_aws_spot]="aws/spot.json aws/spot-advisor-data.gpu-only.json aws/region_index.json"
  [fuzz_azure]="azure/page1.json azure/page2.json azure/retail-prices.B1s-eastus.Consumption.finfocus-plugin-test.json azure/retail-prices.empty-page.2026-10-03.finfocus-plugin-test.json"
  [fuzz_gcp]="gcp/skus-page1.json gcp/skus-page2.json gcp/cloudbilling-skus.6F81-5844-456A.opencost-test.json"
  [fuzz_vastai]="vastai/offers.json vastai/search-offers-raw.RTX4090.2024.cli-capture.json vastai/offers.500farm-mirror.RTX5090.2025-07-26.json"
  [fuzz_skypilot]="skypilot/paperspace.csv skypilot/vast.csv"
  [fuzz_runpod]="runpod/gputypes.json runpod/gputypes-malformed-entry.json runpod/graphql-error.json"
  [fuzz_oci]="oci/shapes.json oci/shapes-malformed-entry.json oci/shapes-reordered.json"
  # The report renderers take hostile strings (fields split at 0xff bytes, see fuzzreport.h): their
  # seeds are in seeds/report/.
  [fuzz_report_pdf]=""
  [fuzz_report_markdown]=""
  # The measurement and probe importers, with absurd figures: seeds in seeds/measurement/ and seeds/probe/
  # (and the probe fixtures).
  [fuzz_measurement]=""
  [fuzz_probe]=""
)

# fontconfig's caches (the PDF target's fonts) are not leaks of ours.
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

status=0
for target in $(printf '%s\n' "${!seeds[@]}" | sort); do
  exe=$build/$target
  corpus=$build/corpus/$target
  artifacts=$build/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  for s in ${seeds[$target]}; do
    # Seeds above 64 KB are cut: the fuzzer mutates small inputs faster.
    head -c 65536 "$fixtures/$s" > "$corpus/seed-$(basename "$s")"
  done
  if [[ "$target" == fuzz_report_* ]]; then
    cp "$here"/seeds/report/* "$corpus/"
  fi
  if [ "$target" = fuzz_measurement ]; then
    cp "$here"/seeds/measurement/* "$corpus/"
  fi
  if [ "$target" = fuzz_probe ]; then
    cp "$here"/seeds/probe/* "$src"/tests/fixtures/probe/*.json "$corpus/"
  fi
  if [ "$target" = fuzz_skypilot ]; then
    i=0
    for s in aws gcp azure vast paperspace; do
      { printf "\\$(printf '%03o' $i)"; head -c 16384 "$fixtures/skypilot/$s.csv"; } > "$corpus/seed-$s"
      i=$((i + 1))
    done
  fi
  reg=$here/regressions/$target
  if [ -d "$reg" ] && [ -n "$(ls -A "$reg" 2>/dev/null)" ]; then
    echo "== $target: replaying $(ls "$reg" | wc -l) regression inputs"
    if ! "$exe" -runs=1 "$reg"/* >"$build/$target.regressions.log" 2>&1; then
      echo "REGRESSION: $target crashes on an input of $reg"; tail -30 "$build/$target.regressions.log"; status=1; continue
    fi
  fi
  echo "== $target: fuzzing for $secs s"
  if "$exe" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$artifacts/" "$corpus" >"$build/$target.log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$build/$target.log" | tr '\n' ' '; echo
  else
    echo "CRASH in $target: input saved under $artifacts/ (copy it to tests/fuzz/regressions/$target/ once fixed)"
    tail -40 "$build/$target.log"
    status=1
  fi
done
exit $status
