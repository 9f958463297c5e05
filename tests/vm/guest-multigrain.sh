#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-multigrain.sh - guest tests for kernels with multigrain timestamps
# (6.13+).  Runs as /test.sh under /init; helpers come from /lib/mgtest.sh.
# Each mgtrace run sends its JSON to the host, where check-multigrain.py
# asserts the values (exact equality with the kernel's debugfs counters).
# With mgtest_smoke=1 in the environment (kernels.txt variant "smoke"), the long
# steps (ext4, contention, intervals, thresholds, clock step) are skipped.
set -eu
. /lib/mgtest.sh
MG=/bin/mgtrace

# stat_json BACKEND DIR [STAT_OPTS...] [-- STRESS_OPTS...]: mgtrace stat around
# mgtrace stress on DIR; prints the JSON lines, returns stat's exit status.
stat_json() {
	local be=$1 dir=$2 rc=0; shift 2
	local sopts="" wopts=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do sopts="$sopts $1"; shift; done
	[ $# -gt 0 ] && shift
	wopts="$*"
	# a fixed operation count (--ops) replaces the default 1 s duration
	case " $wopts " in *" --ops "*) ;; *) wopts="--duration 1 $wopts" ;; esac
	# shellcheck disable=SC2086 # word splitting of option lists is intended
	$MG stat --json -o /tmp/stat.json --backend "$be" $sopts -- \
		$MG stress --threads 2 --dir "$dir" $wopts > /tmp/stress.out 2>&1 || rc=$?
	cat /tmp/stat.json
	cat /tmp/stress.out >&2
	return $rc
}

# left_attached: number of BPF programs loaded once mgtrace has exited.
# The kernel frees a released program after a deferred grace period: wait up to 3 s.
left_attached() {
	local i n
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
		n=$(bpftool prog show 2>/dev/null | grep -c '^[0-9]*:' || true)
		[ "$n" = 0 ] && break
		sleep 0.1
	done
	echo "$n"
}

# full: true unless this is a smoke run
full() { [ "${mgtest_smoke:-0}" != 1 ]; }

