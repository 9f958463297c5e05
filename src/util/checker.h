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

/* A timestamp as stat() shows it: seconds and nanoseconds (QUERIED bit masked). */
struct mg_ts {
	int64_t sec;
	uint32_t nsec;
};

/* One observation in a violation report. */
struct mg_obs {
	struct mg_ts ctime;
	uint64_t t_ns;		/* CLOCK_MONOTONIC of the event */
	uint32_t pid, cpu;
	uint32_t kind;		/* enum mg_event_kind */
	uint64_t entry_ns;	/* update's entry in inode_set_ctime_current (0: unknown) */
	char comm[16];
	bool ctx_lost;		/* pid, cpu, comm and entry_ns unknown: the context of
				 * this observation of the per-inode state was overwritten in
				 * its ring (include/mg_rules.h enum mg_ctx_from) */
};

/* A violation: the earlier observation and the later one that contradicts it. */
struct mg_violation {
	enum mg_violation_kind kind;
	uint32_t dev, gen;	/* kernel dev_t; for MG_V_ORDER: dev of the later file */
	uint64_t ino;
	char name[MG_NAME_LEN];	/* last path component, when known (raw bytes, NUL-terminated) */
	bool name_truncated;	/* name is the first MG_NAME_LEN - 1 bytes of a longer one */
	struct mg_obs earlier, later;
	char what[8];		/* "ctime", "mtime" or "floor": the value compared */
	bool step_explained;	/* backward realtime steps between them cover the difference */
	int64_t step_ns;	/* those steps' total (negative: backward), when explained */
	bool step_undecided;	/* not explained, but a backward step of its size was seen
				 * from MG_STEP_NEAR_NS before its earlier observation to
				 * its later one: undecided */
	unsigned int later_flags;	/* the later event's MG_EVF_* where known (MG_EVF_DIR) */
	int known;		/* the --known entry it matched (mg_checker_set_known), -1: none */
};

/* Totals kept by the checker; all are counts of events or inodes. */
struct mg_check_stats {
	uint64_t events;		/* events fed */
	uint64_t by_kind[MG_EV_NR_KINDS];
	uint64_t inodes;		/* distinct inodes tracked */
	uint64_t untracked_events;	/* events of inodes beyond the table bound */
	uint64_t creation_taken;	/* inodes entered with the state of their creation,
					 * judged under generation 0 (ext4, tmpfs) or number 0
					 * (xfs; as BPF's mg_judge_adopt()) */
	uint64_t lock_failed_events;	/* judged in BPF: events whose inode lock failed (the
					 * kernel detected a deadlock or a timeout), not judged */
	uint64_t no_ino_events;		/* events of inodes without a number yet, but xfs's
					 * creation swap: not judged (mg_rule_has_identity) */
	uint64_t out_of_scope_events;	/* check --tree: events of inodes COMMAND's tree never
					 * touched first, by other processes: not judged */
	uint64_t benign[MG_B_NR_KINDS];	/* not faults: see enum mg_benign_kind */
	uint64_t fine_checked;		/* floor events whose fine-stamp condition was decided */
	uint64_t fine_undecided;	/* floor events not decided: fine_checked + fine_undecided
					 * is every floor event */
	uint64_t floor_checked;		/* floor events with mg_floor read at entry and exit */
	uint64_t violations[MG_V_NR_KINDS];	/* all, including step-explained ones */
	uint64_t explained[MG_V_NR_KINDS];	/* of those, explained by a realtime clock step */
	uint64_t undecided[MG_V_NR_KINDS];	/* of those, not explained, but near a step of
						 * their size (step_undecided): inconclusive */
	uint64_t known[MG_V_NR_KINDS];	/* of those, neither: matched a declared known kernel
					 * fault (check --known): counted, not a fault */
	uint64_t clock_steps;		/* realtime steps fed */
	uint64_t faults_elsewhere;	/* of the faults (neither explained, undecided nor known),
					 * those of inodes on another filesystem than
					 * mg_checker_set_home_dev()'s: system-wide judging of the
					 * built-in workload found them in other processes' files */
	uint64_t kernel_steps;		/* realtime steps BPF saw, merged across CPUs */
	uint64_t kernel_step_records;	/* their records, one per CPU that saw one */
	uint64_t steps_not_kept;	/* clock steps beyond the checker's bound (1M), also
					 * counted in lost: the verdict is inconclusive */
	uint64_t lost;			/* events lost before reaching user space */
	uint64_t missed;		/* BPF program runs the kernel skipped (recursion_misses):
					 * events never seen */
};

struct mg_checker;

/*
 * New checker tracking at most max_inodes inodes (a table grown as they enter,
 * to at most the power of two >= 2 * max_inodes slots of struct ino_state) and
 * keeping the first max_reports violations in full (all are counted). Returns
 * NULL on ENOMEM, a zero bound, or a bound whose largest table would exceed the
 * machine's memory (RAM and swap, sysinfo(2)): refused at start, not when the
 * table fails to grow mid-run.
 */
struct mg_checker *mg_checker_new(size_t max_inodes, size_t max_reports);
void mg_checker_free(struct mg_checker *c);

/* Feed one event, in ring-buffer order. */
void mg_checker_event(struct mg_checker *c, const struct mg_event *e);

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

/*
 * End of the stream: judge what is still held (a getattr of an older value whose
 * swap never came is a regression). Call once, after the last event.
 */
void mg_checker_finish(struct mg_checker *c);

/* A report's observation from the rules' one (include/mg_rules.h). */
void mg_obs_from_rule(struct mg_obs *o, const struct mg_robs *r);

/* The rules' input from an event record (ctime QUERIED masked). */
void mg_rule_in_of(struct mg_rin *in, const struct mg_event *e);

/*
 * Account what the rules found for inode (dev, ino, gen): add out's not-fault
 * counts, and record its violations (name: NUL-terminated, may be NULL), each
 * explained by clock steps as mg_checker_add() does.
 */
void mg_checker_rule_out(struct mg_checker *c, uint32_t dev, uint64_t ino, uint32_t gen,
			 const char *name, bool name_cut, const struct mg_rout *out);

/*
 * The ctime events are judged in BPF (src/util/judge.c): floor events then do not
 * enter this checker's inode table (their name comes with the event).
 */
void mg_checker_judged_in_bpf(struct mg_checker *c);

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

/* Not-fault examples kept per kind (the counts are exact either way). */
#define MG_EXAMPLES 4

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

/*
 * A classifier of violations as declared known kernel faults (check --known,
 * known.h): the index of the entry v matches, or -1. Called once per violation
 * that no clock step explains or leaves undecided.
 */
typedef int (*mg_known_fn)(void *ctx, const struct mg_violation *v);

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

/* "ctime_regression", "not_later_after_query", "skip_after_query", "cross_file_order",
 * "floor_backward", "unneeded_fine_stamp". */
const char *mg_violation_name(enum mg_violation_kind k);

/* "stale_reads", "reordered_swaps", ...: the JSON key of a benign kind. */
const char *mg_benign_name(enum mg_benign_kind k);

/* One line saying what a benign kind is and why it is not a fault. */
const char *mg_benign_why(enum mg_benign_kind k);

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
