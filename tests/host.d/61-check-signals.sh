# SPDX-License-Identifier: GPL-2.0
# 61-check-signals.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# check hit by SIGINT, SIGTERM or SIGHUP (Ctrl-C, a CI job's timeout, a closed terminal),
# sent with the default dispositions (sig_run): while the programs load, one line, exit 4,
# no verdict (the report file is the error record with that line), nothing attached; before the planned end (the duration, COMMAND's own exit),
# INCONCLUSIVE (exit 4), never a pass, and a status the signal gave COMMAND is not its
# failure; a violation seen still FAILs, and so does COMMAND's own failure.
echo "# check and signals"
# 1. while loading: 0.02 s after start the programs are still loading and attaching
for s in INT TERM HUP; do
	for w in "-d 5" "-- sleep 5"; do
		rm -f "$T/sl.json"
		sig_run $s 0.02 "$T/sl.out" "$T/sl.err" $MG check --json -o "$T/sl.json" $w; rc=$?
		if [ $rc = 4 ] && [ "$(wc -l < "$T/sl.err")" = 1 ] &&
			grep -q "^mgtrace: check: interrupted by SIG$s while loading" "$T/sl.err" &&
			python3 -c 'import json, sys; o = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(not (len(o) == 1 and o[0]["type"] == "error" and o[0]["exit_code"] == 4 and
              "while loading" in o[0]["reason"]))' "$T/sl.json" &&
			[ ! -s "$T/sl.out" ] && [ "$(left_attached)" = 0 ]; then
			ok "check $w, SIG$s at 0.02 s (loading): exit 4, one line, an error record, nothing attached"
		else
			bad "check $w, SIG$s at 0.02 s (loading): exit $rc (want 4), stderr:" \
				"$(head -c 300 "$T/sl.err"), report $(wc -c < "$T/sl.json" 2>/dev/null) bytes"
		fi
	done
done
# 2. the built-in workload cut short: INCONCLUSIVE in JSON, JUnit (an error case) and text
sig_run INT 1 "$T/si.out" "$T/si.err" $MG check --json -o "$T/si.json" --junit "$T/si.xml" -d 5; rc=$?
[ $rc = 4 ] && ok "check -d 5, SIGINT at 1 s: exit 4" || bad "check -d 5, SIGINT at 1 s: exit $rc (want 4): $(tail -2 "$T/si.err")"
python3 tests/checkjson.py interrupted "$T/si.json" SIGINT INCONCLUSIVE > "$T/si.chk" 2>&1
tally "check -d 5, SIGINT at 1 s" "$T/si.chk"
schema_valid check-sigint check "$T/si.json"
grep -q 'errors="1"' "$T/si.xml" &&
	grep -q '<testcase classname="mgtrace.check" name="workload ran to its end" time="[0-9.]*"><error type="interrupted" message="interrupted by SIGINT after [0-9.]* s of 5 s: the workload did not run to its end"/>' "$T/si.xml" &&
	grep -q '<testcase classname="mgtrace.check" name="events complete" time="[0-9.]*"></testcase>' "$T/si.xml" \
	&& ok "check --junit, SIGINT: one error case, the run did not reach its end" \
	|| bad "check --junit, SIGINT: $(grep -o '<testsuite[^>]*>\|name="workload ran[^/]*' "$T/si.xml")"
sig_run TERM 0.8 "$T/st.out" "$T/st.err" $MG check -d 5; rc=$?
[ $rc = 4 ] && grep -q '^INTR   workload ran to its end        interrupted by SIGTERM after' "$T/st.out" &&
	grep -q '^verdict: INCONCLUSIVE (interrupted by SIGTERM after [0-9.]* s of 5 s: the workload did not run to its end)$' "$T/st.out" \
	&& ok "check -d 5, SIGTERM at 0.8 s (text): INTR line, INCONCLUSIVE, exit 4" \
	|| bad "check -d 5, SIGTERM (text): exit $rc: $(grep 'INTR\|verdict' "$T/st.out")"
