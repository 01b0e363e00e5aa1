#!/usr/bin/env python3
"""Import scale benchmark (a program that prints figures, not a test): one or more builds side by side.

Generates (or reuses) a catalog CSV of --offers offers (gen_catalog.py: the vast.ai marketplace file, the
largest) and a vast.ai offer search answer of --vast-offers offers in the real shape (gen_vast_answer.py),
then imports each into a fresh database with every given `gpufrontier-cli`, --repeat times, in turns
(build A, build B, A, B, ...) so that a change of the machine's load hits both. Prints the wall time and
the peak RSS (wait4) of every run with the 1-minute load average when it started: on a shared machine the
load matters as much as the figure.

    bench_import_scale.py --cli before=/work/main/build/dev/app/gpufrontier-cli \\
                          --cli after=build/dev/app/gpufrontier-cli \\
                          [--offers 200000] [--vast-offers 100000] [--repeat 2] [--dir /tmp/gf-import]
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(argv, env):
    """(seconds, peak RSS MiB, exit status, last stderr line) of one child process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = p.stderr.read().decode(errors="replace").strip().splitlines()
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    return dt, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status), err[-1] if err else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", action="append", required=True, help="LABEL=PATH of a gpufrontier-cli; repeat")
    ap.add_argument("--offers", type=int, default=200000)
    ap.add_argument("--vast-offers", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dir", default="/tmp/gf-import")
    args = ap.parse_args()
    clis = [tuple(c.split("=", 1)) if "=" in c else (c, c) for c in args.cli]
    os.makedirs(args.dir, exist_ok=True)
    cat = os.path.join(args.dir, "cat%d" % args.offers)
    if not os.path.exists(os.path.join(cat, "vastai.csv")):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_catalog.py"), "--offers", str(args.offers),
                        "--out", cat], check=True)
    vast = os.path.join(args.dir, "vast%d.json" % args.vast_offers)
    if not os.path.exists(vast):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_vast_answer.py"), "--offers",
                        str(args.vast_offers), "--out", vast], check=True)
    inputs = [("catalog CSV (%s)" % os.path.basename(cat), ["--file", os.path.join(cat, "vastai.csv")]),
              ("vast.ai answer (%.0f MB)" % (os.path.getsize(vast) / 1e6), ["--provider", "vastai", "--file", vast])]
    db = os.path.join(args.dir, "bench.sqlite")
    print("%-28s %-8s %4s %8s %9s %10s  %s" % ("input", "build", "run", "load", "wall s", "peak MiB", "outcome"))
    for label, files in inputs:
        for r in range(args.repeat):
            for name, cli in clis:
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(db + suffix):
                        os.remove(db + suffix)
                env = dict(os.environ, GPUFRONTIER_DB=db, QT_QPA_PLATFORM="offscreen")
                load = os.getloadavg()[0]
                dt, rss, rc, last = run([cli, "import"] + files, env)
                print("%-28s %-8s %4d %8.2f %9.2f %10.0f  %s" % (label, name, r + 1, load, dt, rss,
                                                               last if rc == 0 else "FAILED (%d): %s" % (rc, last)))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
