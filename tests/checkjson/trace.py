# SPDX-License-Identifier: GPL-2.0
"""trace.py - `mgtrace trace --json`: the events of the test workloads (exact sequences,
ctimes, filters, threads, devices, unlinked files) and the trace summary.

Subcommands: trace-seq, trace-filter, trace-tids, trace-events, trace-summary, trace-unlinked,
trace-dev, trace-times.
"""
import json
import os
import time

from .checker import cp, events_of, load_lines, opt, selftest_cases, subcommand, trace_summary_of


@subcommand("trace-seq", lambda a: (load_lines(a[0]) + (load_lines(a[2]) if a[2:] else []),
                                  os.stat(a[1]).st_ino, os.path.basename(a[1])))
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


@subcommand("trace-filter", lambda a: (load_lines(a[0]), int(a[1]), a[2], int(a[3])))
def check_trace_filter(c, objs, ino, comm, n):
    """trace --path --comm: N events, all of COMM on inode INO."""
    ev = events_of(objs)
    c.check(len(ev) == n, f"trace filter: {n} events of comm {comm} on the file ({len(ev)})")
    c.check(all(e["comm"] == comm for e in ev), f"no event from another comm ({sorted({e['comm'] for e in ev})})")
    c.check(all(e["ino"] == ino for e in ev), f"no event from another file ({sorted({e['ino'] for e in ev})})")


@subcommand("trace-tids", lambda a: ([json.loads(x) for x in open(a[0]) if x.startswith("{")],
                                    a[1], int(a[2])))
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


@subcommand("trace-events", lambda a: (load_lines(a[0]), a[1], a[2], opt(a, "--format", "dev"),
                                      opt(a, "--only"),
                                      int(opt(a, "--pids")) if "--pids" in a else None))
def check_trace_events(c, objs, label, want, fmt="dev", only=None, pids=None):
    """The events (trace_events()) are exactly WANT; pids: from that many processes."""
    got = trace_events(objs, fmt, only)
    c.check(got == want, f"{label}: events '{got}', want '{want}'")
    if pids is not None:
        n = len({e["pid"] for e in events_of(objs)})
        c.check(n == pids, f"{label}: events from {pids} processes ({n})")


@subcommand("trace-summary", lambda a: (load_lines(a[0]), a[1], a[2:]))
def check_trace_summary(c, objs, label, conds):
    """Fields of the trace summary: KEY=VALUE (JSON value, or None/absent), KEY~TEXT (a
    substring), roles=ROLE@DEV,... (the traced inodes), types=FILE_TYPE,... (theirs)."""
    s = trace_summary_of(objs) or {}
    for cond in conds:
        if "~" in cond:
            k, v = cond.split("~", 1)
            c.check(v in str(s.get(k) or ""), f"{label}: summary {k} contains '{v}' ({s.get(k)!r})")
        elif cond.startswith("roles="):
            got = ",".join(i["role"] + "@" + i["dev"] for i in s.get("inodes") or [])
            c.check(got == cond[6:], f"{label}: summary inodes '{got}', want '{cond[6:]}'")
        elif cond.startswith("types="):
            got = ",".join(str(i.get("file_type")) for i in s.get("inodes") or [])
            c.check(got == cond[6:], f"{label}: summary inodes' file_type '{got}', want '{cond[6:]}'")
        else:
            k, v = cond.split("=", 1)
            got = s.get(k)
            c.check(got is None if v == "None" else got == json.loads(v),
                    f"{label}: summary {k} {got!r}, want {v}")


@subcommand("trace-unlinked", lambda a: (load_lines(a[0]), int(a[1]), int(a[2])))
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


@subcommand("trace-dev", lambda a: (load_lines(a[0]), a[1], int(a[2])))
def check_trace_dev(c, objs, dev, n):
    """N events, every one on device DEV (the kernel's s_dev)."""
    ev = events_of(objs)
    c.check(len(ev) == n and all(e["dev"] == dev for e in ev),
            f"trace: {len(ev)} events (want {n}), dev {sorted({e['dev'] for e in ev})} == {dev}")


