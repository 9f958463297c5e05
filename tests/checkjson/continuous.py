# SPDX-License-Identifier: GPL-2.0
"""continuous.py - continuous check (`mgtrace check -i S --json`): the check_interval objects
before the report.

Subcommands: check-intervals, check-prom, check-forget, check-forget-text.
"""
import copy
import os
import sys

from .checker import load_lines, selftest_cases, subcommand

KINDS = ("ctime_regression", "not_later_after_query", "skip_after_query", "cross_file_order",
         "floor_backward", "unneeded_fine_stamp")
RANK = {"PASS": 0, "INCONCLUSIVE": 1, "FAIL": 2}


def check_intervals(c, objs, rc, n, verdicts, final):
    """n check_interval objects (numbered 1..n, only the nth last) and then one check report
    whose verdict is final and exit code rc; each interval's verdict as in verdicts (a
    list, or None: any), the running verdict the worst so far and the report's the last
    running one; a FAIL interval names a first violation; the intervals' events by kind
    and violations sum to the report's (they partition the window)."""
    iv = [o for o in objs if o.get("type") == "check_interval"]
    rep = [o for o in objs if o.get("type") == "check"]
    if not c.check(len(rep) == 1 and objs and objs[-1] is rep[0], "one check report, last"):
        return
    r = rep[0]
    c.check(len(iv) == n and [o["interval"] for o in iv] == list(range(1, n + 1)) and
            [o["last"] for o in iv] == [False] * (n - 1) + [True],
            f"{n} intervals numbered from 1, the last marked: {[(o['interval'], o['last']) for o in iv]}")
    c.check(r["intervals"] == n and r["workload"] in ("none", "command"),
            f"the report counts {r['intervals']} intervals, workload {r['workload']}")
    c.check(r["verdict"] == final and rc == {"PASS": 0, "FAIL": 1, "INCONCLUSIVE": 4}[final] and
            r["interrupted"] is None, f"verdict {r['verdict']} (want {final}), exit {rc}, "
            f"interrupted {r['interrupted']}")
    run = "PASS"
    for i, o in enumerate(iv):
        run = max(run, o["verdict"], key=RANK.get)
        c.check(o["running_verdict"] == run, f"interval {o['interval']}: running "
                f"{o['running_verdict']} (want {run})")
        if verdicts is not None and i < len(verdicts):
            c.check(o["verdict"] == verdicts[i], f"interval {o['interval']}: {o['verdict']} "
                    f"(want {verdicts[i]})")
        bad = sum(o["violations"].values())
        c.check((o["verdict"] == "FAIL") == (bad > 0) and
                all((o["violations"][k] > 0) == (o["first_violations"][k] is not None) for k in KINDS),
                f"interval {o['interval']}: FAIL exactly when it found violations ({bad}), each "
                f"kind with its first one")
    if iv:
        c.check(iv[-1]["running_verdict"] == r["verdict"], "the report's verdict is the running one")
    ek = r["invariants"]["events_by_kind"]
    sums = {k: sum(o["events_by_kind"][k] for o in iv) for k in ek}
    c.check(sums == ek, f"the intervals' events by kind sum to the report's: {sums} = {ek}")
    vs = {k: sum(o["violations"][k] for o in iv) for k in KINDS}
    want = {k: r["invariants"][k]["violations"] - r["invariants"][k]["explained_by_clock_step"] -
            r["invariants"][k]["undecided_near_clock_step"] - r["invariants"][k]["known"]
            for k in KINDS}
    c.check(vs == want, f"the intervals' violations sum to the report's failing ones: {vs} = {want}")
    # and their times partition the report's window: each begins where the last ended, the
    # first at 0, and the durations sum to the report's duration_s (to 1 us: the JSON's
    # rounding)
    starts = [o["start_s"] for o in iv]
    ends = [o["start_s"] + o["duration_s"] for o in iv]
    c.check(bool(iv) and abs(starts[0]) < 1e-6 and
            all(abs(a - b) < 1e-6 for a, b in zip(ends, starts[1:])) and
            abs(ends[-1] - r["duration_s"]) < 1e-6,
            f"the intervals partition the report's window: they end at {ends[-1] if iv else None} s, "
            f"the report's duration_s {r['duration_s']}")


