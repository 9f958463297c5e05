# SPDX-License-Identifier: GPL-2.0
"""junit.py - `mgtrace check --junit`: the testcases and failures against the gates and the
text report, and what the strict Ant JUnit schema requires.

Subcommands: junit-gate, junit-text.
"""
import re
import xml.etree.ElementTree as ET

from .checker import selftest_cases, subcommand


@subcommand("junit-gate", lambda a: (ET.parse(a[0]).getroot(), int(a[1]), a[2], *a[3:4]))
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


@subcommand("junit-text", lambda a: (ET.parse(a[0]).getroot(), open(a[1]).readlines()))
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
    tags = [e.tag for e in root]
    c.check(tags[-2:] == ["system-out", "system-err"] and tags.count("system-out") == 1 and
            tags.count("system-err") == 1 and all(t in ("properties", "testcase") for t in tags[:-2]),
            f"junit: properties, the testcases, then system-out and system-err ({tags[:2]}...{tags[-2:]})")


@selftest_cases
def selftest_junit(results):
    """JUnit reports that must fail: a failure missing, an attribute missing."""
    run = results.run
    jt_s = ('<testsuite name="s" tests="1" failures="1" errors="0" skipped="0" '
                       'timestamp="2026-12-02T01:00:00" hostname="h" time="1.0"><testcase '
                       'name="COMMAND succeeds" time="1.0"><failure type="command" '
                       'message="expected exit status 0, got 1"/></testcase><system-out/><system-err/>'
                       '</testsuite>')
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
    run("junit-text: a suite without system-out and system-err (the strict Ant schema)", check_junit_text,
        ET.fromstring(jt_s.replace('<system-out/><system-err/>', '')), ["FAIL   COMMAND succeeds  x\n"])
    run("junit-text: system-err before system-out", check_junit_text,
        ET.fromstring(jt_s.replace('<system-out/><system-err/>', '<system-err/><system-out/>')),
        ["FAIL   COMMAND succeeds  x\n"])
    run("junit-text: a message without expected and actual", check_junit_text, ET.fromstring(
        '<testsuite failures="1"><testcase name="a"><failure message="0.9 &gt; 0.7"/></testcase></testsuite>'),
        ["FAIL   a\n"])
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
