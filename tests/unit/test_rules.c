// SPDX-License-Identifier: GPL-2.0
/* test_rules.c - tests of include/mg_rules.h, called directly: events, floor, clock. */
#include <stdlib.h>
#include "unit.h"
#include "mg_rules.h"

/* Events and their judging, as BPF runs the rules; test_rules_context.c's too (unit.h). */
struct mg_rin rin(unsigned int kind, int64_t sec, uint32_t nsec, uint64_t t)
{
	struct mg_rin in = { .o = { .sec = sec, .nsec = nsec, .kind = kind, .t_ns = t, .pid = 7,
				    .cpu = 1 }, .time_gran = 1 };

	strcpy(in.o.comm, "rule");
	return in;
}

struct mg_rin rswap(int64_t sec, uint32_t nsec, uint32_t old, uint32_t cur, uint64_t t)
{
	struct mg_rin in = rin(MG_EV_CTIME_SWAP, sec, nsec, t);

	in.old_nsec = old;
	in.cur_nsec = cur;
	return in;
}

/*
 * The held getattr's storage of state s (struct mg_rpend, which BPF keeps in a
 * map of its own and src/util/checker.c beside the state): one per state the tests
 * use, found by its address (a state cleared keeps it: valid only while held).
 */
struct mg_rpend *test_pend(const struct mg_rstate *s)
{
	static struct { const struct mg_rstate *s; struct mg_rpend p; } tab[64];
	unsigned int i;

	for (i = 0; i < 64 && tab[i].s; i++)
		if (tab[i].s == s)
			return &tab[i].p;
	if (i == 64)
		abort();	/* more states than any test uses */
	tab[i].s = s;
	return &tab[i].p;
}

/*
 * Judge in on s (tai_minus_real 0). out is filled with garbage and then cleared
 * with mg_rule_out_init(), as BPF does: only its counts, so every rule below also
 * shows that no rule reads viol[] or ben before writing them.
 */
const struct mg_rout *judge(struct mg_rstate *s, struct mg_rin in)
{
	static struct mg_rout out;

	memset(&out, 0xa5, sizeof(out));
	mg_rule_out_init(&out);
	if (mg_rule_event(s, test_pend(s), &in, 0, &out))
		abort();	/* never with storage given */
	return &out;
}

/* Only not-fault kind b (count 1) and no violation; b < 0: nothing at all. */
bool only_benign(const struct mg_rout *o, int b)
{
	for (int k = 0; k < MG_B_NR_KINDS; k++)
		if (o->benign[k] != (k == b))
			return false;
	return !o->nviol && !o->overflow;
}

