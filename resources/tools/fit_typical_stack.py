#!/usr/bin/env python3
"""Fits the typical-stack conversion of projection model v2 (PROJECTION.md sections 3.6 and 3.8).

Most shipped measurements (resources/benchmarks/anchors.csv) come from vendor-tuned code: NVIDIA
DeepLearningExamples with DALI, MLPerf submissions, llm.c. A user's own PyTorch script runs slower, and
by how much depends on the GPU: a per-sample overhead (framework, unfused element-wise kernels, launch
gaps, data loading) that does not shrink on a faster GPU costs a slow card little and the newest ones
most; and each GPU architecture runs each kind of network at its own efficiency. The conversion is

    1 / speed_typical = 1 / (speed_tuned x eta[arch, class]) + F / (R_o x 1e12)

with F the workload's FLOPs per sample, R_o (TFLOP/s) per preset (pooled over all presets for custom
workloads) and eta per GPU architecture and workload class (convolutional, transformer, recurrent-speech,
detection; none for an unknown class), fitted together (see joint_fit below). speed_tuned is the app's own
projection with `--stack tuned`, so the fit needs a built gpufrontier-cli (the tuned stack does not depend
on anything written here).

Data, one row per measurement with its source:
  - resources/benchmarks/typical_stack_rows.csv (rebuilt from ../shared/data/benchmarks/extra with --shared):
    LAMBDA-PYT-V0, Lambda's PyTorch benchmark suite (lambdal/deeplearning-benchmark, runs 2020-2022; the same
    NGC DeepLearningExamples code on every GPU, 1 GPU, FP16/AMP): ResNet-50 and BERT-large SQuAD, the two of
    its workloads that are presets; GF-MEASURE-2611, our own eager PyTorch 2.11 runs of every preset on one
    H100 and one H200 (training_throughput.csv rows with that source).
  - resources/benchmarks/transfer_rows.csv and transfer_workloads.csv: Lambda's other eight workloads, the
    one-layer transformer TFLOPS of mli/transformers-benchmarks (MLI-TFMR-2024, PROJECTION.md section 3.11)
    and Lambda's TensorFlow CNN suite (LAMBDA-TF-2021, section 3.18) (build_transfer_rows.py), as a user's
    figure carried across GPUs; each pair has its rows' source. The MLI and TF pairs are scored, not fitted.
    A convolutional or transformer custom workload takes its class's reference preset's tuned shape (rule I,
    CLASS_REFERENCE), as the app does.

Validation (printed, and written to resources/benchmarks/typical_stack_validation.md with --write), before
(R_o alone, no class factor) and after (the joint fit), each refitted in every fold: leave one workload
out, leave one GPU out, leave one source out, the time split (fit on the 2020-2022 runs, project the 2026
ones) and leave one architecture out (whose errors give the range of an architecture without a
measurement). --write also ships the folds of leave one source out and leave one architecture out in
typical_stack.json, which `gpufrontier-cli validate` projects with the app's own code.

Usage: fit_typical_stack.py --cli build/dev/app/gpufrontier-cli [--shared ../shared/data] [--write]
                            [--variant double-count|unweighted|compute-bound|presets-traffic|mli-fitted|
                            per-class-traffic|mli-fitted-per-class-traffic|traffic-all-pairs|
                            traffic-all-pairs-per-class|unknown-common-traffic|unknown-median-factor|
                            tf-fitted|no-transformer-rate|no-conv-rate|no-class-shape|class-shape-conv|
                            uncapped-user-overhead|user-overhead-2x|user-overhead-4x|
                            step-overhead-add|step-floor-max]
"""
import argparse
import collections
import csv
import functools
import json
import math
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(REPO, "resources", "benchmarks")
ROWS = os.path.join(BENCH, "typical_stack_rows.csv")
OUT_JSON = os.path.join(BENCH, "typical_stack.json")
OUT_MD = os.path.join(BENCH, "typical_stack_validation.md")

# Lambda's GPU names -> our ids. Cards without a spec row of their own (Quadro RTX 8000, Titan RTX,
# RTX A4500/A5500, laptops) are left out rather than mapped to a near relative.
LAMBDA_GPUS = {
    "RTX A6000": "rtx-a6000", "RTX 2080 Ti": "rtx2080ti", "RTX 3090": "rtx3090",
    "A100 40GB SXM4": "a100-40gb-sxm4", "RTX A4000": "rtx-a4000",
    "V100 32GB (form factor not stated)": "v100-32gb-sxm2", "Quadro RTX 6000": "quadro-rtx-6000",
    "A100 40GB PCIe": "a100-40gb-pcie", "A100 80GB SXM4": "a100-80gb-sxm4", "A40": "a40",
    "RTX 3070": "rtx3070", "RTX A5000": "rtx-a5000", "A100 80GB PCIe": "a100-80gb-pcie",
    "V100 16GB SXM2": "v100-16gb-sxm2", "GTX 1080 Ti": "gtx1080ti", "RTX 3080": "rtx3080",
    "Quadro RTX 5000": "quadro-rtx-5000",
}
LAMBDA_WORKLOADS = {"resnet50-imagenet": "resnet50", "bert-large-squad-finetune": "bert-large-squad"}
LAMBDA_URL = ("https://github.com/lambdal/deeplearning-benchmark/blob/"
              "a568104449d30adabb5ae521670df034e5ad8db7/pytorch/pytorch-train-throughput-fp16.csv")
# Rows left out, with the reason (row key: source, preset, gpu): written into the rows file's use and
# exclude_reason columns, which the fit and `gpufrontier-cli validate` read.
EXCLUDED = {
    ("GF-MEASURE-2611", "bert-large-squad", "h200-141gb-sxm"):
        "host-bound: the H200 host dispatched kernels more slowly (launch overhead 4.0 vs 3.0 us, "
        "training_throughput.csv row B390), so it ran below the H100",
}
REFERENCE_GPU = {"LAMBDA-PYT-V0": "a100-80gb-sxm4", "GF-MEASURE-2611": "h100-80gb-sxm"}
SOURCE_YEARS = {"LAMBDA-PYT-V0": "2020-2022", "GF-MEASURE-2611": "2026", "MLI-TFMR-2024": "2022-2024",
                "LAMBDA-TF-2021": "2019-2021"}
FIELDS = ["source_id", "preset_id", "gpu_id", "gpu_src", "batch_per_gpu", "precision", "samples_per_s",
          "stack", "measured", "source_url", "use", "exclude_reason", "note"]


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def rows_from_shared(shared):
    out = []
    seen = set()
    path = os.path.join(shared, "benchmarks", "extra", "lambda_pytorch_v0_2022.csv")
    for r in read_csv(path):
        preset = LAMBDA_WORKLOADS.get(r["workload"])
        gpu = LAMBDA_GPUS.get(r["gpu"])
        if not preset or not gpu or r["gpu_count"] != "1" or not r["precision"].startswith("FP16"):
            continue
        key = (preset, gpu, r["batch_size_per_gpu"], r["value"])
        if key in seen:  # the suite lists some runs twice
            continue
        seen.add(key)
        out.append({"source_id": "LAMBDA-PYT-V0", "preset_id": preset, "gpu_id": gpu, "gpu_src": r["gpu"],
                    "batch_per_gpu": r["batch_size_per_gpu"], "precision": "fp16",
                    "samples_per_s": r["value"], "stack": "ngc-dle-pytorch-lambda",
                    "measured": r["commit_or_date"], "source_url": LAMBDA_URL,
                    "note": "synthetic data (ResNet-50) / SQuAD (BERT); batch as the suite ran it on that card"})
    for r in read_csv(os.path.join(BENCH, "training_throughput.csv")):
        if r["source_id"] != "GF-MEASURE-2611":
            continue
        out.append({"source_id": r["source_id"], "preset_id": r["preset_id"], "gpu_id": r["gpu_id"],
                    "gpu_src": r["gpu_src"], "batch_per_gpu": r["batch_per_gpu"],
                    "precision": r["precision"], "samples_per_s": r["per_gpu_value"], "stack": r["stack"],
                    "measured": "2026-11-26", "source_url": "resources/benchmarks/measured/",
                    "note": "training_throughput.csv row " + r["row_id"]})
    for r in out:
        why = EXCLUDED.get((r["source_id"], r["preset_id"], r["gpu_id"]), "")
        r["use"] = "0" if why else "1"
        r["exclude_reason"] = why
    return out


@functools.lru_cache(maxsize=None)
def preset_tuned(cli, preset, batch):
    """`gpus --workload PRESET --stack tuned` at a batch: {gpu id: the CLI's row}, once per (cli, preset, batch)."""
    args = [cli, "gpus", "--workload", preset, "--batch", str(batch), "--stack", "tuned",
            "--no-measurements", "--no-calibration", "--format", "json"]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return {g["id"]: g for g in json.loads(out.stdout)["gpus"]}


@functools.lru_cache(maxsize=None)
def custom_tuned(cli, flops, nbytes, precision="fp16"):
    """The tuned-stack roofline of a custom workload of `flops` FLOPs and `nbytes` bytes per sample:
    {gpu id: samples/s} of the GPUs it projects, once per argument set. The app reads 0 bytes as "not given" and,
    in the tuned stack, assumes the class's presets' traffic (rule AC, PROJECTION.md 3.29): a compute-bound
    call (nbytes 0, the compute-bound variant) types one byte per sample instead."""
    nbytes = nbytes if nbytes > 0 else 1.0
    out = subprocess.run([cli, "gpus", "--flops-per-sample", repr(flops), "--bytes-per-sample", repr(nbytes),
                          "--samples", "1000000", "--precision", precision, "--stack", "tuned",
                          "--no-measurements", "--no-calibration", "--format", "json"],
                         capture_output=True, text=True, check=True)
    return {g["id"]: g["samples_per_s"] for g in json.loads(out.stdout)["gpus"] if g.get("projected")}


