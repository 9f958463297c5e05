#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# check-multigrain.py - host-side assertions on what guest-multigrain.sh sent.
# usage: check-multigrain.py OUTDIR LABEL; prints "PASS|FAIL LABEL/name[: why]"
# lines and "# LABEL ..." lines with the measured figures.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checkjson  # noqa: E402
import observer  # noqa: E402

out, label = sys.argv[1], sys.argv[2]
# smoke runs (MGTEST_SMOKE=1) send only these; the rest must exist otherwise
SMOKE = os.environ.get("MGTEST_SMOKE") == "1"
SMOKE_SET = {"probe", "stat-fentry-tmpfs", "stat-kprobe-tmpfs", "stat-tracepoint-tmpfs", "hot-fentry",
             "hot-kprobe", "latency-fentry", "trace-fentry", "trace-kprobe", "check-fentry",
             "check-kprobe", "check-tracepoint", "check-invert-fine-fentry", "check-inject-fentry",
             "check-inject-kprobe", "check-inject-tracepoint", "top-fentry",
             "diff-fentry-tmpfs", "diff-kprobe-tmpfs", "diff-tracepoint-tmpfs", "diff-forget-tmpfs",
             "dirctime-fentry", "dirctime-kprobe", "dirctime-tracepoint", "dirctime-text",
             "dirctime-trace", "dirctime-known", "dirctime-known-inject", "repro-tmpfs", "order-tmpfs", "order-tmpfs-doctored",
             "tar-fentry-tmpfs", "tar-kprobe-tmpfs", "tar-tracepoint-tmpfs",
             "overlay-fentry-tmpfs", "overlay-kprobe-tmpfs", "overlay-tracepoint-tmpfs", "clocks",
             "fs-types", "conform-tmpfs", "conform-ext4", "conform-xfs", "conform-btrfs",
             "conform-overlay", "conform-ramfs"}
# kernels.txt libfs=patched: fs/libfs.c simple_link()/__simple_unlink() stamp the directory
# with inode_set_ctime_current() of its own (libfs-dir-ctime.patch); otherwise they copy the
# child's time with inode_set_ctime_to_ts() (docs/findings/tmpfs-dir-ctime.md)
PATCHED = os.environ.get("MGTEST_LIBFS", "mainline") == "patched"
SET_TEXT = "set by inode_set_ctime_to_ts over the QUERIED ctime"
# the fs/libfs.c functions that copy a child's time onto its directory (shmem_* call them,
# or do the same themselves)
LIBFS_FUNCS = {"simple_link", "simple_unlink", "__simple_unlink", "simple_rename",
               "simple_rename_timestamp", "simple_rename_exchange"}


def load(name):
    if SMOKE and name not in SMOKE_SET:
        return None
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


# mgtrace conform (issue 41): check's judge and the observer agree in every row; on tmpfs the
# directory rows of link, unlink, rmdir and rename over a name FAIL unpatched, each with stacks
# through shmem or fs/libfs.c, and PASS with libfs-dir-ctime.patch; the shared-mapping store
# gets no ctime event (missing_update) on every kernel. Every other filesystem the guest mounted
# (ext4, xfs, btrfs, overlayfs over ext4, ramfs) is held to the same rules, and any FAIL row
# there is reported as a FAIL; one the kernel says is not multigrain (conform's exit 3) is
# named, one the guest could not mount or the kernel lacks is a SKIP with the guest's reason.
DIR_ROWS = {("link", "dir"), ("unlink", "dir"), ("rmdir", "dir"), ("rename-over", "dir")}
CF_FS = ("tmpfs", "ext4", "xfs", "btrfs", "overlay", "ramfs")
NOT_MG = "is not multigrain"
# The findings written up in docs/findings/: cells both judges fail on every kernel measured,
# where the operation leaves the ctime without any update (missing_update). Each must fail so
# there, check's count equal to the observer's; a pass means the kernel changed: say so.
FINDINGS = {
    "tmpfs": {("mmap-msync", "file"): "docs/findings/tmpfs-mmap-msync.md"},
    "overlay": {("fifo-write", "file"): "docs/findings/overlayfs-fifo-times.md"},
}


def conform_findings(fs, rows, c):
    """The rows of FINDINGS[fs]: each FAILs with every run a missing update, both judges agreeing."""
    for r in rows:
        doc = FINDINGS.get(fs, {}).get((r["op"], r["role"]))
        if doc is None:
            continue
        miss, obs, chk = r.get("missing_update"), r["observer_not_later"], r["check_violations"]
        c.check(r["verdict"] == "fail" and miss == r["done"] and obs == chk == miss,
                f"{fs} {r['op']}/{r['role']}: fails as {doc} says (verdict {r['verdict']}, "
                f"{miss} of {r['done']} missing, observer {obs}, check {chk})")


def conform_rows(fs, rep, c):
    rows = rep["ops"]
    c.check(len({r["op"] for r in rows}) >= 30, f"{len({r['op'] for r in rows})} distinct operations")
    dis = [f"{r['op']}/{r['role']}" for r in rows if r["verdict"] == "disagree"]
    c.check(not dis, f"check and the observer agree in every row (disagree: {dis})")
    fails = {(r["op"], r["role"]) for r in rows if r["verdict"] == "fail"}
    conform_findings(fs, rows, c)
    if fs != "tmpfs":
        other = fails - set(FINDINGS.get(fs, {}))
        c.check(not other, f"{fs}: no row fails but a finding's ({sorted(f'{o}/{ro}' for o, ro in other)})")
        return fails
    want = DIR_ROWS & {(r["op"], r["role"]) for r in rows}
    c.check(len(want) == len(DIR_ROWS), f"the directory rows ran: {sorted(want)}")
    if PATCHED:
        c.check(not (fails & DIR_ROWS), f"patched: the directory rows pass ({sorted(fails & DIR_ROWS)})")
        return fails
    c.check(want <= fails, f"unpatched: the directory rows fail ({sorted(want - fails)} do not)")
    for r in rows:
        if (r["op"], r["role"]) in DIR_ROWS and r["verdict"] == "fail":
            # frames are "function+0xoff" (or an address where none names it)
            syms = {f.split("+")[0] for st in (r["stacks"] or []) for f in st["frames"]}
            c.check(any(s in LIBFS_FUNCS or s.startswith("shmem_") for s in syms),
                    f"{r['op']}/dir: stacks through shmem or fs/libfs.c ({sorted(syms)[:6]})")
    return fails


