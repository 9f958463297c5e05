# SPDX-License-Identifier: GPL-2.0
# 45-output.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# Output that must parse and say what holds (issue 17): JSON around a COMMAND that writes to
# stdout, JUnit failures equal to the text's FAIL lines, the comparison a breached gate prints,
# no impossible derived value, one error line for a COMMAND or a --dir that cannot be used.
echo "# output: parseable, consistent, one error line"

# --json -- COMMAND: COMMAND's stdout stays its own, mgtrace's report (stderr, or -o) parses
NOISE='echo noise-on-stdout; echo more-noise'
for c in "stat summary" "trace trace_summary" "check check"; do
	set -- $c
	$MG "$1" --json -- sh -c "$NOISE" > "$T/j-$1.out" 2> "$T/j-$1.err"
	[ "$(cat "$T/j-$1.out")" = "$(printf 'noise-on-stdout\nmore-noise')" ] \
		&& python3 tests/checkjson.py json-lines "$T/j-$1.err" "$2" > /dev/null 2>&1 \
		&& ok "$1 --json -- COMMAND: COMMAND's stdout untouched, the report (stderr) is JSON lines" \
		|| bad "$1 --json -- COMMAND: stdout '$(head -c 200 "$T/j-$1.out")', report '$(head -c 300 "$T/j-$1.err")'"
	$MG "$1" --json -o "$T/j-$1.json" -- sh -c "$NOISE" > "$T/j-$1.out" 2> /dev/null
	python3 tests/checkjson.py json-lines "$T/j-$1.json" "$2" > /dev/null 2>&1 && grep -q noise-on-stdout "$T/j-$1.out" \
		&& ok "$1 --json -o FILE -- COMMAND: FILE is JSON lines" || bad "$1 --json -o FILE: $(head -c 300 "$T/j-$1.json")"
done

# JUnit: every FAIL line of the text is a <failure>, with expected against actual
$MG check --junit "$T/jf.xml" -o "$T/jf.txt" -- false > /dev/null 2>&1; rc=$?
[ $rc = 1 ] && ok "check -- false: exit 1" || bad "check -- false: exit $rc"
python3 tests/checkjson.py junit-text "$T/jf.xml" "$T/jf.txt" > "$T/c" 2>&1; tally "junit: check -- false" "$T/c"
grep -q 'expected exit status 0, got 1' "$T/jf.xml" && ok "JUnit: COMMAND failure gives expected and actual status" \
	|| bad "JUnit: COMMAND failure message: $(grep -o '<failure[^>]*>' "$T/jf.xml")"
$MG check --junit "$T/jg.xml" -o "$T/jg.txt" -d 0.5 --max-floor-swap-ratio 0.0001 > /dev/null 2>&1; rc=$?
[ $rc = 1 ] && ok "check with a breached gate: exit 1" || bad "check with a breached gate: exit $rc"
python3 tests/checkjson.py junit-text "$T/jg.xml" "$T/jg.txt" > "$T/c" 2>&1; tally "junit: a breached gate" "$T/c"
grep -q 'expected floor_swaps_per_update &lt;= 0.0001 (limit), got [0-9.e-]*' "$T/jg.xml" \
	&& ok "JUnit: the breached gate names the limit and the value" \
	|| bad "JUnit: gate message: $(grep -o '<failure[^>]*>' "$T/jg.xml")"
# the comparison printed is the one that holds: value > limit, never "<=" on a breach
grep -Eq '^FAIL +floor_swaps_per_update +[0-9.e-]+ > 0.0001 \(limit\)' "$T/jg.txt" \
	&& ! grep -q '^FAIL .*<= 0.0001' "$T/jg.txt" && ok "a breached gate prints 'value > limit'" \
	|| bad "breached gate text: $(grep floor_swaps_per_update "$T/jg.txt")"

# derived rows: never below 0, exact or marked approximate, under an outside stress
$MG stress --threads 2 --duration 4 > /dev/null 2>&1 & sp=$!
sleep 0.3
$MG stat --json -i 0.1 -c 20 -o "$T/der.json" > /dev/null 2>&1
wait $sp
python3 tests/checkjson.py counts-sane "$T/der.json" 20 > "$T/der.chk" 2>&1
tally derived-busy "$T/der.chk"

