// SPDX-License-Identifier: GPL-2.0
/* test_checker.c - tests of src/util/checker.c: the invariant checker on synthetic streams. */
#include <fcntl.h>
#include <unistd.h>
#include "unit.h"
#include "checker.h"

static struct mg_event ev(enum mg_event_kind k, uint64_t ino, int64_t sec, uint32_t nsec, uint64_t t)
{
	struct mg_event e = { .ts_ns = t, .ino = ino, .ctime_sec = sec, .ctime_nsec = nsec,
			      .dev = (8u << 20) | 1, .gen = 7, .pid = 42, .tgid = 42, .cpu = 1, .kind = k };

	strcpy(e.comm, "unit");
	strcpy(e.name, "f");
	return e;
}

static struct mg_event swap_ev(uint64_t ino, int64_t sec, uint32_t new, uint32_t old, uint32_t cur,
			       uint64_t t)
{
	struct mg_event e = ev(MG_EV_CTIME_SWAP, ino, sec, new, t);

	e.old_nsec = old;
	e.cur_nsec = cur;
	return e;
}

/* Floor events judged in BPF: counted there, sent for their violations only. */
UNIT_TEST(checker_floor_judged)
{
	struct mg_checker *c = mg_checker_new(16, 8);
	struct mg_floor_judge_counts sum = { .by_kind = { 10, 0, 0 }, .floor_checked = 10,
					     .fine_decided = 10, .unneeded = 2 };
	const struct mg_check_stats *st = mg_checker_stats(c);
	struct mg_event e = ev(MG_EV_FLOOR_SWAP, 3, 100, 5, 10);

	e.flags = MG_EVF_JUDGED | MG_EVF_FINE_UNNEEDED | MG_EVF_IN_SET_CTIME;
	e.floor_known = 1;
	mg_checker_judged_in_bpf(c);
	mg_checker_event(c, &e);	/* the one record that arrived */
	mg_checker_import_floor(c, &sum);
	ASSERT_EQ(st->events, 10,
		  "checker: floor events judged in BPF are counted once, from BPF's counts");
	ASSERT_EQ(st->by_kind[MG_EV_FLOOR_SWAP], 10,
		  "checker: floor events judged in BPF are counted once, from BPF's counts");
	ASSERT_EQ(st->fine_checked, 10,
		  "checker: floor events judged in BPF are counted once, from BPF's counts");
	ASSERT_EQ(st->floor_checked, 10,
		  "checker: floor events judged in BPF are counted once, from BPF's counts");
	ASSERT_EQ(st->fine_undecided, 0,
		  "checker: floor events judged in BPF are counted once, from BPF's counts");
	ASSERT_EQ(st->inodes, 0,
		  "checker: floor events judged in BPF are counted once, from BPF's counts");
	ASSERT_EQ(st->violations[MG_V_FINE_UNNEEDED], 2,
		  "checker: BPF's unneeded fine stamps all count, the one whose record was lost too");
	ASSERT_EQ(mg_checker_faults(c), 2,
		  "checker: BPF's unneeded fine stamps all count, the one whose record was lost too");
	mg_checker_free(c);
}

/*
 * A floor violation has the kernel stack its record carries (bpf/floor.bpf.c takes it into
 * the stack map at the violation only: stack_id), judged in BPF or here, or says why not:
 * no stack map given, the walk failed in BPF, the map did not hold it. The map here is an
 * fd that is no map (/dev/null: no BPF in this stage), so its lookup fails.
 */
UNIT_TEST(checker_floor_stacks)
{
	struct mg_checker *c = mg_checker_new(16, 8);
	struct mg_event e = ev(MG_EV_FLOOR_SWAP, 3, 100, 5, 10);
	const struct mg_violation *v;
	int fd = open("/dev/null", O_RDONLY);
	size_t n;

	if (!ASSERT_GE(fd, 0, "open /dev/null") || !ASSERT_OK_PTR(c, "checker"))
		return;
	e.flags = MG_EVF_FINE_UNNEEDED | MG_EVF_IN_SET_CTIME;
	e.floor_known = 1;
	e.floor_before = 5000;
	e.floor_after = 6000;
	e.stack_id = 7;
	mg_checker_event(c, &e);	/* no stack map given */
	mg_checker_set_stacks(c, fd);
	e.stack_id = -EEXIST;		/* bpf_get_stackid() failed at the violation */
	mg_checker_event(c, &e);
	e.stack_id = 7;			/* taken, but the map cannot give it back */
	mg_checker_event(c, &e);
	e.stack_id = 0;			/* the probes took none */
	mg_checker_event(c, &e);
	e.flags = MG_EVF_JUDGED | MG_EVF_IN_SET_CTIME | MG_EVF_FINE_NEEDED;
	e.floor_after = 4000;		/* judged in BPF: a floor moving back */
	e.stack_id = -EFAULT;
	mg_checker_event(c, &e);
	e.floor_after = 6000;		/* no violation: its stack is never looked up */
	e.stack_id = 7;
	mg_checker_event(c, &e);
	v = mg_checker_reports(c, &n);
	if (!ASSERT_EQ(n, 5, "checker: five floor violations reported"))
		goto out;
	ASSERT_EQ(v[0].stack_why, MG_STACK_FLOOR, "checker: a floor violation without a stack map "
		  "says its record carries no stack");
	ASSERT_EQ(v[1].stack_why, MG_STACK_FAILED, "checker: a floor violation whose stack walk "
		  "failed in BPF says so");
	ASSERT_EQ(v[1].stack_err, -EEXIST, "checker: ... with bpf_get_stackid()'s error");
	ASSERT_HAS_SUBSTR(mg_stack_why_text(&v[1]), "(a hash collision in the stack map)",
			  "checker: ... named a hash collision");
	ASSERT_EQ(v[2].stack_why, MG_STACK_MAP_LOST, "checker: a floor violation's stack is looked "
		  "up in the stack map by its record's id");
	ASSERT_LT(v[2].stack_err, 0, "checker: ... and the lookup's error kept");
	ASSERT_EQ(v[3].stack_why, MG_STACK_FLOOR, "checker: a floor record with no stack id says "
		  "it carries none");
	ASSERT_EQ(v[4].kind, MG_V_FLOOR_BACKWARD, "checker: a floor moving back, judged in BPF");
	ASSERT_EQ(v[4].stack_why, MG_STACK_FAILED, "checker: a floor violation judged in BPF has "
		  "its record's stack (here its failure)");
	ASSERT_EQ(v[4].stack_err, -EFAULT, "checker: ... with bpf_get_stackid()'s error");
out:
	close(fd);
	mg_checker_free(c);
}

