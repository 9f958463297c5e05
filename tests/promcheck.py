#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""promcheck.py - check `mgtrace stat --prometheus` as Prometheus sees it.

  promcheck.py scrape METRICS JSONL [--final]
      METRICS: node_exporter's /metrics as fetched over HTTP; JSONL: the same run's
      `stat --json` output. Every mgtrace_ROW_total series equals mgtrace's own JSON:
      the sum of the first K interval objects, K = mgtrace_intervals_total of the
      scrape (or, with --final, the summary). Rows absent from the file are the
      unavailable and derived ones, with their reason in mgtrace_source_info; none is 0
      for lack of a value. mgtrace_info names the JSON's backend and kernel release.
  promcheck.py file FILE JSONL
      the same checks on the file mgtrace wrote (as after its end: --final), without
      node_exporter; used for process scope, where no row is compared with debugfs and
      no kernel counter is used (mgtrace_debugfs_mismatches absent, kernel_per_cpu says so).
  promcheck.py error FILE PREFIX CODE CLASS TEXT [NAME=VALUE...]
      the file of a run that ended without a result (refused, or stopped before judging):
      only PREFIX_up 0 (PREFIX: mgtrace for stat, mgtrace_check for check), PREFIX_error
      {reason_class=CLASS, one of a fixed set} with the exit code CODE as its value, and the
      free text only in PREFIX_error_info{reason (containing TEXT), errno}; no count left
      from an earlier run; every series carries the --prometheus-label NAME=VALUE given.
  promcheck.py alert BASE NAME SECONDS [--desc TEXT] [LABEL=VALUE...] | no-alert BASE NAME
      the Prometheus server at BASE (rules loaded from contrib/) has alert NAME, pending or
      firing, with those labels and TEXT in its description, within SECONDS; or has none now.
  promcheck.py reads FILE SECONDS
      read FILE in a loop while it is rewritten: every read is a whole file.
  promcheck.py tsdb RESULTS.json JSONL
      the Prometheus server's answers (tests/host.d/75-prometheus.sh): every stored
      sample of mgtrace_floor_swaps_total and mgtrace_ctime_updates_total equals the
      JSON cumulated to the mgtrace_intervals_total sample of the same scrape, and the
      two queries of docs/prometheus.md agree with those samples.
  promcheck.py fetch URL OUT | query BASE OUT | wait-scraped BASE | free-ports N
      helpers of tests/host.d/75-prometheus.sh: HTTP GET to a file; docs/prometheus.md's queries and
      the samples they read; wait for a Prometheus server's first scrape; N free local ports.
  promcheck.py doc FILE
      FILE (docs/prometheus.md) shows the queries this test asks, each verbatim on a line.
  promcheck.py selftest
      every check above fails on a doctored input.
Prints "PASS ..." / "FAIL ..." lines (tests/lib.sh tally counts them).
"""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkjson import Checker  # noqa: E402

LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')


def unlabel(s):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), s)


def parse(text):
    """[(name, {label: value}, float)] of every sample line; comments skipped."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            raise ValueError("not a sample line: " + line)
        labels = {k: unlabel(v) for k, v in LABEL.findall(m.group(2) or "")}
        out.append((m.group(1), labels, float(m.group(3))))
    return out


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def cumulated(objs, k, final):
    """{row: [per-CPU counts] or [total]} after k intervals (or the summary)."""
    if final:
        ctr = [o for o in objs if o["type"] == "summary"][-1]["counters"]
        return {n: (r["per_cpu"] if r["per_cpu"] is not None else [r["total"]])
                for n, r in ctr.items() if r["total"] is not None}
    ivs = [o for o in objs if o["type"] == "interval"][:k]
    acc = {}
    for o in ivs:
        for n, r in o["counters"].items():
            if r["total"] is None:
                continue
            v = r["per_cpu"] if r["per_cpu"] is not None else [r["total"]]
            acc[n] = [a + b for a, b in zip(acc.get(n, [0] * len(v)), v)]
    if k == 0:
        s = [o for o in objs if o["type"] == "summary"][-1]["counters"]
        acc = {n: [0] * (len(r["per_cpu"]) if r["per_cpu"] is not None else 1)
               for n, r in s.items() if r["total"] is not None}
    return acc


