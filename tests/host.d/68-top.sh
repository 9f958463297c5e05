# SPDX-License-Identifier: GPL-2.0
# 68-top.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# mgtrace top on the live kernel: two workloads of known, different sizes, each under its own
# filtered trace; top, system-wide around both, must rank them and count for each process
# exactly the ctime_ns_xchg events its trace saw. A map too small shows what it could not
# attribute. Scopes (-p, --tree), COMMAND's exit status, bad input.
echo "# top"
MGABS=$(readlink -f "$MG")
ln -sf "$MGABS" "$T/mgw-fast"; ln -sf "$MGABS" "$T/mgw-slow"
cat > "$T/top-pair.sh" <<EOF
"$MGABS" trace --json -o "$T/tr-fast.json" -e ctime -- sh -c 'exec "$T/mgw-fast" stress --threads 1 --files 2 --ops 20000 >/dev/null' 2> "$T/tr-fast.err" &
"$MGABS" trace --json -o "$T/tr-slow.json" -e ctime -- sh -c 'exec "$T/mgw-slow" stress --threads 1 --files 2 --ops 2000 >/dev/null' 2> "$T/tr-slow.err" &
wait
EOF
$MG top --json -s ctime_swaps -o "$T/top.json" -i 120 -- sh "$T/top-pair.sh" 2> "$T/top.err"
rc=$?
[ $rc = 0 ] && ok "top -- COMMAND exits with its status (0)" || bad "top exit $rc: $(cat "$T/top.err")"
python3 tests/checktop.py rank "$T/top.json" "$T/tr-fast.json" "$T/tr-slow.json" > "$T/top.chk" 2>&1
tally top-vs-trace "$T/top.chk"
python3 tests/checkjson.py json-first-line "$T/top.json" > "$T/topj.chk" 2>&1
tally top-json "$T/topj.chk"

# text: the fast workload's row comes first, under the column header (COMMAND's tree only, so
# that another agent's workload on this shared machine cannot come first)
$MG top --noclear --tree -s ctime_swaps -r 3 -i 60 -- sh -c "\"$T/mgw-fast\" stress --threads 1 --files 1 --ops 5000 >/dev/null &
	\"$T/mgw-slow\" stress --threads 1 --files 1 --ops 500 >/dev/null; wait" > "$T/top.txt" 2>&1
if grep -A1 '^PID ' "$T/top.txt" | tail -1 | grep -q 'mgw-fast' && grep -q 'AFTER_QUERY' "$T/top.txt" \
	&& grep -q 'mgw-slow' "$T/top.txt"; then ok "top text: mgw-fast ranked first"
else bad "top text: $(cat "$T/top.txt")"; fi

# a map too small: what did not fit is counted and shown, the totals stay exact
$MG top --json --by file --max-entries 2 -o "$T/topfull.json" -i 60 -- \
	"$MG" stress --threads 1 --files 16 --ops 500 > /dev/null 2> "$T/topfull.err"
python3 tests/checktop.py full "$T/topfull.json" > "$T/topfull.chk" 2>&1
tally top-map-full "$T/topfull.chk"
$MG top --noclear --by file --max-entries 2 -i 1 -- "$MG" stress --threads 1 --files 8 --ops 200 > "$T/topfull.txt" 2>&1
grep -q 'not attributed: [1-9][0-9]* events (new rows refused: [1-9][0-9]* map full' "$T/topfull.txt" && ok "top text shows events not attributed" \
	|| bad "top text, map full: $(head -8 "$T/topfull.txt")"

# a name longer than its column (16): cut with '+', the counters stay under their heads; one
# of exactly 16 fills it uncut (a tester's 17-character name pushed its row's columns right)
mkdir -p "$T/tl"
$MG top --noclear --tree --by file -i 60 -- sh -c 'for i in $(seq 50); do
	for f in name_of_seventeen exactly_16_chars; do echo x >> "$0/$f"; stat "$0/$f" > /dev/null; done
