# SPDX-License-Identifier: GPL-2.0
# 47-options.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The same letter means the same in every command (issue 17, "Habits to follow"): -o, -j, -v
# everywhere; -p PID (process scope: PID and its descendants) and -a (system-wide) in stat and
# trace; -A (per-CPU, online CPUs), -i/-I and -c (interval, count), -x (separated fields) in
# stat, refused where a command has no such thing, never taken as something else.
echo "# options: one meaning per letter"

# cmd_args NAME: arguments for a short, self-ending run of command NAME
cmd_args() {
	case $1 in
	probe) echo "probe" ;;
	stat) echo "stat -- true" ;;
	trace) echo "trace -- true" ;;
	check) echo "check -d 0.3 --rate 100" ;;
	clocks) echo "clocks -n 2000" ;;
	stress) echo "stress -d 0.2" ;;
	esac
}
# run_cmd NAME OPTS...: mgtrace with command NAME's short run, OPTS before its "--"
run_cmd() {
	local n=$1 w pre=() post=() seen=; shift
	for w in $(cmd_args "$n"); do
		if [ "$w" = "--" ] || [ -n "$seen" ]; then seen=1; post+=("$w"); else pre+=("$w"); fi
	done
	$MG "${pre[@]}" "$@" "${post[@]}"
}
for n in probe stat trace check clocks stress; do
	# -o FILE: the results in FILE, nothing on stdout
	run_cmd $n -o "$T/o-$n.txt" > "$T/o-$n.out" 2> "$T/o-$n.err"; rc=$?
	[ $rc = 0 ] && [ -s "$T/o-$n.txt" ] && [ ! -s "$T/o-$n.out" ] \
		&& ok "$n -o FILE: the results in FILE, stdout empty" \
		|| bad "$n -o FILE: exit $rc, file $(wc -c < "$T/o-$n.txt") bytes, stdout '$(head -c 200 "$T/o-$n.out")' $(head -c 200 "$T/o-$n.err")"
	# -j: JSON lines (in -o FILE), each with its type
	run_cmd $n -j -o "$T/j-$n.json" > /dev/null 2> "$T/j-$n.err"; rc=$?
	python3 tests/checkjson.py json-lines "$T/j-$n.json" > /dev/null 2>&1 && [ $rc = 0 ] \
		&& ok "$n -j: JSON lines" || bad "$n -j: exit $rc, $(head -c 200 "$T/j-$n.json") $(head -c 200 "$T/j-$n.err")"
	# -v: accepted by every command, the same run
	run_cmd $n -v -o /dev/null > /dev/null 2>&1; rc=$?
	[ $rc = 0 ] && ok "$n -v: accepted" || bad "$n -v: exit $rc"
	# the shared options before the command name, as bpftool's global ones
	$MG -j -o "$T/g-$n.json" $(cmd_args $n) > /dev/null 2>&1; rc=$?
	[ $rc = 0 ] && python3 tests/checkjson.py json-lines "$T/g-$n.json" > /dev/null 2>&1 \
		&& ok "mgtrace -j -o FILE $n: the global spelling" || bad "mgtrace -j -o FILE $n: exit $rc"
done
# mgtrace -j with no command (the demonstration run): stdout is JSON lines only, stress's
# result and the summary, and nothing but libbpf may speak on stderr; without -j the
# demonstration's results are on stdout too (its COMMAND is mgtrace's own)
$MG -j > "$T/demo.json" 2> "$T/demo.err"; rc=$?
types=$(python3 -c 'import json, sys; print(" ".join(json.loads(l)["type"] for l in open(sys.argv[1])))' "$T/demo.json" 2>&1)
[ $rc = 0 ] && [ "$types" = "stress summary" ] && [ -z "$(grep -v '^libbpf' "$T/demo.err")" ] \
	&& ok "mgtrace -j: stdout is JSON lines ($types), stderr silent" \
	|| bad "mgtrace -j: exit $rc, types '$types', stderr: $(head -c 300 "$T/demo.err")"
# the check can fail: a text line among them is not JSON
{ cat "$T/demo.json"; echo "stress: 2 threads"; } > "$T/demo-bad.json"
python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/demo-bad.json" 2> /dev/null \
	&& bad "mgtrace -j twin: a text line passed as JSON" || ok "mgtrace -j twin: a text line on stdout is caught"
