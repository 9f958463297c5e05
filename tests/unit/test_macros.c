// SPDX-License-Identifier: GPL-2.0
/*
 * test_macros.c - tests of unit.h's assertions: each fails as it should, returns false and
 * prints the FAIL line that names the comparison with its actual and expected value. The
 * failures are caught (unit_out, the counts put back), so that they fail no part of the suite;
 * what is counted is whether each assertion failed as it must.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "unit.h"

/* a helper as the tests write them: false with its own reason */
static bool helper_fails(void)
{
	return unit_note("helper: its own reason");
}

/* Every assertion, made to fail: false, and the FAIL line expected; none counted. */
UNIT_TEST(assert_macros_fail)
{
	int two = 2, minus = -1, err = -EINVAL, ok = 0;
	unsigned long long big = UINT64_MAX;
	double half = 0.5;
	const char *name = "abc", *null = NULL;
	int *ptr = &two;
	char *text = NULL, *line, *nl;
	size_t size = 0, i = 0;
	int passed, failed, npassed, nfailed;
	bool r[20];
	static const char *const want[] = {
		"FAIL eq [two: actual 2, expected == 3]",
		"FAIL neq [two: actual 2, expected != 2]",
		"FAIL lt [big: actual 18446744073709551615, expected < 1]",
		"FAIL le [two: actual 2, expected <= 1]",
		"FAIL gt [minus: actual -1, expected > 0]",
		"FAIL ge [minus: actual -1, expected >= 0]",
		"FAIL double [half: actual 0.5, expected == 0.25]",
		"FAIL near [half: actual 0.5, expected 0.25 (within 1e-9)]",
		"FAIL true [ok: actual false (0/NULL), expected true]",
		"FAIL false [two: actual 2, expected false (0)]",
		"FAIL ok [err: actual -22 (Invalid argument), expected 0]",
		"FAIL ok libc [rmdir(\"\"): actual -1 (errno 2: No such file or directory), expected 0]",
		"FAIL err [ok: actual 0, expected < 0 (-errno)]",
		"FAIL ok_ptr [null: actual NULL, expected a pointer]",
		"FAIL null 2 [ptr: actual 0x",	/* the address varies */
		"FAIL streq 7 [name: actual \"abc\", expected \"abd\"]",
		"FAIL streq null [null: actual \"(null)\", expected \"abc\"]",
		"FAIL substr [name: actual \"abc\", expected to contain \"x\"]",
		"FAIL no substr [name: actual \"abc\", expected not to contain \"b\"]",
		"FAIL helper [helper: its own reason]",
	};
	FILE *out = open_memstream(&text, &size);

	if (!ASSERT_OK_PTR(out, "assertions' selftest: a memory stream to catch their lines"))
		return;
	passed = unit_passed;
	failed = unit_failed;
	unit_out = out;
	r[0] = ASSERT_EQ(two, 3, "eq");
	r[1] = ASSERT_NEQ(two, 2, "neq");
	r[2] = ASSERT_LT(big, 1, "lt");
	r[3] = ASSERT_LE(two, 1, "le");
	r[4] = ASSERT_GT(minus, 0, "gt");
	r[5] = ASSERT_GE(minus, 0, "ge");
	r[6] = ASSERT_EQ(half, 0.25, "double");
	r[7] = ASSERT_NEAR(half, 0.25, "near");
	r[8] = ASSERT_TRUE(ok, "true");
	r[9] = ASSERT_FALSE(two, "false");
	r[10] = ASSERT_OK(err, "ok");
	r[11] = ASSERT_OK(rmdir(""), "ok libc");
	r[12] = ASSERT_ERR(ok, "err");
	r[13] = ASSERT_OK_PTR(null, "ok_ptr");
	r[14] = ASSERT_NULL(ptr, "null %d", two);
	r[15] = ASSERT_STREQ(name, "abd", "streq %d", 7);
	r[16] = ASSERT_STREQ(null, "abc", "streq null");
	r[17] = ASSERT_HAS_SUBSTR(name, "x", "substr");
	r[18] = ASSERT_NO_SUBSTR(name, "b", "no substr");
	r[19] = ASSERT_TRUE(helper_fails(), "helper");
	unit_out = NULL;
	fclose(out);
	nfailed = unit_failed - failed;
	npassed = unit_passed - passed;
	unit_failed = failed;	/* caught: they fail no part of the suite */
	unit_passed = passed;
	ASSERT_EQ(nfailed, 20, "assertions' selftest: 20 made to fail, 20 failures");
	ASSERT_EQ(npassed, 0, "assertions' selftest: none passed");
	for (line = text; line && *line && i < sizeof(r) / sizeof(r[0]); line = nl + 1, i++) {
		nl = strchr(line, '\n');
		if (!ASSERT_OK_PTR(nl, "assertions' selftest: one line per assertion"))
			break;
		*nl = 0;
		ASSERT_FALSE(r[i], "a failing assertion returns false: %s", want[i]);
		ASSERT_TRUE(!strncmp(line, want[i], strlen(want[i])),
			    "a failing assertion prints the comparison with actual and expected: %s",
			    line);
	}
	ASSERT_EQ(i, sizeof(r) / sizeof(r[0]), "assertions' selftest: a line for each");
	free(text);
}

/* The assertions that hold: true, a PASS line each, no reason recorded. */
UNIT_TEST(assert_macros_pass)
{
	int two = 2, zero = 0, minus = -1;
	double half = 0.5;
	const char *name = "abc";

	ASSERT_TRUE(ASSERT_EQ(two, 2, "eq holds") && ASSERT_NEQ(two, 3, "neq holds") &&
		    ASSERT_LT(minus, 0, "lt holds, signed") && ASSERT_LE(two, 2, "le holds") &&
		    ASSERT_GT(two, 1, "gt holds") && ASSERT_GE(two, 2, "ge holds") &&
		    ASSERT_NEAR(half, 0.5, "near holds") && ASSERT_TRUE(two, "true holds") &&
		    ASSERT_FALSE(zero, "false holds") && ASSERT_OK(zero, "ok holds") &&
		    ASSERT_ERR(minus, "err holds") && ASSERT_OK_PTR(name, "ok_ptr holds") &&
		    ASSERT_NULL(NULL, "null holds") && ASSERT_STREQ(name, "abc", "streq holds") &&
		    ASSERT_HAS_SUBSTR(name, "b", "substr holds") &&
		    ASSERT_NO_SUBSTR(name, "x", "no substr holds"),
		    "assertions that hold return true");
	ASSERT_FALSE(unit_why[0], "assertions that hold record no reason");
}
