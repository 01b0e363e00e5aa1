#!/usr/bin/env python3
"""The per-step floor's data (PROJECTION.md section 3.21, rule Q2).

(1) build_step_floor_sweep.py rebuilds exactly the shipped step_floor_sweep.csv from the raw sweep in
tests/fixtures/probe/h100-sweep-2026-11-28/ (probes/batch_sweep.sh's output, its same-host repeat and the held-out
check on another host); every
point names its source, GPU, host and date. (2) A changed raw figure changes the shipped row, and a raw point
without a figure is refused. (3) The fitter's rejected variants P4a/P4b use the floors the raw sweep gives.
Usage: check_step_floor_sweep.py REPO_ROOT
"""
import csv
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolcheck import check, finish, repo  # noqa: E402
import build_step_floor_sweep as bs  # noqa: E402
import fit_typical_stack as ft  # noqa: E402

shipped_path = os.path.join(repo, "resources", "benchmarks", "step_floor_sweep.csv")
with open(shipped_path, encoding="utf-8") as f:
    shipped = f.read()

# (1) Rebuilt exactly; 17 sweep points, 4 repeats on the same H100 host, 6 held-out checks on an H200 host and 13
# on a third host (an H200 machine again).
check(bs.build(bs.RAW) == shipped, "the shipped sweep is the rebuilt one")
rows = list(csv.DictReader(line for line in shipped.splitlines() if not line.startswith("#")))
check(len(rows) == 40, "40 points (%d)" % len(rows))
check(sum(r["run"] == "repeat" for r in rows) == 4, "four of them are the same-host repeat")
check(sum(r["run"] == "check" for r in rows) == 19, "19 of them are the other hosts' check")
check(all(r["source_id"] == "GF-SWEEP-2811" and r["measured"] == "2026-11-28" and r["host"] for r in rows),
      "every point names its source, host and date")
check(all(r["gpu_id"] == ("h200-141gb-sxm" if r["run"] == "check" else "h100-80gb-sxm") for r in rows),
      "the sweep and repeat ran on the H100, the check on the H200")
check(len({r["host"] for r in rows if r["run"] == "check"} | {r["host"] for r in rows if r["run"] != "check"}) == 3,
      "each check names its own host")
check({r["preset_id"] for r in rows} == {"resnet50", "vit-b16", "bert-large-squad", "gpt2-124m"},
      "every preset but the 7B LoRA was swept")

# (2) A changed raw figure moves the shipped row; a point without a figure is refused.
tmp = tempfile.mkdtemp()
try:
    raw = os.path.join(tmp, "raw")
    shutil.copytree(bs.RAW, raw)
    path = os.path.join(raw, "sweep.csv")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace("539.581", "600.000"))
    changed = bs.build(raw)
    check(changed != shipped and "600.000" in changed and "539.581" not in changed, "a changed figure is rebuilt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(",539.581,", ",,"))
    try:
        bs.build(raw)
        check(False, "a point without a figure is refused")
    except SystemExit as e:
        check("resnet50 at batch 16 has no figure" in str(e), "a point without a figure is refused (%s)" % e)
finally:
    shutil.rmtree(tmp)


# (3) P4b's floors (the mean step of the points within 10 % of the smallest batch's, first run) and P4a's
# additive fit are the figures the raw sweep gives.
def steps(preset):
    return [(int(r["batch_per_gpu"]), int(r["batch_per_gpu"]) / float(r["samples_per_s"]), r["run"])
            for r in rows if r["preset_id"] == preset]


for preset, s in ft.STEP_S_P4B.items():
    pts = [p for p in steps(preset) if p[2] == "sweep"]
    ref = min(pts)[1]
    flat = [t for _, t, _ in pts if abs(t / ref - 1) <= 0.10]
    check(abs(sum(flat) / len(flat) - s) < 5e-6, "P4b's floor of %s is its flat points' mean" % preset)
for preset, s in ft.STEP_S_P4A.items():
    pts = [(b, t / b) for b, t, run in steps(preset) if run == "sweep"]
    x = [1.0 / b for b, _ in pts]
    y = [v for _, v in pts]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    slope = sum((a - mx) * (c - my) for a, c in zip(x, y)) / sum((a - mx) ** 2 for a in x)
    check(abs(slope - s) < 5e-5, "P4a's step time of %s is the sweep's least-squares slope (%.4f)" % (preset, slope))
finish()
