#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""checkscale-table.py - the tables of bench/checkscale from its output directory.

usage: checkscale-table.py OUTDIR

Reads OUTDIR/smpN-R/ (one boot with N vCPUs, round R): runs.txt and host.txt, and per run
REP-LAYOUT-TOOL.pre and .post (bench/progsnap of the mgtrace process around the workload)
and .json (its report). Per run, ns per event = the run_time_ns over the run_cnt of the
event programs (bench/progstats.py judge_window: tpb_/rtp_ of the timestamp tracepoints with at least
1% of the runs)
between the two snapshots: the kernel's bpf_stats (sched_clock). Prints markdown: per
layout (separate files, shared) and vCPU count, the median over runs (with min..max) of
ns per event of check and of counting (stat --backend tracepoint -e all), each as a ratio
to the smallest vCPU count, and check's over counting's (the median of the per-boot
ratios: the emulation's and the host's speed, which both share, divided out); then ns
per run of each of check's programs; then each boot's host load. "busy vCPUs" is the
guest's /proc/stat over the window (its busy share times the vCPUs): the vCPUs that ran,
which with more of them than host CPUs time-share those. Also writes
OUTDIR/table.json with every run's figures.
Exit codes: 0 ok, 1 no run could be read, 2 usage.
"""
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import progstats  # noqa: E402

LAYOUTS = ("separate", "shared")
TOOLS = ("check", "count")


def kv(path):
    """A file of "key value" lines -> dict (missing file: {})."""
    res = {}
    try:
        with open(path) as f:
            for line in f:
                k, _, v = line.strip().partition(" ")
                res[k] = v
    except OSError:
        pass
    return res


def guest_info(path):
    """runs.txt's "INFO key value" lines -> dict (missing file: {})."""
    res = {}
    try:
        with open(path) as f:
            for line in f:
                w = line.split(None, 2)
                if len(w) == 3 and w[0] == "INFO":
                    res[w[1]] = w[2].strip()
    except OSError:
        pass
    return res


def report(path):
    """The last JSON object of an mgtrace --json file, or {}."""
    try:
        with open(path) as f:
            objs = [json.loads(x) for x in f if x.startswith("{")]
        return objs[-1] if objs else {}
    except (OSError, ValueError):
        return {}


def read_runs(out):
    """Every run of OUTDIR -> list of dicts (smp, round, rep, layout, tool, window...)."""
    runs = []
    for d in sorted(glob.glob(os.path.join(out, "smp*-*"))):
        m = re.match(r"smp(\d+)-(\d+)$", os.path.basename(d))
        if not m:
            continue
        smp, rnd = int(m.group(1)), int(m.group(2))
        for pre in sorted(glob.glob(os.path.join(d, "*.pre"))):
            n = os.path.basename(pre)[:-4]
            rep, layout, tool = n.split("-")
            try:
                a, b = progstats.read_snap(pre), progstats.read_snap(pre[:-4] + ".post")
            except (OSError, ValueError):
                continue
            win = progstats.window(a, b)
            r, ns = progstats.judge_window(win)
            if not r:
                continue
            rep_js = report(pre[:-4] + ".json")
            runs.append({"smp": smp, "round": rnd, "rep": int(rep), "layout": layout,
                         "tool": tool, "runs": r, "ns": ns, "ns_per_event": ns / r,
                         "programs": {k: v for k, v in win.items()
                                      if progstats.is_judge_prog(k) and v[0]},
                         "busy_cpus": progstats.busy_cpus(a, b, smp),
                         "verdict": rep_js.get("verdict"),
                         "without_lock": rep_js.get("judged", {}).get("events_without_lock")})
    return runs


def med(vals):
    return statistics.median(vals) if vals else None


def cell(vals, fmt="{:.0f}"):
    if not vals:
        return "-"
    return f"{fmt.format(med(vals))} ({fmt.format(min(vals))}..{fmt.format(max(vals))})"


