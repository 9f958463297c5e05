# SPDX-License-Identifier: GPL-2.0
# 65-trace.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# mgtrace trace on the live kernel (tracepoint backend): the exact event sequence of one
# known file, with the ctimes stat() returned; filters by file, pid and comm keep other
# processes' and other files' events out.
echo "# trace"
F=$T/trace-f; G=$T/trace-g
echo a > "$F"; echo a > "$G"
$MG trace --json --path "$F" -- python3 tests/trace_workload.py seq "$F" > "$T/trace.json" 2> "$T/trace.err"
rc=$?
[ $rc = 0 ] && ok "trace -- COMMAND exits with its status" || bad "trace exit $rc: $(cat "$T/trace.err")"
python3 - "$T/trace.json" "$F" > "$T/trace.chk" 2>&1 <<'PY'
import json, os, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = [l for l in lines if "ctime_ns" in l][0]          # the workload's own line
ev = [l for l in lines if l.get("type") == "event"]
summ = [l for l in lines if l.get("type") == "trace_summary"]
st = os.stat(sys.argv[2])
def ck(c, m): print(("ok   " if c else "FAIL ") + m)
c0, c1, c2 = out["ctime_ns"]
ns = lambda s, n: s * 1000000000 + n
kinds = [e["event"] for e in ev]
ck(kinds == ["stat", "ctime_swap", "stat", "ctime_swap", "stat"], f"exact sequence: {kinds}")
if len(ev) == 5:
    ck(ns(ev[0]["ctime_sec"], ev[0]["ctime_nsec"]) == c0, "stat 1 shows the ctime stat() returned")
    ck(ev[1]["old_nsec"] == c0 % 10**9 and ev[1]["old_queried"], "swap 1 replaced that ctime, QUERIED")
    ck(ns(ev[1]["new_sec"], ev[1]["new_nsec"]) == c1, "swap 1's new ctime is what stat() returned next")
    ck(ns(ev[2]["ctime_sec"], ev[2]["ctime_nsec"]) == c1, "stat 2 shows it, nanoseconds included")
    ck(ev[3]["old_nsec"] == c1 % 10**9 and ev[3]["old_queried"], "swap 2 replaced it, QUERIED")
    ck(ns(ev[3]["new_sec"], ev[3]["new_nsec"]) == c2 == ns(ev[4]["ctime_sec"], ev[4]["ctime_nsec"]),
       "swap 2 and stat 3 show the last ctime")
    ck(all(e["ino"] == st.st_ino and e["pid"] == out["pid"] and e["name"] == os.path.basename(sys.argv[2])
           for e in ev), "every event names the file's inode, the workload's pid and the file name")
    ck(all(0 <= e["ctime_nsec" if "ctime_nsec" in e else "new_nsec"] < 10**9 for e in ev),
       "nanoseconds < 1e9: the QUERIED bit is masked")
ck(len(summ) == 1 and summ[0]["events"] == 5 and summ[0]["lost_events"] == 0, "summary: 5 events, 0 lost")
PY
tally trace-seq "$T/trace.chk"

# filters: comm A writes F and G, comm B writes F; trace only comm A on F
$MG trace --json --path "$F" --comm mgtestA -a > "$T/filt.json" 2>/dev/null & tp=$!
sleep 1.5
python3 tests/trace_workload.py comm mgtestA "$F" "$G"
python3 tests/trace_workload.py comm mgtestB "$F" "$G"
python3 tests/trace_workload.py comm mgtestA "$F"
sleep 0.3; kill -INT $tp; wait $tp
python3 - "$T/filt.json" "$(stat -c %i "$F")" > "$T/filt.chk" 2>&1 <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ev = [e for e in ev if e.get("type") == "event"]
def ck(c, m): print(("ok   " if c else "FAIL ") + m)
ck(len(ev) == 4, f"4 events: 2 writes and 2 stats of F by comm mgtestA ({len(ev)})")
ck(all(e["comm"] == "mgtestA" for e in ev), "no event from the other comm")
ck(all(e["ino"] == int(sys.argv[2]) for e in ev), "no event from the other file")
PY
tally trace-filter "$T/filt.chk"
# --pid: a process that is not PID does not appear
$MG trace --json --pid 1 --path "$F" > "$T/pid.json" 2>/dev/null & tp=$!
sleep 1.5; python3 tests/trace_workload.py comm mgtestA "$F"; sleep 0.3; kill -INT $tp; wait $tp
[ "$(grep -c '"type":"event"' "$T/pid.json")" = 0 ] && ok "trace --pid 1: other processes' events do not appear" \
	|| bad "trace --pid 1 showed events"
# text mode: header names the clock, lines are written as they happen
$MG trace --path "$F" -- python3 tests/trace_workload.py seq "$F" > "$T/trace.txt" 2>&1
grep -q 'TIME(REALTIME)' "$T/trace.txt" && [ "$(grep -c ' ctime_swap ' "$T/trace.txt")" = 2 ] \
	&& grep -q 'QUERIED' "$T/trace.txt" && ok "trace text: REALTIME header, 2 swaps with QUERIED decoded" \
	|| bad "trace text: $(head -5 "$T/trace.txt")"
badcase "trace: floor events without function probes" 3 "floor events unavailable" $MG trace --events floor -- true
badcase "trace: bad event list" 2 "invalid event list" $MG trace --events bogus
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
$MG trace --json --events stat -- $MG stress --shared --threads 2 --files 1 --ops 200 > "$T/sh.json" 2>&1
python3 - "$T/sh.json" <<'PY' && ok "stress --shared: two threads stat one file" || bad "stress --shared: $(tail -2 "$T/sh.json")"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
tids = {e["tid"] for e in ev if e.get("event") == "stat" and e["name"] == "shared-f1"}
sys.exit(0 if len(tids) == 2 else 1)
PY
