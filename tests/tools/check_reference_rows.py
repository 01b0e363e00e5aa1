#!/usr/bin/env python3
"""Rule Z's reference rows in resources/tools/fit_typical_stack.py (PROJECTION.md section 3.26): the same
constructed rows as unit_transfervalidation's referenceRowsFollowRuleZ, so that the fitter and the app pick
the same reference row in the cases the shipped data does not reach (a tie, a source without the preset on
its reference GPU, a second row of the reference GPU). The fitter gets its rows after load_data() has left
out those not in use and those without a projection (the app's projectable check), so those are absent here.
Usage: check_reference_rows.py REPO_ROOT
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolcheck import check, finish  # noqa: E402
import fit_typical_stack as ft  # noqa: E402


def row(source, preset, gpu):
    return {"source": source, "preset": preset, "gpu": gpu}


# unit_transfervalidation's rows with the projectable check, less those load_data() leaves out (7: not in
# use; 9: not a preset; 10 and 11: the Gaudi, which has no fp16 rate), numbered as there.
app = {
    0: row("S1", "resnet50", "rtx3090"), 1: row("S1", "resnet50", "a100-80gb-sxm4"),
    2: row("S1", "bert-large-squad", "rtx3090"), 3: row("S1", "bert-large-squad", "v100-32gb-sxm2"),
    4: row("S2", "resnet50", "h200-141gb-sxm"), 5: row("S2", "resnet50", "h100-80gb-sxm"),
    6: row("S2", "vit-b16", "l40s"), 8: row("S3", "resnet50", "rtx3090"),
    12: row("S4", "resnet50", "rtx3090"), 13: row("S4", "resnet50", "l4"),
    14: row("S5", "resnet50", "a100-80gb-sxm4"), 15: row("S5", "resnet50", "a100-80gb-sxm4"),
    16: row("S5", "resnet50", "rtx3090"),
}
# The app's answer (unit_transfervalidation, the projectable call): -1 = none.
expected = {0: 1, 1: -1, 2: -1, 3: 2, 4: 5, 5: -1, 6: -1, 8: -1, 12: 13, 13: -1, 14: -1, 15: 14, 16: 14}
rows = [app[i] for i in sorted(app)]
index = {id(r): i for i, r in app.items()}
refs = ft.reference_rows(rows)
for i, r in app.items():
    got = refs[id(r)]
    got = -1 if got is None else index[id(got)]
    check(got == expected[i], "row %d (%s): reference %d, expected %d" % (i, "/".join(r.values()), got, expected[i]))
finish()
