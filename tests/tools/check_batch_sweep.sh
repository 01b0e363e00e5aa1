#!/usr/bin/env bash
# probes/batch_sweep.sh where no GPU can measure (CI, build machines): every point is written with an empty
# figure and the reason, an unknown preset is named, and the exit status is 1. Usage: check_batch_sweep.sh REPO
set -u
repo=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# A Python without PyTorch or without a GPU: gf_measure.py writes its document without a figure.
OUT=$out CUDA_VISIBLE_DEVICES= bash "$repo/probes/batch_sweep.sh" 10 resnet50:2,4 no-such-preset:8 >/dev/null 2>&1
rc=$?
fail=0
[ "$rc" = 1 ] || { echo "FAIL: exit status $rc, expected 1"; fail=1; }
head -1 "$out/sweep.csv" | grep -qx 'preset,batch,precision,samples_per_s,device,note,step_ms,gpu_busy_fraction,gpu_busy_method,gpu_utilization_pct,host_op_us' ||
    { echo "FAIL: header"; fail=1; }
for b in 2 4; do
    grep -Eq "^resnet50,$b,fp16,,,(PyTorch is not installed|no CUDA GPU visible to PyTorch),,,,,\$" "$out/sweep.csv" ||
        { echo "FAIL: resnet50 batch $b has no row naming why there is no figure"; cat "$out/sweep.csv"; fail=1; }
done
grep -q 'no preset no-such-preset in resources/workloads.json' "$out/sweep.log" ||
    { echo "FAIL: the unknown preset is not named"; fail=1; }
[ -f "$out/sweep-docs.tar.gz" ] || { echo "FAIL: no documents archive"; fail=1; }
[ $fail = 0 ] && echo ok
exit $fail
