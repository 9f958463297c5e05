// SPDX-License-Identifier: GPL-2.0
/* testhook.c - TEST-ONLY environment hooks (see testhook.h). Nothing else reads them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "counters.h"
#include "kenv.h"
#include "testhook.h"
#include "util.h"

int mg_test_hook_skew(int *row, int64_t *n)
{
	const char *v = getenv("MGTRACE_TEST_SKEW"), *colon;
	char name[32], *end;
	long long x;

	*row = -1;
	*n = 0;
	if (!v || !*v)
		return 0;
	colon = strchr(v, ':');
	if (!colon || (size_t)(colon - v) >= sizeof(name))
		goto bad;
	memcpy(name, v, colon - v);
	name[colon - v] = '\0';
	errno = 0;
	x = strtoll(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end || (*row = mg_row_by_name(name)) < 0)
		goto bad;
	*n = x;
	fprintf(stderr, "mgtrace: TEST HOOK MGTRACE_TEST_SKEW: %s counts %+lld in every window "
		"(test only)\n", name, x);
	return 0;
bad:
	*row = -1;
	mg_err(MG_EXIT_USAGE, "MGTRACE_TEST_SKEW='%s': want ROW:N, ROW a counter name (test only)", v);
	return -EINVAL;
}

static int kcounter_by_name(const char *s, size_t len)
{
	int k;

	for (k = 0; k < MG_K_NR_COUNTERS; k++)
		if (strlen(mg_kcounter_names[k]) == len && !strncmp(s, mg_kcounter_names[k], len))
			return k;
	return -1;
}

int mg_test_hook_pcpu_alias(uint64_t off[MG_K_NR_COUNTERS])
{
	const char *v = getenv("MGTRACE_TEST_PCPU_ALIAS"), *eq;
	int a, b;

	if (!v || !*v)
		return 0;
	eq = strchr(v, '=');
	if (!eq || (a = kcounter_by_name(v, eq - v)) < 0 ||
	    (b = kcounter_by_name(eq + 1, strlen(eq + 1))) < 0) {
		mg_err(MG_EXIT_USAGE, "MGTRACE_TEST_PCPU_ALIAS='%s': want A=B, kernel counter "
		       "names (test only)", v);
		return -EINVAL;
	}
	off[a] = off[b];
	fprintf(stderr, "mgtrace: TEST HOOK MGTRACE_TEST_PCPU_ALIAS: the BTF-offset reader reads "
		"%s at %s's offset (test only)\n", mg_kcounter_names[a], mg_kcounter_names[b]);
	return 0;
}

/*
 * A hook set by NAME=1: 1 (what it does said on stderr), 0 unset or empty, -EINVAL
 * with one line for any other value.
 */
static int flag_hook(const char *name, const char *what)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return 0;
	if (strcmp(v, "1")) {
		mg_err(MG_EXIT_USAGE, "%s='%s': want 1 (test only)", name, v);
		return -EINVAL;
	}
	fprintf(stderr, "mgtrace: TEST HOOK %s: %s (test only)\n", name, what);
	return 1;
}

int mg_test_hook_invert_fine(void)
{
	return flag_hook("MGTRACE_TEST_INVERT_FINE", "every fine-stamp decision is inverted; a "
			 "verdict on the floor invariants is meaningless");
}

/* The count in environment variable name, 1..max; 0 when unset; -EINVAL (printed) when not. */
static long env_count(const char *name, long max, const char *what)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	if (*end || errno || n < 1 || n > max) {
		mg_err(MG_EXIT_USAGE, "%s='%s': want %s 1..%ld (test only)", name, v, what, max);
		return -EINVAL;
	}
	return n;
}

int mg_test_hook_inject(void)
{
	long n = env_count("MGTRACE_TEST_INJECT", 100000, "a count");

	if (n <= 0)
		return (int)n;
	fprintf(stderr, "mgtrace: TEST HOOK MGTRACE_TEST_INJECT: %ld synthetic ctime regression(s) of "
		"made-up inodes are judged with the events; the verdict must be FAIL (test only)\n", n);
	return (int)n;
}

int mg_test_hook_inject_interval(void)
{
	long n = env_count("MGTRACE_TEST_INJECT_INTERVAL", 1000000, "an interval");

	if (n <= 0)
		return (int)n;
	fprintf(stderr, "mgtrace: TEST HOOK MGTRACE_TEST_INJECT_INTERVAL: the injected violations "
		"are judged at the start of interval %ld (test only)\n", n);
	return (int)n;
}

int mg_test_hook_ksyms_file(void)
{
	return flag_hook("MGTRACE_TEST_KSYMS_FILE", "stack frames are named from /proc/kallsyms, "
			 "not by the kernel through bpf/ksym.bpf.c");
}
