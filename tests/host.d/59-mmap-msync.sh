# SPDX-License-Identifier: GPL-2.0
# 59-mmap-msync.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The reproducer of docs/findings/tmpfs-mmap-msync.md (build/tmpfs-mmap-msync, no mgtrace):
# on a private tmpfs, a store through a shared mapping whose entry is already writable, then
# msync(MS_SYNC), leaves ctime and mtime as the stat() before it saw, in every try (the store
# after an msync and the store after a load), while pwrite() and the first store into a new
# mapping (whose fault stamps) change them every time. On an ext4 loop image nothing is missed.
# That the counter can report a miss outside tmpfs: with -a (msync(MS_ASYNC), which does
# nothing in Linux) the store after an msync is missed on ext4 too. Bad usage: exit 2.
echo "# the tmpfs mmap store no msync() stamps: its reproducer"
REPRO=build/tmpfs-mmap-msync
[ -x "$REPRO" ] || make -s "$REPRO" > /dev/null 2>&1
N=200

# mm_run NAME DIR [ARGS...]: the reproducer on DIR/f, its output to $T/mm-NAME.txt, its exit
# status to $T/mm-NAME.rc
mm_run() {
	local name=$1 dir=$2
	shift 2
	"$REPRO" "$@" -n $N "$dir/f" > "$T/mm-$name.txt" 2>&1
	echo $? > "$T/mm-$name.rc"
}

mkdir -p "$T/mm-tmpfs" && mount -t tmpfs mgtrace-mmap "$T/mm-tmpfs"
if mountpoint -q "$T/mm-tmpfs"; then
	mm_run tmpfs "$T/mm-tmpfs"
	umount "$T/mm-tmpfs"
fi
truncate -s 64M "$T/mm-ext4.img" && mkfs.ext4 -q -F "$T/mm-ext4.img" && mkdir -p "$T/mm-ext4" &&
	mount -o loop "$T/mm-ext4.img" "$T/mm-ext4"
if mountpoint -q "$T/mm-ext4"; then
	mm_run ext4 "$T/mm-ext4"
	mm_run ext4-async "$T/mm-ext4" -a
	umount "$T/mm-ext4"
fi
rm -f "$T/mm-ext4.img"
"$REPRO" > /dev/null 2> "$T/mm-usage.err"
echo $? > "$T/mm-usage.rc"

python3 - "$T" $N > "$T/mm.chk" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tests")
from findings_repro import Repro
r = Repro(sys.argv[1], "mm", int(sys.argv[2]),
          ("write", "first-store", "store-after-msync", "read-then-store"))
tmpfs = r.counts("tmpfs")
if tmpfs:
    r.expect("tmpfs", tmpfs, "store-after-msync", True)
    r.expect("tmpfs", tmpfs, "read-then-store", True)
    r.expect("tmpfs", tmpfs, "write", False)
    r.expect("tmpfs", tmpfs, "first-store", False)
ext4 = r.counts("ext4")
if ext4:
    for case in ("write", "first-store", "store-after-msync", "read-then-store"):
        r.expect("ext4", ext4, case, False)
async_ = r.counts("ext4-async")
if async_:
    r.expect("ext4 -a (MS_ASYNC)", async_, "store-after-msync", True)
    r.expect("ext4 -a (MS_ASYNC)", async_, "read-then-store", False)
r.usage("tmpfs-mmap-msync", "FILE")
PY
tally "mmap-msync" "$T/mm.chk"
