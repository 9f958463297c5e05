# SPDX-License-Identifier: GPL-2.0
# 47-options.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The same letter means the same in every command (issue 17, "Habits to follow"): -o, -j, -v
# everywhere; -p PID (process scope: PID and its descendants) and -a (system-wide) in stat and
# trace; -A (per-CPU, online CPUs), -i/-I and -c (interval, count), -x (separated fields) in
# stat, refused where a command has no such thing, never taken as something else.
echo "# options: one meaning per letter"

# cmd_args NAME: arguments for a short, self-ending run of command NAME
cmd_args() {
	case $1 in
	probe) echo "probe" ;;
	stat) echo "stat -- true" ;;
	trace) echo "trace -- true" ;;
	check) echo "check -d 0.3 --rate 100" ;;
	clocks) echo "clocks -n 2000" ;;
	stress) echo "stress -d 0.2" ;;
	esac
}
# run_cmd NAME OPTS...: mgtrace with command NAME's short run, OPTS before its "--"
run_cmd() {
	local n=$1 w pre=() post=() seen=; shift
	for w in $(cmd_args "$n"); do
		if [ "$w" = "--" ] || [ -n "$seen" ]; then seen=1; post+=("$w"); else pre+=("$w"); fi
	done
	$MG "${pre[@]}" "$@" "${post[@]}"
}
for n in probe stat trace check clocks stress; do
	# -o FILE: the results in FILE, nothing on stdout
	run_cmd $n -o "$T/o-$n.txt" > "$T/o-$n.out" 2> "$T/o-$n.err"; rc=$?
	[ $rc = 0 ] && [ -s "$T/o-$n.txt" ] && [ ! -s "$T/o-$n.out" ] \
		&& ok "$n -o FILE: the results in FILE, stdout empty" \
		|| bad "$n -o FILE: exit $rc, file $(wc -c < "$T/o-$n.txt") bytes, stdout '$(head -c 200 "$T/o-$n.out")' $(head -c 200 "$T/o-$n.err")"
	# -j: JSON lines (in -o FILE), each with its type
	run_cmd $n -j -o "$T/j-$n.json" > /dev/null 2> "$T/j-$n.err"; rc=$?
	python3 -c 'import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if objs and all("type" in o for o in objs) else 1)' "$T/j-$n.json" 2> /dev/null && [ $rc = 0 ] \
		&& ok "$n -j: JSON lines" || bad "$n -j: exit $rc, $(head -c 200 "$T/j-$n.json") $(head -c 200 "$T/j-$n.err")"
	# -v: accepted by every command, the same run
	run_cmd $n -v -o /dev/null > /dev/null 2>&1; rc=$?
	[ $rc = 0 ] && ok "$n -v: accepted" || bad "$n -v: exit $rc"
	# the shared options before the command name, as bpftool's global ones
	$MG -j -o "$T/g-$n.json" $(cmd_args $n) > /dev/null 2>&1; rc=$?
	[ $rc = 0 ] && python3 -c 'import json, sys; json.loads(open(sys.argv[1]).readline())' "$T/g-$n.json" 2>/dev/null \
		&& ok "mgtrace -j -o FILE $n: the global spelling" || bad "mgtrace -j -o FILE $n: exit $rc"
done
# letters a command does not have are refused (usage), never read as another option
for c in "probe -A" "check -A" "trace -A" "clocks -A" "stress -A" "probe -p 1" "check -p 1" \
	"clocks -p 1" "stress -p 1" "trace -c 3" "trace -i 8:1:2" "check -a" "probe -a"; do
	badcase "$c: not an option of this command" 2 "unrecognized option" $MG $c
done
badcase "stat -a with -p" 2 "exclude each other" $MG stat -a -p 1 -- true
badcase "trace -a with -p" 2 "exclude each other" $MG trace -a -p 1
badcase "stat -p of no process" 2 "no such process" $MG stat -p 4000000 -- true
badcase "stat --tree without COMMAND" 2 "needs COMMAND" $MG stat --tree
badcase "stat -x with --json" 2 "exclude each other" $MG stat -x , -j -- true