def read_presets():
    """resources/workloads.json's presets: {id: definition}, in file order."""
    with open(os.path.join(REPO, "resources", "workloads.json"), encoding="utf-8") as f:
        return {w["id"]: w for w in json.load(f)["workloads"]}


def reference_shape(cli, presets, ref, flops):
    """Rule I (PROJECTION.md 3.18): the reference preset's tuned speed x F_preset / F on every GPU it projects."""
    R = presets[ref]
    return {k: v["samples_per_s"] * float(R["flops_per_sample"]) / flops
            for k, v in preset_tuned(cli, ref, int(R["batch_per_gpu"])).items() if v.get("projected")}


class Projector:
    def __init__(self, cli):
        self.cli = cli

    def tuned(self, preset, batch):
        return preset_tuned(self.cli, preset, batch)

    def flops(self, preset, batch):
        out = subprocess.run([self.cli, "workloads", "--format", "json"], capture_output=True, text=True,
                             check=True)
        for w in json.loads(out.stdout):
            if w["id"] == preset:
                return float(w["flops_per_sample"])
        raise KeyError(preset)


def typical(p, flops, rate):
    return 1.0 / (1.0 / p + flops / (rate * 1e12))


# Rule P4 (PROJECTION.md 3.21, rejected variants): a per-step time s (seconds) of a preset's eager step, from
# the H100 micro-batch sweep of 2026-11-28 (probes/batch_sweep.sh), either added to every step (P4a,
# "step-overhead-add") or as a floor under it (P4b, "step-floor-max"). Empty: none (the shipped fit).
STEP_S = {}
STEP_MODE = ""
STEP_S_P4A = {"resnet50": 0.0253, "vit-b16": 0.0357, "bert-large-squad": 0.0835, "gpt2-124m": 0.0348}
STEP_S_P4B = {"resnet50": 0.02946, "vit-b16": 0.04053, "bert-large-squad": 0.08471, "gpt2-124m": 0.04292}


def stepped(speed, o):
    """A typical row's projection with rule P4's per-step time at the row's batch (none in the shipped fit)."""
    s = STEP_S.get(o["preset"], 0.0)
    if not s:
        return speed
    if STEP_MODE == "add":
        return 1.0 / (1.0 / speed + s / o["batch"])
    return min(speed, o["batch"] / s)


def fit_rate(obs):
    """R_o minimising the squared log errors of obs [(tuned, flops, measured, row)], on [10, 1e5] TFLOP/s."""
    if not obs:
        return None
    # typical(p, f, r) inlined with the same operations (bit-identical, faster).
    inv = [(1.0 / p, f, m) for p, f, m, _ in obs]
    log = math.log

    def sse(x):
        rr = math.exp(x) * 1e12
        if STEP_S:
            return sum((log(stepped(1.0 / (1.0 / p + f / rr), o) / m)) ** 2 for p, f, m, o in obs)
        return sum((log(1.0 / (ip + f / rr) / m)) ** 2 for ip, f, m in inv)
    lo, hi = math.log(10.0), math.log(1e5)
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(200):
        if sse(a) < sse(b):
            hi = b
        else:
            lo = a
        na, nb = hi - g * (hi - lo), lo + g * (hi - lo)
        if (na, nb) == (a, b):  # a fixed point: the remaining iterations would change nothing
            break
        a, b = na, nb
    return math.exp((lo + hi) / 2)


def combine(a, b):
    """Two independent error ranges: each side added in quadrature (LogRange::combined)."""
    return (-math.hypot(min(0.0, a[0]), min(0.0, b[0])), math.hypot(max(0.0, a[1]), max(0.0, b[1])))


def wid(workload):
    """The workload a pair is held out with: a Lambda workload that is a preset counts as that preset."""
    return PRESET_OF.get(workload, workload)


def percentile(xs, q):
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    i = int(math.floor(k))
    j = min(i + 1, len(xs) - 1)
    return xs[i] + (xs[j] - xs[i]) * (k - i)


# ---------------------------------------------------------------------------------------------------------
# Joint fit with the efficiency per GPU architecture and workload class (issue 22 item 3, PROJECTION.md 3.8)
#
# The typical stack's speed of a workload of class c on a GPU of architecture A is
#     1 / speed = 1 / (speed_tuned x eta[A, c]) + F / (R_o x 1e12)
# ln eta (a[A, c]) and R_o are fitted together on one objective, so that no Lambda figure is counted twice:
#   - the typical-stack rows (absolute: typical_stack_rows.csv; Lambda's ResNet-50 and BERT-large, our eager
#     H100/H200 runs), weight 1 each;
#   - Lambda's other eight workloads (transfer_rows.csv) as the app carries a user's figure across GPUs
#     (relative: the pair (user GPU R, target T) through SpeedModel::project's user-figure rule), each pair
#     weighted 1/(n - 1) for a workload with n GPUs, so that every figure counts once as a target. The
#     ResNet-50 and BERT-large figures of transfer_rows.csv are the typical rows' own: they are scored as
#     pairs but not fitted twice.
#   - a ridge prior of RIDGE rows toward eta = 1 (fixed a priori in fit_arch_class.py, not tuned).
# Alternating: R_o per preset (and pooled over every row for custom workloads) by golden section given eta;
# ln eta by Gauss-Newton given R_o; to convergence.
# ---------------------------------------------------------------------------------------------------------

RIDGE = 5.0
# The typical stack's memory traffic relative to the presets' (vendor-tuned) bytes per FLOP, for a custom
# workload given without its bytes (PROJECTION.md section 3.9): eager PyTorch runs unfused element-wise
# kernels that each read and write the activations again. Chosen in every fit (and so in every fold, on its
# training data alone) by the joint objective among these values, fixed before the first fit.
TRAFFIC_GRID = (1.0, 2.0, 4.0, 8.0)
# Variants (--variant, printed only, never written): "double-count" fits the class factors on the Lambda
# ResNet-50 and BERT-large pairs as well as on their typical rows; "unweighted" weighs every pair 1;
# "compute-bound" gives a custom workload without bytes per sample no memory traffic (before issue 22 N);
# "presets-traffic" gives it the presets' bytes per FLOP without the fitted traffic factor.
VARIANT = ""
# The traffic factor per workload class (issue 22 R, PROJECTION.md 3.12) and the one-layer transformer pairs
# (MLI-TFMR-2024, 3.11) in the fit were shipped by the eighth session and rejected by rule C of the ninth
# (3.14: each made the held-out transfer of a figure measured on the A100 80GB worse): the shipped fit has the
# common factor of section 3.9 and scores the MLI pairs without fitting them. "--variant per-class-traffic",
# "mli-fitted" and "mli-fitted-per-class-traffic" print the rejected fits for comparison.
PER_CLASS = False
CLASSES = ("convolutional", "transformer", "recurrent-speech", "detection")
# Rule E (PROJECTION.md 3.15): the traffic factor is chosen on every pair, the presets' own included.
TRAFFIC_ON_ALL_PAIRS = False
# Rule G (PROJECTION.md 3.16; kept by rule C): the unknown class's traffic factor chosen on the pairs projected
# without class; "--variant unknown-common-traffic" prints the fit where it keeps the common m.
UNKNOWN_OWN_TRAFFIC = True
# Rule F (PROJECTION.md 3.17): a workload without its class takes each architecture's median class factor.
UNKNOWN_MEDIAN_FACTOR = False
# Sources whose pairs are scored (every split, their own leave-one-source-out fold) but not fitted: the
# one-layer transformer figures (rule C) and Lambda's TensorFlow CNN suite (rule H, PROJECTION.md 3.18;
# "--variant tf-fitted" prints the fit with its pairs in the objective, rule H1).
UNFITTED_SOURCES = {"MLI-TFMR-2024", "LAMBDA-TF-2021"}
# Sources whose pairs are scored apart (rule V, PROJECTION.md 3.24): never fitted, in no split and in no range
# derived here (their timing, batch 12 and no optimizer step in eager PyTorch, is largely the host's kernel
# launches, which the busy share handles in the app, not an architecture's range); `validate` scores them.
APART_SOURCES = {"RYU-PT-2025"}
# Rules H2/H2c/H3 (PROJECTION.md 3.18): a custom workload of these classes takes R_o pooled over its class's
# preset rows (a class without rows in a fit keeps the pool of every row). H2 (convolutional and transformer)
# and H2c (convolutional) were rejected before rule I; H3, the convolutional class on top of rule I, was kept.
# Rule M (PROJECTION.md 3.20, eleventh session), the transformer half of H2 on top of rules I and H3, was kept by
# rule C: both classes take their own pool. "--variant no-transformer-rate" prints the fit without M (H3 alone),
# "no-conv-rate" the fit without either.
CUSTOM_RATE_CLASSES = ("convolutional", "transformer")
# Rule I (PROJECTION.md 3.18; kept by rule C and the TF pairs): in the typical stack a custom workload of these
# classes (FLOPs per sample, no bytes of its own) takes the GPU-to-GPU shape of the class's reference preset,
# its tuned-stack speed x F_preset / F, instead of the roofline with the class's bytes per FLOP; a GPU without a
# projection of the preset keeps the roofline. Shipped as typical_stack.json's class_reference_preset.
# "--variant no-class-shape" prints the fit without it, "class-shape-conv" with the convolutional class only (I1).
CLASS_REFERENCE = {"convolutional": "resnet50", "transformer": "bert-large-squad"}
# Lambda workloads that are the typical rows' presets (fitted through the rows, scored as pairs too).
PRESET_OF = {"resnet50-imagenet": "resnet50", "bert-large-squad-finetune": "bert-large-squad"}
HEADLINE = "a100-80gb-sxm4"
# Section 3.6: the overhead taken from a user's figure is capped at the typical overhead O (x1); what lies beyond
# is a GPU-side level shift. Rejected (PROJECTION.md 3.20): rule L takes all of it as overhead ("--variant
# uncapped-user-overhead"), rule N caps it at 2 O or 4 O ("user-overhead-2x", "user-overhead-4x").
USER_OVERHEAD_CAP = 1.0
ARCH_CSV = os.path.join(BENCH, "gpu_arch.csv")
MODEL_JSON = os.path.join(BENCH, "model_v2.json")


