#!/usr/bin/env python3
"""The data rules of resources/tools/build_transfer_rows.py and the a-priori default bytes per FLOP of
resources/tools/fit_typical_stack.py (PROJECTION.md section 3.7).

(1) Rule R1 leaves out an FP16 figure below half the same GPU's FP32 figure and keeps a small AMP slowdown
(launch-bound networks pay AMP's cast kernels: Tacotron 2 runs 1-10 % slower in AMP); rule R2 leaves out a
figure without a batch. (2) The shipped transfer_rows.csv lists every left-out row with its rule in its header
and holds none of them as data. (3) The default bytes per FLOP are the presets' own: a class's median, the
pooled median for a class without a preset and for the unknown class, 4 significant digits, times each
class's traffic factor; typical_stack.json and every fold ship exactly them. (4) The per-class traffic factor's
rule (coordinate descent from the common m; a class outside the objective keeps the common m), a rejected variant;
the shipped fit has the common m and does not fit the MLI-TFMR-2024 pairs (rule C, PROJECTION.md 3.14).
Usage: check_transfer_rules.py REPO_ROOT
"""
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolcheck import check, finish, repo  # noqa: E402
import build_transfer_rows as bt  # noqa: E402
import fit_typical_stack as ft  # noqa: E402


row = {"batch_size_per_gpu": "10", "value": "3029"}
check(bt.exclusion(row, 24262.0).startswith("R1"), "R1: an FP16 figure at 0.12x the FP32 one is left out")
check(bt.exclusion(dict(row, value="12131"), 24262.0) == "", "R1: exactly half the FP32 figure is kept")
check(bt.exclusion(dict(row, value="12130"), 24262.0).startswith("R1"), "R1: just below half is left out")
check(bt.exclusion({"batch_size_per_gpu": "128", "value": "28648"}, 29795.0) == "",
      "R1: a 4 % AMP slowdown (Tacotron 2 on the A100) is kept")
check(bt.exclusion(row, None) == "", "R1: no FP32 figure, nothing to compare: kept")
check(bt.exclusion({"batch_size_per_gpu": " ", "value": "979"}, None).startswith("R2"), "R2: no batch")

bench = os.path.join(repo, "resources", "benchmarks")
with open(os.path.join(bench, "transfer_rows.csv"), encoding="utf-8") as f:
    lines = f.read().splitlines()
# Rules R1/R2 of Lambda's suites; the lines of the source scored apart (rule V, PROJECTION.md 3.24) name whole GPUs.
left = [ln[len("# left out: "):] for ln in lines if ln.startswith("# left out: ") and "(RYU-PT-2025)" not in ln]
check(len(left) == 2, "two rows are left out (found %d)" % len(left))
ryu_left = [ln for ln in lines if ln.startswith("# left out: ") and "(RYU-PT-2025)" in ln]
check(any("Titan V (RYU-PT-2025): every row: R2" in ln for ln in ryu_left), "RYU: the GPUs without a batch (R2)")
check(any("Titan Xp (RYU-PT-2025): every row: no spec row" in ln for ln in ryu_left), "RYU: the GPUs without a spec row")
data = list(csv.DictReader(ln for ln in lines if not ln.startswith("#")))
for entry in left:
    workload, gpu = [x.strip() for x in entry.split("/")[:2]]
    check(": R1:" in entry or ": R2:" in entry, "the left-out row names its rule: " + entry)
    check(not any(r["workload"] == workload and r["gpu_id"] == gpu for r in data),
          "a left-out row is not in the data: " + entry)
check(any(e.startswith("waveglow-ljspeech / rtx-a4000 /") for e in left), "WaveGlow on the RTX A4000 (R1)")

presets = [{"class": "convolutional", "flops_per_sample": 10, "bytes_per_sample": 2},
           {"class": "transformer", "flops_per_sample": 10, "bytes_per_sample": 0.1},
           {"class": "transformer", "flops_per_sample": 10, "bytes_per_sample": 0.3},
           {"class": "transformer", "flops_per_sample": 10, "bytes_per_sample": 0.9}]
d = ft.default_bytes_per_flop(presets)
check(d["convolutional"] == 0.2, "convolutional: its one preset (%r)" % d["convolutional"])
check(d["transformer"] == 0.03, "transformer: the median of its presets (%r)" % d["transformer"])
check(d["unknown"] == d["detection"] == d["recurrent-speech"] == 0.06,
      "unknown and classes without a preset: the median of all presets (%r)" % d)
with open(os.path.join(repo, "resources", "workloads.json"), encoding="utf-8") as f:
    shipped_presets = json.load(f)["workloads"]
with open(os.path.join(bench, "typical_stack.json"), encoding="utf-8") as f:
    shipped = json.load(f)["default_bytes_per_flop"]
with open(os.path.join(bench, "typical_stack.json"), encoding="utf-8") as f:
    doc = json.load(f)
