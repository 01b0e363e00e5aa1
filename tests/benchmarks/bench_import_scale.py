#!/usr/bin/env python3
"""Import scale benchmark (a program that prints figures, not a test): one or more builds side by side.

Generates (or reuses) a catalog CSV of --offers offers (gen_catalog.py: the vast.ai marketplace file, the
largest) and a vast.ai offer search answer of --vast-offers offers (gen_vast_answer.py; --vast-shape slim,
the default: ~650 bytes an offer, so the default 400,000 offers are ~260 MB, issue 26's answer), then
imports each into a fresh database with every given `gpufrontier-cli`, --repeat times, in turns (build A,
build B, A, B, ...) so that a change of the machine's load hits both; python's json.load of the vast.ai
answer runs in the same turns as the reference (issue 26: the import at least as fast). Prints the wall
time, the CPU time (user + system) and the peak RSS (wait4) of every run with the 1-minute load average
when it started: on a shared machine the load matters as much as the figure, and the CPU time less.

    bench_import_scale.py --cli before=/work/main/build/release/app/gpufrontier-cli \\
                          --cli after=build/release/app/gpufrontier-cli \\
                          [--offers 200000] [--vast-offers 400000] [--vast-shape slim|full] [--repeat 2]
                          [--only vast|csv] [--no-python] [--dir /tmp/gf-import]
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(argv, env):
    """(seconds, CPU seconds, peak RSS MiB, exit status, last stderr line) of one child process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = p.stderr.read().decode(errors="replace").strip().splitlines()
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    return (dt, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status),
            err[-1] if err else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", action="append", required=True, help="LABEL=PATH of a gpufrontier-cli; repeat")
    ap.add_argument("--offers", type=int, default=200000)
    ap.add_argument("--vast-offers", type=int, default=400000)
    ap.add_argument("--vast-shape", choices=("slim", "full"), default="slim")
    ap.add_argument("--only", choices=("vast", "csv"))
    ap.add_argument("--no-python", action="store_true", help="no python json.load reference runs")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dir", default="/tmp/gf-import")
    args = ap.parse_args()
    clis = [tuple(c.split("=", 1)) if "=" in c else (c, c) for c in args.cli]
    os.makedirs(args.dir, exist_ok=True)
    cat = os.path.join(args.dir, "cat%d" % args.offers)
    if args.only != "vast" and not os.path.exists(os.path.join(cat, "vastai.csv")):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_catalog.py"), "--offers", str(args.offers),
                        "--out", cat], check=True)
    vast = os.path.join(args.dir, "vast%d-%s.json" % (args.vast_offers, args.vast_shape))
    if args.only != "csv" and not os.path.exists(vast):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_vast_answer.py"), "--offers",
                        str(args.vast_offers), "--shape", args.vast_shape, "--out", vast], check=True)
    inputs = []
    if args.only != "vast":
        inputs.append(("catalog CSV (%s)" % os.path.basename(cat), ["--file", os.path.join(cat, "vastai.csv")],
                       False))
    if args.only != "csv":
        inputs.append(("vast.ai %dk offers, %.0f MB" % (args.vast_offers // 1000, os.path.getsize(vast) / 1e6),
                       ["--provider", "vastai", "--file", vast], not args.no_python))
    db = os.path.join(args.dir, "bench.sqlite")
    print("%-30s %-10s %4s %8s %9s %8s %10s  %s" % ("input", "build", "run", "load", "wall s", "CPU s", "peak MiB",
                                                  "outcome"))
    for label, files, python in inputs:
        for r in range(args.repeat):
            runs = [(name, [cli, "import"] + files) for name, cli in clis]
            if python:
                runs.append(("python", [sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1]))",
                                        files[-1]]))
            for name, argv in runs:
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(db + suffix):
                        os.remove(db + suffix)
                env = dict(os.environ, GPUFRONTIER_DB=db, QT_QPA_PLATFORM="offscreen")
                load = os.getloadavg()[0]
                dt, cpu, rss, rc, last = run(argv, env)
                if name == "python" and rc == 0:
                    last = "json.load of the same file"
                print("%-30s %-10s %4d %8.2f %9.2f %8.2f %10.0f  %s" % (
                    label, name, r + 1, load, dt, cpu, rss, last if rc == 0 else "FAILED (%d): %s" % (rc, last)))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
