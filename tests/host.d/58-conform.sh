# SPDX-License-Identifier: GPL-2.0
# 58-conform.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# mgtrace conform (issue 41, part 2): the contract operation by operation, judged by check's
# BPF judge and by the observer's stat() calls, which must agree in every row. On this host's
# private tmpfs (6.18) it must exit 1 with at least 30 distinct operations run, the directory
# rows of link, unlink and rename over a name FAIL with check's count equal to the observer's
# and stacks through shmem or fs/libfs.c (docs/findings/tmpfs-dir-ctime.md), and the store
# through a shared mapping FAIL as missing_update (fstests generic/080). On an ext4 loop image
# it exits 0, or 1 with its FAIL rows listed and no row where the two judges disagree.
# Without BPF (build/denybpf): exit 3 with a hint to --observer-only, which finds the tmpfs
# faults alone. A filesystem that is not multigrain (ramfs) is refused. The progress line only
# on a terminal. `-- OP...` runs only those operations (an unknown name: exit 2 naming it and
# listing the names), -l prints the table; RENAME_EXCHANGE across two directories has its own
# rows (dir and dir2 later, file and other informational), judged by both on tmpfs and ext4.
echo "# conform: the contract operation by operation"
$MG conform -n 20 --json -o "$T/cf.json" --junit "$T/cf.xml" > /dev/null 2> "$T/cf.err"
echo "rc=$?" > "$T/cf.rc"
schema_valid conform conform "$T/cf.json"
python3 - "$T" > "$T/cf.chk" 2>&1 <<'PY'
import json, sys
import xml.etree.ElementTree as ET
t = sys.argv[1]
def say(c, m): print(("PASS " if c else "FAIL ") + m)
rc = open(f"{t}/cf.rc").read().strip()
r = json.loads(open(f"{t}/cf.json").readline())
say(rc == "rc=1" and r["verdict"] == "fail" and r["exit_code"] == 1,
    f"private tmpfs: exit 1, verdict fail ({rc}, {r['verdict']}, fs {r['fs']})")
say(r["fs"] == "tmpfs" and r["judge"]["kernel"], f"on tmpfs, judged by check's BPF judge too: {r['judge']['detail'][:80]}")
ran = {o["op"] for o in r["ops"] if o["done"] > 0}
say(len(ran) >= 30, f"{len(ran)} distinct operations ran (>= 30)")
rows = {(o["op"], o["role"]): o for o in r["ops"]}
LIBFS = ("simple_", "__simple_", "shmem_")
for op in ("link", "unlink", "rename-over"):
    o = rows[(op, "dir")]
    say(o["verdict"] == "fail" and o["observer_not_later"] > 0
        and o["check_violations"] == o["observer_not_later"],
        f"{op} dir: FAIL, check {o['check_violations']} = observer {o['observer_not_later']} of {o['done']}")
    frames = [f.split("+")[0] for s in o["stacks"] for f in s["frames"]]
    say(any(f.startswith(LIBFS) for f in frames) and
        sum(s["count"] for s in o["stacks"]) == o["check_violations"],
        f"{op} dir: stacks through shmem or libfs, one per violation run: {frames[:3]}")
m = rows[("mmap-msync", "file")]
say(m["verdict"] == "fail" and m["missing_update"] == m["observer_not_later"] == m["check_violations"] > 0
    and not m["stacks"], f"mmap-msync file: FAIL as missing_update {m['missing_update']} "
    f"= observer {m['observer_not_later']} of {m['done']}")
dis = [k for k, o in rows.items() if o["verdict"] == "disagree"]
say(not dis, f"check and the observer agree in every row ({dis})")
un = [o for o in r["ops"] if o["unsupported"]]
say(all(o["verdict"] == "unsupported" and o["done"] == 0 for o in un),
    f"{len(un)} unsupported rows, none a pass: {sorted({o['op'] for o in un})}")
say(all(o["verdict"] != "pass" or (o["expect"] == "later" and o["observer_not_later"] == 0
                                   and o["check_violations"] == 0) for o in r["ops"]),
    "every pass is a later row with nothing found by either judge")