# ... and a run that reached its end is not marked (the direction that must stay a PASS)
$MG check --json -o "$T/sn.json" -d 0.5 > /dev/null 2>&1; rc=$?
python3 tests/checkjson.py interrupted "$T/sn.json" none PASS > "$T/sn.chk" 2>&1
tally "check -d 0.5, no signal: interrupted null, PASS (exit $rc)" "$T/sn.chk"
# 3. must fail: a violation seen before the signal still FAILs (MGTRACE_TEST_INJECT: one
# synthetic regression judged at the end)
MGTRACE_TEST_INJECT=1 sig_run INT 1 "$T/sv.out" "$T/sv.err" $MG check --json -o "$T/sv.json" -d 5; rc=$?
[ $rc = 1 ] && ok "check -d 5 with an injected violation, SIGINT at 1 s: still FAIL, exit 1" \
	|| bad "check with an injected violation, SIGINT: exit $rc (want 1): $(tail -2 "$T/sv.err")"
python3 tests/checkjson.py interrupted "$T/sv.json" SIGINT FAIL > "$T/sv.chk" 2>&1
tally "check, injected violation, SIGINT" "$T/sv.chk"
# 4. COMMAND: Ctrl-C reaches COMMAND and mgtrace both (the process group); COMMAND's 130 is
# the signal's, not a COMMAND failure
sig_run --group INT 1 "$T/sc.out" "$T/sc.err" $MG check --json -o "$T/sc.json" -- sleep 7.77; rc=$?
[ $rc = 4 ] && ok "check -- sleep 7.77, Ctrl-C (SIGINT to the group) at 1 s: exit 4" \
	|| bad "check -- sleep 7.77, Ctrl-C at 1 s: exit $rc (want 4): $(tail -2 "$T/sc.err")"
python3 tests/checkjson.py interrupted "$T/sc.json" SIGINT INCONCLUSIVE 130 > "$T/sc.chk" 2>&1
tally "check -- sleep 7.77, Ctrl-C" "$T/sc.chk"
schema_valid check-sigint-cmd check "$T/sc.json"
# must fail: COMMAND's own status after the signal (it traps SIGTERM and exits 3) still FAILs
sig_run TERM 1 "$T/so.out" "$T/so.err" $MG check --json -o "$T/so.json" -- \
	sh -c 'trap "exit 3" TERM; while :; do sleep 0.1; done'; rc=$?
[ $rc = 1 ] && ok "check -- COMMAND that exits 3 on the forwarded SIGTERM: FAIL, exit 1" \
	|| bad "check -- COMMAND exiting 3 on SIGTERM: exit $rc (want 1): $(tail -2 "$T/so.err")"
python3 tests/checkjson.py interrupted "$T/so.json" SIGTERM FAIL 3 > "$T/so.chk" 2>&1
tally "check -- COMMAND exiting 3 on SIGTERM" "$T/so.chk"
# must fail: COMMAND killed by a signal mgtrace never took is COMMAND failing, as before
$MG check --json -o "$T/sk.json" -- sh -c 'kill -TERM $$' > /dev/null 2>&1; rc=$?
[ $rc = 1 ] && ok "check -- COMMAND killed by its own SIGTERM: FAIL, exit 1" \
	|| bad "check -- COMMAND killed by its own SIGTERM: exit $rc (want 1)"
python3 tests/checkjson.py interrupted "$T/sk.json" none FAIL 143 > "$T/sk.chk" 2>&1
tally "check -- COMMAND killed by its own SIGTERM" "$T/sk.chk"
# COMMAND killed by SIGKILL it sent itself: FAIL, and said as a kill, not as "exited 137"
$MG check --json -o "$T/s9.json" -- sh -c 'kill -KILL $$' > /dev/null 2>&1; rc=$?
python3 tests/checkjson.py command-end "$T/s9.json" FAIL SIGKILL "COMMAND was killed by SIGKILL \\(status 137\\)" \
	> "$T/s9.chk" 2>&1; tally "check -- COMMAND killed by its own SIGKILL (exit $rc)" "$T/s9.chk"
