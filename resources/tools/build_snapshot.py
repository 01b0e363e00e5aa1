#!/usr/bin/env python3
"""Build GPU Frontier's bundled offline price snapshot (resources/catalog/*.csv).

Reads the real public data in the shared reference folder (SkyPilot catalog
extracts + verbatim provider payloads) and writes one normalized CSV per
provider plus SOURCES.md.  Standard library only.

Usage (from the repository root):
    python3 resources/tools/build_snapshot.py [--shared ../shared/data] [--out resources/catalog]
            [--skip-n1-list-rates]

Rules the script follows (see SOURCES.md, which it also writes):
  * facts only: every price comes from a source row (or, for GCP N1 hosts, from
    the documented GCP N1 list rate constants below); nothing is estimated;
  * rows without an on-demand price are skipped and counted;
  * all skips and fixes are counted and printed, and summarized in SOURCES.md.
"""

import argparse
import ast
import collections
import csv
import datetime
import io
import json
import os
import sys

COLUMNS = [
    "provider", "instance_type", "region", "zone", "gpu_name", "gpu_count",
    "gpu_mem_gb", "vcpus", "ram_gb", "network_gbps", "interconnect",
    "ondemand_usd_h", "spot_usd_h", "spot_label", "interruption",
    "reliability", "billing_increment_s", "billing_minimum_s", "source",
    "upload_gbps", "dlperf",
]

# --------------------------------------------------------------------------
# Provenance constants (short ids as used in the per-row `source` column)
# --------------------------------------------------------------------------
SRC_AWS = "skypilot-catalog v8 aws/vms.csv e385a0d"
SRC_AWS_ADVISOR = "aws spot-advisor-data 2025-06-28"
SRC_GCP = "skypilot-catalog v8 gcp/vms.csv 8427bbf"
SRC_GCP_N1 = "GCP list rate N1 us-central1 (vm-instance-pricing)"
SRC_AZURE = "skypilot-catalog v6 azure/vms.csv 098741e"
SRC_PAPERSPACE = "skypilot-catalog v6 paperspace/vms.csv e520054"
SRC_VAST = "skypilot-catalog v8 vast/vms.csv 680a69b"

# Snapshot dates written in the `# snapshot_date:` header.  The SkyPilot
# extracts carry no commit dates (see skypilot-gpu/README.md); these are
# estimates explained in SOURCES.md ("Dates").
SNAPSHOT_DATE = {
    "aws": "2025-08-01",
    "gcp": "2025-07-01",
    "azure": "2024-07-01",
    "paperspace": "2024-07-01",
    "vastai": "2025-07-01",
}

SOURCE_LINE = {
    "aws": "SkyPilot catalog v8 aws/vms.csv @e385a0d (on-demand per region, spot per AZ) + AWS Spot Advisor data (spot-advisor-data.json, committed 2025-06-28) for interruption buckets",
    "gcp": "SkyPilot catalog v8 gcp/vms.csv @8427bbf (a2/a3 host rows + GPU-only rows, composed per zone) + GCP N1 us-central1 list rates for n1-standard hosts",
    "azure": "SkyPilot catalog v6 azure/vms.csv @098741e (derived by SkyPilot from the Azure Retail Prices API), hazards fixed as documented",
    "paperspace": "SkyPilot catalog v6 paperspace/vms.csv @e520054 (Paperspace public on-demand prices, NY2)",
    "vastai": "SkyPilot catalog v8 vast/vms.csv @680a69b (cheapest offers per GPU config) + verbatim vast.ai offer payloads (500.farm mirror 2025-07-26, vastai CLI capture 2024-07-30)",
}

# Billing granularity (increment_s, minimum_s).  See SOURCES.md "Billing".
BILLING = {
    "aws": ("1", "60"),        # Linux on-demand/spot: per-second, 60 s minimum
    "gcp": ("1", "60"),        # Compute Engine: per-second after a 1-minute minimum
    "azure": ("60", "60"),     # per-minute metering (product brief); see SOURCES.md
    "paperspace": ("1", ""),   # per-second; minimum not documented -> empty
    "vastai": ("1", "0"),      # per-second, no minimum
}

# --------------------------------------------------------------------------
# Documented facts used to fill columns the price sources do not carry
# --------------------------------------------------------------------------
# AWS network bandwidth in Gbps ("Up to N" -> N), from the EC2 instance type
# documentation (accelerated computing specifications).  Families whose
# figures we are not certain of are left out on purpose (empty column):
# g4ad, g5g, g6f, gr6, gr6f, dl2q, p5.4xlarge.
AWS_NETWORK_GBPS = {
    "g4dn.xlarge": 25, "g4dn.2xlarge": 25, "g4dn.4xlarge": 25,
    "g4dn.8xlarge": 50, "g4dn.12xlarge": 50, "g4dn.16xlarge": 50, "g4dn.metal": 100,
    "g5.xlarge": 10, "g5.2xlarge": 10, "g5.4xlarge": 25, "g5.8xlarge": 25,
    "g5.12xlarge": 40, "g5.16xlarge": 25, "g5.24xlarge": 50, "g5.48xlarge": 100,
    "g6.xlarge": 10, "g6.2xlarge": 10, "g6.4xlarge": 25, "g6.8xlarge": 25,
    "g6.12xlarge": 40, "g6.16xlarge": 25, "g6.24xlarge": 50, "g6.48xlarge": 100,
    "g6e.xlarge": 20, "g6e.2xlarge": 20, "g6e.4xlarge": 20, "g6e.8xlarge": 25,
    "g6e.12xlarge": 100, "g6e.16xlarge": 35, "g6e.24xlarge": 200, "g6e.48xlarge": 400,
    "p3.2xlarge": 10, "p3.8xlarge": 10, "p3.16xlarge": 25, "p3dn.24xlarge": 100,
    "p4d.24xlarge": 400, "p4de.24xlarge": 400,
    "p5.48xlarge": 3200, "p5e.48xlarge": 3200, "p5en.48xlarge": 3200,
    "p6-b200.48xlarge": 3200,
    "dl1.24xlarge": 400,
}

# AWS GPU-to-GPU interconnect (facts only).  Multi-GPU g-series use PCIe
# (T4/A10G/L4/L40S/V520/T4g have no NVLink); single-GPU sizes -> empty.
AWS_INTERCONNECT = {
    "p3.8xlarge": "NVLink", "p3.16xlarge": "NVLink", "p3dn.24xlarge": "NVLink",
    "p4d.24xlarge": "NVSwitch", "p4de.24xlarge": "NVSwitch",
    "p5.48xlarge": "NVSwitch", "p5e.48xlarge": "NVSwitch", "p5en.48xlarge": "NVSwitch",
    "p6-b200.48xlarge": "NVSwitch",
}
PCIE_ONLY_GPUS = {  # accelerator names (as the sources write them) without NVLink
    "T4", "T4g", "A10G", "A10", "L4", "L40S", "Radeon Pro V520", "P4", "K80", "M60",
    "Radeon MI25", "P4000", "A4000",
}