def text_times(path, start):
    """The TIME column (local HH:MM:SS.ns) of trace's text event lines, as CLOCK_REALTIME s:
    on start's local day, or the next where the time of day went past midnight."""
    day0 = time.mktime(time.localtime(start)[:3] + (0, 0, 0, 0, 0, -1))
    out = []
    for line in open(path):
        w = line.split()
        if len(w) < 5 or w[0].count(":") != 2 or "." not in w[0] or not w[1].isdigit():
            continue
        h, m, sec = w[0].split(":")
        t = day0 + int(h) * 3600 + int(m) * 60 + float(sec)
        out.append(t + 86400 if t < start - 43200 else t)
    return out


@subcommand("trace-times", lambda a: (load_lines(a[0]), float(a[1]), float(a[2]),
                                     text_times(opt(a, "--text"), float(a[1])) if "--text" in a else None))
def check_trace_times(c, objs, start, end, text=None):
    """trace --json (and its text, --text) of a run between the host's CLOCK_REALTIME START and
    END (date +%s.%N outside): every event's time within 2 s of [START, END] and, for a ctime
    swap, of the new ctime it carries (the kernel's clock at the event); at least one swap."""
    ev = events_of(objs)
    t = lambda e: e["time_realtime_sec"] + e["time_realtime_nsec"] / 1e9  # noqa: E731
    far = [(e["event"], round(t(e) - start, 3)) for e in ev if not start - 2 <= t(e) <= end + 2]
    c.check(ev and not far, f"trace --json: {len(ev)} events, each within 2 s of the host's time "
            f"[{start:.3f}, {end:.3f}] (outside: {far[:3]})")
    swaps = [e for e in ev if e["event"] == "ctime_swap"]
    off = [round(t(e) - e["new_sec"] - e["new_nsec"] / 1e9, 3) for e in swaps]
    c.check(swaps and all(abs(d) < 2 for d in off),
            f"trace --json: {len(swaps)} ctime swaps, each within 2 s of the ctime it sets ({off[:3]})")
    if text is not None:
        far = [round(x - start, 3) for x in text if not start - 2 <= x <= end + 2]
        c.check(text and not far, f"trace text: {len(text)} events, each TIME within 2 s of the "
                f"host's time (outside, s after start: {far[:3]})")


@selftest_cases
def selftest_trace(results):
    """Event sequences that must fail: swapped, another ctime, not QUERIED, lost."""
    run = results.run
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
           "inodes": [{"role": "overlay", "dev": "0:40", "file_type": "regular"},
                      {"role": "upper", "dev": "0:41", "file_type": "regular"}]}]
    run("trace-summary: fields", check_trace_summary, ts, "t",
        ["processes_followed=2", "copied_up_untraced=None", "inodes_note~share one s_dev",
         "roles=overlay@0:40,upper@0:41", "types=regular,regular"], want_fail=False)
    for cond in ("processes_followed=3", "processes_followed=None", "inodes_note~copies it up",
                 "roles=upper@0:41", "processes_not_followed=0", "types=directory,regular"):
        run("trace-summary: " + cond, check_trace_summary, ts, "t", [cond])
    run("trace-dev: 5 events on 0:5", check_trace_dev, seq, "0:5", 5, want_fail=False)
    run("trace-dev: another device", check_trace_dev, seq, "7:0", 5)
    run("trace-dev: 4 events where 5 are wanted", check_trace_dev, seq[:5], "0:5", 5)
    now = 1796000000.25
    tm = [ev("stat", time_realtime_sec=1796000000, time_realtime_nsec=500000000),
          ev("ctime_swap", time_realtime_sec=1796000001, time_realtime_nsec=0, new_sec=1796000000,
             new_nsec=990000000)]
    run("trace-times: the host's time", check_trace_times, tm, now, now + 1, want_fail=False)
    # trace in `unshare --time --monotonic 100000` before the fix: 99,999.5 s early
    early = cp(tm)
    for e in early:
        e["time_realtime_sec"] -= 100000
    run("trace-times: a time namespace's offset", check_trace_times, early, now, now + 1)
    late = cp(tm)
    late[1]["new_sec"] -= 3
    run("trace-times: a swap 3 s from its ctime", check_trace_times, late, now, now + 1)
    run("trace-times: no swap", check_trace_times, tm[:1], now, now + 1)
    run("trace-times: the text's times", check_trace_times, tm, now, now + 1, [now, now + 0.5],
        want_fail=False)
    run("trace-times: a text time 99,999.5 s early", check_trace_times, tm, now, now + 1,
        [now, now - 99999.5])
    run("trace-times: no text event", check_trace_times, tm, now, now + 1, [])
