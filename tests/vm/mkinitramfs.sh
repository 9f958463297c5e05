#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh - build the gzip'ed cpio (newc) initramfs of a test VM.
#
# usage: mkinitramfs.sh OUT MGTRACE_STATIC GUEST_SCRIPT [KERNEL_ROOT]
#   OUT             initramfs to write
#   MGTRACE_STATIC  statically linked binary, installed as /bin/mgtrace
#   GUEST_SCRIPT    test script, installed as /test.sh and run by /init
#   KERNEL_ROOT     unpacked linux-image package (fetch-kernel.sh output);
#                   the modules named in $MGTRACE_VM_MODULES (paths below
#                   kernel/, default drivers/block/loop and fs/overlayfs/overlay) are decompressed
#                   into /lib/modules and insmod'ed in that order by /init.
# Contents: busybox-static with all applet symlinks, guest-init.sh as /init,
# guest-lib.sh as /lib/mgtest.sh, and /ext4.img, an empty ext4 image of
# $MGTRACE_VM_EXT4_MB MiB (default 64) made with the host's mkfs.ext4,
# which the guest loop-mounts; the host tools of $MGTRACE_VM_TOOLS
# (default bpftool) with their shared libraries; and $MGTRACE_VM_OBSERVER, a
# static tests/mgobserve.c (the observer of the differential steps), as
# /bin/mgobserve when set; and each static program of $MGTRACE_VM_PROGS (a
# space-separated list: tests/mgorder.c, docs/findings/tmpfs-dir-ctime.c) as
# /bin/<its name>.
# MGTRACE_VM_SYSROOT (a foreign-architecture guest: fetch-tools.sh's directory of Debian's
# arm64 busybox-static and bpftool) takes busybox and the tools from there instead of the
# host, their shared libraries found by readelf's NEEDED entries in its lib directories, and
# a binary is static when it has no program interpreter (ldd runs host binaries only).
set -eu

[ $# -ge 3 ] || { echo "usage: $0 OUT MGTRACE_STATIC GUEST_SCRIPT [KERNEL_ROOT]" >&2; exit 2; }
out=$1 bin=$2 script=$3 kroot=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "mkinitramfs: $*" >&2; exit 1; }
sysroot=${MGTRACE_VM_SYSROOT:-}
# dynamic FILE: true when FILE is dynamically linked
dynamic() {
	if [ -n "$sysroot" ]; then readelf -l "$1" 2>/dev/null | grep -q 'program interpreter'
	else ldd "$1" >/dev/null 2>&1; fi
}
if [ -n "$sysroot" ]; then
	busybox=$sysroot/bin/busybox
	[ -x "$busybox" ] || die "$busybox is missing (tests/vm/fetch-tools.sh)"
else
	busybox=$(command -v busybox) || die "busybox not found (install busybox-static)"
fi
dynamic "$busybox" && die "$busybox is not static (install busybox-static)"
[ -x "$bin" ] || die "$bin is not an executable"
dynamic "$bin" && die "$bin is not statically linked"
[ -r "$script" ] || die "cannot read $script"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/lib/modules" \
	"$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/mnt" "$root/root" "$root/etc"
cp "$busybox" "$root/bin/busybox"
# the applet list: a foreign busybox cannot run here, the host's names the same applets
# (both Debian 12's busybox-static)
for a in $(if [ -n "$sysroot" ]; then busybox --list-full; else "$busybox" --list-full; fi); do
	[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
done
cp "$bin" "$root/bin/mgtrace"
if [ -n "${MGTRACE_VM_OBSERVER:-}" ]; then
	[ -x "$MGTRACE_VM_OBSERVER" ] || die "$MGTRACE_VM_OBSERVER is not an executable"
	dynamic "$MGTRACE_VM_OBSERVER" && die "$MGTRACE_VM_OBSERVER is not statically linked"
	cp "$MGTRACE_VM_OBSERVER" "$root/bin/mgobserve"
	chmod 755 "$root/bin/mgobserve"
fi
for p in ${MGTRACE_VM_PROGS:-}; do
	[ -x "$p" ] || die "$p is not an executable"
	dynamic "$p" && die "$p is not statically linked"
	cp "$p" "$root/bin/$(basename "$p")"
	chmod 755 "$root/bin/$(basename "$p")"
done
# check --known's shipped file (the tmpfs directory fault, issue 31)
cp "$here/../../contrib/known-faults.json" "$root/known-faults.json"
cp "$here/guest-init.sh" "$root/init"
cp "$here/guest-lib.sh" "$root/lib/mgtest.sh"
cp "$script" "$root/test.sh"
chmod 755 "$root/init" "$root/test.sh" "$root/bin/mgtrace"

if [ -n "$kroot" ]; then
	i=0
	for m in ${MGTRACE_VM_MODULES-drivers/block/loop fs/overlayfs/overlay}; do
		f=$(ls "$kroot"/usr/lib/modules/*/kernel/"$m".ko* "$kroot"/lib/modules/*/kernel/"$m".ko* 2>/dev/null | head -n1) ||
			true
		[ -n "$f" ] || die "module $m not found in $kroot"
		i=$((i + 1))
		dst=$root/lib/modules/$i-$(basename "$m").ko
		case $f in
		*.xz) xz -dc "$f" > "$dst" ;;
		*.zst) zstd -qdc "$f" > "$dst" ;;
		*.gz) gzip -dc "$f" > "$dst" ;;
		*) cp "$f" "$dst" ;;
		esac
	done
fi

# Host tools the guest tests use, with their shared libraries (bpftool lists what
# is left attached). $MGTRACE_VM_TOOLS overrides the list.
# sysroot_libs FILE: copy the libraries FILE needs (NEEDED, recursively) and its program
# interpreter from $sysroot into the initramfs
sysroot_libs() {
	local l d f
	for l in $(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		f=
		for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu lib; do
			[ -e "$sysroot/$d/$l" ] && { f=$d/$l; break; }
		done
		[ -n "$f" ] || die "$l (needed by $1) is not in $sysroot"
		[ -e "$root/$f" ] && continue
		mkdir -p "$root/$(dirname "$f")"
		cp -L "$sysroot/$f" "$root/$f"
		sysroot_libs "$sysroot/$f"
	done
	l=$(readelf -l "$1" | sed -n 's/.*program interpreter: \(.*\)\]/\1/p')
	if [ -n "$l" ] && [ ! -e "$root$l" ]; then
		mkdir -p "$root$(dirname "$l")"
		cp -L "$sysroot$l" "$root$l"
	fi
}
for t in ${MGTRACE_VM_TOOLS-bpftool}; do
	if [ -n "$sysroot" ]; then
		p=$sysroot/usr/sbin/$t
		[ -x "$p" ] || die "$t is not in $sysroot/usr/sbin"
		cp "$p" "$root/usr/sbin/$t"
		sysroot_libs "$p"
		continue
	fi
	p=$(command -v "$t") || die "$t not found on the host"
	cp "$p" "$root/usr/sbin/$t"
	for lib in $(ldd "$p" | awk '/=>/ { print $3 } /^[[:space:]]*\/lib/ { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done

truncate -s "${MGTRACE_VM_EXT4_MB:-64}M" "$root/ext4.img"
mkfs.ext4 -q -F -L mgtest "$root/ext4.img" || die "mkfs.ext4 failed (install e2fsprogs)"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
