#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-nomultigrain.sh - guest tests for kernels without multigrain
# timestamps (< 6.13).  Runs as /test.sh under /init; helpers come from
# /lib/mgtest.sh.  probe must report the lack and exit 0; stat must exit 3
# with one line; nothing may stay loaded.
set -eu
. /lib/mgtest.sh
MG=/bin/mgtrace

left_attached() { bpftool prog show 2>/dev/null | grep -c '^[0-9]*:' || true; }

check mgtrace-present test -x $MG
check no-mgts-debugfs test ! -e /sys/kernel/debug/multigrain_timestamps
run_json probe 0 $MG probe --json
run_json stat-refused 3 $MG stat -- true
for be in fentry kprobe tracepoint; do
	run_json "stat-refused-$be" 3 $MG stat --backend "$be" -- true
done
check nothing-left-attached test "$(left_attached)" = 0
