/* SPDX-License-Identifier: GPL-2.0 */
/*
 * floor.h - load bpf/floor.bpf.c beside an event-mode session (trace, check).
 *
 * The floor object emits one struct mg_event per ktime_get_real_ts64_mg() call
 * (MG_EV_FLOOR_*) into the session's ring buffer, and fills the per-task map
 * set_ctime, which it shares with the session's object (entry_ns of the ctime
 * tracepoint events), and its stack map ev_stacks. It needs function probes (fentry/fexit or
 * kprobe/kretprobe; a kprobe on inode_set_ctime_current in both) and
 * CONFIG_KALLSYMS_ALL for the per-CPU ksym timekeeping_mg_floor_swaps.
 */
#ifndef MG_FLOOR_H
#define MG_FLOOR_H

#include <stdbool.h>
#include <stdint.h>
#include "backend.h"
#include "kenv.h"

/* Filters, applied in BPF like the session's (the session's tgid filter is reused). */
struct mg_floor_opts {
	enum mg_backend backend;	/* MG_BE_AUTO (fentry, then kprobe), FENTRY or KPROBE */
	unsigned int nids;		/* only these inodes (0: every inode): nids <= MG_MAX_IDS */
	unsigned int devs[MG_MAX_IDS];	/* pairs of kernel dev_t (inode->i_sb->s_dev) */
	unsigned long long inos[MG_MAX_IDS];	/* and inode->i_ino */
	int traced_tgids_fd;		/* bpf/follow.bpf.c's process map (0: not following) */
	char filter_comm[16];		/* "": every task */
	bool test_invert_fine;		/* TEST ONLY (testhook.h): invert every decision */
	bool judge;			/* check: judge each floor event in BPF, send only
					 * violations (map floor_judge, src/util/judge.c) */
	bool event_clock;		/* check: measure the realtime clock's bracket at each
					 * record, send each step found (mg_event_clock()) */
	bool stacks;			/* check: the record of a floor event that breaks an
					 * invariant carries its kernel stack (stack_id, in the
					 * session's stack map ev_stacks), taken only then */
};

/* A loaded floor object, from mg_floor_open() to mg_floor_close(). */
struct mg_floor {
	struct floor_bpf *skel;		/* NULL: not loaded (why says why) */
	enum mg_backend backend;	/* MG_BE_FENTRY or MG_BE_KPROBE once loaded */
	const char *probe;		/* "fentry/fexit" or "kprobe/kretprobe" */
	bool test_invert_fine;		/* the test hook inverted every decision */
	char why[32 + 2 * 320];		/* not loaded: each backend tried, errno and cause
					 * (two struct mg_attempt whys, whole) */
};

/*
 * Load and attach the floor object with o->backend, sharing the ring buffer
 * "events" and the map "set_ctime" of sess (an event-mode session, open).
 * Returns 0, or a negative errno with f->why set and nothing left loaded.
 */
int mg_floor_open(struct mg_floor *f, const struct mg_kenv *env, struct mg_session *sess,
		  const struct mg_floor_opts *o);

/*
 * Floor events lost since load (ring buffer full: floor_counts slot 1, summed
 * over the nr_cpus possible CPUs) into *lost. Returns 0 or -errno.
 */
int mg_floor_lost(const struct mg_floor *f, int nr_cpus, uint64_t *lost);

/* Detach and unload; safe on a closed or failed object. */
void mg_floor_close(struct mg_floor *f);

/*
 * The programs of floor.bpf.c whose skipped runs cannot hide an event or a violation
 * (NULL-terminated): the capture at the coarse call's return. A run skipped there
 * (another task's program preempted on the CPU: recursion_misses, or a kprobe miss)
 * leaves that call's coarse_exits at 0, and its fine stamp, if any, is reported
 * undecided (counted in fine_stamps_undecided), never decided on a wrong state.
 */
extern const char *const mg_floor_undeciding_progs[];

#endif