def gauss_solve(A, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        piv = M[c][c]
        for r in range(n):
            if r != c and M[r][c] != 0.0:
                f = M[r][c] / piv
                for k in range(c, n + 1):
                    M[r][k] -= f * M[c][k]
    return [M[i][n] / M[i][i] for i in range(n)]


def envelope(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]))


class Fit:
    """R_o per preset, the pooled R_o, ln eta per (arch, class) and the traffic factor of each class
    (TRAFFIC_GRID; "unknown" holds the common one)."""

    def __init__(self, rates, pooled, a, traffic=1.0, class_pooled=None):
        self.rates, self.pooled, self.a = rates, pooled, a
        self.traffic = dict(traffic) if isinstance(traffic, dict) else uniform(traffic)
        self.class_pooled = dict(class_pooled or {})

    def custom(self, cls):
        """A custom workload's R_o: its class's pool (rule H2, CUSTOM_RATE_CLASSES) or the pool of every row."""
        return self.class_pooled.get(cls) or self.pooled

    def rate(self, preset, cls=None):
        return self.rates.get(preset) or self.custom(cls)

    def measured(self, arch, cls):
        return (arch, cls) in self.a


def row_speed(o, fit, use_eta=True):
    eta = math.exp(fit.a.get((o["arch"], o["class"]), 0.0)) if use_eta else 1.0
    return stepped(typical(o["tuned"] * eta, o["flops"], fit.rate(o["preset"], o["class"])), o)


def pair_speed(p, fit, aT=None, aR=None, as_unknown=False):
    """The app's projection of the pair's target from the user's figure (SpeedModel::project, section 3.6).
    as_unknown: the workload given without its class, as the app takes it (no class factor, the unknown
    class's traffic factor and default bytes per FLOP: the tuned projections cu_from / cu_to)."""
    if as_unknown:
        aT, aR = unknown_factor(fit, p["arch_to"]), unknown_factor(fit, p["arch_from"])
    aT = fit.a.get((p["arch_to"], p["class"]), 0.0) if aT is None else aT
    aR = fit.a.get((p["arch_from"], p["class"]), 0.0) if aR is None else aR
    cls, c_from, c_to = ("unknown", p["cu_from"], p["cu_to"]) if as_unknown else (p["class"], p["c_from"], p["c_to"])
    O = p["flops"] / (fit.custom(cls) * 1e12)
    m = p["m_from"]
    tR = c_from[traffic_of(fit.traffic, cls)] * math.exp(aR)
    taken = min(max(1.0 / m - 1.0 / tR, 0.0), USER_OVERHEAD_CAP * O)
    gpu_r = 1.0 / (1.0 / m - taken)
    s = math.log(gpu_r / tR)
    tT = c_to[traffic_of(fit.traffic, cls)] * math.exp(aT)
    sp = 1.0 / (1.0 / (tT * math.exp(s)) + taken)
    shipped_only = 1.0 / (1.0 / tT + O)
    return shipped_only * min(max(sp / shipped_only, 0.1), 10.0)


# Rule S3's hosts (SpeedModel's kHostFloorFaster, kHostFloorSlower): another host's floor may be this much shorter
# or longer.
HOST_FLOOR_FASTER = 0.54
HOST_FLOOR_SLOWER = 1.0 / HOST_FLOOR_FASTER
# Rule S3 (kHostBoundBusy): a GPU busy less than this share of the step waited for its host.
HOST_BOUND_BUSY = 0.8


# Rule AD (PROJECTION.md 3.30; TypicalStack::batchChangeMinRatio): a figure carried to a batch this many times
# larger or smaller than its own takes the range of such pairs' leave-one-workload-out errors as well.
BATCH_CHANGE_MIN_RATIO = 8.0


def batch_change_far(p):
    """Rule AD: both batches stated (in the app: --measured-batch beside --batch) and BATCH_CHANGE_MIN_RATIO or
    more apart, either way."""
    if p.get("b_from", 0) <= 0 or p.get("b_to", 0) <= 0:
        return False
    q = p["b_to"] / p["b_from"]
    return q >= BATCH_CHANGE_MIN_RATIO or q <= 1.0 / BATCH_CHANGE_MIN_RATIO


# Rule AF (PROJECTION.md 3.30, rejected; --variant far-from-model-range): a figure this many times below or above
# what the app projects for its own GPU (model_ratio) took the range of such pairs' leave-one-workload-out errors.
FAR_FROM_MODEL_RATIO = 2.0


def far_from_model(ratio):
    """Rule AF: the user's figure at least FAR_FROM_MODEL_RATIO times from the model's projection for its GPU."""
    return ratio > 0 and (ratio <= 1.0 / FAR_FROM_MODEL_RATIO or ratio >= FAR_FROM_MODEL_RATIO)


def model_ratio(p, fit, use_eta=True, as_unknown=False):
    """The user's figure against what the app projects for its own GPU from the shipped data
    (SpeedModel::modelRatio: the typical projection at the workload's shape, the user's GPU's class factor)."""
    if as_unknown:
        aR, cls, c_from = unknown_factor(fit, p["arch_from"]), "unknown", p["cu_from"]
    else:
        aR = fit.a.get((p["arch_from"], p["class"]), 0.0) if use_eta else 0.0
        cls, c_from = p["class"], p["c_from"]
    tR = c_from[traffic_of(fit.traffic, cls)] * math.exp(aR)
    O = p["flops"] / (fit.custom(cls) * 1e12)
    return p["m_from"] * (1.0 / tR + O)


def assumed_busy(ratio):
    """Rule W (PROJECTION.md 3.25): a figure more than 10x below the model (`ratio`, model_ratio()), with no busy
    share given (none is, in these pairs), is read as host-bound, its busy share taken as 10 x its ratio; 0 where
    the rule does not apply (the figure not that far below, or the share so taken not host-bound: there rule
    W-flag, PROJECTION.md 3.24, widens the range instead)."""
    busy = 10.0 * ratio
    return busy if busy < HOST_BOUND_BUSY else 0.0


def floor_speed(p):
    """The speed the user's step allows at the batch the pair is asked at (rule Y, PROJECTION.md 3.25): the
    target's stated batch over the figure's step, where both batches are stated; else the figure's own."""
    if p.get("b_from", 0) > 0 and p.get("b_to", 0) > 0:
        return p["m_from"] * p["b_to"] / p["b_from"]
    return p["m_from"]


def unknown_factor(fit, arch):
    """ln eta of a workload without its class on `arch`: 0, or with rule F (UNKNOWN_MEDIAN_FACTOR, PROJECTION.md
    3.17) the median of the architecture's fitted class factors (0 where it has none)."""
    if not UNKNOWN_MEDIAN_FACTOR:
        return 0.0
    vals = sorted(v for (a, _), v in fit.a.items() if a == arch)
    if not vals:
        return 0.0
    n = len(vals)
    return vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2.0


_EH = math.exp(0.0 + 1e-5)  # exp(a + h) of a key not fitted yet (a = 0)


def _user_side(tR, im, O):
    """pair_speed's overhead taken from the user's figure and exp(its shift), same operations (joint_fit_at)."""
    t = im - 1.0 / tR
    if t < 0.0:
        t = 0.0
    cap = USER_OVERHEAD_CAP * O
    taken = cap if cap < t else t
    return taken, math.exp(math.log(1.0 / (im - taken) / tR))


def _finish(tT, es, taken, O, m_to):
    """pair_speed's target side and the log error, with the same operations (see joint_fit_at)."""
    sp = 1.0 / (1.0 / (tT * es) + taken)
    shipped_only = 1.0 / (1.0 / tT + O)
    q = sp / shipped_only
    if 0.1 > q:
        q = 0.1
    if 10.0 < q:
        q = 10.0
    return math.log(shipped_only * q / m_to)


def fit_rates(rows, a):
    """R_o per preset, pooled over every row, and pooled over each class of CUSTOM_RATE_CLASSES that has rows."""
    by, by_class = collections.defaultdict(list), collections.defaultdict(list)
    for o in rows:
        eta = math.exp(a.get((o["arch"], o["class"]), 0.0))
        by[o["preset"]].append((o["tuned"] * eta, o["flops"], o["measured"], o))
        if o["class"] in CUSTOM_RATE_CLASSES:
            by_class[o["class"]].append(by[o["preset"]][-1])
    return ({p: fit_rate(v) for p, v in by.items()}, fit_rate([x for v in by.values() for x in v]),
            {c: fit_rate(v) for c, v in by_class.items()})


def fitted(pairs):
    """The pairs the joint fit is made on: not the presets' own Lambda pairs (fitted through the typical rows;
    but see "double-count"), nor the pairs of a source left out of the fit (UNFITTED_SOURCES): those are scored."""
    return [p for p in pairs if (VARIANT == "double-count" or p["workload"] not in PRESET_OF)
            and p["source"] not in UNFITTED_SOURCES]


