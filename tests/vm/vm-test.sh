#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-test.sh - boot every kernel of kernels.txt under qemu and run the
# guest tests with a static mgtrace binary.
#
# usage: vm-test.sh [MGTRACE_STATIC]      (default: $MGTRACE_STATIC)
# env:   MGTRACE_VM_ARCH     the guests' Debian architecture: amd64 (default) or arm64
#                            (qemu-system-aarch64, TCG; the binaries must be aarch64:
#                            make ARCH=arm64 test-vm; the guest's busybox and bpftool
#                            from fetch-tools.sh; the default kernel list kernels-arm64.txt,
#                            the default MGTRACE_VM_TIMEOUT 1800 s)
#        MGTRACE_VM_KERNELS  kernel list (default tests/vm/kernels.txt)
#        MGTRACE_VM_ONLY     run only the kernels with these labels ("6.18 6.12")
#        MGTRACE_VM_OUT      output directory (default /tmp/mgtrace-vm);
#                            per kernel: console.log, MGDATA files, results
#        MGTRACE_VM_JOBS     kernels booted at once (default 2)
#        MGTRACE_VM_CONFORM_ONLY=1  multigrain guests run the conform steps alone
#                            (guest-conform.sh; for make conform-matrix, whose matrix
#                            needs nothing else), check-multigrain.py judges only those
#        MGTRACE_SHARED      the shared folder of local kernels (default: the
#                            repository's ../shared)
#        MGTRACE_VM_OBSERVER a static tests/mgobserve.c for the differential steps
#                            (default: the repository's build/mgobserve; make test-vm
#                            builds it); absent: the stage refuses to start
#        MGTRACE_VM_PROGS    the other static programs the guest runs (default the
#                            repository's build/mgorder and build/tmpfs-dir-ctime;
#                            make test-vm builds them); one absent: the stage refuses
#        plus those of fetch-kernel.sh, mkinitramfs.sh and run-vm.sh.
# For each kernel: fetch-kernel.sh (or, for a "local" entry, the image under
# $MGTRACE_SHARED/kernels checked against its SHA256SUMS), mkinitramfs.sh
# with guest-<expect>.sh, run-vm.sh, then host checks: every *.json the
# guest sent must parse, check-<expect>.py OUTDIR LABEL runs if it exists,
# and the probe fixture tests/vm/probe/<label>.json is compared.  Prints one
# "PASS|FAIL|SKIP label/name[: why]" line per assertion or skipped step, "# ..."
# lines (what was chosen, timing, retried boots), and finally "N passed, M
# failed, K skipped".  A SKIP is never a pass.  Exits 1 if anything failed.
# A boot that dies before the guest's /init ran is booted once more and said so.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${1:-${MGTRACE_STATIC:-}}
[ -n "$bin" ] || { echo "usage: $0 MGTRACE_STATIC (or set MGTRACE_STATIC)" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
export MGTRACE_VM_ARCH=${MGTRACE_VM_ARCH:-amd64}
case $MGTRACE_VM_ARCH in
amd64) kernels=${MGTRACE_VM_KERNELS:-$here/kernels.txt} ;;
arm64)
	kernels=${MGTRACE_VM_KERNELS:-$here/kernels-arm64.txt}
	# TCG emulates aarch64 several times slower than x86-64 on x86-64
	export MGTRACE_VM_TIMEOUT=${MGTRACE_VM_TIMEOUT:-1800}
	MGTRACE_VM_SYSROOT=$("$here/fetch-tools.sh" arm64) ||
		{ echo "vm-test: the arm64 guest's busybox and bpftool: fetch-tools.sh failed" >&2; exit 3; }
	export MGTRACE_VM_SYSROOT ;;
