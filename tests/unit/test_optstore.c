// SPDX-License-Identifier: GPL-2.0
/* test_optstore.c - tests of src/util/optstore.c: options stored from the table, bounds, refusals. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "optab.h"
#include "util.h"

struct toy {
	uint64_t n;
	double secs;
	const char *file;
	bool flag;
	const struct mg_opt *first;
	int own_calls, own_val;
};

#define AT(f) MG_OPT_AT(struct toy, f)

static const struct mg_opt toy_opts[] = {
	{ .val = 'n', .lname = "number", .arg = "N", .help = "n", .store = MG_OS_U64, .at = AT(n),
	  .min = 2, .max = 9, .seen = AT(first) },
	{ .val = MG_OPT_AUTO, .lname = "secs", .arg = "S", .help = "s", .store = MG_OS_SECONDS,
	  .at = AT(secs), .max = 60, .seen = AT(first) },
	{ .val = MG_OPT_AUTO, .lname = "file", .arg = "F", .help = "f", .store = MG_OS_STR,
	  .at = AT(file) },
	{ .val = 'u', .lname = "unbounded", .arg = "N", .help = "u", .store = MG_OS_U64,
	  .at = AT(n), .min = 1, .max = UINT64_MAX },
	{ .val = 'f', .lname = "flag", .help = "g", .store = MG_OS_FLAG, .at = AT(flag) },
	{ .val = 'x', .lname = "own", .arg = "X", .help = "the command's own" },
	{ 0 }
};

static const struct mg_cmd_opts toy_cmd = { .name = "toy", .synopsis = "", .opts = toy_opts };

static int toy_own(void *base, int val, const char *arg)
{
	struct toy *t = base;

	t->own_calls++;
	t->own_val = val;
	return strcmp(arg, "bad") ? 0 : mg_err(MG_EXIT_USAGE, "toy: own refusal");
}

/* Parse the NULL-terminated words with the toy table into *t; the exit code. */
static int parse(struct toy *t, const char **words)
{
	static char *argv[16];
	struct mg_opt_parser p;
	int argc = 0;

	memset(t, 0, sizeof(*t));
	argv[argc++] = (char *)"toy";
	while (*words)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	mg_opt_begin(&p, &toy_cmd, argc, argv);
	return mg_opt_parse(&p, t, toy_own);
}

UNIT_TEST(optstore)
{
	char name[16];
	struct toy t;

	ASSERT_EQ(parse(&t, (const char *[]){ "--secs=1.5", "-n", "3", "--file", "a", "-fx", "y",
					     NULL }), 0, "every kind stored");
	ASSERT_EQ((int)t.n, 3, "u64 stored");
	ASSERT_NEAR(t.secs, 1.5, "seconds stored");
	ASSERT_STREQ(t.file, "a", "string stored");
	ASSERT_TRUE(t.flag, "flag stored");
	ASSERT_EQ(t.own_calls, 1, "only the option without a store reaches the command");
	ASSERT_EQ(t.own_val, 'x', "with its letter");
	ASSERT_STREQ(mg_opt_name(t.first, name, sizeof(name)), "--secs",
		     "seen: the first of the group given, named as the usage names it");

	ASSERT_EQ(parse(&t, (const char *[]){ "-n", "10", NULL }), MG_EXIT_USAGE, "above max");
	ASSERT_HAS_SUBSTR(mg_last_err, "toy: invalid value '10' for -n (2..9)", "the range named");
	ASSERT_EQ(parse(&t, (const char *[]){ "-fn1", NULL }), MG_EXIT_USAGE, "below min");
	ASSERT_HAS_SUBSTR(mg_last_err, "for -n (2..9)", "a short option by its letter, not -fn1");
	ASSERT_EQ(parse(&t, (const char *[]){ "--num=1", NULL }), MG_EXIT_USAGE, "abbreviated");
	ASSERT_HAS_SUBSTR(mg_last_err, "for --num (2..9)", "a long option as spelled, no value");
	ASSERT_EQ(parse(&t, (const char *[]){ "--secs", "0", NULL }), MG_EXIT_USAGE, "0 s");
	ASSERT_HAS_SUBSTR(mg_last_err, "(seconds, more than 0, at most 60)", "seconds' range");
	ASSERT_EQ(parse(&t, (const char *[]){ "-u", "0", NULL }), MG_EXIT_USAGE, "unbounded");
	ASSERT_HAS_SUBSTR(mg_last_err, "for -u (1 or more)", "no 2^64 - 1 in the range");
	ASSERT_EQ(parse(&t, (const char *[]){ "-x", "bad", NULL }), MG_EXIT_USAGE,
		  "the command's own refusal ends the parse");
	ASSERT_EQ(parse(&t, (const char *[]){ "--nope", NULL }), MG_EXIT_USAGE, "unknown option");
	ASSERT_EQ(parse(&t, (const char *[]){ "-n", NULL }), MG_EXIT_USAGE, "missing value");
}
