#!/usr/bin/env python3
# check-multigrain.py - host-side assertions on what guest-multigrain.sh sent.
# usage: check-multigrain.py OUTDIR LABEL; prints "PASS|FAIL LABEL/name[: why]"
# lines and "# LABEL ..." lines with the measured figures.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checkjson  # noqa: E402

out, label = sys.argv[1], sys.argv[2]


def load(name):
    try:
        return checkjson.load_lines(os.path.join(out, name + ".json"))
    except (OSError, ValueError) as e:
        print(f"FAIL {label}/{name}: cannot load: {e}")
        return None


def report(name, c):
    for f in c.failures:
        print(f"FAIL {label}/{name}: {f}")
    if not c.failures:
        print(f"PASS {label}/{name}")


def summary(objs):
    return checkjson.summary_of(objs) if objs else None


def figures(name, s):
    ctr = s["counters"]
    keys = ("ctime_updates", "fine_stamps", "floor_swaps", "floor_cmpxchg_fails", "ctime_swaps",
            "ctime_skips", "ctime_cmpxchg_fails", "stat_queries", "current_time", "coarse_mg")
    print(f"# {label} {name}: " + " ".join(f"{k}={ctr[k]['total']}" for k in keys)
          + " floor_swaps/cpu=" + str(ctr["floor_swaps"]["per_cpu"]))


p = load("probe")
if p:
    c = checkjson.Checker(quiet=True)
    checkjson.check_probe(c, p[0], "vm-multigrain")
    report("probe-all-backends", c)

for be in ("fentry", "kprobe", "tracepoint"):
    for fs in ("tmpfs", "ext4"):
        name = f"stat-{be}-{fs}"
        objs = load(name)
        if objs is None:
            continue
        c = checkjson.Checker(quiet=True)
        # nothing else runs in the guest: every kernel counter equals the debugfs delta
        checkjson.check_stat(c, objs, backend=be, funcs=be != "tracepoint", kernel_percpu=True,
                             exact_kernel=True, min_floor=1, min_stat=1)
        s = summary(objs)
        if s:
            c.check((s["counters"]["fine_stamps"]["total"] or 0) > 0, "fine_stamps > 0")
            figures(name, s)
        report(name, c)

for be in ("fentry", "kprobe"):
    name = f"hot-{be}"
    objs = load(name)
    s = summary(objs) if objs else None
    if not s:
        print(f"FAIL {label}/{name}: no summary")
        continue
    ctr = s["counters"]
    ops = 2000  # guest-multigrain.sh: --threads 1 --files 1 --ops 2000
    cur, coarse, upd = (ctr[k]["total"] or 0 for k in ("current_time", "coarse_mg", "ctime_updates"))
    c = checkjson.Checker(quiet=True)
    checkjson.check_stat(c, objs, backend=be, funcs=True, kernel_percpu=True, exact_kernel=True)
    c.check(ctr["current_time"]["source"] == "bpf" and ctr["coarse_mg"]["source"] == "bpf",
            "hot counters come from BPF")
    # every write runs file_update_time -> inode_needs_update_time -> current_time()
    c.check(cur >= ops, f"current_time {cur} >= {ops} writes")
    # ktime_get_coarse_real_ts64_mg is called once by every current_time() and once by
    # every inode_set_ctime_current(); ctime_updates counts the latter on FS_MGTIME inodes
    c.check(coarse >= cur + upd, f"coarse_mg {coarse} >= current_time {cur} + ctime_updates {upd}")
    figures(name, s)
    report(name, c)

objs = load("contention")
s = summary(objs) if objs else None
if s:
    c = checkjson.Checker(quiet=True)
    checkjson.check_stat(c, objs, backend="fentry", funcs=True, kernel_percpu=True, exact_kernel=True)
    f = s["counters"]["floor_cmpxchg_fails"]
    c.check(f["source"] == "derived" and (f["total"] or 0) > 0,
            f"floor_cmpxchg_fails {f['total']} > 0 under contention")
    figures("contention", s)
    report("contention", c)

objs = load("interval")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    checkjson.check_intervals(c, objs, 2)
    report("interval", c)

for be in ("fentry", "kprobe", "tracepoint"):
    objs = load(f"check-{be}")
    if objs is not None:
        c = checkjson.Checker(quiet=True)
        checkjson.check_check(c, objs, verdict="PASS")
        r = objs[0]
        c.check(r["backend"] == be, f"backend {r['backend']}")
        c.check(r["lost_events"] == 0, "no events lost")
        for k in ("ctime_updates", "fine_stamps", "floor_swaps", "ctime_swaps"):
            row = r["counters"][k]
            c.check(row.get("kernel_debugfs") == row["total"], f"{k} {row['total']} == debugfs {row.get('kernel_debugfs')}")
        th = {t["name"]: t for t in r["thresholds"]}
        print(f"# {label} check-{be}: floor-swap-ratio={th['floor-swap-ratio']['value']} "
              f"events={r['invariants']['events']} ordering={r['invariants'].get('ordering_modifications')}")
        report(f"check-{be}", c)
objs = load("check-ext4")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    checkjson.check_check(c, objs, verdict="PASS")
    report("check-ext4", c)
objs = load("check-threshold")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    checkjson.check_check(c, objs, verdict="FAIL", expect_breach="floor-swap-ratio")
    report("check-threshold", c)
objs = load("check-clockstep")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    r = objs[0]
    inv = r["invariants"]
    explained = sum(inv[k]["explained_by_clock_step"] for k in
                    ("ctime_regression", "not_later_after_query", "cross_file_order"))
    unexplained = sum(inv[k]["violations"] - inv[k]["explained_by_clock_step"] for k in
                      ("ctime_regression", "not_later_after_query", "skip_on_queried", "cross_file_order"))
    c.check(inv["clock_steps"] >= 1, f"the 10 s step was seen ({inv['clock_steps']})")
    c.check(explained > 0, f"violations attributed to the step: {explained}")
    c.check(unexplained == 0 and r["verdict"] == "PASS",
            f"none left unexplained ({unexplained}), verdict {r['verdict']}")
    c.check(all(v["step_explained"] for v in r["violations"]), "every reported violation names the step")
    print(f"# {label} check-clockstep: steps={inv['clock_steps']} explained={explained} "
          + " ".join(f"{k}={inv[k]['violations']}" for k in ("ctime_regression", "not_later_after_query", "cross_file_order")))
    report("check-clockstep", c)