done' "$T/tl" > "$T/toplong.txt" 2>&1
python3 - "$T/toplong.txt" > "$T/toplong.chk" 2>&1 <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
head = next((l for l in lines if l.startswith("DEV ")), "")
ends = [m.end() for m in re.finditer(r"\S+", head)][3:]
for name in ("name_of_sevente+", "exactly_16_chars"):
    row = next((l for l in lines if re.search(r"\s%s\s" % re.escape(name), l)), None)
    ok = row is not None and ends and [m.end() for m in re.finditer(r"\S+", row)][3:] == ends
    print("%s top -B file: %r shown in its column, the counters under their heads (%r)"
          % ("PASS" if ok else "FAIL", name, row))
PY
tally top-long-name "$T/toplong.chk"

# -c N ends a COMMAND that ignores SIGTERM with SIGKILL after the grace (1 s), as check and
# stat do: it waited for COMMAND's own end, its programs attached (here timeout's 124)
t0=$(date +%s%N)
timeout 60 $MG top --noclear -i 0.3 -c 1 -- sh -c 'trap "" TERM; exec sleep 300' > "$T/topterm.txt" 2>&1; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ $rc = 0 ] && [ "$(left_attached)" = 0 ] \
	&& ok "top -c 1, COMMAND ignoring SIGTERM: ended in $ms ms (SIGKILL after the grace), exit 0" \
	|| bad "top -c 1, COMMAND ignoring SIGTERM: exit $rc after $ms ms: $(tail -3 "$T/topterm.txt")"

# scope: --tree counts only COMMAND's tree; -p PID only PID (an outside stress is left out)
"$T/mgw-slow" stress --threads 1 --files 1 --duration 4 > /dev/null 2>&1 & op=$!
sleep 0.3
$MG top --json --tree -o "$T/toptree.json" -i 60 -- sh -c "\"$T/mgw-fast\" stress --threads 1 --files 1 --ops 3000 >/dev/null"
$MG top --json -p $op -i 1 -c 1 > "$T/toppid.json" 2>&1
wait $op
python3 tests/checktop.py scope "$T/toptree.json" "$T/toppid.json" $op > "$T/topscope.chk" 2>&1
tally top-scope "$T/topscope.chk"
# every check above fails on doctored copies of these real outputs
python3 tests/checktop.py selftest "$T/top.json" "$T/tr-fast.json" "$T/tr-slow.json" "$T/topfull.json" \
	"$T/toptree.json" "$T/toppid.json" $op > "$T/topself.chk" 2>&1
tally top-selftest "$T/topself.chk"

# --by stack: which kernel code paths make the swaps; N links after a stat on tmpfs are
# N swaps after a query through shmem_link, each row one distinct stack
SHM=$(mktemp -d -p /dev/shm mgtrace-topstack.XXXXXX)
$MG top --tree --by stack --json -i 60 -o "$T/topstack.json" -- sh -c "for i in \$(seq 40); do
	echo x > $SHM/f\$i; stat $SHM/f\$i > /dev/null; ln $SHM/f\$i $SHM/g\$i; done" > /dev/null 2>&1
