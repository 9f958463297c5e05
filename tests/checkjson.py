#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""checkjson.py - assertions on mgtrace's JSON output, for the host and VM tests.

Usage:
  checkjson.py stat FILE [--expect-backend B] [--funcs] [--kernel-percpu]
                         [--min-floor-swaps N] [--min-stat-queries N] [--exact-kernel]
                         [--expect-no ROW]
  checkjson.py check FILE [--verdict V] [--command] [--min-lost N] [--breach THRESHOLD]
                         [--floor checked|unchecked|inverted]
  checkjson.py intervals FILE N [--match] [--expect-no ROW]
  checkjson.py probe FILE (--host-lockdown | --vm-multigrain | --vm-nomultigrain)
  checkjson.py trace-names FILE  trace --json of tests/names_workload.py: every event keeps
                                 name/comm; the workload's names decode as documented
  checkjson.py command FILE TYPE HEXARG...  the "command" of the TYPE object decodes to
                                 the argv bytes (each ARG as hex)
  checkjson.py junit-command FILE HEXARG...  the JUnit properties command[i] decode to them
  checkjson.py selftest        feed every check a case that must fail

For the host tests (tests/host.d), each a check printing ok/FAIL lines unless marked
(extractor: prints a value for the shell):
  zero-default FILE            stat's zero-cost default: counted, event rows say how to opt in
  counter-min FILE ROW N       the summary's ROW total is >= N
  pcpu-rejected FILE           probe --json: a doctored BTF offset is rejected, saying why
  widest-bracket FILE          (extractor) the widest debugfs bracket of a stat --json file
  bpf-ours [--probes] [--count] [--leaked]  (extractor) bpftool -j prog/link show on stdin:
                               our programs and timestamp:* links ("prog:NAME link:TP"); --count:
                               the number of our programs listed; --leaked: not those a running
                               mgtrace holds (another run's)
  junit-gate FILE TESTS GATE [TEXT]  check --junit: TESTS testcases, GATE the one failure
                               (its message containing TEXT, default "(limit)")
  categories FILE              (extractor) a check report's not-fault categories, one line
  invariant-min FILE NAME N    a check report counts >= N of not-fault category NAME
  example-names FILE INO NAME  the not-fault examples of inode INO (>= 1) are all named NAME
  step-explained FILE          a check report files its ctime regressions under the clock step
                               that explains them: >= 1, all explained, none taken for
                               overlapping updates or a future ctime
  figure-min FILE FIGURE N [--no-gates]  a floor figure > N (and no gate set)
  trace-seq FILE PATH          trace of trace_workload.py seq PATH: exact events and ctimes
  trace-filter FILE INO COMM N N events, all of COMM on inode INO
  trace-tids FILE NAME N       N threads stat NAME (stress --shared)
  trace-events FILE LABEL WANT [--format dev|comm|queried] [--only KIND] [--pids N]
                               the events, one word each, are exactly WANT
  trace-summary FILE LABEL COND...  summary fields: KEY=JSON, KEY=None, KEY~TEXT, roles=R@DEV,...
  workload-dir FILE DEV MOUNT  check --dir: the report names DEV and MOUNT, and passes
  trace-dev FILE DEV N         N events, all on device DEV
  interrupted FILE SIG VERDICT [STATUS]  a check report of a run SIG (SIGINT, SIGTERM, SIGHUP;
                               none: no signal) ended early: VERDICT, "interrupted" and the
                               reason agree; with COMMAND, its STATUS and whether it is the signal's
  json-first-line FILE         the first line is a JSON object
  json-lines FILE [TYPE]       every line a JSON object with a type (the last one TYPE)
  junit-text XML TEXT          check --junit against its text: one failure per FAIL line,
                               each with expected and actual
  counts-sane FILE N           stat --json: >= N objects, no count below 0, derived rows exact
                               or approximate with a reason
  scope SA SP TP TA PID        stat -a, stat -p PID, trace -p PID, trace -a -- COMMAND beside
                               an outside stress: each counts or shows its scope only
  partial FILE                 stat -i 1 -- sleep 1.5: a full and a partial interval, ISO times
  stat-csv FILE N              stat -x , -c N: header, N rows of plain fields, the summary
  stat-csv-fields FILE [SEP]   stat -x SEP (default ,) [-A]: no field padded, every value a number or
                               <not counted> / <not supported> as the row's reason says
  count-ended FILE             stat -c N -- COMMAND: ended by the count, status 143
  map-full FILE                check --max-inodes 1 judged in BPF: map full, untracked, inconclusive
  inode-gc FILE LIVE N         check judged in BPF over file churn beyond --max-inodes: >= N
                               inodes gone forgotten, >= LIVE entries kept, nothing untracked, PASS
  events-window FILE           check with --max-inodes below the files touched (either --judge):
                               events judged + untracked + no inode number + lock failed + lost
                               cover the tracepoint counters' sum, and not twice over
  dir-visibility FILE RC SEEN [NAME]  check -- dirvis: SEEN > 0 (the workload's own
                               count): FAIL with >= SEEN not_later_after_query by sets (one
                               report naming the directory NAME, if given); 0: PASS
  tree-scope FILE K            check --tree beside a stat flood and K outside getattrs of
                               COMMAND's file: PASS, flood out of scope, the K judged
  inject-lost FILE N RC        MGTRACE_TEST_INJECT=N, small ring buffer: records lost, N counted
  baseline-used FILE BASE      check --baseline BASE: accepted without a warning, and every
                               figure BASE has gates FILE's run (the baseline column equal)
  set-figure IN OUT FIGURE V   (tool) write check report IN to OUT with floor figure FIGURE = V
  probe-field KEY...           (extractor) probe --json on stdin: the first KEY set (not null)

--exact-kernel: every kernel counter's row lies in its debugfs bracket (equal where the bracket's
width is 0); --expect-no ROW: the same, but ROW (doctored by MGTRACE_TEST_SKEW) lies outside.
intervals --match: every compared row of every interval and the summary lies in its bracket.

Each check prints "ok   ..." or "FAIL ..."; the exit status is the number of failures
(capped at 1). Every file is parsed with Python's json module, line by line (JSON lines).
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import names_workload  # noqa: E402

KERNEL_COUNTERS = ("ctime_updates", "ctime_swaps", "fine_stamps", "floor_swaps")


class Checker:
    def __init__(self, quiet=False):
        self.failures = []
        self.quiet = quiet

    def check(self, cond, msg):
        if not cond:
            self.failures.append(msg)
        if not self.quiet:
            print(("ok   " if cond else "FAIL ") + msg)
        return cond


def load_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def summary_of(objs):
    s = [o for o in objs if o.get("type") == "summary"]
    return s[-1] if s else None


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


def check_probe(c, p, mode, api="mainline"):
    """api: the floor API form the kernel must be reported with (vm-multigrain)."""
    c.check(p.get("type") == "probe" and p.get("schema_version") == 1, "probe object, schema 1")
    be = p["backends"]
    if mode == "host-lockdown":
        c.check(p["multigrain"] is True and p["floor_api"] == "mainline", "multigrain, mainline API")
        c.check(be["tracepoint"]["attachable"] is True, "tracepoint backend attachable")
        c.check(be["fentry"]["attachable"] is False and "EPERM" in be["fentry"]["reason"]
                and "lockdown" in be["fentry"]["reason"],
                f"fentry refused with EPERM under lockdown: {be['fentry']['reason']}")
        c.check(be["kprobe"]["attachable"] is False and "kprobes" in be["kprobe"]["reason"],
                f"kprobe refused, kernel has no kprobes: {be['kprobe']['reason']}")
        c.check(p["auto_backend"] == "tracepoint", "auto chooses tracepoint")
        c.check(p["debugfs"]["readable"] is True, "debugfs counters readable")
        # no KALLSYMS_ALL here: the per-CPU counters are read through their BTF offsets
        c.check(p["percpu_readable"] is True and "BTF offsets" in p.get("percpu_method", ""),
                f"kernel per-CPU counters read via BTF offsets: {p.get('percpu_method') or p.get('percpu_reason')}")
    elif mode == "vm-multigrain":
        c.check(p["multigrain"] is True and p["floor_api"] == api,
                f"multigrain, {api} API (probe says {p['floor_api']})")
        bi = p.get("btf_interface") or {}
        c.check(bi.get("problem") is None and bi.get("inode_i_ctime_nsec") == "u32",
                f"BTF shows the interface mgtrace reads ({bi.get('problem')})")
        for b in ("fentry", "kprobe", "tracepoint"):
            c.check(be[b]["attachable"] is True, f"{b} attachable: {be[b]['reason']}")
        c.check(p["auto_backend"] == "fentry", "auto chooses fentry")
        c.check(p["percpu_readable"] is True, "kernel per-CPU counters readable from BPF")
    elif mode == "vm-nomultigrain":
        c.check(p["multigrain"] is False and p["floor_api"] == "none", "no multigrain, API none")
        c.check(p["debugfs"]["readable"] is False, "no debugfs counters file")
        c.check(p["auto_backend"] is None, "no backend attaches")


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
            c.check(wl is not None and wc is not None and wl <= wc <= k["stat"],
                    f"getattrs without the lock {wl} <= without context {wc} <= judged "
                    f"getattrs {k['stat']}")
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
                    all(x["earlier"]["t_mono_ns"] > 0 and x["later"]["pid"] >= 0 for x in e),
                    f"not-fault {k}: {inv.get(k)} counted, {len(e) if isinstance(e, list) else e} "
                    "examples with both observations (at least one when counted)")
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


