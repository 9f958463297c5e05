/* SPDX-License-Identifier: GPL-2.0 */
/*
 * checker_record.h - what the checker records and reports (checker_record.c): the
 * names of violation and not-fault kinds, each violation recorded and explained by
 * clock steps, the not-fault examples, the counts BPF judged, the clock steps, losses
 * and skipped runs, and the totals and faults read back. checker.h includes it.
 */
#ifndef MG_CHECKER_RECORD_H
#define MG_CHECKER_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include "checker_types.h"
#include "steps.h"	/* struct mg_clock_step */

/*
 * Record a realtime clock step: CLOCK_REALTIME - CLOCK_MONOTONIC changed by
 * delta_ns somewhere in [t0_ns, t1_ns] (CLOCK_MONOTONIC), any size. A later
 * violation (regression, not later after a query, ordering) is marked
 * step_explained when the backward steps between its two observations add up
 * to at least the difference it shows (less MG_STEP_SLACK_NS of measurement).
 * Events also carry the offset read by BPF at the event: two observations
 * whose offsets differ explain a violation the same way.
 */
void mg_checker_clock_step(struct mg_checker *c, uint64_t t0_ns, uint64_t t1_ns, int64_t delta_ns);

/*
 * Record a realtime step BPF saw (struct mg_steprec): TAI - MONOTONIC moved by
 * delta_lo..delta_hi ns within [t0_ns, t1_ns]. Each CPU that judges events
 * reports the same step: a record whose interval and size overlap a kept one
 * narrows it instead of adding a step. These steps explain violations like
 * the recorded ones (by their largest size), never added to them.
 */
void mg_checker_kernel_step(struct mg_checker *c, uint64_t t0_ns, uint64_t t1_ns,
			    int64_t delta_lo, int64_t delta_hi);

/* The recorded steps (at most 4096 kept; all are counted in clock_steps). */
const struct mg_clock_step *mg_checker_steps(const struct mg_checker *c, size_t *n);

/* Add BPF program runs the kernel skipped: events never seen, as inconclusive as lost ones. */
void mg_checker_missed(struct mg_checker *c, uint64_t n);

/* A report's observation from the rules' one (include/mg_rules.h). */
void mg_obs_from_rule(struct mg_obs *o, const struct mg_robs *r);

/*
 * Add what BPF judged: the per-CPU counts summed (sum), and the violations
 * BPF found whose records did not arrive (sum->violations[k] - received[k]:
 * lost with a full ring buffer) or could not be held (unheld[k]): counted,
 * unexplained, without a report. Records that arrived are added with
 * mg_checker_add().
 */
void mg_checker_import_judged(struct mg_checker *c, const struct mg_judge_counts *sum,
			      const uint64_t *received, const uint64_t *unheld);

/*
 * Add the floor events bpf/floor.bpf.c judged (sum: its per-CPU counts
 * summed). Of its violations, those whose records arrived (MG_EVF_JUDGED floor
 * events) are already recorded; the rest (lost) are counted without a report.
 */
void mg_checker_import_floor(struct mg_checker *c, const struct mg_floor_judge_counts *sum);

/*
 * Keep an example of not-fault kind k of inode (dev, ino, gen) with the two
 * observations it was judged on (the first MG_EXAMPLES of each kind).
 */
void mg_checker_example(struct mg_checker *c, unsigned int k, uint32_t dev, uint64_t ino,
			uint32_t gen, const char *name, bool name_cut, const struct mg_rviol *ben);

/* The examples kept of not-fault kind k: *n set to their number. */
const struct mg_violation *mg_checker_examples(const struct mg_checker *c, unsigned int k,
					       size_t *n);

/* Add lost events (ring buffer full): any loss makes the verdict inconclusive. */
void mg_checker_lost(struct mg_checker *c, uint64_t n);

/* Classify every later violation with fn (NULL: none is known). */
void mg_checker_set_known(struct mg_checker *c, mg_known_fn fn, void *ctx);

/* Record a violation found elsewhere (mg_order_check). */
void mg_checker_add(struct mg_checker *c, const struct mg_violation *v);

const struct mg_check_stats *mg_checker_stats(const struct mg_checker *c);

/*
 * The stored reports: *n set to their number (<= max_reports): the first
 * violations, except that once the store is full a violation no clock step
 * explains replaces one that a step explains (what fails the check is shown).
 */
const struct mg_violation *mg_checker_reports(const struct mg_checker *c, size_t *n);

/* Violations neither explained by a clock step nor near one nor known (--known): the
 * ones that fail the check. */
uint64_t mg_checker_faults(const struct mg_checker *c);

/* The same for violations of kind k in st (one line of the report). */
uint64_t mg_checker_faults_of(const struct mg_check_stats *st, enum mg_violation_kind k);

/* Violations not explained, but near a backward clock step of their size (step_undecided). */
uint64_t mg_checker_undecided(const struct mg_checker *c);

/* "ctime_regression", "not_later_after_query", "skip_after_query", "cross_file_order",
 * "floor_backward", "unneeded_fine_stamp". */
const char *mg_violation_name(enum mg_violation_kind k);

/* "stale_reads", "reordered_swaps", ...: the JSON key of a benign kind. */
const char *mg_benign_name(enum mg_benign_kind k);

/* One line saying what a benign kind is and why it is not a fault. */
const char *mg_benign_why(enum mg_benign_kind k);

/*
 * Why v has no kernel stack, one clause ("judged in user space from ..."); NULL when it
 * has one. Points to a static buffer for MG_STACK_FAILED.
 */
const char *mg_stack_why_text(const struct mg_violation *v);

#endif