/* Clock steps BPF saw: one per CPU merged; they explain a regression, never added up twice. */
UNIT_TEST(checker_kernel_steps)
{
	struct mg_checker *c = mg_checker_new(16, 8);
	const struct mg_check_stats *st = mg_checker_stats(c);
	struct mg_event e;

	mg_checker_judged_in_bpf(c);
	mg_checker_kernel_step(c, 1000, 5000, -600000, -400000);	/* CPU 0 */
	mg_checker_kernel_step(c, 2000, 6000, -550000, -450000);	/* CPU 1: the same step */
	mg_checker_kernel_step(c, 9000, 9500, 300000, 310000);		/* a later one, forward */
	ASSERT_EQ(st->kernel_steps, 2, "checker: a step seen by two CPUs is one step");
	ASSERT_EQ(st->kernel_step_records, 3, "checker: a step seen by two CPUs is one step");
	/* across the step (at most 0.55 ms back): a fall of 0.5 ms is explained; one of 1 ms
	 * is not (it would be, were the two CPUs' records added up) */
	e = swap_ev(9, 100, 600000, 0, 0, 500); mg_checker_event(c, &e);
	e = swap_ev(9, 100, 100000, 0, 0, 1000007500ull); mg_checker_event(c, &e);
	e = swap_ev(10, 100, 1100000, 0, 0, 500); mg_checker_event(c, &e);
	e = swap_ev(10, 100, 100000, 0, 0, 1000007500ull); mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 2,
		  "checker: a BPF-seen step explains a fall up to its size, "
		  "counted once");
	ASSERT_EQ(st->explained[MG_V_REGRESSION], 1,
		  "checker: a BPF-seen step explains a fall up to its size, "
		  "counted once");
	ASSERT_EQ(mg_checker_faults(c), 1,
		  "checker: a BPF-seen step explains a fall up to its size, "
		  "counted once");
	mg_checker_free(c);
}

/* A regression observed at t_ns a then b (ns), ctime (sec, nsec) then (sec2, nsec2). */
static struct mg_violation regression(uint64_t a, uint64_t b, int64_t sec, uint32_t nsec,
				       int64_t sec2, uint32_t nsec2)
{
	struct mg_violation v = { .kind = MG_V_REGRESSION, .ino = 42 };

	v.earlier.ctime = (struct mg_ts){ sec, nsec };
	v.earlier.t_ns = a;
	v.later.ctime = (struct mg_ts){ sec2, nsec2 };
	v.later.t_ns = b;
	return v;
}

/* Many clock steps: every one kept up to the bound, and what fails the check is reported. */
UNIT_TEST(checker_many_steps)
{
	struct mg_checker *c = mg_checker_new(16, 2);
	const struct mg_check_stats *st = mg_checker_stats(c);
	const struct mg_violation *r;
	struct mg_violation v;
	size_t i, n;

	/* 5000 steps of 20 us, back and forth (more than the 4096 kept until 2026-12-01),
	 * then one of 1 ms back: a fall of 0.5 ms across it is explained */
	for (i = 0; i < 5000; i++)
		mg_checker_kernel_step(c, 1000000 + i * 10000, 1000000 + i * 10000 + 100,
				       (i & 1) ? 19000 : -21000, (i & 1) ? 21000 : -19000);
	mg_checker_kernel_step(c, 100000000, 100000100, -1000100, -999900);
	ASSERT_EQ(st->kernel_steps, 5001, "checker: 5001 distinct steps seen in BPF");
	v = regression(99000000, 101000000, 100, 1000000, 100, 500000);
	mg_checker_add(c, &v);
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 1,
		  "checker: the 5001st step explains a fall across it (explained %llu of %llu)",
		  (unsigned long long)st->explained[MG_V_REGRESSION],
		  (unsigned long long)st->violations[MG_V_REGRESSION]);
	ASSERT_EQ(st->explained[MG_V_REGRESSION], 1,
		  "checker: the 5001st step explains a fall across it (explained %llu of %llu)",
		  (unsigned long long)st->explained[MG_V_REGRESSION],
		  (unsigned long long)st->violations[MG_V_REGRESSION]);
	/* the reports (2 here) are full of explained ones: an unexplained one takes a place */
	v = regression(99000000, 101000000, 100, 900000, 100, 500000);
	mg_checker_add(c, &v);
	v = regression(200000000, 200001000, 100, 900000, 100, 500000);	/* no step */
	mg_checker_add(c, &v);
	r = mg_checker_reports(c, &n);
	ASSERT_EQ(n, 2,
		  "checker: a violation no step explains is reported when the reports are full "
		  "(%zu reports, explained %d %d)", n, r[0].step_explained, n > 1 && r[1].step_explained);
	ASSERT_TRUE((!r[0].step_explained || !r[1].step_explained),
		    "checker: a violation no step explains is reported when the reports are full "
		    "(%zu reports, explained %d %d)", n, r[0].step_explained, n > 1 && r[1].step_explained);
	ASSERT_EQ(mg_checker_faults(c), 1,
		  "checker: a violation no step explains is reported when the reports are full "
		  "(%zu reports, explained %d %d)", n, r[0].step_explained, n > 1 && r[1].step_explained);
	mg_checker_free(c);

	/* judged in user space: a regression after a step back that the clock samples
	 * recorded is filed as the step's, as BPF files it (not as overlapping updates) */
	c = mg_checker_new(16, 2);
	st = mg_checker_stats(c);
	{
		struct mg_event e = swap_ev(3, 110, 700, 0, 600, 1000);

		mg_checker_event(c, &e);
		mg_checker_clock_step(c, 1200, 1300, -10000000400ll);
		e = swap_ev(3, 100, 300, 0, 200, 1500);
		mg_checker_event(c, &e);
	}
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 1, "checker: user space files a fall after a "
		  "sampled step back as the step's (violations %llu, explained %llu, undecided %llu)",
		  (unsigned long long)st->violations[MG_V_REGRESSION],
		  (unsigned long long)st->explained[MG_V_REGRESSION],
		  (unsigned long long)st->benign[MG_B_CONCURRENT_UNDECIDED]);
	ASSERT_EQ(st->explained[MG_V_REGRESSION], 1, "checker: user space files a fall after a "
		  "sampled step back as the step's (violations %llu, explained %llu, undecided %llu)",
		  (unsigned long long)st->violations[MG_V_REGRESSION],
		  (unsigned long long)st->explained[MG_V_REGRESSION],
		  (unsigned long long)st->benign[MG_B_CONCURRENT_UNDECIDED]);
	ASSERT_EQ(st->benign[MG_B_CONCURRENT_UNDECIDED], 0,
		  "checker: user space files a fall after a "
		  "sampled step back as the step's (violations %llu, explained %llu, undecided %llu)",
		  (unsigned long long)st->violations[MG_V_REGRESSION],
		  (unsigned long long)st->explained[MG_V_REGRESSION],
		  (unsigned long long)st->benign[MG_B_CONCURRENT_UNDECIDED]);
	/* past the bound a step is not kept: counted as lost (inconclusive), not dropped */
	for (i = 0; i < MG_STEPS_MAX + 2; i++)	/* one more is kept above */
		mg_checker_clock_step(c, i * 10, i * 10 + 5, -1000);
	ASSERT_EQ(st->steps_not_kept, 3, "checker: 3 steps past the bound are "
		  "counted (not kept %llu, lost %llu)", (unsigned long long)st->steps_not_kept,
		  (unsigned long long)st->lost);
	ASSERT_GE(st->lost, 3, "checker: 3 steps past the bound are "
		  "counted (not kept %llu, lost %llu)", (unsigned long long)st->steps_not_kept,
		  (unsigned long long)st->lost);
	mg_checker_free(c);

	/* a preempted update: its clock was read after its entry, its event came 20 ms later,
	 * after the window of a 10 s step back; the next update's value is 10 s earlier. With
	 * the entry time the step explains it (the first read may precede the step); without,
	 * the step lies before the earlier event: only near it, undecided (a checker that
	 * ignores the entry time fails the first case) */
	for (i = 0; i < 2; i++) {
		struct mg_checker *k = mg_checker_new(16, 4);
		const struct mg_check_stats *ks = mg_checker_stats(k);

		mg_checker_clock_step(k, 86792269230ull, 86848312877ull, -10822893925ll);
		v = regression(86848684762ull, 86848855077ull, 1796124820, 827987067,
			       1796124810, 25959810);
		if (i == 0)
			v.earlier.entry_ns = 86827994919ull;
		mg_checker_add(k, &v);
		ASSERT_EQ(ks->explained[MG_V_REGRESSION], i == 0 ? 1u : 0u,
			  "checker: a step after a preempted update's entry, before its event: %s "
			  "(explained %llu, undecided %llu)", i == 0 ? "explained with the entry time" :
			  "undecided without it", (unsigned long long)ks->explained[MG_V_REGRESSION],
			  (unsigned long long)ks->undecided[MG_V_REGRESSION]);
		ASSERT_EQ(ks->undecided[MG_V_REGRESSION], i == 0 ? 0u : 1u,
			  "checker: a step after a preempted update's entry, before its event: %s "
			  "(explained %llu, undecided %llu)", i == 0 ? "explained with the entry time" :
			  "undecided without it", (unsigned long long)ks->explained[MG_V_REGRESSION],
			  (unsigned long long)ks->undecided[MG_V_REGRESSION]);
		mg_checker_free(k);
	}
}

