# SPDX-License-Identifier: GPL-2.0
# 90-bad-input.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
echo "# bad input"
badcase "unknown command" 2 "unknown command" $MG frobnicate
badcase "unknown option" 2 "unrecognized option" $MG stat --frob
badcase "negative interval" 2 "invalid interval" $MG stat -i -1
badcase "zero interval" 2 "invalid interval" $MG stat -i 0
badcase "interval junk" 2 "invalid interval" $MG stat -i 1x
badcase "interval overflow" 2 "invalid interval" $MG stat -i 1e999
badcase "zero count" 2 "invalid count" $MG stat -c 0
badcase "count overflow" 2 "invalid count" $MG stat -c 99999999999999999999999
badcase "unknown backend" 2 "invalid backend .bogus." $MG stat --backend bogus
badcase "--hot with tracepoints" 2 "needs a function-probe backend" $MG stat --hot --backend tracepoint
badcase "stress zero threads" 2 "invalid value '0' for --threads (1..1024)" $MG stress --threads 0
badcase "check -t above its range" 2 "invalid value '100000' for -t (1..1024)" $MG check -t 100000
badcase "check --rate not a number" 2 "invalid value 'x' for --rate (0..100000000)" $MG check --rate x
badcase "stress negative duration" 2 "invalid value" $MG stress --duration -3
badcase "probe extra argument" 2 "unexpected argument" $MG probe extra
tracepoint_host "fentry under lockdown" && badcase "fentry under lockdown" 3 "EPERM" $MG stat --backend fentry -- true
tracepoint_host "kprobe without kprobes" && badcase "kprobe without kprobes" 3 "no kprobes" $MG stat --backend kprobe -- true
badcase "not root" 3 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups $MG stat -- true
badcase "not root (probe)" 3 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups $MG probe
# debugfs not mounted is no refusal any more (issue 26; host part 48): probe says why it is absent
if unshare -m sh -c "umount /sys/kernel/debug && exec $MG probe" > "$T/nodbg.out" 2>&1 &&
    grep -q "debugfs is not mounted" "$T/nodbg.out"; then
	ok "debugfs not mounted: probe runs and says so"
else
	bad "debugfs not mounted: $(tail -2 "$T/nodbg.out")"
fi
# a kernel without CONFIG_DEBUG_INFO_BTF has no /sys/kernel/btf/vmlinux: an empty tmpfs over
# /sys/kernel/btf (a file there that is not BTF is 54-edges' case, with its own line)
badcase "no BTF" 3 "has no BTF (/sys/kernel/btf/vmlinux): CONFIG_DEBUG_INFO_BTF is required" \
	unshare -m sh -c "mount -t tmpfs mgtrace-nobtf /sys/kernel/btf && exec $MG stat -- true"
# /sys not mounted is not a kernel without BTF (issue 43 part 3); the case above is its twin
badcase "no /sys" 3 "^mgtrace: /sys is not mounted" \
	unshare -m sh -c "umount -l /sys && exec $MG check -- true"
badcase "no /proc" 3 "^mgtrace: /proc is not mounted" \
	unshare -m sh -c "umount -l /proc && exec $MG stat -p 1"
tracepoint_host "--hot where only tracepoints attach" && badcase "--hot where only tracepoints attach" 3 "needs a function-probe backend" $MG stat --hot -- true
badcase "stress: --duration with --ops" 2 "exclude each other" $MG stress --duration 1 --ops 5
badcase "stress: missing --dir" 2 "cannot create a directory" $MG stress --dir /nonexistent
# a path's newline (or a terminal's escape) in an error line: escaped, the line stays one
# line (badcase wants exactly one; printed raw, as before, it was two)
badcase "a newline in a path: one escaped line" 2 "cannot create a directory under /nonexistent/a\\\\nb" \
	$MG stress --dir "$(printf '/nonexistent/a\nb')"
badcase "hex interval" 2 "invalid interval" $MG stat -i 0x10
# one parser for every real-valued option: an exponent where a gate took one, never a space,
# '+' or hex (strtod() alone took " 0.5" and 0x10 for a gate's limit)
$MG stat -i 5e-2 -c 1 -j -o "$T/exp.json" 2>"$T/exp.err" \
	&& python3 -c 'import json,sys; o=[json.loads(l) for l in open(sys.argv[1])]; sys.exit(not o or abs(o[0]["duration_s"] - 0.05) > 0.04)' "$T/exp.json" \
	&& ok "stat -i 5e-2: an interval of 50 ms" || bad "stat -i 5e-2: $(head -2 "$T/exp.err" "$T/exp.json")"