def check_scrape(c, text, objs, final=False, served=True):
    samples = parse(text)
    mg = [s for s in samples if s[0].startswith("mgtrace_")]
    summ = [o for o in objs if o["type"] == "summary"][-1]
    if served:
        c.check(any(n == "node_textfile_scrape_error" and v == 0 for n, _, v in samples),
                "node_exporter read the textfile directory without error")
    info = [lab for n, lab, _ in mg if n == "mgtrace_info"]
    c.check(len(info) == 1 and info[0].get("backend") == summ["backend"]
            and info[0].get("kernel_release") == summ["kernel_release"],
            f"mgtrace_info names backend {summ['backend']} and release {summ['kernel_release']}")
    # the per-CPU reader: what the JSON says (its reason when null), and no reader named
    # where no row is read from the kernel's counters (process scope)
    kpc, lab = summ.get("kernel_per_cpu"), (info[0] if info else {}).get("kernel_per_cpu")
    why = summ.get("kernel_per_cpu_unavailable")
    kernel_rows = any(r.get("source") == "kernel" for r in summ["counters"].values())
    c.check(lab is not None and (lab == kpc if kpc is not None else bool(why) and lab.endswith(why))
            and (kernel_rows or kpc is None),
            f"mgtrace_info kernel_per_cpu '{lab}' is the JSON's ({kpc!r}, {why!r}), "
            f"a reader named only where a kernel row uses it ({kernel_rows})")
    # a file of counts says so: mgtrace_up 1, and no error series (issue 28 item 1)
    up = [v for n, _, v in mg if n == "mgtrace_up"]
    c.check(up == [1] and not any(n.startswith("mgtrace_error") for n, _, _ in mg),
            f"mgtrace_up {up} (want [1]) and no mgtrace_error series")
    # free text only in mgtrace_info and mgtrace_source_info (issue 28 item 7): every other
    # series has no label but cpu="N", so no wording or pid makes a new series of it
    free = [(n, lab) for n, lab, _ in mg if n not in ("mgtrace_info", "mgtrace_source_info")
            and any(k != "cpu" or not v.isdigit() for k, v in lab.items())]
    c.check(not free, f"outside mgtrace_info and mgtrace_source_info no label but cpu=\"N\" ({free[:2]})")
    # mgtrace_debugfs_mismatches only where a row was compared with debugfs: no silent 0
    compared = any("match" in r for r in summ["counters"].values())
    mm = [v for n, _, v in mg if n == "mgtrace_debugfs_mismatches"]
    c.check(len(mm) == (1 if compared else 0) and (not final or not mm or mm[0] == summ["mismatches"]),
            f"mgtrace_debugfs_mismatches {mm} present iff the JSON compared a row ({compared})")
    k = [v for n, _, v in mg if n == "mgtrace_intervals_total"]
    if not c.check(len(k) == 1, "one mgtrace_intervals_total sample"):
        return
    k = int(k[0])
    want = cumulated(objs, k, final)
    src = {lab["counter"]: lab for n, lab, _ in mg if n == "mgtrace_source_info"}
    ctr = summ["counters"]
    c.check(set(src) == set(ctr), f"mgtrace_source_info has every row ({len(src)})")
    for name, row in ctr.items():
        series = {lab.get("cpu"): v for n, lab, v in mg if n == f"mgtrace_{name}_total"}
        lab = src.get(name, {})
        c.check(lab.get("source") == row["source"],
                f"{name}: source {lab.get('source')} is the JSON's {row['source']}")
        if row["source"] in ("derived", "unavailable"):
            c.check(not series and lab.get("state") in ("derived", "unavailable")
                    and lab.get("reason"), f"{name}: {row['source']}, absent, reason "
                    f"'{lab.get('reason', '')[:60]}'")
            if row["source"] == "unavailable":
                c.check(lab.get("reason") == row.get("unavailable"),
                        f"{name}: the reason is the JSON's")
            continue
        w = want.get(name)
        if w is not None and len(w) > 1:
            got = [series.get(str(i)) for i in range(len(w))]
        else:
            got = [series.get(None)]
        c.check(got == [float(x) for x in (w or [None])],
                f"{name}: scraped {got} == JSON after {'the summary' if final else f'{k} intervals'} {w}")