rm -f "$SHM"/*
# the same named from /proc/kallsyms (where the kernel's naming cannot load): the same rows
MGTRACE_TEST_KSYMS_FILE=1 $MG top --tree --by stack --json -i 60 -o "$T/topstack-file.json" -- \
	sh -c "for i in \$(seq 40); do echo x > $SHM/f\$i; stat $SHM/f\$i > /dev/null; \
	ln $SHM/f\$i $SHM/g\$i; done" > /dev/null 2>&1
rm -rf "$SHM"
python3 tests/checktop.py stack "$T/topstack.json" 40 > "$T/topstack.chk" 2>&1
tally top-stack "$T/topstack.chk"
python3 tests/checktop.py stack "$T/topstack-file.json" 40 /proc/kallsyms > "$T/topstack-file.chk" 2>&1
tally top-stack-kallsyms "$T/topstack-file.chk"
python3 tests/checktop.py stackself "$T/topstack.json" 40 > "$T/topstackself.chk" 2>&1
tally top-stack-selftest "$T/topstackself.chk"
python3 tests/schemacheck.py validate top "$T/topstack.json" > "$T/topstack-schema.chk" 2>&1
tally top-stack-schema "$T/topstack-schema.chk"
$MG top --noclear --tree --by stack -i 60 -- sh -c 'echo x > /dev/shm/mgtrace-topstack-t; stat /dev/shm/mgtrace-topstack-t >/dev/null; echo y >> /dev/shm/mgtrace-topstack-t; rm /dev/shm/mgtrace-topstack-t' > "$T/topstack.txt" 2>&1
grep -q '^STACK (innermost first' "$T/topstack.txt" && grep -q 'inode_set_ctime_current < ' "$T/topstack.txt" &&
	ok "top --by stack (text): a STACK column naming the functions" ||
	bad "top --by stack (text): $(head -c 600 "$T/topstack.txt")"

$MG top -i 1 -- sh -c 'exit 3' > /dev/null 2>&1; rc=$?
[ $rc = 3 ] && ok "top -- COMMAND exits with COMMAND's status (3)" || bad "top exit $rc, want 3"
$MG top --noclear -i 0.2 -c 2 > "$T/topcount.txt" 2>&1; rc=$?
[ $rc = 0 ] && [ "$(grep -c '^PID ' "$T/topcount.txt")" = 2 ] && ok "top -i 0.2 -c 2: two tables, exit 0" \
	|| bad "top -i 0.2 -c 2: exit $rc, $(grep -c '^PID ' "$T/topcount.txt") tables"
badcase "top: bad --by" 2 "invalid --by" $MG top --by inode
badcase "top: bad --sort" 2 "invalid --sort" $MG top -s bogus
badcase "top: interval 0" 2 "invalid interval" $MG top -i 0
badcase "top: count 0" 2 "invalid count" $MG top -c 0
badcase "top: -I below 10 ms" 2 "invalid interval" $MG top -I 5
badcase "top: --max-entries 0" 2 "invalid value '0' for --max-entries (1..1000000)" $MG top --max-entries 0
badcase "top: --tree without COMMAND" 2 "needs -- COMMAND" $MG top --tree
badcase "top: no such pid" 2 "no process" $MG top -p 4194303
python3 -c 'import threading, time; threading.Thread(target=time.sleep, args=(5,)).start()' & tp=$!
# its thread, once started (python can take over 0.5 s to get there on a loaded machine)
for i in $(seq 50); do tid=$(ls /proc/$tp/task | grep -v "^$tp\$" | head -1); [ -n "$tid" ] && break; sleep 0.1; done
badcase "top: -p of a thread" 2 "is a thread of process $tp" $MG top -p "$tid"
kill $tp 2>/dev/null; wait $tp 2>/dev/null
badcase "top: -a with -p" 2 "exclude each other" $MG top -a -p 1
badcase "top: unknown option" 2 "unrecognized option" $MG top --bogus
if tracepoint_host "top: floor sort without function probes"; then
	badcase "top: --sort floor_swaps without function probes" 3 "needs a function-probe" $MG top -s floor_swaps -i 1 -c 1
	badcase "top: --backend fentry refused" 3 "backend fentry unavailable" $MG top --backend fentry -i 1 -c 1
	# each cause once: the floor counter's kallsyms problem followed each backend's (twice)
	$MG top -s floor_swaps -i 1 -c 1 > /dev/null 2> "$T/tfs.err"
	[ "$(grep -o 'also: ' "$T/tfs.err" | wc -l)" -le 1 ] && ok "top: --sort floor_swaps refusal says each cause once" \
		|| bad "top: --sort floor_swaps refusal repeats a cause: $(cat "$T/tfs.err")"
fi
[ "$(left_attached)" = 0 ] && ok "nothing left attached after top runs" || bad "top left BPF objects behind"
# --by cgroup names a cgroup by its path under the cgroup2 mount, wherever that is (a hybrid
# layout mounts it at /sys/fs/cgroup/unified under a tmpfs: the names were null there)
CG=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -n "$CG" ] && mkdir "$CG/mgtrace-top-test" 2> /dev/null; then
	# the workload runs for as long as top may take to load under load, then is stopped
	sh -c "echo \$\$ > '$CG/mgtrace-top-test/cgroup.procs' && exec $MG stress --threads 1 --duration 20" \
		> /dev/null 2>&1 &
	cgpid=$!
	$MG top -a --by cgroup -I 400 -c 1 --json -o "$T/top-cg.json" > /dev/null 2>&1
	kill -INT $cgpid 2> /dev/null; wait $cgpid
	rmdir "$CG/mgtrace-top-test"
	python3 -c '
import json, sys
t = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
names = [r.get("cgroup") for r in t["rows"]]
print(("PASS" if "/mgtrace-top-test" in names else "FAIL") + f" top --by cgroup under {sys.argv[2]}: rows {names}")' \
		"$T/top-cg.json" "$CG" > "$T/top-cg.chk" 2>&1
	tally top-cgroup "$T/top-cg.chk"
else
	skip "top --by cgroup names" "no cgroup2 mount to make a cgroup in"
fi
# ... relative to the caller's cgroup namespace root, as /proc/self/cgroup names them: top in
# `unshare -C` (the host's cgroup2 mount, whose mountinfo root is then "/..") run from
# /mgtrace-cgns names the workload's cgroup /inner, and a cgroup outside the namespace has no
# name but the reason. The twin without the namespace must name the same cgroup
# /mgtrace-cgns/inner: the check tells the two apart.
if [ -n "$CG" ] && command -v unshare > /dev/null && mkdir -p "$CG/mgtrace-cgns/inner" 2> /dev/null; then
	for mode in ns host; do
		pre=; [ $mode = ns ] && pre="unshare -C"
		sh -c "echo \$\$ > '$CG/mgtrace-cgns/cgroup.procs' || exit 9
			sh -c 'echo \$\$ > \"$CG/mgtrace-cgns/inner/cgroup.procs\" && exec $MG stress --threads 1 --duration 20' > /dev/null 2>&1 &
			$pre $MG top -a --by cgroup -I 400 -c 1 --json -o '$T/top-cgns-$mode.json' > /dev/null 2> '$T/top-cgns-$mode.err'
			kill -INT \$! 2> /dev/null; wait" < /dev/null
	done
	rmdir "$CG/mgtrace-cgns/inner" "$CG/mgtrace-cgns"
	python3 -c '
import json, sys
def rows(p):
    return [json.loads(l) for l in open(p) if l.strip()][-1]["rows"]
ns, host = rows(sys.argv[1]), rows(sys.argv[2])
names = [r["cgroup"] for r in ns]
out = [r for r in ns if r["cgroup"] is None]
good = ("/inner" in names and not any(n and n.startswith("/mgtrace-cgns") for n in names)
        and all(r["cgroup_unnamed"].startswith("outside the caller") for r in out)
        and all(r["cgroup_unnamed"] is None for r in ns if r["cgroup"] is not None))
why = [r["cgroup_unnamed"] for r in out]
print(("PASS" if good else "FAIL") + f" top --by cgroup in a cgroup namespace: rows {names}, unnamed {why}")
hn = [r["cgroup"] for r in host]
print(("PASS" if "/mgtrace-cgns/inner" in hn and "/inner" not in hn else "FAIL")
      + f" must-fail twin: the same cgroup outside the namespace is /mgtrace-cgns/inner: rows {hn}")' \
		"$T/top-cgns-ns.json" "$T/top-cgns-host.json" > "$T/top-cgns.chk" 2>&1
	tally top-cgroup-ns "$T/top-cgns.chk"
else
	skip "top --by cgroup in a cgroup namespace" "no cgroup2 mount to make a cgroup in, or no unshare"
fi