UNIT_TEST(checker)
{
	struct mg_checker *c = mg_checker_new(16, 8);
	const struct mg_check_stats *st;
	const struct mg_violation *v;
	struct mg_event e;
	size_t n;
	const uint32_t Q = MG_I_CTIME_QUERIED;

	/* clean: stat, queried update to a later time, stat of the new value */
	e = ev(MG_EV_STAT, 1, 100, 500, 10); mg_checker_event(c, &e);
	e = swap_ev(1, 100, 900, 500 | Q, 500 | Q, 20); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 1, 100, 900, 30); mg_checker_event(c, &e);
	e = swap_ev(1, 101, 5, 900 | Q, 900 | Q, 40); mg_checker_event(c, &e);
	st = mg_checker_stats(c);
	ASSERT_EQ(mg_checker_faults(c), 0, "checker: a clean sequence passes (4 events, 1 inode)");
	ASSERT_EQ(st->events, 4, "checker: a clean sequence passes (4 events, 1 inode)");
	ASSERT_EQ(st->inodes, 1, "checker: a clean sequence passes (4 events, 1 inode)");

	/* a getattr that raced with the last update: stale by one, tolerated */
	e = ev(MG_EV_STAT, 1, 100, 900, 45); mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 0, "checker: a stale-by-one read is tolerated");
	ASSERT_EQ(st->benign[MG_B_STALE_READ], 1, "checker: a stale-by-one read is tolerated");

	/* a swap delivered after the swap that replaced its value: reordered, tolerated */
	e = swap_ev(2, 50, 10, 0, 0, 50); mg_checker_event(c, &e);
	e = swap_ev(2, 50, 30, 20, 20, 52); mg_checker_event(c, &e);
	e = swap_ev(2, 50, 20, 10, 10, 51); mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 0, "checker: a reordered swap is tolerated");
	ASSERT_EQ(st->benign[MG_B_REORDERED], 1, "checker: a reordered swap is tolerated");

	/* invariant 1: a real regression (two steps back, not stale by one) fails */
	e = ev(MG_EV_STAT, 1, 99, 1, 2000000060ull); mg_checker_event(c, &e);
	mg_checker_finish(c);	/* a held getattr is judged at the end */
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 1, "checker: a ctime regression is a violation");
	ASSERT_EQ(mg_checker_faults(c), 1, "checker: a ctime regression is a violation");
	v = mg_checker_reports(c, &n);
	ASSERT_EQ(n, 1, "checker: the report names the inode, both values, pid and comm");
	ASSERT_EQ(v[0].kind, MG_V_REGRESSION,
		  "checker: the report names the inode, both values, pid and comm");
	ASSERT_EQ(v[0].earlier.ctime.sec, 101,
		  "checker: the report names the inode, both values, pid and comm");
	ASSERT_EQ(v[0].earlier.ctime.nsec, 5,
		  "checker: the report names the inode, both values, pid and comm");
	ASSERT_EQ(v[0].later.ctime.sec, 99,
		  "checker: the report names the inode, both values, pid and comm");
	ASSERT_EQ(v[0].ino, 1, "checker: the report names the inode, both values, pid and comm");
	ASSERT_EQ(v[0].later.pid, 42,
		  "checker: the report names the inode, both values, pid and comm");
	ASSERT_STREQ(v[0].later.comm, "unit",
		     "checker: the report names the inode, both values, pid and comm");
	ASSERT_STREQ(v[0].name, "f",
		     "checker: the report names the inode, both values, pid and comm");

	/* stale-by-one read arriving too late (> 1 s) is not tolerated */
	e = swap_ev(3, 10, 100, 0, 0, 1000); mg_checker_event(c, &e);
	e = swap_ev(3, 10, 200, 100, 100, 2000); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 3, 10, 100, 2000 + 2000000000ull); mg_checker_event(c, &e);
	mg_checker_finish(c);	/* a held getattr is judged at the end */
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 2, "checker: a stale read 2 s late is a regression");

	/* invariant 2: an update of a QUERIED ctime that is not later fails */
	e = ev(MG_EV_STAT, 4, 20, 700, 3000); mg_checker_event(c, &e);
	e = swap_ev(4, 20, 700, 700 | Q, 700 | Q, 3001); mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_NOT_LATER], 1, "checker: QUERIED update to an equal ctime is a violation");

	/* invariant 2: a skip after a getattr that finished before the update began fails */
	e = ev(MG_EV_STAT, 5, 30, 1, 3990); mg_checker_event(c, &e);
	e = ev(MG_EV_CTIME_SKIP, 5, 30, 1, 4000); e.entry_ns = 3995; mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_SKIP_AFTER_QUERY], 1, "checker: a skip after a query that preceded the update is a violation (%llu)",
		  (unsigned long long)st->violations[MG_V_SKIP_AFTER_QUERY]);
	/* without the update's entry time the order of query and decision is unknown */
	e = ev(MG_EV_CTIME_SKIP, 5, 30, 1, 4001); mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_SKIP_AFTER_QUERY], 1,
		  "checker: a skip whose query may have come after the decision is undecided");
	ASSERT_EQ(st->benign[MG_B_SKIP_UNDECIDED], 1,
		  "checker: a skip whose query may have come after the decision is undecided");
	/* the query ended after the update began: concurrent, not a fault */
	e = ev(MG_EV_CTIME_SKIP, 5, 30, 1, 4002); e.entry_ns = 3980; mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_SKIP_AFTER_QUERY], 1,
		  "checker: a skip concurrent with the query is undecided");
	ASSERT_EQ(st->benign[MG_B_SKIP_UNDECIDED], 2,
		  "checker: a skip concurrent with the query is undecided");

	/* invariant 5 (at 100 s, after the other cases' times): a regression across a backward
	 * realtime step is attributed to it */
	e = swap_ev(6, 1000, 5, 0, 0, 100000000000ull + 5000); mg_checker_event(c, &e);
	mg_checker_clock_step(c, 100000000000ull + 5500, 100000000000ull + 5600, -3000000000ll);
	e = swap_ev(6, 997, 1, 9, 9, 100000000000ull + 6000); e.entry_ns = 100000000000ull + 5900; mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 3,
		  "checker: a regression after a backward clock step is explained");
	ASSERT_EQ(st->explained[MG_V_REGRESSION], 1,
		  "checker: a regression after a backward clock step is explained");
	ASSERT_EQ(mg_checker_faults(c), 4,
		  "checker: a regression after a backward clock step is explained");
	v = mg_checker_reports(c, &n);
	ASSERT_GE(n, 5, "checker: the report carries the step (-3 s)");
	ASSERT_TRUE(v[n - 1].step_explained, "checker: the report carries the step (-3 s)");
	ASSERT_EQ(v[n - 1].step_ns, -3000000000ll, "checker: the report carries the step (-3 s)");
	/* the same regression with the step before both observations, 2 us before: not
	 * explained, but within MG_STEP_NEAR_NS of a step of its size: undecided (a step and
	 * its return may lie between a clock read and its observation), not a fault */
	e = swap_ev(7, 1000, 5, 0, 0, 100000000000ull + 7000); mg_checker_event(c, &e);
	e = swap_ev(7, 999, 3, 9, 9, 100000000000ull + 8000); e.entry_ns = 100000000000ull + 7900; mg_checker_event(c, &e);
	ASSERT_EQ(st->explained[MG_V_REGRESSION], 1,
		  "checker: a step just outside the window leaves the "
		  "regression undecided");
	ASSERT_EQ(st->undecided[MG_V_REGRESSION], 1,
		  "checker: a step just outside the window leaves the "
		  "regression undecided");
	ASSERT_EQ(mg_checker_faults(c), 4, "checker: a step just outside the window leaves the "
		  "regression undecided");
	/* ... and 20 ms after the step, a fault */
	e = swap_ev(7, 1000, 5, 0, 0, 100000000000ull + 20007000); mg_checker_event(c, &e);
	e = swap_ev(7, 999, 3, 9, 9, 100000000000ull + 20008000); e.entry_ns = 100000000000ull + 20007900; mg_checker_event(c, &e);
	ASSERT_EQ(st->explained[MG_V_REGRESSION], 1,
		  "checker: a step 20 ms before both observations "
		  "explains nothing");
	ASSERT_EQ(st->undecided[MG_V_REGRESSION], 1,
		  "checker: a step 20 ms before both observations "
		  "explains nothing");
	ASSERT_EQ(mg_checker_faults(c), 5, "checker: a step 20 ms before both observations "
		  "explains nothing");

	/* a getattr stamped before the swap delivered ahead of it (signed times): stale */
	e = swap_ev(8, 50, 100, 0, 0, 1000); mg_checker_event(c, &e);
	e = swap_ev(8, 50, 200, 100, 100, 2000); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 8, 50, 100, 1900); mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 5,
		  "checker: swap at 2000 ns A->B, stat at 1900 ns showing A: a tolerated stale read "
		  "(faults %llu want 5, stale %llu want 2)", (unsigned long long)mg_checker_faults(c),
		  (unsigned long long)st->benign[MG_B_STALE_READ]);
	ASSERT_EQ(st->benign[MG_B_STALE_READ], 2,
		  "checker: swap at 2000 ns A->B, stat at 1900 ns showing A: a tolerated stale read "
		  "(faults %llu want 5, stale %llu want 2)", (unsigned long long)mg_checker_faults(c),
		  (unsigned long long)st->benign[MG_B_STALE_READ]);

	/* a getattr delayed across several updates (stale by three) within the window */
	e = swap_ev(16, 90, 100, 0, 0, 10000); mg_checker_event(c, &e);
	e = swap_ev(16, 90, 200, 100, 100, 10100); mg_checker_event(c, &e);
	e = swap_ev(16, 90, 300, 200, 200, 10200); mg_checker_event(c, &e);
	e = swap_ev(16, 90, 400, 300, 300, 10300); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 16, 90, 100, 10400); mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 5,
		  "checker: a getattr stale by three updates within 1 s is tolerated (faults %llu, "
		  "stale %llu)", (unsigned long long)mg_checker_faults(c),
		  (unsigned long long)st->benign[MG_B_STALE_READ]);
	ASSERT_EQ(st->benign[MG_B_STALE_READ], 3,
		  "checker: a getattr stale by three updates within 1 s is tolerated (faults %llu, "
		  "stale %llu)", (unsigned long long)mg_checker_faults(c),
		  (unsigned long long)st->benign[MG_B_STALE_READ]);
	/* ... but a value replaced 2 s before the getattr's event is a regression */
	e = swap_ev(16, 90, 500, 400, 400, 10500); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 16, 90, 400, 10500 + 2000000000ull); mg_checker_event(c, &e);
	mg_checker_finish(c);	/* a held getattr is judged at the end */
	ASSERT_EQ(mg_checker_faults(c), 6, "checker: a value replaced 2 s before the read is a regression");

	/* torn getattr: the old seconds with the new nanoseconds, across a second boundary */
	e = swap_ev(9, 60, 999999000, 0, 0, 1000); mg_checker_event(c, &e);
	e = swap_ev(9, 61, 1000, 999999000, 999999000, 2000); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 9, 60, 1000, 2001); mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 6,
		  "checker: a torn getattr (old sec, new nsec) is counted, not a fault");
	ASSERT_EQ(st->benign[MG_B_TORN_READ], 1,
		  "checker: a torn getattr (old sec, new nsec) is counted, not a fault");

	/* a swap whose seconds BPF could not tie to it is not judged */
	e = swap_ev(9, 1, 5, 1000, 1000, 2100); e.flags = MG_EVF_SEC_UNSURE; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 6,
		  "checker: a swap with unsure seconds is counted, not judged");
	ASSERT_EQ(st->benign[MG_B_SEC_UNSURE], 1,
		  "checker: a swap with unsure seconds is counted, not judged");

	/* granularity: ext4 with 128-byte inodes keeps seconds (s_time_gran 1e9) */
	e = ev(MG_EV_STAT, 10, 70, 0, 3000); e.time_gran = 1000000000; mg_checker_event(c, &e);
	e = swap_ev(10, 70, 0, Q, Q, 3001); e.time_gran = 1000000000; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 6,
		  "checker: an equal ctime after a query at 1 s granularity is not a fault");
	ASSERT_EQ(st->benign[MG_B_GRANULARITY], 1,
		  "checker: an equal ctime after a query at 1 s granularity is not a fault");
	/* the same at 1 ns granularity is one */
	e = ev(MG_EV_STAT, 11, 70, 5, 3000); e.time_gran = 1; mg_checker_event(c, &e);
	e = swap_ev(11, 70, 5, 5 | Q, 5 | Q, 3001); e.time_gran = 1; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 7,
		  "checker: an equal ctime after a query at 1 ns granularity is a violation");
	ASSERT_EQ(st->violations[MG_V_NOT_LATER], 2,
		  "checker: an equal ctime after a query at 1 ns granularity is a violation");

	/* a stored ctime from 2035, replaced by the clock's 2026 time: not a fault */
	mg_checker_set_tai_offset(c, 37000000000ll);
	e = ev(MG_EV_STAT, 12, 2051222400, 0, 5000);	/* 2035-01-01 */
	e.tai_ns = 1796000000ull * 1000000000ull + 37000000000ull; mg_checker_event(c, &e);
	e = swap_ev(12, 1796000000, 7, Q, Q, 5001);	/* 2026-11 */
	e.tai_ns = 1796000000ull * 1000000000ull + 37000000010ull; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 7,
		  "checker: a stored ctime later than the clock, replaced, is not a fault");
	ASSERT_EQ(st->benign[MG_B_FUTURE_CTIME], 1,
		  "checker: a stored ctime later than the clock, replaced, is not a fault");
	/* the same fall from a ctime the kernel's clock gave is a regression */
	e = swap_ev(13, 2051222400, 0, 0, 0, 5000);
	e.tai_ns = 1796000000ull * 1000000000ull + 37000000000ull; mg_checker_event(c, &e);
	e = swap_ev(13, 1796000000, 7, Q, Q, 5001); e.entry_ns = 5001;
	e.tai_ns = 1796000000ull * 1000000000ull + 37000000010ull; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 8, "checker: a fall from a clock-given future ctime is a fault");

	/* a 0.5 ms backward step BPF's clock bracket found between the two events (a record,
	 * also with --judge user) explains a 0.3 ms fall; the events' offsets agree (at
	 * 1000 s of CLOCK_MONOTONIC: past every other case's events, which a step leaves
	 * undecided from 10 ms after their earlier observation on) */
