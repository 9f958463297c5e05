# SPDX-License-Identifier: GPL-2.0
"""check.py - the `mgtrace check --json` report: verdict, invariants, not-fault categories
and their examples, gates and floor figures, the floor invariants, the injected regression,
a baseline, the workload directory.

Subcommands: check, categories, invariant-min, example-names, step-explained, figure-min,
workload-dir, baseline-used, set-figure.
"""
import json
import tempfile

from .checker import Checker, cp, first_report, load_lines, selftest_cases, subcommand


VIOLATION_KINDS = ("ctime_regression", "not_later_after_query", "skip_after_query", "cross_file_order",
                   "floor_backward", "unneeded_fine_stamp")
NOT_FAULTS = ("stale_reads", "reordered_swaps", "unverified_queried_updates", "granularity_equal",
              "future_ctime", "unsure_seconds", "torn_reads", "skips_after_concurrent_query",
              "concurrent_updates", "concurrent_updates_undecided", "concurrent_reads",
              "unseen_values", "sets_state_unknown")


def check_injected(c, r):
    """The regression MGTRACE_TEST_INJECT=1 makes, reported with its context."""
    v = [v for v in r["violations"] if v.get("name") == "mgtrace-injected"]
    if not c.check(len(v) == 1, "the injected violation is reported once"):
        return
    v = v[0]
    e, l = v["earlier"], v["later"]
    c.check(v["kind"] == "ctime_regression" and v["ino"] == 1 and v["dev"] == "0:0" and
            not v["step_explained"], f"injected: a regression of dev 0:0 ino 1: {v['kind']}")
    c.check((e["ctime_sec"], e["ctime_nsec"], l["ctime_sec"], l["ctime_nsec"]) == (2000, 500, 1999, 500),
            "injected: both values (2000.000000500, then 1999.000000500)")
    c.check(l["t_mono_ns"] - e["t_mono_ns"] == 2000000000 and l["comm"] == "mgtrace-inject" and
            l["pid"] > 0 and l["event"] == "ctime_swap", "injected: times, pid, comm and event kind")
    c.check(r["verdict"] == "FAIL" and r["exit_code"] == 1, "injected: the verdict is FAIL")


def obs_context(o):
    """An observation's context: its pid, CPU and comm, or all null with context_lost (an
    observation of the per-inode state whose context its ring no longer held)."""
    if o.get("context_lost"):
        return o["pid"] is None and o["cpu"] is None and o["comm"] is None
    return (o["pid"] is None or o["pid"] >= 0) and isinstance(o["cpu"], int) and \
        isinstance(o["comm"], str)


