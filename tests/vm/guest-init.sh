#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-init.sh - /init of the mgtrace test initramfs (busybox sh, PID 1).
#
# Mounts the pseudo filesystems, loads the modules shipped in /lib/modules
# (loop.ko for the ext4 image), runs /test.sh (a guest-<expect>.sh script,
# with the helpers of /lib/mgtest.sh), dumps dmesg as an MGDATA block so the
# host can scan it for warnings hidden by 'quiet', prints "MGTEST DONE" and
# powers off.  No 'set -e': PID 1 must always reach poweroff.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t tmpfs tmpfs /tmp
for m in /lib/modules/*.ko; do
	[ -e "$m" ] && { insmod "$m" || echo "MGTEST FAIL insmod-${m##*/}: insmod failed"; }
done
. /lib/mgtest.sh
echo "MGTEST INFO kernel $(uname -r) cpus $(nproc)"
sh /test.sh
rc=$?
[ "$rc" -eq 0 ] || mgtest_fail test-script "exited with status $rc"
dmesg > /tmp/dmesg.txt
mgdata_file dmesg.txt /tmp/dmesg.txt text
echo "MGTEST DONE"
sync
poweroff -f
