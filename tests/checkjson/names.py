# SPDX-License-Identifier: GPL-2.0
"""names.py - names and commands as bytes: the escaping of docs/json.md "Strings"
(unescape()), file names and comm in trace events, a report's command, JUnit's command[i].

Subcommands: trace-names, command, junit-command.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET

from .checker import Checker, load_lines, selftest_cases, subcommand

_tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _tests not in sys.path:
    sys.path.insert(0, _tests)
import names_workload  # noqa: E402  (tests/names_workload.py)


def unescape(s, text=False):
    """Bytes of a string mgtrace escaped (docs/json.md "Strings"): "\\\\" is a backslash,
    "\\xHH" the byte HH; text=True (text and XML output) also "\\n", "\\t", "\\r".
    Anything else after a backslash is an error (ValueError)."""
    out, i = bytearray(), 0
    while i < len(s):
        ch = s[i]
        if ch != "\\":
            out += ch.encode()
            i += 1
            continue
        nxt = s[i + 1:i + 2]
        if nxt == "\\":
            out += b"\\"
            i += 2
        elif nxt == "x" and len(s) >= i + 4 and all(h in "0123456789abcdef" for h in s[i + 2:i + 4]):
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        elif text and nxt in ("n", "t", "r"):
            out += {"n": b"\n", "t": b"\t", "r": b"\r"}[nxt]
            i += 2
        else:
            raise ValueError(f"undocumented escape at {i} in {s!r}")
    return bytes(out)


def utf8_cut(b):
    """b without a trailing incomplete UTF-8 character (what a cut name keeps)."""
    for k in range(1, 4):
        if len(b) >= k and b[-k] >= 0xc0:
            need = 2 if b[-k] < 0xe0 else 3 if b[-k] < 0xf0 else 4
            return b[:-k] if need > k else b
    return b


@subcommand("trace-names", lambda a: (load_lines(a[0]),))
def check_trace_names(c, objs):
    """trace --json around names_workload.py: no key missing, names and comm as documented."""
    ev = [o for o in objs if o.get("type") == "event"]
    keys = ("comm", "comm_truncated", "name", "name_truncated", "dev", "ino")
    missing = [o for o in ev if any(k not in o for k in keys)]
    c.check(ev and not missing, f"{len(ev)} events, every one has {', '.join(keys)} "
            f"({len(missing)} lack one)")
    try:
        dec = [(o, None if o["name"] is None else unescape(o["name"]), unescape(o["comm"]))
               for o in ev]
    except (ValueError, KeyError) as e:
        c.check(False, f"every name and comm decodes by the documented rule: {e}")
        return
    mine = [(o, nm) for o, nm, cm in dec if cm == names_workload.COMM_SEEN]
    c.check(mine and all(o["comm_truncated"] is True for o, _ in mine),
            f"the comm cut inside a character prints as {names_workload.COMM_SEEN!r}, "
            f"comm_truncated ({len(mine)} events)")
    for n in names_workload.NAMES:
        cut = len(n) > 31
        want = utf8_cut(n[:31]) if cut else n
        hit = [o for o, nm in mine if nm == want]
        c.check(len(hit) >= 3 and all(o["name_truncated"] is cut for o in hit),
                f"name {n!r}: {len(hit)} events decode to {want!r}, name_truncated {cut}")


@subcommand("command", lambda a: (load_lines(a[0]), a[1], [bytes.fromhex(x) for x in a[2:]]))
def check_command(c, objs, typ, argv):
    r = [o for o in objs if o.get("type") == typ]
    if not c.check(len(r) == 1 and "command" in r[0], f"one {typ} object with a command"):
        return
    try:
        got = [unescape(a) for a in r[0]["command"]]
    except ValueError as e:
        got = str(e)
    c.check(got == argv, f"{typ} command decodes to {argv!r} (got {got!r})")


@subcommand("junit-command", lambda a: (ET.parse(a[0]).getroot(),
                                        [bytes.fromhex(x) for x in a[1:]]))
def check_junit_command(c, root, argv):
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    try:
        got = [unescape(props[f"command[{i}]"], text=True) for i in range(len(argv))]
    except (KeyError, ValueError) as e:
        got = repr(e)
    c.check(got == argv and f"command[{len(argv)}]" not in props,
            f"junit properties command[i] decode to {argv!r} (got {got!r})")


@selftest_cases
def selftest_names(results):
    """The decoding rule, and the trace/command checks on broken encodings."""
    run = results.run
    # names: the decoding rule, and the trace/command checks on broken encodings
    results.append(("unescape: doubled backslash then xff is text, not the byte 0xff",
                    unescape("\\\\xff") == b"\\xff" and unescape("\\xff") == b"\xff"))
    try:
        unescape("a\\qb")
        results.append(("unescape: an undocumented escape is an error", False))
    except ValueError:
        results.append(("unescape: an undocumented escape is an error", True))
    euro = "€" * 10
    good_ev = [{"type": "event", "comm": "abcdefghijklmn", "comm_truncated": True, "dev": "8:1",
                "ino": 5, "name": nm, "name_truncated": cut}
               for nm, cut in ((euro, True), ("bad\\xffbyte", False), ("new\nline", False),
                               ('q"uote\\\\back', False), ("\u202e rtl", False)) for _ in range(3)]
    c = Checker(quiet=True)
    check_trace_names(c, good_ev)
    results.append(("trace-names: the documented encoding passes", not c.failures))
    for label, mutate in (
            ("a missing name key", lambda e: e[0].pop("name")),
            ("the cut name not marked truncated", lambda e: [o.update(name_truncated=False)
                                                            for o in e if o["name"] == euro]),
            ("0xff replaced by U+FFFD", lambda e: [o.update(name="bad\ufffdbyte")
                                                   for o in e if o["name"] == "bad\\xffbyte"]),
            ("a backslash not doubled", lambda e: [o.update(name='q"uote\\back')
                                                   for o in e if "uote" in o["name"]]),
            ("the partial comm character kept as \\xc3", lambda e: [o.update(comm="abcdefghijklmn\\xc3")
                                                                    for o in e]),
            ("comm not marked truncated", lambda e: [o.update(comm_truncated=False) for o in e])):
        bad_ev = json.loads(json.dumps(good_ev))
        mutate(bad_ev)
        c = Checker(quiet=True)
        check_trace_names(c, bad_ev)
        results.append((f"trace-names: fails on {label}", bool(c.failures)))
    c = Checker(quiet=True)
    check_command(c, [{"type": "check", "command": ["x", "\ufffd"]}], "check", [b"x", b"\xff"])
    results.append(("command: fails on 0xff replaced by U+FFFD", bool(c.failures)))
    c = Checker(quiet=True)
    check_command(c, [{"type": "check", "command": ["x", "\\xff"]}], "check", [b"x", b"\xff"])
    results.append(("command: \\xff text passes", not c.failures))
    root = ET.fromstring('<testsuite><properties><property name="command[0]" value="a\\nb"/>'
                         '</properties></testsuite>')
    c = Checker(quiet=True)
    check_junit_command(c, root, [b"a\nb"])
    results.append(("junit-command: an escaped newline passes", not c.failures))
    c = Checker(quiet=True)
    check_junit_command(c, root, [b"a\nb", b"\xff"])
    results.append(("junit-command: fails on a missing argument", bool(c.failures)))
