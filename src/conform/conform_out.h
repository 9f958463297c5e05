/* SPDX-License-Identifier: GPL-2.0 */
/* conform_out.h - conform's reports (conform_out.c, conform_junit.c). */
#ifndef MG_CONFORM_OUT_H
#define MG_CONFORM_OUT_H

#include "conform_sweep.h"

/*
 * The report of a decided sweep, with exit code code: text (FAIL rows first, each with
 * its stacks) or one JSON object (docs/schema/conform.schema.json) to mg_out, and the
 * JUnit file of --junit. 0, or MG_EXIT_OUTPUT with one line (the JUnit file could not
 * be written).
 */
int cf_report(const struct cf_opts *o, const struct cf_sweep *s, int code);

/*
 * -l: the table as text to f, one line per (operation, role): its name, the role, the
 * expectation and its source (conform_table.c); only the operations pick says (NULL: all).
 */
void cf_list(FILE *f, const bool *pick);

/* A JSON object of the run (what cf_report() prints with --json). NULL: ENOMEM. */
struct json_t;
struct json_t *cf_json(const struct cf_opts *o, const struct cf_sweep *s, int code);

/* --junit FILE when there was no verdict (exit code code): one error testcase. */
void cf_junit_error(const char *path, int code);

/* Write the JUnit XML of the rows to path. 0, or MG_EXIT_OUTPUT with one line. */
int cf_junit(const struct cf_opts *o, const struct cf_sweep *s, int code);

/* The run's verdict word for code: "pass", "fail", "inconclusive". */
const char *cf_code_word(int code);

#endif