# trace_json BACKEND: the trace JSON lines (all processes: -a), then the debugfs
# counters around the run
trace_json() {
	local before after rc=0
	before=$(cat /sys/kernel/debug/multigrain_timestamps)
	$MG trace --json -o /tmp/trace.json -a --backend "$1" -- $MG stress --threads 1 --files 1 \
		--ops 2000 > /dev/null 2> /tmp/trace.err || rc=$?
	after=$(cat /sys/kernel/debug/multigrain_timestamps)
	cat /tmp/trace.json
	# shellcheck disable=SC2086 # word splitting wanted
	printf '{"type":"debugfs","before":[%s],"after":[%s]}\n' "$(echo $before | tr ' ' ,)" \
		"$(echo $after | tr ' ' ,)"
	cat /tmp/trace.err >&2
	return $rc
}
# trace_shared: floor events (JSON lines only) of two threads writing and stat'ing one file
# (a fixed number of operations, not a duration: the trace's size must not grow with the
# machine's speed)
trace_shared() {
	local rc=0
	$MG trace --json -o /tmp/tsh.json -a --backend fentry --events floor -- \
		$MG stress --shared --threads 2 --files 1 --ops 3000 > /dev/null || rc=$?
	cat /tmp/tsh.json
	return $rc
}
# check_shared: check around the same shared-file stress (the report, written to -o FILE)
check_shared() {
	local rc=0
	$MG check --json -o /tmp/csh.json --backend fentry -- \
		$MG stress --shared --threads 2 --files 1 --duration 1 > /dev/null || rc=$?
	cat /tmp/csh.json
	return $rc
}
# top_floor BY: `top --json --backend fentry` around stress, inside `stat` (the kernel's
# counters, system-wide). Both outputs are held in a pipe until stat has ended: written to a
# file on tmpfs (FS_MGTIME) they would take fine stamps of their own outside top's window.
top_floor() {
	local out rc=0
	out=$($MG stat --json -- $MG top --json --backend fentry --by "$1" -i 60 -- \
		$MG stress --threads 2 --files 2 --ops 2000 2>&1) || rc=$?
	printf '%s\n' "$out" | grep '^{'
	printf '%s\n' "$out" | grep -v '^{' >&2
	return $rc
}
# differential BACKEND DIR: check against an observer outside mgtrace (tests/mgobserve.c), which
# counts with its own stat() calls every op after a query that left a ctime not later (link,
# unlink, rename, chmod, write, setxattr, create); check's violations must equal that count
# exactly (check-multigrain.py, tests/observer.py). Sends check's report, the observer's line and
# check's exit status; the exit status is judged on the host.
# Extra arguments go to mgobserve (default -n 100: every sequence, 100 iterations).
differential() {
	local be=$1 dir=$2 rc=0; shift 2
	[ $# -gt 0 ] || set -- -n 100
	$MG check --json -o /tmp/diff.json --backend "$be" --tree -- /bin/mgobserve "$@" "$dir" \
		> /tmp/obs.json 2> /tmp/diff.err || rc=$?
	cat /tmp/diff.json /tmp/obs.json
	printf '{"type":"exit","rc":%d}\n' "$rc"
	cat /tmp/diff.err >&2
	return 0
}
# the differential under check --forget (issue 29 part 2): 3000 files made (and stat()ed: a
# new tmpfs inode's creation event comes before shmem sets i_generation, under a key the inode
# GC then drops as gone, and an append in the same tick updates nothing) in COMMAND's tree beside mgobserve overflow --max-inodes 1000,
# so generations of the inode map begin and end while the observer works; check's count must
# still be the observer's
differential_forget() {
	local dir=$1 rc=0
	mkdir -p "$dir-live"
	$MG check --json -o /tmp/diff.json --backend tracepoint --tree --forget --max-inodes 1000 -- \
		sh -c "i=0; while [ \$i -lt 3000 ]; do echo x > \"$dir-live/f\$i\"; [ -e \"$dir-live/f\$i\" ]; i=\$((i+1)); done &
		       p=\$!; /bin/mgobserve -n 300 '$dir'; s=\$?; wait \$p; exit \$s" \
		> /tmp/obs.json 2> /tmp/diff.err || rc=$?
	cat /tmp/diff.json /tmp/obs.json
	printf '{"type":"exit","rc":%d}\n' "$rc"
	cat /tmp/diff.err >&2
	rm -rf "$dir-live"
	return 0
}
# MGTRACE_VM_CONFORM_ONLY=1 (vm-test.sh: mgtest_conform_only=1): the conform steps alone
if grep -qw mgtest_conform_only=1 /proc/cmdline; then
	. /lib/mgconform.sh
	exit 0
fi
check mgtrace-present test -x $MG
check mgobserve-present test -x /bin/mgobserve
check tmpfs-dir-ctime-present test -x /bin/tmpfs-dir-ctime
check mgorder-present test -x /bin/mgorder
full && mount_ext4 /mnt/x
run_json probe 0 $MG probe --json
check probe-leaves-nothing test "$(left_attached)" = 0
# arm64 guests only (issue 30): the BTF's SHA256 (vm-test.sh compares it with the BTF that
# tools/btf-from-image.py cuts out of the vmlinuz) and `mgtrace clocks` (check-multigrain.py:
# each clock's served_by agrees with its counted system calls); the amd64 guests skip it
if [ "$(uname -m)" = aarch64 ]; then
	echo "MGTEST INFO btf-sha256 $(sha256sum /sys/kernel/btf/vmlinux | cut -d' ' -f1)"
	run_json clocks 0 $MG clocks --json --iterations 2000
fi
for be in fentry kprobe tracepoint; do
	run_json "stat-$be-tmpfs" 0 stat_json "$be" /tmp
	full && run_json "stat-$be-ext4" 0 stat_json "$be" /mnt/x
done
for be in fentry kprobe; do
	# fixed operation count, so that the hot-path counts can be related to it
	run_json "hot-$be" 0 stat_json "$be" /tmp --hot -- --threads 1 --files 1 --ops 2000
done
# stat --latency: histogram totals equal fine_stamps and ctime_updates of the same window
run_json latency-fentry 0 stat_json fentry /tmp --latency
full && run_json latency-kprobe 0 stat_json kprobe /tmp --latency
# mgtrace trace: floor events with each function-probe backend (1 thread, 1 file,
# 2000 write+stat pairs: nearly every write needs a fine-grained stamp)
for be in fentry kprobe; do
	run_json "trace-$be" 0 trace_json "$be"
done
# mgtrace top with fentry: floor swaps per process (and per file) sum to the kernel's delta
run_json top-fentry 0 top_floor pid
full && run_json top-file-fentry 0 top_floor file
# mgtrace check with every backend (fentry and kprobe also check the two floor invariants)
# (exit 4 accepted only for BPF runs a preemptible kernel skipped: check-multigrain.py)
for be in fentry kprobe tracepoint; do
	run_json "check-$be" 0,4 $MG check --json --backend "$be" --duration 1
done
# the differential steps, on tmpfs and (full set) on ext4, with every backend
for be in fentry kprobe tracepoint; do
	run_json "diff-$be-tmpfs" 0 differential "$be" /tmp/mgdiff
	full && run_json "diff-$be-ext4" 0 differential "$be" /mnt/x/mgdiff
done
run_json diff-forget-tmpfs 0 differential_forget /tmp/mgdiff-forget
# issue 31: a tmpfs directory stat()ed, then linked into and unlinked from, 400 times
# (mgobserve -o link,unlink) under check with each backend. Unpatched fs/libfs.c copies the
# child's ctime onto the directory: check FAILs with as many set-made violations as the
# observer's stat() calls saw unchanged; with libfs-dir-ctime.patch (kernels.txt libfs=patched)
# the observer sees 0 and check PASSes (check-multigrain.py)
for be in fentry kprobe tracepoint; do
	run_json "dirctime-$be" 0 differential "$be" /tmp/mgdirct -n 400 -o link,unlink
done
# the same under check --known with the shipped file (tracepoint, judged in BPF): the fault is
# counted as known and the run passes; an injected regression still fails it
dirctime_known() {
	local rc=0
	env ${2:+MGTRACE_TEST_INJECT=$2} $MG check --json -o /tmp/dk.json --backend tracepoint \
		--known /known-faults.json --tree -- /bin/mgobserve -n 200 -o link,unlink "$1" \
		> /tmp/dk.obs 2> /tmp/dk.err || rc=$?
	cat /tmp/dk.json /tmp/dk.obs
	printf '{"type":"exit","rc":%d}\n' "$rc"
	cat /tmp/dk.err >&2
	return 0
}
run_json dirctime-known 0 dirctime_known /tmp/mgdirk
run_json dirctime-known-inject 0 dirctime_known /tmp/mgdirk2 1
# check's text report of the same (tracepoint), on stderr, around the reproducer of
# docs/findings/tmpfs-dir-ctime.md
dirctime_text() {
	local rc=0
	$MG check --backend tracepoint --tree -- /bin/tmpfs-dir-ctime -n 200 /tmp/mgrepro-c >&2 ||
		rc=$?
	printf '{"type":"exit","rc":%d}\n' "$rc"
}
run_json dirctime-text 0 dirctime_text
# mgtrace trace of one iteration of the reproducer on its directory (fentry: floor events too),
# the text on stderr
dirctime_trace() {
	local rc=0
	mkdir -p /tmp/mgtrace-tr
	$MG trace --backend fentry --path /tmp/mgtrace-tr -- /bin/tmpfs-dir-ctime -n 1 /tmp/mgtrace-tr \
		>&2 || rc=$?
	printf '{"type":"exit","rc":%d}\n' "$rc"
}
run_json dirctime-trace 0 dirctime_trace
# the reproducer alone, no mgtrace loaded: its own counts, one JSON line per op
repro() {
	/bin/tmpfs-dir-ctime -n 1000 "$1" > /tmp/repro.txt || return 1
	awk -F'[: ]+' '{ printf "{\"type\":\"repro\",\"op\":\"%s\",\"unchanged\":%d,\"done\":%d}\n", $1, $2, $4 }' \
		/tmp/repro.txt
	cat /tmp/repro.txt >&2
}
run_json repro-tmpfs 0 repro /tmp/mgrepro
full && run_json repro-ext4 0 repro /mnt/x/mgrepro
# mgtrace conform (issue 41) on every filesystem the guest can mount (guest-conform.sh)
. /lib/mgconform.sh
# cross-file ordering over link and unlink (the patch stamps the child before the
# directory): tests/mgorder.c judges every op against every op that ended before it began;
# -D doctors its data, which must then fail
run_json order-tmpfs 0 /bin/mgorder -n 2000 -t 2 /tmp/mgorder
run_json order-tmpfs-doctored 0 /bin/mgorder -D -n 200 -t 2 /tmp/mgorder
# busybox tar x over an existing tree on tmpfs (it unlinks each entry before writing it),
# judged by check with each backend (check-multigrain.py: FAIL unpatched, PASS patched)
mkdir -p /tmp/tsrc/a /tmp/tsrc/b /tmp/tarx
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	echo "$i" > "/tmp/tsrc/a/f$i"; echo "$i" > "/tmp/tsrc/b/f$i"
done
tar -cf /tmp/t.tar -C /tmp/tsrc a b && tar -xf /tmp/t.tar -C /tmp/tarx
# (check -- COMMAND leaves stdout to COMMAND: the report is written with -o)
tar_check() {
	local rc=0
	$MG check --json -o /tmp/tar.json --backend "$1" --tree -- tar -xf /tmp/t.tar -C /tmp/tarx ||
		rc=$?
	cat /tmp/tar.json
	printf '{"type":"exit","rc":%d}\n' "$rc"
}
for be in fentry kprobe tracepoint; do
	run_json "tar-$be-tmpfs" 0 tar_check "$be"
done
# overlayfs with a tmpfs upper layer (issue 31): 300 appends, each to a file only in the
# lower layer, so each a copy-up; ovl_copy_up_one() getattr()s the upper parent (its ctime is
# QUERIED), and tmpfs takes O_TMPFILE, so the copy is linked into it (ovl_do_link ->
# shmem_link -> simple_link). Judged by check with each backend (check-multigrain.py: FAIL
# unpatched, every violation set by inode_set_ctime_to_ts; PASS patched). The overlay module
# is in the initramfs where the kernel has modules (mkinitramfs.sh); a kernel without
# overlayfs sends a skip record.
overlay_check() {
	local d=/tmp/ovl-$1 rc=0 i
	if ! grep -qw overlay /proc/filesystems; then
		echo '{"type":"skip","reason":"this kernel has no overlayfs (built without CONFIG_OVERLAY_FS, or no module)"}'
		return 0
	fi
	mkdir -p "$d/L" "$d/U" "$d/m"
	for i in $(seq 1 300); do echo "$i" > "$d/L/f$i"; done
	mount -t tmpfs tmpfs "$d/U" && mkdir "$d/U/u" "$d/U/w" &&
		mount -t overlay overlay -o "lowerdir=$d/L,upperdir=$d/U/u,workdir=$d/U/w" "$d/m" || return 1
	$MG check --json -o /tmp/ovl.json --backend "$1" --tree -- \
		sh -c "for i in \$(seq 1 300); do echo x >> $d/m/f\$i; done" || rc=$?
	cat /tmp/ovl.json
	printf '{"type":"exit","rc":%d}\n' "$rc"
	umount "$d/m" "$d/U"
}
for be in fentry kprobe tracepoint; do
	run_json "overlay-$be-tmpfs" 0 overlay_check "$be"
done
# a violation found in BPF reaches the verdict with each backend: MGTRACE_TEST_INJECT=1 is a
# test hook that judges a synthetic regression through BPF_PROG_TEST_RUN (exit 1)
for be in fentry kprobe tracepoint; do
	run_json "check-inject-$be" 1 env MGTRACE_TEST_INJECT=1 $MG check --json --backend "$be" \
		--duration 0.5
done
# the fine-stamp invariant can fail: MGTRACE_TEST_INVERT_FINE=1 is a test hook that inverts
# every decision BPF makes, so each decided fine stamp must be reported as unneeded (exit 1)
run_json check-invert-fine-fentry 1 env MGTRACE_TEST_INVERT_FINE=1 $MG check --json \
	--backend fentry --duration 1
full && run_json check-invert-fine-kprobe 1 env MGTRACE_TEST_INVERT_FINE=1 $MG check --json \
	--backend kprobe --duration 1
# judged in user space: the floor object still takes a violation's stack at the violation only
full && run_json check-invert-fine-user 1 env MGTRACE_TEST_INVERT_FINE=1 $MG check --json \
	--judge user --backend fentry --duration 1
if full; then
	# contention: many threads on 2 CPUs taking fine-grained stamps at once
	run_json contention 0 stat_json fentry /tmp -- --threads 8 --files 1
	run_json interval 0 $MG stat --json -i 0.3 -c 2 --backend kprobe
	run_json check-ext4 0 $MG check --json --duration 1 --dir /mnt/x
	# two threads write and fstat one shared file: one thread's fstat can land between the
	# other's two captures of the fine-stamp decision (undecided, never a fault)
	run_json trace-shared 0 trace_shared
	run_json check-shared 0 check_shared
	# a threshold below the observed floor-swap ratio must fail (exit 1) and show the figure
	run_json check-threshold 1 $MG check --json --duration 1 --max-floor-swap-ratio 0.0001
	# a backward realtime step (10 s) during the run: regressions are attributed to it
	# (stepped 1 s after the check's workload directory appears, so within the run)
	( i=0; while ! ls -d /tmp/mgtrace-check.* > /dev/null 2>&1 && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1)); done
	  sleep 1; date -s "@$(( $(date +%s) - 10 ))" > /dev/null ) &
	# exit 4 (INCONCLUSIVE) is accepted only when the JSON names lost events or BPF runs the
	# kernel skipped (preempted programs under emulation); check-multigrain.py checks that
	run_json check-clockstep 0,4 $MG check --json --duration 6
	wait
	umount /mnt/x
fi
check stat-leaves-nothing test "$(left_attached)" = 0
