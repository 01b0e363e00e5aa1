#!/usr/bin/env python3
"""The validation folds shipped in resources/benchmarks/model_v2.json are what fit_projection.py fits
without the held-out GPU, and no measurement of that GPU reaches them (held-out validation).

For two GPUs (the A100 80GB, on which the MLPerf -> DLE PyTorch stack factor rests alone, and the H100
SXM): (1) the shipped fold equals a refit on every observation except the GPU's; (2) multiplying every
training-throughput figure of the GPU by 1.37 leaves that refit unchanged; (3) the same change does move
the all-data fit (it took effect). And every anchor GPU of a preset with >= 2 anchors has a fold.
Usage: check_fit_folds.py REPO_ROOT
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolcheck import check, failures, repo  # noqa: E402
import fit_projection as fp  # noqa: E402


def close(a, b, tol):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], tol) for k in a)
    return abs(a - b) <= tol * max(1.0, abs(b))


with open(os.path.join(repo, "resources", "benchmarks", "model_v2.json"), encoding="utf-8") as f:
    shipped = json.load(f)["validation_folds"]

data = fp.Data()
obs = fp.observations(data)
full = fp.fit_all(data, obs)
expected = sorted({g for p in data.presets for g in fp.anchors_for(data, full, obs, p)
                   if len(fp.anchors_for(data, full, obs, p)) >= 2})
check(sorted(shipped) == expected, "validation_folds has a fold for exactly the anchor GPUs %s" % expected)

for gpu in ("a100-80gb-sxm4", "h100-80gb-sxm"):
    fold = fp.constants_json(fp.fit_all(data, [o for o in obs if o["gpu"] != gpu]), 6)
    check(close(fold, shipped.get(gpu, {}), 2e-6), "%s: the shipped fold is the refit without it" % gpu)
    changed = fp.Data()
    n = 0
    for r in changed.rows:
        if r["fit_gpu_id"] == gpu and r["best_per_gpu_value"]:
            r["best_per_gpu_value"] = repr(float(r["best_per_gpu_value"]) * 1.37)
            n += 1
    check(n > 0, "%s has training-throughput rows" % gpu)
    obs2 = fp.observations(changed)
    fold2 = fp.constants_json(fp.fit_all(changed, [o for o in obs2 if o["gpu"] != gpu]), 6)
    check(fold2 == fold, "%s: its own figures x1.37 leave its fold unchanged" % gpu)
    full2 = fp.constants_json(fp.fit_all(changed, obs2), 6)
    check(full2 != fp.constants_json(full, 6), "%s: its figures x1.37 move the all-data fit" % gpu)

# The held-out splits (gpufrontier-cli validate): a leave-one-GPU-out fold of a GPU that also has a validation
# fold has the same constants, and no reference of its cases is the held-out GPU.
with open(os.path.join(repo, "resources", "benchmarks", "model_v2.json"), encoding="utf-8") as f:
    splits = json.load(f)["held_out_splits"]
logo = splits["leave_one_gpu_out"]
for fold in logo["folds"]:
    g = fold["held_out"]
    if g in shipped:
        check(close(fold["constants"], shipped[g], 2e-6), "%s: its split fold equals its validation fold" % g)
    for case in fold["cases"]:
        check(logo["observations"][case["target"]]["gpu"] == g, "%s: a case's target is the held-out GPU" % g)
        check(all(logo["observations"][k]["gpu"] != g for k in case["references"]),
              "%s: no reference of a case is the held-out GPU" % g)
check(set(splits) == {"leave_one_gpu_out", "leave_one_source_out", "time_split"}, "three held-out splits")

if failures:
    sys.exit(1)
print("validation folds: OK")
