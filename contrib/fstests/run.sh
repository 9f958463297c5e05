#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - copy the multigrain directory-ctime test (tests/generic/999 and
# src/t_mgtime_dir_ctime.c) into an fstests tree, build it, and run it with
# fstests' ./check on one filesystem type.
#
# usage: contrib/fstests/run.sh FSTESTS_TREE tmpfs|ext2|ext3|ext4|xfs|btrfs [TEST_NUMBER]
#
#   FSTESTS_TREE  a checked-out fstests tree (git clone of fstests); built here
#                 with make (needs autotools, xfslibs-dev, libattr1-dev,
#                 libacl1-dev, libaio-dev, uuid-dev, ...: see its README)
#   FSTYP         tmpfs: TEST_DEV=tmpfs_test, fstests mounts a tmpfs itself;
#                 ext2/ext3/ext4/xfs/btrfs: two 512 MiB image files (test
#                 and scratch) on loop devices, made with mkfs.FSTYP and
#                 detached afterwards
#   TEST_NUMBER   the number under tests/generic to install the test as
#                 (default 999; must be free in the tree, or hold this test)
#
# Run as root.  It writes its own config (HOST_OPTIONS) under $WORK and leaves
# the tree's local.config alone.  Exit status: that of ./check (0 when the test
# passed or was not run), 2 on bad usage or a setup failure.
# WORK (default /var/tmp/mgtime-fstests) holds the config, image and mount
# points; the results are in FSTESTS_TREE/results/.
set -u

here=$(cd "$(dirname "$0")" && pwd)
tree=${1:-}
fstyp=${2:-}
num=${3:-999}
work=${WORK:-/var/tmp/mgtime-fstests}

die() { echo "run.sh: $*" >&2; exit 2; }

if [ -z "$tree" ] || [ -z "$fstyp" ]; then
	die "usage: run.sh FSTESTS_TREE tmpfs|ext2|ext3|ext4|xfs|btrfs [TEST_NUMBER]"
fi
[ -x "$tree/check" ] || die "$tree is not an fstests tree (no ./check)"
[ "$(id -u)" = 0 ] || die "fstests must run as root"
case "$fstyp" in
tmpfs|ext2|ext3|ext4|xfs|btrfs) ;;
*) die "FSTYP '$fstyp' not supported by this script (tmpfs, ext2, ext3, ext4, xfs, btrfs)" ;;
esac
case "$num" in [0-9][0-9][0-9]) ;; *) die "TEST_NUMBER must be three digits, got '$num'" ;; esac

# Install the test under generic/$num (renumbered in the script and its .out).
t=$tree/tests/generic/$num
if [ -e "$t" ] && ! grep -q t_mgtime_dir_ctime "$t"; then
	die "$t exists and is another test; pass a free TEST_NUMBER"
fi
sed "s/^# FS QA Test No\. 999/# FS QA Test No. $num/" "$here/tests/generic/999" > "$t" || die "cannot write $t"
chmod 755 "$t"
sed "s/^QA output created by 999/QA output created by $num/" "$here/tests/generic/999.out" > "$t.out"

# Install the helper program and add it to src/Makefile's TARGETS once.
cp "$here/src/t_mgtime_dir_ctime.c" "$tree/src/" || die "cannot copy the helper"
if ! grep -q t_mgtime_dir_ctime "$tree/src/Makefile"; then
	sed -i 's/^TARGETS = /TARGETS = t_mgtime_dir_ctime /' "$tree/src/Makefile"
	grep -q t_mgtime_dir_ctime "$tree/src/Makefile" || die "cannot add the helper to $tree/src/Makefile"
fi
grep -qx /src/t_mgtime_dir_ctime "$tree/.gitignore" 2>/dev/null || echo /src/t_mgtime_dir_ctime >> "$tree/.gitignore"

mkdir -p "$work/test" "$work/scratch" || die "cannot make $work/test"

# make builds src/ and regenerates tests/generic/group.list, which ./check reads.
make -C "$tree" -j"$(nproc)" > "$work/make.log" 2>&1 || {
	tail -20 "$work/make.log" >&2
	die "make in $tree failed (log: $work/make.log)"
}
[ -x "$tree/src/t_mgtime_dir_ctime" ] || die "make did not build src/t_mgtime_dir_ctime"

config=$work/local.config.$fstyp
loopdevs=
cleanup() {
	local d
	for d in "$work/test" "$work/scratch"; do
		mountpoint -q "$d" && umount "$d"
	done
	for d in $loopdevs; do
		losetup -d "$d"
	done
}
cleanup		# a mount left on $work by an earlier, interrupted run
trap cleanup EXIT

# A 512 MiB image on a loop device, made with mkfs.$fstyp; sets loopdev to it.
loop_fs()
{
	local img=$work/$fstyp.$1.img dev

	truncate -s 512M "$img" || die "cannot make $img"
	dev=$(losetup -f --show "$img") || die "losetup $img failed"
	loopdevs="$loopdevs $dev"
	loopdev=$dev
	case "$fstyp" in
	ext[234])	"mkfs.$fstyp" -q -F "$dev" ;;
	*)	"mkfs.$fstyp" -q -f "$dev" ;;
	esac > "$work/mkfs.log" 2>&1 || die "mkfs.$fstyp $dev failed (log: $work/mkfs.log)"
}

case "$fstyp" in
tmpfs)
	dev=tmpfs_test
	scratch=tmpfs_scratch
	;;
ext[234]|xfs|btrfs)
	command -v "mkfs.$fstyp" > /dev/null || die "mkfs.$fstyp not found"
	loop_fs test
	dev=$loopdev
	loop_fs scratch
	scratch=$loopdev
	;;
*)
	die "FSTYP '$fstyp' not supported by this script (tmpfs, ext2, ext3, ext4, xfs, btrfs)"
	;;
esac

# fstests' check unmounts the scratch device after each test: give it one.
# (For tmpfs, common/config of 2026-01 sets TEST_DEV=tmpfs_scratch when
# SCRATCH_DEV is unset, a slip for SCRATCH_DEV: set both.)
cat > "$config" <<CONF
export FSTYP=$fstyp
export TEST_DEV=$dev
export TEST_DIR=$work/test
export SCRATCH_DEV=$scratch
export SCRATCH_MNT=$work/scratch
CONF
echo "run.sh: $config:"
sed 's/^/    /' "$config"

rm -f "$tree/results/generic/$num".*	# no stale report when check aborts early
cd "$tree" && HOST_OPTIONS=$config ./check "generic/$num"
rc=$?
echo "run.sh: ./check exited $rc; results in $tree/results/"
for f in "$tree/results/generic/$num.full" "$tree/results/generic/$num.out.bad"; do
	[ -f "$f" ] && { echo "--- $f"; cat "$f"; }
done
exit $rc
