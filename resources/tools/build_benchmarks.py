#!/usr/bin/env python3
"""Build GPU Frontier's shipped table of measured training throughput (resources/benchmarks/).

Reads the collected public benchmark figures in <shared>/benchmarks/ (training_throughput.csv,
sources.csv, gpu_name_map.csv, mlperf_training_single_node.csv) and this repository's own measurements
(resources/benchmarks/measured/*.json: gf_measure.py documents from a real GPU, source OWN_SOURCE)
and writes:

  resources/benchmarks/training_throughput.csv   every source row, mapped to our GPU ids, presets,
                                                 workload families, software stacks and precision
                                                 classes, with a per-GPU figure and a `preferred`
                                                 flag (selection rules in README.md)
  resources/benchmarks/sources.csv               the sources (title, URL/commit, licence) + row counts

Facts only: no figure is changed; derived columns (per-GPU value, samples/s in the preset's unit)
are plain arithmetic on the source's own numbers. Standard library only.

Usage (from the repository root):
    python3 resources/tools/build_benchmarks.py [--shared ../shared/data] [--out resources/benchmarks]
"""

import argparse
import collections
import csv
import json
import os
import statistics
import sys

# ---------------------------------------------------------------------------------------------
# GPU strings as written by the sources -> (our gpu id, match kind, note)
#   exact    the source names this exact part
#   assumed  the source does not state the form factor / memory; the most common part is assumed
#   variant  same silicon and clocks-class, different power limit / memory size / host; usable
#   none     no gpus.csv row (closest given in the note); not used for fitting unless the
#            fit-only table resources/benchmarks/gpu_arch.csv has a row (fit_gpu_id)
# ---------------------------------------------------------------------------------------------
GPU_MAP = {
    "A100 40GB (1600 Gbps RoCE cluster)": ("a100-40gb-sxm4", "assumed", "form factor not stated; SXM4 assumed"),
    "A100 40GB (DGX A100, SXM4)": ("a100-40gb-sxm4", "exact", ""),
    "A100 80GB": ("a100-80gb-sxm4", "assumed", "form factor not stated; SXM4 assumed"),
    "A100 80GB (1600 Gbps RoCE cluster)": ("a100-80gb-sxm4", "assumed", "form factor not stated; SXM4 assumed"),
    "A100 80GB (DGX A100, SXM4)": ("a100-80gb-sxm4", "exact", ""),
    "A100 80GB SXM": ("a100-80gb-sxm4", "exact", ""),
    "AMD Instinct MI300X 192GB HBM3": ("mi300x", "exact", ""),
    "AMD Radeon RX 7900 XTX": ("", "none", "no gpus.csv row (consumer RDNA3)"),
    "B200 (DGX-B200)": ("b200", "exact", ""),
    "GB200 (DGX-GB200)": ("", "none", "no gpus.csv row; closest b200 (GB200 runs at a higher power limit)"),
    "GB300 (DGX-GB300)": ("", "none", "no gpus.csv row (Blackwell Ultra)"),
    "GTX 1080 Ti": ("gtx1080ti", "exact", ""),
    "GeForce RTX 3090": ("rtx3090", "exact", ""),
    "GeForce RTX 4090": ("rtx4090", "exact", ""),
    "H100 (DGX-H100, SXM5 80GB)": ("h100-80gb-sxm", "exact", ""),
    "H100 80GB": ("h100-80gb-sxm", "assumed", "form factor not stated; SXM5 assumed"),
    "H100 80GB SXM": ("h100-80gb-sxm", "exact", ""),
    "H100 96GB HBM2e SXM (Grand Teton, 500 W limit)": (
        "", "none", "96 GB HBM2e part at a 500 W limit; no gpus.csv row; closest h100-80gb-sxm"),
    "H200 (8 per host, NVLink; 400 Gb/s RDMA per GPU)": ("h200-141gb-sxm", "assumed", "form factor not stated; SXM assumed"),
    "NVIDIA A100-PCIE-40GB (250W)": ("a100-40gb-pcie", "exact", ""),
    "NVIDIA A100-PCIE-80GB (300W)": ("a100-80gb-pcie", "exact", ""),
    "NVIDIA A100-PCIe-40GB": ("a100-40gb-pcie", "exact", ""),
    "NVIDIA A100-PCIe-40GB (250W)": ("a100-40gb-pcie", "exact", ""),
    "NVIDIA A100-PCIe-80GB": ("a100-80gb-pcie", "exact", ""),
    "NVIDIA A100-PCIe-80GB (300W)": ("a100-80gb-pcie", "exact", ""),
    "NVIDIA A100-SXM-40GB": ("a100-40gb-sxm4", "exact", ""),
    "NVIDIA A100-SXM-80GB": ("a100-80gb-sxm4", "exact", ""),
    "NVIDIA A100-SXM-80GB (400W)": ("a100-80gb-sxm4", "exact", ""),
    "NVIDIA A100-SXM-80GB CTS": ("a100-80gb-sxm4", "variant", "CTS host variant"),
    "NVIDIA A100-SXM4-40GB (400W)": ("a100-40gb-sxm4", "exact", ""),
    "NVIDIA A100-SXM4-80GB": ("a100-80gb-sxm4", "exact", ""),
    "NVIDIA A100-SXM4-80GB (400W)": ("a100-80gb-sxm4", "exact", ""),
    "NVIDIA A100-SXM4-80GB (500W)": ("a100-80gb-sxm4", "variant", "500 W power limit (datasheet part is 400 W)"),
    "NVIDIA A10G": ("a10g", "exact", ""),
    "NVIDIA A30": ("", "none", "no gpus.csv row; fit-only spec row a30 in gpu_arch.csv"),
    "NVIDIA A40": ("a40", "exact", ""),
    "NVIDIA Blackwell GPU (B200-SXM-180GB)": ("b200", "exact", ""),
    "NVIDIA Blackwell GPU (GB200)": ("", "none", "no gpus.csv row; closest b200 (GB200 runs at a higher power limit)"),
    "NVIDIA GeForce RTX 4090": ("rtx4090", "exact", ""),
    "NVIDIA H100 80GB HBM3": ("h100-80gb-sxm", "assumed", "form factor not stated; SXM5 assumed"),
    "NVIDIA H100-PCIe-80GB": ("h100-80gb-pcie", "exact", ""),
    "NVIDIA H100-SXM-80GB": ("h100-80gb-sxm", "exact", ""),
    "NVIDIA H100-SXM5-80GB": ("h100-80gb-sxm", "exact", ""),
    "NVIDIA H100-SXM5-96GB": ("", "none", "96 GB H100 SXM5 (700 W); no gpus.csv row; closest h100-80gb-sxm"),
    "NVIDIA H200-SXM5-141GB": ("h200-141gb-sxm", "exact", ""),
    "NVIDIA L4": ("l4", "exact", ""),
    "NVIDIA L40": ("l40", "exact", ""),
    "NVIDIA L40S": ("l40s", "exact", ""),
    "NVIDIA RTX A5000": ("rtx-a5000", "exact", ""),
    "Quadro M4000": ("quadro-m4000", "exact", ""),
    "Quadro P5000": ("quadro-p5000", "exact", ""),
    "Quadro P6000": ("quadro-p6000", "exact", ""),
    "RTX 3090": ("rtx3090", "exact", ""),
    "Tesla K80": ("k80-die", "exact", "one GK210 die"),
    "Tesla M60": ("m60-die", "exact", "one GM204 die"),
    "Tesla T4": ("t4", "exact", ""),
    "Tesla V100": ("v100-16gb-sxm2", "assumed", "form factor/memory not stated; V100 SXM2 16GB assumed (default alias)"),
    "V100 16GB (DGX-1, SXM2)": ("v100-16gb-sxm2", "exact", ""),
    "V100 32GB (DGX-1, SXM2)": ("v100-32gb-sxm2", "exact", ""),
    "V100 32GB (DGX-2)": ("v100-32gb-sxm2", "variant", "DGX-2 uses the 350 W SXM3 32GB module"),
}

