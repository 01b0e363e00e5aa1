#!/usr/bin/env python3
"""Builds the provider fact tables in resources/providers/ used by the live parsers.

The price sources do not say everything an offer needs: the AWS offer file has no GPU model,
the Azure Retail Prices API has no vCPU/RAM/GPU fields, and GCP prices machine types piece by
piece. These tables carry those facts. They are derived, facts only, from:
  * resources/catalog/*.csv (the bundled snapshot, see resources/catalog/SOURCES.md),
  * shared/data/skypilot-gpu/aws.csv (AWS types the bundled snapshot skips for lack of a price),
  * shared/data/provider-samples/gcp_billing/machine-type-gpu-composition.excerpt.Cyclenerd-gcp.yml.txt
    (g2-standard-*, a3-highgpu-4g/8g, a3-megagpu-8g shapes),
  * shared/data/provider-samples/gcp_billing/sku-description-mapping.Cyclenerd-gcp-pricing-calculator.csv
    (GCP SKU description wording),
  * resources/catalog/paperspace.csv and provider-samples/paperspace (Paperspace machine types).
Every row also gets gpu_id, the canonical id of resources/gpus.csv, decided per instance family below
(GPU_ID_RULES): the app resolves an offer of a known instance type by this id first and falls back to
the GPU name (+ memory tie-break) only for types the tables do not know (resources/GPUS.md).
Run from the repository root:  python3 resources/tools/build_provider_tables.py [--shared ../shared/data]
"""
import argparse
import ast
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import build_snapshot as bs  # noqa: E402  (facts shared with the bundled snapshot)

ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "resources", "providers")


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        lines = [l for l in f if not l.startswith("#")]
    return list(csv.DictReader(lines))