*) echo "vm-test: MGTRACE_VM_ARCH=$MGTRACE_VM_ARCH: only amd64 and arm64" >&2; exit 2 ;;
esac
outroot=${MGTRACE_VM_OUT:-/tmp/mgtrace-vm}
jobs=${MGTRACE_VM_JOBS:-2}
shared=${MGTRACE_SHARED:-$repo/../shared}
MGTRACE_VM_OBSERVER=${MGTRACE_VM_OBSERVER:-$repo/build/mgobserve}
[ -x "$MGTRACE_VM_OBSERVER" ] || { echo "vm-test: $MGTRACE_VM_OBSERVER is missing (make build/mgobserve)" >&2; exit 2; }
MGTRACE_VM_OBSERVER=$(cd "$(dirname "$MGTRACE_VM_OBSERVER")" && pwd)/$(basename "$MGTRACE_VM_OBSERVER")
export MGTRACE_VM_OBSERVER
MGTRACE_VM_PROGS=${MGTRACE_VM_PROGS:-$repo/build/mgorder $repo/build/tmpfs-dir-ctime}
progs=
for p in $MGTRACE_VM_PROGS; do
	[ -x "$p" ] || { echo "vm-test: $p is missing (make $(basename "$p" | sed 's|^|build/|'))" >&2; exit 2; }
	progs="$progs $(cd "$(dirname "$p")" && pwd)/$(basename "$p")"
