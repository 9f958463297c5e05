# SPDX-License-Identifier: GPL-2.0
# 64-check-known.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# check --known FILE (issue 31 part 4): a declared known kernel fault is counted, with its
# reference, and does not fail the run; anything else still fails. The workload is the
# tmpfs finding itself (tests/mgobserve.c links into and unlinks from a directory it has just
# stat()ed: fs/libfs.c copies the child's time onto it), so on this kernel:
# - without --known: FAIL (exit 1), the violations sets of the directory (must fail);
# - with contrib/known-faults.json: PASS (exit 0), every violation counted as known, the
#   JSON, text and JUnit saying so (a JUnit skip, never a pass), in BPF and in user space;
# - with the file and an injected violation of another kind (MGTRACE_TEST_INJECT): FAIL;
# - with copies that miss in one field each (kernel range, filesystem, setter): FAIL;
# - malformed files: exit 2, one line, nothing loaded.
echo "# check --known: declared known kernel faults"
OBS=build/mgobserve
KF=contrib/known-faults.json
mkdir -p "$T/kt"
mount -t tmpfs mgtrace-known "$T/kt"
# known_case NAME WANT_RC WANT_VERDICT KNOWN_MIN -- CHECK-ARGS...: check around the finding's workload
known_case() {
	local name=$1 want=$2 verdict=$3 kmin=$4 rc; shift 5
	rm -rf "$T/kt/$name"
	"$@" $MG check --json -o "$T/$name.json" --junit "$T/$name.xml" "${CARGS[@]}" -- \
		$OBS -n 50 -o link,unlink "$T/kt/$name" > "$T/$name.obs" 2> "$T/$name.err"; rc=$?
	python3 - "$T/$name.json" "$T/$name.xml" "$T/$name.obs" "$rc" "$want" "$verdict" "$kmin" \
		> "$T/$name.chk" 2>&1 <<'PY'
import json, sys
import xml.etree.ElementTree as ET
jf, xf, of, rc, want, verdict, kmin = sys.argv[1:8]
def say(c, m): print(("PASS " if c else "FAIL ") + m)
r = json.loads(open(jf).readline())
o = json.loads(open(of).readline())
nl = r["invariants"]["not_later_after_query"]
say(rc == want and r["verdict"] == verdict, f"exit {rc} (want {want}), verdict {r['verdict']} (want {verdict}): {r['reason'][:300]}")
say(o["not_later_total"] > 0, f"the observer saw the directory's ctime not later {o['not_later_total']} times")
kf = r["known_faults"]
if int(kmin) > 0:
    say(nl["known"] >= int(kmin) and nl["known"] == nl["violations"] and kf["matched"] == nl["known"]
        and kf["faults"][0]["matched"] == nl["known"] and kf["faults"][0]["example"] is not None,
        f"every violation is a known fault: {nl['known']} of {nl['violations']}, file {kf['matched']}")
    say(all(v["known"] == "tmpfs-dir-ctime" for v in r["violations"] if v["kind"] == "not_later_after_query"),
        "each listed violation names its entry")
    say("known kernel faults" in r["reason"] and "docs/findings/tmpfs-dir-ctime.md" in r["reason"],
        "the reason names the known faults and the reference")
    tc = [t for t in ET.parse(xf).getroot().iter("testcase") if t.get("name") == "change visibility"]
    say(len(tc) == 1 and tc[0].find("skipped") is not None and tc[0].find("failure") is None
        and "known kernel fault" in tc[0].find("skipped").get("message", ""),
        "JUnit: change visibility is skipped as known, not passed")
else:
    say(nl["violations"] > 0 and nl["known"] == 0, f"no violation known: {nl['violations']} violations, {nl['known']} known")
PY
	tally "$name" "$T/$name.chk"
	schema_valid "$name" check "$T/$name.json"
}
CARGS=()
known_case known-none 1 FAIL 0 -- env
CARGS=(--known "$KF")
known_case known-bpf 0 PASS 1 -- env
# the text report (on stderr with COMMAND)
$MG check --known "$KF" -- $OBS -n 50 -o link,unlink "$T/kt/text" > /dev/null 2> "$T/known-text.err"; rc=$?
[ $rc = 0 ] && grep -q "^KNOWN  change visibility .* known kernel fault(s) (--known)" "$T/known-text.err" &&
	grep -q "^  tmpfs-dir-ctime .* matched; not_later_after_query on tmpfs, set by inode_set_ctime_to_ts; see docs/findings/tmpfs-dir-ctime.md" "$T/known-text.err" &&
	grep -q "^verdict: PASS (all invariants hold but for known kernel faults" "$T/known-text.err" &&
	ok "check --known: the text report says KNOWN, lists the entry, and PASS but for known faults" ||
	bad "check --known: text (exit $rc): $(grep -e KNOWN -e 'known kernel' -e '^verdict' "$T/known-text.err")"
# the example under the entry shows the kernel code that made it, as a violation does
grep -A2 "^    e\.g\. violation not_later_after_query" "$T/known-text.err" | grep -q "^      kernel stack" &&
	grep -A12 "^      kernel stack" "$T/known-text.err" | grep -qE "^      0x[0-9a-f]+ (simple_|shmem_)" &&
	ok "check --known: the example's kernel stack, through libfs or shmem" ||
	bad "check --known: no stack under the example: $(grep -A3 '^    e\.g\.' "$T/known-text.err")"
