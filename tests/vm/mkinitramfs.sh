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
#                   kernel/, default drivers/block/loop, fs/overlayfs/overlay, fs/xfs/xfs and
#                   fs/btrfs/btrfs), each after the modules it depends on (modules.dep, made
#                   by the host's depmod in a scratch tree: Debian's packages ship none) and
#                   those its softdeps name first (modules.softdep, modules.alias), are
#                   decompressed into /lib/modules and insmod'ed in that order by /init. A
#                   module the kernel has built in (modules.builtin) or lacks is left out,
#                   and said so in /etc/mgtest-modules ("NAME loaded|builtin|absent"), which
#                   the guest quotes when it cannot mount a filesystem; with
#                   MGTRACE_VM_MODULES empty, one line "* absent: $MGTRACE_VM_MODULES_WHY".
# Contents: busybox-static with all applet symlinks, guest-init.sh as /init,
# guest-lib.sh as /lib/mgtest.sh, guest-conform.sh as /lib/mgconform.sh, and three empty images the guest loop-mounts, made
# with the host's tools: /ext4.img (mkfs.ext4, $MGTRACE_VM_EXT4_MB MiB, default 64),
# /xfs.img (mkfs.xfs, 64 MiB: xfsprogs refuses a filesystem under 300 MB unless run
# under fstests, whose TEST_DIR/TEST_DEV/QA_CHECK_FS variables lift the limit) and
# /btrfs.img (mkfs.btrfs --mixed, 64 MiB: without --mixed 114 MiB is its minimum); only the
# images of $MGTRACE_VM_FS_IMAGES (default "ext4 xfs btrfs"; ext4's always);
# the host tools of $MGTRACE_VM_TOOLS
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
cp "$here/guest-conform.sh" "$root/lib/mgconform.sh"
cp "$script" "$root/test.sh"
chmod 755 "$root/init" "$root/test.sh" "$root/bin/mgtrace"

# mod_deps ROOT RELEASE: modules.dep of the unpacked kernel, made by depmod in a scratch
# tree that links the package's kernel/ (the package itself stays untouched), and kept with
# modules.alias and modules.softdep beside the unpacked package (KERNEL_ROOT.moddep), so that
# depmod (5 s here: it reads every module) runs once per kernel, not once per guest; two
# guests of one kernel making it at once: the first rename wins. Prints its path.
mod_deps() {
	local c=${kroot%/}.moddep t d f
	if [ ! -s "$c/modules.dep" ]; then
		t=$(mktemp -d "${kroot%/}.moddep.XXXXXX") || die "cannot make a directory beside $kroot"
		d=$t/lib/modules/$2
		mkdir -p "$d" "$t/out"
		ln -s "$1/kernel" "$d/kernel"
		for f in modules.order modules.builtin modules.builtin.modinfo; do
			[ -e "$1/$f" ] && cp "$1/$f" "$d/"
		done
		depmod -b "$t" "$2" || { rm -rf "$t"; die "depmod failed on $1 (install kmod)"; }
		cp "$d/modules.dep" "$d/modules.alias" "$d/modules.softdep" "$t/out/"
		mv -T "$t/out" "$c" 2> /dev/null || true
		rm -rf "$t"
	fi
	[ -s "$c/modules.dep" ] || die "no modules.dep in $c"
	echo "$c/modules.dep"
}
# mod_add REL: copy kernel/REL (a path from modules.dep) into /lib/modules as the next one
mod_add() {
	local f=$mdir/$1 dst
	grep -qxF "$1" "$root.dep/added" 2>/dev/null && return 0
	echo "$1" >> "$root.dep/added"
	i=$((i + 1))
	dst=$root/lib/modules/$(printf %02d "$i")-$(basename "${1%%.ko*}").ko
	case $f in
	*.xz) xz -dc "$f" > "$dst" ;;
	*.zst) zstd -qdc "$f" > "$dst" ;;
	*.gz) gzip -dc "$f" > "$dst" ;;
	*) cp "$f" "$dst" ;;
	esac
}
mods=${MGTRACE_VM_MODULES-drivers/block/loop fs/overlayfs/overlay fs/xfs/xfs fs/btrfs/btrfs}
# mod_path NAME: the modules.dep path of module or alias NAME (modules.alias), "" where the
# kernel has it built in (or nothing has that name)
mod_path() {
	local n a
	n=$(echo "$1" | tr - _)
	a=$(awk -v a="$1" '$1 == "alias" && $2 == a { print $3; exit }' "${dep%/*}/modules.alias")
	[ -n "$a" ] && n=$a
	awk -F: -v n="$n" '{ b = $1; sub(/.*\//, "", b); sub(/\.ko.*/, "", b); gsub(/-/, "_", b)
		if (b == n) { print $1; exit } }' "$dep"
}
# mod_load REL: the modules REL wants loaded before it (modules.softdep "pre:", such as
# btrfs's crypto-crc32c, a module on arm64), those it needs (modules.dep lists them all,
# the last to be loaded first, as modprobe does), then REL
mod_load() {
	local name s p d line
	name=$(basename "${1%%.ko*}" | tr - _)
	for s in $(awk -v n="$name" '$1 == "softdep" && $2 == n { pre = 0
		for (i = 3; i <= NF; i++) { if ($i ~ /:$/) pre = $i == "pre:"; else if (pre) print $i } }' \
		"${dep%/*}/modules.softdep"); do
		p=$(mod_path "$s")
		[ -n "$p" ] && mod_load "$p"
	done
	line=$(grep "^$1:" "$dep")
	for d in $(echo "${line#*:}" | tr ' ' '\n' | sed '/^$/d' | tac); do
		mod_add "$d"
	done
	mod_add "$1"
}
if [ -n "$kroot" ] && [ -z "$mods" ]; then
	echo "* absent: ${MGTRACE_VM_MODULES_WHY:-no modules shipped with this kernel}" > "$root/etc/mgtest-modules"
