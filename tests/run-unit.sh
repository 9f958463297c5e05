#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-unit.sh UNIT_TESTS [-t NAME]... - the rootless stage (make unit, make check): the C unit
# tests, the checkers' self-tests (each check must fail on a case made to fail), the layers of
# src/ (tests/srcgraph.py) and the docs' link check. No root, BPF, qemu or network.
# Every result line is "PASS ...", "FAIL ..." or "SKIP ...", as in the host and VM stages
# (tests/lib.sh); a tool's own count becomes a "# ..." line, and the stage ends with
# "N passed, M failed, K skipped". Exits 1 on a FAIL, on a tool's non-zero exit status, or on a
# tool that printed no result at all (a crash must not pass).
set -u
cd "$(dirname "$0")/.."
unit=$1; shift
pass=0 fail=0 skipped=0
out=$(mktemp /tmp/mgtrace-unit.XXXXXX)
trap 'rm -f "$out"' EXIT

# step NAME CMD...: run CMD, print its lines (counts as "# ..."), add up its results
step() {
	local name=$1 rc; shift
	"$@" > "$out" 2>&1; rc=$?
	sed -E 's/^([a-z].*: [0-9]+ passed, [0-9]+ failed.*)$/# \1/' "$out"
	pass=$((pass + $(grep -c '^PASS ' "$out")))
	fail=$((fail + $(grep -c '^FAIL ' "$out")))
	skipped=$((skipped + $(grep -c '^SKIP ' "$out")))
	if ! grep -q -e '^PASS ' -e '^FAIL ' "$out"; then
		echo "FAIL $name: printed no result (exit $rc)"; fail=$((fail + 1))
	elif [ "$rc" != 0 ] && ! grep -q '^FAIL ' "$out"; then
		echo "FAIL $name: exit $rc without a FAIL line"; fail=$((fail + 1))
	fi
}

step "unit tests" "$unit" "$@"
step "checkjson selftest" python3 tests/checkjson.py selftest
step "observer selftest" python3 tests/observer.py selftest
step "srcgraph selftest" python3 tests/srcgraph.py selftest
# the layers, read from the objects the unit tests were linked from: no loop of calls between
# files of src/, the engine (src/util/) reaching no command, no command reaching another
step "srcgraph" python3 tests/srcgraph.py check "$(dirname "$unit")"
step "doclinks selftest" python3 tests/doclinks.py selftest
step "doclinks" python3 tests/doclinks.py check README.md docs/*.md
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
