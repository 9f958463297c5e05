// SPDX-License-Identifier: GPL-2.0
/*
 * conform_out.c - conform's report as text (a table read at a glance: FAIL rows first,
 * then each FAIL row's kernel stacks) or as one JSON object
 * (docs/schema/conform.schema.json). Renders the decided rows; decides nothing.
 */
#include <jansson.h>
#include <string.h>
#include <sys/utsname.h>
#include "conform_out.h"
#include "escape.h"
#include "json_writer.h"
#include "opts.h"
#include "report.h"
#include "run_child.h"
#include "util.h"

/* Frames of a stack the text prints (JSON has them all). */
#define CF_TEXT_FRAMES 12

/* The text table's order of verdicts: what needs reading first. */
static const enum cf_verdict text_order[] = {
	CF_V_DISAGREE, CF_V_FAIL, CF_V_INCONCLUSIVE, CF_V_PASS, CF_V_INFO, CF_V_UNSUPPORTED,
};

const char *cf_code_word(int code)
{
	return code == MG_EXIT_OK ? "pass" : code == MG_EXIT_FAIL ? "fail" : "inconclusive";
}

/* "n" or "-" where the kernel judge did not run */
static const char *judged_num(const struct cf_row *r, uint64_t v, char *buf, size_t len)
{
	if (!r->judged || r->unsupported)
		return "-";
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static void text_row(FILE *f, const struct cf_row *r)
{
	char cv[24], extra[96] = "";

	if (r->unsupported)
		snprintf(extra, sizeof(extra), "  %s", strerror(r->unsupported));
	else if (r->missing)
		snprintf(extra, sizeof(extra), "  missing_update %llu", (unsigned long long)r->missing);
	if (r->transient)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "  transient %llu", (unsigned long long)r->transient);
	if (r->disagreements)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "  %llu runs disagree", (unsigned long long)r->disagreements);
	fprintf(f, "%-12s %-24s %-8s %-13s %6llu %9llu %6s%s\n", cf_verdict_name(r->verdict),
		r->op->name, cf_role_name(r->op->roles[r->ri].role),
		cf_expect_name(r->op->roles[r->ri].expect), (unsigned long long)r->done,
		(unsigned long long)r->not_later, judged_num(r, r->check_violations, cv, sizeof(cv)),
		extra);
}

static void text_stacks(FILE *f, const struct cf_row *r)
{
	size_t k, i;

	for (k = 0; k < r->nstacks; k++) {
		fprintf(f, "  %s %s: stack of %llu violation%s:\n", r->op->name,
			cf_role_name(r->op->roles[r->ri].role), (unsigned long long)r->stacks[k].count,
			r->stacks[k].count == 1 ? "" : "s");
		for (i = 0; i < r->stacks[k].nframes && i < CF_TEXT_FRAMES; i++)
			fprintf(f, "    %s\n", r->stacks[k].frames[i]);
		if (r->stacks[k].nframes > CF_TEXT_FRAMES)
			fprintf(f, "    ... %zu more frames (--json has them)\n",
				r->stacks[k].nframes - CF_TEXT_FRAMES);
	}
}

static void cf_text(FILE *f, const struct cf_opts *o, const struct cf_sweep *s, int code)
{
	size_t v, i, nv[CF_V_NR] = { 0 };

	for (i = 0; i < s->nrows; i++)
		nv[s->rows[i].verdict]++;
	fprintf(f, "conform: %zu operation%s x %u run%s on %s (%s) in %.2f s\nconform: kernel "
		"judge: %s\n", s->nops, s->nops == 1 ? "" : "s", (unsigned int)o->runs,
		o->runs == 1 ? "" : "s", o->dir, o->fs, o->seconds, o->judge);
	if (s->judged && (s->outside || s->elsewhere))
		fprintf(f, "conform: check's violations outside every operation's window, in no "
			"row: %llu on this filesystem (conform's clean-up between runs, or another "
			"process there), %llu on others (other processes)\n",
			(unsigned long long)s->outside, (unsigned long long)s->elsewhere);
	if (o->multigrain < 0)
		fprintf(f, "conform: whether %s is multigrain is not known (%s): where it is not, "
			"every `later` row fails with no fault in the kernel\n", o->fs, o->mg_why);
	if (o->incomplete[0])
		fprintf(f, "conform: %s\n", o->incomplete);
	if (s->ks_why[0])
		fprintf(f, "conform: %s\n", s->ks_why);
	fprintf(f, "%-12s %-24s %-8s %-13s %6s %9s %6s\n", "VERDICT", "OP", "ROLE", "EXPECT", "DONE",
		"NOT_LATER", "CHECK");
	for (v = 0; v < sizeof(text_order) / sizeof(text_order[0]); v++)
		for (i = 0; i < s->nrows; i++)
			if (s->rows[i].verdict == text_order[v])
				text_row(f, &s->rows[i]);
	for (i = 0; i < s->nrows; i++)
		if (s->rows[i].verdict == CF_V_FAIL || s->rows[i].verdict == CF_V_DISAGREE)
			text_stacks(f, &s->rows[i]);
	if (nv[CF_V_DISAGREE])
		fprintf(f, "conform: %zu rows where check and the observer disagree: a fault of "
			"mgtrace, not of the kernel\n", nv[CF_V_DISAGREE]);
	if (o->stop_sig)
		fprintf(f, "conform: interrupted by %s\n", mg_signal_name(o->stop_sig));
	fprintf(f, "conform: %s: %zu FAIL, %zu PASS, %zu INFO, %zu UNSUPPORTED, %zu DISAGREE, "
		"%zu INCONCLUSIVE of %zu rows\n", code == MG_EXIT_OK ? "PASS" : code == MG_EXIT_FAIL ?
		"FAIL" : "INCONCLUSIVE", nv[CF_V_FAIL], nv[CF_V_PASS], nv[CF_V_INFO],
		nv[CF_V_UNSUPPORTED], nv[CF_V_DISAGREE], nv[CF_V_INCONCLUSIVE], s->nrows);
}

