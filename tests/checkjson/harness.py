# SPDX-License-Identifier: GPL-2.0
"""harness.py - the test harness's own look at the machine: our BPF programs and links
still loaded (bpftool -j), and those a running mgtrace holds (not leaked).

Subcommands: bpf-ours.
"""
import json
import os
import sys

from .checker import selftest_cases, subcommand


OUR_PROG_PREFIXES = ("fe_", "kp_", "tpb_", "rtp_", "read_kcounters", "read_pcpu")
TIMESTAMP_TPS = ("ctime_ns_xchg", "ctime_xchg_skip", "fill_mg_cmtime", "inode_set_ctime_to_ts")


def held_by_live_mgtrace(proc="/proc"):
    """The BPF program and link ids an fd of a running mgtrace holds (its /proc/PID/exe is
    named mgtrace*): {"prog": set, "link": set}, from each fd's fdinfo (prog_id:, link_id:).
    Such objects belong to a run that is still going (another test's, or an exporter on the
    machine), not to one that has ended and left them behind."""
    held = {"prog": set(), "link": set()}
    for pid in (d for d in os.listdir(proc) if d.isdigit()):
        try:
            if not os.path.basename(os.readlink(f"{proc}/{pid}/exe")).startswith("mgtrace"):
                continue
            fds = os.listdir(f"{proc}/{pid}/fdinfo")
        except OSError:
            continue
        for fd in fds:
            try:
                with open(f"{proc}/{pid}/fdinfo/{fd}") as f:
                    for line in f:
                        k, _, v = line.partition(":")
                        if k in ("prog_id", "link_id"):
                            held[k[:4]].add(int(v))
            except (OSError, ValueError):
                pass
    return held


def bpf_ours(lines, probes_only=False, leaked_only=False):
    """From `bpftool -j prog show` / `link show` lines: our programs and timestamp:* links,
    as sorted words "prog:NAME" / "link:TP". probes_only: the probe programs (fe_, kp_,
    tpb_, rtp_), not the per-CPU readers. leaked_only: not those a running mgtrace holds
    (held_by_live_mgtrace()), so that a test counts what it left, not what other runs hold."""
    seen = []
    pfx = OUR_PROG_PREFIXES[:4] if probes_only else OUR_PROG_PREFIXES
    held = held_by_live_mgtrace() if leaked_only else {"prog": set(), "link": set()}
    for line in lines:
        for o in (json.loads(line) if line.strip() else []):
            if o.get("id") in held["prog" if "tp_name" not in o and "prog_id" not in o else "link"]:
                continue
            if o.get("prog_id") in held["prog"]:
                continue
            if o.get("tp_name") in TIMESTAMP_TPS:
                seen.append("link:" + o["tp_name"])
            name = o.get("name") or o.get("prog_name") or ""
            if name.startswith(pfx):
                seen.append("prog:" + name)
    return seen


@subcommand("bpf-ours", checker=False)
def bpf_ours_command(a):
    """bpf-ours [--probes] [--count] [--leaked], bpftool -j lines on stdin: the words of
    bpf_ours(), sorted, once each; --count: how many programs are listed."""
    if "--count" not in a:
        return " ".join(sorted(set(bpf_ours(sys.stdin, "--probes" in a, "--leaked" in a))))
    return sum(w.startswith("prog:") for w in bpf_ours(sys.stdin, "--probes" in a, "--leaked" in a))


@selftest_cases
def selftest_harness(results):
    """bpf_ours picks our programs and links out of bpftool's list."""
    run = results.run
    bl = ['[{"name": "tpb_fill_mg_cmtime"}, {"name": "other"}, {"name": "read_pcpu"}]',
          '[{"tp_name": "fill_mg_cmtime"}, {"tp_name": "sched_switch"}]']
    results.append(("bpf-ours: our programs and timestamp links only",
                    sorted(bpf_ours(bl)) == ["link:fill_mg_cmtime", "prog:read_pcpu", "prog:tpb_fill_mg_cmtime"]
                    and sorted(bpf_ours(bl, True)) == ["link:fill_mg_cmtime", "prog:tpb_fill_mg_cmtime"]))
