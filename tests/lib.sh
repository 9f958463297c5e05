# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers shared by tests/host.d/*.sh; sourced by run-host-tests.sh, which sets
# $MG (the mgtrace binary), $T (a scratch directory) and the counters pass and fail.

ok()   { pass=$((pass + 1)); echo "PASS $*"; }
# skip NAME REASON: a test this host cannot run, said so (never counted as a pass)
skip() { skipped=$((skipped + 1)); echo "SKIP $1: $2"; }
# tracepoint_host NAME: true where only tracepoints attach here (lockdown, no kprobes), as the
# tests marked with it assume; elsewhere the test is skipped with the reason
tracepoint_host() {
	[ "$HOST_BACKEND" = tracepoint ] && return 0
	skip "$1" "assumes a host where only tracepoints attach; auto backend here is $HOST_BACKEND"
	return 1
}
# bad NAME: a failed test; also listed again at the end of the run (CI keeps only the tail)
bad()  {
	fail=$((fail + 1)); echo "FAIL $*"
	[ -z "${FAILED_LIST:-}" ] || { printf '  [%s] FAIL %s' "${PART:-?}" "$*" | tr '\n' ' ' |
		cut -c1-300; echo; } >> "$FAILED_LIST"
}
# expect NAME CMD...: pass when CMD succeeds
expect() { local n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }
# count lines "PASS"/"FAIL" printed by a sub-checker into pass/fail
tally() {
	local n=$1 f=$2
	pass=$((pass + $(grep -c '^PASS ' "$f")))
	fail=$((fail + $(grep -c '^FAIL ' "$f")))
	skipped=$((skipped + $(grep -c '^SKIP ' "$f")))
	# the prefix as data, never in a sed script: a NAME with '/' (a path) broke "s/^/.../"
	# and lost the FAIL lines (CI printed "unknown option to `s'")
	grep '^FAIL ' "$f" | while IFS= read -r l; do printf '  [%s] %s\n' "$n" "$l"; done
	[ -z "${FAILED_LIST:-}" ] || grep '^FAIL ' "$f" |
		while IFS= read -r l; do printf '  [%s: %s] %s\n' "${PART:-?}" "$n" "$l"; done |
		cut -c1-300 >> "$FAILED_LIST"
	# a checker that crashed, or checked nothing, must not pass silently
	if grep -q '^Traceback' "$f" || ! grep -q -e '^PASS ' -e '^FAIL ' "$f"; then
		bad "$n: the checker printed no result: $(tail -3 "$f")"
	fi
}

# The tests own what they check (docs/tests.md, "What a test leaves behind"): the test's
# processes are this shell and its descendants, and any process that carries this run's
# MGTRACE_TEST_OWNER (one that left the tree: setsid, a double fork); another run's or an
# exporter's processes are neither, whatever their name.
MGTRACE_TEST_ROOT=$$ MGTRACE_TEST_OWNER=$$.$(date +%s%N)
export MGTRACE_TEST_ROOT MGTRACE_TEST_OWNER
BPF_MARK=${BPF_MARK:-$T/bpf-mark.json}

# bpf_list: bpftool's programs, links and maps, one JSON array per line
bpf_list() { { bpftool -j prog show; echo; bpftool -j link show; echo; bpftool -j map show; } 2>/dev/null; }

# bpf_mark: the program, link and map ids that exist now, kept in $BPF_MARK; what a test
# makes is what is new since (run-host-tests.sh marks before each part)
bpf_mark() { bpf_list | python3 tests/checkjson.py bpf-mark > "$BPF_MARK"; }
bpf_mark

# our_bpf: the programs the test's own processes hold now (a run of the test attached)
our_bpf() { bpf_list | python3 tests/checkjson.py bpf-test --count --progs; }