def unescape(s, text=False):
    """Bytes of a string mgtrace escaped (docs/json.md "Strings"): "\\\\" is a backslash,
    "\\xHH" the byte HH; text=True (text and XML output) also "\\n", "\\t", "\\r".
    Anything else after a backslash is an error (ValueError)."""
    out, i = bytearray(), 0
    while i < len(s):
        ch = s[i]
        if ch != "\\":
            out += ch.encode()
            i += 1
            continue
        nxt = s[i + 1:i + 2]
        if nxt == "\\":
            out += b"\\"
            i += 2
        elif nxt == "x" and len(s) >= i + 4 and all(h in "0123456789abcdef" for h in s[i + 2:i + 4]):
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        elif text and nxt in ("n", "t", "r"):
            out += {"n": b"\n", "t": b"\t", "r": b"\r"}[nxt]
            i += 2
        else:
            raise ValueError(f"undocumented escape at {i} in {s!r}")
    return bytes(out)


def utf8_cut(b):
    """b without a trailing incomplete UTF-8 character (what a cut name keeps)."""
    for k in range(1, 4):
        if len(b) >= k and b[-k] >= 0xc0:
            need = 2 if b[-k] < 0xe0 else 3 if b[-k] < 0xf0 else 4
            return b[:-k] if need > k else b
    return b


def check_trace_names(c, objs):
    """trace --json around names_workload.py: no key missing, names and comm as documented."""
    ev = [o for o in objs if o.get("type") == "event"]
    keys = ("comm", "comm_truncated", "name", "name_truncated", "dev", "ino")
    missing = [o for o in ev if any(k not in o for k in keys)]
    c.check(ev and not missing, f"{len(ev)} events, every one has {', '.join(keys)} "
            f"({len(missing)} lack one)")
    try:
        dec = [(o, None if o["name"] is None else unescape(o["name"]), unescape(o["comm"]))
               for o in ev]
    except (ValueError, KeyError) as e:
        c.check(False, f"every name and comm decodes by the documented rule: {e}")
        return
    mine = [(o, nm) for o, nm, cm in dec if cm == names_workload.COMM_SEEN]
    c.check(mine and all(o["comm_truncated"] is True for o, _ in mine),
            f"the comm cut inside a character prints as {names_workload.COMM_SEEN!r}, "
            f"comm_truncated ({len(mine)} events)")
    for n in names_workload.NAMES:
        cut = len(n) > 31
        want = utf8_cut(n[:31]) if cut else n
        hit = [o for o, nm in mine if nm == want]
        c.check(len(hit) >= 3 and all(o["name_truncated"] is cut for o in hit),
                f"name {n!r}: {len(hit)} events decode to {want!r}, name_truncated {cut}")


def check_command(c, objs, typ, argv):
    r = [o for o in objs if o.get("type") == typ]
    if not c.check(len(r) == 1 and "command" in r[0], f"one {typ} object with a command"):
        return
    try:
        got = [unescape(a) for a in r[0]["command"]]
    except ValueError as e:
        got = str(e)
    c.check(got == argv, f"{typ} command decodes to {argv!r} (got {got!r})")


def check_junit_command(c, root, argv):
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    try:
        got = [unescape(props[f"command[{i}]"], text=True) for i in range(len(argv))]
    except (KeyError, ValueError) as e:
        got = repr(e)
    c.check(got == argv and f"command[{len(argv)}]" not in props,
            f"junit properties command[i] decode to {argv!r} (got {got!r})")


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


# ---- checks the host tests (tests/host.d) used to carry inline ----

def events_of(objs):
    return [o for o in objs if o.get("type") == "event"]


def trace_summary_of(objs):
    s = [o for o in objs if o.get("type") == "trace_summary"]
    return s[-1] if s else None


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


def check_counter_min(c, objs, row, n):
    """The summary's ROW total is at least N (a workload really ran in the window)."""
    s = summary_of(objs)
    t = ((s or {}).get("counters", {}).get(row) or {}).get("total")
    c.check(isinstance(t, int) and t >= n, f"summary {row}: {t} >= {n}")


def check_pcpu_rejected(c, p):
    """probe with a doctored BTF offset: the per-CPU reader is refused, saying why."""
    r = p.get("percpu_reason") or ""
    c.check(p.get("percpu_readable") is False and "rejected: mg_ctime_updates: per-CPU sum" in r
            and "debugfs readings around it" in r,
            f"a wrong BTF offset is rejected (percpu_readable {p.get('percpu_readable')}): "
            f"{r.split('; ')[-1]}")


def widest_bracket(objs):
    """The widest debugfs bracket of any row in any object of stat --json (-1: none)."""
    return max([r["debugfs_bracket"]["width"] for o in objs for r in o.get("counters", {}).values()
                if "debugfs_bracket" in r] or [-1])


OUR_PROG_PREFIXES = ("fe_", "kp_", "tpb_", "rtp_", "read_kcounters", "read_pcpu")
TIMESTAMP_TPS = ("ctime_ns_xchg", "ctime_xchg_skip", "fill_mg_cmtime", "inode_set_ctime_to_ts")


def held_by_live_mgtrace(proc="/proc"):
    """The BPF program and link ids an fd of a running mgtrace holds (its /proc/PID/exe is
    named mgtrace*): {"prog": set, "link": set}, from each fd's fdinfo (prog_id:, link_id:).
    Such objects belong to a run that is still going (another test's, or an exporter on the
    machine), not to one that has ended and left them behind."""
    held = {"prog": set(), "link": set()}
    for pid in (d for d in os.listdir(proc) if d.isdigit()):
        try:
            if not os.path.basename(os.readlink(f"{proc}/{pid}/exe")).startswith("mgtrace"):
                continue
            fds = os.listdir(f"{proc}/{pid}/fdinfo")
        except OSError:
            continue
        for fd in fds:
            try:
                with open(f"{proc}/{pid}/fdinfo/{fd}") as f:
                    for line in f:
                        k, _, v = line.partition(":")
                        if k in ("prog_id", "link_id"):
                            held[k[:4]].add(int(v))
            except (OSError, ValueError):
                pass
    return held


def bpf_ours(lines, probes_only=False, leaked_only=False):
    """From `bpftool -j prog show` / `link show` lines: our programs and timestamp:* links,
    as sorted words "prog:NAME" / "link:TP". probes_only: the probe programs (fe_, kp_,
    tpb_, rtp_), not the per-CPU readers. leaked_only: not those a running mgtrace holds
    (held_by_live_mgtrace()), so that a test counts what it left, not what other runs hold."""
    seen = []
    pfx = OUR_PROG_PREFIXES[:4] if probes_only else OUR_PROG_PREFIXES
    held = held_by_live_mgtrace() if leaked_only else {"prog": set(), "link": set()}
    for line in lines:
        for o in (json.loads(line) if line.strip() else []):
            if o.get("id") in held["prog" if "tp_name" not in o and "prog_id" not in o else "link"]:
                continue
            if o.get("prog_id") in held["prog"]:
                continue
            if o.get("tp_name") in TIMESTAMP_TPS:
                seen.append("link:" + o["tp_name"])
            name = o.get("name") or o.get("prog_name") or ""
            if name.startswith(pfx):
                seen.append("prog:" + name)
    return seen


