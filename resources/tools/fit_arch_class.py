#!/usr/bin/env python3
"""Experiment (issue 22 item 3): achieved efficiency per GPU architecture and workload class.

The factors the app uses are fitted by fit_typical_stack.py, jointly with the typical stack's R_o (PROJECTION.md
section 3.8); this script is the first experiment (R_o left as it was), kept for its comparison with the
vendor-tuned splits, which is why the factors apply to the typical stack only. Its published figures come
from a gpufrontier-cli without the factors (369f308); with a later one the pairs it reads carry them already.

A factor eta[arch, class] on the model's speed of every GPU of an architecture for workloads of a class
(convolutional, transformer, recurrent-speech, detection; resources/benchmarks/transfer_workloads.csv).
Fitted on Lambda's PyTorch suite as the app carries a user's figure across GPUs: for a pair (user GPU R,
target T) of one workload, the app's log error e = ln(projected / measured) becomes
e + ln eta[arch T, c] - ln eta[arch R, c]. ln eta is fitted by least squares over the training pairs with a
ridge prior (weight RIDGE pairs toward 0, fixed before looking at the results); an architecture without
a pair of the class keeps eta = 1.

Held out, before and after:
  leave one workload out  eta of the class fitted on its other workloads, the workload's pairs scored
                          (a class with one workload gets no factor: unchanged)
  leave one GPU out       eta fitted without any pair of the GPU, the pairs into it scored
  model_v2 splits         eta fitted on every Lambda pair applied to the shipped held-out splits
                          (model_v2.json held_out_splits, vendor-tuned data: ResNet-50 convolutional,
                          BERT/GPT/MPT/Llama transformer) through fit_projection's model with each fold's
                          constants: leave one GPU out, leave one source out and the time split.
Reads `gpufrontier-cli validate --format json` (user_transfer.pairs). Usage (repository root):
    python3 resources/tools/fit_arch_class.py --cli build/dev/app/gpufrontier-cli
"""

import argparse
import collections
import json
import math
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_projection as fp  # noqa: E402

RIDGE = 5.0  # prior weight toward eta = 1, in pairs (chosen before fitting; not tuned)


def fit_eta(pairs, arch):
    """ln eta per (arch, class) minimising sum (e + a_T - a_R)^2 + RIDGE sum a^2 (coordinate descent)."""
    a = collections.defaultdict(float)
    keys = {(arch[p["gpu"]], p["class"]) for p in pairs} | {(arch[p["from"]], p["class"]) for p in pairs}
    for _ in range(60):
        for k in keys:
            num = den = 0.0
            for p in pairs:
                t, r = (arch[p["gpu"]], p["class"]), (arch[p["from"]], p["class"])
                if t == r:
                    continue
                if t == k:
                    num -= p["log_error"] - a[r]
                    den += 1
                elif r == k:
                    num += p["log_error"] + a[t]
                    den += 1
            a[k] = num / (den + RIDGE)
    return dict(a)


def corrected(p, a, arch):
    return p["log_error"] + a.get((arch[p["gpu"]], p["class"]), 0.0) - a.get((arch[p["from"]], p["class"]), 0.0)


def summary(errs_inside):
    if not errs_inside:
        return "n=0"
    errs = [abs(e) for e, _ in errs_inside]
    return "n=%4d median %.3f max %.3f coverage %3.0f %%" % (
        len(errs), statistics.median(errs), max(errs), 100.0 * sum(1 for _, i in errs_inside if i) / len(errs))


