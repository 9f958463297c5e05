// SPDX-License-Identifier: GPL-2.0
/*
 * check_junit.c - the JUnit XML suite of `mgtrace check --junit FILE`, rendered
 * from its result (check_result.c): one testcase an invariant, a gate and
 * COMMAND's status, and two run-level testcases; or, for a run that ended
 * before a verdict, one <error> testcase.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check_int.h"
#include "opts.h"
#include "util.h"

/*
 * A breached gate as JUnit wants it, expected against actual: "expected
 * floor_swaps_per_update <= 0.7 (limit), got 0.999001". Both bounds when both are set.
 */
static void gate_expected(const struct check_result *r, int i, char *buf, size_t len)
{
	const struct mg_gate *g = &r->gates[i];
	double v = r->fig.f[i].value;
	size_t n = 0;

	n += snprintf(buf, len, "expected %s", mg_figure_name(i));
	if (g->limit >= 0 && n < len)
		n += snprintf(buf + n, len - n, " <= %.6g (limit)", g->limit);
	if (g->have_base && n < len)
		n += snprintf(buf + n, len - n, "%s <= %.6g (baseline %.6g x %g + %g)",
			      g->limit >= 0 ? " and" : "", g->allowed, g->base, r->o.baseline_factor,
			      mg_baseline_slack(i));
	if (n < len)
		snprintf(buf + n, len - n, ", got %.6g", v);
}

/*
 * The XML declaration and <testsuite> with what the strict Ant JUnit schema requires:
 * counts, timestamp (UTC, ISO 8601 without a zone, as that schema's type has it),
 * hostname and time (s, the run's window: attach to detach).
 */
static void suite_open(FILE *f, int tests, int failures, int errors, int skipped, double secs)
{
	char host[256] = "localhost", when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "localhost");
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", gmtime_r(&now, &tm));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuite name=\"mgtrace check\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		"skipped=\"%d\" timestamp=\"%s\" hostname=\"", tests, failures, errors, skipped, when);
	mg_xml_fput(f, host, strlen(host));
	fprintf(f, "\" time=\"%.3f\">\n", secs);
}

/*
 * The end of the suite: the strict Ant JUnit schema requires <system-out> and <system-err>
 * after the testcases (empty: check's own output is its report, not the tests').
 */
static void suite_close(FILE *f)
{
	fprintf(f, "  <system-out/>\n  <system-err/>\n</testsuite>\n");
}

/*
 * One testcase of the suite: its name, and its failure or skipped message ("": none), each
 * with room for its longest source (a --known path; the floor's reasons) and never cut
 * mid-word (mg_snprintf_words).
 */
struct junit_case {
	const char *name;
	char fail[240];
	char skip[PATH_MAX + 512];
	const char *type;		/* failure type: violation, gate, command */
	int kinds[2];			/* the violation kinds whose reports a failure lists (-1: none) */
};

