# SPDX-License-Identifier: GPL-2.0
# 52-timens.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# A time namespace (issue 43): inside `unshare --time --monotonic 100000 --boottime 100000`
# user space's CLOCK_MONOTONIC is the host's + 100000 s, BPF's bpf_ktime_get_ns() the host's.
# trace's times (JSON and text) must be the host's realtime and agree with the ctime an event
# carries; check must PASS with no clock step from the namespace's offset, and a real clock
# step inside the namespace must still explain the regressions it causes. On main before the
# fix trace printed every time 99,999.5 s early; check was not affected (its judging and its
# clock watch compare user-space times with each other, and BPF's clock steps are TAI's).
echo "# time namespace"
TN="unshare --time --fork --monotonic 100000 --boottime 100000"
MG0=$MG
if ! $TN sh -c 'read a b c < /proc/self/timens_offsets; [ "$a $b" = "monotonic 100000" ]' 2>/dev/null; then
	skip "timens" "no time namespace here: $($TN true 2>&1 | head -1)"
	return 0 2>/dev/null || exit 0
fi
# the namespace really is 100000 s ahead: /proc/uptime inside and out
up_in=$($TN cut -d' ' -f1 /proc/uptime); up_out=$(cut -d' ' -f1 /proc/uptime)
python3 -c "import sys; sys.exit(not 99990 < $up_in - $up_out < 100010)" \
	&& ok "timens: the namespace's uptime is 100000 s ahead ($up_in vs $up_out)" \
	|| bad "timens: the namespace's uptime is not 100000 s ahead ($up_in vs $up_out)"

# trace --json, then text, of a known sequence (2 ctime swaps) in the namespace
F=$T/timens-f; echo a > "$F"
t0=$(date +%s.%N)
$TN $MG trace --json -o "$T/tn-trace.json" --path "$F" -- python3 tests/trace_workload.py seq "$F" \
	> /dev/null 2> "$T/tn-trace.err" || bad "timens: trace --json exits 0: $(tail -2 "$T/tn-trace.err")"
$TN $MG trace -o "$T/tn-trace.txt" --path "$F" -- python3 tests/trace_workload.py seq "$F" \
	> /dev/null 2> "$T/tn-trace.err" || bad "timens: trace exits 0: $(tail -2 "$T/tn-trace.err")"
t1=$(date +%s.%N)
python3 tests/checkjson.py trace-times "$T/tn-trace.json" "$t0" "$t1" --text "$T/tn-trace.txt" \
	> "$T/tn-trace.chk" 2>&1
tally timens-trace "$T/tn-trace.chk"
grep -q "host's monotonic clock is unknown" "$T/tn-trace.err" \
	&& bad "timens: trace says the host's clock is unknown: $(cat "$T/tn-trace.err")" \
	|| ok "timens: trace knows the host's clock (no note)"

# an offsets file that does not parse (a regular file bound over it): one line says so
printf 'garbage\n' > "$T/tn-bad"
unshare -m --propagation private sh -c 'mount --bind "$1" /proc/$$/timens_offsets && exec "$2" trace \
	--path "$3" -- true' sh "$T/tn-bad" "$MG" "$F" > /dev/null 2> "$T/tn-bad.err"
[ "$(grep -c "host's monotonic clock is unknown (/proc/self/timens_offsets: line 1: not" "$T/tn-bad.err")" = 1 ] \
	&& ok "timens: an offsets file that does not parse is named, in one line" \
	|| bad "timens: an offsets file that does not parse: $(head -2 "$T/tn-bad.err")"

# check -d 2 in the namespace: PASS, and the namespace's offset is no clock step
MG="$TN $MG0"
check_case tn-check 0 --verdict PASS -- -d 2
python3 - "$T/tn-check.json" > "$T/tn-steps.chk" 2>&1 <<'EOF'
import json, sys
r = [o for o in map(json.loads, open(sys.argv[1])) if o.get("type") == "check"]
inv = r[0]["invariants"] if r else {}
n = (inv.get("clock_steps"), inv.get("clock_steps_bpf"))
print(("PASS" if n == (0, 0) else "FAIL") + f" timens: check -d 2: 0 clock steps (user, BPF: {n})")
EOF
tally timens-check-steps "$T/tn-steps.chk"

# a real step in the namespace (CLOCK_REALTIME 1 s back, 62-check-real's 6b) still explains
# the regressions it causes (BPF judges; its steps are TAI - MONOTONIC, the host's)
mkdir -p "$T/tn"
if mount -t tmpfs mgtrace-timens "$T/tn"; then
	touch "$T/tn/g" "$T/tn/h"
	check_case tn-stepback 0 --verdict PASS --command --judged bpf -- \
		-- taskset -c 0 python3 tests/check_workloads.py stepback "$T/tn/g" "$T/tn/h" 1
	python3 tests/checkjson.py step-explained "$T/tn-stepback.json" > "$T/tn-stepback.chk" 2>&1
	tally timens-stepback "$T/tn-stepback.chk"
	umount "$T/tn"
else
	bad "timens: cannot mount a tmpfs for the clock step"
fi
MG=$MG0
[ "$(left_attached)" = 0 ] && ok "timens: nothing left attached" || bad "timens: BPF objects left behind"
