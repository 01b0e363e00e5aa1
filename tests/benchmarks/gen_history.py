#!/usr/bin/env python3
"""Gives a catalog database a year of price history, for the history benchmark (not a test).

Copies DATABASE to OUT and adds, for every day before the current snapshots, one snapshot per provider
with the same offers at prices that drift from day to day (a random walk of about 1 % a day, spot
prices moving independently), so that OUT holds DAYS daily snapshots of the whole catalog:

    gen_history.py --db catalog.sqlite --out history.sqlite [--days 365] [--seed 1]

The snapshots are written straight with SQL (the app's import would take hours for 36 million rows);
they are marked source_kind 'file', origin 'gen_history.py'. Then:

    GPUFRONTIER_DB=history.sqlite gpufrontier-cli history --provider vastai --instance 30000042
    bench_ui_scale history.sqlite         (the price-history chart of one offer, in the GUI)
    sqlite3 history.sqlite "EXPLAIN QUERY PLAN ..."   (bench_history.sh prints the plan and timings)
"""
import argparse
import datetime
import os
import random
import shutil
import sqlite3
import sys
import time

OFFER_COLUMNS = [
    "provider", "instance_type", "region", "zone", "gpu_raw_name", "gpu_id", "gpu_count", "gpu_mem_gb", "vcpus",
    "ram_gb", "network_gbps", "interconnect", "ondemand_usd_h", "spot_usd_h", "spot_label", "interruption",
    "reliability", "billing_increment_s", "billing_minimum_s", "source", "flags", "upload_gbps", "dlperf",
    "price_date", "listing_end",
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    shutil.copyfile(args.db, args.out)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(args.out + suffix):
            os.remove(args.out + suffix)
    con = sqlite3.connect(args.out)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    rng = random.Random(args.seed)
    current = con.execute(
        "SELECT p.id, (SELECT s.id FROM snapshot s WHERE s.provider = p.id AND s.status = 'ok' "
        "ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1) FROM provider p").fetchall()
    current = [(p, s) for p, s in current if s is not None]
    # Two per-day factors per provider (on-demand, spot) on a random walk, applied to every offer with
    # a per-offer wobble from SQLite's random().
    cols = ", ".join(OFFER_COLUMNS)
    t0 = time.time()
    rows_added = 0
    for provider, snap in current:
        fetched, data_date, rows = con.execute(
            "SELECT fetched_at, data_date, row_count FROM snapshot WHERE id = ?", (snap,)).fetchone()
        base = datetime.datetime.fromisoformat(fetched.replace("Z", "+00:00"))
        od, spot = 1.0, 1.0
        for day in range(args.days - 1, 0, -1):
            od *= 1.0 + rng.gauss(0, 0.01)
            spot *= 1.0 + rng.gauss(0, 0.03)
            when = base - datetime.timedelta(days=day)
            cur = con.execute(
                "INSERT INTO snapshot(provider, source_kind, origin, fetched_at, data_date, checksum, row_count, "
                "unrecognised_count, status, note) VALUES(?, 'file', 'gen_history.py', ?, ?, ?, ?, 0, 'ok', "
                "'synthetic history for benchmarks')",
                (provider, when.strftime("%Y-%m-%dT%H:%M:%SZ"), when.date().isoformat(),
                 "%064x" % rng.getrandbits(256), rows))
            new_id = cur.lastrowid
            select = cols.replace(
                "ondemand_usd_h",
                "ondemand_usd_h * %.6f * (1.0 + (random() %% 1000) / 50000.0)" % od).replace(
                "spot_usd_h", "MIN(spot_usd_h * %.6f * (1.0 + (random() %% 1000) / 50000.0), "
                              "COALESCE(ondemand_usd_h * %.6f, spot_usd_h * 10))" % (spot, od))
            con.execute("INSERT INTO offer(snapshot_id, %s) SELECT %d, %s FROM offer WHERE snapshot_id = %d"
                        % (cols, new_id, select, snap))
            rows_added += rows
        con.commit()
        print("%s: %d snapshots of %d offers" % (provider, args.days, rows), file=sys.stderr)
    con.commit()
    con.close()
    print("added %d offer rows in %.0f s; %s is %.1f GB" % (rows_added, time.time() - t0, args.out,
                                                          os.path.getsize(args.out) / 1e9), file=sys.stderr)


if __name__ == "__main__":
    main()
