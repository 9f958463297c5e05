// SPDX-License-Identifier: GPL-2.0
/*
 * check_order.c - the built-in workload's modifications, from its threads to
 * the cross-file-ordering judge (order.c) while the run goes on.
 *
 * Each workload thread owns a ring (single producer, single consumer): the
 * thread appends each timed modification, the event loop takes them. A full
 * ring makes its thread wait (sched_yield) until the loop catches up: never a
 * modification dropped. The judge (mg_order_run()) needs a frontier F such
 * that every modification not taken yet starts at or after F: then each one it
 * judges (start <= F) has every modification that ended before it began taken,
 * and none judged later began before it. The loop reads the clock (X), then
 * each thread's phase (mg_wl_thread::phase), then its ring. A thread seen idle
 * has appended everything it did and reads its next start after X: its
 * frontier is X. A thread seen timing or ending holds one modification that
 * started at op_start (or, before op_start is stored, later than the value
 * read): its frontier is op_start. F is the least over the threads: about now,
 * unless a thread was preempted inside a timed write, and the judge holds the
 * modifications since the oldest such start, not the run.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "check_int.h"

int check_order_start(struct check_state *cs, uint64_t threads)
{
	cs->order = mg_order_new();
	cs->rings = calloc(threads, sizeof(*cs->rings));
	cs->nrings = threads;
	return cs->order && cs->rings ? 0 : -ENOMEM;
}

void check_order_record(struct check_state *cs, int thread, const struct mg_op *op)
{
	struct check_ring *q = &cs->rings[thread];
	uint64_t h = atomic_load_explicit(&q->head, memory_order_relaxed);

	while (h - atomic_load_explicit(&q->tail, memory_order_acquire) >= CHECK_RING_OPS) {
		if (atomic_load_explicit(&cs->order_failed, memory_order_relaxed))
			return;	/* the judge ran out of memory: the run ends in an error */
		sched_yield();	/* the event loop is behind: wait for it, never drop */
	}
	q->ops[h % CHECK_RING_OPS] = *op;
	/* before the thread's phase goes back to idle: a consumer that sees it idle sees this */
	atomic_store_explicit(&q->head, h + 1, memory_order_release);
}

int check_order_consume(struct check_state *cs, bool final)
{
	uint64_t frontier = UINT64_MAX, found, i, x = mg_now_ns();
	int err;

	if (!cs->order)
		return 0;
	atomic_thread_fence(memory_order_seq_cst);	/* X is read before any phase */
	for (i = 0; i < cs->nrings; i++) {
		struct check_ring *q = &cs->rings[i];
		struct mg_wl_thread *wt = i < cs->wl.nthreads ? &cs->wl.t[i] : NULL;
		uint64_t f = x, t, h;

		/* a thread not started yet (none here after mg_wl_start) has appended nothing */
		if (wt && atomic_load(&wt->phase) != MG_WL_IDLE)
			f = atomic_load(&wt->op_start);
		if (f < frontier)
			frontier = f;
		t = atomic_load_explicit(&q->tail, memory_order_relaxed);
		h = atomic_load_explicit(&q->head, memory_order_acquire);
		for (; t < h; t++)
			if ((err = mg_order_add(cs->order, &q->ops[t % CHECK_RING_OPS]))) {
				atomic_store(&cs->order_failed, true);
				return err;
			}
		atomic_store_explicit(&q->tail, t, memory_order_release);
	}
	/* at the end the threads have been joined: everything is taken, every step recorded */
	err = mg_order_run(cs->order, cs->chk, final ? UINT64_MAX : frontier,
			   final ? UINT64_MAX : cs->last_sample, &found);
	if (err)
		atomic_store(&cs->order_failed, true);
	return err;
}

void check_order_free(struct check_state *cs)
{
	mg_order_free(cs->order);
	cs->order = NULL;
	free(cs->rings);
	cs->rings = NULL;
	cs->nrings = 0;
}
