#!/usr/bin/env bash
# A micro-batch sweep on one NVIDIA GPU: resources/launch/gf_measure.py (eager PyTorch, synthetic data,
# each preset's precision from resources/workloads.json) once per (preset, batch), for the per-step
# overhead a typical script pays (PROJECTION.md section 3.21). Needs CUDA, PyTorch; no Qt, no network.
#
# Usage, from the repository root:  OUT=/tmp/out bash probes/batch_sweep.sh [SECONDS] [PRESET:B,B,... ...]
# Default: 10 s per point, the sweep of PROJECTION.md 3.21. Writes $OUT/sweep.csv (one line per point),
# $OUT/sweep.log and $OUT/sweep-docs.tar.gz (every gf_measure document). Each line also carries the
# step time, how busy the GPU was (section 3.22) and the host's dispatch time per PyTorch op. This is a measurement
# program: it prints figures and never judges a speed. Exit status 1 when a point produced no figure.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/sweep-out}
SECONDS_PER_POINT=${1:-10}
shift || true
SWEEP=("$@")
[ ${#SWEEP[@]} -gt 0 ] ||
    SWEEP=(resnet50:16,32,64,192,256 vit-b16:16,32,128,256 bert-large-squad:2,4,10,24 gpt2-124m:2,4,12,24)
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"
DOCS=$(mktemp -d)
exec > >(tee "$OUT/sweep.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv
echo "host: $(nproc) threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "preset,batch,precision,samples_per_s,device,note,step_ms,gpu_busy_fraction,gpu_busy_method,gpu_utilization_pct,host_op_us" >"$OUT/sweep.csv"
failed=0
for item in "${SWEEP[@]}"; do
    preset=${item%%:*}
    read -r precision flops < <("$PYTHON" - "$preset" <<'PY'
import json, sys
for w in json.load(open("resources/workloads.json"))["workloads"]:
    if w["id"] == sys.argv[1]:
        print(w["precision"], w["flops_per_sample"])
PY
    )
    if [ -z "${precision:-}" ]; then
        echo "no preset $preset in resources/workloads.json"
        failed=1
        continue
    fi
    IFS=, read -ra batches <<<"${item#*:}"
    for batch in "${batches[@]}"; do
        task="sweep-$preset-b$batch"
        printf '=== %s %s batch %s\n' "$(date -u +%H:%M:%S)" "$preset" "$batch"
        env GF_PLAN_TASK="$task" GF_RESULT_DIR="$DOCS" GF_MEASURE_SECONDS="$SECONDS_PER_POINT" \
            GF_WORKLOAD="$preset" GF_BATCH_PER_GPU="$batch" GF_PRECISION="$precision" GF_FLOPS_PER_SAMPLE="$flops" \
            GF_GPUS_PER_NODE=1 GF_PROBE=0 PYTHONUNBUFFERED=1 \
            timeout 120 "$PYTHON" resources/launch/gf_measure.py >"$DOCS/$task.log" 2>&1
        "$PYTHON" - "$DOCS/$task.json" "$preset" "$batch" "$precision" >>"$OUT/sweep.csv" <<'PY' || failed=1
import json, sys
path, preset, batch, precision = sys.argv[1:]
try:
    d = json.load(open(path))
except (OSError, ValueError):
    print("%s,%s,%s,,,no document,,,,," % (preset, batch, precision))
    sys.exit(1)
rate = d.get("samples_per_s")
note = " | ".join(d.get("notes") or []).replace(",", ";")
def fig(key, fmt):
    v = d.get(key)
    return fmt % v if isinstance(v, (int, float)) else (v or "")
print("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s" % (preset, batch, precision, "%.3f" % rate if rate else "", d.get("device_name") or "",
      note, fig("step_ms", "%.3f"), fig("gpu_busy_fraction", "%.4f"), fig("gpu_busy_method", "%s"),
      fig("gpu_utilization_pct", "%.1f"), fig("host_op_us", "%.3f")))
sys.exit(0 if rate else 1)
PY
        tail -1 "$OUT/sweep.csv"
    done
done
tar czf "$OUT/sweep-docs.tar.gz" -C "$DOCS" .
exit $failed
