# SPDX-License-Identifier: GPL-2.0
"""judge.py - how `mgtrace check` judged the events: the BPF inode map's bounds (full, inodes
forgotten), every tracepoint event counted once (with --max-inodes, --tree), the violations
a workload saw reported (directory visibility), violation records lost.

Subcommands: map-full, inode-gc, events-window, tree-scope, dir-visibility, inject-lost.
"""
from .checker import cp, first_report, selftest_cases, subcommand


@subcommand("map-full", lambda a: (first_report(a[0]),))
def check_map_full(c, r):
    """check --max-inodes 1 judged in BPF: the map full at its bound, the rest untracked."""
    j, i = r["judged"], r["invariants"]
    c.check(j["where"] == "bpf" and j["inode_map_entries"] == 1 == j["inode_map_max_entries"] and
            i["untracked_events"] > 0 and r["verdict"] == "INCONCLUSIVE",
            f"--max-inodes 1: map {j['inode_map_entries']} of {j['inode_map_max_entries']}, "
            f"{i['untracked_events']} untracked events, {r['verdict']}")


@subcommand("inode-gc", lambda a: (first_report(a[0]), int(a[1]), int(a[2])))
def check_inode_gc(c, r, live, forgotten):
    """check judged in BPF over a workload that creates and deletes more files than
    --max-inodes, keeping `live` of them: inodes gone forgotten (>= forgotten), the live
    ones kept (the map still holds >= live entries), nothing untracked, PASS."""
    j, i = r["judged"], r["invariants"]
    c.check(j["where"] == "bpf" and j.get("inode_gc_unavailable") is None and
            j.get("inode_gc_passes", 0) > 0 and j.get("inodes_forgotten", 0) >= forgotten,
            f"inodes gone forgotten: {j.get('inodes_forgotten')} in {j.get('inode_gc_passes')} "
            f"passes (want >= {forgotten}; unavailable: {j.get('inode_gc_unavailable')})")
    c.check(j["inode_map_entries"] >= live,
            f"the live inodes kept: {j['inode_map_entries']} entries at the end, want >= {live}")
    c.check(i["untracked_events"] == 0 and r["verdict"] == "PASS",
            f"{i['untracked_events']} untracked events, {r['verdict']}")


@subcommand("events-window", lambda a: (first_report(a[0]),))
def check_events_window(c, r):
    """The tracepoint events are counted once each: judged (`events`, by kind), untracked,
    without an inode number, lock failed, or lost, on both paths (--judge bpf and user).
    The counters (ctime_swaps ... ctime_sets, BPF) are read around the workload, inside the
    events' window (attach to detach), which is a little wider: the sum of the events' fields
    is at least the counters' sum, and only what the machine did in the two gaps (ms) more.
    An untracked event counted in `events` too would double it."""
    i, k, cn = r["invariants"], r["invariants"]["events_by_kind"], r["counters"]
    s = sum(cn[x]["total"] for x in ("ctime_swaps", "ctime_skips", "stat_queries", "ctime_sets"))
    judged = sum(v for n, v in k.items() if n != "floor")
    t = judged + i["untracked_events"] + i["events_without_inode_number"] + i["lock_failed_events"]
    c.check(i["untracked_events"] > 0 and s <= t + r["lost_events"] and t <= s * 1.25,
            f"{r['judged']['where']}: judged {judged} + untracked {i['untracked_events']} + "
            f"no inode number {i['events_without_inode_number']} + lock failed "
            f"{i['lock_failed_events']} = {t} (+ lost {r['lost_events']}) covers the counters' "
            f"{s}, at most 1.25 times")


