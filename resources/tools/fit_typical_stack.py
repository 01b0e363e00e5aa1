#!/usr/bin/env python3
"""Fits the typical-stack conversion of projection model v2 (PROJECTION.md section 3.6).

Most shipped measurements (resources/benchmarks/anchors.csv) come from vendor-tuned code: NVIDIA
DeepLearningExamples with DALI, MLPerf submissions, llm.c. A user's own PyTorch script runs slower, and
by how much depends on the GPU: a per-sample overhead (framework, unfused element-wise kernels, launch
gaps, data loading) that does not shrink on a faster GPU costs a slow card little and the newest ones
most. The conversion is

    1 / speed_typical = 1 / speed_tuned + F / (R_o x 1e12)

with F the workload's FLOPs per sample and R_o (TFLOP/s) fitted per preset on measurements of code run
the way most users run it, and pooled over all presets for custom workloads. speed_tuned is the app's own
projection with `--stack tuned`, so the fit needs a built gpufrontier-cli.

Data (resources/benchmarks/typical_stack_rows.csv, one row per measurement with its source; rebuilt from
../shared/data/benchmarks/extra with --shared):
  - LAMBDA-PYT-V0: Lambda's PyTorch benchmark suite (lambdal/deeplearning-benchmark, runs 2020-2022):
    the same NGC DeepLearningExamples code on every GPU, at the batch that fits the card, 1 GPU, FP16/AMP:
    ResNet-50 and BERT-large SQuAD, the two of its workloads that are presets.
  - GF-MEASURE-2611: GPU Frontier's own eager PyTorch 2.11 runs of every preset on one H100 and one H200
    (resources/launch/gf_measure.py; training_throughput.csv rows with that source).

Validation (printed, and written to resources/benchmarks/typical_stack_validation.md with --write):
  - time split = leave one source out: fit on the 2020-2022 Lambda runs only, project the 2026 runs; and
    the other way round. The per-preset R_o of a preset without data in the training fold is the pooled one.
  - |ln(projected / measured)| absolute, and relative to a reference GPU of the same source (the speed
    ratios that choose between offers), before (tuned stack) and after (typical stack).
  - The range: p10/p90 of the held-out log errors of both folds, added to the tier's range in the app;
    coverage of the tier range before and of the widened range after, on the held-out rows.

Usage: fit_typical_stack.py --cli build/dev/app/gpufrontier-cli [--shared ../shared/data] [--write]
"""
import argparse
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
SOURCE_YEARS = {"LAMBDA-PYT-V0": "2020-2022", "GF-MEASURE-2611": "2026"}
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


class Projector:
    def __init__(self, cli):
        self.cli = cli

    @functools.lru_cache(maxsize=None)
    def tuned(self, preset, batch):
        args = [self.cli, "gpus", "--workload", preset, "--batch", str(batch), "--stack", "tuned",
                "--no-measurements", "--no-calibration", "--format", "json"]
        out = subprocess.run(args, capture_output=True, text=True, check=True)
        return {g["id"]: g for g in json.loads(out.stdout)["gpus"]}

    def flops(self, preset, batch):
        out = subprocess.run([self.cli, "workloads", "--format", "json"], capture_output=True, text=True,
                             check=True)
        for w in json.loads(out.stdout):
            if w["id"] == preset:
                return float(w["flops_per_sample"])
        raise KeyError(preset)


def typical(p, flops, rate):
    return 1.0 / (1.0 / p + flops / (rate * 1e12))


def fit_rate(obs):
    """R_o minimising the squared log errors of obs [(tuned, flops, measured)], on [10, 1e5] TFLOP/s."""
    if not obs:
        return None
    def sse(x):
        r = math.exp(x)
        return sum((math.log(typical(p, f, r) / m)) ** 2 for p, f, m in obs)
    lo, hi = math.log(10.0), math.log(1e5)
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(200):
        if sse(a) < sse(b):
            hi = b
        else:
            lo = a
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    return math.exp((lo + hi) / 2)


def combine(a, b):
    """Two independent error ranges: each side added in quadrature (LogRange::combined)."""
    return (-math.hypot(min(0.0, a[0]), min(0.0, b[0])), math.hypot(max(0.0, a[1]), max(0.0, b[1])))


