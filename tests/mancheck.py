#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mancheck.py - the man page and the binary cannot drift apart.

  mancheck.py options MAN_TEXT MGTRACE
      MAN_TEXT: `man -l build/mgtrace.8` rendered (wide, UTF-8). Every option of CMD's
      option table (`MGTRACE help --options CMD`, the table its parser, --help and the
      bash completion are made from), long and short, appears in CMD's subsection of
      COMMANDS (--help and -h aside: the man page says it once); every command of
      `MGTRACE --help` has a subsection; every exit code of `MGTRACE --help` is under
      EXIT STATUS. For every option of stat, check, trace and top, its entry in the
      command's subsection begins with its `MGTRACE CMD --help` words (check_words():
      compared word by word, whitespace, groff's hyphens and quotes normalised; the
      rendering has already dropped bold and underline).
  mancheck.py selftest MAN_TEXT MGTRACE
      the same check fails on a copy without one long option, one short option, one
      command, one exit code, and on a copy with one entry's first word changed.
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


# The commands whose man entries must begin with their --help words (issue 42, item 4:
# "an option is written once"): the option tables of src/*/ are the source, the man
# page adds detail after them.
WORD_CMDS = ("stat", "check", "trace", "top")
# What an entry's last help word may be followed by in the man page: the man page goes
# on after it ("...default)." or "...default); more") where --help stops.
TRAIL = ("", ".", ",", ";", ":")


def help_texts(mg, cmd):
    """{option name: help text} from `MGTRACE CMD --help`, for each row of CMD's table.

    The usage text is made by src/util/optab.c mg_opt_usage(): "  -X, --long ARG" (or
    six spaces and "--long ARG") padded to column 23 and the help after it, or, for a
    longer spec, the help on the next line; '\n' continuation lines are indented 23
    spaces. The spec is rebuilt from `help --options` (short, long, value name), so
    no guessing where the names end. Lines are joined with a space, except after a
    word broken at its hyphen ("function-" / "probe"). The help computed by a help_fn
    (stat -e, trace -e: the event kinds of include/mg_vocab.def; top -s: the sort
    keys of src/top/top_vocab.c) is compared in full like any other: it comes from
    static tables, and the man page lists the same words, so a word added there must
    reach the man page too.
    """
    table = subprocess.run([mg, "help", "--options", cmd], capture_output=True, text=True).stdout
    lines = subprocess.run([mg, cmd, "--help"], capture_output=True, text=True).stdout.splitlines()
    out = {}
    for row in table.splitlines()[1:]:
        f = row.split("\t")
        if len(f) < 3 or f[1] == "--help":
            continue
        short, lng, arg = f[0], f[1], f[2]
        spec = ("  " + short + (", " if lng != "-" else "")) if short != "-" else "      "
        spec += (lng if lng != "-" else "") + (" " + arg if arg != "-" else "")
        for i, line in enumerate(lines):
            if len(spec) < 23 and line.startswith(spec.ljust(23)) and line[23:24] != " ":
                parts, j = [line[23:]], i + 1
            elif len(spec) >= 23 and line == spec:
                parts, j = [], i + 1
            else:
                continue
            while j < len(lines) and lines[j].startswith(" " * 23) and lines[j][23:24] != " ":
                parts.append(lines[j][23:])
                j += 1
            text = ""
            for part in parts:
                glue = "" if re.search(r"[a-z]-$", text) else " "
                text = (text + glue + part) if text else part
            for name in (short, lng):
                if name != "-":
                    out[name] = text
            break
    return out


def man_entries(body):
    """[(names, description)] of a command's subsection of the rendered page: a tag line
    at 7 spaces beginning with '-' ("-c, --count COUNT, --interval-count COUNT"), then its
    first paragraph at 11 spaces (scdoc's indented block), joined."""
    out, lines = [], body.splitlines()
    for i, line in enumerate(lines):
        if not re.match(r"^       -", line):
            continue
        names = re.findall(r"(?<![\w-])--?[A-Za-z][\w-]*", line)
        desc, j = [], i + 1
        while j < len(lines) and lines[j].startswith("           ") and lines[j].strip():
            desc.append(lines[j].strip())
            j += 1
        out.append((names, " ".join(desc)))
    return out


def words(text):
    # the rendered page's typography back to ASCII: groff's quotes, circumflex and tilde
    for a, b in (("\u2019", "'"), ("\u2018", "`"), ("\u02c6", "^"), ("\u02dc", "~")):
        text = text.replace(a, b)
    return norm(text).split()


def begins_with(desc, help_text):
    """None when desc begins with help_text's words, else where they part. The first
    word's case is free (a man entry is a sentence), and the last may be followed by
    TRAIL punctuation."""
    m, h = words(desc), words(help_text)
    for i, w in enumerate(h):
        got = m[i] if i < len(m) else "(end)"
        ok = got == w or (i == 0 and got[:1].lower() + got[1:] == w[:1].lower() + w[1:])
        if i == len(h) - 1 and not ok:
            ok = any(got == w + t or (i == 0 and got.lower() == (w + t).lower()) for t in TRAIL)
        if not ok:
            return f"word {i + 1}: man '{got}', --help '{w}' (--help: '{' '.join(h[:i + 1])}...')"
    return None


def check_words(sec, name, c, mg, ck):
    """Every option of c's table has an entry in section name that begins with its
    --help words; options sharing one entry (short and long, -c and --interval-count)
    are judged once, by the first of the entry's names that has a help text."""
    helps = help_texts(mg, c)
    ents = man_entries(sec[name])
    ck(len(helps) >= 4, f"{c}: {len(helps)} option names with a help text in {c} --help")
    bad, judged, seen = [], 0, set()
    for names, desc in ents:
        mine = [n for n in names if n in helps]
        if not mine or mine[0] in seen:
            continue
        seen.update(mine)
        judged += 1
        why = begins_with(desc, helps[mine[0]])
        if why:
            bad.append(f"{c} {', '.join(names)}: {why}")
    for b in bad:
        ck(False, f"man entry begins with its --help words: {b}")
    missing = sorted(set(helps) - seen)
    ck(judged and not bad and not missing,
       f"{c}: all {judged} man entries ({len(seen)} option names) begin with their --help words"
       + (f"; {len(bad)} do not" if bad else "")
       + (f"; no entry for {missing}" if missing else ""))


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
        if c in WORD_CMDS:
            check_words(sec, name, c, mg, ck)
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
            # the entry of stat -H keeps its names, its first word changed
            "an entry's first word changed (stat -H)":
                re.sub(r"^(       -H, --hot\n {11})\S+", r"\1Never", norm(text), count=1, flags=re.M),
            # check --max-inodes: a figure of the sentence changed (the drift of issue 42)
            "a figure in an entry changed (check --max-inodes)":
                re.sub(r"^(       --max-inodes N\n {11}.*?)262144", r"\g<1>262145", norm(text), count=1,
                       flags=re.M),
        }
        for what, t in cases.items():
            f = check(t, argv[3], quiet=True)
            if "entry" in what:	# the word check must be what fails
                f = [x for x in f if "begin with their --help words" in x or "begins with" in x]
            print(("PASS " if f else "FAIL ") + f"mancheck selftest: {what} fails ({f[:1]})")
            bad += not f
        return 1 if bad else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
