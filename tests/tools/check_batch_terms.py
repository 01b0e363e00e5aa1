#!/usr/bin/env python3
"""Rule AA (PROJECTION.md section 3.28, rejected): resources/tools/score_batch_terms.py.

1. The forms on constructed pairs: a beta and a b0 that made the errors are found again, a pair at one batch is
   never moved, and the held-out fit does not see its own workload.
2. On the app's own validate pairs: the figures section 3.28 quotes, and the rejection (no form holds the median
   of the shipped model with the workload held out).
Usage: check_batch_terms.py REPO CLI
"""
import math
import os
import subprocess
import json
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolcheck import check, finish, repo  # noqa: E402
import score_batch_terms as sbt  # noqa: E402


def main():
    cli = sys.argv[2]

    # 1. Constructed pairs: e = -0.12 ln(b_t / b_s) for class "t" in workloads a and b.
    def pair(w, cls, bs, bt, e):
        return {"workload": w, "class": cls, "from_batch": bs, "batch": bt, "log_error": e}
    made = [pair(w, "t", bs, bt, -0.12 * math.log(bt / bs)) for w in ("a", "b") for bs, bt in
            ((2, 24), (24, 2), (4, 64), (64, 4), (8, 8))]
    check(abs(sbt.fit_beta(made) - 0.12) < 1e-12, "beta found again: %r" % sbt.fit_beta(made))
    for form in ("power", "sat", "sat-class", "none"):
        same = [e for w, (_, es) in sbt.held_out(made, form).items() for e, p in zip(es, [q for q in made if q["workload"] == w])
                if p["batch"] == p["from_batch"]]
        check(all(e == 0.0 for e in same), "%s: a pair at one batch is not moved (%r)" % (form, same))
    held = sbt.held_out(made, "power")
    check(all(abs(e) < 1e-12 for _, es in held.values() for e in es), "power: the held-out workload is corrected")
    b0 = sbt.B0_GRID[17]
    sat = [pair(w, "t", bs, bt, -math.log((bt / (bt + b0)) / (bs / (bs + b0)))) for w in ("a", "b", "c")
           for bs, bt in ((2, 24), (24, 2), (4, 64), (64, 4))]
    check(sbt.fit_b0(sat) == b0, "b0 found again on its grid (%r, %r)" % (sbt.fit_b0(sat), b0))
    # The held-out fit sees only the other workloads: one workload alone in its class has no beta.
    lone = made + [pair("z", "u", 2, 32, 0.5)]
    check(sbt.held_out(lone, "power")["z"][0] == 0.0, "a class with one workload gets no beta when it is held out")
    check(sbt.pairs_of({"user_transfer": {"pairs": [{"from_batch": 0, "batch": 4}, {"from_batch": 2, "batch": 4}]}})
          == [{"from_batch": 2, "batch": 4}], "pairs without both batches are left out")

    # 2. The app's pairs.
    data = json.loads(subprocess.run([cli, "validate", "--format", "json"], check=True, capture_output=True,
                                     text=True).stdout)
    s = sbt.score(data)
    quoted = {"none": (2464, 0.117, 1.020, 243, 58), "power": (2464, 0.138, 0.853, 179, 28),
              "sat": (2464, 0.121, 0.837, 261, 40), "sat-class": (2464, 0.124, 1.765, 262, 99)}
    for form, (n, med, mx, b4, b6) in quoted.items():
        got = s[form]
        check(got["n"] == n and round(got["median"], 3) == med and round(got["max"], 3) == mx
              and got["beyond_040"] == b4 and got["beyond_060"] == b6, "%s as section 3.28 quotes it: %r" % (form, got))
    check(all(s[f]["median"] > s["none"]["median"] for f in ("power", "sat", "sat-class")),
          "no form holds the shipped median with the workload held out (the rejection)")
    finish()


if __name__ == "__main__":
    main()
