#!/usr/bin/env python3
"""The LAMBDA-TF-2021 transfer rows (Lambda's TensorFlow CNN suite, PROJECTION.md section 3.18, rule H).

(1) build_transfer_rows.py rebuilds exactly the shipped TF rows of transfer_rows.csv from the shared file (the
fixture in tests/fixtures/benchmarks/extra holds its 1-GPU rows that Lambda also compiled, the only ones the
rule reads, and the real/synthetic runs of check_input_pipeline_runs.py; compared with ../shared/data where it
exists). (2) Rule H: synthetic data, FP16, only GPUs with a
spec row (the Quadro RTX 8000 and the Max-Q laptop parts left out), the run without XLA where a GPU has two,
rule R1 against the compiled FP32 figure; F of the six CNNs as fixed. (3) The pairs are scored, never fitted,
with their own leave-one-source-out fold in typical_stack.json, of 2021 (inside the time split's fit window).
(4) Rule I: typical_stack.json ships the class reference presets the fitter used.
Usage: check_tf_rows.py REPO_ROOT
"""
import csv
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolcheck import check, finish, repo  # noqa: E402
import build_transfer_rows as bt  # noqa: E402
import fit_typical_stack as ft  # noqa: E402

fixture = os.path.join(repo, "tests", "fixtures")
fixture_file = os.path.join(fixture, "benchmarks", "extra", bt.TF_FILE)
shared = os.path.join(os.path.dirname(repo), "shared", "data")
if os.path.isdir(shared):
    full = ft.read_csv(os.path.join(shared, "benchmarks", "extra", bt.TF_FILE))
    mine = ft.read_csv(fixture_file)
    compiled = [r for r in full if r["gpu_count"] == "1" and "also in compiled" in r["notes"]]
    check([r for r in mine if r["gpu_count"] == "1" and "also in compiled" in r["notes"]] == compiled,
          "the fixture holds the shared file's compiled 1-GPU rows")
    check([r for r in full if r in mine] == mine, "the fixture's rows are the shared file's, in its order")

bench = os.path.join(repo, "resources", "benchmarks")
workloads = {r["workload"]: r for r in ft.read_csv(os.path.join(bench, "transfer_workloads.csv"))}
rows = ft.read_csv(os.path.join(bench, "transfer_rows.csv"))
shipped = [r for r in rows if r["source_id"] == bt.TF_SOURCE]

# (1) Rebuilt from the fixture: exactly the shipped rows, every field.
built, left_out = bt.tf_rows(fixture)
key = lambda r: (r["workload"], r["gpu_id"])  # noqa: E731
check(sorted(built, key=key) == sorted(({f: r[f] for f in bt.FIELDS} for r in shipped), key=key),
      "the shipped TF rows are the rebuilt ones (%d built, %d shipped)" % (len(built), len(shipped)))
check(len(shipped) == 42 and not left_out, "6 CNNs x 7 GPUs, none left out by R1/R2 (%d, %r)" % (len(shipped), left_out))

# (2) Rule H.
check({r["gpu_id"] for r in shipped} == {"a100-40gb-pcie", "gtx1080ti", "rtx-a6000", "rtx2080ti", "rtx3080",
                                         "rtx3090", "v100-32gb-sxm2"}, "the seven GPUs with a spec row")
check(not any("Max-Q" in r["gpu_src"] or "RTX 8000" in r["gpu_src"] for r in shipped), "no laptop, no RTX 8000")
a6000 = [r for r in shipped if r["gpu_id"] == "rtx-a6000"]
check(len(a6000) == 6 and all("XLA off" in r["note"] and "LambdaCloud-RTX_A6000" in r["note"] for r in a6000),
      "the RTX A6000's two compiled runs: the one without XLA")
r50 = [r for r in shipped if r["workload"] == "resnet50-tf-cnn" and r["gpu_id"] == "rtx-a6000"][0]
check(r50["samples_per_s"] == "1478.10" and r50["batch_per_gpu"] == "512", "A6000 ResNet-50: 1478.10 at 512")
check(all(r["precision"] == "fp16" and r["source_url"] == bt.TF_URL and "e086e0e" in r["source_url"]
          for r in shipped), "FP16, the pinned repository")
gmac = {"alexnet-tf-cnn": 0.71, "inception3-tf-cnn": 5.7, "inception4-tf-cnn": 12.3, "resnet50-tf-cnn": 4.1,
        "resnet152-tf-cnn": 11.5, "vgg16-tf-cnn": 15.5}
for w, g in gmac.items():
    check(int(workloads[w]["flops_per_sample"]) == round(g * 1e9 * 6) and workloads[w]["class"] == "convolutional",
          "%s: %g GMAC forward x 2 x 3, convolutional" % (w, g))
with tempfile.TemporaryDirectory() as d:  # R1: an FP16 figure below half the FP32 one is left out
    os.makedirs(os.path.join(d, "benchmarks", "extra"))
    with open(fixture_file, newline="", encoding="utf-8") as f:
        rd = csv.DictReader(f)
        fields, all_rows = rd.fieldnames, list(rd)
    for r in all_rows:
        if r["gpu"] == "RTX 3090" and r["workload"] == "vgg16-imagenet" and r["precision"].startswith("FP16"):
            r["value"] = "100"
    with open(os.path.join(d, "benchmarks", "extra", bt.TF_FILE), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(all_rows)
    b2, lo2 = bt.tf_rows(d)
    check(len(b2) == 41 and len(lo2) == 1 and "vgg16-tf-cnn / rtx3090" in lo2[0] and "R1" in lo2[0],
          "R1 leaves the broken run out, naming it (%r)" % lo2)

# (3) Scored, never fitted; its fold; its year.
check("LAMBDA-TF-2021" in ft.UNFITTED_SOURCES, "the TF pairs are scored, not fitted")
figures, source_of, year_of = ft.transfer_figures(rows)
check(all(source_of[w] == bt.TF_SOURCE for w in gmac), "the TF workloads' pairs are the TF suite's")
check(all(year_of[(w, g)] == 2021 for w in gmac for g in figures[w]), "measured 2019-2021: 2021")
with open(os.path.join(bench, "typical_stack.json"), encoding="utf-8") as f:
    doc = json.load(f)
check("LAMBDA-TF-2021" in [f["source"] for f in doc["leave_one_source_out"]], "typical_stack.json ships its fold")
check("LAMBDA-TF-2021" in doc["basis"], "the basis names the source")

# (4) Rule I as shipped.
check(doc.get("class_reference_preset") == ft.CLASS_REFERENCE
      == {"convolutional": "resnet50", "transformer": "bert-large-squad"}, "class_reference_preset as fitted")
finish()
