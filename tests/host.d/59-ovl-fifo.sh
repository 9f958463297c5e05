# SPDX-License-Identifier: GPL-2.0
# 59-ovl-fifo.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The reproducer of docs/findings/overlayfs-fifo-times.md (build/overlayfs-fifo-times, no
# mgtrace): on an overlayfs whose lower, upper and work directories are on a private tmpfs, a
# write() to a FIFO leaves its ctime and mtime as the stat() before it saw, in every try, while
# pwrite() to a regular file beside it changes them every time. On the tmpfs itself, the same
# FIFO write changes them every time (so the count can be 0). Bad usage: exit 2.
echo "# the overlayfs FIFO write that stamps nothing: its reproducer"
REPRO=build/overlayfs-fifo-times
[ -x "$REPRO" ] || make -s "$REPRO" > /dev/null 2>&1
N=200

# of_run NAME DIR: the reproducer on DIR, its output to $T/of-NAME.txt, its exit status to
# $T/of-NAME.rc
of_run() {
	"$REPRO" -n $N "$2" > "$T/of-$1.txt" 2>&1
	echo $? > "$T/of-$1.rc"
}

B=$T/of-base
mkdir -p "$B" && mount -t tmpfs mgtrace-ovlfifo "$B"
if mountpoint -q "$B"; then
	mkdir -p "$B/lower" "$B/upper" "$B/work" "$B/merged" "$B/plain"
	if mount -t overlay mgtrace-ovlfifo \
		-o "lowerdir=$B/lower,upperdir=$B/upper,workdir=$B/work" "$B/merged"; then
		of_run overlay "$B/merged"
		umount "$B/merged"
	else
		echo "overlay mount failed" > "$T/of-overlay.txt"; echo 32 > "$T/of-overlay.rc"
	fi
	of_run tmpfs "$B/plain"
	umount "$B"
fi
"$REPRO" > /dev/null 2> "$T/of-usage.err"
echo $? > "$T/of-usage.rc"

python3 - "$T" $N > "$T/of.chk" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tests")
from findings_repro import Repro
r = Repro(sys.argv[1], "of", int(sys.argv[2]), ("fifo-write", "file-write"))
ovl = r.counts("overlay")
if ovl:
    r.expect("overlay", ovl, "fifo-write", True)
    r.expect("overlay", ovl, "file-write", False)
tmpfs = r.counts("tmpfs")
if tmpfs:
    r.expect("tmpfs", tmpfs, "fifo-write", False)
    r.expect("tmpfs", tmpfs, "file-write", False)
r.usage("overlayfs-fifo-times", "DIR")
PY
tally "ovl-fifo" "$T/of.chk"
