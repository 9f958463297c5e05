# SPDX-License-Identifier: GPL-2.0
# 50-clocks.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# `mgtrace clocks`: the vDSO/syscall classification is asserted, never the times.
echo "# clocks"
# The high-resolution clocks go through the vDSO only when the clocksource can be read from
# user space (tsc, kvm-clock, hyperv_clocksource_tsc_page); with hpet, acpi_pm or jiffies the
# vDSO falls back to the system call. This machine uses kvm-clock, measured: all five are vDSO.
# The coarse clocks are always vDSO, the CPU-time clocks always one system call per call.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
case $cs in tsc|kvm-clock|hyperv_clocksource_tsc_page) hres=vdso ;; *) hres=syscall ;; esac
echo "# clocksource $cs: expecting $hres for the high-resolution clocks"

# Another process making real CLOCK_REALTIME system calls throughout (x86_64: nr 228): the
# BPF filter on mgtrace's tgid/tid must keep them out of the counts.
polluter=
if [ "$(uname -m)" = x86_64 ]; then
	rm -f "$T/polluting"
	python3 tests/check_workloads.py clock-syscalls "$T/polluting" 60 & polluter=$!
	for i in $(seq 50); do [ -e "$T/polluting" ] && break; sleep 0.1; done
fi
if $MG clocks --json --iterations 20000 > "$T/clocks.json" 2> "$T/clocks.err"; then
	ok "clocks --json exits 0"
else
	bad "clocks --json exits 0: $(cat "$T/clocks.err")"
fi
[ -n "$polluter" ] && { kill $polluter; wait $polluter 2>/dev/null; }
python3 tests/checkclocks.py check "$T/clocks.json" --iterations 20000 --hres $hres > "$T/c" 2>&1
tally clocks "$T/c"
# The checker can fail: doctored copies (a CPU-time clock claiming vdso, BOOTTIME a syscall...).
python3 tests/checkclocks.py selftest "$T/clocks.json" > "$T/c" 2>&1; tally clocks-selftest "$T/c"
schema_valid clocks clocks "$T/clocks.json"

$MG clocks --iterations 2000 --cpu 0 > "$T/clocks.txt" 2>&1
grep -q "pinned to CPU 0" "$T/clocks.txt" && grep -q "^clocksource: $cs " "$T/clocks.txt" \
	&& grep -Eq '^CLOCK_THREAD_CPUTIME_ID +3 .* 2000 +1\.000  syscall$' "$T/clocks.txt" \
	&& grep -Eq '^CLOCK_MONOTONIC_COARSE +6 .* 0 +0\.000  vdso$' "$T/clocks.txt" \
	&& ok "clocks text table (--cpu 0)" || bad "clocks text table: $(cat "$T/clocks.txt")"
# The kernel frees a detached program after a deferred grace period: here it is
# still listed right after mgtrace exits and gone within 0.3 s (mgtrace's timestamp:*
# programs are gone at once). So poll, up to 3 s, before calling it left behind.
[ "$(left_attached)" = 0 ] && ok "nothing left attached after clocks" \
	|| bad "clocks left BPF objects"

badcase "clocks zero iterations" 2 "invalid value '0' for --iterations (1..100000000)" $MG clocks --iterations 0
badcase "clocks negative iterations" 2 "invalid value '-5' for --iterations" $MG clocks --iterations -5
badcase "clocks iterations junk" 2 "invalid value '12x' for --iterations" $MG clocks --iterations 12x
badcase "clocks iterations overflow" 2 "invalid value '100000001' for --iterations (1..100000000)" $MG clocks --iterations 100000001
badcase "clocks offline CPU" 2 "CPU 9999 is beyond" $MG clocks --cpu 9999
badcase "clocks CPU junk" 2 "invalid CPU" $MG clocks --cpu one
badcase "clocks unknown option" 2 "unrecognized option" $MG clocks --frob
badcase "clocks extra argument" 2 "unexpected argument" $MG clocks extra
badcase "clocks not root" 3 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups $MG clocks
