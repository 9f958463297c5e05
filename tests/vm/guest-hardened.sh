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
differential() {
	local rc=0
	$MG check --json -o /tmp/diff.json --backend "$1" --tree -- /bin/mgobserve -n 50 "$2" \
		> /tmp/obs.json 2> /tmp/diff.err || rc=$?
	[ -s /tmp/diff.json ] && cat /tmp/diff.json
	cat /tmp/obs.json
	printf '{"type":"exit","rc":%d}\n' "$rc"
	cat /tmp/diff.err >&2
	return 0
}
# jrun CMD...: run an mgtrace command that writes its JSON report to /tmp/j.json (-o), then send
# that report (when written) and an exit line; the host judges the exit status
jrun() {
	local rc=0
	rm -f /tmp/j.json
	"$@" > /dev/null 2> /tmp/j.err || rc=$?
	[ -s /tmp/j.json ] && cat /tmp/j.json
	printf '{"type":"exit","rc":%d}\n' "$rc"
	cat /tmp/j.err >&2
	return 0
}
STRESS="$MG stress --threads 2 --duration 1"
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security || true
check mgtrace-present test -x $MG
echo "MGTEST INFO debugfs $( [ -e /sys/kernel/debug/multigrain_timestamps ] && echo present || echo absent)"
echo "MGTEST INFO lockdown $(cat /sys/kernel/security/lockdown 2>/dev/null || echo unknown)"
run_json probe 0 $MG probe --json
run_json stat-default 0 jrun $MG stat --json -o /tmp/j.json -- $STRESS
for be in fentry kprobe tracepoint; do
	run_json "stat-$be" 0 jrun $MG stat --json -o /tmp/j.json --backend "$be" -- $STRESS
	run_json "check-$be" 0 jrun $MG check --json -o /tmp/j.json --backend "$be" --duration 1
	run_json "diff-$be-tmpfs" 0 differential "$be" /tmp/mgdiff
done
run_json trace 0 jrun $MG trace --json -o /tmp/j.json -a -- $MG stress --threads 1 --files 1 --ops 200
run_json top 0 jrun $MG top --json -o /tmp/j.json -i 1 -c 1 -- $STRESS
check nothing-left-attached test "$(left_attached)" = 0
