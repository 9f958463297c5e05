#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""schema-fixtures.py - cut tests/schema-fixtures/*.json from a VM-stage run's output.

usage: schema-fixtures.py KERNEL_OUTDIR [FIXTURE_DIR]

KERNEL_OUTDIR is one kernel's directory of MGTRACE_VM_OUT (e.g. /tmp/vm/6.18): the outputs
this host cannot make (lockdown: no fentry, no kprobes) that tests/host.d/87-schemas.sh
validates against docs/schema. Written, from the guest's own files, unchanged but cut:
  stat-latency-fentry-<label>.json    latency-fentry.json's summary
  trace-floor-fentry-<label>.json     trace-fentry.json's first 20 floor events and its summary
  check-invert-fine-kprobe-<label>.json  check-invert-fine-kprobe.json, violations cut to 3
"""
import json
import os
import sys


def objs(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def main(argv):
    if len(argv) < 1:
        sys.exit(__doc__)
    src = argv[0].rstrip("/")
    label = os.path.basename(src)
    dst = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "schema-fixtures")
    out = {}
    lat = [o for o in objs(os.path.join(src, "latency-fentry.json")) if o.get("type") == "summary"]
    out[f"stat-latency-fentry-{label}.json"] = lat[-1:]
    tr = objs(os.path.join(src, "trace-fentry.json"))
    floor = [o for o in tr if o.get("type") == "event" and o.get("event", "").startswith("floor")]
    summ = [o for o in tr if o.get("type") == "trace_summary"]
    out[f"trace-floor-fentry-{label}.json"] = floor[:20] + summ[-1:]
    ck = [o for o in objs(os.path.join(src, "check-invert-fine-kprobe.json")) if o.get("type") == "check"]
    for r in ck:
        r["violations"] = r["violations"][:3]
    out[f"check-invert-fine-kprobe-{label}.json"] = ck[-1:]
    for name, lines in out.items():
        if not lines:
            sys.exit(f"schema-fixtures: nothing to cut for {name} in {src}")
        with open(os.path.join(dst, name), "w") as f:
            for o in lines:
                f.write(json.dumps(o, separators=(",", ":"), ensure_ascii=False) + "\n")
        print(f"{name}: {len(lines)} line(s)")


if __name__ == "__main__":
    main(sys.argv[1:])
