// SPDX-License-Identifier: GPL-2.0
/* report.c - text and JSON renderings of a struct mg_report (see report.h). */
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include "report.h"
#include "jsonnum.h"
#include "escape.h"
#include "term.h"
#include "util.h"

/* Columns an interval row can have, in summary order: every row (include/mg_vocab.def) */
static const enum mg_row_id interval_cols[] = {
#define MG_ROW(ID, name, help) MG_R_##ID,
#include "mg_vocab.def"
};
#define NCOLS (sizeof(interval_cols) / sizeof(interval_cols[0]))
#define TIME_W 12		/* "HH:MM:SS.mmm" */

static int col_width(enum mg_row_id id, const struct mg_report *r)
{
	int w = (int)strlen(r ? r->rows[id].name : "");

	return w < 10 ? 10 : w;
}

unsigned int mg_report_columns(const struct mg_report *r, const struct mg_print_opts *po)
{
	unsigned int cols = 0;
	int width = TIME_W + 10;	/* time and the debugfs verdict */
	int limit = po->verbose || po->sep ? 0 : po->width;
	size_t i;

	for (i = 0; i < NCOLS; i++) {
		const struct mg_row *row = &r->rows[interval_cols[i]];

		if (po->verbose || po->sep || !row->by_design) {
			cols |= 1u << interval_cols[i];
			width += 1 + col_width(interval_cols[i], r);
		}
	}
	/* too wide for the terminal: leave out the derived rows first, then explicit ctime
	 * sets, then from the right; ctime_updates stays (the caller names what is left out) */
	for (i = 0; i < 2 * NCOLS + 1 && limit && width > limit; i++) {
		enum mg_row_id id = i < NCOLS ? interval_cols[i] : i == NCOLS ? MG_R_CTIME_SETS :
				    interval_cols[2 * NCOLS - i];

		if ((cols & 1u << id) && id != MG_R_CTIME_UPDATES &&
		    (i >= NCOLS || r->rows[id].src == MG_SRC_DERIVED)) {
			cols &= ~(1u << id);
			width -= 1 + col_width(id, r);
		}
	}
	return cols;
}

void mg_report_print_interval_header(FILE *f, const struct mg_print_opts *po)
{
	size_t i;

	fprintf(f, "%-*s", TIME_W, "time");
	for (i = 0; i < NCOLS; i++) {
		enum mg_row_id id = interval_cols[i];
		int w = (int)strlen(mg_row_name(id));

		if (po->cols & 1u << id)
			fprintf(f, " %*s", w < 10 ? 10 : w, mg_row_name(id));
	}
	fprintf(f, "  debugfs\n");
}

/*
 * The interval's verdict against debugfs: "yes" (every compared row exact), "within"
 * (all in their brackets, some wider than 0), "NO: name,..." (the rows outside), or
 * "-" (nothing compared).
 */
static void interval_verdict(const struct mg_report *r, char *buf, size_t len)
{
	enum mg_match worst = MG_MATCH_EXACT;
	bool any = false;
	size_t n = 0;
	int i;

	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];

		if (!row->have_kernel)
			continue;
		any = true;
		if (row->match > worst)
			worst = row->match;
	}
	if (!any) {
		snprintf(buf, len, "-");
		return;
	}
	if (worst != MG_MATCH_OUTSIDE) {
		snprintf(buf, len, "%s", mg_match_name(worst));
		return;
	}
	n = snprintf(buf, len, "NO:");
	for (i = 0; i < MG_R_NR && n < len; i++)
		if (r->rows[i].have_kernel && r->rows[i].match == MG_MATCH_OUTSIDE)
			n += snprintf(buf + n, len - n, "%s%s", n > 3 ? "," : " ", r->rows[i].name);
}

void mg_report_print_interval(FILE *f, const struct mg_report *r, const struct mg_print_opts *po,
			      const char *when, bool partial)
{
	char verdict[160];
	size_t i;

	fprintf(f, "%-*s", TIME_W, when);
	for (i = 0; i < NCOLS; i++) {
		enum mg_row_id id = interval_cols[i];
		const struct mg_row *row = &r->rows[id];
		const char *mark = row->approx ? "~" : "";	/* "~": approximate */
		char v[32];

		if (!(po->cols & 1u << id))
			continue;
		if (row->have_total && po->rate)
			snprintf(v, sizeof(v), "%s%.0f", mark,
				 r->seconds > 0 ? row->total / r->seconds : 0);
		else if (row->have_total)
			snprintf(v, sizeof(v), "%s%" PRId64, mark, row->total);
		else
			snprintf(v, sizeof(v), "n/a");
		fprintf(f, " %*s", col_width(id, r), v);
	}
	interval_verdict(r, verdict, sizeof(verdict));
	fprintf(f, "  %s%s\n", verdict, partial ? " (partial interval)" : "");
	fflush(f);
}

