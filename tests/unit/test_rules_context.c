// SPDX-License-Identifier: GPL-2.0
/* test_rules_context.c - tests of include/mg_rules.h: what BPF judges context-free, lock-free. */
#include "unit.h"
#include "mg_rules.h"

/* The context-free predicate under test: mg_rule_needs_context, or a naive one (every getattr). */
typedef int (*needs_context_fn)(const struct mg_rstate *s, const struct mg_rin *in, int entry_times);

static int naive_needs_context(const struct mg_rstate *s, const struct mg_rin *in, int entry_times)
{
	(void)s;
	(void)entry_times;
	return in->o.kind != MG_EV_STAT;
}

/*
 * How the side-by-side judging below treats getattrs without the lock: as BPF
 * does (quiet word, marks, folded under the lock), or one of the naive ways
 * that must break the property.
 */
enum lockfree_model {
	LF_BPF,			/* mg_rule_is_quiet, mg_rule_can_mark, mg_rule_fold_quiet */
	LF_NAIVE_QUIET,		/* any getattr of max is quiet (held ones, first ones too) */
	LF_MARK_ENTRY,		/* marks even when updates carry entry times */
	LF_NO_FOLD,		/* marks, but the lock's holder never folds them in */
	LF_NAIVE_SKIP,		/* any skip of max is quiet (after a getattr showed it too) */
};

/* Skips the BPF-like side judged without the lock (lockfree_event()), since last reset. */
static unsigned int quiet_skips;

/*
 * One event of the BPF-like side: judged without the lock (1: quiet or a mark;
 * *s updated as BPF's exchange would) or not (0).
 */
static int lockfree_event(struct mg_rstate *s, const struct mg_rin *in, int entry_times,
			  enum lockfree_model m)
{
	unsigned long long q = s->quiet;

	if (m == LF_NAIVE_QUIET)
		return (s->fl & MG_RS_KNOWN) && in->o.kind == MG_EV_STAT &&
		       mg_rule_fp(in->o.sec, in->o.nsec) == mg_rule_fp(s->max.sec, s->max.nsec);
	if (m == LF_NAIVE_SKIP && in->o.kind == MG_EV_CTIME_SKIP && q &&
	    (q | 1) == (mg_rule_fp(in->o.sec, in->o.nsec) << 1 | 1))
		return 1;
	if (mg_rule_is_quiet(q, in)) {
		quiet_skips += in->o.kind == MG_EV_CTIME_SKIP;
		return 1;
	}
	if (mg_rule_can_mark(q, in, m == LF_MARK_ENTRY ? 0 : entry_times)) {
		s->quiet = q | 1;	/* the compare-and-exchange */
		return 1;
	}
	return 0;
}

/* Under the lock, before judging: close the word and fold a mark in (mg_judge_close_quiet()). */
static void lockfree_close(struct mg_rstate *s, enum lockfree_model m)
{
	unsigned long long w = s->quiet;

	if (w && !(w & 1))
		s->quiet = 0;
	if (m != LF_NO_FOLD)
		mg_rule_fold_quiet(s, w);
}

/*
 * The same observation: whole, or for one of the state (MG_CTX_KEPT) what the rules
 * set of it (mg_rule_seen_obs(): its context is for the caller to find).
 */
static bool same_obs(const struct mg_robs *a, const struct mg_robs *b)
{
	if (a->ctx_from == MG_CTX_KEPT || b->ctx_from == MG_CTX_KEPT)
		return a->ctx_from == b->ctx_from && a->sec == b->sec && a->nsec == b->nsec &&
		       a->kind == b->kind && a->t_ns == b->t_ns && a->ctx == b->ctx;
	return !memcmp(a, b, sizeof(*a));
}

/* The same violation or case: kind and both observations (the padding is never written). */
static bool same_viol(const struct mg_rviol *a, const struct mg_rviol *b)
{
	return a->kind == b->kind && same_obs(&a->earlier, &b->earlier) &&
	       same_obs(&a->later, &b->later);
}