def check_junit_gate(c, root, tests, breached, text="(limit)"):
    """check --junit with one breached gate: TESTS testcases, that gate the one failure,
    its message containing text."""
    cases = {t.get("name"): t for t in root.iter("testcase")}
    c.check(root.tag == "testsuite" and int(root.get("tests", -1)) == len(cases) == tests,
            f"junit: {tests} testcases ({len(cases)}, tests={root.get('tests')})")
    f = cases[breached].find("failure") if breached in cases else None
    c.check(int(root.get("failures", -1)) == 1 and f is not None and text in (f.get("message") or ""),
            f"junit: the breached gate {breached} is the one failure, with value and limit: "
            + (f.get("message") if f is not None else "none"))
    reg = cases.get("no ctime regression")
    c.check(reg is not None and reg.find("failure") is None, "junit: no regression failure")


NOT_FAULT_KEYS = ("stale_reads", "reordered_swaps", "unverified_queried_updates", "granularity_equal",
                  "future_ctime", "unsure_seconds", "torn_reads", "skips_after_concurrent_query",
                  "concurrent_updates", "concurrent_updates_undecided", "concurrent_reads", "unseen_values",
                  "sets_state_unknown", "clock_steps", "clock_steps_bpf")


def categories(r):
    """One line: a check report's not-fault categories and what clock steps explained."""
    i = r["invariants"]
    return (" ".join(f"{k}={i.get(k)}" for k in NOT_FAULT_KEYS) + " | explained: " +
            str({k: v["explained_by_clock_step"] for k, v in i.items()
                 if isinstance(v, dict) and "explained_by_clock_step" in v}))


def check_invariant_min(c, r, name, n):
    """A check report counts at least N of the not-fault category NAME."""
    v = r.get("invariants", {}).get(name)
    c.check(isinstance(v, int) and v >= n, f"check: {name} {v} >= {n} ({categories(r)})")


def check_example_names(c, r, ino, name):
    """Every not-fault example of inode INO carries its name (at least one example)."""
    ex = [e for lst in (r.get("not_fault_examples") or {}).values() for e in lst
          if e.get("ino") == ino]
    c.check(len(ex) >= 1, f"check: {len(ex)} not-fault examples of inode {ino} (want >= 1)")
    bad = [e.get("name") for e in ex if e.get("name") != name]
    c.check(not bad, f"check: examples of inode {ino} named {bad[:3]}, want {name!r}")


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


def check_figure_min(c, r, figure, n, no_gates=False):
    """A check report's floor figure is above N; no_gates: no gate was set (pass null)."""
    v = r.get("floor_figures", {}).get(figure)
    c.check(isinstance(v, (int, float)) and v > n, f"check: {figure} {v} > {n}")
    if no_gates:
        c.check(all(g.get("pass") is None for g in r.get("gates", [])),
                f"check: no gate set ({[g.get('figure') for g in r.get('gates', []) if g.get('pass') is not None]})")


def check_trace_seq(c, objs, ino, name):
    """trace --json --path F -- trace_workload.py seq F: stat, swap, stat, swap, stat, with
    the ctimes stat() returned (the workload's own JSON line), all on F's inode."""
    out = ([o for o in objs if "ctime_ns" in o] or [{"ctime_ns": [None] * 3, "pid": None}])[0]
    ev = events_of(objs)
    s = trace_summary_of(objs)
    c0, c1, c2 = out["ctime_ns"]
    ns = lambda a, b: a * 1000000000 + b  # noqa: E731
    kinds = [e["event"] for e in ev]
    if c.check(kinds == ["stat", "ctime_swap", "stat", "ctime_swap", "stat"],
               f"trace: exact sequence: {kinds}") and None not in (c0, c1, c2):
        c.check(ns(ev[0]["ctime_sec"], ev[0]["ctime_nsec"]) == c0, "stat 1 shows the ctime stat() returned")
        c.check(ev[1]["old_nsec"] == c0 % 10**9 and ev[1]["old_queried"], "swap 1 replaced that ctime, QUERIED")
        c.check(ns(ev[1]["new_sec"], ev[1]["new_nsec"]) == c1, "swap 1's new ctime is what stat() returned next")
        c.check(ns(ev[2]["ctime_sec"], ev[2]["ctime_nsec"]) == c1, "stat 2 shows it, nanoseconds included")
        c.check(ev[3]["old_nsec"] == c1 % 10**9 and ev[3]["old_queried"], "swap 2 replaced it, QUERIED")
        c.check(ns(ev[3]["new_sec"], ev[3]["new_nsec"]) == c2 == ns(ev[4]["ctime_sec"], ev[4]["ctime_nsec"]),
                "swap 2 and stat 3 show the last ctime")
        c.check(all(e["ino"] == ino and e["pid"] == out["pid"] and e["name"] == name for e in ev),
                "every event names the file's inode, the workload's pid and the file name")
        c.check(all(0 <= e["ctime_nsec" if "ctime_nsec" in e else "new_nsec"] < 10**9 for e in ev),
                "nanoseconds < 1e9: the QUERIED bit is masked")
    c.check(s is not None and s.get("events") == 5 and s.get("lost_events") == 0,
            f"summary: 5 events, 0 lost ({s and s.get('events')}, {s and s.get('lost_events')})")


def check_trace_filter(c, objs, ino, comm, n):
    """trace --path --comm: N events, all of COMM on inode INO."""
    ev = events_of(objs)
    c.check(len(ev) == n, f"trace filter: {n} events of comm {comm} on the file ({len(ev)})")
    c.check(all(e["comm"] == comm for e in ev), f"no event from another comm ({sorted({e['comm'] for e in ev})})")
    c.check(all(e["ino"] == ino for e in ev), f"no event from another file ({sorted({e['ino'] for e in ev})})")


def check_trace_tids(c, objs, name, n):
    """N threads stat the file NAME (stress --shared)."""
    tids = {e["tid"] for e in objs if e.get("event") == "stat" and e.get("name") == name}
    c.check(len(tids) == n, f"trace: {n} threads stat {name} ({len(tids)})")


def trace_events(objs, fmt="dev", only=None):
    """The events as one line of words: fmt dev "kind@dev:ino", comm "kind/comm", queried
    "kind" plus "/QUERIED" for a swap whose old value had it; only: that kind alone."""
    words = []
    for e in events_of(objs):
        if only and e["event"] != only:
            continue
        if fmt == "dev":
            words.append(f'{e["event"]}@{e["dev"]}:{e["ino"]}')
        elif fmt == "comm":
            words.append(f'{e["event"]}/{e["comm"]}')
        else:
            words.append(e["event"] + ("/QUERIED" if e.get("old_queried") else ""))
    return " ".join(words)


def check_trace_events(c, objs, label, want, fmt="dev", only=None, pids=None):
    """The events (trace_events()) are exactly WANT; pids: from that many processes."""
    got = trace_events(objs, fmt, only)
    c.check(got == want, f"{label}: events '{got}', want '{want}'")
    if pids is not None:
        n = len({e["pid"] for e in events_of(objs)})
        c.check(n == pids, f"{label}: events from {pids} processes ({n})")


def check_trace_summary(c, objs, label, conds):
    """Fields of the trace summary: KEY=VALUE (JSON value, or None/absent), KEY~TEXT (a
    substring), roles=ROLE@DEV,... (the traced inodes)."""
    s = trace_summary_of(objs) or {}
    for cond in conds:
        if "~" in cond:
            k, v = cond.split("~", 1)
            c.check(v in str(s.get(k) or ""), f"{label}: summary {k} contains '{v}' ({s.get(k)!r})")
        elif cond.startswith("roles="):
            got = ",".join(i["role"] + "@" + i["dev"] for i in s.get("inodes") or [])
            c.check(got == cond[6:], f"{label}: summary inodes '{got}', want '{cond[6:]}'")
        else:
            k, v = cond.split("=", 1)
            got = s.get(k)
            c.check(got is None if v == "None" else got == json.loads(v),
                    f"{label}: summary {k} {got!r}, want {v}")


def check_workload_dir(c, r, dev, mount):
    """check --dir DIR: the report names DIR's device and mount point, and passes."""
    wd = r.get("workload_dir") or {}
    c.check(wd.get("dev") == dev, f"check --dir: workload_dir dev {wd.get('dev')} == mountinfo {dev}")
    c.check(wd.get("mount") == mount, f"workload_dir mount {wd.get('mount')!r} is {mount!r}")
    c.check(r.get("verdict") == "PASS", f"check --dir: {r.get('verdict')} ({r.get('reason')})")


def check_command_status(c, objs, want):
    """The last object's command_status is WANT: "null", or an exit code."""
    got = objs[-1].get("command_status", "absent") if objs else "no object"
    c.check(got == (None if want == "null" else int(want)), f"command_status {got!r} (want {want})")


