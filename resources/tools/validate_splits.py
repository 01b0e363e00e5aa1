#!/usr/bin/env python3
"""Held-out validation of projection model v2 that predicts the future (issue 22, item 4).

Two splits next to fit_projection.py's leave-one-GPU-out, each printing the median and max |log error|
of the transferred relative speed and the coverage of the tier's p10-p90 range:

  time split   fit only on figures measured up to 2022 (SOURCE_YEAR, by source) on GPUs of the
               architectures released by then; project every GPU of a later architecture (Ada, Hopper,
               Blackwell: H100, H200, GH200, B200, L4, L40S, RTX 4090, RTX 6000 Ada, ...) in each
               source-and-stack group from the group's older GPUs, as measured up to 2022. The range is
               the "transferred" p10-p90 of a leave-one-GPU-out run on the training data alone.
  leave one source out
               for each source with two or more GPUs: refit without every row of that source and
               project each of its GPUs from its other GPUs (the same code, the same stack); the range
               is the "transferred" p10-p90 of the fit without the source.

log error = ln(projected / measured). Standard library only; reads what fit_projection.py reads.
Usage (from the repository root):
    python3 resources/tools/validate_splits.py [--markdown FILE]
"""

import argparse
import copy
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_projection as fp  # noqa: E402

CUTOFF_YEAR = 2022
# The year each source's figures were measured (the software they name, else the publication date):
# DLE tables name their NGC container (yy.mm), MLPerf rounds their submission round.
SOURCE_YEAR = {
    "DLE-PYT-RN50": 2021, "DLE-PYT-RN50-2020": 2020, "DLE-PYT-RNXT101": 2021, "DLE-PYT-SERNXT101": 2021,
    "DLE-PYT-EFFNET": 2021, "DLE-TF-RN50": 2020, "DLE-MX-RN50": 2022, "DLE-PD-RN50": 2024,
    "DLE-PYT-BERT": 2021, "DLE-PYT-BERT-2021": 2020, "DLE-TF-BERT": 2020, "TIMM-3090-NCHW": 2022,
    "TIMM-3090-NHWC": 2022, "LLMC-SCRIPTS": 2024, "LLMFOUNDRY-BENCH": 2024, "TORCHTITAN-H100-2412": 2024,
    "TORCHTITAN-H200-2506": 2025, "TORCHTITAN-A100-PERF": 2024, "MBRIDGE-PERF-2511": 2025,
    "VECTORLM-THROUGHPUT": 2024, "CNNBENCH-CLOUD": 2019, "SERVERGEAR-4090": 2023, "SERVERGEAR-3090": 2021,
    "MLPERF-TRAIN-v1.1": 2021, "MLPERF-TRAIN-v2.0": 2022, "MLPERF-TRAIN-v3.1": 2023,
    "MLPERF-TRAIN-v4.0": 2024, "MLPERF-TRAIN-v4.1": 2024, "MLPERF-TRAIN-v5.0": 2025, "GF-MEASURE-2611": 2026,
}
LATER_ARCHS = ("ada", "hopper", "blackwell", "blackwell-gb20x")


def restricted(data, keep_row):
    d = copy.copy(data)
    d.rows = [r for r in data.rows if keep_row(r)]
    return d


def transferred_range(data, obs):
    """p10, p90 of the leave-one-GPU-out transfer errors (mixed precision) on these observations."""
    fits = {}

    def make(train):
        key = tuple(sorted({o["gpu"] for o in train}))
        if key not in fits:
            fits[key] = fp.fit_all(data, train)
        return fits[key]

    errs = [e["logerr"] for e in fp.loo_groups(data, obs, make)]
    return fp.percentile(errs, 10), fp.percentile(errs, 90)


def transfer_errors(model, groups, targets, refs_ok):
    """For each target observation: transfer from the other observations of its group that refs_ok."""
    out = []
    for t in targets:
        refs = [(o["gpu"], o["arch"], o["val"], model.pred(o)) for o in groups.get(t["group"], [])
                if o["gpu"] != t["gpu"] and refs_ok(o)]
        pr = fp.transfer(model, refs, t["gpu"], t["arch"], model.pred(t)) if refs else None
        if pr:
            out.append({"group": t["group"], "gpu": t["gpu"], "measured": t["val"], "projected": pr,
                        "logerr": math.log(pr / t["val"]), "cross": not any(r[1] == t["arch"] for r in refs),
                        "target": t, "refs": [o for o in groups.get(t["group"], [])
                                              if o["gpu"] != t["gpu"] and refs_ok(o)]})
    return out


def summary(label, errs, lo, hi):
    s = fp.stats([e["logerr"] for e in errs])
    if not s:
        return "%-34s no pairs" % label
    inside = sum(1 for e in errs if lo <= e["logerr"] <= hi)
    return "%-34s n=%3d  median|e| %.3f  max|e| %.3f  p10-p90 [%+.3f, %+.3f] holds %3.0f %%" % (
        label, s["n"], s["median"], s["max"], lo, hi, 100.0 * inside / len(errs))