# Azure facts from the Azure VM size documentation (the price source has only
# the GPU name).  Per-GPU memory (GB) of the GPU as Azure exposes it:
#   K80 / M60: Azure's "1 GPU" is one die of the dual-GPU board (12 GB / 8 GB);
#   NC*_H100_v5 use H100 NVL (94 GB), ND96isr_H100_v5 uses H100 SXM (80 GB);
#   ND96asr_v4 = A100 40 GB; *_A100_v4 (ads/amsr) = A100 80 GB.
AZURE_GPU_MEM_GB = {
    "K80": 12, "M60": 8, "T4": 16, "V100": 16, "V100-32GB": 32, "A100": 40,
    "A100-80GB": 80, "A10": 24, "Radeon MI25": 16,
}
AZURE_GPU_MEM_BY_TYPE = {
    "Standard_NC40ads_H100_v5": 94, "Standard_NC80adis_H100_v5": 94,
    "Standard_ND96isr_H100_v5": 80,
}
# GPU-count fixes (documented hazards; see SOURCES.md)
AZURE_GPU_COUNT_FIX = {
    "Standard_ND96isr_H100_v5": ("12", 8, "ND96isr_H100_v5 has 8 H100 GPUs (source says 12)"),
    # NVv4 sizes are partitions of one MI25 (1/8, 1/4, 1/2, 1 GPU); source says 1 for all.
    "Standard_NV4as_v4": ("1", 0.125, "NV4as_v4 = 1/8 MI25 (source says 1)"),
    "Standard_NV8as_v4": ("1", 0.25, "NV8as_v4 = 1/4 MI25 (source says 1)"),
    "Standard_NV16as_v4": ("1", 0.5, "NV16as_v4 = 1/2 MI25 (source says 1)"),
}
AZURE_INTERCONNECT = {
    "Standard_ND40rs_v2": "NVLink",
    "Standard_ND96asr_v4": "NVSwitch", "Standard_ND96amsr_A100_v4": "NVSwitch",
    "Standard_ND96isr_H100_v5": "NVSwitch",
}

# GCP: host machine type -> (GPU name in the GPU-only rows, GPU count)
GCP_HOST_GPU = {
    "a2-highgpu-1g": ("A100", 1), "a2-highgpu-2g": ("A100", 2),
    "a2-highgpu-4g": ("A100", 4), "a2-highgpu-8g": ("A100", 8),
    "a2-megagpu-16g": ("A100", 16),
    "a2-ultragpu-1g": ("A100-80GB", 1), "a2-ultragpu-2g": ("A100-80GB", 2),
    "a2-ultragpu-4g": ("A100-80GB", 4), "a2-ultragpu-8g": ("A100-80GB", 8),
    "a3-highgpu-1g": ("H100", 1), "a3-highgpu-2g": ("H100", 2),
    "a3-edgegpu-8g": ("H100", 8), "a3-edgegpu-8g-nolssd": ("H100", 8),
}
# GCP default egress bandwidth (Gbps) from the GCP GPU network-bandwidth docs.
GCP_NETWORK_GBPS = {
    "a2-highgpu-1g": 24, "a2-highgpu-2g": 32, "a2-highgpu-4g": 50, "a2-highgpu-8g": 100,
    "a2-megagpu-16g": 100,
    "a2-ultragpu-1g": 24, "a2-ultragpu-2g": 32, "a2-ultragpu-4g": 50, "a2-ultragpu-8g": 100,
}
# GCP N1 predefined on-demand list rates, us-central1 (Iowa), USD per hour:
# public list price on cloud.google.com/compute/vm-instance-pricing (unchanged
# from 2017 through 2025; n1-standard-1 = 0.0475 USD/h).  Not from a captured
# payload; see SOURCES.md.  Only us-central1 is composed.
GCP_N1_REGION = "us-central1"
GCP_N1_VCPU_USD_H = 0.031611
GCP_N1_RAM_GIB_USD_H = 0.004237
GCP_N1_GPUS = ("T4", "V100", "P100", "P4")  # GPUs attachable to N1 in the extract

SPOT_ADVISOR_REL = "provider-samples/aws_spot/spot-advisor-data.gpu-only.json"


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def num(s):
    """Parse a numeric string; '' / None -> None."""
    if s is None:
        return None
    s = str(s).strip()
    if s == "":
        return None
    return float(s)


def fmt(x, nd=6):
    """Format a number compactly: 8.0 -> '8', 2.8190 -> '2.819'; None -> ''."""
    if x is None or x == "":
        return ""
    x = round(float(x), nd)
    if x == int(x):
        return str(int(x))
    s = ("%." + str(nd) + "f") % x
    return s.rstrip("0").rstrip(".")


def mib_to_gb(mib):
    return None if mib is None else round(mib / 1024.0, 2)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def interconnect_for(gpu_name, count, explicit=None):
    if explicit:
        return explicit
    if count is not None and count > 1 and gpu_name in PCIE_ONLY_GPUS:
        return "PCIe"
    return ""


class Stats:
    def __init__(self):
        self.skipped = collections.defaultdict(collections.Counter)
        self.fixed = collections.defaultdict(collections.Counter)
        self.notes = collections.defaultdict(collections.Counter)

    def skip(self, prov, reason, n=1):
        self.skipped[prov][reason] += n

    def fix(self, prov, what, n=1):
        self.fixed[prov][what] += n

    def note(self, prov, what, n=1):
        self.notes[prov][what] += n


def row(**kw):
    r = {c: "" for c in COLUMNS}
    for k, v in kw.items():
        if k not in r:
            raise KeyError(k)
        r[k] = "" if v is None else v
    return r