def check_command_end(c, r, verdict, signal, pattern):
    """A check -- COMMAND report: VERDICT; command_signal SIGNAL ("null": none); the reason
    matches the regular expression PATTERN; command_status null exactly when COMMAND did not
    end ("not even after SIGKILL"), else 128 + the signal's number when one killed it."""
    c.check(r.get("verdict") == verdict, f"verdict {r.get('verdict')} (want {verdict}): {r.get('reason')}")
    want = None if signal == "null" else signal
    c.check("command_signal" in r and r["command_signal"] == want,
            f"command_signal {r.get('command_signal', 'absent')} (want {want})")
    c.check(bool(re.search(pattern, r.get("reason", ""))), f"the reason {r.get('reason')!r} "
            f"matches {pattern!r}")
    st = r.get("command_status", "absent")
    if "not even after SIGKILL" in pattern:
        c.check(st is None, f"command_status null for a COMMAND that did not end ({st})")
    elif want:
        num = {"SIGKILL": 9, "SIGTERM": 15, "SIGINT": 2}[want]
        c.check(st == 128 + num, f"command_status {st} (want {128 + num})")
    else:
        c.check(isinstance(st, int), f"command_status an exit code ({st})")


def check_interrupted(c, r, sig, verdict, status=None):
    """A check report of a run SIG (e.g. SIGINT; "none": no signal) ended early: VERDICT
    with its exit code; "interrupted" names SIG, after_s within planned_s (built-in), and
    the reason carries its text; with COMMAND, command_status STATUS, from the signal
    exactly when STATUS is 128 + SIG's number."""
    c.check(r.get("verdict") == verdict and r.get("exit_code") == {"PASS": 0, "FAIL": 1, "INCONCLUSIVE": 4}[verdict],
            f"verdict {r.get('verdict')} exit_code {r.get('exit_code')} (want {verdict}): {r.get('reason')}")
    it = r.get("interrupted", "absent")
    if sig == "none":
        c.check(it is None, f"interrupted is null: {it}")
        if status is not None:
            c.check(r.get("command_status") == status and r.get("command_status_from_signal") is False,
                    f"command_status {r.get('command_status')} (want {status}), COMMAND's own: "
                    f"from the signal {r.get('command_status_from_signal')}")
        return
    if not c.check(isinstance(it, dict) and it.get("signal") == sig, f"interrupted names {sig}: {it}"):
        return
    planned = it.get("planned_s")
    c.check(it.get("after_s", -1) >= 0 and (planned is None) == (r.get("workload") == "command") and
            (planned is None or it["after_s"] < planned),
            f"interrupted after {it.get('after_s')} s of {planned} s ({r.get('workload')})")
    reason = r.get("reason", "")
    c.check(bool(it.get("text")) and (reason == it["text"] if verdict == "INCONCLUSIVE" else reason.endswith("; " + it["text"])),
            f"the reason {reason!r} carries {it.get('text')!r}")
    if status is not None:
        num = {"SIGHUP": 1, "SIGINT": 2, "SIGTERM": 15}[sig]
        c.check(r.get("command_status") == status and r.get("command_status_from_signal") is (status == 128 + num),
                f"command_status {r.get('command_status')} (want {status}), from the signal: "
                f"{r.get('command_status_from_signal')}")


def check_trace_unlinked(c, objs, gone, kept):
    """trace --json of a file written and stat'ed, unlinked while open, written and fstat'ed
    again (ino gone), beside one never unlinked (ino kept): gone's first event is not
    unlinked and its last is; kept's never are."""
    ev = [o for o in objs if o.get("type") == "event"]
    g = [o for o in ev if o["ino"] == gone]
    k = [o for o in ev if o["ino"] == kept]
    c.check(len(g) >= 2 and g[0]["unlinked"] is False and g[-1]["unlinked"] is True,
            f"unlinked while open: first event linked, last unlinked "
            f"({[(o['event'], o['unlinked']) for o in g]})")
    c.check(k and all(o["unlinked"] is False for o in k),
            f"never unlinked: every event linked ({[(o['event'], o['unlinked']) for o in k]})")


def check_trace_dev(c, objs, dev, n):
    """N events, every one on device DEV (the kernel's s_dev)."""
    ev = events_of(objs)
    c.check(len(ev) == n and all(e["dev"] == dev for e in ev),
            f"trace: {len(ev)} events (want {n}), dev {sorted({e['dev'] for e in ev})} == {dev}")


def probe_field(p, keys):
    """The first of keys that probe --json sets (not null), else None."""
    return next((p[k] for k in keys if p.get(k) is not None), None)


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


def set_figure(src, dst, figure, value):
    """Write a copy of check report src to dst with one floor figure doctored (a baseline
    that must fail)."""
    r = first_report(src)
    r["floor_figures"][figure] = value
    with open(dst, "w") as f:
        f.write(json.dumps(r) + "\n")


def check_json_first_line(c, path):
    """The file's first line is one JSON object."""
    try:
        with open(path) as f:
            o = json.loads(f.readline())
        c.check(isinstance(o, dict), f"{path}: the first line is a JSON object ({type(o).__name__})")
    except (ValueError, OSError) as e:
        c.check(False, f"{path}: the first line is not JSON: {e}")


# ---- issue 17: output that parses and says what holds; one meaning per option letter ----

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


def check_junit_text(c, root, text):
    """check's JUnit (root) against its text report (lines): one <failure> per FAIL line,
    the failures attribute the same, each message with expected and actual."""
    fails = list(root.iter("failure"))
    lines = [ln.strip() for ln in text if ln.startswith("FAIL ")]
    c.check(int(root.get("failures", -1)) == len(fails) == len(lines) > 0,
            f"junit: failures={root.get('failures')}, {len(fails)} <failure>, {len(lines)} FAIL lines: {lines}")
    c.check(bool(fails) and all("expected" in (f.get("message") or "") and "got" in (f.get("message") or "")
                                for f in fails),
            f"junit: every failure says expected and got: {[f.get('message') for f in fails]}")
    check_junit_strict(c, root)


def check_junit_strict(c, root):
    """What the strict Ant JUnit schema requires: timestamp (ISO 8601, no zone), hostname and
    time on the testsuite, name and time on each testcase, type on each failure and error;
    tests= the testcases listed."""
    miss = [a for a in ("name", "tests", "failures", "errors", "skipped", "timestamp", "hostname", "time")
            if root.get(a) is None]
    c.check(not miss and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", root.get("timestamp") or "")
            is not None, f"junit: testsuite attributes (missing {miss}, timestamp {root.get('timestamp')!r})")
    cases = root.findall("testcase")
    c.check(cases and int(root.get("tests", -1)) == len(cases) and
            all(t.get("name") and t.get("time") is not None for t in cases),
            f"junit: {len(cases)} testcases, tests={root.get('tests')}, each with name and time")
    bad = [t.get("name") for t in cases for e in list(t.iter("failure")) + list(t.iter("error"))
           if not e.get("type")]
    c.check(not bad, f"junit: every failure and error has a type (not: {bad})")


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


def check_stat_csv(c, lines, n):
    """stat -x , -c N: a header of row names, N rows of as many fields, then the summary's."""
    import csv
    rows = list(csv.reader(lines))
    hdr = rows[0] if rows else []
    iv = rows[1:1 + n]
    c.check(hdr[:2] == ["time", "ctime_updates"] and hdr[-2:] == ["debugfs", "approximate"],
            f"header: {hdr}")
    c.check(len(iv) == n and all(len(r) == len(hdr) and r[1].isdigit() for r in iv),
            f"{n} interval rows of {len(hdr)} fields, numbers unpadded: {iv}")
    c.check(len(rows) > n + 1 and rows[n + 1][:3] == ["counter", "total", "source"],
            f"then the summary's header: {rows[n + 1] if len(rows) > n + 1 else None}")


CSV_MARKS = ("<not counted>", "<not supported>")
CSV_TIME = re.compile(r"\d\d:\d\d:\d\d(\.\d{3})?")