def held_out_splits(data, folds_out=None):
    """The time split and leave-one-source-out errors (each refitted without what it holds out).

    Returns (time_errs, (lo, hi) of the time split's training fit, loso errs, per-source ranges); every
    error carries "cross": True when none of its references is of the target's architecture (the app's
    transferred-cross-arch tier), False otherwise (the transferred tier). fit_projection.py --write pools
    them with its leave-one-GPU-out errors into the shipped tier ranges (issue 22 item 4).

    folds_out: a dict that receives, per split ("time_split", "leave_one_source_out"), a list of folds
    (held-out label, fitted model, (p10, p90) of the fold's own transferred range, errors): what
    fit_projection.py --write ships for `gpufrontier-cli validate`."""
    source_of = {r["row_id"]: r["source_id"] for r in data.rows}
    year_of = lambda r: SOURCE_YEAR.get(r["source_id"], 9999)
    later = {g for g, a in data.arch.items() if a["arch"] in LATER_ARCHS}

    # --- time split ---
    train_data = restricted(data, lambda r: year_of(r) <= CUTOFF_YEAR and r["fit_gpu_id"] not in later)
    train = fp.observations(train_data)
    model = fp.fit_all(train_data, train)
    lo, hi = transferred_range(train_data, train)
    # references: the older GPUs as measured up to 2022; targets: every later GPU, as measured (any year)
    groups = fp.by_group(train)
    targets = [o for o in fp.observations(data) if o["gpu"] in later and precision_ok(o)]
    # a later GPU's group may exist before 2022 only through its older GPUs: same workload, stack, precision
    time_errs = transfer_errors(model, groups, targets, lambda o: True)
    if folds_out is not None:
        folds_out["time_split"] = [("measured up to %d" % CUTOFF_YEAR, model, (lo, hi), time_errs)]
        folds_out["leave_one_source_out"] = []

    # --- leave one source out ---
    all_obs = fp.observations(data)
    by_source = {}
    for o in all_obs:
        by_source.setdefault(source_of[o["row"]], []).append(o)
    loso = []
    ranges = []
    for src, lst in sorted(by_source.items()):
        if len({o["gpu"] for o in lst}) < 2:
            continue
        d = restricted(data, lambda r, s=src: r["source_id"] != s)
        tr = fp.observations(d)
        m = fp.fit_all(d, tr)
        rlo, rhi = transferred_range(d, tr)
        mixed = [o for o in lst if precision_ok(o)]
        errs = transfer_errors(m, fp.by_group(mixed), mixed, lambda o: True)
        for e in errs:
            e["source"] = src
            e["inside"] = rlo <= e["logerr"] <= rhi
        loso += errs
        ranges.append((src, rlo, rhi, len(errs)))
        if folds_out is not None and errs:
            folds_out["leave_one_source_out"].append((src, m, (rlo, rhi), errs))
    return time_errs, (lo, hi), loso, ranges


def shipped_coverage(label, errs):
    """Coverage of the SHIPPED tier ranges (model_v2.json, the pooled held-out errors) on a split."""
    import json
    with open(os.path.join(fp.BENCH, "model_v2.json"), encoding="utf-8") as f:
        tiers = json.load(f)["tier_ranges"]
    inside = 0
    for e in errs:
        lo, hi = tiers["transferred-cross-arch" if e["cross"] else "transferred"]
        inside += lo <= e["logerr"] <= hi
    return "%-34s the shipped tier ranges hold %3.0f %% (n=%d)" % (label, 100.0 * inside / max(1, len(errs)),
                                                                   len(errs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--markdown", help="also write the per-pair tables to this file")
    args = ap.parse_args()
    data = fp.Data()
    lines = []
    time_errs, (lo, hi), loso, ranges = held_out_splits(data)
    print(summary("time split (<= %d -> later archs)" % CUTOFF_YEAR, time_errs, lo, hi))
    print(shipped_coverage("time split (<= %d -> later archs)" % CUTOFF_YEAR, time_errs))
    lines += table("Time split: fit on figures measured up to %d, project %s GPUs" % (
        CUTOFF_YEAR, "/".join(LATER_ARCHS)), time_errs)
    s = fp.stats([e["logerr"] for e in loso])
    inside = sum(1 for e in loso if e["inside"])
    if s:
        print("%-34s n=%3d  median|e| %.3f  max|e| %.3f  each fold's p10-p90 holds %3.0f %%" % (
            "leave one source out", s["n"], s["median"], s["max"], 100.0 * inside / len(loso)))
    for src, rlo, rhi, n in ranges:
        e = [x for x in loso if x["source"] == src]
        st = fp.stats([x["logerr"] for x in e])
        if st:
            print("    %-24s n=%3d  median|e| %.3f  max|e| %.3f" % (src, st["n"], st["median"], st["max"]))
    print(shipped_coverage("leave one source out", loso))
    lines += table("Leave one source out", loso)

    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def precision_ok(o):
    return fp.precision_group(o["prec"]) in ("mixed", "fp8")


def table(title, errs):
    out = ["## " + title, "", "| workload | stack | GPU | measured | projected | log err |", "|---|---|---|---|---|---|"]
    for e in sorted(errs, key=lambda e: (e["group"][1], e["group"][0], e["gpu"])):
        out.append("| %s | %s | %s | %.4g | %.4g | %+.3f |" % (
            e["group"][0], e["group"][1], e["gpu"], e["measured"], e["projected"], e["logerr"]))
    return out + [""]


if __name__ == "__main__":
    main()