UNIT_TEST(rules)
{
	const uint32_t Q = MG_I_CTIME_QUERIED;
	const uint64_t S = 1000000000ull;
	const struct mg_rout *o;
	struct mg_rstate s;
	struct mg_rout fin;
	struct mg_rin in;

	/* no regression: a later ctime holds, an earlier one more than 1 s on is a violation */
	memset(&s, 0, sizeof(s));
	ASSERT_TRUE(only_benign(judge(&s, rswap(100, 5, 0, 0, 1000)), -1),
		    "rules: a first swap holds");
	ASSERT_TRUE(only_benign(judge(&s, rswap(100, 9, 5, 5, 2000)), -1),
		    "rules: a later swap holds");
	o = judge(&s, rswap(99, 0, 9, 9, 2000 + 2 * S));
	ASSERT_EQ(o->nviol, 1,
		  "rules: an earlier ctime 2 s on is a regression, with both observations");
	ASSERT_EQ(o->viol[0].kind, MG_V_REGRESSION,
		  "rules: an earlier ctime 2 s on is a regression, with both observations");
	ASSERT_EQ(o->viol[0].earlier.sec, 100,
		  "rules: an earlier ctime 2 s on is a regression, with both observations");
	ASSERT_EQ(o->viol[0].earlier.nsec, 9,
		  "rules: an earlier ctime 2 s on is a regression, with both observations");
	ASSERT_EQ(o->viol[0].later.sec, 99,
		  "rules: an earlier ctime 2 s on is a regression, with both observations");
	ASSERT_EQ(o->viol[0].later.pid, 7,
		  "rules: an earlier ctime 2 s on is a regression, with both observations");
	ASSERT_STREQ(o->viol[0].later.comm, "rule",
		     "rules: an earlier ctime 2 s on is a regression, with both observations");
	/* later after a query: equal fails at 1 ns, is the contract at a coarser granularity */
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_STAT, 20, 700, 10));
	o = judge(&s, rswap(20, 700, 700 | Q, 700 | Q, 20));
	ASSERT_EQ(o->nviol, 1, "rules: a QUERIED update to an "
		  "equal ctime is not later");
	ASSERT_EQ(o->viol[0].kind, MG_V_NOT_LATER, "rules: a QUERIED update to an "
		  "equal ctime is not later");
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_STAT, 20, 0, 10));
	in = rswap(20, 0, 0 | Q, 0 | Q, 20);
	in.time_gran = 1000000000;
	ASSERT_TRUE(only_benign(judge(&s, in), MG_B_GRANULARITY),
		    "rules: equal at s_time_gran 1 s: "
		    "granularity_equal");
	memset(&s, 0, sizeof(s));
	ASSERT_TRUE(only_benign(judge(&s, rswap(20, 5, 3 | Q, 3 | Q, 20)), MG_B_UNVERIFIED),
		    "rules: a QUERIED update of a ctime never seen: unverified");
	/* a skip after a query that finished before the update began */
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_STAT, 30, 1, 3990));
	in = rin(MG_EV_CTIME_SKIP, 30, 1, 4000);
	in.o.entry_ns = 3995;
	o = judge(&s, in);
	ASSERT_EQ(o->nviol, 1, "rules: a skip after a query that preceded the update fails");
	ASSERT_EQ(o->viol[0].kind, MG_V_SKIP_AFTER_QUERY,
		  "rules: a skip after a query that preceded the update fails");
	in.o.entry_ns = 3980;
	ASSERT_TRUE(only_benign(judge(&s, in), MG_B_SKIP_UNDECIDED),
		    "rules: a skip of a query that may "
		    "follow the decision: undecided");
	/*
	 * A set over a QUERIED ctime (its tracepoint fires before its store: old_nsec is the
	 * replaced value). Real: a git clone on tmpfs, the .git directory (one pid): swap V,
	 * getattr V twice, unlink in it copies the child's V onto it (a set), then an update
	 * of the directory finds V without QUERIED and skips. The set is a change after a
	 * query that shows no later ctime: invariant 2 (mm/shmem.c copies the child's ctime).
	 */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 848225193, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 848225193, 110));
	judge(&s, rin(MG_EV_STAT, 40, 848225193, 120));
	in = rin(MG_EV_CTIME_SET, 40, 848225193, 130);
	in.old_nsec = 848225193 | Q;
	o = judge(&s, in);
	ASSERT_EQ(o->nviol, 1, "rules: a set over a QUERIED "
		  "ctime to the same value: not later after a query (the tmpfs unlink)");
	ASSERT_EQ(o->viol[0].kind, MG_V_NOT_LATER, "rules: a set over a QUERIED "
		  "ctime to the same value: not later after a query (the tmpfs unlink)");
	ASSERT_EQ(o->viol[0].earlier.kind, MG_EV_CTIME_SWAP, "rules: a set over a QUERIED "
		  "ctime to the same value: not later after a query (the tmpfs unlink)");
	ASSERT_EQ(o->viol[0].later.kind, MG_EV_CTIME_SET, "rules: a set over a QUERIED "
		  "ctime to the same value: not later after a query (the tmpfs unlink)");
	in = rin(MG_EV_CTIME_SKIP, 40, 848225193, 140);
	in.o.entry_ns = 135;
	ASSERT_TRUE(only_benign(judge(&s, in), -1), "rules: a skip after the set (which stored the "
		    "ctime without QUERIED) with an entry time after every getattr: nothing (it was "
		    "a SKIP_AFTER_QUERY before the set cleared max_statted)");
	/* must-fail direction: without the set the same skip is one */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 848225193, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 848225193, 110));
	o = judge(&s, in);
	ASSERT_EQ(o->nviol, 1, "rules: the same skip "
		  "without the set between: a skip after a query");
	ASSERT_EQ(o->viol[0].kind, MG_V_SKIP_AFTER_QUERY, "rules: the same skip "
		  "without the set between: a skip after a query");
	/* a later set over a QUERIED ctime holds */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in = rin(MG_EV_CTIME_SET, 40, 200, 130);
	in.old_nsec = 100 | Q;
	ASSERT_TRUE(only_benign(judge(&s, in), -1),
		    "rules: a set over a QUERIED ctime to a later one holds");
	/* the inode being set up (I_NEW: loaded from disk over a stale QUERIED bit of its
	 * memory, an earlier incarnation of the same identity): not a change */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in = rin(MG_EV_CTIME_SET, 40, 100, 130);
	in.old_nsec = 100 | Q;
	in.flags = MG_EVF_INODE_SETUP;
	ASSERT_TRUE(only_benign(judge(&s, in), -1),
		    "rules: a set of an inode being set up is not judged "
		    "for visibility");
	/* i_state unreadable (a kernel whose BTF has no layout of it that BPF knows: every
	 * kernel after 6.18 until issue 32): the same set is undecided, never passed silently */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in.flags = MG_EVF_STATE_UNKNOWN;
	ASSERT_TRUE(only_benign(judge(&s, in), MG_B_SET_UNDECIDED),
		    "rules: a set over a QUERIED ctime "
		    "of an inode whose state is unknown: undecided");
	/* must-fail direction: the same set with the state read is a violation */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in.flags = 0;
	o = judge(&s, in);
	ASSERT_EQ(o->nviol, 1, "rules: the same set with the "
		  "inode's state read: not later after a query");
	ASSERT_EQ(o->viol[0].kind, MG_V_NOT_LATER, "rules: the same set with the "
		  "inode's state read: not later after a query");
	/* QUERIED on a value no getattr was seen to show: a stale bit, not judged */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	in = rin(MG_EV_CTIME_SET, 40, 100, 130);
	in.old_nsec = 100 | Q;
	ASSERT_TRUE(only_benign(judge(&s, in), -1),
		    "rules: a set over QUERIED no getattr was seen to "
		    "set: not judged for visibility");
	/* a set over a ctime without QUERIED to the same value is no change after a query */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in = rin(MG_EV_CTIME_SET, 40, 100, 130);
	in.old_nsec = 100;
	ASSERT_TRUE(only_benign(judge(&s, in), -1),
		    "rules: a set over a ctime without QUERIED holds");
	/* delivery-order races */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(50, 10, 0, 0, 50));
	judge(&s, rswap(50, 30, 20, 20, 52));
	ASSERT_TRUE(only_benign(judge(&s, rswap(50, 20, 10, 10, 51)), MG_B_REORDERED),
		    "rules: a swap delivered after the swap that replaced it: reordered");
	o = judge(&s, rin(MG_EV_STAT, 50, 10, 60));
	ASSERT_TRUE(only_benign(o, MG_B_STALE_READ),
		    "rules: a getattr of a value held < 1 s before: stale");
	ASSERT_TRUE(o->has_ben,
		    "rules: the stale read's example carries the newer value it lost to, and itself");
	ASSERT_EQ(o->ben.kind, MG_B_STALE_READ,
		  "rules: the stale read's example carries the newer value it lost to, and itself");
	ASSERT_EQ(o->ben.earlier.nsec, 30,
		  "rules: the stale read's example carries the newer value it lost to, and itself");
	ASSERT_EQ(o->ben.earlier.t_ns, 52,
		  "rules: the stale read's example carries the newer value it lost to, and itself");
	ASSERT_EQ(o->ben.later.nsec, 10,
		  "rules: the stale read's example carries the newer value it lost to, and itself");
	ASSERT_EQ(o->ben.later.t_ns, 60,
		  "rules: the stale read's example carries the newer value it lost to, and itself");
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(10, 500, 0, 0, 1));
	judge(&s, rswap(11, 100, 500, 500, 2));
	ASSERT_TRUE(only_benign(judge(&s, rin(MG_EV_STAT, 10, 100, 3)), MG_B_TORN_READ),
		    "rules: old seconds with new nanoseconds: torn read");
	in = rswap(12, 7, 100, 100, 4);
	in.flags = MG_EVF_SEC_UNSURE;
	ASSERT_TRUE(only_benign(judge(&s, in), MG_B_SEC_UNSURE),
		    "rules: unsure seconds are not judged");
	/* overlapping updates */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 0, 0, 0, 1000));
	in = rswap(99, 3, 0, 0, 1500);
	in.o.entry_ns = 900;
	ASSERT_TRUE(only_benign(judge(&s, in), MG_B_CONCURRENT),
		    "rules: an update that began before the "
		    "newer value's event: concurrent");
	judge(&s, rswap(101, 0, 0, 0, 2000));
	ASSERT_TRUE(only_benign(judge(&s, rswap(100, 5, 0, 0, 2500)), MG_B_CONCURRENT_UNDECIDED),
		    "rules: the same without an entry time, within 1 s: undecided");
	/* an update after a step of the clock back that BPF found on its CPU: a regression the
	 * step explains, reported as one (user space attributes it), not taken for overlapping
	 * updates; only a step found after the latest value's event and at least as large */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(110, 700, 0, 600, 1000));
	in = rswap(100, 300, 0, 200, 1500);
	in.step_back_ns = -10000000000ll - 400;	/* 10 s back (+ bracket width) */
	in.step_back_at = 1400;
	o = judge(&s, in);
	ASSERT_EQ(o->nviol, 1,
		  "rules: an update 10 s back after a 10 s step back: a regression the step explains "
		  "(violations %u, kind %u, not-fault %u)", o->nviol, o->viol[0].kind, o->has_ben);
	ASSERT_EQ(o->viol[0].kind, MG_V_REGRESSION,
		  "rules: an update 10 s back after a 10 s step back: a regression the step explains "
		  "(violations %u, kind %u, not-fault %u)", o->nviol, o->viol[0].kind, o->has_ben);
	ASSERT_EQ(o->viol[0].later.sec, 100,
		  "rules: an update 10 s back after a 10 s step back: a regression the step explains "
		  "(violations %u, kind %u, not-fault %u)", o->nviol, o->viol[0].kind, o->has_ben);
	ASSERT_FALSE(o->has_ben,
		     "rules: an update 10 s back after a 10 s step back: a regression the step explains "
		     "(violations %u, kind %u, not-fault %u)", o->nviol, o->viol[0].kind, o->has_ben);
	ASSERT_EQ(s.max.sec, 100,
		  "rules: an update 10 s back after a 10 s step back: a regression the step explains "
		  "(violations %u, kind %u, not-fault %u)", o->nviol, o->viol[0].kind, o->has_ben);
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(110, 700, 0, 600, 1000));
	in.step_back_at = 900;				/* found before the latest value's event */
	ASSERT_TRUE(only_benign(judge(&s, in), MG_B_CONCURRENT_UNDECIDED),
		    "rules: a step found before the latest value's event explains nothing");
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(110, 700, 0, 600, 1000));
	in.step_back_at = 1400;
	in.step_back_ns = -1000000;			/* 1 ms back: too small for 10 s */
	ASSERT_TRUE(only_benign(judge(&s, in), MG_B_CONCURRENT_UNDECIDED),
		    "rules: a step smaller than the regression explains nothing");
	in.step_back_ns = -10000000400ll + 1000;	/* within the slack */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(110, 700, 0, 600, 1000));
	o = judge(&s, in);
	ASSERT_EQ(o->nviol, 1, "rules: a step within %d ns of the regression's size "
		  "explains it", MG_STEP_SLACK_NS);
	ASSERT_FALSE(o->has_ben, "rules: a step within %d ns of the regression's size "
		     "explains it", MG_STEP_SLACK_NS);
	/* a new file's ctime (set, not from a swap), then a step back, then an update: the step,
	 * not a future ctime (the clock at the update is before the file's ctime) */
	memset(&s, 0, sizeof(s));
	in = rin(MG_EV_CTIME_SET, 110, 0, 1000);
	judge(&s, in);
	in = rswap(100, 300, 0, 200, 1500);
	in.o.tai_ns = 100ull * S + 1;			/* realtime 100 s (TAI - REAL 0) */
	ASSERT_TRUE(only_benign(judge(&s, in), MG_B_FUTURE_CTIME),
		    "rules: without a step found, a set ctime later than the clock is a future ctime");
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_CTIME_SET, 110, 0, 1000));
	in.step_back_ns = -10000000000ll - 400;
	in.step_back_at = 1400;
	o = judge(&s, in);
	ASSERT_EQ(o->nviol, 1, "rules: with the step found, it is a regression the step explains");
	ASSERT_EQ(o->viol[0].kind, MG_V_REGRESSION,
		  "rules: with the step found, it is a regression the step explains");
	ASSERT_FALSE(o->has_ben,
		     "rules: with the step found, it is a regression the step explains");
	/* a held getattr: its swap comes (concurrent read), never (unseen within 1 s, else a
	 * regression at the end) */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 0, 0, 0, 1000));
	ASSERT_TRUE(only_benign(judge(&s, rin(MG_EV_STAT, 99, 5, 1100)), -1),
		    "rules: a getattr of an older value not seen is held");
	ASSERT_TRUE(s.fl & MG_RS_PENDING, "rules: a getattr of an older value not seen is held");
	o = judge(&s, rswap(99, 5, 0, 0, 1200));
	ASSERT_EQ(o->benign[MG_B_CONCURRENT_READ], 1,
		  "rules: ... and its swap resolves it as a concurrent read");
	ASSERT_FALSE(o->nviol, "rules: ... and its swap resolves it as a concurrent read");
	ASSERT_FALSE(s.fl & MG_RS_PENDING,
		     "rules: ... and its swap resolves it as a concurrent read");
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 0, 0, 0, 1000));
	judge(&s, rin(MG_EV_STAT, 99, 5, 1100));
	memset(&fin, 0, sizeof(fin));
	mg_rule_finish(&s, test_pend(&s), &fin);
	ASSERT_TRUE(only_benign(&fin, MG_B_UNSEEN),
		    "rules: a held getattr whose swap never came, within "
		    "1 s: unseen");
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 0, 0, 0, 1000));
	judge(&s, rin(MG_EV_STAT, 99, 5, 1000 + 2 * S));
	memset(&fin, 0, sizeof(fin));
	mg_rule_finish(&s, test_pend(&s), &fin);
	ASSERT_EQ(fin.nviol, 1, "rules: ... 2 s after the newer value: a regression");
	ASSERT_EQ(fin.viol[0].kind, MG_V_REGRESSION,
		  "rules: ... 2 s after the newer value: a regression");
	ASSERT_EQ(fin.viol[0].later.sec, 99, "rules: ... 2 s after the newer value: a regression");
	/* a ctime stored in the future (not from the clock) replaced by the clock */
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_STAT, 2000000000, 0, 10));
	in = rswap(1700000000, 0, 0, 0, 20);
	in.o.tai_ns = (1700000000ull + 37) * S;
	memset(&fin, 0, sizeof(fin));
	mg_rule_event(&s, test_pend(&s), &in, 37 * (int64_t)S, &fin);
	ASSERT_TRUE(only_benign(&fin, MG_B_FUTURE_CTIME),
		    "rules: a stored ctime later than the clock, "
		    "replaced: future_ctime");
	/* the floor */
	ASSERT_EQ(mg_rule_floor(1, 10, 20, MG_EVF_FINE_NEEDED),
		  MG_RF_FLOOR_CHECKED | MG_RF_FINE_DECIDED, "rules: floor forward, fine stamp needed");
	ASSERT_EQ(mg_rule_floor(1, 20, 10, MG_EVF_FINE_UNNEEDED), MG_RF_FLOOR_CHECKED |
		  MG_RF_FLOOR_BACKWARD | MG_RF_FINE_DECIDED | MG_RF_FINE_UNNEEDED,
		  "rules: floor backward, fine stamp unneeded: two violations");
	ASSERT_EQ(mg_rule_floor(0, 20, 10, 0), 0, "rules: floor unread, undecided: nothing checked");
}