# The device names gf_measure.py writes (torch.cuda.get_device_name) for this repository's own runs.
OWN_GPU_MAP = {
    "NVIDIA H100 80GB HBM3": ("h100-80gb-sxm", "exact", ""),
    "NVIDIA H200": ("h200-141gb-sxm", "exact", ""),
}
for _name, _mapping in OWN_GPU_MAP.items():
    GPU_MAP.setdefault(_name, _mapping)

# This repository's own measurements: resources/launch/gf_measure.py run by probes/run_on_gpu.sh on a
# lent GPU machine (one GPU, synthetic data, each preset's batch and precision, eager PyTorch).
OWN_SOURCE = {
    "source_id": "GF-MEASURE-2611",
    "title": "GPU Frontier's own runs: resources/launch/gf_measure.py on one NVIDIA H100 80GB HBM3 and one "
             "H200 (PyTorch 2.11.0+cu130, eager, synthetic data, the presets' batch and precision)",
    "url_or_repo_path": "this repository: resources/benchmarks/measured/ (written by probes/run_on_gpu.sh); "
                        "raw runs in tests/fixtures/probe/h100-2026-11-26/ and h200-2026-11-26/",
    "commit_or_date": "2026-11-26",
    "license": "MIT (this repository)",
    "what_was_taken": "samples/s per GPU of each preset's synthetic training step, 15 s after 5 warm-up steps",
}
OWN_UNITS = {"images": "images/s", "sequences": "sequences/s"}
OWN_WORKLOADS = {"resnet50": "resnet50-imagenet", "bert-large-squad": "bert-large-squad-finetune",
                 "vit-b16": "vit-b16-imagenet", "gpt2-124m": "gpt2-124m", "llm7b-lora": "llm7b-lora"}


