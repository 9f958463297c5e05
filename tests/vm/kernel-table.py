#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# kernel-table.py - the kernel table of docs/tests.md from a VM stage run.
# usage: kernel-table.py [RESULTS]   (default /tmp/mgtrace-vm/results)
# One row per kernel label, in run order: the kernel chosen, the set run, then per
# backend "pass N/N" or "FAIL k/N" over the assertions whose name carries the
# backend (stat-fentry-tmpfs, trace-kprobe, check-tracepoint, ...), the others
# (probe, boot, kernel-clean, ...), the steps skipped, and the boot+test time.
import re
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/mgtrace-vm/results"
rows, order = {}, []
for line in open(path):
    m = re.match(r"(PASS|FAIL|SKIP) ([^/ ]+)/(\S+?)(?::|$)", line)
    if m:
        res, label, name = m.groups()
    else:
        m = re.match(r"# ([^: ]+): (.*)", line.strip())
        if not m:
            continue
        label, text = m.groups()
        res, name = "#", text
    if label not in rows:
        rows[label] = {"be": {}, "skips": [], "kernel": "", "time": "", "set": "full"}
        order.append(label)
    r = rows[label]
    if res == "#":
        if text.startswith("chose "):
            r["kernel"] = re.sub(r".*release ", "", text)
        elif text.startswith("local "):
            r["kernel"] = "local " + text.split()[1].split("/")[-2]
        elif "boot+test" in text:
            r["time"] = text.split("boot+test ")[1]
        elif "died before /init" in text:
            r["retried"] = True
        continue
    if res == "SKIP":
        r["skips"].append(name)
        if name == "long-steps":
            r["set"] = "smoke"
        continue
    if name.startswith("probe-says-no-multigrain"):
        r["set"] = "refusal"
    be = next((b for b in ("fentry", "kprobe", "tracepoint") if b in name), "other")
    p, n = r["be"].get(be, (0, 0))
    r["be"][be] = (p + (res == "PASS"), n + 1)


def cell(pn):
    if not pn:
        return "-"
    p, n = pn
    return f"pass {p}/{n}" if p == n else f"**FAIL** {n - p}/{n}"


print("| kernel | release | set | fentry | kprobe | tracepoint | other checks | skipped | boot+test |")
print("|---|---|---|---|---|---|---|---|---|")
for label in order:
    r = rows[label]
    print(f"| {label} | {r['kernel']} | {r['set']} | " + " | ".join(cell(r["be"].get(b)) for b in
          ("fentry", "kprobe", "tracepoint", "other")) + f" | {', '.join(r['skips']) or '-'} | "
          + r["time"] + (" (boot retried)" if r.get("retried") else "") + " |")