/*
 * One event through the clock-step rules as bpf/mg_judge.bpf.h runs them: offs is
 * the kernel's offs_tai at the event, d the delay between the monotonic and the TAI
 * read, e the delay between the TAI read and the second monotonic read. Returns 1
 * if a step was reported (its window from *from to t, its size in *dlo..*dhi), and
 * counts the second reads.
 */
static int clock_event(struct mg_rclock *c, uint64_t t, int64_t offs, uint64_t d, uint64_t e,
		       unsigned long long *from, long long *dlo, long long *dhi, int *t1_reads)
{
	unsigned long long tai = t + d + (uint64_t)offs;

	if (!mg_rule_clock_need_t1(c, t, tai))
		return 0;
	(*t1_reads)++;
	return mg_rule_clock_measure(c, t, tai, t + d + e, from, dlo, dhi);
}

UNIT_TEST(rule_clock)
{
	const int64_t offs = 37000000000LL;
	struct mg_rclock c = { 0 };
	unsigned long long from = 0;
	long long lo = 0, hi = 0;
	int steps = 0, reads = 0, i;
	uint64_t t = 1000000, r = 12345, ts;

	/* a steady clock with delays of 20 to 60 ns between reads, and now and then an
	 * interrupt between them (5 us): never a step; a second read on the first event,
	 * once per refresh, on a slow read and on the event after it */
	for (i = 0; i < 100000; i++) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t d = 20 + (r >> 33) % 40, e = 20 + (r >> 45) % 40;

		if (i % 2000 == 999)
			d += 5000;
		else if (i % 2000 == 1999)
			e += 5000;
		t += 200;
		steps += clock_event(&c, t, offs, d, e, &from, &lo, &hi, &reads);
	}
	ASSERT_EQ(steps, 0, "clock rules: a steady clock with jittery reads shows no step");
	ASSERT_LT(reads, 100000 / 10, "clock rules: second reads on %d of 100000 events (expected "
		  "under 10000: first event, refreshes, slow reads)", reads);
	/* a step back of 100 ns just after a measurement is found at the next event */
	t += 200;
	clock_event(&c, t, offs, 30, 30, &from, &lo, &hi, &reads);	/* refresh or not */
	c.measured = 0;							/* measure here */
	clock_event(&c, t += 200, offs, 30, 30, &from, &lo, &hi, &reads);
	ts = t + 100;
	steps = clock_event(&c, t += 200, offs - 100, 30, 30, &from, &lo, &hi, &reads);
	ASSERT_EQ(steps, 1,
		  "clock rules: a 100 ns step back is found (%d; size %lld..%lld, expected -100 inside, "
		  "negative; window %llu..%llu around %llu)", steps, lo, hi, from,
		  (unsigned long long)t, (unsigned long long)ts);
	ASSERT_LE(lo, -100,
		  "clock rules: a 100 ns step back is found (%d; size %lld..%lld, expected -100 inside, "
		  "negative; window %llu..%llu around %llu)", steps, lo, hi, from,
		  (unsigned long long)t, (unsigned long long)ts);
	ASSERT_GE(hi, -100,
		  "clock rules: a 100 ns step back is found (%d; size %lld..%lld, expected -100 inside, "
		  "negative; window %llu..%llu around %llu)", steps, lo, hi, from,
		  (unsigned long long)t, (unsigned long long)ts);
	ASSERT_LT(hi, 0,
		  "clock rules: a 100 ns step back is found (%d; size %lld..%lld, expected -100 inside, "
		  "negative; window %llu..%llu around %llu)", steps, lo, hi, from,
		  (unsigned long long)t, (unsigned long long)ts);
	ASSERT_LE(from, ts,
		  "clock rules: a 100 ns step back is found (%d; size %lld..%lld, expected -100 inside, "
		  "negative; window %llu..%llu around %llu)", steps, lo, hi, from,
		  (unsigned long long)t, (unsigned long long)ts);
	ASSERT_LE(ts, t,
		  "clock rules: a 100 ns step back is found (%d; size %lld..%lld, expected -100 inside, "
		  "negative; window %llu..%llu around %llu)", steps, lo, hi, from,
		  (unsigned long long)t, (unsigned long long)ts);
	ASSERT_EQ(c.back_lo, lo, "clock rules: the step back is kept for the rules "
		  "(mg_rule_step_explains: %lld at %llu, want %lld at %llu)", c.back_lo, c.back_at, lo,
		  (unsigned long long)t);
	ASSERT_EQ(c.back_at, t, "clock rules: the step back is kept for the rules "
		  "(mg_rule_step_explains: %lld at %llu, want %lld at %llu)", c.back_lo, c.back_at, lo,
		  (unsigned long long)t);
	/* a measurement (d 30, e 40), a 60 ns step back, an event that passes (d 35), one that
	 * finds it (d 15): the window starts at the measurement, before the step */
	c.measured = 0;
	clock_event(&c, t += 200, offs, 30, 40, &from, &lo, &hi, &reads);
	ts = t + 100;
	steps = clock_event(&c, t += 200, offs - 60, 35, 30, &from, &lo, &hi, &reads);
	steps += clock_event(&c, t += 200, offs - 60, 15, 30, &from, &lo, &hi, &reads);
	ASSERT_EQ(steps, 1,
		  "clock rules: a step found one event late has a window that holds it (%d; window "
		  "from %llu, step at %llu; size %lld..%lld)", steps, from, (unsigned long long)ts, lo, hi);
	ASSERT_LE(from, ts,
		  "clock rules: a step found one event late has a window that holds it (%d; window "
		  "from %llu, step at %llu; size %lld..%lld)", steps, from, (unsigned long long)ts, lo, hi);
	ASSERT_LE(lo, -60,
		  "clock rules: a step found one event late has a window that holds it (%d; window "
		  "from %llu, step at %llu; size %lld..%lld)", steps, from, (unsigned long long)ts, lo, hi);
	ASSERT_GE(hi, -60,
		  "clock rules: a step found one event late has a window that holds it (%d; window "
		  "from %llu, step at %llu; size %lld..%lld)", steps, from, (unsigned long long)ts, lo, hi);
	/* a step back smaller than the clocks' jitter cannot be shown: 10 ns */
	ASSERT_EQ(clock_event(&c, t += 200, offs - 70, 50, 30, &from, &lo, &hi, &reads), 0,
		  "clock rules: a 10 ns step back, inside the clocks' jitter");
	/* steps forward of 10 us and of 800 ns are found, and 800 ns back after the latter */
	steps = clock_event(&c, t += 200, offs + 10000, 30, 30, &from, &lo, &hi, &reads);
	ASSERT_EQ(steps, 1,
		  "clock rules: a 10 us step forward is found (%d; size %lld..%lld, expected 10070 "
		  "inside)", steps, lo, hi);
	ASSERT_LE(lo, 10070,
		  "clock rules: a 10 us step forward is found (%d; size %lld..%lld, expected 10070 "
		  "inside)", steps, lo, hi);
	ASSERT_GE(hi, 10070,
		  "clock rules: a 10 us step forward is found (%d; size %lld..%lld, expected 10070 "
		  "inside)", steps, lo, hi);
	steps = clock_event(&c, t += 200, offs + 10800, 30, 30, &from, &lo, &hi, &reads);
	steps += clock_event(&c, t += 200, offs + 10000, 30, 30, &from, &lo, &hi, &reads);
	ASSERT_EQ(steps, 2,
		  "clock rules: 800 ns forward then back: two steps (%d; the second %lld..%lld)", steps,
		  lo, hi);
	ASSERT_LE(lo, -800,
		  "clock rules: 800 ns forward then back: two steps (%d; the second %lld..%lld)", steps,
		  lo, hi);
	ASSERT_GE(hi, -800,
		  "clock rules: 800 ns forward then back: two steps (%d; the second %lld..%lld)", steps,
		  lo, hi);
	/* a bracket measured with a slow second read (900 ns) is measured again at the next
	 * event, so a 300 ns step back after it is found */
	c.measured = 0;
	clock_event(&c, t += 200, offs, 30, 900, &from, &lo, &hi, &reads);
	clock_event(&c, t += 200, offs, 30, 30, &from, &lo, &hi, &reads);
	steps = clock_event(&c, t += 200, offs - 300, 30, 30, &from, &lo, &hi, &reads);
	ASSERT_EQ(steps, 1,
		  "clock rules: a step back after a slow measurement is found (%d; size %lld..%lld)",
		  steps, lo, hi);
	ASSERT_LE(lo, -300,
		  "clock rules: a step back after a slow measurement is found (%d; size %lld..%lld)",
		  steps, lo, hi);
	ASSERT_GE(hi, -300,
		  "clock rules: a step back after a slow measurement is found (%d; size %lld..%lld)",
		  steps, lo, hi);
	/* the documented limit: a step forward within the rise allowed (here 60 ns) goes
	 * unreported, and until the next refresh (100 us) a step back is seen net of it;
	 * after the refresh the bracket holds the new offset and a step back is sized from it */
	steps = clock_event(&c, t += 200, offs - 240, 30, 30, &from, &lo, &hi, &reads);
	ASSERT_EQ(steps, 0, "clock rules: 60 ns forward, inside the rise allowed, unreported");
	for (i = 0; i < 510; i++)
		steps += clock_event(&c, t += 200, offs - 240, 30, 30, &from, &lo, &hi, &reads);
	steps += clock_event(&c, t += 200, offs - 540, 30, 30, &from, &lo, &hi, &reads);
	ASSERT_EQ(steps, 1,
		  "clock rules: after a refresh a step back is sized from the new bracket (%d; size "
		  "%lld..%lld, expected -300 inside)", steps, lo, hi);
	ASSERT_LE(lo, -300,
		  "clock rules: after a refresh a step back is sized from the new bracket (%d; size "
		  "%lld..%lld, expected -300 inside)", steps, lo, hi);
	ASSERT_GE(hi, -300,
		  "clock rules: after a refresh a step back is sized from the new bracket (%d; size "
		  "%lld..%lld, expected -300 inside)", steps, lo, hi);
}

