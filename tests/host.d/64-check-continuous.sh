# SPDX-License-Identifier: GPL-2.0
# 64-check-continuous.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# continuous check (issue 29 part 1): check -i/-I [-c N] watches the whole machine with no
# workload of its own, one check_interval object per interval before the report:
# - 3 intervals with a violation injected at the start of the second
#   (MGTRACE_TEST_INJECT_INTERVAL): PASS, FAIL, PASS; running PASS, FAIL, FAIL; exit 1;
#   the intervals' counts sum to the report's (they partition the window);
# - a stop signal mid-interval ends it cleanly: PASS, exit 0, not interrupted, a last interval;
# - with COMMAND: intervals until COMMAND ends;
# - built-in workload options and --baseline with -i are refused (exit 2, one line).
# The checker (tests/checkjson.py check-intervals) fails on doctored copies (its selftest).
echo "# continuous check"
MGTRACE_TEST_INJECT=1 MGTRACE_TEST_INJECT_INTERVAL=2 $MG check --json -c 3 -i 0.5 \
	-o "$T/cc1.json" > /dev/null 2> "$T/cc1.err"; rc=$?
python3 tests/checkjson.py check-intervals "$T/cc1.json" $rc 3 PASS,FAIL,PASS FAIL > "$T/cc1.chk" 2>&1
tally "check -c 3 -i 0.5, injected in interval 2" "$T/cc1.chk"
$MG check --json -i 1 -o "$T/cc2.json" > /dev/null 2> "$T/cc2.err" & p=$!
sleep 2.5; kill -INT $p; wait $p; rc=$?
n=$(grep -c '"type":"check_interval"' "$T/cc2.json")
python3 tests/checkjson.py check-intervals "$T/cc2.json" $rc "$n" any PASS > "$T/cc2.chk" 2>&1
tally "check -i 1 stopped by SIGINT after 2.5 s ($n intervals)" "$T/cc2.chk"
[ "$n" -ge 2 ] && [ "$n" -le 4 ] && ok "check -i 1, SIGINT after 2.5 s: $n intervals" ||
	bad "check -i 1, SIGINT after 2.5 s: $n intervals (want 2 to 4): $(cat "$T/cc2.err")"
$MG check --json -I 300 -o "$T/cc3.json" -- sleep 1.2 > /dev/null 2> "$T/cc3.err"; rc=$?
n=$(grep -c '"type":"check_interval"' "$T/cc3.json")
python3 tests/checkjson.py check-intervals "$T/cc3.json" $rc "$n" any PASS > "$T/cc3.chk" 2>&1
tally "check -I 300 -- sleep 1.2 ($n intervals)" "$T/cc3.chk"
[ "$n" -ge 3 ] && ok "check -I 300 -- sleep 1.2: intervals until COMMAND ended ($n)" ||
	bad "check -I 300 -- sleep 1.2: $n intervals"
badcase "check -i with -d" 2 "-d is the built-in workload's" $MG check -i 1 -d 2
badcase "check -i with --baseline" 2 "not with -i/-I" $MG check -i 1 --baseline /etc/hostname