elif [ -n "$kroot" ]; then
	i=0
	mdir=$(ls -d "$kroot"/usr/lib/modules/*/ "$kroot"/lib/modules/*/ 2>/dev/null | head -n1)
	[ -n "$mdir" ] || die "no lib/modules/RELEASE in $kroot"
	mdir=${mdir%/}
	trap 'rm -rf "$root" "$root.dep"' EXIT
	mkdir -p "$root.dep"
	dep=$(mod_deps "$mdir" "$(basename "$mdir")")
	: > "$root/etc/mgtest-modules"
	for m in $mods; do
		line=$(grep -E "^kernel/$m\.ko(\.[a-z]+)?:" "$dep" || true)
		if [ -z "$line" ]; then
			if grep -qx "kernel/$m.ko" "$mdir/modules.builtin" 2>/dev/null; then
				echo "$(basename "$m") builtin" >> "$root/etc/mgtest-modules"
			else
				echo "$(basename "$m") absent: kernel/$m.ko is neither a module of $(basename "$mdir") nor built in" \
					>> "$root/etc/mgtest-modules"
			fi
			continue
		fi
		mod_load "${line%%:*}"
		echo "$(basename "$m") loaded" >> "$root/etc/mgtest-modules"
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
case " ${MGTRACE_VM_FS_IMAGES-ext4 xfs btrfs} " in
*" xfs "*)
	truncate -s 64M "$root/xfs.img"
	TEST_DIR=/mnt TEST_DEV=/xfs.img QA_CHECK_FS=1 mkfs.xfs -q -f -L mgtest "$root/xfs.img" ||
		die "mkfs.xfs failed (install xfsprogs)" ;;
esac
case " ${MGTRACE_VM_FS_IMAGES-ext4 xfs btrfs} " in
*" btrfs "*)
	truncate -s 64M "$root/btrfs.img"
	mkfs.btrfs -q -f --mixed -L mgtest "$root/btrfs.img" > /dev/null ||
		die "mkfs.btrfs failed (install btrfs-progs)" ;;
esac

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
