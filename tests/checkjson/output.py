# SPDX-License-Identifier: GPL-2.0
"""output.py - mgtrace's output formats and what its options mean there: JSON lines,
stat -x CSV, scopes (-a, -p), the partial interval of -i, the end by -c, counts under load.

Subcommands: json-first-line, json-lines, counts-sane, scope, partial, stat-csv,
stat-csv-fields, count-ended, duration-ended, json-exact.
"""
import json
import os
import re
import tempfile

from .checker import cp, events_of, load_lines, selftest_cases, subcommand, summary_of


@subcommand("json-first-line", lambda a: (a[0],))
def check_json_first_line(c, path):
    """The file's first line is one JSON object."""
    try:
        with open(path) as f:
            o = json.loads(f.readline())
        c.check(isinstance(o, dict), f"{path}: the first line is a JSON object ({type(o).__name__})")
    except (ValueError, OSError) as e:
        c.check(False, f"{path}: the first line is not JSON: {e}")


# ---- issue 17: output that parses and says what holds; one meaning per option letter ----

@subcommand("json-lines", lambda a: (a[0], *a[1:2]))
def check_json_lines(c, path, typ=None):
    """Every line of path is a JSON object with a type; with typ, the last one has it."""
    try:
        objs = load_lines(path)
    except (ValueError, OSError) as e:
        c.check(False, f"{path}: not JSON lines: {e}")
        return
    c.check(bool(objs) and all(isinstance(o, dict) and "type" in o for o in objs),
            f"{path}: {len(objs)} JSON objects, each with a type")
    if typ:
        c.check(bool(objs) and objs[-1].get("type") == typ,
                f"{path}: the last object is {typ} ({objs[-1].get('type') if objs else None})")


@subcommand("counts-sane", lambda a: (load_lines(a[0]), int(a[1])))
def check_counts_sane(c, objs, n):
    """stat --json under load: at least n objects; no count below 0 anywhere; every derived
    row says whether it is exact (approximate, with the reason when true)."""
    c.check(len(objs) >= n, f"{len(objs)} objects (want >= {n})")
    neg = [(o.get("interval"), k, r["total"], r["per_cpu"]) for o in objs for k, r in o["counters"].items()
           if (r["total"] or 0) < 0 or any(v < 0 for v in r["per_cpu"] or [])]
    c.check(not neg, f"no count below 0 in any object: {neg[:3]}")
    der = [r for o in objs for r in o["counters"].values() if r["source"] == "derived"]
    c.check(bool(der) and all(isinstance(r.get("approximate"), bool) and
                              (not r["approximate"] or r.get("approximate_why")) for r in der),
            f"every derived row exact or approximate with a reason ({len(der)} rows, "
            f"{sum(bool(r.get('approximate')) for r in der)} approximate)")


@subcommand("scope", lambda a: (load_lines(a[0]), load_lines(a[1]), load_lines(a[2]),
                              load_lines(a[3]), int(a[4])))
def check_scope(c, sa, sp, tp, ta, pid):
    """stat -a (sa), stat -p PID (sp), trace -p PID (tp) of a writer tree (sh, stat, sleep),
    trace -a -- COMMAND (ta), beside an outside stress."""
    sa, sp = summary_of(sa), summary_of(sp)
    c.check(sa["scope"] == "system-wide", f"stat -a: scope {sa['scope']!r}")
    c.check(sp["scope"] == f"pid {pid} and its descendants" and "hash lookup" in sp.get("scope_cost", ""),
            f"stat -p: scope {sp['scope']!r} with its cost {sp.get('scope_cost')!r}")
    a, p = sa["counters"]["ctime_swaps"]["total"], sp["counters"]["ctime_swaps"]["total"]
    c.check(p is not None and 0 < p <= 200 and a > 10000,
            f"stat -p counts the tree's ctime swaps only: {p} against {a} system-wide")
    fl = sp["counters"]["floor_swaps"]
    c.check(fl["total"] is None and "global" in (fl.get("unavailable") or ""),
            "stat -p: the kernel's global floor_swaps is not passed off as the tree's")
    sq = sp["counters"]["stat_queries"]
    c.check(bool(sq["total"]) and sq["source"] == "bpf", f"stat -p: the tree's stat queries: {sq['total']}")
    ev = events_of(tp)
    c.check(bool(ev) and all(e["comm"] in ("sh", "stat", "sleep") for e in ev),
            f"trace -p: {len(ev)} events, all of the writer's tree: {sorted({e['comm'] for e in ev})}")
    c.check(len({e["pid"] for e in ev}) > 1, "trace -p: the writer's children are followed too")
    c.check(any(e["comm"] == "mgtrace" for e in events_of(ta)),
            "trace -a -- COMMAND: the outside stress's events too (system-wide)")


