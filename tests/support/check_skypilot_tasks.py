#!/usr/bin/env python3
"""Parses the SkyPilot task YAMLs of a launch plan folder and checks them the way SkyPilot would.

Usage: check_skypilot_tasks.py PLAN_DIR CATALOG_DIR [--no-catalog]

For every PLAN_DIR/*.yaml: parsed with PyYAML (yaml.safe_load, the Debian package python3-yaml), then
checked against SkyPilot's task schema as its documentation lists the fields (docs.skypilot.co,
"Task YAML": top-level keys, resources keys and their types, infra strings, accelerators NAME:COUNT,
job_recovery strategies, env names), and against the rules SkyPilot applies outside the schema:
- GCP host/GPU pairs (sky/catalog/gcp_catalog.py: A100 on a2-highgpu/megagpu, A100-80GB on
  a2-ultragpu, L4 on g2-standard, H100 on a3-highgpu, H100-MEGA on a3-megagpu, H200 on a3-ultragpu,
  B200 on a4-highgpu, the other GPUs on n1 hosts within its vCPU / memory limits); written here on
  their own, not read from the application's table, so that the two check each other;
- every file_mounts source exists in the plan folder ("File mount source ... does not exist locally");
- job_recovery only on tasks launched as managed jobs (README.txt and sweep.sh say `sky jobs launch`
  for them and never `sky launch`);
- no use_spot on a cloud whose catalog (CATALOG_DIR/<cloud>.csv) has no spot price;
- the cost ceiling (GF_MAX_COST_USD) never below the task's own cost range (GF_TASK_COST_HIGH_USD);
- no retired size (Azure NC/NCv2/ND/NV/NVv3, AWS p2/g3).
Unless --no-catalog, the pinned (cloud, instance type, region[, zone], accelerator name, count) is
looked up in CATALOG_DIR/<cloud>.csv (verbatim copies of skypilot-catalog's vms.csv files).
Prints one JSON object {file name: parsed task} on stdout for the caller's field-by-field checks and
one line per problem on stderr.

Exit status: 0 all good, 1 a task is malformed or not in the catalogs, 3 PyYAML is missing, 2 usage.
"""

import csv
import json
import os
import re
import shlex
import sys

try:
    import yaml
except ImportError:
    print("check_skypilot_tasks: PyYAML is missing: install the Debian package python3-yaml "
          "(.ci/install-deps installs it)", file=sys.stderr)
    sys.exit(3)

# The clouds: one CATALOG_DIR/<cloud>.csv each, plus <cloud>-<anything>.csv files of the same cloud
# (a newer extract, part of a file) whose rows are added to it.
CLOUDS = set()
NAME = re.compile(r"^gf-[a-z0-9-]{1,40}$")
# SkyPilot's task fields (docs.skypilot.co/en/latest/reference/yaml-spec.html).
TASK_KEYS = {"name", "workdir", "num_nodes", "resources", "envs", "secrets", "volumes", "file_mounts", "setup",
             "run", "config", "service", "inputs", "outputs"}
RESOURCE_KEYS = {"infra", "cloud", "region", "zone", "accelerators", "accelerator_args", "instance_type", "cpus",
                 "memory", "use_spot", "job_recovery", "disk_size", "disk_tier", "network_tier", "ports",
                 "image_id", "labels", "any_of", "ordered", "autostop", "priority"}
JOB_RECOVERY = {"FAILOVER", "EAGER_NEXT_REGION"}
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# GCP: the only hosts per accelerator and count (gcp_catalog.py _ACC_INSTANCE_TYPE_DICTS) ...
GCP_HOSTS = {
    "A100": {1: ["a2-highgpu-1g"], 2: ["a2-highgpu-2g"], 4: ["a2-highgpu-4g"], 8: ["a2-highgpu-8g"],
             16: ["a2-megagpu-16g"]},
    "A100-80GB": {1: ["a2-ultragpu-1g"], 2: ["a2-ultragpu-2g"], 4: ["a2-ultragpu-4g"], 8: ["a2-ultragpu-8g"]},
    "L4": {1: ["g2-standard-4", "g2-standard-8", "g2-standard-12", "g2-standard-16", "g2-standard-32"],
           2: ["g2-standard-24"], 4: ["g2-standard-48"], 8: ["g2-standard-96"]},
    "H100": {1: ["a3-highgpu-1g"], 2: ["a3-highgpu-2g"], 4: ["a3-highgpu-4g"], 8: ["a3-highgpu-8g"]},
    "H100-MEGA": {8: ["a3-megagpu-8g"]},
    "H200": {8: ["a3-ultragpu-8g"]},
    "B200": {8: ["a4-highgpu-8g"]},
}
# ... and the N1 limits of the others (_NUM_ACC_TO_MAX_CPU_AND_MEMORY): count -> (vCPUs, GiB).
GCP_N1_LIMITS = {
    "K80": {1: (8, 52), 2: (16, 104), 4: (32, 208), 8: (64, 416)},
    "V100": {1: (12, 78), 2: (24, 156), 4: (48, 312), 8: (96, 624)},
    "T4": {1: (48, 312), 2: (48, 312), 4: (96, 624)},
    "P4": {1: (24, 156), 2: (48, 312), 4: (96, 624)},
    "P100": {1: (16, 104), 2: (32, 208), 4: (64, 208)},
}
N1_MEMORY_PER_VCPU = {"standard": 3.75, "highmem": 6.5, "highcpu": 0.9}
# Retired sizes (Azure's retired-sizes list; AWS previous generation): never pinned.
RETIRED = [("azure", re.compile(r"^Standard_NC(6|12|24|24r)(_Promo)?$")),
           ("azure", re.compile(r"^Standard_NC(6|12|24|24r)s_v2$")),
           ("azure", re.compile(r"^Standard_ND(6|12|24|24r)s$")),
           ("azure", re.compile(r"^Standard_NV(6|12|24)(_Promo)?$")),
           ("azure", re.compile(r"^Standard_NV(12|24|48)s_v3$")),
           ("aws", re.compile(r"^p2\.")), ("aws", re.compile(r"^g3s?\."))]
