# SPDX-License-Identifier: GPL-2.0
# 64-check-stacks.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The kernel stack of every violation (issue 41): judged in BPF, a violation's record carries
# the stack of the event that broke the rule (bpf_get_stack(), on the violation path only),
# named from /proc/kallsyms. The workload is the reproducer of docs/findings/tmpfs-dir-ctime.md
# on a tmpfs of its own: link, unlink and rename over a name copy the child's time onto the
# directory it has just stat()ed, so every violation's stack must run through shmem or
# fs/libfs.c, grouped by distinct stack in text, on each violation in JSON, with the first
# example in JUnit; BPF's own frames are left out. Judged in user space (--judge user) with
# --stacks, each event's record carries its stack (bpf_get_stackid() into a stack map), and a
# violation has the one of the event that broke the rule: the same checks hold. Must-fail
# twins: doctored copies (a violation with no stack and no reason, a stack outside shmem and
# libfs) fail them, and without --stacks no violation has one, each saying why.
echo "# check: the kernel stack of every violation"
REPRO=build/tmpfs-dir-ctime
[ -x "$REPRO" ] || make -s "$REPRO" > /dev/null 2>&1
mkdir -p "$T/st"
mount -t tmpfs mgtrace-stacks "$T/st"
for mode in bpf user; do
	args=(--tree)
	[ $mode = user ] && args=(-a --judge user --stacks)	# --tree scopes judging in BPF
	rm -rf "$T/st/d"
	$MG check "${args[@]}" --json -o "$T/stack-$mode.json" --junit "$T/stack-$mode.xml" -- \
		"$REPRO" -n 30 "$T/st/d" > /dev/null 2> "$T/stack-$mode.err"
	echo "rc=$?" > "$T/stack-$mode.rc"
	rm -rf "$T/st/d"
	$MG check "${args[@]}" -- "$REPRO" -n 30 "$T/st/d" > "$T/stack-$mode.txt" 2>&1
done
rm -rf "$T/st/d"
$MG check -a --judge user --json -o "$T/stack-nostacks.json" -- "$REPRO" -n 30 "$T/st/d" > /dev/null 2>&1
python3 - "$T" > "$T/stacks.chk" 2>&1 <<'PY'
import json, sys
import xml.etree.ElementTree as ET
t = sys.argv[1]
def say(c, m): print(("PASS " if c else "FAIL ") + m)
LIBFS = {"simple_link", "simple_unlink", "__simple_unlink", "simple_rename",
         "simple_rename_timestamp", "simple_rename_exchange"}
def faulty(sym): return sym in LIBFS or sym.startswith("shmem_")

def judged(r, rc, mode, say):
    vs = [v for v in r["violations"] if v["kind"] == "not_later_after_query"]
    say(rc == "rc=1" and r["verdict"] == "FAIL" and vs, f"{mode}: FAIL ({rc}), {len(vs)} violations stored")
    with_stack = [v for v in vs if v["stack"]]
    say(vs and len(with_stack) == len(vs), f"{mode}: every violation carries a stack ({len(with_stack)} of {len(vs)})")
    say(all(v["stack_unavailable"] is None for v in with_stack),
        f"{mode}: each stack's frames named (stack_unavailable null)")
    syms = [[f["sym"] for f in v["stack"]] for v in with_stack]
    say(syms and all(any(s and faulty(s) for s in ss) for ss in syms),
        f"{mode}: each stack runs through shmem or fs/libfs.c: {sorted({s for ss in syms for s in ss if s and faulty(s)})}")
    say(all(not (s or "").startswith("bpf_prog_") and not (s or "").startswith("bpf_trace_run")
            for ss in syms for s in ss), f"{mode}: no frame of BPF's own machinery")
    say(all(f["addr"].startswith("0xffff") and isinstance(f["off"], int) and f["off"] >= 0
            for v in with_stack for f in v["stack"]), f"{mode}: frames: kernel addresses, offsets")
    distinct = {tuple(f["addr"] for f in v["stack"]) for v in with_stack}
    say(len(distinct) >= 2, f"{mode}: link, unlink and rename: {len(distinct)} distinct stacks")
    return {s for ss in syms for s in ss if s and faulty(s)}

got = {}
for mode, label in (("bpf", "judged in BPF"), ("user", "--judge user")):
    r = json.loads(open(f"{t}/stack-{mode}.json").readline())
    got[mode] = (r, open(f"{t}/stack-{mode}.rc").read().strip(), judged(r, open(f"{t}/stack-{mode}.rc").read().strip(), label, say))
say(got["bpf"][2] == got["user"][2], f"BPF and user space name the same functions: {sorted(got['user'][2])}")

# must-fail twins: doctored copies of the user-space report
import copy
def fails(r, label):
    bad = []
    judged(r, got["user"][1], "twin", lambda c, m: bad.append(m) if not c else None)
    say(bad, f"twin: {label} fails ({len(bad)} checks)")
d = copy.deepcopy(got["user"][0])
next(v for v in d["violations"] if v["kind"] == "not_later_after_query")["stack"] = None
fails(d, "a violation with no stack and no reason")
d = copy.deepcopy(got["user"][0])
for v in d["violations"]:
    for f in v["stack"] or []:
        f["sym"] = "other"
fails(d, "stacks outside shmem and libfs")

text = open(f"{t}/stack-bpf.txt").read().splitlines()
heads = [ln for ln in text if ln.startswith("  kernel stack #") and ", of " in ln]
refs = [ln for ln in text if ln.startswith("  kernel stack #") and ln.endswith(", above")]
viol = [ln for ln in text if ln.startswith("violation ")]
say(len(heads) >= 2 and len(heads) + len(refs) == len(viol),
    f"text: {len(heads)} distinct stacks shown once, {len(refs)} named by number, {len(viol)} violation lines")
nums = [int(h.split("#")[1].split(",")[0]) for h in heads]
say(nums == list(range(1, len(heads) + 1)), f"text: stacks numbered in order {nums}")
counts = sum(int(h.split(", of ")[1].split()[0]) for h in heads)
say(counts == len(viol), f"text: the stacks' counts sum to the violations shown ({counts})")

root = ET.parse(f"{t}/stack-bpf.xml").getroot()
fails = [tc.find("failure") for tc in root.iter("testcase") if tc.find("failure") is not None]
body = "".join((f.text or "") for f in fails)
say("kernel stack:" in body and any(fn in body for fn in ("shmem_", "simple_")),
    "JUnit: the failure carries its first example's stack")

n = json.loads(open(f"{t}/stack-nostacks.json").readline())
nv = [v for v in n["violations"] if v["kind"] == "not_later_after_query"]
say(n["verdict"] == "FAIL" and nv and all(v["stack"] is None and "--stacks" in (v["stack_unavailable"] or "")
    for v in nv), f"--judge user without --stacks: {len(nv)} violations, none with a stack, each saying why")
ut = open(f"{t}/stack-user.txt").read()
say("kernel stack #1" in ut and any(fn in ut for fn in ("shmem_", "simple_")),
    "--judge user text: the violations grouped under their stacks")
PY
tally check-stacks "$T/stacks.chk"
umount "$T/st" 2> /dev/null
[ "$(left_attached)" = 0 ] && ok "check stacks: nothing left attached" || bad "check stacks: BPF objects left behind"