# mgtrace_error's reason_class: the exit codes' classes (src/util/prom.c mg_prom_reason_class)
REASON_CLASSES = {"usage": {2}, "environment": {3}, "interrupted": {4}, "output": {5},
                  "command": {126, 127}, "internal": None}


def check_error(c, text, prefix, code, klass, want, user=None):
    """The file a run without a result writes (src/util/prom.c mg_prom_write_error)."""
    user = user or {}
    try:
        samples = parse(text)
    except ValueError as e:
        c.check(False, f"the error file parses: {e}")
        return
    if any(n == "node_textfile_scrape_error" for n, _, _ in samples):   # as node_exporter served it
        c.check(any(n == "node_textfile_scrape_error" and v == 0 for n, _, v in samples),
                "node_exporter read the textfile directory without error")
    samples = [x for x in samples if x[0].startswith("mgtrace_")]
    names = sorted(n for n, _, _ in samples)
    c.check(names == sorted([f"{prefix}_up", f"{prefix}_error", f"{prefix}_error_info"]),
            f"only {prefix}_up, _error and _error_info, once each, nothing left of an earlier "
            f"run's counts: {names[:6]}")
    by = {n: (lab, v) for n, lab, v in samples}
    for n in by:
        c.check(f"# TYPE {n} gauge\n" in text and f"# HELP {n} " in text, f"{n}: a gauge with its HELP")
    own = {n: {k: v for k, v in lab.items() if k not in user} for n, (lab, _) in by.items()}
    c.check(all({k: lab.get(k) for k in user} == user for lab, _ in by.values()),
            f"every series carries the user's labels {user}")
    lab, v = by.get(f"{prefix}_up", ({}, None))
    c.check(v == 0 and own.get(f"{prefix}_up") == {}, f"{prefix}_up {v} (want 0), no label of its own")
    lab, v = by.get(f"{prefix}_error", ({}, None))
    cl = own.get(f"{prefix}_error", {})
    codes = REASON_CLASSES.get(cl.get("reason_class"), set())
    c.check(list(cl) == ["reason_class"] and cl["reason_class"] == klass and
            (codes is None or code in codes) and v == code,
            f"{prefix}_error{{reason_class={cl.get('reason_class')}}} {v}: want class {klass} "
            f"(of the fixed set {sorted(REASON_CLASSES)}), value the exit code {code}, no other label")
    lab, v = by.get(f"{prefix}_error_info", ({}, None))
    il = own.get(f"{prefix}_error_info", {})
    c.check(sorted(il) == ["errno", "reason"] and want in il.get("reason", "") and v == 1 and
            (il.get("errno") == "" or re.fullmatch(r"E[A-Z0-9]+", il.get("errno", ""))),
            f"{prefix}_error_info: the reason '{il.get('reason', '')[:120]}' (want '{want}'), "
            f"errno '{il.get('errno')}', value {v}")


def match_alerts(answer, name, labels, desc=None):
    """The alerts of a /api/v1/alerts answer named name with labels (and desc in the
    description)."""
    return [a for a in answer.get("data", {}).get("alerts", [])
            if a.get("labels", {}).get("alertname") == name
            and all(a["labels"].get(k) == v for k, v in labels.items())
            and (desc is None or desc in a.get("annotations", {}).get("description", ""))]


def check_alert(c, base, name, seconds, labels, desc, want=True):
    """Wait up to seconds for alert name (pending or firing) at the server base; or, want
    False: none now."""
    end = time.time() + seconds
    while True:
        got = match_alerts(json.loads(http_get(base + "/api/v1/alerts")), name, labels, desc)
        if got or not want or time.time() >= end:
            break
        time.sleep(0.5)
    if want:
        c.check(bool(got), f"Prometheus has alert {name} {labels}: "
                + (f"{got[0]['state']}, {got[0].get('annotations')}" if got else f"none after {seconds} s"))
    else:
        c.check(not got, f"Prometheus has no alert {name} {labels} ({len(got)})")


