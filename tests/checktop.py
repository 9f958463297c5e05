#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""checktop.py - checks of `mgtrace top --json` output for the host tests (68-top.sh).

  rank TOP.json FAST.json SLOW.json
      TOP.json: `top --by pid -s ctime_swaps --json`, system-wide, around two workloads,
      each run under its own `trace --json --events ctime` (FAST.json, SLOW.json). Every
      table's totals equal the sum of its rows plus what was not attributed; nothing is
      lost, unattributed or refused; for each process the traces saw, top's ctime_swaps
      and queried_swaps summed over the tables equal its trace's ctime_swap events (and
      those with old_queried); top ranks the fast workload above the slow one.
  full TOP.json
      a run with --max-entries too small: events not attributed and rows refused because
      the map was full are shown, rows never exceed --max-entries, and totals = rows + not
      attributed still holds.
  scope TREE.json PID.json PID
      `top --tree -- mgw-fast ...` beside an outside mgw-slow (process PID): only COMMAND's
      rows; `top -p PID`: only PID's rows, with its events counted.
  selftest TOP.json FAST.json SLOW.json FULL.json TREE.json PID.json PID
      each check above on doctored copies of those real outputs must fail.
  stack TOP.json N [SOURCE]
      `top --tree --by stack --json -- WORKLOAD` where WORKLOAD, on tmpfs, creates N files,
      stat()s each and links it: totals = rows + not attributed; every row has its stack
      (or says why not), its frames named by SOURCE (stack_symbols: "kernel" unless given);
      no two rows show the same frames; the rows whose stack passes
      through shmem_link (or libfs's simple_link) count exactly N ctime swaps, all after a
      query; every stat_queries row's stack starts in fill_mg_cmtime.
  stackself TOP.json N
      the stack check on doctored copies of that output must fail.
Prints "PASS ..." / "FAIL ..." lines.
"""
import collections
import copy
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkjson import Checker  # noqa: E402

COUNTERS = ("ctime_swaps", "queried_swaps", "ctime_skips", "stat_queries")


def load(path, typ):
    out = []
    for line in open(path):
        try:
            o = json.loads(line)
        except ValueError:
            continue        # COMMAND's own lines
        if isinstance(o, dict) and o.get("type") == typ:
            out.append(o)
    return out


def accounting(c, tables):
    bad = [f"table {i} {k}: rows {sum(r[k] for r in t['rows'])} + not attributed "
           f"{t['not_attributed'][k]} != total {t['totals'][k]}"
           for i, t in enumerate(tables) for k in COUNTERS
           if sum(r[k] for r in t["rows"]) + t["not_attributed"][k] != t["totals"][k]]
    c.check(tables and not bad, f"{len(tables)} tables: totals = rows + not attributed "
            f"{'; '.join(bad[:3])}")


def trace_counts(events):
    swaps, queried = collections.Counter(), collections.Counter()
    for e in events:
        if e["event"] == "ctime_swap":
            swaps[e["pid"]] += 1
            queried[e["pid"]] += bool(e["old_queried"])
    return swaps, queried


def check_rank(c, tables, traces):
    """traces: {"fast": (events, summaries), "slow": ...}."""
    accounting(c, tables)
    c.check(all(t["lost_no_map"] == 0 and not any(t["not_attributed"][k] for k in COUNTERS) and
                t["rows_refused"] == {"map_full": 0, "other": 0} for t in tables),
            "nothing lost, unattributed or refused")
    per = collections.defaultdict(collections.Counter)
    for t in tables:
        for r in t["rows"]:
            for k in COUNTERS:
                per[r["pid"]][k] += r[k]
    top_pid = {}
    for name, (events, summ) in traces.items():
        swaps, queried = trace_counts(events)
        lost = summ[0]["lost_events"] if summ else None
        c.check(lost == 0, f"{name}: trace lost no events ({lost})")
        c.check(sum(swaps.values()) > 0, f"{name}: trace saw ctime swaps ({sum(swaps.values())})")
        for pid in swaps:
            c.check(per[pid]["ctime_swaps"] == swaps[pid],
                    f"{name} pid {pid}: top ctime_swaps {per[pid]['ctime_swaps']} == trace's "
                    f"ctime_swap events {swaps[pid]}")
            c.check(per[pid]["queried_swaps"] == queried[pid],
                    f"{name} pid {pid}: top queried_swaps {per[pid]['queried_swaps']} == trace's "
                    f"swaps with old_queried {queried[pid]}")
        top_pid[name] = max(swaps, key=swaps.get) if swaps else None
    f, s = top_pid.get("fast"), top_pid.get("slow")
    c.check(f and s and per[f]["ctime_swaps"] > per[s]["ctime_swaps"],
            f"fast pid {f} counted more than slow pid {s}")
    last = tables[-1] if tables else {"rows": [], "sort": None}
    order = [r["pid"] for r in last["rows"]]
    c.check(f in order and s in order and order.index(f) < order.index(s) and
            last["sort"] == "ctime_swaps", f"the last table ranks fast ({f}) above slow ({s})")


def check_full(c, tables):
    accounting(c, tables)
    na = sum(t["not_attributed"][k] for t in tables for k in COUNTERS)
    c.check(na > 0, f"not attributed shown: {na} events")
    full = sum(t["rows_refused"]["map_full"] for t in tables)
    c.check(full > 0, f"new rows refused because the map was full: {full}")
    c.check(tables and all(len(t["rows"]) <= t["max_entries"] for t in tables),
            "rows never exceed --max-entries")


def check_scope(c, tree, pid_tables, pid):
    comms = {r["comm"] for t in tree for r in t["rows"]}
    c.check(tree and "mgw-fast" in comms and "mgw-slow" not in comms and
            tree[0]["scope"].startswith("COMMAND (pid"), f"--tree: COMMAND's rows only ({sorted(comms)})")
    pids = {r["pid"] for t in pid_tables for r in t["rows"]}
    c.check(pid_tables and pids == {pid} and pid_tables[0]["scope"] == f"pid {pid} and its descendants",
            f"-p {pid}: that process only ({sorted(pids)})")
    c.check(pid_tables and pid_tables[0]["totals"]["ctime_swaps"] > 0, "-p: the process's events are counted")


def shown(r):
    return tuple((f["sym"], f["off"]) for f in r["stack"] or [])


def check_stack(c, tables, n, source="kernel"):
    accounting(c, tables)
    rows = [r for t in tables for r in t["rows"]]
    bad = [r for r in rows if r["stack"] is None and not r["stack_unavailable"]]
    c.check(rows and not bad, f"{len(rows)} rows, each with its stack or why not ({len(bad)} without)")
    dup = [t_i for t_i, t in enumerate(tables)
           if len({shown(r) for r in t["rows"] if r["stack"]}) != sum(1 for r in t["rows"] if r["stack"])]
    c.check(not dup, f"no two rows of a table show the same frames (tables {dup})")
    link = [r for r in rows if any(f["sym"] in ("shmem_link", "simple_link") for f in (r["stack"] or [])[:4])]
    sw, q = sum(r["ctime_swaps"] for r in link), sum(r["queried_swaps"] for r in link)
    c.check(sw == n and q == n, f"rows through shmem_link/simple_link: ctime_swaps {sw}, after a query {q}, "
            f"want {n} and {n}")
    st = [r for r in rows if r["stat_queries"]]
    c.check(st and all(r["stack"] and r["stack"][0]["sym"] == "fill_mg_cmtime" for r in st),
            f"{len(st)} rows of stat queries, each stack starting in fill_mg_cmtime")
    src = sorted({str(r.get("stack_symbols")) for r in rows if r["stack"]})
    nul = [r for r in rows if not r["stack"] and r.get("stack_symbols") is not None]
    c.check(src == [source] and not nul, f"stack_symbols {src} (want [{source!r}]), "
            f"{len(nul)} rows without a stack naming a source")


def stack_selftest(tables, n):
    results = []

    def run(label, *args):
        c = Checker(quiet=True)
        check_stack(c, *args)
        results.append(("stack fails on " + label, bool(c.failures)))

    def link_rows(t):
        return [r for tb in t for r in tb["rows"]
                if any(f["sym"] in ("shmem_link", "simple_link") for f in (r["stack"] or [])[:4])]

    t = copy.deepcopy(tables)
    for r in link_rows(t):
        for f in r["stack"]:
            f["sym"] = "other" if f["sym"] in ("shmem_link", "simple_link") else f["sym"]
    run("no row through shmem_link", t, n)
    t = copy.deepcopy(tables)
    r = link_rows(t)[0]
    r["ctime_swaps"] -= 1
    t[0]["totals"]["ctime_swaps"] -= 1
    run("one link swap fewer", t, n)
    t = copy.deepcopy(tables)
    t[-1]["rows"].append(copy.deepcopy(t[-1]["rows"][0]))
    for k in COUNTERS:
        t[-1]["totals"][k] += t[-1]["rows"][0][k]
    run("two rows with the same frames", t, n)
    t = copy.deepcopy(tables)
    t[-1]["rows"][0]["stack"] = None
    t[-1]["rows"][0]["stack_unavailable"] = None
    run("a row with no stack and no reason", t, n)
    t = copy.deepcopy(tables)
    link_rows(t)[0]["stack_symbols"] = "/proc/kallsyms"
    run("a row named from the file in a run the kernel named", t, n)
    for label, ok in results:
        print(("PASS " if ok else "FAIL ") + label)
    return 0 if all(ok for _, ok in results) else 1


def traces_of(fast, slow):
    return {n: (load(p, "event"), load(p, "trace_summary")) for n, p in (("fast", fast), ("slow", slow))}


def selftest(a):
    """Doctored copies of real outputs: each must fail its check."""
    tables, traces, full = load(a[0], "top"), traces_of(a[1], a[2]), load(a[3], "top")
    tree, pidt, pid = load(a[4], "top"), load(a[5], "top"), int(a[6])
    results = []

    def run(label, fn, *args):
        c = Checker(quiet=True)
        fn(c, *args)
        results.append(("fails on " + label, bool(c.failures)))

    t = copy.deepcopy(tables)
    t[-1]["rows"][0]["ctime_swaps"] += 1
    run("rank: a row one higher than the total", check_rank, t, traces)
    fast = {e["pid"] for e in traces["fast"][0]}
    t = copy.deepcopy(tables)
    for tb in t:
        for r in tb["rows"]:
            if r["pid"] in fast:
                r["ctime_swaps"] -= 1
                tb["totals"]["ctime_swaps"] -= 1
    run("rank: one ctime swap fewer than the trace saw", check_rank, t, traces)
    t = copy.deepcopy(tables)
    t[-1]["rows"].reverse()
    run("rank: rows in the wrong order", check_rank, t, traces)
    tr = copy.deepcopy(traces)
    tr["fast"][1][0]["lost_events"] = 1
    run("rank: a trace that lost events", check_rank, tables, tr)
    f = copy.deepcopy(full)
    for tb in f:
        tb["rows_refused"]["map_full"] = 0
        for k in COUNTERS:
            tb["not_attributed"][k] = 0
    run("full: nothing shown as not attributed", check_full, f)
    run("scope: --tree output where -p is expected", check_scope, tree, tree, pid)
    p = copy.deepcopy(pidt)
    p[0]["rows"].append(dict(p[0]["rows"][0], pid=1))
    run("scope: another process under -p", check_scope, tree, p, pid)
    for label, ok in results:
        print(("PASS " if ok else "FAIL ") + label)
    return 0 if all(ok for _, ok in results) else 1


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, a = argv[1], argv[2:]
    if cmd == "selftest":
        return selftest(a)
    if cmd == "stackself":
        return stack_selftest(load(a[0], "top"), int(a[1]))
    c = Checker()
    if cmd == "rank":
        check_rank(c, load(a[0], "top"), traces_of(a[1], a[2]))
    elif cmd == "full":
        check_full(c, load(a[0], "top"))
    elif cmd == "stack":
        check_stack(c, load(a[0], "top"), int(a[1]), *a[2:3])
    elif cmd == "scope":
        check_scope(c, load(a[0], "top"), load(a[1], "top"), int(a[2]))
    else:
        sys.exit(__doc__)
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
