# SPDX-License-Identifier: GPL-2.0
# 66-trace-identity.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# trace --path names the inodes the kernel's events carry (inode->i_sb->s_dev, i_ino), not
# what stat(2) reports: a btrfs subvolume (anonymous st_dev) and overlayfs (events on the real
# upper/lower inode). trace -- COMMAND follows COMMAND's descendants unless --no-inherit.
echo "# trace: file identity and child processes"
# evs NAME JSON WANT [OPTS]: the events of trace --json output JSON, "kind@dev:ino" each, are
# exactly WANT (checkjson.py trace-events; OPTS: --format, --only, --pids)
evs() {
	local n=$1 f=$2 w=$3; shift 3
	python3 tests/checkjson.py trace-events "$f" "$n" "$w" "$@" > "$T/$n.evs" 2>&1; tally "$n" "$T/$n.evs"
}
# summ NAME JSON COND...: fields of the trace summary (checkjson.py trace-summary)
summ() {
	local n=$1 f=$2; shift 2
	python3 tests/checkjson.py trace-summary "$f" "$n" "$@" > "$T/$n.summ" 2>&1; tally "$n" "$T/$n.summ"
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
	$MG trace --json -o "$T/bt.json" --path "$f" -- sh -c "stat '$f' >/dev/null; echo b >> '$f'; stat '$f' >/dev/null" \
		> /dev/null 2> "$T/bt.err"
	# trace --path shows stat, ctime_swap, stat on the superblock's device
	evs btrfs "$T/bt.json" "stat@$kdev:$ino ctime_swap@$kdev:$ino stat@$kdev:$ino"
	# the note says inode numbers repeat across subvolumes
	summ btrfs-note "$T/bt.json" "inodes_note~btrfs subvolumes share one s_dev"
	# the check can fail: stat's own device names no event
	$MG trace --json -o "$T/bt0.json" --inode "$sdev:$ino" -- sh -c "stat '$f' >/dev/null; echo b >> '$f'" > /dev/null 2>/dev/null
	evs "btrfs-stat-dev-$sdev" "$T/bt0.json" ""	# --inode with stat's device matches no event
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
	$MG trace --json -o "$T/ou.json" --path "$O/m/upf" -- sh -c "stat '$O/m/upf' >/dev/null; echo b >> '$O/m/upf'; stat '$O/m/upf' >/dev/null" \
		> /dev/null 2> "$T/ou.err"
	# stat and ctime_swap on the tmpfs upper inode, ctime_set on the overlay's
	evs overlay-upper "$T/ou.json" \
		"stat@$udev:$uino ctime_set@$odev:$oino ctime_swap@$udev:$uino ctime_set@$odev:$oino stat@$udev:$uino"
	summ overlay-upper-inodes "$T/ou.json" "roles=overlay@$odev,upper@$udev"	# the traced inodes
	# a file only in the lower layer: traced there; the copy-up's new upper inode is reported, not hidden
	lino=$(stat -c %i "$O/l1/low")
	$MG trace --json -o "$T/ol.json" --path "$O/m/low" -- sh -c "stat '$O/m/low' >/dev/null" > /dev/null 2> "$T/ol.err"
	evs overlay-lower "$T/ol.json" "stat@$ldev:$lino"	# a lower-only file's stat on the lower inode
	# the note says a copy-up would not be traced; none happened
	summ overlay-lower-note "$T/ol.json" copied_up_untraced=None "inodes_note~copies it up"
	$MG trace --path "$O/m/low" -- sh -c "echo b >> '$O/m/low'" > "$T/oc.txt" 2> "$T/oc.err"
	cu=$(stat -c %i "$O/u/up/low")
	grep -q "copied up during the trace to upper inode $udev:$cu" "$T/oc.err" \
		&& ok "overlay copy-up during the trace is reported with the new upper inode $udev:$cu" \
		|| bad "overlay copy-up not reported: $(cat "$T/oc.err")"
	# after the copy-up the same path resolves to the upper inode
	$MG trace --json -o "$T/oc2.json" --path "$O/m/low" -- sh -c "echo c >> '$O/m/low'" > /dev/null 2>/dev/null
	# the write's ctime_swap on the upper inode, ctime_sets on the overlay inode, which keeps
	# the lower inode's number (ovl_map_ino() at lookup)
	evs overlay-after-copy-up "$T/oc2.json" "ctime_set@$odev:$lino ctime_swap@$udev:$cu ctime_set@$odev:$lino"
	umount "$O/m"
else
	bad "overlay: could not mount an overlay with a tmpfs upper layer"
fi
umount "$O/u" 2>/dev/null

# ---- overlayfs layers named with overlayfs's escapes, and layers named relatively ----
# mountinfo keeps a layer's path as mount was given it: "u p\,3" for the directory "u p,3"
# (each octal-escaped again), and "rel/u" relative to the mounter's directory, which
# mountinfo does not say. The first is the real upper file; the second is followed nowhere,
# never joined to mgtrace's own directory (a decoy there was once traced as the upper file).
E=$T/ovesc; mkdir -p "$E" && mount -t tmpfs mgtesc "$E" \
	&& mkdir -p "$E/lo w,1" "$E/u p,3" "$E/w k" "$E/m" "$E/rel/l" "$E/rel/u" "$E/rel/w" "$E/rm" \
	&& echo a > "$E/u p,3/f" && echo r > "$E/rel/u/f" \
	&& mount -t overlay mgtesc -o "lowerdir=$E/lo w\\,1,upperdir=$E/u p\\,3,workdir=$E/w k" "$E/m" \
	&& (cd "$E" && mount -t overlay mgtrel -o lowerdir=rel/l,upperdir=rel/u,workdir=rel/w rm)
if mountpoint -q "$E/m" && mountpoint -q "$E/rm"; then
	edev=$(mdev "$E"); eino=$(stat -c %i "$E/u p,3/f")
	$MG trace --json -o "$T/oe.json" --path "$E/m/f" -- sh -c "stat '$E/m/f' >/dev/null" > /dev/null 2> "$T/oe.err"
	evs overlay-escaped-upper "$T/oe.json" "stat@$edev:$eino"	# the stat on the real upper inode
	mkdir -p "$T/decoy/rel/u" && echo d > "$T/decoy/rel/u/f"
	mga=$(realpath "$MG")	# run from the decoy's directory
	(cd "$T/decoy" && "$mga" trace --json -o "$T/orel.json" --path "$E/rm/f" -- sh -c "stat '$E/rm/f' >/dev/null") \
		> /dev/null 2> "$T/orel.err"
	evs overlay-relative-no-decoy "$T/orel.json" ""	# no event of the decoy, nor of a guess
	summ overlay-relative-note "$T/orel.json" "inodes_note~path rel/u is relative" "roles=overlay@$(mdev "$E/rm")"
	umount "$E/rm" "$E/m"
else
	bad "overlay: could not mount overlays with escaped and relative layer paths"
	umount "$E/rm" "$E/m" 2>/dev/null
fi
umount "$E" 2>/dev/null

# ---- overlayfs xino=on: inode numbers above 2^63, written exactly (docs/json.md) ----
# xino puts the layer in the high bits of a lower file's number; jansson's signed integers
# wrote it negative, and a double (jq 1.6) rounds it
X=$T/xino; mkdir -p "$X/l" "$X/u" "$X/m"
mount -t tmpfs mgx "$X/u" && mkdir "$X/u/up" "$X/u/wk" && echo x > "$X/l/f" \
	&& mount -t overlay mgxov -o "lowerdir=$X/l,upperdir=$X/u/up,workdir=$X/u/wk,xino=on" "$X/m"
if mountpoint -q "$X/m"; then
	xino=$(stat -c %i "$X/m/f")
	$MG trace --json -o "$T/xi.json" --path "$X/m/f" -- chmod 600 "$X/m/f" > /dev/null 2> "$T/xi.err"
	[ "$(echo "$xino" | awk '{ print ($1 > 2^63) }')" = 1 ] && ok "xino: the lower file's number $xino is above 2^63" \
		|| bad "xino: $xino is not above 2^63: the case is not exercised"
	# the overlay inode's ctime_set names it exactly, in ino and in inode; the time fields agree
	python3 tests/checkjson.py json-exact "$T/xi.json" "$xino" > "$T/xi.chk" 2>&1; tally xino-exact "$T/xi.chk"
	evs xino-ctime-set "$T/xi.json" "ctime_set@$(mdev "$X/m"):$xino" --only ctime_set
	# jq 1.6 reads numbers as doubles: the ns reading's remainder is wrong, the _nsec field right
	if command -v jq > /dev/null; then
		jq -r 'select(.type == "event") | "\(.time_realtime_ns % 1000000000) \(.time_realtime_nsec) \(.inode)"' \
			"$T/xi.json" > "$T/xi.jq"
		want=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["type"] == "event": print(o["time_realtime_ns"] % 10**9, o["inode"])' "$T/xi.json")
		[ "$(awk '{ print $2, $3 }' "$T/xi.jq")" = "$want" ] \
			&& ok "jq reads time_realtime_nsec and inode exactly ($(wc -l < "$T/xi.jq") events)" \
			|| bad "jq: $(cat "$T/xi.jq") want $want"
		awk '$1 != $2 { n++ } END { exit !n }' "$T/xi.jq" \
			&& ok "the pitfall is real: jq's time_realtime_ns % 1e9 differs from the exact nanoseconds" \
			|| bad "jq's time_realtime_ns % 1e9 was exact for every event (the twin checks nothing)"
	fi
	umount "$X/m"
else
	bad "xino: could not mount an overlay with xino=on"
fi
umount "$X/u" 2>/dev/null

# ---- paths that cannot have every event: a note, the inode's type (issue 28 item 14b) ----
# ramfs is not multigrain (asked of the kernel): a write gives one ctime_set, a stat nothing
R=$T/ramfs; mkdir -p "$R"
if mount -t ramfs mgr "$R"; then
	echo a > "$R/f"; rino=$(stat -c %i "$R/f")
	$MG trace --json -o "$T/rf.json" --path "$R/f" -- sh -c "echo b >> '$R/f'; stat '$R/f' > /dev/null" > /dev/null 2>&1
	summ ramfs-note "$T/rf.json" path_multigrain=false "inodes_note~is on ramfs, which does not use multigrain" \
		types=regular
	evs ramfs-only-ctime-set "$T/rf.json" "ctime_set@$(mdev "$R"):$rino"	# no stat event
	$MG trace --path "$R/f" -- true > /dev/null 2> "$T/rf.err"
	grep -q "^mgtrace: note: $R/f is on ramfs, which does not use multigrain timestamps" "$T/rf.err" \
		&& ok "ramfs: the text header has the note" || bad "ramfs: no note: $(cat "$T/rf.err")"
	umount "$R"
else
	bad "ramfs: could not mount one"
fi
# the twin: a tmpfs file is multigrain and gets no note
M=$T/tmpfs-root; mkdir -p "$M"; mount -t tmpfs mgroot "$M"
echo a > "$M/f"
$MG trace --json -o "$T/tf.json" --path "$M/f" -- true > /dev/null 2>&1
summ tmpfs-no-note "$T/tf.json" path_multigrain=true inodes_note=None types=regular
# /proc: not multigrain
$MG trace --json -o "$T/pr.json" --path /proc/sys/kernel/hostname -- true > /dev/null 2>&1
summ proc-note "$T/pr.json" path_multigrain=false "inodes_note~is on proc, which does not use multigrain"
# a socket and a character device on tmpfs: their type, a note; a write to the device gives no event
python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$M/sock"
mknod "$M/null" c 1 3; mkdir "$M/dir"; mkfifo "$M/fifo"
$MG trace --json -o "$T/so.json" --path "$M/sock" -- true > /dev/null 2>&1
summ socket-note "$T/so.json" types=socket "inodes_note~is a socket: what is sent through it changes none"
$MG trace --json -o "$T/cd.json" --path "$M/null" -- sh -c "echo x > '$M/null'" > /dev/null 2>&1
summ chardev-note "$T/cd.json" types=char-device "inodes_note~is a character device" path_multigrain=true
evs chardev-write-no-event "$T/cd.json" ""
$MG trace --json -o "$T/cd2.json" --path "$M/null" -- chmod 600 "$M/null" > /dev/null 2>&1
# the twin: a chmod does give one (chmod(1) stats the node first: QUERIED)
python3 tests/checkjson.py trace-events "$T/cd2.json" chardev-chmod "ctime_swap/QUERIED" --format queried \
	--only ctime_swap > "$T/cd2.evs" 2>&1; tally chardev-chmod-events "$T/cd2.evs"
# a directory and a FIFO get events: their type, no note
$MG trace --json -o "$T/dir.json" --path "$M/dir" -- touch "$M/dir/x" > /dev/null 2>&1
summ dir-type "$T/dir.json" types=directory inodes_note=None
evs dir-events "$T/dir.json" "ctime_swap@$(mdev "$M"):$(stat -c %i "$M/dir")"
$MG trace --path "$M/fifo" -- true > /dev/null 2> "$T/fifo.err"
grep -q "^mgtrace: inode $(mdev "$M"):$(stat -c %i "$M/fifo") (fifo, tmpfs)" "$T/fifo.err" && ! grep -q note "$T/fifo.err" \
	&& ok "fifo: labelled fifo, no note" || bad "fifo: $(cat "$T/fifo.err")"
# the mount's root: the probe stats an entry, never the root (nor opendir()s it: glibc's fstat()
# would mark it), so the root's next swap is not QUERIED; after a trace of a file there (whose
# probe stats the root) it is: the check can fail
touch "$M/g"
$MG trace --json -o "$T/root.json" --path "$M" -- touch "$M/h" > /dev/null 2>&1
evs root-not-queried "$T/root.json" ctime_swap --format queried --only ctime_swap
$MG trace --path "$M/f" -- true > /dev/null 2>&1
$MG trace --json -o "$T/root2.json" --path "$M" -- touch "$M/i" > /dev/null 2>&1
evs root-queried-by-a-file-probe "$T/root2.json" ctime_swap/QUERIED --format queried --only ctime_swap
umount "$M"
# an empty filesystem's root: nothing else to ask, so not known, and said
mkdir -p "$M"; mount -t tmpfs mgempty "$M"
$MG trace --json -o "$T/empty.json" --path "$M" -- true > /dev/null 2>&1
summ empty-root-unknown "$T/empty.json" path_multigrain=None "path_multigrain_unavailable~no other entry to stat" \
	"inodes_note~whether tmpfs uses multigrain timestamps is not known"
umount "$M"
# a 6,000-byte path: the reason and its errno stay on the line
long=$T/$(printf 'a/%.0s' $(seq 3000))
badcase "trace: --path of 6,000 bytes" 2 "bytes)': File name too long (ENAMETOOLONG)" $MG trace --path "$long" -- true

# ---- trace -p $$: mgtrace's own events are not traced ----
W=$T/selfw; S=$T/self.json
bash -c "$MG trace --json -o '$S' -p \$\$ & m=\$!; sleep 1.5; echo x >> '$W'; sleep 0.5; kill -INT \$m; wait \$m; echo \$m \$\$" \
	> "$T/self.pids" 2>/dev/null
read -r mpid spid < "$T/self.pids"
python3 -c 'import json, sys
n = {int(sys.argv[2]): 0, int(sys.argv[3]): 0}
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o.get("type") == "event" and o["pid"] in n:
        n[o["pid"]] += 1
print(n[int(sys.argv[2])], n[int(sys.argv[3])])' "$S" "$mpid" "$spid" > "$T/self.n"
read -r nm ns < "$T/self.n"
[ "$nm" = 0 ] && ok "trace -p \$\$: none of mgtrace's own events (pid $mpid)" || bad "trace -p \$\$: $nm events of mgtrace itself"
[ "${ns:-0}" -gt 0 ] && ok "trace -p \$\$: the shell's own events are there ($ns): the count can find events" \
	|| bad "trace -p \$\$: no event of the shell $spid either: $(head -c 300 "$S")"

# ---- resolving --path asks for no timestamps: it sets no QUERIED flag ----
F=$T/idq; echo a > "$F"; echo b >> "$F"
$MG trace --json -o "$T/q.json" --path "$F" -- sh -c "echo c >> '$F'" > /dev/null 2>/dev/null
# one swap, its old value not QUERIED
evs path-not-queried "$T/q.json" ctime_swap --format queried --only ctime_swap
$MG trace --json -o "$T/q2.json" --path "$F" -- sh -c "stat '$F' >/dev/null; echo d >> '$F'" > /dev/null 2>/dev/null
grep -q '"old_queried":true' "$T/q2.json" && ok "the QUERIED check can fail: after a stat the swap's old value is QUERIED" \
	|| bad "no QUERIED swap after a stat: $(cat "$T/q2.json")"

# ---- child processes: COMMAND's grandchild is traced by default, not with --no-inherit ----
C=$T/child; echo a > "$C"; cino=$(stat -c %i "$C")
run_kids() { local out=$1; shift; $MG trace --json -o "$out" --path "$C" "$@" -- sh -c "echo b >> '$C'; sh -c \"stat '$C' >/dev/null; true\"; true"; }
run_kids "$T/k.json" > /dev/null 2> "$T/k.err"
# the shell's swap and its grandchild's stat, from 2 processes
evs command-grandchild "$T/k.json" "ctime_swap/sh stat/stat" --format comm --pids 2
# 2 descendants followed (inner sh, stat), 0 not followed
summ command-followed "$T/k.json" processes_followed=2 processes_not_followed=0
# the text summary names the followed ones and, with none lost to a full map, no "not followed"
$MG trace -o "$T/k.txt" --path "$C" -- sh -c "echo b >> '$C'; sh -c \"stat '$C' >/dev/null; true\"; true" \
	> /dev/null 2> "$T/k-text.err"
grep -q '^mgtrace: [0-9]* events printed, 0 lost; 2 child processes followed$' "$T/k-text.err" \
	&& ! grep -q 'not followed' "$T/k-text.err" \
	&& ok "trace text summary: 2 child processes followed, no '0 not followed (process map full)'" \
	|| bad "trace text summary: $(grep 'events printed' "$T/k-text.err")"
run_kids "$T/k1.json" --no-inherit > /dev/null 2>/dev/null
evs no-inherit "$T/k1.json" "ctime_swap@$(mdev "$C"):$cino"	# only COMMAND's own swap, not the grandchild's stat
badcase "trace: --no-inherit without COMMAND" 2 "needs COMMAND" $MG trace --no-inherit
badcase "trace: --no-inherit with --all" 2 "needs COMMAND" $MG trace --no-inherit -a -- true
badcase "trace: --path on a missing path" 2 "cannot stat" $MG trace --path "$T/none/x" -- true
[ "$(left_attached)" = 0 ] && ok "nothing left attached after the identity and child tests" \
	|| bad "identity/child tests left BPF objects behind"
# --inode with a device no mounted filesystem has (stat(1)'s device of a file in a btrfs
# subvolume is one): a note says no event may match; a mounted device gives none
$MG trace --inode 0:999:5 -- true > /dev/null 2> "$T/inode-nodev.err"; rc=$?
[ $rc = 0 ] && grep -q 'note: no mounted filesystem has device 0:999' "$T/inode-nodev.err" \
	&& ok "trace --inode of an unmounted device: a note, exit 0" \
	|| bad "trace --inode 0:999:5: exit $rc, $(cat "$T/inode-nodev.err")"
touch "$T/inode-dev-f"
$MG trace --inode "$(stat -c '%Hd:%Ld:%i' "$T/inode-dev-f")" -- true > /dev/null 2> "$T/inode-dev.err"
grep -q 'no mounted filesystem' "$T/inode-dev.err" \
	&& bad "trace --inode of a mounted file's device: a note all the same" \
	|| ok "trace --inode of a mounted file's device: no note"