/*
 * Which observation of the state an event became (mg_rule_holds_ctx(), whose
 * context BPF and src/util/checker.c keep), and a context's slot found by reference
 * (mg_ctx_find(): BPF's rings, src/util/judge_pass.c, src/util/checker.c): the latest
 * ctime, the held getattr, neither; a slot of another ring, overwritten, or
 * holding another observation is not found.
 */
UNIT_TEST(rules_context_refs)
{
	struct mg_rctx ring[4] = { { .t_ns = 0 } };
	struct mg_rstate s;
	struct mg_rin in;
	struct mg_robs o = { .t_ns = 1200 };

	memset(&s, 0, sizeof(s));
	in = rswap(100, 0, 0, 0, 1000);
	in.o.ctx = mg_ctx_ref(3, 7);
	judge(&s, in);
	ASSERT_EQ(mg_rule_holds_ctx(&s, test_pend(&s), mg_ctx_ref(3, 7)), MG_HOLDS_MAX,
		  "context refs: the swap that set the latest ctime is held as max, no other");
	ASSERT_EQ(mg_rule_holds_ctx(&s, test_pend(&s), mg_ctx_ref(3, 8)), MG_HOLDS_NONE,
		  "context refs: the swap that set the latest ctime is held as max, no other");
	ASSERT_EQ(mg_rule_holds_ctx(&s, test_pend(&s), 0), MG_HOLDS_NONE,
		  "context refs: the swap that set the latest ctime is held as max, no other");
	in = rin(MG_EV_STAT, 99, 5, 1100);
	in.o.ctx = mg_ctx_ref(3, 8);
	judge(&s, in);
	ASSERT_EQ(mg_rule_holds_ctx(&s, test_pend(&s), mg_ctx_ref(3, 8)), MG_HOLDS_PEND,
		  "context refs: a held getattr is held as pend, the latest still as max");
	ASSERT_EQ(mg_rule_holds_ctx(&s, test_pend(&s), mg_ctx_ref(3, 7)), MG_HOLDS_MAX,
		  "context refs: a held getattr is held as pend, the latest still as max");
	in = rin(MG_EV_STAT, 100, 0, 1150);
	in.o.ctx = mg_ctx_ref(3, 9);
	judge(&s, in);
	ASSERT_EQ(mg_rule_holds_ctx(&s, test_pend(&s), mg_ctx_ref(3, 9)), MG_HOLDS_NONE,
		  "context refs: a getattr of the latest ctime is held nowhere");

	o.ctx = mg_ctx_ref(2, 5);		/* slot 5 % 4 = 1 of ring 2, head 6 */
	ring[1].t_ns = 1200;
	ASSERT_EQ(mg_ctx_find(ring, 4, 6, 2, &o), &ring[1],
		  "context refs: a slot is found while the head is at most 4 past it");
	ASSERT_EQ(mg_ctx_find(ring, 4, 9, 2, &o), &ring[1],
		  "context refs: a slot is found while the head is at most 4 past it");
	ASSERT_FALSE(mg_ctx_find(ring, 4, 10, 2, &o),
		     "context refs: not found once overwritten (head 10), nor in another ring");
	ASSERT_FALSE(mg_ctx_find(ring, 4, 6, 1, &o),
		     "context refs: not found once overwritten (head 10), nor in another ring");
	ring[1].t_ns = 1201;
	ASSERT_FALSE(mg_ctx_find(ring, 4, 6, 2, &o),
		     "context refs: not found when the slot holds another "
		     "observation's time");
	o.ctx = 0;
	ring[1].t_ns = 1200;
	ASSERT_FALSE(mg_ctx_find(ring, 4, 6, 2, &o), "context refs: no reference, no slot");
}

