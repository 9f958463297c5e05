# SPDX-License-Identifier: GPL-2.0
# 10-unit.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
echo "# unit tests"
build/unit_tests > "$T/unit" 2>&1; tally unit "$T/unit"
python3 tests/checkjson.py selftest > "$T/self" 2>&1; tally selftest "$T/self"