def own_rows(folder, presets):
    """gf_measure.py documents -> rows in the source table's format (one GPU each)."""
    rows = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            d = json.load(f)
        wid = d["workload"]
        rows.append({
            "source_id": OWN_SOURCE["source_id"], "workload": OWN_WORKLOADS[wid], "model": presets[wid]["name"],
            "framework": "PyTorch eager (gf_measure.py; %s)" % "; ".join(d.get("notes", [])),
            "precision": d["precision"], "gpu": d["device_name"], "gpu_count": str(d["gpu_count"]),
            "batch_per_gpu": str(d["batch_per_gpu"]), "metric": "train_throughput",
            "value": "%.4g" % d["samples_per_s"], "unit": OWN_UNITS[presets[wid]["sample_unit"]],
            "notes": "measured on %s, %s, this repository's gf_measure.py (%s)" % (
                d["device_name"], d["measured_at"][:10], name),
        })
    return rows


# Fit-only ids (rows of gpu_arch.csv with fit_only=1) for GPUs without a gpus.csv row.
FIT_ONLY_GPU = {"NVIDIA A30": "a30"}

# ---------------------------------------------------------------------------------------------
# Workloads as written by the sources -> (preset id or "", family, sequence length or "")
# A preset id is set only when the measured workload IS the preset (same model, task and sample
# definition). Family rows are the same model class with a different task/sequence length/size:
# they inform the GPU-to-GPU ratios of the model fit, they are never shown as a measurement of a
# preset.
# ---------------------------------------------------------------------------------------------
def workload_info(w):
    if w == "resnet50-imagenet":
        return "resnet50", "cnn-imagenet", ""
    if w == "bert-large-squad-finetune":
        return "bert-large-squad", "bert-large", "384"
    if w == "bert-large-pretrain-phase1":
        return "", "bert-large", "128"
    if w in ("bert-large-pretrain-phase2", "bert-large-pretrain-mlperf"):
        return "", "bert-large", "512"
    if w == "vit-b16-imagenet":
        return "vit-b16", "vit-imagenet", ""
    if w in ("deit_base_patch16_224", "vit_small_patch16_224", "vit_large_patch16_224",
             "swin_tiny_patch4_window7_224", "swin_base_patch4_window7_224"):
        return "", "vit-imagenet", ""
    if w == "gpt2-124m":
        return "gpt2-124m", "gpt-decoder", "1024"
    if w.startswith("gpt2-"):
        return "", "gpt-decoder", "1024"
    if w.startswith("mpt-"):
        return "", "gpt-decoder", "2048"
    if w.startswith("llama3"):
        return "", "llama-8b", "8192"
    if w == "opt-350m-finetune":
        return "", "gpt-decoder-finetune", "2048"
    if w == "llm7b-lora":
        return "llm7b-lora", "llm-lora", "512"
    return "", "cnn-imagenet", ""