/* The testcases: the invariants, the gates, COMMAND's status; returns how many. */
static int junit_cases(const struct check_result *r, struct junit_case *tc)
{
	int i, n = 0;

	for (i = 0; i < r->ninv; i++, n++) {
		const struct check_inv *l = &r->inv[i];

		tc[n] = (struct junit_case){ .name = l->name, .type = "violation",
					     .kinds = { l->kinds[0], l->kinds[1] } };
		if (l->result == CHECK_NOT_CHECKED)
			mg_snprintf_words(tc[n].skip, sizeof(tc[n].skip), "%s", l->why);
		else if (l->result == CHECK_KNOWN)	/* never a pass: a skip with its reason */
			mg_snprintf_words(tc[n].skip, sizeof(tc[n].skip), "%llu known kernel fault(s) "
					  "matched --known %s (see its references): not a pass",
					  (unsigned long long)l->known, r->o.known->path);
		else if (l->faults)
			snprintf(tc[n].fail, sizeof(tc[n].fail), "expected 0 violations, got %llu%s",
				 (unsigned long long)l->faults, r->jg.sum.lost ?
				 " (some not listed below: violation records were lost to a full ring "
				 "buffer, raise --ringbuf-size; the count is exact)" : "");
	}
	for (i = 0; i < MG_F_NR; i++, n++) {
		const struct mg_gate *g = &r->gates[i];

		tc[n] = (struct junit_case){ .name = mg_figure_name(i), .type = "gate",
					     .kinds = { -1, -1 } };
		if (g->result < 0)
			mg_snprintf_words(tc[n].skip, sizeof(tc[n].skip), "%s", g->why[0] ? g->why :
					  "no gate set");
		else if (!g->result)
			gate_expected(r, i, tc[n].fail, sizeof(tc[n].fail));
	}
	if (r->cmd.present) {
		tc[n] = (struct junit_case){ .name = "COMMAND succeeds", .type = "command",
					     .kinds = { -1, -1 } };
		if (r->cmd.result == CHECK_NOT_CHECKED)
			mg_snprintf_words(tc[n].skip, sizeof(tc[n].skip), "%s", r->cmd.junit);
		else
			mg_snprintf_words(tc[n].fail, sizeof(tc[n].fail), "%s", r->cmd.junit);
		n++;
	}
	return n;
}

/* A testcase's element; a failure's body lists the stored reports of its kinds, one a line. */
static void junit_case(FILE *f, const struct check_result *r, const struct junit_case *tc)
{
	const struct mg_violation *vs;
	bool stack_shown = false;
	size_t nv, j;

	fprintf(f, "  <testcase classname=\"mgtrace.check\" name=\"");
	mg_xml_fput(f, tc->name, strlen(tc->name));
	fprintf(f, "\" time=\"%.3f\">", r->window_s);
	if (tc->skip[0]) {
		fprintf(f, "<skipped message=\"");
		mg_xml_fput(f, tc->skip, strlen(tc->skip));
		fprintf(f, "\"/>");
	} else if (tc->fail[0]) {
		fprintf(f, "<failure type=\"%s\" message=\"", tc->type);
		mg_xml_fput(f, tc->fail, strlen(tc->fail));
		fprintf(f, "\">");
		vs = r->reports;
		nv = r->nreports;
		for (j = 0; j < nv; j++) {
			if (vs[j].step_explained || vs[j].step_undecided ||
			    ((int)vs[j].kind != tc->kinds[0] && (int)vs[j].kind != tc->kinds[1]))
				continue;
			check_put_violation(f, &r->names, &vs[j], true, -1);
			fputc('\n', f);
			/* the kernel stack of its first example that has one */
			if (!stack_shown && vs[j].stack_why == MG_STACK_TAKEN) {
				fputs("  kernel stack:\n", f);
				check_put_stack(f, &r->names, &vs[j], 4, true);
				stack_shown = true;
			}
		}
		fprintf(f, "</failure>");
	}
	fprintf(f, "</testcase>\n");
}

/* A run-level testcase: passed, or an <error> of type with message. */
static void junit_run_case(FILE *f, const char *name, double secs, const char *type,
			   const char *message)
{
	fprintf(f, "  <testcase classname=\"mgtrace.check\" name=\"%s\" time=\"%.3f\">", name, secs);
	if (type) {
		fprintf(f, "<error type=\"%s\" message=\"", type);
		mg_xml_fput(f, message, strlen(message));
		fprintf(f, "\"/>");
	}
	fprintf(f, "</testcase>\n");
}