#define T1000 1000000000000ull
	mg_checker_kernel_step(c, T1000 + 6200, T1000 + 6800, -500100, -499900);
	e = swap_ev(14, 80, 900000, 0, 0, T1000 + 6000); e.tai_ns = T1000 + 6000 + T1000;
	mg_checker_event(c, &e);
	e = swap_ev(14, 80, 600000, 0, 0, T1000 + 7000);
	e.tai_ns = T1000 + 7000 + T1000 - 500000; e.entry_ns = T1000 + 6500;
	mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 8,
		  "checker: a fall within a step BPF bracketed between the events is explained");
	ASSERT_EQ(st->explained[MG_V_REGRESSION], 2,
		  "checker: a fall within a step BPF bracketed between the events is explained");
	/* ... but not a 2 ms fall */
	e = swap_ev(15, 80, 3000000, 0, 0, T1000 + 6000); e.tai_ns = T1000 + 6000 + T1000;
	mg_checker_event(c, &e);
	e = swap_ev(15, 80, 1000000, 0, 0, T1000 + 7000);
	e.tai_ns = T1000 + 7000 + T1000 - 500000; e.entry_ns = T1000 + 6500;
	mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 9, "checker: a fall larger than the step is a fault");
#undef T1000
	/*
	 * Two events' own offsets (TAI read after MONOTONIC) prove no step: each is the
	 * offset plus the time between its reads, and a read late by an interrupt or a
	 * preempted vCPU makes any fall. A CI machine's --judge user run had one of 41
	 * equal ctimes after a query "explained" by such a fall (past the 10 us the old
	 * rule took for a step); only a step record explains one.
	 */
	{
		struct mg_checker *j = mg_checker_new(16, 8);
		const struct mg_check_stats *js = j ? mg_checker_stats(j) : NULL;

		if (!ASSERT_OK_PTR(j, "checker: a second checker"))
			return;
		e = ev(MG_EV_STAT, 1, 90, 5, 7100); e.time_gran = 1;
		e.tai_ns = 7100 + 1000000000000ull; mg_checker_event(j, &e);
		e = swap_ev(1, 90, 5, 5 | Q, 5 | Q, 7200); e.time_gran = 1;
		e.tai_ns = 7200 + 1000000000000ull - 60; mg_checker_event(j, &e);
		ASSERT_EQ(mg_checker_faults(j), 1,
			  "checker: an offset 60 ns lower (read jitter) explains no equal ctime after a "
			  "query (explained %llu)", (unsigned long long)js->explained[MG_V_NOT_LATER]);
		ASSERT_EQ(js->explained[MG_V_NOT_LATER], 0,
			  "checker: an offset 60 ns lower (read jitter) explains no equal ctime after a "
			  "query (explained %llu)", (unsigned long long)js->explained[MG_V_NOT_LATER]);
		e = ev(MG_EV_STAT, 2, 90, 5, 7300); e.time_gran = 1;
		e.tai_ns = 7300 + 1000000000000ull + 20000; mg_checker_event(j, &e);
		e = swap_ev(2, 90, 5, 5 | Q, 5 | Q, 7400); e.time_gran = 1;
		e.tai_ns = 7400 + 1000000000000ull; mg_checker_event(j, &e);
		ASSERT_EQ(mg_checker_faults(j), 2,
			  "checker: an offset 20 us lower (the earlier TAI read late) explains nothing "
			  "(explained %llu)", (unsigned long long)js->explained[MG_V_NOT_LATER]);
		ASSERT_EQ(js->explained[MG_V_NOT_LATER], 0,
			  "checker: an offset 20 us lower (the earlier TAI read late) explains nothing "
			  "(explained %llu)", (unsigned long long)js->explained[MG_V_NOT_LATER]);
		/* must-explain direction: the same with BPF's record of a 20 us step between */
		mg_checker_kernel_step(j, 7520, 7580, -20100, -19900);
		e = ev(MG_EV_STAT, 3, 90, 5, 7500); e.time_gran = 1;
		e.tai_ns = 7500 + 1000000000000ull; mg_checker_event(j, &e);
		e = swap_ev(3, 90, 5, 5 | Q, 5 | Q, 7600); e.time_gran = 1;
		e.tai_ns = 7600 + 1000000000000ull - 20000; mg_checker_event(j, &e);
		ASSERT_EQ(mg_checker_faults(j), 2,
			  "checker: BPF's record of a 20 us step between the two events explains it "
			  "(explained %llu)", (unsigned long long)js->explained[MG_V_NOT_LATER]);
		ASSERT_EQ(js->explained[MG_V_NOT_LATER], 1,
			  "checker: BPF's record of a 20 us step between the two events explains it "
			  "(explained %llu)", (unsigned long long)js->explained[MG_V_NOT_LATER]);
		mg_checker_free(j);
	}

	/* floor: mg_floor lower at exit than at entry is a move back */
	e = ev(MG_EV_FLOOR_SWAP, 0, 80, 1, 8000); e.floor_known = 1;
	e.floor_before = 5000; e.floor_after = 6000; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 9, "checker: a floor moving on passes");
	ASSERT_EQ(st->floor_checked, 1, "checker: a floor moving on passes");
	e.floor_before = 6000; e.floor_after = 5999; mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_FLOOR_BACKWARD], 1,
		  "checker: a floor moving back is a violation");
	ASSERT_EQ(mg_checker_faults(c), 10, "checker: a floor moving back is a violation");
	/* an unnecessary fine stamp (decided in BPF) */
	e = ev(MG_EV_FLOOR_SWAP, 0, 80, 1, 8001);
	e.flags = MG_EVF_IN_SET_CTIME | MG_EVF_FINE_NEEDED; mg_checker_event(c, &e);
	e.flags = MG_EVF_IN_SET_CTIME; mg_checker_event(c, &e);
	ASSERT_EQ(st->fine_checked, 1,
		  "checker: needed and undecided fine stamps pass (the two floor events above, "
		  "outside a known inode_set_ctime_current, are undecided too)");
	ASSERT_EQ(st->fine_undecided, 3,
		  "checker: needed and undecided fine stamps pass (the two floor events above, "
		  "outside a known inode_set_ctime_current, are undecided too)");
	ASSERT_EQ(mg_checker_faults(c), 10,
		  "checker: needed and undecided fine stamps pass (the two floor events above, "
		  "outside a known inode_set_ctime_current, are undecided too)");
	e.flags = MG_EVF_IN_SET_CTIME | MG_EVF_FINE_UNNEEDED; mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_FINE_UNNEEDED], 1,
		  "checker: an unnecessary fine stamp is a violation");
	ASSERT_EQ(mg_checker_faults(c), 11, "checker: an unnecessary fine stamp is a violation");

	/* overlapping updates: the later swap began before the earlier value's event */
	e = swap_ev(3, 20, 500, 0, 0, 20000); mg_checker_event(c, &e);
	e = swap_ev(3, 20, 400, 500, 500, 20100); e.entry_ns = 19990; mg_checker_event(c, &e);
	ASSERT_EQ(st->benign[MG_B_CONCURRENT], 1, "checker: an older ctime from an overlapping update "
		  "is counted as concurrent");
	e = swap_ev(3, 20, 300, 400, 400, 20200); mg_checker_event(c, &e);
	ASSERT_EQ(st->benign[MG_B_CONCURRENT_UNDECIDED], 1, "checker: without the entry time it is "
		  "undecided within 1 s");
	e = swap_ev(3, 20, 200, 300, 300, 20300); e.entry_ns = 20250; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 12, "checker: an older ctime from an update that began after "
		  "the newer value's event is a regression");

	/* a getattr of a concurrent update's value, delivered before that update's swap */
	e = swap_ev(4, 30, 900, 0, 0, 30000); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 4, 30, 800, 30050); mg_checker_event(c, &e);
	e = swap_ev(4, 30, 800, 900, 900, 30100); e.entry_ns = 29990; mg_checker_event(c, &e);
	ASSERT_EQ(st->benign[MG_B_CONCURRENT_READ], 1, "checker: a getattr of a concurrent "
		  "update's value delivered before its swap is counted, not a fault");
	ASSERT_EQ(mg_checker_faults(c), 12, "checker: ... and no fault");
	/* a getattr of an older value no update installed: undecided within 1 s ... */
	e = ev(MG_EV_STAT, 4, 30, 700, 30200); mg_checker_event(c, &e);
	mg_checker_finish(c);
	ASSERT_EQ(st->benign[MG_B_UNSEEN], 1, "checker: an older getattr with no swap behind it, "
		  "within 1 s of the newer value, is undecided");
	/* ... and a regression 2 s after the newer value */
	e = ev(MG_EV_STAT, 4, 30, 600, 30200 + 2000000000ull); mg_checker_event(c, &e);
	mg_checker_finish(c);
	ASSERT_EQ(mg_checker_faults(c), 13, "checker: an older getattr with no swap behind it, "
		  "2 s after the newer value, is a regression");

	/* a skip delivered after the swap that replaced the value it decided on: stale */
	e = swap_ev(2, 60, 100, 0, 0, 40000); mg_checker_event(c, &e);
	e = swap_ev(2, 60, 200, 100, 100, 40100); mg_checker_event(c, &e);
	e = ev(MG_EV_CTIME_SKIP, 2, 60, 100, 40050); mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 13, "checker: a skip delivered after the swap that replaced "
		  "its value is a stale observation, not a regression");

	/* a reordered swap's value, then a getattr of it: the inode held it, a stale read */
	e = swap_ev(5, 70, 100, 0, 0, 50000); mg_checker_event(c, &e);
	e = swap_ev(5, 70, 300, 200, 200, 50100); mg_checker_event(c, &e);	/* replaced 200 */
	e = swap_ev(5, 70, 200, 100, 100, 50050); mg_checker_event(c, &e);	/* reordered */
	e = ev(MG_EV_STAT, 5, 70, 200, 50060); mg_checker_event(c, &e);
	mg_checker_finish(c);
	ASSERT_EQ(mg_checker_faults(c), 13, "checker: a getattr of a reordered swap's value is a "
		  "stale read");

	/* lost events are counted (the verdict turns inconclusive in check.c) */
	mg_checker_lost(c, 3);
	ASSERT_EQ(st->lost, 3, "checker: lost events are counted");
	mg_checker_free(c);

	/* the inode bound: events beyond it are untracked, not dropped silently */
	c = mg_checker_new(2, 1);
	for (int i = 0; i < 4; i++) {
		e = ev(MG_EV_STAT, 100 + i, 1, 1, i);
		mg_checker_event(c, &e);
	}
	st = mg_checker_stats(c);
	ASSERT_EQ(st->inodes, 2, "checker: 2 inodes tracked, 2 events untracked");
	ASSERT_EQ(st->untracked_events, 2, "checker: 2 inodes tracked, 2 events untracked");
	mg_checker_free(c);
}