# 5. COMMAND that ignores the stop signal and runs to its own end: the report says it exited
# after the signal, never that it "did not run to its end"; INCONCLUSIVE all the same
# (COMMAND says when it ignores SIGTERM, in a file: a signal sent before that, while python3
# starts on a loaded machine, killed it, about one run in six)
ign="import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); open(sys.argv[2], 'w').close(); time.sleep(float(sys.argv[1]))"
ign_ready() { # FILE: wait up to 20 s for COMMAND to say it ignores SIGTERM
	local i=0
	while [ ! -e "$1" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
}
$MG check --json -o "$T/sg.json" -- python3 -c "$ign" 2 "$T/sg.ready" > /dev/null 2>&1 & p=$!
ign_ready "$T/sg.ready"; sleep 0.5; kill -TERM $p; wait $p; rc=$?
python3 tests/checkjson.py command-end "$T/sg.json" INCONCLUSIVE null "exited [0-9.]+ s later with status 0" \
	> "$T/sg.chk" 2>&1; tally "check -- COMMAND ignoring SIGTERM, one SIGTERM (exit $rc)" "$T/sg.chk"
# ... a second stop signal kills it (SIGKILL, said on stderr): still INCONCLUSIVE, not a
# COMMAND failure (its 137 is mgtrace's doing)
$MG check --json -o "$T/s2.json" -- python3 -c "$ign" 30 "$T/s2.ready" > /dev/null 2> "$T/s2.err" & p=$!
ign_ready "$T/s2.ready"; kill -TERM $p; sleep 0.5; kill -TERM $p; wait $p; rc=$?
python3 tests/checkjson.py command-end "$T/s2.json" INCONCLUSIVE SIGKILL "COMMAND was killed by SIGKILL" \
	> "$T/s2.chk" 2>&1; tally "check -- COMMAND ignoring SIGTERM, two SIGTERMs (exit $rc)" "$T/s2.chk"
grep -q "sending it SIGKILL" "$T/s2.err" && ok "check: the second stop signal is said on stderr" \
	|| bad "check: no SIGKILL line after the second stop signal: $(cat "$T/s2.err")"
# ... and a COMMAND that not even SIGKILL ends (blocked on a frozen filesystem): the third
# signal ends the run without COMMAND's status, instead of waiting for a thaw.
# frozen_stops CMD FILE: run `$MG CMD --json -o $T/FILE.json -- (a write to the frozen $T/frz)`,
# three SIGTERMs 0.4 s apart; sets rc (its exit) or fails when it still waits 5 s later; thaws
frozen_stops() {
	local p i
	fsfreeze -f "$T/frz"
	$MG $1 --json -o "$T/$2.json" -- sh -c "echo x > '$T/frz/$2'" > /dev/null 2> "$T/$2.err" & p=$!
	sleep 1.5; kill -TERM $p; sleep 0.4; kill -TERM $p; sleep 0.4; kill -TERM $p
	for i in $(seq 50); do kill -0 $p 2> /dev/null || break; sleep 0.1; done
	if kill -0 $p 2> /dev/null; then
		bad "$1 -- COMMAND blocked on a frozen filesystem: still waiting 5 s after the third SIGTERM"
		fsfreeze -u "$T/frz"; wait $p; return 1
	fi
	wait $p; rc=$?
	fsfreeze -u "$T/frz"; sleep 0.3
}
if truncate -s 16M "$T/frz.img" && mkfs.ext4 -q -F "$T/frz.img" && mkdir -p "$T/frz" &&
	mount -o loop "$T/frz.img" "$T/frz"; then
	if frozen_stops check s3; then
		python3 tests/checkjson.py command-end "$T/s3.json" INCONCLUSIVE null "not even after SIGKILL" \
			> "$T/s3.chk" 2>&1; tally "check -- COMMAND blocked on a frozen filesystem, three SIGTERMs (exit $rc)" "$T/s3.chk"
	fi
	# stat shares the run (src/util/run.c): exit 1, not COMMAND's success, and command_status null
	if frozen_stops stat s4; then
		[ $rc = 1 ] && ok "stat -- COMMAND blocked on a frozen filesystem, three SIGTERMs: exit 1" \
			|| bad "stat -- COMMAND on a frozen filesystem: exit $rc (want 1: no COMMAND status)"
		python3 tests/checkjson.py command-status "$T/s4.json" null > "$T/s4.chk" 2>&1
		tally "stat -- COMMAND on a frozen filesystem: command_status null" "$T/s4.chk"
	fi
	# check --dir on a frozen filesystem (issue 28, 3c: a run blocked in mkdir ignored
	# SIGTERM, printed nothing, and left an empty mgtrace-check.* after the thaw). The mkdir
	# runs in a helper process: one line says it is blocked, a stop signal ends the run at
	# once (exit 4, an error report), and the directory, made at the thaw, is removed
	fsfreeze -f "$T/frz"
	$MG check --json -o "$T/fd1.json" -d 2 -D "$T/frz" > /dev/null 2> "$T/fd1.err" & p=$!
	sleep 2; kill -TERM $p
	for i in $(seq 30); do kill -0 $p 2> /dev/null || break; sleep 0.1; done
	if kill -0 $p 2> /dev/null; then
		bad "check --dir frozen before the workload: still running 3 s after SIGTERM ($(cat "$T/fd1.err"))"
		fsfreeze -u "$T/frz"; wait $p
	else
		wait $p; rc=$?
		grep -q "mkdir under $T/frz has not returned after 1.0 s: blocked in the kernel" "$T/fd1.err" &&
			[ $rc = 4 ] && grep -q "interrupted by SIGTERM while mkdir under .* was blocked" "$T/fd1.err" &&
			python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read()); sys.exit(not (r["type"] == "error" and r["exit_code"] == 4))' "$T/fd1.json" &&
			ok "check --dir frozen before the workload: said blocked, SIGTERM ends it (exit 4, error report)" ||
			bad "check --dir frozen before the workload: exit $rc: $(cat "$T/fd1.err")"
		[ "$(left_attached)" = 0 ] && ok "check --dir frozen before the workload: nothing attached" ||
			bad "check --dir frozen before the workload: BPF objects left behind"
		fsfreeze -u "$T/frz"
	fi
	for i in $(seq 30); do ls -d "$T"/frz/mgtrace-check.* > /dev/null 2>&1 || break; sleep 0.1; done
	ls -d "$T"/frz/mgtrace-check.* > /dev/null 2>&1 &&
		bad "check --dir frozen before the workload: left after the thaw: $(ls -d "$T"/frz/mgtrace-check.*)" ||
		ok "check --dir frozen before the workload: no directory left after the thaw"
	# ... frozen while the workload runs: its threads block in the kernel; after the planned
	# end one line names them, and a stop signal ends the run without them: the report is
	# written (INCONCLUSIVE, saying so) and every program detached while the filesystem is
	# still frozen; the process exits at the thaw, and a cleaner removes the directory
	$MG check --json -o "$T/fd2.json" -d 1 -D "$T/frz" > /dev/null 2> "$T/fd2.err" & p=$!
	# frozen once the workload's files exist (loading can take longer than a guess)
	for i in $(seq 100); do ls "$T"/frz/mgtrace-check.*/t0-f2 > /dev/null 2>&1 && break; sleep 0.05; done
	sleep 0.2; fsfreeze -f "$T/frz"
	for i in $(seq 60); do grep -q "have not returned" "$T/fd2.err" && break; sleep 0.1; done
	kill -TERM $p
	for i in $(seq 30); do grep -q "the run ends without them" "$T/fd2.err" && [ -s "$T/fd2.json" ] && break; sleep 0.1; done
	sleep 0.5
	python3 - "$T/fd2.json" > "$T/fd2.chk" 2>&1 <<'PY'
