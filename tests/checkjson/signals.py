# SPDX-License-Identifier: GPL-2.0
"""signals.py - how a `mgtrace check` run ended: interrupted by a signal (SIGINT, SIGTERM,
SIGHUP), COMMAND killed or its exit status, each as the report and its verdict say.

Subcommands: interrupted, command-end, command-status.
"""
import re

from .checker import cp, first_report, load_lines, selftest_cases, subcommand


@subcommand("command-status", lambda a: (load_lines(a[0]), a[1]))
def check_command_status(c, objs, want):
    """The last object's command_status is WANT: "null", or an exit code."""
    got = objs[-1].get("command_status", "absent") if objs else "no object"
    c.check(got == (None if want == "null" else int(want)), f"command_status {got!r} (want {want})")


@subcommand("command-end", lambda a: (first_report(a[0]), a[1], a[2], a[3]))
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


@subcommand("interrupted", lambda a: (first_report(a[0]), a[1], a[2], *[int(x) for x in a[3:4]]))
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


@selftest_cases
def selftest_signals(results):
    """Reports of runs a signal ended, and of COMMANDs that ended, that must fail."""
    run = results.run
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