# Known errors of the catalog extract (README of /work/shared/data/skypilot-gpu): Azure lists
# Standard_ND96isr_H100_v5 with AcceleratorCount 12; the machine has 8 H100 (GPU Frontier's catalog says 8).
COUNT_QUIRKS = {("azure", "Standard_ND96isr_H100_v5"): {"12": "8"}}


LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when python3-yaml has it: same results


def gcp_pair_problems(itype, acc, count):
    """SkyPilot's check_accelerator_attachable_to_host for one pin (itype empty: SkyPilot chooses)."""
    try:
        n = int(count)
    except ValueError:
        return ["gcp: accelerator count %r is not whole" % count]
    if acc in GCP_HOSTS:
        hosts = GCP_HOSTS[acc].get(n)
        if hosts is None:
            return ["gcp: SkyPilot attaches %s only in counts %s" % (acc, sorted(GCP_HOSTS[acc]))]
        if itype and itype not in hosts:
            return ["gcp: %s GPUs cannot be attached to %s (SkyPilot takes %s)" % (acc, itype, hosts)]
        return []
    if itype and not itype.startswith("n1-"):
        return ["gcp: %s GPUs cannot be attached to %s: other GPUs need N1 hosts" % (acc, itype)]
    limits = GCP_N1_LIMITS.get(acc, {})
    if limits and n not in limits:
        return ["gcp: SkyPilot attaches %s only in counts %s" % (acc, sorted(limits))]
    m = re.match(r"^n1-(standard|highmem|highcpu)-(\d+)$", itype or "")
    if m and n in limits:
        cpus = int(m.group(2))
        mem = cpus * N1_MEMORY_PER_VCPU[m.group(1)]
        max_cpus, max_mem = limits[n]
        if cpus > max_cpus or mem > max_mem:
            return ["gcp: %s:%d cannot be attached to %s (at most %d vCPUs, %d GiB)" % (acc, n, itype, max_cpus,
                                                                                         max_mem)]
    return []


def spot_priced(rows_by_type):
    """Whether any row of a cloud's catalog has a spot price above zero."""
    for rows in rows_by_type.values():
        for r in rows:
            try:
                if float(r.get("SpotPrice") or 0) > 0:
                    return True
            except ValueError:
                pass
    return False


def pin_of(res):
    if "infra" in res:
        parts = str(res["infra"]).split("/", 2)
        return parts[0], parts[1] if len(parts) > 1 else "", parts[2] if len(parts) > 2 else ""
    return res.get("cloud", ""), res.get("region", ""), res.get("zone", "")