# -a: system-wide, said in the header; -p PID: only PID's tree, counted in BPF
F=$T/opt-f; echo a > "$F"
sh -c "while :; do echo x >> '$F'; stat '$F' > /dev/null; sleep 0.02; done" & wp=$!
$MG stress --threads 2 --duration 5 > /dev/null 2>&1 & sp=$!
sleep 0.3
$MG stat -j -a -o "$T/sa.json" -i 1 -c 1 > /dev/null 2>&1
$MG stat -j -p $wp -o "$T/sp.json" -i 1 -c 1 > /dev/null 2>&1
$MG stat -p $wp -i 1 -c 1 > "$T/sp.txt" 2>&1
$MG trace -j -p $wp -o "$T/tp.json" -- sleep 1 > /dev/null 2>&1
$MG trace -j -a --events stat -o "$T/ta.json" -- sleep 0.3 > /dev/null 2>&1
wait $sp; kill $wp; wait $wp 2>/dev/null
python3 - "$T/sa.json" "$T/sp.json" "$T/tp.json" "$T/ta.json" "$wp" > "$T/scope.chk" 2>&1 <<'PY'
import json, sys
def load(p): return [json.loads(l) for l in open(p) if l.strip()]
def ck(c, m): print(("ok   " if c else "FAIL ") + m)
sa = [o for o in load(sys.argv[1]) if o["type"] == "summary"][0]
sp = [o for o in load(sys.argv[2]) if o["type"] == "summary"][0]
wp = int(sys.argv[5])
ck(sa["scope"] == "system-wide", f"stat -a: scope {sa['scope']!r}")
ck(sp["scope"] == f"pid {wp} and its descendants" and "hash lookup" in sp.get("scope_cost", ""),
   f"stat -p: scope {sp['scope']!r}, with its cost: {sp.get('scope_cost')!r}")
a, p = sa["counters"]["ctime_swaps"]["total"], sp["counters"]["ctime_swaps"]["total"]
# the writer appends about 40 times a second (one swap each at most); the stress a million
ck(p is not None and 0 < p <= 200 and a > 10000,
   f"stat -p counts the tree's ctime swaps only: {p} against {a} system-wide")
ck(sp["counters"]["floor_swaps"]["total"] is None and "global" in sp["counters"]["floor_swaps"]["unavailable"],
   "stat -p: the kernel's global floor_swaps is not passed off as the tree's")
ck(sp["counters"]["stat_queries"]["total"] and sp["counters"]["stat_queries"]["source"] == "bpf",
   f"stat -p: stat queries of the tree's stat(1) children counted: {sp['counters']['stat_queries']['total']}")
ev = [o for o in load(sys.argv[3]) if o["type"] == "event"]
ck(ev and all(e["comm"] in ("sh", "stat", "sleep") for e in ev),
   f"trace -p: {len(ev)} events, all of the writer's tree: {sorted({e['comm'] for e in ev})}")
ck(len({e["pid"] for e in ev}) > 1, "trace -p: the writer's children (stat) are followed too")
ta = [o for o in load(sys.argv[4]) if o["type"] == "event"]
ck(any(e["comm"] == "mgtrace" for e in ta), "trace -a -- COMMAND: the outside stress's events (system-wide)")
PY
tally scope "$T/scope.chk"
grep -q '^mgtrace stat: pid [0-9]* and its descendants' "$T/sp.txt" && grep -q '^cost of the scope: ' "$T/sp.txt" \
	&& ok "stat -p text: the header states the scope and its cost" || bad "stat -p text: $(head -5 "$T/sp.txt")"

# -A: the per-CPU table, online CPUs only, opt-in
$MG stat -- true > "$T/nA.txt" 2>&1; $MG stat -A -- true > "$T/A.txt" 2>&1
online=$(getconf _NPROCESSORS_ONLN)
! grep -q '^per-CPU' "$T/nA.txt" && [ "$(grep '^per-CPU' "$T/A.txt" | grep -o 'CPU[0-9][0-9]*' | wc -l)" = "$online" ] \
	&& ok "stat -A: a per-CPU table of the $online online CPUs, none without -A" \
	|| bad "stat -A: $(grep '^per-CPU' "$T/A.txt") (online $online)"
# the default text fits 100 columns
awk 'length > 100' "$T/nA.txt" | grep -q . && bad "stat text wider than 100 columns: $(awk 'length > 100' "$T/nA.txt")" \
	|| ok "stat's default text fits 100 columns"