@subcommand("partial", lambda a: (load_lines(a[0]),))
def check_partial(c, objs):
    """stat --json -i 1 -- sleep 1.5: a full interval, then the partial last one; ISO times;
    a rate per second on every counted row."""
    import re
    iv = [o for o in objs if o.get("type") == "interval"]
    c.check([o["partial"] for o in iv] == [False, True],
            f"a full interval, then the partial last one: {[o.get('partial') for o in iv]}")
    c.check(bool(iv) and 0.3 < iv[-1]["duration_s"] < 0.8,
            f"the partial interval lasts about 0.5 s: {iv[-1]['duration_s'] if iv else None}")
    c.check(bool(iv) and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", o.get("time", ""))
                             for o in iv), "interval time in ISO 8601")
    c.check(all(r.get("rate_per_s") is not None for o in iv for r in o["counters"].values()
                if r["total"] is not None), "every counted row has a rate per second")


CSV_MARKS = ("<not counted>", "<not supported>")
CSV_TIME = re.compile(r"\d+\.\d{9}")
CSV_SOURCES = ("bpf", "kernel", "derived", "unavailable")


def csv_split(row):
    """A stat -x line as perf stat -x writes it: [TIME,][CPUn,] then perf's seven fields
    (value, unit, event, run-time, pct, metric value, metric unit) and mgtrace's five
    (source, debugfs low, debugfs high, match, approximate). Returns (time, cpu, fields)."""
    t = row[0] if row and CSV_TIME.fullmatch(row[0]) else None
    rest = row[1:] if t is not None else row
    cpu = rest[0] if rest and re.fullmatch(r"CPU\d+", rest[0]) else None
    return t, cpu, rest[1:] if cpu is not None else rest


@subcommand("stat-csv", lambda a: (open(a[0]).read().splitlines(), int(a[1]), *a[2:3]))
def check_stat_csv(c, lines, n, sep=","):
    """stat -x , -I MS -c N: perf stat -I -x's lines, one per counter, each starting with
    the seconds since the start; N intervals, each with the same counters, times rising,
    and no summary block (perf prints none after -I)."""
    import csv
    times, untimed = {}, []
    for row in csv.reader(lines, delimiter=sep):
        if not row:
            continue
        t, cpu, f = csv_split(row)
        if t is None:
            untimed.append(row)
            continue
        times.setdefault(t, []).append(f[2] if len(f) > 2 else None)
    ts = list(times)
    c.check(len(ts) == n, f"{n} intervals (distinct times): {ts}")
    c.check(ts == sorted(ts, key=float), f"times rise: {ts}")
    evs = [times[t] for t in ts]
    c.check(evs and "ctime_updates" in evs[0] and all(e == evs[0] for e in evs)
            and len(set(evs[0])) == len(evs[0]),
            f"every interval names each counter once, the same ones: {evs[:2]}")
    c.check(not untimed, f"no line without a time (no summary after -I): {untimed[:2]}")


@subcommand("stat-csv-fields", lambda a: (open(a[0]).read().splitlines(), *a[1:2]))
def stat_csv_fields_cli(c, lines, sep=","):
    """The command line's stat-csv-fields: a check, not an extractor (what
    check_stat_csv_fields() returns is for other checks): its exit status is its verdict."""
    check_stat_csv_fields(c, lines, sep)