def check_stat_csv_fields(c, lines, sep=","):
    """stat -x , [-A] [-i S]: every line (interval rows, per-CPU tables, the summary) is
    fields without padding; a value is a number, or perf stat -x's <not counted> (an option
    would count it: -e, --hot) or <not supported> (this backend or scope cannot), never empty;
    the summary keeps the reason in its last field."""
    import csv
    padded, bad, blocks, marks = [], [], {"time": 0, "per-CPU": 0, "counter": 0}, set()
    hdr = None
    for ln, row in enumerate(csv.reader(lines, delimiter=sep), 1):
        if not row:
            continue
        padded += [f"{ln}: {f!r}" for f in row if f != f.strip()]
        if row[0] in blocks:
            hdr = row
            blocks[row[0]] += 1
            continue
        if hdr is None or len(row) != len(hdr):
            bad.append(f"{ln}: {len(row)} fields under {hdr and len(hdr)}: {row}")
            continue
        if hdr[0] == "time":
            vals = row[1:-2]
            if not CSV_TIME.fullmatch(row[0]):
                bad.append(f"{ln}: time {row[0]!r}")
            # the last field names the approximate counters of the row, "-" for none
            if row[-1] != "-" and not set(row[-1].split(" ")) <= set(hdr[1:-2]):
                bad.append(f"{ln}: approximate {row[-1]!r} names no column")
        elif hdr[0] == "per-CPU":
            vals = row[1:]
        else:
            vals = row[1:2]
            if row[2] == "unavailable":
                why = row[7]
                want = ("<not counted>" if "opt in with" in why or "need --hot" in why
                        else "<not supported>")
                if " - " not in row[7].split(";")[0] and row[1] != want:
                    bad.append(f"{ln}: {row[0]} is {row[1]}, its reason says {want}: {why}")
                if not why:
                    bad.append(f"{ln}: {row[0]} unavailable without a reason")
        for v in vals:
            if v in CSV_MARKS:
                marks.add(v)
            elif not v.isdigit():
                bad.append(f"{ln}: value {v!r} in {row}")
    c.check(not padded, f"no field padded: {padded[:4]}")
    c.check(not bad, f"every value a number or <not counted>/<not supported>: {bad[:4]}")
    c.check(blocks["counter"] == 1, f"one summary block: {blocks}")
    return marks, blocks


def check_count_ended(c, objs):
    """stat -c N -- COMMAND still running: the summary says mgtrace ended it (status 143)."""
    s = summary_of(objs) or {}
    c.check(s.get("command_ended_by_count") is True and s.get("command_status") == 143,
            f"COMMAND ended by the count, its status 143: {s.get('command_ended_by_count')}, "
            f"{s.get('command_status')}")