def check_check(c, objs, verdict="PASS", builtin=True, min_lost=0, expect_breach=None,
                judged=None):
    """A `mgtrace check --json` report; judged: "bpf" or "user", where the events must
    have been judged."""
    r = [o for o in objs if o.get("type") == "check"]
    if not c.check(len(r) == 1, "one check report"):
        return
    r = r[0]
    c.check(r["schema_version"] == 1, "schema_version is 1")
    c.check(r["verdict"] == verdict, f"verdict {r['verdict']} (want {verdict}): {r.get('reason')}")
    c.check(r["exit_code"] == {"PASS": 0, "FAIL": 1, "INCONCLUSIVE": 4}[verdict], "exit_code matches the verdict")
    inv = r["invariants"]
    c.check(inv["events"] > 0 and inv["inodes"] > 0, f"{inv['events']} events on {inv['inodes']} inodes")
    k = inv.get("events_by_kind")
    if c.check(k is not None, "invariants.events_by_kind is there"):
        c.check(sum(k.values()) == inv["events"], f"events by kind {k} sum to events {inv['events']}")
        j = r["judged"]
        if j["where"] == "bpf":
            wl, wc = j.get("events_without_lock"), j.get("events_without_context_read")
            gs = k["stat"] + k["ctime_skip"]
            c.check(wl is not None and wc is not None and wl <= wc <= gs,
                    f"getattrs and skips without the lock {wl} <= without context {wc} <= "
                    f"judged getattrs and skips {gs}")
    if builtin:
        c.check(inv.get("ordering_modifications", 0) > 0,
                f"cross-file ordering checked on {inv.get('ordering_modifications')} modifications")
    if verdict == "PASS":
        c.check(r.get("missed_bpf_runs", 0) == 0, "no BPF runs skipped by the kernel")
        c.check(r["lost_events"] == 0 and all(v["step_explained"] for v in r["violations"]),
                "no lost events, no violation that a clock step does not explain")
        for k in VIOLATION_KINDS:
            c.check(inv[k]["violations"] == inv[k]["explained_by_clock_step"], f"{k}: no unexplained violation")
    if min_lost:
        c.check(r["lost_events"] >= min_lost, f"lost events reported: {r['lost_events']}")
    for k in NOT_FAULTS:
        c.check(isinstance(inv.get(k), int) and inv[k] >= 0, f"not-fault category {k}: {inv.get(k)}")
    ex = r.get("not_fault_examples")
    if ex is not None or "judged" in r:
        for k in NOT_FAULTS:
            e = (ex or {}).get(k)
            c.check(isinstance(e, list) and len(e) <= 4 and (len(e) > 0) == (inv.get(k, 0) > 0) and
                    all(x["earlier"]["t_mono_ns"] > 0 and all(obs_context(x[s]) for s in
                                                                  ("earlier", "later")) for x in e),
                    f"not-fault {k}: {inv.get(k)} counted, {len(e) if isinstance(e, list) else e} "
                    "examples with both observations, each with its context or marked lost "
                    "(at least one when counted)")
    for g in r["gates"]:
        if expect_breach == g["figure"]:
            lim = g["limit"] if g["limit"] is not None else g["allowed"]
            c.check(g["pass"] is False and lim is not None and g["value"] > lim,
                    f"{g['figure']}: {g['value']} over {lim}")
        elif verdict == "PASS":
            c.check(g["pass"] in (True, None), f"{g['figure']} within its gate")
        if g["value"] is not None:
            c.check(r["floor_figures"].get(g["figure"]) == g["value"],
                    f"{g['figure']}: floor_figures carries {g['value']}")
    sw = r["counters"]["ctime_swaps"]
    c.check(sw["source"] == "bpf" and sw["total"] > 0, "counters carry the BPF ctime swaps")
    j = r.get("judged")
    if c.check(isinstance(j, dict) and j.get("where") in ("bpf", "user"), f"judged: {j}"):
        if judged:
            c.check(j["where"] == judged, f"judged in {j['where']} (want {judged}): {j['text']}")
        if j["where"] == "bpf":
            c.check(0 < j["inode_map_entries"] <= j["inode_map_max_entries"] and
                    j["inode_map_entry_bytes"] > 0, f"inode map: {j['inode_map_entries']} of "
                    f"{j['inode_map_max_entries']}, {j['inode_map_entry_bytes']} bytes each")
            if verdict == "PASS":
                c.check(j["violation_records_lost"] == 0, "no violation record lost")