def check_stat_csv_fields(c, lines, sep=","):
    """stat -x SEP [-A] [-I]: every line is perf stat -x's: [TIME,][CPUn,]VALUE,UNIT,EVENT,
    RUN-TIME,PCT,METRIC,METRIC-UNIT, then SOURCE,DEBUGFS-LOW,DEBUGFS-HIGH,MATCH,APPROXIMATE;
    no field padded; a value is a number, or perf's <not counted> (an option would count it)
    or <not supported>, with run-time 0 and 0.00 %; a counted value ran 100.00 % of the
    window; the debugfs fields are numbers or empty, the match yes/within/NO with a debugfs
    range (a value said yes or within lies in it), start/ksym on a kernel row without one (no
    debugfs), or empty."""
    import csv
    padded, bad, marks, cpus = [], [], {}, set()
    for ln, row in enumerate(csv.reader(lines, delimiter=sep), 1):
        if not row:
            continue
        padded += [f"{ln}: {f!r}" for f in row if f != f.strip()]
        t, cpu, f = csv_split(row)
        if len(f) != 12:
            bad.append(f"{ln}: {len(f)} fields after time and CPU (want 12): {row}")
            continue
        cpus.add(cpu)
        val, unit, ev, rt, pct, mv, mu, src, lo, hi, match, approx = f
        if val in CSV_MARKS:
            marks[ev] = val
            # a per-CPU line of a row counted in total only keeps the row's source
            if rt != "0" or pct != "0.00" or (src != "unavailable" and cpu is None):
                bad.append(f"{ln}: {val} with run-time {rt}, {pct} %, source {src}")
        elif not val.isdigit() or not rt.isdigit() or pct != "100.00" or src not in CSV_SOURCES:
            bad.append(f"{ln}: value {val!r}, run-time {rt!r}, pct {pct!r}, source {src!r}")
        if unit not in ("", "/s") or mv or mu or not re.fullmatch(r"[a-z_]+", ev):
            bad.append(f"{ln}: unit {unit!r}, metric {mv!r} {mu!r}, event {ev!r}")
        # a debugfs match has its range; start or ksym (issue 26: what a kernel per-CPU row
        # was checked against without debugfs) has none, and only on a kernel row
        if not all(x == "" or x.isdigit() for x in (lo, hi)) or approx not in ("", "yes") \
                or match not in ("", "yes", "within", "NO", "start", "ksym") \
                or (match in ("yes", "within", "NO") and not lo) \
                or (match in ("start", "ksym") and (lo or hi or src != "kernel")):
            bad.append(f"{ln}: debugfs {lo!r}..{hi!r}, match {match!r}, approximate {approx!r}")
        # a value said to be yes or within its debugfs range lies in it (--rate: both per second)
        elif match in ("yes", "within") and val.isdigit() and not int(lo) <= int(val) <= int(hi):
            bad.append(f"{ln}: {val}{unit} {match} {lo}..{hi}, but outside it")
    c.check(not padded, f"no field padded: {padded[:4]}")
    c.check(not bad, f"perf stat -x's fields, each value a number or <not counted>/<not supported>: "
            f"{bad[:4]}")
    c.check(marks or lines, "some line read")
    return marks, cpus


@subcommand("count-ended", lambda a: (load_lines(a[0]),))
def check_count_ended(c, objs):
    """stat -c N -- COMMAND still running: the summary says mgtrace ended it (status 143)."""
    s = summary_of(objs) or {}
    c.check(s.get("command_ended_by_count") is True and s.get("command_status") == 143
            and s.get("command_ended_by_duration") is False,
            f"COMMAND ended by the count, not the duration, its status 143: "
            f"{s.get('command_ended_by_count')}, {s.get('command_ended_by_duration')}, "
            f"{s.get('command_status')}")


@subcommand("duration-ended", lambda a: (load_lines(a[0]), float(a[1]), int(a[2]), a[3] == "partial",
                                         a[4] == "command"))
