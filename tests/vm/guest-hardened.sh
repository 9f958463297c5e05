#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-hardened.sh - guest tests for hardened and reduced kernels (issue 26): no debugfs
# (debugfs=off, or a kernel built without CONFIG_DEBUG_FS: no multigrain per-CPU counters at
# all) and lockdown=confidentiality (no BPF reads of kernel memory). Runs as /test.sh under
# /init; helpers come from /lib/mgtest.sh. Every step either works, with its numbers' sources
# named, or refuses in one line (exit 3); check-hardened.py judges which, and holds every check
# that ran to the observer outside mgtrace (tests/mgobserve.c) as the full set does.
set -eu
. /lib/mgtest.sh
MG=/bin/mgtrace

left_attached() { bpftool prog show 2>/dev/null | grep -c '^[0-9]*:' || true; }
# attached_line: the BPF programs still loaded after a step, as a JSON line. The kernel frees
# a closed program after an RCU grace period, so a count right after exit can still show a
# few (up to 4 seen under TCG); a leaked one never goes: wait up to 3 s for 0
attached_line() {
	local n i=0
	n=$(left_attached)
	while [ "$n" != 0 ] && [ $i -lt 30 ]; do
		sleep 0.1
		i=$((i + 1))
		n=$(left_attached)
	done
	printf '{"type":"attached","progs":%d,"waited_ms":%d}\n' "$n" $((i * 100))
}
differential() {
	local rc=0
	$MG check --json -o /tmp/diff.json --backend "$1" --tree -- /bin/mgobserve -n 50 "$2" \
		> /tmp/obs.json 2> /tmp/diff.err || rc=$?
	[ -s /tmp/diff.json ] && cat /tmp/diff.json
	cat /tmp/obs.json
	printf '{"type":"exit","rc":%d}\n' "$rc"
	attached_line
	cat /tmp/diff.err >&2
	return 0
}
# jrun CMD...: run an mgtrace command that writes its JSON report to /tmp/j.json (-o), then send
# that report (when written), an exit line and the BPF programs still loaded after it (bpftool);
# the host judges the exit status, and that nothing stayed attached (a refusal included)
jrun() {
	local rc=0
	rm -f /tmp/j.json
	"$@" > /dev/null 2> /tmp/j.err || rc=$?
	[ -s /tmp/j.json ] && cat /tmp/j.json
	printf '{"type":"exit","rc":%d}\n' "$rc"
	attached_line
	cat /tmp/j.err >&2
	return 0
}
# trace_tree: trace -- COMMAND (jrun) whose child, an inner sh, appends to /tmp/tc-child after
# COMMAND's stat of it (which no other process of the guest touches); then a "file" line: that
# file's inode number and the child's pid (no PID namespace here: the pid trace shows)
trace_tree() {
	rm -f /tmp/tc-child /tmp/tc-pid
	jrun $MG trace --json -o /tmp/j.json -- sh -c ': > /tmp/tc-child; stat /tmp/tc-child > /dev/null
		sh -c "echo \$\$ > /tmp/tc-pid; echo b >> /tmp/tc-child"; stat /tmp/tc-child > /dev/null'
	printf '{"type":"file","name":"tc-child","ino":%s,"writer_pid":%s}\n' \
		"$(stat -c %i /tmp/tc-child)" "$(cat /tmp/tc-pid 2>/dev/null || echo null)"
}
STRESS="$MG stress --threads 2 --duration 1"
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security || true
check mgtrace-present test -x $MG
echo "MGTEST INFO debugfs $( [ -e /sys/kernel/debug/multigrain_timestamps ] && echo present || echo absent)"
echo "MGTEST INFO lockdown $(cat /sys/kernel/security/lockdown 2>/dev/null || echo unknown)"
run_json probe 0 $MG probe --json
run_json stat-default 0 jrun $MG stat --json -o /tmp/j.json -- $STRESS
# the same where debugfs is not mounted in stat's mount namespace (a container on this kernel):
# the kernel per-CPU rows say what their figures were checked against instead of debugfs
run_json stat-nodebugfs-ns 0 jrun unshare -m sh -c 'umount /sys/kernel/debug 2>/dev/null; exec "$@"' \
	sh $MG stat --json -o /tmp/j.json -- $STRESS
for be in fentry kprobe tracepoint; do
	run_json "stat-$be" 0 jrun $MG stat --json -o /tmp/j.json --backend "$be" -- $STRESS
	run_json "check-$be" 0 jrun $MG check --json -o /tmp/j.json --backend "$be" --duration 1
	run_json "diff-$be-tmpfs" 0 differential "$be" /tmp/mgdiff
done
run_json trace 0 jrun $MG trace --json -o /tmp/j.json -a -- $MG stress --threads 1 --files 1 --ops 200
run_json top 0 jrun $MG top --json -o /tmp/j.json -i 1 -c 1 -- $STRESS
# clocks (its system calls counted by tp_btf sys_enter), the built-in workload alone, a default
# check with no backend forced (auto chooses), and trace -- COMMAND without -a: COMMAND's
# children followed through sched_process_fork/exit tp_btf (lockdown=confidentiality refused
# them once)
run_json clocks 0 jrun $MG clocks --json -o /tmp/j.json -n 2000
run_json stress 0 jrun $MG stress --json -o /tmp/j.json --threads 2 --duration 0.5
run_json check-default 0 jrun $MG check --json -o /tmp/j.json -d 1
run_json trace-command 0 trace_tree
check nothing-left-attached test "$(left_attached)" = 0
