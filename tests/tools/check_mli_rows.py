#!/usr/bin/env python3
"""The MLI-TFMR-2024 transfer rows (mli/transformers-benchmarks one-layer TFLOPS, PROJECTION.md section 3.11).

(1) build_transfer_rows.py rebuilds exactly the shipped rows of transfer_rows.csv from the shared file (a copy
in tests/fixtures/benchmarks/extra; compared with ../shared/data where it exists). (2) The conversion:
samples/s = TFLOPS x 1e12 / F, F of transfer_workloads.csv, and F is the convention fixed in section 3.11 (the
notebook's per-layer count at h 1024, s 512 / 1024 / 512 / 512). (3) The source: every row of these workloads
is MLI-TFMR-2024 with the README's pinned URL; fit_typical_stack.py gives each workload's pairs the source of
its rows and the year of its figures (the RTX 4090 column: 2024, out of the time split's fit); typical_stack.json
ships its leave-one-source-out fold. (4) Bad input is refused with a message naming it.
Usage: check_mli_rows.py REPO_ROOT
"""
import csv
import filecmp
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolcheck import check, finish, repo  # noqa: E402
import build_transfer_rows as bt  # noqa: E402
import fit_typical_stack as ft  # noqa: E402

fixture = os.path.join(repo, "tests", "fixtures")
shared = os.path.join(os.path.dirname(repo), "shared", "data")
if os.path.isdir(shared):
    check(filecmp.cmp(os.path.join(fixture, "benchmarks", "extra", bt.MLI_FILE),
                      os.path.join(shared, "benchmarks", "extra", bt.MLI_FILE), shallow=False),
          "the fixture is a copy of ../shared/data's " + bt.MLI_FILE)

bench = os.path.join(repo, "resources", "benchmarks")
workloads = {r["workload"]: r for r in ft.read_csv(os.path.join(bench, "transfer_workloads.csv"))}
rows = ft.read_csv(os.path.join(bench, "transfer_rows.csv"))
shipped = [r for r in rows if r["workload"] in bt.MLI_WORKLOADS]
flops = {w: int(workloads[w]["flops_per_sample"]) for w in bt.MLI_WORKLOADS}

# (2) The convention of section 3.11, then the conversion.
h = 1024


def layer(s, cross=False):
    return 3 * (16 * s * h * h + (2 if cross else 1) * (8 * s * h * h + 4 * s * s * h))


check(flops == {"bert-large-layer-fwd-bwd": layer(512), "gpt2-layer-fwd-bwd": layer(1024),
                "t5-encoder-layer-fwd-bwd": layer(512), "t5-decoder-layer-fwd-bwd": layer(512, True)},
      "F is the fixed convention (%r)" % flops)
check(flops["bert-large-layer-fwd-bwd"] == 41875931136, "the BERT layer: 3 x (24 s h^2 + 4 s^2 h) at s 512")
check(all(workloads[w]["class"] == "transformer" for w in bt.MLI_WORKLOADS), "class transformer")
check(abs(bt.samples_per_s("136", 41875931136) - 3247.69) < 0.01, "136 TFLOPS at 41.9 GFLOP = 3,247.69 seq/s")

# (1) Rebuilt from the shared file's copy: exactly the shipped rows, every field.
built = bt.mli_rows(fixture, flops)
check(len(built) == 20 and len(shipped) == 20, "4 workloads x 5 GPUs (built %d, shipped %d)"
      % (len(built), len(shipped)))
key = lambda r: (r["workload"], r["gpu_id"])  # noqa: E731
check(sorted(built, key=key) == sorted(({f: r[f] for f in bt.FIELDS} for r in shipped), key=key),
      "transfer_rows.csv holds what build_transfer_rows.py builds from the shared file")
with open(os.path.join(fixture, "benchmarks", "extra", bt.MLI_FILE), newline="", encoding="utf-8") as f:
    source = {(r["workload"], r["gpu"]): float(r["value"]) for r in csv.DictReader(f)}
