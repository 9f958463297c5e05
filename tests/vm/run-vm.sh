#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-vm.sh - boot a kernel + initramfs under qemu (TCG) and check the log.
#
# usage: run-vm.sh VMLINUZ INITRAMFS OUTDIR [LABEL]
# Writes OUTDIR/console.log (serial console), OUTDIR/qemu.err, every
# "MGDATA BEGIN f ... MGDATA END f" block of the console as OUTDIR/f, and
# OUTDIR/results: one "PASS|FAIL LABEL/name[: reason]" line per assertion,
# also printed on stdout.  Host-side assertions added by run-vm.sh:
#   boot          qemu exited within $MGTRACE_VM_TIMEOUT s (default 900)
#                 and the guest printed "MGTEST DONE"; a timeout names the
#                 guest's last MGTEST/MGDATA line, the step it was in
#   kernel-clean  no Oops / BUG: / WARNING: / Call Trace in the console
#                 log (which includes the guest's full dmesg)
# Exits 1 if any assertion failed.  MGTRACE_VM_VERBOSE=1 also echoes the
# console to stderr; MGTRACE_VM_APPEND adds kernel command line arguments;
# MGTRACE_VM_SMP sets the guest's vCPUs (qemu -smp, default 2; bench/checkscale boots 1 to 8).
# tsc=reliable: no clocksource watchdog on the TSC, so the guest never switches
# clocksource in the middle of a test; the switch patches a static branch in
# ktime_get_mono_fast_ns, and under TCG that once ended in an Oops (int3) inside
# a BPF program's bpf_ktime_get_ns (docs/kernel-facts.md, "qemu TCG").
# MGTRACE_VM_ARCH=arm64 boots qemu-system-aarch64 -machine virt -cpu max (TCG; pauth-impdef:
# QEMU's own pointer-authentication hash, several times faster under TCG than the
# architected QARMA) on the PL011 console ttyAMA0; default amd64, as above.
set -eu

[ $# -ge 3 ] || { echo "usage: $0 VMLINUZ INITRAMFS OUTDIR [LABEL]" >&2; exit 2; }
kernel=$1 initrd=$2 out=$3 label=${4:-vm}
timeout=${MGTRACE_VM_TIMEOUT:-900}
smp=${MGTRACE_VM_SMP:-2}
case $smp in ''|*[!0-9]*|0) echo "run-vm.sh: MGTRACE_VM_SMP=$smp: a number of vCPUs from 1" >&2; exit 2 ;; esac
mkdir -p "$out"
log=$out/console.log

{
	rc=0
	case ${MGTRACE_VM_ARCH:-amd64} in
	arm64)
		timeout -k 10 "$timeout" qemu-system-aarch64 -machine virt -cpu max,pauth-impdef=on \
			-smp "$smp" -m 2048 -nographic -no-reboot -nic none -kernel "$kernel" -initrd "$initrd" \
			-append "console=ttyAMA0 panic=-1 quiet ${MGTRACE_VM_APPEND:-}" \
			< /dev/null 2> "$out/qemu.err" || rc=$? ;;
	*)
		timeout -k 10 "$timeout" qemu-system-x86_64 -machine q35 -cpu max -smp "$smp" -m 2048 \
			-nographic -no-reboot -nic none -kernel "$kernel" -initrd "$initrd" \
			-append "console=ttyS0 panic=-1 quiet tsc=reliable ${MGTRACE_VM_APPEND:-}" \
			< /dev/null 2> "$out/qemu.err" || rc=$? ;;
	esac
	echo "$rc" > "$out/qemu.rc"
} | if [ "${MGTRACE_VM_VERBOSE:-0}" = 1 ]; then tee /dev/stderr; else cat; fi |
	tr -d '\r' > "$log"
rc=$(cat "$out/qemu.rc")

awk -v out="$out" -v label="$label" -v rc="$rc" -v t="$timeout" '
	function res(s) { print s > (out "/results") }
	!/^MGTEST / && !b64 && /Oops|BUG:|WARNING:|Call Trace/ { if (!bad) bad = $0 }
	/^MGDATA END / && file != "" { close(file); file = ""; b64 = 0; last = $0; next }
	file != "" { print > file; next }
	/^MGDATA BEGIN(64)? / { f = $3; gsub(/[^A-Za-z0-9._-]/, "_", f); last = $0
	                   b64 = $2 == "BEGIN64"
	                   file = out "/" f (b64 ? ".gz.b64" : ""); printf "" > file; next }
	/^MGTEST / { last = $0 }
	/^MGTEST PASS / { res("PASS " label "/" $3); next }
	/^MGTEST FAIL / { sub(/^MGTEST FAIL /, ""); res("FAIL " label "/" $0); next }
	/^MGTEST DONE/ { done = 1; next }
	END {
		if (done) res("PASS " label "/boot")
		else if (rc == 124 || rc == 137) res("FAIL " label "/boot: timeout after " t " s, the guest'"'"'s last line: " (file != "" ? last " (unfinished)" : last))
		else res("FAIL " label "/boot: no MGTEST DONE, qemu exit " rc ", see " out "/console.log")
		if (bad) res("FAIL " label "/kernel-clean: " bad)
		else res("PASS " label "/kernel-clean")
	}' "$log"
# the gzip'ed, base64-encoded blocks (guest-lib.sh mgdata_file)
for b in "$out"/*.gz.b64; do
	[ -e "$b" ] || continue
	if base64 -d < "$b" | gzip -dc > "${b%.gz.b64}" 2>/dev/null; then
		rm -f "$b"
	else
		echo "FAIL $label/data: ${b##*/} does not decode (truncated console?)" >> "$out/results"
	fi
done
cat "$out/results"
! grep -q '^FAIL' "$out/results"