def percentile(xs, q):
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    i = int(math.floor(k))
    j = min(i + 1, len(xs) - 1)
    return xs[i] + (xs[j] - xs[i]) * (k - i)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True, help="a built gpufrontier-cli")
    ap.add_argument("--shared", help="../shared/data: rebuild typical_stack_rows.csv from it")
    ap.add_argument("--write", action="store_true", help="write typical_stack.json and the validation")
    a = ap.parse_args()

    if a.shared:
        rows = rows_from_shared(a.shared)
        with open(ROWS, "w", newline="", encoding="utf-8") as f:
            f.write("# Measurements of code run the way most users run it (typical software stack), used by\n"
                    "# resources/tools/fit_typical_stack.py. Rebuilt with --shared; per-GPU samples/s, 1 GPU.\n")
            w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    rows = read_csv(ROWS)
    proj = Projector(a.cli)
    flops = {}
    obs = []  # dicts with source, preset, gpu, tuned, low, high, flops, measured
    excluded = []
    for r in rows:
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
        obs.append({"source": r["source_id"], "preset": r["preset_id"], "gpu": r["gpu_id"],
                    "tuned": g["samples_per_s"], "low": g["samples_per_s_low"], "high": g["samples_per_s_high"],
                    "flops": flops[r["preset_id"]], "measured": float(r["samples_per_s"])})

    def fit(subset):
        by = {}
        for o in subset:
            by.setdefault(o["preset"], []).append((o["tuned"], o["flops"], o["measured"]))
        rates = {p: fit_rate(v) for p, v in by.items()}
        pooled = fit_rate([x for v in by.values() for x in v])
        return rates, pooled

    rates, pooled = fit(obs)
    sources = sorted({o["source"] for o in obs})
    held = []  # (obs, projected typical) out of sample
    for s in sources:
        r_train, p_train = fit([o for o in obs if o["source"] != s])
        for o in obs:
            if o["source"] == s:
                rate = r_train.get(o["preset"]) or p_train
                held.append((o, typical(o["tuned"], o["flops"], rate), rate))
    errs_after = [math.log(p / o["measured"]) for o, p, _ in held]
    rng = (percentile(errs_after, 0.10), percentile(errs_after, 0.90))

    def relative(which):
        out = []
        for s in sources:
            ref = REFERENCE_GPU[s]
            for preset in sorted({o["preset"] for o, _, _ in held if o["source"] == s}):
                group = [(o, p) for o, p, _ in held if o["source"] == s and o["preset"] == preset]
                base = [x for x in group if x[0]["gpu"] == ref]
                if not base:
                    continue
                bo, bp = base[0]
                for o, p in group:
                    if o is bo:
                        continue
                    val = (o["tuned"] / bo["tuned"]) if which == "before" else (p / bp)
                    out.append(abs(math.log(val / (o["measured"] / bo["measured"]))))
        return out

    def cover(which):
        n = 0
        for o, p, _ in held:
            if which == "before":
                lo, hi = o["low"], o["high"]
            else:
                # the tier's range combined with the conversion's like the app does (LogRange::combined)
                t10 = math.log(o["tuned"] / o["high"])
                t90 = math.log(o["tuned"] / o["low"])
                w10, w90 = combine((t10, t90), rng)
                lo = p * math.exp(-w90)
                hi = p * math.exp(-w10)
            n += lo <= o["measured"] <= hi
        return n / len(held)

    abs_before = [abs(math.log(o["tuned"] / o["measured"])) for o, _, _ in held]
    abs_after = [abs(e) for e in errs_after]
    rel_b, rel_a = relative("before"), relative("after")
    lines = []
    lines.append("# Typical-stack conversion: fit and held-out validation")
    lines.append("")
    lines.append("Written by `resources/tools/fit_typical_stack.py --write` (PROJECTION.md section 3.6).")
    lines.append("")
    lines.append("## Fitted R_o (TFLOP/s; larger = less overhead), all data")
    lines.append("")
    lines.append("| preset | R_o | rows |")
    lines.append("|---|---|---|")
    for p in sorted(rates):
        lines.append(f"| {p} | {rates[p]:.1f} | {sum(1 for o in obs if o['preset'] == p)} |")
    lines.append(f"| custom workloads (pooled) | {pooled:.1f} | {len(obs)} |")
    lines.append("")
    lines.append("## Held out: leave one source out (= a time split: 2020-2022 runs vs 2026 runs)")
    lines.append("")
    lines.append("| | n | median | max |")
    lines.append("|---|---|---|---|")
    lines.append(f"| absolute, tuned stack (before) | {len(abs_before)} | {statistics.median(abs_before):.3f} | {max(abs_before):.3f} |")
    lines.append(f"| absolute, typical stack (after) | {len(abs_after)} | {statistics.median(abs_after):.3f} | {max(abs_after):.3f} |")
    lines.append(f"| relative to the source's reference GPU, before | {len(rel_b)} | {statistics.median(rel_b):.3f} | {max(rel_b):.3f} |")
    lines.append(f"| relative to the source's reference GPU, after | {len(rel_a)} | {statistics.median(rel_a):.3f} | {max(rel_a):.3f} |")
    lines.append("")
    lines.append(f"Range of the conversion (p10, p90 of the held-out log errors): {rng[0]:+.3f}, {rng[1]:+.3f}.")
    lines.append(f"Coverage of the tier's range, before: {cover('before'):.0%}; of the combined range, after: "
                 f"{cover('after'):.0%} (n = {len(held)}).")
    lines.append("")
    lines.append("## Held-out rows")
    lines.append("")
    lines.append("| source | preset | GPU | measured | tuned | typical | R_o used | ln err before | after |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for o, p, rate in held:
        lines.append(f"| {o['source']} | {o['preset']} | {o['gpu']} | {o['measured']:.1f} | {o['tuned']:.1f} | "
                     f"{p:.1f} | {rate:.0f} | {math.log(o['tuned'] / o['measured']):+.3f} | "
                     f"{math.log(p / o['measured']):+.3f} |")
    lines.append("")
    lines.append("Left out:")
    lines.append("")
    for key, why in excluded:
        lines.append(f"- {' / '.join(key)}: {why}")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.write:
        basis = (f"fitted on {len(obs)} single-GPU measurements of code run as most users run it: "
                 + ", ".join(f"{s} ({SOURCE_YEARS.get(s, '')})" for s in sources))
        doc = {"schema_version": 1, "generated_by": "resources/tools/fit_typical_stack.py --write",
               "formula": "1/speed_typical = 1/speed_tuned + F/(R_o * 1e12)",
               "overhead_tflops": {p: round(v, 2) for p, v in sorted(rates.items())},
               "overhead_tflops_custom": round(pooled, 2),
               "range": {"p10": round(rng[0], 4), "p90": round(rng[1], 4)},
               "basis": basis}
        with open(OUT_JSON, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        with open(OUT_MD, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
