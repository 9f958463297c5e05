#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# check-nomultigrain.py - host-side assertions on what guest-nomultigrain.sh sent.
# usage: check-nomultigrain.py OUTDIR LABEL; prints "PASS|FAIL LABEL/name" lines.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checkjson  # noqa: E402

out, label = sys.argv[1], sys.argv[2]


def report(name, c):
    for f in c.failures:
        print(f"FAIL {label}/{name}: {f}")
    if not c.failures:
        print(f"PASS {label}/{name}")


c = checkjson.Checker(quiet=True)
checkjson.check_probe(c, checkjson.load_lines(os.path.join(out, "probe.json"))[0], "vm-nomultigrain")
report("probe-says-no-multigrain", c)
for name in ["stat-refused"] + [f"stat-refused-{b}" for b in ("fentry", "kprobe", "tracepoint")]:
    path = os.path.join(out, name + ".stderr")
    lines = open(path).read().splitlines() if os.path.exists(path) else []
    ok = len(lines) == 1 and lines[0].startswith("mgtrace: ") and "no multigrain" in lines[0]
    print(f"{'PASS' if ok else 'FAIL'} {label}/{name}-one-line" + ("" if ok else f": {lines}"))