def traffic_pairs(pairs):
    """The pairs whose objective chooses the traffic factor: with TRAFFIC_ON_ALL_PAIRS (rule E, PROJECTION.md
    3.15) every pair of a fitted source, the presets' own included (m is a property of a custom workload's
    path only, which the typical rows never take); else the fitted pairs."""
    if not TRAFFIC_ON_ALL_PAIRS:
        return fitted(pairs)
    return [p for p in pairs if p["source"] not in UNFITTED_SOURCES]


def pair_weights(pairs):
    """Each pair's weight by workload: 1/(n-1) for a workload of n GPUs, so that each figure counts once as a
    target ("unweighted": 1)."""
    gpus_by_w = collections.defaultdict(set)
    for p in pairs:
        gpus_by_w[p["workload"]].update((p["to"], p["from"]))
    return {w: 1.0 if VARIANT == "unweighted" else 1.0 / (len(g) - 1) for w, g in gpus_by_w.items()}


def objective(rows, pairs, fit, chosen=None):
    """The joint fit's objective (the weighted squared log errors and the ridge prior) at `fit`, over the
    fitted pairs (or the pairs `chosen` from them)."""
    fitted_pairs = fitted(pairs) if chosen is None else chosen(pairs)
    weight = pair_weights(fitted_pairs)
    s = sum(math.log(row_speed(o, fit) / o["measured"]) ** 2 for o in rows)
    for p in fitted_pairs:
        s += weight[p["workload"]] * math.log(pair_speed(p, fit) / p["m_to"]) ** 2
    return s + RIDGE * sum(v * v for v in fit.a.values())


def uniform(m):
    """The same traffic factor for every class (and the unknown class)."""
    return {c: m for c in CLASSES + ("unknown",)}


def traffic_of(traffic, cls):
    """The traffic factor of class `cls` in `traffic` (a number: every class; a dict: per class)."""
    return traffic[cls] if isinstance(traffic, dict) else traffic


def unknown_traffic(fit, pairs):
    """Rule G (PROJECTION.md 3.16): the unknown class's traffic factor chosen on the fitted pairs projected as
    the app projects a workload given without its class (pair_speed as_unknown), weighted 1/(n-1) as in the
    objective; a value replaces the common m only when strictly better (UNKNOWN_OWN_TRAFFIC)."""
    if not UNKNOWN_OWN_TRAFFIC:
        return fit
    fp = fitted(pairs)
    weight = pair_weights(fp)

    def sse(m):
        f = Fit(fit.rates, fit.pooled, fit.a, dict(fit.traffic, unknown=m), fit.class_pooled)
        return sum(weight[p["workload"]] * math.log(pair_speed(p, f, as_unknown=True) / p["m_to"]) ** 2
                   for p in fp)
    best, best_sse = fit.traffic["unknown"], sse(fit.traffic["unknown"])
    for m in TRAFFIC_GRID:
        v = sse(m)
        if v < best_sse:
            best, best_sse = m, v
    return Fit(fit.rates, fit.pooled, fit.a, dict(fit.traffic, unknown=best), fit.class_pooled)


def joint_fit(rows, pairs, use_eta=True):
    """The joint fit and, with rule G, the unknown class's own traffic factor (unknown_traffic)."""
    fit = joint_fit_classes(rows, pairs, use_eta)
    return unknown_traffic(fit, pairs) if use_eta and rows else fit


def joint_fit_classes(rows, pairs, use_eta=True):
    """The joint fit at the traffic factors chosen by the joint objective (section 3.9).

    The common m: the value of TRAFFIC_GRID with the least objective, every class alike. With PER_CLASS
    (the rule fixed by the lead beforehand) the classes' m then start from the common one
    and move by coordinate descent: for each class in the order of CLASSES, the four values are tried with
    the others fixed and the one with the least objective is kept (a value replaces the current one only
    when strictly better: a class whose m does not enter the objective keeps the common m); two sweeps.
    The unknown class keeps the common m. Without the class factors (use_eta False: the "before" column)
    the traffic factor is 1."""
    if not use_eta or not rows or len(TRAFFIC_GRID) == 1:
        return joint_fit_at(rows, pairs, use_eta, uniform(1.0 if not use_eta else TRAFFIC_GRID[0]))
    scored = {}

    def score(t):
        key = tuple(t[c] for c in CLASSES + ("unknown",))
        if key not in scored:
            f = joint_fit_at(rows, pairs, True, t)
            scored[key] = (objective(rows, pairs, f, traffic_pairs), f)
        return scored[key]
    fits = [score(uniform(m)) for m in TRAFFIC_GRID]
    best = min(fits, key=lambda x: x[0])
    if not PER_CLASS:
        return best[1]
    cur = dict(best[1].traffic)
    for _ in range(2):
        for c in CLASSES:
            obj = score(cur)[0]
            for v in TRAFFIC_GRID:
                o = score(dict(cur, **{c: v}))[0]
                if o < obj:
                    obj, cur = o, dict(cur, **{c: v})
    return score(cur)[1]


_FITS = {}


def joint_fit_at(rows, pairs, use_eta, traffic):
    """The joint fit at the given traffic factors; an identical fit (the same row and pair objects, the same
    factors and variant) is made once. The memo keeps the training lists, so the objects' ids stay theirs."""
    key = (tuple(map(id, rows)), tuple(map(id, pairs)), use_eta, tuple(sorted(traffic.items())), VARIANT)
    hit = _FITS.get(key)
    if hit is None:
        hit = _FITS[key] = (joint_fit_at_uncached(rows, pairs, use_eta, traffic), rows, pairs)
    return hit[0]


def joint_fit_at_uncached(rows, pairs, use_eta, traffic):
    a = {}
    rates, pooled, class_pooled = fit_rates(rows, a)
    if not use_eta or not rows:
        return rounded(Fit(rates, pooled or 333.0, {}, traffic, class_pooled))
    fitted_pairs = fitted(pairs)
    keys = sorted({(o["arch"], o["class"]) for o in rows}
                  | {(p[k], p["class"]) for p in fitted_pairs for k in ("arch_to", "arch_from")})
    idx = {k: i for i, k in enumerate(keys)}
    weight = pair_weights(fitted_pairs)
    h = 1e-5
    prepared = []
    for p in fitted_pairs:
        kT, kR = (p["arch_to"], p["class"]), (p["arch_from"], p["class"])
        m = traffic_of(traffic, p["class"])
        prepared.append((weight[p["workload"]], kT, kR, idx[kT], idx[kR], 1.0 / p["m_from"], p["flops"], p["m_to"],
                         p["c_from"][m], p["c_to"][m], p["class"]))
    for _ in range(40):
        fit = Fit(rates, pooled, a, traffic, class_pooled)
        n = len(keys)
        A = [[0.0] * n for _ in range(n)]
        b = [0.0] * n
        for i, k in enumerate(keys):
            A[i][i] += RIDGE
            b[i] -= RIDGE * a.get(k, 0.0)

        def add(w, ks, r, grads):
            for k1, g1 in zip(ks, grads):
                i = idx[k1]
                b[i] -= w * g1 * r
                for k2, g2 in zip(ks, grads):
                    A[i][idx[k2]] += w * g1 * g2

        for o in rows:
            k = (o["arch"], o["class"])
            ak = a.get(k, 0.0)
            eta = math.exp(ak)
            r0 = math.log(stepped(typical(o["tuned"] * eta, o["flops"], fit.rate(o["preset"], o["class"])), o)
                          / o["measured"])
            r1 = math.log(stepped(typical(o["tuned"] * eta * math.exp(h), o["flops"],
                                          fit.rate(o["preset"], o["class"])), o)
                          / o["measured"])
            add(1.0, [k], r0, [(r1 - r0) / h])
        # The pairs, with pair_speed's operations inlined (the same operations in the same order, so
        # bit-identical; the side of the user's GPU is computed once for r0 and the target's derivative).
        custom12 = {c: fit.custom(c) * 1e12 for c in CLASSES + ("unknown",)}
        ea = {k: math.exp(v) for k, v in a.items()}
        eah = {k: math.exp(v + h) for k, v in a.items()}
        for w, kT, kR, iT, iR, im, flops, m_to, cf, ct, cls in prepared:
            O = flops / custom12[cls]
            eR = ea.get(kR, 1.0)
            eT = ea.get(kT, 1.0)
            taken, es = _user_side(cf * eR, im, O)  # the user's side at aR
            tT = ct * eT
            r0 = _finish(tT, es, taken, O, m_to)
            if kT == kR:
                takenh, esh = _user_side(cf * eah.get(kR, _EH), im, O)
                r1 = _finish(ct * eah.get(kT, _EH), esh, takenh, O, m_to)
                g = (r1 - r0) / h
                b[iT] -= w * g * r0
                A[iT][iT] += w * g * g
            else:
                gT = (_finish(ct * eah.get(kT, _EH), es, taken, O, m_to) - r0) / h
                takenh, esh = _user_side(cf * eah.get(kR, _EH), im, O)
                gR = (_finish(tT, esh, takenh, O, m_to) - r0) / h
                b[iT] -= w * gT * r0
                A[iT][iT] += w * gT * gT
                A[iT][iR] += w * gT * gR
                b[iR] -= w * gR * r0
                A[iR][iT] += w * gR * gT
                A[iR][iR] += w * gR * gR
        d = gauss_solve(A, b)
        a = {k: a.get(k, 0.0) + d[i] for i, k in enumerate(keys)}
        new_rates, new_pooled, new_class_pooled = fit_rates(rows, a)
        moved = max([abs(x) for x in d] + [abs(math.log(new_rates[p] / rates[p])) for p in rates]
                    + [abs(math.log(new_pooled / pooled))]
                    + [abs(math.log(new_class_pooled[c] / class_pooled[c])) for c in class_pooled])
        rates, pooled, class_pooled = new_rates, new_pooled, new_class_pooled
        if moved < 1e-7:
            break
    return rounded(Fit(rates, pooled, a, traffic, class_pooled))


