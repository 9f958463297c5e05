// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the runner of the unit tests: tests of mgtrace's user-space logic that need no
 * kernel, one file per module in tests/unit/test_*.c (argument parsing, counter deltas,
 * derived counters, sources, mismatch flags, the rules and the checker on synthetic
 * streams, the verdict, and the JSON rendering, re-parsed with jansson's parser; the host
 * test script also validates live JSON with Python's json module).
 *
 * Prints one line per assertion (unit.h's ASSERT_*) and ends with "unit: N passed, N failed, N skipped".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"

int unit_passed, unit_failed;
char unit_why[768];
FILE *unit_out;

/* Record why the assertion being evaluated fails, unless a note came first: false. */
bool unit_note(const char *fmt, ...)
{
	va_list ap;

	if (unit_why[0])
		return false;
	va_start(ap, fmt);
	vsnprintf(unit_why, sizeof(unit_why), fmt, ap);
	va_end(ap);
	return false;
}

/* expr's actual failed "actual op expected": both as kind (enum unit_kind) says */
bool unit_note_cmp(const char *expr, const char *op, int kind, unsigned long long a,
		   unsigned long long e, double da, double de)
{
	switch (kind) {
	case UNIT_SIGNED:
		return unit_note("%s: actual %lld, expected %s %lld", expr, (long long)a, op,
				 (long long)e);
	case UNIT_DOUBLE:
		return unit_note("%s: actual %.15g, expected %s %.15g", expr, da, op, de);
	case UNIT_POINTER:
		return unit_note("%s: actual %p, expected %s %p", expr, (void *)(uintptr_t)a, op,
				 (void *)(uintptr_t)e);
	default:
		return unit_note("%s: actual %llu, expected %s %llu", expr, a, op, e);
	}
}

/* expr's error code v failed ASSERT_OK: -errno named, -1 with errno's name (err) */
bool unit_note_err(const char *expr, long long v, int err)
{
	if (v == -1)
		return unit_note("%s: actual -1 (errno %d: %s), expected 0", expr, err,
				 strerror(err));
	if (v < 0 && v > -4096)
		return unit_note("%s: actual %lld (%s), expected 0", expr, v, strerror((int)-v));
	return unit_note("%s: actual %lld (not an error code), expected 0", expr, v);
}

/* "PASS what" or "FAIL what [why]", what being fmt's text; counted in unit_passed/failed. */
bool unit_result(bool ok, const char *fmt, ...)
{
	FILE *out = unit_out ? unit_out : stdout;
	va_list ap;

	if (ok)
		unit_passed++;
	else
		unit_failed++;
	fputs(ok ? "PASS " : "FAIL ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	if (!ok)
		fprintf(out, " [%s]", unit_why[0] ? unit_why : "no comparison recorded");
	fputc('\n', out);
	return ok;
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

/* usage: unit_tests [-t NAME]... ; prints a "PASS"/"FAIL" line per assertion, a "SKIP" line per test
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
