#!/usr/bin/env python3
"""Rule S3 (PROJECTION.md section 3.22), from the raw device output kept as a fixture
(tests/fixtures/probe/h200-busy-2026-11-28/sweep.csv), and gf_measure.py's busy arithmetic.

1. The profiler's busy share and nvidia-smi's utilization of the same runs agree (within 15 points).
2. Every ordered pair of batches of a preset whose source point is host-bound (busy < 0.8): the step at the
   other batch predicted three ways. max(step, busy x step x b2/b1) (rule S3) beats carrying the wall step
   (step x b2/b1, today's transfer) on median and max, and the GPU-busy part alone on the median; the
   figures PROJECTION.md quotes are what the file gives.
3. gf_measure.py's interval union, sampler mean and GPU index mapping on made-up input.
4. gf_measure.py's user-command path end to end, with a stand-in nvidia-smi on PATH: the document carries the
   sampled utilization as the busy share, and a failing nvidia-smi leaves the share out with a note.
Usage: check_busy_sweep.py REPO
"""
import csv
import importlib.util
import math
import re
import os
import json
import statistics
import subprocess
import sys
import tempfile

HOST_BOUND = 0.8  # kHostBoundBusy (models/projection/stepfloor.h)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def s3_pairs(rows):
    """Every ordered pair of batches of a preset whose source point is host-bound: (step, busy, b2 / b1, the
    measured step at b2)."""
    by = {}
    for r in rows:
        by.setdefault(r["preset"], []).append((int(r["batch"]), float(r["step_ms"]), float(r["gpu_busy_fraction"])))
    for pts in by.values():
        for b1, s1, u1 in pts:
            if u1 < HOST_BOUND:
                for b2, s2, _ in pts:
                    if b2 != b1:
                        yield s1, u1, b2 / b1, s2


def s3_signed(rows):
    """ln(projected / measured speed) of rule S3's max() predictor."""
    return [math.log(s2 / max(s1, u1 * s1 * k)) for s1, u1, k, s2 in s3_pairs(rows)]


def s3_errors(rows):
    errs = {"today": [], "busy-only": [], "max": []}
    for s1, u1, k, s2 in s3_pairs(rows):
        for name, pred in (("today", s1 * k), ("busy-only", u1 * s1 * k), ("max", max(s1, u1 * s1 * k))):
            errs[name].append(abs(math.log(pred / s2)))
    return {k: (statistics.median(v), max(v), len(v)) for k, v in errs.items()}


def main():
    repo = sys.argv[1]
    path = os.path.join(repo, "tests/fixtures/probe/h200-busy-2026-11-28/sweep.csv")
    rows = list(csv.DictReader(open(path)))
    if len(rows) != 13:
        fail("%s: %d points, expected 13" % (path, len(rows)))
    for r in rows:
        step = float(r["batch"]) / float(r["samples_per_s"]) * 1000
        if abs(step - float(r["step_ms"])) > 0.01 * step:
            fail("%s batch %s: step %.3f ms is not batch / samples_per_s (%.3f)" % (r["preset"], r["batch"], float(r["step_ms"]), step))
        busy, util = float(r["gpu_busy_fraction"]), float(r["gpu_utilization_pct"])
        if r["gpu_busy_method"] != "profiler" or abs(busy * 100 - util) > 15:
            fail("%s batch %s: profiler %.1f %% against nvidia-smi %.1f %%" % (r["preset"], r["batch"], busy * 100, util))
    e = s3_errors(rows)
    for k, (med, mx, n) in e.items():
        print("%-9s pairs %d  median %.3f  max %.3f" % (k, n, med, mx))
    if e["max"][2] != 19:
        fail("expected 19 pairs from host-bound points, got %d" % e["max"][2])
    if not (e["max"][0] < e["today"][0] and e["max"][1] < e["today"][1] and e["max"][0] < e["busy-only"][0]):
        fail("rule S3 no longer beats its alternatives on this file")
    quoted = {"today": (0.884, 2.087), "busy-only": (0.371, 1.920), "max": (0.196, 1.122)}
    for k, (med, mx) in quoted.items():
        if abs(e[k][0] - med) > 0.0005 or abs(e[k][1] - mx) > 0.0005:
            fail("%s: %.3f / %.3f, PROJECTION.md 3.22 quotes %.3f / %.3f" % (k, e[k][0], e[k][1], med, mx))

    spec = importlib.util.spec_from_file_location("gf_measure", os.path.join(repo, "resources/launch/gf_measure.py"))
    gm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gm)
    if gm.busy_union([]) != 0.0:
        fail("union of nothing")
    if gm.busy_union([(10, 20), (0, 5), (15, 30), (40, 41)]) != 26.0:
        fail("union of overlapping spans: %s" % gm.busy_union([(10, 20), (0, 5), (15, 30), (40, 41)]))
    s = gm.UtilizationSampler([0])
    if s.mean() is not None:
        fail("a sampler that never ran has a mean")
    s.started, s.stopped = 100.0, 110.0
    s.samples = [(100.5, 0.0), (101.5, 10.0), (103.0, 50.0), (109.0, 70.0)]
    if s.mean() != 60.0:  # the first 20 % (before 102 s) is start-up
        fail("sampler mean %s, expected 60" % s.mean())
    if s.mean(window=(101.0, 103.5)) != 30.0 or len(s.kept(window=(101.0, 103.5))) != 2:
        fail("sampler mean over the reported window: %s" % s.mean(window=(101.0, 103.5)))

    class Ev:
        def __init__(self, name, dev="DeviceType.CUDA", start=0, end=1, annotation=False):
            self.name, self.device_type, self.is_user_annotation = name, dev, annotation

            class R:
                pass
            self.time_range = R()
            self.time_range.start, self.time_range.end = start, end
    kept = [e.name for e in (Ev("volta_sgemm_128x64_nn"), Ev("Memcpy HtoD"), Ev("aten::mm", "DeviceType.CPU"),
                             Ev("Optimizer.step#AdamW.step"), Ev("my_range", annotation=True), Ev("zero", start=5, end=5))
            if gm.gpu_activity(e)]
    if kept != ["volta_sgemm_128x64_nn", "Memcpy HtoD"]:
        fail("GPU activity kept %s" % kept)
    os.environ["CUDA_VISIBLE_DEVICES"] = "3,1"
    if gm.visible_gpu_indices(1) != [3] or gm.visible_gpu_indices(2) != [3, 1]:
        fail("CUDA_VISIBLE_DEVICES=3,1 gives %s" % gm.visible_gpu_indices(2))
    os.environ["CUDA_VISIBLE_DEVICES"] = "GPU-abc"
    if gm.visible_gpu_indices(2) != [0, 1]:
        fail("a UUID list falls back to 0..n-1")
    # The measured tier's cross-batch widening (stepfloor.h) is rule S3's 10th/90th percentile of
    # ln(projected / measured speed) over the same pairs.
    header = open(os.path.join(repo, "models/projection/stepfloor.h")).read()
    signed = sorted(s3_signed(rows))
    for name, p in (("kHostBoundCrossBatchP10", 0.1), ("kHostBoundCrossBatchP90", 0.9)):
        k = (len(signed) - 1) * p
        lo = math.floor(k)
        want = signed[lo] + (signed[min(lo + 1, len(signed) - 1)] - signed[lo]) * (k - lo)
        m = re.search(name + r" = (-?[0-9.]+);", header)
        if not m or abs(float(m.group(1)) - want) > 0.0005:
            fail("%s in stepfloor.h is %s, the pairs give %.3f" % (name, m and m.group(1), want))
    user_command(repo)
    print("ok")


