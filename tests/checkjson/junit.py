# SPDX-License-Identifier: GPL-2.0
"""junit.py - `mgtrace check --junit`: the testcases and failures against the gates and the
text report, and what the strict Ant JUnit schema requires.

Subcommands: junit-gate, junit-text, junit-same, junit-skips.
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


@subcommand("junit-same", lambda a: [ET.parse(a[0]).getroot(), ET.parse(a[1]).getroot()])
def check_junit_same(c, a, b):
    """Two suites of one command line: the same number of testcases (tests=, and listed), with
    the same names in the same order, whatever each run's outcome (issue 28 item 2)."""
    na = [(t.get("classname"), t.get("name")) for t in a.iter("testcase")]
    nb = [(t.get("classname"), t.get("name")) for t in b.iter("testcase")]
    c.check(a.get("tests") == b.get("tests") == str(len(na)) and len(na) == len(nb) > 0,
            f"junit: the same testcase count ({a.get('tests')} and {b.get('tests')} declared, "
            f"{len(na)} and {len(nb)} listed)")
    c.check(na == nb, f"junit: the same testcases in the same order "
            f"({[x[1] for x in na if x not in nb] or [x[1] for x in nb if x not in na] or 'reordered'} differ)"
            if na != nb else f"junit: the same {len(na)} testcases in the same order")


@subcommand("junit-skips", lambda a: [ET.parse(a[0]).getroot(), a[1:]])
def check_junit_skips(c, root, whole):
    """Every skipped message is not cut mid-word: one that is cut ends with " ..." after a
    whole word (or "..." where a single word did not fit); and each text of whole (a --known
    path, a backend's reason: what the test knows a message carries) is in one message, whole,
    in every message that starts it."""
    msgs = [e.get("message") or "" for e in root.iter("skipped")]
    c.check(msgs and all(m and not m.endswith(" ") and not m.endswith("  ...") for m in msgs),
            f"junit: {len(msgs)} skipped messages, none empty or cut after a space")
    for w in whole:
        starts = [m for m in msgs if w[:20] in m]
        c.check(starts and all(w in m for m in starts),
                f"junit: '{w[:60]}...' ({len(w)} bytes) whole in {len(starts)} skipped message(s)"
                + ("" if all(w in m for m in starts) else
                   f", cut: ...{[m for m in starts if w not in m][0][-60:]!r}"))


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
    two = ('<testsuite tests="2"><testcase classname="mgtrace.check" name="a"/>'
           '<testcase classname="mgtrace.check" name="b"><skipped message="x"/></testcase></testsuite>')
    run("junit-same: two runs with the same testcases", check_junit_same, ET.fromstring(two),
        ET.fromstring(two.replace('<skipped message="x"/>', '<failure message="y"/>')), want_fail=False)
    run("junit-same: a testcase missing", check_junit_same, ET.fromstring(two), ET.fromstring(
        '<testsuite tests="1"><testcase classname="mgtrace.check" name="a"/></testsuite>'))
    run("junit-same: a testcase renamed", check_junit_same, ET.fromstring(two),
        ET.fromstring(two.replace('name="b"', 'name="c"')))
    run("junit-same: the count declared differs", check_junit_same, ET.fromstring(two),
        ET.fromstring(two.replace('tests="2"', 'tests="3"')))
    path = "/tmp/" + "/".join(f"a-directory-of-a-long-path-{i}" for i in range(12)) + "/known-faults.json"
    sk = ('<testsuite><testcase name="v"><skipped message="3 known kernel fault(s) matched --known '
          f'{path} (see its references): not a pass"/></testcase><testcase name="g"><skipped '
          'message="needs a function-probe backend; this run has tracepoints only: fentry load failed: '
          'EPERM (BPF trampolines refused)"/></testcase></testsuite>')
    run("junit-skips: whole messages", check_junit_skips, ET.fromstring(sk),
        [path, "load failed: EPERM (BPF trampolines refused)"], want_fail=False)
    cut = sk.replace(path, path[:300])     # main's %.300s of the --known path
    run("junit-skips: a --known path cut at 300 bytes", check_junit_skips, ET.fromstring(cut), [path])
    run("junit-skips: a reason cut mid-word", check_junit_skips, ET.fromstring(
        sk.replace("refused)", "refu")), ["load failed: EPERM (BPF trampolines refused)"])
    run("junit-skips: a cut after a space", check_junit_skips, ET.fromstring(
        sk.replace("trampolines refused)", "trampolines  ...")), [])
    run("junit-skips: a text in no message", check_junit_skips, ET.fromstring(sk), ["kprobe attach failed"])
