/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rule_state.h - the per-inode state the rules of include/mg_rules.h
 * judge against (struct mg_rstate) and its held getattr (struct mg_rpend):
 * the latest ctime and where it came from, the history words of the values it
 * replaced, and the quiet word a getattr is counted from without the lock.
 */
#ifndef MG_RULE_STATE_H
#define MG_RULE_STATE_H

#include "mg_rule_obs.h"

#define MG_HIST 4			/* replaced ctimes remembered per inode */
#define MG_NO_CUR 0xffffffffU		/* max_cur: the maximum was not set by a swap */

/* Where an inode's latest ctime came from. */
#define MG_SRC_OTHER 0	/* first seen by getattr or skip (stored on disk, or unknown), or set
			 * explicitly (inode_set_ctime_to_ts) */
#define MG_SRC_CLOCK 1	/* a swap by inode_set_ctime_current: the kernel's clock */

/* struct mg_rstate::fl */
#define MG_RS_KNOWN	0x01	/* max holds a ctime */
#define MG_RS_PENDING	0x02	/* a getattr of an older value is held (pend) */
#define MG_RS_CLOCK	0x04	/* max came from the kernel's clock (MG_SRC_CLOCK; else
				 * MG_SRC_OTHER) */
#define MG_RS_STATTED	0x08	/* a getattr showed max (its time: max_stat_ns) */

/*
 * Per-inode state (104 bytes: with the map value's lock and moved word, and the
 * 24-byte key, a BPF hash element of kmalloc-192). All zero: an inode not seen
 * yet. hist holds the last MG_HIST values max replaced, newest first, each as
 * one word (mg_rule_hist_word()) with the CLOCK_MONOTONIC time it was replaced:
 * hist[0]'s is max.t_ns (every push happens as max is set, or at max's time),
 * the others' hist_rep[h - 1]. The value before max (prev) is one of them,
 * hist[prev - 1]: hist[0] when max was set, moved on by each reordered swap's
 * value pushed after it, and lost after MG_HIST of those (the rules that read
 * it then count the event as undecided: MG_B_UNSEEN, MG_B_UNVERIFIED). A held
 * getattr is kept apart (struct mg_rpend): holds are rare.
 */
struct mg_rstate {
	unsigned long long quiet;	/* the quiet word (mg_rule_quiet()): 2 * mg_rule_fp()
					 * of max, + 1 once a getattr showed it, while nothing
					 * is held, else 0; set last by mg_rule_event(), read
					 * without the lock, and its low bit set by a getattr
					 * without it (mg_rule_can_mark(), folded in by
					 * mg_rule_fold_quiet()). First: in the cache line of
					 * the map value's lock */
	unsigned char fl;		/* MG_RS_* */
	unsigned char nhist;		/* valid entries of hist */
	unsigned char prev;		/* 1 + the index in hist of the value before max
					 * (0: not known) */
	unsigned char pad;
	unsigned int max_cur;		/* masked cur_nsec of the swap that set max, or MG_NO_CUR */
	struct mg_rseen max;		/* the observation that set the latest ctime */
	unsigned long long max_stat_ns;	/* CLOCK_MONOTONIC of the earliest getattr showing max
					 * (0: none, or judged without a clock read:
					 * mg_rule_needs_context()) */
	long long hist_w[MG_HIST];	/* the last values max replaced, newest first
					 * (mg_rule_hist_word(); MG_HIST_NONE: a ctime no
					 * word holds, never matched) */
	unsigned long long hist_rep[MG_HIST - 1];	/* when hist[1..] were replaced */
};

/*
 * A held getattr (MG_RS_PENDING: a value older than the latest, judged when a
 * swap to it comes or its window ends) and the newer value it was older than:
 * 48 bytes, kept apart from the state (BPF: the hash "inode_pend" of each
 * generation, read and written under the state's lock; user space: beside it),
 * valid only while the state holds MG_RS_PENDING.
 */
struct mg_rpend {
	struct mg_rseen pend;		/* the held getattr */
	struct mg_rseen earlier;	/* the newer value it was older than (max then) */
};

/* mg_rule_holds_ctx(): which observation of the state an event became. */
#define MG_HOLDS_NONE	0
#define MG_HOLDS_MAX	1	/* the latest ctime (max) */
#define MG_HOLDS_PEND	2	/* the held getattr (pend, MG_RS_PENDING) */

/*
 * After judging an event whose context reference is ref (0: none): which of
 * state s's observations (its held getattr in p) is that event's (MG_HOLDS_*), and so whose context is
 * to be kept for a later report (BPF's mg_judge(), src/util/checker.c's ctx_keep()).
 */
MG_RULE_INLINE unsigned int mg_rule_holds_ctx(const struct mg_rstate *s, const struct mg_rpend *p,
					       unsigned int ref)
{
	if (!ref)
		return MG_HOLDS_NONE;
	if ((s->fl & MG_RS_PENDING) && p && (p->pend.kc & MG_CTX_REF_MASK) == ref)
		return MG_HOLDS_PEND;
	return (s->max.kc & MG_CTX_REF_MASK) == ref ? MG_HOLDS_MAX : MG_HOLDS_NONE;
}

