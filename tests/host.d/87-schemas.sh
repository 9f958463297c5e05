# SPDX-License-Identifier: GPL-2.0
# 87-schemas.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# docs/schema/*.schema.json against real output of every --json command (the other host tests
# validate theirs too, with schema_valid), and each schema rejects a field it does not know at
# any depth, a value of the wrong type, and a line without its required fields.
echo "# JSON schemas"
if ! python3 tests/schemacheck.py available; then
	bad "python3-jsonschema is installed (sh tools/deps.sh)"
else
	mkdir -p "$T/js"
	$MG stat -e all -i 0.3 --json -o "$T/js/stat.json" -- $MG stress --duration 1 > /dev/null 2>&1
	$MG stat --json -o "$T/js/stat-cmd.json" -- sh -c 'exit 3' > /dev/null 2>&1
	$MG stat --json -c 1 -i 0.2 -o "$T/js/stat-ended.json" -- sleep 5 > /dev/null 2>&1
	$MG probe --json > "$T/js/probe.json" 2> /dev/null
	$MG check --json --duration 1 -o "$T/js/check.json" > /dev/null 2>&1
	$MG check --json -o "$T/js/check-cmd.json" -- $MG stress --duration 1 --threads 1 > /dev/null 2>&1
	# continuous check: check_interval objects, then the report (an injected violation fills
	# first_violations)
	MGTRACE_TEST_INJECT=1 MGTRACE_TEST_INJECT_INTERVAL=1 $MG check --json -c 2 -I 300 \
		-o "$T/js/check-interval.json" > /dev/null 2>&1
	$MG clocks --json --iterations 2000 > "$T/js/clocks.json" 2> /dev/null
	$MG trace --json -o "$T/js/trace.json" -- sh -c "echo a > $T/js/f; stat $T/js/f > /dev/null; touch -d @1 $T/js/f" \
		> /dev/null 2>&1
	$MG stress --json -o "$T/js/stress.json" --duration 0.2 > /dev/null 2>&1
	$MG conform --json -n 2 -o "$T/js/conform.json" > /dev/null 2>&1
	$MG top -j -c 2 -i 0.3 -o "$T/js/top.json" -- $MG stress --duration 1 > /dev/null 2>&1
	$MG top -j -B file -c 1 -i 0.3 -o "$T/js/top-file.json" -- $MG stress --duration 0.5 > /dev/null 2>&1
	# refusals: an error record, never an empty file (bpf() refused by a seccomp filter, COMMAND not found)
	build/denybpf $MG check --json -d 1 -o "$T/js/error-env.json" > /dev/null 2>&1
	$MG stat --json -o "$T/js/error-cmd.json" -- /nonexistent/cmd > /dev/null 2>&1
	$MG version --json > "$T/js/version.json" 2> /dev/null
	for s in stat:stat.json stat:stat-cmd.json stat:stat-ended.json probe:probe.json check:check.json check:check-cmd.json check:check-interval.json \
		clocks:clocks.json trace:trace.json stress:stress.json conform:conform.json top:top.json top:top-file.json \
		error:error-env.json error:error-cmd.json version:version.json; do
		schema=${s%%:*} f=$T/js/${s#*:}
		python3 tests/schemacheck.py validate "$schema" "$f" > "$T/js.chk" 2>&1
		tally "schema-$schema" "$T/js.chk"
		python3 tests/schemacheck.py selftest "$schema" "$f" > "$T/js.chk" 2>&1
		tally "schema-selftest-$schema" "$T/js.chk"
	done
	# function-probe outputs this host cannot make (lockdown: no fentry, no kprobes), recorded
	# from the VM stage on Debian's 6.18 (MGTRACE_VM_OUT): stat --latency --backend fentry,
	# trace floor events (fentry) with the summary, check with MGTRACE_TEST_INVERT_FINE (floor
	# violations, cut to 3); they go stale only in what they lack, never in what they have
	for s in stat:stat-latency-fentry-6.18 trace:trace-floor-fentry-6.18 check:check-invert-fine-kprobe-6.18; do
		python3 tests/schemacheck.py validate "${s%%:*}" "tests/schema-fixtures/${s#*:}.json" > "$T/js.chk" 2>&1
		tally "schema-fixture-${s#*:}" "$T/js.chk"
		python3 tests/schemacheck.py selftest "${s%%:*}" "tests/schema-fixtures/${s#*:}.json" > "$T/js.chk" 2>&1
		tally "schema-fixture-selftest-${s#*:}" "$T/js.chk"
	done
	# integers above 2^53 (docs/json.md): every clock reading's _sec/_nsec and every ino's inode
	# agree with the exact integer, in real trace, check and top output and in the fixtures
	# (a passing check has no observation to carry them: one with 2 injected violations has)
	MGTRACE_TEST_INJECT=2 $MG check --json -d 0.5 -o "$T/check-inject.json" > /dev/null 2>&1
	for f in js/trace.json check-inject.json js/top-file.json; do
		python3 tests/checkjson.py json-exact "$T/$f" > "$T/js.chk" 2>&1; tally "json-exact-${f#js/}" "$T/js.chk"
	done
	schema_valid check-inject check "$T/check-inject.json"
	for f in trace-floor-fentry-6.18 check-invert-fine-kprobe-6.18; do
		python3 tests/checkjson.py json-exact "tests/schema-fixtures/$f.json" > "$T/js.chk" 2>&1
		tally "json-exact-fixture-$f" "$T/js.chk"
	done
	# every object type the docs name has a schema that was exercised
	types=$(python3 tests/schemacheck.py types "$T"/js/*.json)
	[ "$types" = "check check_interval clocks conform error event interval probe stress summary top trace_summary version" ] \
		&& ok "schemas validated on the types $types" || bad "schemas validated on the types: $types"
	expect "schemas: nothing left attached" test "$(left_attached)" = 0
fi
