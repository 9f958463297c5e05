# SPDX-License-Identifier: GPL-2.0
# 70-latency.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# stat --latency needs a function-probe backend. This kernel refuses fentry and kprobes
# (the histograms themselves are tested in the VM stage: tests/vm/guest-multigrain.sh),
# so only the refusals are tested here: exit code, one line, nothing left attached.
# The histogram math is in tests/unit/test_latency.c (UNIT_TEST(latency_math)).
echo "# stat --latency"
badcase "--latency with tracepoints" 2 "latency needs a function-probe backend (fentry or kprobe), not tracepoint" \
	$MG stat --latency --backend tracepoint -- true
badcase "-L with tracepoints" 2 "latency needs a function-probe backend" $MG stat -L -b tracepoint -- true
if tracepoint_host "--latency refusals"; then
	badcase "--latency, auto chooses tracepoints" 3 \
		"--latency needs a function-probe backend (fentry or kprobe): fentry refused: .*; kprobe refused: " \
		$MG stat --latency -- true
	badcase "--latency --json, auto chooses tracepoints" 3 "needs a function-probe backend" \
		$MG stat --latency --json -- true
	badcase "--latency --backend fentry under lockdown" 3 "backend fentry unavailable" \
		$MG stat --latency --backend fentry -- true
fi
