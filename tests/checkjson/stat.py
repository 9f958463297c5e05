# SPDX-License-Identifier: GPL-2.0
"""stat.py - `mgtrace stat --json`: the summary's counters and their debugfs brackets,
the intervals of -I, and the zero-cost default.

Subcommands: stat, intervals, interval-sums, zero-default, counter-min, widest-bracket,
checked-against.
"""
import json

from .checker import Checker, cp, load_lines, opt, selftest_cases, subcommand, summary_of

KERNEL_COUNTERS = ("ctime_updates", "ctime_swaps", "fine_stamps", "floor_swaps")


def in_bracket(row):
    """The row's total lies in its debugfs bracket [low, high]."""
    br = row.get("debugfs_bracket")
    return br is not None and row["total"] is not None and br["low"] <= row["total"] <= br["high"]


def check_brackets(c, where, ctr):
    """Every compared row: a well-formed bracket, and match/match_kind agreeing with it."""
    for name, row in ctr.items():
        if "match" not in row:
            continue
        br = row.get("debugfs_bracket")
        if not c.check(isinstance(br, dict) and br["width"] == br["high"] - br["low"] >= 0
                       and row.get("kernel_debugfs") == br["high"],
                       f"{where} {name}: bracket {br} well formed, kernel_debugfs is its high"):
            continue
        kind = ("outside" if not in_bracket(row) else "exact" if br["width"] == 0 else "within")
        c.check(row["match"] == in_bracket(row) and row.get("match_kind") == kind,
                f"{where} {name}: {row['total']} in [{br['low']}, {br['high']}] is "
                f"{in_bracket(row)}: match {row['match']}, match_kind {row.get('match_kind')} ({kind})")


def kpc_word(meth):
    """The match word of a kernel per-CPU reading no debugfs judged, from kernel_per_cpu:
    start (the BTF-offset reader, validated at the start) or ksym (typed per-CPU ksyms)."""
    meth = meth or ""
    return "start" if "validated at start" in meth else "ksym" if meth == "per-CPU ksym" else None


def check_checked_against(c, where, o):
    """issue 26: a kernel per-CPU row no debugfs bracket judged says what its figure was
    checked against instead (checked_against, agreeing with kernel_per_cpu), never beside a
    debugfs match, never on another source, and never silent."""
    want = kpc_word(o.get("kernel_per_cpu"))
    for name, row in o.get("counters", {}).items():
        ca = row.get("checked_against")
        if ca is not None:
            c.check(row["source"] == "kernel" and "match" not in row and ca == want,
                    f"{where} {name}: checked_against {ca} on a {row['source']} row "
                    f"(match {row.get('match')}; kernel_per_cpu {o.get('kernel_per_cpu')!r}: {want})")
        elif row["source"] == "kernel" and row.get("per_cpu") is not None:
            c.check("match" in row, f"{where} {name}: a kernel per-CPU reading neither compared "
                    f"with debugfs nor saying what it was checked against")


@subcommand("checked-against", lambda a: (open(a[0]).read(), open(a[1]).read(), load_lines(a[2]),
                                          a[3]))
def check_checked_against_outputs(c, text, csv_text, objs, want):
    """checked-against TEXT CSV JSON WORD: stat's text summary, its -x , lines and its JSON,
    each run without debugfs: every kernel row's match column, -x MATCH field and JSON
    checked_against is WORD (start, ksym), the text explains WORD under the table, and no
    kernel row claims a debugfs match (yes, within, NO) anywhere."""
    rows = [ln.split() for ln in text.splitlines()
            if ln.split()[:1] and ln.split()[0] in KERNEL_COUNTERS and len(ln.split()) >= 6]
    kern = [r for r in rows if r[2] == "kernel"]
    c.check(len(kern) == len(KERNEL_COUNTERS) and all(r[4] == want for r in kern),
            f"text: the {len(KERNEL_COUNTERS)} kernel rows' match column says {want}: "
            f"{[(r[0], r[4]) for r in kern]}")
    c.check(any(ln.startswith(want + ": ") for ln in text.splitlines()),
            f"text: a line under the table explains {want}")
    lines = [ln.split(",") for ln in csv_text.splitlines() if ln.count(",") == 11]
    kcsv = [f for f in lines if f[7] == "kernel"]
    c.check(len(kcsv) == len(KERNEL_COUNTERS) and all(f[10] == want and f[8] == f[9] == "" for f in kcsv),
            f"-x: the kernel lines' MATCH is {want}, no debugfs range: {[(f[2], f[8], f[10]) for f in kcsv]}")
    s = summary_of(objs) or {}
    ctr = s.get("counters", {})
    c.check(all(ctr.get(k, {}).get("checked_against") == want and "match" not in ctr.get(k, {})
                for k in KERNEL_COUNTERS),
            f"JSON: checked_against {want}, no match: "
            f"{[(k, ctr.get(k, {}).get('checked_against'), ctr.get(k, {}).get('match')) for k in KERNEL_COUNTERS]}")
    check_checked_against(c, "JSON", s)


