#!/usr/bin/env python3
"""Generates a vast.ai offer search answer of N offers in the real shape (not a test).

The offers of tests/fixtures/providers/vastai/offers.json (answers of the API: every field vast.ai sends,
about 2.2 KB of JSON per offer) are the templates: offer i copies
template i % len(templates) with its own id, machine id and a price drawn around the template's
(log-normal spread of about 25 %). The answer is written as the API sends it ({"url", "timestamp",
"count", "offers": [...]}, one offer per line), so a 100,000-offer answer is about 225 MB (the issue's
400,000-offer answer of 260 MB had slimmer offers: the byte size is what the parser sees):

    gen_vast_answer.py --offers 100000 --out /tmp/vast100k.json [--seed 1]

then `gpufrontier-cli import --provider vastai --file /tmp/vast100k.json`.
"""
import argparse
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = os.path.join(HERE, "..", "fixtures", "providers", "vastai",
                        "offers.json")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--offers", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    with open(TEMPLATE, encoding="utf-8") as f:
        answer = json.load(f)
    templates = [o for o in answer["offers"] if isinstance(o, dict) and o.get("dph_total")]
    with open(args.out, "w", encoding="utf-8") as out:
        out.write('{"url": "/offers", "timestamp": %s, "count": %d, "offers": [\n'
                  % (json.dumps(answer.get("timestamp", "2025-07-26T08:01:10Z")), args.offers))
        for i in range(args.offers):
            o = dict(templates[i % len(templates)])
            o["id"] = 30000000 + i
            o["ask_contract_id"] = 30000000 + i
            o["machine_id"] = 100000 + i // 4
            factor = math.exp(rnd.gauss(0.0, 0.25))
            for key in ("dph_total", "dph_base", "discounted_dph_total", "dph_total_adj"):
                if isinstance(o.get(key), (int, float)):
                    o[key] = round(o[key] * factor, 6)
            if isinstance(o.get("min_bid"), (int, float)):
                o["min_bid"] = round(o["dph_total"] * rnd.uniform(0.35, 0.9), 6)
            out.write(json.dumps(o, ensure_ascii=False, separators=(",", ":")))
            out.write(",\n" if i + 1 < args.offers else "\n")
        out.write("]}\n")


if __name__ == "__main__":
    main()
