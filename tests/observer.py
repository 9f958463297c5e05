#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""observer.py - mgtrace check against an observer outside mgtrace (tests/mgobserve.c).

  observer.py compare REPORT OBSERVER RC [--gran-coarse]
      REPORT: check --json of `check --tree -- mgobserve ... DIR`; OBSERVER: mgobserve's JSON
      line; RC: check's exit status. Prints ok/FAIL lines; exit 1 on any FAIL.
  observer.py selftest
      every comparison shown to fail on doctored copies of a real pair

The rule compared (Documentation/filesystems/multigrain-ts.rst): a change after a query shows a
later ctime. mgobserve counts, with its own stat() calls, every op after which an inode it had
just queried shows a ctime not later than before. check must report exactly that many
violations (ctime_regression + not_later_after_query + skip_after_query), none explained by a
clock step, each stored report naming an inode and a later ctime the observer saw break; its
verdict must be FAIL (exit 1) when the observer saw a break and PASS (exit 0) when not; and it
must have judged the workload at all: at least one ctime event per op the observer made and one
getattr per stat() it made, with no set left undecided for want of the inode's state. With
--gran-coarse (a filesystem keeping whole seconds, ext4 -I 128) an equal ctime after a query is
within the contract: only the observer's earlier ctimes must be violations, and its equal ones
are granularity_equal (at least as many). Where the kernel skipped runs of check's programs
(missed_bpf_runs, which leaves out the floor probes' undeciding ones: a lazily preemptible
kernel preempts a workload thread inside a program), each skipped run hides at most one break:
check's count must then lie between the observer's less the skipped runs and the observer's,
a FAIL's reason must say its count is a floor, and where it counted none the verdict is
INCONCLUSIVE (exit 4), never PASS.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkjson import Checker  # noqa: E402  (ok/FAIL lines, as every checker prints them)

VIOLATION_KINDS = ("ctime_regression", "not_later_after_query", "skip_after_query")


def skipped_runs(r):
    """Runs of check's programs the kernel skipped that can hide an event (missed_bpf_runs
    counts apart the floor probes' undeciding ones, missed_bpf_runs_undeciding)."""
    return r.get("missed_bpf_runs") or 0


def earlier(b):
    return tuple(b["after"]) < tuple(b["before"])


