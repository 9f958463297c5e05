// SPDX-License-Identifier: GPL-2.0
/* test_order.c - tests of src/util/order.c: the cross-file ordering judge. */
#include <stdlib.h>
#include "unit.h"
#include "checker.h"

/*
 * The ordering judge fed as check feeds it (order.c): three threads' modifications in
 * each thread's order, a piece at a time, judged up to the frontier (the least latest
 * end over the threads), finds what a brute-force pass over the whole run finds, and
 * holds only the ops around the frontier. Pseudo-random runs with regressions.
 */
static void test_order_stream(void)
{
	enum { T = 3, N = 6000 };
	static struct mg_op ops[N];
	unsigned int seed = 777;
	uint64_t now[T] = { 0 }, found = 0, f, brute = 0, taken, judged, frontier;
	size_t idx[T] = { 0 }, held, i, j, per = N / T, skew = 0;
	struct mg_checker *c = mg_checker_new(4, 4);
	struct mg_order *o = mg_order_new();
	int64_t s;
	int err = 0;

	/* thread t's ops are ops[t * per ...], sequential in time, with overlaps across threads */
	for (i = 0; i < N; i++) {
		size_t t = i / per;
		uint64_t start = now[t] + 1 + (uint64_t)(rand_r(&seed) % 50);
		uint64_t end = start + 1 + (uint64_t)(rand_r(&seed) % 100);

		now[t] = end;
		/* stamped within its own window, as a correct kernel does; now and then earlier */
		s = 1000000 + (int64_t)(start + (uint64_t)rand_r(&seed) % (end - start));
		if (rand_r(&seed) % 300 == 0)
			s -= 500;
		ops[i] = (struct mg_op){ .start_ns = start, .end_ns = end,
					 .ctime = { (int64_t)(s / 1000), (uint32_t)(s % 1000) },
					 .mtime = { (int64_t)(s / 1000), (uint32_t)(s % 1000) },
					 .ino = t + 1, .thread = (uint32_t)t };
	}
	for (i = 0; i < N; i++) {	/* brute force: B against every A that ended before it */
		struct mg_ts mc = { -1, 0 }, mm = { -1, 0 };

		for (j = 0; j < N; j++)
			if (ops[j].end_ns < ops[i].start_ns) {
				if (mg_ts_cmp(ops[j].ctime, mc) > 0)
					mc = ops[j].ctime;
				if (mg_ts_cmp(ops[j].mtime, mm) > 0)
					mm = ops[j].mtime;
			}
		brute += mg_ts_cmp(ops[i].ctime, mc) < 0 || mg_ts_cmp(ops[i].mtime, mm) < 0;
	}
	while (!err && (idx[0] < per || idx[1] < per || idx[2] < per)) {
		size_t t = (size_t)rand_r(&seed) % T, k = 1 + (size_t)rand_r(&seed) % 40;

		for (; k && idx[t] < per; k--, idx[t]++)
			err = err ?: mg_order_add(o, &ops[t * per + idx[t]]);
		frontier = UINT64_MAX;
		for (j = 0; j < T; j++) {
			uint64_t e = idx[j] ? ops[j * per + idx[j] - 1].end_ns : 0;

			frontier = e < frontier ? e : frontier;
		}
		err = err ?: mg_order_run(o, c, frontier, UINT64_MAX, &f);
		found += f;
		for (j = 0; j < T; j++)
			for (size_t m = 0; m < T; m++)
				skew = idx[j] > idx[m] + skew ? idx[j] - idx[m] : skew;
	}
	err = err ?: mg_order_run(o, c, UINT64_MAX, UINT64_MAX, &f);
	found += f;
	mg_order_counts(o, &taken, &judged, &held);
	ASSERT_EQ(err, 0,
		  "order: judged a piece at a time to the frontier, %llu violations as brute force "
		  "finds (%llu), all %llu judged", (unsigned long long)found,
		  (unsigned long long)brute, (unsigned long long)judged);
	ASSERT_GT(brute, 5,
		  "order: judged a piece at a time to the frontier, %llu violations as brute force "
		  "finds (%llu), all %llu judged", (unsigned long long)found,
		  (unsigned long long)brute, (unsigned long long)judged);
	ASSERT_EQ(found, brute,
		  "order: judged a piece at a time to the frontier, %llu violations as brute force "
		  "finds (%llu), all %llu judged", (unsigned long long)found,
		  (unsigned long long)brute, (unsigned long long)judged);
	ASSERT_EQ(judged, N,
		  "order: judged a piece at a time to the frontier, %llu violations as brute force "
		  "finds (%llu), all %llu judged", (unsigned long long)found,
		  (unsigned long long)brute, (unsigned long long)judged);
	ASSERT_LT(held, T * skew + 200, "order: at most %zu of %d ops held at once: the ops around "
		  "the frontier (threads up to %zu ops apart in this feed), not the run", held, N, skew);
	ASSERT_EQ(mg_order_check(c, ops, N), (int64_t)brute,
		  "order: all at once, the same count (must-fail direction: ASSERT_GT(brute, 5) above)");
	mg_order_free(o);
	mg_checker_free(c);
}

