#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# libfs-floor-guest.sh - /test.sh of bench/libfs-floor. Runs every workload mgbench_reps
# times (kernel argument, default 3) with mgbench_ops link/unlink ops (default 2000) under
# `mgtrace stat --json --backend fentry -e all --hot` and sends each report, followed by the
# workload's own JSON line, to the host as <workload>-<rep>.json.
. /lib/mgtest.sh
MG=/bin/mgtrace
reps=${mgbench_reps:-3}
ops=${mgbench_ops:-2000}

# one NAME CMD...: run CMD (a report written with -o /tmp/out.json, the workload's line on
# stdout), send both, PASS if it exited 0
one() {
	local n=$1 rc=0; shift
	"$@" > /tmp/wl.json 2> /tmp/err.txt || rc=$?
	cat /tmp/out.json /tmp/wl.json > /tmp/send.json
	mgdata_file "$n.json" /tmp/send.json
	if [ "$rc" -eq 0 ]; then mgtest_pass "$n"
	else mgtest_fail "$n" "exit $rc: $(tail -n 2 /tmp/err.txt | tr '\n' ' ')"; fi
}
STAT="$MG stat --json -o /tmp/out.json --backend fentry -e all --hot --"

r=1
while [ "$r" -le "$reps" ]; do
	one "lu-queried-$r" $STAT /bin/mgorder -t 1 -n "$ops" /tmp/lu
	one "lu-queried-2t-$r" $STAT /bin/mgorder -t 2 -n "$ops" /tmp/lu
	one "lu-quiet-$r" $STAT /bin/mgorder -q -t 1 -n "$ops" /tmp/lu
	one "check-$r" $MG check --json -o /tmp/out.json --backend fentry --duration 2
	: > /tmp/out.json
	one "order-$r" /bin/mgorder -t 2 -n "$ops" /tmp/lu
	r=$((r + 1))
done
