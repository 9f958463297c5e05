/* SPDX-License-Identifier: GPL-2.0 */
/*
 * checker_int.h - the checker's state, shared by its two halves: checker.c (the inode
 * table, judging each event) and checker_record.c (violations recorded and explained,
 * examples, counts from BPF, clock steps, what is read back). Not a public interface
 * (checker.h and checker_record.h are).
 */
#ifndef MG_CHECKER_INT_H
#define MG_CHECKER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "checker_types.h"
#include "steps.h"

struct ino_state;	/* a slot of the inode table (checker.c) */

/* One checker, from mg_checker_new() to mg_checker_free(). */
struct mg_checker {
	struct ino_state *tab;
	size_t cap, max_inodes;		/* cap: a power of two, at least twice the inodes in it,
					 * doubled as they enter, up to max_cap */
	size_t max_cap;			/* the power of two >= 2 * max_inodes */
	uint64_t grow_failed;		/* doublings refused by calloc (events then untracked) */
	struct mg_violation *reports;
	size_t nreports, max_reports;
	struct mg_steps steps;		/* mg_checker_clock_step, mg_checker_kernel_step */
	int64_t tai_minus_real;		/* ns: CLOCK_TAI - CLOCK_REALTIME */
	uint32_t home_dev;		/* mg_checker_set_home_dev(); 0: none */
	bool no_floor_inodes;		/* floor events do not enter the table (BPF judges) */
	uint64_t floor_records[2];	/* MG_EVF_JUDGED records: floor backward, fine unneeded */
	struct mg_violation examples[MG_B_NR_KINDS][MG_EXAMPLES];	/* mg_checker_example */
	size_t nexamples[MG_B_NR_KINDS];
	struct mg_rctx *ctx;		/* the contexts of the observations the state came to
					 * hold, a ring of CHECKER_CTX_RING (include/mg_rules.h
					 * struct mg_rseen::kc refers to them), as BPF's
					 * "judge_ctx"; allocated at the first */
	unsigned long long ctx_head;	/* contexts kept so far */
	int stacks_fd;			/* mg_checker_set_stacks(); -1: records carry no stack */
	mg_known_fn known_fn;		/* mg_checker_set_known; NULL: none declared */
	void *known_ctx;
	struct mg_check_stats st;
};

#endif