def conform_checks():
    """conform-FS and fs-types: the rules above (make conform-matrix's conform-only guests too)."""
    swept = {}
    for fs in CF_FS:
        name = f"conform-{fs}"
        objs = load(name)
        if objs is None:
            continue
        c = checkjson.Checker(quiet=True)
        rep = next((o for o in objs if o.get("type") == "conform"), None)
        skip = next((o for o in objs if o.get("type") == "skip"), None)
        err = next((o for o in objs if o.get("type") == "error"), None)
        if skip and fs != "tmpfs":
            swept[fs] = "skip"
            print(f"SKIP {label}/{name}: {skip.get('reason')}")
            continue
        if err and NOT_MG in (err.get("reason") or "") and fs != "tmpfs":
            # the kernel's answer (a stat() there fired no fill_mg_cmtime), not a list's
            swept[fs] = "not multigrain"
            print(f"# {label} {name}: not multigrain (conform exit {err.get('exit_code')}: {err['reason']})")
            report(name, c)
            continue
        c.check(rep is not None, "a conform report" + (f" (error: {err.get('reason')})" if err else ""))
        if rep:
            swept[fs] = "multigrain"
            c.check(rep.get("multigrain") is True, f"the kernel says {fs} is multigrain ({rep.get('multigrain')})")
            fails = conform_rows(fs, rep, c)
            print(f"# {label} {name}: verdict {rep['verdict']}, fail {sorted(f'{o}/{ro}' for o, ro in fails)}")
        report(name, c)

    # every type /proc/filesystems listed that the guest can mount was swept (or named not
    # multigrain); every one it did not list was skipped, never left silently out
    objs = load("fs-types")
    if objs is not None:
        c = checkjson.Checker(quiet=True)
        ft = next((o for o in objs if o.get("type") == "fs-types"), None)
        c.check(ft is not None, "an fs-types record")
        if ft:
            listed = set(ft["listed"])
            for fs in ft["recipes"]:
                if fs not in swept:
                    c.check(False, f"{fs}: no conform-{fs} result")
                elif fs in listed:
                    c.check(swept[fs] != "skip" or fs in ("ext4", "xfs", "btrfs", "overlay"),
                            f"{fs}: listed in /proc/filesystems but skipped")
                else:
                    c.check(swept[fs] == "skip", f"{fs}: not in /proc/filesystems but {swept[fs]}")
            print(f"# {label} fs-types: /proc/filesystems lists {len(listed)}: {' '.join(sorted(listed))}; "
                  + ", ".join(f"{k} {v}" for k, v in swept.items())
                  + f"; no mount recipe in the guest: {' '.join(sorted(listed - set(ft['recipes'])))}")
        report("fs-types", c)


# MGTRACE_VM_CONFORM_ONLY (vm-test.sh): the guest ran the conform steps alone
if os.environ.get("MGTEST_CONFORM_ONLY") == "1":
    conform_checks()
    sys.exit(0)

p = load("probe")
if p:
    c = checkjson.Checker(quiet=True)
    # kernels.txt option api=cookie: a kernel carrying the cookie-form floor API patch
    checkjson.check_probe(c, p[0], "vm-multigrain", api=os.environ.get("MGTEST_FLOOR_API", "mainline"))
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
    # 8 threads on 2 CPUs: under a preemptible kernel (7.x: "Dynamic Preempt: lazy") a
    # task can be preempted inside a BPF program and the kernel then skips that program
    # on the CPU (recursion_misses); stat reports those, and the shortfall must be covered
    misses = s.get("bpf_recursion_misses", 0)
    checkjson.check_stat(c, objs, backend="fentry", funcs=True, kernel_percpu=True, exact_kernel=True,
                         allow_misses=True)
    f = s["counters"]["floor_cmpxchg_fails"]
    # with skipped runs an operand (fine_stamps) may fall short: the difference is then
    # reported unavailable with the reason, never as a wrong (even negative) number
    if f["source"] == "derived" and f["total"] == 0:
        # the count is still checked exact against the kernel's own (check_stat above);
        # whether two vCPUs raced within the cmpxchg's window is the host's scheduling:
        # 0 of 95,004 floor swaps when another job loaded the host (libfs-dirctime-7.2)
        print(f"SKIP {label}/contention-fails: no floor cmpxchg failure this run "
              f"({s['counters']['floor_swaps']['total']} floor swaps): the vCPUs never raced "
              f"within the window; the derived count 0 is still checked exact")
    else:
        c.check((f["source"] == "derived" and (f["total"] or 0) > 0) or
                (misses > 0 and f["source"] == "unavailable" and "differs from the kernel" in f.get("unavailable", "")),
                f"floor_cmpxchg_fails {f['total']} > 0 under contention ({f['source']}: {f.get('unavailable')})")
    print(f"# {label} contention: bpf_recursion_misses={misses} "
          f"({s.get('bpf_recursion_misses_by_program')})")
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
        r = objs[0]
        # a preemptible kernel (7.3 under emulation: "Dynamic Preempt: lazy") skips the BPF
        # runs of a program preempted on its CPU (recursion_misses): INCONCLUSIVE is then the
        # right verdict, with nothing else dropped and no violation; without skipped runs, PASS
        missed = r.get("missed_bpf_runs", 0)
        checkjson.check_check(c, objs, verdict="INCONCLUSIVE" if missed else "PASS", judged="bpf")
        if missed:
            c.check(r["invariants"]["untracked_events"] == 0 and not r["violations"] and
                    "skipped by the kernel" in r.get("reason", ""),
                    f"inconclusive for the {missed} skipped runs only: {r.get('reason')}")
        c.check(r["backend"] == be, f"backend {r['backend']}")
        c.check(r["lost_events"] == 0, "no events lost")
        for k in ("ctime_updates", "fine_stamps", "floor_swaps", "ctime_swaps"):
            row = r["counters"][k]
            dbg = row.get("kernel_debugfs")
            if missed and row["source"] == "bpf" and dbg is not None:
                # a skipped run counts nothing: short of the kernel by at most the runs skipped
                c.check(0 <= dbg - row["total"] <= missed,
                        f"{k} {row['total']}: debugfs {dbg}, short by at most the {missed} skipped runs")
            else:
                c.check(dbg == row["total"], f"{k} {row['total']} == debugfs {dbg}")
        checkjson.check_floor(c, r, be != "tracepoint")
        inv = r["invariants"]
        print(f"# {label} check-{be}: floor_swaps_per_update="
              f"{r['floor_figures'].get('floor_swaps_per_update')} events={inv['events']} "
              f"ordering={inv.get('ordering_modifications')} floor_events={inv['floor_events']} "
              f"floor_reads={inv['floor_reads_checked']} fine_decided={inv['fine_stamps_decided']} "
              f"fine_undecided={inv['fine_stamps_undecided']} "
              f"entry_ns_skips_undecided={inv['skips_after_concurrent_query']} "
              f"duration_s={r['duration_s']:.2f}")
        report(f"check-{be}", c)