def rounded(fit):
    """The fit as typical_stack.json ships it (the app and this tool then compute the same figures)."""
    return Fit({p: round(v, 2) for p, v in fit.rates.items()}, round(fit.pooled, 2),
               {k: round(v, 4) for k, v in fit.a.items()}, fit.traffic,
               {c: round(v, 2) for c, v in fit.class_pooled.items()})


class Scorer:
    """Held-out errors and whether the app's p10-p90 range holds them (shipped ranges)."""

    def __init__(self, tiers, typ_range, unknown_range, new_arch_range, new_arch_range_transfer):
        self.tiers, self.typ, self.unknown = tiers, typ_range, unknown_range
        self.new_arch, self.new_arch_transfer = new_arch_range, new_arch_range_transfer
        self.batch_change = None  # rule AD's range, once derived (the typical stack only)
        self.far_from_model = None  # rule AF's range (rejected: --variant far-from-model-range only)

    def widen(self, rng, arch, cls, fit, use_eta, transfer):
        if not use_eta:
            return rng
        if cls == "unknown":
            rng = combine(rng, self.unknown)
            measured = any(k[0] == arch for k in fit.a)
        else:
            measured = fit.measured(arch, cls)
        if measured:
            return rng
        return envelope(rng, self.new_arch_transfer if transfer else self.new_arch)

    def pair(self, p, fit, use_eta, as_unknown=False):
        if use_eta:
            pred = pair_speed(p, fit, as_unknown=as_unknown)
        else:
            pred = pair_speed(p, fit, 0.0, 0.0)
        e = math.log(pred / p["m_to"])
        tier = "transferred" if p["arch_to"] == p["arch_from"] else "transferred-cross-arch"
        rng = combine(tuple(self.tiers[tier]), self.typ) if use_eta else combine(tuple(self.tiers[tier]), self.typ_before)
        rng = self.widen(rng, p["arch_to"], "unknown" if as_unknown else p["class"], fit, use_eta, True)
        ratio = model_ratio(p, fit, use_eta, as_unknown)
        busy = assumed_busy(ratio)
        if busy:
            # Rule W with rule S3 (SpeedModel::userHostFloorBasis): the GPU side (figure / busy) is carried, and
            # the figure's step is a floor (at the target's batch under rule Y), on other hosts 0.54x-1.85x as
            # long. Nothing changes where the GPU side's fast end stays below the
            # slowest host's floor.
            side = pair_speed(dict(p, m_from=p["m_from"] / busy), fit, as_unknown=as_unknown) if use_eta \
                else pair_speed(dict(p, m_from=p["m_from"] / busy), fit, 0.0, 0.0)
            low, high = side / math.exp(rng[1]), side / math.exp(rng[0])
            cap = floor_speed(p)
            if high > cap / HOST_FLOOR_SLOWER:
                pred = min(side, cap)
                low, high = min(low, cap / HOST_FLOOR_SLOWER), min(high, cap / HOST_FLOOR_FASTER)
            else:
                pred = side
            e = math.log(pred / p["m_to"])
            rng = (math.log(pred / high), math.log(pred / low))
        elif ratio < 0.1:
            # Rule W-flag (PROJECTION.md 3.24): the slow end reaches the figure's host floor on the slowest
            # other host (floor_speed: at the batch the pair is asked at, rule Y).
            rng = (rng[0], max(rng[1], math.log(pred * HOST_FLOOR_SLOWER / floor_speed(p))))
        if use_eta and self.batch_change and batch_change_far(p):
            # Rule AD, last (SpeedModel::batchChangeBasis): only the range moves, after every rule that reads it.
            rng = envelope(rng, self.batch_change)
        if use_eta and self.far_from_model and far_from_model(ratio):
            # Rule AF (rejected, printed as a variant), last as AD: the figure far from the model on its own GPU.
            rng = envelope(rng, self.far_from_model)
        return e, rng[0] <= e <= rng[1]

    def row(self, o, fit, use_eta):
        e = math.log(row_speed(o, fit, use_eta) / o["measured"])
        t = (math.log(o["tuned"] / o["high"]), math.log(o["tuned"] / o["low"]))
        # A preset without its own R_o in the fit (held out) is projected as a custom workload is.
        own = o["preset"] in fit.rates
        rng = combine(t, (self.typ if own else self.typ_custom) if use_eta else self.typ_before)
        rng = self.widen(rng, o["arch"], o["class"], fit, use_eta, False)
        return e, rng[0] <= e <= rng[1]


def reference_rows(rows):
    """Rule Z (PROJECTION.md 3.26): each row's reference row, the same source's row of the same preset on the
    source's reference GPU (the headline GPU where the source has a row of the preset, else the source's GPU
    with the most rows, ties the smaller id); None for a reference row itself or where there is none."""
    count = {}
    for o in rows:
        count[(o["source"], o["gpu"])] = count.get((o["source"], o["gpu"]), 0) + 1
    ref = {}
    for o in rows:
        key = (o["source"], o["preset"])
        if key in ref:
            continue
        own = [x for x in rows if (x["source"], x["preset"]) == key]
        head = [x for x in own if x["gpu"] == HEADLINE]
        if head:
            ref[key] = head[0]
            continue
        gpu = min((g for s, g in count if s == o["source"]), key=lambda g: (-count[(o["source"], g)], g))
        ref[key] = next((x for x in own if x["gpu"] == gpu), None)
    return {id(o): (None if ref[(o["source"], o["preset"])] is o else ref[(o["source"], o["preset"])])
            for o in rows}


def relative_summary(errs):
    """|e_rel| of rule Z: median and max only (the app's ranges are absolute, so no coverage)."""
    if not errs:
        return {"n": 0, "median": None, "max": None}
    ab = [abs(e) for e in errs]
    return {"n": len(errs), "median": round(statistics.median(ab), 4), "max": round(max(ab), 4)}


def fmt_relative(s):
    return "n = 0" if not s["n"] else "%d: %.3f / %.3f" % (s["n"], s["median"], s["max"])


def summary(errs):
    if not errs:
        return {"n": 0, "median": None, "max": None, "coverage": None}
    ab = [abs(e) for e, _ in errs]
    return {"n": len(errs), "median": round(statistics.median(ab), 4), "max": round(max(ab), 4),
            "coverage": round(sum(1 for _, i in errs if i) / len(errs), 4)}


def fmt(s):
    if not s["n"]:
        return "n = 0"
    return "%d: %.3f / %.3f, %.0f %%" % (s["n"], s["median"], s["max"], 100 * s["coverage"])


def default_bytes_per_flop(presets, traffic=1.0):
    """Bytes per FLOP of a custom workload given without its bytes per sample, per class (PROJECTION.md 3.9).

    The presets' own definitions (resources/workloads.json) times the typical stack's traffic factor (a number,
    or per class: {class: m}, "unknown" included): a class's
    figure is the median of its presets' bytes / FLOPs per sample; a class without a preset and the unknown
    class take the median of every preset. Rounded to 4 significant digits as shipped."""
    ratios = {}
    for w in presets:
        if float(w.get("flops_per_sample", 0)) > 0 and float(w.get("bytes_per_sample", 0)) > 0:
            ratios.setdefault(w.get("class", "unknown"), []).append(
                float(w["bytes_per_sample"]) / float(w["flops_per_sample"]))
    pooled = statistics.median([x for v in ratios.values() for x in v])
    out = {c: statistics.median(ratios[c]) if c in ratios else pooled for c in CLASSES}
    out["unknown"] = pooled
    if VARIANT == "compute-bound":
        out = {c: 0.0 for c in out}
    return {c: float("%.4g" % (v * traffic_of(traffic, c))) for c, v in out.items()}


def fit_bytes_per_flop(bpf, traffic):
    """default_bytes_per_flop at the fit's traffic factors, from load_data's {m: default_bytes_per_flop(m)}."""
    return {c: bpf[traffic_of(traffic, c)][c] for c in bpf[TRAFFIC_GRID[0]]}


def traffic_text(traffic):
    """The traffic factors as printed: one number when every class has the same."""
    if len(set(traffic.values())) == 1:
        return "%g" % traffic["unknown"]
    return "(" + ", ".join(f"{c} {traffic[c]:g}" for c in CLASSES + ("unknown",)) + ")"


def traffic_json(traffic):
    """typical_traffic_factor as shipped: {class: m}; "unknown" is the common m (PROJECTION.md 3.12)."""
    return {c: traffic[c] for c in CLASSES + ("unknown",)}


def measured_year(text):
    """The latest year (19xx/20xx) named in a row's `measured` field: "a568104 (2022-07-01; runs 2020-2022)"
    -> 2022, "2024-01-09 (the RTX 4090 column added ...)" -> 2024 (build_transfer_rows.py writes it per row)."""
    import re
    years = [int(y) for y in re.findall(r"\b(?:19|20)\d\d\b", text)]
    if not years:
        raise SystemExit("transfer_rows.csv: no year in measured \"%s\"" % text)
    return max(years)


def transfer_figures(rows):
    """transfer_rows.csv's rows -> ({workload: {gpu: samples/s}}, {workload: source}, {(workload, gpu): year}).

    A workload's figures are of one source (the source of its pairs: its own leave-one-source-out fold); each
    figure keeps the year it was measured (the time split fits on figures measured up to 2022 only)."""
    figures, source_of, year_of = collections.defaultdict(dict), {}, {}
    for r in rows:
        figures[r["workload"]][r["gpu_id"]] = float(r["samples_per_s"])
        if source_of.setdefault(r["workload"], r["source_id"]) != r["source_id"]:
            raise SystemExit("transfer_rows.csv: %s has figures of two sources" % r["workload"])
        year_of[(r["workload"], r["gpu_id"])] = measured_year(r["measured"])
    return figures, source_of, year_of


