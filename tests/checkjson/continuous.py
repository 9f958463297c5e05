# SPDX-License-Identifier: GPL-2.0
"""continuous.py - continuous check (`mgtrace check -i S --json`): the check_interval objects
before the report.

Subcommand: check-intervals.
"""
import copy

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


@subcommand("check-intervals", lambda a: [load_lines(a[0]), int(a[1]), int(a[2]),
                                          None if a[3] == "any" else a[3].split(","), a[4]])
def _check_intervals(c, objs, rc, n, verdicts, final):
    check_intervals(c, objs, rc, n, verdicts, final)


def _sample():
    """Three intervals, a violation in the second: the report FAIL (a run as 64's)."""
    def iv(i, verdict, running, bad):
        return {"type": "check_interval", "interval": i, "last": i == 3, "verdict": verdict,
                "running_verdict": running,
                "events_by_kind": {"ctime_swap": 2, "ctime_skip": 0, "stat": 3, "ctime_set": 0, "floor": 0},
                "violations": {k: (bad if k == "ctime_regression" else 0) for k in KINDS},
                "first_violations": {k: ({"kind": k} if bad and k == "ctime_regression" else None)
                                     for k in KINDS}}
    inv = {k: {"violations": 0, "explained_by_clock_step": 0, "undecided_near_clock_step": 0,
               "known": 0} for k in KINDS}
    inv["ctime_regression"]["violations"] = 1
    inv["events_by_kind"] = {"ctime_swap": 6, "ctime_skip": 0, "stat": 9, "ctime_set": 0, "floor": 0}
    rep = {"type": "check", "verdict": "FAIL", "intervals": 3, "workload": "none",
           "interrupted": None, "invariants": inv}
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
            ("an interval missing", lambda o: o.pop(0))):
        results.run("check-intervals: " + label, check_intervals, doctored(fn), *args)
