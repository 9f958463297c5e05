// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the runner of the unit tests: tests of mgtrace's user-space logic that need no
 * kernel, one file per module in tests/unit/test_*.c (argument parsing, counter deltas,
 * derived counters, sources, mismatch flags, the rules and the checker on synthetic
 * streams, the verdict, and the JSON rendering, re-parsed with jansson's parser; the host
 * test script also validates live JSON with Python's json module).
 *
 * Prints one line per check and ends with "unit: N passed, N failed, N skipped".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"

int unit_passed, unit_failed;
char why_[768];

/* Record the first failed comparison of a CHECK: false, for chaining with &&. */
bool note_(const char *fmt, ...)
{
	va_list ap;

	if (why_[0])
		return false;
	va_start(ap, fmt);
	vsnprintf(why_, sizeof(why_), fmt, ap);
	va_end(ap);
	return false;
}

bool note_int_(const char *expr, const char *op, bool sgn, unsigned long long a,
	       unsigned long long e)
{
	return sgn ? note_("%s: actual %lld, expected %s %lld", expr, (long long)a, op, (long long)e)
		   : note_("%s: actual %llu, expected %s %llu", expr, a, op, e);
}

bool note_dbl_(const char *expr, const char *op, bool sgn, double a, double e)
{
	return note_("%s: actual %.15g, expected %s %.15g", expr, a, op, e);
}

/* Every test: those of $(OUT)/unit_list.h, made by the build from tests/unit/test_*.c. */
#define UNIT(name) void unit_test_##name(void);
#include "unit_list.h"
#undef UNIT

/* Every test, in run order (file by file); -t NAME runs those whose name contains NAME. */
static const struct { const char *name; void (*fn)(void); } tests[] = {
#define UNIT(name) { #name, unit_test_##name },
#include "unit_list.h"
#undef UNIT
};

/* usage: unit_tests [-t NAME]... ; prints a "PASS"/"FAIL" line per check, a "SKIP" line per test
 * that -t leaves out, and "unit: N passed, N failed, N skipped". */
int main(int argc, char **argv)
{
	size_t i, skipped = 0;
	int j, want;

	/* line by line: the tests' expected error lines go to stderr, and a block-buffered stdout
	 * in a file or pipe would cut result lines among them */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (j = 1; j < argc; j++)
		if (strcmp(argv[j], "-t") || j + 1 == argc) {
			fprintf(stderr, "usage: %s [-t NAME]...\n", argv[0]);
			return 2;
		} else {
			j++;
		}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		for (j = 1, want = argc == 1; j + 1 < argc && !want; j += 2)
			want = strstr(tests[i].name, argv[j + 1]) != NULL;
		if (want) {
			tests[i].fn();
		} else {
			skipped++;
			printf("SKIP %s: not selected by -t\n", tests[i].name);
		}
	}
	printf("unit: %d passed, %d failed, %zu skipped\n", unit_passed, unit_failed, skipped);
	return unit_failed ? 1 : 0;
}