# -x: perf stat -x's line format, one counter per line ([TIME,][CPUn,]value,unit,event,
# run-time,pct,metric,metric-unit, then source,debugfs low,high,match,approximate), no field
# padded, an unmeasured value marked as perf stat -x marks it (<not counted> / <not supported>)
$MG stat -x , -A -i 0.5 -o "$T/xa.csv" -- $MG stress --duration 1.2 > /dev/null 2>&1
python3 tests/checkjson.py stat-csv-fields "$T/xa.csv" > "$T/xa.chk" 2>&1; tally "stat -x , -A -i" "$T/xa.chk"
grep -Eq '^[0-9]+\.[0-9]{9},CPU[0-9]+,<not supported>,,current_time,0,0\.00,' "$T/xa.csv" \
	&& grep -Eq '^[0-9]+\.[0-9]{9},CPU[0-9]+,<not counted>,,ctime_sets,0,0\.00,' "$T/xa.csv" \
	&& ok "stat -x: current_time without a function-probe backend <not supported>, ctime_sets not opted in <not counted>" \
	|| bad "stat -x markers: $(grep -E ',(current_time|ctime_sets),' "$T/xa.csv" | tail -2)"
$MG stat -x ';' --tree -A -o "$T/xt.csv" -- $MG stress --duration 0.3 > /dev/null 2>&1
python3 tests/checkjson.py stat-csv-fields "$T/xt.csv" ';' > "$T/xt.chk" 2>&1 \
	&& grep -q '^CPU0;<not supported>;;floor_swaps;0;0.00;' "$T/xt.csv" \
	&& ok "stat -x ';' --tree: plain fields, the global floor_swaps <not supported>" \
	|| bad "stat -x ';' --tree: $(grep FAIL "$T/xt.chk") $(grep -E 'floor_swaps' "$T/xt.csv" | head -2)"
# --rate: the interval lines and their debugfs range per second, the range holding the value;
# the summary in counts, as the text summary (a rate beside a range of counts said "within")
$MG stat -x , --rate -i 0.2 -d 0.5 -o "$T/xr.csv" -- $MG stress --duration 1 > /dev/null 2>&1
python3 tests/checkjson.py stat-csv-fields "$T/xr.csv" > "$T/xr.chk" 2>&1; tally "stat -x , --rate -i" "$T/xr.chk"
grep -Eq '^[0-9.]+,[0-9]+,/s,ctime_updates,' "$T/xr.csv" && ok "stat -x --rate: interval lines per second" \
	|| bad "stat -x --rate: no rate line: $(head -2 "$T/xr.csv")"
$MG stat -x , --rate -o "$T/xrs.csv" -- $MG stress --duration 0.3 > /dev/null 2>&1
python3 tests/checkjson.py stat-csv-fields "$T/xrs.csv" > "$T/xrs.chk" 2>&1; tally "stat -x , --rate (summary)" "$T/xrs.chk"
grep -Eq '^[0-9]+,,ctime_updates,' "$T/xrs.csv" && ok "stat -x --rate: the summary in counts" \
	|| bad "stat -x --rate summary: $(head -1 "$T/xrs.csv")"
# text: the per-CPU table under a --rate row says per second and sums to the row's rate
$MG stat --rate -A -i 0.2 -d 0.5 -o "$T/tr.txt" -- $MG stress --duration 1 > /dev/null 2>&1
python3 - "$T/tr.txt" > "$T/tr.chk" 2>&1 <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
ok = 0
for i, ln in enumerate(lines):
    if re.match(r"\d\d:\d\d:\d\d\.\d{3} ", ln) and i + 2 < len(lines) and lines[i + 1].startswith("per-CPU, per second"):
        row = int(ln.split()[1].lstrip("~"))
        cpus = [int(x) for x in lines[i + 2].split()[1:]]
        ok += abs(sum(cpus) - row) <= len(cpus)
print(("PASS" if ok >= 2 else "FAIL") + f" the rows' per-CPU rates sum to their ctime_updates rate ({ok} rows)")
PY
tally "stat --rate -A text: per-CPU rates" "$T/tr.chk"
# the summary without -I: one line a counter, as perf stat -x, the debugfs range and match
$MG stat -x , -o "$T/xs.csv" -- $MG stress --duration 0.3 > /dev/null 2>&1
python3 tests/checkjson.py stat-csv-fields "$T/xs.csv" > "$T/xs.chk" 2>&1; tally "stat -x , (summary)" "$T/xs.chk"
$MG stat -j -o "$T/xs.json" -- true > /dev/null 2>&1
[ "$(wc -l < "$T/xs.csv")" = "$(python3 -c 'import json,sys; print(len(json.loads(open(sys.argv[1]).read().splitlines()[-1])["counters"]))' "$T/xs.json")" ] \
	&& grep -Eq '^[0-9]+,,ctime_updates,[0-9]+,100\.00,,,kernel,[0-9]+,[0-9]+,(yes|within),$' "$T/xs.csv" \
	&& ok "stat -x summary: one line per counter, ctime_updates with its debugfs range and match" \
	|| bad "stat -x summary: $(head -3 "$T/xs.csv")"

