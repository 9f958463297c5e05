# SPDX-License-Identifier: GPL-2.0
"""harness.py - the test harness's own look at the machine: the BPF programs, links and
maps a test made (new since its mark, held by its own processes: tests/lib.sh left_attached),
and our programs by name, whoever holds them.

Subcommands: bpf-ours, bpf-mark, bpf-test.
"""
import json
import os
import sys

from .checker import selftest_cases, subcommand


OUR_PROG_PREFIXES = ("fe_", "kp_", "tpb_", "rtp_", "read_kcounters", "read_pcpu")
TIMESTAMP_TPS = ("ctime_ns_xchg", "ctime_xchg_skip", "fill_mg_cmtime", "inode_set_ctime_to_ts")


def test_processes(proc="/proc", root=None, token=None):
    """The pids of the running test: root (MGTRACE_TEST_ROOT, the pid of the shell that
    sourced tests/lib.sh) and its descendants, by each /proc/PID/stat's ppid, and every
    process whose environment carries MGTRACE_TEST_OWNER=token (a process of the test that
    left the tree: setsid, a double fork, reparented to init). Another user's or another
    run's processes are neither."""
    root = int(root if root is not None else os.environ.get("MGTRACE_TEST_ROOT", "0") or 0)
    token = token if token is not None else os.environ.get("MGTRACE_TEST_OWNER", "")
    mark = f"MGTRACE_TEST_OWNER={token}".encode() if token else None
    parent, ours = {}, set()
    for d in (d for d in os.listdir(proc) if d.isdigit()):
        try:
            with open(f"{proc}/{d}/stat", "rb") as f:
                st = f.read()
            # "PID (comm) S PPID ...": the comm may hold spaces and parentheses
            parent[int(d)] = int(st[st.rindex(b")") + 2:].split()[1])
            if mark:
                with open(f"{proc}/{d}/environ", "rb") as f:
                    if mark in f.read().split(b"\0"):
                        ours.add(int(d))
        except (OSError, ValueError, IndexError):
            pass
    for pid in parent:
        p, seen = pid, set()
        while p and p not in seen and p != root:
            seen.add(p)
            p = parent.get(p, 0)
        if root and p == root:
            ours.add(pid)
    return ours


def held_by(pids, proc="/proc"):
    """The BPF program, link and map ids an fd of one of pids holds: {"prog": set, "link":
    set, "map": set}, from each fd's fdinfo (prog_id:, link_id:, map_id:). bpftool's own
    processes are left out (their pid iterator, where bpftool has one, is not the test's)."""
    held = {"prog": set(), "link": set(), "map": set()}
    for pid in pids:
        try:
            with open(f"{proc}/{pid}/comm") as f:
                if f.read().strip() == "bpftool":
                    continue
            fds = os.listdir(f"{proc}/{pid}/fdinfo")
        except OSError:
            continue
        for fd in fds:
            try:
                with open(f"{proc}/{pid}/fdinfo/{fd}") as f:
                    for line in f:
                        k, _, v = line.partition(":")
                        if k in ("prog_id", "link_id", "map_id"):
                            held[k[:-3]].add(int(v))
            except (OSError, ValueError):
                pass
    return held


def bpf_listing(lines):
    """`bpftool -j prog show`, `link show` and `map show` lines: {"prog": {id: obj}, "link":
    {id: obj}, "map": {id: obj}} (a link has prog_id, a map bytes_key)."""
    out = {"prog": {}, "link": {}, "map": {}}
    for line in lines:
        for o in (json.loads(line) if line.strip() else []):
            kind = "map" if "bytes_key" in o else "link" if "prog_id" in o else "prog"
            out[kind][o["id"]] = o
    return out