/* s cleared, then a swap to (s0, n0) at 1000 ns and one to (s1, n1) at 2000 ns. */
static void two_swaps(struct mg_rstate *s, long long s0, unsigned int n0, long long s1,
		      unsigned int n1)
{
	memset(s, 0, sizeof(*s));
	judge(s, rswap(s0, n0, 0, 0, 1000));
	judge(s, rswap(s1, n1, 0, 0, 2000));
}

/*
 * The history keeps each replaced ctime as one word (mg_rule_hist_word(): sec *
 * 10^9 + nsec, exact from 1677 to 2262): the bounds, the value before the
 * latest read back exactly (before the epoch too), and a ctime no word holds
 * not remembered, so that a getattr of it is undecided (unseen), never a stale
 * read the history cannot show, and never a fault.
 */
UNIT_TEST(rules_hist_word)
{
	const uint64_t S = 1000000000ull;
	long long w = 0, psec = 0;
	unsigned int pnsec = 0;
	struct mg_rstate s;
	struct mg_rout fin;

	ASSERT_TRUE(mg_rule_hist_word(MG_HIST_SEC_MAX, 999999999, &w),
		    "hist word: exact from %lld to %lld s, nothing past, never MG_HIST_NONE",
		    MG_HIST_SEC_MIN, MG_HIST_SEC_MAX);
	ASSERT_EQ(w, 9223372035999999999ll,
		  "hist word: exact from %lld to %lld s, nothing past, never MG_HIST_NONE",
		  MG_HIST_SEC_MIN, MG_HIST_SEC_MAX);
	ASSERT_TRUE(mg_rule_hist_word(MG_HIST_SEC_MIN, 0, &w),
		    "hist word: exact from %lld to %lld s, nothing past, never MG_HIST_NONE",
		    MG_HIST_SEC_MIN, MG_HIST_SEC_MAX);
	ASSERT_EQ(w, -9223372036000000000ll,
		  "hist word: exact from %lld to %lld s, nothing past, never MG_HIST_NONE",
		  MG_HIST_SEC_MIN, MG_HIST_SEC_MAX);
	ASSERT_FALSE(mg_rule_hist_word(MG_HIST_SEC_MAX + 1, 0, &w),
		     "hist word: exact from %lld to %lld s, nothing past, never MG_HIST_NONE",
		     MG_HIST_SEC_MIN, MG_HIST_SEC_MAX);
	ASSERT_FALSE(mg_rule_hist_word(MG_HIST_SEC_MIN - 1, 999999999, &w),
		     "hist word: exact from %lld to %lld s, nothing past, never MG_HIST_NONE",
		     MG_HIST_SEC_MIN, MG_HIST_SEC_MAX);
	ASSERT_FALSE(mg_rule_hist_word(0, 1000000000u, &w),
		     "hist word: exact from %lld to %lld s, nothing past, never MG_HIST_NONE",
		     MG_HIST_SEC_MIN, MG_HIST_SEC_MAX);
	ASSERT_NEQ(w, MG_HIST_NONE,
		   "hist word: exact from %lld to %lld s, nothing past, never MG_HIST_NONE",
		   MG_HIST_SEC_MIN, MG_HIST_SEC_MAX);
	two_swaps(&s, -5, 7, -4, 1);
	ASSERT_TRUE(mg_rule_prev(&s, &psec, &pnsec),
		    "hist word: the value before the latest read back exactly before the epoch: "
		    "%lld.%09u", psec, pnsec);
	ASSERT_EQ(psec, -5,
		  "hist word: the value before the latest read back exactly before the epoch: "
		  "%lld.%09u", psec, pnsec);
	ASSERT_EQ(pnsec, 7,
		  "hist word: the value before the latest read back exactly before the epoch: "
		  "%lld.%09u", psec, pnsec);
	two_swaps(&s, MG_HIST_SEC_MAX, 999999999, MG_HIST_SEC_MAX + 1, 0);
	ASSERT_TRUE(mg_rule_prev(&s, &psec, &pnsec),
		    "hist word: ... and at the last second a word holds");
	ASSERT_EQ(psec, MG_HIST_SEC_MAX, "hist word: ... and at the last second a word holds");
	ASSERT_EQ(pnsec, 999999999, "hist word: ... and at the last second a word holds");
	/* a getattr of the value just replaced: a stale read while the history holds it */
	two_swaps(&s, 2000000000, 5, 2000000001, 5);
	ASSERT_TRUE(only_benign(judge(&s, rin(MG_EV_STAT, 2000000000, 5, 3000)), MG_B_STALE_READ),
		    "hist word: a getattr of the value just replaced: a stale read");
	/* past 2262 the same is not remembered: held, then undecided, not a fault */
	two_swaps(&s, MG_HIST_SEC_MAX + 10, 5, MG_HIST_SEC_MAX + 11, 5);
	ASSERT_TRUE(only_benign(judge(&s, rin(MG_EV_STAT, MG_HIST_SEC_MAX + 10, 5, 3000)), -1),
		    "hist word: past 2262 the value replaced is not remembered: its getattr is held");
	ASSERT_TRUE(s.fl & MG_RS_PENDING,
		    "hist word: past 2262 the value replaced is not remembered: its getattr is held");
	ASSERT_FALSE(mg_rule_prev(&s, &psec, &pnsec),
		     "hist word: past 2262 the value replaced is not remembered: its getattr is held");
	memset(&fin, 0, sizeof(fin));
	mg_rule_finish(&s, test_pend(&s), &fin);
	ASSERT_TRUE(only_benign(&fin, MG_B_UNSEEN), "hist word: ... and judged undecided (unseen), "
		    "not a fault");
	/* and past the window, where no history could excuse it, a regression as always */
	two_swaps(&s, MG_HIST_SEC_MAX + 10, 5, MG_HIST_SEC_MAX + 11, 5);
	judge(&s, rin(MG_EV_STAT, MG_HIST_SEC_MAX + 10, 5, 2000 + 2 * S));
	memset(&fin, 0, sizeof(fin));
	mg_rule_finish(&s, test_pend(&s), &fin);
	ASSERT_EQ(fin.nviol, 1,
		  "hist word: past 2262, a getattr of the older value 2 s on: a regression");
	ASSERT_EQ(fin.viol[0].kind, MG_V_REGRESSION,
		  "hist word: past 2262, a getattr of the older value 2 s on: a regression");
}
