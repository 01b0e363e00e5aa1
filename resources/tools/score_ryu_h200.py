#!/usr/bin/env python3
"""Rule X (PROJECTION.md section 3.25): the eager-PyTorch CNN timings of ryujaehun/pytorch-gpu-benchmark
(RYU-PT-2025, transfer_rows.csv) against the same loop run on an H200 on 2026-11-28
(tests/fixtures/probe/h200-ryu-2026-11-28/runs.csv, with the GPU's busy share from the profiler). Every pair is at
batch 12 and in the same code, on different hosts. Held out: neither file is fitted.

(a) Into the H200, the user's figure typed without a busy share (--measured S --measured-on GPU, the workload's
    FLOPs, class convolutional, --batch 12): the app's projection for the H200 against its figure.
(b) Out of the H200, its figure with its measured busy share (--measured-busy), and without it: the app's
    projection for each RYU GPU against that GPU's figure (rule S3 across GPUs and hosts).
The H200's figure of a model is the geometric mean of its batch-12 runs (7 models were run twice).

Usage: score_ryu_h200.py --cli PATH/gpufrontier-cli [--repo DIR] [--rows]
"""
import argparse
import collections
import csv
import json
import math
import os
import statistics
import subprocess
import sys

H200 = "h200-141gb-sxm"
FIXTURE = os.path.join("tests", "fixtures", "probe", "h200-ryu-2026-11-28", "runs.csv")
HEAVY_FLOPS = 24e9  # SpeedModel's kApartHeavyFlopsPerSample: ResNet-50 and above


def data_lines(path):
    return (line for line in open(path) if not line.startswith("#"))


def flops_of(repo):
    """FLOPs per sample of each *-pt-eager workload, by torchvision model name."""
    out = {}
    for r in csv.reader(data_lines(os.path.join(repo, "resources", "benchmarks", "transfer_workloads.csv"))):
        if r and r[0].endswith("-pt-eager"):
            out[r[0][: -len("-pt-eager")]] = float(r[3])
    return out


def h200_figures(repo):
    """Model -> (images/s: geometric mean of the batch-12 runs, mean busy share, number of runs)."""
    runs = collections.defaultdict(list)
    for r in csv.DictReader(open(os.path.join(repo, FIXTURE))):
        if r["batch"] == "12":
            runs[r["model"]].append((float(r["samples_per_s"]), float(r["gpu_busy_fraction"])))
    return {m: (math.exp(statistics.mean(math.log(s) for s, _ in v)), statistics.mean(b for _, b in v), len(v))
            for m, v in runs.items()}


def ryu_rows(repo):
    return [r for r in csv.DictReader(data_lines(os.path.join(repo, "resources", "benchmarks", "transfer_rows.csv")))
            if r["source_id"] == "RYU-PT-2025"]


class Cli:
    def __init__(self, path):
        self.path, self.cache = path, {}

    def gpus(self, flops, figure=None, on=None, busy_pct=None):
        key = (flops, figure, on, busy_pct)
        if key not in self.cache:
            args = [self.path, "gpus", "--flops-per-sample", repr(flops), "--batch", "12", "--samples", "1000",
                    "--workload-class", "convolutional", "--format", "json"]
            if figure:
                args += ["--measured", repr(figure), "--measured-on", on]
            if busy_pct is not None:
                args += ["--measured-busy", "%.4f" % busy_pct]
            run = subprocess.run(args, capture_output=True, text=True)
            if run.returncode:
                raise SystemExit("%s: %s" % (" ".join(args), run.stderr.strip()))
            self.cache[key] = {g["id"]: g for g in json.loads(run.stdout)["gpus"]}
        return self.cache[key]


def scored(g, truth):
    """(ln(projected / measured), whether the p10-p90 range holds the measured figure)."""
    return (math.log(g["samples_per_s"] / truth),
            g["samples_per_s_low"] <= truth <= g["samples_per_s_high"])


def score(repo, cli):
    """{"a": {group: [(error, inside, row)]}, "b_busy": ..., "b_none": ...}; groups: all, heavy, light, each RYU
    GPU. Each (a) row also carries the figure's ratio to the model on its own GPU and the H200's point."""
    flops, h200 = flops_of(repo), h200_figures(repo)
    out = {k: collections.defaultdict(list) for k in ("a", "b_busy", "b_none")}
    for r in ryu_rows(repo):
        model = r["workload"][: -len("-pt-eager")]
        if model not in h200:
            continue
        f, fig, gpu = flops[model], float(r["samples_per_s"]), r["gpu_id"]
        h, busy, _ = h200[model]
        groups = ("all", "heavy" if f >= HEAVY_FLOPS else "light", gpu)
        own = cli.gpus(f)[gpu]["samples_per_s"]
        into = cli.gpus(f, fig, gpu)[H200]
        e, inside = scored(into, h)
        row = {"model": model, "gpu": gpu, "figure": fig, "h200": h, "ratio": fig / own,
               "projected": into["samples_per_s"]}
        for k in groups:
            out["a"][k].append((e, inside, row))
        for key, pct in (("b_busy", 100 * busy), ("b_none", None)):
            e, inside = scored(cli.gpus(f, h, H200, pct)[gpu], fig)
            for k in groups:
                out[key][k].append((e, inside, {"model": model, "gpu": gpu}))
    return out


def summary(v):
    a = [abs(e) for e, _, _ in v]
    return {"n": len(v), "median": statistics.median(a), "max": max(a),
            "signed": statistics.median(e for e, _, _ in v), "coverage": sum(1 for _, i, _ in v if i) / len(v)}


def fmt(s):
    return "%3d: %.3f / %.3f, %3.0f %% (signed median %+.3f)" % (s["n"], s["median"], s["max"],
                                                                100 * s["coverage"], s["signed"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--rows", action="store_true", help="print every (a) pair")
    args = ap.parse_args()
    res = score(args.repo, Cli(args.cli))
    order = ["all", "heavy", "light", "a100-40gb-sxm4", "rtx3090", "rtx4060ti-16gb"]
    print("(a) into the H200, no busy share given: median / max |ln error|, coverage")
    for k in order:
        print("  %-15s %s" % (k, fmt(summary(res["a"][k]))))
    print("(b) out of the H200 with its measured busy share | without it")
    for k in order:
        print("  %-15s %s | %s" % (k, fmt(summary(res["b_busy"][k])), fmt(summary(res["b_none"][k]))))
    if args.rows:
        for e, inside, r in sorted(res["a"]["all"], key=lambda x: (x[2]["gpu"], x[2]["model"])):
            print("  %-20s %-15s figure %7.1f  ratio %.3f  H200 %7.1f  projected %8.1f  %+.3f %s" % (
                r["model"], r["gpu"], r["figure"], r["ratio"], r["h200"], r["projected"], e, "in" if inside else "out"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
