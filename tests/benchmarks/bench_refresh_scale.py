#!/usr/bin/env python3
"""Live refresh scale benchmark (a program that prints figures, not a test): builds side by side.

Serves, from a local HTTP server on 127.0.0.1, a vast.ai offer search answer of --vast-offers offers in the
real shape (gen_vast_answer.py; 10,000 is the most one live answer holds: the refresh asks for 10,000) and
a SkyPilot catalog (catalogs/v9/lambda/vms.csv) of --skypilot-rows GPU rows (200,000 rows, 64 MB, is the
size of SkyPilot's biggest catalog, AWS's, which GPU Frontier reads as a file, not live). Then runs
`gpufrontier-cli refresh` of vast.ai and of Lambda (SkyPilot's catalog is its live source) against it with every given CLI, into a
fresh database each time, --repeat times in turns (build A, build B, A, B, ...). Prints the wall time, the
peak RSS (wait4) and the 1-minute load average when each run started.

    bench_refresh_scale.py --cli before=build/base/src/build/dev/app/gpufrontier-cli \\
                           --cli after=build/dev/app/gpufrontier-cli \\
                           [--vast-offers 10000] [--skypilot-rows 200000] [--repeat 2] [--dir /tmp/gf-refresh]
"""
import argparse
import http.server
import os
import subprocess
import sys
import threading

from bench_import_scale import run  # (seconds, peak RSS MiB, exit status, last stderr line)

HERE = os.path.dirname(os.path.abspath(__file__))
SKYPILOT_PATH = "/skypilot-org/skypilot-catalog/master/catalogs/v9/lambda/vms.csv"


def gen_skypilot(rows, out):
    """A Lambda vms.csv of `rows` GPU rows (the size of SkyPilot's biggest catalog, AWS's, at 200,000):
    every row its own instance type, over 40 regions, with the GpuInfo column as SkyPilot writes it."""
    with open(out, "w", encoding="utf-8") as f:
        f.write("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n")
        for i in range(rows):
            gpus = (1, 2, 4, 8)[i % 4]
            f.write("gpu_%dx_h100_%d,H100,%d.0,%d.0,%d.0,%.4f,region-%d,\"{'Gpus': [{'Name': 'H100', "
                    "'Manufacturer': 'NVIDIA', 'Count': %d.0, 'MemoryInfo': {'SizeInMiB': 81920}}], "
                    "'TotalGpuMemoryInMiB': %d}\",\n"
                    % (gpus, i, gpus, 26 * gpus, 225 * gpus, 2.49 * gpus * (1 + (i % 13) * 0.01), i % 40, gpus,
                       81920 * gpus))


class Handler(http.server.BaseHTTPRequestHandler):
    files = {}

    def log_message(self, *args):
        pass

    def answer(self):
        path = self.files.get(self.path.split("?")[0])
        body = None
        if path is not None:
            with open(path, "rb") as f:  # read per request: this process stays small (the CLI forks from it)
                body = f.read()
        if body is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json" if self.path.startswith("/api/") else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.answer()

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        self.answer()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", action="append", required=True, help="LABEL=PATH of a gpufrontier-cli; repeat")
    ap.add_argument("--vast-offers", type=int, default=10000)
    ap.add_argument("--skypilot-rows", type=int, default=200000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dir", default="/tmp/gf-refresh")
    ap.add_argument("--only", choices=["vastai", "skypilot"], help="one of the two inputs")
    args = ap.parse_args()
    clis = [tuple(c.split("=", 1)) if "=" in c else (c, c) for c in args.cli]
    os.makedirs(args.dir, exist_ok=True)
    vast = os.path.join(args.dir, "vast%d.json" % args.vast_offers)
    if not os.path.exists(vast):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_vast_answer.py"), "--offers",
                        str(args.vast_offers), "--out", vast], check=True)
    sky = os.path.join(args.dir, "lambda-vms%d.csv" % args.skypilot_rows)
    if not os.path.exists(sky):
        gen_skypilot(args.skypilot_rows, sky)
    Handler.files["/api/v0/bundles/"] = vast
    Handler.files[SKYPILOT_PATH] = sky
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    inputs = [("vastai", "vast.ai search, %d offers (%.0f MB)" % (args.vast_offers, os.path.getsize(vast) / 1e6),
               ["--provider", "vastai"]),
              ("skypilot", "SkyPilot Lambda, %d rows (%.0f MB)" % (args.skypilot_rows, os.path.getsize(sky) / 1e6),
               ["--provider", "lambda"])]
    db = os.path.join(args.dir, "bench.sqlite")
    print("%-36s %-8s %4s %6s %8s %9s  %s" % ("input", "build", "run", "load", "wall s", "peak MiB", "outcome"))
    for key, label, argv in inputs:
        if args.only and args.only != key:
            continue
        for r in range(args.repeat):
            for name, cli in clis:
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(db + suffix):
                        os.remove(db + suffix)
                env = dict(os.environ, GPUFRONTIER_DB=db, no_proxy="127.0.0.1")
                load = os.getloadavg()[0]
                dt, rss, code, last = run([cli, "refresh", "--quiet", "--url", base, "--min-rows", "1"] + argv,
                                          env)
                print("%-36s %-8s %4d %6.2f %8.2f %9.0f  %s" % (label, name, r + 1, load, dt, rss,
                                                                 "ok" if code == 0 else "FAILED: " + last[:90]))
                sys.stdout.flush()
    server.shutdown()


if __name__ == "__main__":
    main()
