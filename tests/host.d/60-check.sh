# SPDX-License-Identifier: GPL-2.0
# 60-check.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# mgtrace check on the live kernel: the built-in workload on tmpfs and ext4, two real
# programs nobody here wrote (git, tar), and the cases that must not pass: a tiny ring
# buffer (inconclusive, exit 4), a threshold below the observed figure (exit 1), too few
# inodes tracked (exit 4).
echo "# check"
check_case check-tmpfs 0 --verdict PASS --floor unchecked -- --duration 2
check_case check-ext4 0 --verdict PASS -- --duration 2 --dir /var/tmp

# real programs: git committing in a loop, tar extracting a tree
mkdir -p "$T/git" "$T/tar"
git_loop() {
	cd "$T/git" && git init -q . && git config user.email t@example.invalid &&
		git config user.name mgtrace && for i in $(seq 1 15); do
			echo "$i" >> file && echo "$i" > "f$i" && git add -A && git commit -qm "c$i" || return 1
		done
}
export -f git_loop 2>/dev/null; export T
check_case check-git 0 --verdict PASS --command -- -- bash -c "$(declare -f git_loop); git_loop"
tar -C /usr/include -cf "$T/tree.tar" linux
check_case check-tar 0 --verdict PASS --command -- -- tar -C "$T/tar" -xf "$T/tree.tar"
[ -f "$T/tar/linux/fs.h" ] && ok "tar extracted the tree under check" || bad "tar did not extract"

# must not pass: losses, a breached threshold, untracked inodes
# (every event crosses the ring buffer only when judged in user space; judged in BPF, only
# violations do: 63-check-bpf.sh fills it with injected ones)
check_case check-tiny-ringbuf 4 --verdict INCONCLUSIVE --min-lost 1 -- --ringbuf-size 4096 --rate 0 --duration 1 --judge user
grep -q "lost" "$T/check-tiny-ringbuf.json" && ok "tiny ring buffer: loss reported" || bad "tiny ring buffer: no loss in report"
check_case check-threshold 1 --verdict FAIL --breach floor_swaps_per_update -- --duration 1 --max-floor-swap-ratio 0.0001
$MG check --duration 1 --max-floor-swap-ratio 0.0001 > "$T/th.txt" 2>&1; rc=$?
[ $rc = 1 ] && grep -q '^FAIL   floor_swaps_per_update  *0\.[0-9]* > 0.0001 (limit)' "$T/th.txt" && grep -q '^verdict: FAIL' "$T/th.txt" \
	&& ok "threshold breach: text names the figure and fails" || bad "threshold text: rc $rc $(grep floor_swaps_per_update "$T/th.txt")"
# "-0" is a limit of 0 (a gate: only below 0 turns one off), written 0, never -0
$MG check --duration 0.3 --threads 1 --json --max-floor-swap-ratio -0 > "$T/negz.json" 2> /dev/null
grep -q '"figure":"floor_swaps_per_update","formula":"[^"]*","value":[^,]*,"limit":0' "$T/negz.json" &&
	! grep -q '"limit":-' "$T/negz.json" && ok "--max-floor-swap-ratio -0: a gate at 0, its limit written 0" \
	|| bad "--max-floor-swap-ratio -0: $(grep -o '"limit":[^,]*' "$T/negz.json" | head -2)"
check_case check-max-inodes 4 --verdict INCONCLUSIVE -- --duration 1 --max-inodes 1

# JUnit for CI systems, parsed with a real XML parser
$MG check --duration 1 --max-floor-swap-ratio 0.0001 --junit "$T/junit.xml" > /dev/null 2>&1
python3 tests/checkjson.py junit-gate "$T/junit.xml" 11 floor_swaps_per_update \
	"expected floor_swaps_per_update <= 0.0001 (limit), got " > "$T/junit.chk" 2>&1
tally junit "$T/junit.chk"
# the same testcases every run of one command, whatever its outcome (issue 28 item 2): two runs
# of check -d 1 --junit, and a third cut short by SIGINT (INCONCLUSIVE, exit 4); two runs refused
# by a seccomp filter that denies bpf() (exit 3: the error suite). Twins: the checker fails on a
# copy of the second suite with a testcase missing, and on a refused suite beside a judged one
for i in 1 2; do $MG check -d 1 --junit "$T/js$i.xml" > /dev/null 2>&1; done
sig_run INT 1.5 /dev/null /dev/null $MG check -d 4 --junit "$T/js3.xml"; rc=$?
[ $rc = 4 ] && ok "check -d 4 --junit, SIGINT after 1.5 s: INCONCLUSIVE, exit 4" || bad "check -d 4, SIGINT: exit $rc, want 4"
# (-d 4 and -d 1 are one command line to the testcases: the duration names none of them)
for b in js2 js3; do
	python3 tests/checkjson.py junit-same "$T/js1.xml" "$T/$b.xml" > "$T/js.chk" 2>&1
	tally "junit: check -d 1 and the $b run have the same testcases" "$T/js.chk"