/*
 * A creation judged under a key of its own (first: the creation swap to 2000.000000500,
 * at 1 s), then a swap of inode 5, generation 7, at address addr to 1999 and to
 * 2001.000000500 (at 3 s): the key with the number and generation takes the creation's
 * entry (as bpf/mg_judge.bpf.h mg_judge_adopt()), so the first is a regression below the
 * creation's ctime and the second none; one inode either way.
 */
static void creation_taken(struct mg_event first, uint64_t addr, const char *what)
{
	int64_t later[] = { 1999, 2001 };

	for (int i = 0; i < 2; i++) {
		struct mg_checker *c = mg_checker_new(16, 8);
		const struct mg_check_stats *st = mg_checker_stats(c);
		struct mg_event e = first;

		mg_checker_event(c, &e);
		ASSERT_EQ(st->inodes, 1, "checker: %s: the creation swap is judged", what);
		ASSERT_EQ(st->no_ino_events, 0, "checker: %s: the creation swap is judged", what);
		e = swap_ev(5, later[i], 500, 100, 100, 3000000000ull);
		e.inode_addr = addr;
		mg_checker_event(c, &e);
		ASSERT_EQ(st->creation_taken, 1,
			  "checker: %s: number 5, generation 7 takes its creation's entry, one inode "
			  "(%s)", what, i ? "later" : "earlier");
		ASSERT_EQ(st->inodes, 1,
			  "checker: %s: number 5, generation 7 takes its creation's entry, one inode "
			  "(%s)", what, i ? "later" : "earlier");
		ASSERT_EQ(st->violations[MG_V_REGRESSION], (i ? 0u : 1u),
			  "checker: %s: a swap to %lld after the creation's 2000: %s", what,
			  (long long)later[i], i ? "no regression" : "one regression");
		mg_checker_free(c);
	}
}

