# SPDX-License-Identifier: GPL-2.0
"""probe.py - `mgtrace probe --json`: what the host or VM kernel offers (backends, floor
API, per-CPU counters), as each test machine must report it.

Subcommands: probe, pcpu-rejected, probe-field.
"""
import json
import sys

from .checker import Checker, selftest_cases, subcommand, load_lines


@subcommand("probe", lambda a: (load_lines(a[0])[0], a[1].lstrip("-")))
def check_probe(c, p, mode, api="mainline"):
    """api: the floor API form the kernel must be reported with (vm-multigrain)."""
    c.check(p.get("type") == "probe" and p.get("schema_version") == 1, "probe object, schema 1")
    be = p["backends"]
    if mode == "host-lockdown":
        c.check(p["multigrain"] is True and p["floor_api"] == "mainline", "multigrain, mainline API")
        c.check(be["tracepoint"]["attachable"] is True, "tracepoint backend attachable")
        c.check(be["fentry"]["attachable"] is False and "EPERM" in be["fentry"]["reason"]
                and "lockdown" in be["fentry"]["reason"],
                f"fentry refused with EPERM under lockdown: {be['fentry']['reason']}")
        c.check(be["kprobe"]["attachable"] is False and "kprobes" in be["kprobe"]["reason"],
                f"kprobe refused, kernel has no kprobes: {be['kprobe']['reason']}")
        c.check(p["auto_backend"] == "tracepoint", "auto chooses tracepoint")
        c.check(p["debugfs"]["readable"] is True, "debugfs counters readable")
        # no KALLSYMS_ALL here: the per-CPU counters are read through their BTF offsets
        c.check(p["percpu_readable"] is True and "BTF offsets" in p.get("percpu_method", ""),
                f"kernel per-CPU counters read via BTF offsets: {p.get('percpu_method') or p.get('percpu_reason')}")
    elif mode == "vm-multigrain":
        c.check(p["multigrain"] is True and p["floor_api"] == api,
                f"multigrain, {api} API (probe says {p['floor_api']})")
        bi = p.get("btf_interface") or {}
        c.check(bi.get("problem") is None and bi.get("inode_i_ctime_nsec") == "u32",
                f"BTF shows the interface mgtrace reads ({bi.get('problem')})")
        for b in ("fentry", "kprobe", "tracepoint"):
            c.check(be[b]["attachable"] is True, f"{b} attachable: {be[b]['reason']}")
        c.check(p["auto_backend"] == "fentry", "auto chooses fentry")
        c.check(p["percpu_readable"] is True, "kernel per-CPU counters readable from BPF")
    elif mode == "vm-nomultigrain":
        c.check(p["multigrain"] is False and p["floor_api"] == "none", "no multigrain, API none")
        c.check(p["debugfs"]["readable"] is False, "no debugfs counters file")
        c.check(p["auto_backend"] is None, "no backend attaches")


@subcommand("pcpu-rejected", lambda a: (load_lines(a[0])[0],))
def check_pcpu_rejected(c, p):
    """probe with a doctored BTF offset: the per-CPU reader is refused, saying why."""
    r = p.get("percpu_reason") or ""
    c.check(p.get("percpu_readable") is False and "rejected: mg_ctime_updates: per-CPU sum" in r
            and "debugfs readings around it" in r,
            f"a wrong BTF offset is rejected (percpu_readable {p.get('percpu_readable')}): "
            f"{r.split('; ')[-1]}")


@subcommand("probe-field", lambda a: (json.load(sys.stdin), a), checker=False)
def probe_field(p, keys):
    """The first of keys that probe --json sets (not null), else None."""
    return next((p[k] for k in keys if p.get(k) is not None), None)


@selftest_cases
def selftest_probe(results):
    """Each machine's probe check fails on another's report; pcpu-rejected, probe-field."""
    run = results.run
    probe = {"type": "probe", "schema_version": 1, "multigrain": True, "floor_api": "mainline",
             "auto_backend": "tracepoint", "percpu_readable": False, "debugfs": {"readable": True},
             "backends": {"fentry": {"attachable": True, "reason": "loaded"},
                          "kprobe": {"attachable": False, "reason": "kernel has no kprobes"},
                          "tracepoint": {"attachable": True, "reason": "ok"}}}
    c = Checker(quiet=True)
    check_probe(c, probe, "host-lockdown")
    results.append(("probe: fails when fentry is reported attachable under lockdown", bool(c.failures)))
    c = Checker(quiet=True)
    check_probe(c, probe, "vm-multigrain")
    results.append(("probe: fails when kprobe is refused in the VM", bool(c.failures)))
    c = Checker(quiet=True)
    check_probe(c, probe, "vm-nomultigrain")
    results.append(("probe: fails when multigrain is reported on 6.12", bool(c.failures)))

    rej = {"percpu_readable": False, "percpu_reason": "btf offsets: rejected: mg_ctime_updates: per-CPU "
           "sum 5 below the debugfs readings around it [7, 7]"}
    run("pcpu-rejected: a rejected reading", check_pcpu_rejected, rej, want_fail=False)
    run("pcpu-rejected: a readable per-CPU reader", check_pcpu_rejected, dict(rej, percpu_readable=True))
    run("pcpu-rejected: rejected for another reason", check_pcpu_rejected,
        dict(rej, percpu_reason="btf offsets: mg_ctime_updates not in BTF"))
    results.append(("probe-field: the first key set",
                    probe_field({"a": None, "b": "kernel", "c": "x"}, ["a", "b"]) == "kernel"
                    and probe_field({}, ["a"]) is None))