def load_data(cli):
    arch = {r["id"]: r["arch"] for r in read_csv(ARCH_CSV)}
    preset_of = read_presets()
    presets = list(preset_of.values())
    preset_class = {i: w.get("class", "unknown") for i, w in preset_of.items()}
    bpf = {m: default_bytes_per_flop(presets, m) for m in TRAFFIC_GRID}
    proj = Projector(cli)
    rows, excluded, flops = [], [], {}
    for r in read_csv(ROWS):
        key = (r["source_id"], r["preset_id"], r["gpu_id"])
        if r["use"] != "1":
            excluded.append((key, r["exclude_reason"]))
            continue
        batch = int(r["batch_per_gpu"])
        g = proj.tuned(r["preset_id"], batch).get(r["gpu_id"])
        if not g or not g.get("projected"):
            excluded.append((key, "no projection for this GPU"))
            continue
        if r["preset_id"] not in flops:
            flops[r["preset_id"]] = proj.flops(r["preset_id"], batch)
        rows.append({"source": r["source_id"], "preset": r["preset_id"], "gpu": r["gpu_id"],
                     "arch": arch[r["gpu_id"]], "class": preset_class[r["preset_id"]],
                     "tuned": g["samples_per_s"], "low": g["samples_per_s_low"], "high": g["samples_per_s_high"],
                     "flops": flops[r["preset_id"]], "measured": float(r["samples_per_s"]), "batch": batch})
    workloads = {w["workload"]: w for w in read_csv(os.path.join(BENCH, "transfer_workloads.csv"))}
    transfer_rows = read_csv(os.path.join(BENCH, "transfer_rows.csv"))
    figures, source_of, year_of = transfer_figures(transfer_rows)
    # Each figure's stated batch (0: not stated), for rule Y (PROJECTION.md 3.25): a pair of two stated, different
    # batches is asked at the target's batch, the figure's step a floor there as at its own.
    batch_of = {(r["workload"], r["gpu_id"]): int(r["batch_per_gpu"] or 0) for r in transfer_rows}
    pairs = []
    for wid, w in workloads.items():
        F = float(w["flops_per_sample"])
        # The app's typical stack moves the class's default bytes per FLOP (a tuned-stack custom workload
        # takes its presets' own, rule AC): the tuned projection here is made with that traffic typed (once per
        # distinct bytes per sample: most classes' bytes equal the unknown class's).
        c, cu = {}, {}
        for m in TRAFFIC_GRID:
            for into, cls in ((c, w["class"]), (cu, "unknown")):
                for gid, v in custom_tuned(cli, F, F * bpf[m][cls]).items():
                    into.setdefault(gid, {})[m] = v
        ref = CLASS_REFERENCE.get(w["class"])
        if ref:  # rule I: the reference preset's shape, on every GPU it projects
            for gid, v in reference_shape(cli, preset_of, ref, F).items():
                if gid in c:
                    c[gid] = {m: v for m in TRAFFIC_GRID}
        fig = figures[wid]
        for fr in fig:
            for to in fig:
                if fr == to or fr not in c or to not in c:
                    continue
                pairs.append({"workload": wid, "class": w["class"], "from": fr, "to": to, "arch_from": arch[fr],
                              "arch_to": arch[to], "flops": F, "m_from": fig[fr], "m_to": fig[to],
                              "c_from": c[fr], "c_to": c[to], "cu_from": cu[fr], "cu_to": cu[to],
                              "source": source_of[wid],
                              "b_from": batch_of[(wid, fr)], "b_to": batch_of[(wid, to)],
                              "year": max(year_of[(wid, fr)], year_of[(wid, to)])})
    return rows, pairs, excluded, arch, bpf