@subcommand("check-intervals", lambda a: [load_lines(a[0]), int(a[1]), int(a[2]),
                                          None if a[3] == "any" else a[3].split(","), a[4]])
def _check_intervals(c, objs, rc, n, verdicts, final):
    check_intervals(c, objs, rc, n, verdicts, final)


REASONS = {"lost_events": "lost_events", "untracked_events": "untracked_events",
           "missed_bpf_runs": "missed_bpf_runs", "undecided": "undecided",
           "lock_failed_events": "lock_failed_events"}


def prom_parse(text):
    """tests/promcheck.py's parser: [(name, labels, value)]."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import promcheck
    return promcheck.parse(text)


def check_prom(c, objs, text, finished=True):
    """check --prometheus FILE against the same run's JSON: every counter equals the sum of
    the check_interval objects' counts (by kind, by reason), the interval verdicts are
    counted, the running and last verdicts are one-hot, the inconclusive streak is the
    trailing run of INCONCLUSIVE intervals, the gauges are the last interval's, and the run
    is marked finished."""
    iv = [o for o in objs if o.get("type") == "check_interval"]
    try:
        samples = prom_parse(text)
    except ValueError as e:
        c.check(False, f"the file parses: {e}")
        return
    if not c.check(iv, f"intervals in the JSON ({len(iv)})"):
        return
    by = {}
    for name, labels, v in samples:
        key = tuple(sorted((k, x) for k, x in labels.items() if k in ("kind", "reason", "verdict")))
        by[(name, key)] = v

    def get(name, **labels):
        return by.get((name, tuple(sorted(labels.items()))))
    for k in iv[0]["events_by_kind"]:
        want = sum(o["events_by_kind"][k] for o in iv)
        c.check(get("mgtrace_check_events_judged_total", kind=k) == want,
                f"events_judged_total{{kind={k}}} {get('mgtrace_check_events_judged_total', kind=k)} = "
                f"the intervals' {want}")
    for k in KINDS:
        want = sum(o["violations"][k] for o in iv)
        c.check(get("mgtrace_check_violations_total", kind=k) == want,
                f"violations_total{{kind={k}}} {get('mgtrace_check_violations_total', kind=k)} = {want}")
    for name, field in (("mgtrace_check_known_faults_total", "known"),
                        ("mgtrace_check_not_faults_total", "not_faults")):
        want = sum(o[field] for o in iv)
        c.check(get(name) == want, f"{name} {get(name)} = the intervals' {field} {want}")
    for reason, field in REASONS.items():
        want = sum(o[field] for o in iv)
        got = get("mgtrace_check_inconclusive_total", reason=reason)
        c.check(got == want, f"inconclusive_total{{reason={reason}}} {got} = {want}")
    want = sum(not o["counts_complete"] for o in iv)
    got = get("mgtrace_check_inconclusive_total", reason="unreadable_counts")
    c.check(got == want, f"inconclusive_total{{reason=unreadable_counts}} {got} = {want}")
    for vd in RANK:
        want = sum(o["verdict"] == vd for o in iv)
        got = get("mgtrace_check_intervals_total", verdict=vd)
        c.check(got == want, f"intervals_total{{verdict={vd}}} {got} = {want}")
        got = get("mgtrace_check_running_verdict", verdict=vd)
        c.check(got == (iv[-1]["running_verdict"] == vd), f"running_verdict{{verdict={vd}}} {got}")
        got = get("mgtrace_check_last_interval_verdict", verdict=vd)
        c.check(got == (iv[-1]["verdict"] == vd), f"last_interval_verdict{{verdict={vd}}} {got}")
    streak = 0
    for o in iv:
        streak = streak + 1 if o["verdict"] == "INCONCLUSIVE" else 0
    c.check(get("mgtrace_check_inconclusive_streak") == streak,
            f"inconclusive_streak {get('mgtrace_check_inconclusive_streak')} = {streak}")
    c.check(get("mgtrace_check_inodes_tracked") == iv[-1]["inodes_tracked"],
            f"inodes_tracked {get('mgtrace_check_inodes_tracked')} = the last interval's "
            f"{iv[-1]['inodes_tracked']}")
    fg = sum(o["history_forgotten"] for o in iv) if iv[-1].get("history_forgotten") is not None \
        else None
    c.check(get("mgtrace_check_history_forgotten_total") == fg, f"history_forgotten_total "
            f"{get('mgtrace_check_history_forgotten_total')} = the intervals' {fg} (absent "
            f"without --forget)")
    b = iv[-1]["bpf_inode_bytes"]
    c.check(get("mgtrace_check_bpf_inode_bytes") == b, f"bpf_inode_bytes "
            f"{get('mgtrace_check_bpf_inode_bytes')} = {b} (absent when user space judges)")
    c.check(get("mgtrace_check_finished") == (1 if finished else 0),
            f"finished {get('mgtrace_check_finished')}")
    up = [v for n, _, v in samples if n == "mgtrace_check_up"]
    c.check(up == [1] and not any(n.startswith("mgtrace_check_error") for n, _, _ in samples),
            f"mgtrace_check_up {up} (want [1]), no mgtrace_check_error series")
    info = [lb for n, lb, v in samples if n == "mgtrace_check_info"]
    c.check(len(info) == 1 and info[0].get("judge") in ("bpf", "user") and info[0].get("backend"),
            f"one mgtrace_check_info with judge and backend: {info}")


@subcommand("check-prom", lambda a: [load_lines(a[0]), open(a[1]).read()])
def _check_prom(c, objs, text):
    check_prom(c, objs, text)


def _sample():
    """Three intervals, a violation in the second: the report FAIL (a run as 64's)."""
    def iv(i, verdict, running, bad):
        return {"type": "check_interval", "interval": i, "last": i == 3, "verdict": verdict,
                "running_verdict": running, "start_s": 0.5 * (i - 1), "duration_s": 0.5,
                "events_by_kind": {"ctime_swap": 2, "ctime_skip": 0, "stat": 3, "ctime_set": 0, "floor": 0},
                "violations": {k: (bad if k == "ctime_regression" else 0) for k in KINDS},
                "first_violations": {k: ({"kind": k} if bad and k == "ctime_regression" else None)
                                     for k in KINDS}}
    inv = {k: {"violations": 0, "explained_by_clock_step": 0, "undecided_near_clock_step": 0,
               "known": 0} for k in KINDS}
    inv["ctime_regression"]["violations"] = 1
    inv["events_by_kind"] = {"ctime_swap": 6, "ctime_skip": 0, "stat": 9, "ctime_set": 0, "floor": 0}
    rep = {"type": "check", "verdict": "FAIL", "intervals": 3, "workload": "none",
           "interrupted": None, "invariants": inv, "duration_s": 1.5}
    return [iv(1, "PASS", "PASS", 0), iv(2, "FAIL", "FAIL", 1), iv(3, "PASS", "FAIL", 0), rep]


@selftest_cases
def selftest_intervals(results):
    """check_intervals on the sample and on copies doctored one way each."""
    args = (1, 3, ["PASS", "FAIL", "PASS"], "FAIL")
    results.run("check-intervals: the sample", check_intervals, _sample(), *args, want_fail=False)

    def doctored(fn):
        o = copy.deepcopy(_sample())
        fn(o)
        return o
    for label, fn in (
            ("a running verdict that forgets the FAIL", lambda o: o[2].update(running_verdict="PASS")),
            ("a FAIL interval without its violation", lambda o: o[1]["violations"].update(ctime_regression=0)),
            ("an interval's events missing from the sum", lambda o: o[0]["events_by_kind"].update(stat=2)),
            ("a violation the report does not count",
             lambda o: o[3]["invariants"]["ctime_regression"].update(violations=2)),
            ("the last interval not marked", lambda o: o[2].update(last=False)),
            ("an interrupted report", lambda o: o[3].update(interrupted={"signal": "SIGINT"})),
            ("an interval missing", lambda o: o.pop(0)),
            ("the last interval ending after the report's window",
             lambda o: o[2].update(duration_s=0.55))):
        results.run("check-intervals: " + label, check_intervals, doctored(fn), *args)


def _prom_sample():
    """The --prometheus file that _sample()'s run writes at its end."""
    return """mgtrace_check_info{backend="tracepoint",kernel_release="6.18",judge="bpf",scope="system-wide",known_faults=""} 1
mgtrace_check_up 1
mgtrace_check_events_judged_total{kind="ctime_swap"} 6
mgtrace_check_events_judged_total{kind="ctime_skip"} 0
mgtrace_check_events_judged_total{kind="stat"} 9
mgtrace_check_events_judged_total{kind="ctime_set"} 0
mgtrace_check_events_judged_total{kind="floor"} 0
""" + "".join(f'mgtrace_check_violations_total{{kind="{k}"}} {1 if k == "ctime_regression" else 0}\n'
              for k in KINDS) + """mgtrace_check_known_faults_total 0
mgtrace_check_not_faults_total 0
mgtrace_check_inconclusive_total{reason="lost_events"} 0
mgtrace_check_inconclusive_total{reason="untracked_events"} 0
mgtrace_check_inconclusive_total{reason="missed_bpf_runs"} 0
mgtrace_check_inconclusive_total{reason="undecided"} 0
mgtrace_check_inconclusive_total{reason="lock_failed_events"} 0
mgtrace_check_inconclusive_total{reason="unreadable_counts"} 0
mgtrace_check_inodes_tracked 4
mgtrace_check_bpf_inode_bytes 1600
mgtrace_check_intervals_total{verdict="PASS"} 2
mgtrace_check_intervals_total{verdict="FAIL"} 1
mgtrace_check_intervals_total{verdict="INCONCLUSIVE"} 0
mgtrace_check_running_verdict{verdict="PASS"} 0
mgtrace_check_running_verdict{verdict="FAIL"} 1
mgtrace_check_running_verdict{verdict="INCONCLUSIVE"} 0
mgtrace_check_last_interval_verdict{verdict="PASS"} 1
mgtrace_check_last_interval_verdict{verdict="FAIL"} 0
mgtrace_check_last_interval_verdict{verdict="INCONCLUSIVE"} 0
mgtrace_check_inconclusive_streak 0
mgtrace_check_finished 1
"""


def _prom_objs():
    o = _sample()
    for x in o[:3]:
        x.update(known=0, not_faults=0, lost_events=0, untracked_events=0, missed_bpf_runs=0,
                 undecided=0, lock_failed_events=0, counts_complete=True, inodes_tracked=4,
                 bpf_inode_bytes=1600)
    return o


@selftest_cases
def selftest_prom(results):
    """check_prom on the sample and on files doctored one way each."""
    results.run("check-prom: the sample", check_prom, _prom_objs(), _prom_sample(), want_fail=False)
    for label, old, new in (
            ("a violation not counted", 'kind="ctime_regression"} 1', 'kind="ctime_regression"} 0'),
            ("events short by one", 'kind="stat"} 9', 'kind="stat"} 8'),
            ("the running verdict PASS after a FAIL", 'running_verdict{verdict="PASS"} 0',
             'running_verdict{verdict="PASS"} 1'),
            ("a FAIL interval not counted", 'intervals_total{verdict="FAIL"} 1',
             'intervals_total{verdict="FAIL"} 0'),
            ("a reason missing", 'mgtrace_check_inconclusive_total{reason="undecided"} 0\n', ''),
            ("not finished", 'mgtrace_check_finished 1', 'mgtrace_check_finished 0'),
            ("mgtrace_check_up 0 in a file of counts", 'mgtrace_check_up 1', 'mgtrace_check_up 0'),
            ("an error series beside the counts", 'mgtrace_check_up 1',
             'mgtrace_check_up 1\nmgtrace_check_error{reason_class="usage"} 2'),
            ("a broken line", 'mgtrace_check_inodes_tracked 4', 'mgtrace_check_inodes_tracked')):
        t = _prom_sample()
        assert old in t, old
        results.run("check-prom: " + label, check_prom, _prom_objs(), t.replace(old, new, 1))


def check_forget(c, objs, rc, mode, min_gens=3):
    """The per-inode map's bound reached (check --max-inodes N around more live inodes than
    N), as JSON lines: mode "exact" (no --forget): INCONCLUSIVE, exit 4, untracked events
    in an INCONCLUSIVE interval, nothing forgotten (judged.forget and every interval's
    history_forgotten null); mode "forget": PASS, exit 0, every interval PASS with no
    untracked event, at least min_gens generations, history forgotten, and the intervals'
    history_forgotten summing to judged.forget.history_forgotten."""
    iv = [o for o in objs if o.get("type") == "check_interval"]
    rep = [o for o in objs if o.get("type") == "check"]
    if not c.check(len(rep) == 1 and iv, f"one report and intervals ({len(iv)})"):
        return
    r = rep[0]
    fg = r["judged"].get("forget")
    if mode == "exact":
        c.check(r["verdict"] == "INCONCLUSIVE" and rc == 4, f"exact: INCONCLUSIVE, exit 4 "
                f"(verdict {r['verdict']}, exit {rc})")
        c.check(any(o["untracked_events"] > 0 and o["verdict"] == "INCONCLUSIVE" for o in iv),
                "exact: an interval INCONCLUSIVE with untracked events: "
                f"{[(o['verdict'], o['untracked_events']) for o in iv]}")
        c.check(fg is None and all(o["history_forgotten"] is None for o in iv),
                f"exact: nothing forgotten (judged.forget {fg})")
        return
    if not c.check(fg is not None, "forget: judged.forget is set"):
        return
    c.check(r["verdict"] == "PASS" and rc == 0, f"forget: PASS, exit 0 (verdict {r['verdict']}, "
            f"exit {rc})")
    c.check(all(o["verdict"] == "PASS" and o["untracked_events"] == 0 for o in iv),
            "forget: every interval PASS with no untracked event: "
            f"{[(o['verdict'], o['untracked_events']) for o in iv]}")
    c.check(fg["generations"] >= min_gens and fg["history_forgotten"] > 0 and
            fg["stopped"] is None, f"forget: {fg['generations']} generations (>= {min_gens}), "
            f"{fg['history_forgotten']} inodes' history forgotten (> 0), stopped {fg['stopped']}")
    total = sum(o["history_forgotten"] for o in iv)
    c.check(total == fg["history_forgotten"], f"forget: the intervals' history_forgotten sum "
            f"to the report's: {total} = {fg['history_forgotten']}")


@subcommand("check-forget", lambda a: [load_lines(a[0]), int(a[1]), a[2]] +
            ([int(a[3])] if len(a) > 3 else []))
def _check_forget(c, objs, rc, mode, min_gens=3):
    check_forget(c, objs, rc, mode, min_gens)


def check_forget_text(c, lines):
    """check --forget's text: an interval that forgot says so in its verdict, never a
    plain PASS ("PASS, N inodes' history forgotten" where N is its own count), and so does
    the running verdict and the final one once any was forgotten."""
    import re
    total, seen = 0, 0
    for ln in lines:
        m = re.match(r"interval \d+( \(last\))? .*, history forgotten (\d+): (.*)$", ln)
        if not m:
            continue
        seen += 1
        n = int(m.group(2))
        total += n
        verdicts = m.group(3)
        want = (f"PASS, {n} inode{'s' if n != 1 else chr(39) + 's'}{chr(39) if n != 1 else ''} "
                f"history forgotten" if n else "PASS")
        c.check(verdicts.startswith(want + ", running "), f"interval line: {verdicts!r} starts "
                f"with {want!r}")
        run = (f"PASS, {total} inode{'s' if total != 1 else chr(39) + 's'}"
               f"{chr(39) if total != 1 else ''} history forgotten" if total else "PASS")
        c.check(verdicts.endswith("running " + run), f"running verdict: {verdicts!r} ends with "
                f"{run!r}")
    c.check(seen > 0, f"interval lines with a forgotten count: {seen}")
    fin = [ln for ln in lines if ln.startswith("verdict: ")]
    c.check(fin and (total == 0 or fin[-1].startswith(f"verdict: PASS, {total} inode")),
            f"final verdict names the {total} forgotten: {fin[-1] if fin else None!r}")


@subcommand("check-forget-text", lambda a: [open(a[0], errors="replace").read().splitlines()])
def _check_forget_text(c, lines):
    check_forget_text(c, lines)


def _forget_sample():
    """A --forget run of two intervals: PASS, 3 then 5 inodes forgotten."""
    def iv(i, n):
        return {"type": "check_interval", "interval": i, "last": i == 2, "verdict": "PASS",
                "running_verdict": "PASS", "untracked_events": 0, "history_forgotten": n}
    rep = {"type": "check", "verdict": "PASS", "judged": {"forget": {
        "generations": 4, "history_forgotten": 8, "stopped": None}}}
    return [iv(1, 3), iv(2, 5), rep]


_FORGET_TEXT = """interval 1 0.5 s: events 9 (...); inodes 5 (2 KiB in BPF), history forgotten 3: PASS, 3 inodes' history forgotten, running PASS, 3 inodes' history forgotten
interval 2 (last) 0.5 s: events 9 (...); inodes 5 (2 KiB in BPF), history forgotten 0: PASS, running PASS, 3 inodes' history forgotten
verdict: PASS, 3 inodes' history forgotten (all invariants hold)"""


@selftest_cases
def selftest_forget(results):
    """check_forget and check_forget_text on samples and on copies doctored one way each."""
    results.run("check-forget: the sample", check_forget, _forget_sample(), 0, "forget",
                want_fail=False)
    ex = copy.deepcopy(_forget_sample())
    for o in ex[:2]:
        o.update(verdict="INCONCLUSIVE", running_verdict="INCONCLUSIVE", untracked_events=7,
                 history_forgotten=None)
    ex[2].update(verdict="INCONCLUSIVE", judged={"forget": None})
    results.run("check-forget exact: the sample", check_forget, ex, 4, "exact", want_fail=False)

    def doctored(fn, base=None):
        o = copy.deepcopy(base or _forget_sample())
        fn(o)
        return o
    for label, fn in (
            ("untracked events under --forget", lambda o: o[1].update(untracked_events=1)),
            ("an interval's forgotten missing from the sum", lambda o: o[0].update(history_forgotten=2)),
            ("nothing forgotten", lambda o: [x.update(history_forgotten=0) for x in o[:2]] and None
             or o[2]["judged"]["forget"].update(history_forgotten=0)),
            ("too few generations", lambda o: o[2]["judged"]["forget"].update(generations=2)),
            ("no forget object", lambda o: o[2]["judged"].update(forget=None))):
        results.run("check-forget: " + label, check_forget, doctored(fn), 0, "forget")
    results.run("check-forget exact: a PASS", check_forget,
                doctored(lambda o: o[2].update(verdict="PASS"), ex), 4, "exact")
    results.run("check-forget exact: something forgotten", check_forget,
                doctored(lambda o: o[0].update(history_forgotten=3), ex), 4, "exact")
    lines = _FORGET_TEXT.splitlines()
    results.run("check-forget-text: the sample", check_forget_text, lines, want_fail=False)
    for label, old, new in (
            ("a plain PASS that forgot", ": PASS, 3 inodes' history forgotten, running", ": PASS, running"),
            ("a plain running PASS", "running PASS, 3 inodes' history forgotten\ninterval 2",
             "running PASS\ninterval 2"),
            ("a final plain PASS", "verdict: PASS, 3 inodes' history forgotten", "verdict: PASS")):
        results.run("check-forget-text: " + label, check_forget_text,
                    _FORGET_TEXT.replace(old, new, 1).splitlines())
