/* SPDX-License-Identifier: GPL-2.0 */
/*
 * baseline.h - `mgtrace check --baseline FILE`: the figures of an earlier
 * check --json report, and the identity of the workload it measured, which
 * must be this run's. Pure logic but for reading FILE; unit-tested in
 * tests/unit/test_verdict.c.
 *
 * "The same workload" (docs/baseline.md "Floor gates"): the same kind (built-in or
 * COMMAND); for a COMMAND the same argv, byte for byte (as the report encodes
 * it, docs/json.md "Strings"); for the built-in workload the same threads,
 * files per thread and pace (iterations per second per thread), when the
 * report records them ("workload_params"; older reports: a warning). The
 * duration is not part of it: every figure is a ratio of two counts of one
 * window or a count per second of the window, so a longer run of the same
 * workload has the same figures. A different kernel release or filesystem of
 * the built-in workload's directory is what a baseline is for (one kernel
 * against another): a warning, not a refusal.
 */
#ifndef MG_BASELINE_H
#define MG_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "verdict.h"

/* The identity of a check's workload, as its JSON report records it. */
struct mg_workload_id {
	bool command;			/* a COMMAND, else the built-in workload */
	json_t *argv;			/* COMMAND: its argv as check --json writes it
					 * (mg_argv_json); owned, NULL for built-in */
	bool have_params;		/* built-in: threads, files, rate are known */
	uint64_t threads;		/* worker threads (-t) */
	uint64_t files;			/* files per thread */
	uint64_t rate;			/* iterations per second per thread (--rate; 0: unpaced) */
	char fs[16];			/* built-in: mg_fs_name() of its directory; "": unknown */
	char release[128];		/* kernel release (uname -r); "": unknown */
	char verdict[16];		/* the report's verdict ("PASS", "FAIL", ...); "": none */
};

/* Free what id owns (its argv); id stays valid, as a built-in workload. */
void mg_workload_id_free(struct mg_workload_id *id);

/*
 * Read the figures of an earlier `mgtrace check --json` report (its
 * "floor_figures" object) and the identity of its workload ("workload",
 * "command", "workload_params", "workload_dir" "fs", "kernel_release") into
 * id (free with mg_workload_id_free; untouched on error). Returns 0, or
 * -ENOENT/-EACCES/... (cannot read), -EINVAL (not a check report, no figures,
 * or no workload recorded), with err set to one line.
 */
int mg_baseline_load(const char *path, struct mg_figures *out, struct mg_workload_id *id,
		     char *err, size_t errlen);

/*
 * Compare the workload of the baseline at path (base) with this run's (now).
 * Returns 0 when they are the same workload, with warn set to one line (""
 * when none): the kernel release or the workload's filesystem differ, the
 * baseline does not record the built-in workload's parameters, or its verdict was
 * not PASS (its figures still gate). Returns -EINVAL
 * when they are different workloads, with err set to one line naming both.
 */
int mg_workload_id_compare(const char *path, const struct mg_workload_id *base,
			   const struct mg_workload_id *now, char *err, size_t errlen,
			   char *warn, size_t warnlen);

#endif
