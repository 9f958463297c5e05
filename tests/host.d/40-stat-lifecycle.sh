# SPDX-License-Identifier: GPL-2.0
# 40-stat-lifecycle.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
echo "# intervals, COMMAND status, signals"
$MG stat --json -i 0.2 -c 3 -o "$T/iv.json" > /dev/null 2>&1
python3 tests/checkjson.py intervals "$T/iv.json" 3 > "$T/c" 2>&1; tally intervals "$T/c"
schema_valid intervals stat "$T/iv.json"
# the rows add up to the summary exactly: COUNT ending the run under load (the summary ends at
# the last interval, not at a later snapshot), and COMMAND ending it (a last, partial row)
$MG stat --json -e all -I 100 -c 5 -o "$T/ivc.json" -- $MG stress --duration 5 > /dev/null 2>&1
python3 tests/checkjson.py interval-sums "$T/ivc.json" > "$T/c" 2>&1; tally "stat -I 100 -c 5 under stress: rows add up" "$T/c"
$MG stat --json -e all -I 100 -o "$T/ive.json" -- $MG stress --duration 0.45 > /dev/null 2>&1
python3 tests/checkjson.py interval-sums "$T/ive.json" > "$T/c" 2>&1; tally "stat -I 100 -- stress 0.45 s: rows add up" "$T/c"
$MG stat -- sh -c 'exit 7' > /dev/null 2>&1; rc=$?
[ $rc = 7 ] && ok "stat -- COMMAND exits with COMMAND's status (7)" || bad "COMMAND status: got $rc"
$MG stat -- /nonexistent/cmd > /dev/null 2> "$T/err"; rc=$?
[ $rc = 127 ] && grep -q "cannot run" "$T/err" && ok "missing COMMAND: exit 127 with a message" \
	|| bad "missing COMMAND: rc $rc"
$MG stat > "$T/sig.out" 2>&1 & pid=$!
sleep 1; kill -INT $pid; wait $pid; rc=$?
[ $rc = 0 ] && grep -q '^ctime_swaps' "$T/sig.out" && ok "SIGINT prints the summary and exits 0" \
	|| bad "SIGINT: rc $rc"
$MG stat -A > "$T/sig.out" 2>&1 & pid=$!
sleep 1; kill -TERM $pid; wait $pid; rc=$?
[ $rc = 0 ] && grep -q '^per-CPU' "$T/sig.out" && ok "SIGTERM prints the summary (-A: per-CPU table) and exits 0" \
	|| bad "SIGTERM: rc $rc"
[ "$(left_attached)" = 0 ] && ok "nothing left attached after stat runs" || bad "BPF objects left behind"
# stress --ops stops on SIGINT/SIGTERM too, and leaves no tmpfs mounted
$MG stress --ops 1000000000 --threads 1 > /dev/null 2>&1 & pid=$!
sleep 0.5; kill -INT $pid; sleep 2
if kill -0 $pid 2>/dev/null; then kill -9 $pid; bad "stress --ops ignored SIGINT"
else wait $pid; ok "stress --ops stops on SIGINT"; fi
grep -q mgtrace-stress /proc/mounts && bad "stress left a tmpfs mounted" || ok "stress left no tmpfs mounted"
# every stop signal ends stress as SIGINT does, SIGHUP too (a closed terminal; was: killed by it,
# its directory left): exit 0 as stat's, the report says which signal (text and JSON), and the
# directory is removed, under -D and under /tmp (the default tmpfs: the dirs it left are compared)
mkdir -p "$T/sd"
for s in HUP INT TERM; do
	$MG stress -j -o "$T/sd.json" -D "$T/sd" --duration 5 > /dev/null 2> "$T/sd.err" & pid=$!
	sleep 1; kill -$s $pid; wait $pid; rc=$?
	[ $rc = 0 ] && [ -z "$(ls -A "$T/sd")" ] && python3 -c 'import json, sys
o = json.loads(open(sys.argv[1]).read())
sys.exit(not (o["interrupted"] == sys.argv[2] and 0.5 < o["seconds"] < 4))' "$T/sd.json" SIG$s \
		&& ok "stress -D, SIG$s at 1 s: exit 0, interrupted SIG$s, its directory removed" \
		|| bad "stress -D, SIG$s at 1 s: exit $rc, left '$(ls -A "$T/sd")', report $(cat "$T/sd.json" 2>/dev/null) $(cat "$T/sd.err")"
	rm -rf "$T"/sd/*
done
ls -d /tmp/mgtrace-stress.* 2> /dev/null | sort > "$T/sd.before"
$MG stress --duration 5 > "$T/sd.out" 2>&1 & pid=$!
sleep 1; kill -HUP $pid; wait $pid; rc=$?
ls -d /tmp/mgtrace-stress.* 2> /dev/null | sort | comm -13 "$T/sd.before" - > "$T/sd.left"
[ $rc = 0 ] && [ ! -s "$T/sd.left" ] && grep -q "ops/s; interrupted by SIGHUP$" "$T/sd.out" \
	&& ok "stress, SIGHUP at 1 s: exit 0, said interrupted, no /tmp/mgtrace-stress.* left" \
	|| bad "stress, SIGHUP at 1 s: exit $rc, left $(cat "$T/sd.left"), $(cat "$T/sd.out")"
xargs -r rmdir < "$T/sd.left" 2> /dev/null
$MG stress -j -d 0.3 -o "$T/sd0.json" > /dev/null 2>&1
python3 -c 'import json, sys; sys.exit(json.loads(open(sys.argv[1]).read())["interrupted"] is not None)' "$T/sd0.json" \
	&& ok "stress -d 0.3 run to its end: interrupted null" || bad "stress -d 0.3: $(cat "$T/sd0.json")"
schema_valid stress-int stress "$T/sd.json"
schema_valid stress-end stress "$T/sd0.json"
# a stall (here SIGSTOP for 1 s) is one longer interval, not a burst of near-empty ones after it
# (they came 41 us apart once): every interval at least half its length, one of about 1 s; then
# top's tables, the same way
for cmd in stat top; do
	if [ $cmd = stat ]; then $MG stat -I 100 -c 8 --json -o "$T/stall-$cmd.json" > /dev/null 2>&1 &
	else $MG top -a -I 100 -c 8 --json -o "$T/stall-$cmd.json" > /dev/null 2>&1 &
	fi
	spid=$!
	# stopped once counting has begun (its first interval written), not while it loads: on a
	# busy machine loading can take longer than any fixed delay
	for i in $(seq 100); do [ -s "$T/stall-$cmd.json" ] && break; sleep 0.05; done
	sleep 0.15; kill -STOP $spid; sleep 1; kill -CONT $spid
	wait $spid; rc=$?
	python3 - "$T/stall-$cmd.json" "$cmd" "$rc" > "$T/stall-$cmd.chk" 2>&1 <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
d = [o.get("duration_s", o.get("interval_s")) for o in objs if o.get("type") in ("interval", "top")]
ok = sys.argv[3] == "0" and len(d) == 8 and min(d) >= 0.05 and max(d) >= 0.9
print(("PASS" if ok else "FAIL") + f" {sys.argv[2]} -I 100 stopped 1 s: exit {sys.argv[3]}, "
      f"intervals {[round(x, 3) for x in d]} (want 8, each >= 0.05 s, one >= 0.9 s)")
PY
	tally "stall-$cmd" "$T/stall-$cmd.chk"
done
