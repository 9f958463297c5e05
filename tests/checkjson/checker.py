# SPDX-License-Identifier: GPL-2.0
"""checker.py - what every check of tests/checkjson/ shares.

The Checker (one "PASS ..." / "FAIL ..." line per assertion, the failures kept), reading
mgtrace's JSON lines and picking objects out of them (the summary, the events, the check
report), the registry of subcommands (@subcommand) and of self-test cases (@selftest_cases),
and main(), which dispatches tests/checkjson.py's first argument to its subcommand.
"""
import json
import re
import sys


class Checker:
    def __init__(self, quiet=False):
        self.failures = []
        self.quiet = quiet

    def check(self, cond, msg):
        if not cond:
            self.failures.append(msg)
        if not self.quiet:
            print(("PASS " if cond else "FAIL ") + msg)
        return cond


def load_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def summary_of(objs):
    s = [o for o in objs if o.get("type") == "summary"]
    return s[-1] if s else None


def events_of(objs):
    return [o for o in objs if o.get("type") == "event"]


def trace_summary_of(objs):
    s = [o for o in objs if o.get("type") == "trace_summary"]
    return s[-1] if s else None


def first_report(path):
    return [o for o in load_lines(path) if o.get("type") == "check"][0]


def opt(args, flag, default=None):
    """The value after flag in args, else default."""
    return args[args.index(flag) + 1] if flag in args else default


def cp(o):
    """A deep copy of a JSON value (a case to doctor)."""
    return json.loads(json.dumps(o))


# ---- the subcommands of tests/checkjson.py ----

# name -> function(checker, args): args are the command line's words after the name. A
# check prints ok/FAIL lines and returns None (the exit status is 1 when one failed); an
# extractor returns what to print (exit status 0).
SUBCOMMANDS = {}


def subcommand(name, args=None, checker=True):
    """Register the decorated function as subcommand NAME, and return it unchanged.
    args(words) makes its arguments from the command line's words after NAME (without
    args: the list of words itself); checker=True passes the Checker first."""
    def register(fn):
        if name in SUBCOMMANDS:
            raise ValueError(f"subcommand {name} registered twice")

        def run(c, a):
            return fn(*([c] if checker else []), *(args(a) if args else [a]))
        run.__doc__, run.__name__ = fn.__doc__, fn.__name__
        SUBCOMMANDS[name] = run
        return fn
    return register


# ---- the self-test: every check fed cases that must fail (and one that must pass) ----

SELFTESTS = []


def selftest_cases(fn):
    """Register fn(results) as self-test cases: it appends (label, passed) to results."""
    SELFTESTS.append(fn)
    return fn


class Cases(list):
    """The self-test's results, (label, passed) in order."""

    def run(self, label, fn, *args, want_fail=True, **kw):
        """fn(checker, *args, **kw) must fail (want_fail), or pass."""
        c = Checker(quiet=True)
        fn(c, *args, **kw)
        self.append((("fails on " if want_fail else "passes: ") + label, bool(c.failures) == want_fail))


def usage_names(usage):
    """The subcommands a usage text lists: the first word of each line indented by two
    spaces (after "checkjson.py ", if there)."""
    return {m.group(1) for m in re.finditer(r"^  (?:checkjson\.py )?([a-z][a-z-]*)", usage, re.M)}


def selftest(usage):
    results = Cases()
    for cases in SELFTESTS:
        cases(results)
    results.append(("usage_names: the first word of the lines indented by two spaces only",
                    usage_names("Usage:\n  checkjson.py stat FILE\n  check-x FILE  what\n"
                                "                 more words\n   x\n") == {"stat", "check-x"}))
    names = set(SUBCOMMANDS) | {"selftest"}
    missing, unknown = sorted(names - usage_names(usage)), sorted(usage_names(usage) - names)
    results.append(("usage lists every subcommand, and no other" +
                    (f" (missing {missing}, unknown {unknown})" if missing or unknown else ""),
                    not missing and not unknown))
    bad = 0
    for label, good_result in results:
        print(("PASS " if good_result else "FAIL ") + "selftest: " + label)
        bad += not good_result
    return 1 if bad else 0


def main(argv, usage):
    """tests/checkjson.py: argv[1] the subcommand; without one, or an unknown one, the
    usage on stderr and exit status 2."""
    if len(argv) < 2:
        print(usage, file=sys.stderr)
        return 2
    cmd = argv[1]
    if cmd == "selftest":
        return selftest(usage)
    if cmd not in SUBCOMMANDS:
        print(usage, file=sys.stderr)
        return 2
    c = Checker()
    r = SUBCOMMANDS[cmd](c, argv[2:])
    if r is not None:       # an extractor: its output is the result
        print(r)
        return 0
    return 1 if c.failures else 0