for be in ("fentry", "kprobe", "tracepoint"):
    objs = load(f"check-inject-{be}")
    if objs is not None:
        c = checkjson.Checker(quiet=True)
        checkjson.check_check(c, objs, verdict="FAIL", judged="bpf")
        checkjson.check_injected(c, objs[0])
        c.check(objs[0]["backend"] == be, f"backend {objs[0]['backend']}")
        print(f"# {label} check-inject-{be}: {objs[0]['judged']['text']}")
        report(f"check-inject-{be}", c)
for be in ("fentry", "kprobe"):
    objs = load(f"check-invert-fine-{be}")
    if objs is not None:
        c = checkjson.Checker(quiet=True)
        checkjson.check_check(c, objs, verdict="FAIL")
        checkjson.check_floor(c, objs[0], True, invert=True)
        checkjson.check_floor_stacks(c, objs[0])
        inv = objs[0]["invariants"]
        print(f"# {label} check-invert-fine-{be}: unneeded_fine_stamp="
              f"{inv['unneeded_fine_stamp']['violations']} of {inv['fine_stamps_decided']} decided")
        report(f"check-invert-fine-{be}", c)
objs = load("check-invert-fine-user")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    checkjson.check_check(c, objs, verdict="FAIL", judged="user")
    checkjson.check_floor(c, objs[0], True, invert=True)
    checkjson.check_floor_stacks(c, objs[0])
    report("check-invert-fine-user", c)
objs = load("check-ext4")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    checkjson.check_check(c, objs, verdict="PASS")
    checkjson.check_floor(c, objs[0], True)
    report("check-ext4", c)
objs = load("trace-shared")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    floor = [o for o in objs if o.get("type") == "event" and o["event"].startswith("floor_")]
    s = [o for o in objs if o.get("type") == "trace_summary"]
    c.check(len(s) == 1 and s[0]["lost_events"] == 0, "no events lost")
    dec = [e.get("fine_decision") for e in floor]
    shared = [e for e in floor if e["name"] == "shared-f1"]
    c.check(len(shared) > 0, f"floor events on the shared file: {len(shared)}")
    c.check("unneeded" not in dec, f"no unneeded fine stamp ({dec.count('unneeded')})")
    c.check(dec.count("needed") > 0, f"decided needed: {dec.count('needed')}")
    # null only for a call already running while the probes were attached (before the workload)
    t0 = min((e["time_mono_ns"] for e in shared), default=0)
    late = [e.get("fine_decision") for e in floor if e["time_mono_ns"] >= t0]
    c.check(all(d in ("needed", "undecided") for d in late),
            f"every floor event from the workload on is decided or undecided: {sorted(set(map(str, late)))}")
    print(f"# {label} trace-shared: floor_events={len(floor)} on_shared_file={len(shared)} "
          f"needed={dec.count('needed')} undecided={dec.count('undecided')} "
          f"outside_a_known_call={dec.count(None)}")
    report("trace-shared", c)
objs = load("check-shared")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    checkjson.check_check(c, objs, verdict="PASS", builtin=False)
    checkjson.check_floor(c, objs[0], True)
    inv = objs[0]["invariants"]
    print(f"# {label} check-shared: floor_events={inv['floor_events']} "
          f"fine_decided={inv['fine_stamps_decided']} fine_undecided={inv['fine_stamps_undecided']} "
          f"stale_reads={inv['stale_reads']} torn_reads={inv['torn_reads']} "
          f"skips_after_concurrent_query={inv['skips_after_concurrent_query']}")
    report("check-shared", c)
objs = load("check-threshold")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    checkjson.check_check(c, objs, verdict="FAIL", expect_breach="floor_swaps_per_update")
    report("check-threshold", c)
objs = load("check-clockstep")
if objs is not None:
    c = checkjson.Checker(quiet=True)
    r = objs[0]
    inv = r["invariants"]
    explained = sum(inv[k]["explained_by_clock_step"] for k in
                    ("ctime_regression", "not_later_after_query", "cross_file_order"))
    unexplained = sum(inv[k]["violations"] - inv[k]["explained_by_clock_step"] for k in
                      checkjson.VIOLATION_KINDS)
    c.check(inv["clock_steps"] >= 1, f"the 10 s step was seen ({inv['clock_steps']})")
    c.check(explained > 0, f"violations attributed to the step: {explained}")
    # INCONCLUSIVE is the right verdict when events were lost or the kernel skipped BPF runs
    # (a program preempted on its CPU under emulation, seen once in CI on 7.3); it is accepted
    # only with that cause in the JSON, and never FAIL
    dropped = r["lost_events"] + r["missed_bpf_runs"] + inv["untracked_events"]
    c.check(unexplained == 0 and (r["verdict"] == "PASS" or
                                  (r["verdict"] == "INCONCLUSIVE" and dropped > 0)),
            f"none left unexplained ({unexplained}), verdict {r['verdict']} "
            f"(lost {r['lost_events']}, missed {r['missed_bpf_runs']}, "
            f"untracked {inv['untracked_events']})")
    c.check((r["exit_code"] == 0) == (r["verdict"] == "PASS"), f"exit code {r['exit_code']} "
            f"matches verdict {r['verdict']}")
    c.check(all(v["step_explained"] for v in r["violations"]), "every reported violation names the step")
    checkjson.check_floor(c, r, True)   # a realtime step moves neither mg_floor nor the decision
    print(f"# {label} check-clockstep: verdict={r['verdict']} lost={r['lost_events']} "
          f"missed={r['missed_bpf_runs']} steps={inv['clock_steps']} explained={explained} "
          + " ".join(f"{k}={inv[k]['violations']}" for k in ("ctime_regression", "not_later_after_query", "cross_file_order")))
    report("check-clockstep", c)