for r in shipped:
    tflops = source[(r["workload"], r["gpu_src"])]
    want = tflops * 1e12 / flops[r["workload"]]
    check(abs(float(r["samples_per_s"]) / want - 1) < 1e-5, "%s / %s: %s seq/s = %g TFLOPS x 1e12 / F"
          % (r["workload"], r["gpu_id"], r["samples_per_s"], tflops))
    check(r["note"].startswith("%g TFLOPS" % tflops), "the note keeps the TFLOPS: " + r["note"])
check({r["gpu_id"] for r in shipped} == {"a100-80gb-sxm4", "rtx-a6000", "v100-32gb-sxm2", "rtx3090ti", "rtx4090"},
      "the five GPU ids")

# (3) The source per row, the pairs' source and year.
check(all(r["source_id"] == "MLI-TFMR-2024" and r["source_url"] == bt.MLI_URL and "3370b2b" in r["source_url"]
          for r in shipped), "every MLI row names its source and the pinned README")
check(all(r["source_id"] in ("LAMBDA-PYT-V0", bt.TF_SOURCE, bt.RYU_SOURCE) for r in rows
          if r["workload"] not in bt.MLI_WORKLOADS),
      "the other rows stay Lambda's (its PyTorch and TensorFlow suites) or the eager CNN timings' (RYU-PT-2025)")
figures, source_of, year_of = ft.transfer_figures(rows)
check(all(source_of[w] == "MLI-TFMR-2024" for w in bt.MLI_WORKLOADS), "the MLI workloads' pairs are MLI's")
check(source_of["ssd300-coco"] == "LAMBDA-PYT-V0", "Lambda's pairs are Lambda's")
check(all(year_of[(w, g)] == (2024 if g == "rtx4090" else 2022) for w in bt.MLI_WORKLOADS for g in figures[w]),
      "the RTX 4090 column is of 2024, the others of 2022")
mixed = [dict(shipped[0]), dict(shipped[1], source_id="LAMBDA-PYT-V0")]
try:
    ft.transfer_figures(mixed)
    check(False, "a workload with figures of two sources is refused")
except SystemExit as e:
    check("two sources" in str(e) and shipped[0]["workload"] in str(e), "two sources named: %s" % e)
check(ft.measured_year("a568104449d30adabb5ae521670df034e5ad8db7 (2022-07-01; runs 2020-2022)") == 2022,
      "Lambda's rows: 2022")
with open(os.path.join(bench, "typical_stack.json"), encoding="utf-8") as f:
    doc = json.load(f)
check([f["source"] for f in doc["leave_one_source_out"]] == ["GF-MEASURE-2611", "LAMBDA-PYT-V0", "LAMBDA-TF-2021",
                                                              "MLI-TFMR-2024"],
      "typical_stack.json ships a fold without MLI-TFMR-2024 (%r)" % [f["source"] for f in doc["leave_one_source_out"]])
# Rule C (PROJECTION.md 3.14): the MLI pairs are scored, not fitted, so Ada (MLI is its only evidence) has no
# transformer factor, in the shipped fit and in every fold.
check(all("transformer" not in f["class_factors"].get("ada", {}) for f in [doc] + doc["leave_one_source_out"]),
      "Ada has no transformer class factor (the MLI pairs are not fitted)")
check("MLI-TFMR-2024" in ft.UNFITTED_SOURCES, "the MLI pairs are scored, not fitted")

# (4) Bad input: an unknown GPU name and a row of another metric are refused, naming them.
with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "benchmarks", "extra"))
    with open(os.path.join(fixture, "benchmarks", "extra", bt.MLI_FILE), encoding="utf-8") as f:
        text = f.read()
    for bad, what in ((text.replace(",RTX 4090,", ",RTX 4080,", 1), "RTX 4080"),
                      (text.replace("achieved_tflops_fwd_bwd", "achieved_tflops_fwd", 1), "achieved_tflops_fwd")):
        with open(os.path.join(d, "benchmarks", "extra", bt.MLI_FILE), "w", encoding="utf-8") as f:
            f.write(bad)
        try:
            bt.mli_rows(d, flops)
            check(False, "refused: " + what)
        except SystemExit as e:
            check(what in str(e) and bt.MLI_FILE in str(e), "the message names %s: %s" % (what, e))
finish()