# the tmpfs only in COMMAND's own mount namespace, or unmounted before the report: not in
# check's /proc/self/mountinfo at the report, the filesystem comes from the superblock magic
# BPF read at the violation (a newcomer's container case: FAIL before)
mkdir -p "$T/kns"
for how in namespace unmounted; do
	case $how in
	namespace) $MG check --json -o "$T/kns-$how.json" --known "$KF" -- unshare -m sh -c \
		"mount -t tmpfs mgtrace-kns '$T/kns' && $OBS -n 30 -o link,unlink '$T/kns/d'" \
		> /dev/null 2>&1; rc=$? ;;
	unmounted) $MG check --json -o "$T/kns-$how.json" --known "$KF" -- sh -c \
		"mount -t tmpfs mgtrace-kns '$T/kns' && $OBS -n 30 -o link,unlink '$T/kns/d'; umount '$T/kns'" \
		> /dev/null 2>&1; rc=$? ;;
	esac
	mountpoint -q "$T/kns" && umount "$T/kns"
	python3 - "$T/kns-$how.json" "$rc" "$how" > "$T/kns-$how.chk" 2>&1 <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
nl = r["invariants"]["not_later_after_query"]
print(("PASS " if sys.argv[2] == "0" and r["verdict"] == "PASS" and nl["violations"] > 0 and
       nl["known"] == nl["violations"] else "FAIL ") +
      f"check --known, the tmpfs {sys.argv[3]}: exit {sys.argv[2]}, {r['verdict']}, "
      f"{nl['known']} of {nl['violations']} violations known")
PY
	tally "known-$how" "$T/kns-$how.chk"
done
CARGS=(--known "$KF" --judge user -a)
known_case known-user 0 PASS 1 -- env
# a long --known path (over 500 bytes) is whole in JUnit's skipped message, never cut mid-word
# (issue 28 item 2; check_junit.c cut it at 300 bytes); twin: that message cut at 300 bytes of
# the path fails the same check (tests/checkjson.py junit-skips)
LK="$T/$(for i in $(seq 12); do printf 'a-directory-of-a-long-known-faults-path-%02d/' $i; done)known-faults.json"
mkdir -p "$(dirname "$LK")" && cp "$KF" "$LK"
CARGS=(--known "$LK")
known_case known-long-path 0 PASS 1 -- env
python3 tests/checkjson.py junit-skips "$T/known-long-path.xml" "$LK" > "$T/klong.chk" 2>&1
tally "check --known, a ${#LK}-byte path: whole in the JUnit skip" "$T/klong.chk"
python3 - "$T/known-long-path.xml" "$LK" "$T/known-long-cut.xml" <<'PY'
import sys
open(sys.argv[3], "w").write(open(sys.argv[1]).read().replace(sys.argv[2], sys.argv[2][:300]))
PY
python3 tests/checkjson.py junit-skips "$T/known-long-cut.xml" "$LK" > "$T/klong.chk" 2>&1
grep -q '^FAIL ' "$T/klong.chk" && ok "junit-skips twin: the path cut at 300 bytes is told apart" \
	|| bad "junit-skips twin: the path cut at 300 bytes passes"
CARGS=(--known "$KF")
known_case known-inject 1 FAIL 1 -- env MGTRACE_TEST_INJECT=1
# copies that miss in one field each: the fault is then not known, and the run fails
python3 - "$KF" "$T" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
for name, field, value in (("kernel", "kernel", {"from": "99.0", "before": None}),
                           ("fstype", "fstype", "ext4"),
                           ("setter", "setter", "inode_set_ctime_current")):
    d = json.loads(json.dumps(base))
    d["faults"][0][field] = value
    if name == "setter":
        del d["faults"][0]["inode"]
    json.dump(d, open(f"{sys.argv[2]}/known-{name}.json", "w"))
PY
for m in kernel fstype setter; do
	CARGS=(--known "$T/known-$m.json")
	known_case "known-miss-$m" 1 FAIL 0 -- env
done
echo '{"schema_version":1,"type":"known_faults","faults":[{"id":"a","kind":"bogus","fstype":"tmpfs","kernel":{"from":"6.13"},"reference":"r"}]}' > "$T/kbad.json"
badcase "check --known: an unknown kind" 2 "unknown kind 'bogus'" $MG check --known "$T/kbad.json" -d 0.2
badcase "check --known: not JSON" 2 "is not JSON" $MG check --known /proc/version -d 0.2
badcase "check --known: a missing file" 2 "cannot read '/nonexistent/k.json'" $MG check --known /nonexistent/k.json -d 0.2
# a directory is named as one (it read "is not JSON: '[' or '{' expected near end of file"), as
# --baseline's: both load through mg_json_load_path()
badcase "check --known: a directory" 2 "cannot read '$T': Is a directory" $MG check --known "$T" -d 0.2
# a file that declares no faults: its heading says so, never an empty list under it
echo '{"schema_version":1,"type":"known_faults","faults":[]}' > "$T/k0.json"
$MG check --known "$T/k0.json" -d 0.2 -t 1 > "$T/k0.out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q "^known kernel faults (--known .*k0.json, kernel .*): none declared in the file$" "$T/k0.out" \
	&& ok "check --known with no faults: the heading says none are declared" \
	|| bad "check --known with no faults: rc $rc: $(grep -A1 '^known kernel' "$T/k0.out")"
umount "$T/kt"