xa = [(o["role"], o["expect"]) for o in r["ops"] if o["op"] == "rename-exchange-across"]
say(xa == [("dir", "later"), ("dir2", "later"), ("file", "informational"), ("other", "informational")],
    f"rename-exchange-across: its own rows, dir and dir2 later: {xa}")
xr = {o["role"]: o for o in r["ops"] if o["op"] == "rename-exchange-across"}
say(len(xr) == 4 and all(o["done"] == 20 and o["verdict"] in ("pass", "fail", "info") for o in xr.values())
    and all(xr[d]["check_violations"] == xr[d]["observer_not_later"] for d in ("dir", "dir2") if d in xr),
    "rename-exchange-across on tmpfs: " + ", ".join(f"{k} {o['verdict']} (check {o['check_violations']}, "
                                                   f"observer {o['observer_not_later']} of {o['done']})"
                                                   for k, o in xr.items()))
x = ET.parse(f"{t}/cf.xml").getroot()
fails = sum(o["verdict"] in ("fail", "disagree") for o in r["ops"])
say(x.get("tests") == str(len(r["ops"])) and x.get("failures") == str(fails)
    and int(x.get("skipped")) >= len(un), f"--junit: {x.get('tests')} testcases, {x.get('failures')} failures")
PY
tally conform-tmpfs "$T/cf.chk"

# text: FAIL rows first, each with its stack; no progress line into a pipe
$MG conform -n 5 > "$T/cf.txt" 2> "$T/cf-text.err"; rc=$?
first_pass=$(grep -n '^PASS ' "$T/cf.txt" | head -1 | cut -d: -f1)
last_fail=$(grep -n '^FAIL ' "$T/cf.txt" | tail -1 | cut -d: -f1)
[ $rc = 1 ] && [ -n "$last_fail" ] && [ "$last_fail" -lt "${first_pass:-0}" ] && grep -q '^  link dir: stack of' "$T/cf.txt" \
	&& ok "conform text: exit 1, FAIL rows first, the stacks after" || bad "conform text: exit $rc: $(head -8 "$T/cf.txt")"
! grep -q 'operation 1 of' "$T/cf-text.err" "$T/cf.txt" && ok "conform into a pipe: no progress line" \
	|| bad "conform into a pipe: a progress line: $(head -c 200 "$T/cf-text.err")"
python3 tests/ptyfit.py run 100 30 "$T/cf-pty.txt" -- $MG conform -n 3 > /dev/null 2>&1
grep -q $'\r\033\[Kconform: operation 50 of 50, fifo-write' "$T/cf-pty.txt" \
	&& ok "conform on a terminal: one progress line, rewritten, to the last operation" \
	|| bad "conform on a terminal: no progress line: $(head -c 200 "$T/cf-pty.txt" | cat -v)"
python3 tests/ptyfit.py run 100 30 "$T/cf-ptyj.txt" -- $MG conform -n 2 --json > /dev/null 2>&1
! grep -q 'operation 1 of' "$T/cf-ptyj.txt" && ok "conform --json on a terminal: no progress line" \
	|| bad "conform --json on a terminal: a progress line"

# -- OP...: only those operations, in the table's order, their rows alone; the progress line
# counts them; an unknown name is a usage error that names it and lists the names
$MG conform -n 3 --json -o "$T/cf-pick.json" -- rename-exchange-across link > /dev/null 2>&1; rc=$?
python3 - "$T/cf-pick.json" $rc > "$T/cf-pick.chk" 2>&1 <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
def say(c, m): print(("PASS " if c else "FAIL ") + m)
rows = [(o["op"], o["role"]) for o in r["ops"]]
want = [("link", "file"), ("link", "dir"), ("rename-exchange-across", "dir"), ("rename-exchange-across", "dir2"),
        ("rename-exchange-across", "file"), ("rename-exchange-across", "other")]