badcase "check gate: a space" 2 "invalid value ' 0.5' for --max-floor-swap-ratio (a decimal number" \
	$MG check --max-floor-swap-ratio " 0.5"
badcase "check gate: hex" 2 "invalid value '0x10' for --max-floor-swap-ratio" $MG check --max-floor-swap-ratio 0x10
badcase "check --baseline-factor: '+'" 2 "invalid --baseline-factor '+2'" $MG check --baseline-factor +2
badcase "long option without its value" 2 "needs a value '--output'" $MG stat --output
badcase "value given to a flag" 2 "takes no value '--json=1'" $MG stat --json=1
badcase "help for an unknown command" 2 "unknown command" $MG help bogus
badcase "--help for an unknown command" 2 "unknown command" $MG --help bogus
# `mgtrace --help COMMAND` is COMMAND's help (it printed mgtrace's own usage), as `help COMMAND`
$MG --help probe > "$T/hp1.out" 2>&1; rc=$?
$MG help probe > "$T/hp2.out" 2>&1
[ $rc = 0 ] && grep -q "^Usage: mgtrace probe" "$T/hp1.out" && cmp -s "$T/hp1.out" "$T/hp2.out" \
	&& ok "mgtrace --help probe: probe's help, as mgtrace help probe" \
	|| bad "mgtrace --help probe: rc $rc: $(head -2 "$T/hp1.out")"
badcase "ambiguous command prefix" 2 "ambiguous command 's': stat, stress (try" $MG s
badcase "ambiguous command prefix c" 2 "ambiguous command 'c': check, conform, clocks (try" $MG c
# a unique prefix selects the command (pro: probe)
$MG pro --json > "$T/prefix.json" 2>&1 || bad "prefix 'pro' did not run probe: exit $?"
python3 tests/checkjson.py json-first-line "$T/prefix.json" > "$T/c" 2>&1; tally prefix-pro "$T/c"
badcase "check: malformed test hook MGTRACE_TEST_INVERT_FINE" 2 "want 1 (test only)" \
	env MGTRACE_TEST_INVERT_FINE=yes $MG check -d 0.2
# "--" with nothing after it ("check -- $EMPTY" in a CI script) is a usage error, never a run
# of the built-in workload or a system-wide count
for c in check stat trace top; do
	badcase "$c -- without COMMAND" 2 "'--' with no COMMAND after it" $MG $c --
done
# an output that cannot be written (full disk: /dev/full) exits 5, never 1, which a CI job
# reads as a failed check; a failed check keeps 1 (it says more), a pass or an inconclusive
# verdict becomes 5
outcase() { # NAME WANT CMD...
	local name=$1 want=$2 rc; shift 2
	"$@" > /dev/null 2> "$T/err"; rc=$?
	if [ $rc != "$want" ]; then bad "$name: exit $rc, want $want ($(tail -c 300 "$T/err"))"; return; fi
	if [ "$want" = 5 ] && ! grep -q "^mgtrace: .*writing '.*'" "$T/err"; then
		bad "$name: stderr does not say what could not be written: $(cat "$T/err")"; return; fi
	if [ "$(left_attached)" != 0 ]; then bad "$name: BPF objects left behind"; return; fi
	ok "$name (exit $want)"
}
outcase "check -o /dev/full (a pass)" 5 $MG check -d 0.3 -o /dev/full
outcase "check --json to a full standard output" 5 sh -c "exec $MG check -d 0.3 --json > /dev/full"
outcase "check --junit /dev/full" 5 $MG check -d 0.3 --junit /dev/full
grep -q "^mgtrace: check: writing '/dev/full': No space left on device$" "$T/err" \
	&& ok "check --junit /dev/full: the line names the error, as -o's does" \
	|| bad "check --junit /dev/full: the line lacks the error: $(grep writing "$T/err")"
outcase "check -o /dev/full, a floor gate failed: still 1" 1 \
	$MG check -d 0.3 --max-floor-swap-ratio 0.000001 -o /dev/full
