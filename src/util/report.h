/* SPDX-License-Identifier: GPL-2.0 */
/* report.h - print a struct mg_report as text tables or as JSON (jansson). */
#ifndef MG_REPORT_H
#define MG_REPORT_H

#include <stdio.h>
#include <jansson.h>
#include "escape.h"
#include "counters.h"

/* How the text tables are laid out (stat, check). */
struct mg_print_opts {
	bool verbose;		/* -v: rows off by design, every source note, the reasons */
	const char *sep;	/* -x SEP: fields separated by SEP, no padding (perf stat -x);
				 * NULL: aligned columns */
	bool rate;		/* interval values per second instead of counts */
	const bool *online;	/* per-CPU table: only these CPUs (nr_cpus flags; NULL: all) */
	unsigned int cols;	/* interval columns: 1 << enum mg_row_id (mg_report_columns) */
	int width;		/* the output's columns (term.h mg_term_size()); 0: no limit */
};

/*
 * The interval columns for r: every row of the summary's that has values (all rows
 * with verbose), in summary order, under the summary's names; where a row would not
 * fit po->width (0: no limit; not with verbose or sep), the derived ones are left out
 * first, then ctime_sets, then columns from the right (never ctime_updates).
 */
unsigned int mg_report_columns(const struct mg_report *r, const struct mg_print_opts *po);
/* Header of the per-interval rows: "time" and the column names of po->cols (text; -x prints
 * mg_report_print_csv()'s lines instead). */
void mg_report_print_interval_header(FILE *f, const struct mg_print_opts *po);
/*
 * One row of interval totals (or rates per second with po->rate) at wall-clock time
 * when ("HH:MM:SS"); the last column judges the interval against debugfs: yes,
 * within, "NO: rows", or "-". partial marks the last, shorter interval.
 */
void mg_report_print_interval(FILE *f, const struct mg_report *r, const struct mg_print_opts *po,
			      const char *when, bool partial);
/*
 * The summary table: counter, total, source, debugfs range (low..high, one number when
 * exact), match (yes, within, NO), from. Rows off by design are listed in one line
 * (printed with their reasons under verbose); "~" marks an approximate derived row.
 */
void mg_report_print_summary(FILE *f, const struct mg_report *r, const struct mg_print_opts *po);
/*
 * The per-CPU table (-A): one column per online CPU; unavailable cells say n/a. With
 * po->sep (-x): no padding, every row (also those off by design), and unavailable cells
 * say mg_row_not_counted().
 */
void mg_report_print_percpu(FILE *f, const struct mg_report *r, const struct mg_print_opts *po);

/*
 * What -x prints in place of a value the row does not have, as perf stat -x does:
 * "<not counted>" when an option (-e, --hot) would count it with this backend and scope
 * (struct mg_row::opt_in), "<not supported>" when this kernel, backend or scope cannot
 * give it. The reason is the row's why (the summary's "from" field).
 */
const char *mg_row_not_counted(const struct mg_row *row);

/*
 * The match column of a summary row (and -x's MATCH field): yes, within or NO against
 * debugfs; where no debugfs bracket judged a kernel per-CPU figure, what judged it
 * instead (mg_kcheck_name(): start, ksym); "-" for a row nothing judged.
 */
const char *mg_row_match_word(const struct mg_row *row);

/*
 * stat -x SEP (po->sep): perf stat -x's lines, one per counter (per_cpu: one per counter
 * and online CPU of po->online, prefixed "CPUn"), when not NULL the interval's time
 * first: [TIME,][CPUn,]VALUE,UNIT,EVENT,RUN-TIME(ns),PCT,METRIC,METRIC-UNIT, then
 * SOURCE,DEBUGFS-LOW,DEBUGFS-HIGH,MATCH,APPROXIMATE (report_csv.c). VALUE is
 * mg_row_not_counted() where the row has none (run-time 0, PCT 0.00); the debugfs
 * fields are empty where nothing was compared (and on per-CPU lines: debugfs has only
 * all-CPU sums); MATCH is start or ksym on a kernel per-CPU row no debugfs judged.
 */
void mg_report_print_csv(FILE *f, const struct mg_report *r, const struct mg_print_opts *po,
			 const char *when, bool per_cpu);

/* Print text and a newline, wrapped at mg_text_width() (term.h: the terminal's width, at
 * most 100), continuation lines indented. */
void mg_text_wrapped(FILE *f, const char *text);

/* Wall-clock time now: "HH:MM:SS" (with ".mmm" when ms), local time, as vfsstat prints it. */
void mg_clock_hms(char *buf, size_t len, bool ms);
/* Wall-clock time now in ISO 8601, UTC, with milliseconds: "2026-11-30T22:07:46.123Z". */
void mg_clock_iso(char *buf, size_t len);

/*
 * The "counters" JSON object: { name: { source, detail, total|null, per_cpu|null,
 * unavailable?, kernel_debugfs?, match? } }. Returns a new reference or NULL (ENOMEM).
 */
json_t *mg_report_json(const struct mg_report *r);


#endif
