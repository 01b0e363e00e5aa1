#!/usr/bin/env python3
"""Protocol AB (PROJECTION.md section 3.29): MLPerf Training's other workloads (the second data collection's
mlperf_training_v*_1to2node.csv; throughput rows from v1.0 to v5.1, 2021-2025) as a held-out test of the tuned
stack. Scored, never fitted.

A user's figure of one GPU system, carried to the other GPUs of the same round, workload and system layout:
1. Rows: metric train_throughput_logged_median; the figure per GPU is the value / gpu_count unless the unit says
   PER GPU (RetinaNet; its rows of v5.0 and v5.1 are left out, MIXED_LOGGING). Group = (round, workload, nodes,
   GPUs per node: the notes' "N node(s) x M"); a GPU's figure in a group is the median over its submissions. GPU
   names map to the app's ids through GPU_IDS; other names are left out and listed.
2. Workloads with a class the app has (WORKLOADS); the others (DLRM, R-GAT, MiniGo, Stable Diffusion, Flux,
   Llama 3.1 8B, and ResNet-50, a preset with shipped anchors) are left out.
3. Every ordered pair of two different GPUs of a group: `gpufrontier-cli gpus --samples 1000000 --stack tuned
   --flops-per-sample F --workload-class C --measured S --measured-on FROM --no-measurements --no-calibration
   --format json`, the target's single-GPU speed against its per-GPU figure; e = ln(projected / measured) and
   whether the p10-p90 range holds the figure.

The groups ship as resources/benchmarks/mlperf_extra_workloads.csv (one workload per group, its class and F) and
mlperf_extra_rows.csv (one row per GPU of a group, with its submissions' source paths), in the transfer files'
formats; `gpufrontier-cli validate` projects the same pairs (section "MLPerf's other workloads").

Rule AG (section 3.31): a GPU of another vendor takes as its level the median error of the pairs carried to it from
NVIDIA GPUs (its figures' level against the model), derived with the shipped levels backed out (a level multiplies the
GPU's relative speed, so it moves a pair's ln error by exactly its log). `--levels` prints the rule's time split (the
levels from the v5.0 round, scored on the v5.1 pairs of an AMD GPU) and the levels from every round; `--write-levels`
writes those to resources/benchmarks/other_vendor_levels.json (a fixed point: the written levels are derived again).

Usage: score_mlperf_extra.py --cli PATH/gpufrontier-cli [--data DIR] [--pairs]   score (the shipped rows, or DIR's)
       score_mlperf_extra.py --cli PATH/gpufrontier-cli --levels [--write-levels] rule AG on the shipped rows
       score_mlperf_extra.py --write --data DIR                                  rebuild the shipped files from DIR
  DIR: the folder with the mlperf_training_v*_1to2node.csv files (../shared/data/benchmarks/extra)
"""
import argparse
import collections
import csv
import glob
import json
import math
import os
import re
import statistics
import subprocess

# The MLPerf files' GPU names -> the app's ids (resources/gpus.csv). The A30, MI350X and H100 96GB SXM have no row.
GPU_IDS = {
    "A100 40GB PCIe": "a100-40gb-pcie", "A100 40GB SXM4": "a100-40gb-sxm4", "A100 80GB PCIe": "a100-80gb-pcie",
    "A100 80GB SXM4": "a100-80gb-sxm4", "A40": "a40", "L4": "l4", "L40": "l40", "L40S": "l40s",
    "H100 80GB PCIe": "h100-80gb-pcie", "H100 80GB SXM": "h100-80gb-sxm", "H100 NVL 94GB": "h100-94gb-nvl",
    "H200 141GB SXM": "h200-141gb-sxm", "H200 NVL 141GB": "h200-141gb-nvl", "B200 SXM": "b200", "GB200": "gb200",
    "B300 270GB SXM": "b300", "RTX Pro 6000 Blackwell Server Edition 96GB": "rtx-pro-6000-server",
    "MI300X 192GB": "mi300x", "MI325X 256GB": "mi325x", "MI355X 288GB": "mi355x",
}
# Parts whose 8-GPU all-reduce runs over PCIe (no NVLink/xGMI switch in the submitted systems).
PCIE_PARTS = {"a100-40gb-pcie", "a100-80gb-pcie", "a40", "l4", "l40", "l40s", "h100-80gb-pcie",
              "h100-94gb-nvl", "h200-141gb-nvl", "rtx-pro-6000-server"}
