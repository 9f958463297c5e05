// SPDX-License-Identifier: GPL-2.0
/*
 * test_hostclock.c - tests of src/util/hostclock.c: /proc/self/timens_offsets parsed,
 * and the host's monotonic clock beside this namespace's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "unit.h"
#include "hostclock.h"
#include "util.h"

/* The kernel's own lines (show_offset(): "%-10s %10lld %9ld"), and the ids writers use. */
UNIT_TEST(timens_parse)
{
	static const struct { const char *text; int64_t mono, boot; } ok[] = {
		/* outside a time namespace */
		{ "monotonic           0         0\nboottime            0         0\n", 0, 0 },
		/* unshare --time --monotonic 100000 --boottime 100000 */
		{ "monotonic      100000         0\nboottime       100000         0\n",
		  100000000000000ll, 100000000000000ll },
		/* a negative offset: seconds carry the sign, nanoseconds stay 0..999999999 */
		{ "monotonic        -500 250000000\nboottime          -7         1\n",
		  -499750000000ll, -6999999999ll },
		/* no final newline, the boottime line first, an empty line */
		{ "boottime 3 5\n\nmonotonic 2 999999999", 2999999999ll, 3000000005ll },
		/* clocks named by their ids (CLOCK_MONOTONIC 1, CLOCK_BOOTTIME 7) */
		{ "1 10 0\n7 20 0\n", 10000000000ll, 20000000000ll },
		/* another clock's line is left out */
		{ "monotonic 1 0\nunknown 9 9\n", 1000000000ll, 0 },
	};
	static const struct { const char *text, *why; } bad[] = {
		{ "", "no monotonic line" },
		{ "boottime 1 0\n", "no monotonic line" },
		{ "monotonic 1\n", "line 1: not" },
		{ "monotonic\n", "line 1: not" },
		{ "monotonic one 0\n", "line 1: not" },
		{ "monotonic 1 0x10\n", "line 1: not" },
		{ "boottime 0 0\nmonotonic 1 0 0\n", "line 2: more than three fields" },
		{ "monotonic 1 1000000000\n", "line 1: nanoseconds 1000000000 not in" },
		{ "monotonic 1 -1\n", "line 1: nanoseconds -1 not in" },
		{ "monotonic 99999999999999999999 0\n", "line 1: not" },
		{ "monotonic 9223372037 0\n", "line 1: 9223372037 seconds is out of range" },
		/* a bound file of zeros is no offset file */
		{ "\0\0\0\0", "no monotonic line" },
		{ "0 0 0 0\n", "line 1: more than three fields" },
	};
	struct mg_timens ns;
	char why[128];
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (!ASSERT_OK(mg_timens_parse(ok[i].text, &ns, why, sizeof(why)),
			       "timens_offsets case %zu parses (%s)", i, why))
			continue;
		ASSERT_EQ(ns.mono_ns, ok[i].mono, "timens_offsets case %zu: the monotonic offset", i);
		ASSERT_EQ(ns.boot_ns, ok[i].boot, "timens_offsets case %zu: the boottime offset", i);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ns = (struct mg_timens){ 5, 5 };
		why[0] = 0;
		ASSERT_EQ(mg_timens_parse(bad[i].text, &ns, why, sizeof(why)), -EINVAL,
			  "timens_offsets bad case %zu refused", i);
		ASSERT_HAS_SUBSTR(why, bad[i].why, "timens_offsets bad case %zu says why", i);
		ASSERT_TRUE(!ns.mono_ns && !ns.boot_ns, "timens_offsets bad case %zu: offsets 0", i);
	}
	ASSERT_EQ(mg_timens_parse("x", &ns, NULL, 0), -EINVAL, "why may be NULL");
}

/*
 * This process's namespace: mg_now_ns() is CLOCK_MONOTONIC less the offset read, and
 * mg_realtime_offset() turns it into CLOCK_REALTIME (within 10 ms here).
 */
UNIT_TEST(host_mono)
{
	struct mg_timens ns;
	struct timespec m, r;
	char why[160];
	int64_t mono, host, real, off;
	int err = mg_timens_get(&ns, why, sizeof(why));

	ASSERT_TRUE(!err || why[0], "an unknown offset says why (%d)", err);
	ASSERT_EQ(mg_host_mono_offset(), ns.mono_ns, "the offset subtracted is the one read");
	clock_gettime(CLOCK_MONOTONIC, &m);
	host = (int64_t)mg_now_ns();
	mono = m.tv_sec * 1000000000ll + m.tv_nsec;
	ASSERT_LT(host - (mono - ns.mono_ns), 10000000, "mg_now_ns() is the host's monotonic");
	ASSERT_GE(host - (mono - ns.mono_ns), 0, "mg_now_ns() is the host's monotonic");
	off = mg_realtime_offset();
	clock_gettime(CLOCK_REALTIME, &r);
	real = r.tv_sec * 1000000000ll + r.tv_nsec;
	ASSERT_LT(llabs(real - ((int64_t)mg_now_ns() + off)), 10000000,
		  "host monotonic + mg_realtime_offset() is CLOCK_REALTIME");
}
