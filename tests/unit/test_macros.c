// SPDX-License-Identifier: GPL-2.0
/* test_macros.c - tests of unit.h's comparisons: they fail as they should and say why. */
#include <errno.h>
#include "unit.h"

/* The comparisons fail as they should, and record the actual and the expected value. */
UNIT_TEST(check_macros)
{
	static const struct { const char *want; } cases[] = {
		{ "two: actual 2, expected == 3" },
		{ "minus: actual -1, expected >= 0" },
		{ "big: actual 18446744073709551615, expected < 1" },
		{ "half: actual 0.5, expected == 0.25" },
		{ "name: actual \"abc\", expected \"abd\"" },
		{ "name: actual \"abc\", expected to contain \"x\"" },
		{ "null: actual \"(null)\", expected \"abc\"" },
		{ "err: actual -22, expected 0" },
	};
	int two = 2, minus = -1, err = -EINVAL;
	unsigned long long big = UINT64_MAX;
	double half = 0.5;
	const char *name = "abc", *null = NULL;
	char got[sizeof(cases) / sizeof(cases[0])][sizeof(why_)];
	bool r[sizeof(cases) / sizeof(cases[0])];
	size_t i;

#define RECORD_(k, expr) (why_[0] = 0, r[k] = (expr), snprintf(got[k], sizeof(got[k]), "%s", why_))
	RECORD_(0, EQ(two, 3));
	RECORD_(1, GE(minus, 0));
	RECORD_(2, LT(big, 1));
	RECORD_(3, EQ(half, 0.25));
	RECORD_(4, STREQ(name, "abd"));
	RECORD_(5, STRSTR(name, "x"));
	RECORD_(6, STREQ(null, "abc"));
	RECORD_(7, IS_FALSE(err));
#undef RECORD_
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(IS_FALSE(r[i]) && STREQ(got[i], cases[i].want),
		      "a failing comparison records actual and expected: %s", cases[i].want);
	why_[0] = 0;
	CHECK(EQ(two, 2) && STREQ(name, "abc") && NEAR(half, 0.5) && IS_FALSE(why_[0]),
	      "passing comparisons record nothing");
}