/*
 * A new ext4 or tmpfs inode: its creation swap carries generation 0 (the times are stamped
 * before i_generation is set), its next events the generation; another address, or a key
 * already seen, takes nothing.
 */
UNIT_TEST(checker_creation_generation0)
{
	struct mg_event e = swap_ev(5, 2000, 500, 100, 100, 1000000000ull);
	struct mg_checker *c = mg_checker_new(16, 8);
	const struct mg_check_stats *st = mg_checker_stats(c);

	e.gen = 0;
	e.inode_addr = 0xffff888000001000ull;
	creation_taken(e, e.inode_addr, "generation 0");
	e = swap_ev(5, 1000, 500, 100, 100, 4000000000ull);
	e.gen = 0;
	e.inode_addr = 0xffff888000002000ull;	/* another struct inode, number 5 */
	mg_checker_event(c, &e);
	e.gen = 7;
	e.ts_ns = 5000000000ull;
	mg_checker_event(c, &e);
	e.inode_addr = 0xffff888000001000ull;	/* generation 7 at the first address: new */
	e.ts_ns = 6000000000ull;
	mg_checker_event(c, &e);
	ASSERT_EQ(st->creation_taken, 1, "checker: each address's creation is its own");
	ASSERT_EQ(st->inodes, 2, "checker: each address's creation is its own");
	mg_checker_free(c);
}