def user_command(repo):
    with tempfile.TemporaryDirectory() as tmp:
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        smi = os.path.join(bindir, "nvidia-smi")
        for util, expect in (("42", 0.42), ("fail", None)):
            with open(smi, "w") as f:
                # The name query (the document's GPU when the plan sets no GF_GPU_ID), then utilization.
                f.write("#!/bin/sh\n" + ('case "$*" in *--query-gpu=name*) echo "NVIDIA H200"; exit 0;; esac\necho 42\n'
                                         if util == "42" else "echo 'NVIDIA-SMI has failed' >&2; exit 9\n"))
            os.chmod(smi, 0o755)
            out = os.path.join(tmp, "out-" + util)
            env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], GF_PLAN_TASK="t",
                       GF_RESULT_DIR=out, GF_MEASURE_SECONDS="10", GF_WORKLOAD="custom", GF_GPUS_PER_NODE="1",
                       GF_USER_CMD="while true; do echo 'gpufrontier: samples_per_s=123.5'; sleep 0.5; done")
            env.pop("CUDA_VISIBLE_DEVICES", None)
            subprocess.run([sys.executable, os.path.join(repo, "resources/launch/gf_measure.py")], env=env,
                           capture_output=True, timeout=90)
            doc = json.load(open(os.path.join(out, "t.json")))
            if doc.get("samples_per_s") != 123.5:
                fail("user command (%s): samples_per_s %s" % (util, doc.get("samples_per_s")))
            if expect is not None:
                if doc.get("device_name") != "NVIDIA H200" or doc.get("accelerator") != "NVIDIA H200":
                    fail("user command: the GPU is named by nvidia-smi (%s / %s)" % (doc.get("device_name"),
                                                                                      doc.get("accelerator")))
                if doc.get("gpu_busy_fraction") != expect or doc.get("gpu_busy_method") != "nvidia-smi":
                    fail("user command: busy %s by %s, expected 0.42 by nvidia-smi" % (doc.get("gpu_busy_fraction"), doc.get("gpu_busy_method")))
            else:
                if doc.get("device_name") is not None or doc.get("accelerator"):
                    fail("a failing nvidia-smi names no GPU (%s)" % doc.get("device_name"))
                if "gpu_busy_fraction" in doc or not any("nvidia-smi" in n for n in doc.get("notes", [])):
                    fail("a failing nvidia-smi: %s, notes %s" % (doc.get("gpu_busy_fraction"), doc.get("notes")))


if __name__ == "__main__":
    main()
