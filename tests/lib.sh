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
bad()  { fail=$((fail + 1)); echo "FAIL $*"; }
# expect NAME CMD...: pass when CMD succeeds
expect() { local n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }
# count lines "ok"/"FAIL" printed by a sub-checker into pass/fail
tally() {
	local n=$1 f=$2
	pass=$((pass + $(grep -c '^ok ' "$f")))
	fail=$((fail + $(grep -c '^FAIL ' "$f")))
	grep '^FAIL ' "$f" | sed "s/^/  [$n] /"
	# a checker that crashed, or checked nothing, must not pass silently
	if grep -q '^Traceback' "$f" || ! grep -q -e '^ok ' -e '^FAIL ' "$f"; then
		bad "$n: the checker printed no result: $(tail -3 "$f")"
	fi
}

# Our BPF programs and links, as bpftool lists them (names are cut at 15 characters).
our_bpf() {
	{ bpftool -j prog show; echo; bpftool -j link show; } 2>/dev/null |
		python3 tests/checkjson.py bpf-ours --count
}

# left_attached: our BPF objects still loaded once the kernel has freed what was released.
# A program is freed after an RCU grace period (deferred work), so one just closed can be
# listed for a moment; wait up to 3 s for the count to reach 0, then print it.
left_attached() {
	local i n
	for i in $(seq 30); do n=$(our_bpf); [ "$n" = 0 ] && break; sleep 0.1; done
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
	if [ "$(left_attached)" != 0 ]; then bad "$name: BPF objects left behind"; return; fi
	ok "$name (exit $want: $(cat "$T/err"))"
}

# schema_valid NAME SCHEMA FILE: every JSON line of FILE is valid against
# docs/schema/SCHEMA.schema.json (tests/schemacheck.py; a field the schema lacks fails)
schema_valid() {
	python3 tests/schemacheck.py validate "$2" "$3" > "$T/$1.schema" 2>&1
	tally "$1-schema" "$T/$1.schema"
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