/* The same report: counts, violations and the first not-fault case (their observations too). */
static bool same_out(const struct mg_rout *a, const struct mg_rout *b)
{
	unsigned int i;

	if (memcmp(a->benign, b->benign, sizeof(a->benign)) || a->nviol != b->nviol ||
	    a->overflow != b->overflow || a->has_ben != b->has_ben)
		return false;
	for (i = 0; i < a->nviol && i < MG_RULE_MAX_VIOL; i++)
		if (!same_viol(&a->viol[i], &b->viol[i]))
			return false;
	return !a->has_ben || same_viol(&a->ben, &b->ben);
}

/*
 * A pseudo-random stream of one inode's events (getattrs of the current, the
 * previous and a not yet swapped value, swaps forward and back, QUERIED swaps,
 * skips, explicit sets; times 1 ns to 0.6 s apart, so the 1 s windows are
 * crossed), judged twice side by side: once with every event's clocks, once
 * as BPF judges it (model m): an event judged without the lock is not judged
 * at all (quiet, or it marks the quiet word), the word is closed and a mark
 * folded in before each judged event, and the clocks, task and CPU of the
 * events pred() calls context-free are left 0. The two must report the same
 * for every event (a context-free one: nothing) and keep the same state (the
 * BPF-like one with its mark folded in), but for max_stat_ns when updates
 * carry no entry time (the only value it is compared with). Returns the events
 * where they did not; *free_n: how many events were context-free, *quiet_n:
 * judged without the lock.
 */
typedef int (*needs_pend_fn)(const struct mg_rstate *s, const struct mg_rin *in);

/* A predicate that would look the held getattr up only while one is held. */
static int naive_needs_pend(const struct mg_rstate *s, const struct mg_rin *in)
{
	(void)in;
	return !!(s->fl & MG_RS_PENDING);
}

/*
 * One event of the stream on state c as BPF gives the held getattr's storage:
 * only where ppred() asks (else NULL). Where the rules need it, NULL must judge
 * nothing and change nothing (-1). Returns the rules' result (0 judged, -1 not).
 */
static int pend_event(struct mg_rstate *c, const struct mg_rin *in, needs_pend_fn ppred,
		      struct mg_rout *out, unsigned int *breaks, unsigned int *pend_n)
{
	struct mg_rstate before = *c;
	struct mg_rout none;

	if (ppred(c, in)) {
		(*pend_n)++;
		mg_rule_out_init(&none);
		if (mg_rule_needs_pend(c, in) &&
		    (mg_rule_event(c, NULL, in, 37 * 1000000000ll, &none) != -1 ||
		     memcmp(&before, c, sizeof(before)) || !only_benign(&none, -1)))
			(*breaks)++;
		return mg_rule_event(c, test_pend(c), in, 37 * 1000000000ll, out);
	}
	return mg_rule_event(c, NULL, in, 37 * 1000000000ll, out);
}

static unsigned int pend_breaks, pend_asked;

/*
 * needs_context_breaks(), and a third state c judged with the held getattr's
 * storage only where ppred() asks for it (pend_event()): it must report and keep
 * the same as the state always given it; pend_breaks counts the events where
 * not, pend_asked those where ppred() asked.
 */
