// SPDX-License-Identifier: GPL-2.0
/*
 * order.c - invariant 3, cross-file ordering, on user-space observations of
 * the built-in workload (see struct mg_order in checker.h): whenever one
 * modification ended before another began, the later one's ctime and mtime
 * are equal or later (Documentation/filesystems/multigrain-ts.rst).
 *
 * Judged as the workload runs, in bounded memory. Each op is judged when it
 * is the earliest-starting op taken, and every op that can end before it
 * began has been taken (its start is at most the frontier the caller gives):
 * it is then compared with the latest stamps of the ops that ended before it
 * began, which were folded into two maxima when the judged ops' starts passed
 * their ends. An op is held from when it is taken until it is folded, so what
 * is held is the ops around the frontier, not the run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "checker.h"
#include "util.h"

/* A binary min-heap of ops, by start (by_end false) or by end. */
struct heap {
	struct mg_op *v;
	size_t n, cap;
	bool by_end;
};

struct mg_order {
	struct heap pending;		/* taken, not judged yet: by start */
	struct heap ended;		/* judged, not folded yet: by end */
	bool have_c, have_m;
	struct mg_op maxc, maxm;	/* the folded ops with the latest ctime and mtime */
	uint64_t taken, judged, found;
	size_t held_peak;
};

static uint64_t key(const struct heap *h, size_t i)
{
	return h->by_end ? h->v[i].end_ns : h->v[i].start_ns;
}

static void swap_ops(struct mg_op *a, struct mg_op *b)
{
	struct mg_op t = *a;

	*a = *b;
	*b = t;
}

static int heap_push(struct heap *h, const struct mg_op *op)
{
	size_t i;

	if (mg_grow(&h->v, &h->cap, h->n, sizeof(*h->v), 1024))
		return -ENOMEM;
	i = h->n++;
	h->v[i] = *op;
	while (i && key(h, (i - 1) / 2) > key(h, i)) {
		swap_ops(&h->v[i], &h->v[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

/* Remove the top (the heap is not empty). */
static void heap_pop(struct heap *h)
{
	size_t i = 0;

	h->v[0] = h->v[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && key(h, l) < key(h, m))
			m = l;
		if (r < h->n && key(h, r) < key(h, m))
			m = r;
		if (m == i)
			break;
		swap_ops(&h->v[i], &h->v[m]);
		i = m;
	}
}

struct mg_order *mg_order_new(void)
{
	struct mg_order *o = calloc(1, sizeof(*o));

	if (o)
		o->ended.by_end = true;
	return o;
}

void mg_order_free(struct mg_order *o)
{
	if (!o)
		return;
	free(o->pending.v);
	free(o->ended.v);
	free(o);
}

int mg_order_add(struct mg_order *o, const struct mg_op *op)
{
	int err = heap_push(&o->pending, op);
	size_t held = o->pending.n + o->ended.n;

	if (err)
		return err;
	o->taken++;
	if (held > o->held_peak)
		o->held_peak = held;
	return 0;
}

static void order_violation(struct mg_checker *c, const struct mg_op *a, const struct mg_op *b,
			    const char *what)
{
	struct mg_violation v = { .kind = MG_V_ORDER, .dev = b->dev, .ino = b->ino,
				  .stack_why = MG_STACK_ORDER };
	bool m = what[0] == 'm';

	strcpy(v.what, what);
	/*
	 * The widest bracket, A's start to B's end: a clock step anywhere in it can
	 * explain B < A (A's write may finish, or its end stamp be taken, after the
	 * step was noticed).
	 */
	v.earlier = (struct mg_obs){ .ctime = m ? a->mtime : a->ctime, .t_ns = a->start_ns,
				     .pid = a->tid, .cpu = a->cpu };
	v.later = (struct mg_obs){ .ctime = m ? b->mtime : b->ctime, .t_ns = b->end_ns,
				   .pid = b->tid, .cpu = b->cpu };
	memcpy(v.earlier.comm, a->comm, sizeof(v.earlier.comm));
	memcpy(v.later.comm, b->comm, sizeof(v.later.comm));
	mg_checker_add(c, &v);
}

int mg_order_run(struct mg_order *o, struct mg_checker *c, uint64_t frontier_ns,
		 uint64_t sampled_ns, uint64_t *found)
{
	uint64_t n = 0;

	while (o->pending.n) {
		struct mg_op b = o->pending.v[0];

		if (b.start_ns > frontier_ns || b.end_ns > sampled_ns)
			break;
		heap_pop(&o->pending);
		/* every op that completed before b began: all taken (b.start <= frontier) */
		while (o->ended.n && o->ended.v[0].end_ns < b.start_ns) {
			const struct mg_op *a = &o->ended.v[0];

			if (!o->have_c || mg_ts_cmp(a->ctime, o->maxc.ctime) > 0) {
				o->maxc = *a;
				o->have_c = true;
			}
			if (!o->have_m || mg_ts_cmp(a->mtime, o->maxm.mtime) > 0) {
				o->maxm = *a;
				o->have_m = true;
			}
			heap_pop(&o->ended);
		}
		if (o->have_c && mg_ts_cmp(b.ctime, o->maxc.ctime) < 0) {
			order_violation(c, &o->maxc, &b, "ctime");
			n++;
		} else if (o->have_m && mg_ts_cmp(b.mtime, o->maxm.mtime) < 0) {
			order_violation(c, &o->maxm, &b, "mtime");
			n++;
		}
		o->judged++;
		if (heap_push(&o->ended, &b)) {
			*found = n;
			o->found += n;
			return -ENOMEM;
		}
	}
	*found = n;
	o->found += n;
	return 0;
}

void mg_order_counts(const struct mg_order *o, uint64_t *taken, uint64_t *judged,
		     size_t *held_peak)
{
	*taken = o->taken;
	*judged = o->judged;
	*held_peak = o->held_peak;
}

int64_t mg_order_check(struct mg_checker *c, const struct mg_op *ops, size_t n)
{
	struct mg_order *o = mg_order_new();
	uint64_t found;
	size_t i;
	int err = o ? 0 : -ENOMEM;

	for (i = 0; !err && i < n; i++)
		err = mg_order_add(o, &ops[i]);
	if (!err)
		err = mg_order_run(o, c, UINT64_MAX, UINT64_MAX, &found);
	mg_order_free(o);
	return err ? err : (int64_t)found;
}