def compare(c, r, o, rc, gran_coarse=False):
    """Assert check report r against observer o (check's exit status rc) through c.check()."""
    inv = r["invariants"]
    total = o["not_later_total"]
    breaks = o["breaks"]
    if gran_coarse:
        want = sum(earlier(b) for b in breaks)
        c.check(len(breaks) == total, f"observer listed every break ({len(breaks)} of {total})")
    else:
        want = total
    got = sum(inv[k]["violations"] for k in VIOLATION_KINDS)
    by = {k: inv[k]["violations"] for k in VIOLATION_KINDS}
    skipped = skipped_runs(r)
    if skipped:
        c.check(want - skipped <= got <= want, f"check's violations {got} {by}: the observer's own "
                f"count {want}, less at most the {skipped} runs the kernel skipped")
        c.check(not got or "or more (not every event judged)" in r.get("reason", ""),
                f"the reason says the count is a floor: {r.get('reason')}")
    else:
        c.check(got == want, f"check's violations {got} {by} == the observer's own count {want}")
    expl = sum(inv[k]["explained_by_clock_step"] + inv[k]["undecided_near_clock_step"]
               for k in VIOLATION_KINDS)
    c.check(expl == 0, f"no violation explained by or undecided near a clock step ({expl})")
    if skipped and not got:
        c.check(rc == 4 and r["verdict"] == "INCONCLUSIVE", f"INCONCLUSIVE, exit 4: none "
                f"counted with {skipped} runs skipped (verdict {r['verdict']}, exit {rc})")
    elif want:
        c.check(rc == 1 and r["verdict"] == "FAIL", f"FAIL, exit 1, since the observer saw "
                f"{want} (verdict {r['verdict']}, exit {rc})")
    else:
        c.check(rc == 0 and r["verdict"] == "PASS", f"PASS, exit 0, since the observer saw "
                f"none (verdict {r['verdict']}, exit {rc})")
    if gran_coarse:
        eq = total - want
        c.check(inv["granularity_equal"] >= eq, f"granularity_equal {inv['granularity_equal']} "
                f">= the observer's {eq} equal ctimes")
    # every stored report is one the observer saw: its inode, its later ctime
    seen = {(b["ino"], b["after"][0], b["after"][1]) for b in breaks}
    reps = [v for v in r.get("violations") or [] if v["kind"] in VIOLATION_KINDS]
    unmatched = [(v["ino"], v["later"]["ctime_sec"], v["later"]["ctime_nsec"]) for v in reps
                 if (v["ino"], v["later"]["ctime_sec"], v["later"]["ctime_nsec"]) not in seen]
    c.check(not unmatched or len(breaks) < total,
            f"each of the {len(reps)} stored reports is a break the observer saw "
            f"(unmatched: {unmatched[:3]})")
    # the reports name the observer as its caller sees it (a PID namespace's pid in one)
    if "pid" in o:
        pids = sorted({v["later"].get("pid") for v in reps})
        c.check(all(p == o["pid"] for p in pids), f"the stored reports name the observer's "
                f"pid {o['pid']} (they name {pids[:4]})")
    # judged at all: a PASS is only worth what it judged
    k = inv["events_by_kind"]
    ops = sum(v["done"] for v in o["ops"].values())
    upd = k["ctime_swap"] + k["ctime_skip"] + k["ctime_set"]
    c.check(upd >= ops, f"check judged {upd} ctime events >= the observer's {ops} ops")
    c.check(k["stat"] >= o["stats"], f"check judged {k['stat']} getattrs >= the observer's "
            f"{o['stats']} stat() calls")
    c.check(inv.get("sets_state_unknown", 0) == 0,
            f"no ctime set undecided for want of the inode's state "
            f"({inv.get('sets_state_unknown')})")
    c.check(r["lost_events"] == 0 and inv["untracked_events"] == 0,
            f"nothing lost ({r['lost_events']}) or untracked ({inv['untracked_events']})")


def split(objs):
    """(check report, observer line, check's exit status) from the JSON lines a step sent
    (the exit status as {"type":"exit","rc":N}); None for each part that is missing."""
    def first(t):
        return next((o for o in objs if o.get("type") == t), None)
    ex = first("exit")
    return first("check"), first("observer"), ex["rc"] if ex else None


def load_first(path, typ):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                o = json.loads(line)
                if o.get("type") == typ:
                    return o
    raise ValueError(f"{path}: no {typ!r} JSON line")


