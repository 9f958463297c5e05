# SPDX-License-Identifier: GPL-2.0
# 65-trace.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# mgtrace trace on the live kernel (tracepoint backend): the exact event sequence of one
# known file, with the ctimes stat() returned; filters by file, pid and comm keep other
# processes' and other files' events out.
echo "# trace"
F=$T/trace-f; G=$T/trace-g
echo a > "$F"; echo a > "$G"
$MG trace --json -o "$T/trace.json" --path "$F" -- python3 tests/trace_workload.py seq "$F" > "$T/trace.out" 2> "$T/trace.err"
rc=$?
[ $rc = 0 ] && ok "trace -- COMMAND exits with its status" || bad "trace exit $rc: $(cat "$T/trace.err")"
schema_valid trace trace "$T/trace.json"
# where floor events cannot load (lockdown here, or no kprobes), why is whole: both attempts'
# reasons with their parentheses closed, never cut mid-word (each was cut at 140 bytes)
python3 - "$T/trace.json" > "$T/trace-floorwhy.chk" 2>&1 <<'PY'
import json, sys
s = [o for o in map(json.loads, open(sys.argv[1])) if o.get("type") == "trace_summary"][-1]
w = s.get("floor_unavailable")
print(("PASS " if w is None or (w.count("(") == w.count(")") and "kprobe" in w and
       not w.endswith("...")) else "FAIL ") + f"trace: floor_unavailable whole: {w!r}")
PY
tally trace-floor-why "$T/trace-floorwhy.chk"
python3 tests/checkjson.py trace-seq "$T/trace.json" "$F" "$T/trace.out" > "$T/trace.chk" 2>&1
tally trace-seq "$T/trace.chk"

# filters: comm A writes F and G, comm B writes F; trace only comm A on F
$MG trace --json --path "$F" --comm mgtestA -a > "$T/filt.json" 2>/dev/null & tp=$!
sleep 1.5
python3 tests/trace_workload.py comm mgtestA "$F" "$G"
python3 tests/trace_workload.py comm mgtestB "$F" "$G"
python3 tests/trace_workload.py comm mgtestA "$F"
sleep 0.3; kill -INT $tp; wait $tp
# 4 events: 2 writes and 2 stats of F by comm mgtestA
python3 tests/checkjson.py trace-filter "$T/filt.json" "$(stat -c %i "$F")" mgtestA 4 > "$T/filt.chk" 2>&1
tally trace-filter "$T/filt.chk"
# --pid: a process that is not PID or one of its descendants does not appear (a sleep has no
# children; pid 1 would be every process's ancestor)
sleep 30 & lone=$!
$MG trace --json --pid $lone --path "$F" > "$T/pid.json" 2>/dev/null & tp=$!
sleep 1.5; python3 tests/trace_workload.py comm mgtestA "$F"; sleep 0.3; kill -INT $tp; wait $tp
kill $lone; wait $lone 2>/dev/null
[ "$(grep -c '"type":"event"' "$T/pid.json")" = 0 ] && ok "trace --pid: other processes' events do not appear" \
	|| bad "trace --pid showed events of another process"
# text mode: header names the clock, lines are written as they happen
$MG trace --path "$F" -- python3 tests/trace_workload.py seq "$F" > "$T/trace.txt" 2>&1
grep -q 'TIME(REALTIME)' "$T/trace.txt" && [ "$(grep -c ' ctime_swap ' "$T/trace.txt")" = 2 ] \
	&& grep -q 'QUERIED' "$T/trace.txt" && ok "trace text: REALTIME header, 2 swaps with QUERIED decoded" \
	|| bad "trace text: $(head -5 "$T/trace.txt")"
badcase "trace: floor events without function probes" 3 "floor events unavailable" $MG trace --events floor -- true
badcase "trace: floor named beside all" 3 "floor events unavailable" $MG trace -e all,floor -- true
# -e all is all available, as the default: the run goes on without floor events (it exited 3)
for e in all all,stat; do
	$MG trace -e "$e" -o "$T/tall.out" -- true > /dev/null 2>&1; rc=$?
	[ "$rc" = 0 ] && ok "trace -e $e: all available, exit 0" || bad "trace -e $e: exit $rc, want 0"
done
# --inode: each part decimal, in range: no wrap of 2^32 or 2^64, no sign
for a in 4294967296:0:1 254:0:18446744073709551616 254:0:-1 254:0:1x 254::1; do
	badcase "trace --inode $a" 2 "invalid inode" $MG trace --inode "$a" -- true