m = doc.get("typical_traffic_factor")
check(isinstance(m, dict) and set(m) == set(ft.CLASSES) | {"unknown"} and all(v in ft.TRAFFIC_GRID for v in m.values()),
      "the traffic factor is one of the grid's per class, unknown included (%r)" % m)
check(shipped == ft.default_bytes_per_flop(shipped_presets, m),
      "typical_stack.json ships the presets' figures times each class's traffic factor")
for fold in doc["leave_one_source_out"] + doc["leave_one_architecture_out"]:
    fm = fold.get("typical_traffic_factor", {})
    check(set(fm) == set(m) and all(v in ft.TRAFFIC_GRID for v in fm.values()), "a fold ships its factors per class")
    check(fold["default_bytes_per_flop"] == ft.default_bytes_per_flop(shipped_presets, fm),
          "a fold's traffic is the presets' times its own factors per class")

# The rule of the per-class traffic factor (PROJECTION.md 3.12), on a synthetic objective: the common m first
# (every class alike), then coordinate descent per class; a class that does not enter the objective keeps
# the common m, and so does the unknown class.
target = {"transformer": 0, "recurrent-speech": 3, "detection": 1}  # log2 of each class's best m


def fake_fit(rows, pairs, use_eta, traffic):
    return ft.Fit({}, 1.0, {}, traffic)


def fake_objective(rows, pairs, fit, chosen=None):
    return sum((math.log2(fit.traffic[c]) - t) ** 2 for c, t in target.items())


saved = ft.joint_fit_at, ft.objective, ft.PER_CLASS
ft.joint_fit_at, ft.objective = fake_fit, fake_objective
try:
    ft.PER_CLASS = True  # the rejected variant (--variant per-class-traffic)
    got = ft.joint_fit([{}], [], True).traffic
    check(got == {"convolutional": 2.0, "transformer": 1.0, "recurrent-speech": 8.0, "detection": 2.0,
                  "unknown": 2.0}, "per class: the best of each, the common m (2) where the class does not count (%r)"
          % got)
    ft.PER_CLASS = False
    check(ft.joint_fit([{}], [], True).traffic == ft.uniform(2.0), "common: the best uniform m")
finally:
    ft.joint_fit_at, ft.objective, ft.PER_CLASS = saved
check(saved[2] is False, "shipped: the common m (rule C rejected the per-class factors)")
# Rule C (PROJECTION.md 3.14): the MLI-TFMR-2024 pairs are scored, not fitted; a preset's own Lambda pairs neither.
fp = [{"workload": w, "source": s} for w, s in (("gpt2-layer-fwd-bwd", "MLI-TFMR-2024"), ("ssd300", "LAMBDA-PYT-V0"),
                                                ("resnet50-imagenet", "LAMBDA-PYT-V0"))]
check([p["workload"] for p in ft.fitted(fp)] == ["ssd300"], "only Lambda's non-preset pairs are fitted (%r)"
      % ft.fitted(fp))
check(ft.traffic_pairs(fp) == ft.fitted(fp), "shipped: the traffic factor is chosen on the fitted pairs")
ft.TRAFFIC_ON_ALL_PAIRS = True  # rule E (3.15), rejected: --variant traffic-all-pairs
try:
    check([p["workload"] for p in ft.traffic_pairs(fp)] == ["ssd300", "resnet50-imagenet"],
          "rule E: the presets' own pairs choose m too, the unfitted source's do not")
finally:
    ft.TRAFFIC_ON_ALL_PAIRS = False
# Rule G (PROJECTION.md 3.16): the unknown class's m is the one whose projections without class fit the fitted
# pairs best (a synthetic error, least at m = 2); the classes keep theirs; a tie keeps the common m.
saved_speed = ft.pair_speed
try:
    ft.pair_speed = lambda p, f, aT=None, aR=None, as_unknown=False: p["m_to"] * (
        f.traffic["unknown"] / 2.0 if as_unknown else 1.0)
    gp = [{"workload": "ssd300", "source": "LAMBDA-PYT-V0", "to": g, "from": h, "m_to": 10.0}
          for g, h in (("a", "b"), ("b", "a"))]
    base = ft.Fit({}, 1.0, {}, 4.0)
    got = ft.unknown_traffic(base, gp).traffic
    check(got == dict(ft.uniform(4.0), unknown=2.0), "rule G: the unknown class takes its own best m (%r)" % got)
    ft.pair_speed = lambda p, f, aT=None, aR=None, as_unknown=False: p["m_to"]
    check(ft.unknown_traffic(base, gp).traffic == ft.uniform(4.0), "rule G: a tie keeps the common m")
finally:
    ft.pair_speed = saved_speed
d2 = ft.default_bytes_per_flop(presets, 4.0)
check(d2["convolutional"] == 0.8 and d2["unknown"] == 0.24, "the traffic factor multiplies every class (%r)" % d2)
finish()
