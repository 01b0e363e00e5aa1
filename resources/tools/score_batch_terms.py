#!/usr/bin/env python3
"""Rule AA (PROJECTION.md section 3.28, rejected): a batch term for a user's figure carried to another batch,
scored with the workload held out on `gpufrontier-cli validate`'s pairs (every GPU as the user's).

The custom workloads of those pairs are projected flat in batch (FLOPs only), so a batch term multiplies the
app's projection: e' = e + ln(g(b_target) / g(b_figure)). Three forms, each fitted on the other workloads' pairs
(least squares on e') and applied to the held-out workload's:
  power      g(b) = b^beta, beta per class (fitted through the origin)
  sat        g(b) = b / (b + b0), one b0 (grid)
  sat-class  g(b) = b / (b + b0), b0 per class (grid)
Pairs without both batches are left out. Nothing here is fitted into the app.

Usage: score_batch_terms.py (--cli PATH/gpufrontier-cli | --json VALIDATE.json)
"""
import argparse
import json
import math
import statistics
import subprocess

B0_GRID = [0.0] + [0.05 * 1.2 ** i for i in range(40)]


def pairs_of(validate_json):
    return [p for p in validate_json["user_transfer"]["pairs"] if p.get("from_batch") and p.get("batch")]


def log_ratio(p):
    return math.log(p["batch"] / p["from_batch"])


def sat_error(p, b0):
    """The pair's error with g(b) = b / (b + b0)."""
    return p["log_error"] + math.log((p["batch"] / (p["batch"] + b0)) / (p["from_batch"] / (p["from_batch"] + b0)))


def fit_beta(train):
    """Least squares of e + beta x on beta, x = ln(b_t / b_s), through the origin (the term is 0 at one batch)."""
    sxx = sum(log_ratio(p) ** 2 for p in train)
    return -sum(log_ratio(p) * p["log_error"] for p in train) / sxx if sxx > 0 else 0.0


def fit_b0(train):
    return min(B0_GRID, key=lambda b0: sum(sat_error(p, b0) ** 2 for p in train))


def held_out(pairs, form):
    """Every pair's error with the term fitted without its workload: {workload: (constant, [errors])}."""
    out = {}
    for w in sorted({p["workload"] for p in pairs}):
        test = [p for p in pairs if p["workload"] == w]
        cls = test[0]["class"]
        others = [p for p in pairs if p["workload"] != w]
        if form == "power":
            beta = fit_beta([p for p in others if p["class"] == cls])
            out[w] = (beta, [p["log_error"] + beta * log_ratio(p) for p in test])
        elif form == "sat":
            b0 = fit_b0(others)
            out[w] = (b0, [sat_error(p, b0) for p in test])
        elif form == "sat-class":
            same = [p for p in others if p["class"] == cls]
            b0 = fit_b0(same) if same else 0.0
            out[w] = (b0, [sat_error(p, b0) for p in test])
        else:
            out[w] = (0.0, [p["log_error"] for p in test])
    return out


def summary(errors):
    a = [abs(e) for e in errors]
    return {"n": len(a), "median": statistics.median(a), "max": max(a),
            "beyond_040": sum(1 for x in a if x > 0.40), "beyond_060": sum(1 for x in a if x > 0.60)}


def score(validate_json):
    pairs = pairs_of(validate_json)
    return {form: summary([e for _, es in held_out(pairs, form).values() for e in es])
            for form in ("none", "power", "sat", "sat-class")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--cli", help="gpufrontier-cli, run as `validate --format json`")
    src.add_argument("--json", help="validate's json, already written")
    args = ap.parse_args()
    if args.cli:
        data = json.loads(subprocess.run([args.cli, "validate", "--format", "json"], check=True,
                                         capture_output=True, text=True).stdout)
    else:
        with open(args.json, encoding="utf-8") as f:
            data = json.load(f)
    print("form (fitted without the held-out workload)  pairs  median |e|  max |e|  >0.40  >0.60")
    for form, s in score(data).items():
        print("%-44s %5d %11.3f %8.3f %6d %6d" % (form, s["n"], s["median"], s["max"], s["beyond_040"],
                                                   s["beyond_060"]))


if __name__ == "__main__":
    main()
