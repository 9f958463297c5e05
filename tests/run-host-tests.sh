#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-host-tests.sh - mgtrace's tests on this machine's live kernel (run as root).
#
# 1. unit tests (tests/unit_tests.c) and the JSON checker's self-test (every check fails
#    on a case that must fail);
# 2. probe: the backends this kernel allows, with their reasons;
# 3. stat around the built-in stress on tmpfs and on ext4: BPF counts equal the kernel's
#    own debugfs deltas for the same window, floor swaps > 0, stat queries > 0;
# 4. intervals, COMMAND exit status, SIGINT;
# 5. bad input: exit code, one-line message, and no BPF program or link left behind.
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
MG=${MGTRACE:-./mgtrace}
T=$(mktemp -d /tmp/mgtrace-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok()   { pass=$((pass + 1)); echo "PASS $*"; }
bad()  { fail=$((fail + 1)); echo "FAIL $*"; }
# expect NAME CMD...: pass when CMD succeeds
expect() { local n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }
# count lines "ok"/"FAIL" printed by a sub-checker into pass/fail
tally() {
	local n=$1 f=$2
	pass=$((pass + $(grep -c '^ok ' "$f")))
	fail=$((fail + $(grep -c '^FAIL ' "$f")))
	grep '^FAIL ' "$f" | sed "s/^/  [$n] /"
}

[ "$(id -u)" = 0 ] || { echo "run-host-tests: must run as root"; exit 1; }
# mgtrace reports debugfs and securityfs problems as such; the tests need them mounted.
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
mountpoint -q /sys/kernel/security || mount -t securityfs none /sys/kernel/security

# Our BPF programs and links, as bpftool lists them (names are cut at 15 characters).
our_bpf() {
	{ bpftool -j prog show; bpftool -j link show; } 2>/dev/null | python3 -c '
import json, sys
n = 0
for line in sys.stdin:
    for o in (json.loads(line) if line.strip() else []):
        name = o.get("name", "") or o.get("prog_name", "")
        if name.startswith(("fe_", "kp_", "tpb_", "rtp_", "read_kcounters")):
            n += 1
print(n)'
}

echo "# unit tests"
build/unit_tests > "$T/unit" 2>&1; tally unit "$T/unit"
python3 tests/checkjson.py selftest > "$T/self" 2>&1; tally selftest "$T/self"

echo "# probe"
if $MG probe --json > "$T/probe.json"; then ok "probe --json exits 0"; else bad "probe --json exits 0"; fi
python3 tests/checkjson.py probe "$T/probe.json" --host-lockdown > "$T/c" 2>&1; tally probe "$T/c"
$MG probe > "$T/probe.txt" && grep -q '^backend tracepoint *attachable' "$T/probe.txt" \
	&& ok "probe text names the tracepoint backend" || bad "probe text names the tracepoint backend"

# stat around stress; retry on a mismatch, since this machine's background also
# updates ctimes (about one every 5 s) between the BPF and debugfs reads.
stat_run() { # NAME EXPECT_FS STRESS_ARGS...
	local name=$1 fs=$2 i; shift 2
	for i in 1 2 3 4 5; do
		$MG stat --json -o "$T/$name.json" -- $MG stress --threads 2 --duration 1 "$@" \
			> "$T/$name.out" 2>&1 || { bad "$name: stat exits 0"; return; }
		python3 tests/checkjson.py stat "$T/$name.json" --expect-backend tracepoint \
			--exact-kernel > "$T/$name.chk" 2>&1 && break
		echo "# $name: attempt $i saw background events in the window, retrying"
	done
	tally "$name" "$T/$name.chk"
	grep -q "($fs)" "$T/$name.out" && ok "$name: stress ran on $fs" \
		|| bad "$name: stress ran on $fs: $(cat "$T/$name.out")"
}
echo "# stat around stress"
stat_run stat-tmpfs tmpfs
stat_run stat-ext4 ext4 --dir /var/tmp

echo "# intervals, COMMAND status, signals"
$MG stat --json -i 0.2 -c 3 -o "$T/iv.json" > /dev/null 2>&1
python3 tests/checkjson.py intervals "$T/iv.json" 3 > "$T/c" 2>&1; tally intervals "$T/c"
$MG stat -- sh -c 'exit 7' > /dev/null 2>&1; rc=$?
[ $rc = 7 ] && ok "stat -- COMMAND exits with COMMAND's status (7)" || bad "COMMAND status: got $rc"
$MG stat -- /nonexistent/cmd > /dev/null 2> "$T/err"; rc=$?
[ $rc = 127 ] && grep -q "cannot run" "$T/err" && ok "missing COMMAND: exit 127 with a message" \
	|| bad "missing COMMAND: rc $rc"
$MG stat > "$T/sig.out" 2>&1 & pid=$!
sleep 1; kill -INT $pid; wait $pid; rc=$?
[ $rc = 0 ] && grep -q '^ctime_swaps' "$T/sig.out" && ok "SIGINT prints the summary and exits 0" \
	|| bad "SIGINT: rc $rc"
$MG stat > "$T/sig.out" 2>&1 & pid=$!
sleep 1; kill -TERM $pid; wait $pid; rc=$?
[ $rc = 0 ] && grep -q '^per-CPU' "$T/sig.out" && ok "SIGTERM prints the summary and exits 0" \
	|| bad "SIGTERM: rc $rc"
[ "$(our_bpf)" = 0 ] && ok "nothing left attached after stat runs" || bad "BPF objects left behind"

echo "# bad input"
# badcase NAME RC PATTERN CMD...: exit code RC, one stderr line matching PATTERN, nothing left behind
badcase() {
	local name=$1 want=$2 pat=$3 rc; shift 3
	"$@" > /dev/null 2> "$T/err"; rc=$?
	if [ $rc != "$want" ]; then bad "$name: exit $rc, want $want ($(head -c 300 "$T/err"))"; return; fi
	if ! grep -q -- "$pat" "$T/err"; then bad "$name: stderr lacks '$pat': $(cat "$T/err")"; return; fi
	if [ "$(grep -c '^mgtrace: ' "$T/err")" -lt 1 ] || [ "$(wc -l < "$T/err")" -gt 1 ]; then
		bad "$name: want exactly one 'mgtrace:' line, got: $(cat "$T/err")"; return; fi
	if [ "$(our_bpf)" != 0 ]; then bad "$name: BPF objects left behind"; return; fi
	ok "$name (exit $want: $(cat "$T/err"))"
}
badcase "unknown command" 2 "unknown command" $MG frobnicate
badcase "unknown option" 2 "unrecognized option" $MG stat --frob
badcase "negative interval" 2 "invalid interval" $MG stat -i -1
badcase "zero interval" 2 "invalid interval" $MG stat -i 0
badcase "interval junk" 2 "invalid interval" $MG stat -i 1x
badcase "interval overflow" 2 "invalid interval" $MG stat -i 1e999
badcase "zero count" 2 "invalid count" $MG stat -c 0
badcase "count overflow" 2 "invalid count" $MG stat -c 99999999999999999999999
badcase "unknown backend" 2 "unknown backend" $MG stat --backend bogus
badcase "--hot with tracepoints" 2 "needs a function-probe backend" $MG stat --hot --backend tracepoint
badcase "stress zero threads" 2 "invalid value" $MG stress --threads 0
badcase "stress negative duration" 2 "invalid value" $MG stress --duration -3
badcase "probe extra argument" 2 "unexpected argument" $MG probe extra
badcase "fentry under lockdown" 3 "EPERM" $MG stat --backend fentry -- true
badcase "kprobe without kprobes" 3 "no kprobes" $MG stat --backend kprobe -- true
badcase "not root" 3 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups $MG stat -- true
badcase "not root (probe)" 3 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups $MG probe
badcase "debugfs not mounted" 3 "debugfs is not mounted" \
	unshare -m sh -c "umount /sys/kernel/debug && exec $MG stat -- true"
badcase "no BTF" 3 "no BTF" \
	unshare -m sh -c "mount --bind /dev/null /sys/kernel/btf/vmlinux && exec $MG stat -- true"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
