// SPDX-License-Identifier: GPL-2.0
/*
 * test_conform.c - tests of src/conform/: the expectation table (conform_table.c, and
 * its copy in docs/conformance.md) and the verdict logic (conform_verdict.c): an
 * unsupported operation is never a pass, a disagreement of check and the observer
 * fails the run, missing_update and transient violations agree with the observer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "conform_int.h"
#include "conform_out.h"
#include "conform_sweep.h"
#include "util.h"

/* A run of one role: the ctime before and after (ns of second 100). */
static struct cf_probe probe(long before_ns, long after_ns)
{
	struct cf_probe p = { .used = true, .ino = 7, .updated = 1 };

	p.before = (struct timespec){ 100, before_ns };
	p.after = (struct timespec){ 100, after_ns };
	return p;
}

/* A row of op's role ri, runs accounted with the judge's findings j (NULL: observer only). */
static struct cf_row row_of(const struct cf_op *op, unsigned int ri, const struct cf_probe *p,
			    const struct cf_judged *j, unsigned int runs)
{
	struct cf_row r = { .op = op, .ri = ri, .judged = j != NULL };
	unsigned int i;

	for (i = 0; i < runs; i++) {
		r.done++;
		cf_row_account(&r, op->roles[ri].expect, p, j);
	}
	r.verdict = cf_row_verdict(&r, op->roles[ri].expect);
	return r;
}

/* The first operation with a role of expectation e. */
static const struct cf_op *op_with(enum cf_expect e, unsigned int *ri)
{
	size_t i;
	unsigned int r;

	for (i = 0; i < cf_nops; i++)
		for (r = 0; r < cf_ops[i].nroles; r++)
			if (cf_ops[i].roles[r].expect == e) {
				*ri = r;
				return &cf_ops[i];
			}
	return NULL;
}

UNIT_TEST(conform_table)
{
	size_t i, k, names = 0;
	unsigned int r;

	ASSERT_GE(cf_nops, 30, "at least 30 distinct operations");
	for (i = 0; i < cf_nops; i++) {
		ASSERT_OK_PTR(cf_ops[i].fn, "%s has a function", cf_ops[i].name);
		ASSERT_GE(cf_ops[i].nroles, 1, "%s changes an inode", cf_ops[i].name);
		ASSERT_LE(cf_ops[i].nroles, CF_MAX_ROLES, "%s's roles fit", cf_ops[i].name);
		for (k = 0; k < i; k++)
			ASSERT_NEQ(strcmp(cf_ops[i].name, cf_ops[k].name), 0, "%s named once",
				   cf_ops[i].name);
		for (r = 0; r < cf_ops[i].nroles; r++) {
			const struct cf_role_expect *re = &cf_ops[i].roles[r];

			ASSERT_TRUE(re->source && strlen(re->source) > 10, "%s %s has its source",
				    cf_ops[i].name, cf_role_name(re->role));
			ASSERT_LT((int)re->role, CF_NR_ROLES, "%s: a known role", cf_ops[i].name);
		}
		names++;
	}
	ASSERT_EQ(names, cf_nops, "every operation checked");
}

/* docs/conformance.md holds the table's every row, with the same words */
UNIT_TEST(conform_doc_table)
{
	FILE *f = fopen("docs/conformance.md", "r");
	char *doc = NULL, line[1024];
	size_t len = 0, i;
	unsigned int r;

	if (!ASSERT_OK_PTR(f, "docs/conformance.md opens (run from the repository)"))
		return;
	doc = calloc(1, 1 << 20);
	if (!ASSERT_OK_PTR(doc, "buffer")) {
		fclose(f);
		return;
	}
	len = fread(doc, 1, (1 << 20) - 1, f);
	fclose(f);
	ASSERT_GT(len, 0, "docs/conformance.md read");
	for (i = 0; i < cf_nops; i++)
		for (r = 0; r < cf_ops[i].nroles; r++) {
			snprintf(line, sizeof(line), "| `%s` | %s | %s | %s |", cf_ops[i].name,
				 cf_role_name(cf_ops[i].roles[r].role),
				 cf_expect_name(cf_ops[i].roles[r].expect), cf_ops[i].roles[r].source);
			ASSERT_OK_PTR(strstr(doc, line), "docs/conformance.md has the row %s", line);
		}
	free(doc);
}