void cf_list(FILE *f, const bool *pick)
{
	size_t i;
	unsigned int r;

	fprintf(f, "%-24s %-8s %-13s %s\n", "OP", "ROLE", "EXPECT", "SOURCE");
	for (i = 0; i < cf_nops; i++)
		for (r = 0; (!pick || pick[i]) && r < cf_ops[i].nroles; r++)
			fprintf(f, "%-24s %-8s %-13s %s\n", cf_ops[i].name,
				cf_role_name(cf_ops[i].roles[r].role),
				cf_expect_name(cf_ops[i].roles[r].expect), cf_ops[i].roles[r].source);
}

/* A count the kernel judge made, or null without one */
static json_t *judged_json(const struct cf_row *r, uint64_t v)
{
	return r->judged && !r->unsupported ? json_integer((json_int_t)v) : json_null();
}

static json_t *row_json(const struct cf_row *r)
{
	json_t *o = json_object(), *st = json_array();
	const struct cf_role_expect *re = &r->op->roles[r->ri];
	size_t k, i;

	for (k = 0; k < r->nstacks; k++) {
		json_t *s = json_object(), *fr = json_array();

		for (i = 0; i < r->stacks[k].nframes; i++)
			json_array_append_new(fr, mg_json_cstr(r->stacks[k].frames[i]));
		json_object_set_new(s, "count", json_integer((json_int_t)r->stacks[k].count));
		json_object_set_new(s, "frames", fr);
		json_array_append_new(st, s);
	}
	json_object_set_new(o, "op", json_string(r->op->name));
	json_object_set_new(o, "role", json_string(cf_role_name(re->role)));
	json_object_set_new(o, "expect", json_string(cf_expect_name(re->expect)));
	json_object_set_new(o, "source", json_string(re->source));
	json_object_set_new(o, "done", json_integer((json_int_t)r->done));
	json_object_set_new(o, "observer_not_later", json_integer((json_int_t)r->not_later));
	json_object_set_new(o, "check_violations", judged_json(r, r->check_violations));
	json_object_set_new(o, "missing_update", judged_json(r, r->missing));
	json_object_set_new(o, "transient", judged_json(r, r->transient));
	json_object_set_new(o, "disagreements", judged_json(r, r->disagreements));
	json_object_set_new(o, "verdict", json_string(cf_verdict_word(r->verdict)));
	json_object_set_new(o, "unsupported", r->unsupported ? json_string(strerror(r->unsupported)) :
			    json_null());
	json_object_set_new(o, "stacks", st);
	return o;
}

json_t *cf_json(const struct cf_opts *o, const struct cf_sweep *s, int code)
{
	json_t *j = json_object(), *ops = json_array(), *judge = json_object();
	struct utsname u;
	size_t i;

	uname(&u);
	mg_json_put_header(j, "conform", u.release);
	json_object_set_new(j, "verdict", json_string(cf_code_word(code)));
	json_object_set_new(j, "exit_code", json_integer(code));
	json_object_set_new(j, "fs", mg_json_cstr(o->fs));
	json_object_set_new(j, "dir", mg_json_cstr(o->dir));
	json_object_set_new(j, "multigrain", o->multigrain < 0 ? json_null() :
			    json_boolean(o->multigrain));
	if (o->multigrain < 0)
		json_object_set_new(j, "multigrain_unknown", mg_json_cstr(o->mg_why));
	json_object_set_new(j, "runs", json_integer((json_int_t)o->runs));
	json_object_set_new(j, "seconds", json_real(o->seconds));
	json_object_set_new(judge, "kernel", json_boolean(s->judged));
	json_object_set_new(judge, "detail", json_string(o->judge));
	json_object_set_new(judge, "incomplete", o->incomplete[0] ? json_string(o->incomplete) :
			    json_null());
	json_object_set_new(judge, "outside_windows", s->judged ?
			    json_integer((json_int_t)s->outside) : json_null());
	json_object_set_new(judge, "elsewhere", s->judged ?
			    json_integer((json_int_t)s->elsewhere) : json_null());
	json_object_set_new(j, "judge", judge);
	json_object_set_new(j, "interrupted", o->stop_sig ? json_string(mg_signal_name(o->stop_sig)) :
			    json_null());
	for (i = 0; i < s->nrows; i++)
		json_array_append_new(ops, row_json(&s->rows[i]));
	json_object_set_new(j, "ops", ops);
	return j;
}

int cf_report(const struct cf_opts *o, const struct cf_sweep *s, int code)
{
	if (mg_json_output) {
		json_t *j = cf_json(o, s, code);

		if (!j)
			return mg_err(MG_EXIT_FAIL, "out of memory");
		mg_json_print_line(mg_out, j);
		json_decref(j);
	} else {
		cf_text(mg_out, o, s, code);
	}
	return o->junit ? cf_junit(o, s, code) : 0;
}