/* The debugfs column: the bracket "low..high", or one number when its width is 0. */
static void bracket_str(const struct mg_row *row, char *buf, size_t len)
{
	if (!row->have_kernel)
		snprintf(buf, len, "-");
	else if (row->bracket.low == row->bracket.high)
		snprintf(buf, len, "%" PRId64, row->bracket.low);
	else
		snprintf(buf, len, "%" PRId64 "..%" PRId64, row->bracket.low, row->bracket.high);
}

void mg_text_wrapped(FILE *f, const char *text)
{
	mg_wrap(f, text, 0, 2, mg_text_width());
}

/* The "from" column: without verbose, a kernel row's symbol without the reader's note
 * (the header names the reader once). */
static void from_str(const struct mg_row *row, bool verbose, char *buf, size_t len)
{
	const char *paren = strstr(row->detail, " (");

	if (!verbose && row->src == MG_SRC_KERNEL && paren)
		snprintf(buf, len, "%.*s", (int)(paren - row->detail), row->detail);
	else
		snprintf(buf, len, "%s", row->detail);
}

const char *mg_row_not_counted(const struct mg_row *row)
{
	return row->opt_in ? "<not counted>" : "<not supported>";
}

const char *mg_row_match_word(const struct mg_row *row)
{
	if (row->have_kernel)
		return mg_match_name(row->match);
	return row->kcheck != MG_KCHECK_NONE ? mg_kcheck_name(row->kcheck) : "-";
}

/* The summary's column widths: counter name, total, source, debugfs. */
struct summary_cols {
	int name, total, src, dbg;
};

/* The total column's text of row: "n/a", or the count with "~" when approximate. */
static void total_str(const struct mg_row *row, char *buf, size_t len)
{
	if (row->have_total)
		snprintf(buf, len, "%s%" PRId64, row->approx ? "~" : "", row->total);
	else
		snprintf(buf, len, "n/a");
}

/*
 * The widths: the usual ones (name 19, total 12) where the widest line fits po->width
 * (0: no limit), else each the widest value's, so that 80 columns hold the table.
 */
static struct summary_cols summary_widths(const struct mg_report *r, const struct mg_print_opts *po)
{
	struct summary_cols c = { 19, 12, po->verbose ? 11 : 7, 7 }, t = { 7, 5, c.src, 7 };
	char buf[272];
	int i, line = 0;

	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];
		int n;

		bracket_str(row, buf, sizeof(buf));
		if ((n = (int)strlen(buf)) > c.dbg)
			c.dbg = t.dbg = n;
		if (row->by_design && !po->verbose)
			continue;
		if ((n = (int)strlen(row->name)) > t.name)
			t.name = n;
		total_str(row, buf, sizeof(buf));
		if ((n = (int)strlen(buf)) > t.total)
			t.total = n;
		from_str(row, po->verbose, buf, sizeof(buf));
		if ((n = (int)strlen(buf)) > line)
			line = n;
	}
	line += c.name + 1 + c.total + 2 + c.src + 1 + c.dbg + 2 + 6 + 1;
	return !po->width || line <= po->width ? c : t;
}

/*
 * A summary line: fixed (col columns: the aligned fields), then rest wrapped to width
 * (0: not wrapped): continuation lines under the from column, or indented 4 where it
 * starts too far right; where even the fixed fields pass the width (a narrow terminal),
 * the whole line is wrapped at its spaces.
 */
static void summary_line(FILE *f, const char *fixed, int col, const char *rest, int width)
{
	char all[900];

	if (width && col > width) {
		snprintf(all, sizeof(all), "%s%s", fixed, rest);
		mg_wrap(f, all, 0, 4, width);
		return;
	}
	fputs(fixed, f);
	mg_wrap(f, rest, col, width && width - col < 30 ? 4 : col, width);
}

