# SPDX-License-Identifier: GPL-2.0
"""cpus.py - perf's lists: -C CPUS (stat, trace, top) and -p PID,PID (stat, trace, top).

Subcommands: stat-cpus, trace-cpus, top-cpus, trace-pids, top-pids.
"""
import copy

from .checker import events_of, load_lines, selftest_cases, subcommand, summary_of

KERNEL_ROWS = ("ctime_updates", "fine_stamps", "floor_swaps", "ctime_swaps")


@subcommand("stat-cpus", lambda a: (load_lines(a[0]), [int(x) for x in a[1].split(",")],
                                    int(a[2]), int(a[3])))
def check_stat_cpus(c, objs, cpus, at_least, below):
    """stat -C CPUS -j: the summary names the CPUs; each kernel row's total is the sum of
    its per-CPU values on those CPUs, all_cpus_total the sum over every CPU, and debugfs
    judged that sum (match); ctime_updates is at least AT_LEAST and below BELOW (a
    workload pinned on or off the CPUs)."""
    s = summary_of(objs) or {}
    c.check(s.get("cpus") == cpus and f"on CPU" in s.get("scope", ""),
            f"summary: cpus {s.get('cpus')} (want {cpus}), scope {s.get('scope')!r}")
    rows = s.get("counters", {})
    for name in KERNEL_ROWS:
        r = rows.get(name) or {}
        pc = r.get("per_cpu")
        if not c.check(isinstance(pc, list) and r.get("total") is not None,
                       f"{name}: per-CPU values and a total ({r.get('total')}, {pc})"):
            continue
        c.check(r["total"] == sum(pc[i] for i in cpus),
                f"{name}: total {r['total']} = the sum over CPUs {cpus} of {pc}")
        c.check(r.get("all_cpus_total") == sum(pc),
                f"{name}: all_cpus_total {r.get('all_cpus_total')} = every CPU's sum {sum(pc)}")
        b = r.get("debugfs_bracket") or {}
        c.check(r.get("match") is True and b.get("low", 1) <= sum(pc) <= b.get("high", -1),
                f"{name}: debugfs judged every CPU's sum {sum(pc)} in [{b.get('low')}, "
                f"{b.get('high')}] (match {r.get('match')})")
    u = (rows.get("ctime_updates") or {}).get("total")
    c.check(u is not None and at_least <= u < below,
            f"ctime_updates on CPUs {cpus}: {u} in [{at_least}, {below})")


@subcommand("trace-cpus", lambda a: (load_lines(a[0]), [int(x) for x in a[1].split(",")],
                                     int(a[2])))
def check_trace_cpus(c, objs, cpus, at_least):
    """trace -C CPUS -j: at least AT_LEAST events, every one on those CPUs."""
    ev = events_of(objs)
    off = [e for e in ev if e.get("cpu") not in cpus]
    c.check(len(ev) >= at_least, f"{len(ev)} events (at least {at_least})")
    c.check(not off, f"every event on CPUs {cpus}: {len(off)} not, e.g. "
            f"{[(e.get('cpu'), e.get('event')) for e in off[:3]]}")


def _rows(objs):
    return [r for o in objs if o.get("type") == "top" for r in o.get("rows", [])]


@subcommand("top-cpus", lambda a: (load_lines(a[0]), int(a[1]), int(a[2])))
def check_top_cpus(c, objs, at_least, below):
    """top -C CPUS -j -- a workload pinned on or off them: the busiest row's ctime_swaps,
    summed over the tables, is in [AT_LEAST, BELOW)."""
    by = {}
    for r in _rows(objs):
        by[r.get("pid")] = by.get(r.get("pid"), 0) + (r.get("ctime_swaps") or 0)
    top = max(by.items(), key=lambda kv: kv[1], default=(None, 0))
    c.check(any(o.get("type") == "top" for o in objs), "top tables read")
    c.check(at_least <= top[1] < below, f"the busiest row (pid {top[0]}): ctime_swaps {top[1]} "
            f"in [{at_least}, {below})")


@subcommand("trace-pids", lambda a: (load_lines(a[0]), [int(x) for x in a[1].split(",")],
                                     [int(x) for x in a[2].split(",") if x]))