for be in ("fentry", "kprobe"):
    objs = load(f"trace-{be}")
    if objs is None:
        continue
    c = checkjson.Checker(quiet=True)
    ev = [o for o in objs if o.get("type") == "event"]
    s = [o for o in objs if o.get("type") == "trace_summary"]
    floor = [e for e in ev if e["event"].startswith("floor_")]
    swaps = [e for e in floor if e["event"] == "floor_swap"]
    c.check(len(s) == 1 and s[0]["floor_probes"] == {"fentry": "fentry/fexit", "kprobe": "kprobe/kretprobe"}[be],
            f"floor events through {be}")
    c.check(len(s) == 1 and s[0]["lost_events"] == 0, "no events lost")
    # one floor event per fine-grained stamp, system-wide (-a): the kernel's fine_stamps
    # delta around the run
    dbg = [o for o in objs if o.get("type") == "debugfs"]
    fine = dbg[0]["after"][2] - dbg[0]["before"][2] if dbg else -1
    c.check(len(floor) == fine and 0 < fine,
            f"one floor event per fine-grained stamp: {len(floor)} == kernel fine_stamps {fine}")
    c.check(len(floor) <= 2010, "about one per write of the workload, not more")
    c.check(len(swaps) > 0, f"floor swaps seen: {len(swaps)}")
    c.check(all(e["floor_after_mono_ns"] > e["floor_before_mono_ns"] for e in swaps),
            "every swap moved the floor forward")
    # Under TCG the kprobe on inode_set_ctime_current was once not yet firing for the
    # first 10 ms after attach returned (mainline-7.2, 433 of 1994 floor events, all
    # before the first one with an entry time; docs/kernel-facts.md). Such a prefix
    # (floor events without a known call, all before the first with one, within 100 ms
    # of the first floor event) is reported and left out of the checks of the call's context;
    # one such event after it still fails them.
    first_known = min((e["time_mono_ns"] for e in floor if e.get("entry_mono_ns") is not None),
                      default=None)
    pre = [e for e in floor if first_known is not None and e["time_mono_ns"] < first_known]
    t_first = min((e["time_mono_ns"] for e in floor), default=0)
    c.check(all(e["time_mono_ns"] - t_first < 100_000_000 for e in pre),
            f"floor events before the kprobe fired: {len(pre)}, all within 100 ms of the first")
    inner = [e for e in floor if e not in pre]
    c.check(len(inner) >= 0.5 * len(floor), f"most floor events inside a traced call: "
            f"{len(inner)} of {len(floor)}")
    c.check(all(e["ino"] != 0 for e in inner), "floor events carry the inode being stamped")
    c.check(sum(e["name"].startswith("t0-f") for e in inner) >= 0.99 * len(inner),
            "floor events name the written file (the rest: its directory, other processes)")
    swap_ev = [e for e in ev if e["event"] == "ctime_swap"]
    c.check(len(swap_ev) >= 2000, f"ctime swaps traced: {len(swap_ev)}")
    # the fine-stamp decision of every floor event, and the update's entry time on
    # every ctime swap/skip (inode_set_ctime_current's kprobe, map shared with the tracepoints)
    dec = [e.get("fine_decision") for e in inner]
    c.check(all(d in ("needed", "undecided") for d in dec),
            f"every floor event decided needed or undecided: {sorted(set(map(str, dec)))}")
    c.check(dec.count("needed") > 0, f"decided needed: {dec.count('needed')}")
    # (from the first floor event inside a traced call on: a call already running while the
    # probes were being attached, e.g. mgtrace's own, has no entry time)
    t_floor = min((e["time_mono_ns"] for e in inner), default=0)
    cx = [e for e in ev if (e["event"] in ("ctime_swap", "ctime_skip") or
                            e["event"].startswith("floor_")) and e["time_mono_ns"] >= t_floor]
    c.check(all(e.get("entry_mono_ns") is not None and e["entry_mono_ns"] <= e["time_mono_ns"]
                for e in cx), f"every ctime swap/skip and floor event carries its update's entry "
            f"time: {sum(e.get('entry_mono_ns') is not None for e in cx)} of {len(cx)}")
    print(f"# {label} trace-{be}: floor_swap={len(swaps)} floor_fail="
          f"{sum(e['event'] == 'floor_fail' for e in floor)} floor_unknown="
          f"{sum(e['event'] == 'floor_unknown' for e in floor)} fine_needed="
          f"{dec.count('needed')} fine_undecided={dec.count('undecided')} before_the_kprobe_fired={len(pre)}")
    report(f"trace-{be}", c)