done
for i in 1 2; do build/denybpf $MG check -d 1 --junit "$T/je$i.xml" > /dev/null 2>&1; done
python3 tests/checkjson.py junit-same "$T/je1.xml" "$T/je2.xml" > "$T/js.chk" 2>&1
tally "junit: two refused runs (exit 3) have the same testcase" "$T/js.chk"
python3 - "$T/js2.xml" "$T/js2-less.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]); s = t.getroot(); s.remove(s.findall("testcase")[-1]); t.write(sys.argv[2])
PY
for b in js2-less je1; do
	python3 tests/checkjson.py junit-same "$T/js1.xml" "$T/$b.xml" > "$T/js.chk" 2>&1
	grep -q '^FAIL ' "$T/js.chk" && ok "junit-same twin: check -d 1 beside $b is told apart" \
		|| bad "junit-same twin: check -d 1 beside $b passes"
done
# skip messages are never cut mid-word (issue 28 item 2): where only tracepoints attach, each
# reason probe gives for a refused backend is whole in the floor invariants' skipped message
mapfile -t rs < <($MG probe --json 2> /dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)["backends"]
for b in ("fentry", "kprobe"):
    if not d[b]["attachable"]:
        print(d[b]["reason"])')
[ "$HOST_BACKEND" = tracepoint ] || rs=()	# the floor invariants are skipped only there
python3 tests/checkjson.py junit-skips "$T/js1.xml" "${rs[@]}" > "$T/js.chk" 2>&1
tally "junit: skipped messages whole (${#rs[@]} refused backends' reasons)" "$T/js.chk"

badcase "check: bad ratio" 2 "invalid value" $MG check --max-floor-swap-ratio abc
badcase "check: ring buffer not a power of 2" 2 "ringbuf-size" $MG check --ringbuf-size 5000
badcase "check: zero inodes" 2 "invalid value" $MG check --max-inodes 0
badcase "check: negative rate" 2 "invalid value" $MG check --rate -1
badcase "check: unknown option" 2 "unrecognized option" $MG check --frob
[ "$(left_attached)" = 0 ] && ok "nothing left attached after check runs" || bad "check left BPF objects behind"
# a failing COMMAND fails the check (CI must see a broken build), with the status in the reason
$MG check --json -o "$T/cf.json" -- false > /dev/null 2>&1; rc=$?
[ $rc = 1 ] && grep -q 'COMMAND exited with status 1' "$T/cf.json" && ok "check -- false: FAIL, exit 1" \
	|| bad "check -- false: exit $rc"
badcase "check: unwritable --junit is refused before the run" 2 "cannot open" $MG check --junit /proc/x -d 0.2
badcase "check: missing --dir" 2 "cannot use --dir" $MG check -D /nonexistent
# a regular file: not a directory, not "Permission denied" (access(X_OK) fails even for root)
: > "$T/not-a-dir"
badcase "check: --dir a regular file" 2 "cannot use --dir '$T/not-a-dir': Not a directory" \
	$MG check -D "$T/not-a-dir" -d 0.1
badcase "check: --dir /proc" 3 "(it exists: its filesystem creates no directories)" \
	$MG check -D /proc -d 0.1
badcase "check: --baseline-factor without --baseline" 2 "without --baseline gates nothing" \
	$MG check --baseline-factor 2 -d 0.2
# a --dir on a filesystem without FS_MGTIME (ramfs) is refused: its timestamps are all
# coarse-grained, a PASS there would check nothing (the kernel says so: no fill_mg_cmtime);
# the must-pass direction is check-ext4 above (and every --dir run on tmpfs, xfs, btrfs)
mkdir -p "$T/ramfs" && if mount -t ramfs mgtrace-test "$T/ramfs"; then
	badcase "check: --dir on ramfs (not multigrain) is refused" 3 "is on ramfs, which is not multigrain" \
		$MG check -d 0.3 --dir "$T/ramfs"
	[ -z "$(ls -A "$T/ramfs")" ] && ok "check --dir on ramfs: its workload directory removed" \
		|| bad "check --dir on ramfs left $(ls -A "$T/ramfs")"
	umount "$T/ramfs"
