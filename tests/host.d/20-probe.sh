# SPDX-License-Identifier: GPL-2.0
# 20-probe.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
echo "# probe"
if $MG probe --json > "$T/probe.json"; then ok "probe --json exits 0"; else bad "probe --json exits 0"; fi
if tracepoint_host "probe: the lockdown host's backends"; then
	python3 tests/checkjson.py probe "$T/probe.json" --host-lockdown > "$T/c" 2>&1; tally probe "$T/c"
fi
schema_valid probe probe "$T/probe.json"
$MG probe > "$T/probe.txt" && grep -q '^backend tracepoint *attachable' "$T/probe.txt" \
	&& ok "probe text names the tracepoint backend" || bad "probe text names the tracepoint backend"