/*
 * RENAME_EXCHANGE across two directories is an operation of its own: both directories'
 * entries change (later, as POSIX rename() marks the parent directory of each file), the
 * two files are informational, each with its source.
 */
UNIT_TEST(conform_exchange_across)
{
	static const struct { enum cf_role role; enum cf_expect expect; const char *src; } want[] = {
		{ CF_DIR, CF_LATER, "rename(2) RENAME_EXCHANGE changes an entry in each directory" },
		{ CF_DIR2, CF_LATER, "rename(2) RENAME_EXCHANGE changes an entry in each directory" },
		{ CF_FILE, CF_INFO, "POSIX rename(): implementations differ" },
		{ CF_OTHER, CF_INFO, "POSIX rename(): implementations differ" },
	};
	const struct cf_op *op = NULL;
	unsigned int r;
	size_t i;

	for (i = 0; i < cf_nops; i++)
		if (!strcmp(cf_ops[i].name, "rename-exchange-across"))
			op = &cf_ops[i];
	if (!ASSERT_OK_PTR(op, "rename-exchange-across is an operation of the table"))
		return;
	ASSERT_EQ(op->nroles, 4, "rename-exchange-across: dir, dir2, file, other");
	for (r = 0; r < op->nroles && r < 4; r++) {
		ASSERT_EQ(op->roles[r].role, want[r].role, "rename-exchange-across role %u: %s", r,
			  cf_role_name(want[r].role));
		ASSERT_EQ(op->roles[r].expect, want[r].expect, "rename-exchange-across %s: %s",
			  cf_role_name(want[r].role), cf_expect_name(want[r].expect));
		ASSERT_HAS_SUBSTR(op->roles[r].source, want[r].src, "rename-exchange-across %s: "
				  "its source", cf_role_name(want[r].role));
	}
}

/*
 * conform -- OP...: the operands pick operations by name (cf_op_index(): -1 for none), the
 * sweep makes rows of the picked ones only, in the table's order, and counts them; -l
 * lists each row's expectation and source (the picked ones only).
 */
UNIT_TEST(conform_pick)
{
	int link = cf_op_index("link"), xa = cf_op_index("rename-exchange-across");
	struct cf_sweep s = { 0 };
	bool *pick = calloc(cf_nops, sizeof(*pick));
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(cf_op_index("bogus"), -1, "cf_op_index: an unknown name is none");
	ASSERT_EQ(cf_op_index(""), -1, "cf_op_index: an empty name is none");
	if (!ASSERT_GE(link, 0, "cf_op_index: link") || !ASSERT_GE(xa, 0, "... and "
	    "rename-exchange-across") || !ASSERT_OK_PTR(pick, "pick")) {
		free(pick);
		return;
	}
	ASSERT_STREQ(cf_ops[xa].name, "rename-exchange-across", "cf_op_index: its index");
	pick[xa] = pick[link] = true;
	s.pick = pick;
	if (ASSERT_OK(cf_sweep_rows(&s), "rows of the picked operations")) {
		ASSERT_EQ(s.nops, 2, "two operations in the sweep");
		ASSERT_EQ(s.nrows, cf_ops[link].nroles + cf_ops[xa].nroles, "their rows only");
		ASSERT_STREQ(s.rows[0].op->name, "link", "in the table's order: link first");
		ASSERT_STREQ(s.rows[s.nrows - 1].op->name, "rename-exchange-across",
			     "... rename-exchange-across last");
	}
	cf_sweep_free(&s);
	s = (struct cf_sweep){ 0 };
	if (ASSERT_OK(cf_sweep_rows(&s), "rows of every operation (no pick)"))
		ASSERT_EQ(s.nops, cf_nops, "every operation in the sweep without operands");
	cf_sweep_free(&s);
	f = open_memstream(&text, &len);
	if (ASSERT_OK_PTR(f, "memstream")) {
		cf_list(f, pick);
		fclose(f);
		ASSERT_HAS_SUBSTR(text, "rename-exchange-across   dir2     later         rename(2) "
				  "RENAME_EXCHANGE", "-l: a row with its expectation and source");
		ASSERT_HAS_SUBSTR(text, "link                     dir      later", "-l: link's row");
		ASSERT_NO_SUBSTR(text, "\nchmod ", "-l -- OP...: only the picked operations");
	}
	free(text);
	free(pick);
}