# interval mode: -i S = -I MS, -c N, wall-clock time, the summary's names, the partial last one
$MG stat -j -I 200 -c 2 -o "$T/I.json" > /dev/null 2>&1
python3 tests/checkjson.py intervals "$T/I.json" 2 > "$T/c" 2>&1; tally "stat -I 200 -c 2" "$T/c"
$MG stat -j -i 1 -o "$T/part.json" -- sleep 1.5 > /dev/null 2>&1
python3 - "$T/part.json" > "$T/part.chk" 2>&1 <<'PY'
import json, re, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
iv = [o for o in objs if o["type"] == "interval"]
def ck(c, m): print(("ok   " if c else "FAIL ") + m)
ck([o["partial"] for o in iv] == [False, True], f"-i 1 -- sleep 1.5: a full interval, then the partial last one: {[o['partial'] for o in iv]}")
ck(iv and 0.3 < iv[-1]["duration_s"] < 0.8, f"the partial interval lasts about 0.5 s: {iv[-1]['duration_s'] if iv else None}")
ck(all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", o["time"]) for o in iv), "interval time in ISO 8601")
ck(all(r.get("rate_per_s") is not None for o in iv for r in o["counters"].values() if r["total"] is not None),
   "every counted row has a rate per second")
PY
tally "partial interval" "$T/part.chk"
$MG stat -i 0.5 -o "$T/iv.txt" -- sleep 1.2 > /dev/null 2>&1
head -1 "$T/iv.txt" | grep -q '^time  *ctime_updates fine_stamps floor_swaps floor_cmpxchg_fails ctime_swaps  debugfs$' \
	&& [ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} ' "$T/iv.txt")" = 3 ] && grep -q '(partial interval)$' "$T/iv.txt" \
	&& ok "stat -i text: HH:MM:SS.mmm rows under the summary's names, the partial one marked" \
	|| bad "stat -i text: $(head -4 "$T/iv.txt")"
$MG stat -x , -i 0.3 -c 2 -o "$T/x.csv" > /dev/null 2>&1
python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[0]
iv = [r for r in rows[1:3]]
ok = hdr[0] == "time" and "ctime_updates" in hdr and all(len(r) == len(hdr) and int(r[hdr.index("ctime_updates")]) >= 0 for r in iv)
summ = rows[3]
sys.exit(0 if ok and summ[:3] == ["counter", "total", "source"] else 1)' "$T/x.csv" \
	&& ok "stat -x ,: separated interval rows under a header of the row names, then the summary" \
	|| bad "stat -x ,: $(head -5 "$T/x.csv")"
$MG stat -j --rate -i 0.5 -c 1 -o /dev/null > /dev/null 2>&1 && ok "stat --rate accepted" || bad "stat --rate"
script -qec "$MG stat -I 20 -c 30" /dev/null > "$T/tty.txt" 2>&1
[ "$(grep -c '^time ' "$T/tty.txt")" = 2 ] && ok "stat -I on a terminal: the header repeats (every 25 rows)" \
	|| bad "stat on a terminal: $(grep -c '^time ' "$T/tty.txt") headers"
# -c N -- COMMAND: ended by the count, exit 0 (documented), COMMAND's own status reported
$MG stat -j -i 0.2 -c 2 -o "$T/cc.json" -- sleep 5 > /dev/null 2>&1; rc=$?
python3 -c 'import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
sys.exit(0 if s["command_ended_by_count"] is True and s["command_status"] == 143 else 1)' "$T/cc.json" && [ $rc = 0 ] \
	&& ok "stat -c 2 -- sleep 5: exit 0, COMMAND ended by the count (its status 143 in the JSON)" \
	|| bad "stat -c 2 -- sleep 5: exit $rc, $(tail -c 300 "$T/cc.json")"
$MG stat -i 0.2 -c 5 -o /dev/null -- sh -c 'exit 3' > /dev/null 2>&1; rc=$?
[ $rc = 3 ] && ok "stat -c 5 -- COMMAND ending first: COMMAND's status (3)" || bad "stat -c 5 -- exit 3: exit $rc"
[ "$(left_attached)" = 0 ] && ok "nothing left attached after the option runs" || bad "BPF objects left behind"
