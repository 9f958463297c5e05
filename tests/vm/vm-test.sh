#!/bin/sh
# vm-test.sh - boot every kernel of kernels.txt under qemu and run the
# guest tests with a static mgtrace binary.
#
# usage: vm-test.sh [MGTRACE_STATIC]      (default: $MGTRACE_STATIC)
# env:   MGTRACE_VM_KERNELS  kernel list (default tests/vm/kernels.txt)
#        MGTRACE_VM_ONLY     run only the kernels with these labels ("6.18 6.12")
#        MGTRACE_VM_OUT      output directory (default /tmp/mgtrace-vm);
#                            per kernel: console.log, MGDATA files, results
#        plus those of fetch-kernel.sh, mkinitramfs.sh and run-vm.sh.
# For each kernel: fetch-kernel.sh, mkinitramfs.sh with guest-<expect>.sh,
# run-vm.sh, then host checks: every *.json the guest sent must parse, and
# check-<expect>.py OUTDIR LABEL runs if it exists.  Prints one
# "PASS|FAIL label/name" line per assertion, "# ..." timing lines, and
# finally "N passed, M failed".  Exits 1 if anything failed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-${MGTRACE_STATIC:-}}
[ -n "$bin" ] || { echo "usage: $0 MGTRACE_STATIC (or set MGTRACE_STATIC)" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
kernels=${MGTRACE_VM_KERNELS:-$here/kernels.txt}
outroot=${MGTRACE_VM_OUT:-/tmp/mgtrace-vm}
mkdir -p "$outroot"
all=$outroot/results
: > "$all"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
fail() { echo "FAIL $1" | tee -a "$all"; }
t0=$(now)

grep -Ev '^[[:space:]]*(#|$)' "$kernels" | while read -r suite pattern label expect variant; do
	# variant "smoke": the guest and the host checks skip the long steps; the guest sees
	# mgtest_smoke=1 in its environment (an unknown kernel argument becomes one).
	smoke=0; [ "${variant:-}" = smoke ] && smoke=1
	case " ${MGTRACE_VM_ONLY:-$label} " in *" $label "*) ;; *) continue ;; esac
	out=$outroot/$label
	rm -rf "$out"; mkdir -p "$out"
	t=$(now)
	if ! kroot=$("$here/fetch-kernel.sh" "$suite" "$pattern"); then
		fail "$label/fetch: $suite $pattern"; continue
	fi
	tf=$(since "$t"); t=$(now)
	if ! "$here/mkinitramfs.sh" "$out/initramfs.gz" "$bin" "$here/guest-$expect.sh" "$kroot"; then
		fail "$label/initramfs"; continue
	fi
	ti=$(since "$t"); t=$(now)
	# A kernel that dies before /init ran (seen: an int3 Oops in early text patching
	# under TCG, before any mgtrace code) is booted again, at most twice, and said so.
	for attempt in 1 2 3; do
		MGTRACE_VM_APPEND="${MGTRACE_VM_APPEND:-} mgtest_smoke=$smoke" \
		"$here/run-vm.sh" "$kroot"/boot/vmlinuz-* "$out/initramfs.gz" "$out" "$label" \
			> "$out/run.results" || true
		grep -q "MGTEST INFO kernel" "$out/console.log" && break
		[ "$attempt" = 3 ] && break
		echo "# $label: boot $attempt died before /init ran ($(grep -m1 -E 'Oops|BUG:|panic' \
			"$out/console.log" | tr -d '\r' | sed 's/^\[[ 0-9.]*\] //')), booting again" | tee -a "$all"
	done
	cat "$out/run.results" >> "$all"
	tb=$(since "$t")
	for j in "$out"/*.json; do
		[ -e "$j" ] || continue
		n=$(basename "$j")
		if python3 -m json.tool --json-lines "$j" > /dev/null 2>&1; then echo "PASS $label/$n-valid"
		else echo "FAIL $label/$n-valid: not JSON"; fi >> "$all"
	done
	if [ -e "$here/check-$expect.py" ]; then
		MGTEST_SMOKE=$smoke python3 "$here/check-$expect.py" "$out" "$label" >> "$all" ||
			echo "FAIL $label/check-$expect.py: exited $?" >> "$all"
	fi
	grep -F " $label/" "$all"
	echo "# $label: $(basename "$kroot") fetch $tf initramfs $ti boot $tb"
done
echo "# total $(since "$t0")"
p=$(grep -c '^PASS' "$all" || true)
f=$(grep -c '^FAIL' "$all" || true)
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