def check_floor(c, r, checked, invert=False):
    """The two floor invariants of a check report: with function probes (checked), every
    floor event was judged (decided + undecided == floor events), reads and decisions were
    made, and none failed; with invert (the MGTRACE_TEST_INVERT_FINE test hook) unneeded
    fine stamps must be reported. Without (tracepoints only), not checked, with a reason."""
    inv = r["invariants"]
    if not checked:
        c.check(inv["floor_invariants_checked"] is False, "floor invariants reported unchecked")
        why = inv.get("floor_invariants_unchecked") or ""
        c.check("function-probe backend" in why, f"with the reason: {why!r}")
        c.check(inv["floor_events"] == 0 and inv["fine_stamps_decided"] == 0,
                "no floor events, no decisions")
        return
    c.check(inv["floor_invariants_checked"] is True,
            f"floor invariants checked ({inv.get('floor_invariants_unchecked')})")
    c.check(r.get("floor_probes") in ("fentry/fexit", "kprobe/kretprobe"),
            f"floor probes {r.get('floor_probes')}")
    c.check(inv["floor_events"] > 0, f"floor events: {inv['floor_events']}")
    c.check(inv["floor_reads_checked"] == inv["floor_events"],
            f"every floor event read mg_floor: {inv['floor_reads_checked']} of {inv['floor_events']}")
    c.check(inv["fine_stamps_decided"] > 0, f"fine stamps decided: {inv['fine_stamps_decided']}")
    c.check(inv["fine_stamps_decided"] + inv["fine_stamps_undecided"] == inv["floor_events"],
            f"decided {inv['fine_stamps_decided']} + undecided {inv['fine_stamps_undecided']} "
            f"== floor events {inv['floor_events']}")
    c.check(inv["floor_backward"]["violations"] == 0, "floor never moved back")
    nv = inv["unneeded_fine_stamp"]["violations"]
    if invert:
        c.check("test_hook" in r, "the test hook is named in the report")
        c.check(nv == inv["fine_stamps_decided"] and nv > 0,
                f"inverted: every decided stamp reported unneeded ({nv})")
        c.check(r["verdict"] == "FAIL" and r["exit_code"] == 1, f"verdict {r['verdict']}, exit 1")
    else:
        c.check("test_hook" not in r, "no test hook set")
        c.check(nv == 0, f"no unneeded fine stamp ({nv})")



def check_floor_stacks(c, r):
    """Each floor violation (timestamp "floor") of a check report carries the kernel stack of
    its event (issue 41, taken in BPF at the violation only): its frames, or null with why
    (a stack-map hash collision, a failed walk), never "carries no stack"; at least one has
    frames, and each stack whose frames are named passes through inode_set_ctime_current,
    the only caller of ktime_get_real_ts64_mg (floor.bpf.c's probe)."""
    fv = [v for v in r.get("violations", []) if v.get("timestamp") == "floor"]
    c.check(len(fv) > 0, f"floor violations reported: {len(fv)}")
    taken = [v for v in fv if v.get("stack")]
    c.check(len(taken) > 0, f"{len(taken)} of {len(fv)} floor violation(s) with a kernel stack")
    for v in fv:
        why = v.get("stack_unavailable") or ""
        if not v.get("stack"):
            c.check(why and "carries no stack" not in why, f"a floor violation without a stack "
                    f"says why, the record had one: {why!r}")
        elif not why:
            syms = [f.get("sym") for f in v["stack"]]
            c.check("inode_set_ctime_current" in syms, f"a floor violation's stack: {syms[:6]}")


NOT_FAULT_KEYS = ("stale_reads", "reordered_swaps", "unverified_queried_updates", "granularity_equal",
                  "future_ctime", "unsure_seconds", "torn_reads", "skips_after_concurrent_query",
                  "concurrent_updates", "concurrent_updates_undecided", "concurrent_reads", "unseen_values",
                  "sets_state_unknown", "clock_steps", "clock_steps_bpf")


@subcommand("categories", lambda a: (first_report(a[0]),), checker=False)
def categories(r):
    """One line: a check report's not-fault categories and what clock steps explained."""
    i = r["invariants"]
    return (" ".join(f"{k}={i.get(k)}" for k in NOT_FAULT_KEYS) + " | explained: " +
            str({k: v["explained_by_clock_step"] for k, v in i.items()
                 if isinstance(v, dict) and "explained_by_clock_step" in v}))


@subcommand("invariant-min", lambda a: (first_report(a[0]), a[1], int(a[2])))
def check_invariant_min(c, r, name, n):
    """A check report counts at least N of the not-fault category NAME."""
    v = r.get("invariants", {}).get(name)
    c.check(isinstance(v, int) and v >= n, f"check: {name} {v} >= {n} ({categories(r)})")


