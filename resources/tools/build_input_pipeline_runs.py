#!/usr/bin/env python3
"""Builds resources/benchmarks/input_pipeline_runs.csv: the real-data runs of Lambda's TensorFlow suite beside
the synthetic run of the same host, GPUs, precision, network and batch (issue 22 item 4, PROJECTION.md
section 3.19, rule K fixed before any figure).

Each real-data run of tf_cnn_benchmarks (log configuration "real-...", with or without "-distortions") reads and
decodes ImageNet JPEGs on the host's CPUs; the synthetic run of the same log directory does not. The synthetic
figure is the GPU side measured, so the pair isolates the input pipeline: `gpufrontier-cli validate` projects
each real run as the app projects an offer capped by its pipeline (the host's threads / the resnet50 preset's
CPU seconds per image, with the shipped pipeline range) and scores the real figure.

The hosts' thread counts are judgement, fixed with rule K from the CPU the log directory names (a vCPU is a
hardware thread): HOST_THREADS below. Hosts whose directory names no CPU (Lambda Cloud instances) are left
out; the header lists them. Standard library only. Usage (repository root):
    python3 resources/tools/build_input_pipeline_runs.py --shared ../shared/data
"""

import argparse
import csv
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from build_transfer_rows import TF_FILE, TF_SOURCE, TF_URL  # noqa: E402
from fit_typical_stack import BENCH, read_csv  # noqa: E402

FIELDS = ["source_id", "host", "cpu", "host_threads", "gpu_src", "gpu_count", "network", "precision",
          "batch_per_gpu", "distortions", "real_images_per_s", "synthetic_images_per_s", "source_path"]

# Log host directory prefix -> (CPU, hardware threads of the host, why). Judgement fixed by rule K.
HOST_THREADS = {
    "i7-6850K": ("Intel Core i7-6850K", 12, "6 cores / 12 threads, a single-socket part"),
    "3960X": ("AMD Threadripper 3960X", 48, "24 cores / 48 threads, a single-socket part"),
    "3970X": ("AMD Threadripper 3970X", 64, "32 cores / 64 threads, a single-socket part"),
    "7742": ("AMD EPYC 7742 (2 sockets)", 256,
             "64 cores / 128 threads per socket, two sockets as in the 8-GPU A100 servers these runs come from"),
    "Gold_6230": ("Intel Xeon Gold 6230 (2 sockets)", 80,
                  "20 cores / 40 threads per socket, two sockets: a multi-socket server part"),
}
LOG = re.compile(r"logs/([^/]+)\.logs/([^/]+)/([^/]+)/")


def host_cpu(host):
    for prefix, cpu in HOST_THREADS.items():
        if host.startswith(prefix + "-"):
            return cpu
    return None


def input_runs(shared):
    """The rows of input_pipeline_runs.csv and the hosts left out (no CPU named)."""
    rows = read_csv(os.path.join(shared, "benchmarks", "extra", TF_FILE))
    by_log = {}
    for r in rows:
        m = LOG.match(r["source_path_or_url"])
        if m:
            by_log[m.groups()] = r
    out, left_out = [], set()
    for (host, config, run), r in sorted(by_log.items()):
        if not config.startswith("real-"):
            continue
        syn = by_log.get((host, "syn-" + config[len("real-"):].replace("-distortions", ""), run))
        if syn is None:
            continue
        cpu = host_cpu(host)
        if cpu is None:
            left_out.add(host)
            continue
        precision = "fp16" if "-fp16-" in config else "fp32"
        out.append({"source_id": TF_SOURCE, "host": host, "cpu": cpu[0], "host_threads": str(cpu[1]),
                    "gpu_src": r["gpu"], "gpu_count": r["gpu_count"], "network": run.split("-")[0],
                    "precision": precision, "batch_per_gpu": r["batch_size_per_gpu"],
                    "distortions": "yes" if config.endswith("-distortions") else "no",
                    "real_images_per_s": r["value"], "synthetic_images_per_s": syn["value"],
                    "source_path": r["source_path_or_url"]})
    return out, sorted(left_out)


# Rule K3 (PROJECTION.md section 3.19): the pipeline range in the app's LogRange convention is re-derived from
# the runs that the judged range it replaced (p10 -0.336, p90 +0.357, i.e. 0.70x-1.40x) scored as bound at its
# slow end, keeping those whose real figure is at most 0.80x the synthetic one (the pipeline clearly binds).
JUDGED_RANGE = (-0.336, 0.357)
RESNET50_CPU_S = 0.008  # the resnet50 preset's cpu_core_seconds_per_sample (resources/workloads.json)
CLEARLY_BOUND = 0.80


def weighted_percentile(values, weights, q):
    """The smallest value whose cumulative weight reaches q of the total (values sorted ascending)."""
    pairs = sorted(zip(values, weights))
    total, acc = sum(weights), 0.0
    for v, w in pairs:
        acc += w
        if acc >= q * total - 1e-12:
            return v
    return pairs[-1][0]