import json, sys
try:
    r = json.loads(open(sys.argv[1]).readline())
except (OSError, ValueError) as e:
    print(f"FAIL check --dir frozen mid-run: no report while frozen: {e}"); sys.exit()
t = (r.get("interrupted") or {}).get("text", "")
print(("PASS" if r.get("verdict") == "INCONCLUSIVE" and "workload threads have not returned" in t
       and "the run ended without them" in t else "FAIL")
      + f" check --dir frozen mid-run: the report is written while frozen: {r.get('verdict')}, "
      f"{t or r.get('reason')}")
PY
	tally "check --dir frozen mid-run" "$T/fd2.chk"
	[ "$(left_attached)" = 0 ] && ok "check --dir frozen mid-run: nothing attached while still frozen" ||
		bad "check --dir frozen mid-run: BPF objects attached while frozen"
	fsfreeze -u "$T/frz"; wait $p; rc=$?
	[ $rc = 4 ] && ok "check --dir frozen mid-run: exit 4 at the thaw" || bad "check --dir frozen mid-run: exit $rc: $(cat "$T/fd2.err")"
	for i in $(seq 30); do ls -d "$T"/frz/mgtrace-check.* > /dev/null 2>&1 || break; sleep 0.1; done
	ls -d "$T"/frz/mgtrace-check.* > /dev/null 2>&1 &&
		bad "check --dir frozen mid-run: left after the thaw: $(ls "$T"/frz/mgtrace-check.*)" ||
		ok "check --dir frozen mid-run: the cleaner removed the directory"
	umount "$T/frz"
