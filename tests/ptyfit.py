#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ptyfit.py - run a command on a pseudo-terminal of a chosen size, and check that its
output fits it, as procps top and perf stat fit theirs.

  ptyfit.py run COLS ROWS OUT -- CMD [ARGS...]
      run CMD with stdin, stdout and stderr on a pty of COLS x ROWS (TIOCSWINSZ before
      exec; COLUMNS and LINES removed from its environment), its output to OUT; exits
      with CMD's status
  ptyfit.py check COLS FILE
      PASS/FAIL: no line of FILE is wider than COLS (escape sequences and CR removed)
  ptyfit.py screens COLS ROWS FILE HEADER
      PASS/FAIL: FILE is a full-screen tool's output (top): more than one screen (each
      begins with the clear sequence ESC[H ESC[2J), each of at most ROWS - 1 lines (the
      cursor's line left, so nothing scrolls), none wider than COLS, each with a line
      starting with HEADER (the header printed on every refresh)
  ptyfit.py selftest
      each check fails on doctored output
"""
import fcntl
import os
import pty
import re
import struct
import sys
import termios

CLEAR = "\033[H\033[2J"
ESC = re.compile(r"\033\[[0-9;?]*[A-Za-z]")


def run(cols, rows, out, cmd):
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.execvpe(cmd[0], cmd, env)
    data = b""
    while True:
        try:
            b = os.read(fd, 65536)
        except OSError:
            break
        if not b:
            break
        data += b
    _, st = os.waitpid(pid, 0)
    with open(out, "wb") as f:
        f.write(data)
    return os.waitstatus_to_exitcode(st)


def lines_of(text):
    return [ESC.sub("", ln).replace("\r", "") for ln in text.replace(CLEAR, "\n").split("\n")]


def fails_width(cols, text):
    wide = [ln for ln in lines_of(text) if len(ln) > cols]
    return [f"{len(wide)} line(s) wider than {cols}, e.g. {wide[0]!r} ({len(wide[0])})"] if wide else []


def fails_screens(cols, rows, text, header):
    bad = []
    parts = text.split(CLEAR)
    screens = parts[1:]
    if len(screens) < 2:
        bad.append(f"{len(screens)} screen(s): want a refresh at least (clear sequence)")
    for i, s in enumerate(screens, 1):
        body = s.split("\n")
        newlines = s.count("\n")
        if i < len(screens) and newlines > rows - 1:
            bad.append(f"screen {i}: {newlines} lines for a {rows}-line terminal (it scrolls)")
        if not any(ESC.sub("", ln).replace("\r", "").startswith(header) for ln in body):
            bad.append(f"screen {i}: no line starting with {header!r}")
        bad += [f"screen {i}: {f}" for f in fails_width(cols, s)]
    return bad


def report(name, bad):
    if bad:
        for b in bad[:5]:
            print(f"FAIL {name}: {b}")
    else:
        print(f"PASS {name}")
    return not bad


def selftest():
    ok = True
    good = CLEAR + "mgtrace top: x\nPID a\n1 b\n" + CLEAR + "mgtrace top: x\nPID a\n2 b\n"
    cases = [
        ("width: fits", fails_width(20, "abc\n" + "x" * 20 + "\n"), False),
        ("width: one line of 21 in 20 columns", fails_width(20, "abc\n" + "x" * 21 + "\n"), True),
        ("width: escapes do not count", fails_width(5, "\033[1mabcde\033[0m\r\n"), False),
        ("screens: fits", fails_screens(20, 5, good, "mgtrace top:"), False),
        ("screens: a screen of 5 lines in 5 rows", fails_screens(
            20, 5, good.replace("1 b\n", "1 b\nc\nd\n", 1), "mgtrace top:"), True),
        ("screens: the header only on the first", fails_screens(
            20, 5, CLEAR + "mgtrace top: x\n1\n" + CLEAR + "1\n", "mgtrace top:"), True),
        ("screens: a line too wide", fails_screens(10, 5, good, "mgtrace top:"), True),
        ("screens: one screen only", fails_screens(20, 5, good.split(CLEAR, 2)[1] and
                                                   CLEAR + good.split(CLEAR)[1], "mgtrace top:"), True),
    ]
    for name, bad, want_fail in cases:
        if bool(bad) == want_fail:
            print(f"PASS selftest: {'fails on' if want_fail else 'passes:'} {name}")
        else:
            ok = False
            print(f"FAIL selftest: {name}: {bad or 'no failure'}")
    return ok


def main(a):
    if a[:1] == ["run"] and len(a) > 5 and a[4] == "--":
        return run(int(a[1]), int(a[2]), a[3], a[5:])
    if a[:1] == ["check"] and len(a) == 3:
        text = open(a[2], errors="replace").read()
        return 0 if report(f"{os.path.basename(a[2])} fits {a[1]} columns",
                           fails_width(int(a[1]), text)) else 1
    if a[:1] == ["screens"] and len(a) == 5:
        text = open(a[3], errors="replace").read()
        return 0 if report(f"{os.path.basename(a[3])}: every screen fits {a[1]}x{a[2]} with its "
                           f"header", fails_screens(int(a[1]), int(a[2]), text, a[4])) else 1
    if a == ["selftest"]:
        return 0 if selftest() else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