#define MG_HIST_NONE (-0x7fffffffffffffffll - 1)	/* hist_w: a ctime no word holds */
#define MG_HIST_SEC_MIN (-9223372036ll)	/* the ctimes a word holds exactly: */
#define MG_HIST_SEC_MAX 9223372035ll	/* 1677-09-21 to 2262-04-11 */

/*
 * (sec, nsec) as one word, sec * 10^9 + nsec, into *w: 1, or 0 for a ctime no
 * word holds exactly (outside MG_HIST_SEC_MIN..MAX, or nsec past 10^9 - 1).
 * Such a ctime is not remembered (MG_HIST_NONE): the rules that would look it
 * up count the event as undecided, as for a value lost past MG_HIST.
 */
MG_RULE_INLINE int mg_rule_hist_word(long long sec, unsigned int nsec, long long *w)
{
	if (sec < MG_HIST_SEC_MIN || sec > MG_HIST_SEC_MAX || nsec > 999999999u)
		return 0;
	*w = sec * 1000000000ll + (long long)nsec;
	return 1;
}

/*
 * Remember that the inode held (sec, nsec), replaced at the time of the max
 * being set now, or of max (newest first: hist[0]'s time is max.t_ns, so the
 * caller sets max.t_ns to replaced_ns if it differs). The value before max
 * moves on with it, and is lost past MG_HIST.
 */
MG_RULE_INLINE void mg_rule_hist_push(struct mg_rstate *s, long long sec, unsigned int nsec)
{
	long long w = MG_HIST_NONE;

	mg_rule_hist_word(sec, nsec, &w);
	s->hist_w[3] = s->hist_w[2];
	s->hist_w[2] = s->hist_w[1];
	s->hist_w[1] = s->hist_w[0];
	s->hist_rep[2] = s->hist_rep[1];
	s->hist_rep[1] = s->hist_rep[0];
	s->hist_rep[0] = s->max.t_ns;	/* hist[0]'s so far */
	s->hist_w[0] = w;
	if (s->nhist < MG_HIST)
		s->nhist++;
	if (s->prev)
		s->prev = s->prev < MG_HIST ? s->prev + 1 : 0;
}

/* When hist[h] was replaced (CLOCK_MONOTONIC ns). */
MG_RULE_INLINE unsigned long long mg_rule_hist_rep(const struct mg_rstate *s, int h)
{
	return h ? s->hist_rep[(h - 1) & 3] : s->max.t_ns;
}

/* True if (sec, nsec) is a value the inode held, replaced less than 1 s before t_ns. */
MG_RULE_INLINE int mg_rule_held_recently(const struct mg_rstate *s, long long sec,
					 unsigned int nsec, unsigned long long t_ns)
{
	long long w = 0;
	int h;

	if (!mg_rule_hist_word(sec, nsec, &w))
		return 0;
	for (h = 0; h < MG_HIST; h++)
		if (h < (int)s->nhist && s->hist_w[h] == w)
			return (long long)(t_ns - mg_rule_hist_rep(s, h)) < MG_STALE_WINDOW_NS;
	return 0;
}

/* The value before max: 1 and into (*sec, *nsec) if it is known, else 0. */
MG_RULE_INLINE int mg_rule_prev(const struct mg_rstate *s, long long *sec, unsigned int *nsec)
{
	unsigned int h = (unsigned int)(s->prev - 1) & 3;
	unsigned long long u;

	if (!s->prev || s->hist_w[h] == MG_HIST_NONE)
		return 0;
	/* unsigned from MG_HIST_SEC_MIN's second: BPF has no signed division (clang 14) */
	u = (unsigned long long)s->hist_w[h] - (unsigned long long)(MG_HIST_SEC_MIN * 1000000000ll);
	*sec = (long long)(u / 1000000000ull) + MG_HIST_SEC_MIN;
	*nsec = (unsigned int)(u % 1000000000ull);
	return 1;
}

/* The latest ctime becomes the event's; src says where it came from. */
MG_RULE_INLINE void mg_rule_advance(struct mg_rstate *s, const struct mg_rin *in, unsigned int src)
{
	unsigned char known = s->fl & MG_RS_KNOWN;

	if (known)
		mg_rule_hist_push(s, s->max.sec, s->max.nsec);
	s->prev = known ? 1 : 0;
	mg_rule_seen(&s->max, &in->o);	/* hist[0]'s time: the event's */
	s->max_cur = in->o.kind == MG_EV_CTIME_SWAP ? in->cur_nsec & ~MG_I_CTIME_QUERIED : MG_NO_CUR;
	s->max_stat_ns = in->o.kind == MG_EV_STAT ? in->o.t_ns : 0;
	s->fl = (s->fl & MG_RS_PENDING) | MG_RS_KNOWN | (src == MG_SRC_CLOCK ? MG_RS_CLOCK : 0) |
		(in->o.kind == MG_EV_STAT ? MG_RS_STATTED : 0);
}

