/* SPDX-License-Identifier: GPL-2.0 */
/*
 * checker.h - the multigrain invariant checker behind `mgtrace check`.
 *
 * Fed struct mg_event records in ring-buffer order (and realtime clock steps,
 * and lost-event counts), it checks per inode (dev, ino, generation):
 *   1. no ctime regression: observed ctimes never decrease;
 *   2. change visibility: an update of a QUERIED ctime yields a strictly later
 *      ctime, and no ctime_xchg_skip happens on a QUERIED inode.
 * Cross-file ordering (invariant 3) is checked on user-space observations by
 * mg_order_check(). Pure logic, no BPF: unit-tested with synthetic sequences.
 *
 * Delivery order is not event order across CPUs: a getattr that read the ctime
 * just before a concurrent update may reach the ring buffer after it. Such a
 * read is "stale by one" (it equals the value the update replaced) and is
 * counted as stale_reads, not as a violation. A ctime swap delivered after the
 * swap that replaced its value (cur of the later one) is counted as reordered.
 */
#ifndef MG_CHECKER_H
#define MG_CHECKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mgtrace.h"

/* A timestamp as stat() shows it: seconds and nanoseconds (QUERIED bit masked). */
struct mg_ts {
	int64_t sec;
	uint32_t nsec;
};

enum mg_violation_kind {
	MG_V_REGRESSION,	/* invariant 1: an observed ctime earlier than one observed before */
	MG_V_NOT_LATER,		/* invariant 2: update of a QUERIED ctime did not yield a later one */
	MG_V_SKIP_QUERIED,	/* invariant 2: ctime_xchg_skip on a QUERIED inode */
	MG_V_ORDER,		/* invariant 3: a later modification shows an earlier time */
	MG_V_NR_KINDS,
};

/* One observation in a violation report. */
struct mg_obs {
	struct mg_ts ctime;
	uint64_t t_ns;		/* CLOCK_MONOTONIC of the event */
	uint32_t pid, cpu;
	uint32_t kind;		/* enum mg_event_kind */
	char comm[16];
};

/* A violation: the earlier observation and the later one that contradicts it. */
struct mg_violation {
	enum mg_violation_kind kind;
	uint32_t dev, gen;	/* kernel dev_t; for MG_V_ORDER: dev of the later file */
	uint64_t ino;
	char name[MG_NAME_LEN];	/* last path component, when known */
	struct mg_obs earlier, later;
	char what[8];		/* "ctime" or "mtime": the timestamp compared */
	bool step_explained;	/* a backward realtime clock step lies between them */
	int64_t step_ns;	/* that step's size (negative: backward), when explained */
};

/* Totals kept by the checker; all are counts of events or inodes. */
struct mg_check_stats {
	uint64_t events;		/* events fed */
	uint64_t by_kind[MG_EV_NR_KINDS];
	uint64_t inodes;		/* distinct inodes tracked */
	uint64_t untracked_events;	/* events of inodes beyond the table bound */
	uint64_t stale_reads;		/* getattr raced with an update (stale by one) */
	uint64_t reordered;		/* swaps delivered after the swap that replaced them */
	uint64_t unverified_queried;	/* QUERIED updates with no known previous ctime */
	uint64_t violations[MG_V_NR_KINDS];	/* all, including step-explained ones */
	uint64_t explained[MG_V_NR_KINDS];	/* of those, explained by a realtime clock step */
	uint64_t clock_steps;		/* realtime steps fed */
	uint64_t lost;			/* events lost before reaching user space */
};

struct mg_checker;

/*
 * New checker tracking at most max_inodes inodes (memory: about 96 bytes each)
 * and keeping the first max_reports violations in full (all are counted).
 * Returns NULL on ENOMEM or a zero bound.
 */
struct mg_checker *mg_checker_new(size_t max_inodes, size_t max_reports);
void mg_checker_free(struct mg_checker *c);

/* Feed one event, in ring-buffer order. */
void mg_checker_event(struct mg_checker *c, const struct mg_event *e);

/*
 * Record a realtime clock step: CLOCK_REALTIME - CLOCK_MONOTONIC changed by
 * delta_ns somewhere in [t0_ns, t1_ns] (CLOCK_MONOTONIC). Later violations
 * (regression, not later after a query, ordering) whose two observations
 * bracket a backward step are marked step_explained.
 */
void mg_checker_clock_step(struct mg_checker *c, uint64_t t0_ns, uint64_t t1_ns, int64_t delta_ns);

/* A recorded realtime step: somewhere in [t0_ns, t1_ns] (CLOCK_MONOTONIC), by delta_ns. */
struct mg_clock_step {
	uint64_t t0_ns, t1_ns;
	int64_t delta_ns;
};

/* The recorded steps (at most 4096 kept; all are counted in clock_steps). */
const struct mg_clock_step *mg_checker_steps(const struct mg_checker *c, size_t *n);

/* Add lost events (ring buffer full): any loss makes the verdict inconclusive. */
void mg_checker_lost(struct mg_checker *c, uint64_t n);

/* Record a violation found elsewhere (mg_order_check). */
void mg_checker_add(struct mg_checker *c, const struct mg_violation *v);

const struct mg_check_stats *mg_checker_stats(const struct mg_checker *c);
/* The stored reports: *n set to their number (<= max_reports). */
const struct mg_violation *mg_checker_reports(const struct mg_checker *c, size_t *n);

/* Violations not explained by a clock step: the ones that fail the check. */
uint64_t mg_checker_faults(const struct mg_checker *c);

/* "ctime_regression", "not_later_after_query", "skip_on_queried", "cross_file_order". */
const char *mg_violation_name(enum mg_violation_kind k);

/* -1, 0, 1 as a < b, a == b, a > b. */
int mg_ts_cmp(struct mg_ts a, struct mg_ts b);

/*
 * One user-space modification: the syscall ran within [start_ns, end_ns]
 * (CLOCK_MONOTONIC) and fstat() afterwards showed ctime/mtime.
 */
struct mg_op {
	uint64_t start_ns, end_ns;
	struct mg_ts ctime, mtime;
	uint64_t ino;
	uint32_t dev, thread;
};

/*
 * Invariant 3: for every pair where op A ended before op B began, B's ctime and
 * mtime are equal to or later than A's. Sorts ops in place (O(n log n)); calls
 * mg_checker_add() for each violating B (against the latest-stamped earlier A),
 * with A's start and B's end as the observation times.
 * Returns the number of violations.
 */
uint64_t mg_order_check(struct mg_checker *c, struct mg_op *ops, size_t n);

#endif