# --------------------------------------------------------------------------
# AWS
# --------------------------------------------------------------------------
def build_aws(shared, st):
    src = read_csv(os.path.join(shared, "skypilot-gpu", "aws.csv"))
    with open(os.path.join(shared, SPOT_ADVISOR_REL), encoding="utf-8") as f:
        adv = json.load(f)
    labels = {r["index"]: r["label"] for r in adv["ranges"]}
    out = []
    for x in src:
        it = x["InstanceType"]
        od = num(x["Price"])
        spot = num(x["SpotPrice"])
        if od is None or od <= 0:
            st.skip("aws", "empty on-demand Price in source (%s%s)"
                    % (it, "; source has a spot price only" if spot is not None else ""))
            continue
        count = num(x["AcceleratorCount"])
        mem = None
        if x["GpuInfo"]:
            gi = ast.literal_eval(x["GpuInfo"])
            total = gi.get("TotalGpuMemoryInMiB")
            if total and count:
                # TotalGpuMemoryInMiB is per instance; fractional sizes (g6f/gr6f)
                # give the slice size, so total/count = the physical GPU's memory.
                mem = mib_to_gb(total / count)
        interruption = ""
        if spot is not None:
            e = adv["spot_advisor"].get(x["Region"], {}).get("Linux", {}).get(it)
            if e is not None:
                interruption = labels[e["r"]]
            else:
                st.note("aws", "spot row without spot-advisor bucket (region/type not in advisor)")
            if spot > od:
                st.note("aws", "spot price above on-demand (kept)")
        else:
            st.note("aws", "no spot price in AZ (spot empty)")
        gpu = x["AcceleratorName"]
        out.append(row(
            provider="aws", instance_type=it, region=x["Region"],
            zone=x["AvailabilityZone"], gpu_name=gpu, gpu_count=fmt(count),
            gpu_mem_gb=fmt(mem), vcpus=fmt(num(x["vCPUs"])),
            ram_gb=fmt(num(x["MemoryGiB"])),
            network_gbps=fmt(AWS_NETWORK_GBPS.get(it)),
            interconnect=interconnect_for(gpu, count, AWS_INTERCONNECT.get(it)),
            ondemand_usd_h=fmt(od), spot_usd_h=fmt(spot),
            spot_label="spot" if spot is not None else "",
            interruption=interruption, reliability="",
            billing_increment_s=BILLING["aws"][0], billing_minimum_s=BILLING["aws"][1],
            source=SRC_AWS + ("; " + SRC_AWS_ADVISOR if interruption else ""),
        ))
    return out


# --------------------------------------------------------------------------
# GCP
# --------------------------------------------------------------------------
def build_gcp(shared, st, with_n1=True):
    src = read_csv(os.path.join(shared, "skypilot-gpu", "gcp.csv"))
    hosts, gpus, tpus = [], {}, 0
    for x in src:
        if x["InstanceType"]:
            hosts.append(x)
        elif x["AcceleratorName"].startswith("tpu"):
            tpus += 1
        else:
            key = (x["AvailabilityZone"], x["AcceleratorName"], int(float(x["AcceleratorCount"])))
            if key in gpus:
                st.note("gcp", "duplicate GPU-only row (first kept)")
                continue
            gpus[key] = x
    st.skip("gcp", "TPU rows (not GPUs; out of scope)", tpus)
    used = set()
    out = []

    def gpu_mem(g):
        gi = ast.literal_eval(g["GpuInfo"]) if g["GpuInfo"] else None
        if gi and gi.get("Gpus"):
            return mib_to_gb(gi["Gpus"][0]["MemoryInfo"]["SizeInMiB"])
        return None

    def spot_sum(a, b):
        if a is None or b is None:
            return None
        return a + b

    # 1) a2/a3 hosts + GPU-only rows of the same zone and count
    for h in hosts:
        it = h["InstanceType"]
        if it not in GCP_HOST_GPU:
            st.skip("gcp", "host row with unknown GPU mapping (%s)" % it)
            continue
        gname, gcount = GCP_HOST_GPU[it]
        g = gpus.get((h["AvailabilityZone"], gname, gcount))
        if g is None:
            st.skip("gcp", "host row without matching GPU-only row in its zone (%s)" % it)
            continue
        used.add((h["AvailabilityZone"], gname, gcount))
        hp, gp = num(h["Price"]), num(g["Price"])
        if hp is None or gp is None:
            st.skip("gcp", "host or GPU on-demand price empty (%s)" % it)
            continue
        od = hp + gp
        spot = spot_sum(num(h["SpotPrice"]), num(g["SpotPrice"]))
        if spot is None:
            st.note("gcp", "composed offer without spot (host or GPU spot empty)")
        elif spot > od:
            st.note("gcp", "spot price above on-demand (kept)")
        out.append(row(
            provider="gcp", instance_type=it, region=h["Region"], zone=h["AvailabilityZone"],
            gpu_name=gname, gpu_count=fmt(gcount), gpu_mem_gb=fmt(gpu_mem(g)),
            vcpus=fmt(num(h["vCPUs"])), ram_gb=fmt(num(h["MemoryGiB"])),
            network_gbps=fmt(GCP_NETWORK_GBPS.get(it)),
            interconnect="NVSwitch" if gcount > 1 else "",
            ondemand_usd_h=fmt(od, 5), spot_usd_h=fmt(spot, 5),
            spot_label="spot" if spot is not None else "",
            billing_increment_s=BILLING["gcp"][0], billing_minimum_s=BILLING["gcp"][1],
            source=SRC_GCP + " (host+GPU rows)",
        ))

    # 2) N1 hosts (list rate, us-central1 only) + attached T4/V100/P100/P4
    n1_keys = set()
    if with_n1:
        for (zone, gname, gcount), g in sorted(gpus.items()):
            if gname not in GCP_N1_GPUS or g["Region"] != GCP_N1_REGION:
                continue
            gp = num(g["Price"])
            if gp is None:
                st.skip("gcp", "GPU-only row with empty price (%s x%d %s)" % (gname, gcount, zone))
                continue
            vcpus = 8 * gcount
            ram = 3.75 * vcpus
            host = vcpus * GCP_N1_VCPU_USD_H + ram * GCP_N1_RAM_GIB_USD_H
            n1_keys.add((zone, gname, gcount))
            out.append(row(
                provider="gcp", instance_type="n1-standard-%d+%dx%s" % (vcpus, gcount, gname),
                region=g["Region"], zone=zone, gpu_name=gname, gpu_count=fmt(gcount),
                gpu_mem_gb=fmt(gpu_mem(g)), vcpus=fmt(vcpus), ram_gb=fmt(ram),
                network_gbps=fmt(min(2 * vcpus, 32)),
                interconnect=interconnect_for(gname, gcount),
                ondemand_usd_h=fmt(host + gp, 5), spot_usd_h="", spot_label="",
                billing_increment_s=BILLING["gcp"][0], billing_minimum_s=BILLING["gcp"][1],
                source=SRC_GCP + " (GPU row) + " + SRC_GCP_N1,
            ))
            st.note("gcp", "N1 composition without spot (N1 host spot rate not in sources)")

    # 3) GPU-only rows that could not be composed
    for key, g in gpus.items():
        if key in used or key in n1_keys:
            continue
        zone, gname, gcount = key
        if gname in GCP_N1_GPUS:
            reason = "GPU-only %s row outside %s (no citable N1 host price)" % (gname, GCP_N1_REGION) \
                if with_n1 else "GPU-only %s row (N1 list rates disabled)" % gname
        elif gname == "L4":
            reason = "GPU-only L4 row (g2-standard host prices not in sources)"
        elif gname in ("H100-MEGA", "H200", "B200"):
            reason = "GPU-only %s row (a3-megagpu/a3-ultragpu/a4 host rows not extracted)" % gname
        else:
            reason = "GPU-only %s x%d row without matching a2/a3 host row in zone" % (gname, gcount)
        st.skip("gcp", reason)
    return out