def check_stat(c, objs, backend=None, funcs=False, kernel_percpu=False,
               min_floor=1, min_stat=1, exact_kernel=False, expect_no=None, allow_misses=False):
    """allow_misses: a BPF count short of its debugfs bracket by at most the runs the
    kernel reports skipped (bpf_recursion_misses) passes."""
    s = summary_of(objs)
    if not c.check(s is not None, "stat output has a summary object"):
        return
    c.check("bpf_recursion_misses" in s, "stat reports the kernel's skipped program runs")
    misses = s.get("bpf_recursion_misses", 0) if allow_misses else 0
    c.check(s.get("schema_version") == 1, "schema_version is 1")
    ctr = s["counters"]
    nr = s["nr_cpus"]
    if backend:
        c.check(s["backend"] == backend, f"backend is {backend} (got {s['backend']})")
    # every counter says where it came from, and per-CPU values sum to the totals
    for name, row in ctr.items():
        c.check(row["source"] in ("bpf", "kernel", "derived", "unavailable"),
                f"{name}: source {row['source']} is known")
        if row["source"] == "unavailable":
            c.check(row["total"] is None and bool(row.get("unavailable")),
                    f"{name}: unavailable has no value and a reason")
        # a count is never below 0; a derived row says whether it is exact
        c.check(row["total"] is None or row["total"] >= 0, f"{name}: total {row['total']} >= 0")
        c.check(all(v >= 0 for v in row["per_cpu"] or []), f"{name}: per-CPU values >= 0")
        if row["source"] == "derived":
            c.check(isinstance(row.get("approximate"), bool)
                    and (not row["approximate"] or bool(row.get("approximate_why"))),
                    f"{name}: derived, exact or approximate with the reason")
        if row["per_cpu"] is not None:
            c.check(len(row["per_cpu"]) == nr and sum(row["per_cpu"]) == row["total"],
                    f"{name}: {nr} per-CPU values sum to the total {row['total']}")
        elif row["source"] != "unavailable":
            c.check(bool(row.get("unavailable")), f"{name}: missing per-CPU values are explained")
    check_brackets(c, "summary", ctr)
    check_checked_against(c, "summary", s)
    # the BPF ctime_swaps count lies in the kernel's own counter's bracket for the same
    # window (equals it where the bracket has width 0); with expect_no, every row but that
    # one does, and that one lies outside
    for k in KERNEL_COUNTERS if exact_kernel or expect_no else ("ctime_swaps",):
        row = ctr[k]
        br = row.get("debugfs_bracket") or {}
        if k == expect_no:
            c.check(row.get("match") is False and not in_bracket(row),
                    f"{k}: doctored {row['source']} {row['total']} outside [{br.get('low')}, "
                    f"{br.get('high')}]: match NO")
        elif misses and row["source"] == "bpf" and row["total"] is not None and br:
            c.check(br["low"] - misses <= row["total"] <= br["high"],
                    f"{k}: bpf {row['total']} in debugfs [{br['low']}, {br['high']}] less at most "
                    f"the {misses} skipped program runs")
        else:
            c.check(in_bracket(row) and row.get("match") is True,
                    f"{k}: {row['source']} {row['total']} in debugfs [{br.get('low')}, {br.get('high')}]")
    sw = ctr["ctime_swaps"]
    if s.get("backend") == "kernel":
        # the zero-cost default: the four from the kernel's per-CPU counters, no probe; the
        # event-only counters are counted only when opted in, else say how to opt in
        for k in KERNEL_COUNTERS:
            c.check(ctr[k]["source"] == "kernel" and ctr[k]["per_cpu"] is not None,
                    f"{k} from the kernel's per-CPU counters ({ctr[k]['source']})")
        for k in ("stat_queries", "ctime_skips", "ctime_sets"):
            row = ctr.get(k) or {"source": "bpf"}
            if row["source"] == "unavailable":
                c.check("opt in with -e " + k in (row.get("unavailable") or ""),
                        f"{k} not opted in: unavailable, says how to opt in")
            else:
                c.check(row["source"] == "bpf", f"{k} opted in: counted by BPF")
    else:
        c.check(sw["source"] == "bpf", "ctime_swaps counted by BPF")
    if funcs:
        for k in ("ctime_updates", "fine_stamps"):
            c.check(ctr[k]["source"] == "bpf", f"{k} counted by BPF function probes")
    fl = ctr["floor_swaps"]
    c.check(fl["source"] == "kernel" and (fl["total"] or 0) >= min_floor,
            f"floor_swaps from the kernel counter: {fl['total']} >= {min_floor}")
    if kernel_percpu:
        c.check(fl["per_cpu"] is not None and ("ksym" in fl["detail"] or "BTF offsets" in fl["detail"]),
                f"floor_swaps per CPU from the kernel's per-CPU counter ({fl['detail']})")
    sq = ctr["stat_queries"]
    if not (s.get("backend") == "kernel" and sq["source"] == "unavailable"):
        c.check((sq["total"] or 0) >= min_stat, f"stat_queries {sq['total']} >= {min_stat}")
    if any("match" in r for r in ctr.values()):
        c.check(s["mismatches"] == sum(1 for r in ctr.values() if r.get("match") is False),
                "mismatches counts the rows whose match is false")
    else:   # nothing compared (process scope): no 0 that stands for "nothing compared"
        c.check(s["mismatches"] is None and bool(s.get("mismatches_unavailable")),
                f"no row compared with debugfs: mismatches null, with why "
                f"({s['mismatches']!r}, {s.get('mismatches_unavailable')!r})")