# a COMMAND that cannot run: one line, exit 127, no report of zeros: the -o file says why
$MG stat -o "$T/nx.txt" -- /nonexistent/cmd > "$T/nx.out" 2> "$T/nx.err"; rc=$?
[ $rc = 127 ] && [ "$(wc -l < "$T/nx.err")" = 1 ] && [ ! -s "$T/nx.out" ] \
	&& [ "$(cat "$T/nx.txt")" = "mgtrace stat: error (exit 127): cannot run '/nonexistent/cmd': No such file or directory" ] \
	&& ok "stat -- /nonexistent: exit 127, one line ($(cat "$T/nx.err")), the -o file says why" \
	|| bad "stat -- /nonexistent: exit $rc, stderr '$(cat "$T/nx.err")', report '$(cat "$T/nx.txt")'"
$MG stat --json -- /nonexistent/cmd > /dev/null 2> "$T/nxj.err"; rc=$?
[ $rc = 127 ] && [ "$(wc -l < "$T/nxj.err")" = 1 ] && ok "stat --json -- /nonexistent: exit 127, one line" \
	|| bad "stat --json -- /nonexistent: exit $rc: $(cat "$T/nxj.err")"
[ "$(left_attached)" = 0 ] && ok "nothing left attached after the missing COMMAND" || bad "BPF objects left behind"

# a --dir or -o FILE the machine refuses is an environment error (3), a missing one usage (2)
mkdir -p "$T/ro"; chmod 755 "$T" "$T/ro"
badcase "stress: --dir permission denied" 3 "Permission denied" \
	setpriv --reuid=65534 --regid=65534 --clear-groups $MG stress --dir "$T/ro" -d 0.1
badcase "stress: -o permission denied" 3 "cannot open" \
	setpriv --reuid=65534 --regid=65534 --clear-groups $MG stress -o "$T/ro/x" -d 0.1
badcase "stat: -o in a missing directory" 2 "cannot open" $MG stat -o "$T/none/x" -- true
# ... and nothing on stdout instead: a script that sent its output to a file gets none there,
# text or JSON, with or without COMMAND (was: an error record on stdout)
for a in "check -d 1" "check --json -d 1" "stat --json -c 1 -I 100" "top -j -c 1"; do
	$MG $a -o "$T/none/r.txt" > "$T/ou.out" 2> "$T/ou.err"; rc=$?
	[ $rc = 2 ] && [ ! -s "$T/ou.out" ] && [ "$(wc -l < "$T/ou.err")" = 1 ] &&
		grep -q "^mgtrace: [a-z]*: cannot open '$T/none/r.txt': No such file or directory$" "$T/ou.err" &&
		[ ! -e "$T/none" ] \
		&& ok "$a -o in a missing directory: exit 2, one line on stderr, nothing on stdout" \
		|| bad "$a -o in a missing directory: exit $rc, stdout '$(head -c 200 "$T/ou.out")', stderr '$(cat "$T/ou.err")'"
done
# the error record of a COMMAND that cannot run: its reason is stderr's line, its errno the
# errno's name (was: "cannot run COMMAND ..." against stderr's "cannot run ...", errno null)
for c in /nonexistent/cmd:ENOENT /etc/passwd:EACCES; do
	for cmd in stat check; do
		$MG $cmd --json -o "$T/nxe.json" -- ${c%%:*} > /dev/null 2> "$T/nxe.err"
		python3 -c 'import json, sys
o = [json.loads(l) for l in open(sys.argv[1])]
err = open(sys.argv[2]).read().splitlines()
sys.exit(not (len(o) == 1 and len(err) == 1 and "mgtrace: " + o[0]["reason"] == err[0]
              and o[0]["errno"] == sys.argv[3]))' "$T/nxe.json" "$T/nxe.err" ${c#*:} \
			&& ok "$cmd --json -- ${c%%:*}: the record's reason is stderr's line, errno ${c#*:}" \
			|| bad "$cmd --json -- ${c%%:*}: stderr '$(cat "$T/nxe.err")', record $(cat "$T/nxe.json")"
	done
done
# every output option in a read-only filesystem (a tmpfs mounted ro): refused, 3 (README "Exit codes")
mkdir -p "$T/rofs"
if mount -t tmpfs -o ro,size=64k mgtrace-test-ro "$T/rofs"; then
	R="$T/rofs"
	badcase "stat -o read-only" 3 "Read-only" $MG stat -o "$R/x" -- true
	badcase "stat --prometheus read-only" 3 "Read-only" $MG stat --prometheus "$R/m.prom" -- true
	badcase "trace -o read-only" 3 "Read-only" $MG trace -o "$R/x" -- true
	badcase "top -o read-only" 3 "Read-only" $MG top -o "$R/x" -- true
	badcase "probe -o read-only" 3 "Read-only" $MG probe -o "$R/x"
	badcase "check -o read-only" 3 "Read-only" $MG check -o "$R/x" -d 0.1
	badcase "check --junit read-only" 3 "Read-only" $MG check --junit "$R/x" -d 0.1
	badcase "check -D read-only" 3 "Read-only" $MG check -D "$R" -d 0.1
	badcase "stress -o read-only" 3 "Read-only" $MG stress -o "$R/x" -d 0.1
	badcase "stress -D read-only" 3 "Read-only" $MG stress -D "$R" -d 0.1
	umount "$T/rofs"
