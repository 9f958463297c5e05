# SPDX-License-Identifier: GPL-2.0
# guest-conform.sh - the conform steps of guest-multigrain.sh, installed as /lib/mgconform.sh
# and sourced by it (in its place among the steps, or alone with mgtest_conform_only=1 on the
# kernel command line). Needs $MG and the helpers of /lib/mgtest.sh.
# shellcheck shell=sh disable=SC3043
# mgtrace conform (issue 41): the contract operation by operation, a short sweep (-n 5; make
# conform-matrix asks for more with mgtest_conform_n=N on the kernel command line) on a private
# tmpfs and on every other filesystem type of /proc/filesystems the guest can mount: ext4, xfs
# and btrfs (images made on the host, loop-mounted), overlayfs over ext4 (lower, upper and work
# directories on the ext4 image) and ramfs. Whether a filesystem is multigrain is asked of the
# kernel, not listed here: conform stat()s its work directory under raw_tp/fill_mg_cmtime
# (bpf/mgfs.bpf.c) and refuses one that fires none (exit 3, "is not multigrain": ramfs). A type
# this kernel lacks, or one it cannot mount, sends a skip record naming why. Exit 1 where a row
# fails (tmpfs: the directory rows of fs/libfs.c unpatched, the shared-mapping store
# everywhere). The host judges the rows (check-multigrain.py) and makes the matrix
# (tests/vm/conform-matrix.py).
cn=$(sed -n 's/.*mgtest_conform_n=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
CF_FS="ext4 xfs btrfs overlay ramfs"	# the types the guest knows how to mount, beside tmpfs
# cf_module NAME: what /init had of module NAME (/etc/mgtest-modules, written by mkinitramfs.sh)
cf_module() {
	local l
	l=$(grep -E "^($1|\*) " /etc/mgtest-modules 2>/dev/null | head -n1)
	case $l in
	"") if [ -e /etc/mgtest-modules ]; then echo "not among the modules /init loads"
	    else echo "no modules: everything this kernel has is built in"; fi ;;
	*" loaded") echo "its module was loaded by /init (see any insmod-* line)" ;;
	*) echo "${l#* }" ;;
	esac
}
# cf_lacks FS: why this kernel has no FS
cf_lacks() { echo "this kernel has no $1: not in /proc/filesystems ($(cf_module "$1"))"; }
# cf_mounted DIR: something is mounted on DIR (busybox has no mountpoint)
cf_mounted() { awk -v d="$1" '$2 == d { f = 1 } END { exit !f }' /proc/mounts; }
# cf_mount FS DIR: a fresh instance of FS on DIR; 0, or 1 with the cause in /tmp/cf-why
cf_mount() {
	mkdir -p "$2"
	case $1 in
	ext4|xfs|btrfs) mount -t "$1" -o loop "/$1.img" "$2" 2> /tmp/cf-why ;;
	ramfs) mount -t ramfs ramfs "$2" 2> /tmp/cf-why ;;
	overlay)
		if ! cf_mounted /mnt/x; then
			echo "the ext4 image below it is not mounted" > /tmp/cf-why
			return 1
		fi
		mkdir -p /mnt/x/cf-ovl/L /mnt/x/cf-ovl/U /mnt/x/cf-ovl/W &&
			mount -t overlay overlay -o lowerdir=/mnt/x/cf-ovl/L,upperdir=/mnt/x/cf-ovl/U,workdir=/mnt/x/cf-ovl/W \
				"$2" 2> /tmp/cf-why ;;
	esac
}
# cf_skip REASON: the skip record of a filesystem not swept
cf_skip() { printf '{"type":"skip","reason":"%s"}\n' "$(echo "$1" | tr -d '"\\' | tr '\n' ' ' | sed 's/ *$//')"; }
# the types /proc/filesystems lists, and which of them the guest sweeps (check-multigrain.py)
cf_types() {
	printf '{"type":"fs-types","listed":[%s],"recipes":["tmpfs"%s]}\n' \
		"$(awk '{ printf "%s\"%s\"", (NR > 1 ? "," : ""), $NF }' /proc/filesystems)" \
		"$(for t in $CF_FS; do printf ',"%s"' "$t"; done)"
}
cf_t0=$(cut -d' ' -f1 /proc/uptime)
run_json fs-types 0 cf_types
run_json conform-tmpfs 0,1 $MG conform --json -n "${cn:-5}"
cf_ext4=0
for fs in $CF_FS; do
	mnt=/mnt/cf-$fs
	[ "$fs" = ext4 ] && mnt=/mnt/x
	if ! awk '{ print $NF }' /proc/filesystems | grep -qx "$fs"; then
		run_json "conform-$fs" 0 cf_skip "$(cf_lacks "$fs")"
	elif [ "$fs" = ext4 ] && cf_mounted /mnt/x; then
		run_json conform-ext4 0,1 $MG conform --json -n "${cn:-5}" -D /mnt/x
	elif ! cf_mount "$fs" "$mnt"; then
		why=$(cat /tmp/cf-why)
		[ "$fs" != overlay ] && [ ! -e /dev/loop-control ] && why="$why (no loop device: loop $(cf_module loop))"
		run_json "conform-$fs" 0 cf_skip "cannot mount $fs: $why"
	else
		[ "$fs" = ext4 ] && cf_ext4=1
		run_json "conform-$fs" 0,1,3 $MG conform --json -n "${cn:-5}" -D "$mnt"
		[ "$fs" = ext4 ] || umount "$mnt" || true
	fi
done
[ "$cf_ext4" = 1 ] && umount /mnt/x
# the guest's time for the conform steps, for the CI budget (vm-test.sh's boot+test is the whole)
echo "MGTEST INFO conform steps $(awk -v a="$cf_t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
