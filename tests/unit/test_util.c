// SPDX-License-Identifier: GPL-2.0
/* test_util.c - tests of src/util.c: the number parsers. */
#include <errno.h>
#include "unit.h"
#include "util.h"

UNIT_TEST(parse_u64)
{
	static const struct { const char *s; uint64_t min, max; int err; uint64_t v; } cases[] = {
		{ "5", 1, 10, 0, 5 },
		{ "0", 1, 10, -ERANGE, 0 },
		{ "11", 1, 10, -ERANGE, 0 },
		{ "-1", 0, 10, -EINVAL, 0 },
		{ "+1", 0, 10, -EINVAL, 0 },
		{ "", 0, 10, -EINVAL, 0 },
		{ " 1", 0, 10, -EINVAL, 0 },
		{ "1x", 0, 10, -EINVAL, 0 },
		{ "0x10", 0, 100, -EINVAL, 0 },
		{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", 0, UINT64_MAX, -ERANGE, 0 },
		{ "99999999999999999999999", 0, UINT64_MAX, -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int err = mg_parse_u64(cases[i].s, cases[i].min, cases[i].max, &v);

		CHECK(EQ(err, cases[i].err) && (err || EQ(v, cases[i].v)),
		      "parse_u64(\"%s\") -> %d (want %d)", cases[i].s, err, cases[i].err);
	}
	CHECK(EQ(mg_parse_u64(NULL, 0, 1, &(uint64_t){0}), -EINVAL), "parse_u64(NULL) is -EINVAL");
}

UNIT_TEST(parse_seconds)
{
	static const struct { const char *s; int err; double v; } cases[] = {
		{ "1", 0, 1 }, { "0.5", 0, 0.5 }, { ".25", 0, 0.25 }, { "86400", 0, 86400 },
		{ "0", -ERANGE, 0 }, { "-1", -EINVAL, 0 }, { "86401", -ERANGE, 0 },
		{ "1e999", -EINVAL, 0 }, { "0x10", -EINVAL, 0 }, { "1.5.2", -EINVAL, 0 }, { "nan", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
		{ "1s", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "abc", -EINVAL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = 0;
		int err = mg_parse_seconds(cases[i].s, 86400, &v);

		CHECK(EQ(err, cases[i].err) && (err || EQ(v, cases[i].v)),
		      "parse_seconds(\"%s\") -> %d (want %d)", cases[i].s, err, cases[i].err);
	}
}
