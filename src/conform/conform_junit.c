// SPDX-License-Identifier: GPL-2.0
/*
 * conform_junit.c - conform's rows as JUnit XML (--junit FILE): one testcase per
 * (operation, role); FAIL and DISAGREE a failure, UNSUPPORTED and INCONCLUSIVE
 * skipped (never a pass), PASS and INFO passed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "conform_out.h"
#include "escape.h"
#include "opts.h"
#include "util.h"

static void junit_case(FILE *f, const struct cf_row *r)
{
	const char *role = cf_role_name(r->op->roles[r->ri].role);
	char msg[200];

	fprintf(f, "  <testcase classname=\"mgtrace.conform\" name=\"%s %s\">\n", r->op->name, role);
	switch (r->verdict) {
	case CF_V_FAIL:
	case CF_V_DISAGREE:
		snprintf(msg, sizeof(msg), "%s: %llu of %llu runs showed a ctime not later "
			 "(observer); check: %llu", cf_verdict_name(r->verdict),
			 (unsigned long long)r->not_later, (unsigned long long)r->done,
			 (unsigned long long)r->check_violations);
		fprintf(f, "    <failure message=\"");
		mg_xml_fput(f, msg, strlen(msg));
		fprintf(f, "\"/>\n");
		break;
	case CF_V_UNSUPPORTED:
	case CF_V_INCONCLUSIVE:
		snprintf(msg, sizeof(msg), "%s%s%s", cf_verdict_name(r->verdict),
			 r->unsupported ? ": " : "", r->unsupported ? strerror(r->unsupported) : "");
		fprintf(f, "    <skipped message=\"");
		mg_xml_fput(f, msg, strlen(msg));
		fprintf(f, "\"/>\n");
		break;
	default:
		break;
	}
	fprintf(f, "  </testcase>\n");
}

/* 0, or MG_EXIT_OUTPUT with one line (f closed either way) */
static int junit_close(FILE *f, const char *path)
{
	int err = 0;

	if (fflush(f) || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno;
	return err ? mg_err(MG_EXIT_OUTPUT, "conform: writing '%s': %s", path, strerror(err)) : 0;
}

int cf_junit(const struct cf_opts *o, const struct cf_sweep *s, int code)
{
	size_t i, fail = 0, skip = 0;
	FILE *f = fopen(o->junit, "we");

	(void)code;
	if (!f)
		return mg_err(mg_path_exit(errno), "conform: cannot open '%s': %s", o->junit,
			      strerror(errno));
	for (i = 0; i < s->nrows; i++) {
		fail += s->rows[i].verdict == CF_V_FAIL || s->rows[i].verdict == CF_V_DISAGREE;
		skip += s->rows[i].verdict == CF_V_UNSUPPORTED || s->rows[i].verdict == CF_V_INCONCLUSIVE;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"mgtrace.conform\" "
		"tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n",
		s->nrows, fail, skip, o->seconds);
	fprintf(f, "  <properties>\n    <property name=\"fs\" value=\"");
	mg_xml_fput(f, o->fs, strlen(o->fs));
	fprintf(f, "\"/>\n    <property name=\"kernel_judge\" value=\"");
	mg_xml_fput(f, o->judge, strlen(o->judge));
	fprintf(f, "\"/>\n  </properties>\n");
	for (i = 0; i < s->nrows; i++)
		junit_case(f, &s->rows[i]);
	fprintf(f, "</testsuite>\n");
	return junit_close(f, o->junit);
}

void cf_junit_error(const char *path, int code)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"mgtrace.conform\" "
		"tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n  <testcase "
		"classname=\"mgtrace.conform\" name=\"run\">\n    <error message=\"exit %d: ", code);
	mg_xml_fput(f, mg_last_err, strlen(mg_last_err));
	fprintf(f, "\"/>\n  </testcase>\n</testsuite>\n");
	junit_close(f, path);
}
