#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mancheck.py - the man page and the binary cannot drift apart.

  mancheck.py options MAN_TEXT MGTRACE
      MAN_TEXT: `man -l build/mgtrace.8` rendered (wide, UTF-8). Every option of CMD's
      option table (`MGTRACE help --options CMD`, the table its parser, --help and the
      bash completion are made from), long and short, appears in CMD's subsection of
      COMMANDS (--help and -h aside: the man page says it once); every command of
      `MGTRACE --help` has a subsection; every exit code of `MGTRACE --help` is under
      EXIT STATUS.
  mancheck.py selftest MAN_TEXT MGTRACE
      the same check fails on a copy without one long option, one short option, one
      command, one exit code.
Prints "PASS ..." / "FAIL ..." lines.
"""
import re
import subprocess
import sys

LONG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def norm(text):
    # groff renders - as U+2010 (hyphen) or U+2212 (minus) in a UTF-8 locale
    return text.replace("\u2010", "-").replace("\u2212", "-").replace("\u00ad", "")


def sections(text):
    """{heading: body} for the SH (column 0) and SS (3 spaces) headings."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^(?:([A-Z][A-Z ]+)|   ([a-z][a-z, ]*))$", line)
        if m:
            cur = m.group(1) or m.group(2)
            out[cur] = ""
        elif cur:
            out[cur] += line + "\n"
    return out


def commands(mg):
    h = subprocess.run([mg, "--help"], capture_output=True, text=True).stdout
    body = h.split("Commands", 1)[1].split("\n\n", 1)[0]
    return [m.group(1) for m in re.finditer(r"^  ([a-z]+) ", body, re.M)], h


def check(text, mg, quiet=False):
    fails = []

    def ck(cond, msg):
        if not cond:
            fails.append(msg)
        if not quiet:
            print(("PASS " if cond else "FAIL ") + msg)
        return cond
    text = norm(text)
    sec = sections(text)
    cmds, top = commands(mg)
    ck(len(cmds) >= 6, f"mgtrace --help lists {len(cmds)} commands")
    for c in cmds:
        name = next((k for k in sec if c in [w.strip() for w in k.split(",")]), None)
        if not ck(name is not None, f"man page has a subsection for command {c}"):
            continue
        if c in ("help", "version"):
            continue
        table = subprocess.run([mg, "help", "--options", c], capture_output=True, text=True).stdout
        opts = sorted({o for line in table.splitlines()[1:] for o in line.split("\t")[:2]
                       if o not in ("-", "-h", "--help")})
        missing = [o for o in opts if not re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", sec[name])]
        ck(opts and not missing, f"{c}: all {len(opts)} options of its table in its section"
           + (f"; missing {missing}" if missing else ""))
    codes = re.findall(r"\b([0-4]) [a-z]", top.split("Exit codes:", 1)[1])
    es = sec.get("EXIT STATUS", "")
    missing = [x for x in codes if not re.search(r"^       " + x + r"$", es, re.M)]
    ck(len(codes) >= 5 and not missing, f"exit codes {codes} under EXIT STATUS"
       + (f"; missing {missing}" if missing else ""))
    fmt = sec.get("OUTPUT FORMATS", "")
    for t in ("interval", "summary", "probe", "check", "clocks", "event", "trace_summary", "latency"):
        ck(re.search(r"\b" + t + r"\b", fmt), f"OUTPUT FORMATS names the JSON type {t}")
    return fails


def main(argv):
    text = open(argv[2], encoding="utf-8").read()
    if argv[1] == "options":
        return 1 if check(text, argv[3]) else 0
    if argv[1] == "selftest":
        bad = 0
        cases = {
            "an option missing (--prometheus)": norm(text).replace("--prometheus", "--prom"),
            "a short option missing (-H)": re.sub(r"(?<![\w-])-H(?![\w-])", "-Q", norm(text)),
            "a command missing (clocks)": re.sub(r"^   clocks$", "   clock", norm(text), flags=re.M),
            "an exit code missing (4)": re.sub(r"^       4$", "       5", norm(text), flags=re.M),
        }
        for what, t in cases.items():
            f = check(t, argv[3], quiet=True)
            print(("PASS " if f else "FAIL ") + f"mancheck selftest: {what} fails ({f[:1]})")
            bad += not f
        return 1 if bad else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
