// SPDX-License-Identifier: GPL-2.0
/*
 * report_csv.c - stat -x SEP: perf stat -x's line format, one counter per line
 * (tools/perf/util/stat-display.c: value, unit, event, run-time, percentage,
 * metric value, metric unit; "time" first with -I, "CPUn" with -A), then
 * mgtrace's own fields: source, debugfs low and high, match, approximate.
 */
#include <inttypes.h>
#include <stdio.h>
#include "report.h"

/* One line: prefix ("" or "TIME SEP" and/or "CPUn SEP"), then the fields. */
static void csv_line(FILE *f, const struct mg_report *r, const struct mg_print_opts *po,
		     const char *prefix, const struct mg_row *row, bool have, int64_t v,
		     bool bracket)
{
	const char *s = po->sep;
	char val[32];

	if (!have)
		snprintf(val, sizeof(val), "%s", mg_row_not_counted(row));
	else if (po->rate)
		snprintf(val, sizeof(val), "%.0f", r->seconds > 0 ? (double)v / r->seconds : 0);
	else
		snprintf(val, sizeof(val), "%" PRId64, v);
	/* run-time: the window in ns, which every counted row counted whole (100.00%) */
	fprintf(f, "%s%s%s%s%s%s%s%.0f%s%s%s%s%s", prefix, val, s, po->rate && have ? "/s" : "", s,
		row->name, s, have ? r->seconds * 1e9 : 0.0, s, have ? "100.00" : "0.00", s, s, s);
	fprintf(f, "%s", mg_src_name(row->src));
	/* --rate: the debugfs range per second too, so that it holds the value beside it */
	if (bracket && row->have_bracket && po->rate)
		fprintf(f, "%s%.0f%s%.0f", s, r->seconds > 0 ? row->bracket.low / r->seconds : 0, s,
			r->seconds > 0 ? row->bracket.high / r->seconds : 0);
	else if (bracket && row->have_bracket)
		fprintf(f, "%s%" PRId64 "%s%" PRId64, s, row->bracket.low, s, row->bracket.high);
	else
		fprintf(f, "%s%s", s, s);
	/* match: yes, within or NO against debugfs; start or ksym where none judged it */
	fprintf(f, "%s%s%s%s\n", s, bracket && (row->have_kernel || row->kcheck != MG_KCHECK_NONE) ?
		mg_row_match_word(row) : "", s, have && row->approx ? "yes" : "");
}

void mg_report_print_csv(FILE *f, const struct mg_report *r, const struct mg_print_opts *po,
			 const char *when, bool per_cpu)
{
	char prefix[64];
	int i, cpu;

	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &r->rows[i];

		if (!per_cpu) {
			snprintf(prefix, sizeof(prefix), "%s%s", when ? when : "", when ? po->sep : "");
			csv_line(f, r, po, prefix, row, row->have_total, row->total, true);
			continue;
		}
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			if (po->online && !po->online[cpu])
				continue;
			snprintf(prefix, sizeof(prefix), "%s%sCPU%d%s", when ? when : "",
				 when ? po->sep : "", cpu, po->sep);
			csv_line(f, r, po, prefix, row, row->have_percpu,
				 row->have_percpu ? row->percpu[cpu] : 0, false);
		}
	}
	fflush(f);
}