def write(name, header, rows, comments):
    path = os.path.join(OUT, name)
    with open(path, "w", newline="", encoding="utf-8") as f:
        for c in comments:
            f.write("# " + c + "\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([r.get(h, "") for h in header])
    print("wrote %s (%d rows)" % (os.path.relpath(path, ROOT), len(rows)))


# ---------------------------------------------------------------------------------------------
# Instance type -> canonical GPU id (resources/gpus.csv). First matching pattern wins; every row of
# every table must match exactly one rule (checked), so a new family fails the build instead of
# falling back silently to the name. Sources: the providers' instance documentation, see GPUS.md
# "Instance to GPU variant" and SOURCES.md.
# ---------------------------------------------------------------------------------------------
GPU_ID_RULES = {
    "aws": [  # matched on the family (text before the first '.')
        (r"^dl1$", "gaudi-hl205"), (r"^dl2q$", "qualcomm-ai100"), (r"^g4ad$", "radeon-pro-v520"),
        (r"^g4dn$", "t4"), (r"^g5g$", "t4"),            # g5g: T4G = T4 silicon on Graviton hosts
        (r"^g5$", "a10g"),
        (r"^(g6|g6f|gr6|gr6f)$", "l4"),                 # g6f/gr6f: fractions of one L4
        (r"^g6e$", "l40s"),
        (r"^p3$", "v100-16gb-sxm2"), (r"^p3dn$", "v100-32gb-sxm2"),
        (r"^p4d$", "a100-40gb-sxm4"), (r"^p4de$", "a100-80gb-sxm4"),
        (r"^p5$", "h100-80gb-sxm"), (r"^(p5e|p5en)$", "h200-141gb-sxm"),
        (r"^p6-b200$", "b200"),
        # 2026 families (provider-sources.md; AWS instance pages): g7 = RTX PRO 4500 Blackwell, g7e = RTX PRO
        # 6000 Blackwell Server Edition ("RTX PRO Server 6000" in DescribeInstanceTypes), p6-b300 = B300,
        # p6e-gb200 / p6e-gb300 = the GPUs of GB200 / GB300 superchips (UltraServers).
        (r"^g7$", "rtx-pro-4500"), (r"^g7e$", "rtx-pro-6000-server"),
        (r"^p6-b300$", "b300"), (r"^p6e-gb200$", "gb200"), (r"^p6e-gb300$", "gb300"),
    ],
    "azure": [  # matched on the whole armSkuName
        (r"^Standard_NC(6|12|24|24r)(_Promo)?$", "k80-die"),          # NC (v1): 1/2/4 K80 dies
        (r"^Standard_NC\d+r?s_v3$", "v100-16gb-pcie"),               # NCv3: V100 PCIe 16GB
        (r"^Standard_NC\d+as_T4_v3$", "t4"),
        (r"^Standard_NC\d+ads_A100_v4$", "a100-80gb-pcie"),          # NC A100 v4: A100 PCIe 80GB
        (r"^Standard_NC\d+adi?s_H100_v5$", "h100-94gb-nvl"),         # NC H100 v5: H100 NVL 94GB
        (r"^Standard_ND40rs_v2$", "v100-32gb-sxm2"),                 # NDv2: 8 V100 SXM2 32GB, NVLink
        (r"^Standard_ND96asr_v4$", "a100-40gb-sxm4"),                # ND A100 v4: 8 A100 40GB SXM4, NVSwitch
        (r"^Standard_ND96amsr_A100_v4$", "a100-80gb-sxm4"),          # NDm A100 v4: 8 A100 80GB SXM4, NVSwitch
        (r"^Standard_ND96isr_H100_v5$", "h100-80gb-sxm"),            # ND H100 v5: 8 H100 SXM 80GB, NVSwitch
        (r"^Standard_ND96isr_H200_v5$", "h200-141gb-sxm"),           # ND H200 v5: 8 H200 141GB, NVSwitch
        (r"^Standard_ND96isr?_MI300X_v5$", "mi300x"),                # ND MI300X v5: 8 MI300X, Infinity Fabric
        (r"^Standard_ND128isr_NDR_GB200_v6$", "gb200"),              # ND GB200 v6: 4 GB200 GPUs (2 superchips)
        (r"^Standard_ND128isr_GB300_v6$", "gb300"),                  # ND GB300 v6: 4 GB300 GPUs
        (r"^Standard_NV(6|12|24)(_Promo)?$", "m60-die"), (r"^Standard_NV\d+s_v3$", "m60-die"),
        (r"^Standard_NV\d+as_v4$", "mi25"),                          # NVv4: 1/8..1 MI25
        (r"^Standard_NV\d+adm?s_A10_v5$", "a10"),                    # NVads A10 v5: 1/6..2 A10
    ],
    "gcp": [  # matched on the machine shape name
        (r"^a2-(highgpu-\d+g|megagpu-16g)$", "a100-40gb-sxm4"),
        (r"^a2-ultragpu-\d+g$", "a100-80gb-sxm4"),
        (r"^a3-(highgpu|edgegpu|megagpu)-\d+g(-nolssd)?$", "h100-80gb-sxm"),
        (r"^a3-ultragpu-\d+g$", "h200-141gb-sxm"), (r"^a4-highgpu-\d+g$", "b200"),
        (r"^g4-standard-\d+$", "rtx-pro-6000-server"),
        (r"^g2-standard-\d+$", "l4"),
        (r"^n1-.*\+\d+xT4$", "t4"), (r"^n1-.*\+\d+xV100$", "v100-16gb-sxm2"),
        (r"^n1-.*\+\d+xP100$", "p100-16gb-pcie"), (r"^n1-.*\+\d+xP4$", "p4"),
    ],
    "paperspace": [  # matched on the machine type
        (r"^H100(x8)?$", "h100-80gb-sxm"), (r"^A100-80G(x8)?$", "a100-80gb-sxm4"),
        (r"^V100$", "v100-16gb-pcie"), (r"^V100-32G(x2|x4)?$", "v100-32gb-pcie"),
        (r"^GPU\+$", "quadro-m4000"), (r"^P4000(x2)?$", "quadro-p4000"), (r"^P5000(x2)?$", "quadro-p5000"),
        (r"^P6000(x2)?$", "quadro-p6000"), (r"^RTX4000(x2)?$", "quadro-rtx-4000"),
        (r"^RTX5000(x2)?$", "quadro-rtx-5000"), (r"^A4000(x2|x4)?$", "rtx-a4000"),
        (r"^A5000(x2|x4)?$", "rtx-a5000"), (r"^A6000(x2|x4)?$", "rtx-a6000"),
    ],
}


def gpu_id_for(provider, name):
    key = name.split(".")[0] if provider == "aws" else name
    hits = [gid for pat, gid in GPU_ID_RULES[provider] if re.match(pat, key)]
    if len(hits) != 1:
        raise SystemExit("%s %s: %d gpu_id rules match (need exactly 1)" % (provider, name, len(hits)))
    return hits[0]


def check_ids(rows, provider, name_col, known_ids):
    for r in rows:
        r["gpu_id"] = gpu_id_for(provider, r[name_col])
        if r["gpu_id"] not in known_ids:
            raise SystemExit("%s %s: gpu_id %s is not in gpus.csv" % (provider, r[name_col], r["gpu_id"]))


def known_gpu_ids():
    return {r["id"] for r in read(os.path.join(ROOT, "resources", "gpus.csv"))}


# Interconnect facts the bundled catalog leaves empty (the table wins over the catalog):
INTERCONNECT_FIX = {
    # NCv3 multi-GPU sizes: V100 PCIe cards have no NVLink connector.
    "Standard_NC12s_v3": "PCIe", "Standard_NC24s_v3": "PCIe", "Standard_NC24rs_v3": "PCIe",
    # NC H100 v5: the 2-GPU size is one H100 NVL pair with its NVLink bridge (Azure NC H100 v5 docs;
    # the bridge is what "NVL" sells). Uncertain: see GPUS.md open questions.
    "Standard_NC80adis_H100_v5": "NVLink",
    # GCP GPU platform comparison: V100 "NVLink Mesh @ 300 GBps"; P100 has no NVLink on GCP.
    "n1-standard-16+2xV100": "NVLink", "n1-standard-32+4xV100": "NVLink", "n1-standard-64+8xV100": "NVLink",
    "n1-standard-16+2xP100": "PCIe", "n1-standard-32+4xP100": "PCIe",
}

# Real VM sizes that the bundled catalog lacks (no row in the SkyPilot v6 Azure file), from the Azure
# VM size documentation: GPU count (fraction of one GPU for the small NVads A10 v5 sizes), memory of the
# physical GPU, vCPUs, RAM GiB. The live Azure Retail Prices import needs them to price these sizes.
AZURE_EXTRA = [
    dict(vm_size="Standard_NV6ads_A10_v5", gpu_name="A10", gpu_count="0.1666667", gpu_mem_gb="24", vcpus="6", ram_gb="55", interconnect=""),
    dict(vm_size="Standard_NV12ads_A10_v5", gpu_name="A10", gpu_count="0.3333333", gpu_mem_gb="24", vcpus="12", ram_gb="110", interconnect=""),
    dict(vm_size="Standard_NV18ads_A10_v5", gpu_name="A10", gpu_count="0.5", gpu_mem_gb="24", vcpus="18", ram_gb="220", interconnect=""),
    dict(vm_size="Standard_ND96isr_H200_v5", gpu_name="H200", gpu_count="8", gpu_mem_gb="141", vcpus="96", ram_gb="1850", interconnect="NVSwitch"),
    dict(vm_size="Standard_ND96isr_MI300X_v5", gpu_name="MI300X", gpu_count="8", gpu_mem_gb="192", vcpus="96", ram_gb="1850", interconnect="Infinity Fabric"),
    # provider-sources.md: a maintained crawler maps these 2026 sizes. MI300X also under the spelling without
    # "r" that crawler uses (the Azure size documentation writes ND96isr_MI300X_v5; both are requested).
    # GB200/GB300 v6: 128 vCPUs (the size name), 4 GPUs (2 superchips) joined by NVLink; RAM not stated here.
    dict(vm_size="Standard_ND96is_MI300X_v5", gpu_name="MI300X", gpu_count="8", gpu_mem_gb="192", vcpus="96", ram_gb="1850", interconnect="Infinity Fabric"),
    dict(vm_size="Standard_ND128isr_NDR_GB200_v6", gpu_name="GB200", gpu_count="4", gpu_mem_gb="186", vcpus="128", ram_gb="", interconnect="NVSwitch"),
    dict(vm_size="Standard_ND128isr_GB300_v6", gpu_name="GB300", gpu_count="4", gpu_mem_gb="288", vcpus="128", ram_gb="", interconnect="NVSwitch"),
]

# AWS types of the 2026 SkyPilot catalog that the bundled snapshot may lack (g7e, p6-b300), read from
# shared/data/skypilot-gpu-2026/{aws,aws_gfamily}.csv; multi-GPU g7e are PCIe cards, p6-b300 an HGX board.
AWS_2026_INTERCONNECT = {"g7e": "PCIe", "p6-b300": "NVSwitch"}
AWS_2026_NETWORK_GBPS = {"p6-b300.48xlarge": 6400}

# AWS GPU families for instance sizes the table does not list (yet): the GPU model of the family, so that a
# new size in the offer file is recognised (its GPU count and memory come from the offer file). The families
# of aws_instance_types.csv are derived from it; these have no size there.
AWS_FAMILY_EXTRA = [
    dict(family="g7", gpu_name="RTX PRO 4500", gpu_mem_gb="32", interconnect=""),
    dict(family="p6e-gb200", gpu_name="GB200", gpu_mem_gb="186", interconnect="NVSwitch"),
    dict(family="p6e-gb300", gpu_name="GB300", gpu_mem_gb="288", interconnect="NVSwitch"),
]

# Instance types that providers list with an on-demand price but do not sell on demand (provider-sources.md):
# their on-demand rows are flagged no-on-demand and kept off the frontier (the spot price stays usable).
ON_DEMAND_RESTRICTIONS = [
    ("aws", "p5e.", "AWS sells p5e (8x H200) as EC2 Capacity Blocks for ML, not on demand"),
    ("aws", "p6e-gb200.", "AWS sells P6e-GB200 UltraServers as EC2 Capacity Blocks for ML, not on demand"),
    ("aws", "p6e-gb300.", "AWS sells P6e-GB300 UltraServers as EC2 Capacity Blocks for ML, not on demand"),
    ("gcp", "a3-highgpu-1g", "Google Cloud offers a3-highgpu with 1, 2 or 4 GPUs as Spot or Flex-start VMs only"),
    ("gcp", "a3-highgpu-2g", "Google Cloud offers a3-highgpu with 1, 2 or 4 GPUs as Spot or Flex-start VMs only"),
    ("gcp", "a3-highgpu-4g", "Google Cloud offers a3-highgpu with 1, 2 or 4 GPUs as Spot or Flex-start VMs only"),
    ("gcp", "a3-ultragpu-", "Google Cloud offers a3-ultragpu (H200) through reservations, Flex-start or Spot only"),
    ("gcp", "a4-highgpu-", "Google Cloud offers a4 (B200) through reservations, Flex-start or Spot only"),
    ("gcp", "a4x-", "Google Cloud offers a4x (GB200) through reservations only"),
]


def aws(shared):
    rows = {}
    for x in read(os.path.join(ROOT, "resources", "catalog", "aws.csv")):
        rows.setdefault(x["instance_type"], {
            "instance_type": x["instance_type"], "gpu_name": x["gpu_name"], "gpu_count": x["gpu_count"],
            "gpu_mem_gb": x["gpu_mem_gb"], "vcpus": x["vcpus"], "ram_gb": x["ram_gb"],
            "network_gbps": x["network_gbps"], "interconnect": x["interconnect"]})
    # Types the bundled snapshot skipped (no on-demand price in the extract) but that are real.
    for x in read(os.path.join(shared, "skypilot-gpu", "aws.csv")):
        it = x["InstanceType"]
        if it in rows or not x["AcceleratorName"]:
            continue
        count = bs.num(x["AcceleratorCount"])
        mem = None
        if x["GpuInfo"]:
            total = ast.literal_eval(x["GpuInfo"]).get("TotalGpuMemoryInMiB")
            if total and count:
                mem = bs.mib_to_gb(total / count)
        rows[it] = {
            "instance_type": it, "gpu_name": x["AcceleratorName"], "gpu_count": bs.fmt(count),
            "gpu_mem_gb": bs.fmt(mem), "vcpus": bs.fmt(bs.num(x["vCPUs"])), "ram_gb": bs.fmt(bs.num(x["MemoryGiB"])),
            "network_gbps": bs.fmt(bs.AWS_NETWORK_GBPS.get(it)),
            "interconnect": bs.interconnect_for(x["AcceleratorName"], count, bs.AWS_INTERCONNECT.get(it))}
    # 2026 types (g7e, p6-b300) from the 2026 SkyPilot catalog, where the bundled snapshot lacks them.
    for name in ("aws.csv", "aws_gfamily.csv"):
        path = os.path.join(shared, "skypilot-gpu-2026", name)
        if not os.path.exists(path):
            continue
        for x in read(path):
            it = x["InstanceType"]
            family = it.split(".")[0]
            if it in rows or family not in AWS_2026_INTERCONNECT:
                continue
            count = bs.num(x["AcceleratorCount"])
            info = ast.literal_eval(x["GpuInfo"]) if x["GpuInfo"] else {}
            gpus = info.get("Gpus") or [{}]
            mem = gpus[0].get("MemoryInfo", {}).get("SizeInMiB")
            rows[it] = {
                "instance_type": it, "gpu_name": gpus[0].get("Name") or x["AcceleratorName"], "gpu_count": bs.fmt(count),
                "gpu_mem_gb": bs.fmt(bs.mib_to_gb(mem) if mem else None), "vcpus": bs.fmt(bs.num(x["vCPUs"])),
                "ram_gb": bs.fmt(bs.num(x["MemoryGiB"])), "network_gbps": bs.fmt(AWS_2026_NETWORK_GBPS.get(it)),
                "interconnect": AWS_2026_INTERCONNECT[family] if count and count > 1 else ""}
    out = sorted(rows.values(), key=lambda r: r["instance_type"])
    check_ids(out, "aws", "instance_type", known_gpu_ids())
    families = {}
    for r in out:
        f = r["instance_type"].split(".")[0]
        families.setdefault(f, {"family": f, "gpu_name": r["gpu_name"], "gpu_mem_gb": r["gpu_mem_gb"],
                                "interconnect": "", "gpu_id": r["gpu_id"]})
    for x in AWS_FAMILY_EXTRA:
        families.setdefault(x["family"], dict(x, gpu_id=gpu_id_for("aws", x["family"] + ".x")))
    fam = sorted(families.values(), key=lambda r: r["family"])
    for r in fam:
        if r["gpu_id"] not in known_gpu_ids():
            raise SystemExit("aws family %s: gpu_id %s is not in gpus.csv" % (r["family"], r["gpu_id"]))
    write("aws_gpu_families.csv", ["family", "gpu_name", "gpu_mem_gb", "interconnect", "gpu_id"], fam,
          ["AWS GPU instance families: the GPU of every size of the family, for sizes aws_instance_types.csv does not list",
           "(the offer file gives their GPU count, GPU memory, vCPUs and RAM). Families of aws_instance_types.csv plus",
           "g7 (RTX PRO 4500) and p6e-gb200/gb300 (provider-sources.md). Generated by resources/tools/build_provider_tables.py"])
    write("aws_instance_types.csv",
          ["instance_type", "gpu_name", "gpu_count", "gpu_mem_gb", "vcpus", "ram_gb", "network_gbps", "interconnect",
           "gpu_id"],
          out,
          ["AWS EC2 accelerated instance types: GPU model/count/memory per GPU (GB), vCPUs, RAM (GiB), network (Gbps), interconnect.",
           "The AWS price list has no GPU model; the live parser joins on instance_type. Facts only, see resources/providers/SOURCES.md.",
           "gpu_name = EC2/SkyPilot spelling (kept for display); gpu_id = canonical id of resources/gpus.csv (the app resolves by it first).",
           "Generated by resources/tools/build_provider_tables.py"])


def azure():
    rows = {}
    for x in read(os.path.join(ROOT, "resources", "catalog", "azure.csv")):
        rows.setdefault(x["instance_type"], {
            "vm_size": x["instance_type"], "gpu_name": x["gpu_name"], "gpu_count": x["gpu_count"],
            "gpu_mem_gb": x["gpu_mem_gb"], "vcpus": x["vcpus"], "ram_gb": x["ram_gb"], "interconnect": x["interconnect"]})
    for x in AZURE_EXTRA:
        rows.setdefault(x["vm_size"], dict(x))
    for r in rows.values():
        r["interconnect"] = INTERCONNECT_FIX.get(r["vm_size"], r["interconnect"])
    out = sorted(rows.values(), key=lambda r: r["vm_size"])
    check_ids(out, "azure", "vm_size", known_gpu_ids())
    write("azure_vm_sizes.csv", ["vm_size", "gpu_name", "gpu_count", "gpu_mem_gb", "vcpus", "ram_gb", "interconnect", "gpu_id"],
          out,
          ["Azure GPU VM sizes (armSkuName): GPU model/count (fractional for partitioned GPUs)/memory per GPU (GB), vCPUs, RAM (GiB).",
           "The Retail Prices API has no vCPU/RAM/GPU fields; the live parser joins on armSkuName. Facts only, see SOURCES.md.",
           "gpu_id = canonical id of resources/gpus.csv: the name alone cannot tell NC A100 v4 (PCIe) from NDm A100 v4 (SXM4)",
           "or NC H100 v5 (H100 NVL) from ND H100 v5 (H100 SXM), so the app resolves by gpu_id first.",
           "Generated by resources/tools/build_provider_tables.py"])


def parse_yml_shapes(path):
    shapes, cur = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^\s{4}([a-z0-9-]+):\s*$", line)
        if m:
            cur = m.group(1)
            shapes[cur] = {}
            continue
        m = re.match(r"^\s{6}([a-z0-9-]+):\s*([0-9.]+)\s*$", line)
        if m and cur:
            shapes[cur][m.group(1)] = float(m.group(2))
    return shapes


def gcp(shared):
    rows = {}
    series = lambda it: it.split("-")[0]
    for x in read(os.path.join(ROOT, "resources", "catalog", "gcp.csv")):
        it = x["instance_type"]
        if it in rows:
            continue
        rows[it] = {"instance_type": it, "series": series(it), "vcpus": x["vcpus"], "ram_gb": x["ram_gb"],
                    "gpu_name": x["gpu_name"], "gpu_count": x["gpu_count"], "gpu_mem_gb": x["gpu_mem_gb"],
                    "network_gbps": x["network_gbps"], "interconnect": x["interconnect"]}
    shapes = parse_yml_shapes(os.path.join(shared, "provider-samples", "gcp_billing",
                                           "machine-type-gpu-composition.excerpt.Cyclenerd-gcp.yml.txt"))
    gpu_of = {"a100": ("A100", 40), "a100-80gb": ("A100-80GB", 80), "h100-80gb": ("H100", 80),
              "h100-80gb-mega": ("H100-MEGA", 80), "l4": ("L4", 24), "rtx6000": ("RTX PRO 6000", 96)}
    for it, s in shapes.items():
        if it in rows or not (it.startswith("g2-") or it.startswith("a3-") or it.startswith("g4-")):
            continue
        gk = [k for k in s if k in gpu_of]
        if len(gk) != 1:
            continue
        name, mem = gpu_of[gk[0]]
        count = s[gk[0]]
        rows[it] = {"instance_type": it, "series": series(it), "vcpus": bs.fmt(s["cpu"]), "ram_gb": bs.fmt(s["ram"]),
                    "gpu_name": name, "gpu_count": bs.fmt(count), "gpu_mem_gb": bs.fmt(mem), "network_gbps": "",
                    "interconnect": "NVSwitch" if it.startswith("a3-") and count > 1 else ("PCIe" if count > 1 else "")}
    # 2026 machine types (provider-sources.md) with vCPUs/RAM from the host rows of the 2026 SkyPilot catalog:
    # a3-ultragpu-8g (8x H200; series a3: its host rows are consistent with the A3 Instance core + RAM rates, SOURCES.md) and
    # a4-highgpu-8g (8x B200; its host is priced 0, the "B200 (1 gpu slice)" SKU carries the whole price:
    # series "gpu").
    new_2026 = {"a3-ultragpu-8g": ("a3", "H200", 8, 141), "a4-highgpu-8g": ("gpu", "B200", 8, 180)}
    path = os.path.join(shared, "skypilot-gpu-2026", "gcp.csv")
    if os.path.exists(path):
        for x in read(path):
            it = x["InstanceType"]
            if it in new_2026 and it not in rows:
                ser, name, count, mem = new_2026[it]
                rows[it] = {"instance_type": it, "series": ser, "vcpus": bs.fmt(bs.num(x["vCPUs"])),
                            "ram_gb": bs.fmt(bs.num(x["MemoryGiB"])), "gpu_name": name, "gpu_count": bs.fmt(count),
                            "gpu_mem_gb": bs.fmt(mem), "network_gbps": "", "interconnect": "NVSwitch"}
    # a3-megagpu is priced by "A3Plus Instance" core/RAM SKUs (provider-sources.md); the A3 Instance SKUs (same
    # rates in the 2026 catalog) when a page has none.
    if "a3-megagpu-8g" in rows:
        rows["a3-megagpu-8g"]["series"] = "a3plus|a3"
    for r in rows.values():
        r["interconnect"] = INTERCONNECT_FIX.get(r["instance_type"], r["interconnect"])
    out = sorted(rows.values(), key=lambda r: (r["series"], r["instance_type"]))
    check_ids(out, "gcp", "instance_type", known_gpu_ids())
    write("gcp_machine_types.csv",
          ["instance_type", "series", "vcpus", "ram_gb", "gpu_name", "gpu_count", "gpu_mem_gb", "network_gbps", "interconnect",
           "gpu_id"],
          out,
          ["GCP GPU machine shapes composed from billing SKUs: price = vcpus x <series> core SKU + ram_gb x <series> RAM SKU",
           "+ gpu_count x GPU SKU (n1 rows: an n1-standard host with attached GPUs, named host+<count>x<GPU>).",
           "Bundled local SSD (a2-ultragpu, a3) is not priced. Facts only, see SOURCES.md. Generated by resources/tools/build_provider_tables.py"])

    # SKU description wording (Cyclenerd mapping, '%' = anything): GPU name part and series part.
    gpus = [
        ("Nvidia Tesla T4 GPU", "T4", "t4"), ("Nvidia Tesla V100 GPU", "V100", "v100-16gb-sxm2"),
        ("Nvidia Tesla P100 GPU", "P100", "p100-16gb-pcie"), ("Nvidia Tesla P4 GPU", "P4", "p4"),
        ("Nvidia Tesla K80 GPU", "K80", "k80-die"), ("Nvidia Tesla A100 GPU", "A100", "a100-40gb-sxm4"),
        ("Nvidia Tesla A100 80GB GPU", "A100-80GB", "a100-80gb-sxm4"), ("Nvidia L4 GPU", "L4", "l4"),
        ("Nvidia H100 80GB GPU", "H100", "h100-80gb-sxm"), ("Nvidia H100 80GB Mega GPU", "H100-MEGA", "h100-80gb-sxm"),
    ]
    ids = known_gpu_ids()
    for _, _, gid in gpus:
        assert gid in ids, gid
    mapping = open(os.path.join(shared, "provider-samples", "gcp_billing",
                                "sku-description-mapping.Cyclenerd-gcp-pricing-calculator.csv"), encoding="utf-8").read()
    for prefix, _, _ in gpus:
        assert prefix in mapping, prefix
    # 2026 wordings of provider-sources.md (descriptions vary by region for the same GPU; the parser also
    # accepts them without the leading "Nvidia "): H100 Mega as "H100 Mega 80GB GPU" and "H100 80GB Plus GPU",
    # H200 as "H200 141GB GPU", B200 as "(A4) Nvidia B200 (1 gpu slice)", RTX PRO 6000 as "RTX 6000 96GB".
    gpus += [
        ("Nvidia H100 Mega 80GB GPU", "H100-MEGA", "h100-80gb-sxm"), ("Nvidia H100 80GB Plus GPU", "H100-MEGA", "h100-80gb-sxm"),
        ("Nvidia H200 141GB GPU", "H200", "h200-141gb-sxm"),
        ("Nvidia B200 (1 gpu slice)", "B200", "b200"), ("A4 Nvidia B200 (1 gpu slice)", "B200", "b200"),
        ("RTX 6000 96GB", "RTX PRO 6000", "rtx-pro-6000-server"),
    ]
    for _, _, gid in gpus:
        assert gid in ids, gid
    write("gcp_gpu_skus.csv", ["description_prefix", "gpu_name", "gpu_id"],
          [{"description_prefix": p, "gpu_name": n, "gpu_id": g} for p, n, g in gpus],
          ["GCP GPU SKU descriptions: '<prefix> running in <geo>' (on-demand, usageType OnDemand) and",
           "'<prefix> attached to Spot Preemptible VMs running in <geo>' (spot, usageType Preemptible).",
           "Wording from the Cyclenerd SKU mapping (see SOURCES.md). Generated by resources/tools/build_provider_tables.py"])
    series_rows = [("n1", "N1 Predefined Instance"), ("a2", "A2 Instance"), ("a3", "A3 Instance"), ("g2", "G2 Instance"),
                   ("g4", "G4 Instance")]
    for _, p in series_rows:
        assert p in mapping, p
    series_rows.append(("a3plus", "A3Plus Instance"))  # provider-sources.md: prices a3-megagpu (not in the mapping)
    write("gcp_series_skus.csv", ["series", "description_prefix"],
          [{"series": s, "description_prefix": p} for s, p in series_rows],
          ["GCP vCPU/RAM SKU descriptions: '<prefix> Core|Ram running in <geo>' and 'Spot Preemptible <prefix> Core|Ram running in <geo>'.",
           "Generated by resources/tools/build_provider_tables.py"])


# Paperspace machine types of the bundled catalog plus the ones on the public pricing page
# (provider-samples/paperspace/paperspace-plans-pricing.api-evangelist.yml: A6000, A5000, P6000) and the
# classic CORE types (P5000, RTX4000, RTX5000). vCPUs/RAM only where a source gives them.
PAPERSPACE_EXTRA = [
    dict(instance_type="A6000", gpu_name="A6000", gpu_count="1", gpu_mem_gb="48"),
    dict(instance_type="A5000", gpu_name="A5000", gpu_count="1", gpu_mem_gb="24"),
    dict(instance_type="P6000", gpu_name="P6000", gpu_count="1", gpu_mem_gb="24"),
    dict(instance_type="P5000", gpu_name="P5000", gpu_count="1", gpu_mem_gb="16"),
    dict(instance_type="RTX4000", gpu_name="RTX4000", gpu_count="1", gpu_mem_gb="8"),
    dict(instance_type="RTX5000", gpu_name="RTX5000", gpu_count="1", gpu_mem_gb="16"),
]
# Multi-GPU Paperspace types: the 8-GPU A100/H100 machines are HGX boards (8 SXM GPUs on NVSwitch);
# the others are PCIe cards (P4000/A4000 have no NVLink connector; V100-32G assumed PCIe, GPUS.md).
PAPERSPACE_INTERCONNECT = {"H100x8": "NVSwitch", "A100-80Gx8": "NVSwitch", "V100-32Gx2": "PCIe", "V100-32Gx4": "PCIe"}


def paperspace():
    rows = {}
    for x in read(os.path.join(ROOT, "resources", "catalog", "paperspace.csv")):
        it = x["instance_type"]
        rows.setdefault(it, {
            "instance_type": it, "gpu_name": x["gpu_name"], "gpu_count": x["gpu_count"], "gpu_mem_gb": x["gpu_mem_gb"],
            "vcpus": x["vcpus"], "ram_gb": x["ram_gb"], "network_gbps": x["network_gbps"],
            "interconnect": PAPERSPACE_INTERCONNECT.get(it, x["interconnect"])})
    for x in PAPERSPACE_EXTRA:
        r = {"vcpus": "", "ram_gb": "", "network_gbps": "", "interconnect": ""}
        r.update(x)
        rows.setdefault(x["instance_type"], r)
    out = sorted(rows.values(), key=lambda r: r["instance_type"])
    check_ids(out, "paperspace", "instance_type", known_gpu_ids())
    write("paperspace_machine_types.csv",
          ["instance_type", "gpu_name", "gpu_count", "gpu_mem_gb", "vcpus", "ram_gb", "network_gbps", "interconnect", "gpu_id"],
          out,
          ["Paperspace machine types: GPU model/count/memory per GPU (GB), vCPUs, RAM (GiB), interconnect, canonical gpu_id.",
           "Paperspace has no price API (prices: catalog/paperspace.csv); this table maps machine types to GPU variants. See SOURCES.md.",
           "Generated by resources/tools/build_provider_tables.py"])


def restrictions():
    write("on_demand_restrictions.csv", ["provider", "instance_prefix", "reason"],
          [{"provider": p, "instance_prefix": x, "reason": r} for p, x, r in ON_DEMAND_RESTRICTIONS],
          ["Instance types listed with an on-demand price that are not sold on demand (capacity blocks, reservations,",
           "Spot or Flex-start only): their on-demand rows are flagged no-on-demand and kept off the frontier.",
           "Source: shared/docs/provider-sources.md (AWS p5e/p6e, GCP a3-highgpu-1g/2g/4g, a3-ultragpu, a4, a4x) and the",
           "providers' instance pages. Generated by resources/tools/build_provider_tables.py"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared", "data"))
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    aws(a.shared)
    azure()
    gcp(a.shared)
    paperspace()
    restrictions()


if __name__ == "__main__":
    main()