def check_reads(c, path, seconds):
    n = bad = 0
    end = time.time() + seconds
    while time.time() < end:
        try:
            with open(path) as f:
                t = f.read()
        except FileNotFoundError:
            bad += 1
            continue
        n += 1
        if not (t.endswith("\n") and "\nmgtrace_bpf_recursion_misses_total " in t
                and t.startswith("# HELP mgtrace_info ")):
            bad += 1
    c.check(n > 100 and bad == 0, f"{n} reads of the file while it was rewritten, {bad} partial or missing")


def check_tsdb(c, res, objs):
    """res: {"samples": {metric: API result of metric[range]}, "q1": ..., "q2": ...}."""
    ks = {}
    for s in res["samples"]["mgtrace_intervals_total"]:
        for t, v in s["values"]:
            ks[t] = int(float(v))
    n = 0
    for m in ("mgtrace_floor_swaps_total", "mgtrace_ctime_updates_total"):
        row = m[len("mgtrace_"):-len("_total")]
        for s in res["samples"][m]:
            cpu = int(s["metric"]["cpu"])
            for t, v in s["values"]:
                want = cumulated(objs, ks.get(t, -1), False).get(row) if t in ks else None
                n += 1
                if not c.check(want is not None and float(v) == want[cpu],
                               f"stored {m}{{cpu={cpu}}} at {t} = {v}: JSON after {ks.get(t)} "
                               f"intervals {want and want[cpu]}"):
                    return
    c.check(n >= 4 * 5, f"{n} stored samples compared")
    q1 = {r["metric"].get("cpu"): float(r["value"][1]) for r in res["q1"]}
    nr = [o for o in objs if o["type"] == "summary"][-1]["nr_cpus"]
    c.check(sorted(q1) == [str(i) for i in range(nr)] and all(v >= 0 for v in q1.values())
            and sum(q1.values()) > 0, f"floor swaps per second per CPU: {q1}")
    q2 = float(res["q2"][0]["value"][1]) if res["q2"] else None
    # rate() extrapolates every series of one scrape alike, so the ratio of the sums is the
    # ratio of the sums' increases over the stored samples in the range
    first = {m: sum(float(s["values"][0][1]) for s in res["samples_range"][m])
             for m in res["samples_range"]}
    last = {m: sum(float(s["values"][-1][1]) for s in res["samples_range"][m])
            for m in res["samples_range"]}
    fl, up = ("mgtrace_floor_swaps_total", "mgtrace_ctime_updates_total")
    want = (last[fl] - first[fl]) / (last[up] - first[up]) if last[up] > first[up] else None
    c.check(q2 is not None and want is not None and abs(q2 - want) <= 1e-9 * want,
            f"floor swaps per ctime update {q2} = increase of the stored samples {want}")


QUERIES = {
    "q1": "sum by (cpu) (rate(mgtrace_floor_swaps_total[1m]))",
    "q2": "sum(rate(mgtrace_floor_swaps_total[1m])) / sum(rate(mgtrace_ctime_updates_total[1m]))",
}


def http_get(url):
    import urllib.request
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


def query_server(base, out):
    """Ask the Prometheus server at base the queries of docs/prometheus.md and the stored samples
    they read, all at one evaluation time; write them to out (JSON)."""
    import urllib.parse
    t = time.time()

    def q(expr):
        j = json.loads(http_get(f"{base}/api/v1/query?" + urllib.parse.urlencode(
            {"query": expr, "time": f"{t:.3f}"})))
        return j["data"]["result"]
    res = {"time": t, "queries": QUERIES, "samples": {}, "samples_range": {}}
    for k, expr in QUERIES.items():
        res[k] = q(expr)
    for m in ("mgtrace_floor_swaps_total", "mgtrace_ctime_updates_total", "mgtrace_intervals_total"):
        res["samples"][m] = q(f"{m}[1m]")
        if m != "mgtrace_intervals_total":
            res["samples_range"][m] = res["samples"][m]
    with open(out, "w") as f:
        json.dump(res, f)