else
	skip "check: --dir on ramfs" "cannot mount ramfs"
fi
# its filesystem lazily unmounted during the run (umount -l): the workload's directory is
# still removed (through descriptors opened at the start), not left on the image
if truncate -s 32M "$T/lz.img" && mkfs.ext4 -q -F "$T/lz.img" && mkdir -p "$T/lz" &&
	mount -o loop "$T/lz.img" "$T/lz"; then
	$MG check -d 1.5 --dir "$T/lz" > "$T/lz.out" 2>&1 & p=$!
	sleep 0.8; umount -l "$T/lz"; wait $p; rc=$?
	sleep 0.5
	if mount -o loop "$T/lz.img" "$T/lz"; then
		left=$(ls -A "$T/lz" | grep mgtrace-check)
		[ $rc = 0 ] && [ -z "$left" ] && ok "check --dir, its filesystem lazily unmounted mid-run: PASS, nothing left on it" \
			|| bad "check --dir, umount -l mid-run: exit $rc, left on the image: $left ($(tail -1 "$T/lz.out"))"
		umount "$T/lz"
	else
		bad "check --dir, umount -l mid-run: the image cannot be mounted again"
	fi
else
	skip "check: --dir lazily unmounted" "cannot make or mount an ext4 image"
fi
# the fine-stamp test hook is announced and named in the report even where the floor
# invariants cannot be checked (tracepoints only: they stay unchecked, the verdict holds)
if tracepoint_host "check: invert-fine hook where the floor is unchecked"; then
	MGTRACE_TEST_INVERT_FINE=1 $MG check --json -o "$T/inv.json" -d 0.5 > /dev/null 2> "$T/inv.err"
	rc=$?
	grep -q "TEST HOOK MGTRACE_TEST_INVERT_FINE" "$T/inv.err" && [ $rc = 0 ] &&
		python3 tests/checkjson.py check "$T/inv.json" --floor unchecked > /dev/null &&
		grep -q '"test_hook"' "$T/inv.json" && ok "check: the invert-fine test hook is announced and reported" \
		|| bad "check: invert-fine hook: exit $rc, $(cat "$T/inv.err")"
fi
# SIGKILL of the built-in workload: its tmpfs lives in mgtrace's private mount namespace and
# dies with it (the empty directory may stay). The mount is looked for in the process's own
# mountinfo while it runs (the test's must-fail side: it is seen there, and not in the host's;
# a tmpfs of another mgtrace on the host, copied into the namespace, is not it), then on the host.
for sub in check stress; do
	$MG $sub -d 5 > /dev/null 2>&1 & kpid=$!
	kdir=""
	for _ in $(seq 1 50); do
		kdir=$(awk -v p="/tmp/mgtrace-$sub." 'FNR == 1 { n++ } index($5, p) == 1 && / - tmpfs / {
			if (n == 1) host[$5] = 1; else if (!($5 in host)) print $5 }' \
			/proc/self/mountinfo "/proc/$kpid/mountinfo" 2>/dev/null | head -1)
		[ -n "$kdir" ] && break
		sleep 0.1
	done
	sleep 1
	kill -KILL $kpid; wait $kpid 2>/dev/null
	if [ -z "$kdir" ]; then
		bad "$sub SIGKILLed: no tmpfs of its own seen in its mountinfo while it ran"
	elif awk -v d="$kdir" '$5 == d { f = 1 } END { exit !f }' /proc/self/mountinfo; then
		bad "$sub SIGKILLed: its tmpfs $kdir is left mounted on the host"
	else
		ok "$sub SIGKILLed: its tmpfs $kdir went with it"
		rmdir "$kdir" 2>/dev/null
	fi
done
# a QUERIED update whose previous ctime was never observed (stat'ed before the check, written
# under it): its example names the missing base, never the one observation twice
echo a > "$T/qf"; stat "$T/qf" > /dev/null
$MG check -o "$T/qf.txt" -- sh -c "echo b >> '$T/qf'" > /dev/null 2>&1; rc=$?
ln=$(grep -m1 "^  e.g. unverified_queried_updates: .*(.*: qf) ctime " "$T/qf.txt")
if [ $rc = 0 ] && echo "$ln" | grep -q ") ctime (previous ctime not observed) then [0-9]*\.[0-9]\{9\} (pid [0-9]* sh "; then
	ok "unverified_queried_updates example: previous ctime not observed, then the update"
else
	bad "unverified_queried_updates example (exit $rc): '$ln'"
fi