/*
 * A new xfs inode: its creation swap carries number 0 (the times are stamped before
 * xfs_setup_inode() sets i_ino), its generation already set. Judged under (dev, 0, gen,
 * address) when the address is known. A number-0 event that is no swap (xfs loading an
 * inode, overlayfs copying one), or whose address is not known, is counted and not judged;
 * another generation takes nothing.
 */
UNIT_TEST(checker_creation_number0)
{
	const uint64_t addr = 0xffff888000003000ull;
	struct mg_event e = swap_ev(0, 2000, 500, 100, 100, 1000000000ull);
	struct mg_checker *c = mg_checker_new(16, 8);
	const struct mg_check_stats *st = mg_checker_stats(c);

	e.inode_addr = addr;
	creation_taken(e, addr, "number 0");
	e = ev(MG_EV_CTIME_SET, 0, 3000, 0, 1000000000ull);
	e.inode_addr = addr;
	mg_checker_event(c, &e);		/* a set with number 0: an inode read in */
	e = swap_ev(0, 3000, 0, 100, 100, 2000000000ull);
	mg_checker_event(c, &e);		/* a swap with number 0, no address */
	ASSERT_EQ(st->no_ino_events, 2,
		  "checker: a set with number 0, and a swap with number 0 but no address, are counted, "
		  "not judged (%llu)", (unsigned long long)st->no_ino_events);
	ASSERT_EQ(st->inodes, 0,
		  "checker: a set with number 0, and a swap with number 0 but no address, are counted, "
		  "not judged (%llu)", (unsigned long long)st->no_ino_events);
	e = swap_ev(0, 2000, 500, 100, 100, 3000000000ull);
	e.inode_addr = addr;
	mg_checker_event(c, &e);
	e = swap_ev(5, 1999, 500, 100, 100, 4000000000ull);
	e.inode_addr = addr;
	e.gen = 8;				/* another generation: another inode */
	mg_checker_event(c, &e);
	ASSERT_EQ(st->creation_taken, 0,
		  "checker: a number-0 creation of generation 7 is not generation 8's");
	ASSERT_EQ(st->inodes, 2,
		  "checker: a number-0 creation of generation 7 is not generation 8's");
	ASSERT_FALSE(st->violations[MG_V_REGRESSION],
		     "checker: a number-0 creation of generation 7 is not generation 8's");
	mg_checker_free(c);
}

/*
 * The per-inode state keeps an observation's ctime and time, and a reference to its
 * context (thread, CPU, comm, entry time) in a ring of the last contexts it came to hold
 * (include/mg_rules.h struct mg_rseen): a regression's earlier observation has its
 * context while the ring holds it, and is marked lost (the verdict the same) once 65,536
 * later observations of the state overwrote it; an observation the state never held
 * takes no slot.
 */
UNIT_TEST(checker_context_ring)
{
	struct mg_checker *c = mg_checker_new(16, 8);
	const struct mg_violation *v;
	struct mg_event e;
	size_t n = 0;

	e = swap_ev(5, 2000, 500, 100, 100, 1000);
	e.pid = 4242;
	strcpy(e.comm, "early");
	mg_checker_event(c, &e);
	for (int i = 0; i < 1000; i++) {	/* getattrs of the latest ctime: kept nowhere */
		e = ev(MG_EV_STAT, 5, 2000, 500, 2000 + (uint64_t)i);
		mg_checker_event(c, &e);
	}
	e = swap_ev(5, 1999, 500, 100, 100, 2000000000ull);
	e.pid = 4243;
	mg_checker_event(c, &e);
	v = mg_checker_reports(c, &n);
	ASSERT_EQ(n, 1,
		  "checker: a regression's earlier observation has its context (pid %u, comm %s)",
		  n ? v[0].earlier.pid : 0, n ? v[0].earlier.comm : "-");
	ASSERT_EQ(v[0].kind, MG_V_REGRESSION,
		  "checker: a regression's earlier observation has its context (pid %u, comm %s)",
		  n ? v[0].earlier.pid : 0, n ? v[0].earlier.comm : "-");
	ASSERT_FALSE(v[0].earlier.ctx_lost,
		     "checker: a regression's earlier observation has its context (pid %u, comm %s)",
		     n ? v[0].earlier.pid : 0, n ? v[0].earlier.comm : "-");
	ASSERT_EQ(v[0].earlier.pid, 4242,
		  "checker: a regression's earlier observation has its context (pid %u, comm %s)",
		  n ? v[0].earlier.pid : 0, n ? v[0].earlier.comm : "-");
	ASSERT_STREQ(v[0].earlier.comm, "early",
		     "checker: a regression's earlier observation has its context (pid %u, comm %s)",
		     n ? v[0].earlier.pid : 0, n ? v[0].earlier.comm : "-");
	ASSERT_EQ(v[0].earlier.t_ns, 1000,
		  "checker: a regression's earlier observation has its context (pid %u, comm %s)",
		  n ? v[0].earlier.pid : 0, n ? v[0].earlier.comm : "-");
	ASSERT_EQ(v[0].later.pid, 4243,
		  "checker: a regression's earlier observation has its context (pid %u, comm %s)",
		  n ? v[0].earlier.pid : 0, n ? v[0].earlier.comm : "-");
	ASSERT_FALSE(v[0].later.ctx_lost,
		     "checker: a regression's earlier observation has its context (pid %u, comm %s)",
		     n ? v[0].earlier.pid : 0, n ? v[0].earlier.comm : "-");

	e = swap_ev(6, 2000, 500, 100, 100, 3000000000ull);
	e.pid = 4244;
	mg_checker_event(c, &e);
	for (uint64_t i = 0; i < 65536; i++) {	/* another inode's updates: each kept */
		e = swap_ev(7, 3000 + (int64_t)i, 500, 100, 100, 4000000000ull + i);
		mg_checker_event(c, &e);
	}
	e = swap_ev(6, 1999, 500, 100, 100, 5000000000ull);
	e.pid = 4245;
	mg_checker_event(c, &e);
	v = mg_checker_reports(c, &n);
	ASSERT_EQ(n, 2,
		  "checker: after 65,536 later observations kept, the earlier's context is lost, its "
		  "ctime and time exact, the regression still found");
	ASSERT_EQ(v[1].kind, MG_V_REGRESSION,
		  "checker: after 65,536 later observations kept, the earlier's context is lost, its "
		  "ctime and time exact, the regression still found");
	ASSERT_TRUE(v[1].earlier.ctx_lost,
		    "checker: after 65,536 later observations kept, the earlier's context is lost, its "
		    "ctime and time exact, the regression still found");
	ASSERT_FALSE(v[1].earlier.pid,
		     "checker: after 65,536 later observations kept, the earlier's context is lost, its "
		     "ctime and time exact, the regression still found");
	ASSERT_EQ(v[1].earlier.ctime.sec, 2000,
		  "checker: after 65,536 later observations kept, the earlier's context is lost, its "
		  "ctime and time exact, the regression still found");
	ASSERT_EQ(v[1].earlier.t_ns, 3000000000ull,
		  "checker: after 65,536 later observations kept, the earlier's context is lost, its "
		  "ctime and time exact, the regression still found");
	ASSERT_FALSE(v[1].later.ctx_lost,
		     "checker: after 65,536 later observations kept, the earlier's context is lost, its "
		     "ctime and time exact, the regression still found");
	ASSERT_EQ(v[1].later.pid, 4245,
		  "checker: after 65,536 later observations kept, the earlier's context is lost, its "
		  "ctime and time exact, the regression still found");
	mg_checker_free(c);
}

