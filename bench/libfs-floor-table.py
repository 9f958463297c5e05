#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# libfs-floor-table.py - the tables of bench/libfs-floor from its output directory.
# usage: libfs-floor-table.py OUTDIR
# Reads OUTDIR/<kernel>-<round>/<workload>-<rep>.json: for the lu-* workloads a
# `mgtrace stat --json --backend fentry -e all --hot` report (type "summary") followed by
# tests/mgorder.c's line (type "order", whose "ops" is the number of link/unlink ops); for
# "check" a `mgtrace check --json` report; for "order" mgorder's line alone.
# Prints markdown: per lu-* workload and kernel, the median and range (min-max) over all
# runs of each counter divided by the link/unlink ops. Sources, as stat reports them:
# ctime_updates, fine_stamps, floor_swaps, ctime_swaps from the kernel's per-CPU counters
# (equal to debugfs: the VM stage checks it), ctime_skips, stat_queries and ctime_sets from
# tracepoints (-e all), current_time and coarse_mg from function probes (--hot),
# floor_cmpxchg_fails derived (fine_stamps - floor_swaps). The setup of each thread (mkdir,
# create f, unlink f, rmdir: 4 directory ops) is in the window but not in the ops.
# Then the ordering verdicts of "check" and "order".
import glob
import json
import os
import statistics
import sys

out = sys.argv[1]
KERNELS = (("mainline-7.2", "mainline"), ("libfs-dirctime-7.2", "patched"))
LU = ("lu-queried", "lu-queried-2t", "lu-quiet")
CTRS = ("ctime_updates", "fine_stamps", "floor_swaps", "floor_cmpxchg_fails", "ctime_swaps",
        "ctime_skips", "ctime_sets", "stat_queries", "current_time", "coarse_mg")


def reports(kdir, wl):
    res = []
    for path in sorted(glob.glob(os.path.join(out, kdir + "-*", wl + "-[0-9]*.json"))):
        if os.path.basename(path)[len(wl) + 1:-5].isdigit():
            objs = [json.loads(ln) for ln in open(path) if ln.startswith("{")]
            res.append({o.get("type"): o for o in objs})
    return res


def fmt(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.3f}"


def cell(vals):
    return f"{fmt(statistics.median(vals))} ({fmt(min(vals))}-{fmt(max(vals))})" if vals else "n/a"


print("Per link/unlink op (median (min-max) over all runs):\n")
print("| workload | kernel | runs | " + " | ".join(CTRS) + " |")
print("|---|---|---:|" + "---:|" * len(CTRS))
for wl in LU:
    for kdir, kname in KERNELS:
        rs = [r for r in reports(kdir, wl) if "summary" in r and "order" in r]
        cells = []
        for k in CTRS:
            vals = [r["summary"]["counters"][k]["total"] / r["order"]["ops"] for r in rs
                    if r["summary"]["counters"][k]["total"] is not None]
            cells.append(cell(vals))
        print(f"| {wl} | {kname} | {len(rs)} | " + " | ".join(cells) + " |")
print()
print("| workload | kernel | runs | floor swaps / fine stamp | fine stamps / ctime update |")
print("|---|---|---:|---:|---:|")
for wl in LU + ("check",):
    for kdir, kname in KERNELS:
        rs = [r.get("summary") or r.get("check") for r in reports(kdir, wl)]
        rs = [r for r in rs if r and r["counters"]["fine_stamps"]["total"]]
        sw = [r["counters"]["floor_swaps"]["total"] / r["counters"]["fine_stamps"]["total"] for r in rs]
        fu = [r["counters"]["fine_stamps"]["total"] / r["counters"]["ctime_updates"]["total"] for r in rs]
        print(f"| {wl} | {kname} | {len(rs)} | {cell(sw)} | {cell(fu)} |")
print()
print("Cross-file ordering:\n")
print("| workload | kernel | runs | verdicts | ordering violations | modifications judged |")
print("|---|---|---:|---|---:|---:|")
for kdir, kname in KERNELS:
    rs = [r["check"] for r in reports(kdir, "check") if "check" in r]
    v = sorted({r["verdict"] for r in rs})
    print(f"| check (built-in) | {kname} | {len(rs)} | {', '.join(v)} | "
          f"{sum(r['invariants']['cross_file_order']['violations'] for r in rs)} | "
          f"{sum(r['invariants'].get('ordering_modifications') or 0 for r in rs)} |")
for kdir, kname in KERNELS:
    rs = [r["order"] for r in reports(kdir, "order") if "order" in r]
    print(f"| order (mgorder -t 2, link/unlink) | {kname} | {len(rs)} | - | "
          f"{sum(r['violations'] for r in rs)} | {sum(r['judged'] for r in rs)} |")
print()
print("fentry backend, `stat -e all --hot`; qemu TCG, 2 vCPUs, alternating boots.")