UNIT_TEST(order_check)
{
	struct mg_checker *c = mg_checker_new(4, 4);
	struct mg_op ok[] = {
		{ .start_ns = 10, .end_ns = 20, .ctime = { 5, 100 }, .mtime = { 5, 100 }, .ino = 1, .thread = 0 },
		{ .start_ns = 15, .end_ns = 25, .ctime = { 5, 90 }, .mtime = { 5, 90 }, .ino = 2, .thread = 1 },
		{ .start_ns = 30, .end_ns = 40, .ctime = { 5, 100 }, .mtime = { 5, 100 }, .ino = 2, .thread = 1 },
	};
	struct mg_op bad[] = {
		{ .start_ns = 10, .end_ns = 20, .ctime = { 5, 100 }, .mtime = { 5, 100 }, .ino = 1, .thread = 0,
		  .tid = 4242, .comm = "wl-a" },
		{ .start_ns = 30, .end_ns = 40, .ctime = { 5, 99 }, .mtime = { 5, 100 }, .ino = 2, .thread = 1,
		  .tid = 4243, .comm = "wl-b" },
		{ .start_ns = 50, .end_ns = 60, .ctime = { 6, 0 }, .mtime = { 4, 0 }, .ino = 3, .thread = 0 },
	};
	const struct mg_violation *v;
	size_t n;

	/* overlapping ops may be in any order; equal stamps after completion are allowed */
	ASSERT_EQ(mg_order_check(c, ok, 3), 0, "order: overlap and equal stamps pass");
	ASSERT_EQ(mg_order_check(c, bad, 3), 2,
		  "order: an earlier ctime and an earlier mtime after completion fail");
	v = mg_checker_reports(c, &n);
	ASSERT_EQ(n, 2, "order: reports name the file and the timestamp");
	ASSERT_EQ(v[0].kind, MG_V_ORDER, "order: reports name the file and the timestamp");
	ASSERT_STREQ(v[0].what, "ctime", "order: reports name the file and the timestamp");
	ASSERT_EQ(v[0].ino, 2, "order: reports name the file and the timestamp");
	ASSERT_STREQ(v[1].what, "mtime", "order: reports name the file and the timestamp");
	ASSERT_EQ(v[1].ino, 3, "order: reports name the file and the timestamp");
	ASSERT_EQ(v[0].earlier.pid, 4242, "order: reports name each side's thread id and comm, "
		  "not its workload index (%u %s, %u %s)", v[0].earlier.pid, v[0].earlier.comm,
		  v[0].later.pid, v[0].later.comm);
	ASSERT_EQ(v[0].later.pid, 4243, "order: reports name each side's thread id and comm, "
		  "not its workload index (%u %s, %u %s)", v[0].earlier.pid, v[0].earlier.comm,
		  v[0].later.pid, v[0].later.comm);
	ASSERT_STREQ(v[0].earlier.comm, "wl-a",
		     "order: reports name each side's thread id and comm, "
		     "not its workload index (%u %s, %u %s)", v[0].earlier.pid, v[0].earlier.comm,
		     v[0].later.pid, v[0].later.comm);
	ASSERT_STREQ(v[0].later.comm, "wl-b", "order: reports name each side's thread id and comm, "
		     "not its workload index (%u %s, %u %s)", v[0].earlier.pid, v[0].earlier.comm,
		     v[0].later.pid, v[0].later.comm);
	mg_checker_free(c);
	test_order_stream();
}