$MG > "$T/demo.txt" 2> /dev/null; rc=$?
[ $rc = 0 ] && grep -q "^stress: " "$T/demo.txt" && grep -q "^mgtrace stat: system-wide" "$T/demo.txt" \
	&& ok "mgtrace: the demonstration's results on stdout" || bad "mgtrace: exit $rc, stdout: $(head -c 300 "$T/demo.txt")"
# letters a command does not have are refused (usage), never read as another option
for c in "probe -A" "check -A" "trace -A" "clocks -A" "stress -A" "probe -p 1" "check -p 1" \
	"clocks -p 1" "stress -p 1" "trace -c 3" "trace -i 8:1:2" "probe -a"; do
	badcase "$c: not an option of this command" 2 "unrecognized option" $MG $c
done
badcase "stat -a with -p" 2 "exclude each other" $MG stat -a -p 1 -- true
badcase "trace -a with -p" 2 "exclude each other" $MG trace -a -p 1
badcase "stat -p of no process" 2 "stat: no process 4000000" $MG stat -p 4000000 -- true
badcase "trace -p of no process" 2 "trace: no process 4000000" $MG trace -p 4000000
# a thread id: the BPF filters match the tgid, so it would count nothing (a silent zero)
python3 -c 'import threading, time; threading.Thread(target=time.sleep, args=(5,)).start()' & tp=$!
sleep 0.5; tid=$(ls /proc/$tp/task | grep -v "^$tp\$" | head -1)
badcase "stat -p of a thread" 2 "stat: $tid is a thread of process $tp: give the process" \
	$MG stat -p "$tid" -i 1 -c 1
badcase "trace -p of a thread" 2 "trace: $tid is a thread of process $tp: give the process" \
	$MG trace -p "$tid"
kill $tp 2>/dev/null; wait $tp 2>/dev/null
# -p PID ends when PID and all its descendants have exited (as perf stat -p), not before:
# the descendant writes a file as it ends, which must exist when mgtrace returns
for c in stat trace top; do
	rm -f "$T/gone-$c"
	sh -c "(sleep 4; touch '$T/gone-$c') & sleep 2" & gp=$!
	timeout 30 $MG $c -p $gp > /dev/null 2> "$T/gone.err"; rc=$?
	if [ $rc = 0 ] && [ -e "$T/gone-$c" ] && grep -q "the traced processes have all exited" "$T/gone.err" &&
		[ "$(left_attached)" = 0 ]; then
		ok "$c -p PID: ends (exit 0) once PID and its descendant have exited, not before"
	else
		bad "$c -p PID: exit $rc, descendant's file $( [ -e "$T/gone-$c" ] && echo present || echo missing), stderr: $(tail -c 300 "$T/gone.err")"
	fi
	wait $gp 2>/dev/null
done
badcase "stat --tree without COMMAND" 2 "needs -- COMMAND" $MG stat --tree
badcase "stat -x with --json" 2 "exclude each other" $MG stat -x , -j -- true

# -a: system-wide, said in the header; -p PID: only PID's tree, counted in BPF
F=$T/opt-f; echo a > "$F"
sh -c "while :; do echo x >> '$F'; stat '$F' > /dev/null; sleep 0.02; done" & wp=$!
$MG stress --threads 2 --duration 8 > /dev/null 2>&1 & sp=$!
sleep 0.3
$MG stat -j -a -o "$T/sa.json" -i 1 -c 1 > /dev/null 2>&1
$MG stat -j -p $wp -o "$T/sp.json" -i 1 -c 1 > /dev/null 2>&1
$MG stat -p $wp -i 1 -c 1 > "$T/sp.txt" 2>&1
$MG trace -j -p $wp -o "$T/tp.json" -- sleep 1 > /dev/null 2>&1
$MG trace -j -a --events stat -o "$T/ta.json" -- sleep 0.3 > /dev/null 2>&1
wait $sp; kill $wp; wait $wp 2>/dev/null
python3 tests/checkjson.py scope "$T/sa.json" "$T/sp.json" "$T/tp.json" "$T/ta.json" "$wp" \
	> "$T/scope.chk" 2>&1
tally scope "$T/scope.chk"
grep -q '^mgtrace stat: pid [0-9]* and its descendants' "$T/sp.txt" && grep -q '^cost of the scope: ' "$T/sp.txt" \
	&& ok "stat -p text: the header states the scope and its cost" || bad "stat -p text: $(head -5 "$T/sp.txt")"