# top with fentry around stress, inside stat: the floor swaps of every row (plus those not
# attributed) sum to the table's total, and over the run to the kernel's floor_swaps delta
for by in ("pid", "file"):
    name = "top-fentry" if by == "pid" else "top-file-fentry"
    objs = load(name)
    if objs is None:
        continue
    c = checkjson.Checker(quiet=True)
    tops = [o for o in objs if o.get("type") == "top"]
    s = summary(objs)
    if not c.check(tops and s, f"{len(tops)} top tables and stat's summary"):
        report(name, c)
        continue
    c.check(all(t["floor_probe"] == "fentry/fexit" and t["by"] == by for t in tops),
            "floor swaps through fentry/fexit")
    c.check(all(t["lost_no_map"] == 0 and t["rows_refused"] == {"map_full": 0, "other": 0}
                for t in tops), "no event lost for want of a map, no row refused")
    for k in ("fine_stamps", "floor_swaps", "floor_unknown", "ctime_swaps"):
        bad = [i for i, t in enumerate(tops)
               if sum(r[k] for r in t["rows"]) + t["not_attributed"][k] != t["totals"][k]]
        c.check(not bad, f"{k}: rows + not attributed == total in every table (bad: {bad})")
    rows = sum(r["floor_swaps"] for t in tops for r in t["rows"])
    na = sum(t["not_attributed"]["floor_swaps"] for t in tops)
    unknown = sum(t["totals"]["floor_unknown"] for t in tops)
    fine = sum(t["totals"]["fine_stamps"] for t in tops)
    k = s["counters"]["floor_swaps"]
    kfine = s["counters"]["fine_stamps"]["total"]
    c.check(k["source"] == "kernel", f"stat's floor_swaps from the kernel ({k['source']})")
    c.check(na == 0, f"every floor swap attributed ({na} not)")
    # a call that migrated is unknown, never guessed: the kernel's count then lies in
    # [swaps, swaps + unknown]; with none unknown the two are equal
    c.check(rows <= (k["total"] or -1) <= rows + unknown,
            f"floor swaps of the rows {rows} (+{unknown} unknown) == kernel floor_swaps {k['total']}")
    c.check(fine == kfine, f"fine stamps {fine} == kernel fine_stamps {kfine}")
    c.check(rows > 0, f"floor swaps seen: {rows}")
    last = tops[-1]["rows"]
    if by == "pid":
        c.check(last and last[0]["comm"] == "mgtrace" and last[0]["floor_swaps"] > 0,
                f"the stress process ranks first: {last[:1]}")
    else:
        named = sum(r["floor_swaps"] for t in tops for r in t["rows"] if r["name"].startswith("t"))
        c.check(named >= 0.99 * rows, f"floor swaps on the workload's files: {named} of {rows}")
    print(f"# {label} {name}: tables={len(tops)} floor_swaps rows={rows} unknown={unknown} "
          f"kernel={k['total']} fine_stamps={fine} kernel_fine={kfine}")
    report(name, c)

# stat --latency: the histograms' totals equal the same window's call counters exactly
for be in ("fentry", "kprobe"):
    name = f"latency-{be}"
    if SMOKE and name not in SMOKE_SET:
        continue
    objs = load(name)
    s = summary(objs) if objs else None
    if not s:
        print(f"FAIL {label}/{name}: no summary")
        continue
    c = checkjson.Checker(quiet=True)
    checkjson.check_stat(c, objs, backend=be, funcs=True, kernel_percpu=True, exact_kernel=True)
    lat = s.get("latency") or {}
    want_probe = {"inode_set_ctime_current": "kprobe/kretprobe",
                  "ktime_get_real_ts64_mg": "fentry/fexit" if be == "fentry" else "kprobe/kretprobe"}
    figs = []
    for fn, ctr in (("ktime_get_real_ts64_mg", "fine_stamps"), ("inode_set_ctime_current", "ctime_updates")):
        h = lat.get(fn)
        if not c.check(h is not None, f"{fn}: latency object present"):
            continue
        calls = s["counters"][ctr]["total"]
        c.check(h["probe"] == want_probe[fn], f"{fn}: probe {h['probe']} == {want_probe[fn]}")
        c.check(h["count"] == calls, f"{fn}: histogram count {h['count']} == {ctr} {calls} (same window)")
        c.check(h["count"] > 0, f"{fn}: count {h['count']} > 0")
        c.check(len(h["log2_ns"]) == 64 and sum(h["log2_ns"]) == h["count"],
                f"{fn}: 64 log2 slots summing to the count ({sum(h['log2_ns'])})")
        c.check(h["unmatched"] == 0, f"{fn}: no unmatched exits ({h['unmatched']})")
        pc = h["per_cpu"]
        c.check(len(pc) == s["nr_cpus"] and sum(p["count"] for p in pc) == h["count"]
                and sum(p["sum_ns"] for p in pc) == h["sum_ns"],
                f"{fn}: {len(pc)} per-CPU counts and sums add up to the totals")
        c.check(all(sum(p["log2_ns"][i] for p in pc) == h["log2_ns"][i] for i in range(64)),
                f"{fn}: per-CPU histograms add up to the total histogram, slot by slot")
        if h["count"]:
            c.check(abs(h["mean_ns"] - h["sum_ns"] / h["count"]) < 1e-6 * h["mean_ns"],
                    f"{fn}: mean_ns is sum_ns/count")
            c.check(0 < h["p50_ns_estimate"] <= h["p99_ns_estimate"],
                    f"{fn}: 0 < p50 {h['p50_ns_estimate']} <= p99 {h['p99_ns_estimate']}")
            figs.append(f"{fn} count={h['count']} mean={h['mean_ns']:.0f}ns "
                        f"p50~{h['p50_ns_estimate']:.0f}ns p99~{h['p99_ns_estimate']:.0f}ns ({h['probe']})")
    print(f"# {label} {name}: " + "; ".join(figs))
    report(name, c)

