# SPDX-License-Identifier: GPL-2.0
# 15-harness.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The tests own what they check: "nothing left attached" counts the BPF programs, links and
# maps made since the part began that the test's own processes still hold (lib.sh,
# docs/tests.md), so another run on the machine (another engineer's, an exporter) does not
# fail every case. Its twins: an mgtrace of the test's own left running (trace -a, named
# mgtrace like the others) is counted, and so is one that left the test's process tree.
echo "# harness"
# wait_ours: until the test's processes hold programs (up to 5 s)
wait_ours() { local i; for i in $(seq 50); do [ "$(our_bpf)" != 0 ] && break; sleep 0.1; done; }
# held_progs PID: how many programs PID's fds hold (its fdinfo)
held_progs() { cat /proc/"$1"/fdinfo/* 2> /dev/null | grep -c '^prog_id:'; }

# another run: an mgtrace outside the test's tree and without its MGTRACE_TEST_OWNER,
# started during the part, so its ids are new since the mark
env -u MGTRACE_TEST_OWNER -u MGTRACE_TEST_ROOT setsid sh -c \
	'"$1" stat -e all -i 30 > /dev/null 2>&1 & echo $! > "$2"' sh "$MG" "$T/other.pid"
op=$(cat "$T/other.pid")
for i in $(seq 50); do [ "$(held_progs "$op")" != 0 ] && break; sleep 0.1; done
n_other=$(held_progs "$op"); n_left=$(left_attached)
kill "$op"
[ "$n_other" -gt 0 ] && [ "$n_left" = 0 ] \
	&& ok "another run's $n_other programs (pid $op, outside the test, started during it) are not counted" \
	|| bad "another run's programs: pid $op holds $n_other, $n_left counted as the test's: $(leaked_words | cut -c1-300)"

# twin: the test's own mgtrace left running, named mgtrace like the other run's
$MG trace -a > /dev/null 2>&1 &
hp=$!
wait_ours
n_left=$(leaked_bpf); w=$(leaked_words)
kill $hp; wait $hp 2> /dev/null
echo "# held by the test's trace -a: $(echo "$w" | cut -c1-300)"
[ "$n_left" -gt 0 ] && echo "$w" | grep -q 'prog:' && echo "$w" | grep -q 'link:' && echo "$w" | grep -q 'map:' \
	&& ok "twin: a trace -a of the test's own still running (pid $hp) holds $n_left new objects: counted, programs, links and maps" \
	|| bad "twin: the test's running trace -a was not counted ($n_left: $(echo "$w" | cut -c1-300))"

# twin: the test's mgtrace that left its process tree (setsid, its parent gone): still the
# test's by MGTRACE_TEST_OWNER
setsid sh -c '"$1" stat -e all -i 30 > /dev/null 2>&1 & echo $! > "$2"' sh "$MG" "$T/esc.pid"
ep=$(cat "$T/esc.pid"); wait_ours
ppid=$(awk '{print $4}' "/proc/$ep/stat" 2> /dev/null)
n_left=$(leaked_bpf)
kill "$ep"
[ "$n_left" -gt 0 ] && ok "twin: the test's mgtrace outside its tree (pid $ep, parent $ppid) holds $n_left new objects: counted" \
	|| bad "twin: the test's mgtrace that left its tree (pid $ep, parent $ppid) was not counted"

for i in $(seq 50); do kill -0 "$op" 2> /dev/null || kill -0 "$ep" 2> /dev/null || break; sleep 0.1; done
[ "$(left_attached)" = 0 ] && ok "harness: nothing left attached" || bad "harness: BPF objects left behind: $(leaked_words | cut -c1-300)"
