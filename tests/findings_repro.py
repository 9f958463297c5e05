# SPDX-License-Identifier: GPL-2.0
"""findings_repro - what the host tests of the reproducers in docs/findings/ share.

A reproducer (tmpfs-mmap-msync.c, overlayfs-fifo-times.c) prints one line per case,
"CASE: ctime not later in A of N, mtime not later in B of N"; a host test runs it with -n N,
keeps its output in T/PREFIX-NAME.txt and its exit status in T/PREFIX-NAME.rc, and its usage
error's in T/PREFIX-usage.err and .rc. Repro reads them and prints the project's PASS/FAIL
lines (tests/lib.sh's tally counts them). Used from a test's python3 heredoc, run from the
repository's root: sys.path.insert(0, "tests").
"""
import re

LINE = re.compile(r"^(\S+): ctime not later in (\d+) of (\d+), mtime not later in (\d+) of (\d+)$")


def say(ok, msg):
    print(("PASS " if ok else "FAIL ") + msg)


class Repro:
    """The runs of one reproducer: in directory t, files PREFIX-*, N tries of each of cases."""

    def __init__(self, t, prefix, n, cases):
        self.t, self.prefix, self.n, self.cases = t, prefix, n, set(cases)

    def counts(self, name):
        """{case: (ctime not later, mtime not later)} of run NAME, or None (said) when it
        failed, printed another set of cases, or did not run each N times."""
        base = f"{self.t}/{self.prefix}-{name}"
        try:
            rc = open(base + ".rc").read().strip()
            text = open(base + ".txt").read()
        except OSError as e:
            say(False, f"{name}: no run ({e})")
            return None
        got = {}
        for line in text.splitlines():
            m = LINE.match(line)
            if m and int(m.group(3)) == self.n and int(m.group(5)) == self.n:
                got[m.group(1)] = (int(m.group(2)), int(m.group(4)))
        ok = rc == "0" and set(got) == self.cases
        say(ok, f"{name}: exit {rc}, the {len(self.cases)} cases {self.n} times each: "
            f"{text.strip()[:300]!r}")
        return got if ok else None

    def expect(self, name, got, case, missed):
        """Case CASE of a run: every try missed (missed) or none did, ctime and mtime alike."""
        c, m = got[case]
        want = self.n if missed else 0
        say(c == want and m == want,
            f"{name} {case}: ctime not later in {c}, mtime in {m} of {self.n} (want {want} of each)")

    def usage(self, prog, what):
        """The run without an operand: exit 2 and a usage line naming prog."""
        rc = open(f"{self.t}/{self.prefix}-usage.rc").read().strip()
        err = open(f"{self.t}/{self.prefix}-usage.err").read()
        say(rc == "2" and err.startswith(f"usage: {prog}"), f"no {what}: exit {rc}, {err.strip()!r}")
