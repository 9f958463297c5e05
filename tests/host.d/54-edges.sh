# SPDX-License-Identifier: GPL-2.0
# 54-edges.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# Edges of the environment (issue 43, part 5): a regular file bind-mounted over debugfs's
# multigrain_timestamps (in a mount namespace of its own) is not the kernel's file: stat and
# probe name that as the reason, and no counter is read from it: no debugfs column, no row
# from its totals, never its zeros.
echo "# edges: a file mounted over debugfs's multigrain_timestamps"

EDGE_DBG=/sys/kernel/debug/multigrain_timestamps
if [ ! -r "$EDGE_DBG" ] || ! command -v unshare > /dev/null; then
	skip "debugfs file mounted over" "no readable $EDGE_DBG or no unshare here"
else
	MGABS_EDGE=$(readlink -f "$MG")
	# edge_run CONTENT CMD...: CMD (mgtrace's arguments) with a regular file holding CONTENT
	# mounted over the debugfs file, in a mount namespace of its own; stdout to
	# $T/edge.out, stderr to $T/edge.err; prints the exit code
	edge_run() {
		local rc
		printf "$1" > "$T/edge-file"
		shift
		unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
			"$T/edge-file" "$EDGE_DBG" "$MGABS_EDGE" "$@" > "$T/edge.out" 2> "$T/edge.err"
		rc=$?
		echo $rc
	}
	# zeros that look like the kernel's line, garbage, the old three-count patch, nothing
	for c in '0 0 0 0\n' 'garbage\n' '1 2 3\n' ''; do
		name="'$(printf '%s' "$c" | sed 's/\\n$//')'"
		rc=$(edge_run "$c" stat -j --backend tracepoint -- "$MGABS_EDGE" stress -d 0.3)
		if [ "$rc" != 0 ]; then
			bad "debugfs file $name mounted over: stat exit $rc: $(head -c 300 "$T/edge.err")"
			continue
		fi
		python3 - "$T/edge.err" > "$T/edge.c" 2>&1 <<'EOF'
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("{")]
o = json.loads(lines[-1])
why = o.get("mismatches_unavailable") or ""
ok = "is not the kernel's file" in why
print(("PASS" if ok else "FAIL") + " the reason is named: " + (why or json.dumps(o)[:300]))
bad = []
for name, row in o["counters"].items():
    detail = row.get("detail") or ""
    if "kernel_debugfs" in row or "debugfs_bracket" in row or detail.startswith("debugfs"):
        bad.append(f"{name} read from the file ({detail}, total {row.get('total')})")
    # the kernel's own counters, read per CPU, count the stress: never 0
    if name in ("ctime_updates", "fine_stamps") and row.get("source") != "unavailable" \
            and not row.get("total"):
        bad.append(f"{name} is {row.get('total')}")
    if row.get("source") == "unavailable" and name in ("ctime_updates", "fine_stamps") \
            and "debugfs" not in (row.get("reason") or row.get("why") or json.dumps(row)):
        bad.append(f"{name} unavailable without the debugfs reason: {json.dumps(row)}")
print(("PASS" if not bad else "FAIL") + " no counter read from the file, no 0 for the kernel's: "
      + ("; ".join(bad) or "ok"))
EOF
		tally "debugfs file $name mounted over: stat" "$T/edge.c"
	done
	# text: the one line saying why, no debugfs column with a number
	rc=$(edge_run 'garbage\n' stat -- "$MGABS_EDGE" stress -d 0.2)
	grep -q "debugfs totals: unavailable: $EDGE_DBG is not the kernel's file: a file of .* is mounted over it" \
		"$T/edge.err" && ok "debugfs file mounted over: stat's text names why ($(grep -o 'a file of [^)]*)' "$T/edge.err"))" \
		|| bad "debugfs file mounted over: stat's text (exit $rc): $(grep -i debugfs "$T/edge.err" | head -3)"
	rc=$(edge_run '1 2 3 4\n' probe)
	grep -q "debugfs counters *unavailable: $EDGE_DBG is not the kernel's file" "$T/edge.out" \
		&& ok "debugfs file mounted over: probe names why" \
		|| bad "debugfs file mounted over: probe (exit $rc): $(grep -i debugfs "$T/edge.out" | head -3)"
	n=$(left_attached)
	[ "$n" = 0 ] && ok "debugfs file mounted over: nothing left attached" \
		|| bad "debugfs file mounted over: left attached: $(leaked_words)"
fi

# /sys/kernel/btf/vmlinux there but not the kernel's BTF (a file mounted over it: empty, or cut
# short): exit 3 with the true cause, not "has no BTF" (that is for a kernel without the file)
head -c 100000 /sys/kernel/btf/vmlinux > "$T/cut.btf"
for f in /dev/null "$T/cut.btf"; do
	[ "$f" = /dev/null ] && why="No data available" || why="Invalid argument"
	badcase "kernel BTF replaced by $(basename "$f")" 3 \
		"/sys/kernel/btf/vmlinux cannot be read as BTF: $why" \
		unshare -m sh -c 'mount --bind "$1" /sys/kernel/btf/vmlinux && shift && exec "$@"' sh \
		"$f" "$MG" check -- true
done
