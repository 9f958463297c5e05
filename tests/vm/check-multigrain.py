#!/usr/bin/env python3
# check-multigrain.py - host-side assertions on the JSON files written by
# guest-multigrain.sh.  usage: check-multigrain.py OUTDIR LABEL
# Prints "PASS|FAIL LABEL/name[: reason]" lines, like run-vm.sh.
import json, os, sys

out, label = sys.argv[1], sys.argv[2]

def check(name, ok, why=""):
    print(("PASS %s/%s" if ok else "FAIL %s/%s: " + why) % (label, name))

for fs in ("tmpfs", "ext4"):
    path = os.path.join(out, "mgts-%s.json" % fs)
    try:
        d = json.load(open(path))
        b, a = d["before"], d["after"]
    except (OSError, ValueError, KeyError) as e:
        check("mgts-%s-counters" % fs, False, "%s: %s" % (path, e))
        continue
    grew = len(a) == len(b) and all(x >= y for x, y in zip(a, b)) and a != b
    check("mgts-%s-counters" % fs, grew, "before %s after %s" % (b, a))
