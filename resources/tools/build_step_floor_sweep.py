#!/usr/bin/env python3
"""Builds resources/benchmarks/step_floor_sweep.csv from the raw micro-batch sweep of 2026-11-28
(tests/fixtures/probe/h100-sweep-2026-11-28/: probes/batch_sweep.sh's sweep.csv, its same-host repeat and the
held-out check on another host; tests/fixtures/probe/h200-busy-2026-11-28/: a third host's sweep, held out too,
rule T of section 3.22),
one row per measured point with its source (PROJECTION.md section 3.21). The app derives each preset's
per-step floor from this file (projection/stepfloor.cpp, rule Q2).

Usage: build_step_floor_sweep.py [--raw DIR] [--out FILE]   (defaults: the fixture folder, the shipped file)
"""

import argparse
import csv
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RAW = os.path.join(REPO, "tests", "fixtures", "probe", "h100-sweep-2026-11-28")
THIRD = os.path.join(REPO, "tests", "fixtures", "probe", "h200-busy-2026-11-28", "sweep.csv")
OUT = os.path.join(REPO, "resources", "benchmarks", "step_floor_sweep.csv")
SOURCE = "GF-SWEEP-2811"
GPU = {"NVIDIA H100 80GB HBM3": "h100-80gb-sxm", "NVIDIA H200": "h200-141gb-sxm"}
HOST = "Firecracker VM, 16 threads of an Intel Xeon (torch add_ 7.5 us per op)"
CHECK_HOST = "another lent machine, 16 threads of an Intel Xeon"
THIRD_HOST = "a third lent machine (09:00 UTC), 16 threads of an Intel Xeon"
FIELDS = ["source_id", "preset_id", "gpu_id", "device", "host", "run", "batch_per_gpu", "precision",
          "samples_per_s", "measured", "tool", "note"]
HEADER = """# Eager PyTorch training steps of the presets at several micro-batches on one GPU: the per-step floor a
# typical script pays on its host (PROJECTION.md section 3.21, rule Q2). Built by
# resources/tools/build_step_floor_sweep.py from tests/fixtures/probe/h100-sweep-2026-11-28/ (raw output of
# probes/batch_sweep.sh); samples/s of one GPU; run 'sweep' is the sweep, 'repeat' the same host minutes later,
# 'check' another host (an H200 machine) half an hour later, and a third host's H200 sweep (section 3.22,
# rule T; from tests/fixtures/probe/h200-busy-2026-11-28/): held out, scored by validate, never in a floor.
"""


def read_points(path, run, host=HOST):
    with open(path, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if not r["samples_per_s"]:
                sys.exit("%s: %s at batch %s has no figure" % (path, r["preset"], r["batch"]))
            if r["device"] not in GPU:
                sys.exit("%s: unknown device %r" % (path, r["device"]))
            yield {"source_id": SOURCE, "preset_id": r["preset"], "gpu_id": GPU[r["device"]],
                   "device": r["device"], "host": host, "run": run, "batch_per_gpu": r["batch"],
                   "precision": r["precision"], "samples_per_s": r["samples_per_s"], "measured": "2026-11-28",
                   "tool": "probes/batch_sweep.sh + resources/launch/gf_measure.py (synthetic, 10 s after 5 warm-up steps)",
                   "note": r["note"]}


def build(raw, third=THIRD):
    rows = list(read_points(os.path.join(raw, "sweep.csv"), "sweep"))
    rows += list(read_points(os.path.join(raw, "repeat.csv"), "repeat"))
    rows += list(read_points(os.path.join(raw, "check-h200.csv"), "check", CHECK_HOST))
    rows += list(read_points(third, "check", THIRD_HOST))
    out = io.StringIO()
    out.write(HEADER)
    w = csv.DictWriter(out, FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--raw", default=RAW)
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args()
    text = build(a.raw)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s (%d points)" % (a.out, text.count("\n") - HEADER.count("\n") - 1))


if __name__ == "__main__":
    main()