def main(argv):
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out = argv[0]
    runs = read_runs(out)
    if not runs:
        print(f"checkscale-table: no run in {out} could be read", file=sys.stderr)
        return 1
    smps = sorted({x["smp"] for x in runs})
    info = guest_info(os.path.join(out, f"smp{smps[0]}-1", "runs.txt"))
    print(f"ns per event: bpf_stats (run_time_ns / run_cnt of the event programs) over the "
          f"workload's window; median (min..max) over runs; kernel {info.get('kernel', '?')}, "
          f"clocksource {info.get('clocksource', '?')}, {info.get('files_per_thread', '?')} "
          f"file(s) a thread; qemu TCG on {os.cpu_count()} host CPUs.")
    print()
    print("| layout | vCPUs = threads | check ns/event | vs smp %d | counting ns/event | "
          "vs smp %d | check / counting | vs smp %d | busy vCPUs, check (counting) | "
          "events a run (check) | verdicts |" % (smps[0], smps[0], smps[0]))
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    rows = []
    for layout in LAYOUTS:
        base = {}
        for smp in smps:
            row = {"layout": layout, "smp": smp}
            for tool in TOOLS:
                row[tool] = [x["ns_per_event"] for x in runs
                             if (x["smp"], x["layout"], x["tool"]) == (smp, layout, tool)]
            # check over counting, pairing the runs of one boot and rep
            row["norm"] = []
            for c in runs:
                if (c["smp"], c["layout"], c["tool"]) != (smp, layout, "check"):
                    continue
                k = [x["ns_per_event"] for x in runs if x["tool"] == "count" and
                     (x["smp"], x["layout"], x["round"], x["rep"]) ==
                     (smp, layout, c["round"], c["rep"])]
                if k:
                    row["norm"].append(c["ns_per_event"] / k[0])
            for f in ("check", "count", "norm"):
                if row[f] and f not in base:
                    base[f] = med(row[f])
            ratio = {f: (f"{med(row[f]) / base[f]:.2f}" if row[f] and base.get(f) else "-")
                     for f in ("check", "count", "norm")}
            ev = [x["runs"] for x in runs if (x["smp"], x["layout"], x["tool"]) ==
                  (smp, layout, "check")]
            verd = sorted({str(x["verdict"]) for x in runs if
                           (x["smp"], x["layout"], x["tool"]) == (smp, layout, "check")})
            busy = {t: [x["busy_cpus"] for x in runs if x["busy_cpus"] is not None and
                        (x["smp"], x["layout"], x["tool"]) == (smp, layout, t)] for t in TOOLS}
            row.update(ratio_check=ratio["check"], ratio_count=ratio["count"],
                       ratio_norm=ratio["norm"], events=ev, verdicts=verd, busy=busy)
            rows.append(row)
            bc = (f"{med(busy['check']):.1f} ({med(busy['count']):.1f})"
                  if busy["check"] and busy["count"] else "-")
            print(f"| {layout} | {smp} | {cell(row['check'])} | {ratio['check']} | "
                  f"{cell(row['count'])} | {ratio['count']} | {cell(row['norm'], '{:.2f}')} | "
                  f"{ratio['norm']} | {bc} | {med(ev) if ev else '-'} | {', '.join(verd)} |")
    print()
    progs = sorted({p for x in runs if x["tool"] == "check" for p in x["programs"]})
    print("check's programs, ns per run (median over runs; runs: of the last run):")
    print()
    print("| layout | vCPUs | " + " | ".join(progs) + " |")
    print("|---|---:|" + "---:|" * len(progs))
    for layout in LAYOUTS:
        for smp in smps:
            mine = [x for x in runs if (x["smp"], x["layout"], x["tool"]) ==
                    (smp, layout, "check")]
            cells = []
            for p in progs:
                v = [x["programs"][p][1] / x["programs"][p][0] for x in mine if p in x["programs"]]
                last = mine[-1]["programs"].get(p, (0, 0))[0] if mine else 0
                cells.append(f"{med(v):.0f} ({last} runs)" if v else "-")
            print(f"| {layout} | {smp} | " + " | ".join(cells) + " |")
    print()
    print("host, per boot: CPU busy in the second before (%), load average before and after, "
          "qemu processes before (the boot's own not yet started), wall time of the boot:")
    print()
    for d in sorted(glob.glob(os.path.join(out, "smp*-*")),
                    key=lambda p: [int(x) for x in re.findall(r"\d+", os.path.basename(p))]):
        h = kv(os.path.join(d, "host.txt"))
        print(f"- {os.path.basename(d)}: busy {h.get('busy_before_pct', '?')}%, load "
              f"{h.get('loadavg_before', '?')} -> {h.get('loadavg_after', '?')}, qemu "
              f"{h.get('qemu_before', '?')}, {h.get('boot_s', '?')} s")
    with open(os.path.join(out, "table.json"), "w") as f:
        json.dump({"source": "guest kernel bpf_stats (run_time_ns / run_cnt), window: the "
                   "workload", "rows": rows, "runs": runs}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