def scored(pairs, a, arch):
    before = [(p["log_error"], p["range_p10"] <= p["log_error"] <= p["range_p90"]) for p in pairs]
    after = []
    for p in pairs:
        e = corrected(p, a, arch)
        after.append((e, p["range_p10"] <= e <= p["range_p90"]))
    return before, after


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--pooled", action="store_true", help="variant: one factor per architecture, classes pooled")
    args = ap.parse_args()
    out = subprocess.run([args.cli, "validate", "--format", "json"], capture_output=True, text=True, check=True)
    pairs = json.loads(out.stdout)["user_transfer"]["pairs"]
    if args.pooled:  # variant: one factor per architecture for every class
        for p in pairs:
            p["class"] = "all"
    data = fp.Data()
    arch = {g: r["arch"] for g, r in data.arch.items()}
    headline = "a100-80gb-sxm4"

    print("Lambda pairs, a user's figure carried across GPUs (every GPU as the user's | from %s):" % headline)
    # leave one workload out
    b_all, a_all, b_h, a_h = [], [], [], []
    for w in sorted({p["workload"] for p in pairs}):
        c = next(p["class"] for p in pairs if p["workload"] == w)
        train = [p for p in pairs if p["class"] == c and p["workload"] != w]  # pooled: every other workload
        a = fit_eta(train, arch) if train else {}
        test = [p for p in pairs if p["workload"] == w]
        b, af = scored(test, a, arch)
        b_all += b
        a_all += af
        hb, ha = scored([p for p in test if p["from"] == headline], a, arch)
        b_h += hb
        a_h += ha
        print("  %-28s before %s | after %s" % (w, summary(hb), summary(ha)))
    print("  leave one workload out, all pairs:  before %s | after %s" % (summary(b_all), summary(a_all)))
    print("  leave one workload out, from %s: before %s | after %s" % (headline, summary(b_h), summary(a_h)))
    # leave one GPU out
    b_all, a_all = [], []
    for g in sorted({p["gpu"] for p in pairs}):
        a = fit_eta([p for p in pairs if g not in (p["gpu"], p["from"])], arch)
        b, af = scored([p for p in pairs if p["gpu"] == g], a, arch)
        b_all += b
        a_all += af
    print("  leave one GPU out, all pairs:       before %s | after %s" % (summary(b_all), summary(a_all)))

    a = fit_eta(pairs, arch)
    print("\nln eta on every Lambda pair (ridge %.0f pairs):" % RIDGE)
    for (ar, c), v in sorted(a.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print("  %-14s %-17s %+.3f" % (ar, c, v))

    # the shipped held-out splits (vendor-tuned data)
    with open(os.path.join(fp.BENCH, "model_v2.json"), encoding="utf-8") as f:
        model_json = json.load(f)
    ranges = model_json["tier_ranges"]

    def cls(workload):
        if args.pooled:
            return "all"
        return "convolutional" if workload.startswith("resnet") else "transformer"

    print("\nShipped held-out splits with eta applied (eta fitted on every Lambda pair):")
    for split, s in model_json["held_out_splits"].items():
        obs = s["observations"]
        res = {"before": [], "after": []}
        for fold in s["folds"]:
            m = fp.model_from_constants(data, fold["constants"])
            for case in fold["cases"]:
                t = obs[case["target"]]
                refs = [obs[k] for k in case["references"]]
                for label in ("before", "after"):
                    def pred(o):
                        d = {"gpu": o["gpu"], "prec": o["precision"], "F": o["flops"], "act": o["activation_bytes"],
                             "ppb": o["params_per_sample"]}
                        eta = math.exp(a.get((arch[o["gpu"]], cls(o["workload"])), 0.0)) if label == "after" else 1.0
                        return m.pred(d) * eta
                    pr = fp.transfer(m, [(o["gpu"], arch[o["gpu"]], o["measured"], pred(o)) for o in refs],
                                     t["gpu"], arch[t["gpu"]], pred(t))
                    e = math.log(pr / t["measured"])
                    cross = not any(arch[o["gpu"]] == arch[t["gpu"]] for o in refs if o["gpu"] != t["gpu"])
                    lo, hi = ranges["transferred-cross-arch" if cross else "transferred"]
                    res[label].append((e, lo <= e <= hi))
        print("  %-22s before %s | after %s" % (split, summary(res["before"]), summary(res["after"])))


if __name__ == "__main__":
    main()
