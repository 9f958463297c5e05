/* SPDX-License-Identifier: GPL-2.0 */
/* report.h - print a struct mg_report as text tables or as JSON (jansson). */
#ifndef MG_REPORT_H
#define MG_REPORT_H

#include <stdio.h>
#include <jansson.h>
#include "escape.h"
#include "counters.h"

/* Header of the per-interval text rows. */
void mg_report_print_interval_header(FILE *f);
/*
 * One text row of interval totals; elapsed_s is seconds since counting began. The last
 * column judges the interval against debugfs: yes, within, "NO: rows", or "-".
 */
void mg_report_print_interval(FILE *f, const struct mg_report *r, double elapsed_s);
/*
 * The summary table: counter, total, source, debugfs range (low..high, one number when
 * exact), match (yes, within, NO), detail; a note when a row is "within", a warning
 * when one is outside.
 */
void mg_report_print_summary(FILE *f, const struct mg_report *r);
/* The per-CPU table: one column per possible CPU; unavailable cells say n/a. */
void mg_report_print_percpu(FILE *f, const struct mg_report *r);

/*
 * The "counters" JSON object: { name: { source, detail, total|null, per_cpu|null,
 * unavailable?, kernel_debugfs?, match? } }. Returns a new reference or NULL (ENOMEM).
 */
json_t *mg_report_json(const struct mg_report *r);

/* The name of an event kind as trace and check print it ("ctime_swap", ...), or NULL. */
const char *mg_event_kind_name(unsigned int kind);

/* Version of every JSON object mgtrace prints (docs/json.md). */
#define MG_SCHEMA_VERSION 1

/*
 * The header every JSON report starts with: schema_version, type and
 * kernel_release (escaped as escape.h says), set into o.
 */
void mg_json_put_header(json_t *o, const char *type, const char *release);

/*
 * Print a JSON value compactly on one line and flush. A NULL value or a failed
 * write is reported on stderr ("mgtrace: JSON: ...") and counted in mg_json_failures.
 */
void mg_json_print_line(FILE *f, json_t *v);

#endif
