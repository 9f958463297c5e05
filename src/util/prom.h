/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom.h - `stat --prometheus FILE`: the counters in the Prometheus text exposition
 * format (version 0.0.4), for node_exporter's textfile collector.
 */
#ifndef MG_PROM_H
#define MG_PROM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "run.h"

/*
 * How often stat rewrites --prometheus FILE when no -i/-I interval is given, in
 * seconds: node_exporter's and Prometheus' usual scrape interval, so a collector
 * never serves the start values of a long run.
 */
#define MG_PROM_INTERVAL_S 15

/*
 * --prometheus FILE (c MG_OPTID_PROM: checked and resolved into resolved, len bytes, *path
 * pointed at it) or --prometheus-label (c MG_OPTID_PROM_LABEL: added, *labels counted).
 * Returns 0, or an exit code with one line printed (mg_prom_check_path, mg_prom_add_label).
 */
int mg_opt_prom(int c, const char *arg, char *resolved, size_t len, const char **path,
		int *labels);

/* Name the command in --prometheus's messages ("stat" unless set; "check"). */
void mg_prom_set_command(const char *cmd);

/*
 * --prometheus-label NAME=VALUE: one more label on every series of the file, so that
 * two runs can share a textfile directory (node_exporter drops series that two files
 * give with the same name and labels). NAME as Prometheus names labels, not one of
 * mgtrace's own, nor twice; VALUE any bytes (escaped). Returns 0, or MG_EXIT_USAGE
 * with one line printed.
 */
int mg_prom_add_label(const char *arg);

/*
 * Check, before anything is attached, that FILE can be written as mg_prom_write()
 * writes it (a temporary file beside it renamed over it), and resolve it: a symlink
 * is followed to its target, which is what gets replaced (resolved, len bytes). Its
 * directory must exist, be writable and hold a temporary file (one is made and
 * removed); FILE, if it exists, must be a regular file (/dev/null is never
 * replaced). Returns 0, or with one line printed MG_EXIT_USAGE (no such directory,
 * not a directory, FILE not a regular file, a dangling symlink) or MG_EXIT_ENV (the
 * machine refuses it: permission denied, read-only filesystem, /proc), as -o's open
 * decides (mg_path_exit()).
 */
int mg_prom_check_path(const char *path, char *resolved, size_t len);

/*
 * Render the counters of r, cumulative from its first snapshot to r->cur, to f:
 * one counter family per counter row read from the kernel or BPF (mgtrace_ROW_total,
 * a `cpu` label per possible CPU where per-CPU values exist, else one series), the
 * info metrics mgtrace_info (backend, kernel release, scope ("system-wide", "pid N and
 * its descendants", ...), tracepoints, per-CPU reader, or why none: "unavailable: "
 * the reader's failure, MG_KPC_UNUSED_SCOPED in process scope, as stat's JSON says)
 * and mgtrace_source_info (every row: source, where it comes from, and why a row is
 * absent: derived rows are left to PromQL, unavailable rows are never written as 0),
 * and the gauges of the window (mgtrace_debugfs_mismatches only when a row was compared
 * with debugfs). intervals: -i rows done so far. Returns 0 or -errno.
 */
int mg_prom_render(FILE *f, struct mg_run *r, const char *scope, uint64_t intervals);

/*
 * Write mg_prom_render()'s output to a temporary file in FILE's directory (mode
 * 0644, so that node_exporter's user can read it), then rename it over FILE: a
 * reader sees the old or the new file, never a part. Returns 0 or -errno, with one
 * line printed on failure; no temporary file is left behind.
 */
int mg_prom_write(const char *path, struct mg_run *r, const char *scope, uint64_t intervals);

/*
 * Write what render(f, ctx) renders (0 or -errno) to a temporary file in FILE's directory
 * and rename it over FILE, as mg_prom_write() does (check's counters: check_prom.c).
 * Returns 0 or -errno, with one line printed on failure.
 */
int mg_prom_write_with(const char *path, int (*render)(FILE *f, void *ctx), void *ctx);

/*
 * The series PREFIX_up (prefix "mgtrace": stat's file; "mgtrace_check": check's), with its
 * HELP and TYPE: 1 in every file of counts, 0 in the file of a run that ended without any
 * (mg_prom_write_error()).
 */
void mg_prom_up(FILE *f, const char *prefix, bool up);

/*
 * mgtrace_error's reason_class for an exit code: a small fixed set ("usage", "environment",
 * "interrupted", "output", "command" for 126 and 127, "internal" for any other).
 */
const char *mg_prom_reason_class(int code);

/*
 * A run that ends without a result (refused: an unsupported environment, COMMAND not run,
 * bad input found after the outputs were opened; or stopped before its first count) rewrites
 * FILE, as mg_prom_write_with() does, so that a collector never serves an earlier run's
 * counts as this one's: PREFIX_up 0, PREFIX_error{reason_class} with the exit code code as
 * its value, and the free text only in PREFIX_error_info{reason,errno} (mg_last_err, the
 * errno it names). The user's --prometheus-label labels come first, as on every series.
 * Returns 0 or -errno, with one line printed on failure.
 */
int mg_prom_write_error(const char *path, const char *prefix, int code);

/* The pieces a renderer is made of. A "# HELP" and "# TYPE" (counter, gauge) pair. */
void mg_prom_family(FILE *f, const char *name, const char *type, const char *help);

/*
 * A series' name and the --prometheus-label labels: "name{job=\"a\"" (then the caller's
 * labels, after a comma when more, and "}"), or "name{" / "name" without user labels.
 * Returns whether a "{" was opened, which the caller closes.
 */
bool mg_prom_series(FILE *f, const char *name, bool more);

/*
 * s (up to 512 bytes) as a label value, without its quotes: a backslash, a double quote and a
 * newline escaped once (\\, \", \n), the rest of mgtrace's text escape (\xHH, \t, \r) with its
 * backslash escaped (docs/prometheus.md).
 */
void mg_prom_label(FILE *f, const char *s);

/* A series with no labels of mgtrace's own: name, the user's labels, the value (printf). */
#define MG_PROM_SERIES(f, name, fmt, ...) do { \
	if (mg_prom_series(f, name, false)) \
		fputc('}', f); \
	fprintf(f, " " fmt "\n", __VA_ARGS__); \
} while (0)

#endif