# --------------------------------------------------------------------------
# Azure
# --------------------------------------------------------------------------
def build_azure(shared, st):
    src = read_csv(os.path.join(shared, "skypilot-gpu", "azure.csv"))
    out = []
    for x in src:
        it = x["InstanceType"]
        if it.endswith("_Promo"):
            st.skip("azure", "*_Promo row dropped (expired promotional K80/M60 price)")
            continue
        od = num(x["Price"])
        if od is None or od <= 0:
            st.skip("azure", "empty Price (%s %s)" % (it, x["Region"]))
            continue
        gpu = x["AcceleratorName"]
        count = num(x["AcceleratorCount"])
        if it in AZURE_GPU_COUNT_FIX:
            expect, newc, why = AZURE_GPU_COUNT_FIX[it]
            if x["AcceleratorCount"] == expect:
                count = newc
                st.fix("azure", why)
        spot = num(x["SpotPrice"])
        if spot is not None and gpu == "H100" and abs(spot - od) < 1e-9:
            spot = None
            st.fix("azure", "H100 SpotPrice equal to Price -> spot emptied (unknown)")
        if spot is not None and spot > od:
            st.note("azure", "spot price above on-demand (kept)")
        if spot is None:
            st.note("azure", "no spot price (spot empty)")
        mem = AZURE_GPU_MEM_BY_TYPE.get(it, AZURE_GPU_MEM_GB.get(gpu))
        out.append(row(
            provider="azure", instance_type=it, region=x["Region"], zone="",
            gpu_name=gpu, gpu_count=fmt(count), gpu_mem_gb=fmt(mem),
            vcpus=fmt(num(x["vCPUs"])), ram_gb=fmt(num(x["MemoryGiB"])),
            network_gbps="",
            interconnect=interconnect_for(gpu, count, AZURE_INTERCONNECT.get(it)),
            ondemand_usd_h=fmt(od), spot_usd_h=fmt(spot),
            spot_label="spot" if spot is not None else "",
            billing_increment_s=BILLING["azure"][0], billing_minimum_s=BILLING["azure"][1],
            source=SRC_AZURE,
        ))
    return out


# --------------------------------------------------------------------------
# Paperspace
# --------------------------------------------------------------------------
PAPERSPACE_GPU_MEM_GB = {  # NVIDIA datasheet memory per GPU (gpu_specs_reference / datasheets)
    "H100": 80, "A100-80GB": 80, "V100-32GB": 32, "V100": 16, "M4000": 8,
    "P4000": 8, "A4000": 16,
}


def build_paperspace(shared, st):
    src = read_csv(os.path.join(shared, "skypilot-gpu", "paperspace.csv"))
    out = []
    for x in src:
        od = num(x["Price"])
        if od is None or od <= 0:
            st.skip("paperspace", "empty Price (%s)" % x["InstanceType"])
            continue
        gpu = x["AcceleratorName"]
        count = num(x["AcceleratorCount"])
        out.append(row(
            provider="paperspace", instance_type=x["InstanceType"], region=x["Region"], zone="",
            gpu_name=gpu, gpu_count=fmt(count), gpu_mem_gb=fmt(PAPERSPACE_GPU_MEM_GB.get(gpu)),
            vcpus=fmt(num(x["vCPUs"])), ram_gb=fmt(num(x["MemoryGiB"])),
            interconnect=interconnect_for(gpu, count),
            ondemand_usd_h=fmt(od), spot_usd_h="", spot_label="",
            billing_increment_s=BILLING["paperspace"][0],
            billing_minimum_s=BILLING["paperspace"][1],
            source=SRC_PAPERSPACE,
        ))
    return out


# --------------------------------------------------------------------------
# vast.ai
# --------------------------------------------------------------------------
def vast_name_from_instance_type(it):
    """SkyPilot builds InstanceType as '<n>x-<vast gpu_name with ' '->'_'>-<cpu>-<mem>'.
    Recover vast.ai's own gpu_name string (e.g. 'H100_SXM' -> 'H100 SXM')."""
    parts = it.split("-")
    if len(parts) < 4 or not parts[0].endswith("x"):
        return None
    return "-".join(parts[1:-2]).replace("_", " ")


def vast_offer_rows(path, capture_label, st):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    offers = data["offers"] if isinstance(data, dict) else data
    out = []
    for o in offers:
        price = o.get("dph_total")
        price_field = "dph_total"
        if price is None:
            price = (o.get("search") or {}).get("totalHour")
            price_field = "search.totalHour"
        if price is None or price <= 0:
            st.skip("vastai", "offer without a total hourly price (%s)" % o.get("id"))
            continue
        st.note("vastai", "offer payload price taken from %s" % price_field)
        nG = o.get("num_gpus")
        gpu_ram = o.get("gpu_ram")
        inet = o.get("inet_down")
        inet_up = o.get("inet_up")
        dlperf = o.get("dlperf")
        min_bid = o.get("min_bid")
        cpu_ram = o.get("cpu_ram")
        out.append(row(
            provider="vastai", instance_type=str(o["id"]), region=o.get("geolocation", ""), zone="",
            gpu_name=o["gpu_name"], gpu_count=fmt(nG),
            gpu_mem_gb=fmt(mib_to_gb(gpu_ram) if gpu_ram else None),
            vcpus=fmt(o.get("cpu_cores_effective")),
            ram_gb=fmt(round(cpu_ram / 1000.0, 1) if cpu_ram else None),
            network_gbps=fmt(round(inet / 1000.0, 2) if inet else None),
            interconnect="",
            ondemand_usd_h=fmt(price), spot_usd_h=fmt(min_bid),
            spot_label="interruptible" if min_bid is not None else "",
            reliability=fmt(o.get("reliability")),
            billing_increment_s=BILLING["vastai"][0], billing_minimum_s=BILLING["vastai"][1],
            source=capture_label,
            upload_gbps=fmt(round(inet_up / 1000.0, 2) if inet_up else None),
            dlperf=fmt(round(dlperf, 2) if dlperf is not None and dlperf >= 0 else None),
        ))
    return out