@subcommand("example-names", lambda a: (first_report(a[0]), int(a[1]), a[2]))
def check_example_names(c, r, ino, name):
    """Every not-fault example of inode INO carries its name (at least one example)."""
    ex = [e for lst in (r.get("not_fault_examples") or {}).values() for e in lst
          if e.get("ino") == ino]
    c.check(len(ex) >= 1, f"check: {len(ex)} not-fault examples of inode {ino} (want >= 1)")
    bad = [e.get("name") for e in ex if e.get("name") != name]
    c.check(not bad, f"check: examples of inode {ino} named {bad[:3]}, want {name!r}")


@subcommand("step-explained", lambda a: (first_report(a[0]),))
def check_step_explained(c, r):
    """ctime regressions after a step back: reported, every one explained by the step."""
    i = r.get("invariants", {})
    reg = i.get("ctime_regression") or {}
    n, e = reg.get("violations", 0), reg.get("explained_by_clock_step", 0)
    c.check(n >= 1 and e == n, f"check: ctime regressions {n}, explained by a clock step {e} "
            "(want >= 1, all)")
    c.check(i.get("concurrent_updates_undecided") == 0 and i.get("future_ctime") == 0,
            f"check: none taken for overlapping updates or a future ctime ({categories(r)})")
    c.check(r.get("verdict") == "PASS", f"check: verdict {r.get('verdict')}, want PASS")


@subcommand("figure-min", lambda a: (first_report(a[0]), a[1], float(a[2]), "--no-gates" in a))
def check_figure_min(c, r, figure, n, no_gates=False):
    """A check report's floor figure is above N; no_gates: no gate was set (pass null)."""
    v = r.get("floor_figures", {}).get(figure)
    c.check(isinstance(v, (int, float)) and v > n, f"check: {figure} {v} > {n}")
    if no_gates:
        c.check(all(g.get("pass") is None for g in r.get("gates", [])),
                f"check: no gate set ({[g.get('figure') for g in r.get('gates', []) if g.get('pass') is not None]})")


@subcommand("workload-dir", lambda a: (first_report(a[0]), a[1], a[2]))
def check_workload_dir(c, r, dev, mount):
    """check --dir DIR: the report names DIR's device and mount point, and passes."""
    wd = r.get("workload_dir") or {}
    c.check(wd.get("dev") == dev, f"check --dir: workload_dir dev {wd.get('dev')} == mountinfo {dev}")
    c.check(wd.get("mount") == mount, f"workload_dir mount {wd.get('mount')!r} is {mount!r}")
    c.check(r.get("verdict") == "PASS", f"check --dir: {r.get('verdict')} ({r.get('reason')})")


@subcommand("baseline-used", lambda a: (first_report(a[0]), first_report(a[1]), a[1]))
def check_baseline_used(c, r, base, path):
    """check --baseline PATH (report base): accepted silently, its figures gate the run."""
    c.check(r.get("baseline_file") == path, f"baseline_file {r.get('baseline_file')!r} is {path!r}")
    c.check("baseline_warning" not in r, f"no baseline_warning ({r.get('baseline_warning')!r})")
    c.check(r.get("workload") == base.get("workload") and r.get("command") == base.get("command")
            and r.get("workload_params") == base.get("workload_params"),
            f"the same workload as the baseline: {r.get('workload')} {r.get('command')} "
            f"{r.get('workload_params')}")
    gates = {g["figure"]: g for g in r.get("gates", [])}
    figs = base.get("floor_figures", {})
    c.check(bool(figs) and all(gates.get(k, {}).get("baseline") == v for k, v in figs.items()),
            f"every baseline figure gates the run: {figs} vs "
            f"{ {k: g.get('baseline') for k, g in gates.items()} }")


@subcommand("set-figure", lambda a: (a[0], a[1], a[2], float(a[3])), checker=False)
def set_figure(src, dst, figure, value):
    """Write a copy of check report src to dst with one floor figure doctored (a baseline
    that must fail)."""
    r = first_report(src)
    r["floor_figures"][figure] = value
    with open(dst, "w") as f:
        f.write(json.dumps(r) + "\n")