done
MGTRACE_VM_PROGS=${progs# }
export MGTRACE_VM_PROGS
mkdir -p "$outroot"
all=$outroot/results
: > "$all"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
t0=$(now)

# The steps guest-multigrain.sh and check-multigrain.py leave out of a smoke run.
SMOKE_SKIPS="stat-*-ext4 repro-ext4 latency-kprobe top-file-fentry contention interval check-ext4 check-threshold check-clockstep"

# local_kernel DIR: check $shared/kernels/DIR/bzImage against SHA256SUMS and
# print its path; on stdout "SKIP: why" / "FAIL: why" instead when unusable.
local_kernel() {
	local k=$shared/kernels/$1/bzImage sums=$shared/kernels/SHA256SUMS want got
	if [ ! -d "$shared/kernels" ]; then
		echo "SKIP: $shared/kernels is absent (local kernels come from the shared folder beside the repository)"
		return
	fi
	[ -r "$k" ] || { echo "SKIP: $k is absent"; return; }
	[ -r "$sums" ] || { echo "FAIL: $sums is missing: cannot check $k"; return; }
	want=$(awk -v f="$1/bzImage" '$2 == f || $2 == "*" f { print $1 }' "$sums")
	[ -n "$want" ] || { echo "FAIL: $1/bzImage is not listed in $sums"; return; }
	got=$(sha256sum "$k" | awk '{ print $1 }')
	[ "$got" = "$want" ] || { echo "FAIL: $k has SHA256 $got, $sums says $want"; return; }
	echo "$k"
}

# run_kernel SUITE PATTERN LABEL EXPECT OPTIONS: the whole test of one kernel; its
# result lines go to $outroot/LABEL/all.results.
run_kernel() {
	local suite=$1 pattern=$2 label=$3 expect=$4 opts=$5
	local out=$outroot/$label smoke=0 api=mainline libfs=mainline append= t tf ti tb kroot kernel mods k attempt o
	for o in $opts; do
		case $o in
		smoke) smoke=1 ;;
		api=*) api=${o#api=} ;;
		libfs=mainline|libfs=patched) libfs=${o#libfs=} ;;
		append=*) append="$append ${o#append=}" ;;
		*) echo "FAIL $label/kernels.txt: unknown option $o" >> "$outroot/$label.bad" ;;
		esac
	done
	out=$outroot/$label
	rm -rf "$out"; mkdir -p "$out"
	local res=$out/all.results
	: > "$res"
	[ -e "$outroot/$label.bad" ] && { cat "$outroot/$label.bad" >> "$res"; rm -f "$outroot/$label.bad"; return; }
	t=$(now)
	if [ "$suite" = local ]; then
		k=$(local_kernel "$pattern")
		case $k in
		SKIP:*) echo "SKIP $label/kernel: ${k#SKIP: }" >> "$res"; return ;;
		FAIL:*) echo "FAIL $label/kernel: ${k#FAIL: }" >> "$res"; return ;;
		esac
		kernel=$k kroot= mods=
		echo "# $label: local $k (SHA256 as in SHA256SUMS; everything built in, no modules)" >> "$res"
	else
		if ! kroot=$("$here/fetch-kernel.sh" "$suite" "$pattern" 2> "$out/fetch.log"); then
			echo "FAIL $label/fetch: $suite $pattern: $(tail -n1 "$out/fetch.log")" >> "$res"
			return
		fi
		kernel=$kroot/vmlinuz
		grep '^fetch-kernel: chose' "$out/fetch.log" | sed "s/^fetch-kernel:/# $label:/" >> "$res"
		mods=$(sed -n 's/^modules //p' "$kroot/kernel.info")
	fi
	case $mods in
	none*)
		# no loop.ko: the ext4 image cannot be mounted; the module-free set runs
		echo "SKIP $label/ext4-steps: no modules (${mods#none: }), so no loop device for the ext4 image" >> "$res"
		if [ "$smoke" = 0 ]; then
			echo "# $label: the full set needs modules: running the smoke set" >> "$res"
			smoke=1
		fi
		export MGTRACE_VM_MODULES= MGTRACE_VM_MODULES_WHY="no modules (${mods#none: })"
		;;
	"") [ -n "$kroot" ] || export MGTRACE_VM_MODULES= ;;
	esac
	if [ -n "$append" ]; then echo "# $label: kernel command line +$append" >> "$res"; fi
	local conly=
	if [ "${MGTRACE_VM_CONFORM_ONLY:-0}" = 1 ] && [ "$expect" = multigrain ]; then
		conly=" mgtest_conform_only=1"
		echo "SKIP $label/steps: MGTRACE_VM_CONFORM_ONLY=1: the conform steps alone" >> "$res"
	fi
	if [ "$smoke" = 1 ] && [ "$expect" = multigrain ]; then
		echo "SKIP $label/long-steps: smoke set ($SMOKE_SKIPS not run)" >> "$res"
	fi
	if [ "$expect" != multigrain ]; then
		# the hardened and no-multigrain guests sweep no filesystem (guest-conform.sh runs
		# in the multigrain ones): no xfs or btrfs module or image to build into theirs
		export MGTRACE_VM_FS_IMAGES=ext4
		[ -n "${MGTRACE_VM_MODULES+set}" ] ||
			export MGTRACE_VM_MODULES="drivers/block/loop fs/overlayfs/overlay"
	fi
	tf=$(since "$t"); t=$(now)
	if ! "$here/mkinitramfs.sh" "$out/initramfs.gz" "$bin" "$here/guest-$expect.sh" $kroot \
	    2> "$out/initramfs.log"; then
		echo "FAIL $label/initramfs: $(tail -n1 "$out/initramfs.log")" >> "$res"
		return
	fi
	ti=$(since "$t"); t=$(now)
	# A kernel that dies before /init ran (seen: an int3 Oops in early text patching
	# under TCG, before any mgtrace code) is booted once more, and that is reported.
	for attempt in 1 2; do
		MGTRACE_VM_APPEND="${MGTRACE_VM_APPEND:-}$append mgtest_smoke=$smoke$conly" \
		"$here/run-vm.sh" "$kernel" "$out/initramfs.gz" "$out" "$label" \
			> "$out/run.results" || true
		grep -q "MGTEST INFO kernel" "$out/console.log" && break
		echo "# $label: boot $attempt died before /init ran ($(grep -a -o -m1 -E \
			'(Oops|BUG:|Kernel panic)[[:print:]]*' "$out/console.log" || echo "no Oops line"))$(
			[ $attempt = 1 ] && echo ", booting again")" >> "$res"
		cp "$out/console.log" "$out/console-boot$attempt.log"
	done
	cat "$out/run.results" >> "$res"
	tb=$(since "$t")
	sed -n "s/^MGTEST INFO \(conform steps .*\)/# $label: \1 (in the guest)/p" "$out/console.log" >> "$res"
	for j in "$out"/*.json; do
		[ -e "$j" ] || continue
		n=$(basename "$j")
		if python3 -m json.tool --json-lines "$j" > /dev/null 2>&1; then echo "PASS $label/$n-valid"
		else echo "FAIL $label/$n-valid: not JSON"; fi >> "$res"
	done
	if [ -e "$here/check-$expect.py" ] && grep -q "MGTEST INFO kernel" "$out/console.log"; then
		MGTEST_CONFORM_ONLY=${MGTRACE_VM_CONFORM_ONLY:-0} MGTEST_ARCH=$MGTRACE_VM_ARCH MGTEST_SMOKE=$smoke MGTEST_FLOOR_API=$api MGTEST_LIBFS=$libfs python3 "$here/check-$expect.py" "$out" "$label" >> "$res" ||
			echo "FAIL $label/check-$expect.py: exited $?" >> "$res"
	fi
	# arm64: the BTF tools/btf-from-image.py cuts out of the vmlinuz (vmlinux/README: how
	# vmlinux/arm64/vmlinux.h was made) is the booted kernel's /sys/kernel/btf/vmlinux
	if [ "$MGTRACE_VM_ARCH" = arm64 ] && [ -n "$kroot" ] && grep -q "MGTEST INFO kernel" "$out/console.log"; then
		local gsum isum
		gsum=$(sed -n 's/^MGTEST INFO btf-sha256 \([0-9a-f]*\).*/\1/p' "$out/console.log" | head -n1)
		isum=$(python3 "$repo/tools/btf-from-image.py" "$kernel" "$out/btf.raw" 2> "$out/btf.log" &&
			sha256sum "$out/btf.raw" | cut -d' ' -f1) || isum="none ($(tail -n1 "$out/btf.log"))"
		if [ -z "$gsum" ]; then echo "FAIL $label/btf-from-image: the guest sent no btf-sha256"
		elif [ "$gsum" = "$isum" ]; then echo "PASS $label/btf-from-image"
		else echo "FAIL $label/btf-from-image: the image's BTF has SHA256 $isum, the guest's $gsum"
		fi >> "$res"
		echo "# $label: /sys/kernel/btf/vmlinux SHA256 $gsum" >> "$res"
	fi
	if [ -s "$out/probe.json" ]; then
		python3 "$here/probe-fixture.py" "$out/probe.json" "$here/probe/$label.json" "$label" \
			>> "$res" || echo "FAIL $label/probe-fixture: probe-fixture.py exited $?" >> "$res"
	fi
	echo "# $label: $(basename "${kroot:-$kernel}") fetch $tf initramfs $ti boot+test $tb" >> "$res"
}

labels=
while read -r suite pattern label expect options; do
	case " ${MGTRACE_VM_ONLY:-$label} " in *" $label "*) ;; *) continue ;; esac
	while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	run_kernel "$suite" "$pattern" "$label" "$expect" "${options:-}" &
	labels="$labels $label"
done < <(grep -Ev '^[[:space:]]*(#|$)' "$kernels")
wait
for label in $labels; do
	cat "$outroot/$label/all.results" >> "$all"
	grep -v '^PASS' "$outroot/$label/all.results" || true
	echo "# $label: $(grep -c '^PASS' "$outroot/$label/all.results") passed"
done
echo "# total $(since "$t0") with $jobs kernel(s) at a time"
p=$(grep -c '^PASS' "$all" || true)
f=$(grep -c '^FAIL' "$all" || true)
s=$(grep -c '^SKIP' "$all" || true)
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
