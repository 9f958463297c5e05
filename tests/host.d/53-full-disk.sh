# SPDX-License-Identifier: GPL-2.0
# 53-full-disk.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# A disk that fills during a run (issue 43, part 2): a report written once at the end (check's
# and stat's -o without intervals, --junit) replaces the earlier one whole or not at all. With
# a 1 MiB tmpfs filled one second into the run: exit 5, one stderr line per file naming it and
# the error, the earlier reports whole (same bytes, still JSON and XML), no temporary file
# left; with room again, a complete new report replaces the old one.
echo "# full disk: a report is replaced whole or not at all"

FD=$T/fulldisk
mkdir -p "$FD"
if ! mount -t tmpfs -o size=1m mgtrace-test-full "$FD"; then
	skip "full disk" "cannot mount a 1 MiB tmpfs at $FD"
else
	# fd_valid DIR: r.json and s.json JSON (lines), r.xml XML
	fd_valid() {
		python3 - "$1" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
for f in ("r.json", "s.json"):
    lines = [l for l in open(f"{d}/{f}") if l.strip()]
    assert lines, f + " is empty"
    for l in lines:
        json.loads(l)
assert ET.parse(f"{d}/r.xml").getroot().tag == "testsuite", "r.xml: no <testsuite>"
EOF
	}
	# fd_extra: files in the tmpfs other than the reports and the filler (temporary files)
	fd_extra() { ls -A "$FD" | grep -v -x -e r.json -e r.xml -e s.json -e fill | tr '\n' ' '; }
	# fd_lines ERRFILE FILE...: every stderr line names one FILE and ENOSPC's text, one per FILE
	fd_lines() {
		local err=$1 f n; shift
		[ "$(wc -l < "$err")" = $# ] || return 1
		for f in "$@"; do
			n=$(grep -c -F "'$f'" "$err")
			[ "$n" = 1 ] || return 1
		done
		[ "$(grep -c 'No space left on device' "$err")" = $# ]
	}
	# fd_run NAME CMD...: CMD in the tmpfs, filled one second in; stderr to $T/fd.err
	fd_run() {
		local rc
		shift
		( sleep 1; cat /dev/zero > "$FD/fill" ) 2> /dev/null & fill=$!
		(cd "$FD" && "$MGABS_FD" "$@") > /dev/null 2> "$T/fd.err"; rc=$?
		wait $fill
		echo $rc
	}
	MGABS_FD=$(readlink -f "$MG")

	(cd "$FD" && "$MGABS_FD" check -d 1 -j -o r.json --junit r.xml > /dev/null 2>&1 &&
		"$MGABS_FD" stat -j -o s.json -- true > /dev/null 2>&1)
	if ! fd_valid "$FD" 2> "$T/fd.why"; then
		bad "full disk: the first reports: $(tail -1 "$T/fd.why")"
	else
		mkdir -p "$T/fd-old"
		cp "$FD"/r.json "$FD"/r.xml "$FD"/s.json "$T/fd-old/"
		rc=$(fd_run check check -d 3 -j -o r.json --junit r.xml)
		cp "$T/fd.err" "$T/fd-check.err"
		[ "$rc" = 5 ] && ok "full disk: check -d 3 -j -o r.json --junit r.xml exits 5" \
			|| bad "full disk: check exit $rc, want 5: $(head -c 300 "$T/fd-check.err")"
		fd_lines "$T/fd-check.err" r.json r.xml \
			&& ok "full disk: check: one line per file, naming it: $(tr '\n' '|' < "$T/fd-check.err")" \
			|| bad "full disk: check's stderr, want one line naming each of r.json, r.xml: $(tr '\n' '|' < "$T/fd-check.err")"
		rm -f "$FD/fill"
		rc=$(fd_run stat stat -j -o s.json -- sleep 3)
		[ "$rc" = 5 ] && ok "full disk: stat -j -o s.json -- sleep 3 exits 5" \
			|| bad "full disk: stat exit $rc, want 5: $(head -c 300 "$T/fd.err")"
		fd_lines "$T/fd.err" s.json \
			&& ok "full disk: stat: one line, naming the file: $(cat "$T/fd.err")" \
			|| bad "full disk: stat's stderr, want one line naming s.json: $(tr '\n' '|' < "$T/fd.err")"
		for f in r.json r.xml s.json; do
			cmp -s "$FD/$f" "$T/fd-old/$f" && ok "full disk: the earlier $f is left whole" \
				|| bad "full disk: $f changed: $(stat -c %s "$FD/$f" 2>&1) bytes, was $(stat -c %s "$T/fd-old/$f")"
		done
		fd_valid "$FD" 2> "$T/fd.why" && ok "full disk: the reports left still parse (JSON, XML)" \
			|| bad "full disk: the reports left: $(tail -1 "$T/fd.why")"
		[ -z "$(fd_extra)" ] && ok "full disk: no temporary file left" \
			|| bad "full disk: left in the directory: $(fd_extra)"
		# room again: the new reports replace the old ones whole
		rm -f "$FD/fill"
		(cd "$FD" && "$MGABS_FD" check -d 1 -j -o r.json --junit r.xml > /dev/null 2>&1; echo $? > "$T/fd.rc1"
			"$MGABS_FD" stat -j -o s.json -- true > /dev/null 2>&1; echo $? > "$T/fd.rc2")
		if [ "$(cat "$T/fd.rc1") $(cat "$T/fd.rc2")" = "0 0" ] && fd_valid "$FD" 2> "$T/fd.why" &&
		   ! cmp -s "$FD/r.json" "$T/fd-old/r.json" && ! cmp -s "$FD/s.json" "$T/fd-old/s.json" &&
		   [ -z "$(fd_extra)" ]; then
			ok "full disk: with room again, complete new reports replace the old ones"
		else
			bad "full disk: with room again: exits $(cat "$T/fd.rc1") $(cat "$T/fd.rc2"), $(tail -1 "$T/fd.why"), left: $(fd_extra)"
		fi
		# --baseline of the report -o replaces: read whole before the new one replaces it
		cp "$FD/r.json" "$T/fd-base.json"
		(cd "$FD" && "$MGABS_FD" check -d 1 -j --baseline r.json -o r.json > /dev/null 2> "$T/fd.err"
			echo $? > "$T/fd.rc1")
		rc=$(cat "$T/fd.rc1")
		if { [ "$rc" = 0 ] || [ "$rc" = 1 ]; } && fd_valid "$FD" 2> "$T/fd.why" &&
		   ! cmp -s "$FD/r.json" "$T/fd-base.json" && [ -z "$(fd_extra)" ]; then
			ok "full disk: check --baseline r.json -o r.json reads the earlier report, then replaces it (exit $rc)"
		else
			bad "full disk: check --baseline r.json -o r.json: exit $rc, $(head -c 200 "$T/fd.err"), left: $(fd_extra)"
		fi
	fi
	# continuous check, -o on the full disk and --junit elsewhere: the write ends the run
	# (exit 5) and the JUnit, written after, must not read green (a newcomer's case: every
	# testcase passed, errors="0")
	cat /dev/zero > "$FD/fill" 2> /dev/null
	timeout 60 $MG check -I 100 --json -o "$FD/c.jsonl" --junit "$T/fd-cont.xml" > /dev/null 2> "$T/fd.err"; rc=$?
	python3 - "$T/fd-cont.xml" > "$T/fd-cont.chk" 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot()
e = [t.find("error") for t in s.iter("testcase") if t.find("error") is not None]
print(("PASS " if s.get("errors") == "1" and e and "No space left on device" in e[0].get("message", "")
       else "FAIL ") + f"JUnit errors={s.get('errors')}: {[x.get('message') for x in e]}")
PY
	[ "$rc" = 5 ] && [ "$(wc -l < "$T/fd.err")" = 1 ] && grep -q '^PASS' "$T/fd-cont.chk" &&
		ok "full disk: check -I 100 -o on it, --junit elsewhere: exit 5, one line, JUnit an error" ||
		bad "full disk: check -I 100 -o on it: exit $rc, $(head -c 200 "$T/fd.err"), $(cat "$T/fd-cont.chk")"
	rm -f "$FD/fill" "$FD/c.jsonl"
	n=$(left_attached)
	[ "$n" = 0 ] && ok "full disk: nothing left attached" || bad "full disk: left attached: $(leaked_words)"
	umount "$FD"
fi
