#!/usr/bin/env bash
# One run on a machine with an NVIDIA GPU, CUDA, CMake, Ninja and PyTorch (no Qt, no network):
#   1. builds gpufrontier-probe from probes/ for this GPU's architecture only,
#   2. runs it quick and full through probes/compare_torch.py (the probe next to PyTorch's GEMMs and
#      device copy on the same GPU),
#   3. runs resources/launch/gf_measure.py once per preset (synthetic data, the preset's batch and
#      precision from resources/workloads.json, one GPU),
# and packs every JSON document and log into $OUT/gpu-run.tar.gz (plus $OUT/run.log).
#
# Usage, from the repository root:  OUT=/tmp/out bash probes/run_on_gpu.sh [SECONDS_PER_PRESET] [PRESET...]
# (GF_SKIP_PROBE=1 measures the presets only; the preset list 'none' runs the probe only.)
# Exit status: 0 when the probe and every preset produced a document, 1 otherwise (the rest still runs).
# This is a measurement program: it prints figures and never judges a speed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-run-out}
SECONDS_PER_PRESET=${1:-15}
shift || true
PRESETS=("$@")
[ ${#PRESETS[@]} -gt 0 ] || PRESETS=(resnet50 vit-b16 bert-large-squad gpt2-124m llm7b-lora)
[ "${PRESETS[0]}" = none ] && PRESETS=()
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"
WORK=$(mktemp -d)
RES="$WORK/results"
mkdir -p "$RES"
exec > >(tee "$OUT/run.log") 2>&1
failed=0
step() { printf '\n=== %s  %s\n' "$(date -u +%H:%M:%S)" "$*"; }

step "machine"
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,clocks.max.sm,power.limit --format=csv |
    tee "$RES/nvidia-smi.csv"
"$PYTHON" - <<'EOF' | tee "$RES/versions.txt"
import platform, torch
print("python", platform.python_version())
print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())
print("device", torch.cuda.get_device_name(0), "capability", torch.cuda.get_device_capability(0))
try:
    import torchvision
    print("torchvision", torchvision.__version__)
except ImportError:
    print("torchvision not installed")
EOF
nvcc --version | tail -2
ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
ACCEL=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)

step "build gpufrontier-probe for sm_$ARCH"
if [ "${GF_SKIP_PROBE:-0}" = 1 ]; then
    echo "GF_SKIP_PROBE=1: probe not built or run"
elif cmake -S probes -B "$WORK/pb" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$ARCH" \
        >"$RES/probe-build.log" 2>&1 &&
    cmake --build "$WORK/pb" >>"$RES/probe-build.log" 2>&1; then
    echo "built: $(ls -la "$WORK/pb/gpufrontier-probe")"
    step "probe quick + full, next to PyTorch"
    if ! timeout 400 "$PYTHON" probes/compare_torch.py "$WORK/pb/gpufrontier-probe" --out "$RES"; then
        echo "compare_torch.py failed"
        failed=1
    fi
else
    tail -40 "$RES/probe-build.log"
    failed=1
fi

for preset in ${PRESETS[@]+"${PRESETS[@]}"}; do
    step "gf_measure.py $preset (${SECONDS_PER_PRESET} s)"
    read -r batch precision flops < <("$PYTHON" - "$preset" <<'EOF'
import json, sys
for w in json.load(open("resources/workloads.json"))["workloads"]:
    if w["id"] == sys.argv[1]:
        print(w["batch_per_gpu"], w["precision"], w["flops_per_sample"])
EOF
    )
    if [ -z "${batch:-}" ]; then
        echo "no preset $preset in resources/workloads.json"
        failed=1
        continue
    fi
    if ! env GF_PLAN_TASK="measure-$preset" GF_RESULT_DIR="$RES" GF_MEASURE_SECONDS="$SECONDS_PER_PRESET" \
        GF_WORKLOAD="$preset" GF_BATCH_PER_GPU="$batch" GF_PRECISION="$precision" GF_FLOPS_PER_SAMPLE="$flops" \
        GF_ACCELERATOR="$ACCEL" GF_GPUS_PER_NODE=1 GF_PROBE=0 PYTHONUNBUFFERED=1 \
        timeout 300 "$PYTHON" resources/launch/gf_measure.py >"$RES/measure-$preset.log" 2>&1; then
        failed=1
    fi
    tail -4 "$RES/measure-$preset.log"
done

step "pack"
tar czf "$OUT/gpu-run.tar.gz" -C "$RES" .
ls -la "$RES"
exit $failed
