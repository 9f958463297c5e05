# SPDX-License-Identifier: GPL-2.0
# 64-check-identity.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# check tells inodes apart as the kernel does. Found by a new user, each a false FAIL before:
# - overlayfs copies the real inode's attributes into a new overlay inode (ovl_inode_init(),
#   inode_set_ctime_to_ts) before it sets i_ino (ovl_map_ino()): every such event had key
#   (dev, 0, 0), and `ls -l` of a directory compared unrelated files (xfs loading inodes from
#   disk does the same with (dev, 0, the disk's generation)). Events without an inode number
#   are counted (events_without_inode_number) and not judged, but for xfs's creation swap
#   (below).
# - btrfs: subvolumes share s_dev, and a snapshot's file keeps the inode number and generation
#   of the original: the key also holds the struct inode's address (in BPF and in the events
#   judged in user space).
echo "# check: inode identity (overlayfs, btrfs snapshots)"
# idcase NAME FILE: PASS, and (optionally) events_without_inode_number > 0 in FILE
noino() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=d["invariants"]["events_without_inode_number"]
print(n); sys.exit(0 if n > 0 else 1)' "$1"
}

# ---- overlayfs, tmpfs upper: a fresh overlay inode per file listed ----
O=$T/ovl; mkdir -p "$O/L" "$O/U" "$O/m"
if mount -t tmpfs tmpfs "$O/U" && mkdir -p "$O/U/u" "$O/U/w" &&
   mount -t overlay overlay -o "lowerdir=$O/L,upperdir=$O/U/u,workdir=$O/U/w" "$O/m"; then
	mkdir "$O/m/r"
	for i in 1 2 3 4 5; do echo $i > "$O/m/r/f$i"; sleep 0.01; done
	for j in bpf user; do
		sync; echo 2 > /proc/sys/vm/drop_caches
		args=(); [ $j = user ] && args=(--judge user)
		check_case "check-overlay-ls-$j" 0 --verdict PASS --command --judged $j -- "${args[@]}" -- ls -l "$O/m/r"
		n=$(noino "$T/check-overlay-ls-$j.json") && ok "check-overlay-ls-$j: $n events without an inode number, not judged" \
			|| bad "check-overlay-ls-$j: no event without an inode number ($n): the case is not exercised"
	done
	umount "$O/m"; umount "$O/U"
else
	skip check-overlay "cannot mount overlayfs on tmpfs here"
fi

# ---- btrfs: a snapshot's file and its original, two subvolumes' first files ----
B=$T/btrfs-id; mkdir -p "$B/m"
if truncate -s 200M "$B/img" && mkfs.btrfs -q "$B/img" > /dev/null 2>&1 && mount -o loop "$B/img" "$B/m" &&
   btrfs -q subvolume create "$B/m/sv" > /dev/null 2>&1; then
	echo a > "$B/m/sv/f"; sync; btrfs -q subvolume snapshot "$B/m/sv" "$B/m/snap" > /dev/null
	[ "$(stat -c %i "$B/m/sv/f")" = "$(stat -c %i "$B/m/snap/f")" ] \
		&& ok "btrfs: the snapshot's file has the original's inode number" \
		|| bad "btrfs: inode numbers differ: the case is not exercised"
	# the original changes after the snapshot's older ctime was seen; the snapshot's is seen again
	for j in bpf user; do
		args=(); [ $j = user ] && args=(--judge user)
		check_case check-btrfs-snapshot-$j 0 --verdict PASS --command --judged $j -- "${args[@]}" -- sh -c \
			"stat '$B/m/snap/f' >/dev/null; echo b >> '$B/m/sv/f'; stat '$B/m/sv/f' >/dev/null; sleep 1.3; stat '$B/m/snap/f' >/dev/null"
	done
	btrfs -q subvolume create "$B/m/a1" > /dev/null; btrfs -q subvolume create "$B/m/b1" > /dev/null
	echo x > "$B/m/a1/f"; echo y > "$B/m/b1/f"
	check_case check-btrfs-subvolumes 0 --verdict PASS --command --judged bpf -- -- sh -c \
		"stat '$B/m/a1/f' >/dev/null; echo z >> '$B/m/b1/f'; stat '$B/m/b1/f' >/dev/null; sleep 1.3; stat '$B/m/a1/f' >/dev/null"
	umount "$B/m"
else
	skip check-btrfs-identity "cannot make a btrfs loop image here"
fi

# ---- a new inode's creation under generation 0 (ext4, tmpfs) or number 0 (xfs) ----
# ext4 and tmpfs stamp a new inode's times before they set i_generation, so its creation
# swap has a key of its own (generation 0); xfs stamps them before it sets i_ino (number 0,
# the generation set, judged under the struct inode's address). The key with the generation
# and number takes that state at its first event (bpf/mg_judge.bpf.h mg_judge_adopt(),
# src/util/checker.c in user space), so the creation's ctime is the base of the next update: a
# real run of 300 new files appended to and stat()ed must PASS with every file's creation
# taken and, on xfs, no event left without an inode number (a regression below the
# creation's ctime is tests/forgetrace.c's must-fail stream, and the unit tests
# checker_creation_generation0's and checker_creation_number0's).
taken() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); j=d["judged"]
print(j["creation_states_taken"], j.get("creation_states_found_deleted"), d["invariants"]["events_without_inode_number"])' "$1"
}
C=$T/creation; mkdir -p "$C/m"
for fs in tmpfs ext4 ext4-128 xfs; do
	case $fs in
	tmpfs) mount -t tmpfs mgtrace-creation "$C/m" ;;
	ext4) truncate -s 64M "$C/img" && mkfs.ext4 -q -F "$C/img" && mount -o loop "$C/img" "$C/m" ;;
	ext4-128) truncate -s 64M "$C/img" && mkfs.ext4 -q -F -I 128 "$C/img" &&
		mount -o loop "$C/img" "$C/m" ;;
	xfs) truncate -s 320M "$C/img" && mkfs.xfs -q -f "$C/img" && mount -o loop "$C/img" "$C/m" ;;
	esac || { bad "check-creation-$fs: cannot mount $fs"; continue; }
	for j in bpf user; do
		args=(); [ $j = user ] && args=(--judge user)
		mkdir "$C/m/$j"
		check_case check-creation-$fs-$j 0 --verdict PASS --command --judged $j -- "${args[@]}" -- sh -c \
			"i=0; while [ \$i -lt 300 ]; do echo x > '$C/m/$j/f'\$i; echo y >> '$C/m/$j/f'\$i; stat '$C/m/$j/f'\$i > /dev/null; i=\$((i+1)); done"
		set -- $(taken "$T/check-creation-$fs-$j.json")
		[ "${1:-0}" -ge 300 ] && ok "check-creation-$fs-$j: $1 new inodes took their creation's state (found deleted: $2)" \
			|| bad "check-creation-$fs-$j: creation states taken $1, want >= 300 (the 300 files)"
		[ $fs != xfs ] || { [ "${3:-1}" = 0 ] && ok "check-creation-$fs-$j: no event without an inode number (the creations judged)" \
			|| bad "check-creation-$fs-$j: $3 events without an inode number, want 0 (xfs's creation swaps not judged)"; }
	done
	umount "$C/m"; rm -f "$C/img"
done