static unsigned int needs_context_breaks_p(needs_context_fn pred, needs_pend_fn ppred,
					   enum lockfree_model m, int entry_times,
					   unsigned int *free_n, unsigned int *quiet_n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, t = 1000;
	int64_t cur_s = 100, prev_s = 100;
	uint32_t cur_n = 1000, prev_n = 500;
	unsigned int breaks = 0, i;
	struct mg_rstate a, b, c, ma, mb;
	struct mg_rout oa, ob, oc;
	struct mg_rin in, inb;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	pend_breaks = pend_asked = 0;
	*free_n = 0;
	*quiet_n = 0;
	for (i = 0; i < 20000; i++) {
		unsigned int r;
		bool free_ev, lockfree;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		r = (unsigned int)(x % 100);
		t += 1 + (x >> 8) % (r < 3 ? 600000000ull : 200000ull);
		if (r < 45)
			in = rin(MG_EV_STAT, cur_s, cur_n, t);
		else if (r < 47)
			in = rin(MG_EV_STAT, prev_s, prev_n, t);
		else if (r < 49)
			in = rin(MG_EV_STAT, cur_s, cur_n + 7, t);	/* a value not swapped yet */
		else if (r < 85 || r >= 97) {
			uint32_t old = cur_n | ((x >> 20) & 1 ? MG_I_CTIME_QUERIED : 0);

			prev_s = cur_s, prev_n = cur_n;
			cur_n += 1 + (uint32_t)((x >> 24) % 5000);
			if (cur_n >= 1000000000u)
				cur_s++, cur_n -= 1000000000u;
			in = rswap(cur_s, cur_n, old, old, t);
		} else if (r < 89)
			in = rswap(prev_s, prev_n - 1, cur_n, cur_n, t);	/* an older swap */
		else if (r < 94)
			in = rin(MG_EV_CTIME_SKIP, cur_s, cur_n, t);
		else
			in = rin(MG_EV_CTIME_SET, cur_s - 5, 0, t);
		if (entry_times && (in.o.kind == MG_EV_CTIME_SWAP || in.o.kind == MG_EV_CTIME_SKIP))
			in.o.entry_ns = t - 1 - (x >> 30) % 3000;
		in.o.tai_ns = t + 37 * 1000000000ull;
		if ((x >> 40) % 50 == 0)
			in.step_back_ns = -5000, in.step_back_at = t;
		inb = in;
		mg_rule_out_init(&oa);
		lockfree = lockfree_event(&a, &in, entry_times, m);
		if (lockfree)
			(*quiet_n)++;
		free_ev = lockfree || !pred(&a, &in, entry_times);
		if (free_ev) {
			(*free_n)++;
			in.o.t_ns = in.o.tai_ns = 0;
			in.step_back_ns = 0, in.step_back_at = 0;
			in.o.pid = in.o.cpu = 0;
			memset(in.o.comm, 0, sizeof(in.o.comm));
		}
		if (!lockfree) {
			lockfree_close(&a, m);
			mg_rule_event(&a, test_pend(&a), &in, 37 * 1000000000ll, &oa);
		}
		mg_rule_out_init(&oc);
		if (pend_event(&c, &inb, ppred, &oc, &pend_breaks, &pend_asked))
			memset(&c, 0, sizeof(c)), pend_breaks++;	/* lost: start afresh */
		mg_rule_out_init(&ob);
		mg_rule_event(&b, test_pend(&b), &inb, 37 * 1000000000ll, &ob);
		if (!same_out(&oc, &ob) || memcmp(&c, &b, sizeof(c)) ||
		    ((c.fl & MG_RS_PENDING) &&
		     memcmp(test_pend(&c), test_pend(&b), sizeof(struct mg_rpend))))
			pend_breaks++;
		ma = a, mb = b;
		mg_rule_fold_quiet(&ma, ma.quiet);	/* the state a mark stands for */
		if (!entry_times)
			ma.max_stat_ns = mb.max_stat_ns = 0;
		if (!same_out(&oa, &ob) || (free_ev && !only_benign(&oa, -1)) ||
		    memcmp(&ma, &mb, sizeof(ma)) ||
		    ((ma.fl & MG_RS_PENDING) &&
		     memcmp(test_pend(&a), test_pend(&b), sizeof(struct mg_rpend))))
			breaks++;
	}
	return breaks;
}

/* needs_context_breaks_p() with mg_rule_needs_pend(). */
static unsigned int needs_context_breaks(needs_context_fn pred, enum lockfree_model m,
					 int entry_times, unsigned int *free_n, unsigned int *quiet_n)
{
	return needs_context_breaks_p(pred, mg_rule_needs_pend, m, entry_times, free_n, quiet_n);
}

/*
 * mg_rule_needs_context(): the events BPF judges without reading a clock are
 * exactly those whose judging does not depend on the clocks.
 */
