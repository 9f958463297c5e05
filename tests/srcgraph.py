#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""srcgraph.py - the layers of docs/architecture.md, read from the code. A unit of src/ is a .c
with the .h of the same name; a header of no .c (commands.h, check_int.h) is a unit of its own,
an interface with no code. A unit calls another when its object takes (references) a function
or datum the other's object defines (nm: the build's objects); it includes another when it
names a header of that unit.

The rules:
  - no loop of calls: no two units call each other, through any number of others (a header
    included only for its types is no call: the .c that defines the code is not reached);
  - the engine (src/util/) neither calls nor includes a command (src/*.c, src/<command>/);
  - a command neither calls nor includes another command; main.c alone calls them all.

  srcgraph.py check BUILD_DIR    "PASS"/"FAIL" lines, exit 1 on a breach
  srcgraph.py selftest           a loop, an engine call into a command and a call between two
                                 commands, each made in a temporary tree, must fail
"""
import os
import re
import subprocess
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer(unit):
    """'engine', 'main' or the command a unit belongs to ('check', 'stress', ...)."""
    parts = unit.split("/")
    if len(parts) == 2:
        return "main" if parts[1] == "main" else parts[1]
    return "engine" if parts[1] == "util" else parts[1]


def units(root):
    """{unit: [source files]}: src/x/y.c and src/x/y.h are unit src/x/y."""
    out = {}
    for d, _, files in os.walk(os.path.join(root, "src")):
        for f in files:
            if f.endswith((".c", ".h")):
                p = os.path.relpath(os.path.join(d, f), root)
                out.setdefault(p[:-2], []).append(p)
    return out


def symbols(obj):
    """(defined, undefined) global symbols of one object, from nm."""
    res = subprocess.run(["nm", obj], capture_output=True, text=True, check=True)
    defined, undef = set(), set()
    for line in res.stdout.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == "U":
            undef.add(f[1])
        elif len(f) == 3 and f[1] in "TDBRVWG":
            defined.add(f[2])
    return defined, undef


def edges(root, build):
    """(units, includes, calls): {(a, b): why} for every include and every call of a unit a
    into a unit b."""
    us = units(root)
    by_header = {}
    for u, files in us.items():
        for p in files:
            if p.endswith(".h"):
                by_header.setdefault(os.path.basename(p), []).append(u)
    inc_out, call_out = {}, {}
    for u, files in us.items():
        for p in files:
            for inc in INCLUDE.findall(open(os.path.join(root, p), errors="replace").read()):
                here = os.path.normpath(os.path.join(os.path.dirname(p), inc))
                cands = [u2 for u2, fs in us.items() if here in fs] or by_header.get(os.path.basename(inc), [])
                # a header beside the includer first, then the engine's (-Isrc/util), then src/
                cands = sorted(cands, key=lambda c: (os.path.dirname(c) != os.path.dirname(p),
                                                     not c.startswith("src/util/")))
                if cands and cands[0] != u:
                    inc_out.setdefault((u, cands[0]), f"includes {inc}")
    owner, takes = {}, {}
    for u in us:
        obj = os.path.join(build, os.path.relpath(u, "src") + ".o")
        if not os.path.exists(obj):
            continue
        d, t = symbols(obj)
        takes[u] = t
        for s in d:
            owner[s] = u
    for u, t in takes.items():
        for s in sorted(t):
            if s in owner and owner[s] != u:
                call_out.setdefault((u, owner[s]), f"calls {s}")
    return us, inc_out, call_out


def loops(nodes, out):
    """The strongly connected components of more than one unit (Tarjan)."""
    adj = {}
    for a, b in out:
        adj.setdefault(a, []).append(b)
    index, low, stack, on, comps = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in adj.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return comps


def breaches(root, build):
    us, incs, calls = edges(root, build)
    bad = []
    for comp in loops(us, calls):
        ties = [f"{a} -> {b} ({w})" for (a, b), w in sorted(calls.items()) if a in comp and b in comp]
        bad.append("a loop between " + ", ".join(comp) + ": " + "; ".join(ties))
    out = dict(incs)
    out.update(calls)
    for (a, b), why in sorted(out.items()):
        if not any(p.endswith(".c") for p in us[b]):
            continue	# an interface of no code: commands.h is how main and the commands meet
        la, lb = layer(a), layer(b)
        if la == lb or lb == "engine" or la == "main":
            continue
        if la == "engine":
            bad.append(f"the engine calls a command: {a} -> {b} ({why})")
        else:
            bad.append(f"a command calls another: {a} -> {b} ({why})")
    return len(us), len(out), bad


def check(root, build):
    n, e, bad = breaches(root, build)
    for b in bad:
        print("FAIL srcgraph: " + b)
    if not bad:
        print(f"PASS srcgraph: {n} units of src/, {e} dependencies: no loop, the engine calls no "
              "command, no command calls another")
    return 1 if bad else 0


def selftest():
    cases = {
        "a loop": {"src/util/a.c": '#include "b.h"\nint a(void) { return b(); }\n',
                   "src/util/a.h": "int a(void);\n",
                   "src/util/b.c": '#include "c.h"\nint b(void) { return c(); }\n',
                   "src/util/b.h": "int b(void);\n",
                   "src/util/c.c": '#include "a.h"\nint c(void) { return a(); }\n',
                   "src/util/c.h": "int c(void);\n"},
        "the engine calls a command (includes)": {
            "src/util/a.c": '#include "x.h"\nstruct x v;\n',
            "src/x/x.h": "struct x { int i; };\n",
            "src/x/x.c": "int cmd_x(void) { return 0; }\n"},
        "the engine calls a command": {
            "src/util/a.c": "int cmd_x(void);\nint a(void) { return cmd_x(); }\n",
            "src/x/x.c": "int cmd_x(void) { return 0; }\n"},
        "a command calls another": {
            "src/x/x.c": "int cmd_y(void);\nint cmd_x(void) { return cmd_y(); }\n",
            "src/y.c": "int cmd_y(void) { return 0; }\n"},
    }
    ok = True
    for what, files in list(cases.items()) + [("a clean tree", None)]:
        with tempfile.TemporaryDirectory() as d:
            files = files or {"src/util/a.c": "int a(void) { return 0; }\n",
                              "src/x/x.c": "int a(void);\nint cmd_x(void) { return a(); }\n",
                              "src/main.c": "int cmd_x(void);\nint main(void) { return cmd_x(); }\n"}
            for p, text in files.items():
                os.makedirs(os.path.join(d, os.path.dirname(p)), exist_ok=True)
                open(os.path.join(d, p), "w").write(text)
            for p in files:
                if p.endswith(".c"):
                    obj = os.path.join(d, "build", os.path.relpath(p, "src")[:-2] + ".o")
                    os.makedirs(os.path.dirname(obj), exist_ok=True)
                    subprocess.run(["cc", "-c", "-I" + os.path.join(d, "src/util"),
                                    "-I" + os.path.join(d, "src/x"),
                                    os.path.join(d, p), "-o", obj], check=True)
            _, _, bad = breaches(d, os.path.join(d, "build"))
            want = what != "a clean tree"
            held = bool(bad) == want and (not want or any(b.startswith(what.split(" (")[0])
                                                          for b in bad))
            print(("PASS " if held else "FAIL ") + f"srcgraph selftest: {what} "
                  + ("fails" if want else "passes") + f" ({bad[:1]})")
            ok &= held
    return 0 if ok else 1


def main(argv):
    if len(argv) == 3 and argv[1] == "check":
        return check(".", argv[2])
    if len(argv) == 2 and argv[1] == "selftest":
        return selftest()
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