def selftest_host(results):
    """Cases that must fail for the checks of tests/host.d (and one that must pass each)."""
    def run(label, fn, *args, want_fail=True, **kw):
        c = Checker(quiet=True)
        fn(c, *args, **kw)
        results.append((("fails on " if want_fail else "passes: ") + label,
                        bool(c.failures) == want_fail))

    def cp(o):
        return json.loads(json.dumps(o))

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
    rej = {"percpu_readable": False, "percpu_reason": "btf offsets: rejected: mg_ctime_updates: per-CPU "
           "sum 5 below the debugfs readings around it [7, 7]"}
    run("pcpu-rejected: a rejected reading", check_pcpu_rejected, rej, want_fail=False)
    run("pcpu-rejected: a readable per-CPU reader", check_pcpu_rejected, dict(rej, percpu_readable=True))
    run("pcpu-rejected: rejected for another reason", check_pcpu_rejected,
        dict(rej, percpu_reason="btf offsets: mg_ctime_updates not in BTF"))
    results.append(("probe-field: the first key set",
                    probe_field({"a": None, "b": "kernel", "c": "x"}, ["a", "b"]) == "kernel"
                    and probe_field({}, ["a"]) is None))
    results.append(("widest-bracket: the widest of all rows",
                    widest_bracket([{"counters": {"a": {"debugfs_bracket": {"width": 3}}, "b": {}}},
                                    {"counters": {"c": {"debugfs_bracket": {"width": 0}}}}]) == 3))
    bl = ['[{"name": "tpb_fill_mg_cmtime"}, {"name": "other"}, {"name": "read_pcpu"}]',
          '[{"tp_name": "fill_mg_cmtime"}, {"tp_name": "sched_switch"}]']
    results.append(("bpf-ours: our programs and timestamp links only",
                    sorted(bpf_ours(bl)) == ["link:fill_mg_cmtime", "prog:read_pcpu", "prog:tpb_fill_mg_cmtime"]
                    and sorted(bpf_ours(bl, True)) == ["link:fill_mg_cmtime", "prog:tpb_fill_mg_cmtime"]))

    # issue 17 checks
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tf:
        tf.write('{"type":"interval"}\n{"type":"summary"}\n')
    run("json-lines: JSON lines ending in the summary", check_json_lines, tf.name, "summary", want_fail=False)
    run("json-lines: the wrong last type", check_json_lines, tf.name, "check")
    with open(tf.name, "a") as f:
        f.write("stress: 2 threads x 4 files ...\n")
    run("json-lines: a line of COMMAND's output among the JSON", check_json_lines, tf.name)
    os.unlink(tf.name)
    jt_s = ('<testsuite name="s" tests="1" failures="1" errors="0" skipped="0" '
                       'timestamp="2026-12-02T01:00:00" hostname="h" time="1.0"><testcase '
                       'name="COMMAND succeeds" time="1.0"><failure type="command" '
                       'message="expected exit status 0, got 1"/></testcase></testsuite>')
    jt = ET.fromstring(jt_s)
    run("junit-text: one failure per FAIL line", check_junit_text, jt, ["FAIL   COMMAND succeeds  x\n"],
        want_fail=False)
    run("junit-text: a FAIL line without a failure", check_junit_text, jt,
        ["FAIL   COMMAND succeeds  x\n", "FAIL   floor gate\n"])
    run("junit-text: failures=0 while the text fails", check_junit_text, ET.fromstring(
        '<testsuite failures="0"><testcase name="a"/></testsuite>'), ["FAIL   COMMAND succeeds\n"])
    run("junit-text: a suite without timestamp and hostname (the strict Ant schema)", check_junit_text,
        ET.fromstring('<testsuite name="s" tests="1" failures="1" errors="0" skipped="0" time="1">'
                      '<testcase name="COMMAND succeeds" time="1"><failure type="command" '
                      'message="expected exit status 0, got 1"/></testcase></testsuite>'),
        ["FAIL   COMMAND succeeds  x\n"])
    run("junit-text: a failure without a type", check_junit_text, ET.fromstring(
        jt_s.replace(' type="command"', '')), ["FAIL   COMMAND succeeds  x\n"])
    run("junit-text: a message without expected and actual", check_junit_text, ET.fromstring(
        '<testsuite failures="1"><testcase name="a"><failure message="0.9 &gt; 0.7"/></testcase></testsuite>'),
        ["FAIL   a\n"])
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
    cv = ["time,ctime_updates,x,debugfs,approximate", "22:07:46.123,5,,yes,-",
          "22:07:46.423,6,,within,x", "counter,total,source", "ctime_updates,11,kernel"]
    run("stat-csv: rows under the header, then the summary", check_stat_csv, cv, 2, want_fail=False)
    run("stat-csv: a padded or missing number", check_stat_csv,
        [cv[0], "22:07:46.123,  5,,yes,-", cv[2], cv[3]], 2)
    run("stat-csv: no approximate column", check_stat_csv,
        ["time,ctime_updates,x,debugfs", "22:07:46.123,5,,yes", "22:07:46.423,6,,within"] + cv[3:], 2)
    xs = ["time,a,b,debugfs,approximate", "22:07:46.123,5,<not supported>,yes,-",
          "per-CPU,CPU0,CPU1", "a,2,3", "b,<not supported>,<not supported>",
          "counter,total,source,debugfs_low,debugfs_high,match,approximate,from",
          'a,5,kernel,5,5,yes,,"mg_ctime_updates"',
          'b,<not supported>,unavailable,,,,,"needs a function-probe backend and --hot"',
          'c,<not counted>,unavailable,,,,,"tp_btf x; not counted: opt in with -e c (or -e all)"']
    run("stat-csv-fields: plain fields, perf's markers", check_stat_csv_fields, xs, want_fail=False)
    run("stat-csv-fields: a padded per-CPU row", check_stat_csv_fields,
        xs[:3] + ["a      ,    2,    3"] + xs[4:])
    run("stat-csv-fields: an unmeasured interval value left empty", check_stat_csv_fields,
        [xs[0], "22:07:46.123,5,,yes,-"] + xs[2:])
    run("stat-csv-fields: an approximate row named that is no column", check_stat_csv_fields,
        [xs[0], "22:07:46.123,5,<not supported>,yes,zz"] + xs[2:])
    run("stat-csv-fields: the approximate field left empty", check_stat_csv_fields,
        [xs[0], "22:07:46.123,5,<not supported>,yes,"] + xs[2:])
    run("stat-csv-fields: an unavailable summary total left empty", check_stat_csv_fields,
        xs[:7] + ['b,,unavailable,,,,,"needs a function-probe backend and --hot"'] + xs[8:])
    run("stat-csv-fields: not counted where it cannot be counted", check_stat_csv_fields,
        xs[:7] + [xs[7].replace("<not supported>", "<not counted>", 1)] + xs[8:])
    run("stat-csv-fields: not supported where an option counts it", check_stat_csv_fields,
        xs[:8] + [xs[8].replace("<not counted>", "<not supported>")])
    run("count-ended: ended by the count", check_count_ended,
        [{"type": "summary", "command_ended_by_count": True, "command_status": 143}], want_fail=False)
    run("count-ended: COMMAND ended by itself", check_count_ended,
        [{"type": "summary", "command_ended_by_count": False, "command_status": 0}])

    ju = ('<testsuite tests="3" failures="1"><testcase name="floor_swaps_per_update"><failure '
          'message="0.5 &gt; 0.0001 (limit)"/></testcase><testcase name="no ctime regression"/>'
          '<testcase name="x"/></testsuite>')
    run("junit-gate: one breached gate", check_junit_gate, ET.fromstring(ju), 3, "floor_swaps_per_update",
        want_fail=False)
    run("junit-gate: a testcase missing", check_junit_gate, ET.fromstring(ju), 4, "floor_swaps_per_update")
    run("junit-gate: another gate failed", check_junit_gate, ET.fromstring(ju), 3, "x")
    run("junit-gate: a message without the limit", check_junit_gate, ET.fromstring(ju), 3,
        "floor_swaps_per_update", "> 0.001 (limit)")
    run("junit-gate: a regression failure too", check_junit_gate, ET.fromstring(
        ju.replace('<testcase name="no ctime regression"/>',
                   '<testcase name="no ctime regression"><failure message="r"/></testcase>')),
        3, "floor_swaps_per_update")

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

    c0, c1, c2 = 100 * 10**9 + 5, 100 * 10**9 + 7, 101 * 10**9 + 1
    q = 1 << 31

    def ev(kind, **kw):
        return dict({"type": "event", "event": kind, "ino": 9, "pid": 42, "tid": 42, "name": "f",
                     "comm": "mgtestA", "dev": "0:5"}, **kw)
    seq = [{"ctime_ns": [c0, c1, c2], "pid": 42},
           ev("stat", ctime_sec=100, ctime_nsec=5),
           ev("ctime_swap", old_nsec=5, old_queried=True, new_sec=100, new_nsec=7),
           ev("stat", ctime_sec=100, ctime_nsec=7),
           ev("ctime_swap", old_nsec=7, old_queried=True, new_sec=101, new_nsec=1),
           ev("stat", ctime_sec=101, ctime_nsec=1),
           {"type": "trace_summary", "events": 5, "lost_events": 0}]
    run("trace-seq: the workload's sequence", check_trace_seq, seq, 9, "f", want_fail=False)
    for label, mut in (("two events swapped", lambda s: s.insert(2, s.pop(3))),
                       ("a stat of another ctime", lambda s: s[3].update(ctime_nsec=8)),
                       ("an old value not QUERIED", lambda s: s[2].update(old_queried=False)),
                       ("the QUERIED bit left in nsec", lambda s: s[5].update(ctime_nsec=1 | q)),
                       ("a lost event", lambda s: s[6].update(lost_events=1))):
        bad = cp(seq)
        mut(bad)
        run("trace-seq: " + label, check_trace_seq, bad, 9, "f")
    run("trace-seq: another inode", check_trace_seq, seq, 8, "f")
    run("trace-filter: 5 events of one comm", check_trace_filter, seq, 9, "mgtestA", 5, want_fail=False)
    run("trace-filter: another comm", check_trace_filter, seq[:5] + [ev("stat", comm="mgtestB")], 9,
        "mgtestA", 5)
    run("trace-filter: another file", check_trace_filter, seq, 8, "mgtestA", 5)
    run("trace-tids: one thread where two are wanted", check_trace_tids, seq, "f", 2)
    run("trace-tids: two threads", check_trace_tids, seq + [ev("stat", tid=43)], "f", 2, want_fail=False)
    ce = {"verdict": "INCONCLUSIVE", "command_signal": "SIGKILL", "command_status": 137,
          "reason": "interrupted by SIGTERM after 1.00 s: COMMAND was killed by SIGKILL 0.50 s later"}
    run("command-end: killed by the second signal", check_command_end, ce, "INCONCLUSIVE", "SIGKILL",
        "COMMAND was killed by SIGKILL", want_fail=False)
    for label, mut in (("no command_signal", lambda r: r.pop("command_signal")),
                       ("said as an exit", lambda r: r.update(reason="COMMAND exited with status 137")),
                       ("a FAIL", lambda r: r.update(verdict="FAIL"))):
        bad = cp(ce)
        mut(bad)
        run("command-end: " + label, check_command_end, bad, "INCONCLUSIVE", "SIGKILL",
            "COMMAND was killed by SIGKILL")
    run("command-status: null", check_command_status, [{"command_status": None}], "null", want_fail=False)
    run("command-status: 0 where null is wanted", check_command_status, [{"command_status": 0}], "null")
    run("command-end: a status for a COMMAND that did not end", check_command_end,
        dict(ce, command_signal=None, reason="x: not even after SIGKILL"), "INCONCLUSIVE", "null",
        "not even after SIGKILL")
    ul = [ev("ctime_swap", unlinked=False), ev("stat", unlinked=False), ev("ctime_swap", unlinked=True),
          ev("ctime_swap", ino=8, unlinked=False)]
    run("trace-unlinked: linked, then unlinked", check_trace_unlinked, ul, 9, 8, want_fail=False)
    for label, mut in (("never marked", lambda s: s[2].update(unlinked=False)),
                       ("marked from the start", lambda s: s[0].update(unlinked=True)),
                       ("the kept file marked", lambda s: s[3].update(unlinked=True))):
        bad = cp(ul)
        mut(bad)
        run("trace-unlinked: " + label, check_trace_unlinked, bad, 9, 8)
    words = "stat@0:5:9 ctime_swap@0:5:9 stat@0:5:9 ctime_swap@0:5:9 stat@0:5:9"
    run("trace-events: the sequence", check_trace_events, seq, "t", words, want_fail=False)
    run("trace-events: another sequence", check_trace_events, seq, "t", words.replace("stat@", "x@", 1))
    run("trace-events: one process where two are wanted", check_trace_events, seq, "t", words, pids=2)
    run("trace-events: swaps with QUERIED", check_trace_events, seq, "t", "ctime_swap/QUERIED ctime_swap/QUERIED",
        fmt="queried", only="ctime_swap", want_fail=False)
    run("trace-events: a QUERIED swap where none is wanted", check_trace_events, seq, "t",
        "ctime_swap ctime_swap", fmt="queried", only="ctime_swap")
    run("trace-events: comm", check_trace_events, seq[:2], "t", "stat/mgtestB", fmt="comm")
    ts = [{"type": "trace_summary", "processes_followed": 2, "inodes_note": "btrfs subvolumes share one s_dev",
           "inodes": [{"role": "overlay", "dev": "0:40"}, {"role": "upper", "dev": "0:41"}]}]
    run("trace-summary: fields", check_trace_summary, ts, "t",
        ["processes_followed=2", "copied_up_untraced=None", "inodes_note~share one s_dev",
         "roles=overlay@0:40,upper@0:41"], want_fail=False)
    for cond in ("processes_followed=3", "processes_followed=None", "inodes_note~copies it up",
                 "roles=upper@0:41", "processes_not_followed=0"):
        run("trace-summary: " + cond, check_trace_summary, ts, "t", [cond])
    wd = {"workload_dir": {"dev": "7:0", "mount": "/m x"}, "verdict": "PASS", "reason": ""}
    run("workload-dir: the loop mount", check_workload_dir, wd, "7:0", "/m x", want_fail=False)
    run("workload-dir: another device", check_workload_dir, wd, "7:1", "/m x")
    run("workload-dir: another mount point", check_workload_dir, wd, "7:0", "/m")
    run("workload-dir: a FAIL verdict", check_workload_dir, dict(wd, verdict="FAIL"), "7:0", "/m x")
    t = "interrupted by SIGINT after 1.00 s: COMMAND did not run to its end"
    it = {"verdict": "INCONCLUSIVE", "exit_code": 4, "reason": t, "workload": "command",
          "command_status": 130, "command_status_from_signal": True,
          "interrupted": {"signal": "SIGINT", "after_s": 1.0, "planned_s": None, "text": t}}
    run("interrupted: COMMAND ended by the SIGINT", check_interrupted, it, "SIGINT", "INCONCLUSIVE", 130,
        want_fail=False)
    run("interrupted: a PASS", check_interrupted, dict(it, verdict="PASS", exit_code=0), "SIGINT", "INCONCLUSIVE")
    run("interrupted: not recorded", check_interrupted, dict(it, interrupted=None), "SIGINT", "INCONCLUSIVE")
    run("interrupted: another signal", check_interrupted, it, "SIGTERM", "INCONCLUSIVE")
    run("interrupted: a reason without it", check_interrupted, dict(it, reason="x"), "SIGINT", "INCONCLUSIVE")
    run("interrupted: 130 taken for COMMAND's failure", check_interrupted,
        dict(it, command_status_from_signal=False), "SIGINT", "INCONCLUSIVE", 130)
    run("interrupted: after the planned end", check_interrupted,
        dict(it, workload="built-in", interrupted=dict(it["interrupted"], planned_s=0.5)), "SIGINT", "INCONCLUSIVE")
    run("interrupted: none wanted", check_interrupted, it, "none", "INCONCLUSIVE")
    own = dict(it, verdict="FAIL", exit_code=1, reason="COMMAND exited with status 143", command_status=143,
               command_status_from_signal=False, interrupted=None)
    run("interrupted: none, COMMAND's own 143", check_interrupted, own, "none", "FAIL", 143, want_fail=False)
    run("interrupted: none, but 143 taken for a signal's", check_interrupted,
        dict(own, command_status_from_signal=True), "none", "FAIL", 143)
    fl = dict(it, verdict="FAIL", exit_code=1, reason="1 violation(s), 0 floor gate(s) failed; " + t)
    run("interrupted: a violation still FAILs", check_interrupted, fl, "SIGINT", "FAIL", want_fail=False)
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
    run("trace-dev: 5 events on 0:5", check_trace_dev, seq, "0:5", 5, want_fail=False)
    run("trace-dev: another device", check_trace_dev, seq, "7:0", 5)
    run("trace-dev: 4 events where 5 are wanted", check_trace_dev, seq[:5], "0:5", 5)
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write("mgtrace: unknown command\n")
        f.flush()
        run("json-first-line: an error message", check_json_first_line, f.name)
        f.seek(0)
        f.truncate()
        f.write(json.dumps({"type": "check", "floor_figures": {"floor_swaps_per_update": 0.5}}) + "\n")
        f.flush()
        run("json-first-line: a report", check_json_first_line, f.name, want_fail=False)
        set_figure(f.name, f.name, "floor_swaps_per_update", 0.001)
        results.append(("set-figure: the doctored figure is written",
                        first_report(f.name)["floor_figures"]["floor_swaps_per_update"] == 0.001))