int check_write_junit(const struct check_result *r, FILE *f, struct mg_replace *rp,
		      const char *path)
{
	struct junit_case tc[CHECK_NR_INV + MG_F_NR + 1];
	int i, n, failures = 0, skipped = 0, err = 0;

	errno = 0;	/* a failed write's errno is the one named */
	n = junit_cases(r, tc);
	for (i = 0; i < n; i++) {
		failures += tc[i].fail[0] != 0;
		skipped += tc[i].skip[0] != 0;
	}
	/* the two run-level testcases are always there: the count never changes between runs */
	suite_open(f, n + 2, failures, r->junit_errors, skipped, r->window_s);
	/* what was checked: external bytes, escaped as in text output (docs/json.md "Strings") */
	fprintf(f, "  <properties>\n    <property name=\"kernel_release\" value=\"");
	mg_xml_fput(f, r->release, strlen(r->release));
	fprintf(f, "\"/>\n    <property name=\"scope\" value=\"%s\"/>\n", r->scope);
	for (i = 0; r->o.argv && r->o.argv[i]; i++) {
		fprintf(f, "    <property name=\"command[%d]\" value=\"", i);
		mg_xml_fput(f, r->o.argv[i], strlen(r->o.argv[i]));
		fprintf(f, "\"/>\n");
	}
	/* --forget: a PASS that forgot inodes' history says how many (a gate can refuse it) */
	if (r->jg.forget && r->jg.active)
		fprintf(f, "    <property name=\"history_forgotten\" value=\"%llu\"/>\n",
			(unsigned long long)r->jg.forgotten);
	fprintf(f, "  </properties>\n");
	for (i = 0; i < n; i++)
		junit_case(f, r, &tc[i]);
	/* errors: a run a signal cut short; incomplete events (an INCONCLUSIVE not the signal's) */
	junit_run_case(f, "workload ran to its end", r->window_s,
		       r->interrupt_why[0] ? "interrupted" : NULL, r->interrupt_why);
	junit_run_case(f, "events complete", r->window_s,
		       r->v.code == MG_EXIT_INCONCLUSIVE && !r->v.interrupted ? "inconclusive" : NULL,
		       r->v.reason);
	suite_close(f);
	/* the error of the write that failed, as -o's line names it (an earlier one: ferror) */
	err = mg_replace_fclose(rp, f, 0);
	return err ? mg_err(MG_EXIT_OUTPUT, "check: writing '%s': %s", path, strerror(-err)) : 0;
}

int check_open_junit(struct check_state *cs)
{
	int ret;

	if (!cs->o.junit ||
	    (cs->junit = mg_replace_fopen(&cs->junit_rp, cs->o.junit, MG_REPLACE_MODE_KEEP)))
		return 0;
	ret = mg_err(mg_path_exit(errno), "check: cannot open '%s': %s", cs->o.junit,
		     strerror(errno));
	cs->o.junit = NULL;	/* no error report where none can be written */
	return ret;
}

int check_write_junit_error(struct check_state *cs, int code)
{
	FILE *f = cs->junit;
	int err;

	cs->junit = NULL;
	if (!f && !(f = mg_replace_fopen(&cs->junit_rp, cs->o.junit, MG_REPLACE_MODE_KEEP)))
		return mg_err(mg_path_exit(errno), "check: cannot open '%s': %s", cs->o.junit,
			      strerror(errno));
	errno = 0;
	suite_open(f, 1, 0, 1, 0, 0);
	fprintf(f, "  <properties>\n    <property name=\"exit_code\" value=\"%d\"/>\n"
		"  </properties>\n", code);
	fprintf(f, "  <testcase classname=\"mgtrace.check\" name=\"check ran\" time=\"0.000\">"
		"<error type=\"exit %d\" message=\"", code);
	mg_xml_fput(f, mg_last_err, strlen(mg_last_err));
	fprintf(f, "\">mgtrace check could not %s (exit %d): ",
		code == MG_EXIT_OUTPUT ? "write its reports" : "judge", code);
	mg_xml_fput(f, mg_last_err, strlen(mg_last_err));
	fprintf(f, "</error></testcase>\n");
	suite_close(f);
	err = mg_replace_fclose(&cs->junit_rp, f, 0);
	return err ? mg_err(MG_EXIT_OUTPUT, "check: writing '%s': %s", cs->o.junit,
			    strerror(-err)) : 0;
}