/* advance, and forget what came before: judge what follows against the new value. */
MG_RULE_INLINE void mg_rule_restart(struct mg_rstate *s, const struct mg_rin *in, unsigned int src)
{
	mg_rule_advance(s, in, src);
	s->prev = 0;
	s->nhist = 0;
}

/*
 * A ctime as one 64-bit word, 0 never: sec * 10^9 + nsec + 1, modulo 2^64 (two
 * ctimes share a word only 584 years apart; the one ctime whose word is 0,
 * 1 ns before the epoch, is never quiet).
 */
MG_RULE_INLINE unsigned long long mg_rule_fp(long long sec, unsigned int nsec)
{
	return (unsigned long long)sec * 1000000000ull + nsec + 1;
}

/*
 * The quiet word of s: 2 * mg_rule_fp() of the latest ctime (modulo 2^64), + 1
 * once a getattr showed it (max_statted), while nothing is held; 0 when the
 * latest ctime is unknown or a getattr is held. Two ctimes share a word only
 * 292 years apart; the rare ctime whose doubled word is 0 is never quiet nor
 * marked. BPF reads it before taking the lock (one aligned 64-bit load, never
 * torn):
 *  - a getattr of the latest ctime with the low bit set, and a skip of it with
 *    the low bit clear, change nothing and report nothing (mg_rule_is_quiet()):
 *    they are counted and not judged;
 *  - one with the low bit clear, when updates carry no entry time, would only
 *    set max_statted (mg_rule_needs_context() is 0 for it): it sets the bit
 *    with one compare-and-exchange (mg_rule_can_mark()), and the next event
 *    judged under the lock folds the bit into max_statted (mg_rule_fold_quiet()).
 * Either way the lock is not taken and no other field is written, so getattrs
 * of one file on many CPUs do not contend. The event is judged as of that load
 * or exchange, as it would be as of taking the lock: the lock's holder first
 * closes a markable word (exchanges it for 0, folding what it held), so no
 * getattr marks it while the state changes under the lock.
 */
MG_RULE_INLINE unsigned long long mg_rule_quiet(const struct mg_rstate *s)
{
	if (!(s->fl & MG_RS_KNOWN) || (s->fl & MG_RS_PENDING))
		return 0;
	return mg_rule_fp(s->max.sec, s->max.nsec) << 1 | ((s->fl & MG_RS_STATTED) ? 1 : 0);
}

/*
 * An event in is quiet against the quiet word q (read without the lock): it would
 * change nothing and report nothing under the lock. A getattr of the latest ctime
 * once a getattr showed it (low bit set); a skip (ctime_xchg_skip) of the latest
 * ctime while no getattr showed it (low bit clear): mg_rule_event_() then finds no
 * held getattr to resolve, no query to skip over (MG_RS_STATTED clear) and no
 * change of value, so it returns untouched. A skip of a shown ctime is judged under
 * the lock (MG_B_SKIP_UNDECIDED, or MG_V_SKIP_AFTER_QUERY with entry times).
 */
MG_RULE_INLINE int mg_rule_is_quiet(unsigned long long q, const struct mg_rin *in)
{
	unsigned long long w = mg_rule_fp(in->o.sec, in->o.nsec) << 1;

	if (in->o.kind == MG_EV_STAT)
		return q == (w | 1);
	return in->o.kind == MG_EV_CTIME_SKIP && q && q == w;
}

/*
 * A getattr in may mark the quiet word q as "a getattr showed the latest
 * ctime" without the lock, by exchanging q for q | 1: q is the latest ctime's
 * word, no getattr showed it yet, and nothing is held. Only when updates carry
 * no entry time (the getattr's time is then never compared: the mark is all
 * mg_rule_event() would keep of it).
 */
MG_RULE_INLINE int mg_rule_can_mark(unsigned long long q, const struct mg_rin *in,
				    int entry_times)
{
	return !entry_times && in->o.kind == MG_EV_STAT && q &&
	       q == mg_rule_fp(in->o.sec, in->o.nsec) << 1;
}

/*
 * Under the lock, before judging: take in w, the quiet word as the lock's
 * holder read or closed it, a mark set without the lock (mg_rule_can_mark()):
 * a getattr showed the latest ctime (its time unknown: max_stat_ns 0).
 */
MG_RULE_INLINE void mg_rule_fold_quiet(struct mg_rstate *s, unsigned long long w)
{
	unsigned long long q = mg_rule_quiet(s);

	if ((w & 1) && q && !(s->fl & MG_RS_STATTED) && w == q + 1) {
		s->fl |= MG_RS_STATTED;
		s->max_stat_ns = 0;
	}
}

#endif /* MG_RULE_STATE_H */