/* One row of the summary; its "from" text is wrapped to po->width (0: not wrapped). */
static void summary_row(FILE *f, const struct mg_row *row, const struct mg_print_opts *po,
			const struct summary_cols *c)
{
	char tot[24], kern[48], from[272], rest[768], fixed[200];
	int col, n;

	total_str(row, tot, sizeof(tot));
	bracket_str(row, kern, sizeof(kern));
	from_str(row, po->verbose, from, sizeof(from));
	col = snprintf(fixed, sizeof(fixed), "%-*s %*s  %-*s %*s  %-6s ", c->name, row->name,
		       c->total, tot, c->src, row->src == MG_SRC_UNAVAILABLE && !po->verbose ? "n/a" :
		       mg_src_name(row->src), c->dbg, kern, mg_row_match_word(row));
	n = snprintf(rest, sizeof(rest), "%s", from);
	if (row->src == MG_SRC_UNAVAILABLE || (po->verbose && row->why[0]))
		n += snprintf(rest + n, sizeof(rest) - (size_t)n, "%s%s%s", from[0] ? "; " : "",
			      row->src == MG_SRC_UNAVAILABLE ? "unavailable: " : "", row->why);
	if (row->approx && po->verbose && n < (int)sizeof(rest))
		snprintf(rest + n, sizeof(rest) - (size_t)n, "; %s", row->approx_why);
	summary_line(f, fixed, col, rest, po->width);
}

void mg_report_print_summary(FILE *f, const struct mg_report *r, const struct mg_print_opts *po)
{
	struct summary_cols c = summary_widths(r, po);
	int i, within = 0, approx = 0, start = 0, ksym = 0;
	char off[400];
	size_t no = 0;

	{
		char head[200];

		i = snprintf(head, sizeof(head), "%-*s %*s  %-*s %*s  %-6s ", c.name, "counter",
			     c.total, "total", c.src, "source", c.dbg, "debugfs", "match");
		summary_line(f, head, i, "from", po->width);
	}
	off[0] = 0;
	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];

		if (row->by_design && !po->verbose) {
			no += snprintf(off + no, no < sizeof(off) ? sizeof(off) - no : 0, "%s%s",
				       no ? ", " : "", row->name);
			continue;
		}
		within += row->have_kernel && row->match == MG_MATCH_WITHIN;
		start += row->kcheck == MG_KCHECK_START;
		ksym += row->kcheck == MG_KCHECK_KSYM;
		approx += row->approx;
		summary_row(f, row, po, &c);
	}
	if (off[0]) {
		char line[512];

		snprintf(line, sizeof(line), "not counted here: %s (-v: why and how to opt in)", off);
		mg_text_wrapped(f, line);
	}
	if (approx && !po->verbose)
		mg_text_wrapped(f, "~: approximate: the operands were read one after another while the "
			    "counters moved (-v: by how much)");
	if (within)
		mg_text_wrapped(f, "within: the count lies in the debugfs range low..high for the window; "
			    "the kernel counted while the counters were read at its ends (exact "
			    "where it did not: yes)");
	if (start)
		mg_text_wrapped(f, "start: no debugfs to compare with; the reader of these counters was "
			    "validated once at the start, against the tracepoint events of a known "
			    "workload (the kernel per-CPU counters line says which)");
	if (ksym)
		mg_text_wrapped(f, "ksym: no debugfs to compare with, and nothing else checked: read at "
			    "the kernel's own per-CPU symbols (typed ksyms, bpf_per_cpu_ptr), whose "
			    "addresses the kernel resolves");
	if (r->mismatches) {
		char line[400];

		snprintf(line, sizeof(line), "WARNING: %d counter(s) outside the kernel's debugfs "
			 "range for the same window (events outside the attached window, or lost%s)",
			 r->mismatches, r->deleg_possible && r->rows[MG_R_CTIME_SWAPS].mismatch ?
			 "; ctime_swaps: nfsd is loaded, and the kernel also counts NFS "
			 "delegated-timestamp swaps, which fire no tracepoint" : "");
		mg_text_wrapped(f, line);
	}
}

