# SPDX-License-Identifier: GPL-2.0
# 64-check-stacks.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The kernel stack of every violation (issue 41): judged in BPF, a violation's record carries
# the stack of the event that broke the rule (bpf_get_stack(), on the violation path only),
# named by the kernel (bpf/ksym.bpf.c; /proc/kallsyms where it cannot). The workload is the
# reproducer of docs/findings/tmpfs-dir-ctime.md on a tmpfs of its own: link, unlink and rename
# over a name copy the child's time onto the directory it has just stat()ed, so every
# violation's stack must run through shmem or fs/libfs.c, grouped by distinct stack in text, on
# each violation in JSON, with the first example in JUnit; BPF's own frames are left out. Judged
# in user space (--judge user) with --stacks, each event's record carries its stack
# (bpf_get_stackid() into a stack map), and a violation has the one of the event that broke the
# rule: the same checks hold. Must-fail twins: doctored copies (a violation with no stack and no
# reason, a stack outside shmem and libfs) fail them, and without --stacks no violation has one,
# each saying why.
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
cut = any(ln.startswith("violations listed: ") for ln in text)
say(all((" listed violation(s)" in h) == cut for h in heads),
    f"text: a stack's count says 'listed' exactly when the list is cut (cut: {cut}; {heads[:1]})")

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

# Issue 44: a FAIL run's stacks are named by the kernel (bpf/ksym.bpf.c, bpf_snprintf()
# "%pS", the addresses asked only), so /proc/kallsyms, which the kernel takes 55 ms to
# format, is never opened (strace -f names each open). The frames named are the ones the
# file names: the must-fail twin (MGTRACE_TEST_KSYMS_FILE=1, the file's way, where the
# kernel cannot name them) opens it once and fails "never opened". A PASS run and a FAIL
# run without stacks open it neither. And the report reads /proc/self/mountinfo once, not
# once per violation.
if ! command -v strace > /dev/null; then
	skip "check stacks: /proc/kallsyms read early" "no strace"
else
	ks_run() {	# NAME [env...] -- check args...: strace's log, the JSON report, COMMAND's end
		local name=$1; shift
		rm -rf "$T/st/d"
		env "$@" strace -f -qq --seccomp-bpf -ttt -e trace=openat -o "$T/ks-$name.strace" \
			$MG check -o "$T/ks-$name.json" --json "${KS_ARGS[@]}" -- sh -c \
			"$KS_CMD; sleep 0.5; date +%s.%N > $T/ks-$name.end" > /dev/null 2>&1
		echo "rc=$?" > "$T/ks-$name.rc"
	}
	KS_ARGS=(--tree); KS_CMD="$REPRO -n 30 $T/st/d > /dev/null"
	ks_run early
	ks_run late MGTRACE_TEST_KSYMS_FILE=1
	KS_ARGS=(-a --judge user)
	ks_run nostacks
	KS_ARGS=(--tree); KS_CMD="true"
	ks_run pass
	python3 - "$T" "$MG" > "$T/ksyms.chk" 2>&1 <<'PY'
import json, re, sys
t, mg = sys.argv[1], sys.argv[2]
def say(c, m): print(("PASS " if c else "FAIL ") + m)
def opens(name, what):
    """(times of the opens of what, by which pid), COMMAND's end, the rc, the report."""
    got = [(float(m.group(2)), int(m.group(1))) for ln in open(f"{t}/ks-{name}.strace")
           for m in [re.match(r"(\d+) +([\d.]+) openat\(AT_FDCWD, \"" + re.escape(what) + r"\"", ln)] if m]
    end = float(open(f"{t}/ks-{name}.end").read())
    return got, end, open(f"{t}/ks-{name}.rc").read().strip(), json.loads(open(f"{t}/ks-{name}.json").readline())
def early(name, label, say):
    ks, end, rc, r = opens(name, "/proc/kallsyms")
    say(rc == "rc=1" and r["verdict"] == "FAIL", f"{label}: FAIL ({rc})")
    say(not ks, f"{label}: /proc/kallsyms never opened ({len(ks)} opens)")
    say(r["violations"] and all(v["stack"] and v["stack"][0]["sym"] for v in r["violations"]),
        f"{label}: ... every violation's stack named")
    return r
def syms(r):
    return sorted({f["sym"] for v in r["violations"] for f in v["stack"] or [] if f["sym"]})
r = early("early", "issue 44", say)
bad = []
late = early("late", "twin", lambda c, m: bad.append(m) if not c else None)
say(any("never opened" in m for m in bad),
    f"twin: the file's way (MGTRACE_TEST_KSYMS_FILE=1) fails: {bad}")
say(syms(r) and syms(r) == syms(late), f"the same frames named as from /proc/kallsyms: {syms(r)}")
src = lambda rr: sorted({v.get("stack_symbols") for v in rr["violations"] if v["stack"]})
say(src(r) == ["kernel"] and src(late) == ["/proc/kallsyms"],
    f"stack_symbols says who named them: {src(r)}, the file's way {src(late)}")
say(any(s in ("simple_unlink", "__simple_unlink", "simple_rename", "simple_link") or
        s.startswith("shmem_") for s in syms(r)), "... a frame of fs/libfs.c or shmem among them")
say(not any(s.startswith("bpf_prog_") for s in syms(r)),
    "... check's own program's frames named (bpf_prog_*) and left out")
mi, _, _, _ = opens("early", "/proc/self/mountinfo")
n = len(r["violations"])
say(n >= 2 and len(mi) == 1, f"the report reads /proc/self/mountinfo once for {n} violations ({len(mi)})")
say(n >= 2 and all(v["mount"] and v["mount"].endswith("/st") for v in r["violations"]),
    f"... each violation's mount named: {sorted({v['mount'] for v in r['violations']})}")
