#!/usr/bin/env python3
"""Runs gpufrontier-probe and PyTorch on the same GPU in one run and prints how close the probe
comes to PyTorch (target: at least 90 % for the bf16 and fp16 GEMMs and the device copy).

Usage (on a machine with an NVIDIA GPU, the probe built and torch installed):
    python3 probes/compare_torch.py PATH/TO/gpufrontier-probe [--out DIR]

It times `gpufrontier-probe --quick` and the full run (wall clock), then PyTorch's bf16 and fp16 matmuls on
the probe's GEMM shapes (the same m, n, k) and a 1 GiB device-to-device copy, with CUDA events,
warm-up and the median of the repetitions, as the probe does. Prints one table and writes the two
probe documents and a summary JSON to --out (default: the current folder). This is a benchmark
program: it prints figures and never fails on a speed.
"""

import argparse
import json
import os
import subprocess
import sys
import time


def run_probe(probe, quick):
    args = [probe] + (["--quick"] if quick else [])
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit("%s exited %d:\n%s\n%s" % (" ".join(args), done.returncode, done.stdout, done.stderr))
    return json.loads(done.stdout), wall, done.stdout


def torch_figures(shapes):
    import torch  # imported here so that --help works without torch

    def bench(fn, warm=5, reps=20):
        for _ in range(warm):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(reps):
            s = torch.cuda.Event(enable_timing=True)
            e = torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e))
        return sorted(times)[len(times) // 2]  # ms

    out = {"torch_version": torch.__version__, "device": torch.cuda.get_device_name(0), "gemm": []}
    types = {"bf16": torch.bfloat16, "fp16": torch.float16}
    for dtype, m, n, k in shapes:
        # The probe calls cuBLASLt "TN" with lda = ldb = k (k contiguous, like a linear layer): in
        # row-major torch terms A is m x k and B is n x k, and the column-major m x n result is
        # B @ A^T. torch then issues the same (T, N, m, n, k) GEMM.
        a = torch.rand(m, k, device="cuda", dtype=types[dtype]) * 2 - 1
        b = torch.rand(n, k, device="cuda", dtype=types[dtype]) * 2 - 1
        ms = bench(lambda: b @ a.t())
        out["gemm"].append({"dtype": dtype, "m": m, "n": n, "k": k, "tflops": 2.0 * m * n * k / (ms * 1e-3) / 1e12})
        del a, b
    x = torch.empty(1 << 30, dtype=torch.uint8, device="cuda").random_(0, 255)
    y = torch.empty_like(x)
    ms = bench(lambda: y.copy_(x), reps=30)
    out["copy_gbs"] = 2.0 * (1 << 30) / (ms * 1e-3) / 1e9  # read + write, as the probe counts
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("probe", help="path to gpufrontier-probe")
    ap.add_argument("--out", default=".", help="folder for quick.json, full.json, compare.json")
    opts = ap.parse_args()
    os.makedirs(opts.out, exist_ok=True)

    quick, quick_wall, quick_text = run_probe(opts.probe, True)
    full, full_wall, full_text = run_probe(opts.probe, False)
    for name, text in (("quick.json", quick_text), ("full.json", full_text)):
        with open(os.path.join(opts.out, name), "w") as f:
            f.write(text)

    half = [g for g in full.get("gemm", []) if g.get("dtype") in ("bf16", "fp16")]
    shapes = [(g["dtype"], g["m"], g["n"], g["k"]) for g in half]
    ref = torch_figures(shapes)

    rows = []
    for g, t in zip(half, ref["gemm"]):
        rows.append(("%s GEMM %dx%dx%d" % (g["dtype"], g["m"], g["n"], g["k"]), "TFLOP/s", g["tflops"],
                     t["tflops"]))
    mem = full.get("memory", {})
    rows.append(("device copy (probe kernel)", "GB/s", mem.get("copy_gbs"), ref["copy_gbs"]))
    rows.append(("device copy (cudaMemcpy)", "GB/s", mem.get("memcpy_gbs"), ref["copy_gbs"]))

    print("device: %s   torch %s" % (full.get("device", {}).get("name"), ref["torch_version"]))
    print("probe wall time: quick %.1f s, full %.1f s (targets 10 s, 30 s)" % (quick_wall, full_wall))
    print("%-34s %-8s %10s %10s %7s" % ("measurement", "unit", "probe", "torch", "ratio"))
    summary = {"device": full.get("device", {}).get("name"), "torch_version": ref["torch_version"],
               "quick_wall_s": quick_wall, "full_wall_s": full_wall, "rows": []}
    for name, unit, probe, torch_value in rows:
        ratio = probe / torch_value if probe and torch_value else None
        print("%-34s %-8s %10.1f %10.1f %6.1f%%" % (name, unit, probe or 0, torch_value or 0, 100 * (ratio or 0)))
        summary["rows"].append({"measurement": name, "unit": unit, "probe": probe, "torch": torch_value,
                                "ratio": ratio})
    with open(os.path.join(opts.out, "compare.json"), "w") as f:
        json.dump(summary, f, indent=2)


if __name__ == "__main__":
    main()