def arch_table(repo):
    """GPU id -> architecture, as the app reads it (resources/benchmarks/gpu_arch.csv)."""
    with open(os.path.join(repo, "resources", "benchmarks", "gpu_arch.csv"), newline="", encoding="utf-8") as f:
        return {r["id"]: r["arch"] for r in csv.DictReader(line for line in f if not line.startswith("#"))}


ARCH = arch_table(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LATER_NVIDIA = ("ada", "hopper", "blackwell", "blackwell-gb20x")
# Workload -> (class, training FLOPs per sample, the arithmetic). Estimates, +-50 %: with FLOPs only the tuned
# transfer's traffic is F x the class's bytes per FLOP (rule AC), so a GPU-to-GPU ratio does not depend on F, which
# enters only the plausibility bound.
WORKLOADS = {
    "mlperf-retinanet-openimages": ("detection", 6.6e11, "ResNeXt50-32x4d 4.3 GMAC at 224 x (800/224)^2 = 55, "
                                    "FPN and heads (264 classes) about as much again: 110 GMAC forward x 2 x 3"),
    "mlperf-maskrcnn-coco": ("detection", 8.5e11, "ResNet-50-FPN Mask R-CNN at 800x1333: about 140 GMAC forward "
                             "(backbone, RPN, box and mask heads) x 2 x 3"),
    "mlperf-ssd-resnet34-coco": ("detection", 4.5e10, "ResNet-34 3.6 GMAC at 224 x (300/224)^2 = 6.5, heads 1: "
                                 "7.5 GMAC forward x 2 x 3"),
    "mlperf-rnnt-librispeech": ("recurrent-speech", 6.0e10, "RNN-T 49e6 weights x 6 x about 200 effective frames "
                                "per utterance (LibriSpeech, time-stacked)"),
    "mlperf-unet3d-kits19": ("convolutional", 2.7e12, "3D U-Net (32 base channels) on a 128^3 patch: about "
                             "450 GMAC forward x 2 x 3"),
    "bert-large-pretrain-mlperf": ("transformer", 1.1e12, "BERT-large 335e6 weights x 6 x 512 tokens = 1.03e12, "
                                   "attention 12 x 24 x 1024 x 512^2 = 6.4e10"),
    "mlperf-llama2-70b-lora-finetune": ("transformer", 2.3e15, "Llama 2 70B LoRA at 8192 tokens: forward "
                                        "2 x 69e9 x 8192 = 1.13e15, backward without weight gradients about as "
                                        "much again"),
}


# Rounds whose rows of a workload mix two logging conventions (left out): RetinaNet's throughput is rank-local
# (per GPU) up to v4.1 (B200 x8: 470.7), but from v5.0 some submissions log the whole system (B200 x8: 3,785-3,890,
# GB200 x4: 1,857, two H200 x8 rows of v5.1: 2,453-2,467 beside others at 308), and the file cannot tell which.
MIXED_LOGGING = {"mlperf-retinanet-openimages": ("v5.0", "v5.1")}


# The year of each round's submissions (MLCommons publishes them mid-year and late in the year).
ROUND_YEAR = {"v0.7": 2020, "v1.0": 2021, "v1.1": 2021, "v2.0": 2022, "v2.1": 2022, "v3.0": 2023, "v3.1": 2023,
              "v4.0": 2024, "v4.1": 2024, "v5.0": 2025, "v5.1": 2025}
# A row's system layout, from its notes ("1 node(s) x 8"): groups do not mix one- and two-node systems.
LAYOUT = re.compile(r"(\d+) node\(s\) x (\d+)")


def round_of(path):
    m = re.search(r"mlperf_training_(v[0-9.]+)_1to2node\.csv$", path)
    return m.group(1) if m else os.path.basename(path)


def submissions_of(data_dir):
    """{(round, workload, nodes, GPUs per node): {gpu id: [submission]}} (a submission: per_gpu, name, repo, path, commit, unit)
    and the GPU names left out."""
    figures = collections.defaultdict(lambda: collections.defaultdict(list))
    unmapped = collections.Counter()
    for path in sorted(glob.glob(os.path.join(data_dir, "mlperf_training_v*_1to2node.csv"))):
        with open(path, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                if r["metric"] != "train_throughput_logged_median" or r["workload"] not in WORKLOADS:
                    continue
                if r["workload"] in MIXED_LOGGING and round_of(path) in MIXED_LOGGING[r["workload"]]:
                    continue
                gpu = GPU_IDS.get(r["gpu"])
                if gpu is None:
                    unmapped[r["gpu"]] += 1
                    continue
                count = int(r["gpu_count"])
                layout = LAYOUT.search(r["notes"])
                nodes, per_node = (int(layout.group(1)), int(layout.group(2))) if layout else (1, count)
                per_gpu = float(r["value"]) / (1 if "PER GPU" in r["unit"] else count)
                figures[(round_of(path), r["workload"], nodes, per_node)][gpu].append(
                    {"per_gpu": per_gpu, "name": r["gpu"], "repo": r["source_repo"], "unit": r["unit"],
                     "path": r["source_path_or_url"], "commit": r["commit_or_date"]})
    return {k: dict(v) for k, v in figures.items() if len(v) > 1}, unmapped


def groups_of(data_dir):
    """{(round, workload, nodes, GPUs per node): {gpu id: per-GPU figure (the median of its submissions)}} and the GPU names
    left out."""
    subs, unmapped = submissions_of(data_dir)
    return {k: {g: statistics.median(x["per_gpu"] for x in v) for g, v in gpus.items()} for k, gpus in subs.items()}, \
        unmapped


def group_id(key):
    """The workload id of a group in the shipped files: WORKLOAD@ROUND:NODESxGPUS (GPUs per node)."""
    rnd, workload, nodes, per_node = key
    return "%s@%s:%dx%d" % (workload, rnd, nodes, per_node)


def parse_group_id(gid):
    workload, rest = gid.split("@")
    rnd, layout = rest.split(":")
    nodes, per_node = layout.split("x")
    return rnd, workload, int(nodes), int(per_node)


WORKLOADS_FILE = os.path.join("resources", "benchmarks", "mlperf_extra_workloads.csv")
ROWS_FILE = os.path.join("resources", "benchmarks", "mlperf_extra_rows.csv")
ROW_FIELDS = ["source_id", "workload", "gpu_id", "gpu_src", "batch_per_gpu", "precision", "samples_per_s", "unit",
              "measured", "source_url", "note"]


def shipped_files(subs):
    """The two files' records for the groups: (workload rows, figure rows)."""
    workloads, rows = [], []
    for key in sorted(subs):
        rnd, workload, nodes, per_node = key
        count = nodes * per_node
        cls, flops, basis = WORKLOADS[workload]
        workloads.append({"workload": group_id(key), "class": cls, "unit": "samples", "flops_per_sample": "%.6g" % flops,
                          "flops_basis": basis})
        for gpu in sorted(subs[key]):
            v = subs[key][gpu]
            first = v[0]
            rows.append({"source_id": "MLPERF-TRAIN-%s" % rnd, "workload": group_id(key), "gpu_id": gpu,
                         "gpu_src": first["name"], "batch_per_gpu": "", "precision": "as submitted",
                         "samples_per_s": "%.6g" % statistics.median(x["per_gpu"] for x in v),
                         "unit": "samples/s per GPU, %d node(s) x %d GPUs" % (nodes, per_node),
                         "measured": "MLPerf Training %s (%d); results repository at %s"
                                     % (rnd, ROUND_YEAR[rnd], first["commit"]),
                         "source_url": "https://github.com/%s/tree/%s" % (first["repo"], first["commit"].split(" ")[0]),
                         "note": "median of %d submission(s): %s" % (len(v), "; ".join(sorted(x["path"] for x in v)))})
    return workloads, rows


def write(repo, subs):
    workloads, rows = shipped_files(subs)
    with open(os.path.join(repo, WORKLOADS_FILE), "w", newline="", encoding="utf-8") as f:
        f.write("# MLPerf Training's other workloads (protocol AB, PROJECTION.md section 3.29): one workload per group\n"
                "# (round, workload, nodes x GPUs per node) of the second collection's mlperf_training_v*_1to2node.csv, its class\n"
                "# and training FLOPs per sample (estimates, +-50 %%; flops_basis). Scored in the tuned stack, never\n"
                "# fitted. Built by resources/tools/score_mlperf_extra.py --write --data ../shared/data/benchmarks/extra;\n"
                "# do not edit.\n")
        w = csv.DictWriter(f, fieldnames=["workload", "class", "unit", "flops_per_sample", "flops_basis"],
                           lineterminator="\n")
        w.writeheader()
        w.writerows(workloads)
    with open(os.path.join(repo, ROWS_FILE), "w", newline="", encoding="utf-8") as f:
        f.write("# MLPerf Training closed division, at most 2 nodes / 16 GPUs (mlcommons/training_results_v1.0-v5.1,\n"
                "# Apache-2.0): per GPU, the logged median throughput / the GPU count (RetinaNet's is logged per GPU;\n"
                "# its rows of v5.0 and v5.1 are left out: they mix per-GPU and per-system logging), the median over a\n"
                "# GPU's submissions in the group (note: their result folders). GPUs without an app id (A30, H100 96GB\n"
                "# SXM, MI350X) are left out. Built by resources/tools/score_mlperf_extra.py --write; do not edit.\n")
        w = csv.DictWriter(f, fieldnames=ROW_FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return len(workloads), len(rows)


def shipped_groups(repo):
    """The groups as the shipped rows hold them: {(round, workload, nodes, GPUs per node): {gpu id: figure}}."""
    out = collections.defaultdict(dict)
    with open(os.path.join(repo, ROWS_FILE), newline="", encoding="utf-8") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            out[parse_group_id(r["workload"])][r["gpu_id"]] = float(r["samples_per_s"])
    return dict(out)


def project(cli, workload, from_gpu, speed):
    """The app's tuned projection of every GPU from one figure: {gpu id: (speed, low, high)}."""
    cls, flops, _ = WORKLOADS[workload]
    out = subprocess.run([cli, "gpus", "--samples", "1000000", "--stack", "tuned", "--flops-per-sample", "%.6g" % flops, "--workload-class",
                          cls, "--measured", "%.6g" % speed, "--measured-on", from_gpu, "--no-measurements",
                          "--no-calibration", "--format", "json"], check=True, capture_output=True, text=True).stdout
    rows = {}
    for g in json.loads(out)["gpus"]:
        if g.get("projected") and g.get("samples_per_s"):
            rows[g["id"]] = (g["samples_per_s"], g["samples_per_s_low"], g["samples_per_s_high"])
    return rows


LEVELS_FILE = os.path.join("resources", "benchmarks", "other_vendor_levels.json")
# GpuArch::otherVendor(): the architectures of other vendors than NVIDIA.
OTHER_VENDOR = ("cdna", "rdna", "tpu", "gaudi", "ai100")
# The workloads' names in the levels' evidence (the app's basis text).
WORKLOAD_NAMES = {"mlperf-retinanet-openimages": "RetinaNet", "mlperf-maskrcnn-coco": "Mask R-CNN",
                  "mlperf-ssd-resnet34-coco": "SSD", "mlperf-rnnt-librispeech": "RNN-T", "mlperf-unet3d-kits19": "UNet3D",
                  "bert-large-pretrain-mlperf": "BERT pre-training",
                  "mlperf-llama2-70b-lora-finetune": "Llama 2 70B LoRA"}
# Rule AG's time split (decided before its figures, session log of 2026-11-29): derive on the earlier round, test on
# the later one.
AG_DERIVE_ROUNDS = ("v5.0",)
AG_TEST_ROUNDS = ("v5.1",)


def other_vendor(gpu):
    return ARCH.get(gpu) in OTHER_VENDOR


def shipped_levels(repo):
    """{gpu id: log level} of the shipped other_vendor_levels.json (empty where it has none)."""
    path = os.path.join(repo, LEVELS_FILE)
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return {g: v["log_level"] for g, v in json.load(f)["levels"].items()}


def shifted(pairs, levels, base=None):
    """The pairs as the app would project them with `levels` instead of `base` (the levels they were projected with):
    a level multiplies its GPU's relative speed, so a pair's ln error moves by L(to) - L(from), its range with it."""
    base = base or {}
    out = []
    for p in pairs:
        d = levels.get(p["to"], 0.0) - base.get(p["to"], 0.0) - levels.get(p["from"], 0.0) + base.get(p["from"], 0.0)
        e = p["log_error"] + d
        out.append(dict(p, log_error=e, projected=p["projected"] * math.exp(d),
                        inside=p["range_p10"] - 1e-12 <= e <= p["range_p90"] + 1e-12))
    return out


def levels_from(pairs, rounds):
    """Rule AG: {gpu: (log level, pairs)} for each other vendor's GPU with pairs from NVIDIA GPUs in `rounds`: minus
    the median of their ln errors (pairs projected without any level)."""
    out = {}
    for g in sorted({p["to"] for p in pairs if other_vendor(p["to"])}):
        es = [p["log_error"] for p in pairs if p["to"] == g and not other_vendor(p["from"]) and p["round"] in rounds]
        if es:
            out[g] = (-statistics.median(es), len(es))
    return out


def ag_report(pairs_without):
    """Rule AG's time split and shipped levels from pairs projected without any level."""
    derive = {g: round(v[0], 4) for g, v in levels_from(pairs_without, AG_DERIVE_ROUNDS).items()}
    test = [p for p in pairs_without if p["round"] in AG_TEST_ROUNDS and (other_vendor(p["to"]) or other_vendor(p["from"]))]
    shipped = levels_from(pairs_without, set(ROUND_YEAR))
    rounded = {g: round(v[0], 4) for g, v in shipped.items()}
    amd = [p for p in pairs_without if other_vendor(p["to"]) or other_vendor(p["from"])]
    return {"derive_levels": derive, "test_before": summary(test), "test_after": summary(shifted(test, derive)),
            "levels": shipped, "rounded": rounded, "amd_before": summary(amd), "amd_after": summary(shifted(amd, rounded)),
            "all_before": summary(pairs_without), "all_after": summary(shifted(pairs_without, rounded))}


def levels_json(pairs_without, rep):
    """other_vendor_levels.json's content."""
    levels = {}
    for g, (level, n) in sorted(rep["levels"].items()):
        workloads = sorted({p["workload"] for p in pairs_without if p["to"] == g and not other_vendor(p["from"])})
        rounds = sorted({p["round"] for p in pairs_without if p["to"] == g and not other_vendor(p["from"])})
        names = ", ".join(WORKLOAD_NAMES.get(w, w) for w in workloads)
        levels[g] = {"log_level": round(level, 4), "pairs": n,
                     "evidence": "%s, MLPerf Training %s" % (names, " and ".join(rounds))}
    fmt = lambda s: {"n": s["n"], "median_abs_log_error": round(s["median"], 4), "max_abs_log_error": round(s["max"], 4),
                     "coverage": round(s["coverage"], 4)}
    return {"schema_version": 1,
            "generated_by": "resources/tools/score_mlperf_extra.py --cli build/dev/app/gpufrontier-cli --levels "
                            "--write-levels",
            "rule": "Rule AG (PROJECTION.md section 3.31): a GPU of another vendor with MLPerf Training figures "
                    "(protocol AB, mlperf_extra_rows.csv) takes as log_level minus the median ln(projected / measured) "
                    "of the pairs carried to it from NVIDIA GPUs of the same round, workload and layout, projected "
                    "without any level; the app multiplies the GPU's relative speed by exp(log_level).",
            "levels": levels,
            "time_split": {"derive_rounds": list(AG_DERIVE_ROUNDS), "test_rounds": list(AG_TEST_ROUNDS),
                           "derived_levels": {g: round(v, 4) for g, v in sorted(rep["derive_levels"].items())},
                           "test_pairs_before": fmt(rep["test_before"]), "test_pairs_after": fmt(rep["test_after"])}}


def pairs_of(cli, groups):
    out = []
    for (rnd, workload, nodes, per_node), gpus in sorted(groups.items()):
        for src, speed in sorted(gpus.items()):
            proj = project(cli, workload, src, speed)
            for dst, measured in sorted(gpus.items()):
                if dst == src or dst not in proj:
                    continue
                p, lo, hi = proj[dst]
                out.append({"round": rnd, "workload": workload, "layout": "%dx%d" % (nodes, per_node), "from": src,
                            "to": dst,
                            "measured": measured, "projected": p, "log_error": math.log(p / measured),
                            "range_p10": math.log(p / hi), "range_p90": math.log(p / lo),
                            "inside": lo <= measured <= hi})
    return out


def summary(pairs):
    if not pairs:
        return None
    a = [abs(p["log_error"]) for p in pairs]
    return {"n": len(a), "median": statistics.median(a), "max": max(a),
            "signed_median": statistics.median(p["log_error"] for p in pairs),
            "coverage": sum(1 for p in pairs if p["inside"]) / len(a)}


def report(pairs):
    """[(label, summary)] in the order the tool prints them."""
    lines = [("all", summary(pairs))]
    archs = []
    for p in pairs:
        if ARCH[p["to"]] not in archs:
            archs.append(ARCH[p["to"]])
    for arch in archs:
        lines.append(("to %s" % arch, summary([p for p in pairs if ARCH[p["to"]] == arch])))
    lines.append(("from Ampere to a later NVIDIA architecture",
                  summary([p for p in pairs if ARCH[p["from"]] == "ampere" and ARCH[p["to"]] in LATER_NVIDIA])))
    lines.append(("from Hopper to Blackwell", summary([p for p in pairs if ARCH[p["from"]] == "hopper"
                                                         and ARCH[p["to"]].startswith("blackwell")])))
    lines.append(("from an NVIDIA GPU to an AMD one", summary([p for p in pairs if not ARCH[p["from"]].startswith("cdna")
                                                                and ARCH[p["to"]].startswith("cdna")])))
    lines.append(("both parts NVLink / xGMI", summary([p for p in pairs if p["from"] not in PCIE_PARTS
                                                         and p["to"] not in PCIE_PARTS])))
    lines.append(("a PCIe part on either side", summary([p for p in pairs if p["from"] in PCIE_PARTS
                                                           or p["to"] in PCIE_PARTS])))
    for w in WORKLOADS:
        lines.append((w, summary([p for p in pairs if p["workload"] == w])))
    return [(label, s) for label, s in lines if s]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", help="gpufrontier-cli (to score)")
    ap.add_argument("--data", help="the folder of mlperf_training_v*_1to2node.csv (default: score the shipped rows)")
    ap.add_argument("--write", action="store_true", help="rebuild the shipped files from --data")
    ap.add_argument("--pairs", action="store_true", help="print every pair")
    ap.add_argument("--levels", action="store_true", help="rule AG: the time split and the levels (shipped rows)")
    ap.add_argument("--write-levels", action="store_true", help="with --levels: write %s" % LEVELS_FILE)
    args = ap.parse_args()
    repo = os.path.join(here, "..", "..")
    if args.write:
        if not args.data:
            ap.error("--write needs --data")
        n_w, n_r = write(repo, submissions_of(args.data)[0])
        print("wrote %d groups to %s and %d rows to %s" % (n_w, WORKLOADS_FILE, n_r, ROWS_FILE))
        return
    if not args.cli:
        ap.error("--cli is needed to score")
    if args.levels:
        base = shipped_levels(repo)
        without = shifted(pairs_of(args.cli, shipped_groups(repo)), {}, base)
        rep = ag_report(without)
        row = lambda label, s: print("%-58s %3d %10.3f %8.3f %8.0f %%" % (label, s["n"], s["median"], s["max"],
                                                                       100 * s["coverage"]))
        print("Rule AG (section 3.31), levels from %s: %s" % ("/".join(AG_DERIVE_ROUNDS), ", ".join(
            "%s %+.4f" % kv for kv in sorted(rep["derive_levels"].items()))))
        print("%-58s %3s %10s %8s %10s" % ("pairs", "n", "median |e|", "max |e|", "coverage"))
        row("%s pairs of an AMD GPU, without levels" % "/".join(AG_TEST_ROUNDS), rep["test_before"])
        row("%s pairs of an AMD GPU, with the %s levels (held out)" % ("/".join(AG_TEST_ROUNDS),
                                                                      "/".join(AG_DERIVE_ROUNDS)), rep["test_after"])
        print("Levels from every round (shipped): %s" % ", ".join("%s %+.4f (%d pairs)" % (g, v[0], v[1])
                                                                   for g, v in sorted(rep["levels"].items())))
        row("every pair of an AMD GPU, without levels", rep["amd_before"])
        row("every pair of an AMD GPU, with them (in sample)", rep["amd_after"])
        row("all pairs, without levels", rep["all_before"])
        row("all pairs, with them", rep["all_after"])
        if args.write_levels:
            with open(os.path.join(repo, LEVELS_FILE), "w", encoding="utf-8") as f:
                json.dump(levels_json(without, rep), f, indent=2)
                f.write("\n")
            print("wrote %s" % LEVELS_FILE)
        return
    if args.data:
        groups, unmapped = groups_of(args.data)
        left_out = ", ".join("%s (%d rows)" % kv for kv in sorted(unmapped.items())) or "none"
    else:
        groups, left_out = shipped_groups(repo), "see %s's header" % ROWS_FILE
    pairs = pairs_of(args.cli, groups)
    print("%d groups (round, workload, nodes x GPUs) with 2+ GPUs; %d pairs; GPU names left out: %s"
          % (len(groups), len(pairs), left_out))
    print("%-44s %5s %10s %8s %13s %9s" % ("pairs (tuned stack)", "n", "median |e|", "max |e|", "median e", "coverage"))
    for label, s in report(pairs):
        print("%-44s %5d %10.3f %8.3f %+13.3f %8.0f %%" % (label, s["n"], s["median"], s["max"], s["signed_median"],
                                                           100 * s["coverage"]))
    if args.pairs:
        for p in sorted(pairs, key=lambda p: -abs(p["log_error"])):
            print("  %+.3f %s %s %s: %s -> %s (%.4g measured, %.4g projected)%s"
                  % (p["log_error"], p["round"], p["workload"], p["layout"], p["from"], p["to"], p["measured"],
                     p["projected"], "" if p["inside"] else "  outside"))


if __name__ == "__main__":
    main()