def rule_problems(task, plan_dir, catalogs, launch):
    """SkyPilot's rules outside the schema and the plan's own promises (see the module's text)."""
    p = []
    res = task["resources"]
    cloud, _, _ = pin_of(res)
    itype = res.get("instance_type", "")
    acc, _, count = str(res.get("accelerators", "")).rpartition(":")
    if cloud == "gcp":
        p += gcp_pair_problems(itype, acc, count)
    elif not itype:
        p.append("%s: no instance_type (only GCP pins leave the host to SkyPilot)" % cloud)
    for provider, pattern in RETIRED:
        if cloud == provider and pattern.match(itype or ""):
            p.append("%s is a retired size" % itype)
    for remote, local in (task.get("file_mounts") or {}).items():
        if "://" not in local and not os.path.exists(os.path.join(plan_dir, os.path.expanduser(local))):
            p.append("file_mounts source %s (for %s) does not exist in the plan folder" % (local, remote))
    if res.get("use_spot") and cloud in catalogs and not spot_priced(catalogs[cloud]):
        p.append("use_spot on %s, whose SkyPilot catalog has no spot price" % cloud)
    envs = task.get("envs") or {}
    ceiling, high = envs.get("GF_MAX_COST_USD", ""), envs.get("GF_TASK_COST_HIGH_USD", "")
    if ceiling and high and float(ceiling) < float(high):
        p.append("cost ceiling %s USD is below the task's cost range (up to %s USD)" % (ceiling, high))
    if high and not ceiling:
        p.append("a projected task has no cost ceiling")
    name = task["name"]
    managed = "job_recovery" in res
    if managed != bool(res.get("use_spot")):
        p.append("job_recovery on an on-demand task, or a spot task without it")
    for where, commands in launch.items():
        if name not in commands:
            continue
        if managed and commands[name] != "jobs":
            p.append("%s starts %s with sky launch, where job_recovery does not act" % (where, name))
        if not managed and commands[name] != "cluster":
            p.append("%s starts on-demand task %s as a managed job" % (where, name))
    return p


