#!/usr/bin/env python3
"""Generates a large, realistic GPU Frontier catalog for the scale benchmarks (not a test).

The five providers' bundled snapshots (resources/catalog/*.csv) are the templates (with --all-providers,
every bundled provider's: 14 today): every cloud row (AWS, Google Cloud, Azure, Paperspace, ...) is kept as it is, and the rest of the requested size is a
vast.ai marketplace, the source that really reaches tens of thousands of offers. Each marketplace offer
copies one bundled vast.ai row (so the GPU mix, memory, locations and price levels are the real ones)
with its own offer id, a GPU count of 1, 2, 4 or 8, and prices, host metrics and reliability drawn
around the template's (log-normal price spread of about 25 %, spot 35-90 % of on-demand).

Writes one catalog CSV per provider in the import format (resources/catalog/FORMAT.md) into OUT_DIR:

    gen_catalog.py --offers 100000 --out /tmp/cat100k [--seed 1] [--date 2026-11-01] [--all-providers]

then `gpufrontier-cli import --file OUT_DIR/<provider>.csv` for each file (bench_scale.py does this).
The same --offers and --seed give the same files.
"""
import argparse
import csv
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOG = os.path.join(HERE, "..", "..", "resources", "catalog")
PROVIDERS = ["aws", "gcp", "azure", "paperspace", "vastai"]


def read_catalog(path):
    """(comment lines, header, rows) of one catalog CSV."""
    with open(path, newline="", encoding="utf-8") as f:
        comments = []
        pos = f.tell()
        line = f.readline()
        while line.startswith("#"):
            comments.append(line.rstrip("\n"))
            pos = f.tell()
            line = f.readline()
        f.seek(pos)
        reader = csv.reader(f)
        header = next(reader)
        rows = [dict(zip(header, r)) for r in reader if r]
    return comments, header, rows


def num(text):
    try:
        return float(text)
    except ValueError:
        return None


def fmt(x, nd=4):
    if x is None:
        return ""
    s = f"{x:.{nd}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def marketplace_offer(rng, template, offer_id, date):
    """One vast.ai offer copied from a template row."""
    count0 = num(template["gpu_count"]) or 1.0
    count = rng.choice([1, 1, 1, 1, 2, 2, 4, 8])
    od0 = num(template["ondemand_usd_h"])
    per_gpu = (od0 / count0) if od0 else 0.3
    od = per_gpu * count * rng.lognormvariate(0.0, 0.25)
    od = max(od, 0.01)
    spot = od * rng.uniform(0.35, 0.9) if rng.random() < 0.8 else None
    vcpus = num(template["vcpus"]) or 8.0 * count0
    ram = num(template["ram_gb"]) or 32.0 * count0
    scale = count / count0
    row = dict(template)
    row.update({
        "instance_type": str(offer_id),
        "zone": "",
        "gpu_count": str(count),
        "vcpus": fmt(max(1.0, round(vcpus * scale * rng.uniform(0.5, 1.5))), 0),
        "ram_gb": fmt(ram * scale * rng.uniform(0.5, 1.5), 1),
        "network_gbps": fmt(rng.choice([0.1, 0.5, 1, 2.5, 5, 10]) * rng.uniform(0.5, 1.0), 3),
        "interconnect": "",
        "ondemand_usd_h": fmt(od, 4),
        "spot_usd_h": fmt(spot, 4),
        "spot_label": "interruptible" if spot is not None else "",
        "interruption": "",
        "reliability": fmt(rng.uniform(0.9, 0.9999), 4),
        "billing_increment_s": "1",
        "billing_minimum_s": "0",
        "source": "gen_catalog.py synthetic marketplace offer (template: %s)" % template["instance_type"],
        "upload_gbps": fmt(rng.uniform(0.05, 5.0), 3),
        "dlperf": fmt((num(template["dlperf"]) or 30.0 * count0) * scale * rng.uniform(0.8, 1.2), 2),
        "price_date": date,
        "end_date": "",
    })
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--offers", type=int, required=True, help="total number of offers (all providers)")
    ap.add_argument("--out", required=True, help="folder for the catalog CSVs (one per provider)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--date", default="2026-11-01", help="snapshot_date and vast.ai price_date (ISO)")
    ap.add_argument("--all-providers", action="store_true",
                    help="every provider with a bundled catalog (resources/catalog/*.csv), not only the five")
    args = ap.parse_args()
    providers = PROVIDERS
    if args.all_providers:
        providers = sorted(f[:-4] for f in os.listdir(CATALOG) if f.endswith(".csv"))
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)

    templates = {p: read_catalog(os.path.join(CATALOG, p + ".csv")) for p in providers}
    clouds = sum(len(templates[p][2]) for p in providers if p != "vastai")
    n_market = max(1, args.offers - clouds)
    counts = {}
    for p in providers:
        comments, header, rows = templates[p]
        if p == "vastai":
            rows = [marketplace_offer(rng, rng.choice(rows), 30000000 + i, args.date) for i in range(n_market)]
            comments = ["# provider: vastai", "# snapshot_date: " + args.date,
                        "# source: gen_catalog.py --offers %d --seed %d: synthetic vast.ai marketplace "
                        "built from the bundled vast.ai rows (benchmark data, not prices)" % (args.offers, args.seed)]
        else:
            comments = [c if not c.startswith("# snapshot_date:") else "# snapshot_date: " + args.date
                        for c in comments]
        path = os.path.join(args.out, p + ".csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            for c in comments:
                f.write(c + "\n")
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            for r in rows:
                w.writerow([r.get(h, "") for h in header])
        counts[p] = len(rows)
    print(" ".join("%s=%d" % (p, counts[p]) for p in providers), "total=%d" % sum(counts.values()),
          file=sys.stderr)


if __name__ == "__main__":
    main()