def check_doc(c, text, name):
    """The documented queries are the ones the test asks the server, verbatim."""
    lines = {line.strip() for line in text.splitlines()}
    for k, expr in QUERIES.items():
        c.check(expr in lines, f"{name} shows query {k} as the test asks it: {expr}")


def selftest():
    ok = Checker()
    doc = "# floor swaps per second\n" + "\n".join(QUERIES.values()) + "\n"
    c = Checker(quiet=True)
    check_doc(c, doc, "doc")
    ok.check(not c.failures, f"selftest: a page with both queries passes {c.failures}")
    c = Checker(quiet=True)
    check_doc(c, doc.replace("[1m]))\n", "[5m]))\n", 1), "doc")
    ok.check(bool(c.failures), "selftest: a page whose query differs from the test's fails")
    objs = [
        {"type": "interval", "counters": {
            "a": {"source": "kernel", "total": 3, "per_cpu": [1, 2]},
            "d": {"source": "derived", "total": 1, "per_cpu": [0, 1]},
            "u": {"source": "unavailable", "total": None, "per_cpu": None, "unavailable": "why"}}},
        {"type": "interval", "counters": {
            "a": {"source": "kernel", "total": 5, "per_cpu": [4, 1]},
            "d": {"source": "derived", "total": 1, "per_cpu": [1, 0]},
            "u": {"source": "unavailable", "total": None, "per_cpu": None, "unavailable": "why"}}},
        {"type": "summary", "backend": "kernel", "kernel_release": "r", "nr_cpus": 2,
         "kernel_per_cpu": "ksym", "mismatches": 0,
         "counters": {
            "a": {"source": "kernel", "total": 9, "per_cpu": [5, 4], "match": True},
            "d": {"source": "derived", "total": 2, "per_cpu": [1, 1]},
            "u": {"source": "unavailable", "total": None, "per_cpu": None, "unavailable": "why"}}}]
    good = """node_textfile_scrape_error 0
mgtrace_info{backend="kernel",kernel_release="r",kernel_per_cpu="ksym"} 1
mgtrace_source_info{counter="a",source="kernel",state="exported",reason=""} 1
mgtrace_source_info{counter="d",source="derived",state="derived",reason="compute it"} 1
mgtrace_source_info{counter="u",source="unavailable",state="unavailable",reason="why"} 1
mgtrace_up 1
mgtrace_a_total{cpu="0"} 5
mgtrace_a_total{cpu="1"} 3
mgtrace_intervals_total 2
mgtrace_debugfs_mismatches 0
"""
    c = Checker(quiet=True)
    check_scrape(c, good, objs)
    check_scrape(c, good.replace("intervals_total 2", "intervals_total 1")
                 .replace("} 5\n", "} 1\n").replace("} 3\n", "} 2\n"), objs)
    check_scrape(c, good.replace("intervals_total 2", "intervals_total 3")
                 .replace("} 3\n", "} 4\n"), objs, final=True)
    ok.check(not c.failures, f"selftest: the right scrapes pass {c.failures}")
    bad = {
        "a count one off": good.replace('cpu="1"} 3', 'cpu="1"} 4'),
        "interval numbering off": good.replace("intervals_total 2", "intervals_total 1"),
        "an unavailable row written as 0": good + 'mgtrace_u_total 0\n',
        "a derived row written": good + 'mgtrace_d_total{cpu="0"} 1\n',
        "an unavailable row without its reason": good.replace('reason="why"', 'reason=""'),
        "another backend": good.replace('backend="kernel"', 'backend="fentry"'),
        "a textfile scrape error": good.replace("scrape_error 0", "scrape_error 1"),
        "a row missing from mgtrace_source_info": good.replace('counter="d"', 'counter="x"'),
        "a free-text label on a counter series":
            good.replace('mgtrace_a_total{cpu="1"}', 'mgtrace_a_total{cpu="1",scope="pid 11295 and its descendants"}'),
        "a label on the interval count": good.replace("intervals_total 2", 'intervals_total{reason="x"} 2'),
        "mgtrace_up 0 in a file of counts": good.replace("mgtrace_up 1", "mgtrace_up 0"),
        "no mgtrace_up": good.replace("mgtrace_up 1\n", ""),
        "an error series beside the counts": good + 'mgtrace_error{reason_class="usage"} 2\n',
    }
    for what, text in bad.items():
        c = Checker(quiet=True)
        check_scrape(c, text, objs)
        ok.check(bool(c.failures), f"selftest: {what} fails")
    # process scope: nothing compared, no kernel row; the JSON's reader is null with a reason
    sc = json.loads(json.dumps(objs))
    sc[-1]["counters"]["a"] = dict(sc[-1]["counters"]["a"], source="bpf")
    del sc[-1]["counters"]["a"]["match"]
    for o in sc[:2]:
        o["counters"]["a"]["source"] = "bpf"
    sc[-1].update(kernel_per_cpu=None, kernel_per_cpu_unavailable="unused in process scope")
    sgood = (good.replace('source="kernel"', 'source="bpf"').replace("mgtrace_debugfs_mismatches 0\n", "")
             .replace('kernel_per_cpu="ksym"', 'kernel_per_cpu="unused in process scope"'))
    c = Checker(quiet=True)
    check_scrape(c, sgood, sc, served=False)
    ok.check(not c.failures, f"selftest: a process-scope file passes {c.failures}")
    sbad = {
        "a mismatches gauge where nothing was compared": sgood + "mgtrace_debugfs_mismatches 0\n",
        "a reader named where no kernel row uses it":
            sgood.replace('kernel_per_cpu="unused in process scope"', 'kernel_per_cpu="ksym"'),
    }
    for what, text in sbad.items():
        c = Checker(quiet=True)
        check_scrape(c, text, sc, served=False)
        ok.check(bool(c.failures), f"selftest: {what} fails")
    c = Checker(quiet=True)
    check_scrape(c, sbad["a reader named where no kernel row uses it"],
                 [*sc[:2], dict(sc[-1], kernel_per_cpu="ksym")], served=False)
    ok.check(bool(c.failures), "selftest: a reader named in JSON and file where no kernel row uses it fails")
    c = Checker(quiet=True)
    check_scrape(c, good.replace("mgtrace_debugfs_mismatches 0\n", ""), objs)
    ok.check(bool(c.failures), "selftest: the mismatches gauge missing where rows were compared fails")
    selftest_error(ok)
    ans = {"data": {"alerts": [{"labels": {"alertname": "A", "instance": "i", "reason_class": "usage"},
                                "annotations": {"description": "bad --known file"}, "state": "pending"}]}}
    ok.check(len(match_alerts(ans, "A", {"reason_class": "usage"}, "--known")) == 1,
             "selftest: an alert with its labels and description is found")
    for what, args in {"another alert": ("B", {}, None), "another label value": ("A", {"reason_class": "environment"}, None),
                       "another description": ("A", {}, "seccomp")}.items():
        ok.check(not match_alerts(ans, *args), f"selftest: {what} is not taken for the alert")
    return ok