def stack_of(row):
    """Software stack group: rows of one group were produced by the same code base and comparable
    software, so their GPU-to-GPU ratios are meaningful. Groups are compared with each other only
    through GPUs they share (or through the fitted model)."""
    s, fw = row["source_id"], row["framework"]
    if s.startswith("MLPERF"):
        return "mlperf-tinygrad" if "tinygrad" in fw else "mlperf-nvidia"
    if s == OWN_SOURCE["source_id"]:
        return "gf-measure-pt2.11-eager"
    return {
        "DLE-PYT-RN50": "dle-pytorch-21.03",
        "DLE-PYT-RNXT101": "dle-pytorch-21.03",
        "DLE-PYT-SERNXT101": "dle-pytorch-21.03",
        "DLE-PYT-EFFNET": "dle-pytorch-21.03",
        "DLE-PYT-RN50-2020": "dle-pytorch-20.06",
        "DLE-TF-RN50": "dle-tf1-20.06-xla",
        "DLE-MX-RN50": "dle-mxnet",
        "DLE-PD-RN50": "dle-paddle",
        "DLE-PYT-BERT": "dle-pytorch-21.11",
        "DLE-PYT-BERT-2021": "dle-pytorch-20.06",
        "DLE-TF-BERT": "dle-tf1-20.06-xla",
        "TIMM-3090-NCHW": "timm-pt1.12-nchw",
        "TIMM-3090-NHWC": "timm-pt1.12-nhwc",
        "LLMC-SCRIPTS": "llm.c",
        "LLMFOUNDRY-BENCH": "llm-foundry",
        "TORCHTITAN-H100-2412": "torchtitan-2412",
        "TORCHTITAN-H200-2506": "torchtitan-2506",
        "TORCHTITAN-A100-PERF": "torchtitan-2412-a100",
        "MBRIDGE-PERF-2511": "megatron-bridge-25.11",
        "VECTORLM-THROUGHPUT": "vectorlm",
        "CNNBENCH-CLOUD": "torch7-cnn-benchmarks",
        "SERVERGEAR-4090": "tf_cnn_benchmarks-ngc",
        "SERVERGEAR-3090": "tf_cnn_benchmarks-ngc",
    }[s]


def precision_class(p):
    q = p.lower()
    if "fp8" in q:
        return "fp8"
    if q == "tf32":
        return "tf32"
    if q == "fp32":
        return "fp32"
    if "bf16" in q:
        return "bf16"
    if q in ("amp", "fp16", "mixed (submission-specific)", "mixed (use_mp=true; dtype not stated)"):
        return "fp16"
    raise ValueError("unknown precision " + p)


# Rows kept in the table but never used to fit or validate the model, with the reason.
def exclusion(row, gpu_match, fit_gpu):
    if row["metric"] == "time_to_train":
        return "time-to-train only (MLPerf log without throughput); not convertible to samples/s"
    if row["source_id"] == "VECTORLM-THROUGHPUT":
        return ("overhead-bound short fine-tuning run (A100 only 1.6x a T4); ratios contradict every "
                "hardware figure")
    if not fit_gpu:
        return "GPU has no spec row"
    if row["source_id"] == OWN_SOURCE["source_id"]:
        return ("own eager-PyTorch runs, one host per GPU (the H200 host dispatched kernels more slowly: "
                "launch overhead 4.0 vs 3.0 us); shipped as evidence, not yet in the fit or the measured tier")
    return ""


# Preferred software stack per preset when several rows exist for one GPU (first = most preferred).
# The first stack of each list is the preset's REFERENCE stack: the absolute samples/s the app shows
# are expressed in it (what a user of the mainstream framework gets), see README.md.
STACK_PREFERENCE = {
    "resnet50": ["dle-pytorch-21.03", "mlperf-nvidia", "dle-mxnet", "dle-tf1-20.06-xla",
                 "tf_cnn_benchmarks-ngc", "timm-pt1.12-nhwc", "timm-pt1.12-nchw", "dle-paddle",
                 "dle-pytorch-20.06", "mlperf-tinygrad", "torch7-cnn-benchmarks"],
    "bert-large-squad": ["dle-pytorch-21.11", "dle-pytorch-20.06", "dle-tf1-20.06-xla"],
    "vit-b16": ["timm-pt1.12-nchw", "timm-pt1.12-nhwc"],
    "gpt2-124m": ["llm.c"],
    "llm7b-lora": [],
}

OUT_COLUMNS = [
    "row_id", "source_id", "workload_src", "preset_id", "family", "model", "stack", "framework",
    "precision_src", "precision", "gpu_src", "gpu_id", "gpu_match", "fit_gpu_id", "gpu_count", "nodes",
    "batch_per_gpu", "seq_len", "metric", "value", "unit", "per_gpu_value", "per_gpu_unit",
    "preset_samples_per_s_per_gpu", "preset_sample_unit", "mlperf_submissions",
    "mlperf_per_gpu_min", "mlperf_per_gpu_max", "best_per_gpu_value", "fit_use", "exclude_reason", "preferred", "notes",
]


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(row for row in f if not row.startswith("#")))