say(rows == want, f"conform -- rename-exchange-across link: those rows only, in the table's order: {rows}")
say(sys.argv[2] == "1" and all(o["done"] == 3 for o in r["ops"]),
    f"... run 3 times each, exit {sys.argv[2]} (link dir fails on tmpfs)")
PY
tally conform-pick "$T/cf-pick.chk"
python3 tests/ptyfit.py run 100 30 "$T/cf-pty2.txt" -- $MG conform -n 2 -- chmod fifo-write > /dev/null 2>&1
grep -q $'\r\033\[Kconform: operation 2 of 2, fifo-write' "$T/cf-pty2.txt" \
	&& ok "conform -- chmod fifo-write on a terminal: the progress line counts the two" \
	|| bad "conform -- OP...: progress line: $(head -c 200 "$T/cf-pty2.txt" | cat -v)"
badcase "conform -- an unknown operation" 2 "unknown operation 'bogus' (the operations: create, mkdir,.*rename-exchange-across" \
	$MG conform -n 2 -- link bogus
$MG conform -l > "$T/cf-list.txt" 2> "$T/cf-list.err"; rc=$?
n_ops=$(python3 -c "import json,sys; print(len(json.loads(open(sys.argv[1]).readline())['ops']))" "$T/cf.json")
[ $rc = 0 ] && [ "$(tail -n +2 "$T/cf-list.txt" | wc -l)" = "$n_ops" ] && [ ! -s "$T/cf-list.err" ] &&
	grep -qE '^rename-exchange-across +dir2 +later +rename\(2\) RENAME_EXCHANGE' "$T/cf-list.txt" &&
	head -1 "$T/cf-list.txt" | grep -qE '^OP +ROLE +EXPECT +SOURCE$' \
	&& ok "conform -l: exit 0, one line per row of a run ($n_ops), each with its expectation and source" \
	|| bad "conform -l: exit $rc, $(wc -l < "$T/cf-list.txt") lines for $n_ops rows: $(head -3 "$T/cf-list.txt")"
[ "$($MG conform -l -- fifo-write chmod | cut -d' ' -f1 | xargs)" = "OP chmod fifo-write" ] \
	&& ok "conform -l -- OP...: only those, in the table's order" \
	|| bad "conform -l -- fifo-write chmod: $($MG conform -l -- fifo-write chmod 2>&1 | head -3)"
badcase "conform -l --json" 2 "text table" $MG conform -l --json

# without BPF: refused with a hint; --observer-only finds the faults alone
badcase_hint() {
	build/denybpf $MG conform -n 2 --json -o "$T/cf-deny.json" > /dev/null 2> "$T/cf-deny.err"; rc=$?
	[ $rc = 3 ] && grep -q -- '--observer-only' "$T/cf-deny.err" &&
		python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d['type'] == 'error' and d['exit_code'] == 3 and '--observer-only' in d['reason']))" "$T/cf-deny.json" \
		&& ok "conform without BPF: exit 3, the cause and a hint to --observer-only ($(tail -1 "$T/cf-deny.err"))" \
		|| bad "conform without BPF: exit $rc: $(cat "$T/cf-deny.err")"
}
badcase_hint
build/denybpf $MG conform -n 10 --observer-only --json -o "$T/cf-obs.json" > /dev/null 2>&1; rc=$?
python3 - "$T/cf-obs.json" $rc > "$T/cf-obs.chk" 2>&1 <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
def say(c, m): print(("PASS " if c else "FAIL ") + m)
rows = {(o["op"], o["role"]): o for o in r["ops"]}
say(sys.argv[2] == "1" and not r["judge"]["kernel"] and "no kernel stacks" in r["judge"]["detail"],
    f"--observer-only without BPF: exit {sys.argv[2]}, says no kernel judge and no stacks")
say(r["multigrain"] is None and "Operation not permitted" in r.get("multigrain_unknown", ""),
    f"--observer-only without BPF: multigrain not known, and why: {r.get('multigrain_unknown')!r}")