/*
 * The value before the latest ctime lives in the history (include/mg_rules.h struct
 * mg_rstate::prev): a torn getattr (the old seconds with the new nanoseconds) is told
 * after three reordered swaps' values were pushed after it, and is undecided, never a
 * fault, once a fourth pushed it out of the history.
 */
UNIT_TEST(checker_prev_in_history)
{
	for (int reordered = 3; reordered <= 4; reordered++) {
		struct mg_checker *c = mg_checker_new(16, 8);
		const struct mg_check_stats *st = mg_checker_stats(c);
		struct mg_event e;

		/* 10.000000900 replaced 100, then 11.000000950 replaced 900 */
		e = swap_ev(5, 10, 900, 100, 100, 1000); mg_checker_event(c, &e);
		e = swap_ev(5, 11, 950, 900, 900, 2000); mg_checker_event(c, &e);
		/* swaps delivered late whose values 950 replaced (max_cur 900): reordered */
		for (int i = 0; i < reordered; i++) {
			e = swap_ev(5, 10, 900, 100, 100, 3000 + (uint64_t)i);
			mg_checker_event(c, &e);
		}
		/* a getattr of 10 s with the new nanoseconds: torn */
		e = ev(MG_EV_STAT, 5, 10, 950, 10000);
		mg_checker_event(c, &e);
		mg_checker_finish(c);
		ASSERT_EQ(st->benign[MG_B_REORDERED], (unsigned)reordered,
			  "checker: %d reordered swaps pushed: the torn read is %s, no fault", reordered,
			  reordered < 4 ? "told" : "undecided (unseen)");
		ASSERT_EQ(st->benign[MG_B_TORN_READ], (reordered < 4 ? 1u : 0u),
			  "checker: %d reordered swaps pushed: the torn read is %s, no fault", reordered,
			  reordered < 4 ? "told" : "undecided (unseen)");
		ASSERT_EQ(st->benign[MG_B_UNSEEN], (reordered < 4 ? 0u : 1u),
			  "checker: %d reordered swaps pushed: the torn read is %s, no fault", reordered,
			  reordered < 4 ? "told" : "undecided (unseen)");
		ASSERT_EQ(mg_checker_faults(c), 0,
			  "checker: %d reordered swaps pushed: the torn read is %s, no fault", reordered,
			  reordered < 4 ? "told" : "undecided (unseen)");
		mg_checker_free(c);
	}
}

/* A checker bounded at 3000 inodes, fed a swap to 2000.000000500 of inodes 1..3000 under gen. */
static struct mg_checker *checker_3000(uint32_t gen)
{
	struct mg_checker *c = mg_checker_new(3000, 8);
	struct mg_event e;
	uint64_t i;

	for (i = 1; i <= 3000; i++) {
		e = swap_ev(i, 2000, 500, 100, 100, i);
		e.gen = gen;
		mg_checker_event(c, &e);
	}
	return c;
}

/*
 * The inode table grows as inodes enter (doubling from 1024 slots, at most twice the
 * bound): state entered before a doubling is found after it, and the bound still holds.
 */
UNIT_TEST(checker_table_grows)
{
	struct mg_checker *c = checker_3000(7);
	const struct mg_check_stats *st = mg_checker_stats(c);
	struct mg_event e;
	uint64_t i;

	ASSERT_EQ(st->inodes, 3000,
		  "checker: 3000 inodes enter a table that began at 1024 slots (%llu)",
		  (unsigned long long)st->inodes);
	ASSERT_EQ(st->untracked_events, 0,
		  "checker: 3000 inodes enter a table that began at 1024 slots (%llu)",
		  (unsigned long long)st->inodes);
	for (i = 1; i <= 3000; i += 1000) {
		e = swap_ev(i, 1999, 500, 100, 100, 10000000000ull + i);
		mg_checker_event(c, &e);
	}
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 3,
		  "checker: the state of inodes entered before the table grew is kept (%llu regressions)",
		  (unsigned long long)st->violations[MG_V_REGRESSION]);
	ASSERT_EQ(st->inodes, 3000,
		  "checker: the state of inodes entered before the table grew is kept (%llu regressions)",
		  (unsigned long long)st->violations[MG_V_REGRESSION]);
	e = swap_ev(3001, 2000, 500, 100, 100, 20000000000ull);
	mg_checker_event(c, &e);
	ASSERT_EQ(st->untracked_events, 1,
		  "checker: the 3001st inode is untracked at --max-inodes 3000");
	ASSERT_EQ(st->inodes, 3000, "checker: the 3001st inode is untracked at --max-inodes 3000");
	mg_checker_free(c);
}

/*
 * Creation entries moved to their generation's key in a table that grows meanwhile (the
 * deletion shifts probe runs back): every inode's state is still found, one entry each.
 */
UNIT_TEST(checker_creation_moves)
{
	struct mg_checker *c = checker_3000(0);
	const struct mg_check_stats *st = mg_checker_stats(c);
	struct mg_event e;
	uint64_t i;

	for (i = 3; i <= 3000; i += 3) {	/* one in three gets a later event, its generation set */
		e = swap_ev(i, 2001, 500, 100, 100, 1000000000ull + i);
		e.gen = 9;
		mg_checker_event(c, &e);
	}
	ASSERT_EQ(st->inodes, 3000,
		  "checker: 3000 new inodes, 1000 moved to their generation's key: %llu inodes, %llu "
		  "taken", (unsigned long long)st->inodes, (unsigned long long)st->creation_taken);
	ASSERT_EQ(st->creation_taken, 1000,
		  "checker: 3000 new inodes, 1000 moved to their generation's key: %llu inodes, %llu "
		  "taken", (unsigned long long)st->inodes, (unsigned long long)st->creation_taken);
	ASSERT_EQ(st->untracked_events, 0,
		  "checker: 3000 new inodes, 1000 moved to their generation's key: %llu inodes, %llu "
		  "taken", (unsigned long long)st->inodes, (unsigned long long)st->creation_taken);
	for (i = 1; i <= 3000; i++) {
		e = swap_ev(i, 1999, 500, 100, 100, 5000000000ull + i);
		e.gen = i % 3 ? 0 : 9;
		mg_checker_event(c, &e);
	}
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 3000,
		  "checker: every inode's state found after the moves: %llu regressions",
		  (unsigned long long)st->violations[MG_V_REGRESSION]);
	ASSERT_EQ(st->inodes, 3000,
		  "checker: every inode's state found after the moves: %llu regressions",
		  (unsigned long long)st->violations[MG_V_REGRESSION]);
	mg_checker_free(c);
}

/* A bound whose largest table no machine holds is refused at start, not mid-run. */
UNIT_TEST(checker_bound_beyond_memory)
{
	struct mg_checker *c = mg_checker_new((size_t)1 << 38, 8);

	ASSERT_EQ(c, NULL, "checker: 2^38 inodes (2^39 slots) refused: more than RAM and swap");
	mg_checker_free(c);
}