# the differential steps: check against the observer outside mgtrace (tests/observer.py), on
# tmpfs and ext4 with every backend: check's violations equal the observer's own count exactly,
# and every comparison fails on a doctored copy of this very pair
for be, fs in [(b, f) for b in ("fentry", "kprobe", "tracepoint") for f in ("tmpfs", "ext4")] + \
        [("forget", "tmpfs")]:
    name = f"diff-{be}-{fs}"
    objs = load(name)
    if objs is None:
        continue
    rep, obs, rc = observer.split(objs)
    if rep is None or obs is None or rc is None:
        print(f"FAIL {label}/{name}: check's report, the observer's line and the exit status "
              f"(missing: {[n for n, x in (('report', rep), ('observer', obs), ('exit', rc)) if x is None]})")
        continue
    c = checkjson.Checker(quiet=True)
    observer.compare(c, rep, obs, rc)
    if be == "forget":  # generations began and ended under the observer
        fg = rep["judged"].get("forget")
        c.check(fg is not None and fg["generations"] >= 3 and fg["history_forgotten"] > 0,
                f"--forget: >= 3 generations and some history forgotten: {fg}")
        if fg:
            print(f"# {label} {name}: --forget {fg['generations']} generations, "
                  f"{fg['history_forgotten']} forgotten, {fg['moved_on']} moved on, "
                  f"{fg['events_not_judged_while_moving']} not judged while moving; "
                  f"untracked {rep['invariants']['untracked_events']}, map "
                  f"{rep['judged']['inode_map_entries']} of {rep['judged']['inode_map_max_entries']}")
    inv = rep["invariants"]
    print(f"# {label} {name}: observer saw {obs['not_later_total']} not later ("
          + ", ".join(f"{k} {v['not_later']['dir']}+{v['not_later']['file']}/{v['done']}"
                      for k, v in obs["ops"].items())
          + f"); check {rep['verdict']} with {inv['not_later_after_query']['violations']} "
          f"not_later_after_query, {inv['ctime_regression']['violations']} regressions, "
          f"events {inv['events_by_kind']}")
    report(name, c)
    bad = [lbl for lbl, ok, _ in observer.selftest_pair(rep, obs, rc)[1:] if not ok
           # --forget's churn is judged too (its skips alone outnumber the observer's ops):
           # zeroing swaps and sets leaves enough judged events, so that copy cannot fail here
           and not (be == "forget" and lbl == "fails on too few ctime events judged")]
    if bad:
        print(f"FAIL {label}/{name}-doctored: these doctored copies passed: {bad}")
    else:
        print(f"PASS {label}/{name}-doctored")


def set_made(r):
    """(violations whose later observation is an inode_set_ctime_to_ts, stored violations)"""
    v = [x for x in r.get("violations") or [] if x["kind"] in observer.VIOLATION_KINDS]
    return sum(x["later"].get("event") == "ctime_set" for x in v), len(v)


def load_observed(name):
    """A step's check report, observer line and exit status (observer.split), or None (said)."""
    objs = load(name)
    if objs is None:
        return None
    rep, obs, rc = observer.split(objs)
    if rep is None or obs is None or rc is None:
        print(f"FAIL {label}/{name}: check's report, the observer's line and the exit status missing")
        return None
    return rep, obs, rc


def load_text(name):
    """A text step: its stderr ("" when absent) and exit status, or None (not loaded)."""
    objs = load(name)
    if objs is None:
        return None
    try:
        text = open(os.path.join(out, name + ".stderr")).read()
    except OSError:
        text = ""
    return text, next((o["rc"] for o in objs if o.get("type") == "exit"), None)


# issue 31: the tmpfs directory workload (mgobserve -o link,unlink, 400 iterations) under
# check with each backend. Unpatched: FAIL, set-made violations only, the observer's stat()
# saw the directory unchanged after most link/unlink ops; patched: PASS and none unchanged.
# check's count equals the observer's exactly either way (observer.compare)
for be in ("fentry", "kprobe", "tracepoint"):
    name = f"dirctime-{be}"
    got = load_observed(name)
    if got is None:
        continue
    rep, obs, rc = got
    c = checkjson.Checker(quiet=True)
    observer.compare(c, rep, obs, rc)
    ops = obs["ops"]
    tries = ops["link"]["done"] + ops["unlink"]["done"]
    dir_unchanged = ops["link"]["not_later"]["dir"] + ops["unlink"]["not_later"]["dir"]
    made, stored = set_made(rep)
    c.check(obs["iterations"] == 400 and tries == 1600, f"400 iterations, {tries} link/unlink ops")
    if PATCHED:
        c.check(obs["not_later_total"] == 0, f"patched: stat() saw no unchanged ctime "
                f"({obs['not_later_total']}, directory after link/unlink: {dir_unchanged})")
        c.check(rep["verdict"] == "PASS" and rc == 0, f"patched: PASS (verdict {rep['verdict']}, exit {rc})")
    else:
        c.check(2 * dir_unchanged > tries, f"unpatched: the directory unchanged after most "
                f"link/unlink ops ({dir_unchanged} of {tries})")
        c.check(rep["verdict"] == "FAIL" and stored > 0 and made == stored,
                f"unpatched: FAIL, every stored violation set by inode_set_ctime_to_ts "
                f"({made} of {stored}; verdict {rep['verdict']})")
    print(f"# {label} {name}: libfs={'patched' if PATCHED else 'mainline'} directory unchanged "
          f"after link {ops['link']['not_later']['dir']}/{ops['link']['done']}, unlink "
          f"{ops['unlink']['not_later']['dir']}/{ops['unlink']['done']}; file "
          f"{ops['link']['not_later']['file'] + ops['unlink']['not_later']['file']}; observer total "
          f"{obs['not_later_total']}; check {rep['verdict']} "
          f"{rep['invariants']['not_later_after_query']['violations']} not_later_after_query "
          f"({made} of {stored} stored set-made)")
    report(name, c)