def doctored(r, o):
    """(label, report, observer, rc, gran_coarse) cases that must fail, from a real FAIL pair."""
    def cp(x):
        return json.loads(json.dumps(x))
    cases = []
    o1 = cp(o)
    # one past what skipped runs can hide, where the kernel skipped some: with check's count
    # equal to the observer's, +1 alone still lies within the skipped runs' tolerance
    o1["not_later_total"] += 1 + skipped_runs(r)
    cases.append(("a workload count check does not match (+1)", r, o1, 1))
    r1 = cp(r)
    # below what skipped runs can hide, where the kernel skipped some
    r1["invariants"]["not_later_after_query"]["violations"] -= 1 + skipped_runs(r)
    cases.append(("one violation fewer than the observer saw", r1, o, 1))
    r2 = cp(r)
    if o["not_later_total"]:
        for kk in VIOLATION_KINDS:
            r2["invariants"][kk]["violations"] = 0
        r2["verdict"] = "PASS"
        cases.append(("a PASS over the observer's breaks (the false PASS of issue 32)", r2, o, 0))
    else:
        r2["invariants"]["not_later_after_query"]["violations"] = 1
        r2["verdict"] = "FAIL"
        cases.append(("a FAIL where the observer saw no break", r2, o, 1))
    r3 = cp(r)
    r3["invariants"]["events_by_kind"]["ctime_set"] = 0
    r3["invariants"]["events_by_kind"]["ctime_swap"] = 0
    cases.append(("too few ctime events judged", r3, o, 1))
    r4 = cp(r)
    r4["invariants"]["events_by_kind"]["stat"] = 0
    cases.append(("no getattr judged", r4, o, 1))
    r5 = cp(r)
    r5["invariants"]["sets_state_unknown"] = 3
    cases.append(("sets undecided for want of the inode state", r5, o, 1))
    if r.get("violations"):
        r6 = cp(r)
        r6["violations"][0]["later"]["ctime_nsec"] = (r6["violations"][0]["later"]["ctime_nsec"]
                                                      + 1) % 1000000000
        cases.append(("a report of a ctime the observer never saw", r6, o, 1))
    if r.get("violations") and "pid" in o:
        r8 = cp(r)
        r8["violations"][0]["later"]["pid"] = o["pid"] + 4194304
        cases.append(("a report naming a pid other than the observer's", r8, o, 1))
    r7 = cp(r)
    r7["invariants"]["not_later_after_query"]["explained_by_clock_step"] = 1
    cases.append(("a violation explained by a clock step that never was", r7, o, 1))
    return cases


def selftest_pair(r, o, rc, gran_coarse=False):
    """The real pair must pass and every doctored copy must fail: (passed, failed lines)."""
    out = []
    c = Checker(quiet=True)
    compare(c, r, o, rc, gran_coarse)
    out.append(("passes: the real pair", not c.failures, c.failures[:1]))
    for label, rr, oo, rrc in doctored(r, o):
        c = Checker(quiet=True)
        compare(c, rr, oo, rrc, gran_coarse)
        out.append(("fails on " + label, bool(c.failures), []))
    return out