# leaked_bpf: how many programs, links and maps new since the mark the test's processes
# still hold (a run of the test's that is still going, or a child holding its fds); what
# other processes made meanwhile does not count. leaked_words: which ("prog:ID:NAME" ...).
leaked_bpf() { bpf_list | python3 tests/checkjson.py bpf-test --mark "$BPF_MARK" --count; }
leaked_words() { bpf_list | python3 tests/checkjson.py bpf-test --mark "$BPF_MARK"; }

# left_attached: leaked_bpf once the kernel has freed what was released. A program is
# freed after an RCU grace period (deferred work), so one just closed can be listed for a
# moment; wait up to 3 s for the count to reach 0.
left_attached() {
	local i n
	for i in $(seq 30); do n=$(leaked_bpf); [ "$n" = 0 ] && break; sleep 0.1; done
	echo "$n"
}

# badcase NAME RC PATTERN CMD...: exit code RC, one stderr line matching PATTERN, nothing left behind
badcase() {
	local name=$1 want=$2 pat=$3 rc; shift 3
	"$@" > /dev/null 2> "$T/err"; rc=$?
	if [ $rc != "$want" ]; then bad "$name: exit $rc, want $want ($(head -c 300 "$T/err"))"; return; fi
	if ! grep -q -- "$pat" "$T/err"; then bad "$name: stderr lacks '$pat': $(cat "$T/err")"; return; fi
	if [ "$(grep -c '^mgtrace: ' "$T/err")" -lt 1 ] || [ "$(wc -l < "$T/err")" -gt 1 ]; then
		bad "$name: want exactly one 'mgtrace:' line, got: $(cat "$T/err")"; return; fi
	if [ "$(left_attached)" != 0 ]; then bad "$name: BPF objects left behind: $(leaked_words | cut -c1-300)"; return; fi
	ok "$name (exit $want: $(cat "$T/err"))"
}

# schema_valid NAME SCHEMA FILE: every JSON line of FILE is valid against
# docs/schema/SCHEMA.schema.json (tests/schemacheck.py; a field the schema lacks fails)
schema_valid() {
	python3 tests/schemacheck.py validate "$2" "$3" > "$T/$1.schema" 2>&1
	tally "$1-schema" "$T/$1.schema"
}

# forget_diff NAME DIR MG OBS [WRAP...]: check --forget (issue 29 part 2) against the observer
# outside mgtrace: check --tree --forget --max-inodes 2000 -- (6000 live files made, then
# appended to and stat()ed in turn in DIR-live; OBS -n 300 DIR once all 6000 exist, so that
# their creation alone began 6 generations and forgot the first), run as WRAP... (a namespace,
# another user), so that generations of the inode map begin and end while the observer works:
# forgetting the least recently seen inodes must lose none of its breaks and make none
# (tests/observer.py compare), at least 3 generations begun and some history forgotten. The
# report goes to DIR.json (DIR's parent is writable by WRAP's user); FORGET_WL names the
# workload script (default tests/check_workloads.py; a copy another user can read); FORGET_GRAN
# --gran-coarse where a ctime's granularity is whole seconds (ext4 -I 128: tests/observer.py).
forget_diff() {
	local name=$1 dir=$2 mg=$3 obs=$4 rc; shift 4
	local wl=${FORGET_WL:-tests/check_workloads.py}
	"$@" $mg check --json -o "$dir.json" --tree --forget --max-inodes 2000 -- sh -c \
		"python3 '$wl' live '$dir-live' 6000 50 8000 & p=\$!; i=0;
		 while [ ! -e '$dir-live/f5999' ] && [ \$i -lt 400 ]; do sleep 0.05; i=\$((i+1)); done;
		 '$obs' -n 300 '$dir'; s=\$?; kill \$p; wait \$p 2>/dev/null; exit \$s" \
		> "$T/$name.obs" 2> "$T/$name.err"; rc=$?
	python3 tests/observer.py compare "$dir.json" "$T/$name.obs" $rc ${FORGET_GRAN:-} \
		> "$T/$name.chk" 2>&1
	tally "$name" "$T/$name.chk"
	echo "#   $name: $(grep -m1 "check's violations" "$T/$name.chk" | sed 's/^[a-zA-Z]* *//')"
	python3 - "$dir.json" > "$T/$name-gen.chk" 2>&1 <<'PY'
import json, sys
try:
    f = json.load(open(sys.argv[1]))["judged"]["forget"]
except (OSError, ValueError, KeyError, TypeError) as e:
    sys.exit(print(f"FAIL no judged.forget in the report: {e}"))
if f is None:
    print("FAIL judged.forget is null: the run did not forget")
else:
    good = f["generations"] >= 3 and f["history_forgotten"] > 0
    print(("PASS " if good else "FAIL ") + f"generations began and ended under the observer: "
          f"{f['generations']} generations, {f['history_forgotten']} forgotten")
PY
	tally "$name-generations" "$T/$name-gen.chk"
	schema_valid "$name" check "$dir.json"
}

