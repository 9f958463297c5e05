#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - copy the multigrain tests into an fstests tree, build it, and run
# them with fstests' ./check on one filesystem type: the directory-ctime test
# (tests/generic/999 and src/t_mgtime_dir_ctime.c) and the mmap store test
# (tests/generic/998, xfs_io only), and the overlayfs FIFO test
# (tests/overlay/997), run by a second ./check -overlay over the same FSTYP.
#
# usage: contrib/fstests/run.sh FSTESTS_TREE tmpfs|ext2|ext3|ext4|xfs|btrfs [TEST_NUMBER [MMAP_TEST_NUMBER [OVL_TEST_NUMBER]]]
#
#   FSTESTS_TREE  a checked-out fstests tree (git clone of fstests); built here
#                 with make (needs autotools, xfslibs-dev, libattr1-dev,
#                 libacl1-dev, libaio-dev, uuid-dev, ...: see its README)
#   FSTYP         tmpfs: TEST_DEV=tmpfs_test, fstests mounts a tmpfs itself;
#                 ext2/ext3/ext4/xfs/btrfs: two 512 MiB image files (test
#                 and scratch) on loop devices, made with mkfs.FSTYP and
#                 detached afterwards
#   TEST_NUMBER   the number under tests/generic to install the directory
#                 ctime test (999) as (default 999; must be free in the tree,
#                 or hold this test); - leaves it out
#   MMAP_TEST_NUMBER  the same for the mmap store test (998; default 998)
#   OVL_TEST_NUMBER   the number under tests/overlay for the overlayfs FIFO
#                 test (997; default 997); FSTYP is then overlayfs' base
#
# Run as root.  It writes its own config (HOST_OPTIONS) under $WORK and leaves
# the tree's local.config alone.  Exit status: that of ./check (0 when the test
# passed or was not run; the first non-zero of the two ./check runs), 2 on bad
# usage or a setup failure.
# WORK (default /var/tmp/mgtime-fstests) holds the config, image and mount
# points; the results are in FSTESTS_TREE/results/.
set -u

here=$(cd "$(dirname "$0")" && pwd)
tree=${1:-}
fstyp=${2:-}
num=${3:-999}
mnum=${4:-998}
onum=${5:-997}
work=${WORK:-/var/tmp/mgtime-fstests}

die() { echo "run.sh: $*" >&2; exit 2; }

if [ -z "$tree" ] || [ -z "$fstyp" ]; then
	die "usage: run.sh FSTESTS_TREE tmpfs|ext2|ext3|ext4|xfs|btrfs [TEST_NUMBER [MMAP_TEST_NUMBER [OVL_TEST_NUMBER]]]"
fi
[ -x "$tree/check" ] || die "$tree is not an fstests tree (no ./check)"
[ "$(id -u)" = 0 ] || die "fstests must run as root"
case "$fstyp" in
tmpfs|ext2|ext3|ext4|xfs|btrfs) ;;
*) die "FSTYP '$fstyp' not supported by this script (tmpfs, ext2, ext3, ext4, xfs, btrfs)" ;;
esac
for n in "$num" "$mnum" "$onum"; do
	case "$n" in -|[0-9][0-9][0-9]) ;; *) die "a test number must be three digits or -, got '$n'" ;; esac
done
[ "$num" = - ] || [ "$num" != "$mnum" ] || die "the two tests cannot both be generic/$num"
[ "$num$mnum$onum" != --- ] || die "all tests left out: nothing to run"

# install SRC NUM MARK [DIR]: install tests/DIR/SRC (DIR generic unless given)
# under DIR/NUM (renumbered in the script and its .out), unless NUM is -; MARK
# is a word only that test contains, so that an earlier copy of it may be
# overwritten.  Adds DIR/NUM to tests, or to otests for DIR overlay.
tests=
otests=
install_test()
{
	local src=$1 n=$2 mark=$3 dir=${4:-generic} t=$tree/tests/${4:-generic}/$2

	[ "$n" = - ] && return
	if [ -e "$t" ] && ! grep -q "$mark" "$t"; then
		die "$t exists and is another test; pass a free test number"
	fi
	sed "s/^# FS QA Test No\. $src/# FS QA Test No. $n/" "$here/tests/$dir/$src" > "$t" ||
		die "cannot write $t"
	chmod 755 "$t"
	sed "s/^QA output created by $src/QA output created by $n/" "$here/tests/$dir/$src.out" > "$t.out"
	if [ "$dir" = overlay ]; then
		otests="$otests overlay/$n"
	else
		tests="$tests $dir/$n"
	fi
}
install_test 999 "$num" t_mgtime_dir_ctime
install_test 998 "$mnum" _check_later
install_test 997 "$onum" _fifo_not_later overlay

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
[ "$num" = - ] || [ -x "$tree/src/t_mgtime_dir_ctime" ] || die "make did not build src/t_mgtime_dir_ctime"

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

for t in $tests $otests; do
	rm -f "$tree/results/$t".*	# no stale report when check aborts early
done
cd "$tree" || die "cannot cd to $tree"
rc=0
if [ -n "$tests" ]; then
	# shellcheck disable=SC2086 # $tests is a word list
	HOST_OPTIONS=$config ./check $tests
	rc=$?
	echo "run.sh: ./check exited $rc"
fi
if [ -n "$otests" ]; then
	# The overlay tests: -overlay mounts overlayfs over the same TEST_DEV
	# and SCRATCH_DEV (OVL_BASE_FSTYP=$fstyp).
	# shellcheck disable=SC2086 # $otests is a word list
	HOST_OPTIONS=$config ./check -overlay $otests
	orc=$?
	echo "run.sh: ./check -overlay exited $orc"
	[ $rc -ne 0 ] || rc=$orc
fi
echo "run.sh: results in $tree/results/"
for t in $tests $otests; do
	for f in "$tree/results/$t.full" "$tree/results/$t.out.bad"; do
		[ -f "$f" ] && { echo "--- $f"; cat "$f"; }
	done
done
exit $rc