UNIT_TEST(rule_needs_context)
{
	unsigned int n0 = 0, n1 = 0, nn = 0, q0 = 0, q1 = 0, qn = 0;
	struct mg_rstate s;
	struct mg_rin st;

	quiet_skips = 0;
	ASSERT_EQ(needs_context_breaks(mg_rule_needs_context, LF_BPF, 0, &n0, &q0), 0,
		  "needs_context: tracepoints only, context-free events judge the same without their context");
	ASSERT_GT(quiet_skips, 100,
		  "needs_context: skips of the latest ctime no getattr showed are judged without the "
		  "lock (%u of about 1000 skips)", quiet_skips);
	ASSERT_GT(n0, 5000,
		  "needs_context: tracepoints only, most getattrs of the latest ctime are "
		  "context-free (%u of 20000 events, 9000 getattrs of it)", n0);
	ASSERT_EQ(needs_context_breaks(mg_rule_needs_context, LF_BPF, 1, &n1, &q1), 0,
		  "needs_context: with entry times, the same");
	ASSERT_GT(n1, 1000, "needs_context: with entry times fewer are context-free "
		  "(%u, against %u): the first getattr of a value keeps its time", n1, n0);
	ASSERT_LT(n1, n0, "needs_context: with entry times fewer are context-free "
		  "(%u, against %u): the first getattr of a value keeps its time", n1, n0);
	/* tracepoints only, the first getattr of a value marks the word: every context-free
	 * getattr takes no lock; with entry times only the later ones */
	ASSERT_EQ(q0, n0,
		  "needs_context: getattrs judged without the lock: %u of %u context-free (tracepoints "
		  "only), %u (entry times)", q0, n0, q1);
	ASSERT_GT(q1, 1000,
		  "needs_context: getattrs judged without the lock: %u of %u context-free (tracepoints "
		  "only), %u (entry times)", q0, n0, q1);
	ASSERT_LT(q1, q0,
		  "needs_context: getattrs judged without the lock: %u of %u context-free (tracepoints "
		  "only), %u (entry times)", q0, n0, q1);
	/* the check can fail: calling every getattr context-free breaks the property */
	ASSERT_GT(needs_context_breaks(naive_needs_context, LF_BPF, 0, &nn, &qn), 0,
		  "needs_context: a predicate calling every getattr context-free is caught");
	ASSERT_GT(needs_context_breaks(naive_needs_context, LF_BPF, 1, &nn, &qn), 0,
		  "needs_context: the same with entry times");
	ASSERT_GT(needs_context_breaks(mg_rule_needs_context, LF_NAIVE_QUIET, 0, &nn, &qn), 0,
		  "needs_context: a lock-free test taking every getattr of the latest ctime (held "
		  "getattrs too) is caught");
	ASSERT_GT(needs_context_breaks(mg_rule_needs_context, LF_MARK_ENTRY, 1, &nn, &qn), 0,
		  "needs_context: marks without the lock when updates carry entry times (the "
		  "getattr's time lost) are caught");
	ASSERT_GT(needs_context_breaks(mg_rule_needs_context, LF_NO_FOLD, 0, &nn, &qn), 0,
		  "needs_context: marks the lock's holder does not fold in are caught");
	ASSERT_GT(needs_context_breaks(mg_rule_needs_context, LF_NAIVE_SKIP, 0, &nn, &qn), 0,
		  "needs_context: a lock-free test taking every skip of the latest ctime (one a "
		  "getattr showed too: MG_B_SKIP_UNDECIDED) is caught");
	ASSERT_GT(needs_context_breaks(mg_rule_needs_context, LF_NAIVE_SKIP, 1, &nn, &qn), 0,
		  "needs_context: the same with entry times (MG_V_SKIP_AFTER_QUERY lost)");

	/* the held getattr's storage (struct mg_rpend), given only where BPF looks it up */
	needs_context_breaks(mg_rule_needs_context, LF_BPF, 0, &nn, &qn);
	ASSERT_EQ(pend_breaks, 0,
		  "needs_pend: judged with the held getattr's storage only where mg_rule_needs_pend() "
		  "asks (%u of 20000 events), the same reports and state; without it where needed, "
		  "nothing judged or changed (%u breaks)", pend_asked, pend_breaks);
	ASSERT_GT(pend_asked, 100,
		  "needs_pend: judged with the held getattr's storage only where mg_rule_needs_pend() "
		  "asks (%u of 20000 events), the same reports and state; without it where needed, "
		  "nothing judged or changed (%u breaks)", pend_asked, pend_breaks);
	ASSERT_LT(pend_asked, 5000,
		  "needs_pend: judged with the held getattr's storage only where mg_rule_needs_pend() "
		  "asks (%u of 20000 events), the same reports and state; without it where needed, "
		  "nothing judged or changed (%u breaks)", pend_asked, pend_breaks);
	needs_context_breaks(mg_rule_needs_context, LF_BPF, 1, &nn, &qn);
	ASSERT_EQ(pend_breaks, 0, "needs_pend: the same with entry times (%u breaks)", pend_breaks);
	needs_context_breaks_p(mg_rule_needs_context, naive_needs_pend, LF_BPF, 0, &nn, &qn);
	ASSERT_GT(pend_breaks, 0, "needs_pend: a predicate asking only while a getattr is held "
		  "is caught (%u events: a getattr to hold not judged)", pend_breaks);

	/* the quiet word: markable once the latest ctime is known, quiet once a getattr
	 * showed it, 0 while a getattr is held */
	memset(&s, 0, sizeof(s));
	st = rin(MG_EV_STAT, 100, 5, 2000);
	ASSERT_EQ(mg_rule_quiet(&s), 0, "quiet: 0 before anything is known");
	ASSERT_FALSE(mg_rule_can_mark(s.quiet, &st, 0), "quiet: 0 before anything is known");
	judge(&s, rswap(100, 5, 0, 0, 1000));
	ASSERT_EQ(s.quiet, mg_rule_fp(100, 5) << 1,
		  "quiet: after a swap, markable by a getattr of its value only, tracepoints only");
	ASSERT_FALSE(mg_rule_is_quiet(s.quiet, &st),
		     "quiet: after a swap, markable by a getattr of its value only, tracepoints only");
	ASSERT_TRUE(mg_rule_can_mark(s.quiet, &st, 0),
		    "quiet: after a swap, markable by a getattr of its value only, tracepoints only");
	ASSERT_FALSE(mg_rule_can_mark(s.quiet, &st, 1),
		     "quiet: after a swap, markable by a getattr of its value only, tracepoints only");
	ASSERT_FALSE(mg_rule_can_mark(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_STAT, .sec = 100, .nsec = 6 } }, 0),
		     "quiet: after a swap, markable by a getattr of its value only, tracepoints only");
	ASSERT_FALSE(mg_rule_can_mark(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_CTIME_SKIP, .sec = 100, .nsec = 5 } }, 0),
		     "quiet: after a swap, markable by a getattr of its value only, tracepoints only");
	ASSERT_TRUE(mg_rule_is_quiet(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_CTIME_SKIP, .sec = 100, .nsec = 5 } }),
		    "quiet: after a swap, a skip of its value changes nothing");
	ASSERT_FALSE(mg_rule_is_quiet(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_CTIME_SKIP, .sec = 100, .nsec = 6 } }),
		     "quiet: after a swap, a skip of another value is judged");
	ASSERT_FALSE(mg_rule_is_quiet(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_CTIME_SWAP, .sec = 100, .nsec = 5 } }),
		     "quiet: after a swap, a swap of its value is judged");
	ASSERT_FALSE(mg_rule_is_quiet(0, &(struct mg_rin){ .o = { .kind = MG_EV_CTIME_SKIP, .sec = -1, .nsec = 999999999 } }),
		     "quiet: a skip is never quiet against the word 0 (unknown, or a getattr held)");
	judge(&s, st);
	ASSERT_EQ(s.quiet, mg_rule_fp(100, 5) << 1 | 1,
		  "quiet: a getattr of it after one, nothing else");
	ASSERT_TRUE(mg_rule_is_quiet(s.quiet, &st),
		    "quiet: a getattr of it after one, nothing else");
	ASSERT_FALSE(mg_rule_can_mark(s.quiet, &st, 0),
		     "quiet: a getattr of it after one, nothing else");
	ASSERT_FALSE(mg_rule_is_quiet(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_CTIME_SKIP, .sec = 100, .nsec = 5 } }),
		     "quiet: a getattr of it after one, nothing else");
	ASSERT_FALSE(mg_rule_is_quiet(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_STAT, .sec = 100, .nsec = 6 } }),
		     "quiet: a getattr of it after one, nothing else");
	judge(&s, rin(MG_EV_STAT, 100, 4, 3000));	/* held */
	ASSERT_EQ(s.quiet, 0, "quiet: not while a getattr is held");
	ASSERT_EQ(mg_rule_fp(-1, 999999999), 0,
		  "quiet: the one ctime whose word is 0 is 1 ns before the epoch");
	ASSERT_NEQ(mg_rule_fp(0, 0), 0,
		   "quiet: the one ctime whose word is 0 is 1 ns before the epoch");

	/* a mark folds in only as the mark of the latest ctime, not yet shown */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 5, 0, 0, 1000));
	mg_rule_fold_quiet(&s, mg_rule_fp(100, 6) << 1 | 1);
	ASSERT_FALSE(s.fl & MG_RS_STATTED, "fold: the mark of another ctime is not folded in");
	mg_rule_fold_quiet(&s, s.quiet);
	ASSERT_FALSE(s.fl & MG_RS_STATTED, "fold: an unmarked word changes nothing");
	mg_rule_fold_quiet(&s, s.quiet | 1);
	ASSERT_TRUE(s.fl & MG_RS_STATTED,
		    "fold: the mark of the latest ctime: shown, at a time unknown");
	ASSERT_EQ(s.max_stat_ns, 0, "fold: the mark of the latest ctime: shown, at a time unknown");
	ASSERT_EQ(mg_rule_quiet(&s), s.quiet | 1,
		  "fold: the mark of the latest ctime: shown, at a time unknown");
	memset(&s, 0, sizeof(s));
	mg_rule_fold_quiet(&s, 1);
	ASSERT_FALSE(s.fl & MG_RS_STATTED, "fold: nothing on an inode not known (word 1)");

	/* the cases, one by one */
	memset(&s, 0, sizeof(s));
	st = rin(MG_EV_STAT, 100, 5, 1000);
	ASSERT_TRUE(mg_rule_needs_context(&s, &st, 0), "needs_context: an inode not seen yet");
	judge(&s, rswap(100, 5, 0, 0, 1000));
	ASSERT_FALSE(mg_rule_needs_context(&s, &st, 0), "needs_context: a getattr of the latest "
		     "ctime, tracepoints only");
	ASSERT_TRUE(mg_rule_needs_context(&s, &st, 1), "needs_context: its first getattr keeps "
		    "its time when updates carry their entry time");
	judge(&s, st);
	ASSERT_FALSE(mg_rule_needs_context(&s, &st, 1),
		     "needs_context: a second getattr of it does not");
	ASSERT_EQ(s.max_stat_ns, 1000, "needs_context: a second getattr of it does not");
	st.o.nsec = 4;
	ASSERT_TRUE(mg_rule_needs_context(&s, &st, 0), "needs_context: a getattr of another value");
	judge(&s, st);	/* held: an older value not seen before */
	st.o.nsec = 5;
	ASSERT_TRUE(s.fl & MG_RS_PENDING, "needs_context: anything while a getattr is held");
	ASSERT_TRUE(mg_rule_needs_context(&s, &st, 0),
		    "needs_context: anything while a getattr is held");
	st = rswap(100, 5, 5, 5, 3000);
	ASSERT_TRUE(mg_rule_needs_context(&s, &st, 0), "needs_context: every update");
}
