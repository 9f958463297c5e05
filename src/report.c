// SPDX-License-Identifier: GPL-2.0
/* report.c - text and JSON renderings of a struct mg_report (see report.h). */
#include <inttypes.h>
#include <string.h>
#include "report.h"
#include "escape.h"
#include "util.h"

/* Columns of the interval row: the counters a user watches over time. */
static const enum mg_row_id interval_cols[] = {
	MG_R_CTIME_UPDATES, MG_R_FINE_STAMPS, MG_R_FLOOR_SWAPS, MG_R_FLOOR_CMPXCHG_FAILS,
	MG_R_CTIME_SWAPS, MG_R_CTIME_SKIPS, MG_R_STAT_QUERIES, MG_R_CTIME_SETS,
};
#define NCOLS (sizeof(interval_cols) / sizeof(interval_cols[0]))

static const char *short_name(enum mg_row_id id)
{
	switch (id) {
	case MG_R_CTIME_UPDATES: return "ctime_upd";
	case MG_R_FINE_STAMPS: return "fine";
	case MG_R_FLOOR_SWAPS: return "floor_swp";
	case MG_R_FLOOR_CMPXCHG_FAILS: return "floor_fail";
	case MG_R_CTIME_SWAPS: return "ctime_swp";
	case MG_R_CTIME_SKIPS: return "ctime_skip";
	case MG_R_STAT_QUERIES: return "stat_q";
	case MG_R_CTIME_SETS: return "ctime_set";
	default: return "?";
	}
}

void mg_report_print_interval_header(FILE *f)
{
	size_t i;

	fprintf(f, "%10s", "time(s)");
	for (i = 0; i < NCOLS; i++)
		fprintf(f, " %11s", short_name(interval_cols[i]));
	fprintf(f, "  %s\n", "debugfs");
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

void mg_report_print_interval(FILE *f, const struct mg_report *r, double elapsed_s)
{
	char verdict[160];
	size_t i;

	fprintf(f, "%10.3f", elapsed_s);
	for (i = 0; i < NCOLS; i++) {
		const struct mg_row *row = &r->rows[interval_cols[i]];

		char v[24] = "n/a";

		if (row->have_total)
			snprintf(v, sizeof(v), "%s%" PRId64, row->approx ? "~" : "", row->total);
		fprintf(f, " %11s", v);
	}
	interval_verdict(r, verdict, sizeof(verdict));
	fprintf(f, "  %s\n", verdict);
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

void mg_report_print_summary(FILE *f, const struct mg_report *r)
{
	int i, w = 12, within = 0;
	char kern[48];

	for (i = 0; i < MG_R_NR; i++) {
		bracket_str(&r->rows[i], kern, sizeof(kern));
		if ((int)strlen(kern) > w)
			w = strlen(kern);
		within += r->rows[i].have_kernel && r->rows[i].match == MG_MATCH_WITHIN;
	}
	fprintf(f, "%-20s %12s  %-11s %*s  %-6s %s\n", "counter", "total", "source", w,
		"debugfs", "match", "from");
	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];
		char tot[24] = "n/a";

		if (row->have_total)
			snprintf(tot, sizeof(tot), "%s%" PRId64, row->approx ? "~" : "", row->total);
		bracket_str(row, kern, sizeof(kern));
		fprintf(f, "%-20s %12s  %-11s %*s  %-6s %s", row->name, tot, mg_src_name(row->src),
			w, kern, row->have_kernel ? mg_match_name(row->match) : "-", row->detail);
		if (row->why[0])
			fprintf(f, "%s%s%s", row->detail[0] ? "; " : "",
				row->src == MG_SRC_UNAVAILABLE ? "unavailable: " : "", row->why);
		if (row->approx)
			fprintf(f, "; %s", row->approx_why);
		fputc('\n', f);
	}
	if (within)
		fprintf(f, "within: the count lies in the debugfs range low..high for the window; "
			"the kernel counted while the counters were read at its ends (exact "
			"where it did not: yes)\n");
	if (r->mismatches)
		fprintf(f, "WARNING: %d counter(s) outside the kernel's debugfs range for the "
			"same window (events outside the attached window, or lost)\n", r->mismatches);
}

void mg_report_print_percpu(FILE *f, const struct mg_report *r)
{
	int i, cpu;

	fprintf(f, "%-20s", "per-CPU");
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		char h[16];

		snprintf(h, sizeof(h), "CPU%d", cpu);
		fprintf(f, " %10s", h);
	}
	fputc('\n', f);
	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];

		fprintf(f, "%-20s", row->name);
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			if (row->have_percpu)
				fprintf(f, " %10" PRId64, row->percpu[cpu]);
			else
				fprintf(f, " %10s", "n/a");
		}
		fputc('\n', f);
	}
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
		if (row->have_percpu) {
			pc = json_array();
			for (cpu = 0; cpu < r->nr_cpus; cpu++)
				json_array_append_new(pc, json_integer(row->percpu[cpu]));
		} else {
			pc = json_null();
		}
		json_object_set_new(o, "per_cpu", pc);
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
		}
		json_object_set_new(all, row->name, o);
	}
	return all;
}

void mg_json_print_line(FILE *f, json_t *v)
{
	if (!v || json_dumpf(v, f, JSON_COMPACT | JSON_PRESERVE_ORDER)) {
		mg_err(MG_EXIT_FAIL, "JSON: %s", v ? "writing an object failed" :
		       "an object could not be built (out of memory)");
		mg_json_failures++;
	}
	fputc('\n', f);
	fflush(f);
}

void mg_json_put_header(json_t *o, const char *type, const char *release)
{
	json_object_set_new(o, "schema_version", json_integer(MG_SCHEMA_VERSION));
	json_object_set_new(o, "type", json_string(type));
	json_object_set_new(o, "kernel_release", mg_json_cstr(release));
}
