#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# probe-fixture.py - compare a kernel's `mgtrace probe --json` with its fixture.
# usage: probe-fixture.py PROBE_JSON FIXTURE LABEL
# Only the fields that describe the kernel's interface are compared (see
# stable()); counter values, the exact release string and per-boot figures are
# dropped. Prints "PASS LABEL/probe-fixture", or "FAIL LABEL/probe-fixture: ..."
# with the changed lines, or "SKIP LABEL/probe-fixture: ..." when there is no
# fixture yet. With MGTRACE_VM_UPDATE_FIXTURES=1 the fixture is (re)written from
# this run (and the line says so); commit it so that a later change shows as a diff.
import difflib
import json
import os
import re
import sys


def stable(p):
    """The probe object without the fields that change from boot to boot."""
    keep = dict(p)
    rel = keep.pop("kernel_release", "")
    # the series (7.2) is part of the label; the point release changes with the mirror
    keep["kernel_series"] = ".".join(rel.split(".")[:2])
    dbg = keep.get("debugfs")
    if isinstance(dbg, dict) and isinstance(dbg.get("values"), dict):
        dbg = dict(dbg)
        dbg["values"] = sorted(dbg["values"])  # the counter names, not their values
        keep["debugfs"] = dbg
    pm = keep.get("percpu_method")
    if isinstance(pm, str):
        # the no-debugfs validation runs on whichever CPU the scheduler picked
        keep["percpu_method"] = re.sub(r"\bon CPU \d+", "on CPU N", pm)
    return keep


def dump(o):
    return json.dumps(o, indent=2, sort_keys=True) + "\n"


def main():
    src, fixture, label = sys.argv[1:4]
    with open(src) as f:
        got = dump(stable(json.loads(f.readline())))
    if os.environ.get("MGTRACE_VM_UPDATE_FIXTURES") == "1":
        old = open(fixture).read() if os.path.exists(fixture) else None
        with open(fixture, "w") as f:
            f.write(got)
        what = "unchanged" if old == got else ("written" if old is None else "updated")
        print(f"{'PASS' if old == got else 'SKIP'} {label}/probe-fixture"
              + ("" if old == got else f": fixture {what} from this run: {fixture}"))
        return
    if not os.path.exists(fixture):
        print(f"SKIP {label}/probe-fixture: no fixture {fixture} "
              "(MGTRACE_VM_UPDATE_FIXTURES=1 writes it)")
        return
    want = open(fixture).read()
    if want == got:
        print(f"PASS {label}/probe-fixture")
        return
    diff = [d.rstrip("\n") for d in difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                          "fixture", "this run", n=0)
            if d[:1] in "+-" and not d.startswith(("+++", "---"))]
    print(f"FAIL {label}/probe-fixture: probe differs from {fixture}: " + " | ".join(diff[:12]))


main()
