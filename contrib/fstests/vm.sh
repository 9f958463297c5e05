#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm.sh - run the helper of generic/999 (src/t_mgtime_dir_ctime.c) on tmpfs and
# ext4 inside a qemu guest booted from a given kernel, to compare kernels (for
# example one with and one without the libfs patch of
# docs/findings/tmpfs-dir-ctime.md) without installing fstests in the guest.
#
# usage: contrib/fstests/vm.sh BZIMAGE [WORKDIR]
#
# Builds, in WORKDIR (default /var/tmp/mgtime-fstests-vm), an initramfs of a
# static busybox (/bin/busybox, Debian's busybox-static), the helper built with
# cc -static, and a 32 MiB ext4 image; boots it under qemu-system-x86_64 (TCG,
# 2 vCPUs); the guest runs "t_mgtime_dir_ctime -p" and "t_mgtime_dir_ctime -n
# 1000" on a tmpfs and on the ext4 image (loop) and powers off.  Prints the
# guest's "VMT" lines: the probe's status, per-operation counts, and the lines
# generic/999 would add to its output (any such line is a test failure).
# The kernel needs tmpfs, ext4, loop and devtmpfs built in.  Exit status: 0
# when the guest finished, 1 when it did not print VMT DONE, 2 on bad usage.
set -u

here=$(cd "$(dirname "$0")" && pwd)
kernel=${1:-}
work=${2:-/var/tmp/mgtime-fstests-vm}

die() { echo "vm.sh: $*" >&2; exit 2; }

[ -f "$kernel" ] || die "usage: vm.sh BZIMAGE [WORKDIR] (no kernel image '$kernel')"
command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 not found"
file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' ||
	die "/bin/busybox is missing or not static (apt-get install busybox-static)"

root=$work/root
rm -rf "$root"
mkdir -p "$root"/{bin,proc,sys,dev} || die "cannot make $root"
cc -O2 -static -Wall -o "$root/bin/t_mgtime_dir_ctime" "$here/src/t_mgtime_dir_ctime.c" ||
	die "cannot build the helper"
cp /bin/busybox "$root/bin/" || die "cannot copy busybox"
for a in sh mount umount mkdir poweroff uname sed sync; do
	ln -s busybox "$root/bin/$a"
done
truncate -s 32M "$root/ext4.img" || die "cannot make $root/ext4.img"
mkfs.ext4 -q -F "$root/ext4.img" || die "mkfs.ext4 failed"

cat > "$root/init" <<'INIT'
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
echo "VMT kernel $(uname -r)"
run() {	# run FS DIR
	mkdir "$2"
	t_mgtime_dir_ctime -p -n 100 "$2" 2>&1 | sed "s/^/VMT $1: /"
	t_mgtime_dir_ctime -n 1000 "$2" 2>&1 | sed "s/^/VMT $1: /"
}
mkdir -p /t && mount -t tmpfs tmpfs /t && run tmpfs /t/d
mkdir -p /e && mount -o loop -t ext4 /ext4.img /e && run ext4 /e/d && umount /e
sync
echo "VMT DONE"
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$work/initrd.gz" ||
	die "cannot write $work/initrd.gz"

timeout -k 10 600 qemu-system-x86_64 -machine q35 -cpu max -smp 2 -m 1024 -nographic \
	-no-reboot -nic none -kernel "$kernel" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 panic=-1 quiet tsc=reliable" < /dev/null 2> "$work/qemu.err" |
	tr -d '\r' > "$work/console.log"
grep -o 'VMT .*' "$work/console.log"
grep -q 'VMT DONE' "$work/console.log" || {
	echo "vm.sh: the guest did not finish; see $work/console.log and $work/qemu.err" >&2
	exit 1
}
