# SPDX-License-Identifier: GPL-2.0
# 69-differential.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# check against an observer outside mgtrace (issue 32): tests/mgobserve.c counts, with its own
# stat() calls, every create, link, unlink, rename, chmod, write and setxattr after a query that
# left a ctime not later; check --tree around it must count exactly as many violations, each
# stored report a break the observer saw, having judged every op and every stat()
# (tests/observer.py compare; its selftest shows each comparison failing on doctored copies).
# On tmpfs, ext4, ext4 -I 128 (whole seconds: an equal ctime is granularity), xfs, btrfs and
# overlayfs over tmpfs; tmpfs also beside an outside stress (load). (--tree needs judging in
# BPF; the user-space rules are the same code, include/mg_rules.h, run on 62's inputs.)
echo "# differential: check against the workload's own stat() calls"
OBS=build/mgobserve
python3 tests/observer.py selftest > "$T/observer-selftest.chk" 2>&1
tally observer-selftest "$T/observer-selftest.chk"
# diffcase NAME DIR [--gran-coarse] [-- CHECK-ARGS...]: check --tree -- mgobserve -n 100 DIR
diffcase() {
	local name=$1 dir=$2 gran= rc; shift 2
	[ "${1:-}" = --gran-coarse ] && { gran=--gran-coarse; shift; }
	[ "${1:-}" = -- ] && shift
	$MG check --json -o "$T/$name.json" --tree "$@" -- $OBS -n 100 "$dir" \
		> "$T/$name.obs" 2> "$T/$name.err"; rc=$?
	python3 tests/observer.py compare "$T/$name.json" "$T/$name.obs" $rc $gran \
		> "$T/$name.chk" 2>&1
	tally "$name" "$T/$name.chk"
	echo "#   $name: $(grep -m1 "check's violations" "$T/$name.chk" | sed 's/^[a-zA-Z]* *//')"
	schema_valid "$name" check "$T/$name.json"
}
mkdir -p "$T/dt"
mount -t tmpfs mgtrace-diff "$T/dt"
diffcase diff-tmpfs "$T/dt/d"
# under load: an outside stress on another tmpfs (out of --tree's scope) changes nothing
$MG stress --threads 2 --duration 30 > /dev/null 2>&1 &
stress_pid=$!
diffcase diff-tmpfs-load "$T/dt/dl"
kill "$stress_pid" 2>/dev/null; wait "$stress_pid" 2>/dev/null
# --forget (issue 29 part 2): the same count while more live inodes than --max-inodes 2000
# churn in COMMAND's tree, so that generations of the inode map begin and end while the
# observer works (forget_diff, tests/lib.sh); on xfs and btrfs below as well, where the
# observer sees no break: forgetting must not make one either; and on ext4 (also -I 128), where
# the 6,000 creations once left 1,393 events untracked (a generation filled before user space
# began the next), until BPF began each generation itself (docs/check.md)
forget_diff diff-tmpfs-forget "$T/dt/df" $MG $OBS
# overlayfs over tmpfs: events come from the real (upper) inodes, the stat()s through overlay
mkdir -p "$T/dt/lower" "$T/dt/upper" "$T/dt/work" "$T/ovl"
if mount -t overlay overlay -o "lowerdir=$T/dt/lower,upperdir=$T/dt/upper,workdir=$T/dt/work" "$T/ovl"; then
	diffcase diff-overlay "$T/ovl/d"
	umount "$T/ovl"
else
	bad "diff-overlay: overlayfs over tmpfs could not be mounted"
fi
umount "$T/dt"
# diffimg [--forget] NAME MKFS... -- [CASE-ARGS]: a loop image made with MKFS, mounted, one
# diffcase (--forget: and one forget_diff in the same image)
diffimg() {
	local forget= gran= name mkfs=()
	[ "$1" = --forget ] && { forget=1; shift; }
	name=$1; shift
	while [ "$1" != "--" ]; do mkfs+=("$1"); shift; done; shift
	truncate -s 320M "$T/$name.img"
	mkdir -p "$T/$name.mnt"
	if "${mkfs[@]}" "$T/$name.img" > /dev/null 2>&1 && mount -o loop "$T/$name.img" "$T/$name.mnt"; then
		diffcase "$name" "$T/$name.mnt/d" "$@"
		if [ "${1:-}" = --gran-coarse ]; then gran=$1; fi
		[ -z "$forget" ] || FORGET_GRAN=$gran forget_diff "$name-forget" "$T/$name.mnt/df" $MG $OBS
		umount "$T/$name.mnt"
	else
		bad "$name: ${mkfs[*]} loop image could not be made or mounted"
	fi
	rm -f "$T/$name.img"
}
diffimg --forget diff-ext4 mkfs.ext4 -q -F --
diffimg --forget diff-ext4-128 mkfs.ext4 -q -F -I 128 -- --gran-coarse
diffimg --forget diff-xfs mkfs.xfs -q -f --
diffimg --forget diff-btrfs mkfs.btrfs -q -f --
# the built-in workload is judged system-wide: the observer's breaks in another process, on a
# tmpfs of its own, FAIL it, and its report says they all lie outside the workload's filesystem
# (workload_dir.faults_elsewhere, the reason); with the observer on the workload's own tmpfs
# (-D there) they count as the workload's filesystem's (faults_elsewhere 0): the count can tell
# both (a tester's finding: a -D ext4 run failed on another program's tmpfs directory)
elsewhere() { # NAME OBSERVER-TMPFS WORKLOAD-PARENT WANT(all|none)
	local name=$1 od=$2 wd=$3 want=$4 rc p
	( end=$((SECONDS + 4)); while [ $SECONDS -lt $end ]; do
		mkdir -p "$od/o"; $OBS -n 100 "$od/o" > /dev/null 2>&1; rm -rf "$od/o"; done ) & p=$!
	sleep 0.3
	$MG check -d 2 -D "$wd" --json -o "$T/$name.json" > /dev/null 2> "$T/$name.err"; rc=$?
	wait $p
	python3 - "$T/$name.json" "$rc" "$want" > "$T/$name.chk" 2>&1 <<'PY'
import json, sys
r = [o for o in map(json.loads, open(sys.argv[1])) if o.get("type") == "check"][0]
faults = sum(r["violations"][k] for k in r["violations"]) if isinstance(r["violations"], dict) else None
n = r["workload_dir"]["faults_elsewhere"]
ok = sys.argv[2] == "1" and r["verdict"] == "FAIL" and n >= 0
if sys.argv[3] == "all":
    ok = ok and n > 0 and f"{n} of the violations on other filesystems" in r["reason"]
else:
    ok = ok and n == 0 and "other filesystems" not in r["reason"]
print(("PASS " if ok else "FAIL ") + f"exit {sys.argv[2]}, {r['verdict']}, faults_elsewhere {n} "
      f"(want {sys.argv[3]}): {r['reason'][:200]}")
PY
	tally "$name" "$T/$name.chk"
	echo "#   $name: $(sed 's/^[A-Z]* //' "$T/$name.chk" | cut -c1-160)"
	schema_valid "$name" check "$T/$name.json"
}
mkdir -p "$T/ew1" "$T/ew2"
mount -t tmpfs mgtrace-ew1 "$T/ew1" && mount -t tmpfs mgtrace-ew2 "$T/ew2" &&
	elsewhere check-elsewhere-other "$T/ew1" "$T/ew2" all &&
	elsewhere check-elsewhere-same "$T/ew2" "$T/ew2" none
umount "$T/ew1" "$T/ew2" 2>/dev/null