/* The per-CPU table's columns from CPU from on, at most n CPUs (shown ones only). */
static void percpu_block(FILE *f, const struct mg_report *r, const struct mg_print_opts *po,
			 int from, int n)
{
	/* -x: no padding (perf stat -x), every row, unmeasured cells marked as perf does */
	const char *sep = po->sep ? po->sep : " ";
	int i, cpu, k, nw = po->sep ? 0 : 19, vw = po->sep ? 0 : 10;

	/* --rate: each CPU's count over the interval, per second, as the interval row's */
	fprintf(f, "%-*s", nw, po->rate ? "per-CPU, per second" : "per-CPU");
	for (cpu = from, k = 0; cpu < r->nr_cpus && k < n; cpu++) {
		char h[16];

		if (po->online && !po->online[cpu])
			continue;
		snprintf(h, sizeof(h), "CPU%d", cpu);
		fprintf(f, "%s%*s", sep, vw, h);
		k++;
	}
	fputc('\n', f);
	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];

		if (row->by_design && !po->verbose && !po->sep)
			continue;
		fprintf(f, "%-*s", nw, row->name);
		for (cpu = from, k = 0; cpu < r->nr_cpus && k < n; cpu++) {
			if (po->online && !po->online[cpu])
				continue;
			if (row->have_percpu && po->rate)
				fprintf(f, "%s%*.0f", sep, vw, r->seconds > 0 ?
					(double)row->percpu[cpu] / r->seconds : 0);
			else if (row->have_percpu)
				fprintf(f, "%s%*" PRId64, sep, vw, row->percpu[cpu]);
			else
				fprintf(f, "%s%*s", sep, vw,
					po->sep ? mg_row_not_counted(row) : "n/a");
			k++;
		}
		fputc('\n', f);
	}
}

void mg_report_print_percpu(FILE *f, const struct mg_report *r, const struct mg_print_opts *po)
{
	/* a terminal too narrow for every CPU: blocks of the CPUs that fit, one after another */
	int per = po->width && !po->sep ? (po->width - 19) / 11 : r->nr_cpus;
	int cpu = 0, k;

	if (per < 1)
		per = 1;
	while (cpu < r->nr_cpus) {
		percpu_block(f, r, po, cpu, per);
		for (k = 0; cpu < r->nr_cpus && k < per; cpu++)
			k += !po->online || po->online[cpu];
		while (cpu < r->nr_cpus && po->online && !po->online[cpu])
			cpu++;
	}
}

void mg_clock_hms(char *buf, size_t len, bool ms)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, len, "%H:%M:%S", &tm);
	if (ms && n < len)
		snprintf(buf + n, len - n, ".%03ld", ts.tv_nsec / 1000000);
}

void mg_clock_iso(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	if (n < len)
		snprintf(buf + n, len - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

json_t *mg_report_json(const struct mg_report *r)
{
	json_t *all = json_object();
	int i, cpu;

	for (i = 0; all && i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];
		json_t *o = json_object(), *pc;

		json_object_set_new(o, "source", json_string(mg_src_name(row->src)));
		json_object_set_new(o, "detail", json_string(row->detail));
		json_object_set_new(o, "total", row->have_total ? json_integer(row->total) : json_null());
		if (row->have_total && r->seconds > 0)
			json_object_set_new(o, "rate_per_s", json_real(row->total / r->seconds));
		if (row->have_percpu) {
			pc = json_array();
			for (cpu = 0; cpu < r->nr_cpus; cpu++)
				json_array_append_new(pc, json_integer(row->percpu[cpu]));
		} else {
			pc = json_null();
		}
		json_object_set_new(o, "per_cpu", pc);
		if (row->cpu_subset)	/* -C: every CPU's sum, which debugfs judged */
			json_object_set_new(o, "all_cpus_total", json_integer(row->all_cpus_total));
		if (row->why[0])
			json_object_set_new(o, "unavailable", json_string(row->why));
		if (row->src == MG_SRC_DERIVED) {
			json_object_set_new(o, "approximate", json_boolean(row->approx));
			if (row->approx)
				json_object_set_new(o, "approximate_why", json_string(row->approx_why));
			if (row->clamped)
				json_object_set_new(o, "raw_difference", json_integer(row->raw));
		}
		if (row->have_bracket) {
			json_t *b = json_object();

			json_object_set_new(b, "low", json_integer(row->bracket.low));
			json_object_set_new(b, "high", json_integer(row->bracket.high));
			json_object_set_new(b, "width", json_integer(row->bracket.width));
			json_object_set_new(o, "debugfs_bracket", b);
		}
		if (row->have_kernel) {
			static const char *const kind[] = { "exact", "within", "outside" };

			json_object_set_new(o, "kernel_debugfs", json_integer(row->kernel));
			json_object_set_new(o, "match", json_boolean(!row->mismatch));
			json_object_set_new(o, "match_kind", json_string(kind[row->match]));
		} else if (row->kcheck != MG_KCHECK_NONE) {
			json_object_set_new(o, "checked_against",
					    json_string(mg_kcheck_name(row->kcheck)));
		}
		json_object_set_new(all, row->name, o);
	}
	return all;
}
