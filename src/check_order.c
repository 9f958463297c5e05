// SPDX-License-Identifier: GPL-2.0
/*
 * check_order.c - the built-in workload's modifications, from its threads to
 * the cross-file-ordering judge (order.c) while the run goes on.
 *
 * Each workload thread owns a ring (single producer, single consumer): the
 * thread appends each timed modification, the event loop takes them. A full
 * ring makes its thread wait (sched_yield) until the loop catches up: never a
 * modification dropped. The judge needs a frontier, a time by which every
 * modification that ended has been taken: a thread's modifications are
 * appended in order, each after it ended, so every one of its modifications
 * that ended at or before its latest appended end is in its ring; the
 * frontier is the least of those ends over the threads (0 until each thread
 * has appended one).
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
	atomic_store_explicit(&q->head, h + 1, memory_order_release);
	/* after head: a consumer that sees this end sees the op */
	atomic_store_explicit(&q->last_end, op->end_ns, memory_order_release);
}

int check_order_consume(struct check_state *cs, bool final)
{
	uint64_t frontier = UINT64_MAX, found, i;
	int err;

	if (!cs->order)
		return 0;
	for (i = 0; i < cs->nrings; i++) {
		struct check_ring *q = &cs->rings[i];
		uint64_t end = atomic_load_explicit(&q->last_end, memory_order_acquire);
		uint64_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);
		uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);

		if (end < frontier)
			frontier = end;
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
	cs->order_violations += found;
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