def check_trace_pids(c, objs, pids, others):
    """trace -p A,B -j: events of each of A and B, and of no other process (OTHERS: pids
    that ran beside them doing the same)."""
    ev = events_of(objs)
    seen = {e.get("pid") for e in ev}
    c.check(all(p in seen for p in pids), f"events of each pid {pids}: seen {sorted(seen)[:8]}")
    c.check(seen <= set(pids) and not seen & set(others),
            f"no event of another process: {sorted(seen - set(pids))[:8]}")


@subcommand("top-pids", lambda a: (load_lines(a[0]), [int(x) for x in a[1].split(",")],
                                   [int(x) for x in a[2].split(",") if x]))
def check_top_pids(c, objs, pids, others):
    """top -p A,B -j: a row of each of A and B with ctime swaps, none of another process."""
    rows = _rows(objs)
    seen = {r.get("pid") for r in rows if r.get("ctime_swaps")}
    c.check(any("pids " in o.get("scope", "") for o in objs if o.get("type") == "top"),
            f"scope names the pids: {[o.get('scope') for o in objs if o.get('type') == 'top'][:1]}")
    c.check(all(p in seen for p in pids), f"rows of each pid {pids}: {sorted(seen)[:8]}")
    c.check(seen <= set(pids) and not seen & set(others),
            f"no row of another process: {sorted(seen - set(pids))[:8]}")


@selftest_cases
def selftest_cpus(results):
    """Doctored copies of real outputs must fail."""
    run = results.run
    row = {"total": 20002, "per_cpu": [31, 20002], "all_cpus_total": 20033, "match": True,
           "debugfs_bracket": {"low": 20033, "high": 20033, "width": 0}}
    s = {"type": "summary", "cpus": [1], "scope": "system-wide, on CPU 1 (-C)",
         "counters": {n: dict(row) for n in KERNEL_ROWS}}
    run("stat-cpus: the selected CPU's sum", check_stat_cpus, [s], [1], 20000, 30000, want_fail=False)
    d = copy.deepcopy(s)
    d["counters"]["ctime_swaps"]["total"] = 20033
    run("stat-cpus: a total of every CPU", check_stat_cpus, [d], [1], 20000, 30000)
    d = copy.deepcopy(s)
    del d["counters"]["floor_swaps"]["all_cpus_total"]
    run("stat-cpus: no all_cpus_total", check_stat_cpus, [d], [1], 20000, 30000)
    d = copy.deepcopy(s)
    d["counters"]["fine_stamps"]["debugfs_bracket"]["low"] = 20034
    run("stat-cpus: every CPU's sum outside debugfs", check_stat_cpus, [d], [1], 20000, 30000)
    run("stat-cpus: the pinned workload counted on the other CPU", check_stat_cpus, [s], [1], 0, 1000)
    d = dict(s, cpus=None)
    run("stat-cpus: the CPUs not named", check_stat_cpus, [d], [1], 20000, 30000)
    ev = [{"type": "event", "cpu": 1, "event": "ctime_swap", "pid": 5}] * 3
    run("trace-cpus: on CPU 1 only", check_trace_cpus, ev, [1], 3, want_fail=False)
    run("trace-cpus: an event on CPU 0", check_trace_cpus,
        ev + [{"type": "event", "cpu": 0, "event": "stat"}], [1], 3)
    run("trace-cpus: no event", check_trace_cpus, [], [1], 1)
    tops = [{"type": "top", "scope": "pids 5, 7 and their descendants",
             "rows": [{"pid": 5, "ctime_swaps": 30000}, {"pid": 7, "ctime_swaps": 3}]}]
    run("top-cpus: the workload's swaps", check_top_cpus, tops, 20000, 40000, want_fail=False)
    run("top-cpus: the workload seen off its CPU", check_top_cpus, tops, 0, 1000)
    run("top-pids: rows of both", check_top_pids, tops, [5, 7], [9], want_fail=False)
    run("top-pids: a row of another", check_top_pids,
        [dict(tops[0], rows=tops[0]["rows"] + [{"pid": 9, "ctime_swaps": 1}])], [5, 7], [9])
    run("top-pids: one of them missing", check_top_pids, tops, [5, 7, 8], [9])
    tev = [dict(ev[0], pid=5), dict(ev[0], pid=7)]
    run("trace-pids: both", check_trace_pids, tev, [5, 7], [9], want_fail=False)
    run("trace-pids: another's event", check_trace_pids, tev + [dict(ev[0], pid=9)], [5, 7], [9])
    run("trace-pids: one missing", check_trace_pids, tev[:1], [5, 7], [9])
