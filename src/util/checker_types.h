/* SPDX-License-Identifier: GPL-2.0 */
/*
 * checker_types.h - what the checker's halves and their callers share of it: a
 * timestamp, an observation, a violation report, the counts, the checker itself as an
 * opaque type, and the known-fault callback. No code: checker.c (judging each event)
 * and checker_record.c (what is recorded and read back) both stand above it.
 */
#ifndef MG_CHECKER_TYPES_H
#define MG_CHECKER_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mgtrace.h"
#include "mg_rules.h"	/* enum mg_violation_kind, enum mg_benign_kind */

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
	uint32_t fs_magic;	/* the inode's sb->s_magic, read by BPF at the violation
				 * (judged in BPF; 0: not read): mg_fs_magic_name() */
	int known;		/* the --known entry it matched (mg_checker_set_known), -1: none */
	/* the kernel stack of the event that broke the rule, innermost frame first
	 * (stack_len frames, stack_why MG_STACK_TAKEN), or why there is none */
	uint64_t stack[MG_STACK_FRAMES];
	uint32_t stack_len;
	int stack_why;		/* enum mg_stack_why */
	int stack_err;		/* MG_STACK_FAILED: bpf_get_stack()'s -errno */
};

/* Whether a violation has the kernel stack of the event that broke the rule, or why not. */
enum mg_stack_why {
	MG_STACK_NO_RECORD,	/* judged in user space from a ring-buffer event that carries no
				 * stack (no stack map given: mg_checker_set_stacks()) */
	MG_STACK_TAKEN,		/* taken in BPF at the event (bpf_get_stack()) */
	MG_STACK_AT_END,	/* a held getattr judged at the end of the run, at no event */
	MG_STACK_ORDER,		/* judged on the built-in workload's own fstat()s, no kernel event */
	MG_STACK_FLOOR,		/* a floor event (bpf/floor.bpf.c) whose record carries no stack
				 * (its probes loaded without violation_stacks) */
	MG_STACK_FAILED,	/* bpf_get_stack() (judged in BPF) or bpf_get_stackid() (the
				 * record's, judged in user space) failed: stack_err */
	MG_STACK_MAP_LOST,	/* judged in user space: the record's stack was no longer in
				 * the stack map (stack_err: the lookup's -errno) */
	MG_STACK_SYNTHETIC,	/* a synthetic event of the test hook (MGTRACE_TEST_INJECT) */
};

/*
 * The kernel stack a violation is recorded with (mg_checker_rule_out()): frames[0..len)
 * innermost first when why is MG_STACK_TAKEN, else why there is none (err: the
 * -errno of MG_STACK_FAILED, MG_STACK_MAP_LOST).
 */
struct mg_vstack {
	const uint64_t *frames;
	uint32_t len;
	int why;		/* enum mg_stack_why */
	int err;
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
 * A classifier of violations as declared known kernel faults (check --known,
 * known.h): the index of the entry v matches, or -1. Called once per violation
 * that no clock step explains or leaves undecided.
 */
typedef int (*mg_known_fn)(void *ctx, const struct mg_violation *v);

/* Not-fault examples kept per kind (the counts are exact either way). */
#define MG_EXAMPLES 4

#endif
