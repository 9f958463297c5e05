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
 * just before concurrent updates may reach the ring buffer after them. Such a
 * read shows one of the last 4 values the inode held, replaced less than 1 s
 * before the read's event, and is counted as stale_reads, not as a violation. A ctime swap delivered after the
 * swap that replaced its value (cur of the later one) is counted as reordered.
 *
 * The rules are the kernel's contract, no stricter (fs/inode.c
 * inode_set_ctime_current(), Documentation/filesystems/multigrain-ts.rst):
 * ctimes hold at the filesystem's granularity (s_time_gran), for stamps the
 * kernel takes from its clock, while the clock does not step back. What lies
 * outside is counted by enum mg_benign_kind, never as a fault.
 */
#ifndef MG_CHECKER_H
#define MG_CHECKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mgtrace.h"
#include "mg_rules.h"	/* the rules, enum mg_violation_kind, enum mg_benign_kind */
#include "steps.h"	/* struct mg_clock_step, the steps kept */
#include "checker_types.h"
#include "checker_record.h"

/*
 * New checker tracking at most max_inodes inodes (a table grown as they enter,
 * to at most the power of two >= 2 * max_inodes slots of struct ino_state) and
 * keeping the first max_reports violations in full (all are counted). Returns
 * NULL on ENOMEM, a zero bound, or a bound whose largest table would exceed the
 * machine's memory (RAM and swap, sysinfo(2)): refused at start, not when the
 * table fails to grow mid-run.
 */
struct mg_checker *mg_checker_new(size_t max_inodes, size_t max_reports);
/*
 * The largest table mg_checker_new(max_inodes) may grow to: *slots (the power of two
 * >= 2 * max_inodes) of *slot_bytes each; returns their product, bytes.
 */
uint64_t mg_checker_table_bytes(size_t max_inodes, uint64_t *slots, size_t *slot_bytes);
void mg_checker_free(struct mg_checker *c);

/* Feed one event, in ring-buffer order. */
void mg_checker_event(struct mg_checker *c, const struct mg_event *e);

/*
 * End of the stream: judge what is still held (a getattr of an older value whose
 * swap never came is a regression). Call once, after the last event.
 */
void mg_checker_finish(struct mg_checker *c);

/* The rules' input from an event record (ctime QUERIED masked). */
void mg_rule_in_of(struct mg_rin *in, const struct mg_event *e);

/*
 * Account what the rules found for inode (dev, ino, gen): add out's not-fault
 * counts, and record its violations (name: NUL-terminated, may be NULL), each
 * explained by clock steps as mg_checker_add() does, with the kernel stack stk (or why
 * they have none).
 */
void mg_checker_rule_out(struct mg_checker *c, uint32_t dev, uint64_t ino, uint32_t gen,
			 const char *name, bool name_cut, const struct mg_rout *out,
			 const struct mg_vstack *stk);

/*
 * Judging in user space: the events' records carry their kernel stacks (struct
 * mg_event::stack_id) in the BPF stack map fd (backend.h mg_session_stacks_fd()); a
 * violation found at an event is recorded with that event's stack. fd < 0: none.
 */
void mg_checker_set_stacks(struct mg_checker *c, int fd);

/*
 * The ctime events are judged in BPF (src/util/judge.c): floor events then do not
 * enter this checker's inode table (their name comes with the event).
 */
void mg_checker_judged_in_bpf(struct mg_checker *c);

/* MG_STEP_SLACK_NS (include/mg_rules.h): the slack when a step's size is compared. */

/* MG_STEP_NEAR_NS (steps.h): how near a step leaves a violation undecided. */

/*
 * TAI - REALTIME in ns (a whole number of seconds, as adjtimex() reports it):
 * the checker then knows each event's CLOCK_REALTIME (tai_ns - this). Used to
 * tell a stored or set ctime later than the clock. Default 0.
 */
void mg_checker_set_tai_offset(struct mg_checker *c, int64_t tai_minus_real_ns);

/*
 * The built-in workload's filesystem (dev: kernel dev_t, as events name it;
 * 0: none): faults on other filesystems are counted apart as well
 * (mg_check_stats.faults_elsewhere), so that a report says where they were.
 */
void mg_checker_set_home_dev(struct mg_checker *c, uint32_t dev);

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
	uint32_t dev, thread;		/* thread: the workload thread's index */
	uint32_t tid;			/* its kernel thread id (the pid events report) */
	uint32_t cpu;			/* the CPU it was recorded on (sched_getcpu(), after
					 * the fstat()) */
	char comm[16];			/* its comm */
};

/*
 * Invariant 3: for every pair where op A ended before op B began, B's ctime and
 * mtime are equal to or later than A's. Judged as ops are taken (order.c), in
 * memory for the ops around the frontier rather than the run: each violating B
 * goes to mg_checker_add() (against the latest-stamped A that ended before B
 * began), with A's start and B's end as the observation times.
 */
struct mg_order;

/* A new, empty judge; NULL when out of memory. */
struct mg_order *mg_order_new(void);
void mg_order_free(struct mg_order *o);

/* Take one op (copied), in any order. 0 or -ENOMEM. */
int mg_order_add(struct mg_order *o, const struct mg_op *op);

/*
 * Judge, in order of start, every op taken whose start is at most frontier_ns
 * (the caller's promise: every op that ends at or before frontier_ns has been
 * taken) and whose end is at most sampled_ns (the clock steps are recorded up
 * to then, as for events; UINT64_MAX for both at the end of the run). *found
 * is the number of violations added. 0, or -ENOMEM (then ops were lost: the
 * caller must not call the invariant checked).
 */
int mg_order_run(struct mg_order *o, struct mg_checker *c, uint64_t frontier_ns,
		 uint64_t sampled_ns, uint64_t *found);

/* Ops taken, judged, and the most held at once (pending and not yet folded). */
void mg_order_counts(const struct mg_order *o, uint64_t *taken, uint64_t *judged,
		     size_t *held_peak);

/* All of ops at once (tests): the number of violations, or -ENOMEM. */
int64_t mg_order_check(struct mg_checker *c, const struct mg_op *ops, size_t n);

#endif
