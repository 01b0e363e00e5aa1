#!/usr/bin/env python3
"""Builds resources/benchmarks/transfer_rows.csv from Lambda's PyTorch suite (issue 22 item 5).

One row per workload of transfer_workloads.csv and GPU with a spec row of its own (fit_typical_stack.py's
LAMBDA_GPUS): the 1-GPU FP16/AMP training figure, first of the suite's duplicates. `gpufrontier-cli validate`
takes each row in turn as a user's own measurement (--measured S --measured-on GPU with the workload's FLOPs)
and projects the workload's other GPUs with it. Rows are left out by two data rules fixed before their effect
on any figure was computed (PROJECTION.md section 3.7; each left-out row is listed, with its reason, in the
file's header): R1, an FP16/AMP figure below half the same suite's 1-GPU FP32/TF32 figure of the workload on
the same GPU is a broken run (AMP's cast kernels cost launch-bound networks at most ~10 % in this suite, never
2x); R2, a figure without a stated batch cannot be reproduced. Standard library only. Usage (repository root):
    python3 resources/tools/build_transfer_rows.py --shared ../shared/data
"""

import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fit_typical_stack import BENCH, LAMBDA_GPUS, LAMBDA_URL, read_csv  # noqa: E402

FIELDS = ["source_id", "workload", "gpu_id", "gpu_src", "batch_per_gpu", "precision", "samples_per_s", "unit",
          "measured", "source_url"]


def exclusion(r, fp32_value):
    """The reason a 1-GPU FP16 row is left out (rules R1, R2 of the docstring), or ''."""
    if not r["batch_size_per_gpu"].strip():
        return "R2: no batch stated (the run cannot be reproduced)"
    if fp32_value is not None and float(r["value"]) < 0.5 * fp32_value:
        return ("R1: FP16/AMP below half the same GPU's FP32 figure (%g): a broken run, not a precision effect"
                % fp32_value)
    return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", required=True, help="the shared data folder (../shared/data)")
    args = ap.parse_args()
    workloads = {r["workload"] for r in read_csv(os.path.join(BENCH, "transfer_workloads.csv"))}
    seen, out, left_out = set(), [], []
    lambda_rows = read_csv(os.path.join(args.shared, "benchmarks", "extra", "lambda_pytorch_v0_2022.csv"))
    fp32 = {}
    for r in lambda_rows:
        if r["gpu_count"] == "1" and r["precision"].startswith("FP32") and r["metric"] == "train_throughput":
            key = (r["workload"], r["gpu"])
            fp32[key] = max(fp32.get(key, 0.0), float(r["value"]))
    for r in lambda_rows:
        gpu = LAMBDA_GPUS.get(r["gpu"])
        if (r["workload"] not in workloads or not gpu or r["gpu_count"] != "1"
                or not r["precision"].startswith("FP16") or r["metric"] != "train_throughput"):
            continue
        if (r["workload"], gpu) in seen:  # the suite lists some runs twice; the first counts
            continue
        seen.add((r["workload"], gpu))
        why = exclusion(r, fp32.get((r["workload"], r["gpu"])))
        if why:
            left_out.append("%s / %s / %s %s: %s" % (r["workload"], gpu, r["value"], r["unit"], why))
            continue
        out.append({"source_id": "LAMBDA-PYT-V0", "workload": r["workload"], "gpu_id": gpu, "gpu_src": r["gpu"],
                    "batch_per_gpu": r["batch_size_per_gpu"], "precision": "fp16", "samples_per_s": r["value"],
                    "unit": r["unit"], "measured": r["commit_or_date"],
                    "source_url": LAMBDA_URL})
    out.sort(key=lambda r: (r["workload"], r["gpu_id"]))
    path = os.path.join(BENCH, "transfer_rows.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write("# Lambda's PyTorch suite, 1 GPU, FP16/AMP, per GPU (resources/tools/build_transfer_rows.py --shared;\n"
                "# do not edit). Each row is taken in turn as a user's own figure and carried to the workload's\n"
                "# other GPUs by `gpufrontier-cli validate` (PROJECTION.md section 3.7).\n")
        for line in left_out:
            f.write("# left out: " + line + "\n")
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(out)
    print("wrote %d rows to %s" % (len(out), path))


if __name__ == "__main__":
    main()