# -A: the per-CPU table, online CPUs only, opt-in
$MG stat -- true > "$T/nA.txt" 2>&1; $MG stat -A -- true > "$T/A.txt" 2>&1
online=$(getconf _NPROCESSORS_ONLN)
! grep -q '^per-CPU' "$T/nA.txt" && [ "$(grep '^per-CPU' "$T/A.txt" | grep -o 'CPU[0-9][0-9]*' | wc -l)" = "$online" ] \
	&& ok "stat -A: a per-CPU table of the $online online CPUs, none without -A" \
	|| bad "stat -A: $(grep '^per-CPU' "$T/A.txt") (online $online)"
# the default text fits 100 columns
awk 'length > 100' "$T/nA.txt" | grep -q . && bad "stat text wider than 100 columns: $(awk 'length > 100' "$T/nA.txt")" \
	|| ok "stat's default text fits 100 columns"

# interval mode: -i S = -I MS, -c N, wall-clock time, the summary's names, the partial last one
$MG stat -j -I 200 -c 2 -o "$T/I.json" > /dev/null 2>&1
python3 tests/checkjson.py intervals "$T/I.json" 2 > "$T/c" 2>&1; tally "stat -I 200 -c 2" "$T/c"
$MG stat -j -i 1 -o "$T/part.json" -- sleep 1.5 > /dev/null 2>&1
python3 tests/checkjson.py partial "$T/part.json" > "$T/part.chk" 2>&1
tally "partial interval" "$T/part.chk"
$MG stat -i 0.5 -o "$T/iv.txt" -- sleep 1.2 > /dev/null 2>&1
head -1 "$T/iv.txt" | grep -q '^time  *ctime_updates fine_stamps floor_swaps floor_cmpxchg_fails ctime_swaps  debugfs$' \
	&& [ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} ' "$T/iv.txt")" = 3 ] && grep -q '(partial interval)$' "$T/iv.txt" \
	&& ok "stat -i text: HH:MM:SS.mmm rows under the summary's names, the partial one marked" \
	|| bad "stat -i text: $(head -4 "$T/iv.txt")"
$MG stat -x , -i 0.3 -c 2 -o "$T/x.csv" > /dev/null 2>&1	# perf stat -I -x: no summary
python3 tests/checkjson.py stat-csv "$T/x.csv" 2 > "$T/c" 2>&1; tally "stat -x ," "$T/c"
$MG stat -j --rate -i 0.5 -c 1 -o /dev/null > /dev/null 2>&1 && ok "stat --rate accepted" || bad "stat --rate"
script -qec "$MG stat -I 20 -c 30" /dev/null > "$T/tty.txt" 2>&1
[ "$(grep -c '^time ' "$T/tty.txt")" = 2 ] && ok "stat -I on a terminal: the header repeats (every 25 rows)" \
	|| bad "stat on a terminal: $(grep -c '^time ' "$T/tty.txt") headers"
# -c N -- COMMAND: ended by the count, exit 0 (documented), COMMAND's own status reported
$MG stat -j -i 0.2 -c 2 -o "$T/cc.json" -- sleep 5 > /dev/null 2>&1; rc=$?
[ $rc = 0 ] && ok "stat -c 2 -- sleep 5: exit 0 (documented: the count ended COMMAND)" \
	|| bad "stat -c 2 -- sleep 5: exit $rc"
python3 tests/checkjson.py count-ended "$T/cc.json" > "$T/c" 2>&1; tally "stat -c 2 -- sleep 5" "$T/c"
# -d S / --timeout MS: the window's length, with COMMAND ended as by -c (exit 0)
$MG stat -j -i 0.2 -d 0.5 -o "$T/dd.json" -- sleep 5 > /dev/null 2>&1; rc=$?
[ $rc = 0 ] && ok "stat -d 0.5 -- sleep 5: exit 0 (documented: the duration ended COMMAND)" \
	|| bad "stat -d 0.5 -- sleep 5: exit $rc"
