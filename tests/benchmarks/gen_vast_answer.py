#!/usr/bin/env python3
"""Generates a vast.ai offer search answer of N offers in the real shape (not a test).

The offers of tests/fixtures/providers/vastai/offers.json (answers of the API: every field vast.ai sends,
about 2.2 KB of JSON per offer) are the templates: offer i copies
template i % len(templates) with its own id, machine id and a price drawn around the template's
(log-normal spread of about 25 %). The answer is written as the API sends it ({"url", "timestamp",
"count", "offers": [...]}, one offer per line), so a 100,000-offer answer is about 225 MB (the issue's
400,000-offer answer of 260 MB had slimmer offers: the byte size is what the parser sees).

--shape slim keeps the fields an answer of the issue's size carries (SLIM_FIELDS: every field the reader
looks at and a dozen it does not, prices rounded to 6 digits as the CLI prints them) and spreads the
offers over the GPUs and places of the bundled vast.ai catalog: about 650 bytes per offer, so 400,000
offers are about 260 MB, the issue's answer:

    gen_vast_answer.py --offers 100000 --out /tmp/vast100k.json [--seed 1] [--shape full|slim]

then `gpufrontier-cli import --provider vastai --file /tmp/vast100k.json`.
"""
import argparse
import datetime
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = os.path.join(HERE, "..", "fixtures", "providers", "vastai",
                        "offers.json")

# --shape slim: the fields of an answer of about 650 bytes per offer (the 400,000 offers in 260 MB).
SLIM_FIELDS = ("id", "ask_contract_id", "machine_id", "host_id", "num_gpus", "gpu_name", "gpu_ram", "gpu_frac",
               "compute_cap", "cpu_name", "cpu_cores", "cpu_cores_effective", "cpu_ram", "disk_space",
               "inet_down", "inet_up", "dph_total", "min_bid", "dlperf", "reliability2", "rentable", "rented",
               "end_date", "duration", "geolocation", "verification", "cuda_max_good", "pcie_bw",
               "total_flops", "static_ip", "direct_port_count")
SLIM_GPUS = (("RTX 4090", 24564), ("RTX 5090", 32607), ("H200", 143771), ("RTX 3090", 24576),
             ("H100 SXM", 81559), ("A100 SXM4", 81920), ("L40S", 46068), ("RTX A6000", 49140))
SLIM_PLACES = ("Guangxi, CN", "Texas, US", "Quebec, CA", "Bavaria, DE", "Oslo, NO", "Tokyo, JP")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--offers", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shape", choices=("full", "slim"), default="full",
                    help="full: every field of the API's answer (~2.2 KB per offer); slim: ~650 B per offer")
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    with open(TEMPLATE, encoding="utf-8") as f:
        answer = json.load(f)
    captured = datetime.datetime.fromisoformat(
        answer.get("timestamp", "2025-07-26T08:01:10Z").replace("Z", "+00:00")).timestamp()
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
            if args.shape == "slim":
                o = {k: o[k] for k in SLIM_FIELDS if k in o}
                o["gpu_name"], o["gpu_ram"] = SLIM_GPUS[i % len(SLIM_GPUS)]
                # Listed from the capture for 1-60 days (end_date - duration = the capture time).
                o["duration"] = round(rnd.uniform(86400, 60 * 86400), 6)
                o["end_date"] = round(captured + o["duration"], 1)
                o["geolocation"] = SLIM_PLACES[(i // len(SLIM_GPUS)) % len(SLIM_PLACES)]
                for key in ("dph_total", "dlperf"):
                    if isinstance(o.get(key), float):
                        o[key] = round(o[key], 6)
            out.write(json.dumps(o, ensure_ascii=False, separators=(",", ":")))
            out.write(",\n" if i + 1 < args.offers else "\n")
        out.write("]}\n")


if __name__ == "__main__":
    main()
