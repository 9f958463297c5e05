#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""doclinks.py - the links of the Markdown documentation lead somewhere.

  doclinks.py check FILE...
      every relative link [text](path) or [text](path#anchor) of each FILE (outside code
      spans and fences) names a file or directory that exists, relative to FILE; an
      anchor, into a Markdown file or the same one, names a heading of it (GitHub's ids:
      lower case, punctuation dropped, spaces as '-', a repeated heading as id-1, id-2).
  doclinks.py selftest
      the check fails on a link to a missing file and on one to a missing anchor.
Prints "PASS ..." / "FAIL ..." lines (tests/lib.sh tally counts them); exits 1 after a FAIL line.
"""
import os
import re
import sys
import tempfile

LINK = re.compile(r"\[[^\]]*\]\(([^()\s]+)\)")


def prose(text):
    """The lines of text outside fenced code blocks, with inline code spans removed."""
    out, fence = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if not fence:
            out.append(re.sub(r"`[^`]*`", "", line))
    return out


def anchors(path):
    ids, seen, fence = set(), {}, False
    with open(path) as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fence = not fence
            m = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            ids.add(slug if n == 0 else f"{slug}-{n}")
    return ids


def check(c, path):
    with open(path) as f:
        lines = prose(f.read())
    links = bad = 0
    for no, line in enumerate(lines, 1):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue                      # http:, https:, mailto:
            links += 1
            rel, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), rel)) if rel else path
            if not os.path.exists(dest):
                c(False, f"{path}: link to {target}: {dest} does not exist")
                bad += 1
            elif frag and dest.endswith(".md") and frag not in anchors(dest):
                c(False, f"{path}: link to {target}: {dest} has no heading with id '{frag}'")
                bad += 1
    if not bad:
        c(True, f"{path}: its {links} relative links lead to existing files and headings")
    return bad


failures = 0


def report(cond, msg):
    global failures
    failures += not cond
    print(("PASS " if cond else "FAIL ") + msg)


def selftest():
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "docs"))
        with open(os.path.join(d, "docs", "b.md"), "w") as f:
            f.write("# B\n\n## Where it runs: `here`, too\n\n## Twice\n\n## Twice\n")
        cases = {
            "a good page": "[b](docs/b.md) [c](docs/b.md#where-it-runs-here-too) [d](docs/b.md#twice-1) "
                           "[e](#a) [f](https://example.org/x) `[g](nowhere.md)`\n\n# A\n"
                           "```\n[h](nowhere.md)\n```\n",
            "a link to a missing file": "[b](docs/c.md)\n",
            "a link to a missing anchor": "[b](docs/b.md#where-it-runs)\n",
            "a link to a missing anchor of the page itself": "# A\n\n[a](#b)\n",
            "a link to a page of docs/ without its folder": "[b](b.md)\n",
        }
        for what, text in cases.items():
            p = os.path.join(d, "a.md")
            with open(p, "w") as f:
                f.write(text)
            got = []
            check(lambda cond, msg: got.append(cond), p)
            want_fail = what != "a good page"
            report((False in got) == want_fail,
                   f"selftest: {what} {'fails' if want_fail else 'passes'}")


def main(argv):
    if len(argv) >= 2 and argv[1] == "selftest":
        selftest()
    elif len(argv) >= 3 and argv[1] == "check":
        for path in argv[2:]:
            check(report, path)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