def k3_range(rows, cpu_s=RESNET50_CPU_S):
    """Rule K3: (p10, p90) in the LogRange convention (true rate = cap x [exp(-p90), exp(-p10)]): the host-
    weighted 10th / 90th percentiles of ln(real / cap) over the clearly bound runs, widened to contain 0. With two
    hosts, one of two runs, each end is one run's figure (the fast end the i7's AlexNet FP32 with distortions)."""
    logs, hosts = [], []
    for r in rows:
        cap = int(r["host_threads"]) / cpu_s
        real, syn = float(r["real_images_per_s"]), float(r["synthetic_images_per_s"])
        if cap * math.exp(-JUDGED_RANGE[1]) < syn and real <= CLEARLY_BOUND * syn:
            logs.append(math.log(real / cap))
            hosts.append(r["cpu"])
    weights = [1.0 / hosts.count(h) for h in hosts]
    low = min(weighted_percentile(logs, weights, 0.10), 0.0)
    high = max(weighted_percentile(logs, weights, 0.90), 0.0)
    return -high, -low


def k4_data_path(rows, cpu_s=RESNET50_CPU_S, slow=0.659):
    """Rule K4 (PROJECTION.md section 3.28, rejected): the data path's cost where the CPUs keep up. Over the runs
    the shipped range's slow end (cap x exp(-slow)) does not bind, q = the CPU-weighted 10th percentile of
    ln(real / synthetic), capped at 0; held out one CPU at a time, q from the other CPUs and the share of the held-
    out CPU's runs at or above it. Returns (q, {cpu: (n, q_without_it, runs >= q_without_it)})."""
    by_cpu = {}
    for r in rows:
        cap = int(r["host_threads"]) / cpu_s
        syn = float(r["synthetic_images_per_s"])
        if cap * math.exp(-slow) >= syn:
            by_cpu.setdefault(r["cpu"], []).append(math.log(float(r["real_images_per_s"]) / syn))

    def q_of(groups):
        logs = [x for g in groups.values() for x in g]
        weights = [1.0 / len(g) for g in groups.values() for _ in g]
        return min(weighted_percentile(logs, weights, 0.10), 0.0)

    held = {}
    for cpu, logs in by_cpu.items():
        q = q_of({c: g for c, g in by_cpu.items() if c != cpu})
        held[cpu] = (len(logs), q, sum(1 for x in logs if x >= q))
    return q_of(by_cpu), held


def pipeline_coverage(rows, q=0.0, cpu_s=RESNET50_CPU_S, slow=0.659, fast=0.232):
    """The pipeline check as `validate` runs it (each run an offer capped by its pipeline, the GPU side its synthetic
    figure), with the GPU side's slow end multiplied by e^q (rule K4's (b) and (c)): (runs the slow end binds, of them
    inside the range, flagged cpu-bound runs, of them inside)."""
    bound = inside = flagged = flagged_inside = 0
    for r in rows:
        cap = int(r["host_threads"]) / cpu_s
        syn, real = float(r["synthetic_images_per_s"]), float(r["real_images_per_s"])
        if not cap * math.exp(-slow) < syn:
            continue
        low, high = min(syn * math.exp(q), cap * math.exp(-slow)), min(syn, cap * math.exp(fast))
        ok = low <= real <= high
        bound += 1
        inside += ok
        if cap < syn:
            flagged += 1
            flagged_inside += ok
    return bound, inside, flagged, flagged_inside


def shipped_constant(p10, p90):
    """The range rounded outward to 3 decimals, as offerprojection.h ships it (rounding inward would leave the run
    that sets an end just outside its own range)."""
    return math.floor(p10 * 1000) / 1000, math.ceil(p90 * 1000) / 1000


def write(path, out, left_out):
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write("# Lambda's TensorFlow suite (LAMBDA-TF-2021): every real-data run (JPEGs decoded on the host's CPUs)\n"
                "# beside the synthetic run of the same host, GPUs, precision, network and batch; the pipeline check\n"
                "# of `gpufrontier-cli validate` (PROJECTION.md section 3.19, rule K). host_threads is judgement from\n"
                "# the CPU the log directory names:\n")
        for prefix, (cpu, threads, why) in HOST_THREADS.items():
            f.write("#   %s: %s, %d threads (%s)\n" % (prefix, cpu, threads, why))
        f.write("# (resources/tools/build_input_pipeline_runs.py --shared; do not edit). Source: %s\n" % TF_URL)
        for host in left_out:
            f.write("# left out: %s (its log directory names no CPU)\n" % host)
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", required=True, help="the shared data folder (../shared/data)")
    args = ap.parse_args()
    out, left_out = input_runs(args.shared)
    path = os.path.join(BENCH, "input_pipeline_runs.csv")
    write(path, out, left_out)
    print("wrote %d rows to %s (%d hosts left out)" % (len(out), path, len(left_out)))
    p10, p90 = shipped_constant(*k3_range(out))
    print("rule K3: kInputPipelineRange{%.3f, %.3f} (the pipeline's rate %.2fx-%.2fx of the cap)"
          % (p10, p90, math.exp(-p90), math.exp(-p10)))
    q, held = k4_data_path(out)
    print("rule K4 (rejected): the data path's slow end %.3f (x%.3f); leave one CPU out:" % (q, math.exp(q)))
    for cpu, (n, q_cpu, at_or_above) in held.items():
        print("  %s: q from the others %.3f holds %d of its %d runs (%.0f %%)"
              % (cpu, q_cpu, at_or_above, n, 100.0 * at_or_above / n))


if __name__ == "__main__":
    main()
