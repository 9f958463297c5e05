#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""checkclocks.py - assertions on `mgtrace clocks --json`, for the host tests.

Usage:
  checkclocks.py check FILE --iterations N --hres vdso|syscall
  checkclocks.py selftest FILE     doctored copies of FILE (a passing output) must fail

--hres is what the high-resolution clocks (REALTIME, MONOTONIC, BOOTTIME, TAI,
MONOTONIC_RAW) must show: vdso when the clocksource can be read from user space
(tsc, kvm-clock, the Hyper-V TSC page), else syscall. The coarse clocks are always
vdso (they read the last tick's time, no clocksource), the CPU-time clocks always
one system call per call (the kernel must sum the task's runtime).

Each check prints "PASS ..." or "FAIL ..."; the exit status is 1 on any failure.
FILE is parsed with Python's json module: exactly one JSON object on one line.
"""
import copy
import os
import json
import sys

HRES = ("CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_BOOTTIME", "CLOCK_TAI",
        "CLOCK_MONOTONIC_RAW")
COARSE = ("CLOCK_REALTIME_COARSE", "CLOCK_MONOTONIC_COARSE")
CPUTIME = ("CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID")
IDS = {"CLOCK_REALTIME": 0, "CLOCK_MONOTONIC": 1, "CLOCK_PROCESS_CPUTIME_ID": 2,
       "CLOCK_THREAD_CPUTIME_ID": 3, "CLOCK_MONOTONIC_RAW": 4, "CLOCK_REALTIME_COARSE": 5,
       "CLOCK_MONOTONIC_COARSE": 6, "CLOCK_BOOTTIME": 7, "CLOCK_TAI": 11}
CLOCKSOURCE = "/sys/devices/system/clocksource/clocksource0/current_clocksource"


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkjson import Checker  # noqa: E402


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_doc(c, doc, iterations, hres):
    """All assertions on one parsed `clocks --json` object."""
    c.check(doc.get("schema_version") == 1, "clocks: schema_version is 1")
    c.check(doc.get("type") == "clocks", "clocks: type is 'clocks'")
    c.check(doc.get("iterations") == iterations, f"clocks: iterations is {iterations}")
    c.check(is_int(doc.get("runs")) and doc["runs"] >= 3, "clocks: runs >= 3")
    c.check(doc.get("cpu") is None or is_int(doc.get("cpu")), "clocks: cpu is null or an int")
    c.check(doc.get("syscall_counter") in ("tp_btf", "raw_tp"),
            "clocks: syscall_counter is tp_btf or raw_tp")
    try:
        with open(CLOCKSOURCE) as f:
            cs = f.read().strip()
    except OSError:
        cs = None
    c.check(isinstance(doc.get("clocksource"), str) and doc["clocksource"] == cs,
            f"clocks: clocksource is the kernel's ({cs})")
    c.check(isinstance(doc.get("available_clocksources"), list)
            and doc.get("clocksource") in doc["available_clocksources"],
            "clocks: clocksource is among available_clocksources")
    clocks = doc.get("clocks")
    if not c.check(isinstance(clocks, list), "clocks: clocks is an array"):
        return
    by = {k.get("name"): k for k in clocks if isinstance(k, dict)}
    c.check(sorted(by) == sorted(IDS) and len(clocks) == len(IDS),
            "clocks: each of the 9 clocks exactly once")
    for name, cid in IDS.items():
        k = by.get(name)
        if k is None:
            continue
        if not c.check("unavailable" not in k, f"{name}: available ({k.get('unavailable')})"):
            continue
        c.check(k.get("id") == cid, f"{name}: id {cid}")
        c.check(is_int(k.get("res_ns")) and k["res_ns"] > 0, f"{name}: res_ns > 0")
        ns = k.get("ns_per_call") or {}
        c.check(all(is_num(ns.get(f)) and ns[f] > 0 for f in ("min", "median", "max"))
                and ns["min"] <= ns["median"] <= ns["max"],
                f"{name}: 0 < ns_per_call min <= median <= max ({ns})")
        calls, sc = k.get("calls"), k.get("syscalls")
        if not c.check(is_int(calls) and calls == iterations and is_int(sc) and 0 <= sc,
                       f"{name}: calls == {iterations}, syscalls an int >= 0"):
            continue
        want_served = "vdso" if sc == 0 else "syscall" if sc == calls else "mixed"
        c.check(k.get("served_by") == want_served,
                f"{name}: served_by {k.get('served_by')} agrees with {sc} syscalls in {calls} calls")
        want = hres if name in HRES else "vdso" if name in COARSE else "syscall"
        want_sc = 0 if want == "vdso" else calls
        c.check(k.get("served_by") == want and sc == want_sc,
                f"{name}: {want}, {want_sc} syscalls in {calls} calls "
                f"(got {k.get('served_by')}, {sc})")


def load(path):
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    if len(lines) != 1:
        raise ValueError(f"{path}: {len(lines)} lines, want one JSON object")
    return json.loads(lines[0])


def selftest(path):
    """Doctored copies of a passing output; each must fail check_doc()."""
    base = load(path)
    it = base["iterations"]
    hres = next(k["served_by"] for k in base["clocks"] if k["name"] == "CLOCK_MONOTONIC")
    out = Checker()
    pre = Checker(quiet=True)
    check_doc(pre, base, it, hres)
    out.check(not pre.failures, "selftest: the undoctored output passes")

    def clock(doc, name):
        return next(k for k in doc["clocks"] if k["name"] == name)

    def cpu_claims_vdso(d):         # the case the issue is about, reversed
        k = clock(d, "CLOCK_THREAD_CPUTIME_ID")
        k["served_by"], k["syscalls"] = "vdso", 0

    def cpu_claims_vdso_counts_kept(d):
        clock(d, "CLOCK_PROCESS_CPUTIME_ID")["served_by"] = "vdso"

    def boottime_syscall(d):        # the file server's platform
        k = clock(d, "CLOCK_BOOTTIME")
        k["served_by"] = "syscall" if hres == "vdso" else "vdso"
        k["syscalls"] = k["calls"] if hres == "vdso" else 0

    def coarse_mixed(d):
        k = clock(d, "CLOCK_MONOTONIC_COARSE")
        k["served_by"], k["syscalls"] = "mixed", 3

    def unavailable_as_zero(d):
        clock(d, "CLOCK_TAI")["ns_per_call"] = {"median": 0, "min": 0, "max": 0}

    def clock_missing(d):
        d["clocks"] = [k for k in d["clocks"] if k["name"] != "CLOCK_MONOTONIC_RAW"]

    def wrong_calls(d):
        clock(d, "CLOCK_REALTIME")["calls"] = it + 1

    def wrong_clocksource(d):
        d["clocksource"] = "hpet-not-here"

    def unavailable(d):
        k = clock(d, "CLOCK_TAI")
        k["unavailable"] = "EINVAL: Invalid argument"

    for f in (cpu_claims_vdso, cpu_claims_vdso_counts_kept, boottime_syscall, coarse_mixed,
              unavailable_as_zero, clock_missing, wrong_calls, wrong_clocksource, unavailable):
        d = copy.deepcopy(base)
        f(d)
        c = Checker(quiet=True)
        check_doc(c, d, it, hres)
        out.check(bool(c.failures), f"selftest: {f.__name__} is rejected"
                  + (f" ({c.failures[0]})" if c.failures else ""))
    return out


def main(argv):
    if len(argv) >= 2 and argv[0] == "selftest":
        c = selftest(argv[1])
    elif len(argv) == 6 and argv[0] == "check" and argv[2] == "--iterations" \
            and argv[4] == "--hres" and argv[5] in ("vdso", "syscall"):
        c = Checker()
        try:
            doc = load(argv[1])
        except (OSError, ValueError) as e:
            c.check(False, f"clocks: {argv[1]} parses as one JSON object: {e}")
            return 1
        check_doc(c, doc, int(argv[3]), argv[5])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