outcase "stat -o /dev/full" 5 $MG stat -o /dev/full -- true
outcase "probe to a full standard output" 5 sh -c "exec $MG probe > /dev/full"
outcase "version to a full standard output" 5 sh -c "exec $MG version > /dev/full"
outcase "version -o /dev/full" 5 $MG -o /dev/full version
outcase "--help to a full standard output" 5 sh -c "exec $MG --help > /dev/full"
outcase "stat --help to a full standard output" 5 sh -c "exec $MG stat --help > /dev/full"
outcase "help --options stat to a full standard output" 5 sh -c "exec $MG help --options stat > /dev/full"
# version honours -o as every command does, before or after its name: FILE has the line,
# standard output nothing
rm -f "$T/v1.txt" "$T/v2.json"
$MG -o "$T/v1.txt" version > "$T/v1.out" 2>&1 && $MG version -j -o "$T/v2.json" >> "$T/v1.out" 2>&1
[ ! -s "$T/v1.out" ] && [ "$(cat "$T/v1.txt" 2> /dev/null)" = "mgtrace $(cat VERSION)" ] &&
	[ "$(cat "$T/v2.json" 2> /dev/null)" = "{\"schema_version\":1,\"type\":\"version\",\"version\":\"$(cat VERSION)\"}" ] \
	&& ok "version -o FILE (before and after its name): the line in FILE, none on stdout" \
	|| bad "version -o FILE: stdout '$(head -c 200 "$T/v1.out")', FILE '$(cat "$T/v1.txt" "$T/v2.json" 2>&1 | head -c 300)'"
outcase "trace -o /dev/full" 5 $MG trace -o /dev/full -- $MG stress --threads 1 --ops 100
# a closed pipe (mgtrace ... | head) is a failed write: 5, not a death by SIGPIPE (141), and
# silent (the reader went away, as perf and git say nothing then); -v says it in one line
CLOSED='import os, subprocess, sys
r, w = os.pipe(); os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stdout=w))'
python3 -c "$CLOSED" $MG probe > /dev/null 2> "$T/err"; rc=$?
[ $rc = 5 ] && [ ! -s "$T/err" ] && [ "$(left_attached)" = 0 ] && ok "probe to a closed pipe: exit 5, silent" \
	|| bad "probe to a closed pipe: exit $rc, stderr: $(head -c 300 "$T/err")"
python3 -c "$CLOSED" $MG probe -v > /dev/null 2> "$T/err"; rc=$?
[ $rc = 5 ] && [ "$(grep -c "^mgtrace: writing 'standard output': the reader went away (Broken pipe)$" "$T/err")" = 1 ] \
	&& ok "probe -v to a closed pipe: exit 5, one line" \
	|| bad "probe -v to a closed pipe: exit $rc, stderr: $(grep -v libbpf "$T/err" | head -c 300)"
# --max-inodes larger than the machine can hold: environment (3), not a failed check
badcase "check --judge user --max-inodes beyond memory" 3 "out of memory for 50000000 inodes (--max-inodes): judged in user space their table grows to 134217728 slots of 216 bytes" \
	$MG check --judge user --max-inodes 50000000 -- true
# beyond the largest BPF hash (2^27 buckets of 16 bytes fill a u32: kernel/bpf/hashtab.c E2BIG):
# a usage error, not "--forget needs judging in BPF" after the load fell back (what 2^28 gave)
# out of file descriptors (a small ulimit -n), at every point of the start: either the run
# (judged in BPF, tp_btf: no fallback to raw_tp for a shortage the kernel did not cause) or
# exit 3 and one line naming the limit; never exit 1 (a FAIL) or another cause
nofile_bad=
for n in $(seq 20 2 70); do
	sh -c "ulimit -n $n; exec $MG check --json -o '$T/nf.json' -- true" > /dev/null 2> "$T/nf.err"; rc=$?
	case $rc in
	0) grep -q '"tracepoints":"tp_btf"' "$T/nf.json" && grep -q '"judged":{"where":"bpf"' "$T/nf.json" ||
		nofile_bad="$nofile_bad $n:passed-without-tp_btf" ;;
	3) [ "$(wc -l < "$T/nf.err")" = 1 ] && grep -q "the open-file limit (ulimit -n) is $n: raise it" "$T/nf.err" ||
		nofile_bad="$nofile_bad $n:$(head -c 200 "$T/nf.err")" ;;
	*) nofile_bad="$nofile_bad $n:exit-$rc:$(head -c 200 "$T/nf.err")" ;;
	esac