# check --known with the shipped file over the same workload: unpatched, every violation is
# the known fault and the run passes (exit 0) with them counted; patched, none to match; an
# injected regression (MGTRACE_TEST_INJECT=1) fails the run all the same
for name, inject in (("dirctime-known", False), ("dirctime-known-inject", True)):
    got = load_observed(name)
    if got is None:
        continue
    rep, obs, rc = got
    c = checkjson.Checker(quiet=True)
    nl = rep["invariants"]["not_later_after_query"]
    kf = rep.get("known_faults") or {}
    ent = (kf.get("faults") or [{}])[0]
    c.check(ent.get("id") == "tmpfs-dir-ctime" and ent.get("applies") is True,
            f"the shipped entry applies to this kernel ({rep['kernel_release']}): {ent.get('applies')}")
    if inject:
        c.check(rc == 1 and rep["verdict"] == "FAIL" and
                rep["invariants"]["ctime_regression"]["violations"] >= 1,
                f"an injected regression fails despite --known (verdict {rep['verdict']}, exit {rc})")
    elif PATCHED:
        c.check(rc == 0 and rep["verdict"] == "PASS" and nl["known"] == 0 and nl["violations"] == 0,
                f"patched: PASS with nothing to match ({nl['violations']} violations, {nl['known']} known)")
    else:
        c.check(rc == 0 and rep["verdict"] == "PASS" and nl["known"] == nl["violations"] > 0 and
                kf.get("matched") == nl["known"] and obs["not_later_total"] > 0,
                f"unpatched: PASS, every violation the known fault ({nl['known']} of "
                f"{nl['violations']}, observer {obs['not_later_total']}; verdict {rep['verdict']}, exit {rc})")
    print(f"# {label} {name}: verdict {rep['verdict']} exit {rc}; not_later_after_query "
          f"{nl['violations']}, known {nl['known']}; observer {obs['not_later_total']}")
    report(name, c)

# check's text report around the reproducer (tracepoint): the violation names the set
got = load_text("dirctime-text")
if got is not None:
    c = checkjson.Checker(quiet=True)
    text, rc = got
    # each distinct kernel stack once, under its first violation (issue 41): frames through
    # fs/libfs.c or shmem where the fault is, none where it is patched
    stacks = [ln for ln in text.splitlines() if ln.startswith("  kernel stack #") and ", of " in ln]
    frames = [ln.split()[1] for ln in text.splitlines() if ln.startswith("    0x") and len(ln.split()) > 1]
    faulty = [f for f in frames if f.split("+")[0] in LIBFS_FUNCS or f.startswith("shmem_")]
    if PATCHED:
        c.check(rc == 0 and "verdict: PASS" in text and SET_TEXT not in text,
                f"patched: check's text says PASS and names no set (exit {rc})")
        c.check(not stacks and not faulty, f"patched: no kernel stack shown ({len(stacks)})")
    else:
        c.check(rc == 1 and "verdict: FAIL" in text and SET_TEXT in text,
                f"unpatched: check's text says FAIL and '{SET_TEXT}' (exit {rc})")
        # BPF's own machinery (the program, bpf_trace_run, a trampoline) is left out: no
        # stack begins with a BPF frame. Below the first kernel frame the unwinder may read a
        # stale return address of a BPF program (mainline-7.2, 2026-12-07: three frames named
        # after a program loaded after the event): shown, each saying so
        lines = text.splitlines()
        first = [lines[i + 1].split()[1] for i, ln in enumerate(lines[:-1])
                 if ln in stacks and lines[i + 1].startswith("    0x") and len(lines[i + 1].split()) > 1]
        under = [ln for ln in lines if ln.startswith("    0x") and " bpf_prog_" in ln
                 and ln.split()[1] not in first]
        c.check(stacks and faulty and len(first) == len(stacks) and
                not any(f.startswith(("bpf_prog_", "bpf_trace_run", "__bpf_trace_", "bpf_trampoline_"))
                        for f in first) and
                all("(a BPF program under kernel frames:" in ln for ln in under),
                f"unpatched: {len(stacks)} distinct kernel stacks, frames through fs/libfs.c or "
                f"shmem ({sorted(set(f.split('+')[0] for f in faulty))}), none beginning with "
                f"BPF's own ({sorted(set(first))}); {len(under)} BPF frame(s) under kernel "
                f"frames, each marked")
    line = next((ln.strip() for ln in text.splitlines() if SET_TEXT in ln), "")
    print(f"# {label} dirctime-text: exit {rc}; first violation line: {line[:300]}; "
          f"{len(stacks)} kernel stacks, through {sorted(set(f.split('+')[0] for f in faulty))}")
    report("dirctime-text", c)

# trace of one iteration on the directory: unpatched, its ctime is set (ctime_set) over the
# QUERIED value; patched, every directory change is a ctime_swap and no ctime_set names it
got = load_text("dirctime-trace")
if got is not None:
    c = checkjson.Checker(quiet=True)
    text, rc = got
    rows = [ln for ln in text.splitlines() if " mgtrace-tr " in ln]
    sets = [ln for ln in rows if " ctime_set " in ln]
    c.check(rc == 0 and rows, f"trace exit {rc}, {len(rows)} events on the directory")
    if PATCHED:
        c.check(not sets, f"patched: no ctime_set on the directory ({len(sets)})")
    else:
        c.check(len(sets) >= 3 and all("(QUERIED)" in ln for ln in sets),
                f"unpatched: link, unlink, rename-over each set the QUERIED directory ({len(sets)})")
    print(f"# {label} dirctime-trace: {len(rows)} directory events, {len(sets)} ctime_set")
    report("dirctime-trace", c)

# the reproducer alone: its own counts (create, which stamps the directory itself, is the
# control: 0 unchanged everywhere; ext4 0 for every op)
for fs in ("tmpfs", "ext4"):
    name = f"repro-{fs}"
    objs = load(name)
    if objs is None:
        continue
    c = checkjson.Checker(quiet=True)
    ops = {o["op"]: o for o in objs if o.get("type") == "repro"}
    if not c.check(set(ops) == {"create", "link", "unlink", "rename-over"}, f"four ops: {sorted(ops)}"):
        report(name, c)
        continue
    c.check(ops["create"]["unchanged"] == 0, f"create: {ops['create']['unchanged']} unchanged")
    for op in ("link", "unlink", "rename-over"):
        o = ops[op]
        if PATCHED or fs == "ext4":
            c.check(o["unchanged"] == 0, f"{op}: {o['unchanged']} of {o['done']} unchanged, want 0")
        else:
            c.check(2 * o["unchanged"] > o["done"], f"{op}: unchanged in most tries "
                    f"({o['unchanged']} of {o['done']})")
    print(f"# {label} {name}: " + ", ".join(f"{k} {v['unchanged']}/{v['done']}" for k, v in ops.items()))
    report(name, c)