def custom_path_errors(cli, rows, pairs, bpf, tiers, typ_custom):
    """The presets' typical rows held out by workload and projected as the app projects a CUSTOM workload of
    their class, their FLOPs per sample and class only (PROJECTION.md 3.18): the class's reference preset's
    shape (rule I; a held-out reference falls back to the class-bytes roofline, its class having no other
    reference), the fold's pooled R_o and class factors. Returns (median, max, share inside the app's range for
    such a workload: the roofline tier and range_custom in quadrature, no new-architecture widening)."""
    presets, errs = read_presets(), []
    rng = combine(tuple(tiers["roofline"]), typ_custom)
    for P in sorted({o["preset"] for o in rows}):
        w = presets[P]
        F, cls = float(w["flops_per_sample"]), w["class"]
        fit = joint_fit([o for o in rows if o["preset"] != P], [p for p in pairs if wid(p["workload"]) != P], True)
        ref = CLASS_REFERENCE.get(cls)
        if ref and ref != P:
            tuned = reference_shape(cli, presets, ref, F)
        else:
            tuned = custom_tuned(cli, F, F * bpf[traffic_of(fit.traffic, cls)][cls], w["precision"])
        for o in rows:
            if o["preset"] == P:
                eta = math.exp(fit.a.get((o["arch"], cls), 0.0))
                errs.append(math.log(typical(tuned[o["gpu"]] * eta, o["flops"], fit.custom(cls)) / o["measured"]))
    ab = [abs(e) for e in errs]
    return statistics.median(ab), max(ab), sum(1 for e in errs if rng[0] <= e <= rng[1]) / len(errs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True, help="a built gpufrontier-cli")
    ap.add_argument("--shared", help="../shared/data: rebuild typical_stack_rows.csv from it")
    ap.add_argument("--write", action="store_true", help="write typical_stack.json and the validation")
    ap.add_argument("--variant", choices=["double-count", "unweighted", "compute-bound", "presets-traffic",
                                          "mli-fitted", "per-class-traffic", "mli-fitted-per-class-traffic",
                                          "traffic-all-pairs", "traffic-all-pairs-per-class", "unknown-common-traffic",
                                          "unknown-median-factor", "tf-fitted", "no-transformer-rate",
                                          "no-conv-rate", "no-class-shape", "class-shape-conv",
                                          "uncapped-user-overhead", "user-overhead-2x", "user-overhead-4x",
                                          "step-overhead-add", "step-floor-max", "far-from-model-range"],
                    help="a rejected variant of the joint fit, printed for comparison (not with --write)")
    a = ap.parse_args()
    if a.variant and a.write:
        ap.error("--variant is printed only: it cannot be written")
    global STEP_S, STEP_MODE, USER_OVERHEAD_CAP, VARIANT, TRAFFIC_GRID, PER_CLASS, TRAFFIC_ON_ALL_PAIRS, UNKNOWN_OWN_TRAFFIC, UNKNOWN_MEDIAN_FACTOR
    global CUSTOM_RATE_CLASSES, CLASS_REFERENCE
    VARIANT = a.variant or ""
    if VARIANT == "no-class-shape":
        CLASS_REFERENCE = {}
    if VARIANT == "class-shape-conv":
        CLASS_REFERENCE = {"convolutional": "resnet50"}
    if VARIANT == "tf-fitted":
        UNFITTED_SOURCES.discard("LAMBDA-TF-2021")
    if VARIANT in ("step-overhead-add", "step-floor-max"):
        STEP_MODE = "add" if VARIANT == "step-overhead-add" else "max"
        STEP_S = STEP_S_P4A if VARIANT == "step-overhead-add" else STEP_S_P4B
    if VARIANT == "no-transformer-rate":
        CUSTOM_RATE_CLASSES = ("convolutional",)
    if VARIANT == "uncapped-user-overhead":
        USER_OVERHEAD_CAP = math.inf
    if VARIANT in ("user-overhead-2x", "user-overhead-4x"):
        USER_OVERHEAD_CAP = float(VARIANT[len("user-overhead-")])
    if VARIANT == "no-conv-rate":
        CUSTOM_RATE_CLASSES = ()
    if VARIANT.startswith("mli-fitted"):
        UNFITTED_SOURCES.discard("MLI-TFMR-2024")
    if VARIANT.endswith("per-class-traffic") or VARIANT == "traffic-all-pairs-per-class":
        PER_CLASS = True
    if VARIANT.startswith("traffic-all-pairs"):
        TRAFFIC_ON_ALL_PAIRS = True
    if VARIANT == "unknown-common-traffic":
        UNKNOWN_OWN_TRAFFIC = False
    if VARIANT == "unknown-median-factor":
        UNKNOWN_MEDIAN_FACTOR = True
    if VARIANT in ("compute-bound", "presets-traffic"):
        TRAFFIC_GRID = (1.0,)

    if a.shared:
        srows = rows_from_shared(a.shared)
        with open(ROWS, "w", newline="", encoding="utf-8") as f:
            f.write("# Measurements of code run the way most users run it (typical software stack), used by\n"
                    "# resources/tools/fit_typical_stack.py. Rebuilt with --shared; per-GPU samples/s, 1 GPU.\n")
            w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
            w.writeheader()
            w.writerows(srows)
    rows, pairs, excluded, arch, bpf = load_data(a.cli)
    apart = [p for p in pairs if p["source"] in APART_SOURCES]
    pairs = [p for p in pairs if p["source"] not in APART_SOURCES]
    with open(MODEL_JSON, encoding="utf-8") as f:
        tiers = json.load(f)["tier_ranges"]
    sources = sorted({o["source"] for o in rows})
    # Leave one source out holds out each source of rows or pairs (MLI-TFMR-2024 has pairs only).
    fold_sources = sorted(set(sources) | {p["source"] for p in pairs})

    # 1. The conversion's own range (as before: leave one source out over the rows), before and after.
    loso_folds = []

    def loso_rows(use_eta):
        held = []
        for s in fold_sources:
            fit = joint_fit([o for o in rows if o["source"] != s], [p for p in pairs if p["source"] != s], use_eta)
            if use_eta:
                loso_folds.append((s, fit))
            held += [(o, math.log(row_speed(o, fit, use_eta) / o["measured"])) for o in rows if o["source"] == s]
        return held
    held_before, held_after = loso_rows(False), loso_rows(True)
    typ_before = (percentile([e for _, e in held_before], 0.1), percentile([e for _, e in held_before], 0.9))
    typ_after = (percentile([e for _, e in held_after], 0.1), percentile([e for _, e in held_after], 0.9))

    full = joint_fit(rows, pairs, True)
    full_before = joint_fit(rows, pairs, False)
    neg = [-v for v in full.a.values()]
    unknown_range = (min(0.0, percentile(neg, 0.1)), max(0.0, percentile(neg, 0.9)))

    # 2. Leave one architecture out: the range of an architecture without a measurement.
    archs = sorted({o["arch"] for o in rows} | {p["arch_to"] for p in pairs})
    # Each kind of projection gets the spread of its own held-out errors (section 3.10): a preset or custom
    # workload projected from the shipped data (the rows), and a user's figure carried to a GPU of the
    # architecture (the pairs). Pooled, the ~1,700 pair errors set the presets' range.
    loao_folds, loao_row_errs, loao_pair_errs = [], [], []
    for A in archs:
        fit = joint_fit([o for o in rows if o["arch"] != A],
                        [p for p in pairs if A not in (p["arch_to"], p["arch_from"])], True)
        loao_folds.append((A, fit))
        loao_pair_errs += [math.log(pair_speed(p, fit) / p["m_to"]) for p in pairs
                           if p["arch_to"] == A and p["arch_from"] != A]
        loao_row_errs += [math.log(row_speed(o, fit) / o["measured"]) for o in rows if o["arch"] == A]
    new_arch_range = (percentile(loao_row_errs, 0.1), percentile(loao_row_errs, 0.9))
    new_arch_range_transfer = (percentile(loao_pair_errs, 0.1), percentile(loao_pair_errs, 0.9))

    # 2b. A custom workload has no rows of its own and takes the pooled R_o: leave one workload out is that
    # situation for the held-out preset, so its conversion range comes from those row errors (section 3.10).
    lowo_row_errs = []
    for w in sorted({o["preset"] for o in rows}):
        # The same training lists as the leave-one-workload-out split below: its fits are this pass's (memo).
        fit = joint_fit([o for o in rows if o["preset"] != w], [p for p in pairs if wid(p["workload"]) != w], True)
        lowo_row_errs += [math.log(row_speed(o, fit) / o["measured"]) for o in rows if o["preset"] == w]
    typ_custom = (percentile(lowo_row_errs, 0.1), percentile(lowo_row_errs, 0.9))
    custom_path = custom_path_errors(a.cli, rows, pairs, bpf, tiers, typ_custom)

    # The ranges as shipped (4 decimals), so that a figure at a range's edge is scored as the app scores it.
    def shipped(r):
        return tuple(round(v, 4) for v in r)
    typ_after, typ_custom, unknown_range = shipped(typ_after), shipped(typ_custom), shipped(unknown_range)
    new_arch_range, new_arch_range_transfer = shipped(new_arch_range), shipped(new_arch_range_transfer)
    sc = Scorer(tiers, typ_after, unknown_range, new_arch_range, new_arch_range_transfer)
    sc.typ_before, sc.typ_custom = shipped(typ_before), typ_custom

    # 2c. Rule AD (section 3.30): a figure carried across a batch change of BATCH_CHANGE_MIN_RATIO or more takes the
    # p10/p90 of such pairs' leave-one-workload-out errors (the same folds as 2b and the split below: memo). The
    # errors do not depend on this range, which is applied after every rule that reads the range.
    batch_change_errs = []
    for w in sorted({o["preset"] for o in rows} | {wid(p["workload"]) for p in pairs}):
        held = [p for p in pairs if wid(p["workload"]) == w and batch_change_far(p)]
        if held:
            fit = joint_fit([o for o in rows if o["preset"] != w], [p for p in pairs if wid(p["workload"]) != w], True)
            batch_change_errs += [sc.pair(p, fit, True)[0] for p in held]
    batch_change_range = shipped((percentile(batch_change_errs, 0.1), percentile(batch_change_errs, 0.9)))
    sc.batch_change = batch_change_range

    # 2d. Rule AF (section 3.30, rejected; printed with --variant far-from-model-range): a figure FAR_FROM_MODEL_RATIO
    # or more times from the model's projection for its own GPU (in its fold) took the p10/p90 of such pairs'
    # leave-one-workload-out errors, applied last, as AD.
    far_errs = []
    if VARIANT == "far-from-model-range":
        for w in sorted({o["preset"] for o in rows} | {wid(p["workload"]) for p in pairs}):
            held = [p for p in pairs if wid(p["workload"]) == w]
            if held:
                fit = joint_fit([o for o in rows if o["preset"] != w], [p for p in pairs if wid(p["workload"]) != w],
                                True)
                far_errs += [sc.pair(p, fit, True)[0] for p in held if far_from_model(model_ratio(p, fit))]
        sc.far_from_model = shipped((percentile(far_errs, 0.1), percentile(far_errs, 0.9)))

    # 3. Every split, before (R_o only) and after (joint fit with the class factors).
    def split(name, folds):
        """folds: [(label, train_rows, train_pairs, test_rows, test_pairs)]"""
        res = {}
        for label in ("before", "after"):
            use = label == "after"
            P, PH, R, U, UH, Z = [], [], [], [], [], []
            for _, tr, tp, xr, xp in folds:
                fit = joint_fit(tr, tp, use)
                # Rule Z: the held-out row's error relative to its reference row, both with this fold's fit.
                Z += [math.log(row_speed(o, fit, use) / o["measured"])
                      - math.log(row_speed(refs[id(o)], fit, use) / refs[id(o)]["measured"])
                      for o in xr if refs[id(o)] is not None]
                for p in xp:
                    e = sc.pair(p, fit, use)
                    P.append(e)
                    if p["from"] == HEADLINE:
                        PH.append(e)
                    if use:
                        U.append(sc.pair(p, fit, True, as_unknown=True))
                        if p["from"] == HEADLINE:
                            UH.append(U[-1])
                R += [sc.row(o, fit, use) for o in xr]
            res[label] = {"pairs": summary(P), "pairs_from_headline": summary(PH), "rows": summary(R),
                          "rows_relative": relative_summary(Z)}
            if use:
                res["after_unknown_class"] = {"pairs": summary(U), "pairs_from_headline": summary(UH)}
        return name, res

    refs = reference_rows(rows)
    wl = sorted({wid(p["workload"]) for p in pairs} | {o["preset"] for o in rows})
    splits = []
    splits.append(split("leave one workload out", [
        (w, [o for o in rows if o["preset"] != w], [p for p in pairs if wid(p["workload"]) != w],
         [o for o in rows if o["preset"] == w], [p for p in pairs if wid(p["workload"]) == w]) for w in wl]))
    gl = sorted({o["gpu"] for o in rows} | {p["to"] for p in pairs})
    splits.append(split("leave one GPU out", [
        (g, [o for o in rows if o["gpu"] != g], [p for p in pairs if g not in (p["to"], p["from"])],
         [o for o in rows if o["gpu"] == g], [p for p in pairs if p["to"] == g]) for g in gl]))
    splits.append(split("leave one source out", [
        (s, [o for o in rows if o["source"] != s], [p for p in pairs if p["source"] != s],
         [o for o in rows if o["source"] == s], [p for p in pairs if p["source"] == s]) for s in fold_sources]))
    # The time split also carries the figures measured after 2022 across (the RTX 4090's one-layer figures of
    # 2024: a GPU released later, as item 4 of issue 22 asks), from a fit on the figures up to 2022.
    splits.append(split("time split (fit on 2020-2022, project the 2026 runs and the 2024 figures)", [
        ("2026", [o for o in rows if o["source"] != "GF-MEASURE-2611"], [p for p in pairs if p["year"] <= 2022],
         [o for o in rows if o["source"] == "GF-MEASURE-2611"], [p for p in pairs if p["year"] > 2022])]))
    splits.append(split("leave one architecture out", [
        (A, [o for o in rows if o["arch"] != A], [p for p in pairs if A not in (p["arch_to"], p["arch_from"])],
         [o for o in rows if o["arch"] == A], [p for p in pairs if p["arch_to"] == A and p["arch_from"] != A])
        for A in archs]))
    # In sample (every figure fitted), as `gpufrontier-cli validate` prints the user-figure pairs.
    insample = split("in sample (all data)", [("all", rows, pairs, rows, pairs)])

    lines = ["# Typical-stack conversion and class factors: fit and held-out validation", "",
             "Written by `resources/tools/fit_typical_stack.py --write` (PROJECTION.md sections 3.6 and 3.8).", "",
             "## Fitted constants (all data)", "",
             "R_o in TFLOP/s (larger = less overhead), before (R_o alone) and after (fitted jointly with the class "
             "factors):", "", "| preset | rows | R_o before | R_o after |", "|---|---|---|---|"]
    for p in sorted(full.rates):
        lines.append(f"| {p} | {sum(1 for o in rows if o['preset'] == p)} | {full_before.rates[p]:.1f} | "
                     f"{full.rates[p]:.1f} |")
    lines.append(f"| custom workloads (pooled) | {len(rows)} | {full_before.pooled:.1f} | {full.pooled:.1f} |")
    for c in sorted(full.class_pooled):
        lines.append(f"| custom {c} workloads (its presets' rows pooled, rules H3/M) | "
                     f"{sum(1 for o in rows if o['class'] == c)} | {full_before.class_pooled.get(c, 0):.1f} | "
                     f"{full.class_pooled[c]:.1f} |")
    lines += ["", f"ln eta per architecture and class (ridge {RIDGE:.0f} rows toward 0; pairs weighted 1/(n-1)):",
              "", "| architecture | " + " | ".join(CLASSES) + " |", "|---|" + "---|" * len(CLASSES)]
    for A in archs:
        cells = [("%+.3f" % full.a[(A, c)]) if (A, c) in full.a else "-" for c in CLASSES]
        lines.append(f"| {A} | " + " | ".join(cells) + " |")
    lines += ["", f"Traffic factor of a custom workload without its bytes (section 3.9; chosen among "
              f"{', '.join('%g' % m for m in TRAFFIC_GRID)}): {traffic_text(full.traffic)}, so bytes per FLOP "
              + ", ".join(f"{c} {v:g}" for c, v in fit_bytes_per_flop(bpf, full.traffic).items())
              + "; in the leave-one-source-out folds "
              + ", ".join(f"{S} {traffic_text(f.traffic)}" for S, f in loso_folds) + "; leave one architecture out "
              + ", ".join(f"{A} {traffic_text(f.traffic)}" for A, f in loao_folds) + "."]
    lines += ["",
              f"Conversion range (p10, p90 of the leave-one-source-out row errors): before {typ_before[0]:+.3f}, "
              f"{typ_before[1]:+.3f}; after {typ_after[0]:+.3f}, {typ_after[1]:+.3f}. A custom workload's (pooled "
              f"R_o; p10, p90 of the leave-one-workload-out row errors, n = {len(lowo_row_errs)}): "
              f"{typ_custom[0]:+.3f}, {typ_custom[1]:+.3f}. The same rows held out and projected as the app "
              f"projects a custom workload of their class (FLOPs and class only: the class's reference preset's "
              f"shape, the roofline for a held-out reference; section 3.18): median {custom_path[0]:.3f}, max "
              f"{custom_path[1]:.3f}, {custom_path[2]:.0%} inside the range of such a workload (roofline tier and "
              f"the custom range in quadrature).",
              f"Unknown class (p10, p90 of -ln eta over the fitted factors, added in quadrature): "
              f"{unknown_range[0]:+.3f}, {unknown_range[1]:+.3f}.",
              f"No measurement of the architecture (the point's range is the wider of it and its own on each "
              f"side): a preset or custom workload, p10, p90 of the leave-one-architecture-out row errors (n = "
              f"{len(loao_row_errs)}): {new_arch_range[0]:+.3f}, {new_arch_range[1]:+.3f}; a user's figure "
              f"carried across, of the pair errors (n = {len(loao_pair_errs)}): {new_arch_range_transfer[0]:+.3f}, "
              f"{new_arch_range_transfer[1]:+.3f}.",
              f"A user's figure carried to a batch {BATCH_CHANGE_MIN_RATIO:g}x or more from its own (rule AD, section "
              f"3.30; the range is the wider of it and its own on each side): p10, p90 of such pairs' "
              f"leave-one-workload-out errors (n = {len(batch_change_errs)}): {batch_change_range[0]:+.3f}, "
              f"{batch_change_range[1]:+.3f}."
              + (f" Variant (rule AF, rejected): a user's figure {FAR_FROM_MODEL_RATIO:g}x or more below or above "
                 f"what the model projects for its own GPU takes the p10, p90 of such pairs' leave-one-workload-out "
                 f"errors (n = {len(far_errs)}): {sc.far_from_model[0]:+.3f}, {sc.far_from_model[1]:+.3f}."
                 if sc.far_from_model else ""), "",
              "## Held-out splits: median / max |ln(projected / measured)|, share inside the app's p10-p90 range",
              "",
              "Pairs: a figure of transfer_rows.csv (Lambda's PyTorch suite; MLI-TFMR-2024 and LAMBDA-TF-2021, scored, "
              "never fitted) taken as the user's and carried to "
              "another GPU of the workload (`validate`'s "
              "user transfer); rows: a typical-stack row projected from the shipped tuned data. Before: R_o "
              "refitted in the fold, no class factor; after: R_o and the class factors refitted jointly in the "
              "fold. Coverage uses the shipped ranges of each variant (pooled from these errors: not held out).", "",
              "| split | before: pairs | from " + HEADLINE + " | rows | after: pairs | from " + HEADLINE
              + " | rows | after, class not given (unknown): pairs | from " + HEADLINE + " |",
              "|---|---|---|---|---|---|---|---|---|"]
    for name, r in splits + [insample]:
        b, af = r["before"], r["after"]
        lines.append(f"| {name} | {fmt(b['pairs'])} | {fmt(b['pairs_from_headline'])} | {fmt(b['rows'])} | "
                     f"{fmt(af['pairs'])} | {fmt(af['pairs_from_headline'])} | {fmt(af['rows'])} | "
                     f"{fmt(r['after_unknown_class']['pairs'])} | "
                     f"{fmt(r['after_unknown_class']['pairs_from_headline'])} |")
    lines += ["", "Rows relative to their source's reference GPU (rule Z, PROJECTION.md 3.26; the issue's presets "
              "figure is a relative speed): |e(row) - e(reference row)|, both projected with the fold's fit, "
              "median / max; the reference GPU is " + HEADLINE + " where the source has it, else the source's "
              "GPU with the most rows (GF-MEASURE-2611: h100-80gb-sxm); no coverage, since the ranges are "
              "absolute.", "", "| split | before: rows, relative | after: rows, relative |", "|---|---|---|"]
    for name, r in splits + [insample]:
        lines.append(f"| {name} | {fmt_relative(r['before']['rows_relative'])} | "
                     f"{fmt_relative(r['after']['rows_relative'])} |")
    lines += ["", "Scored apart, never fitted and in no split or range here: "
              + ", ".join(f"{s} ({sum(1 for p in apart if p['source'] == s)} pairs)" for s in sorted(APART_SOURCES))
              + " (rule V, PROJECTION.md 3.24); `gpufrontier-cli validate` scores them in their own lines."]
    lines += ["", "Left out:", ""]
    for key, why in excluded:
        lines.append(f"- {' / '.join(key)}: {why}")
    text = "\n".join(lines) + "\n"
    print(text)

    def factors_json(fit):
        out = {}
        for (A, c), v in sorted(fit.a.items()):
            out.setdefault(A, {})[c] = round(v, 4)
        return out
    if a.write:
        basis = (f"fitted on {len(rows)} single-GPU measurements of code run as most users run it: "
                 + ", ".join(f"{s} ({SOURCE_YEARS.get(s, '')})" for s in sources)
                 + f", jointly with per-architecture x class efficiency from {len(pairs)} transfer pairs ("
                 + ", ".join(sorted({p["source"] for p in pairs})) + ")")
        doc = {"schema_version": 1, "generated_by": "resources/tools/fit_typical_stack.py --write",
               "formula": "1/speed_typical = 1/(speed_tuned * exp(class_factors[arch][class])) + F/(R_o * 1e12)",
               "overhead_tflops": {p: round(v, 2) for p, v in sorted(full.rates.items())},
               "overhead_tflops_custom": round(full.pooled, 2),
               "overhead_tflops_custom_by_class": dict(sorted(full.class_pooled.items())),
               "class_factors": factors_json(full),
               "range": {"p10": round(typ_after[0], 4), "p90": round(typ_after[1], 4)},
               "range_custom": {"p10": round(typ_custom[0], 4), "p90": round(typ_custom[1], 4)},
               "unknown_class_range": {"p10": round(unknown_range[0], 4), "p90": round(unknown_range[1], 4)},
               "new_architecture_range": {"p10": round(new_arch_range[0], 4), "p90": round(new_arch_range[1], 4)},
               "new_architecture_range_transfer": {"p10": round(new_arch_range_transfer[0], 4),
                                                   "p90": round(new_arch_range_transfer[1], 4)},
               "batch_change_range_transfer": {"p10": batch_change_range[0], "p90": batch_change_range[1],
                                               "min_batch_ratio": BATCH_CHANGE_MIN_RATIO,
                                               "pairs": len(batch_change_errs)},
               "typical_traffic_factor": traffic_json(full.traffic),
               "default_bytes_per_flop": fit_bytes_per_flop(bpf, full.traffic),
               "class_reference_preset": dict(sorted(CLASS_REFERENCE.items())),
               "leave_one_source_out": [
                   {"source": S, "overhead_tflops": {p: round(v, 2) for p, v in sorted(f.rates.items())},
                    "overhead_tflops_custom": round(f.pooled, 2),
                    "overhead_tflops_custom_by_class": dict(sorted(f.class_pooled.items())),
                    "class_factors": factors_json(f),
                    "typical_traffic_factor": traffic_json(f.traffic),
                    "default_bytes_per_flop": fit_bytes_per_flop(bpf, f.traffic)}
                   for S, f in loso_folds],
               "leave_one_architecture_out": [
                   {"architecture": A, "overhead_tflops": {p: round(v, 2) for p, v in sorted(f.rates.items())},
                    "overhead_tflops_custom": round(f.pooled, 2),
                    "overhead_tflops_custom_by_class": dict(sorted(f.class_pooled.items())),
                    "class_factors": factors_json(f),
                    "typical_traffic_factor": traffic_json(f.traffic),
                    "default_bytes_per_flop": fit_bytes_per_flop(bpf, f.traffic)}
                   for A, f in loao_folds],
               "splits": {name: r for name, r in splits + [insample]},
               "basis": basis}
        with open(OUT_JSON, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        with open(OUT_MD, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