python3 tests/checkjson.py duration-ended "$T/dd.json" 0.5 2 partial command > "$T/c" 2>&1
tally "stat -i 0.2 -d 0.5 -- sleep 5" "$T/c"
$MG stat -j -I 200 --timeout 400 -o "$T/dt.json" -- sleep 5 > /dev/null 2>&1
python3 tests/checkjson.py duration-ended "$T/dt.json" 0.4 2 whole command > "$T/c" 2>&1
tally "stat -I 200 --timeout 400 -- sleep 5: two whole intervals, no empty third" "$T/c"
$MG stat -j -d 0.3 -o "$T/dn.json" > /dev/null 2>&1
python3 tests/checkjson.py duration-ended "$T/dn.json" 0.3 0 whole none > "$T/c" 2>&1
tally "stat -d 0.3, system-wide without COMMAND" "$T/c"
# the checks fail on the other run's file: a count's end is no duration's, 0.5 s is not 0.2
python3 tests/checkjson.py duration-ended "$T/cc.json" 0.4 2 whole command > /dev/null 2>&1 \
	&& bad "duration-ended passed a run ended by -c" || ok "duration-ended fails a run ended by -c"
python3 tests/checkjson.py duration-ended "$T/dd.json" 0.2 2 partial command > /dev/null 2>&1 \
	&& bad "duration-ended passed a 0.5 s window as 0.2 s" || ok "duration-ended fails a window of another length"
# whole-second rows print HH:MM:SS; the partial one after them its milliseconds too (it may end
# within the same second as the row before it, and printed the same time)
$MG stat -i 1 -d 1.3 -o "$T/dw.txt" > /dev/null 2>&1
grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2} ' "$T/dw.txt" && grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} .*\(partial interval\)$' "$T/dw.txt" \
	&& ok "stat -i 1 -d 1.3: whole-second rows, the partial one with milliseconds" \
	|| bad "stat -i 1 -d 1.3: $(grep -E '^[0-9]{2}:' "$T/dw.txt")"
# a stop signal before -d's end: exit 0, the summary says which signal ended it (and text why)
$MG stat -j -d 5 -o "$T/dsig.json" > /dev/null 2>&1 & sp=$!
sleep 0.5; kill -INT $sp; wait $sp; rc=$?
python3 -c 'import json,sys; s=json.loads(open(sys.argv[1]).read().splitlines()[-1]); sys.exit(not (s["interrupted"] == "SIGINT" and s["duration_s"] < 4))' "$T/dsig.json" \
	&& [ $rc = 0 ] && ok "stat -d 5, SIGINT at 0.5 s: exit 0, interrupted SIGINT" \
	|| bad "stat -d 5, SIGINT: exit $rc, $(tail -c 300 "$T/dsig.json")"
$MG stat -d 5 > /dev/null 2> "$T/dsig.err" & sp=$!
sleep 0.5; kill -INT $sp; wait $sp
grep -q "^mgtrace: SIGINT ended the run before -d's end$" "$T/dsig.err" && ok "stat -d 5, SIGINT: the text says so" \
	|| bad "stat -d 5, SIGINT, text: $(cat "$T/dsig.err")"
$MG stat -d 2 -o /dev/null -- sh -c 'exit 3' > /dev/null 2>&1; rc=$?
[ $rc = 3 ] && ok "stat -d 2 -- COMMAND ending first: COMMAND's status (3)" || bad "stat -d 2 -- exit 3: exit $rc"
badcase "stat: -d and --timeout together" 2 "both set the duration" $MG stat -d 1 --timeout 100
badcase "stat: -d below 10 ms" 2 "invalid duration '0.001' (seconds, 0.01 to 86400)" $MG stat -d 0.001
badcase "stat: --timeout below 10 ms" 2 "invalid duration '5' (milliseconds, 10 to 86400000)" $MG stat --timeout 5
$MG stat -i 0.2 -c 5 -o /dev/null -- sh -c 'exit 3' > /dev/null 2>&1; rc=$?
[ $rc = 3 ] && ok "stat -c 5 -- COMMAND ending first: COMMAND's status (3)" || bad "stat -c 5 -- exit 3: exit $rc"
[ "$(left_attached)" = 0 ] && ok "nothing left attached after the option runs" || bad "BPF objects left behind"
# -i S and -I MS are one interval in two units: both given is a usage error (the last one won
# silently), the same one twice is perf's habit (the last wins)
badcase "stat: -I and -i together" 2 "both set the interval" $MG stat -I 100 -i 1 -c 1
badcase "top: -i and -I together" 2 "both set the interval" $MG top -i 1 -I 100 -c 1
$MG stat -I 100 -I 200 -c 1 > /dev/null 2>&1 && ok "stat: -I twice: the last wins (exit 0)" \
	|| bad "stat: -I twice refused"
