#!/usr/bin/env python3
"""Rule X (PROJECTION.md section 3.25): the H200 run of ryujaehun's eager-PyTorch loop
(tests/fixtures/probe/h200-ryu-2026-11-28/runs.csv) against RYU-PT-2025, scored with the app
(resources/tools/score_ryu_h200.py).

1. The fixture: every model of the RYU rows has a batch-12 figure on the H200; each row's images/s is
   batch / its mean step; each busy share lies in (0, 1].
2. Rule S3 across GPUs and hosts: the H200's figure with its measured busy share, carried to the RYU GPUs,
   is held by the app's range at least 70 % of the time, and its median error is below that of the same
   figure without the busy share (the claim section 3.25 makes).
3. Rule W: a figure typed without a busy share more than 13x below the model (the share so taken is well under
   kHostBoundBusy) puts no GPU above it at its batch: the H200's point is at most that figure.
Usage: check_ryu_h200.py REPO CLI
"""
import csv
import importlib.util
import os
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    repo, cli = sys.argv[1], sys.argv[2]
    spec = importlib.util.spec_from_file_location("score", os.path.join(repo, "resources", "tools", "score_ryu_h200.py"))
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)

    runs = list(csv.DictReader(open(os.path.join(repo, score.FIXTURE))))
    for r in runs:
        per_s = int(r["batch"]) * 1000.0 / float(r["ms_mean"])
        if abs(per_s - float(r["samples_per_s"])) > 0.001 * per_s + 0.05:
            fail("%s batch %s run %s: %s images/s is not batch / the mean step (%.1f)" % (
                r["model"], r["batch"], r["run"], r["samples_per_s"], per_s))
        if not 0 < float(r["gpu_busy_fraction"]) <= 1:
            fail("%s batch %s: busy share %s" % (r["model"], r["batch"], r["gpu_busy_fraction"]))
    models = {r["workload"][: -len("-pt-eager")] for r in score.ryu_rows(repo)}
    missing = sorted(models - set(score.h200_figures(repo)))
    if missing or len(models) != 32:
        fail("RYU models without an H200 figure at batch 12: %s (of %d)" % (missing, len(models)))

    res = score.score(repo, score.Cli(cli))
    busy, none = score.summary(res["b_busy"]["all"]), score.summary(res["b_none"]["all"])
    print("(b) with the busy share " + score.fmt(busy))
    print("(b) without it          " + score.fmt(none))
    if busy["coverage"] < 0.70 or not busy["median"] < none["median"]:
        fail("rule S3 across GPUs: the busy share no longer gives >= 70 % coverage and a lower median")
    w_rows = [r for _, _, r in res["a"]["all"] if r["ratio"] < 0.075]
    if len(w_rows) < 20:
        fail("only %d figures are more than 13x below the model; expected the light CNNs" % len(w_rows))
    for r in w_rows:
        if r["projected"] > r["figure"] * (1 + 1e-9):
            fail("rule W: %s from %s (%.1f/s, %.3f of the model) puts the H200 at %.1f/s, above the figure" % (
                r["model"], r["gpu"], r["figure"], r["ratio"], r["projected"]))
    a = score.summary(res["a"]["all"])
    print("(a) into the H200       " + score.fmt(a) + "; %d figures read as host-bound (rule W)" % len(w_rows))
    print("PASS")


if __name__ == "__main__":
    main()
