#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# floor-api-guest.sh - /test.sh of the floor-API experiment (bench/floor-api).
# Runs every workload mgbench_reps times (kernel argument, default 3) for
# mgbench_dur seconds (default 2) under `mgtrace stat/check --backend fentry`
# and sends each JSON report to the host as <workload>-<rep>.json.
. /lib/mgtest.sh
MG=/bin/mgtrace
reps=${mgbench_reps:-3}
dur=${mgbench_dur:-2}

# one NAME STAT-OR-CHECK-ARGS...: run it (its report written with -o /tmp/out.json), send
# that JSON, PASS if it exited 0
one() {
	local n=$1 rc=0; shift
	"$@" > /dev/null 2> /tmp/err.txt || rc=$?
	mgdata_file "$n.json" /tmp/out.json
	if [ "$rc" -eq 0 ]; then mgtest_pass "$n"
	else mgtest_fail "$n" "exit $rc: $(tail -n 2 /tmp/err.txt | tr '\n' ' ')"; fi
}

r=1
while [ "$r" -le "$reps" ]; do
	for t in 1 2 4; do
		one "stress-${t}t-$r" $MG stat --json -o /tmp/out.json --backend fentry -- \
			$MG stress --threads "$t" --files 4 --duration "$dur" --dir /tmp
	done
	one "check-$r" $MG check --json -o /tmp/out.json --backend fentry --duration "$dur"
	one "shared-4t-$r" $MG stat --json -o /tmp/out.json --backend fentry -- \
		$MG stress --threads 4 --files 1 --shared --duration "$dur" --dir /tmp
	r=$((r + 1))
done