def launch_commands(plan_dir):
    """{where: {task name: 'jobs' | 'cluster'}} from README.txt and sweep.sh."""
    out = {}
    readme = os.path.join(plan_dir, "README.txt")
    if os.path.exists(readme):
        seen = {}
        with open(readme, encoding="utf-8") as f:
            for line in f:
                m = re.search(r"sky (jobs launch -n|launch -c) (\S+) ", line)
                if m:
                    kind = "jobs" if m.group(1).startswith("jobs") else "cluster"
                    if seen.get(m.group(2), kind) != kind:
                        kind = "both"
                    seen[m.group(2)] = kind
        out["README.txt"] = seen
    sweep = os.path.join(plan_dir, "sweep.sh")
    if os.path.exists(sweep):
        seen = {}
        with open(sweep, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^(clusters|jobs)=\((.*)\)$", line.strip())
                if m:
                    for n in shlex.split(m.group(2)):
                        seen[n] = "jobs" if m.group(1) == "jobs" else "cluster"
        out["sweep.sh"] = seen
    return out


def catalog_files(catalog_dir):
    """{cloud: [paths]} of CATALOG_DIR: <cloud>.csv and <cloud>-*.csv."""
    files = {}
    for name in sorted(os.listdir(catalog_dir)):
        if name.endswith(".csv"):
            files.setdefault(name[:-4].split("-", 1)[0], []).append(os.path.join(catalog_dir, name))
    return files


def load_catalog(paths):
    """Rows of a cloud's files grouped by InstanceType (columns by header name: orders differ)."""
    by_type = {}
    for path in paths:
        with open(path, encoding="utf-8", newline="") as f:
            for r in csv.DictReader(f):
                by_type.setdefault(r["InstanceType"], []).append(r)
    return by_type


def count_equal(text, n):
    try:
        return float(text) == float(n)
    except ValueError:
        return False


def catalog_problems(task, catalogs):
    """What does not match the catalog for this task's pin (empty list: it matches)."""
    res = task["resources"]
    cloud, region, zone = pin_of(res)
    if cloud not in CLOUDS:
        return ["cloud %r is not one of SkyPilot's %s" % (cloud, sorted(CLOUDS))]
    itype = res.get("instance_type", "")
    acc, _, count = res["accelerators"].rpartition(":")
    rows = catalogs[cloud]
    problems = []

    def where(r):
        return (not region or r.get("Region", "") == region) and (not zone or r.get("AvailabilityZone", zone) == zone)

    if cloud == "gcp" and not itype:
        # SkyPilot chooses the host: one it pairs with the accelerators must be in its (2026) catalog there.
        hosts = GCP_HOSTS.get(acc, {}).get(int(count), [])
        if hosts and not [r for h in hosts for r in catalogs.get("gcp_2026", {}).get(h, []) if where(r)]:
            problems.append("gcp: SkyPilot's catalog has no %s for %s:%s in %s %s" % (hosts, acc, count, region,
                                                                                      zone))
    if cloud == "gcp":
        gpu_rows = [r for r in rows.get("", []) + catalogs.get("gcp_2026", {}).get("", []) if r["AcceleratorName"] == acc
                    and count_equal(r["AcceleratorCount"], count) and where(r)]
        if not gpu_rows:
            problems.append("gcp: no GPU row %s:%s in %s %s" % (acc, count, region, zone))
        host_extracted = itype and not (itype.startswith("n1-") or itype.startswith("g2-"))
        if host_extracted and not [r for r in rows.get(itype, []) if where(r)]:
            problems.append("gcp: no host row %s in %s %s" % (itype, region, zone))
    else:
        if zone and cloud == "aws":
            problems.append("aws: a zone is pinned (%s); the catalogs give AZ ids" % zone)
        quirk = COUNT_QUIRKS.get((cloud, itype), {})

        def count_of(r):
            c = r["AcceleratorCount"]
            return quirk.get(c.split(".")[0], c)

        # No region: SkyPilot picks one (a vast.ai marketplace offer outside SkyPilot's catalog).
        match = [r for r in rows.get(itype, []) if r["AcceleratorName"] == acc
                 and count_equal(count_of(r), count) and (not region or r.get("Region", "") == region)]
        if not match:
            problems.append("%s: no row (%s, %s, %s:%s)" % (cloud, itype, region, acc, count))
    return problems


def shape_problems(t):
    p = []
    if not isinstance(t, dict):
        return ["not a mapping"]
    for key in sorted(set(t) - TASK_KEYS):
        p.append("%r is not a SkyPilot task field" % key)
    if not isinstance(t.get("name"), str) or not NAME.match(t["name"]):
        p.append("name %r is not gf-<lowercase letters, digits, ->" % (t.get("name"),))
    if not isinstance(t.get("num_nodes"), int) or t["num_nodes"] < 1:
        p.append("num_nodes is not a whole number >= 1")
    res = t.get("resources")
    if not isinstance(res, dict):
        return p + ["resources is missing"]
    for key in sorted(set(res) - RESOURCE_KEYS):
        p.append("resources.%s is not a SkyPilot resources field" % key)
    if ("infra" in res) == ("cloud" in res):
        p.append("resources needs exactly one of infra and cloud")
    if "infra" in res and ("region" in res or "zone" in res):
        p.append("resources.infra goes without region and zone")
    if "infra" in res and isinstance(res["infra"], str) and not re.match(r"^[a-z]+(/[^/]+(/[^/]+)?)?$",
                                                                          res["infra"]):
        p.append("resources.infra %r is not cloud[/region[/zone]]" % res["infra"])
    if "job_recovery" in res:
        jr = res["job_recovery"]
        strategy = jr.get("strategy") if isinstance(jr, dict) else jr
        if strategy not in JOB_RECOVERY:
            p.append("resources.job_recovery %r is not one of %s" % (jr, sorted(JOB_RECOVERY)))
    for key in ("infra", "cloud", "region", "zone", "instance_type", "accelerators"):
        if key in res and not isinstance(res[key], str):
            p.append("resources.%s is not a string" % key)
    if not re.match(r"^[^:]+:[1-9][0-9]*$", str(res.get("accelerators", ""))):
        p.append("resources.accelerators %r is not NAME:COUNT" % (res.get("accelerators"),))
    if not isinstance(res.get("use_spot"), bool):
        p.append("resources.use_spot is not a boolean")
    if not isinstance(res.get("disk_size"), int) or res["disk_size"] < 1:
        p.append("resources.disk_size is not a whole number of GB")
    envs = t.get("envs")
    if not isinstance(envs, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in envs.items()):
        p.append("envs is not a mapping of strings to strings")
    elif not all(ENV_NAME.match(k) for k in envs):
        p.append("envs has a name SkyPilot refuses (letters, digits, _; not starting with a digit)")
    if "file_mounts" in t and not (isinstance(t["file_mounts"], dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in t["file_mounts"].items())):
        p.append("file_mounts is not a mapping of strings to strings")
    for key in ("setup", "run"):
        if not isinstance(t.get(key), str) or not t[key].strip():
            p.append("%s is missing" % key)
    return p


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    plan_dir, catalog_dir = argv[1], argv[2]
    use_catalog = "--no-catalog" not in argv[3:]
    files = catalog_files(catalog_dir)
    CLOUDS.update(files)
    catalogs = {c: load_catalog(p) for c, p in files.items()} if use_catalog else {}
    launch = launch_commands(plan_dir)
    parsed = {}
    bad = 0
    names = sorted(n for n in os.listdir(plan_dir) if n.endswith(".yaml"))
    if not names:
        print("check_skypilot_tasks: no *.yaml in %s" % plan_dir, file=sys.stderr)
        return 1
    for name in names:
        with open(os.path.join(plan_dir, name), encoding="utf-8") as f:
            try:
                task = yaml.load(f, Loader=LOADER)
            except yaml.YAMLError as e:
                print("%s: not valid YAML: %s" % (name, e), file=sys.stderr)
                bad += 1
                continue
        problems = shape_problems(task)
        if not problems:
            problems = rule_problems(task, plan_dir, catalogs, launch)
        if not problems and use_catalog:
            problems = catalog_problems(task, catalogs)
        for pr in problems:
            print("%s: %s" % (name, pr), file=sys.stderr)
        bad += bool(problems)
        parsed[name] = task
    json.dump(parsed, sys.stdout, ensure_ascii=True, sort_keys=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