@subcommand("check")
def check_command_line(c, a):
    """check FILE [--verdict V] [--command] [--min-lost N] [--breach FIGURE] [--judged W]
    [--injected] [--floor checked|unchecked|inverted]: check_check(), check_injected(),
    check_floor()."""
    opts = a[1:]
    kw = {"builtin": "--command" not in opts}
    for flag, key in (("--verdict", "verdict"), ("--min-lost", "min_lost"), ("--breach", "expect_breach"),
                      ("--judged", "judged")):
        if flag in opts:
            v = opts[opts.index(flag) + 1]
            kw[key] = int(v) if key == "min_lost" else v
    objs = load_lines(a[0])
    check_check(c, objs, **kw)
    if "--injected" in opts:
        r = [o for o in objs if o.get("type") == "check"]
        if r:
            check_injected(c, r[0])
    if "--floor" in opts:   # checked, unchecked or inverted (the test hook)
        how = opts[opts.index("--floor") + 1]
        r = [o for o in objs if o.get("type") == "check"]
        if r:
            check_floor(c, r[0], how != "unchecked", invert=how == "inverted")


@selftest_cases
def selftest_check(results):
    """check_check and check_floor on a clean report and doctored ones; the
    categories, examples, figures, baseline and workload directory."""
    run = results.run
    rep = {"type": "check", "schema_version": 1, "verdict": "PASS", "exit_code": 0, "reason": "",
           "lost_events": 0, "violations": [],
           "invariants": {"events": 10, "inodes": 2, "ordering_modifications": 4,
                          "events_by_kind": {"ctime_swap": 5, "ctime_skip": 0, "stat": 5,
                                             "ctime_set": 0, "floor": 0},
                          **{k: 0 for k in NOT_FAULTS},
                          **{k: {"violations": 0, "explained_by_clock_step": 0} for k in
                             VIOLATION_KINDS}},
           "floor_figures": {"floor_swaps_per_update": 0.1},
           "gates": [{"figure": "floor_swaps_per_update", "limit": 0.5, "allowed": None,
                      "value": 0.1, "pass": True}],
           "counters": {"ctime_swaps": {"source": "bpf", "total": 5}},
           "not_fault_examples": {k: [] for k in NOT_FAULTS},
           "judged": {"where": "user", "text": "in user space", "inode_map_entries": 0,
                      "inode_map_max_entries": 16, "inode_map_entry_bytes": 376,
                      "violation_records": 0, "violation_records_lost": 0}}
    c = Checker(quiet=True)
    check_check(c, [rep])
    results.append(("check: a clean report passes", not c.failures))
    for label, mutate, kw in (
            ("a violation", lambda r: r["invariants"]["ctime_regression"].update(violations=1), {}),
            ("an unexplained violation report", lambda r: r["violations"].append(
                {"kind": "ctime_regression", "step_explained": False}), {}),
            ("a lost event", lambda r: r.update(lost_events=1), {}),
            ("the wrong verdict", lambda r: r.update(verdict="FAIL"), {}),
            ("a gate over its limit", lambda r: r["gates"][0].update(value=0.9, pass_=0), {}),
            ("a missing not-fault category", lambda r: r["invariants"].pop("torn_reads"), {}),
            ("a floor figure that disagrees with its gate",
             lambda r: r["floor_figures"].update(floor_swaps_per_update=0.2), {}),
            ("no ordering observations", lambda r: r["invariants"].update(ordering_modifications=0), {}),
            ("an expected breach that did not happen", lambda r: None,
             {"expect_breach": "floor_swaps_per_update"}),
            ("judged in user space where BPF was wanted", lambda r: None, {"judged": "bpf"}),
            ("a not-fault count without an example", lambda r: r["invariants"].update(torn_reads=3), {}),
            ("a lost violation record", lambda r: r["judged"].update(where="bpf",
             violation_records_lost=1, inode_map_entries=1, events_without_context_read=0,
             events_without_lock=0), {}),
            ("events by kind that do not sum to the events",
             lambda r: r["invariants"]["events_by_kind"].update(stat=4), {}),
            ("more getattrs without the lock than without context", lambda r: r["judged"].update(
             where="bpf", inode_map_entries=1, events_without_context_read=2,
             events_without_lock=3), {}),
            ("more getattrs and skips without context than judged", lambda r: r["judged"].update(
             where="bpf", inode_map_entries=1, events_without_context_read=6,
             events_without_lock=1), {})):
        bad_rep = json.loads(json.dumps(rep))
        mutate(bad_rep)
        if "pass_" in bad_rep["gates"][0]:
            bad_rep["gates"][0]["pass"] = False
        c = Checker(quiet=True)
        check_check(c, [bad_rep], **kw)
        results.append((f"check: fails on {label}", bool(c.failures)))

    frep = json.loads(json.dumps(rep))
    frep["floor_probes"] = "fentry/fexit"
    frep["invariants"].update(floor_events=10, floor_reads_checked=10, fine_stamps_decided=9,
                              fine_stamps_undecided=1, floor_invariants_checked=True)
    c = Checker(quiet=True)
    check_floor(c, frep, True)
    results.append(("floor: a clean report passes", not c.failures))
    for label, mutate, kw in (
            ("an unneeded fine stamp", lambda r: r["invariants"]["unneeded_fine_stamp"].update(violations=1), {}),
            ("a floor moving back", lambda r: r["invariants"]["floor_backward"].update(violations=1), {}),
            ("a floor event neither decided nor undecided",
             lambda r: r["invariants"].update(fine_stamps_undecided=0), {}),
            ("no decision", lambda r: r["invariants"].update(fine_stamps_decided=0, fine_stamps_undecided=10), {}),
            ("floor invariants unchecked", lambda r: r["invariants"].update(floor_invariants_checked=False), {}),
            ("checked where they cannot be", lambda r: None, {"checked": False}),
            ("an inverted run that still passes", lambda r: None, {"invert": True})):
        bad_rep = json.loads(json.dumps(frep))
        mutate(bad_rep)
        c = Checker(quiet=True)
        check_floor(c, bad_rep, kw.get("checked", True), invert=kw.get("invert", False))
        results.append((f"floor: fails on {label}", bool(c.failures)))
    frame = {"addr": "0xffffffff81000000", "off": 16, "module": None}
    fst = {"violations": [{"kind": "unneeded_fine_stamp", "timestamp": "floor", "stack_unavailable": None,
                           "stack": [{**frame, "sym": "inode_set_ctime_current"}]},
                          {"kind": "unneeded_fine_stamp", "timestamp": "floor", "stack": None,
                           "stack_unavailable": "bpf_get_stackid() (a hash collision in the stack "
                           "map) failed: File exists"}]}
    run("floor-stacks: stacks taken, one a collision", check_floor_stacks, fst, want_fail=False)
    old = {"violations": [{**v, "stack": None, "stack_unavailable": "judged from a floor event, "
                           "whose record carries no stack"} for v in fst["violations"]]}
    run("floor-stacks: records that carry no stack", check_floor_stacks, old)
    run("floor-stacks: a stack outside inode_set_ctime_current", check_floor_stacks,
        {"violations": [{**fst["violations"][0], "stack": [{**frame, "sym": "vfs_write"}]}]})
    run("floor-stacks: no floor violation", check_floor_stacks, {"violations": []})

    rep = {"invariants": {**{k: 0 for k in NOT_FAULT_KEYS}, "granularity_equal": 1,
                          "ctime_regression": {"violations": 0, "explained_by_clock_step": 0}},
           "floor_figures": {"floor_swaps_per_update": 0.7},
           "gates": [{"figure": "floor_swaps_per_update", "pass": None}]}
    run("invariant-min: granularity_equal 1 >= 1", check_invariant_min, rep, "granularity_equal", 1,
        want_fail=False)
    run("invariant-min: clock_steps 0 < 3", check_invariant_min, rep, "clock_steps", 3)
    nx = {"not_fault_examples": {"stale_reads": [{"ino": 5, "name": "f"}, {"ino": 6, "name": None}],
                                 "torn_reads": [{"ino": 5, "name": "f"}]}}
    run("example-names: inode 5 named f", check_example_names, nx, 5, "f", want_fail=False)
    run("example-names: inode 6 without its name", check_example_names, nx, 6, "g")
    run("example-names: no example of inode 7", check_example_names, nx, 7, "f")
    st = {"verdict": "PASS", "invariants": {**{k: 0 for k in NOT_FAULT_KEYS},
                                            "ctime_regression": {"violations": 1, "explained_by_clock_step": 1}}}
    run("step-explained: one regression, explained", check_step_explained, st, want_fail=False)
    run("step-explained: taken for overlapping updates", check_step_explained,
        {**st, "invariants": {**st["invariants"], "concurrent_updates_undecided": 1,
                              "ctime_regression": {"violations": 0, "explained_by_clock_step": 0}}})
    run("step-explained: taken for a future ctime", check_step_explained,
        {**st, "invariants": {**st["invariants"], "future_ctime": 1}})
    run("step-explained: a regression not explained", check_step_explained,
        {**st, "verdict": "FAIL", "invariants": {**st["invariants"],
                                                 "ctime_regression": {"violations": 2, "explained_by_clock_step": 1}}})
    run("figure-min: 0.7 > 0.5, no gate", check_figure_min, rep, "floor_swaps_per_update", 0.5,
        no_gates=True, want_fail=False)
    run("figure-min: 0.7 not above 0.8", check_figure_min, rep, "floor_swaps_per_update", 0.8)
    gated = cp(rep)
    gated["gates"][0]["pass"] = True
    run("figure-min: a gate was set", check_figure_min, gated, "floor_swaps_per_update", 0.5, no_gates=True)

    wd = {"workload_dir": {"dev": "7:0", "mount": "/m x"}, "verdict": "PASS", "reason": ""}
    run("workload-dir: the loop mount", check_workload_dir, wd, "7:0", "/m x", want_fail=False)
    run("workload-dir: another device", check_workload_dir, wd, "7:1", "/m x")
    run("workload-dir: another mount point", check_workload_dir, wd, "7:0", "/m")
    run("workload-dir: a FAIL verdict", check_workload_dir, dict(wd, verdict="FAIL"), "7:0", "/m x")
    bs = {"workload": "command", "command": ["sh", "-c", "x"], "floor_figures": {"floor_swaps_per_sec": 2.5}}
    used = {"workload": "command", "command": ["sh", "-c", "x"], "baseline_file": "b.json",
            "gates": [{"figure": "floor_swaps_per_sec", "baseline": 2.5},
                      {"figure": "floor_swaps_per_update", "baseline": None}]}
    run("baseline-used: accepted and gating", check_baseline_used, used, bs, "b.json", want_fail=False)
    run("baseline-used: another file", check_baseline_used, used, bs, "c.json")
    run("baseline-used: a warning", check_baseline_used, dict(used, baseline_warning="kernel"), bs, "b.json")
    run("baseline-used: another command", check_baseline_used, dict(used, command=["sh"]), bs, "b.json")
    run("baseline-used: a figure not gated", check_baseline_used, used,
        dict(bs, floor_figures={"floor_swaps_per_update": 0.5}), "b.json")
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write(json.dumps({"type": "check", "floor_figures": {"floor_swaps_per_update": 0.5}}) + "\n")
        f.flush()
        set_figure(f.name, f.name, "floor_swaps_per_update", 0.001)
        results.append(("set-figure: the doctored figure is written",
                        first_report(f.name)["floor_figures"]["floor_swaps_per_update"] == 0.001))
