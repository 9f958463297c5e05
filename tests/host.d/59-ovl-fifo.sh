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
import re, sys
t, n = sys.argv[1], int(sys.argv[2])
def say(c, m): print(("PASS " if c else "FAIL ") + m)
LINE = re.compile(r"^(\S+): ctime not later in (\d+) of (\d+), mtime not later in (\d+) of (\d+)$")

def counts(name):
    """{case: (ctime not later, mtime not later)} of one run, or None when it failed"""
    try:
        rc = open(f"{t}/of-{name}.rc").read().strip()
        text = open(f"{t}/of-{name}.txt").read()
    except OSError as e:
        say(False, f"{name}: no run ({e})")
        return None
    got = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if m and int(m.group(3)) == n and int(m.group(5)) == n:
            got[m.group(1)] = (int(m.group(2)), int(m.group(4)))
    ok = rc == "0" and set(got) == {"fifo-write", "file-write"}
    say(ok, f"{name}: exit {rc}, the two cases {n} times each: {text.strip()[:300]!r}")
    return got if ok else None

def expect(name, got, case, missed):
    c, m = got[case]
    want = n if missed else 0
    say(c == want and m == want,
        f"{name} {case}: ctime not later in {c}, mtime in {m} of {n} (want {want} of each)")

ovl = counts("overlay")
if ovl:
    expect("overlay", ovl, "fifo-write", True)
    expect("overlay", ovl, "file-write", False)
tmpfs = counts("tmpfs")
if tmpfs:
    expect("tmpfs", tmpfs, "fifo-write", False)
    expect("tmpfs", tmpfs, "file-write", False)
rc = open(f"{t}/of-usage.rc").read().strip()
err = open(f"{t}/of-usage.err").read()
say(rc == "2" and err.startswith("usage: overlayfs-fifo-times"), f"no DIR: exit {rc}, {err.strip()!r}")
PY
tally "ovl-fifo" "$T/of.chk"