def fmt(x):
    if x == "" or x is None:
        return ""
    if abs(x) >= 100:
        return "%.1f" % x
    if abs(x) >= 1:
        return "%.3f" % x
    return "%.5g" % x


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(repo), "shared", "data"))
    ap.add_argument("--out", default=os.path.join(repo, "resources", "benchmarks"))
    args = ap.parse_args()

    bdir = os.path.join(args.shared, "benchmarks")
    rows = read_csv(os.path.join(bdir, "training_throughput.csv"))
    sources = read_csv(os.path.join(bdir, "sources.csv"))
    name_map = read_csv(os.path.join(bdir, "gpu_name_map.csv"))
    mlperf = read_csv(os.path.join(bdir, "mlperf_training_single_node.csv"))
    with open(os.path.join(repo, "resources", "workloads.json"), encoding="utf-8") as f:
        presets = {w["id"]: w for w in json.load(f)["workloads"]}
    gpu_ids = {r["id"] for r in read_csv(os.path.join(repo, "resources", "gpus.csv"))}
    rows += own_rows(os.path.join(args.out, "measured"), presets)
    sources.append(dict(OWN_SOURCE))
    arch = {r["id"]: r for r in read_csv(os.path.join(args.out, "gpu_arch.csv"))}

    # Every GPU string of the sources must be mapped, every mapped id must exist.
    problems = []
    for m in name_map:
        if m["gpu_as_in_source"] not in GPU_MAP:
            problems.append("unmapped gpu string: " + m["gpu_as_in_source"])
    for k, (gid, kind, _) in GPU_MAP.items():
        if gid and gid not in gpu_ids:
            problems.append("gpu id %s (for %s) not in gpus.csv" % (gid, k))
        if (gid == "") != (kind == "none"):
            problems.append("inconsistent mapping for " + k)
    for k, fid in FIT_ONLY_GPU.items():
        if fid not in arch or arch[fid]["fit_only"] != "1":
            problems.append("fit-only id %s missing from gpu_arch.csv" % fid)
    for gid in gpu_ids:
        if gid not in arch:
            problems.append("gpu id %s has no gpu_arch.csv row" % gid)
    if problems:
        sys.exit("\n".join(problems))

    # MLPerf detail: single-node submissions per round/benchmark/gpu/count and their per-GPU
    # min/max throughput; the nodes of each submission (by system name).
    detail = collections.defaultdict(list)
    system_nodes = {}
    for m in mlperf:
        system = m["results_path"].rstrip("/").split("/")[-2]
        system_nodes[(m["round"], system)] = int(m["nodes"])
        if int(m["nodes"]) != 1:
            continue
        thr = m["throughput_logged_median"] or m["throughput_from_epoch_times"]
        detail[(m["round"], m["benchmark"], m["gpu"], m["gpu_count"])].append(
            float(thr) / int(m["gpu_count"]) if thr else None)

    out = []
    for i, r in enumerate(rows, 1):
        preset, family, seq = workload_info(r["workload"])
        gid, kind, gnote = GPU_MAP[r["gpu"]]
        fit_gpu = gid or FIT_ONLY_GPU.get(r["gpu"], "")
        n = int(r["gpu_count"])
        value = float(r["value"])
        per_gpu, per_unit, preset_sps, preset_unit = "", "", "", ""
        if r["metric"] != "time_to_train":
            per_gpu = value / n
            per_unit = r["unit"]
            if preset:
                pu = presets[preset]["sample_unit"]
                if r["unit"] == "tokens/s":
                    preset_sps = per_gpu / int(seq)   # sequences of the preset's length
                else:
                    preset_sps = per_gpu
                preset_unit = pu + "/s"
        sub, lo, hi = "", "", ""
        nodes = (n + 7) // 8
        if "4 nodes" in r["notes"]:
            nodes = 4
        if "8 nodes" in r["notes"]:
            nodes = 8
        if r["source_id"].startswith("MLPERF"):
            rnd = r["source_id"].split("-")[-1]
            system = r["notes"].split(" system ")[1].split(";")[0].strip()
            nodes = system_nodes[(rnd, system)]
            bench = "resnet" if r["workload"].startswith("resnet") else "bert"
            vals = detail.get((rnd, bench, r["gpu"], r["gpu_count"]), [])
            sub = str(len(vals)) if vals else ""
            good = [v for v in vals if v is not None]
            if good:
                lo, hi = min(good), max(good)
        best = ""
        if per_gpu != "":
            best = max(per_gpu, hi) if hi != "" else per_gpu
        reason = exclusion(r, kind, fit_gpu)
        notes = r["notes"]
        if gnote:
            notes = "GPU: " + gnote + "; " + notes
        out.append({
            "row_id": "B%03d" % i,
            "source_id": r["source_id"],
            "workload_src": r["workload"],
            "preset_id": preset,
            "family": family,
            "model": r["model"],
            "stack": stack_of(r),
            "framework": r["framework"],
            "precision_src": r["precision"],
            "precision": precision_class(r["precision"]),
            "gpu_src": r["gpu"],
            "gpu_id": gid,
            "gpu_match": kind,
            "fit_gpu_id": fit_gpu,
            "gpu_count": n,
            "nodes": nodes,
            "batch_per_gpu": r["batch_per_gpu"],
            "seq_len": seq,
            "metric": r["metric"],
            "value": r["value"],
            "unit": r["unit"],
            "per_gpu_value": fmt(per_gpu),
            "per_gpu_unit": per_unit,
            "preset_samples_per_s_per_gpu": fmt(preset_sps),
            "preset_sample_unit": preset_unit,
            "mlperf_submissions": sub,
            "mlperf_per_gpu_min": fmt(lo),
            "mlperf_per_gpu_max": fmt(hi),
            "best_per_gpu_value": fmt(best),
            "fit_use": "0" if reason else "1",
            "exclude_reason": reason,
            "preferred": "0",
            "notes": notes,
        })

    # Preferred row per (preset, gpu_id): the most preferred stack (STACK_PREFERENCE) with a usable
    # row in the preset's precision class (fp16 and bf16 are one class: mixed precision); within it,
    # among single-node rows with 1..8 GPUs, the row with the highest best_per_gpu_value (a per-GPU
    # figure of a multi-GPU run is a lower bound of the 1-GPU speed, so the least degraded figure
    # is the best estimate; MLPerf: over all single-node submissions of that round and GPU count).
    chosen = 0
    for pid, prefs in STACK_PREFERENCE.items():
        pprec = presets[pid]["precision"]
        want = {"fp16": ("fp16", "bf16"), "bf16": ("bf16", "fp16")}.get(pprec, (pprec,))
        cands = collections.defaultdict(list)
        for o in out:
            if (o["preset_id"] == pid and o["gpu_id"] and o["fit_use"] == "1"
                    and o["precision"] in want and o["stack"] in prefs):
                cands[o["gpu_id"]].append(o)
        for gid, lst in cands.items():
            best_stack = min(prefs.index(o["stack"]) for o in lst)
            lst = [o for o in lst if prefs.index(o["stack"]) == best_stack]
            one = [o for o in lst if o["nodes"] == 1 and o["gpu_count"] <= 8] or lst
            top = max(one, key=lambda o: (float(o["best_per_gpu_value"]), -o["gpu_count"]))
            top["preferred"] = "1"
            chosen += 1

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "training_throughput.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write("# GPU Frontier measured training throughput. Generated by resources/tools/build_benchmarks.py from\n"
                "# shared/data/benchmarks (do not edit by hand). value = whole gpu_count (as published);\n"
                "# per_gpu_value = value / gpu_count (multi-GPU figures include scaling loss). Columns and\n"
                "# selection rules: resources/benchmarks/README.md. Sources: sources.csv (source_id).\n")
        w = csv.DictWriter(f, fieldnames=OUT_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(out)

    counts = collections.Counter(o["source_id"] for o in out)
    spath = os.path.join(args.out, "sources.csv")
    with open(spath, "w", newline="", encoding="utf-8") as f:
        f.write("# Sources of resources/benchmarks/training_throughput.csv (copied from shared/data/benchmarks/sources.csv\n"
                "# by resources/tools/build_benchmarks.py; rows = number of rows taken from the source).\n")
        cols = list(sources[0].keys()) + ["rows"]
        w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        for s in sources:
            d = dict(s)
            d["rows"] = counts.get(s["source_id"], 0)
            w.writerow(d)
    missing = set(counts) - {s["source_id"] for s in sources}
    if missing:
        sys.exit("rows cite unknown sources: %s" % sorted(missing))

    used = sum(1 for o in out if o["fit_use"] == "1")
    print("%d rows (%d usable for fitting, %d excluded), %d preferred preset rows, %d sources -> %s"
          % (len(out), used, len(out) - used, chosen, len(sources), args.out))
    by_preset = collections.Counter(o["preset_id"] for o in out if o["preferred"] == "1")
    for pid in presets:
        print("  %-18s measured on %d GPU ids" % (pid, by_preset.get(pid, 0)))


if __name__ == "__main__":
    main()