else
	umount "$T/frz" 2> /dev/null
	skip "check -- COMMAND on a frozen filesystem" "cannot make or mount an ext4 image"
fi
# Ctrl-C at a terminal reaches COMMAND from the terminal itself (the foreground process group):
# mgtrace does not send it a second one (a COMMAND that exits 0 on the first SIGINT and 9 on a
# second within 0.5 s must exit 0: INCONCLUSIVE, not a COMMAND failure)
two="import signal, sys, time
n = [0]
def h(s, f):
    n[0] += 1
    if n[0] > 1:
        sys.exit(9)
signal.signal(signal.SIGINT, h)
t = time.time()
while not n[0] and time.time() - t < 20:
    time.sleep(0.05)
time.sleep(0.5)"
python3 tests/ttysig.py 1.5 "$T/tty.out" $MG check --json -o "$T/tty.json" -- python3 -c "$two"; rc=$?
python3 tests/checkjson.py command-end "$T/tty.json" INCONCLUSIVE null "exited [0-9.]+ s later with status 0" \
	> "$T/tty.chk" 2>&1; tally "check -- COMMAND, Ctrl-C at its terminal: one SIGINT reaches COMMAND (exit $rc)" "$T/tty.chk"
# COMMAND's whole tree ends (run_child.c: COMMAND in a process group of its own, which the
# signals passed on and the SIGKILL go to). gone_after NAME PATTERN MS: no process matching
# PATTERN is left, and mgtrace ended within MS ms of t0 (rc, t0 in ms set by the caller)
ms() { echo $(($(date +%s%N) / 1000000)); }
gone_after() {
	local left t=$(($(ms) - t0))
	sleep 0.3; left=$(pgrep -fa "$2")
	if [ -z "$left" ] && [ $t -le $3 ] && [ $rc = 4 ]; then
		ok "$1: exit 4 after $t ms (at most $3), nothing of COMMAND's tree left"
	else
		bad "$1: exit $rc (want 4) after $t ms (at most $3); left: ${left:-none}"
		pkill -KILL -f "$2"
	fi
}
# a shell's child (the grandchild) gets the signal too, both ways a script sends it: to
# mgtrace alone at the default dispositions (within 1.5 s + 2 s of the start, not the
# child's 7.31 s), and `kill -INT $!` of a background job (started with SIGINT ignored,
# which COMMAND must not inherit; within 2 s of the signal)
for how in sig_run bg; do
	if [ $how = sig_run ]; then
		t0=$(ms)
		sig_run INT 1.5 "$T/gc.out" "$T/gc.err" $MG check --json -o "$T/gc.json" -- \
			sh -c 'sleep 7.31; echo after'; rc=$?
		gone_after "check -- sh -c 'sleep; echo', SIGINT to mgtrace ($how)" "^sleep 7.31" 3500
	else
		$MG check --json -o "$T/gc.json" -- sh -c 'sleep 7.31; echo after' > "$T/gc.out" 2> "$T/gc.err" & p=$!
		sleep 1.5; kill -INT $p; t0=$(ms); wait $p; rc=$?
		gone_after "check -- sh -c 'sleep; echo', SIGINT to mgtrace ($how)" "^sleep 7.31" 2000
	fi
	grep -q after "$T/gc.out" && bad "check -- sh -c 'sleep; echo' ($how): the shell went on after the signal" \
		|| ok "check -- sh -c 'sleep; echo' ($how): the shell did not go on after the signal"
