#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-host-tests.sh - mgtrace's tests on this machine's live kernel (run as root).
#
# 1. unit tests (tests/unit/) and the JSON checker's self-test (every check fails
#    on a case that must fail);
# 2. probe: the backends this kernel allows, with their reasons;
# 3. stat around the built-in stress on tmpfs and on ext4: BPF counts lie in the bracket of
#    the kernel's own debugfs readings for the same window, floor swaps > 0, stat queries > 0;
#    the same beside an outside stress (a busy machine), a doctored count reading NO;
# 4. intervals, COMMAND exit status, SIGINT;
# 5. bad input: exit code, one-line message, and no BPF program or link left behind.
# Each part is a file in tests/host.d/, run in name order (MGTRACE_TESTS="20-probe 30-stat"
# picks some); shared helpers are in tests/lib.sh.
# Ends with "N passed, M failed, K skipped" (a test this host cannot run is skipped with
# its reason, never passed); exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
MG=${MGTRACE:-./mgtrace}
T=$(mktemp -d /tmp/mgtrace-test.XXXXXX)
# at the end, also after a part was killed mid-way: what a part mounted under $T (tmpfs, loop
# images) unmounted, deepest first, then $T removed; a mount left behind outlived its run
cleanup() {
	awk -v t="$T/" 'index($2, t) == 1 { print $2 }' /proc/self/mounts | sort -r |
		while read -r m; do umount -l "$m" 2> /dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
pass=0 fail=0 skipped=0

[ "$(id -u)" = 0 ] || { echo "run-host-tests: must run as root"; exit 1; }
# One live-kernel test or benchmark at a time: they count the same global events.
# The holder writes its pid into the lock file, so that a run that waits says for whom.
LOCK=/run/lock/mgtrace-tests.lock
exec 9>> "$LOCK"
if ! flock -n 9; then
	holder=$(cat "$LOCK" 2> /dev/null)
	echo "# waiting for $LOCK, held by PID ${holder:-unknown}${holder:+ ($(tr '\0' ' ' < /proc/$holder/cmdline 2> /dev/null | cut -c1-80))}"
	flock 9
fi
echo $$ > "$LOCK"
# mgtrace reports debugfs and securityfs problems as such; the tests need them mounted.
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
mountpoint -q /sys/kernel/security || mount -t securityfs none /sys/kernel/security
. tests/lib.sh
# What this host allows, detected, not assumed: the backend auto chooses (tracepoint under
# lockdown without kprobes, as on the project's machines).
HOST_BACKEND=$($MG probe --json 2>/dev/null | python3 tests/checkjson.py probe-field auto_backend 2>/dev/null)
# What the default stat uses: kernel (the kernel's per-CPU counters, no probe) where readable.
HOST_STAT_BACKEND=$($MG probe --json 2>/dev/null | python3 tests/checkjson.py probe-field stat_default_backend auto_backend 2>/dev/null)
echo "# host: auto backend ${HOST_BACKEND:-unknown}, default stat backend ${HOST_STAT_BACKEND:-unknown}, lockdown $(grep -o '\[[a-z]*\]' /sys/kernel/security/lockdown 2>/dev/null || echo unknown)"
FAILED_LIST=$T/failed-list
: > "$FAILED_LIST"
for f in tests/host.d/*.sh; do
	n=$(basename "$f" .sh)
	# each part owns what it makes: the BPF ids there before it are not its (lib.sh)
	case " ${MGTRACE_TESTS:-$n} " in *" $n "*) PART=$n; bpf_mark; . "$f" ;; esac
done
# the failures again, by part, just above the summary: a CI log often keeps only its tail
if [ -s "$FAILED_LIST" ]; then
	echo "# failed ($(wc -l < "$FAILED_LIST")):"
	cat "$FAILED_LIST"
fi
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail = 0 ]