@subcommand("interval-sums", lambda a: (load_lines(a[0]),))
def check_interval_sums(c, objs):
    """stat -I: every counter's interval rows add up to the summary exactly (the summary
    window is the intervals': it ends at the last one when COUNT ended the run). A derived
    row printed as 0 for a difference below 0 counts with its raw_difference."""
    iv = [o for o in objs if o.get("type") == "interval"]
    s = summary_of(objs)
    if not c.check(iv and s and "counters" in s, f"{len(iv)} intervals and a summary"):
        return

    def val(r):
        return r.get("raw_difference", r.get("total"))
    off = {k: (sum(val(o["counters"][k]) for o in iv), val(r))
           for k, r in s["counters"].items() if isinstance(val(r), int) and
           all(isinstance(val(o["counters"].get(k, {})), int) for o in iv)}
    bad = {k: v for k, v in off.items() if v[0] != v[1]}
    c.check(off and not bad, f"every counter's {len(iv)} interval rows add up to the summary "
            f"exactly ({len(off)} counters; off (rows, summary): {bad})")


@subcommand("intervals", lambda a: (load_lines(a[0]), int(a[1]), "--match" in a[2:],
                                  opt(a[2:], "--expect-no")))
def check_intervals(c, objs, n, match=False, expect_no=None):
    """N intervals and a summary; with match, every compared row of each lies in its
    bracket (but expect_no, which must lie outside in each)."""
    iv = [o for o in objs if o.get("type") == "interval"]
    c.check(len(iv) == n, f"{n} interval objects (got {len(iv)})")
    c.check(summary_of(objs) is not None, "a final summary object follows the intervals")
    c.check([o["interval"] for o in iv] == list(range(1, len(iv) + 1)), "intervals are numbered 1..N")
    if not (match or expect_no):
        return
    for o in iv + [summary_of(objs) or {"counters": {}}]:
        where = f"interval {o['interval']}" if o.get("type") == "interval" else "summary"
        check_brackets(c, where, o["counters"])
        check_checked_against(c, where, o)
        rows = {k: r for k, r in o["counters"].items() if "match" in r}
        c.check(len(rows) == len(KERNEL_COUNTERS), f"{where}: {len(rows)} rows compared with debugfs")
        for k, r in rows.items():
            br = r["debugfs_bracket"]
            want = k != expect_no
            c.check(r["match"] is want and in_bracket(r) == want,
                    f"{where} {k}: {r['total']} {'in' if want else 'outside'} [{br['low']}, "
                    f"{br['high']}] (width {br['width']})")
        c.check(o["mismatches"] == sum(1 for r in rows.values() if r["match"] is False),
                f"{where}: mismatches counts the rows outside their bracket")


