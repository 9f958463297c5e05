# SPDX-License-Identifier: GPL-2.0
# 43-lists.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# perf's lists (issue 28 item 15): -C CPUS ("0,2-3") in stat, top, trace and clocks, and -p
# PID,PID in stat, top and trace. stat -C sums the selected CPUs' per-CPU counts, and debugfs
# (all-CPU sums only) judges every CPU's sum of the same reading; trace and top filter in BPF.
# Each against a workload of known size pinned (taskset) on or off the CPUs counted.
echo "# lists: -C CPUS and -p PID,PID"

online=$(cat /sys/devices/system/cpu/online)
# bad lists: one line, exit 2, whatever the command
badcase "stat -C '': an empty list" 2 "invalid CPU list '': an empty list" $MG stat -C '' -- true
badcase "stat -C 0,,1: an empty item" 2 "an empty item" $MG stat -C 0,,1 -- true
badcase "top -C 1-0: a reversed range" 2 "range 1-0 is reversed" $MG top -C 1-0 -c 1
badcase "trace -C 0-: a range without its end" 2 "'0-' is not a CPU" $MG trace -C 0- -- true
badcase "stat -C 1023: not possible here" 2 "CPU 1023 is not possible" $MG stat -C 1023 -- true
badcase "clocks -C 0,x: junk" 2 "invalid CPU list" $MG clocks -C 0,x
badcase "stat -C with --prometheus" 2 "exclude each other" $MG stat -C 0 --prometheus "$T/c.prom" -- true
badcase "stat -p 1,,2: an empty item" 2 "invalid pid list '1,,2': an empty item" $MG stat -p 1,,2 -- true
badcase "trace -p 1,4000000: one of no process" 2 "trace: no process 4000000" $MG trace -p 1,4000000
badcase "top -p 1,: an empty last item" 2 "an empty item" $MG top -p 1, -c 1

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	skip "-C against a pinned workload" "one CPU online ($online): nothing to tell apart"
else
	c0=$(echo "$online" | cut -d, -f1 | cut -d- -f1)
	c1=$(python3 -c "import os; print(sorted(os.sched_getaffinity(0))[-1])")
	F=$T/lists-w; : > "$F"
	# stat -C c1 around 20000 write+stat pinned on c1: at least 20000 ctime updates, and
	# every CPU's sum judged by debugfs; -C c0 around the same: not the workload's (below its
	# 20000: CPU c0's own traffic, a busy machine's, may be thousands, but a -C that summed
	# CPU c1 too would count the workload's 20000 on top of it)
	$MG stat -C "$c1" -j -o "$T/sc1.json" -- taskset -c "$c1" python3 tests/writeloop.py "$F" 20000 \
		> /dev/null 2>&1
	python3 tests/checkjson.py stat-cpus "$T/sc1.json" "$c1" 20000 30000 > "$T/sc1.chk" 2>&1
	tally "stat -C $c1 -- a workload pinned on CPU $c1" "$T/sc1.chk"
	$MG stat -C "$c0" -j -o "$T/sc0.json" -- taskset -c "$c1" python3 tests/writeloop.py "$F" 20000 \
		> /dev/null 2>&1
	python3 tests/checkjson.py stat-cpus "$T/sc0.json" "$c0" 0 20000 > "$T/sc0.chk" 2>&1
	tally "stat -C $c0 -- a workload pinned on CPU $c1" "$T/sc0.chk"
	schema_valid stat-cpus stat "$T/sc1.json"
	$MG stat -C "$c1" -A -o "$T/sc1.txt" -- true > /dev/null 2>&1
	grep -q "^mgtrace stat: system-wide, on CPU $c1 (-C)" "$T/sc1.txt" && grep -q "^-C $c1: each total sums CPU $c1 only" "$T/sc1.txt" \
		&& [ "$(grep '^per-CPU' "$T/sc1.txt" | grep -o 'CPU[0-9][0-9]*' | tr '\n' ' ')" = "CPU$c1 " ] \
		&& ok "stat -C $c1 text: the scope and a note name the CPU, -A has its column only" \
		|| bad "stat -C text: $(grep -e '^mgtrace stat' -e '^-C' -e '^per-CPU' "$T/sc1.txt")"
	# trace -C: every event on the CPU asked for, under a stress whose threads run on both
	$MG stress --threads 2 --duration 3 > /dev/null 2>&1 & sp=$!
	sleep 0.5
	# at once: writing a trace of 100k events takes seconds, longer than the stress runs
	$MG trace -a -C "$c1" -j -e ctime_swap,stat -o "$T/tc1.json" -- sleep 0.5 > /dev/null 2>&1 & t1=$!
	$MG trace -a -C "$c0" -j -e ctime_swap -o "$T/tc0.json" -- sleep 0.5 > /dev/null 2>&1
	wait $t1 $sp
	python3 tests/checkjson.py trace-cpus "$T/tc1.json" "$c1" 1000 > "$T/tc1.chk" 2>&1
	tally "trace -a -C $c1 beside a stress on both CPUs" "$T/tc1.chk"
	python3 tests/checkjson.py trace-cpus "$T/tc0.json" "$c0" 1000 > "$T/tc0.chk" 2>&1
	tally "trace -a -C $c0 beside a stress on both CPUs" "$T/tc0.chk"
	# top -C: the pinned workload's swaps on its CPU, none on the other
	$MG top -C "$c1" -j -i 60 -o "$T/top1.json" -- taskset -c "$c1" python3 tests/writeloop.py "$F" 20000 \
		> /dev/null 2>&1
	$MG top -C "$c0" -j -i 60 -o "$T/top0.json" -- taskset -c "$c1" python3 tests/writeloop.py "$F" 20000 \
		> /dev/null 2>&1
	python3 tests/checkjson.py top-cpus "$T/top1.json" 20000 30000 > "$T/topc.chk" 2>&1
	python3 tests/checkjson.py top-cpus "$T/top0.json" 0 5000 >> "$T/topc.chk" 2>&1
	tally "top -C: the pinned workload on its CPU only" "$T/topc.chk"
	schema_valid top-cpus top "$T/top1.json"
	$MG clocks -C "$c0-$c1" -j -n 2000 -o "$T/clk.json" > /dev/null 2>&1
	python3 -c "import json,sys; o=json.load(open(sys.argv[1])); print('PASS' if o['cpus'] == list(range($c0, $c1 + 1)) and o['cpu'] is None else 'FAIL', 'clocks -C $c0-$c1: cpus', o['cpus'], 'cpu', o['cpu'])" "$T/clk.json" > "$T/clk.chk" 2>&1
	tally "clocks -C a range" "$T/clk.chk"