def check_duration_ended(c, objs, secs, full, partial, command):
    """stat -d SECS (or --timeout) [-i ...] [-- COMMAND]: FULL whole intervals, then a partial
    one or none, the window SECS long, and a COMMAND still running ended by the duration
    (status 143), not by a count."""
    s = summary_of(objs) or {}
    rows = [o for o in objs if o.get("type") == "interval"]
    whole = [o for o in rows if not o.get("partial")]
    c.check(len(whole) == full and len(rows) == full + partial
            and all(o.get("partial") for o in rows[full:]),
            f"{full} whole interval(s){', then a partial one' if partial else ', none partial'}: "
            f"{[(o.get('interval'), o.get('partial'), round(o.get('duration_s', 0), 3)) for o in rows]}")
    d = s.get("duration_s") or 0
    c.check(secs - 0.005 <= d <= secs + 0.15, f"the window lasted {secs} s: {d}")
    c.check(s.get("interrupted", "absent") is None, f"no signal ended it: {s.get('interrupted', 'absent')}")
    if rows:
        c.check(abs(sum(o["duration_s"] for o in rows) - d) < 0.002,
                f"the intervals add up to the window: {sum(o['duration_s'] for o in rows)} of {d}")
    if command:
        c.check(s.get("command_ended_by_duration") is True and s.get("command_ended_by_count") is False
                and s.get("command_status") == 143,
                f"COMMAND ended by the duration, its status 143: {s.get('command_ended_by_duration')}, "
                f"{s.get('command_ended_by_count')}, {s.get('command_status')}")
    else:
        c.check("command_ended_by_duration" not in s, "no COMMAND: no command_ended_by_duration")