def selftest():
    obs = {"type": "observer", "pid": 7, "stats": 10, "not_later_total": 2, "ops": {
        "create": {"done": 2, "not_later": {"dir": 0, "file": 0}},
        "link": {"done": 1, "not_later": {"dir": 1, "file": 0}},
        "unlink": {"done": 3, "not_later": {"dir": 1, "file": 0}}},
        "breaks": [{"op": "link", "role": "dir", "ino": 2, "before": [5, 10], "after": [5, 10]},
                   {"op": "unlink", "role": "dir", "ino": 2, "before": [5, 20], "after": [5, 15]}]}
    zero = {"violations": 0, "explained_by_clock_step": 0, "undecided_near_clock_step": 0}
    rep = {"type": "check", "verdict": "FAIL", "lost_events": 0, "invariants": {
        "ctime_regression": dict(zero), "skip_after_query": dict(zero),
        "not_later_after_query": {**zero, "violations": 2}, "granularity_equal": 0,
        "sets_state_unknown": 0, "untracked_events": 0,
        "events_by_kind": {"ctime_swap": 4, "ctime_skip": 0, "ctime_set": 3, "stat": 12}},
        "violations": [{"kind": "not_later_after_query", "ino": 2,
                        "later": {"ctime_sec": 5, "ctime_nsec": 10, "pid": 7}}]}
    res = selftest_pair(rep, obs, 1)
    # a coarse filesystem: the equal ctime is granularity, only the earlier one a violation
    coarse = json.loads(json.dumps(rep))
    coarse["invariants"]["not_later_after_query"]["violations"] = 1
    coarse["invariants"]["granularity_equal"] = 1
    coarse["violations"][0]["later"]["ctime_nsec"] = 15
    c = Checker(quiet=True)
    compare(c, coarse, obs, 1, gran_coarse=True)
    res.append(("passes: coarse granularity, the equal ctime as granularity_equal",
                not c.failures, c.failures[:1]))
    c = Checker(quiet=True)
    compare(c, rep, obs, 1, gran_coarse=True)
    res.append(("fails on: coarse granularity, the equal ctime as a violation", bool(c.failures), []))
    clean = json.loads(json.dumps(rep))
    clean["invariants"]["not_later_after_query"]["violations"] = 0
    clean["verdict"], clean["violations"] = "PASS", []
    none = {**obs, "not_later_total": 0, "breaks": []}
    c = Checker(quiet=True)
    compare(c, clean, none, 0)
    res.append(("passes: none seen, PASS", not c.failures, c.failures[:1]))
    c = Checker(quiet=True)
    compare(c, clean, none, 1)
    res.append(("fails on: none seen, exit 1", bool(c.failures), []))
    # runs the kernel skipped: fewer than the observer by at most as many, the reason a floor
    sk = json.loads(json.dumps(rep))
    sk["invariants"]["not_later_after_query"]["violations"] = 1
    sk["missed_bpf_runs"], sk["missed_bpf_runs_undeciding"] = 1, 5
    sk["reason"] = ("1 violation(s) or more (not every event judged), 0 floor gate(s) failed; "
                    "unjudged: 1 BPF run(s) skipped by the kernel")
    c = Checker(quiet=True)
    compare(c, sk, obs, 1)
    res.append(("passes: 1 of 2 with 1 skipped run that can hide one", not c.failures, c.failures[:1]))
    res += [(lbl, ok, why) for lbl, ok, why in selftest_pair(sk, obs, 1)[1:]]
    # skipped runs that hid nothing: check's count equals the observer's (CI's 7.3
    # diff-forget-tmpfs run), every doctored copy must still fail
    eq = json.loads(json.dumps(sk))
    eq["invariants"]["not_later_after_query"]["violations"] = 2
    eq["reason"] = eq["reason"].replace("1 violation(s)", "2 violation(s)")
    res += [(lbl + " (2 of 2, 1 skipped run)", ok, why)
            for lbl, ok, why in selftest_pair(eq, obs, 1)]
    for label, change in (("1 skipped run (the 5 undeciding hide none): 0 of 2 claimed",
                           {"violations": 0}),
                          ("a reason that does not say its count is a floor",
                           {"reason": "1 violation(s), 0 floor gate(s) failed"})):
        sk2 = json.loads(json.dumps(sk))
        if "violations" in change:
            sk2["invariants"]["not_later_after_query"]["violations"] = change["violations"]
        else:
            sk2["reason"] = change["reason"]
        c = Checker(quiet=True)
        compare(c, sk2, obs, 1)
        res.append(("fails on: " + label, bool(c.failures), []))
    # none counted beside skipped runs: INCONCLUSIVE, never PASS
    none_sk = {**obs, "not_later_total": 1, "breaks": obs["breaks"][:1]}
    inc = json.loads(json.dumps(sk))
    inc["invariants"]["not_later_after_query"]["violations"] = 0
    inc["violations"], inc["verdict"] = [], "INCONCLUSIVE"
    for lbl, rr, rrc, want_ok in (("passes: 0 of 1 with 1 skipped run, INCONCLUSIVE", inc, 4, True),
                                  ("fails on: the same as a PASS", {**inc, "verdict": "PASS"}, 0,
                                   False)):
        c = Checker(quiet=True)
        compare(c, rr, none_sk, rrc)
        res.append((lbl, not c.failures if want_ok else bool(c.failures), c.failures[:1]))
    bad = 0
    for label, ok, why in res:
        print(("PASS " if ok else "FAIL ") + label + (f": {why[0]}" if why and not ok else ""))
        bad += not ok
    print(f"observer selftest: {len(res) - bad} passed, {bad} failed, 0 skipped")
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "selftest":
        return selftest()
    if len(argv) >= 5 and argv[1] == "compare":
        c = Checker()
        compare(c, load_first(argv[2], "check"), load_first(argv[3], "observer"), int(argv[4]),
                "--gran-coarse" in argv[5:])
        return 1 if c.failures else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