def selftest():
    """Every check above must be able to fail: feed each a case that must fail."""
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
    results = [("clean summary passes", not ok.failures)]

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
    probe = {"type": "probe", "schema_version": 1, "multigrain": True, "floor_api": "mainline",
             "auto_backend": "tracepoint", "percpu_readable": False, "debugfs": {"readable": True},
             "backends": {"fentry": {"attachable": True, "reason": "loaded"},
                          "kprobe": {"attachable": False, "reason": "kernel has no kprobes"},
                          "tracepoint": {"attachable": True, "reason": "ok"}}}
    c = Checker(quiet=True)
    check_probe(c, probe, "host-lockdown")
    results.append(("probe: fails when fentry is reported attachable under lockdown", bool(c.failures)))
    c = Checker(quiet=True)
    check_probe(c, probe, "vm-multigrain")
    results.append(("probe: fails when kprobe is refused in the VM", bool(c.failures)))
    c = Checker(quiet=True)
    check_probe(c, probe, "vm-nomultigrain")
    results.append(("probe: fails when multigrain is reported on 6.12", bool(c.failures)))

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
            ("more getattrs without context than judged getattrs", lambda r: r["judged"].update(
             where="bpf", inode_map_entries=1, events_without_context_read=6,
             events_without_lock=1), {})):
        bad_rep = json.loads(json.dumps(rep))
        mutate(bad_rep)
        if "pass_" in bad_rep["gates"][0]:
            bad_rep["gates"][0]["pass"] = False
        c = Checker(quiet=True)
        check_check(c, [bad_rep], **kw)
        results.append((f"check: fails on {label}", bool(c.failures)))

    # names: the decoding rule, and the trace/command checks on broken encodings
    results.append(("unescape: doubled backslash then xff is text, not the byte 0xff",
                    unescape("\\\\xff") == b"\\xff" and unescape("\\xff") == b"\xff"))
    try:
        unescape("a\\qb")
        results.append(("unescape: an undocumented escape is an error", False))
    except ValueError:
        results.append(("unescape: an undocumented escape is an error", True))
    euro = "€" * 10
    good_ev = [{"type": "event", "comm": "abcdefghijklmn", "comm_truncated": True, "dev": "8:1",
                "ino": 5, "name": nm, "name_truncated": cut}
               for nm, cut in ((euro, True), ("bad\\xffbyte", False), ("new\nline", False),
                               ('q"uote\\\\back', False)) for _ in range(3)]
    c = Checker(quiet=True)
    check_trace_names(c, good_ev)
    results.append(("trace-names: the documented encoding passes", not c.failures))
    for label, mutate in (
            ("a missing name key", lambda e: e[0].pop("name")),
            ("the cut name not marked truncated", lambda e: [o.update(name_truncated=False)
                                                            for o in e if o["name"] == euro]),
            ("0xff replaced by U+FFFD", lambda e: [o.update(name="bad\ufffdbyte")
                                                   for o in e if o["name"] == "bad\\xffbyte"]),
            ("a backslash not doubled", lambda e: [o.update(name='q"uote\\back')
                                                   for o in e if "uote" in o["name"]]),
            ("the partial comm character kept as \\xc3", lambda e: [o.update(comm="abcdefghijklmn\\xc3")
                                                                    for o in e]),
            ("comm not marked truncated", lambda e: [o.update(comm_truncated=False) for o in e])):
        bad_ev = json.loads(json.dumps(good_ev))
        mutate(bad_ev)
        c = Checker(quiet=True)
        check_trace_names(c, bad_ev)
        results.append((f"trace-names: fails on {label}", bool(c.failures)))
    c = Checker(quiet=True)
    check_command(c, [{"type": "check", "command": ["x", "\ufffd"]}], "check", [b"x", b"\xff"])
    results.append(("command: fails on 0xff replaced by U+FFFD", bool(c.failures)))
    c = Checker(quiet=True)
    check_command(c, [{"type": "check", "command": ["x", "\\xff"]}], "check", [b"x", b"\xff"])
    results.append(("command: \\xff text passes", not c.failures))
    root = ET.fromstring('<testsuite><properties><property name="command[0]" value="a\\nb"/>'
                         '</properties></testsuite>')
    c = Checker(quiet=True)
    check_junit_command(c, root, [b"a\nb"])
    results.append(("junit-command: an escaped newline passes", not c.failures))
    c = Checker(quiet=True)
    check_junit_command(c, root, [b"a\nb", b"\xff"])
    results.append(("junit-command: fails on a missing argument", bool(c.failures)))
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

    selftest_host(results)

    bad = 0
    for label, good_result in results:
        print(("ok   " if good_result else "FAIL ") + "selftest: " + label)
        bad += not good_result
    return 1 if bad else 0


def opt(args, flag, default=None):
    """The value after flag in args, else default."""
    return args[args.index(flag) + 1] if flag in args else default


def check_map_full(c, r):
    """check --max-inodes 1 judged in BPF: the map full at its bound, the rest untracked."""
    j, i = r["judged"], r["invariants"]
    c.check(j["where"] == "bpf" and j["inode_map_entries"] == 1 == j["inode_map_max_entries"] and
            i["untracked_events"] > 0 and r["verdict"] == "INCONCLUSIVE",
            f"--max-inodes 1: map {j['inode_map_entries']} of {j['inode_map_max_entries']}, "
            f"{i['untracked_events']} untracked events, {r['verdict']}")


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


