#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""progstats - what bench/progcost and bench/checkscale share: bpf_stats windows, prefill.

usage: python3 bench/progstats.py mkfiles DIR K     create files DIR/0 .. DIR/K-1 (empty)
       python3 bench/progstats.py statfiles DIR K   stat() DIR/0 .. DIR/K-1 once each
       python3 bench/progstats.py churn DIR N       N files made, written, fstat()ed, written,
                                                    stat()ed and removed in DIR, one at a time
       python3 bench/progstats.py window PRE POST   print each program's window (JSON)

As a module: read_snap() parses one bench/progsnap file (the BPF programs a process
holds, with run_cnt and run_time_ns from fdinfo, names from bpftool), window() takes two
snapshots of one process and gives each program's runs and ns between them, and
judge_window() sums check's event programs (the timestamp:* tracepoints' tpb_/rtp_
programs, not the process followers) that ran at least 1% of their runs. statfiles is check's prefill: each stat() of a
multigrain file fires timestamp:fill_mg_cmtime, and check enters the inode into its
per-inode hash; the files are made beforehand (mkfiles, outside check), so that each
enters once, by its stat (a create inside check would enter the new inode twice: its
first ctime swap carries generation 0, docs/check.md).
Exit codes: 0 ok, 1 a file could not be made, read or stat()ed, 2 usage.
"""
import json
import os
import sys

# check's programs on the timestamp:* tracepoints (bpf/mgtrace.bpf.c; include/mg_vocab.def)
JUDGE_PROGS = ("ctime_ns_xchg", "ctime_xchg_skip", "fill_mg_cmtime", "set_ctime_to_ts")


def read_snap(path):
    """One progsnap FILE -> {prog_id: {"name": str, "runs": int, "ns": int}}, and under
    the key "cpu" /proc/stat's first line (its numbers: user, nice, system, idle, iowait,
    ... in USER_HZ ticks) when the file has it.

    runs and ns are the kernel's run_cnt and run_time_ns (summed over CPUs; 0 while
    kernel.bpf_stats_enabled is 0); name is bpftool's, or "id N" without bpftool.
    Raises OSError (unreadable) or ValueError (not a progsnap file)."""
    progs, cur, names, cpu = {}, None, {}, None
    with open(path) as f:
        text = f.read()
    head, sep, tail = text.partition("\nbpftool\n")
    if not sep and text.startswith("bpftool\n"):
        head, sep, tail = "", "x", text[len("bpftool\n"):]
    for line in head.splitlines():
        if line.startswith("stat cpu "):
            cpu = [int(x) for x in line.split()[2:]]
            continue
        if line.startswith("fd "):
            cur = {}
            progs[len(progs)] = cur
            continue
        k, _, v = line.partition(":")
        if cur is not None and v.strip().lstrip("-").isdigit():
            cur[k.strip()] = int(v.strip())
    if sep and tail.strip():
        for p in json.loads(tail):
            names[p["id"]] = p.get("name", "")
    out = {}
    for p in progs.values():
        if "prog_id" not in p:
            raise ValueError(f"{path}: a program's fdinfo without prog_id")
        i = p["prog_id"]
        out[i] = {"name": names.get(i, f"id {i}"), "runs": p.get("run_cnt", 0),
                  "ns": p.get("run_time_ns", 0)}
    if cpu:
        out["cpu"] = cpu
    return out


def window(pre, post):
    """Two read_snap() results of one process -> {name: (runs, ns)} between them.

    A program in post but not in pre (loaded between) counts from 0; programs of one
    name are summed (tp_btf and raw_tp never both load)."""
    res = {}
    for i, p in post.items():
        if i == "cpu":
            continue
        b = pre.get(i, {"runs": 0, "ns": 0})
        runs, ns = res.get(p["name"], (0, 0))
        res[p["name"]] = (runs + p["runs"] - b["runs"], ns + p["ns"] - b["ns"])
    return res


def busy_cpus(pre, post, ncpu):
    """The CPUs busy on average between two read_snap() results of a machine with NCPU
    CPUs (the busy share of all CPUs' /proc/stat ticks times NCPU), or None without the
    lines or ticks."""
    a, b = pre.get("cpu"), post.get("cpu")
    if not a or not b:
        return None
    total = sum(b[:8]) - sum(a[:8])		# user .. steal (guest time is inside user)
    idle = (b[3] + b[4]) - (a[3] + a[4])
    return (1 - idle / total) * ncpu if total > 0 else None


def is_judge_prog(name):
    """True for check's event programs (tpb_X or rtp_X, X in JUDGE_PROGS)."""
    return name.startswith(("tpb_", "rtp_")) and name[4:] in JUDGE_PROGS


def judge_window(win, min_share=0.01):
    """{name: (runs, ns)} -> (runs, ns) of check's event programs together, leaving out a
    program with fewer than MIN_SHARE of their runs (the rare kinds, a skip or a set: a
    handful of runs, each maybe the first through its code, which under qemu TCG costs a
    translation of hundreds of microseconds, are no per-event figure)."""
    mine = {n: v for n, v in win.items() if is_judge_prog(n)}
    total = sum(r for r, _ in mine.values())
    keep = [v for v in mine.values() if v[0] and v[0] >= min_share * total]
    return sum(r for r, _ in keep), sum(t for _, t in keep)


def cpu_busy_snap():
    """(/proc/stat's total jiffies of all CPUs, of them idle+iowait): for load_between()."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v), v[3] + v[4]


def load_between(a, b):
    """Share of all CPU time busy between two cpu_busy_snap()s, 0..1 (every process)."""
    return 1 - (b[1] - a[1]) / max(1, b[0] - a[0])


def loadavg():
    """The 1-minute load average, /proc/loadavg."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def _files(argv, fn):
    d, k = argv[0], int(argv[1])
    for i in range(k):
        fn(os.path.join(d, str(i)))


def _mk(p):
    os.close(os.open(p, os.O_CREAT | os.O_WRONLY, 0o600))


def _churn(argv):
    """Files come and go, as a real workload's do: each one a new inode that enters check's
    per-inode state and leaves it at its eviction."""
    d, n = argv[0], int(argv[1])
    os.makedirs(d, exist_ok=True)
    for i in range(n):
        p = os.path.join(d, f"c{i}")
        fd = os.open(p, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        try:
            os.write(fd, b"x")
            os.fstat(fd)
            os.write(fd, b"y")
        finally:
            os.close(fd)
        os.stat(p)
        os.unlink(p)


def main(argv):
    try:
        if len(argv) == 3 and argv[0] == "mkfiles":
            os.makedirs(argv[1], exist_ok=True)
            _files(argv[1:], _mk)
        elif len(argv) == 3 and argv[0] == "statfiles":
            _files(argv[1:], os.stat)
        elif len(argv) == 3 and argv[0] == "churn":
            _churn(argv[1:])
        elif len(argv) == 3 and argv[0] == "window":
            json.dump(window(read_snap(argv[1]), read_snap(argv[2])), sys.stdout, indent=1)
            print()
        else:
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 2
    except (OSError, ValueError) as e:
        print(f"progstats: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
