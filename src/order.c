// SPDX-License-Identifier: GPL-2.0
/*
 * order.c - invariant 3, cross-file ordering, on user-space observations of
 * the built-in workload (see mg_order_check() in checker.h): whenever one
 * modification ended before another began, the later one's ctime and mtime
 * are equal or later (Documentation/filesystems/multigrain-ts.rst).
 */
#include <stdlib.h>
#include <string.h>
#include "checker.h"

static int by_start(const void *a, const void *b)
{
	const struct mg_op *x = a, *y = b;

	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

static int by_end(const void *a, const void *b)
{
	const struct mg_op *x = *(const struct mg_op *const *)a, *y = *(const struct mg_op *const *)b;

	return x->end_ns < y->end_ns ? -1 : x->end_ns > y->end_ns;
}

static void order_violation(struct mg_checker *c, const struct mg_op *a, const struct mg_op *b,
			    const char *what)
{
	struct mg_violation v = { .kind = MG_V_ORDER, .dev = b->dev, .ino = b->ino };
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

uint64_t mg_order_check(struct mg_checker *c, struct mg_op *ops, size_t n)
{
	const struct mg_op **ends, *maxc = NULL, *maxm = NULL;
	uint64_t found = 0;
	size_t i, j = 0;

	if (!n)
		return 0;
	ends = malloc(n * sizeof(*ends));
	if (!ends)
		return 0;
	qsort(ops, n, sizeof(*ops), by_start);
	for (i = 0; i < n; i++)
		ends[i] = &ops[i];
	qsort(ends, n, sizeof(*ends), by_end);
	for (i = 0; i < n; i++) {
		const struct mg_op *b = &ops[i];

		/* every op that completed before b began */
		for (; j < n && ends[j]->end_ns < b->start_ns; j++) {
			if (!maxc || mg_ts_cmp(ends[j]->ctime, maxc->ctime) > 0)
				maxc = ends[j];
			if (!maxm || mg_ts_cmp(ends[j]->mtime, maxm->mtime) > 0)
				maxm = ends[j];
		}
		if (maxc && mg_ts_cmp(b->ctime, maxc->ctime) < 0) {
			order_violation(c, maxc, b, "ctime");
			found++;
		} else if (maxm && mg_ts_cmp(b->mtime, maxm->mtime) < 0) {
			order_violation(c, maxm, b, "mtime");
			found++;
		}
	}
	free(ends);
	return found;
}