def check_dir_visibility(c, r, rc, seen, name=None):
    """check -- dirvis DIR N: the workload itself counted `seen` unlinks after a stat of DIR
    that left DIR's ctime not later. seen > 0 (tmpfs copies the child's ctime onto the
    directory): FAIL (exit 1) with at least `seen` not_later_after_query violations, none
    explained by a clock step, each stored report's later observation a ctime_set over the
    queried value; seen == 0 (ext4): PASS with no violation at all."""
    v = r["invariants"]["not_later_after_query"]
    reps = [x for x in r.get("violations") or [] if x.get("kind") == "not_later_after_query"]
    if seen:
        c.check(rc == 1 and r["verdict"] == "FAIL" and v["violations"] >= seen and
                v["explained_by_clock_step"] == 0,
                f"the workload saw {seen}: exit {rc}, {r['verdict']}, {v['violations']} "
                f"not_later_after_query, {v['explained_by_clock_step']} explained")
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


def check_inject_lost(c, r, n, rc):
    """MGTRACE_TEST_INJECT=N through a small ring buffer: records lost, all N counted, FAIL."""
    k, j = r["invariants"]["ctime_regression"]["violations"], r["judged"]
    c.check(rc == 1 and r["verdict"] == "FAIL" and k == n and r["lost_events"] > 0 and
            j["violation_records_lost"] == r["lost_events"] and
            j["violation_records"] + j["violation_records_lost"] == n,
            f"inject {n}: exit {rc}, {k} regressions counted, {j['violation_records']} records "
            f"written, {j['violation_records_lost']} lost, lost_events {r['lost_events']}")


def first_report(path):
    return [o for o in load_lines(path) if o.get("type") == "check"][0]


# Subcommands for tests/host.d: a check prints ok/FAIL lines (None returned); an extractor
# returns the text to print.
HOST_CMDS = {
    "zero-default": lambda c, a: check_zero_default(c, load_lines(a[0])),
    "counter-min": lambda c, a: check_counter_min(c, load_lines(a[0]), a[1], int(a[2])),
    "pcpu-rejected": lambda c, a: check_pcpu_rejected(c, load_lines(a[0])[0]),
    "widest-bracket": lambda c, a: widest_bracket(load_lines(a[0])),
    "bpf-ours": lambda c, a: " ".join(sorted(set(bpf_ours(sys.stdin, "--probes" in a, "--leaked" in a))))
    if "--count" not in a else sum(w.startswith("prog:") for w in bpf_ours(sys.stdin, "--probes" in a,
                                                                           "--leaked" in a)),
    "junit-gate": lambda c, a: check_junit_gate(c, ET.parse(a[0]).getroot(), int(a[1]), a[2],
                                                *a[3:4]),
    "categories": lambda c, a: categories(first_report(a[0])),
    "invariant-min": lambda c, a: check_invariant_min(c, first_report(a[0]), a[1], int(a[2])),
    "step-explained": lambda c, a: check_step_explained(c, first_report(a[0])),
    "example-names": lambda c, a: check_example_names(c, first_report(a[0]), int(a[1]), a[2]),
    "figure-min": lambda c, a: check_figure_min(c, first_report(a[0]), a[1], float(a[2]),
                                                no_gates="--no-gates" in a),
    "trace-seq": lambda c, a: check_trace_seq(c, load_lines(a[0]) + (load_lines(a[2]) if a[2:] else []),
                                              os.stat(a[1]).st_ino, os.path.basename(a[1])),
    "trace-filter": lambda c, a: check_trace_filter(c, load_lines(a[0]), int(a[1]), a[2], int(a[3])),
    "trace-tids": lambda c, a: check_trace_tids(c, [json.loads(x) for x in open(a[0]) if x.startswith("{")],
                                                a[1], int(a[2])),
    "trace-events": lambda c, a: check_trace_events(
        c, load_lines(a[0]), a[1], a[2], fmt=opt(a, "--format", "dev"), only=opt(a, "--only"),
        pids=int(opt(a, "--pids")) if "--pids" in a else None),
    "trace-summary": lambda c, a: check_trace_summary(c, load_lines(a[0]), a[1], a[2:]),
    "workload-dir": lambda c, a: check_workload_dir(c, first_report(a[0]), a[1], a[2]),
    "command-status": lambda c, a: check_command_status(c, load_lines(a[0]), a[1]),
    "interval-sums": lambda c, a: check_interval_sums(c, load_lines(a[0])),
    "command-end": lambda c, a: check_command_end(c, first_report(a[0]), a[1], a[2], a[3]),
    "trace-unlinked": lambda c, a: check_trace_unlinked(c, load_lines(a[0]), int(a[1]), int(a[2])),
    "trace-dev": lambda c, a: check_trace_dev(c, load_lines(a[0]), a[1], int(a[2])),
    "interrupted": lambda c, a: check_interrupted(c, first_report(a[0]), a[1], a[2],
                                                  *[int(x) for x in a[3:4]]),
    "json-first-line": lambda c, a: check_json_first_line(c, a[0]),
    "json-lines": lambda c, a: check_json_lines(c, a[0], *a[1:2]),
    "junit-text": lambda c, a: check_junit_text(c, ET.parse(a[0]).getroot(), open(a[1]).readlines()),
    "counts-sane": lambda c, a: check_counts_sane(c, load_lines(a[0]), int(a[1])),
    "scope": lambda c, a: check_scope(c, load_lines(a[0]), load_lines(a[1]), load_lines(a[2]),
                                      load_lines(a[3]), int(a[4])),
    "partial": lambda c, a: check_partial(c, load_lines(a[0])),
    "stat-csv": lambda c, a: check_stat_csv(c, open(a[0]).read().splitlines(), int(a[1])),
    "stat-csv-fields": lambda c, a: check_stat_csv_fields(c, open(a[0]).read().splitlines(), *a[1:2]),
    "count-ended": lambda c, a: check_count_ended(c, load_lines(a[0])),
    "map-full": lambda c, a: check_map_full(c, first_report(a[0])),
    "inode-gc": lambda c, a: check_inode_gc(c, first_report(a[0]), int(a[1]), int(a[2])),
    "events-window": lambda c, a: check_events_window(c, first_report(a[0])),
    "tree-scope": lambda c, a: check_tree_scope(c, first_report(a[0]), int(a[1])),
    "dir-visibility": lambda c, a: check_dir_visibility(c, first_report(a[0]), int(a[1]),
                                                        int(a[2]), *a[3:4]),
    "inject-lost": lambda c, a: check_inject_lost(c, first_report(a[0]), int(a[1]), int(a[2])),
    "baseline-used": lambda c, a: check_baseline_used(c, first_report(a[0]), first_report(a[1]), a[1]),
    "set-figure": lambda c, a: set_figure(a[0], a[1], a[2], float(a[3])),
    "probe-field": lambda c, a: probe_field(json.load(sys.stdin), a),
}


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = argv[1]
    if cmd == "selftest":
        return selftest()
    c = Checker()
    if cmd == "stat":
        opts = argv[3:]
        kw = {"funcs": "--funcs" in opts, "kernel_percpu": "--kernel-percpu" in opts,
              "exact_kernel": "--exact-kernel" in opts}
        for flag, key in (("--expect-backend", "backend"), ("--min-floor-swaps", "min_floor"),
                          ("--min-stat-queries", "min_stat"), ("--expect-no", "expect_no")):
            if flag in opts:
                v = opts[opts.index(flag) + 1]
                kw[key] = v if key in ("backend", "expect_no") else int(v)
        check_stat(c, load_lines(argv[2]), **kw)
    elif cmd == "check":
        opts = argv[3:]
        kw = {"builtin": "--command" not in opts}
        for flag, key in (("--verdict", "verdict"), ("--min-lost", "min_lost"), ("--breach", "expect_breach"),
                          ("--judged", "judged")):
            if flag in opts:
                v = opts[opts.index(flag) + 1]
                kw[key] = int(v) if key == "min_lost" else v
        objs = load_lines(argv[2])
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
    elif cmd == "intervals":
        opts = argv[4:]
        check_intervals(c, load_lines(argv[2]), int(argv[3]), match="--match" in opts,
                        expect_no=opts[opts.index("--expect-no") + 1] if "--expect-no" in opts else None)
    elif cmd == "probe":
        check_probe(c, load_lines(argv[2])[0], argv[3].lstrip("-"))
    elif cmd == "trace-names":
        check_trace_names(c, load_lines(argv[2]))
    elif cmd == "command":
        check_command(c, load_lines(argv[2]), argv[3], [bytes.fromhex(a) for a in argv[4:]])
    elif cmd == "junit-command":
        check_junit_command(c, ET.parse(argv[2]).getroot(), [bytes.fromhex(a) for a in argv[3:]])
    elif cmd in HOST_CMDS:
        r = HOST_CMDS[cmd](c, argv[2:])
        if r is not None:       # an extractor: its output is the result
            print(r)
            return 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