def build_vast(shared, st):
    src = read_csv(os.path.join(shared, "skypilot-gpu", "vast.csv"))
    out = []
    for x in src:
        od = num(x["Price"])
        if od is None or od <= 0:
            st.skip("vastai", "empty Price (%s)" % x["InstanceType"])
            continue
        count = num(x["AcceleratorCount"])
        mem = None
        if x["GpuInfo"]:
            gi = ast.literal_eval(x["GpuInfo"])
            total = gi.get("TotalGpuMemoryInMiB")  # vast: total across the offer's GPUs
            if total and count:
                mem = mib_to_gb(total / count)
        name = vast_name_from_instance_type(x["InstanceType"])
        if name is None:
            name = x["AcceleratorName"]
            st.note("vastai", "gpu_name kept from AcceleratorName (InstanceType not parseable)")
        out.append(row(
            provider="vastai", instance_type=x["InstanceType"], region=x["Region"], zone="",
            gpu_name=name, gpu_count=fmt(count), gpu_mem_gb=fmt(mem),
            vcpus="", ram_gb="",  # 32/64 in the source are SkyPilot's request, not the host
            ondemand_usd_h=fmt(od), spot_usd_h="", spot_label="",  # SpotPrice 0.00 = not meaningful
            billing_increment_s=BILLING["vastai"][0], billing_minimum_s=BILLING["vastai"][1],
            source=SRC_VAST,
        ))
    st.note("vastai", "SkyPilot SpotPrice 0.00 dropped (not a price)", len(out))
    vdir = os.path.join(shared, "provider-samples", "vastai")
    out += vast_offer_rows(os.path.join(vdir, "offers.500farm-mirror.RTX5090.2025-07-26.json"),
                           "vast.ai offers capture 2025-07-26 (500.farm mirror)", st)
    out += vast_offer_rows(os.path.join(vdir, "search-offers-raw.RTX4090.2024.cli-capture.json"),
                           "vast.ai offers capture 2024-07-30 (vastai CLI --raw)", st)
    return out


# --------------------------------------------------------------------------
# output + checks
# --------------------------------------------------------------------------
def write_provider_csv(path, prov, rows):
    buf = io.StringIO()
    buf.write("# provider: %s\n" % prov)
    buf.write("# snapshot_date: %s\n" % SNAPSHOT_DATE[prov])
    buf.write("# source: %s\n" % SOURCE_LINE[prov])
    w = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(COLUMNS)
    for r in rows:
        w.writerow([r[c] for c in COLUMNS])
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())


def check_rows(prov, rows):
    errors = []
    keys = collections.Counter()
    for i, r in enumerate(rows):
        od = num(r["ondemand_usd_h"])
        if od is None or od <= 0:
            errors.append("%s row %d: ondemand_usd_h not > 0" % (prov, i))
        c = num(r["gpu_count"])
        if c is None or c <= 0:
            errors.append("%s row %d: gpu_count not > 0" % (prov, i))
        if r["spot_usd_h"] and not r["spot_label"]:
            errors.append("%s row %d: spot without label" % (prov, i))
        if not r["gpu_name"]:
            errors.append("%s row %d: empty gpu_name" % (prov, i))
        keys[(r["instance_type"], r["region"], r["zone"])] += 1
    dups = sum(v - 1 for v in keys.values() if v > 1)
    return errors, dups


def summarize(prov, rows):
    ods = [float(r["ondemand_usd_h"]) for r in rows]
    sps = [float(r["spot_usd_h"]) for r in rows if r["spot_usd_h"]]
    return {
        "rows": len(rows),
        "regions": sorted(set(r["region"] for r in rows)),
        "gpus": sorted(set(r["gpu_name"] for r in rows)),
        "types": len(set(r["instance_type"] for r in rows)),
        "od_min": min(ods) if ods else None, "od_max": max(ods) if ods else None,
        "spot_rows": len(sps),
        "spot_min": min(sps) if sps else None, "spot_max": max(sps) if sps else None,
        "spot_gt_od": sum(1 for r in rows if r["spot_usd_h"] and float(r["spot_usd_h"]) > float(r["ondemand_usd_h"])),
        "interruption_rows": sum(1 for r in rows if r["interruption"]),
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(repo, "..", "shared", "data"),
                    help="shared reference data dir (default: ../shared/data relative to repo root)")
    ap.add_argument("--out", default=os.path.join(repo, "resources", "catalog"),
                    help="output dir (default: resources/catalog)")
    ap.add_argument("--skip-n1-list-rates", action="store_true",
                    help="do not compose GCP N1+GPU offers from the N1 list-rate constants")
    a = ap.parse_args()
    shared = os.path.normpath(a.shared)
    os.makedirs(a.out, exist_ok=True)

    st = Stats()
    built = collections.OrderedDict()
    built["aws"] = build_aws(shared, st)
    built["gcp"] = build_gcp(shared, st, with_n1=not a.skip_n1_list_rates)
    built["azure"] = build_azure(shared, st)
    built["paperspace"] = build_paperspace(shared, st)
    built["vastai"] = build_vast(shared, st)

    all_errors = []
    sums = collections.OrderedDict()
    for prov, rows in built.items():
        write_provider_csv(os.path.join(a.out, prov + ".csv"), prov, rows)
        errs, dups = check_rows(prov, rows)
        all_errors += errs
        s = summarize(prov, rows)
        s["dup_keys"] = dups
        sums[prov] = s

    write_sources_md(os.path.join(a.out, "SOURCES.md"), sums, st, not a.skip_n1_list_rates)

    for prov, s in sums.items():
        print("== %s: %d rows, %d instance types, %d regions, %d spot rows"
              % (prov, s["rows"], s["types"], len(s["regions"]), s["spot_rows"]))
        print("   on-demand USD/h min %s max %s; spot min %s max %s; spot>on-demand %d; interruption rows %d; duplicate keys %d"
              % (fmt(s["od_min"]), fmt(s["od_max"]), fmt(s["spot_min"]), fmt(s["spot_max"]),
                 s["spot_gt_od"], s["interruption_rows"], s["dup_keys"]))
        print("   regions: %s" % ", ".join(s["regions"]))
        print("   gpu_names: %s" % " | ".join(s["gpus"]))
        for reason, n in sorted(st.skipped[prov].items()):
            print("   skipped %4d  %s" % (n, reason))
        for what, n in sorted(st.fixed[prov].items()):
            print("   fixed   %4d  %s" % (n, what))
        for what, n in sorted(st.notes[prov].items()):
            print("   note    %4d  %s" % (n, what))
    if all_errors:
        print("CHECK FAILED:", *all_errors[:50], sep="\n  ")
        return 1
    print("CHECK OK: every row has ondemand_usd_h > 0, gpu_count > 0 and a gpu_name")
    return 0


