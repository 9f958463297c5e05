// SPDX-License-Identifier: GPL-2.0
/*
 * conform_verdict.c - conform's judgement, pure logic (unit-tested in
 * tests/unit/test_conform.c): a ctime not later, one run of a role counted into its
 * row (the observer's and the kernel judge's findings, and whether they agree), a
 * row's verdict and the run's exit code; the names the reports print.
 */
#include <stddef.h>
#include "conform_int.h"
#include "util.h"

static const char *const role_names[CF_NR_ROLES] = {
	[CF_FILE] = "file", [CF_DIR] = "dir", [CF_DIR2] = "dir2", [CF_REPLACED] = "replaced",
	[CF_OTHER] = "other",
};

static const char *const verdict_names[CF_V_NR] = {
	[CF_V_PASS] = "PASS", [CF_V_FAIL] = "FAIL", [CF_V_INFO] = "INFO",
	[CF_V_UNSUPPORTED] = "UNSUPPORTED", [CF_V_DISAGREE] = "DISAGREE",
	[CF_V_INCONCLUSIVE] = "INCONCLUSIVE",
};

static const char *const verdict_words[CF_V_NR] = {
	[CF_V_PASS] = "pass", [CF_V_FAIL] = "fail", [CF_V_INFO] = "info",
	[CF_V_UNSUPPORTED] = "unsupported", [CF_V_DISAGREE] = "disagree",
	[CF_V_INCONCLUSIVE] = "inconclusive",
};

const char *cf_verdict_word(enum cf_verdict v)
{
	return (unsigned int)v < CF_V_NR ? verdict_words[v] : "?";
}

const char *cf_role_name(enum cf_role r)
{
	return (unsigned int)r < CF_NR_ROLES ? role_names[r] : "?";
}

const char *cf_expect_name(enum cf_expect e)
{
	return e == CF_LATER ? "later" : "informational";
}

const char *cf_verdict_name(enum cf_verdict v)
{
	return (unsigned int)v < CF_V_NR ? verdict_names[v] : "?";
}

bool cf_not_later(struct timespec before, struct timespec after)
{
	return after.tv_sec < before.tv_sec ||
	       (after.tv_sec == before.tv_sec && after.tv_nsec <= before.tv_nsec);
}

/*
 * The observer counts a run whose ctime after is not later than before. The judge
 * counts a run with a violation of the inode in its window, or, where the role must
 * change, no ctime event of it at all (missing_update). Where a later ctime is
 * required the two must count the same runs; where the contract is silent an update
 * not made is no violation, but a violation check saw the observer must see too.
 */
void cf_row_account(struct cf_row *row, enum cf_expect expect, const struct cf_probe *p,
		    const struct cf_judged *j)
{
	bool nl = cf_not_later(p->before, p->after), viol;

	if (nl)
		row->not_later++;
	if (!j)
		return;
	viol = j->violations || (expect == CF_LATER && j->missing);
	if (viol)
		row->check_violations++;
	if (expect == CF_LATER && j->missing && !j->violations)
		row->missing++;
	if (j->transient)
		row->transient++;
	if (expect == CF_LATER ? nl != viol : viol && !nl)
		row->disagreements++;
}

enum cf_verdict cf_row_verdict(const struct cf_row *r, enum cf_expect expect)
{
	if (r->unsupported)
		return CF_V_UNSUPPORTED;
	if (r->disagreements)
		return CF_V_DISAGREE;
	if (!r->done || r->inconclusive)
		return CF_V_INCONCLUSIVE;
	if (expect == CF_INFO)
		return CF_V_INFO;
	/* a transient violation broke the contract too: a concurrent stat() could see it */
	return r->not_later || r->transient ? CF_V_FAIL : CF_V_PASS;
}

int cf_run_exit(const struct cf_row *rows, size_t n)
{
	bool inconclusive = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (rows[i].verdict == CF_V_FAIL || rows[i].verdict == CF_V_DISAGREE)
			return MG_EXIT_FAIL;
		inconclusive |= rows[i].verdict == CF_V_INCONCLUSIVE;
	}
	return inconclusive ? MG_EXIT_INCONCLUSIVE : MG_EXIT_OK;
}