# cross-file ordering over link and unlink (tests/mgorder.c): none, and the doctored run fails
for name, doctored in (("order-tmpfs", False), ("order-tmpfs-doctored", True)):
    objs = load(name)
    o = next((x for x in objs or [] if x.get("type") == "order"), None)
    if o is None:
        if objs is not None:
            print(f"FAIL {label}/{name}: no order line")
        continue
    c = checkjson.Checker(quiet=True)
    # every op but those begun before any op ended (at most one per thread) has one to be judged by
    c.check(o["doctored"] == doctored and o["ops"] > 0 and
            o["ops"] - o["threads"] <= o["judged"] <= o["ops"] - 1,
            f"{o['judged']} of {o['ops']} ops judged against the ops that ended before them")
    if doctored:
        c.check(o["violations"] >= 1, f"the doctored op is reported ({o['violations']})")
    else:
        c.check(o["violations"] == 0, f"no op earlier than one that ended before it ({o['violations']}: {o['first']})")
    print(f"# {label} {name}: ops={o['ops']} judged={o['judged']} violations={o['violations']}")
    report(name, c)

def judge_set_made(name, min_sets=0, max_sets=None, require_fail=True):
    """A check --tree run over a workload whose directory links and unlinks on tmpfs copy a
    time (simple_link, __simple_unlink): unpatched FAIL with every stored violation set by
    inode_set_ctime_to_ts, patched PASS; at least min_sets ctime_set events judged. A
    skip record (the kernel lacks what the workload needs) is a SKIP line."""
    objs = load(name)
    skip = next((x for x in objs or [] if x.get("type") == "skip"), None)
    if skip is not None:
        print(f"SKIP {label}/{name}: {skip['reason']}")
        return
    r = next((x for x in objs or [] if x.get("type") == "check"), None)
    if r is None:
        if objs is not None:
            print(f"FAIL {label}/{name}: no check report")
        return
    c = checkjson.Checker(quiet=True)
    rc = next((x["rc"] for x in objs if x.get("type") == "exit"), None)
    c.check(rc == r["exit_code"], f"check exited {rc}, its report says {r['exit_code']}")
    made, stored = set_made(r)
    inv = r["invariants"]
    nviol = sum(inv[k]["violations"] for k in observer.VIOLATION_KINDS)
    c.check(r["lost_events"] == 0 and inv["untracked_events"] == 0, "nothing lost or untracked")
    sets = inv["events_by_kind"].get("ctime_set", 0)
    if min_sets:
        c.check(sets >= min_sets, f"the workload was judged: {sets} ctime_set events (at least {min_sets})")
    if max_sets is not None:
        c.check(sets <= max_sets, f"{sets} ctime_set events (at most {max_sets})")
    if PATCHED:
        checkjson.check_check(c, [r], verdict="PASS", builtin=False)
    elif not require_fail:
        c.check(made == stored and (r["verdict"] == "FAIL") == (stored > 0),
                f"unpatched: every stored violation set by inode_set_ctime_to_ts ({made} of "
                f"{stored}; verdict {r['verdict']})")
    else:
        c.check(r["verdict"] == "FAIL" and stored > 0 and made == stored,
                f"unpatched: FAIL, every stored violation set by inode_set_ctime_to_ts "
                f"({made} of {stored}; verdict {r['verdict']})")
    print(f"# {label} {name}: libfs={'patched' if PATCHED else 'mainline'} verdict={r['verdict']} "
          f"violations={nviol} ({made} of {stored} stored set-made) events={inv['events_by_kind']}")
    report(name, c)


# busybox tar x over an existing tree on tmpfs, and overlayfs copy-ups into a tmpfs upper
# layer (the copy-up queries the upper directory itself, then links the copy into it), with
# each backend
for be in ("fentry", "kprobe", "tracepoint"):
    judge_set_made(f"tar-{be}-tmpfs")
# 300 copy-ups: unpatched, simple_link() copies a time onto the upper directory in each (3
# ctime_set events a copy-up, 903 with the directories'), patched it stamps it (2 a copy-up).
# Whether a copied time is a violation depends on the coarse clock not ticking between the
# copy-up's getattr and its link: under amd64 TCG 51 to 78 of 100 were; under arm64 TCG (several
# times slower) 0 to 111 of 300, so there FAIL is not required, only that every violation is
# the copied time
for be in ("fentry", "kprobe", "tracepoint"):
    judge_set_made(f"overlay-{be}-tmpfs", min_sets=600 if PATCHED else 900,
                   max_sets=620 if PATCHED else None,
                   require_fail=os.environ.get("MGTEST_ARCH") != "arm64")

# arm64 guests (MGTEST_ARCH=arm64, issue 30): `mgtrace clocks` classifies each clock by the
# clock_gettime system calls a BPF tp_btf sys_enter program counted: served_by "syscall"
# exactly when every call was one, "vdso" when none was; the clocksource is named
if os.environ.get("MGTEST_ARCH") == "arm64":
    objs = load("clocks")
    r = next((x for x in objs or [] if x.get("type") == "clocks"), None)
    c = checkjson.Checker(quiet=True)
    c.check(r is not None, "a clocks object")
    if r is not None:
        c.check(bool(r.get("clocksource")), f"a clocksource ({r.get('clocksource')})")
        names = {k["name"] for k in r["clocks"]}
        c.check({"CLOCK_REALTIME", "CLOCK_REALTIME_COARSE", "CLOCK_MONOTONIC"} <= names,
                f"CLOCK_REALTIME, _COARSE and CLOCK_MONOTONIC measured ({sorted(names)})")
        for k in r["clocks"]:
            want = "syscall" if k["syscalls"] >= k["calls"] else "vdso" if k["syscalls"] == 0 else None
            c.check(k["served_by"] == want, f"{k['name']}: served_by {k['served_by']} with "
                    f"{k['syscalls']} system calls in {k['calls']} calls")
        print(f"# {label} clocks: clocksource={r['clocksource']} available={r['available_clocksources']} "
              + " ".join(f"{k['name']}={k['served_by']}" for k in r["clocks"]))
    report("clocks", c)

conform_checks()