# --------------------------------------------------------------------------
# SOURCES.md
# --------------------------------------------------------------------------
def write_sources_md(path, sums, st, with_n1):
    L = []
    A = L.append
    A("# Bundled price snapshot: sources, dates and transformations")
    A("")
    A("Generated by `resources/tools/build_snapshot.py` from the read-only reference data in")
    A("`shared/data/` (public sources; see `shared/data/skypilot-gpu/README.md` and")
    A("`shared/data/provider-samples/*/SOURCES.md` for the upstream provenance of every file).")
    A("Regenerate with `python3 resources/tools/build_snapshot.py` from the repository root.")
    A("Facts only: every price below is a source value or a sum of source values; nothing is")
    A("estimated, interpolated or invented. Rows without an on-demand price are skipped.")
    A("")
    A("## Files and counts")
    A("")
    A("| file | rows | instance types | regions | spot rows | on-demand USD/h min–max | snapshot_date |")
    A("|---|---|---|---|---|---|---|")
    for prov, s in sums.items():
        A("| `%s.csv` | %d | %d | %d | %d | %s – %s | %s |" % (
            prov, s["rows"], s["types"], len(s["regions"]), s["spot_rows"],
            fmt(s["od_min"]), fmt(s["od_max"]), SNAPSHOT_DATE[prov]))
    A("")
    A("Format: UTF-8, `\\n` line ends, RFC 4180 quoting; three `# key: value` comment lines")
    A("(provider, snapshot_date, source), then the header")
    A("`" + ",".join(COLUMNS) + "`.")
    A("Numbers are written without trailing zeros (`8.0` -> `8`); an empty field means unknown / not offered.")
    A("Prices are USD per hour for the whole instance.")
    A("")
    A("### Distinct gpu_name strings (verbatim provider/source strings; map them via the alias table)")
    A("")
    for prov, s in sums.items():
        A("- **%s**: %s" % (prov, ", ".join("`%s`" % g for g in s["gpus"])))
    A("")
    A("## Dates")
    A("")
    A("The SkyPilot extracts carry commit hashes but no commit dates (the store they were read")
    A("from has no git log), so `snapshot_date` is an honest **estimate**, not a capture date:")
    A("")
    A("- **aws 2025-08-01**: `catalogs/v8/aws/vms.csv` contains p6-b200, g6f/gr6f (fractional L4),")
    A("  p5.4xlarge (single-GPU P5) and m8i types, so the data is from mid-2025 or later")
    A("  (shared README). p5.4xlarge was, to our knowledge, launched by AWS in August 2025, hence")
    A("  the first of that month as a lower-bound estimate; the exact date is unknown. The")
    A("  `interruption` column comes from the Spot Advisor file committed 2025-06-28.")
    A("- **gcp 2025-07-01**: `catalogs/v8/gcp/vms.csv` contains B200, H200 and TPU v6e, i.e. 2025;")
    A("  read from the same v8 store as AWS. Mid-2025 estimate; exact date unknown. The N1 host")
    A("  list rates (below) were unchanged from 2017 through 2025.")
    A("- **azure 2024-07-01**: `catalogs/v6/azure/vms.csv` (v6 is the newest catalog version with")
    A("  an Azure file). It contains NC/ND H100 v5 sizes (2023 launches) so it is late 2023 or")
    A("  later; v6 was SkyPilot's catalog version around 2024. Mid-2024 estimate; exact date unknown.")
    A("- **paperspace 2024-07-01**: `catalogs/v6/paperspace/vms.csv`, same reasoning as Azure")
    A("  (H100 present). Cross-check: A4000 0.76 and V100-32G 2.30 USD/h equal the on-demand rates")
    A("  in `provider-samples/paperspace/paperspace-plans-pricing.api-evangelist.yml` (transcribed")
    A("  2026-05-25), so those two prices were still current then.")
    A("- **vastai 2025-07-01**: the 63 SkyPilot rows are `catalogs/v8/vast/vms.csv` (RTX 5090,")
    A("  RTX PRO 6000 WS, B200 present: 2025; mid-2025 estimate). The payload rows have exact")
    A("  dates in their `source` column: the 500.farm mirror capture has `timestamp`")
    A("  2025-07-26T08:01:10Z; the CLI capture has no timestamp, but `end_date - duration` =")
    A("  1722351252 = 2024-07-30 (UTC), so it is dated 2024-07-30.")
    A("")
    A("## Per provider")
    A("")
    A("### aws.csv")
    A("")
    A("- Rows: `shared/data/skypilot-gpu/aws.csv` = SkyPilot `catalogs/v8/aws/vms.csv` @")
    A("  `e385a0d348eda9cefd9806423e7725944dc249e4` (GPU/accelerator rows; Price = Linux on-demand")
    A("  per region, SpotPrice = spot per AZ). One output row per source row (instance type × AZ id),")
    A("  zone = the AZ **id** (`use1-az1`), on-demand = the region price, spot = that AZ's price.")
    A("- Kept every accelerator family in the extract: NVIDIA g4dn, g5, g5g (T4g, Graviton host),")
    A("  g6, g6e, g6f, gr6, gr6f, p3, p3dn, p4d, p4de, p5, p5en, p6-b200; and, noted as non-NVIDIA,")
    A("  g4ad (AMD Radeon Pro V520), dl1 (Habana Gaudi HL-205), dl2q (Qualcomm AI100; no GpuInfo in")
    A("  the source, so gpu_mem_gb empty). Not in the extract at all: inf1/inf2/trn*, vt1, FPGA f1/f2,")
    A("  g3/p2/p6e (see shared README).")
    A("- gpu_name = SkyPilot `AcceleratorName` verbatim (e.g. p4de -> `A100-80GB`, p3dn -> `V100-32GB`).")
    A("- gpu_count = AcceleratorCount (fractional for g6f/gr6f: 0.125/0.25/0.5 of an L4).")
    A("- gpu_mem_gb = GpuInfo `TotalGpuMemoryInMiB` (per **instance**) / AcceleratorCount / 1024,")
    A("  2 decimals: the memory of one physical GPU (g6f.large: 2861 MiB / 0.125 = 22888 MiB = 22.35).")
    A("- vcpus, ram_gb = vCPUs, MemoryGiB.")
    A("- network_gbps: EC2 documented instance bandwidth (\"Up to N\" -> N) for g4dn, g5, g6, g6e, p3,")
    A("  p3dn, p4d, p4de, p5.48xlarge, p5en, p6-b200, dl1; left empty for g4ad, g5g, g6f, gr6, gr6f,")
    A("  dl2q and p5.4xlarge (figures not certain). p4d/p4de 400, p5/p5en/p6-b200 3200 are EFA totals.")
    A("- interconnect: NVSwitch for p4d/p4de/p5.48xlarge/p5en/p6-b200, NVLink for p3.8x/16x and p3dn,")
    A("  PCIe for multi-GPU sizes of GPUs without NVLink (T4, T4g, A10G, L4, L40S, V520), empty for")
    A("  single-GPU / fractional sizes and Gaudi/AI100.")
    A("- interruption: Spot Advisor bucket label (`ranges[r].label`: `<5%`, `5-10%`, `10-15%`,")
    A("  `15-20%`, `>20%`) joined on region + instance type from")
    A("  `provider-samples/aws_spot/spot-advisor-data.gpu-only.json` (`spot_advisor.<region>.Linux`;")
    A("  alexei-led/spotinfo @05e9331, committed 2025-06-28). Set only on rows that have a spot")
    A("  price and whose region/type the advisor lists (%d rows); the advisor predates g6f/gr6f and"
      % sums["aws"]["interruption_rows"])
    A("  lacks some region/type pairs, those rows have an empty bucket.")
    A("- Skipped: p5e.48xlarge (all 8 rows have an empty on-demand Price; 4 of them carry a spot")
    A("  price only; not kept because every row must have an on-demand price).")
    A("- Spot above on-demand: kept as in the source; in these rows the AZ spot price equals the")
    A("  on-demand price rounded to 4 decimals (spot at the on-demand cap, e.g. 9.04259 vs 9.0426).")
    A("- gpu_name note: p4de's GpuInfo says `A100` but AcceleratorName is `A100-80GB` (used).")
    A("- Billing: per-second with a 60 s minimum (EC2 Linux on-demand and spot).")
    A("")
    A("### gcp.csv")
    A("")
    A("- Rows: `shared/data/skypilot-gpu/gcp.csv` = SkyPilot `catalogs/v8/gcp/vms.csv` @")
    A("  `8427bbff988abdd050a9f51addd314ef31cb4e85`. GCP prices machine types and GPUs separately, so")
    A("  every output row is a **composition** (sum) of source rows in the same zone:")
    A("  - **a2/a3**: host row (a2-highgpu-1/2/4/8g, a2-megagpu-16g, a2-ultragpu-1/2/4/8g,")
    A("    a3-highgpu-1/2g, a3-edgegpu-8g, a3-edgegpu-8g-nolssd) + the GPU-only row of the same zone")
    A("    with the machine type's fixed GPU (A100 for highgpu/megagpu, A100-80GB for ultragpu, H100")
    A("    for a3) and count. instance_type = the machine type, e.g. `a2-highgpu-1g`.")
    A("    on-demand = host Price + GPU Price; spot = host SpotPrice + GPU SpotPrice only when both")
    A("    exist, else empty. vcpus/ram_gb from the host row, gpu_mem_gb from the GPU row's GpuInfo.")
    if with_n1:
        A("  - **N1 + attached GPU** (us-central1 only): instance_type `n1-standard-<8k>+<k>x<GPU>`")
        A("    for each GPU-only T4/V100/P100/P4 row of a us-central1 zone with k GPUs (host size rule:")
        A("    8 vCPUs per GPU, within GCP's per-GPU vCPU limits). The n1-* host prices are **not in the")
        A("    extract**; the host part is computed from GCP's public N1 predefined list rates for")
        A("    us-central1 (Iowa), `cloud.google.com/compute/vm-instance-pricing`: vCPU 0.031611 USD/h,")
        A("    memory 0.004237 USD/GiB-h (n1-standard-1 = 0.0475 USD/h; unchanged 2017–2025). These two")
        A("    constants are stated from the published price list, **not from a captured payload** in")
        A("    `shared/data`; corroboration: the real `A2 Instance Core/Ram running in Americas` SKUs in")
        A("    `provider-samples/gcp_billing/cloudbilling-skus...json` (effectiveTime 2023-03-24) carry")
        A("    the same unit rates, and 12×0.031611 + 85×0.004237 = 0.73948 reproduces SkyPilot's")
        A("    a2-highgpu-1g us-central1 host price exactly. Spot is left empty for N1 rows (the N1")
        A("    spot rate is dynamic and not in the sources). source column:")
        A("    `%s (GPU row) + %s`. Pass `--skip-n1-list-rates` to omit these rows." % (SRC_GCP, SRC_GCP_N1))
    A("- Omitted (no citable host price): N1+GPU outside us-central1; all L4 rows (g2-standard-*")
    A("  hosts not extracted; L4 cannot attach to N1); H100-MEGA (a3-megagpu), H200 (a3-ultragpu)")
    A("  and B200 (a4) rows (hosts not extracted); a3-highgpu-4g/8g (hosts not extracted, so the")
    A("  H100×4 rows are unused; H100×8 rows are used by a3-edgegpu-8g). TPU rows (not GPUs).")
    A("- Data anomaly kept verbatim: SkyPilot's H100 GPU-only price is 4.20076 USD/GPU-h in some")
    A("  zones (e.g. us-central1, us-west1, asia-southeast1) but 9.8–12.7 in others; the a3 rows")
    A("  inherit it. Treat GCP H100 prices with care.")
    A("- network_gbps: GCP documented default egress for a2 (1g 24, 2g 32, 4g 50, 8g/16g 100) and")
    A("  N1 (2 Gbps per vCPU, max 32); empty for a3. interconnect: NVSwitch for multi-GPU a2/a3,")
    A("  PCIe for multi-GPU T4/P4 on N1, empty otherwise (incl. V100/P100 on N1: not certain).")
    A("- Billing: per-second with a 1-minute minimum.")
    A("")
    A("### azure.csv")
    A("")
    A("- Rows: `shared/data/skypilot-gpu/azure.csv` = SkyPilot `catalogs/v6/azure/vms.csv` @")
    A("  `098741e70562f65d7af1cceb81e33b284f742604` (built by SkyPilot from the Azure Retail Prices API;")
    A("  Linux pay-as-you-go Price and Spot price per region). NC, ND and NV series; 8 US regions")
    A("  (all the rows have; the shared README also names westcentralus, which no GPU row uses).")
    A("  zone empty (Azure prices are per region).")
    A("- Hazards fixed: `Standard_ND96isr_H100_v5` gpu_count 12 -> **8**; H100 rows whose")
    A("  SpotPrice equals Price (NC40ads/NC80adis_H100_v5, ND96isr_H100_v5) -> spot **empty**")
    A("  (unknown); NVv4 (Radeon MI25) partial-GPU sizes fixed from 1 to their documented share:")
    A("  NV4as_v4 0.125, NV8as_v4 0.25, NV16as_v4 0.5 (NV32as_v4 stays 1).")
    A("- Dropped: all `*_Promo` rows (expired promotional prices of retired K80/M60 sizes, no spot);")
    A("  rows with an empty Price (NV*as_v4 in westus).")
    A("- Kept but note: NC/NC*r (K80) and NV (M60, v1) sizes were retired by Azure in 2023; their")
    A("  prices still appear in the Retail Prices data and are kept as facts of the source.")
    A("- Not in the source (AcceleratorName empty there): NC*ads_A10_v4, NCC40ads_H100_v5, ND40s_v3,")
    A("  NG*_V620_v1, NP (FPGA).")
    A("- gpu_mem_gb: from the Azure size documentation (source has only the GPU name): K80 12 and")
    A("  M60 8 (Azure's \"1 GPU\" is one die of the dual-GPU board), T4 16, V100 16, V100-32GB 32,")
    A("  A100 40 (ND96asr_v4), A100-80GB 80, A10 24, MI25 16, H100 94 (NC*_H100_v5, H100 NVL),")
    A("  H100 80 (ND96isr_H100_v5, SXM).")
    A("- interconnect: NVSwitch ND96asr_v4 / ND96amsr_A100_v4 / ND96isr_H100_v5, NVLink ND40rs_v2,")
    A("  PCIe for multi-GPU T4/A10/K80/M60, empty otherwise. network_gbps: empty (not certain).")
    A("- Billing: 60 s increment / 60 s minimum as specified for the product (Azure meters VM usage")
    A("  per minute; its price page advertises per-second pay-as-you-go, so treat as approximate).")
    A("")
    A("### paperspace.csv")
    A("")
    A("- Rows: `shared/data/skypilot-gpu/paperspace.csv` = SkyPilot `catalogs/v6/paperspace/vms.csv` @")
    A("  `e520054145d1bce6748bcf18c9a25ddd6ea9a348`: all 14 GPU machine types, one region")
    A("  (`East Coast (NY2)`, the only one in the source), on-demand only (no spot at Paperspace).")
    A("  gpu_name = AcceleratorName (`GPU+` machine -> `M4000`). Not used: the api-evangelist plans")
    A("  file's H100 2.24 / A100-80G 1.15, which it says are multi-year-commitment rates.")
    A("- gpu_mem_gb from NVIDIA datasheets (H100 80, A100-80GB 80, V100 16, V100-32GB 32, M4000 8,")
    A("  P4000 8, A4000 16). interconnect PCIe for multi-GPU P4000/A4000 (no NVLink), else empty.")
    A("- Billing: per-second (Paperspace pricing page); minimum not documented -> empty.")
    A("")
    A("### vastai.csv")
    A("")
    A("- %d offers, all real:" % sums["vastai"]["rows"])
    A("  - 63 rows from `shared/data/skypilot-gpu/vast.csv` = SkyPilot `catalogs/v8/vast/vms.csv` @")
    A("    `680a69b15e686d34fd0c808ddc62c10df27bb46d` (the cheapest offer per GPU config SkyPilot saw).")
    A("    instance_type = SkyPilot InstanceType; region = vast.ai location string verbatim.")
    A("    gpu_name = vast.ai's own name recovered from InstanceType (SkyPilot writes")
    A("    `<n>x-<gpu_name with spaces as _>-32-65536`), e.g. `H100 SXM`, `H100 NVL`, `A100 SXM4`,")
    A("    `A100 PCIE`, `RTX 6000Ada`, `RTX PRO 6000 WS`, `Tesla V100`, `RTX 4090` - this keeps the")
    A("    SXM/PCIe/NVL distinction that SkyPilot's AcceleratorName (`H100`, `A100`, `RTX4090`) drops.")
    A("    gpu_mem_gb = GpuInfo TotalGpuMemoryInMiB (offer total) / count / 1024 (one 1x RTX 4090 offer")
    A("    in Hong Kong reports 48 GB: a memory-modded card, kept as reported). vcpus/ram_gb empty")
    A("    (32/64 are SkyPilot's request, not the host); SpotPrice `0.00` dropped (not a price).")
    A("  - 2 RTX 5090 offers from `provider-samples/vastai/offers.500farm-mirror.RTX5090.2025-07-26.json`")
    A("    and 1 RTX 4090 offer from `provider-samples/vastai/search-offers-raw.RTX4090.2024.cli-capture.json`")
    A("    (instance_type = vast.ai offer id). on-demand = `dph_total` (CLI) or `search.totalHour`")
    A("    (mirror has no dph_total): GPU rent + storage at the query's default disk; spot = `min_bid`")
    A("    (`interruptible`; GPU part only); vcpus = cpu_cores_effective; ram_gb = cpu_ram MB / 1000;")
    A("    gpu_mem_gb = gpu_ram MiB / 1024; network_gbps = inet_down Mb/s / 1000; upload_gbps =")
    A("    inet_up Mb/s / 1000; dlperf = `dlperf`; reliability = `reliability`. The first 500.farm")
    A("    offer had `rentable: false` at capture time.")
    A("- The product asked for a few hundred vast.ai offers; only these %d real ones exist in the"
      % sums["vastai"]["rows"])
    A("  sources (the mirror reported 18,909 offers but only 2 are in the payload). None were invented.")
    A("- Billing: per-second, no minimum.")
    A("")
    A("## Skips, fixes and notes (from the last run)")
    A("")
    for prov in sums:
        items = []
        for reason, n in sorted(st.skipped[prov].items()):
            items.append("- skipped %d: %s" % (n, reason))
        for what, n in sorted(st.fixed[prov].items()):
            items.append("- fixed %d: %s" % (n, what))
        for what, n in sorted(st.notes[prov].items()):
            items.append("- note %d: %s" % (n, what))
        items.append("- spot above on-demand (kept as in source): %d rows" % sums[prov]["spot_gt_od"])
        A("**%s**" % prov)
        A("")
        L.extend(items)
        A("")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(L).rstrip("\n") + "\n")


if __name__ == "__main__":
    sys.exit(main())
