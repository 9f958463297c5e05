#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# checkscale-guest.sh - /test.sh of bench/checkscale (busybox sh under tests/vm's /init;
# helpers from /lib/mgtest.sh, /bin/progsnap from bench/progsnap).
#
# With T = the guest's CPUs (nproc, qemu -smp) and kernel arguments mgbench_reps (default
# 2), mgbench_ops (default 160000: write+stat pairs per run, all threads together, so
# each thread does mgbench_ops / T) and mgbench_files (default 1: files per thread),
# turns kernel.bpf_stats_enabled on and runs, mgbench_reps times, each of
#   separate-count   mgtrace stat --backend tracepoint -e all -- STEPS
#   separate-check   mgtrace check -- STEPS
#   shared-count     the same two with stress --shared: every thread on the same file(s)
#   shared-check
# in an order reversed every other rep, where STEPS is a warm-up (the same stress with a
# tenth of the ops), `progsnap $PPID pre nonames; mgtrace stress --threads T --files F
# --ops N [--shared]; progsnap $PPID post`: the snapshots of the mgtrace process's
# programs around the workload alone. Sends to the
# host, per run REP-LAYOUT-TOOL: .pre, .post (progsnap files) and .json (the mgtrace
# report), and runs.txt: "INFO key value" lines (kernel, cpus, clocksource, the ops
# per thread) and one "RUN REP-LAYOUT-TOOL rc=STATUS STRESS-LINE" a run. PASS
# checkscale-REP-LAYOUT-TOOL when the run exited 0 and both snapshots were taken.
# shellcheck disable=SC3043 # busybox ash has 'local'
set -u
# shellcheck source=/dev/null
. /lib/mgtest.sh
MG=/bin/mgtrace
reps=${mgbench_reps:-2}
total=${mgbench_ops:-160000}
files=${mgbench_files:-1}
T=$(nproc)
ops=$((total / T))
OUT=/tmp/runs.txt
{
	echo "INFO kernel $(uname -r)"
	echo "INFO cpus $T"
	echo "INFO clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "INFO ops_per_thread $ops"
	echo "INFO files_per_thread $files"
} > $OUT
echo 1 > /proc/sys/kernel/bpf_stats_enabled

# one REP LAYOUT TOOL: one run, its files sent to the host
one() {
	local n="$1-$2-$3" extra="" rc=0
	[ "$2" = shared ] && extra=--shared
	rm -f /tmp/pre /tmp/post /tmp/j.json /tmp/stress.txt
	set -- "$3"
	case $1 in
	count) set -- $MG stat --backend tracepoint -e all --json -o /tmp/j.json ;;
	check) set -- $MG check --json -o /tmp/j.json ;;
	esac
	# a warm-up of a tenth first: under TCG the first run through a code path costs its
	# translation (hundreds of microseconds), which the window should not carry
	"$@" -- sh -c "$MG stress --threads $T --files $files --ops $((ops / 10 + 1)) $extra \
> /dev/null && progsnap \$PPID /tmp/pre nonames && $MG stress --threads $T --files $files \
--ops $ops $extra > /tmp/stress.txt && progsnap \$PPID /tmp/post" > /dev/null 2> /tmp/err.txt ||
		rc=$?
	echo "RUN $n rc=$rc $(cat /tmp/stress.txt 2>/dev/null)" >> $OUT
	for f in pre post; do [ -s /tmp/$f ] && mgdata_file "$n.$f" /tmp/$f; done
	[ -s /tmp/j.json ] && mgdata_file "$n.json" /tmp/j.json
	if [ "$rc" = 0 ] && [ -s /tmp/pre ] && [ -s /tmp/post ]; then
		mgtest_pass "checkscale-$n"
	else
		mgtest_fail "checkscale-$n" "exit $rc: $(tail -n 2 /tmp/err.txt | tr '\n' ' ')"
	fi
	return 0
}

r=1
while [ "$r" -le "$reps" ]; do
	order="separate-count separate-check shared-count shared-check"
	[ $((r % 2)) = 0 ] && order="shared-check shared-count separate-check separate-count"
	for c in $order; do
		one "$r" "${c%-*}" "${c#*-}"
	done
	echo "MGTEST INFO checkscale rep $r/$reps done"
	r=$((r + 1))
done
echo 0 > /proc/sys/kernel/bpf_stats_enabled
mgdata_file runs.txt $OUT
