/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_judge_maps.h - judging in BPF (bpf/mg_judge.bpf.h, src/util/judge.c):
 * the key and value of the per-inode maps, the counts of judging (per CPU),
 * the records it sends on the ring buffer (violations, clock steps, a new
 * generation), the inputs and outputs of its syscall programs (the passes
 * over the maps, an inode's name, the test program) and check --forget's
 * generations.
 */
#ifndef MG_JUDGE_MAPS_H
#define MG_JUDGE_MAPS_H

#include "mg_rule_state.h"
#include "mg_rule_ctx.h"

/* Key of the BPF hash "inodes": the kernel's identity of an inode. */
struct mg_inode_key {
	unsigned long long ino;		/* inode->i_ino */
	unsigned int dev;		/* kernel dev_t, inode->i_sb->s_dev */
	unsigned int gen;		/* inode->i_generation */
	unsigned long long addr;	/* the struct inode's address: btrfs subvolumes and
					 * snapshots share s_dev, and a snapshot's file keeps the
					 * inode number and generation of the original (0: not
					 * known, user-space judging and the test hook) */
};

/*
 * Value of "inodes" without its lock: the first word is the struct
 * bpf_res_spin_lock of the map's value (bpf/mg_judge.bpf.h), which the kernel
 * never copies to or from user space. No name: a report reads the inode's name
 * when it is written (the event's inode; at the end, inode_name), so the map
 * holds only what judging needs.
 */
struct mg_inode_plain {
	unsigned int lock;
	unsigned int moved;		/* check --forget: this generation's state was copied
					 * into the next generation's map, which holds the
					 * inode now (bpf/mg_judge.bpf.h mg_judge_migrate()) */
	struct mg_rstate s;
};

/*
 * 112 bytes: with struct htab_elem's 48, the 24-byte key and the allocator's
 * 8-byte list node, one kmalloc-192 object per inode (kernel/bpf/memalloc.c;
 * docs/check.md "Memory"). A held getattr (struct mg_rpend) is kept apart.
 */
_Static_assert(sizeof(struct mg_inode_plain) == 112, "the per-inode value is 112 bytes");
_Static_assert(sizeof(struct mg_rpend) == 48, "a held getattr is 48 bytes");

/*
 * The input and output of bpf/mgtrace.bpf.c's syscall program inode_name
 * (BPF_PROG_TEST_RUN, copied back; src/util/judge.c at the end of a run): the name
 * of the inode of key, read through key.addr while that memory still holds the
 * inode (mg_inode_alive()), for a violation judged when no event names it.
 */
struct mg_name_ctx {
	struct mg_inode_key key;	/* in */
	unsigned int alive;		/* out: the inode still exists (0: gone, no name) */
	unsigned int name_len;		/* out: d_name.len (0: no dentry); > strlen(name): cut */
	char name[MG_NAME_LEN];		/* out: last path component, NUL-terminated, cut */
};

/*
 * Value of the BPF_MAP_TYPE_PERCPU_ARRAY "judge_counts": one per possible CPU.
 * Every judged tracepoint event is counted here, and only violations cross the
 * ring buffer (struct mg_vrec).
 */
struct mg_judge_counts {
	unsigned long long by_kind[MG_EV_NR_KINDS];	/* events judged, by enum mg_event_kind
							 * (BPF: those under the lock; user space
							 * adds quiet_by_kind, mg_judge_sum()) */
	unsigned long long benign[MG_B_NR_KINDS];	/* not-fault cases, by enum mg_benign_kind */
	unsigned long long violations[MG_V_NR_KINDS];	/* violations found (records may be lost) */
	unsigned long long untracked;	/* events of inodes "inodes" could not hold (E2BIG) */
	unsigned long long no_ino;	/* events of inodes without an inode number yet, other
					 * than xfs's creation swap (not judged:
					 * mg_rule_has_identity()) */
	unsigned long long inodes;	/* inodes entered into "inodes" */
	unsigned long long records;	/* violation records written to the ring buffer */
	unsigned long long lost;	/* violation records lost: ring buffer full */
	unsigned long long overflow;	/* violations beyond MG_RULE_MAX_VIOL in one event */
	unsigned long long examples;	/* not-fault example records written */
	unsigned long long examples_lost;	/* not-fault example records lost (counts exact) */
	unsigned long long clock_steps;	/* clock-step records written (struct mg_steprec) */
	unsigned long long steps_lost;	/* clock-step records lost: ring buffer full */
	unsigned long long clock_brackets;	/* events that measured a clock bracket (read
						 * t1: mg_rule_clock_need_t1()) */
	unsigned long long lock_failed;	/* events not judged: the inode's bpf_res_spin_lock
					 * failed (deadlock or timeout detected; inconclusive) */
	unsigned long long quiet;	/* getattrs and skips judged without the lock: found
					 * quiet (mg_rule_is_quiet()) or marking the quiet word
					 * (mg_rule_can_mark()); also in context_free (BPF
					 * counts them only in quiet_by_kind; user space
					 * adds that here, mg_judge_sum()) */
	unsigned long long context_free;	/* events judged without reading a clock
					 * (mg_rule_needs_context()); with quiet as above */
	unsigned long long out_of_scope;	/* check --tree: events of inodes not in the map,
					 * by a process outside COMMAND's tree: not judged
					 * (such an inode enters only through the tree) */
	unsigned long long migrated;	/* check --forget: inodes whose state was copied from
					 * the previous generation's map into the current one */
	unsigned long long forget_raced;	/* check --forget: events not judged (also in
					 * untracked) because their inode's state was being
					 * moved between generations at that moment */
	unsigned long long adopted;	/* inodes entered with the state of their creation,
					 * judged under i_generation 0 (ext4, tmpfs) or i_ino
					 * 0 (xfs) before the filesystem set it
					 * (mg_judge_adopt()) */
	unsigned long long adopted_moved;	/* of those, creation entries deleted by the
					 * event that took them (the rest: by the inode GC) */
	unsigned long long adopt_raced;	/* of the inodes that found such a state, those
					 * that could not take it: the inode GC deleted it
					 * meanwhile (entered afresh, as without it) */
	unsigned long long quiet_by_kind[MG_EV_NR_KINDS];	/* BPF: the events judged
					 * without the lock, by kind, counted only here: one
					 * atomic add on the lock-free path, not three
					 * (bench/notes.md "Issue 44 part 3"); user space adds
					 * them to by_kind, quiet and context_free */
};

/*
 * Value of bpf/floor.bpf.c's BPF_MAP_TYPE_PERCPU_ARRAY "floor_judge" (check,
 * judge set): every floor event judged there with mg_rule_floor(); only the
 * events that break a floor invariant are written to the ring buffer, with
 * MG_EVF_JUDGED set (their counts are already here).
 */
struct mg_floor_judge_counts {
	unsigned long long by_kind[3];	/* MG_EV_FLOOR_SWAP, _FAIL, _UNKNOWN */
	unsigned long long floor_checked;	/* MG_RF_FLOOR_CHECKED */
	unsigned long long fine_decided;	/* MG_RF_FINE_DECIDED */
	unsigned long long fine_undecided;	/* floor events without it */
	unsigned long long backward;	/* MG_RF_FLOOR_BACKWARD: violations */
	unsigned long long unneeded;	/* MG_RF_FINE_UNNEEDED: violations */
};

/* Magic of the records of judging; their sizes tell them from struct mg_event. */
#define MG_VREC_MAGIC 0x6d677672U	/* "mgvr": struct mg_vrec */
#define MG_STEPREC_MAGIC 0x6d677374U	/* "mgst": struct mg_steprec */
#define MG_GENREC_MAGIC 0x6d676772U	/* "mggr": struct mg_genrec */

/*
 * check --forget: an event began the next generation of the per-inode map, the
 * current one holding half of --max-inodes (bpf/mg_judge.bpf.h
 * mg_judge_gen_entered()): sent by that event, with a forced wakeup, so that
 * user space makes the one after ready now and not at its next tick.
 */
struct mg_genrec {
	unsigned int magic;		/* MG_GENREC_MAGIC */
	unsigned int slot;		/* the slot of "inode_gens" of the generation that ended */
	unsigned long long entered;	/* its entries when sent */
};

/*
 * A realtime clock step seen in BPF (mg_rule_clock_*): a bracket of TAI -
 * MONOTONIC (the kernel's offs_tai) measured at a judged event no longer
 * overlaps the one that CPU measured before: the clock was set in between, by
 * delta_lo..delta_hi ns (negative: back). Every CPU that judges events sees the
 * same step: user space merges records whose times and sizes overlap.
 */
struct mg_steprec {
	unsigned int magic;		/* MG_STEPREC_MAGIC */
	unsigned int cpu;
	unsigned long long t0_ns, t1_ns;	/* CLOCK_MONOTONIC: the two measurements (the step
					 * lies between) */
	long long delta_lo, delta_hi;	/* the step's size, ns */
};

/*
 * struct mg_vrec::kind of a not-fault case sent as an example: MG_VREC_BENIGN |
 * enum mg_benign_kind. BPF sends the first MG_BENIGN_EXAMPLES of each kind per
 * CPU; the counts are exact either way.
 */
#define MG_VREC_BENIGN 0x100U
#define MG_BENIGN_EXAMPLES 2

/* A violation (or a not-fault example) found in BPF, with its context (ring buffer "events"). */
struct mg_vrec {
	unsigned int magic;		/* MG_VREC_MAGIC */
	unsigned int kind;		/* enum mg_violation_kind, or MG_VREC_BENIGN | benign kind */
	unsigned int dev, gen;		/* the inode's identity */
	unsigned long long ino;
	unsigned int name_len;		/* d_name.len (0: no name) */
	unsigned int later_flags;	/* struct mg_rviol::later_flags */
	unsigned int fs_magic;		/* the inode's inode->i_sb->s_magic, read at the record
					 * (0: not read: no inode, lockdown=confidentiality):
					 * its filesystem where no mount table shows its dev */
	unsigned int pad;
	char name[MG_NAME_LEN];		/* last path component, NUL-terminated, cut */
	struct mg_robs earlier, later;
	int stack_bytes;		/* a violation's: bpf_get_stack()'s return, the bytes of
					 * stack (8 a frame) or -errno; MG_VREC_NO_STACK: none
					 * taken (a not-fault example, a synthetic event) */
	unsigned long long stack[MG_STACK_FRAMES];	/* the event's kernel stack, innermost first */
};

/* struct mg_vrec::stack_bytes when no stack was taken: below every -errno. */
#define MG_VREC_NO_STACK (-100000)

/* The path mg_judge() (bpf/mg_judge.bpf.h) took for an event: judgetest's return value. */
enum mg_judge_path {
	MG_JPATH_CONTEXT = 1,	/* judged under the lock, with its clocks, task and CPU */
	MG_JPATH_NO_CONTEXT,	/* judged under the lock, no context read (mg_rule_needs_context) */
	MG_JPATH_QUIET,		/* a getattr found quiet without the lock (mg_rule_is_quiet) */
	MG_JPATH_NOT_JUDGED,	/* untracked (map full) or the lock failed */
	MG_JPATH_MARKED,	/* a getattr that marked the quiet word without the lock
				 * (mg_rule_can_mark) */
};

/*
 * The input and output of bpf/mg_inodegc.bpf.h (BPF_PROG_TEST_RUN, copied back):
 * one pass over the entries of "inodes", forgetting those of inodes gone.
 */
struct mg_gc_ctx {
	unsigned int slot;		/* in: the generation's slot of "inode_gens" (0: "inodes",
					 * the only one without --forget) */
	unsigned int pad;
	unsigned long long visited;	/* entries visited */
	unsigned long long alive;	/* of them, inodes that still exist */
	unsigned long long kept_pending;	/* gone, kept: a getattr held (judged at the end) */
	unsigned long long collected;	/* gone, deleted */
	unsigned long long creation_keys;	/* of them, the generation-0 key of a live inode
					 * whose generation is set now (its creation's state,
					 * not taken: no later event came yet) */
};

/* Generations of the per-inode map under check --forget: "inode_gens" has this many slots. */
#define MG_GENS 3

/*
 * The input and output of bpf/mgtrace.bpf.c's syscall program inode_drain
 * (check --forget, src/util/judge.c): one pass over a generation's map that no
 * program reads any more, deleting every entry and counting what it held.
 */
struct mg_drain_ctx {
	unsigned int slot;		/* in: the slot of "inode_gens" to empty */
	unsigned int pad;
	unsigned long long visited;	/* entries deleted */
	unsigned long long moved;	/* of them, copied into the next generation first
					 * (struct mg_inode_plain moved): nothing forgotten */
	unsigned long long gone;	/* of them, inodes that no longer exist
					 * (mg_inode_alive(); 0 where it cannot be read) */
	unsigned long long creation_keys;	/* of them, the generation-0 key of a live
					 * inode whose generation is set now (not forgotten:
					 * its state is its creation's, not taken) */
	unsigned long long forgotten;	/* of them, live inodes (or not known to be gone)
					 * whose history is forgotten */
	unsigned long long forgotten_pending;	/* of the forgotten, holding a getattr
					 * never judged */
	unsigned long long delete_failed;	/* entries bpf_map_delete_elem() refused
					 * (never expected) */
};

/*
 * TEST ONLY (MGTRACE_TEST_INJECT=1): the input of bpf/judgetest.bpf.c, a
 * syscall program run with BPF_PROG_TEST_RUN that judges one synthetic event
 * with the same map, rules and ring buffer as the tracepoint programs.
 */
struct mg_judge_test_ctx {
	struct mg_inode_key key;
	struct mg_rin in;
	char name[MG_NAME_LEN];
	unsigned int close;		/* first set the inode's quiet word to 0, as a lock's
					 * holder closes it (the race mg_judge() re-checks) */
	unsigned int race;		/* enum mg_judge_test_race: another event moves the
					 * inode on (check --forget), or the inode GC deletes
					 * its creation state, as this one is judged */
};

/* check --forget's races, made to happen by bpf/judgetest.bpf.c (tests/forgetrace.c) */
enum mg_judge_test_race {
	MG_JTEST_RACE_NONE,
	/* before the event: the previous generation's entry is marked moved and not yet
	 * entered in the current one (another event's move half done) */
	MG_JTEST_RACE_HALF_MOVED,
	/* after the event found its entry: judge_gen advances and another event moves
	 * the inode on to the next generation (mg_judge_migrate()) */
	MG_JTEST_RACE_MOVED_UNDER,
	/* with or without --forget: once the event copied its inode's creation state
	 * (generation 0), the inode GC deletes that entry and another inode's entry
	 * takes its memory (mg_judge_adopt()) */
	MG_JTEST_RACE_CREATION_DELETED,
};

#endif /* MG_JUDGE_MAPS_H */
