#!/usr/bin/env python3
"""Protocol AB and rule AC (PROJECTION.md section 3.29): resources/tools/score_mlperf_extra.py.

1. The rows (tests/fixtures/mlperf-extra, real rows of the shared files): throughput per GPU (divided by the GPU
   count, RetinaNet's logged per GPU), the median over submissions, workloads without a class and the rounds of
   mixed logging left out, names without an app id listed.
2. The pairs through the app: a pair and its reverse err by opposite amounts; rule AC: the tuned stack's H100 lead
   over the A100 on UNet3D given without bytes is below the compute-bound one (bytes ~ 0 typed) and nearer MLPerf's.
3. The shipped rows (resources/benchmarks/mlperf_extra_*.csv): `gpufrontier-cli validate` scores the same pairs, with
   the same summaries, as the tool.
4. Where ../shared exists, the shipped rows are what --write builds, and the figures section 3.29 quotes (the app
   before rule AG: the shipped levels backed out).
5. Rule AG (section 3.31): the shipped levels are a fixed point of --levels, validate's time split is the file's, and
   the figures are the section's.
Usage: check_mlperf_extra.py REPO CLI
"""
import csv
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolcheck import check, finish, repo  # noqa: E402
import score_mlperf_extra as ab  # noqa: E402


def main():
    cli = sys.argv[2]

    # 1. The rows.
    groups, unmapped = ab.groups_of(os.path.join(repo, "tests", "fixtures", "mlperf-extra"))
    check(sorted(groups) == [("v3.0", "mlperf-unet3d-kits19", 1, 8), ("v4.1", "mlperf-retinanet-openimages", 1, 8)],
          "two groups: DLRM (no class) and v5.0 RetinaNet (mixed logging) left out (%r)" % sorted(groups))
    check(dict(unmapped) == {"A30": 3}, "the A30 has no app id: listed (%r)" % dict(unmapped))
    unet = groups[("v3.0", "mlperf-unet3d-kits19", 1, 8)]
    check(abs(unet["h100-80gb-sxm"] - 70.3251875) < 1e-9, "UNet3D per GPU: system / 8, median of submissions")
    check(abs(groups[("v4.1", "mlperf-retinanet-openimages", 1, 8)]["b200"] - 470.679) < 1e-9,
          "RetinaNet's throughput is logged per GPU: not divided")

    check(ab.LAYOUT.search("submitter X; 2 node(s) x 4; global batch").groups() == ("2", "4"),
          "a row's layout is read from its notes")
    check(ab.group_id(("v5.0", "w", 2, 4)) == "w@v5.0:2x4" and ab.parse_group_id("w@v5.0:2x4") == ("v5.0", "w", 2, 4),
          "a group's id names its layout and reads back")

    # 2. The pairs.
    pairs = ab.pairs_of(cli, groups)
    check(len(pairs) == 4 * 3 + 4 * 3, "every ordered pair of the two groups' four GPUs (%d)" % len(pairs))
    by = {(p["workload"], p["from"], p["to"]): p["log_error"] for p in pairs}
    check(all(abs(e + by[(w, b, a)]) < 1e-3 for (w, a, b), e in by.items()), "a pair and its reverse")
    a100, h100 = unet["a100-80gb-sxm4"], unet["h100-80gb-sxm"]
    ac = ab.project(cli, "mlperf-unet3d-kits19", "a100-80gb-sxm4", a100)["h100-80gb-sxm"][0] / a100
    _, flops, _ = ab.WORKLOADS["mlperf-unet3d-kits19"]
    out = subprocess.run([cli, "gpus", "--samples", "1000000", "--stack", "tuned", "--flops-per-sample", "%.6g" % flops,
                          "--bytes-per-sample", "1", "--workload-class", "convolutional", "--measured", "%.6g" % a100,
                          "--measured-on", "a100-80gb-sxm4", "--no-measurements", "--no-calibration", "--format",
                          "json"], check=True, capture_output=True, text=True).stdout
    peak = {g["id"]: g for g in json.loads(out)["gpus"]}["h100-80gb-sxm"]["samples_per_s"] / a100
    measured = h100 / a100
    check(ac < 0.85 * peak and abs(math.log(ac / measured)) < abs(math.log(peak / measured)),
          "rule AC: H100 / A100 on UNet3D %.2f, compute-bound %.2f, MLPerf v3.0 %.2f" % (ac, peak, measured))

    # 3. The shipped rows: the app's validate scores the same pairs as the tool (every line the two share).
    shipped_pairs = ab.pairs_of(cli, ab.shipped_groups(repo))
    tool_lines = dict(ab.report(shipped_pairs))
    data = json.loads(subprocess.run([cli, "validate", "--format", "json"], check=True, capture_output=True,
                                     text=True).stdout)["tuned_transfer_mlperf"]
    check(len(data["pairs"]) == len(shipped_pairs) == 366, "validate's pairs are the tool's (%d, %d)"
          % (len(data["pairs"]), len(shipped_pairs)))
    check(not data["skipped"], "validate skips no figure (%r)" % data["skipped"])
    shared_labels = 0
    for line in data["lines"]:
        t = tool_lines.get(line["label"])
        if t is None:
            check(False, "the tool prints validate's line %r" % line["label"])
            continue
        shared_labels += 1
        check(t["n"] == line["n"] and abs(t["median"] - line["median_abs_log_error"]) < 1e-6
              and abs(t["max"] - line["max_abs_log_error"]) < 1e-6 and abs(t["coverage"] - line["coverage"]) < 1e-9,
              "validate's %r equals the tool's (%r, %r)" % (line["label"], line, t))
    check(shared_labels >= 12, "validate prints all, the architectures, the two directions and the workloads")

    # 4. The shipped files are what the tool builds from the shared files (where they are).
    shared = os.path.join(os.path.dirname(os.path.abspath(repo)), "shared", "data", "benchmarks", "extra")
    if os.path.isdir(shared):
        workloads, rows = ab.shipped_files(ab.submissions_of(shared)[0])
        for name, built in ((ab.ROWS_FILE, rows), (ab.WORKLOADS_FILE, workloads)):
            with open(os.path.join(repo, name), newline="", encoding="utf-8") as f:
                shipped = list(csv.DictReader(line for line in f if not line.startswith("#")))
            check(shipped == built, "%s is what --write builds from ../shared" % name)
        # Section 3.29's figures are of the app before rule AG: the shipped levels backed out.
        full = ab.report(ab.shifted(ab.pairs_of(cli, ab.groups_of(shared)[0]), {}, ab.shipped_levels(repo)))
        got = {label: s for label, s in full}
        quoted = {"all": (366, 0.077, 0.524, 71), "from Ampere to a later NVIDIA architecture": (39, 0.097, 0.481, 74),
                  "from Hopper to Blackwell": (9, 0.117, 0.202, 78),
                  "from an NVIDIA GPU to an AMD one": (13, 0.369, 0.524, 62)}
        for label, (n, med, mx, cov) in quoted.items():
            s = got.get(label)
            check(s and s["n"] == n and round(s["median"], 3) == med and round(s["max"], 3) == mx
                  and round(100 * s["coverage"]) == cov, "%s as section 3.29 quotes it (%r)" % (label, s))
    else:
        print("(../shared not here: the full files' figures are not checked)")

    # 5. Rule AG (section 3.31): the shipped levels are what the rule derives from the app's pairs with them backed
    # out (a fixed point), its time split is the file's and validate's, and the figures are the section's.
    levels = ab.shipped_levels(repo)
    without = ab.shifted(shipped_pairs, {}, levels)
    rep = ab.ag_report(without)
    check(rep["rounded"] == levels, "the shipped levels are a fixed point (%r, %r)" % (rep["rounded"], levels))
    with open(os.path.join(repo, ab.LEVELS_FILE), encoding="utf-8") as f:
        shipped = json.load(f)
    check(shipped == ab.levels_json(without, rep), "other_vendor_levels.json is what --write-levels writes")
    split = shipped["time_split"]
    held = data.get("vendor_levels_held_out", [])
    check(len(held) == 2, "validate prints the time split's two lines (%r)" % held)
    for line, key in zip(held, ("test_pairs_before", "test_pairs_after")):
        s = split[key]
        check(line["n"] == s["n"] and abs(line["median_abs_log_error"] - s["median_abs_log_error"]) < 1e-4
              and abs(line["max_abs_log_error"] - s["max_abs_log_error"]) < 1e-4
              and abs(line["coverage"] - s["coverage"]) < 1e-4, "validate's %r is the tool's %r" % (line, s))
    quoted = {"test_before": (18, 0.257, 0.449, 39), "test_after": (18, 0.061, 0.117, 89),
              "amd_after": (36, 0.039, 0.117, 100), "all_after": (366, 0.068, 0.481, 78)}
    for key, (n, med, mx, cov) in quoted.items():
        s = rep[key]
        check(s["n"] == n and round(s["median"], 3) == med and round(s["max"], 3) == mx
              and round(100 * s["coverage"]) == cov, "rule AG's %s as section 3.31 quotes it (%r)" % (key, s))
    check(set(levels) == {"mi300x", "mi325x", "mi355x"} and levels["mi300x"] < -0.3 < levels["mi325x"] < -0.2,
          "the MI300X and MI325X ran well below the model, the MI355X near it (%r)" % levels)
    finish()


if __name__ == "__main__":
    main()