for name, label, verdict in (("nostacks", "--judge user without --stacks (FAIL, no stack)", "FAIL"),
                             ("pass", "a PASS run", "PASS")):
    ks, end, rc, rr = opens(name, "/proc/kallsyms")
    say(rr["verdict"] == verdict and not ks, f"{label}: {rr['verdict']}, /proc/kallsyms opened {len(ks)} times")
PY
	tally check-stacks-ksyms "$T/ksyms.chk"
fi
# where the kernel cannot name the frames (MGTRACE_TEST_KSYMS_FILE=1) and /proc/kallsyms hides
# its addresses: without CAP_SYSLOG every address reads 0 (-EPERM), the frames shown by
# address with the reason; named by the kernel (the default) they are named all the same
if command -v setpriv > /dev/null; then
	rm -rf "$T/st/d"
	MGTRACE_TEST_KSYMS_FILE=1 setpriv --inh-caps=-syslog --bounding-set=-syslog $MG check \
		--json -o "$T/ks-nosyslog.json" -- "$REPRO" -n 5 "$T/st/d" > /dev/null 2>&1
	rm -rf "$T/st/d"
	setpriv --inh-caps=-syslog --bounding-set=-syslog $MG check --json \
		-o "$T/ks-nosyslog-bpf.json" -- "$REPRO" -n 5 "$T/st/d" > /dev/null 2>&1
	# the same with kernel.kptr_restrict=2, as root with CAP_SYSLOG: hidden from every
	# process, and the reason must not say CAP_SYSLOG would show them
	kr=$(cat /proc/sys/kernel/kptr_restrict)
	if [ "$kr" != 2 ] && echo 2 > /proc/sys/kernel/kptr_restrict 2> /dev/null; then
		rm -rf "$T/st/d"
		MGTRACE_TEST_KSYMS_FILE=1 $MG check --json -o "$T/ks-kr2.json" -- "$REPRO" -n 5 \
			"$T/st/d" > /dev/null 2>&1
		rm -rf "$T/st/d"
		$MG check --json -o "$T/ks-kr2-bpf.json" -- "$REPRO" -n 5 "$T/st/d" > /dev/null 2>&1
		echo "$kr" > /proc/sys/kernel/kptr_restrict
	fi
	python3 - "$T/ks-nosyslog.json" "$kr" "$T/ks-kr2.json" > "$T/ksyms-eperm.chk" 2>&1 <<'PY'
import json, os, sys
WHY = {"0": "kernel.kptr_restrict=0, shown to CAP_SYSLOG or where kernel.perf_event_paranoid <= 1",
       "1": "kernel.kptr_restrict=1, shown only to CAP_SYSLOG",
       "2": "kernel.kptr_restrict=2 hides them from every process, CAP_SYSLOG too"}
def check(path, kr, label):
    r = json.loads(open(path).readline())
    vs = [v for v in r["violations"] if v["stack"]]
    why = ("/proc/kallsyms hides the kernel's addresses from this process (%s): frames are "
           "shown by address only" % WHY[kr])
    print(("PASS " if r["verdict"] == "FAIL" and vs and all(v["stack_unavailable"] == why and
           v["stack_symbols"] is None and
           all(f["sym"] is None and f["addr"].startswith("0xffff") for f in v["stack"]) for v in vs)
           else "FAIL ") + f"{label}: {len(vs)} stacks by address, each saying why: "
          + str(vs[0]["stack_unavailable"] if vs else None))
def named(path, label):
    r = json.loads(open(path).readline())
    vs = [v for v in r["violations"] if v["stack"]]
    print(("PASS " if r["verdict"] == "FAIL" and vs and all(v["stack_unavailable"] is None and
           v["stack_symbols"] == "kernel" and v["stack"][0]["sym"] for v in vs) else "FAIL ")
          + f"{label}, named by the kernel: {len(vs)} stacks named: "
          + str(vs[0]["stack"][0] if vs else None))
check(sys.argv[1], sys.argv[2], "without CAP_SYSLOG")
named(sys.argv[1].replace(".json", "-bpf.json"), "without CAP_SYSLOG")
if os.path.exists(sys.argv[3]):
    check(sys.argv[3], "2", "kernel.kptr_restrict=2, with CAP_SYSLOG")
    named(sys.argv[3].replace(".json", "-bpf.json"), "kernel.kptr_restrict=2")
PY
	tally check-stacks-eperm "$T/ksyms-eperm.chk"
else
	skip "check stacks: kallsyms hidden" "no setpriv"
fi
# more violations than reports kept (100): the text says how many it lists, of how many
rm -rf "$T/st/d"
$MG check -- "$REPRO" -n 30 "$T/st/d" > "$T/kept.txt" 2>&1
grep -Eq '^violations listed: 100 of [0-9]{3,}' "$T/kept.txt" &&
	ok "check text: $(grep '^violations listed' "$T/kept.txt")" ||
	bad "check text, over 100 violations: no 'violations listed' line: $(grep -E '^(FAIL|verdict)' "$T/kept.txt" | head -3)"
rm -rf "$T/st/d"
$MG check -- "$REPRO" -n 5 "$T/st/d" > "$T/kept5.txt" 2>&1
grep -q '^verdict: FAIL' "$T/kept5.txt" && ! grep -q '^violations listed' "$T/kept5.txt" &&
	ok "check text, every violation listed: no 'violations listed' line" ||
	bad "check text, -n 5: $(grep -E '^(violations listed|verdict)' "$T/kept5.txt")"
umount "$T/st" 2> /dev/null
[ "$(left_attached)" = 0 ] && ok "check stacks: nothing left attached" || bad "check stacks: BPF objects left behind"