done
badcase "trace: bad event list" 2 "unknown event 'bogus'" $MG trace --events bogus
badcase "trace: empty item in an event list" 2 "empty item in event list 'ctime,,stat'" $MG trace -e ctime,,stat
badcase "trace: a glob that matches no tracepoint" 2 "unknown event 'timestamp:nope\*'" $MG trace -e 'timestamp:nope*'
badcase "trace: one floor kind alone" 2 "select them as floor" $MG trace -e floor_swap
badcase "trace: bad inode" 2 "invalid inode" $MG trace --inode 8:1
badcase "trace: missing path" 2 "cannot stat" $MG trace --path /nonexistent/x
badcase "trace: tracepoint backend for floor" 2 "invalid backend" $MG trace --backend tracepoint
[ "$(left_attached)" = 0 ] && ok "nothing left attached after trace runs" || bad "trace left BPF objects behind"
# Ctrl-C under a sustained event stream ends trace promptly, with its summary
$MG stress --duration 6 --threads 1 > /dev/null 2>&1 & sp=$!
$MG trace --events stat > /dev/null 2> "$T/tr.err" & tp=$!
sleep 1; kill -INT $tp
# promptly: within 5 s even while other work (a VM stage) shares the 2 CPUs
for i in $(seq 50); do kill -0 $tp 2>/dev/null || break; sleep 0.1; done
if kill -0 $tp 2>/dev/null; then kill -9 $tp; bad "trace ignored SIGINT under load (5 s)"
else wait $tp; grep -q 'events printed' "$T/tr.err" && ok "trace stops on SIGINT under load, with a summary" \
	|| bad "trace: no summary after SIGINT"; fi
kill -INT $sp 2>/dev/null; wait $sp
badcase "trace: --path with --inode" 2 "exclude each other" $MG trace --path "$F" --inode 8:1:2
# stress --shared: both threads stat the same file (the floor invariants' contended case)
$MG trace --json -o "$T/sh.json" --events stat -- $MG stress --shared --threads 2 --files 1 --ops 200 > /dev/null 2>&1
python3 tests/checkjson.py trace-tids "$T/sh.json" shared-f1 2 > "$T/c" 2>&1; tally stress-shared "$T/c"
# --path of a file replaced during the trace (a rename over it): the summary names the new inode,
# whose events were not traced; a file written in place gets no such note (the check can fail)
mkdir -p "$T/rp" && echo a > "$T/rp/f"
$MG trace --json -o "$T/rp.json" --path "$T/rp/f" -- sh -c "echo c > '$T/rp/tmp'; mv '$T/rp/tmp' '$T/rp/f'" \
	> /dev/null 2>&1
new=$(stat -c '%i' "$T/rp/f")
python3 -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
v = s.get("path_replaced_untraced")
print(("PASS" if v and v.endswith(":" + sys.argv[2]) else "FAIL") + f" trace --path, renamed over: path_replaced_untraced {v}, the new inode {sys.argv[2]}")' \
	"$T/rp.json" "$new" > "$T/rp.chk" 2>&1
tally trace-path-replaced "$T/rp.chk"
# a file unlinked while open: its later events are marked unlinked (JSON) and "(deleted)" (text),
# a file never unlinked never is (the checks can fail: tests/checkjson.py selftest)
mkdir -p "$T/ul" && echo a > "$T/ul/gone" && echo a > "$T/ul/kept"
gone=$(stat -c %i "$T/ul/gone") kept=$(stat -c %i "$T/ul/kept")
ulw="import os, sys; d = sys.argv[1]; f = os.open(d + '/gone', os.O_WRONLY); os.write(f, b'x'); os.stat(d + '/gone'); \
os.unlink(d + '/gone'); os.write(f, b'y'); os.fstat(f); k = os.open(d + '/kept', os.O_WRONLY); os.write(k, b'z'); os.fstat(k)"
$MG trace --json -o "$T/ul.json" -- python3 -c "$ulw" "$T/ul" > /dev/null 2>&1
python3 tests/checkjson.py trace-unlinked "$T/ul.json" "$gone" "$kept" > "$T/ul.chk" 2>&1; tally trace-unlinked "$T/ul.chk"
echo a > "$T/ul/gone"
$MG trace -o "$T/ul.txt" --path "$T/ul/gone" -- python3 -c "$ulw" "$T/ul" > /dev/null 2>&1
grep -q ' gone (deleted) ' "$T/ul.txt" && ok "trace text: an unlinked file's name is followed by (deleted)" \
	|| bad "trace text lacks 'gone (deleted)': $(cat "$T/ul.txt")"
$MG trace --path "$T/rp/f" -- sh -c "echo d >> '$T/rp/f'" > /dev/null 2> "$T/rp2.err"
grep -q 'now names another inode' "$T/rp2.err" && bad "trace --path written in place: a replaced note" \
	|| ok "trace --path written in place: no replaced note"