else
	bad "cannot mount a read-only tmpfs for the output tests"
fi
badcase "stat --prometheus in a missing directory" 2 "does not exist" \
	$MG stat --prometheus "$T/none/m.prom" -- true

MGABS_OUT=$(readlink -f "$MG")
# -o - is standard output, as for most tools: no file named '-' is made
(cd "$T" && "$MGABS_OUT" probe -j -o - > "$T/dash.out" 2> /dev/null)
[ ! -e "$T/-" ] && head -c 1 "$T/dash.out" | grep -q '{' && ok "-o -: standard output, no file named '-'" \
	|| bad "-o -: $(ls -la "$T/-" 2>&1 | head -1), stdout $(head -c 80 "$T/dash.out")"
# with a COMMAND too: the results go to standard output (its default there is standard error,
# as perf's; the twin, without -o, keeps them there)
for c in stat trace check; do
	$MG $c -j -o - -- true > "$T/dash-c.out" 2> "$T/dash-c.err"
	$MG $c -j -- true > "$T/dash-d.out" 2> "$T/dash-d.err"
	if grep -q '"type":"\(summary\|trace_summary\|check\)"' "$T/dash-c.out" && ! grep -q '"type":' "$T/dash-c.err" &&
		[ ! -s "$T/dash-d.out" ] && grep -q '"type":' "$T/dash-d.err"; then
		ok "$c -o - -- COMMAND: the results on standard output (without -o: on standard error)"
	else
		bad "$c -o - -- COMMAND: stdout $(head -c 100 "$T/dash-c.out"), stderr $(grep -c '"type":' "$T/dash-c.err") JSON lines; without -o: stdout $(head -c 100 "$T/dash-d.out")"
	fi
done

# stdout or stderr closed at start (mgtrace ... >&-): exit 5 at once, one line, nothing left
# attached; a descriptor opened later (the signalfd) never takes their place and receives
# the results (it did, and the run then waited on it forever)
for c in version probe "stress -d 0.2" "check -d 0.2"; do
	timeout 60 $MG $c >&- 2> "$T/closed.err"; rc=$?
	[ "$rc" = 5 ] && [ "$(wc -l < "$T/closed.err")" -ge 1 ] &&
		grep -q "writing 'standard output': Bad file descriptor" "$T/closed.err" &&
		[ "$(left_attached)" = 0 ] && ok "$c >&-: exit 5, $(tail -1 "$T/closed.err")" ||
		bad "$c >&-: exit $rc (want 5, 124: it hung), $(head -c 300 "$T/closed.err")"
done
timeout 60 $MG trace -- true 2>&-; rc=$?
[ "$rc" = 5 ] && [ "$(left_attached)" = 0 ] && ok "trace -- true 2>&- (its stream is stderr): exit 5" ||
	bad "trace -- true 2>&-: exit $rc (want 5; 124: it hung with its link attached)"
# a JSON error record whose reason holds a path that is not UTF-8: valid JSON, the byte as \xff
$MG check --json -o "$T/badutf.json" -D "$T/x$(printf '\377')" -d 0.2 > /dev/null 2>&1
python3 - "$T/badutf.json" > "$T/badutf.chk" 2>&1 <<'PY'
import json, sys
try:
    r = json.loads(open(sys.argv[1], encoding="utf-8").readline())
    print(("PASS " if r["type"] == "error" and "\\xff" in r["reason"] else "FAIL ")
          + f"error record with a non-UTF-8 path: {r['reason']!r}")
except Exception as e:
    print(f"FAIL error record with a non-UTF-8 path: not JSON text: {e}")
PY
tally "error record, non-UTF-8 path" "$T/badutf.chk"
schema_valid badutf error "$T/badutf.json"
# an empty path for a directory option, or a --prometheus that names no file: refused at the
# start (stress -D '' worked in /; --prometheus '' and 'nodir/' failed only after the run)
badcase "stress -D ''" 2 "an empty path for -D" $MG stress -D '' -d 0.1
badcase "check --dir=" 2 "an empty path for --dir" $MG check --dir= -d 0.1
badcase "stat --prometheus ''" 2 "an empty path" $MG stat -c 1 -i 0.2 --prometheus ''
badcase "check --prometheus nodir/" 2 "ends in '/'" $MG check -i 1 --prometheus "$T/nodir/"
