// SPDX-License-Identifier: GPL-2.0
/* report.c - text and JSON renderings of a struct mg_report (see report.h). */
#include <inttypes.h>
#include <string.h>
#include "report.h"
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
	fputc('\n', f);
}

void mg_report_print_interval(FILE *f, const struct mg_report *r, double elapsed_s)
{
	size_t i;

	fprintf(f, "%10.3f", elapsed_s);
	for (i = 0; i < NCOLS; i++) {
		const struct mg_row *row = &r->rows[interval_cols[i]];

		if (row->have_total)
			fprintf(f, " %11" PRId64, row->total);
		else
			fprintf(f, " %11s", "n/a");
	}
	fputc('\n', f);
	fflush(f);
}

void mg_report_print_summary(FILE *f, const struct mg_report *r)
{
	int i;

	fprintf(f, "%-20s %12s  %-11s %12s  %-5s %s\n", "counter", "total", "source",
		"debugfs", "match", "from");
	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];
		char tot[24] = "n/a", kern[24] = "-";
		const char *match = "-";

		if (row->have_total)
			snprintf(tot, sizeof(tot), "%" PRId64, row->total);
		if (row->have_kernel) {
			snprintf(kern, sizeof(kern), "%" PRId64, row->kernel);
			match = row->mismatch ? "NO" : "yes";
		}
		fprintf(f, "%-20s %12s  %-11s %12s  %-5s %s", row->name, tot, mg_src_name(row->src),
			kern, match, row->detail);
		if (row->why[0])
			fprintf(f, "%s%s%s", row->detail[0] ? "; " : "",
				row->src == MG_SRC_UNAVAILABLE ? "unavailable: " : "", row->why);
		fputc('\n', f);
	}
	if (r->mismatches)
		fprintf(f, "WARNING: %d counter(s) differ from the kernel's debugfs delta for the "
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
		if (row->have_kernel) {
			json_object_set_new(o, "kernel_debugfs", json_integer(row->kernel));
			json_object_set_new(o, "match", json_boolean(!row->mismatch));
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
