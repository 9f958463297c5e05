#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# floor-api-table.py - the table of bench/floor-api from its output directory.
# usage: floor-api-table.py OUTDIR
# Reads OUTDIR/<kernel>-<round>/<workload>-<rep>.json (mgtrace stat or check --json,
# fentry backend) and prints a markdown table: per workload and kernel, the median
# and range over all runs of each figure, and the number of runs. Every figure is
# computed from the kernel's own counters over the run's window (ctime_updates,
# fine_stamps, floor_swaps from debugfs/per-CPU counters or BPF function probes,
# equal to debugfs as the VM stage checks) and the run's duration_s;
# floor_cmpxchg_fails is mgtrace's derived fine_stamps - floor_swaps.
import glob
import json
import os
import re
import statistics
import sys

out = sys.argv[1]
KERNELS = (("mgtime-cookie-7.2", "cookie"), ("mainline-7.2", "mainline"))
WORKLOADS = ("stress-1t", "stress-2t", "stress-4t", "check", "shared-4t")
FIGS = (("floor swaps / fine stamp", lambda c, t: c["floor_swaps"] / c["fine_stamps"]),
        ("cmpxchg fails / fine stamp", lambda c, t: c["floor_cmpxchg_fails"] / c["fine_stamps"]),
        ("floor swaps / s", lambda c, t: c["floor_swaps"] / t),
        ("fine stamps / ctime update", lambda c, t: c["fine_stamps"] / c["ctime_updates"]))


def runs(kdir, wl):
    res = []
    for path in sorted(glob.glob(os.path.join(out, kdir + "-*", wl + "-*.json"))):
        if not re.search(r"-\d+\.json$", path):
            continue
        objs = [json.loads(line) for line in open(path) if line.startswith("{")]
        s = next((o for o in objs if o.get("type") in ("summary", "check")), None)
        if not s:
            continue
        c = {k: v["total"] for k, v in s["counters"].items()}
        if not c.get("fine_stamps") or not c.get("ctime_updates"):
            continue
        res.append((c, s["duration_s"]))
    return res


def fmt(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.3f}"


print("| workload | kernel | runs | " + " | ".join(f for f, _ in FIGS) + " |")
print("|---|---|---:|" + "---:|" * len(FIGS))
for wl in WORKLOADS:
    for kdir, kname in KERNELS:
        rs = runs(kdir, wl)
        cells = []
        for _, f in FIGS:
            vals = [f(c, t) for c, t in rs]
            cells.append(f"{fmt(statistics.median(vals))} ({fmt(min(vals))}-{fmt(max(vals))})"
                         if vals else "n/a")
        print(f"| {wl} | {kname} | {len(rs)} | " + " | ".join(cells) + " |")
print()
print("median (min-max) over all runs; fentry backend; qemu TCG, 2 vCPUs.")