def test_objects(listing, held, mark):
    """The BPF objects the test made and still holds: ids held by the test's processes
    (held_by()) that were not there at the mark ({"prog": ids, ...} taken before the test),
    with the maps of such a program and the links to it. Sorted words "prog:ID:NAME",
    "link:ID:TP", "map:ID:NAME"; what other processes made meanwhile is not among them."""
    objs = {k: set(held[k]) - set(mark.get(k, ())) for k in ("prog", "link", "map")}
    for pid in list(objs["prog"]):
        objs["map"] |= set(listing["prog"].get(pid, {}).get("map_ids", [])) - set(mark.get("map", ()))
    for lid, o in listing["link"].items():
        if o.get("prog_id") in objs["prog"] and lid not in mark.get("link", ()):
            objs["link"].add(lid)
    name = {"prog": "name", "link": "tp_name", "map": "name"}
    return sorted(f"{k}:{i}:{listing[k].get(i, {}).get(name[k], '?')}" for k in objs for i in objs[k])


def bpf_ours(lines, probes_only=False):
    """From `bpftool -j prog show` / `link show` lines: our programs and timestamp:* links,
    as words "prog:NAME" / "link:TP", whoever holds them (the machine's, by name).
    probes_only: the probe programs (fe_, kp_, tpb_, rtp_), not the per-CPU readers."""
    seen = []
    pfx = OUR_PROG_PREFIXES[:4] if probes_only else OUR_PROG_PREFIXES
    for line in lines:
        for o in (json.loads(line) if line.strip() else []):
            if o.get("tp_name") in TIMESTAMP_TPS:
                seen.append("link:" + o["tp_name"])
            name = o.get("name") or o.get("prog_name") or ""
            if name.startswith(pfx) and "bytes_key" not in o:
                seen.append("prog:" + name)
    return seen


@subcommand("bpf-ours", checker=False)
def bpf_ours_command(a):
    """bpf-ours [--probes] [--count], bpftool -j lines on stdin: the words of bpf_ours(),
    sorted, once each; --count: how many programs are listed."""
    if "--count" not in a:
        return " ".join(sorted(set(bpf_ours(sys.stdin, "--probes" in a))))
    return sum(w.startswith("prog:") for w in bpf_ours(sys.stdin, "--probes" in a))


@subcommand("bpf-mark", checker=False)
def bpf_mark_command(a):
    """bpf-mark, bpftool -j prog/link/map show lines on stdin: the ids there now, as one JSON
    object {"prog": [...], "link": [...], "map": [...]} (a test's mark)."""
    listing = bpf_listing(sys.stdin)
    return json.dumps({k: sorted(v) for k, v in listing.items()})


@subcommand("bpf-test", checker=False)
def bpf_test_command(a):
    """bpf-test [--mark FILE] [--count] [--progs], bpftool -j prog/link/map show lines on
    stdin: the objects test_objects() finds (held by the test's processes, new since the
    mark; no mark: all they hold), one word each; --count: how many; --progs: programs only."""
    mark = {}
    if "--mark" in a:
        with open(a[a.index("--mark") + 1]) as f:
            mark = json.load(f)
    held = held_by(test_processes())
    words = test_objects(bpf_listing(sys.stdin), held, mark)
    if "--progs" in a:
        words = [w for w in words if w.startswith("prog:")]
    return len(words) if "--count" in a else " ".join(words)


@selftest_cases
def selftest_harness(results):
    """bpf_ours picks our programs and links out of bpftool's list."""
    run = results.run
    bl = ['[{"name": "tpb_fill_mg_cmtime"}, {"name": "other"}, {"name": "read_pcpu"}]',
          '[{"tp_name": "fill_mg_cmtime"}, {"tp_name": "sched_switch"}]']
    results.append(("bpf-ours: our programs and timestamp links only",
                    sorted(bpf_ours(bl)) == ["link:fill_mg_cmtime", "prog:read_pcpu", "prog:tpb_fill_mg_cmtime"]
                    and sorted(bpf_ours(bl, True)) == ["link:fill_mg_cmtime", "prog:tpb_fill_mg_cmtime"]))
    results.extend(selftest_test_objects())


