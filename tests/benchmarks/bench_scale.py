#!/usr/bin/env python3
"""Scale benchmark (a program that prints figures, not a test): the CLI over large catalogs.

For each size (default 10k, 100k and 1M offers) it generates a realistic five-provider catalog
(gen_catalog.py), imports it into a fresh database with `gpufrontier-cli import`, and then runs each
command in a child process, measuring wall time, peak RSS (wait4) and output size, next to the floor:
the sqlite3 shell reading the whole offer table of the same database (`SELECT * FROM offer`).

    bench_scale.py --cli build/release/app/gpufrontier-cli [--sizes 10000,100000,1000000]
                   [--dir /tmp/gf-scale] [--repeat 3] [--keep] [--baseline OTHER-CLI] [--reuse]

--baseline runs a second build (say, main's) on the same database in turns with --cli, and says whether
its output is byte-identical; the 1-minute load average is printed at the start of each run (the machine
may be shared). --reuse keeps a database that --keep left in --dir instead of generating and importing
again (the same offers for runs of several builds, and a million offers take minutes to import).

Build a Release tree for meaningful figures (cmake --preset release && cmake --build --preset release).
Needs the sqlite3 shell (Debian package sqlite3) for the floor. Every command writes to a file in
--dir (its size is printed), the best of --repeat runs is shown.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

COMMANDS = [
    ("frontier json", ["frontier", "--workload", "resnet50", "--format", "json"]),
    ("frontier table", ["frontier", "--workload", "resnet50", "--format", "table"]),
    ("offers json", ["offers", "--format", "json"]),
    ("offers csv", ["offers", "--format", "csv"]),
    ("offers table", ["offers", "--format", "table"]),
    ("report json", ["report", "--workload", "resnet50", "--format", "json", "-o", "{out}"]),
    ("report csv", ["report", "--workload", "resnet50", "--format", "csv", "-o", "{out}"]),
    # The documents, their time pinned so that two builds' files can be compared (a PDF's fonts may come
    # in another order from one run to the next: its bytes may differ where its pages do not).
    ("report html", ["report", "--workload", "resnet50", "--format", "html", "--now", "2026-11-27T12:00:00Z",
                     "-o", "{out}"]),
    ("report md", ["report", "--workload", "resnet50", "--format", "md", "--now", "2026-11-27T12:00:00Z",
                   "-o", "{out}"]),
    ("report pdf", ["report", "--workload", "resnet50", "--format", "pdf", "--now", "2026-11-27T12:00:00Z",
                    "-o", "{out}"]),
]


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run(argv, env, out_path):
    """(seconds, peak RSS MiB, output bytes, exit status, load average at the start, CPU seconds: user +
    system) of one child process."""
    load = load_average()
    argv = [a.replace("{out}", out_path) for a in argv]
    writes_itself = out_path in argv
    with open(os.devnull if writes_itself else out_path, "wb") as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, env=env)
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.stderr.write("%s failed (%d): %s\n" % (" ".join(argv), p.returncode, err.decode(errors="replace")))
    return (dt, usage.ru_maxrss / 1024.0, os.path.getsize(out_path), p.returncode, load,
            usage.ru_utime + usage.ru_stime)


def best(argv, env, out_path, repeat):
    runs = [run(argv, env, out_path) for _ in range(repeat)]
    return min(runs, key=lambda r: r[0])


def same_bytes(a, b):
    if os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True, help="path of gpufrontier-cli (a Release build)")
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--dir", default="/tmp/gf-scale")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the generated catalogs and databases")
    ap.add_argument("--only", default="", help="comma-separated command labels to run (default all)")
    ap.add_argument("--baseline", default="", help="another gpufrontier-cli, run in turns with --cli")
    ap.add_argument("--reuse", action="store_true", help="reuse a database left by --keep")
    args = ap.parse_args()
    cli = os.path.abspath(args.cli)
    builds = [("", cli)] + ([("baseline ", os.path.abspath(args.baseline))] if args.baseline else [])
    sqlite3 = shutil.which("sqlite3")
    os.makedirs(args.dir, exist_ok=True)
    only = [s.strip() for s in args.only.split(",") if s.strip()]

    rows = []
    for size in [int(s) for s in args.sizes.split(",")]:
        work = os.path.join(args.dir, "n%d" % size)
        env = dict(os.environ, GPUFRONTIER_DB=os.path.join(work, "catalog.sqlite"), QT_QPA_PLATFORM="offscreen")
        out_path = os.path.join(work, "out")
        if not (args.reuse and os.path.exists(env["GPUFRONTIER_DB"])):
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            cat = os.path.join(work, "catalog")
            subprocess.run([sys.executable, os.path.join(HERE, "gen_catalog.py"), "--offers", str(size), "--out",
                            cat], check=True)
            t_import = 0.0
            rss_import = 0.0
            for prov in ["aws", "gcp", "azure", "paperspace", "vastai"]:
                dt, rss, _, rc, load, _ = run([cli, "import", "--file", os.path.join(cat, prov + ".csv")], env,
                                              out_path)
                if rc != 0:
                    sys.exit("import of %s failed" % prov)
                t_import += dt
                rss_import = max(rss_import, rss)
            rows.append((size, "import (5 files)", t_import, rss_import, None, None, load, None))
        if sqlite3:
            dt, rss, nbytes, _, load, cpu = best([sqlite3, env["GPUFRONTIER_DB"], "SELECT * FROM offer"], env,
                                                 out_path, args.repeat)
            floor = dt
            rows.append((size, "floor: sqlite3 SELECT * FROM offer", dt, rss, nbytes, 1.0, load, cpu))
        else:
            floor = None
            print("sqlite3 shell not found (apt-get install sqlite3): no floor", file=sys.stderr)
        for label, argv in COMMANDS:
            if only and label not in only:
                continue
            # The builds in turns, repeat times: each run's load is that of its turn.
            results = {prefix: [] for prefix, _ in builds}
            for _ in range(args.repeat):
                for prefix, exe in builds:
                    path = out_path + ("." + prefix.strip() if prefix else "")
                    results[prefix].append(run([exe] + argv, env, path))
            for prefix, _ in builds:
                dt, rss, nbytes, rc, load, cpu = min(results[prefix], key=lambda r: r[0])
                text = prefix + label if rc == 0 else prefix + label + " (FAILED)"
                # A report's generated-at time is the current one unless --now pins it.
                comparable = "{out}" not in argv or "--now" in argv
                if prefix and comparable:
                    text += " (same bytes)" if same_bytes(out_path, out_path + ".baseline") else " (DIFFERENT)"
                rows.append((size, text, dt, rss, nbytes, dt / floor if floor else None, load, cpu))
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    print("%9s  %-48s %9s %8s %10s %10s %8s %6s" % ("offers", "command", "wall s", "cpu s", "peak MiB", "out MB",
                                                     "x floor", "load"))
    for size, label, dt, rss, nbytes, ratio, load, cpu in rows:
        print("%9d  %-48s %9.2f %8s %10.0f %10s %8s %6.2f" % (
            size, label, dt, "" if cpu is None else "%.2f" % cpu, rss,
            "" if nbytes is None else "%.1f" % (nbytes / 1e6), "" if ratio is None else "%.1f" % ratio, load))


if __name__ == "__main__":
    main()