@subcommand("zero-default", lambda a: (load_lines(a[0]),))
def check_zero_default(c, objs):
    """stat's zero-cost default around stress: counted, the event rows say how to opt in."""
    s = summary_of(objs)
    cn = s["counters"] if s else {}
    up = (cn.get("ctime_updates") or {}).get("total")
    c.check(isinstance(up, int) and up >= 1000, f"zero-default: stress counted: ctime_updates {up} >= 1000")
    for k in ("stat_queries", "ctime_skips", "ctime_sets"):
        r = cn.get(k) or {}
        c.check(r.get("total") is None and "opt in with -e " + k in (r.get("unavailable") or ""),
                f"zero-default: {k} not counted (total {r.get('total')}), says how to opt in: "
                f"{r.get('unavailable')!r}")
    f, fs, sw = [(cn.get(k) or {}).get("total") for k in ("floor_cmpxchg_fails", "fine_stamps", "floor_swaps")]
    c.check(None not in (f, fs, sw) and f == fs - sw,
            f"zero-default: floor_cmpxchg_fails {f} = fine_stamps {fs} - floor_swaps {sw}")


@subcommand("counter-min", lambda a: (load_lines(a[0]), a[1], int(a[2])))
def check_counter_min(c, objs, row, n):
    """The summary's ROW total is at least N (a workload really ran in the window)."""
    s = summary_of(objs)
    t = ((s or {}).get("counters", {}).get(row) or {}).get("total")
    c.check(isinstance(t, int) and t >= n, f"summary {row}: {t} >= {n}")


@subcommand("widest-bracket", lambda a: (load_lines(a[0]),), checker=False)
def widest_bracket(objs):
    """The widest debugfs bracket of any row in any object of stat --json (-1: none)."""
    return max([r["debugfs_bracket"]["width"] for o in objs for r in o.get("counters", {}).values()
                if "debugfs_bracket" in r] or [-1])


@subcommand("stat")
def stat_command(c, a):
    """stat FILE [--expect-backend B] [--funcs] [--kernel-percpu] [--min-floor-swaps N]
    [--min-stat-queries N] [--exact-kernel] [--expect-no ROW]: check_stat()."""
    opts = a[1:]
    kw = {"funcs": "--funcs" in opts, "kernel_percpu": "--kernel-percpu" in opts,
          "exact_kernel": "--exact-kernel" in opts}
    for flag, key in (("--expect-backend", "backend"), ("--min-floor-swaps", "min_floor"),
                      ("--min-stat-queries", "min_stat"), ("--expect-no", "expect_no")):
        if flag in opts:
            v = opts[opts.index(flag) + 1]
            kw[key] = v if key in ("backend", "expect_no") else int(v)
    check_stat(c, load_lines(a[0]), **kw)