def selftest_error(ok):
    """check_error on an error file, and on copies doctored one way each; a file of counts."""
    good = ('# HELP mgtrace_up u\n# TYPE mgtrace_up gauge\nmgtrace_up{job="a"} 0\n'
            '# HELP mgtrace_error e\n# TYPE mgtrace_error gauge\n'
            'mgtrace_error{job="a",reason_class="environment"} 3\n'
            '# HELP mgtrace_error_info i\n# TYPE mgtrace_error_info gauge\n'
            'mgtrace_error_info{job="a",reason="backend fentry unavailable: EPERM",errno="EPERM"} 1\n')
    args = ("mgtrace", 3, "environment", "fentry unavailable", {"job": "a"})
    c = Checker(quiet=True)
    check_error(c, good, *args)
    ok.check(not c.failures, f"selftest: an error file passes {c.failures}")
    c = Checker(quiet=True)
    check_error(c, good + "# TYPE node_textfile_scrape_error gauge\nnode_textfile_scrape_error 0\n", *args)
    ok.check(not c.failures, f"selftest: an error file as node_exporter serves it passes {c.failures}")
    bad = {
        "mgtrace_up 1 in an error file": good.replace('mgtrace_up{job="a"} 0', 'mgtrace_up{job="a"} 1'),
        "another exit code": good.replace('"environment"} 3', '"environment"} 2'),
        "a class outside the fixed set": good.replace("environment", "seccomp"),
        "the class of another code": good.replace('"environment"} 3', '"usage"} 3'),
        "the reason as a label of mgtrace_error":
            good.replace('reason_class="environment"}', 'reason_class="environment",reason="x"}'),
        "the reason missing": good.replace("backend fentry unavailable: EPERM", "x"),
        "the info series missing": good.split("# HELP mgtrace_error_info")[0],
        "an earlier run's count left": good + 'mgtrace_ctime_updates_total{job="a",cpu="0"} 5\n',
        "a series without the user's label": good.replace('mgtrace_up{job="a"} 0', "mgtrace_up 0"),
        "no TYPE line": good.replace("# TYPE mgtrace_error gauge\n", ""),
        "a file of counts": "mgtrace_up 1\nmgtrace_ctime_updates_total{cpu=\"0\"} 5\n",
        "a textfile scrape error": good + "node_textfile_scrape_error 1\n",
    }
    for what, text in bad.items():
        c = Checker(quiet=True)
        check_error(c, text, *args)
        ok.check(bool(c.failures), f"selftest: an error file with {what} fails")
    c = Checker(quiet=True)
    check_error(c, good.replace("mgtrace_", "mgtrace_check_"), "mgtrace", 3, "environment",
                "fentry unavailable", {"job": "a"})
    ok.check(bool(c.failures), "selftest: check's error file read as stat's fails")


