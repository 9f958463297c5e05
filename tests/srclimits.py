#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""srclimits.py - the size limits docs/architecture.md keeps: every file of src/, bpf/ and
include/ (.c and .h) at most 500 lines, no function in them over 100 (from the line of its
name to its closing brace, a function being a body whose "{" and "}" stand at column 0, as
the kernel's style has it). The name line is the declaration's first line with a "(" that
is not a section or attribute line: `static __always_inline int name(`, `MG_RULE_INLINE
... name(`, and for libbpf's BPF_PROG(name, ...)-style definitions the macro's first
argument, the SEC("...") line above not counted.

  srclimits.py check FILE...   "PASS"/"FAIL" lines, exit 1 on a breach
  srclimits.py selftest        a 501-line .c and .h, a 101-line function (C, an inline
                               function of a header, a BPF_PROG under SEC()) must fail
"""
import os
import re
import sys
import tempfile

MAX_FILE, MAX_FN = 500, 100

# lines of a declaration that name no function: a program's section, an attribute
NOT_NAME = re.compile(r"^\s*(SEC\s*\(|__attribute__|__section)")
# libbpf's macros that define a program: BPF_PROG(name, ...), BPF_KPROBE(name, ...), ...
PROG_MACRO = re.compile(r"\b([A-Z][A-Z0-9_]*)\s*\(\s*(\w+)\s*[,)]")


def decl_start(lines, i):
    """The first line of the declaration whose body opens at line i: back over lines
    that are neither blank nor the end of something else (a ";", "}", "*/", a
    preprocessor line)."""
    j = i
    while j > 0:
        prev = lines[j - 1].rstrip()
        if (not prev or prev.endswith((";", "}", "*/")) or prev.startswith(("#", "//"))
                or prev == "{"):
            break
        j -= 1
    return j


def fn_name(lines, start, i):
    """The line of the function's name and the name, for the body opening at line i."""
    for k in range(start, i):
        line = re.sub(r'SEC\s*\("[^"]*"\)', "", lines[k])
        if NOT_NAME.match(lines[k]) and "(" not in line:
            continue
        m = re.search(r"(\w+)\s*\(", line)
        if not m:
            continue
        p = PROG_MACRO.match(line, m.start())
        if p and p.group(1) == m.group(1):
            return k, p.group(2)
        return k, m.group(1)
    return i, "?"


def breaches(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    out = []
    if len(lines) - 1 > MAX_FILE:
        out.append(f"{path}: {len(lines) - 1} lines (at most {MAX_FILE})")
    start = None
    for i, line in enumerate(lines):
        if line == "{" and start is None:
            start, name = fn_name(lines, decl_start(lines, i), i)
        elif line == "}" and start is not None:
            if i - start + 1 > MAX_FN:
                out.append(f"{path}: {name}() is {i - start + 1} lines (at most {MAX_FN})")
            start = None
    return out


def functions(path):
    """(name, lines) of each function of path: for the selftest and a look by hand."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    fns, start = [], None
    for i, line in enumerate(lines):
        if line == "{" and start is None:
            start, name = fn_name(lines, decl_start(lines, i), i)
        elif line == "}" and start is not None:
            fns.append((name, i - start + 1))
            start = None
    return fns


def selftest():
    body = lambda n: "{\n" + "\tx++;\n" * (n - 2) + "}\n"	# a body of n lines
    with tempfile.TemporaryDirectory() as d:
        cases = (  # file, text, what, must it fail, its functions
            ("a.c", "int x;\n" * 501, "a 501-line .c", True, []),
            ("a.h", "int x;\n" * 501, "a 501-line .h", True, []),
            ("b.c", "int f(void)\n" + body(100), "a 101-line function", True, [("f", 101)]),
            ("b.h", "/* f */\nstatic __always_inline int f(int a,\n\t\t\t\t      int b)\n"
             + body(99), "a 101-line inline function of a .h", True, [("f", 101)]),
            ("b.bpf.c", 'SEC("tp_btf/sys_enter")\nint BPF_PROG(handle, struct pt_regs *r)\n'
             + body(100), "a 101-line BPF_PROG under SEC()", True, [("handle", 101)]),
            ("c.c", "int f(void)\n" + body(99), "a 100-line function", False, [("f", 100)]),
            ("c.h", "MG_RULE_INLINE int g(void)\n" + body(99)
             + "\nstatic __always_inline void h(int b,\n\t\t\t\t       void (*cb)(int))\n"
             + body(98), "100-line functions of a .h", False, [("g", 100), ("h", 100)]),
            ("c.bpf.c", 'SEC("kprobe/x")\nint BPF_KPROBE(kp_x, struct inode *inode)\n'
             + body(99), "a 100-line BPF_KPROBE (its SEC() line not counted)", False,
             [("kp_x", 100)]),
        )
        ok = True
        for name, text, what, fail, fns in cases:
            p = os.path.join(d, name)
            open(p, "w").write(text)
            b, got = breaches(p), functions(p)
            good = bool(b) == fail and got == fns
            print(("PASS " if good else "FAIL ") + f"srclimits selftest: {what} "
                  + ("fails" if fail else "passes") + f" ({b[:1]}; functions {got})")
            ok &= good
        return 0 if ok else 1


def main(argv):
    if len(argv) > 1 and argv[1] == "check":
        bad = [b for p in argv[2:] for b in breaches(p)]
        for b in bad:
            print("FAIL " + b)
        if not bad:
            print(f"PASS {len(argv) - 2} files: none over {MAX_FILE} lines, no function over {MAX_FN}")
        return 1 if bad else 0
    if len(argv) > 1 and argv[1] == "selftest":
        return selftest()
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