# stat around stress. No retry: background events (this machine updates a ctime about every
# 5 s) fall inside the debugfs bracket each row is judged against, so every row must match.
stat_run() { # NAME EXPECT_FS STRESS_ARGS...
	local name=$1 fs=$2; shift 2
	$MG stat --json -o "$T/$name.json" -- $MG stress --threads 2 --duration 1 "$@" \
		> "$T/$name.out" 2>&1 || { bad "$name: stat exits 0"; return; }
	python3 tests/checkjson.py stat "$T/$name.json" --expect-backend "$HOST_STAT_BACKEND" \
		--exact-kernel --kernel-percpu > "$T/$name.chk" 2>&1
	tally "$name" "$T/$name.chk"
	schema_valid "$name" stat "$T/$name.json"
	grep -q "($fs)" "$T/$name.out" && ok "$name: stress ran on $fs" \
		|| bad "$name: stress ran on $fs: $(cat "$T/$name.out")"
}

# check_case NAME WANT_RC CHECKJSON_ARGS -- CHECK_ARGS...: mgtrace check --json with CHECK_ARGS
# exits WANT_RC, and tests/checkjson.py check accepts its report with CHECKJSON_ARGS.
check_case() {
	local name=$1 want=$2 cargs=() rc; shift 2
	while [ "$1" != "--" ]; do cargs+=("$1"); shift; done; shift
	$MG check --json -o "$T/$name.json" "$@" > "$T/$name.out" 2> "$T/$name.err"; rc=$?
	[ $rc = "$want" ] && ok "$name: exit $rc" || bad "$name: exit $rc, want $want: $(tail -3 "$T/$name.err")"
	python3 tests/checkjson.py check "$T/$name.json" "${cargs[@]}" > "$T/$name.chk" 2>&1
	tally "$name" "$T/$name.chk"
	schema_valid "$name" check "$T/$name.json"
}

# sig_run [--group] SIG DELAY OUT ERR CMD...: run CMD (stdout to OUT, stderr to ERR) with
# SIGINT, SIGTERM and SIGHUP at their defaults, as from a terminal or a CI runner (a background
# job of this shell would start with SIGINT ignored), and send it SIG (INT, TERM, HUP) after
# DELAY s; --group: to its whole process group, as Ctrl-C or `timeout` do. Returns CMD's
# status as a shell reports it (128+N: killed by signal N). tests/sigrun.py
sig_run() { python3 tests/sigrun.py "$@"; }

# busy_width FILE: the widest debugfs bracket of any row in any object of a stat --json FILE
busy_width() { python3 tests/checkjson.py widest-bracket "$1"; }