@selftest_cases
def selftest_stat(results):
    """check_stat on a clean summary and on doctored ones; the intervals; the
    zero-cost default and the counters' minimum."""
    run = results.run
    ok = Checker(quiet=True)
    good = {"type": "summary", "schema_version": 1, "backend": "tracepoint", "nr_cpus": 2,
            "mismatches": 0, "bpf_recursion_misses": 0, "counters": {
                "ctime_updates": {"source": "kernel", "detail": "debugfs", "total": 10,
                                  "per_cpu": None, "unavailable": "x", "kernel_debugfs": 12,
                                  "debugfs_bracket": {"low": 9, "high": 12, "width": 3},
                                  "match": True, "match_kind": "within"},
                "ctime_swaps": {"source": "bpf", "detail": "tp", "total": 7, "per_cpu": [3, 4],
                                "kernel_debugfs": 7, "debugfs_bracket": {"low": 7, "high": 7, "width": 0},
                                "match": True, "match_kind": "exact"},
                "fine_stamps": {"source": "kernel", "detail": "d", "total": 5, "per_cpu": None,
                                "unavailable": "x", "kernel_debugfs": 5,
                                "debugfs_bracket": {"low": 5, "high": 5, "width": 0},
                                "match": True, "match_kind": "exact"},
                "floor_swaps": {"source": "kernel", "detail": "d", "total": 4, "per_cpu": None,
                                "unavailable": "x", "kernel_debugfs": 4,
                                "debugfs_bracket": {"low": 4, "high": 4, "width": 0},
                                "match": True, "match_kind": "exact"},
                "stat_queries": {"source": "bpf", "detail": "tp", "total": 9, "per_cpu": [4, 5]},
                "floor_cmpxchg_fails": {"source": "derived", "detail": "fine_stamps - floor_swaps",
                                        "total": 1, "per_cpu": None, "unavailable": "x",
                                        "approximate": False},
                "current_time": {"source": "unavailable", "detail": "", "total": None,
                                 "per_cpu": None, "unavailable": "needs --hot"}}}
    check_stat(ok, [good], backend="tracepoint", exact_kernel=True)
    results.append(("clean summary passes", not ok.failures))

    def must_fail(label, mutate, **kw):
        bad = json.loads(json.dumps(good))
        mutate(bad)
        c = Checker(quiet=True)
        check_stat(c, [bad], **kw)
        results.append((f"fails on {label}", bool(c.failures)))

    must_fail("bpf ctime_swaps one short of debugfs",
              lambda b: b["counters"]["ctime_swaps"].update(total=6, per_cpu=[3, 3]))
    must_fail("per-CPU values not summing to the total",
              lambda b: b["counters"]["ctime_swaps"].update(per_cpu=[3, 5]))
    must_fail("no floor swaps", lambda b: b["counters"]["floor_swaps"].update(
        total=0, kernel_debugfs=0, debugfs_bracket={"low": 0, "high": 0, "width": 0}))
    must_fail("floor swaps not from the kernel", lambda b: b["counters"]["floor_swaps"].update(source="bpf"))
    must_fail("no stat queries", lambda b: b["counters"]["stat_queries"].update(total=0, per_cpu=[0, 0]))
    # the zero-cost default (backend kernel)
    kgood = json.loads(json.dumps(good))
    kgood["backend"] = "kernel"
    for k in ("ctime_updates", "fine_stamps", "floor_swaps", "ctime_swaps"):
        kgood["counters"][k].update(source="kernel", per_cpu=[kgood["counters"][k]["total"], 0])
        kgood["counters"][k].pop("unavailable", None)
    kgood["counters"]["stat_queries"] = {
        "source": "unavailable", "detail": "tp", "total": None, "per_cpu": None,
        "unavailable": "not counted: opt in with -e stat_queries (or -e all)"}
    kc = Checker(quiet=True)
    check_stat(kc, [kgood], backend="kernel", exact_kernel=True)
    results.append(("clean zero-cost summary passes", not kc.failures))

    def must_fail_k(label, mutate):
        bad = json.loads(json.dumps(kgood))
        mutate(bad)
        c = Checker(quiet=True)
        check_stat(c, [bad], backend="kernel", exact_kernel=True)
        results.append((f"fails on {label}", bool(c.failures)))

    must_fail_k("zero-cost: ctime_swaps from a BPF probe",
                lambda b: b["counters"]["ctime_swaps"].update(source="bpf"))
    must_fail_k("zero-cost: a silent 0 for stat_queries not opted in",
                lambda b: b["counters"]["stat_queries"].update(source="bpf", total=0, per_cpu=[0, 0]))
    must_fail_k("zero-cost: stat_queries unavailable without saying how to opt in",
                lambda b: b["counters"]["stat_queries"].update(unavailable="not counted"))
    must_fail("a negative derived count", lambda b: b["counters"]["floor_cmpxchg_fails"].update(
        total=-9))
    must_fail("a negative per-CPU value", lambda b: b["counters"]["stat_queries"].update(
        total=9, per_cpu=[10, -1]))
    must_fail("a derived row without its exactness", lambda b: b["counters"][
        "floor_cmpxchg_fails"].pop("approximate"))
    must_fail("an approximate derived row without the reason", lambda b: b["counters"][
        "floor_cmpxchg_fails"].update(approximate=True))
    must_fail("an unavailable counter without a reason",
              lambda b: b["counters"]["current_time"].pop("unavailable"))
    must_fail("a silent zero: unavailable with a value",
              lambda b: b["counters"]["current_time"].update(total=0))
    must_fail("a kernel counter off by one (exact mode)",
              lambda b: b["counters"]["fine_stamps"].update(total=6), exact_kernel=True)
    must_fail("a kernel counter one above its bracket, though marked as a match",
              lambda b: b["counters"]["ctime_updates"].update(total=13), exact_kernel=True)
    must_fail("ctime_swaps outside its bracket and marked NO",
              lambda b: (b["counters"]["ctime_swaps"].update(total=8, per_cpu=[4, 4], match=False,
                                                              match_kind="outside"), b.update(mismatches=1)))
    must_fail("a bracket whose width is not high - low",
              lambda b: b["counters"]["ctime_updates"]["debugfs_bracket"].update(width=2))
    must_fail("kernel_debugfs other than the bracket's high",
              lambda b: b["counters"]["ctime_updates"].update(kernel_debugfs=10))
    must_fail("match_kind exact on a bracket of width 3",
              lambda b: b["counters"]["ctime_updates"].update(match_kind="exact"))
    must_fail("a doctored row expected NO that matches", lambda b: None, expect_no="ctime_swaps")
    must_fail("a doctored row NO but another row outside too",
              lambda b: (b["counters"]["ctime_swaps"].update(total=8, per_cpu=[4, 4], match=False,
                                                              match_kind="outside"),
                         b["counters"]["fine_stamps"].update(total=6, match=False, match_kind="outside"),
                         b.update(mismatches=2)), expect_no="ctime_swaps")
    doctored = json.loads(json.dumps(good))
    doctored["counters"]["ctime_swaps"].update(total=8, per_cpu=[4, 4], match=False, match_kind="outside")
    doctored["mismatches"] = 1
    c = Checker(quiet=True)
    check_stat(c, [doctored], expect_no="ctime_swaps")
    results.append(("a doctored row outside its bracket passes --expect-no", not c.failures))
    must_fail("the wrong backend", lambda b: None, backend="fentry")
    must_fail("function probes expected", lambda b: None, funcs=True)
    must_fail("kernel per-CPU expected", lambda b: None, kernel_percpu=True)
    must_fail("a miscounted mismatches field", lambda b: b.update(mismatches=1))

    def uncompared(b, mm):      # process scope: no row compared with debugfs
        for r in b["counters"].values():
            for k in ("match", "match_kind", "kernel_debugfs", "debugfs_bracket"):
                r.pop(k, None)
        b["mismatches"] = mm
    must_fail("mismatches 0 where no row was compared (a silent zero)",
              lambda b: uncompared(b, 0))
    must_fail("no summary", lambda b: b.update(type="interval"))
    must_fail("no bpf_recursion_misses field", lambda b: b.pop("bpf_recursion_misses"))
    # a shortfall is allowed only when covered by the runs the kernel reports skipped
    must_fail("bpf ctime_swaps short with no skipped runs (allow_misses)",
              lambda b: b["counters"]["ctime_swaps"].update(total=6, per_cpu=[3, 3]), allow_misses=True)
    must_fail("bpf ctime_swaps short by more than the skipped runs",
              lambda b: (b["counters"]["ctime_swaps"].update(total=5, per_cpu=[2, 3]),
                         b.update(bpf_recursion_misses=1)), allow_misses=True)
    must_fail("bpf ctime_swaps above debugfs, skipped runs or not",
              lambda b: (b["counters"]["ctime_swaps"].update(total=8, per_cpu=[4, 4]),
                         b.update(bpf_recursion_misses=3)), allow_misses=True)
    ok2 = Checker(quiet=True)
    covered = json.loads(json.dumps(good))
    covered["counters"]["ctime_swaps"].update(total=5, per_cpu=[2, 3], match=False, match_kind="outside")
    covered.update(bpf_recursion_misses=2, mismatches=1)
    check_stat(ok2, [covered], backend="tracepoint", exact_kernel=True, allow_misses=True)
    results.append(("a shortfall covered by skipped runs passes with allow_misses", not ok2.failures))

    # no debugfs (issue 26): kernel per-CPU rows say what they were checked against
    nd = json.loads(json.dumps(kgood))
    nd["kernel_per_cpu"] = "per-CPU via BTF offsets, validated at start (no debugfs: test)"
    nd.update(mismatches=None, mismatches_unavailable="no counter was compared with debugfs")
    for k in KERNEL_COUNTERS:
        for f in ("match", "match_kind", "kernel_debugfs", "debugfs_bracket"):
            nd["counters"][k].pop(f, None)
        nd["counters"][k]["checked_against"] = "start"
    for label, mutate, want_fail in (
            ("no debugfs: every kernel row checked against start", lambda b: None, False),
            ("no debugfs: a kernel per-CPU row saying nothing (a silent check)",
             lambda b: b["counters"]["fine_stamps"].pop("checked_against"), True),
            ("no debugfs: ksym where the reader was self-tested at start",
             lambda b: b["counters"]["floor_swaps"].update(checked_against="ksym"), True),
            ("no debugfs: checked_against beside a debugfs match",
             lambda b: b["counters"]["ctime_updates"].update(match=True), True),
            ("no debugfs: checked_against on a bpf row",
             lambda b: b["counters"]["stat_queries"].update(checked_against="start"), True)):
        b = json.loads(json.dumps(nd))
        mutate(b)
        c = Checker(quiet=True)
        check_checked_against(c, "summary", b)
        results.append((("fails on " if want_fail else "passes: ") + label,
                        bool(c.failures) == want_fail))
    text = ("counter                    total  source  debugfs  match  from\n"
            "ctime_updates                 10  kernel        -  start  mg_ctime_updates\n"
            "fine_stamps                    5  kernel        -  start  mg_fine_stamps\n"
            "floor_swaps                    4  kernel        -  start  timekeeping_mg_floor_swaps\n"
            "floor_cmpxchg_fails           ~1  derived       -  -      fine_stamps - floor_swaps\n"
            "ctime_swaps                    7  kernel        -  start  mg_ctime_swaps\n"
            "start: no debugfs to compare with; the reader ...\n")
    csv_text = "".join(f"{v},,{k},100,100.00,,,kernel,,,start,\n" for k, v in
                       (("ctime_updates", 10), ("fine_stamps", 5), ("floor_swaps", 4),
                        ("ctime_swaps", 7))) + "1,,floor_cmpxchg_fails,100,100.00,,,derived,,,,yes\n"
    run("checked-against: text, -x and JSON all say start", check_checked_against_outputs,
        text, csv_text, [nd], "start", want_fail=False)
    run("checked-against: a silent yes in the text", check_checked_against_outputs,
        text.replace("  start  mg_fine", "  yes    mg_fine"), csv_text, [nd], "start")
    run("checked-against: no legend under the table", check_checked_against_outputs,
        text.replace("start: no debugfs", "note"), csv_text, [nd], "start")
    run("checked-against: an empty -x MATCH", check_checked_against_outputs,
        text, csv_text.replace(",start,", ",,", 1), [nd], "start")
    run("checked-against: a -x debugfs range beside start", check_checked_against_outputs,
        text, csv_text.replace(",,,start,", ",10,10,start,", 1), [nd], "start")
    run("checked-against: the JSON's checked_against missing", check_checked_against_outputs,
        text, csv_text, [json.loads(json.dumps(nd).replace('"checked_against": "start"', '"x": 0'))],
        "start")
    run("checked-against: ksym wanted, start said", check_checked_against_outputs,
        text, csv_text, [nd], "ksym")

    c = Checker(quiet=True)
    check_intervals(c, [{"type": "interval", "interval": 1}, {"type": "summary"}], 2)
    results.append(("intervals: fails on a missing interval", bool(c.failures)))
    sums = [{"type": "interval", "interval": 1, "counters": {"a": {"total": 3}, "b": {"total": None},
                                                             "d": {"total": 1}}},
            {"type": "interval", "interval": 2, "counters": {"a": {"total": 4}, "b": {"total": 1},
                                                             "d": {"total": 0, "raw_difference": -1}}},
            {"type": "summary", "counters": {"a": {"total": 7}, "b": {"total": 2}, "d": {"total": 0}}}]
    c = Checker(quiet=True)
    check_interval_sums(c, sums)
    results.append(("interval-sums: rows that add up pass", not c.failures))
    sums[2]["counters"]["a"]["total"] = 8
    c = Checker(quiet=True)
    check_interval_sums(c, sums)
    results.append(("interval-sums: fails on a summary one above its rows", bool(c.failures)))
    ivs = [dict(good, type="interval", interval=1), dict(good, type="interval", interval=2), good]
    c = Checker(quiet=True)
    check_intervals(c, json.loads(json.dumps(ivs)), 2, match=True)
    results.append(("intervals: all rows in their brackets pass --match", not c.failures))
    for label, mutate, kw in (
            ("a row outside its bracket in interval 2",
             lambda o: (o[1]["counters"]["fine_stamps"].update(total=6, match=False, match_kind="outside"),
                        o[1].update(mismatches=1)), {"match": True}),
            ("a row outside its bracket marked as a match",
             lambda o: o[0]["counters"]["floor_swaps"].update(total=3), {"match": True}),
            ("a doctored row expected NO that matches", lambda o: None, {"expect_no": "ctime_swaps"}),
            ("a compared row missing", lambda o: o[0]["counters"]["ctime_swaps"].pop("match"),
             {"match": True})):
        bad_iv = json.loads(json.dumps(ivs))
        mutate(bad_iv)
        c = Checker(quiet=True)
        check_intervals(c, bad_iv, 2, **kw)
        results.append((f"intervals: fails on {label}", bool(c.failures)))
    zs = {"type": "summary", "counters": {
        "ctime_updates": {"total": 5000}, "fine_stamps": {"total": 30}, "floor_swaps": {"total": 20},
        "floor_cmpxchg_fails": {"total": 10},
        **{k: {"total": None, "unavailable": "not counted: opt in with -e " + k}
           for k in ("stat_queries", "ctime_skips", "ctime_sets")}}}
    run("zero-default: a clean summary", check_zero_default, [zs], want_fail=False)
    for label, mut in (("a silent 0 for ctime_skips", lambda s: s["counters"]["ctime_skips"].update(total=0)),
                       ("no opt-in hint", lambda s: s["counters"]["ctime_sets"].update(unavailable="n/a")),
                       ("floor_cmpxchg_fails not fine - swaps",
                        lambda s: s["counters"]["floor_cmpxchg_fails"].update(total=11)),
                       ("too few updates", lambda s: s["counters"]["ctime_updates"].update(total=999))):
        bad = cp(zs)
        mut(bad)
        run("zero-default: " + label, check_zero_default, [bad])
    run("counter-min: 5000 >= 5000", check_counter_min, [zs], "ctime_updates", 5000, want_fail=False)
    run("counter-min: 5000 < 10000", check_counter_min, [zs], "ctime_updates", 10000)
    run("counter-min: an unavailable row", check_counter_min, [zs], "ctime_sets", 0)
    results.append(("widest-bracket: the widest of all rows",
                    widest_bracket([{"counters": {"a": {"debugfs_bracket": {"width": 3}}, "b": {}}},
                                    {"counters": {"c": {"debugfs_bracket": {"width": 0}}}}]) == 3))