say(all(o["check_violations"] is None and not o["stacks"] for o in r["ops"]), "no check counts, no stacks")
say(all(rows[(op, "dir")]["verdict"] == "fail" for op in ("link", "unlink", "rename-over"))
    and rows[("mmap-msync", "file")]["verdict"] == "fail", "the observer alone finds the tmpfs faults")
PY
tally conform-observer-only "$T/cf-obs.chk"
schema_valid conform-observer conform "$T/cf-obs.json"
[ "$(left_attached)" = 0 ] && ok "nothing left attached after conform runs" || bad "conform left BPF objects behind: $(leaked_words | cut -c1-300)"

# a filesystem that is not multigrain (ramfs): refused, one line, nothing left attached
mkdir -p "$T/cf-ram" && mount -t ramfs mgtrace-conform-ram "$T/cf-ram" &&
	badcase "conform on ramfs (not multigrain), named as mountinfo names it" 3 "(ramfs) is not multigrain" \
		$MG conform -D "$T/cf-ram" -n 2
# --observer-only asks the kernel too where BPF works (it ran the sweep: 40 FAIL rows, no word
# of why); where BPF is refused, it runs and says every `later` row fails on such a filesystem
mountpoint -q "$T/cf-ram" && badcase "conform --observer-only on ramfs: refused as well" 3 "(ramfs) is not multigrain" \
	$MG conform -D "$T/cf-ram" -n 2 --observer-only
mountpoint -q "$T/cf-ram" && { build/denybpf $MG conform -D "$T/cf-ram" -n 2 --observer-only > "$T/cf-ramobs.txt" 2>&1
	grep -q "whether ramfs is multigrain is not known (.*): where it is not, every .later. row fails" "$T/cf-ramobs.txt" \
		&& ok "conform --observer-only on ramfs without BPF: says multigrain is not known, and what that means" \
		|| bad "conform --observer-only on ramfs without BPF: $(head -4 "$T/cf-ramobs.txt")"; }
mountpoint -q "$T/cf-ram" && umount "$T/cf-ram"

# ext4 on a loop image: 0, or 1 with its FAIL rows listed; the judges agree
truncate -s 64M "$T/cf-ext4.img" && mkfs.ext4 -q -F "$T/cf-ext4.img" && mkdir -p "$T/cf-ext4" &&
	mount -o loop "$T/cf-ext4.img" "$T/cf-ext4"
if mountpoint -q "$T/cf-ext4"; then
	$MG conform -D "$T/cf-ext4" -n 20 --json -o "$T/cf-ext4.json" > /dev/null 2>&1; rc=$?
	umount "$T/cf-ext4"
	python3 - "$T/cf-ext4.json" $rc > "$T/cf-ext4.chk" 2>&1 <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
def say(c, m): print(("PASS " if c else "FAIL ") + m)
rc = sys.argv[2]
fails = [f"{o['op']} {o['role']}" for o in r["ops"] if o["verdict"] == "fail"]
say(r["fs"] == "ext4" and (rc == "0" and not fails or rc == "1" and fails),
    f"ext4 loop image: exit {rc}, FAIL rows: {fails or 'none'}")
say(not [o for o in r["ops"] if o["verdict"] == "disagree"], "ext4: the two judges agree in every row")
say(sum(o["done"] > 0 for o in r["ops"]) >= 50, f"ext4: {sum(o['done'] > 0 for o in r['ops'])} rows ran")
xr = {o["role"]: o for o in r["ops"] if o["op"] == "rename-exchange-across"}
say(sorted(xr) == ["dir", "dir2", "file", "other"] and all(o["done"] == 20 for o in xr.values()),
    "ext4 rename-exchange-across: " + ", ".join(f"{k} {o['verdict']} (check {o['check_violations']}, "
                                               f"observer {o['observer_not_later']})" for k, o in xr.items()))
PY
	tally conform-ext4 "$T/cf-ext4.chk"
else
	skip "conform on ext4" "cannot make or mount a loop image"
fi
rm -f "$T/cf-ext4.img"
