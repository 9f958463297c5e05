#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""checktop.py - checks of `mgtrace top --json` output for the host tests (68-top.sh).

  rank TOP.json FAST.json SLOW.json [--doctor]
      TOP.json: `top --by pid -s ctime_swaps --json` run around two workloads, each run
      under its own `trace --json --events ctime` (FAST.json, SLOW.json). Checks: every
      table's totals equal the sum of its rows plus what was not attributed; for each
      process the traces saw, top's ctime_swaps and queried_swaps summed over the tables
      equal the trace's ctime_swap events (and those with old_queried) of that process;
      top ranks the fast workload above the slow one. --doctor adds one to one row of
      top's output first: the checks must then fail (the test shows they can).
  full TOP.json [--doctor]
      a run with a --max-entries too small: not_attributed > 0, rows <= max_entries, and
      totals = rows + not_attributed. --doctor zeroes not_attributed: must fail.
Prints "ok ..." / "FAIL ..." lines.
"""
import collections
import json
import sys

COUNTERS = ("ctime_swaps", "queried_swaps", "ctime_skips", "stat_queries")


def ck(c, m):
    print(("ok   " if c else "FAIL ") + m)
    return c


def load(path, typ):
    out = []
    for line in open(path):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if isinstance(o, dict) and o.get("type") == typ:
            out.append(o)
    return out


def accounting(tables):
    bad = []
    for i, t in enumerate(tables):
        for c in COUNTERS:
            rows = sum(r[c] for r in t["rows"])
            if rows + t["not_attributed"][c] != t["totals"][c]:
                bad.append(f"table {i} {c}: rows {rows} + not attributed "
                           f"{t['not_attributed'][c]} != total {t['totals'][c]}")
    ck(not bad and tables, f"{len(tables)} tables: totals = rows + not attributed "
       f"{'; '.join(bad[:3])}")


def trace_counts(path):
    ev = load(path, "event")
    summ = load(path, "trace_summary")
    swaps, queried = collections.Counter(), collections.Counter()
    for e in ev:
        if e["event"] == "ctime_swap":
            swaps[e["pid"]] += 1
            queried[e["pid"]] += bool(e["old_queried"])
    lost = summ[0]["lost_events"] if summ else None
    return swaps, queried, lost


def rank(top, fast, slow, doctor):
    tables = load(top, "top")
    if doctor and tables and tables[-1]["rows"]:
        tables[-1]["rows"][0]["ctime_swaps"] += 1
    accounting(tables)
    ck(all(t["lost_no_map"] == 0 and not any(t["not_attributed"][c] for c in COUNTERS) and
           t["rows_refused"] == {"map_full": 0, "other": 0} for t in tables),
       "nothing lost, unattributed or refused")
    per = collections.defaultdict(collections.Counter)
    for t in tables:
        for r in t["rows"]:
            for c in COUNTERS:
                per[r["pid"]][c] += r[c]
    total = {}
    for name, path in (("fast", fast), ("slow", slow)):
        swaps, queried, lost = trace_counts(path)
        ck(lost == 0, f"{name}: trace lost no events ({lost})")
        ck(sum(swaps.values()) > 0, f"{name}: trace saw ctime swaps ({sum(swaps.values())})")
        for pid in swaps:
            ck(per[pid]["ctime_swaps"] == swaps[pid],
               f"{name} pid {pid}: top ctime_swaps {per[pid]['ctime_swaps']} == trace's "
               f"ctime_swap events {swaps[pid]}")
            ck(per[pid]["queried_swaps"] == queried[pid],
               f"{name} pid {pid}: top queried_swaps {per[pid]['queried_swaps']} == trace's "
               f"swaps with old_queried {queried[pid]}")
        total[name] = (max(swaps, key=swaps.get) if swaps else None)
    f, s = total["fast"], total["slow"]
    ck(f and s and per[f]["ctime_swaps"] > per[s]["ctime_swaps"],
       f"fast pid {f} counted more than slow pid {s}")
    last = tables[-1] if tables else {"rows": []}
    order = [r["pid"] for r in last["rows"]]
    ck(f in order and s in order and order.index(f) < order.index(s) and
       last["sort"] == "ctime_swaps", f"the last table ranks fast ({f}) above slow ({s})")


def full(top, doctor):
    tables = load(top, "top")
    if doctor:
        for t in tables:
            for c in COUNTERS:
                t["not_attributed"][c] = 0
    accounting(tables)
    na = sum(t["not_attributed"]["ctime_swaps"] + t["not_attributed"]["stat_queries"]
             for t in tables)
    ck(na > 0, f"not attributed shown: {na} events")
    full_rows = sum(t["rows_refused"]["map_full"] for t in tables)
    ck(full_rows > 0 or doctor, f"new rows refused because the map was full: {full_rows}")
    ck(all(len(t["rows"]) <= t["max_entries"] for t in tables), "rows never exceed --max-entries")


if __name__ == "__main__":
    doctor = "--doctor" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--doctor"]
    if args[0] == "rank":
        rank(args[1], args[2], args[3], doctor)
    elif args[0] == "full":
        full(args[1], doctor)
    else:
        sys.exit(__doc__)
