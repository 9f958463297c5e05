/* SPDX-License-Identifier: GPL-2.0 */
/* conform_sweep.h - one conform run of the table (conform_sweep.c). */
#ifndef MG_CONFORM_SWEEP_H
#define MG_CONFORM_SWEEP_H

#include "conform_int.h"

/* One run of one role of one operation, for the kernel judge to attribute findings to. */
struct cf_log {
	size_t row;			/* index into cf_sweep.rows */
	struct cf_probe p;
	struct cf_judged j;
};

/* A sweep: its parameters, the rows (one per operation and role) and the log. */
struct cf_sweep {
	unsigned int n;			/* runs of each operation (-n) */
	const bool *pick;		/* the operations to run (cf_opts.pick), NULL: all */
	size_t nops;			/* the operations in the sweep (cf_sweep_rows()) */
	bool progress;			/* the progress line on stderr (a terminal, not --json) */
	const struct cf_hooks *hooks;	/* the kernel judge's, or NULL */
	bool (*stop)(void *ctx);	/* a stop signal came: end after this operation */
	void *stop_ctx;
	bool stopped;			/* it ended early */
	bool judged;			/* the log's j were filled by the kernel judge */
	struct cf_row *rows;
	size_t nrows;
	struct cf_log *log;
	size_t nlog, caplog;
	uint64_t outside;		/* check's violations of the sweep's filesystem in no
					 * operation's window (its set-up steps, which query nothing) */
	uint64_t elsewhere;		/* check's violations of other filesystems (system-wide
					 * judging: other processes) */
	char ks_why[200];		/* why stack frames are addresses only ("": named) */
	uint64_t elapsed_ns;		/* CLOCK_MONOTONIC from the first operation to the last */
	uint32_t dev_stat;		/* the work directory's st_dev (kernel form), and */
	uint32_t dev_kernel;		/* the kernel's inode->i_sb->s_dev of what its getattr
					 * reached (mg_fs_multigrain_dev()), 0 not known: the
					 * probes' dev_stat is taken as dev_kernel (btrfs, overlayfs) */
	char why[320];			/* a failure of the run */
};

/* rows made, one per (operation, role) of each operation picked, in table order. 0 or
 * -ENOMEM. */
int cf_sweep_rows(struct cf_sweep *s);

/*
 * Every operation picked n times in the directory dfd (its files f and d2 made there and
 * removed at the end). 0, or -1 with why set (an operation failed for another reason
 * than being unsupported: the run's environment, exit 3).
 */
int cf_sweep_run(struct cf_sweep *s, int dfd);

/* The log counted into the rows (with the judge's findings when judged) and each verdicted. */
void cf_sweep_account(struct cf_sweep *s);

/* Free rows, stacks and log. */
void cf_sweep_free(struct cf_sweep *s);

#endif