done
# stat shares it: SIGTERM ends the shell's child too (stat exits with COMMAND's 143)
$MG stat -o "$T/gs.txt" -- sh -c 'sleep 7.32; echo after' > "$T/gs.out" 2>&1 & p=$!
sleep 1; kill -TERM $p; t0=$(ms); wait $p; rc=$?; [ $rc = 143 ] && rc=4
gone_after "stat -- sh -c 'sleep; echo', SIGTERM (status 143)" "^sleep 7.32" 2000
# a shell that ignores the stop signals, and so its child: the second signal's SIGKILL goes to
# the whole group, and nothing is left running (was: the child, reparented to init)
$MG check --json -o "$T/gt.json" -- sh -c 'trap "" INT TERM HUP; sleep 7.33' > /dev/null 2> "$T/gt.err" & p=$!
sleep 1.5; kill -INT $p; sleep 0.5; kill -INT $p; t0=$(ms); wait $p; rc=$?
gone_after "check -- a shell ignoring INT TERM HUP, two SIGINTs" "^sleep 7.33" 1000
# nohup: SIGHUP ignored at start stays ignored (a closed terminal must not end the run
# its user wanted to survive it), in mgtrace and in COMMAND; without nohup it stops the run
# (section 1 and above); a continuous check with -o FILE still reopens FILE on it
sh -c "trap '' HUP; exec $MG check --json -o '$T/nh.json' -- sleep 2.5" > "$T/nh.out" 2>&1 & p=$!
sleep 1.2
kill -HUP $p
wait $p; rc=$?
if [ $rc = 0 ] && python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))
sys.exit(not (o["interrupted"] is None and o["verdict"] == "PASS"))' "$T/nh.json" 2> /dev/null; then
	ok "check under nohup (SIGHUP ignored at start), SIGHUP at 1.2 s: ran to its end, PASS"
else
	bad "check under nohup, SIGHUP at 1.2 s: exit $rc (want 0), $(head -c 300 "$T/nh.json")"
fi
sh -c "trap '' HUP; exec $MG check --json -I 300 -o '$T/nr.json'" > /dev/null 2>&1 & p=$!
sleep 1.1; mv "$T/nr.json" "$T/nr.old"; kill -HUP $p; sleep 1.1; kill -INT $p
wait $p; rc=$?
if [ $rc = 0 ] && grep -q '"type":"check_interval"' "$T/nr.old" 2> /dev/null &&
   grep -q '"type":"check"' "$T/nr.json" 2> /dev/null; then
	ok "check -I 300 -o FILE under nohup: SIGHUP reopened FILE (logrotate), SIGINT ended it, PASS"
else
	bad "check -I 300 -o FILE under nohup, rename + SIGHUP + SIGINT: exit $rc, new file $(wc -c < "$T/nr.json" 2>/dev/null) bytes"
fi
expect "check and signals: nothing left attached" test "$(left_attached)" = 0
# COMMAND reading /dev/tty while stdin is not a terminal, mgtrace the foreground job of its
# controlling terminal (script(1)'s pty): COMMAND stays in mgtrace's process group and reads
# what is typed; in a group of its own it was a background job, stopped by SIGTTIN, and the
# run hung (a tester's finding: ssh or sudo asking for a password)
if command -v script > /dev/null; then
	out=$( (sleep 3; echo hello; sleep 3) | timeout 30 script -qec \
		"$MG check -- sh -c 'read x < /dev/tty; echo got:\$x' < /dev/null" /dev/null 2>&1); rc=$?
	case "$out" in
	*got:hello*"verdict: PASS"*) ok "check -- COMMAND reading /dev/tty on a terminal: it read the line, PASS" ;;
	*) bad "check -- COMMAND reading /dev/tty on a terminal: exit $rc (124: hung): $(echo "$out" | tail -3)" ;;
	esac
else
	skip "check -- COMMAND reading /dev/tty" "no script(1)"
fi