fi

# -p A,B: the events and rows of both processes (and their descendants), none of a third
# process doing the same beside them. Each writer must have begun (its file written) before
# the tools start: under load a Python start can outlast a fixed sleep (a CI run saw only A's).
for w in a b c; do python3 tests/writeloop.py "$T/lists-$w" 0 0.002 & eval "p_$w=\$!"; done
for i in $(seq 100); do
	[ -s "$T/lists-a" ] && [ -s "$T/lists-b" ] && [ -s "$T/lists-c" ] && break
	sleep 0.1
done
$MG trace -j -p "$p_a,$p_b" -e ctime_swap -o "$T/tp.json" -- sleep 0.6 > /dev/null 2>&1
$MG top -j -p "$p_a,$p_b" -i 0.6 -c 1 -o "$T/topp.json" > /dev/null 2>&1
$MG stat -j -p "$p_a,$p_b" -i 0.6 -c 1 -o "$T/sp.json" > /dev/null 2>&1
kill $p_a $p_b $p_c; wait $p_a $p_b $p_c 2>/dev/null
python3 tests/checkjson.py trace-pids "$T/tp.json" "$p_a,$p_b" "$p_c" > "$T/tp.chk" 2>&1
tally "trace -p A,B" "$T/tp.chk"
python3 tests/checkjson.py top-pids "$T/topp.json" "$p_a,$p_b" "$p_c" > "$T/topp.chk" 2>&1
tally "top -p A,B" "$T/topp.chk"
python3 -c "import json,sys; s=[o for o in map(json.loads, open(sys.argv[1])) if o['type'] == 'summary'][-1]; n=s['counters']['ctime_swaps']['total']; print('PASS' if s['scope'] == 'pids $p_a, $p_b and their descendants' and n and n > 100 else 'FAIL', 'stat -p A,B: scope', repr(s['scope']), 'ctime_swaps', n)" "$T/sp.json" > "$T/sp.chk" 2>&1
tally "stat -p A,B" "$T/sp.chk"
[ "$(left_attached)" = 0 ] && ok "nothing left attached after the list runs" || bad "BPF objects left behind"
