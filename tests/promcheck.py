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
    return ok


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
