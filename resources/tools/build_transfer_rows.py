#!/usr/bin/env python3
"""Builds resources/benchmarks/transfer_rows.csv from Lambda's PyTorch suite (issue 22 item 5), the
one-layer transformer TFLOPS of mli/transformers-benchmarks and Lambda's TensorFlow CNN suite (issue 22 item 1).

Lambda (source LAMBDA-PYT-V0): one row per workload of transfer_workloads.csv and GPU with a spec row of its
own (fit_typical_stack.py's LAMBDA_GPUS): the 1-GPU FP16/AMP training figure, first of the suite's duplicates.
mli/transformers-benchmarks (source MLI-TFMR-2024, PROJECTION.md section 3.11): the README summary's achieved
TFLOPS of forward+backward of one layer (pure .half() FP16) on five GPUs, converted to sequences/s through one
layer with the workload's flops_per_sample of transfer_workloads.csv (fixed before any fit with the data):
samples/s = TFLOPS x 1e12 / F. Its figures carry no batch (the summary states none; the notebook runs the same
sweep on every GPU) and no FP32 layer figure, so rules R1 and R2 below concern Lambda's suite only. `gpufrontier-cli validate`
takes each row in turn as a user's own measurement (--measured S --measured-on GPU with the workload's FLOPs)
and projects the workload's other GPUs with it. Rows are left out by two data rules fixed before their effect
on any figure was computed (PROJECTION.md section 3.7; each left-out row is listed, with its reason, in the
file's header): R1, an FP16/AMP figure below half the same suite's 1-GPU FP32/TF32 figure of the workload on
the same GPU is a broken run (AMP's cast kernels cost launch-bound networks at most ~10 % in this suite, never
2x); R2, a figure without a stated batch cannot be reproduced.
Lambda's TensorFlow suite (source LAMBDA-TF-2021, PROJECTION.md section 3.18, rule H fixed before any figure):
tf_cnn_benchmarks' six CNNs, 1 GPU, synthetic data, --use_fp16, only the runs Lambda also compiled into its
summary tables (the shared README's advice), on the GPUs with a spec row of their own; where a GPU has two
compiled runs, the one without XLA (a typical script does not compile). Rules R1 and R2 apply to it as to
the PyTorch suite (R1 against the same suite's compiled FP32 figure).
The eager-PyTorch CNN timings of ryujaehun/pytorch-gpu-benchmark (lamikr's fork; source RYU-PT-2025, PROJECTION.md
section 3.24, rule V fixed before any figure): milliseconds per zero_grad + forward + loss + backward (no
optimizer step) of torchvision CNNs at a tiny batch, pure .half() FP16, converted to images/s = batch x 1000 / ms;
the GPUs with a spec row of their own and a stated batch (R2); FP32 runs are left out (whether the A100 ran its
convolutions in TF32, PyTorch's default, is not recorded). These pairs are scored apart: fit_typical_stack.py
neither fits them nor derives a range from them, and `validate` keeps them out of its pooled figures (their
timing, batch 12 without an optimizer step, is largely the host's kernel launches). Standard library only.
Usage (repository root):
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
          "measured", "source_url", "note"]

# mli/transformers-benchmarks (README "Micro-Benchmarking Summary" at 3370b2b): its layers -> our workloads
# (transfer_workloads.csv), and its GPU names -> our ids. The form factor of the A100 80GB is not stated: SXM4
# assumed, the common part (as build_benchmarks.py maps "A100 80GB"); the V100 32GB as LAMBDA_GPUS maps it.
MLI_SOURCE = "MLI-TFMR-2024"
MLI_FILE = "mli_transformers_benchmarks.csv"
MLI_WORKLOADS = {"bert-large-layer-fwd-bwd", "gpt2-layer-fwd-bwd", "t5-encoder-layer-fwd-bwd",
                 "t5-decoder-layer-fwd-bwd"}
MLI_GPUS = {"A100 80GB (form factor not stated)": "a100-80gb-sxm4", "RTX A6000": "rtx-a6000",
            "V100 32GB (form factor not stated)": LAMBDA_GPUS["V100 32GB (form factor not stated)"],
            "RTX 3090 Ti": "rtx3090ti", "RTX 4090": "rtx4090"}
# Lambda's TensorFlow suite (tf_cnn_benchmarks): its workloads -> ours (transfer_workloads.csv; the suite's
# "resnet50-imagenet" is not the PyTorch suite's, so every TF workload carries "-tf-cnn"), and its GPU names
# -> our ids: LAMBDA_GPUS, plus the V100 32GB SXM3 (the DGX-2 part: GV100 as the SXM2 row, ~4 % higher boost
# clock). The Quadro RTX 8000 and the Max-Q laptop parts have no spec row and are left out.
TF_SOURCE = "LAMBDA-TF-2021"
TF_FILE = "lambda_tensorflow_benchmark.csv"
TF_WORKLOADS = {"alexnet-imagenet": "alexnet-tf-cnn", "inception3-imagenet": "inception3-tf-cnn",
                "inception4-imagenet": "inception4-tf-cnn", "resnet50-imagenet": "resnet50-tf-cnn",
                "resnet152-imagenet": "resnet152-tf-cnn", "vgg16-imagenet": "vgg16-tf-cnn"}
TF_GPUS = dict(LAMBDA_GPUS, **{"V100 32GB SXM3": "v100-32gb-sxm2"})
TF_URL = "https://github.com/LambdaColdStorage/lambda-tensorflow-benchmark/tree/e086e0e7d88a19991642d0774793693d4b7cbe46"
# ryujaehun/pytorch-gpu-benchmark (lamikr's fork, source RYU-PT-2025): its NVIDIA GPU names -> our ids. The
# Titan Xp and the RTX 2060 Max-Q have no spec row (not rented); the GTX 1080 Ti, RTX 2080 Ti, Titan RTX and
# Titan V results state no batch (R2); AMD Radeon parts have no spec row. Each is named among the rows left out.
RYU_SOURCE = "RYU-PT-2025"
RYU_FILE = "ryujaehun_pytorch_gpu_benchmark.csv"
RYU_GPUS = {"A100 40GB SXM4": "a100-40gb-sxm4", "RTX 3090": "rtx3090", "RTX 4060 Ti 16GB": "rtx4060ti-16gb"}
RYU_SUFFIX = "-pt-eager"
RYU_URL = "https://github.com/lamikr/pytorch-gpu-benchmark/tree/43d16131b692f0b2bece0bbbbb3d75c73816d437"
MLI_URL = ("https://github.com/mli/transformers-benchmarks/blob/"
           "3370b2b3a0ad915b827dd962ff68b2333f4da6a6/README.md")


def exclusion(r, fp32_value):
    """The reason a 1-GPU FP16 row is left out (rules R1, R2 of the docstring), or ''."""
    if not r["batch_size_per_gpu"].strip():
        return "R2: no batch stated (the run cannot be reproduced)"
    if fp32_value is not None and float(r["value"]) < 0.5 * fp32_value:
        return ("R1: FP16/AMP below half the same GPU's FP32 figure (%g): a broken run, not a precision effect"
                % fp32_value)
    return ""


def samples_per_s(tflops, flops_per_sample):
    """The sequences/s of a layer that achieved `tflops` at `flops_per_sample` FLOPs per sequence."""
    return float(tflops) * 1e12 / float(flops_per_sample)


def mli_measured(gpu):
    """When the figure was measured: the README's RTX 4090 column was added at 3370b2b (2024-01-09), the
    other columns are of 2022-08 (the V100's re-measured on 2022-08-25), as the shared file's commit_or_date
    says. The time split of fit_typical_stack.py reads the year from it."""
    if gpu == "rtx4090":
        return "2024-01-09 (the RTX 4090 column added to the README summary at 3370b2b)"
    return "2022-08 (README summary columns of 2022-08, the V100's re-measured 2022-08-25; file at 3370b2b)"


def mli_rows(shared, flops):
    """The MLI-TFMR-2024 rows (see the docstring) from the shared file; flops: workload -> F."""
    out = []
    for r in read_csv(os.path.join(shared, "benchmarks", "extra", MLI_FILE)):
        if r["workload"] not in MLI_WORKLOADS:
            continue
        if r["metric"] != "achieved_tflops_fwd_bwd" or r["unit"] != "TFLOPS" or r["gpu_count"] != "1":
            raise SystemExit("%s: unexpected row %s / %s / %s %s" % (MLI_FILE, r["workload"], r["gpu"], r["metric"],
                                                                   r["unit"]))
        gpu = MLI_GPUS.get(r["gpu"])
        if not gpu:
            raise SystemExit("%s: no id for the GPU \"%s\"" % (MLI_FILE, r["gpu"]))
        F = flops[r["workload"]]
        out.append({"source_id": MLI_SOURCE, "workload": r["workload"], "gpu_id": gpu, "gpu_src": r["gpu"],
                    "batch_per_gpu": "", "precision": "fp16", "samples_per_s": "%.6g" % samples_per_s(r["value"], F),
                    "unit": "sequences/s (one layer)", "measured": mli_measured(gpu), "source_url": MLI_URL,
                    "note": "%s TFLOPS achieved forward+backward (README summary) x 1e12 / %d FLOPs per sequence"
                            % (r["value"], F)})
    return out


def tf_compiled(r):
    """A 1-GPU synthetic-data training row that Lambda also compiled into its summary tables."""
    return (r["gpu_count"] == "1" and r["metric"] == "train_throughput" and "synthetic data" in r["notes"]
            and "also in compiled" in r["notes"])


def tf_rows(shared):
    """The LAMBDA-TF-2021 rows (see the docstring) and the lines of the rows left out."""
    rows = read_csv(os.path.join(shared, "benchmarks", "extra", TF_FILE))
    fp32, fp16 = {}, {}
    for r in rows:
        gpu = TF_GPUS.get(r["gpu"])
        if r["workload"] not in TF_WORKLOADS or not gpu or not tf_compiled(r):
            continue
        if r["precision"].startswith("FP32"):
            key = (r["workload"], gpu)
            fp32[key] = max(fp32.get(key, 0.0), float(r["value"]))
        elif r["precision"].startswith("FP16"):
            fp16.setdefault((r["workload"], gpu), []).append(r)
    out, left_out = [], []
    for (workload, gpu), runs in sorted(fp16.items()):
        without_xla = [r for r in runs if "XLA on" not in r["notes"]]
        r = (without_xla or runs)[0]
        ours = TF_WORKLOADS[workload]
        why = exclusion(r, fp32.get((workload, gpu)))
        if why:
            left_out.append("%s / %s / %s %s: %s" % (ours, gpu, r["value"], r["unit"], why))
            continue
        xla = "XLA on" if "XLA on" in r["notes"] else "XLA off"
        out.append({"source_id": TF_SOURCE, "workload": ours, "gpu_id": gpu, "gpu_src": r["gpu"],
                    "batch_per_gpu": r["batch_size_per_gpu"], "precision": "fp16", "samples_per_s": r["value"],
                    "unit": r["unit"], "measured": r["commit_or_date"], "source_url": TF_URL,
                    "note": "%s, %s; %s" % (r["framework"], xla, r["source_path_or_url"])})
    return out, left_out


def ryu_measured(framework):
    """When the figure was measured: the result files record no date, only the CUDA build of the run; its
    release bounds the run from below (CUDA 11.1: 2020-09; CUDA 12.1: 2023-03, and the RTX 4060 Ti came out in
    2023-05). The time split of fit_typical_stack.py reads the latest year named here."""
    if "CUDA 12.1" in framework:
        return "2023-2024 (CUDA 12.1 build; date not recorded; results file at lamikr 43d1613)"
    if "CUDA 11.1" in framework:
        return "2020-2022 (CUDA 11.1 build; date not recorded; results file at lamikr 43d1613)"
    raise SystemExit("%s: no CUDA build named in \"%s\"" % (RYU_FILE, framework))


def ryu_rows(shared):
    """The RYU-PT-2025 rows (see the docstring), their models' workload ids and the lines of the rows left out."""
    rows = read_csv(os.path.join(shared, "benchmarks", "extra", RYU_FILE))
    out, left_out, skipped = [], [], set()
    for r in rows:
        if r["metric"] != "fwd_bwd_time_per_iteration_mean" or r["unit"] != "ms per iteration" or r["gpu_count"] != "1":
            raise SystemExit("%s: unexpected row %s / %s / %s %s" % (RYU_FILE, r["workload"], r["gpu"], r["metric"],
                                                                   r["unit"]))
        if not r["precision"].startswith("FP16"):
            continue
        gpu = RYU_GPUS.get(r["gpu"])
        if not gpu:
            if "Radeon" in r["gpu"]:
                why = "no spec row (AMD Radeon consumer part)"
            elif not r["batch_size_per_gpu"].strip():
                why = "R2: no batch stated (the run cannot be reproduced)"
            else:
                why = "no spec row (not rented)"
            if (r["gpu"], why) not in skipped:
                skipped.add((r["gpu"], why))
                left_out.append("%s (%s): every row: %s" % (r["gpu"], RYU_SOURCE, why))
            continue
        why = exclusion(r, None)
        if why:
            raise SystemExit("%s: %s / %s: %s" % (RYU_FILE, r["workload"], r["gpu"], why))
        batch, ms = int(r["batch_size_per_gpu"]), float(r["value"])
        model = r["workload"].replace("-synthetic-224", "")
        out.append({"source_id": RYU_SOURCE, "workload": model + RYU_SUFFIX, "gpu_id": gpu, "gpu_src": r["gpu"],
                    "batch_per_gpu": str(batch), "precision": "fp16", "samples_per_s": "%.6g" % (batch * 1000.0 / ms),
                    "unit": "images/s", "measured": ryu_measured(r["framework"]), "source_url": RYU_URL,
                    "note": "%g ms per zero_grad + forward + loss + backward (no optimizer step) at batch %d, pure "
                            ".half(); %s" % (ms, batch, r["source_path_or_url"])})
    count = {}
    for r in out:
        count[r["workload"]] = count.get(r["workload"], 0) + 1
    one_gpu = sorted(w for w, n in count.items() if n < 2)
    for w in one_gpu:
        left_out.append("%s (%s): a figure on one GPU only (no pair)" % (w, RYU_SOURCE))
    return [r for r in out if count[r["workload"]] >= 2], left_out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", required=True, help="the shared data folder (../shared/data)")
    args = ap.parse_args()
    wrows = read_csv(os.path.join(BENCH, "transfer_workloads.csv"))
    workloads = {r["workload"] for r in wrows}
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
                    "source_url": LAMBDA_URL, "note": ""})
    out += mli_rows(args.shared, {r["workload"]: int(r["flops_per_sample"]) for r in wrows})
    for more, more_left_out in (tf_rows(args.shared), ryu_rows(args.shared)):
        missing = sorted({r["workload"] for r in more} - workloads)
        if missing:
            raise SystemExit("transfer_workloads.csv has no row for %s" % ", ".join(missing))
        out += more
        left_out += more_left_out
    order = {"LAMBDA-PYT-V0": 0, MLI_SOURCE: 1, TF_SOURCE: 2, RYU_SOURCE: 3}
    out.sort(key=lambda r: (order[r["source_id"]], r["workload"], r["gpu_id"]))
    path = os.path.join(BENCH, "transfer_rows.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write("# Lambda's PyTorch suite (LAMBDA-PYT-V0), 1 GPU, FP16/AMP, per GPU; the one-layer transformer\n"
                "# TFLOPS of mli/transformers-benchmarks (MLI-TFMR-2024), pure FP16, converted to sequences/s through\n"
                "# one layer with transfer_workloads.csv's FLOPs per sample (note column; PROJECTION.md section 3.11);\n"
                "# Lambda's TensorFlow CNN suite (LAMBDA-TF-2021), 1 GPU, FP16, synthetic data, the compiled runs\n"
                "# without XLA where a GPU has two (section 3.18); the eager-PyTorch CNN timings of\n"
                "# ryujaehun/pytorch-gpu-benchmark (RYU-PT-2025), batch 12, pure FP16, no optimizer step, converted to\n"
                "# images/s (section 3.24: scored apart, never fitted, no range derived from them)\n"
                "# (resources/tools/build_transfer_rows.py --shared; do not edit). Each row is taken in turn as a\n"
                "# user's own figure and carried to the workload's other GPUs of the same source by\n"
                "# `gpufrontier-cli validate` (PROJECTION.md section 3.7). Rules R1/R2 (left out below) apply to\n"
                "# Lambda's suites; the MLI rows have no batch and no FP32 layer figure (section 3.11).\n")
        for line in left_out:
            f.write("# left out: " + line + "\n")
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(out)
    print("wrote %d rows to %s" % (len(out), path))


if __name__ == "__main__":
    main()
