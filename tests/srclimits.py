#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""srclimits.py - the size limits docs/architecture.md keeps: every src/*.c at most 500
lines, no function in src/ over 100 (from the line of its name to its closing brace, a
function being a body whose "{" and "}" stand at column 0, as the kernel's style has it).

  srclimits.py check FILE...   "PASS"/"FAIL" lines, exit 1 on a breach
  srclimits.py selftest        a 501-line file and a 101-line function must fail
"""
import os
import re
import sys
import tempfile

MAX_FILE, MAX_FN = 500, 100


def breaches(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    out = []
    if len(lines) - 1 > MAX_FILE:
        out.append(f"{path}: {len(lines) - 1} lines (at most {MAX_FILE})")
    start = None
    for i, line in enumerate(lines):
        if line == "{" and start is None:
            j = i - 1
            while j >= 0 and "(" not in lines[j]:
                j -= 1
            m = re.search(r"(\w+)\s*\(", lines[j]) if j >= 0 else None
            start, name = j, m.group(1) if m else "?"
        elif line == "}" and start is not None:
            if i - start + 1 > MAX_FN:
                out.append(f"{path}: {name}() is {i - start + 1} lines (at most {MAX_FN})")
            start = None
    return out


def main(argv):
    if len(argv) > 1 and argv[1] == "check":
        bad = [b for p in argv[2:] for b in breaches(p)]
        for b in bad:
            print("FAIL " + b)
        if not bad:
            print(f"PASS {len(argv) - 2} files: none over {MAX_FILE} lines, no function over {MAX_FN}")
        return 1 if bad else 0
    if len(argv) > 1 and argv[1] == "selftest":
        with tempfile.TemporaryDirectory() as d:
            long_file, long_fn = os.path.join(d, "a.c"), os.path.join(d, "b.c")
            open(long_file, "w").write("int x;\n" * 501)
            open(long_fn, "w").write("int f(void)\n{\n" + "\tx++;\n" * 98 + "}\n")
            ok = True
            for p, what in ((long_file, "a 501-line file"), (long_fn, "a 101-line function")):
                b = breaches(p)
                print(("PASS " if b else "FAIL ") + f"srclimits selftest: {what} fails ({b[:1]})")
                ok &= bool(b)
            fine = os.path.join(d, "c.c")
            open(fine, "w").write("int f(void)\n{\n" + "\tx++;\n" * 97 + "}\n")
            b = breaches(fine)
            print(("PASS " if not b else "FAIL ") + f"srclimits selftest: a 100-line function passes {b}")
            return 0 if ok and not b else 1
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