UNIT_TEST(conform_not_later)
{
	ASSERT_TRUE(cf_not_later((struct timespec){ 5, 10 }, (struct timespec){ 5, 10 }), "equal");
	ASSERT_TRUE(cf_not_later((struct timespec){ 5, 10 }, (struct timespec){ 4, 999 }), "earlier");
	ASSERT_FALSE(cf_not_later((struct timespec){ 5, 10 }, (struct timespec){ 5, 11 }), "later ns");
	ASSERT_FALSE(cf_not_later((struct timespec){ 5, 10 }, (struct timespec){ 6, 0 }), "later s");
}

/* an operation the filesystem refused is UNSUPPORTED whatever else the row holds */
UNIT_TEST(conform_unsupported_never_pass)
{
	unsigned int ri = 0;
	const struct cf_op *op = op_with(CF_LATER, &ri);
	struct cf_row r = { .op = op, .ri = ri, .unsupported = 95 /* EOPNOTSUPP */ };

	if (!ASSERT_OK_PTR(op, "a later row"))
		return;
	ASSERT_EQ(cf_row_verdict(&r, CF_LATER), CF_V_UNSUPPORTED, "unsupported, never run");
	r.done = 3;		/* even had some runs looked fine */
	ASSERT_EQ(cf_row_verdict(&r, CF_LATER), CF_V_UNSUPPORTED, "unsupported, runs made");
	ASSERT_NEQ(cf_row_verdict(&r, CF_INFO), CF_V_PASS, "informational, unsupported");
	r.unsupported = 0;
	r.done = 0;		/* never run (a stop signal): no pass either */
	ASSERT_EQ(cf_row_verdict(&r, CF_LATER), CF_V_INCONCLUSIVE, "not run");
	ASSERT_STREQ(cf_verdict_word(CF_V_UNSUPPORTED), "unsupported", "its JSON word");
}

/* check and the observer disagree: a fault of mgtrace, the run exits 1 */
UNIT_TEST(conform_disagreement)
{
	unsigned int ri = 0;
	const struct cf_op *op = op_with(CF_LATER, &ri);
	struct cf_probe later = probe(10, 20), same = probe(10, 10);
	struct cf_judged viol = { .violations = 1 };
	struct cf_judged none = { 0 };
	struct cf_row rows[2];

	if (!ASSERT_OK_PTR(op, "a later row"))
		return;
	/* doctored: check found a violation the observer did not see */
	rows[0] = row_of(op, ri, &later, &viol, 3);
	ASSERT_EQ(rows[0].disagreements, 3, "3 runs disagree");
	ASSERT_EQ(rows[0].verdict, CF_V_DISAGREE, "the row says so");
	ASSERT_EQ(cf_run_exit(rows, 1), MG_EXIT_FAIL, "exit 1");
	/* and the other way: the observer saw a ctime not later, check nothing */
	rows[1] = row_of(op, ri, &same, &none, 2);
	ASSERT_EQ(rows[1].verdict, CF_V_DISAGREE, "observer only");
	ASSERT_EQ(cf_run_exit(rows + 1, 1), MG_EXIT_FAIL, "exit 1");
	/* the observer alone (no judge) cannot disagree: a plain FAIL */
	rows[1] = row_of(op, ri, &same, NULL, 2);
	ASSERT_EQ(rows[1].verdict, CF_V_FAIL, "observer-only FAIL");
	ASSERT_EQ(rows[1].disagreements, 0, "no disagreement without a judge");
}

