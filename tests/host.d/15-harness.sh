# SPDX-License-Identifier: GPL-2.0
# 15-harness.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The tests own what they check: "nothing left attached" counts the programs no running
# mgtrace holds, so an exporter on the machine (contrib/mgtrace-exporter.service) or another
# run does not fail every case. Its twin: the same programs held by a process that is not an
# mgtrace (a copy of the binary under another name, as a COMMAND that inherited the fds would
# be) are counted.
echo "# harness"
$MG stat -e all -i 30 > /dev/null 2>&1 &
hp=$!
for i in $(seq 50); do [ "$(our_bpf)" != 0 ] && break; sleep 0.1; done
n_all=$(our_bpf); n_left=$(left_attached)
kill $hp; wait $hp 2> /dev/null
[ "$n_all" -gt 0 ] && [ "$n_left" = 0 ] \
	&& ok "a running mgtrace's $n_all programs are not counted as left behind" \
	|| bad "a running mgtrace's programs: $n_all listed, $n_left counted as left behind"
cp "$MG" "$T/not-the-tool" && chmod 755 "$T/not-the-tool"
"$T/not-the-tool" stat -e all -i 30 > /dev/null 2>&1 &
hp=$!
for i in $(seq 50); do [ "$(our_bpf)" != 0 ] && break; sleep 0.1; done
n_left=$(leaked_bpf)
kill $hp; wait $hp 2> /dev/null
[ "$n_left" -gt 0 ] && ok "twin: held by a process that is not mgtrace, $n_left programs count" \
	|| bad "twin: programs held by a process that is not mgtrace were not counted ($n_left)"
[ "$(left_attached)" = 0 ] && ok "harness: nothing left attached" || bad "harness: BPF objects left behind"