# reader_gone NAME CMD...: CMD's standard output is a pipe whose reader leaves after the first
# byte (as `CMD | head -c 1`). CMD must end by itself at its next write (it is killed after
# 20 s otherwise): exit 5, no "writing" line on stderr (a reader that went away is not
# reported, as perf and git say nothing then), nothing left attached. Stderr: $T/rg.err.
reader_gone() {
	local name=$1 rc; shift
	{ timeout -s KILL 20 "$@" 2> "$T/rg.err"; echo $? > "$T/rg.rc"; } | head -c 1 > /dev/null
	rc=$(cat "$T/rg.rc")
	if [ "$rc" != 5 ]; then bad "$name: exit $rc, want 5 (137: still running 20 s after its reader left)"; return; fi
	if grep -q "writing '" "$T/rg.err"; then bad "$name: a line for a reader that went away: $(cat "$T/rg.err")"; return; fi
	if [ "$(left_attached)" != 0 ]; then bad "$name: BPF objects left behind"; return; fi
	ok "$name: ended at the first write after its reader left (exit 5, silent)"
}

# blocked_stop NAME SIG CMD...: CMD writes to $T/bs.fifo (its standard output, or -o with
# that path), a FIFO held open but never read, shrunk to one page and already full, so its
# first write blocks. Once CMD has attached (our programs loaded), SIG; CMD must then end
# within 5 s (else SIGKILL and a failure): exit 5, exactly one line saying the output was
# abandoned after SIG, nothing left attached. Stderr: $T/bs.err.
blocked_stop() {
	local name=$1 sig=$2 p rc i; shift 2
	rm -f "$T/bs.fifo"; mkfifo "$T/bs.fifo"
	exec 8<> "$T/bs.fifo"
	python3 -c 'import fcntl, os
fcntl.fcntl(8, 1031, 4096)	# F_SETPIPE_SZ: one page
os.set_blocking(8, False)
try:
    while True: os.write(8, b"x" * 512)
except BlockingIOError: pass'
	"$@" > "$T/bs.fifo" 2> "$T/bs.err" & p=$!
	for i in $(seq 100); do [ "$(our_bpf)" != 0 ] && break; sleep 0.1; done
	sleep 0.5
	kill -"$sig" $p
	for i in $(seq 50); do kill -0 $p 2> /dev/null || break; sleep 0.1; done
	if kill -0 $p 2> /dev/null; then	# with its COMMAND: an orphan would hold the FIFO
		kill -KILL $p $(cat /proc/$p/task/*/children 2> /dev/null); wait $p; exec 8>&-
		bad "$name: still running 5 s after SIG$sig with its output blocked (killed)"; return
	fi
	wait $p; rc=$?
	exec 8>&-
	if [ $rc != 5 ]; then bad "$name: exit $rc after SIG$sig, want 5: $(tail -c 300 "$T/bs.err")"; return; fi
	if [ "$(grep -c "^mgtrace: writing '.*': output blocked, abandoned 1000 ms after SIG$sig" "$T/bs.err")" != 1 ]; then
		bad "$name: want one line saying the output was abandoned: $(cat "$T/bs.err")"; return; fi
	if [ "$(left_attached)" != 0 ]; then bad "$name: BPF objects left behind"; return; fi
	ok "$name: SIG$sig ended it with its output blocked (exit 5: $(grep "^mgtrace: writing .* after SIG$sig" "$T/bs.err"))"
}

# unit_user_made UNIT SYSUSERS: true when UNIT's User= and Group= (not root) are what the
# sysusers.d file SYSUSERS creates in an empty root, this machine's users aside: the unit then
# starts on a host where no other package made its user. Prints the users made.
unit_user_made() {
	local u g r="$T/sysroot"
	u=$(sed -n 's/^User=//p' "$1"); g=$(sed -n 's/^Group=//p' "$1")
	rm -rf "$r"; mkdir -p "$r/etc"
	systemd-sysusers --root="$r" - < "$2" > /dev/null 2>&1
	cut -d: -f1 "$r/etc/passwd" 2> /dev/null | xargs
	[ -n "$u" ] && [ -n "$g" ] && [ "$u" != root ] && grep -q "^$u:" "$r/etc/passwd" 2> /dev/null &&
		grep -q "^$g:" "$r/etc/group" 2> /dev/null
}

# unit_user_check NAME UNIT: UNIT's User= and Group= are made by contrib/mgtrace.sysusers in an
# empty root; twin: the same unit with User=prometheus (no package of ours makes it) is reported
unit_user_check() {
	local name=$1 unit=$2 made
	if ! command -v systemd-sysusers > /dev/null; then
		skip "$name" "systemd-sysusers is not installed"
		return
	fi
	made=$(unit_user_made "$unit" contrib/mgtrace.sysusers) \
		&& ok "$name: $unit's User= and Group= are made by contrib/mgtrace.sysusers in an empty root ($made)" \
		|| bad "$name: $unit's User= is not made by contrib/mgtrace.sysusers (it makes: $made)"
	sed 's/^User=.*/User=prometheus/; s/^Group=.*/Group=prometheus/' "$unit" > "$T/$name-old.service"
	unit_user_made "$T/$name-old.service" contrib/mgtrace.sysusers > /dev/null \
		&& bad "$name twin: a unit with User=prometheus is taken for one whose user is made" \
		|| ok "$name twin: a unit with User=prometheus (no package of ours makes it) is reported"
}

# refused_alike NAME JUNIT HOST_JUNIT WRAPPER...: check -d 1 under WRAPPER (a command line
# that ends with mgtrace's path) prints one "mgtrace:" line and exits 3; every other mode
# (COMMAND, --tree, -p RA_PID (default this shell), -a, intervals) of every command prints
# exactly that line, exit 3, nothing left attached: the environment is checked before any
# BPF object loads (issue 43 part 3); and check --junit JUNIT (a path writable under
# WRAPPER; HOST_JUNIT the same file as this shell sees it) still writes that line's XML
refused_alike() {
	local name=$1 junit=$2 hjunit=$3 ref m rc; shift 3
	"$@" check -d 1 > /dev/null 2> "$T/ra-ref.err"; rc=$?
	ref=$(cat "$T/ra-ref.err")
	if [ $rc != 3 ] || [ "$(wc -l < "$T/ra-ref.err")" != 1 ] || [ "${ref#mgtrace: }" = "$ref" ]; then
		bad "$name: check -d 1: want one mgtrace: line, exit 3; exit $rc: $ref"; return; fi
	ok "$name: check -d 1: $ref"
	local p=${RA_PID:-$$}
	for m in "check -- true" "check --tree -- true" "check -a -- true" "check -i 1 -c 1 -- true" \
		"stat -- true" "stat --tree -- true" "stat -p $p -c 1" "stat -i 1 -c 1" "top -c 1 -- true" \
		"top -p $p -c 1" "top --tree -c 1 -- true" "trace -- true" "trace -p $p"; do
		"$@" $m > /dev/null 2> "$T/ra.err"; rc=$?
		if [ $rc = 3 ] && [ "$(cat "$T/ra.err")" = "$ref" ] && [ "$(left_attached)" = 0 ]; then
			ok "$name: $m: the same line, exit 3, nothing left attached"
		else
			bad "$name: $m: exit $rc, $(head -c 300 "$T/ra.err") (want: $ref), left $(left_attached)"
		fi
	done
	"$@" check --junit "$junit" -- true > /dev/null 2> "$T/ra.err"; rc=$?
	python3 - "$hjunit" "$ref" $rc > "$T/ra.chk" 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    e = ET.parse(sys.argv[1]).getroot().find("testcase/error")
except (OSError, ET.ParseError) as x:
    e = None; print(f"FAIL no JUnit file: {x}")
msg = e.get("message") if e is not None else None
ok = sys.argv[3] == "3" and msg is not None and "mgtrace: " + msg == sys.argv[2]
print(("PASS " if ok else "FAIL ") + f"check --junit -- COMMAND refused: exit {sys.argv[3]}, the XML's error: {msg!r}")
PY
	tally "$name-junit" "$T/ra.chk"
}
