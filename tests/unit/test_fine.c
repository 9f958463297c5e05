// SPDX-License-Identifier: GPL-2.0
/* test_fine.c - tests of mg_fine_needed() (include/mgtrace.h): the fine-stamp rule. */
#include "unit.h"
#include "mgtrace.h"

/* The kernel's fine-stamp condition as bpf/floor.bpf.c evaluates it (include/mgtrace.h). */
UNIT_TEST(fine_needed)
{
	const long long lo = -(1LL << 31), hi = (1LL << 31) - 1;	/* ext4 -I 128 limits */
	const long long min64 = -(1LL << 62), max64 = 1LL << 62;
	const unsigned int Q = MG_I_CTIME_QUERIED;

	ASSERT_EQ(mg_fine_needed(100, 500, 1, min64, max64, 100, 500 | Q), 1,
		  "fine: coarse now equal to a QUERIED ctime needs a fine stamp");
	ASSERT_EQ(mg_fine_needed(100, 400, 1, min64, max64, 100, 500 | Q), 1,
		  "fine: coarse now earlier than a QUERIED ctime needs one");
	ASSERT_EQ(mg_fine_needed(99, 999999999, 1, min64, max64, 100, 0 | Q), 1,
		  "fine: an earlier second needs one whatever the nanoseconds");
	ASSERT_EQ(mg_fine_needed(100, 501, 1, min64, max64, 100, 500 | Q), 0,
		  "fine: coarse now later than the ctime: no fine stamp");
	ASSERT_EQ(mg_fine_needed(100, 500, 1, min64, max64, 100, 500), 0,
		  "fine: ctime not QUERIED: no fine stamp even when equal");
	ASSERT_EQ(mg_fine_needed(100, 999999999, 1000000000, min64, max64, 100, 0 | Q), 1,
		  "fine: 1 s granularity truncates now to the ctime's second: needed");
	ASSERT_EQ(mg_fine_needed(100, 999999999, 1000, min64, max64, 100, 999999000 | Q), 1,
		  "fine: 1 us granularity truncates .999999999 to .999999000: needed");
	ASSERT_EQ(mg_fine_needed(100, 999999999, 1, min64, max64, 100, 999999000 | Q), 0,
		  "fine: the same at 1 ns granularity is later: not needed");
	ASSERT_EQ(mg_fine_needed(hi + 5, 7, 1, lo, hi, hi, 0 | Q), 1,
		  "fine: now clamped to s_time_max (nanoseconds cleared) equals the ctime: needed");
	ASSERT_EQ(mg_fine_needed(hi + 5, 7, 1, lo, hi, hi - 1, 0 | Q), 0,
		  "fine: clamped now still later than the ctime: not needed");
}