/* agreeing judges: a FAIL, a missing_update, a transient violation, a PASS */
UNIT_TEST(conform_agreement)
{
	unsigned int ri = 0;
	const struct cf_op *op = op_with(CF_LATER, &ri);
	struct cf_probe later = probe(10, 20), same = probe(10, 10), none_seen = probe(10, 10);
	struct cf_judged viol = { .violations = 2 };
	struct cf_judged missing = { .missing = 1 };
	struct cf_judged transient = { .transient = 1 };
	struct cf_judged clean = { 0 };
	struct cf_row r[4];

	if (!ASSERT_OK_PTR(op, "a later row"))
		return;
	r[0] = row_of(op, ri, &same, &viol, 4);
	ASSERT_EQ(r[0].verdict, CF_V_FAIL, "a violation both saw");
	ASSERT_EQ(r[0].check_violations, 4, "runs, not violations");
	none_seen.updated = 0;
	r[1] = row_of(op, ri, &none_seen, &missing, 3);
	ASSERT_EQ(r[1].verdict, CF_V_FAIL, "missing_update");
	ASSERT_EQ(r[1].missing, 3, "counted as missing_update");
	ASSERT_EQ(r[1].check_violations, 3, "and in check_violations");
	ASSERT_EQ(r[1].disagreements, 0, "held to the observer: agree");
	r[2] = row_of(op, ri, &later, &transient, 2);
	ASSERT_EQ(r[2].verdict, CF_V_FAIL, "transient: the contract broken");
	ASSERT_EQ(r[2].disagreements, 0, "the stat() after could not see it: agree");
	r[3] = row_of(op, ri, &later, &clean, 5);
	ASSERT_EQ(r[3].verdict, CF_V_PASS, "later, nothing found");
	ASSERT_EQ(cf_run_exit(r + 3, 1), MG_EXIT_OK, "exit 0");
	ASSERT_EQ(cf_run_exit(r, 4), MG_EXIT_FAIL, "a FAIL among them: exit 1");
	r[3].inconclusive = true;
	r[3].verdict = cf_row_verdict(&r[3], CF_LATER);
	ASSERT_EQ(cf_run_exit(r + 3, 1), MG_EXIT_INCONCLUSIVE, "judge incomplete: exit 4");
}

/* informational: an update not made is no fault; a violation check saw, the observer must */
UNIT_TEST(conform_informational)
{
	unsigned int ri = 0;
	const struct cf_op *op = op_with(CF_INFO, &ri);
	struct cf_probe same = probe(10, 10), later = probe(10, 20);
	struct cf_judged clean = { 0 }, viol = { .violations = 1 };
	struct cf_judged missing = { .missing = 1 };
	struct cf_row r;

	if (!ASSERT_OK_PTR(op, "an informational row"))
		return;
	r = row_of(op, ri, &same, &clean, 2);
	ASSERT_EQ(r.verdict, CF_V_INFO, "no update: reported");
	ASSERT_EQ(r.not_later, 2, "what was seen");
	ASSERT_EQ(cf_run_exit(&r, 1), MG_EXIT_OK, "never judged");
	r = row_of(op, ri, &same, &missing, 1);
	ASSERT_EQ(r.verdict, CF_V_INFO, "no ctime event: not a missing_update here");
	ASSERT_EQ(r.check_violations, 0, "not counted");
	r = row_of(op, ri, &later, &viol, 1);
	ASSERT_EQ(r.verdict, CF_V_DISAGREE, "check saw what the observer did not");
}
