# SPDX-License-Identifier: GPL-2.0
# 67-names.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# Names built to break output encoders (tests/names_workload.py: twelve 3-byte characters
# cut by the 31-byte event buffer, a 0xff byte, a newline, a quote and a backslash, a bidi
# override (U+202E); a comm the kernel cut inside a character; COMMAND arguments with 0xff
# and a newline): every output stays valid JSON/XML, keeps every field, and decodes as
# docs/json.md "Strings" says. Then one device representation end to end on an ext4 image
# on a loop device.
echo "# names and device numbers"
hex() { printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n'; }
ARGS=($'\xff' $'a\nb\\"c')
HEXARGS=("$(hex python3)" "$(hex tests/names_workload.py)" "" "$(hex "${ARGS[0]}")" "$(hex "${ARGS[1]}")")

# every json_object_set_new/json_array_append_new in src/ goes through the checked wrappers
unchecked=0
for f in src/*.c src/*/*.c; do
	# the wrappers themselves, and escape.c's argv array (a failure there is its NULL)
	case $f in src/util/json_checked.c|src/util/escape.c) continue ;; esac
	n=$(gcc -E -D_GNU_SOURCE -Iinclude -Ibuild -Isrc -Isrc/util "$f" | awk '
		/^# [0-9]+ "/ { file = $3; next }
		file ~ /^"src\// && /json_(object_set|array_append)_new *\(/ { n++ } END { print n + 0 }')
	[ "$n" = 0 ] || { unchecked=$((unchecked + n)); echo "# $f: $n unchecked jansson calls"; }
done
[ $unchecked = 0 ] && ok "every jansson insert in src/ is checked (escape.h wrappers)" \
	|| bad "$unchecked jansson inserts bypass the checked wrappers"
# ... and that count can fail: a file without escape.h
printf '#include <jansson.h>\nvoid f(json_t *o) { json_object_set_new(o, "k", json_null()); }\n' > "$T/raw.c"
n=$(gcc -E "$T/raw.c" | awk '/^# [0-9]+ "/ { file = $3; next }
	file ~ /raw.c"$/ && /json_object_set_new *\(/ { n++ } END { print n + 0 }')
[ "$n" = 1 ] && ok "the unchecked-call count sees a raw json_object_set_new" || bad "unchecked-call count: $n"

# trace --json and text
D=$T/names; mkdir -p "$D"
HEXARGS[2]=$(hex "$D")
$MG trace --json -o "$T/names-trace.json" -- python3 tests/names_workload.py "$D" "${ARGS[@]}" > /dev/null 2> "$T/names-trace.err" \
	&& ok "trace --json around the names workload exits 0" || bad "trace names: $(cat "$T/names-trace.err")"
python3 tests/checkjson.py trace-names "$T/names-trace.json" > "$T/names-trace.chk" 2>&1
schema_valid names-trace trace "$T/names-trace.json"
tally trace-names "$T/names-trace.chk"
rm -f "$D"/*
$MG trace -o "$T/names-trace.txt" -- python3 tests/names_workload.py "$D" "${ARGS[@]}" > /dev/null 2>&1
n=$(grep -cv '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]\{9\} \|^TIME(REALTIME)' "$T/names-trace.txt")
[ "$n" = 0 ] && ok "trace text: a newline in a name does not split lines" \
	|| bad "trace text: $n lines are not event lines: $(grep -v '^[0-9]' "$T/names-trace.txt" | head -3)"
n=$(grep -cF ' new\nline ' "$T/names-trace.txt")
m=$(grep -cF ' €€€€€€€€€€\... ' "$T/names-trace.txt")
o=$(grep -cF ' bad\xffbyte ' "$T/names-trace.txt")
r=$(grep -cF ' \xe2\x80\xae rtl ' "$T/names-trace.txt")
[ "$n" -ge 3 ] && [ "$m" -ge 3 ] && [ "$o" -ge 3 ] && [ "$r" -ge 3 ] && grep -qF 'abcdefghijklmn\...' "$T/names-trace.txt" \
	&& ok "trace text: names escaped (\\n, \\xff, U+202E) and cut names marked \\... ($n, $m, $o, $r lines)" \
	|| bad "trace text escapes: newline $n, cut $m, 0xff $o, U+202E $r lines"

# check --json and --junit, stat --json: COMMAND arguments with 0xff, newline, quote, backslash
rm -f "$D"/*
$MG check --json -o "$T/names-check.json" --junit "$T/names-junit.xml" -- \
	python3 tests/names_workload.py "$D" "${ARGS[@]}" > /dev/null 2> "$T/names-check.err"
python3 tests/checkjson.py command "$T/names-check.json" check "${HEXARGS[@]}" > "$T/names-check.chk" 2>&1
python3 tests/checkjson.py junit-command "$T/names-junit.xml" "${HEXARGS[@]}" >> "$T/names-check.chk" 2>&1
tally names-check "$T/names-check.chk"
rm -f "$D"/*
$MG stat --json -o "$T/names-stat.json" -- python3 tests/names_workload.py "$D" "${ARGS[@]}" > /dev/null 2>&1
python3 tests/checkjson.py command "$T/names-stat.json" summary "${HEXARGS[@]}" > "$T/names-stat.chk" 2>&1
tally names-stat "$T/names-stat.chk"
grep -q 'JSON:' "$T/names-trace.err" "$T/names-check.err" && bad "a JSON field failed: $(grep -h JSON: "$T"/names-*.err)" \
	|| ok "no JSON field failed to build"

# an ext4 image on a loop device, mounted on a path with a space (mountinfo escapes it)
L="$T/loop mnt"; mkdir -p "$L"
truncate -s 64M "$T/ext4.img" && mkfs.ext4 -q "$T/ext4.img" && mount -o loop "$T/ext4.img" "$L"
if mountpoint -q "$L"; then
	LDEV=$(mountpoint -d "$L")
	case $LDEV in 7:*) ok "ext4 image mounted from a loop device ($LDEV)";;
		*) bad "ext4 image is not on a loop device: $LDEV";; esac
	$MG check --json -o "$T/loop-check.json" --dir "$L" --duration 1 > /dev/null 2>&1
	python3 tests/checkjson.py workload-dir "$T/loop-check.json" "$LDEV" "$L" > "$T/loop.chk" 2>&1
	tally loop-check "$T/loop.chk"
	$MG check --dir "$L" --duration 0.5 > "$T/loop-check.txt" 2>&1
	grep -qF "workload directory: ext4, dev $LDEV, mounted on $L" "$T/loop-check.txt" \
		&& ok "check text names the loop device and its mount point" \
		|| bad "check text: $(grep 'workload directory' "$T/loop-check.txt")"
	echo a > "$L/f"
	$MG trace --json -o "$T/loop-trace.json" --path "$L/f" -- python3 tests/trace_workload.py seq "$L/f" > /dev/null 2>/dev/null
	# the st_dev filter matches the events' s_dev
	python3 tests/checkjson.py trace-dev "$T/loop-trace.json" "$LDEV" 5 > "$T/loop-trace.chk" 2>&1
	tally loop-trace "$T/loop-trace.chk"
	umount "$L"
else
	bad "cannot mount an ext4 image on a loop device"
fi
[ "$(left_attached)" = 0 ] && ok "nothing left attached after the names tests" || bad "names tests left BPF objects behind"