def rfc3339(ns):
    """CLOCK_REALTIME ns as mgtrace's "time": RFC 3339, UTC, 9 decimals."""
    import datetime
    s, n = divmod(ns, 10**9)
    return (datetime.datetime.fromtimestamp(s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
            + ".%09dZ" % n)


def exact_problems(o, where=""):
    """What breaks src/util/jsonnum.h's rule in o and every object inside it: each X_ns with its
    X_sec and X_nsec (ns = sec * 10^9 + nsec exactly, 0 <= nsec < 10^9, both null with it),
    time_realtime_ns with "time", each ino >= 0 with "inode" = "dev:ino". Returns (problems,
    number of X_ns fields checked)."""
    bad, n = [], 0
    if isinstance(o, list):
        for i, x in enumerate(o):
            b, m = exact_problems(x, f"{where}[{i}]")
            bad += b
            n += m
        return bad, n
    if not isinstance(o, dict):
        return bad, n
    for k, v in o.items():
        if k.endswith("_mono_ns") or k == "time_realtime_ns":
            n += 1
            sec, nsec = o.get(k[:-3] + "_sec", "absent"), o.get(k[:-3] + "_nsec", "absent")
            if v is None:
                if sec is not None or nsec is not None:
                    bad.append(f"{where}{k} null, {k[:-3]}_sec/_nsec {sec}/{nsec}")
            elif not (isinstance(sec, int) and isinstance(nsec, int) and 0 <= nsec < 10**9
                      and sec * 10**9 + nsec == v):
                bad.append(f"{where}{k} {v} but {k[:-3]}_sec/_nsec {sec}/{nsec}")
            if k == "time_realtime_ns" and v is not None and o.get("time") != rfc3339(v):
                bad.append(f"{where}time {o.get('time')} for time_realtime_ns {v} ({rfc3339(v)})")
        elif k == "ino" and "dev" in o:
            n += 1
            if not isinstance(v, int) or v < 0 or o.get("inode") != f"{o['dev']}:{v}":
                bad.append(f"{where}ino {v}, inode {o.get('inode')} (dev {o['dev']})")
        elif isinstance(v, (dict, list)):
            b, m = exact_problems(v, f"{where}{k}.")
            bad += b
            n += m
    return bad, n


@subcommand("json-exact", lambda a: (a[0], [int(x) for x in a[1:]]))
def check_json_exact(c, path, inos=()):
    """Every JSON line of FILE keeps src/util/jsonnum.h's rule (exact_problems()), with at least one
    field checked; each INO given (an inode number above 2^53) appears exactly as an "ino"."""
    objs = load_lines(path)
    bad, n = exact_problems(objs)
    c.check(n > 0 and not bad, f"{os.path.basename(path)}: {n} ns and ino fields exact in a double's "
            f"forms too{': ' + '; '.join(bad[:3]) if bad else ''}")
    seen = set()
    exact_problems_inos(objs, seen)
    for ino in inos:
        c.check(ino in seen, f"inode number {ino} (> 2^53: {ino > 2**53}) written exactly "
                f"({sorted(x for x in seen if x > 2**53)[:3] or 'none above 2^53'})")


def exact_problems_inos(o, seen):
    """Collect every "ino" value inside o into seen."""
    if isinstance(o, list):
        for x in o:
            exact_problems_inos(x, seen)
    elif isinstance(o, dict):
        for k, v in o.items():
            if k == "ino":
                seen.add(v)
            else:
                exact_problems_inos(v, seen)


@selftest_cases
def selftest_output(results):
    """Output that must fail: not JSON lines, padded CSV, the wrong scope, numbers a double rounds."""
    selftest_exact(results)
    run = results.run
    # issue 17 checks
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tf:
        tf.write('{"type":"interval"}\n{"type":"summary"}\n')
    run("json-lines: JSON lines ending in the summary", check_json_lines, tf.name, "summary", want_fail=False)
    run("json-lines: the wrong last type", check_json_lines, tf.name, "check")
    with open(tf.name, "a") as f:
        f.write("stress: 2 threads x 4 files ...\n")
    run("json-lines: a line of COMMAND's output among the JSON", check_json_lines, tf.name)
    os.unlink(tf.name)
    cs = [{"type": "interval", "interval": 1, "counters": {
        "ctime_updates": {"source": "kernel", "total": 5, "per_cpu": [2, 3]},
        "floor_cmpxchg_fails": {"source": "derived", "total": 0, "per_cpu": None, "approximate": True,
                                "approximate_why": "read while the counters moved"}}}]
    run("counts-sane: counts >= 0, derived approximate with a reason", check_counts_sane, cs, 1, want_fail=False)
    for label, mut in (("a derived count of -9", lambda o: o["counters"]["floor_cmpxchg_fails"].update(total=-9)),
                       ("a per-CPU value below 0", lambda o: o["counters"]["ctime_updates"].update(per_cpu=[6, -1])),
                       ("approximate without a reason",
                        lambda o: o["counters"]["floor_cmpxchg_fails"].pop("approximate_why")),
                       ("a derived row silent on exactness",
                        lambda o: o["counters"]["floor_cmpxchg_fails"].pop("approximate"))):
        bad = cp(cs)
        mut(bad[0])
        run("counts-sane: " + label, check_counts_sane, bad, 1)
    ctr = {"ctime_swaps": {"total": 20}, "floor_swaps": {"total": None, "unavailable": "process scope: the "
           "kernel's counter is global"}, "stat_queries": {"total": 40, "source": "bpf"}}
    sa = [{"type": "summary", "scope": "system-wide", "counters": dict(ctr, ctime_swaps={"total": 99999})}]
    sp = [{"type": "summary", "scope": "pid 7 and its descendants", "scope_cost": "one hash lookup of its tgid",
           "counters": ctr}]
    tp = [{"type": "event", "comm": "sh", "pid": 7}, {"type": "event", "comm": "stat", "pid": 8}]
    ta = [{"type": "event", "comm": "mgtrace", "pid": 9}]
    run("scope: the tree's counts and events", check_scope, sa, sp, tp, ta, 7, want_fail=False)
    run("scope: stat -p counting the machine", check_scope, sa,
        [dict(sp[0], counters=dict(ctr, ctime_swaps={"total": 99999}))], tp, ta, 7)
    run("scope: another process's event in trace -p", check_scope, sa, sp,
        tp + [{"type": "event", "comm": "mgtrace", "pid": 9}], ta, 7)
    run("scope: the global floor_swaps as the tree's", check_scope, sa,
        [dict(sp[0], counters=dict(ctr, floor_swaps={"total": 5}))], tp, ta, 7)
    run("scope: no scope stated", check_scope, [dict(sa[0], scope="")], sp, tp, ta, 7)
    pi = [{"type": "interval", "partial": False, "duration_s": 1.0, "time": "2026-11-30T22:07:46.123Z",
           "counters": {"a": {"total": 3, "rate_per_s": 3.0}}},
          {"type": "interval", "partial": True, "duration_s": 0.5, "time": "2026-11-30T22:07:46.623Z",
           "counters": {"a": {"total": 1, "rate_per_s": 2.0}}}]
    run("partial: a full and a partial interval", check_partial, pi, want_fail=False)
    run("partial: the partial one missing", check_partial, pi[:1])
    run("partial: a time that is not ISO 8601", check_partial, [pi[0], dict(pi[1], time="22:07:46")])
    def ln(t, v, ev, src="kernel", lo=None, hi=None, m="yes", cpu=None):
        lo = (v if v.isdigit() else "5") if lo is None else lo  # a range that holds v
        hi = (v if v.isdigit() else "5") if hi is None else hi
        run_ns = "0" if v.startswith("<") else "300000000"
        pct = "0.00" if v.startswith("<") else "100.00"
        pre = ([t] if t else []) + ([cpu] if cpu else [])
        return ",".join(pre + [v, "", ev, run_ns, pct, "", "", src, lo, hi, m, ""])
    cv = [ln("0.300000001", "5", "ctime_updates"), ln("0.300000001", "<not counted>", "ctime_sets",
                                                      "unavailable", "", "", ""),
          ln("0.600000002", "6", "ctime_updates"), ln("0.600000002", "<not counted>", "ctime_sets",
                                                      "unavailable", "", "", "")]
    run("stat-csv: two intervals of perf's lines", check_stat_csv, cv, 2, want_fail=False)
    run("stat-csv: a counter missing from one interval", check_stat_csv, cv[:3], 2)
    run("stat-csv: a summary block after -I", check_stat_csv, cv + [ln(None, "11", "ctime_updates")], 2)
    run("stat-csv: the old block format", check_stat_csv,
        ["time,ctime_updates,debugfs,approximate", "22:07:46.123,5,yes,-", "22:07:46.423,6,yes,-"], 2)
    xs = cv + [ln("0.300000001", "2", "ctime_updates", lo="", hi="", m="", cpu="CPU0"),
               ln(None, "<not supported>", "current_time", "unavailable", "", "", "")]
    run("stat-csv-fields: plain fields, perf's markers", check_stat_csv_fields, xs, want_fail=False)
    run("stat-csv-fields: a padded value", check_stat_csv_fields, xs + [xs[0].replace(",5,", ",  5,")])
    run("stat-csv-fields: a rate beside a range of counts, said within", check_stat_csv_fields,
        xs + [ln("0.300000001", "1428989", "ctime_updates", lo="428903", hi="428925", m="within")])
    run("stat-csv-fields: an unmeasured value left empty", check_stat_csv_fields,
        xs + [xs[1].replace("<not counted>", "")])
    run("stat-csv-fields: a marker with a run-time", check_stat_csv_fields,
        xs + [xs[1].replace(",0,0.00,", ",300000000,100.00,")])
    run("stat-csv-fields: a field missing", check_stat_csv_fields, xs + [xs[0].rsplit(",", 1)[0]])
    run("stat-csv-fields: a match without a debugfs range", check_stat_csv_fields,
        xs + [ln(None, "5", "ctime_updates", lo="", hi="", m="yes")])
    run("stat-csv-fields: start on a kernel row without debugfs", check_stat_csv_fields,
        xs + [ln(None, "5", "ctime_updates", "kernel", lo="", hi="", m="start")], want_fail=False)
    run("stat-csv-fields: start beside a debugfs range", check_stat_csv_fields,
        xs + [ln(None, "5", "ctime_updates", "kernel", m="start")])
    run("stat-csv-fields: ksym on a bpf row", check_stat_csv_fields,
        xs + [ln(None, "5", "ctime_updates", "bpf", lo="", hi="", m="ksym")])
    run("count-ended: ended by the count", check_count_ended,
        [{"type": "summary", "command_ended_by_count": True, "command_ended_by_duration": False,
          "command_status": 143}], want_fail=False)
    run("count-ended: COMMAND ended by itself", check_count_ended,
        [{"type": "summary", "command_ended_by_count": False, "command_ended_by_duration": False,
          "command_status": 0}])
    run("count-ended: ended by the duration", check_count_ended,
        [{"type": "summary", "command_ended_by_count": False, "command_ended_by_duration": True,
          "command_status": 143}])
    iv = [{"type": "interval", "interval": i + 1, "partial": i == 2, "duration_s": d}
          for i, d in enumerate((0.2, 0.2, 0.1))]
    dsum = {"type": "summary", "duration_s": 0.5, "interrupted": None, "command_ended_by_count": False,
            "command_ended_by_duration": True, "command_status": 143}
    run("duration-ended: two whole, one partial, ended by the duration", check_duration_ended,
        iv + [dsum], 0.5, 2, True, True, want_fail=False)
    run("duration-ended: the partial one missing", check_duration_ended,
        iv[:2] + [dict(dsum, duration_s=0.4)], 0.4, 2, True, True)
    run("duration-ended: intervals that do not add up", check_duration_ended,
        iv[:2] + [dsum], 0.5, 2, False, True)
    run("duration-ended: ended by the count", check_duration_ended,
        iv + [dict(dsum, command_ended_by_count=True, command_ended_by_duration=False)],
        0.5, 2, True, True)
    run("duration-ended: no COMMAND", check_duration_ended,
        [{"type": "summary", "duration_s": 0.3, "interrupted": None}], 0.3, 0, False, False,
        want_fail=False)
    run("duration-ended: a signal ended it", check_duration_ended,
        [{"type": "summary", "duration_s": 0.3, "interrupted": "SIGINT"}], 0.3, 0, False, False)

    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write("mgtrace: unknown command\n")
        f.flush()
        run("json-first-line: an error message", check_json_first_line, f.name)
        f.seek(0)
        f.truncate()
        f.write(json.dumps({"type": "check", "floor_figures": {"floor_swaps_per_update": 0.5}}) + "\n")
        f.flush()
        run("json-first-line: a report", check_json_first_line, f.name, want_fail=False)


def selftest_exact(results):
    """json-exact on real-shaped lines, then on each field doctored."""
    big = 9223372036865761322
    ev = {"type": "event", "time": "2026-12-02T07:00:25.638561457Z",
          "time_realtime_ns": 1796194825638561457, "time_realtime_sec": 1796194825,
          "time_realtime_nsec": 638561457, "time_mono_ns": 34614236961106, "time_mono_sec": 34614,
          "time_mono_nsec": 236961106, "dev": "0:41", "ino": big, "inode": f"0:41:{big}",
          "entry_mono_ns": None, "entry_mono_sec": None, "entry_mono_nsec": None}
    summ = {"type": "trace_summary", "inodes": [{"dev": "254:0", "ino": 5, "inode": "254:0:5"}]}
    with tempfile.TemporaryDirectory() as d:
        def run(label, objs, want_fail=True, inos=()):
            p = os.path.join(d, "x.json")
            with open(p, "w") as f:
                f.write("".join(json.dumps(o) + "\n" for o in objs))
            results.run("json-exact: " + label, check_json_exact, p, inos, want_fail=want_fail)
        run("an event and a summary", [ev, summ], want_fail=False, inos=[big])
        for label, mut in (("time_realtime_nsec off by one", lambda o: o.update(time_realtime_nsec=638561456)),
                           ("the double's rounding of time_realtime_ns",
                            lambda o: o.update(time_realtime_ns=int(float(o["time_realtime_ns"])))),
                           ("time_mono_sec missing", lambda o: o.pop("time_mono_sec")),
                           ("nsec of 10^9", lambda o: o.update(time_mono_sec=34613, time_mono_nsec=10**9 + 236961106)),
                           ("time an hour off", lambda o: o.update(time="2026-12-02T08:00:25.638561457Z")),
                           ("entry_mono_sec 0 beside a null", lambda o: o.update(entry_mono_sec=0)),
                           ("ino written as jansson's negative",
                            lambda o: o.update(ino=big - 2**64, inode=f"0:41:{big - 2**64}")),
                           ("inode of another device", lambda o: o.update(inode=f"0:40:{big}"))):
            bad = cp(ev)
            mut(bad)
            run(label, [bad, summ])
        run("the big inode rounded (as jq reads it)", [dict(ev, ino=int(float(big)), inode=f"0:41:{int(float(big))}")],
            inos=[big])
        bad = cp(summ)
        bad["inodes"][0]["inode"] = "254:0:6"
        run("a trace summary's inode", [ev, bad])
        run("no field to check", [{"type": "lost", "lost_events": 1}])