@subcommand("tree-scope", lambda a: (first_report(a[0]), int(a[1])))
def check_tree_scope(c, r, k):
    """check --tree -- COMMAND beside a process outside the tree that stats more files than
    --max-inodes, and K times a file COMMAND made: PASS with nothing untracked; the other
    process's files out of scope, never entered; its K getattrs of COMMAND's file judged
    (an inode COMMAND entered is judged whoever touches it); the tracepoint events of the
    window each counted once: judged, out of scope, untracked, no inode number, lock failed
    or lost (as events-window)."""
    i, k_, j, cn = r["invariants"], r["invariants"]["events_by_kind"], r["judged"], r["counters"]
    oos = i.get("out_of_scope_events")
    c.check(r["verdict"] == "PASS" and i["untracked_events"] == 0,
            f"verdict {r['verdict']}, {i['untracked_events']} untracked (want PASS, 0)")
    c.check(j.get("scope") == "tree" and (j.get("tree_processes_followed") or 0) >= 1 and
            j.get("tree_processes_not_followed") == 0 and
            j.get("tree_processes_alive_at_end") == 0,
            f"scope {j.get('scope')}, {j.get('tree_processes_followed')} processes followed, "
            f"{j.get('tree_processes_not_followed')} not followed, "
            f"{j.get('tree_processes_alive_at_end')} still running at the end")
    c.check(isinstance(oos, int) and oos >= j["inode_map_max_entries"] and
            i["inodes"] < j["inode_map_max_entries"],
            f"out of scope {oos} events (want >= {j['inode_map_max_entries']}: the other "
            f"process's files), {i['inodes']} inodes entered (want < the map's "
            f"{j['inode_map_max_entries']})")
    c.check(k_["stat"] >= k, f"{k_['stat']} getattrs judged, want >= {k} (the other process's "
            f"getattrs of COMMAND's file)")
    s = sum(cn[x]["total"] for x in ("ctime_swaps", "ctime_skips", "stat_queries", "ctime_sets"))
    t = (sum(v for n, v in k_.items() if n != "floor") + i["untracked_events"] + (oos or 0) +
         i["events_without_inode_number"] + i["lock_failed_events"])
    c.check(s <= t + r["lost_events"] and t <= s * 1.25,
            f"judged + out of scope + untracked + no inode number + lock failed = {t} (+ lost "
            f"{r['lost_events']}) covers the counters' {s}, at most 1.25 times")


@subcommand("dir-visibility", lambda a: (first_report(a[0]), int(a[1]), int(a[2]), *a[3:4]))
def check_dir_visibility(c, r, rc, seen, name=None):
    """check -- dirvis DIR N: the workload itself counted `seen` unlinks after a stat of DIR
    that left DIR's ctime not later. seen > 0 (tmpfs copies the child's ctime onto the
    directory): FAIL (exit 1) with at least `seen` not_later_after_query violations, none
    explained by a clock step, each stored report's later observation a ctime_set over the
    queried value; seen == 0 (ext4): PASS with no violation at all."""
    v = r["invariants"]["not_later_after_query"]
    reps = [x for x in r.get("violations") or [] if x.get("kind") == "not_later_after_query"]
    # a step explains only where one was recorded (the machine's time sync may step the
    # clock during the run); none recorded, none explained
    steps = r["invariants"].get("clock_steps", 0) + (r["invariants"].get("clock_steps_bpf") or 0)
    if seen:
        c.check(rc == 1 and r["verdict"] == "FAIL" and v["violations"] >= seen and
                (v["explained_by_clock_step"] == 0 or steps > 0),
                f"the workload saw {seen}: exit {rc}, {r['verdict']}, {v['violations']} "
                f"not_later_after_query, {v['explained_by_clock_step']} explained, "
                f"{steps} clock steps recorded")
        c.check(bool(reps) and all(x["later"]["event"] == "ctime_set" and
                                   x["later"]["ctime_sec"] == x["earlier"]["ctime_sec"] and
                                   x["later"]["ctime_nsec"] == x["earlier"]["ctime_nsec"]
                                   for x in reps),
                f"{len(reps)} reports, each an equal ctime set over the queried one")
        if name:
            c.check(any(x.get("name") == name for x in reps),
                    f"a report names the directory as renamed, {name!r} (names: "
                    f"{sorted(set(str(x.get('name')) for x in reps))})")
    else:
        c.check(rc == 0 and r["verdict"] == "PASS" and v["violations"] == 0,
                f"the workload saw none: exit {rc}, {r['verdict']}, {v['violations']} violations")


