#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""conform-matrix.py - the conformance matrix of docs/conformance.md from the VM stage's results.

usage: tests/vm/conform-matrix.py [--out DIR]... [--doc FILE] [--commit REV]

Reads every DIR/<label>/conform-<fs>.json that guest-multigrain.sh sent (`mgtrace conform
--json` on each multigrain kernel the VM stage booted, on a private tmpfs and on every other
filesystem the guest mounted: ext4, xfs, btrfs, overlayfs over ext4, ramfs; DIR defaults to
MGTRACE_VM_OUT or /tmp/mgtrace-vm, --out may be given once per architecture) and writes between
the markers of FILE (default docs/conformance.md), with the date, the commit and the N each
sweep ran:
- the matrix: one row per (operation, role), one column per filesystem; a cell is the verdict
  every kernel gave (FAIL with check's count over the runs and the observer's, missing_update
  named), or each verdict with the kernels that gave it where they differ;
- the kernels: one row per kernel, one column per filesystem, each cell that sweep's counts
  (FAIL, PASS, UNSUPPORTED rows), or why it was not swept: the kernel said the filesystem is
  not multigrain (conform's exit 3), or the guest skipped it (the kernel lacks it, or it could
  not be mounted: the guest's reason).
Prints the text when FILE is '-'. Exit codes: 0 written, 1 no result found, 2 usage.
"""
import argparse
import datetime
import glob
import json
import os
import subprocess
import sys

BEGIN, END = "<!-- conform-matrix: begin -->", "<!-- conform-matrix: end -->"
SHORT = {"pass": "pass", "info": "info", "unsupported": "unsup", "inconclusive": "inconcl",
         "disagree": "DISAGREE"}
FS_ORDER = ["tmpfs", "ext4", "xfs", "btrfs", "overlay", "ramfs"]


def load(path):
    """The conform report, skip record or error record of one guest file (or None)."""
    found = None
    with open(path) as f:
        for line in f:
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if isinstance(o, dict) and o.get("type") in ("conform", "skip", "error"):
                if o["type"] == "conform":
                    return o
                found = found or o
    return found


def cell(r):
    v = r["verdict"]
    if v != "fail":
        return SHORT.get(v, v)
    if r.get("missing_update"):
        return f"**FAIL** missing {r['missing_update']}/{r['done']}"
    return f"**FAIL** {r['check_violations']}/{r['done']} (obs {r['observer_not_later']})"


def kernel_key(label):
    """Sort kernels by architecture, then version, the built ones (mainline-7.2, ...) after."""
    arch = label.startswith("arm64-")
    head = label[len("arm64-"):] if arch else label
    try:
        return (arch, 0, [int(x) for x in head.split("-")[0].split(".")], label)
    except ValueError:
        return (arch, 1, [], label)


def fs_key(fs):
    return (FS_ORDER.index(fs) if fs in FS_ORDER else len(FS_ORDER), fs)


def collect(outs):
    """{label: {fs: record}} of every conform-<fs>.json under each DIR/<label>/."""
    res = {}
    for out in outs:
        for path in glob.glob(os.path.join(out, "*", "conform-*.json")):
            rec = load(path)
            if rec:
                label = os.path.basename(os.path.dirname(path))
                res.setdefault(label, {})[os.path.basename(path)[len("conform-"):-len(".json")]] = rec
    return res


def merged(cells):
    """One cell for a row on one filesystem from [(label, row)] of every kernel that swept it:
    the verdict they all gave (a FAIL's counts as a range where they differ), or the most
    common verdict with its count, then each other with its kernels."""
    groups = {}
    for label, r in cells:
        key = "**FAIL** missing" if r["verdict"] == "fail" and r.get("missing_update") else \
              "**FAIL**" if r["verdict"] == "fail" else SHORT.get(r["verdict"], r["verdict"])
        groups.setdefault(key, []).append((label, r))
    texts = []
    for key, members in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
        rs = [r for _, r in members]
        if len(rs) == 1:
            text = cell(rs[0])
        elif key == "**FAIL** missing":
            text = f"{key} {span([r['missing_update'] for r in rs])}/{span([r['done'] for r in rs])}"
        elif key == "**FAIL**":
            same = all(r["check_violations"] == r["observer_not_later"] for r in rs)
            text = (f"{key} {span([r['check_violations'] for r in rs])}/{span([r['done'] for r in rs])}"
                    + (" (obs the same in each)" if same else
                       f" (obs {span([r['observer_not_later'] for r in rs])})"))
        else:
            text = key
        texts.append((text, [label for label, _ in members]))
    if len(texts) == 1:
        return texts[0][0]
    return "; ".join(f"{t} ({len(ls)})" if i == 0 else f"{t}: {', '.join(ls)}"
                     for i, (t, ls) in enumerate(texts))


def span(xs):
    return str(min(xs)) if min(xs) == max(xs) else f"{min(xs)}-{max(xs)}"


def summary(rec):
    if rec["type"] == "skip":
        why = rec.get("reason", "?")
        return "skipped: " + (why.split(": ", 1)[1] if why.startswith("this kernel has no ") else why)
    if rec["type"] == "error":
        why = rec.get("reason") or ""
        return "not multigrain (the kernel's answer)" if "is not multigrain" in why else f"error: {why}"
    vs = [r["verdict"] for r in rec["ops"]]
    return (f"N {rec['runs']}: {vs.count('fail')} FAIL, {vs.count('pass')} PASS, "
            f"{vs.count('unsupported')} unsup" +
            "".join(f", {vs.count(v)} {v.upper()}" for v in ("disagree", "inconclusive") if vs.count(v)))


def render(res, rev):
    date = datetime.date.today().isoformat()
    labels = sorted(res, key=kernel_key)
    fss = sorted({fs for k in res.values() for fs in k}, key=fs_key)
    swept = [fs for fs in fss if any(res[k].get(fs, {}).get("type") == "conform" for k in labels)]
    rows = {}
    for label in labels:
        for fs in swept:
            rec = res[label].get(fs)
            if rec and rec["type"] == "conform":
                for r in rec["ops"]:
                    rows.setdefault((r["op"], r["role"], r["expect"]), {}).setdefault(fs, []).append(
                        (label, r))
    ns = sorted({rec["runs"] for k in res.values() for rec in k.values() if rec["type"] == "conform"})
    lines = [f"Generated by `tests/vm/conform-matrix.py` from the VM stage of {date}, commit {rev}: "
             f"`mgtrace conform --json -n N` (N {', '.join(map(str, ns))}) in each guest of "
             f"{len(labels)} kernels ({', '.join(labels)}). A cell is the verdict every kernel that "
             "swept the filesystem gave; where they differ, the most common one with its count, "
             "then each other with its kernels. A FAIL cell gives check's count over the runs and "
             "the observer's (obs), as a range over the kernels where they differ; `missing` "
             "counts the runs with no ctime event at all. A cell "
             "where check and the observer disagree reads DISAGREE.", "",
             "| operation | role | expect | " + " | ".join(swept) + " |",
             "|---|---|---|" + "---|" * len(swept)]
    for (op, role, expect), cells in sorted(rows.items()):
        lines.append(f"| {op} | {role} | {expect} | " +
                     " | ".join(merged(cells[fs]) if fs in cells else "-" for fs in swept) + " |")
    lines += ["", "Each kernel's sweeps (rows by verdict), and why a filesystem was not swept:", "",
              "| kernel | " + " | ".join(fss) + " |", "|---|" + "---|" * len(fss)]
    for label in labels:
        lines.append(f"| {label} | " + " | ".join(summary(res[label][fs]) if fs in res[label] else "-"
                                                  for fs in fss) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", action="append")
    ap.add_argument("--doc", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                  "docs", "conformance.md"))
    ap.add_argument("--commit")
    a = ap.parse_args()
    outs = a.out or [os.environ.get("MGTRACE_VM_OUT", "/tmp/mgtrace-vm")]
    res = collect(outs)
    if not any(rec["type"] == "conform" for k in res.values() for rec in k.values()):
        print(f"conform-matrix: no conform report in any conform-*.json under {', '.join(outs)}",
              file=sys.stderr)
        return 1
    rev = a.commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                     text=True).stdout.strip() or "unknown"
    text = render(res, rev)
    if a.doc == "-":
        print(text)
        return 0
    doc = open(a.doc).read()
    if BEGIN in doc and END in doc:
        doc = doc[:doc.index(BEGIN) + len(BEGIN)] + "\n" + text + "\n" + doc[doc.index(END):]
    else:
        doc = doc.rstrip() + "\n\n## The matrix\n\n" + BEGIN + "\n" + text + "\n" + END + "\n"
    open(a.doc, "w").write(doc)
    print(f"conform-matrix: {len(res)} kernels into {a.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
