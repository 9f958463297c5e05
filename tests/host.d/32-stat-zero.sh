# SPDX-License-Identifier: GPL-2.0
# 32-stat-zero.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The zero-cost default: while the default `stat` counts, no program is attached to any
# timestamp:* tracepoint or function (bpftool lists no such link and none of our probe
# programs), yet the four kernel-counted rows equal, or lie in the brackets of, the debugfs
# deltas. The same bpftool check is shown to see a tracepoint once one is opted in (-e) and
# with --backend tracepoint. Structure, not time: the cost itself is bench/overhead's.
echo "# stat: zero-cost default (no program on the write or stat path)"
if [ "$HOST_STAT_BACKEND" != kernel ]; then
	skip "stat zero-cost default" "the kernel's per-CPU counters are not readable here (default stat backend $HOST_STAT_BACKEND)"
	return 0
fi

# attached_tps: the timestamp:* tracepoints with a link, and our probe programs, as bpftool
# lists them now (one word each; empty: none)
attached_tps() {
	{ bpftool -j link show; echo; bpftool -j prog show; } 2>/dev/null |
		python3 tests/checkjson.py bpf-ours --probes
}

# zero_case NAME WANT_PATTERN STAT_ARGS...: run stat STAT_ARGS -- stress for 1.5 s, look at
# bpftool once the stress runs (counting has begun); the attached set must match WANT_PATTERN (an extended regex; ^$: none)
zero_case() {
	local name=$1 want=$2 got; shift 2
	$MG stat --json -o "$T/$name.json" "$@" -- $MG stress --threads 2 --duration 1.5 \
		> "$T/$name.out" 2>&1 & local pid=$! c i
	# stat releases COMMAND only once counting has begun (every program attached): wait
	# until its child has exec'd the stress (up to 5 s on a loaded machine)
	for i in $(seq 100); do
		c=$(pgrep -P "$pid" | head -1)
		[ -n "$c" ] && tr '\0' ' ' < "/proc/$c/cmdline" 2>/dev/null | grep -q ' stress ' && break
		sleep 0.05
	done
	# a listing is a snapshot (bpftool reads programs, then links): look up to 5 times while
	# the stress runs, which also covers a loaded machine's slower attach
	for i in 1 2 3 4 5; do
		sleep 0.2
		got=$(attached_tps)
		printf '%s\n' "$got" | grep -Eq "$want" && break
	done
	wait $pid || bad "$name: stat exits 0: $(tail -3 "$T/$name.out")"
	if printf '%s\n' "$got" | grep -Eq "$want"; then
		ok "$name: attached while counting: '${got:-nothing}'"
	else
		bad "$name: attached while counting: '${got:-nothing}', want /$want/"
	fi
}

zero_case zero-default '^$'
python3 tests/checkjson.py stat "$T/zero-default.json" --expect-backend kernel --exact-kernel \
	--kernel-percpu > "$T/c" 2>&1; tally zero-default "$T/c"
# stress counted; the event counters say how to opt in; floor_cmpxchg_fails = fine_stamps - floor_swaps
python3 tests/checkjson.py zero-default "$T/zero-default.json" > "$T/c" 2>&1; tally zero-default-rows "$T/c"
# the check above can fail: an opted-in tracepoint is seen, and the probe backend's
zero_case zero-opt-in '^link:fill_mg_cmtime prog:tpb_fill_mg_cm[a-z_]*$' -e stat_queries
python3 tests/checkjson.py stat "$T/zero-opt-in.json" --expect-backend kernel --exact-kernel \
	--kernel-percpu --min-stat-queries 1000 > "$T/c" 2>&1; tally zero-opt-in "$T/c"
zero_case zero-tracepoint-backend 'link:ctime_ns_xchg .*link:fill_mg_cmtime' --backend tracepoint
# -e all: the three event tracepoints, never ctime_ns_xchg (it would sort first)
zero_case zero-all '^link:ctime_xchg_skip link:fill_mg_cmtime link:inode_set_ctime_to_ts prog:' -e all
# one vocabulary (include/mg_vocab.def): the event's name, perf's and bpftrace's tracepoint
# names and globs select the same programs as the counter's name
zero_case zero-kind-name '^link:fill_mg_cmtime prog:tpb_fill_mg_cm[a-z_]*$' -e stat
zero_case zero-perf-name '^link:fill_mg_cmtime prog:tpb_fill_mg_cm[a-z_]*$' -e timestamp:fill_mg_cmtime
zero_case zero-bpftrace-name '^link:ctime_xchg_skip prog:tpb_ctime_xchg_skip$' -e tracepoint:timestamp:ctime_xchg_skip
zero_case zero-glob '^link:ctime_xchg_skip link:fill_mg_cmtime link:inode_set_ctime_to_ts prog:' -e 'timestamp:*'
# text: the backend line says no program is on the path; rows not opted in are listed in one
# line (-v: each with why and how to opt in)
$MG stat -- true > "$T/zero.txt" 2>&1
grep -q '^backend: kernel (the kernel.s per-CPU counters; no program on the write or stat path)$' \
	"$T/zero.txt" && grep -q '^not counted here: .*stat_queries' "$T/zero.txt" \
	&& ! grep -q '^stat_queries ' "$T/zero.txt" && ok "zero text: backend line, rows not counted in one line" \
	|| bad "zero text: $(grep -E '^(backend|stat_queries|not counted)' "$T/zero.txt")"
$MG stat -v -- true > "$T/zero-v.txt" 2>&1
grep -q '^stat_queries  *n/a  *unavailable .*opt in with -e stat_queries' "$T/zero-v.txt" \
	&& ok "zero text -v: each row not counted says how to opt in" \
	|| bad "zero text -v: $(grep -E '^(stat_queries)' "$T/zero-v.txt")"
badcase "stat -e unknown" 2 "unknown event 'bogus'" $MG stat -e bogus -- true
badcase "stat -e empty item" 2 "empty item in event list 'stat,,ctime_set'" $MG stat -e stat,,ctime_set -- true
badcase "stat -e floor" 2 "event 'floor' is not one stat selects" $MG stat -e floor -- true
badcase "stat -e timestamp:ctime_ns_xchg" 2 "ctime_swaps is always counted" $MG stat -e timestamp:ctime_ns_xchg -- true
badcase "stat -e ctime_swaps" 2 "ctime_swaps is always counted" $MG stat -e ctime_swaps -- true
[ "$(left_attached)" = 0 ] && ok "zero: nothing left attached" || bad "zero: BPF objects left behind"