@subcommand("inject-lost", lambda a: (first_report(a[0]), int(a[1]), int(a[2])))
def check_inject_lost(c, r, n, rc):
    """MGTRACE_TEST_INJECT=N through a small ring buffer: records lost, all N counted, FAIL."""
    k, j = r["invariants"]["ctime_regression"]["violations"], r["judged"]
    c.check(rc == 1 and r["verdict"] == "FAIL" and k == n and r["lost_events"] > 0 and
            j["violation_records_lost"] == r["lost_events"] and
            j["violation_records"] + j["violation_records_lost"] == n,
            f"inject {n}: exit {rc}, {k} regressions counted, {j['violation_records']} records "
            f"written, {j['violation_records_lost']} lost, lost_events {r['lost_events']}")


@selftest_cases
def selftest_judge(results):
    """Judging that must fail: the map not full, inodes not forgotten, events
    counted twice or not at all, violations not reported."""
    run = results.run
    mf = {"verdict": "INCONCLUSIVE", "invariants": {"untracked_events": 5},
          "judged": {"where": "bpf", "inode_map_entries": 1, "inode_map_max_entries": 1}}
    run("map-full: full, untracked, inconclusive", check_map_full, mf, want_fail=False)
    run("map-full: nothing untracked", check_map_full, {**mf, "invariants": {"untracked_events": 0}})
    run("map-full: a pass", check_map_full, {**mf, "verdict": "PASS"})
    gc = {"verdict": "PASS", "judged": {"where": "bpf", "inode_gc_unavailable": None,
                                        "inode_gc_passes": 3, "inodes_forgotten": 900,
                                        "inode_map_entries": 120},
          "invariants": {"untracked_events": 0}}
    run("inode-gc: churn fits", check_inode_gc, gc, 100, 800, want_fail=False)
    for label, mut in (("no pass ran", lambda g: g["judged"].update(inode_gc_passes=0)),
                       ("too few forgotten", lambda g: g["judged"].update(inodes_forgotten=10)),
                       ("a live inode forgotten", lambda g: g["judged"].update(inode_map_entries=99)),
                       ("unavailable", lambda g: g["judged"].update(inode_gc_unavailable="load: EPERM")),
                       ("untracked events", lambda g: g["invariants"].update(untracked_events=5)),
                       ("inconclusive", lambda g: g.update(verdict="INCONCLUSIVE"))):
        bad = cp(gc)
        mut(bad)
        run("inode-gc: " + label, check_inode_gc, bad, 100, 800)
    ctr = {x: {"total": n} for x, n in (("ctime_swaps", 400), ("ctime_skips", 10),
                                         ("stat_queries", 580), ("ctime_sets", 10))}
    ew = {"judged": {"where": "user"}, "lost_events": 0, "counters": ctr,
          "invariants": {"events_by_kind": {"ctime_swap": 3, "ctime_skip": 0, "stat": 5,
                                            "ctime_set": 0, "floor": 7},
                         "untracked_events": 990, "events_without_inode_number": 4,
                         "lock_failed_events": 0}}
    run("events-window: 8 judged + 990 untracked + 4 = 1002 over 1000", check_events_window, ew,
        want_fail=False)
    run("events-window: untracked counted in events too", check_events_window,
        {**ew, "invariants": {**ew["invariants"], "events_by_kind": {
            "ctime_swap": 400, "ctime_skip": 10, "stat": 580, "ctime_set": 10, "floor": 0}}})
    run("events-window: untracked not counted", check_events_window,
        {**ew, "invariants": {**ew["invariants"], "untracked_events": 0}})
    run("events-window: fewer than the counters", check_events_window,
        {**ew, "invariants": {**ew["invariants"], "untracked_events": 900}})
    ts = {"verdict": "PASS", "lost_events": 0, "counters": ctr,
          "judged": {"scope": "tree", "tree_processes_followed": 1,
                     "tree_processes_not_followed": 0, "tree_processes_alive_at_end": 0,
                     "inode_map_max_entries": 100},
          "invariants": {"untracked_events": 0, "out_of_scope_events": 600, "inodes": 40,
                         "events_without_inode_number": 0, "lock_failed_events": 0,
                         "events_by_kind": {"ctime_swap": 100, "ctime_skip": 0, "stat": 300,
                                            "ctime_set": 0, "floor": 0}}}
    run("tree-scope: scoped, 300 getattrs judged, 1000 events covered", check_tree_scope, ts,
        250, want_fail=False)
    for label, mut in (("inconclusive", lambda t: t.update(verdict="INCONCLUSIVE")),
                       ("untracked", lambda t: t["invariants"].update(untracked_events=3)),
                       ("system-wide", lambda t: t["judged"].update(scope="system-wide")),
                       ("a process not followed",
                        lambda t: t["judged"].update(tree_processes_not_followed=1)),
                       ("one still running at the end",
                        lambda t: t["judged"].update(tree_processes_alive_at_end=1)),
                       ("nothing out of scope", lambda t: t["invariants"].update(out_of_scope_events=0)),
                       ("out of scope null", lambda t: t["invariants"].update(out_of_scope_events=None)),
                       ("the map filled", lambda t: t["invariants"].update(inodes=100)),
                       ("the other's getattrs not judged",
                        lambda t: t["invariants"]["events_by_kind"].update(stat=200)),
                       ("out of scope counted in events too",
                        lambda t: t["invariants"].update(out_of_scope_events=900))):
        bad = cp(ts)
        mut(bad)
        run("tree-scope: " + label, check_tree_scope, bad, 250)
    obs = {"event": "ctime_swap", "ctime_sec": 5, "ctime_nsec": 7}
    dv = {"verdict": "FAIL", "invariants": {"not_later_after_query": {
        "violations": 3, "explained_by_clock_step": 0}},
          "violations": [{"kind": "not_later_after_query", "earlier": obs,
                          "later": {**obs, "event": "ctime_set"}}]}
    run("dir-visibility: 3 seen, 3 reported by sets", check_dir_visibility, dv, 1, 3,
        want_fail=False)
    run("dir-visibility: a PASS although the workload saw 3", check_dir_visibility,
        {**dv, "verdict": "PASS", "invariants": {"not_later_after_query": {
            "violations": 0, "explained_by_clock_step": 0}}}, 0, 3)
    run("dir-visibility: fewer reported than seen", check_dir_visibility,
        {**dv, "invariants": {"not_later_after_query": {
            "violations": 2, "explained_by_clock_step": 0}}}, 1, 3)
    run("dir-visibility: explained by a step that never was", check_dir_visibility,
        {**dv, "invariants": {"not_later_after_query": {
            "violations": 3, "explained_by_clock_step": 1}}}, 1, 3)
    run("dir-visibility: one explained by a step recorded in the run", check_dir_visibility,
        {**dv, "invariants": {"not_later_after_query": {
            "violations": 3, "explained_by_clock_step": 1}, "clock_steps": 0,
            "clock_steps_bpf": 1}}, 1, 3, want_fail=False)
    run("dir-visibility: reported as a swap", check_dir_visibility,
        {**dv, "violations": [{"kind": "not_later_after_query", "earlier": obs, "later": obs}]},
        1, 3)
    run("dir-visibility: none seen, PASS", check_dir_visibility,
        {"verdict": "PASS", "invariants": {"not_later_after_query": {
            "violations": 0, "explained_by_clock_step": 0}}}, 0, 0, want_fail=False)
    run("dir-visibility: none seen, a violation", check_dir_visibility, dv, 1, 0)
    run("dir-visibility: the name as renamed", check_dir_visibility,
        {**dv, "violations": [{**dv["violations"][0], "name": "dv-renamed"}]}, 1, 3, "dv-renamed",
        want_fail=False)
    run("dir-visibility: the name as it entered the map", check_dir_visibility,
        {**dv, "violations": [{**dv["violations"][0], "name": "dv"}]}, 1, 3, "dv-renamed")
    il = {"verdict": "FAIL", "lost_events": 80, "invariants": {"ctime_regression": {"violations": 100}},
          "judged": {"violation_records": 20, "violation_records_lost": 80}}
    run("inject-lost: 20 written, 80 lost, 100 counted", check_inject_lost, il, 100, 1, want_fail=False)
    run("inject-lost: a lost violation not counted", check_inject_lost,
        {**il, "invariants": {"ctime_regression": {"violations": 20}}}, 100, 1)
    run("inject-lost: nothing lost", check_inject_lost, {**il, "lost_events": 0}, 100, 1)
    run("inject-lost: exit 4", check_inject_lost, il, 100, 4)