def main(argv):
    c = Checker()
    if argv[1] == "selftest":
        c = selftest()
    elif argv[1] == "scrape":
        with open(argv[2]) as f:
            check_scrape(c, f.read(), load_jsonl(argv[3]), final="--final" in argv)
    elif argv[1] == "doc":
        with open(argv[2]) as f:
            check_doc(c, f.read(), argv[2])
    elif argv[1] == "file":
        with open(argv[2]) as f:
            check_scrape(c, f.read(), load_jsonl(argv[3]), final=True, served=False)
    elif argv[1] == "error":
        with open(argv[2]) as f:
            check_error(c, f.read(), argv[3], int(argv[4]), argv[5], argv[6],
                        dict(a.split("=", 1) for a in argv[7:]))
    elif argv[1] in ("alert", "no-alert"):
        rest = argv[5:] if argv[1] == "alert" else argv[4:]
        desc = None
        if rest[:1] == ["--desc"]:
            desc, rest = rest[1], rest[2:]
        check_alert(c, argv[2], argv[3], float(argv[4]) if argv[1] == "alert" else 0,
                    dict(a.split("=", 1) for a in rest), desc, want=argv[1] == "alert")
    elif argv[1] == "reads":
        check_reads(c, argv[2], float(argv[3]))
    elif argv[1] == "fetch":
        with open(argv[3], "w") as f:
            f.write(http_get(argv[2]))
        return 0
    elif argv[1] == "free-ports":
        # N local TCP ports free now (bound at once, so they differ), for the servers
        import socket
        socks = [socket.socket() for _ in range(int(argv[2]))]
        for s in socks:
            s.bind(("127.0.0.1", 0))
        print(*[s.getsockname()[1] for s in socks])
        for s in socks:
            s.close()
        return 0
    elif argv[1] == "wait-scraped":
        # until the server stored a sample of its target (its first scrape), up to 30 s
        for _ in range(150):
            try:
                if json.loads(http_get(argv[2] + "/api/v1/query?query=up"))["data"]["result"]:
                    return 0
            except OSError:
                pass
            time.sleep(0.2)
        return 1
    elif argv[1] == "query":
        query_server(argv[2], argv[3])
        return 0
    elif argv[1] == "tsdb":
        with open(argv[2]) as f:
            check_tsdb(c, json.load(f), load_jsonl(argv[3]))
    else:
        sys.exit(__doc__)
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
