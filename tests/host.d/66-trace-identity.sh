# SPDX-License-Identifier: GPL-2.0
# 66-trace-identity.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# trace --path names the inodes the kernel's events carry (inode->i_sb->s_dev, i_ino), not
# what stat(2) reports: a btrfs subvolume (anonymous st_dev) and overlayfs (events on the real
# upper/lower inode). trace -- COMMAND follows COMMAND's descendants unless --no-inherit.
echo "# trace: file identity and child processes"
# evs JSON: one line "kind@dev:ino ..." of the events, then the summary's chosen fields
evs() {
	python3 - "$1" <<'PY'
import json, sys
ls = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(" ".join(f'{e["event"]}@{e["dev"]}:{e["ino"]}' for e in ls if e.get("type") == "event"))
PY
}
# summ JSON KEY: a field of the trace summary
summ() {
	python3 -c 'import json,sys
s=[json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
v=s.get(sys.argv[2]); print(json.dumps(v) if isinstance(v,(list,dict)) else v)' "$1" "$2"
}
# mdev PATH: MAJ:MIN of PATH's mount in /proc/self/mountinfo (the superblock's s_dev)
mdev() { findmnt -n -o MAJ:MIN --target "$1" | tr -d ' '; }

# ---- btrfs subvolume: stat's st_dev is the subvolume's anonymous device ----
B=$T/btrfs; mkdir -p "$B/m"
truncate -s 200M "$B/img" && mkfs.btrfs -q "$B/img" > /dev/null 2>&1 && mount -o loop "$B/img" "$B/m" \
	&& btrfs -q subvolume create "$B/m/sv" > /dev/null 2>&1
if mountpoint -q "$B/m" && [ -d "$B/m/sv" ]; then
	f=$B/m/sv/f; echo a > "$f"
	sdev=$(stat -c '%Hd:%Ld' "$f"); kdev=$(mdev "$B/m"); ino=$(stat -c %i "$f")
	[ "$sdev" != "$kdev" ] && ok "btrfs: stat dev $sdev differs from the superblock's $kdev" \
		|| bad "btrfs: stat dev $sdev equals s_dev $kdev: the case is not exercised"
	$MG trace --json --path "$f" -- sh -c "stat '$f' >/dev/null; echo b >> '$f'; stat '$f' >/dev/null" \
		> "$T/bt.json" 2> "$T/bt.err"
	got=$(evs "$T/bt.json"); want="stat@$kdev:$ino ctime_swap@$kdev:$ino stat@$kdev:$ino"
	[ "$got" = "$want" ] && ok "btrfs: trace --path shows stat, ctime_swap, stat on $kdev:$ino" \
		|| bad "btrfs: got '$got', want '$want' ($(cat "$T/bt.err"))"
	summ "$T/bt.json" inodes_note | grep -q 'btrfs subvolumes share one s_dev' \
		&& ok "btrfs: the note says inode numbers repeat across subvolumes" || bad "btrfs: no subvolume note"
	# the check can fail: stat's own device names no event
	$MG trace --json --inode "$sdev:$ino" -- sh -c "stat '$f' >/dev/null; echo b >> '$f'" > "$T/bt0.json" 2>/dev/null
	[ -z "$(evs "$T/bt0.json")" ] && ok "btrfs: --inode with stat's device $sdev matches no event" \
		|| bad "btrfs: --inode $sdev:$ino matched: $(evs "$T/bt0.json")"
	umount "$B/m"
else
	bad "btrfs: could not make a btrfs loop image (mkfs.btrfs from btrfs-progs: tools/deps.sh)"
	umount "$B/m" 2>/dev/null
fi
rm -f "$B/img"

# ---- overlayfs with a tmpfs upper layer ----
O=$T/ovl; mkdir -p "$O/l1" "$O/l2" "$O/u" "$O/m"
mount -t tmpfs mgt "$O/u" && mkdir "$O/u/up" "$O/u/wk" && echo x > "$O/l1/low" \
	&& mount -t overlay mgtov -o "lowerdir=$O/l1:$O/l2,upperdir=$O/u/up,workdir=$O/u/wk" "$O/m"
if mountpoint -q "$O/m"; then
	odev=$(mdev "$O/m"); udev=$(mdev "$O/u"); ldev=$(mdev "$O/l1")
	# a file created through the overlay lives in the upper layer
	echo y > "$O/m/upf"; oino=$(stat -c %i "$O/m/upf"); uino=$(stat -c %i "$O/u/up/upf")
	$MG trace --json --path "$O/m/upf" -- sh -c "stat '$O/m/upf' >/dev/null; echo b >> '$O/m/upf'; stat '$O/m/upf' >/dev/null" \
		> "$T/ou.json" 2> "$T/ou.err"
	got=$(evs "$T/ou.json")
	want="stat@$udev:$uino ctime_set@$odev:$oino ctime_swap@$udev:$uino ctime_set@$odev:$oino stat@$udev:$uino"
	[ "$got" = "$want" ] && ok "overlay upper: stat and ctime_swap on the tmpfs upper inode, ctime_set on the overlay's" \
		|| bad "overlay upper: got '$got', want '$want' ($(cat "$T/ou.err"))"
	roles=$(summ "$T/ou.json" inodes | python3 -c 'import json,sys; print(" ".join(i["role"]+"@"+i["dev"] for i in json.load(sys.stdin)))')
	[ "$roles" = "overlay@$odev upper@$udev" ] && ok "overlay upper: summary names the traced inodes ($roles)" \
		|| bad "overlay upper: inodes '$roles'"
	# a file only in the lower layer: traced there; the copy-up's new upper inode is reported, not hidden
	lino=$(stat -c %i "$O/l1/low")
	$MG trace --json --path "$O/m/low" -- sh -c "stat '$O/m/low' >/dev/null" > "$T/ol.json" 2> "$T/ol.err"
	got=$(evs "$T/ol.json")
	[ "$got" = "stat@$ldev:$lino" ] && ok "overlay lower: a stat of a lower-only file shows on the lower inode" \
		|| bad "overlay lower: got '$got', want 'stat@$ldev:$lino' ($(cat "$T/ol.err"))"
	[ "$(summ "$T/ol.json" copied_up_untraced)" = None ] && summ "$T/ol.json" inodes_note | grep -q 'copies it up' \
		&& ok "overlay lower: the note says a copy-up would not be traced; none happened" \
		|| bad "overlay lower: note/copy-up fields: $(tail -1 "$T/ol.json")"
	$MG trace --path "$O/m/low" -- sh -c "echo b >> '$O/m/low'" > "$T/oc.txt" 2> "$T/oc.err"
	cu=$(stat -c %i "$O/u/up/low")
	grep -q "copied up during the trace to upper inode $udev:$cu" "$T/oc.err" \
		&& ok "overlay copy-up during the trace is reported with the new upper inode $udev:$cu" \
		|| bad "overlay copy-up not reported: $(cat "$T/oc.err")"
	# after the copy-up the same path resolves to the upper inode
	$MG trace --json --path "$O/m/low" -- sh -c "echo c >> '$O/m/low'" > "$T/oc2.json" 2>/dev/null
	got=$(evs "$T/oc2.json")
	# the overlay inode keeps the lower inode's number (ovl_map_ino() at lookup)
	[ "$got" = "ctime_set@$odev:$lino ctime_swap@$udev:$cu ctime_set@$odev:$lino" ] \
		&& ok "overlay after copy-up: the write's ctime_swap on upper $udev:$cu, ctime_sets on the overlay inode" \
		|| bad "overlay after copy-up: got '$got'"
	umount "$O/m"
else
	bad "overlay: could not mount an overlay with a tmpfs upper layer"
fi
umount "$O/u" 2>/dev/null

# ---- resolving --path asks for no timestamps: it sets no QUERIED flag ----
F=$T/idq; echo a > "$F"; echo b >> "$F"
$MG trace --json --path "$F" -- sh -c "echo c >> '$F'" > "$T/q.json" 2>/dev/null
q=$(python3 -c 'import json,sys
e=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
e=[x for x in e if x.get("event") == "ctime_swap"]
print(len(e), e[0]["old_queried"] if e else "-")' "$T/q.json")
[ "$q" = "1 False" ] && ok "trace --path leaves the file's QUERIED flag unset (1 swap, old not QUERIED)" \
	|| bad "trace --path: swaps/old_queried '$q'"
$MG trace --json --path "$F" -- sh -c "stat '$F' >/dev/null; echo d >> '$F'" > "$T/q2.json" 2>/dev/null
grep -q '"old_queried":true' "$T/q2.json" && ok "the QUERIED check can fail: after a stat the swap's old value is QUERIED" \
	|| bad "no QUERIED swap after a stat: $(cat "$T/q2.json")"

# ---- child processes: COMMAND's grandchild is traced by default, not with --no-inherit ----
C=$T/child; echo a > "$C"; cino=$(stat -c %i "$C")
run_kids() { $MG trace --json --path "$C" "$@" -- sh -c "echo b >> '$C'; sh -c \"stat '$C' >/dev/null; true\"; true"; }
run_kids > "$T/k.json" 2> "$T/k.err"
got=$(python3 -c 'import json,sys
ls=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ev=[e for e in ls if e.get("type")=="event"]
print(" ".join(e["event"]+"/"+e["comm"] for e in ev), len({e["pid"] for e in ev}))' "$T/k.json")
[ "$got" = "ctime_swap/sh stat/stat 2" ] && ok "trace -- COMMAND: the shell's swap and its grandchild's stat (2 processes)" \
	|| bad "trace -- COMMAND with a grandchild: got '$got' ($(cat "$T/k.err"))"
[ "$(summ "$T/k.json" processes_followed)" = 2 ] && [ "$(summ "$T/k.json" processes_not_followed)" = 0 ] \
	&& ok "trace: 2 descendants followed (inner sh, stat), 0 not followed" \
	|| bad "trace: followed $(summ "$T/k.json" processes_followed), not followed $(summ "$T/k.json" processes_not_followed)"
run_kids --no-inherit > "$T/k1.json" 2>/dev/null
got=$(evs "$T/k1.json")
[ "$got" = "ctime_swap@$(mdev "$C"):$cino" ] && ok "trace --no-inherit: only COMMAND's own swap, the grandchild's stat is hidden" \
	|| bad "trace --no-inherit: got '$got'"
badcase "trace: --no-inherit without COMMAND" 2 "needs COMMAND" $MG trace --no-inherit
badcase "trace: --no-inherit with --all" 2 "needs COMMAND" $MG trace --no-inherit -a -- true
badcase "trace: --path on a missing path" 2 "cannot stat" $MG trace --path "$T/none/x" -- true
[ "$(left_attached)" = 0 ] && ok "nothing left attached after the identity and child tests" \
	|| bad "identity/child tests left BPF objects behind"
