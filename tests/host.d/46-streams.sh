# SPDX-License-Identifier: GPL-2.0
# 46-streams.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The streaming commands (trace, stat -i/-I, top) and their output (src/util/output.c): the run
# ends at the first failed write (a reader that went away, a full disk), detaches and exits
# 5; a signal ends it within a bounded time even when the output blocks, the events not
# written counted in the one line that says so.
echo "# streams: a closed pipe, a full disk, a blocked output"

# events to write: trace's lines come from them
$MG stress --threads 1 --duration 120 > /dev/null 2>&1 & stress_pid=$!

# a closed pipe (mgtrace ... | head): the run ends at the next write, silent, exit 5
reader_gone "trace -a | head" $MG trace -a
reader_gone "trace -a --json | head" $MG trace -a --json
reader_gone "stat -e all -i 0.2 | head" $MG stat -e all -i 0.2
reader_gone "stat -I 200 | head" $MG stat -I 200
reader_gone "top -i 0.3 | head" $MG top -i 0.3
# -v says it, in one line
{ timeout -s KILL 20 $MG trace -a -v 2> "$T/rg.err"; echo $? > "$T/rg.rc"; } | head -c 1 > /dev/null
[ "$(cat "$T/rg.rc")" = 5 ] && [ "$(grep -c "^mgtrace: writing 'standard output': the reader went away (Broken pipe); the run ended; [0-9]* events written, [1-9][0-9]* not written" "$T/rg.err")" = 1 ] \
	&& [ "$(grep -c "writing '" "$T/rg.err")" = 1 ] && [ "$(left_attached)" = 0 ] \
	&& ok "trace -a -v | head: exit 5, one line, with the events written and not written" \
	|| bad "trace -a -v | head: exit $(cat "$T/rg.rc"), stderr: $(grep -v libbpf "$T/rg.err" | tail -3)"

# a full disk: the run ends at the first failed write, one line naming the output and what
# was not written, exit 5
fullcase() { # NAME PATTERN CMD... (CMD writes to -o /dev/full)
	local name=$1 pat=$2 rc; shift 2
	timeout -s KILL 20 "$@" > /dev/null 2> "$T/full.err"; rc=$?
	if [ $rc = 5 ] && [ "$(grep -c "^mgtrace: writing '/dev/full': No space left on device; $pat" "$T/full.err")" = 1 ] &&
		[ "$(grep -c 'writing' "$T/full.err")" = 1 ] && [ "$(left_attached)" = 0 ]; then
		ok "$name -o /dev/full: the run ended, exit 5, one line ($(grep writing "$T/full.err"))"
	else
		bad "$name -o /dev/full: exit $rc (137: ran until killed), stderr: $(tail -c 300 "$T/full.err")"
	fi
}
fullcase "trace -a" "the run ended; 0 events written, [0-9]* not written, [0-9]* lost" \
	$MG trace -a -o /dev/full
fullcase "stat -e all -I 200" "the run ended at interval 1" $MG stat -e all -I 200 -o /dev/full
fullcase "top -i 0.3" "the run ended at table 1" $MG top -i 0.3 -o /dev/full
fullcase "stat -i 0.2 -- COMMAND" "the run ended at interval 1, COMMAND ended (SIGTERM)" \
	$MG stat -i 0.2 -o /dev/full -- sleep 30

# an output that blocks (a FIFO nobody reads): SIGINT, SIGTERM, SIGHUP end the run, what
# could not be written is abandoned 1 s after the signal and counted
blocked_stop "trace -a, blocked" TERM $MG trace -a
grep -q "the run ended; [0-9]* events written, [1-9][0-9]* not written" "$T/bs.err" \
	&& ok "trace -a, blocked: the events not written are counted" \
	|| bad "trace -a, blocked: no count of events not written: $(cat "$T/bs.err")"
blocked_stop "trace -a --json, blocked" INT $MG trace -a --json
blocked_stop "trace -o FIFO -- COMMAND, blocked" INT $MG trace -o "$T/bs.fifo" -- $MG stress --threads 1 --duration 30
blocked_stop "stat -e all -I 100, blocked" HUP $MG stat -e all -I 100
# the signal taken by the run first, the report at the end blocks: abandoned as well
blocked_stop "stat -e all, its report blocked" TERM $MG stat -e all
blocked_stop "top -i 0.2, blocked" TERM $MG top -i 0.2

kill $stress_pid 2> /dev/null; wait $stress_pid 2> /dev/null