done
[ -z "$nofile_bad" ] && ok "check under ulimit -n 20..70: each run judged as tp_btf, or exit 3 naming the limit" \
	|| bad "check under a small ulimit -n:$nofile_bad"
# the built-in workload's own files too: exit 3 naming the limit, never exit 1 (a FAIL)
nofile_bad=
for n in 40 44 48 52; do
	sh -c "ulimit -n $n; exec $MG check -d 0.3" > /dev/null 2> "$T/nf.err"; rc=$?
	case $rc in
	0) ;;
	3) grep -q "the open-file limit (ulimit -n) is $n: raise it" "$T/nf.err" ||
		nofile_bad="$nofile_bad $n:$(tail -1 "$T/nf.err" | head -c 200)" ;;
	*) nofile_bad="$nofile_bad $n:exit-$rc:$(tail -1 "$T/nf.err" | head -c 200)" ;;
	esac
done
[ -z "$nofile_bad" ] && ok "check -d 0.3 under ulimit -n 40..52: a run, or exit 3 naming the limit" \
	|| bad "check -d 0.3 under a small ulimit -n:$nofile_bad"
expect "check under a small ulimit -n: nothing left attached" test "$(left_attached)" = 0
# judged in BPF, a large --max-inodes is made (the kernel takes the buckets at once): one
# note says how much and that it takes a while; the default says nothing
$MG check --max-inodes 8000000 -- true > "$T/room.out" 2> "$T/room.err"; rc=$?
$MG check -- true > /dev/null 2> "$T/room0.err"
if [ $rc = 0 ] && [ "$(grep -c "^mgtrace: check: --max-inodes 8000000: the inode maps' buckets take 256 MiB of kernel memory before any inode enters (16 bytes a bucket, 8388608 in each of 2 maps)" "$T/room.err")" = 1 ] &&
   grep -q '^verdict: PASS' "$T/room.err" && ! grep -q "buckets take" "$T/room0.err"; then
	ok "check --max-inodes 8000000: one note of the buckets' 256 MiB, PASS; none by default"
else
	bad "check --max-inodes 8000000: exit $rc, stderr: $(head -c 400 "$T/room.err")"
fi
badcase "check --forget --max-inodes 2^27 + 1" 2 "invalid value '134217729' for --max-inodes" \
	$MG check --forget --max-inodes 134217729 -- true
# SIGHUP (a closed terminal) ends a check like SIGTERM: COMMAND gets it, the report is written,
# and the run cut short is INCONCLUSIVE (exit 4), COMMAND's 129 the signal's (61-check-signals)
rm -f "$T/hup.json"
# (SIGHUP at its default disposition: under nohup, COMMAND would inherit it ignored and, sent
# the signal, run on: the report then says so, correctly, but this case tests the kill)
env --default-signal=HUP $MG check --json -o "$T/hup.json" -- sleep 5 > /dev/null 2> "$T/hup.err" & hp=$!
sleep 1.5; kill -HUP $hp; wait $hp; rc=$?
if [ $rc = 4 ] && python3 tests/checkjson.py interrupted "$T/hup.json" SIGHUP INCONCLUSIVE 129 > "$T/hup.chk" 2>&1; then
	ok "check -- sleep 5, SIGHUP: COMMAND ended by it, report written, INCONCLUSIVE, exit 4"
else
	bad "check -- sleep 5, SIGHUP: exit $rc, $(grep FAIL "$T/hup.chk"), report: $(python3 -c 'import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print(d.get("type"), d.get("verdict"), "interrupted:", d.get("interrupted"), "reason:", d.get("reason", d.get("error")))' "$T/hup.json" 2>&1 | head -c 600), stderr: $(grep -v libbpf "$T/hup.err" | head -c 300)"
fi
# a COMMAND that cannot be run: one line and 127 (not found) or 126 (not executable), no
# verdict (a CI typo is not a kernel fault), nothing left attached; stdout empty (a report file
# asked for gets the error record: below)
for c in "check" "check --json" "trace" "trace --json" "stat" "top"; do
	for x in /nonexistent/cmd /etc/passwd; do
		want=127; [ "$x" = /etc/passwd ] && want=126
		$MG $c -- $x > "$T/nx.out" 2> "$T/nx.err"; rc=$?
		if [ $rc = $want ] && [ ! -s "$T/nx.out" ] && [ "$(wc -l < "$T/nx.err")" = 1 ] &&
			grep -q "^mgtrace: cannot run '$x'" "$T/nx.err" && [ "$(left_attached)" = 0 ]; then
			ok "$c -- $x: exit $want, one line ($(cat "$T/nx.err")), no report"
		else
			bad "$c -- $x: exit $rc (want $want), stdout $(wc -c < "$T/nx.out") bytes, stderr: $(head -c 300 "$T/nx.err")"
		fi
	done
done

# Every report asked for is written on a refusal too, never left empty (issue 28): check's
# --junit is one <error> testcase with the reason and the exit code, -o --json an error
# record (docs/schema/error.schema.json), a text -o one line; stat, trace and top alike.
# The twin: a run that reports has no error record.
rm -f "$T"/rf-*
build/denybpf $MG check -d 1 --junit "$T/rf-env.xml" --json -o "$T/rf-env.json" 2> /dev/null; rc1=$?
$MG check --junit "$T/rf-cmd.xml" -o "$T/rf-cmd.txt" -- /nonexistent/cmd 2> /dev/null; rc2=$?
build/denybpf $MG stat -o "$T/rf-stat.txt" -- true 2> /dev/null; rc3=$?
build/denybpf $MG trace -j -o "$T/rf-trace.json" 2> /dev/null; rc4=$?
build/denybpf $MG top -j -c 1 -o "$T/rf-top.json" 2> /dev/null; rc5=$?
$MG check -d 0.3 --junit "$T/rf-ok.xml" --json -o "$T/rf-ok.json" 2> /dev/null; rc6=$?
python3 - "$T" $rc1 $rc2 $rc3 $rc4 $rc5 $rc6 > "$T/rf.chk" 2>&1 <<'PY'
import json, sys, xml.etree.ElementTree as ET
t, rc = sys.argv[1], [int(x) for x in sys.argv[2:]]
def say(ok, what): print(("PASS " if ok else "FAIL ") + what)
def junit_error(p, code, text):
    s = ET.parse(p).getroot()
    cases = s.findall("testcase")
    e = cases[0].find("error") if len(cases) == 1 else None
    say(s.tag == "testsuite" and s.get("errors") == "1" and s.get("tests") == "1" and e is not None
        and all(s.get(a) for a in ("timestamp", "hostname", "time")) and cases[0].get("time")
        and e.get("type") == f"exit {code}" and text in (e.get("message") or "")
        and [x.tag for x in s][-2:] == ["system-out", "system-err"],
        f"{p}: one <error> testcase, exit {code}, reason '{text}', then system-out and system-err")
def error_json(p, cmd, code, text, errno=None):
    o = [json.loads(l) for l in open(p) if l.strip()]
    say(len(o) == 1 and o[0]["type"] == "error" and o[0]["command"] == cmd and o[0]["exit_code"] == code
        and text in o[0]["reason"] and (errno is None or o[0]["errno"] == errno),
        f"{p}: one error record ({cmd}, exit {code}, '{text}', errno {errno}): {o}")
say(rc[:5] == [3, 127, 3, 3, 3], f"the refusals' exit codes: {rc[:5]}")
junit_error(f"{t}/rf-env.xml", 3, "seccomp filter")
error_json(f"{t}/rf-env.json", "check", 3, "seccomp filter")
junit_error(f"{t}/rf-cmd.xml", 127, "cannot run '/nonexistent/cmd'")
txt = open(f"{t}/rf-cmd.txt").read()
say(txt.startswith("mgtrace check: error (exit 127): cannot run "), f"text -o: one error line: {txt!r}")
txt = open(f"{t}/rf-stat.txt").read()
say(txt.startswith("mgtrace stat: error (exit 3): bpf() is refused"), f"stat text -o: {txt!r}")
error_json(f"{t}/rf-trace.json", "trace", 3, "seccomp filter")
error_json(f"{t}/rf-top.json", "top", 3, "seccomp filter")
o = [json.loads(l) for l in open(f"{t}/rf-ok.json") if l.strip()]
s = ET.parse(f"{t}/rf-ok.xml").getroot()
say(rc[5] == 0 and o and all(x["type"] != "error" for x in o) and s.get("errors") == "0",
    f"twin: a run that judged has its report, no error record (exit {rc[5]}, types {[x['type'] for x in o]})")
PY
tally report-on-refusal "$T/rf.chk"
schema_valid rf-env error "$T/rf-env.json"

# check -i --prometheus FILE on each exit path without a verdict (issue 28 item 1): FILE, which
# holds an earlier run's counts, is rewritten with mgtrace_check_up 0, mgtrace_check_error
# {reason_class} = the exit code and the reason only in mgtrace_check_error_info
# (tests/promcheck.py error), never left as if this run had judged: an unsupported environment
# (3), COMMAND not found (127) or not executable (126), a bad --known file found after the
# outputs were opened (2), a stop signal before judging began (4). Twin: a run that judges has
# mgtrace_check_up 1 and no error, and the error check fails on its file.
PROMTOOL=$(command -v promtool)
mkdir -p "$T/cpref"
CF="$T/cpref/check.prom"
$MG check -c 1 -I 200 --prometheus "$T/cpref/earlier.prom" > /dev/null 2>&1
grep -q '^mgtrace_check_events_judged_total{kind="stat"} ' "$T/cpref/earlier.prom" \
	&& ok "check --prometheus refused: an earlier run's file of counts to replace" \
	|| bad "check --prometheus refused: no earlier run's file"
# cprom_refused NAME CODE CLASS TEXT CMD...: FILE holds the earlier counts; CMD exits CODE, FILE is its error file
cprom_refused() {
	local name=$1 code=$2 class=$3 text=$4 rc; shift 4
	cp "$T/cpref/earlier.prom" "$CF"
	"$@" > /dev/null 2> "$T/cpref.err"; rc=$?
	[ $rc = "$code" ] && [ "$(grep -vc '^libbpf' "$T/cpref.err")" = 1 ] \
		&& ok "$name: exit $code, one line ($(cat "$T/cpref.err"))" \
		|| bad "$name: exit $rc (want $code): $(head -c 300 "$T/cpref.err")"
	python3 tests/promcheck.py error "$CF" mgtrace_check "$code" "$class" "$text" > "$T/cpref.chk" 2>&1
	tally "$name" "$T/cpref.chk"
	if [ -n "$PROMTOOL" ]; then
		"$PROMTOOL" check metrics < "$CF" > "$T/cpref.lint" 2>&1 && ok "$name: promtool check metrics accepts the file" \
			|| bad "$name: promtool check metrics: $(head -c 300 "$T/cpref.lint")"
	fi
	[ "$(left_attached)" = 0 ] || bad "$name: BPF objects left behind"
}
cprom_refused "check --prometheus, bpf() denied" 3 environment "seccomp filter" \
	build/denybpf $MG check -i 1 --prometheus "$CF"
cprom_refused "check --prometheus -- /nonexistent/cmd" 127 command "cannot run '/nonexistent/cmd'" \
	$MG check -i 1 --prometheus "$CF" -- /nonexistent/cmd
cprom_refused "check --prometheus -- /etc/passwd" 126 command "cannot run '/etc/passwd'" \
	$MG check -i 1 --prometheus "$CF" -- /etc/passwd
cprom_refused "check --prometheus, a bad --known file (after the outputs opened)" 2 usage "is not JSON" \
	$MG check -i 1 --known /etc/hostname --prometheus "$CF"
cprom_refused "check --prometheus, SIGINT before judging began" 4 interrupted "before judging began" \
	sig_run INT 0.05 /dev/null /dev/stderr $MG check -i 1 --prometheus "$CF"
cp "$T/cpref/earlier.prom" "$CF"
$MG check -c 1 -I 200 --prometheus "$CF" > /dev/null 2>&1; rc=$?
python3 tests/promcheck.py error "$CF" mgtrace_check 3 environment "" > "$T/cpref.chk" 2>&1
[ $rc = 0 ] && grep -qx 'mgtrace_check_up 1' "$CF" && ! grep -q '^mgtrace_check_error' "$CF" && grep -q '^FAIL ' "$T/cpref.chk" \
	&& ok "twin: a check that judges: mgtrace_check_up 1, no mgtrace_check_error, the error check fails on its file" \
	|| bad "twin: a check that judges: exit $rc, $(grep -e '^mgtrace_check_up' -e '^mgtrace_check_error' "$CF")"
