#!/usr/bin/env python3
"""Parses the SkyPilot task YAMLs of a launch plan folder and checks them against SkyPilot's catalogs.

Usage: check_skypilot_tasks.py PLAN_DIR CATALOG_DIR [--no-catalog]

For every PLAN_DIR/*.yaml: parsed with PyYAML (yaml.safe_load, the Debian package python3-yaml), the
shape of a SkyPilot task checked (types of name, num_nodes, resources, envs, file_mounts, setup, run),
and unless --no-catalog the pinned (cloud, instance type, region[, zone], accelerator name, count)
looked up in CATALOG_DIR/<cloud>.csv (verbatim copies of skypilot-catalog's vms.csv files).
Prints one JSON object {file name: parsed task} on stdout for the caller's field-by-field checks and
one line per problem on stderr.

Exit status: 0 all good, 1 a task is malformed or not in the catalogs, 3 PyYAML is missing, 2 usage.
"""

import csv
import json
import os
import re
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
# Known errors of the catalog extract (README of /work/shared/data/skypilot-gpu): Azure lists
# Standard_ND96isr_H100_v5 with AcceleratorCount 12; the machine has 8 H100 (GPU Frontier's catalog says 8).
COUNT_QUIRKS = {("azure", "Standard_ND96isr_H100_v5"): {"12": "8"}}


LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when python3-yaml has it: same results


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
    if "infra" in res:
        parts = res["infra"].split("/", 2)
        cloud = parts[0]
        region = parts[1] if len(parts) > 1 else ""
        zone = parts[2] if len(parts) > 2 else ""
    else:
        cloud = res.get("cloud", "")
        region = res.get("region", "")
        zone = res.get("zone", "")
    if cloud not in CLOUDS:
        return ["cloud %r is not one of SkyPilot's %s" % (cloud, sorted(CLOUDS))]
    itype = res["instance_type"]
    acc, _, count = res["accelerators"].rpartition(":")
    rows = catalogs[cloud]
    problems = []

    def where(r):
        return r.get("Region", "") == region and (not zone or r.get("AvailabilityZone", zone) == zone)

    if cloud == "gcp":
        gpu_rows = [r for r in rows.get("", []) if r["AcceleratorName"] == acc
                    and count_equal(r["AcceleratorCount"], count) and where(r)]
        if not gpu_rows:
            problems.append("gcp: no GPU row %s:%s in %s %s" % (acc, count, region, zone))
        host_extracted = not (itype.startswith("n1-") or itype.startswith("g2-"))
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
    if not isinstance(t.get("name"), str) or not NAME.match(t["name"]):
        p.append("name %r is not gf-<lowercase letters, digits, ->" % (t.get("name"),))
    if not isinstance(t.get("num_nodes"), int) or t["num_nodes"] < 1:
        p.append("num_nodes is not a whole number >= 1")
    res = t.get("resources")
    if not isinstance(res, dict):
        return p + ["resources is missing"]
    if ("infra" in res) == ("cloud" in res):
        p.append("resources needs exactly one of infra and cloud")
    for key in ("infra", "cloud", "region", "zone", "instance_type", "accelerators"):
        if key in res and not isinstance(res[key], str):
            p.append("resources.%s is not a string" % key)
    if not re.match(r"^[^:]+:[1-9][0-9]*$", str(res.get("accelerators", ""))):
        p.append("resources.accelerators %r is not NAME:COUNT" % (res.get("accelerators"),))
    if not isinstance(res.get("use_spot"), bool):
        p.append("resources.use_spot is not a boolean")
    if not isinstance(res.get("disk_size"), int) or res["disk_size"] < 1:
        p.append("resources.disk_size is not a whole number of GB")
    if res.get("use_spot") and res.get("job_recovery") != "FAILOVER":
        p.append("a spot task has no job_recovery")
    if not res.get("use_spot") and "job_recovery" in res:
        p.append("an on-demand task has job_recovery")
    envs = t.get("envs")
    if not isinstance(envs, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in envs.items()):
        p.append("envs is not a mapping of strings to strings")
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