def _fake_proc(root):
    """A /proc of six processes for the self-test: 100 the test's shell, 101 and 102 its
    children (102 is bpftool, its comm with a space and parentheses), 200 the test's but
    reparented to init (its environment carries the token), 300 and 301 another run's."""
    procs = {100: (1, "bash", "tok"), 101: (100, "mgtrace", ""), 102: (101, "bpf) (tool", ""),
             200: (1, "mgtrace", "tok"), 300: (1, "mgtrace", "tok2"), 301: (300, "mgtrace", "")}
    fds = {101: ["prog_id:\t7", "map_id:\t9", "link_id:\t20"], 102: ["prog_id:\t8"],
           200: ["prog_id:\t11"], 300: ["prog_id:\t5"], 301: ["map_id:\t6"]}
    for pid, (ppid, comm, tok) in procs.items():
        os.makedirs(f"{root}/{pid}/fdinfo")
        with open(f"{root}/{pid}/stat", "w") as f:
            f.write(f"{pid} ({comm}) S {ppid} {pid} {pid} 0")
        with open(f"{root}/{pid}/comm", "w") as f:
            f.write(("bpftool" if pid == 102 else comm) + "\n")
        with open(f"{root}/{pid}/environ", "wb") as f:
            f.write(b"PATH=/bin\0" + (f"MGTRACE_TEST_OWNER={tok}\0".encode() if tok else b""))
        for i, line in enumerate(fds.get(pid, [])):
            with open(f"{root}/{pid}/fdinfo/{i + 3}", "w") as f:
                f.write(f"pos:\t0\nflags:\t02000002\n{line}\n")


def selftest_test_objects():
    """test_processes, held_by and test_objects on a fake /proc and listing: the test's own
    objects count, another run's, bpftool's and those of the mark do not."""
    import tempfile
    out = []
    with tempfile.TemporaryDirectory() as d:
        _fake_proc(d)
        pids = test_processes(d, 100, "tok")
        out.append(("bpf-test: the test's processes are its shell's tree and its token's",
                    pids == {100, 101, 102, 200}))
        out.append(("bpf-test: without the token a reparented process is not the test's",
                    test_processes(d, 100, "") == {100, 101, 102}))
        out.append(("bpf-test: another run (token tok2, its child) is not the test's",
                    not pids & {300, 301}))
        held = held_by(pids, d)
        out.append(("bpf-test: ids held by the test's fds, bpftool's left out",
                    held == {"prog": {7, 11}, "link": {20}, "map": {9}}))
    listing = bpf_listing([
        '[{"id": 7, "name": "tpb_x", "tag": "t", "map_ids": [9, 10]}, '
        '{"id": 5, "name": "tpb_x", "tag": "t", "map_ids": [6]}, {"id": 11, "name": "rtp_y", "tag": "t"}]',
        '[{"id": 20, "prog_id": 7, "tp_name": "ctime_ns_xchg"}, {"id": 21, "prog_id": 5, "tp_name": "x"}, '
        '{"id": 22, "prog_id": 7, "tp_name": "fill_mg_cmtime"}]',
        '[{"id": 9, "name": "counts", "bytes_key": 4}, {"id": 10, "name": "old", "bytes_key": 4}, '
        '{"id": 6, "name": "theirs", "bytes_key": 4}]'])
    held = {"prog": {7, 11}, "link": {20}, "map": {9}}
    got = test_objects(listing, held, {"prog": [11], "map": [10], "link": []})
    out.append(("bpf-test: new and held: the program, its maps and links; the mark's left out",
                got == ["link:20:ctime_ns_xchg", "link:22:fill_mg_cmtime", "map:9:counts", "prog:7:tpb_x"]))
    out.append(("bpf-test: another process's program, map and link are not counted",
                not any(w.split(":")[1] in ("5", "6", "21") for w in got)))
    out.append(("bpf-test: with no mark every held object counts (a leak left running)",
                len(test_objects(listing, held, {})) == 6))
    out.append(("bpf-test: nothing held, nothing counted", test_objects(listing, {"prog": set(),
                "link": set(), "map": set()}, {}) == []))
    return out
