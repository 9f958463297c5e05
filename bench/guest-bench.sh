#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-bench.sh - the VM part of bench/overhead: runs as /test.sh under tests/vm's /init
# (busybox sh; helpers from /lib/mgtest.sh). bench/overhead --vm prepends
# BENCH_ROUNDS, BENCH_OPS and BENCH_THREADS.
#
# Each round, per workload (write+stat, write-only): bare, A, bare, B, ..., bare, with the
# configurations in a rotating order. One line per run in bench.txt:
#   RUN <workload> <config> <round> <exit status> <ops> <ops/s>
# sent to the host as an MGDATA block; the host pairs each run with the bare runs beside
# it. The mgtrace JSON of round 1 goes to the host as json-<workload>-<config>.json, for
# the calls per operation. bpftrace and perf are not in the guest.
# shellcheck disable=SC3043 # busybox ash has 'local'
set -u
# shellcheck source=/dev/null
. /lib/mgtest.sh
MG=/bin/mgtrace
: "${BENCH_ROUNDS:=3}" "${BENCH_OPS:=20000}" "${BENCH_THREADS:=2}"
CONFIGS="stat-fentry stat-kprobe stat-tracepoint hot-fentry hot-kprobe check"
OUT=/tmp/bench.txt
: > $OUT
echo "INFO kernel $(uname -r)" >> $OUT
echo "INFO cpus $(nproc)" >> $OUT

# tracer CONFIG: the command prefix of a configuration (empty for bare)
tracer() {
	case $1 in
	bare) echo "" ;;
	stat-*) echo "$MG stat --json -o /tmp/j.json --backend ${1#stat-} --" ;;
	hot-*) echo "$MG stat --hot --json -o /tmp/j.json --backend ${1#hot-} --" ;;
	check) echo "$MG check --json -o /tmp/j.json --" ;;
	esac
}

# one WORKLOAD CONFIG ROUND: run it, append a RUN line (round -1: warm-up, not counted)
one() {
	local wl=$1 cfg=$2 rnd=$3 key extra="" rc=0 ops ops_s
	key=$(echo "$wl" | tr + _)
	[ "$wl" = write-only ] && extra=--no-stat
	rm -f /tmp/j.json
	# shellcheck disable=SC2046 # the prefix is a word list
	$(tracer "$cfg") $MG stress --threads "$BENCH_THREADS" --ops "$BENCH_OPS" $extra \
		> /tmp/out.txt 2> /tmp/err.txt || rc=$?
	ops=$(sed -n 's/^stress: .*: \([0-9]*\) [a-z+]* ops in .*/\1/p' /tmp/out.txt)
	ops_s=$(sed -n 's/^stress: .* = \([0-9]*\) ops\/s.*/\1/p' /tmp/out.txt)
	echo "RUN $key $cfg $rnd $rc ${ops:--} ${ops_s:--}" >> $OUT
	if [ -z "$ops_s" ] || [ $rc != 0 ]; then
		mgtest_fail "bench-$key-$cfg-$rnd" "exit $rc: $(tail -n 2 /tmp/err.txt | tr '\n' ' ')"
	fi
	if [ "$rnd" = 0 ] && [ -s /tmp/j.json ]; then
		mgdata_file "json-$key.$cfg.json" /tmp/j.json
	fi
	return 0
}

for wl in write+stat write-only; do
	one "$wl" bare -1
	r=0
	# shellcheck disable=SC2086 # a word list
	set -- $CONFIGS
	while [ $r -lt "$BENCH_ROUNDS" ]; do
		one "$wl" bare $r
		for c in "$@"; do
			one "$wl" "$c" $r
			one "$wl" bare $r
		done
		echo "MGTEST INFO bench $wl round $((r + 1))/$BENCH_ROUNDS done"
		first=$1; shift; set -- "$@" "$first"
		r=$((r + 1))
	done
done
mgdata_file bench.txt $OUT
mgtest_pass bench
