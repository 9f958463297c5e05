/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rules.h - the per-event rules of `mgtrace check`, written once: pure
 * functions over plain integers and one per-inode state, included by the BPF
 * program that judges each tracepoint event at the event (bpf/mgtrace.bpf.c,
 * under the inode's bpf_res_spin_lock) and by user space (src/util/checker.c: the
 * raw_tp fallback, and the unit tests' synthetic streams). No libc, no
 * vmlinux.h types, no signed division (clang 14 BPF has none), loops bounded
 * by constants.
 *
 * The rules are the kernel's contract, no stricter (fs/inode.c
 * inode_set_ctime_current(), fs/stat.c fill_mg_cmtime(),
 * Documentation/filesystems/multigrain-ts.rst): per inode (dev, ino,
 * generation) the ctimes seen never decrease (MG_V_REGRESSION), an update of a
 * QUERIED ctime yields a later one (MG_V_NOT_LATER), and the kernel never skips
 * an update over a query that provably came first (MG_V_SKIP_AFTER_QUERY).
 * What lies outside the contract, or is a race the events cannot decide, is
 * counted by enum mg_benign_kind and never fails the check (docs/check.md,
 * "Not faults", has the table and what each category is).
 */
#ifndef MG_RULES_H
#define MG_RULES_H

#include "mgtrace.h"

#define MG_RULE_INLINE static inline __attribute__((always_inline))

#define MG_STALE_WINDOW_NS 1000000000ll	/* a racing getattr is delivered within 1 s */
#define MG_HIST 4			/* replaced ctimes remembered per inode */
#define MG_NO_CUR 0xffffffffU		/* max_cur: the maximum was not set by a swap */
#define MG_RULE_MAX_VIOL 2		/* violations one event can produce (resolving a held
					 * getattr, then its own) */

enum mg_violation_kind {
	MG_V_REGRESSION,	/* invariant 1: an observed ctime earlier than one observed before */
	MG_V_NOT_LATER,		/* invariant 2: update of a QUERIED ctime did not yield a later one */
	MG_V_SKIP_AFTER_QUERY,	/* invariant 2: ctime_xchg_skip although a getattr provably set
				 * QUERIED before the update began (needs the update's entry time) */
	MG_V_ORDER,		/* invariant 3: a later modification shows an earlier time */
	MG_V_FLOOR_BACKWARD,	/* floor: mg_floor read later is lower than read earlier */
	MG_V_FINE_UNNEEDED,	/* floor: a fine-grained stamp outside the kernel's own condition */
	MG_V_NR_KINDS,
};

/*
 * Cases that look like a violation but are outside the kernel's contract, or
 * that the events cannot decide. Counted, printed and reported, never a fault.
 */
enum mg_benign_kind {
	MG_B_STALE_READ,	/* getattr read the ctime just before a concurrent update */
	MG_B_REORDERED,		/* swap delivered after the swap that replaced its value */
	MG_B_UNVERIFIED,	/* QUERIED update whose previous ctime was never observed */
	MG_B_GRANULARITY,	/* QUERIED update equal at the filesystem's s_time_gran (> 1 ns) */
	MG_B_FUTURE_CTIME,	/* a stored or explicitly set ctime later than the clock, replaced
				 * by the current time */
	MG_B_SEC_UNSURE,	/* swap whose seconds another update may have overwritten first */
	MG_B_TORN_READ,		/* getattr showing the old seconds with the new nanoseconds */
	MG_B_SKIP_UNDECIDED,	/* skip right after a getattr of the same ctime: the query may
				 * have come after the update's decision (no entry time known) */
	MG_B_CONCURRENT,	/* an earlier ctime from an update that began before the later
				 * one's event: overlapping updates (entry time known) */
	MG_B_CONCURRENT_UNDECIDED, /* the same within 1 s, entry time unknown: undecided */
	MG_B_CONCURRENT_READ,	/* getattr of a concurrent update's value, delivered before
				 * that update's swap event */
	MG_B_UNSEEN,		/* getattr of an older value not among the last MG_HIST the
				 * inode held (no traced update since installed it),
				 * within 1 s of the newer one: undecided */
	MG_B_SET_UNDECIDED,	/* a set over a QUERIED ctime a getattr showed, of an inode
				 * whose i_state could not be read (MG_EVF_STATE_UNKNOWN):
				 * whether it is being set up is unknown: undecided */
	MG_B_NR_KINDS,
};

/*
 * Where an observation's context (tai_ns, entry_ns, pid, cpu, comm) is
 * (struct mg_robs::ctx_from). The per-inode state keeps only what judging
 * reads (struct mg_rseen), and a reference to the context, which its caller
 * keeps in a ring of the last contexts read (BPF: per CPU, "judge_ctx"; user
 * space: the checker's); a report fills it in from there.
 */
enum mg_ctx_from {
	MG_CTX_READ,		/* read at the event: the fields hold it */
	MG_CTX_KEPT,		/* an observation of the state: find it by ctx (the caller) */
	MG_CTX_LOST,		/* not found: overwritten in the ring, or none was read */
};

/* One observation of an inode's ctime, as BPF saw it at the event (72 bytes). */
struct mg_robs {
	long long sec;			/* ctime seconds */
	unsigned int nsec;		/* ctime nanoseconds, QUERIED masked */
	unsigned int kind;		/* enum mg_event_kind */
	unsigned long long t_ns;	/* CLOCK_MONOTONIC of the event (bpf_ktime_get_ns) */
	unsigned long long tai_ns;	/* bpf_ktime_get_tai_ns() right after t_ns (0: unknown) */
	unsigned long long entry_ns;	/* entry of the enclosing inode_set_ctime_current (0: unknown) */
	unsigned int pid, cpu;		/* thread id, CPU */
	char comm[16];			/* copied, never interpreted */
	unsigned int ctx;		/* the caller's reference to where this context is kept
					 * (MG_CTX_REF_MASK bits; 0: none) */
	unsigned int ctx_from;		/* enum mg_ctx_from */
};

/* struct mg_rseen::kc: the kind above the context reference */
#define MG_KC_KIND_SHIFT 30
#define MG_CTX_REF_MASK ((1u << MG_KC_KIND_SHIFT) - 1)

/*
 * An observation as the per-inode state keeps it (24 bytes): what the rules
 * read (the ctime, the monotonic time), the kind (a ctime event's, < 4), and
 * the reference to its context (struct mg_robs::ctx).
 */
struct mg_rseen {
	long long sec;
	unsigned int nsec;		/* QUERIED masked */
	unsigned int kc;		/* kind << MG_KC_KIND_SHIFT | context reference */
	unsigned long long t_ns;
};

/* One event to judge: its observation and what the tracepoint gave besides. */
struct mg_rin {
	struct mg_robs o;
	unsigned int old_nsec;		/* MG_EV_CTIME_SWAP, _SET: i_ctime_nsec before, QUERIED kept */
	unsigned int cur_nsec;		/* MG_EV_CTIME_SWAP: value the cmpxchg replaced, QUERIED kept */
	unsigned int flags;		/* MG_EVF_SEC_UNSURE, MG_EVF_INODE_SETUP */
	unsigned int time_gran;		/* sb->s_time_gran, ns */
	long long step_back_ns;		/* judged in BPF: the last backward realtime step this
					 * program found on this CPU, its largest size (< 0 ns;
					 * 0: none found, or judged in user space) */
	unsigned long long step_back_at; /* CLOCK_MONOTONIC of the event that found it: the
					 * step lies before it (struct mg_rclock) */
};

/* Measurement slack when a step's size is compared with a regression's (ns). */
#define MG_STEP_SLACK_NS 1000

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

/* A violation: the earlier observation and the later one that contradicts it. */
struct mg_rviol {
	unsigned int kind;		/* enum mg_violation_kind */
	unsigned int later_flags;	/* the later event's MG_EVF_* (MG_EVF_DIR of a set), when
					 * that event is the one judged; 0: not known */
	struct mg_robs earlier, later;
};

/*
 * What judging one event found; the caller clears it first with mg_rule_out_init().
 * viol[] is read only below nviol and ben only when has_ben is set.
 */
struct mg_rout {
	unsigned char benign[MG_B_NR_KINDS];	/* not-fault cases found, by kind */
	unsigned int nviol;			/* entries of viol[] used */
	unsigned int overflow;			/* violations beyond MG_RULE_MAX_VIOL (never
						 * expected; counted, not dropped silently) */
	struct mg_rviol viol[MG_RULE_MAX_VIOL];
	unsigned int has_ben;			/* ben holds the first not-fault case */
	struct mg_rviol ben;			/* its kind (enum mg_benign_kind) and the two
						 * observations it was judged on */
};

/*
 * The n-th observation out reports (the violations' earlier and later, then the
 * first not-fault case's), or NULL past the last: for a caller that fills in
 * the context of those the state kept (MG_CTX_KEPT).
 */
MG_RULE_INLINE struct mg_robs *mg_rule_out_obs(struct mg_rout *out, unsigned int n)
{
	unsigned int nv = out->nviol < MG_RULE_MAX_VIOL ? out->nviol : MG_RULE_MAX_VIOL;

	if (n < 2 * nv)
		return n & 1 ? &out->viol[n / 2].later : &out->viol[n / 2].earlier;
	if (out->has_ben && n < 2 * nv + 2)
		return n & 1 ? &out->ben.later : &out->ben.earlier;
	return 0;
}

/*
 * Clear what mg_rule_event() reports: the counts and flags only. viol[] and ben
 * (a few hundred bytes) are written before they become valid, so clearing them
 * on every event, which the BPF side pays for, is not needed.
 */
MG_RULE_INLINE void mg_rule_out_init(struct mg_rout *out)
{
	int i;

	for (i = 0; i < MG_B_NR_KINDS; i++)
		out->benign[i] = 0;
	out->nviol = 0;
	out->overflow = 0;
	out->has_ben = 0;
}

/* -1, 0, 1 as (as, an) < = > (bs, bn). */
MG_RULE_INLINE int mg_rule_cmp(long long as, unsigned int an, long long bs, unsigned int bn)
{
	if (as != bs)
		return as < bs ? -1 : 1;
	if (an != bn)
		return an < bn ? -1 : 1;
	return 0;
}

/*
 * The state's observation o as a report's: its context to be found by the
 * caller (MG_CTX_KEPT: the context fields are not set; mg_ctx_put() sets them,
 * or mg_ctx_lost() clears them).
 */
MG_RULE_INLINE void mg_rule_seen_obs(struct mg_robs *d, const struct mg_rseen *o)
{
	d->sec = o->sec;
	d->nsec = o->nsec;
	d->kind = o->kc >> MG_KC_KIND_SHIFT;
	d->t_ns = o->t_ns;
	d->ctx = o->kc & MG_CTX_REF_MASK;
	d->ctx_from = MG_CTX_KEPT;
}

/* The event's observation o as the state keeps it. */
MG_RULE_INLINE void mg_rule_seen(struct mg_rseen *d, const struct mg_robs *o)
{
	d->sec = o->sec;
	d->nsec = o->nsec;
	d->kc = o->kind << MG_KC_KIND_SHIFT | (o->ctx & MG_CTX_REF_MASK);
	d->t_ns = o->t_ns;
}

/* Into d, the observation es (the state's) or else eo (an event's). */
MG_RULE_INLINE void mg_rule_put_obs(struct mg_robs *d, const struct mg_rseen *es,
				    const struct mg_robs *eo)
{
	if (es)
		mg_rule_seen_obs(d, es);
	else
		*d = *eo;
}

/*
 * A violation of kind: the earlier observation is es (the state's) or else eo,
 * the later one ls or else lo (the callers pass constants: the other is NULL).
 */
MG_RULE_INLINE void mg_rule_viol(struct mg_rout *out, unsigned int kind,
				 const struct mg_rseen *es, const struct mg_robs *eo,
				 const struct mg_rseen *ls, const struct mg_robs *lo,
				 unsigned int later_flags)
{
	unsigned int n = out->nviol;

	if (n >= MG_RULE_MAX_VIOL) {
		out->overflow++;
		return;
	}
	out->viol[n].kind = kind;
	mg_rule_put_obs(&out->viol[n].earlier, es, eo);
	mg_rule_put_obs(&out->viol[n].later, ls, lo);
	out->viol[n].later_flags = later_flags;
	out->nviol = n + 1;
}

/*
 * A not-fault case of kind k, judged on earlier (es or eo) and later (ls or lo),
 * as mg_rule_viol(): counted; the first one kept.
 */
MG_RULE_INLINE void mg_rule_benign(struct mg_rout *out, unsigned int k,
				   const struct mg_rseen *es, const struct mg_robs *eo,
				   const struct mg_rseen *ls, const struct mg_robs *lo)
{
	if (k >= MG_B_NR_KINDS)
		return;
	out->benign[k]++;
	if (out->has_ben)
		return;
	out->has_ben = 1;
	out->ben.kind = k;
	mg_rule_put_obs(&out->ben.earlier, es, eo);
	mg_rule_put_obs(&out->ben.later, ls, lo);
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
 * The event's CLOCK_REALTIME from its BPF-read TAI time, given TAI - REALTIME
 * (a whole number of seconds, adjtimex()); false if unknown.
 */
MG_RULE_INLINE int mg_rule_realtime(const struct mg_robs *o, long long tai_minus_real,
				    long long *sec, unsigned int *nsec)
{
	unsigned long long r = o->tai_ns - (unsigned long long)tai_minus_real;

	if (!o->tai_ns || (long long)r < 0)
		return 0;
	*sec = (long long)(r / 1000000000ull);
	*nsec = (unsigned int)(r % 1000000000ull);
	return 1;
}

/* (sec, nsec), a ctime not from the kernel's clock, is later than the clock at the event. */
MG_RULE_INLINE int mg_rule_future(const struct mg_robs *o, long long tai_minus_real, long long sec,
				  unsigned int nsec)
{
	long long now_sec = 0;
	unsigned int now_nsec = 0;

	return mg_rule_realtime(o, tai_minus_real, &now_sec, &now_nsec) &&
	       mg_rule_cmp(sec, nsec, now_sec, now_nsec) > 0;
}

/*
 * A held getattr (pending, in p): a swap to the value it showed means it read a
 * concurrent update; an event past the window, or in NULL (the end), judges it.
 */
MG_RULE_INLINE void mg_rule_resolve_pending(struct mg_rstate *s, const struct mg_rpend *p,
					    const struct mg_rin *in, struct mg_rout *out)
{
	if (in && in->o.kind == MG_EV_CTIME_SWAP && in->o.sec == p->pend.sec &&
	    in->o.nsec == p->pend.nsec) {
		mg_rule_benign(out, MG_B_CONCURRENT_READ, &p->pend, 0, 0, &in->o);
		s->fl &= ~MG_RS_PENDING;
		return;
	}
	if (in && (long long)(in->o.t_ns - p->pend.t_ns) < MG_STALE_WINDOW_NS)
		return;
	s->fl &= ~MG_RS_PENDING;
	/* a swap delivered since (reordered) may have shown that the inode held the value */
	if (mg_rule_held_recently(s, p->pend.sec, p->pend.nsec, p->pend.t_ns)) {
		mg_rule_benign(out, MG_B_STALE_READ, &p->earlier, 0, &p->pend, 0);
		return;
	}
	/* a value no traced update installed, within the window of the newer one: undecided */
	if ((long long)(p->pend.t_ns - p->earlier.t_ns) < MG_STALE_WINDOW_NS) {
		mg_rule_benign(out, MG_B_UNSEEN, &p->earlier, 0, &p->pend, 0);
		return;
	}
	mg_rule_viol(out, MG_V_REGRESSION, &p->earlier, 0, &p->pend, 0, 0);
}

/*
 * The update in, earlier than the latest ctime by gap ns, follows a backward
 * realtime step that can explain it: one found by its program on its CPU after
 * the latest value's event (its window, which ends at that finding, overlaps
 * the two events), at least gap large (less MG_STEP_SLACK_NS). User space
 * attributes the regression to the same step record (src/util/checker_record.c).
 */
MG_RULE_INLINE int mg_rule_step_explains(const struct mg_rstate *s, const struct mg_rin *in)
{
	long long gap;

	if (in->step_back_ns >= 0 || in->step_back_at < s->max.t_ns)
		return 0;
	if (s->max.sec - in->o.sec >= 9000000000ll)
		return 0;	/* beyond any step a 64-bit size holds (and the product's range) */
	gap = (s->max.sec - in->o.sec) * 1000000000ll + ((long long)s->max.nsec - in->o.nsec);
	return -in->step_back_ns + MG_STEP_SLACK_NS >= gap;
}

/*
 * The event shows a ctime earlier than the latest seen: a race the kernel
 * allows, a case outside its contract, or a regression.
 */
MG_RULE_INLINE void mg_rule_earlier(struct mg_rstate *s, struct mg_rpend *p,
				    const struct mg_rin *in, long long tai_minus_real,
				    struct mg_rout *out)
{
	/* signed: a racing read may be stamped before the update delivered ahead of it */
	long long age = (long long)(in->o.t_ns - s->max.t_ns), psec = 0;
	unsigned int k = in->o.kind, pnsec = 0;

	/* a getattr reads the ctime before its tracepoint fires, a skip reports the value
	 * its update loaded before deciding: a value held shortly before is a stale read */
	if ((k == MG_EV_STAT || k == MG_EV_CTIME_SKIP) &&
	    mg_rule_held_recently(s, in->o.sec, in->o.nsec, in->o.t_ns)) {
		mg_rule_benign(out, MG_B_STALE_READ, &s->max, 0, 0, &in->o);
		return;
	}
	/* fill_mg_cmtime reads i_ctime_sec, then i_ctime_nsec; an update swaps the
	 * nanoseconds, then stores the seconds: a read between shows old sec, new nsec */
	if (k == MG_EV_STAT && mg_rule_prev(s, &psec, &pnsec) && in->o.sec == psec &&
	    in->o.nsec == s->max.nsec && age < MG_STALE_WINDOW_NS) {
		mg_rule_benign(out, MG_B_TORN_READ, &s->max, 0, 0, &in->o);
		return;
	}
	if (k == MG_EV_CTIME_SWAP && s->max_cur == in->o.nsec) {
		/* the inode held this value until the swap that set max replaced it */
		mg_rule_benign(out, MG_B_REORDERED, &s->max, 0, 0, &in->o);
		mg_rule_hist_push(s, in->o.sec, in->o.nsec);	/* replaced at max.t_ns */
		return;
	}
	/* an update after a step of the clock back: a regression the step explains, reported
	 * as such (not taken for a future ctime or for overlapping updates) */
	if ((k == MG_EV_CTIME_SWAP || k == MG_EV_CTIME_SET) && mg_rule_step_explains(s, in)) {
		mg_rule_viol(out, MG_V_REGRESSION, &s->max, 0, 0, &in->o, in->flags);
		mg_rule_restart(s, in, k == MG_EV_CTIME_SWAP ? MG_SRC_CLOCK : MG_SRC_OTHER);
		return;
	}
	/* a ctime from disk or set explicitly, later than the clock: the kernel replaces it */
	if (!(s->fl & MG_RS_CLOCK) &&
	    mg_rule_future(&in->o, tai_minus_real, s->max.sec, s->max.nsec)) {
		mg_rule_benign(out, MG_B_FUTURE_CTIME, &s->max, 0, 0, &in->o);
		mg_rule_restart(s, in, k == MG_EV_CTIME_SWAP ? MG_SRC_CLOCK : MG_SRC_OTHER);
		return;
	}
	/* an update that began before the newer value's event may carry an older clock
	 * read (the QUERIED retry swaps without comparing again): overlapping updates
	 * have no order. Without the entry time, undecided within the window. */
	if (k == MG_EV_CTIME_SWAP &&
	    (in->o.entry_ns ? (long long)(s->max.t_ns - in->o.entry_ns) > 0 :
			      age < MG_STALE_WINDOW_NS)) {
		mg_rule_benign(out, in->o.entry_ns ? MG_B_CONCURRENT : MG_B_CONCURRENT_UNDECIDED,
			       &s->max, 0, 0, &in->o);
		mg_rule_restart(s, in, MG_SRC_CLOCK);	/* the inode holds this value now */
		return;
	}
	/* a getattr of an older value not seen before may show a concurrent update's
	 * value whose swap event is still to come: hold it (one at a time) */
	if (k == MG_EV_STAT || k == MG_EV_CTIME_SKIP) {
		/* never without storage: mg_rule_event() refuses such an event
		 * (mg_rule_needs_pend()); tested for the verifier, and never a fault */
		if (!p)
			return;
		if (s->fl & MG_RS_PENDING)
			mg_rule_resolve_pending(s, p, 0, out);
		s->fl |= MG_RS_PENDING;
		mg_rule_seen(&p->pend, &in->o);
		p->earlier = s->max;
		return;
	}
	mg_rule_viol(out, MG_V_REGRESSION, &s->max, 0, 0, &in->o, in->flags);
	mg_rule_restart(s, in, k == MG_EV_CTIME_SWAP ? MG_SRC_CLOCK : MG_SRC_OTHER);
}

/*
 * Invariant 2 for an update whose replaced value (old_nsec) carried QUERIED: a
 * swap (its decision value), or a set (inode_set_ctime_to_ts(), whose tracepoint
 * fires before its store; see mg_rule_set_after_query()).
 */
MG_RULE_INLINE void mg_rule_queried_swap(struct mg_rstate *s, const struct mg_rin *in,
					 long long tai_minus_real, struct mg_rout *out)
{
	unsigned int old = in->old_nsec & ~MG_I_CTIME_QUERIED, bnsec = 0, bsrc;
	const struct mg_rseen *base_seen = 0;
	long long bsec = 0;

	/* the replaced value: the latest seen, or the one before if a getattr of the new
	 * value was delivered ahead of this swap (the observation of that one is gone:
	 * this event's is reported) */
	if ((s->fl & MG_RS_KNOWN) && s->max.nsec == old) {
		bsec = s->max.sec;
		bnsec = s->max.nsec;
		base_seen = &s->max;
		bsrc = s->fl & MG_RS_CLOCK ? MG_SRC_CLOCK : MG_SRC_OTHER;
	} else if ((s->fl & MG_RS_KNOWN) && mg_rule_prev(s, &bsec, &bnsec) && bnsec == old &&
		   !mg_rule_cmp(in->o.sec, in->o.nsec, s->max.sec, s->max.nsec)) {
		bsrc = MG_SRC_OTHER;
	} else {
		mg_rule_benign(out, MG_B_UNVERIFIED, 0, &in->o, 0, &in->o);
		return;
	}
	if (mg_rule_cmp(in->o.sec, in->o.nsec, bsec, bnsec) != 0)
		return;		/* later: holds; earlier: judged as a regression */
	if (in->time_gran > 1) {
		mg_rule_benign(out, MG_B_GRANULARITY, base_seen, base_seen ? 0 : &in->o, 0, &in->o);
		return;
	}
	if (bsrc == MG_SRC_OTHER && mg_rule_future(&in->o, tai_minus_real, bsec, bnsec)) {
		mg_rule_benign(out, MG_B_FUTURE_CTIME, base_seen, base_seen ? 0 : &in->o, 0, &in->o);
		return;
	}
	mg_rule_viol(out, MG_V_NOT_LATER, base_seen, base_seen ? 0 : &in->o, 0, &in->o, in->flags);
}

/*
 * A set (inode_set_ctime_to_ts()) is a change after a query, held to invariant 2
 * like a swap, when the ctime it replaces carried QUERIED and is the latest
 * value a getattr was seen to show (max, max_statted: QUERIED is then this
 * inode's own, not a stale bit of the memory it was allocated in), and the
 * inode is not being set up (MG_EVF_INODE_SETUP: I_NEW, loaded from disk). Where
 * the inode's state could not be read (MG_EVF_STATE_UNKNOWN) the set is counted
 * as undecided (MG_B_SET_UNDECIDED), never passed silently.
 * Documentation/filesystems/multigrain-ts.rst asks a FS_MGTIME filesystem to
 * set the ctime only through inode_set_ctime_current(), which takes a
 * fine-grained time after a query; a set copies a time taken for another inode
 * (tmpfs link and unlink stamp the child and copy its ctime onto the directory,
 * mm/shmem.c), so a directory queried and then changed may keep its ctime.
 * Only QUERIED ctimes reach here: they exist only on FS_MGTIME inodes. A set has
 * no decision point to judge by, as a swap has (its old value): a getattr that
 * lands between the child's stamp and the set, within one system call, counts
 * as a query before the set (where the kernel's swap path would tolerate a
 * query concurrent with its decision).
 */
MG_RULE_INLINE int mg_rule_set_over_query(const struct mg_rstate *s, const struct mg_rin *in)
{
	return in->o.kind == MG_EV_CTIME_SET && !(in->flags & MG_EVF_INODE_SETUP) &&
	       (in->old_nsec & MG_I_CTIME_QUERIED) && (s->fl & MG_RS_KNOWN) &&
	       (s->fl & MG_RS_STATTED) && s->max.nsec == (in->old_nsec & ~MG_I_CTIME_QUERIED);
}

/* A set over a query held to invariant 2: its inode's state was read (not being set up). */
MG_RULE_INLINE int mg_rule_set_after_query(const struct mg_rstate *s, const struct mg_rin *in)
{
	return mg_rule_set_over_query(s, in) && !(in->flags & MG_EVF_STATE_UNKNOWN);
}

/* The rules of mg_rule_event(), before the state's quiet word is set. */
MG_RULE_INLINE void mg_rule_event_(struct mg_rstate *s, struct mg_rpend *p,
				   const struct mg_rin *in, long long tai_minus_real,
				   struct mg_rout *out)
{
	unsigned int k = in->o.kind;
	int cmp;

	/* p is NULL only where no rule reads it (mg_rule_event()): tested again where
	 * it is read, for the verifier, which does not see that */
	if ((s->fl & MG_RS_PENDING) && p)
		mg_rule_resolve_pending(s, p, in, out);
	if (k == MG_EV_CTIME_SWAP && (in->flags & MG_EVF_SEC_UNSURE)) {
		/* the nanoseconds are this swap's, the seconds may be another's: not judged */
		mg_rule_benign(out, MG_B_SEC_UNSURE, 0, &in->o, 0, &in->o);
		return;
	}
	if ((k == MG_EV_CTIME_SWAP && (in->old_nsec & MG_I_CTIME_QUERIED)) ||
	    mg_rule_set_after_query(s, in))
		mg_rule_queried_swap(s, in, tai_minus_real, out);
	else if (k == MG_EV_CTIME_SET && mg_rule_set_over_query(s, in))
		mg_rule_benign(out, MG_B_SET_UNDECIDED, &s->max, 0, 0, &in->o);
	/*
	 * The kernel skips only when the value it loaded equals the new time exactly,
	 * and a time's nanoseconds never carry QUERIED: it never skips over a QUERIED
	 * ctime it saw. A getattr of the same value proves QUERIED only if it finished
	 * before the update began (entry_ns, function probes) with no update between.
	 */
	if (k == MG_EV_CTIME_SKIP && (s->fl & MG_RS_KNOWN) && (s->fl & MG_RS_STATTED) &&
	    !mg_rule_cmp(in->o.sec, in->o.nsec, s->max.sec, s->max.nsec)) {
		if (in->time_gran > 1)
			mg_rule_benign(out, MG_B_GRANULARITY, &s->max, 0, 0, &in->o);
		else if (in->o.entry_ns && s->max_stat_ns && s->max_stat_ns < in->o.entry_ns)
			mg_rule_viol(out, MG_V_SKIP_AFTER_QUERY, &s->max, 0, 0, &in->o, in->flags);
		else
			mg_rule_benign(out, MG_B_SKIP_UNDECIDED, &s->max, 0, 0, &in->o);
	}
	/* invariant 1: no regression */
	if (s->fl & MG_RS_KNOWN) {
		cmp = mg_rule_cmp(in->o.sec, in->o.nsec, s->max.sec, s->max.nsec);
		if (cmp == 0) {
			if (k == MG_EV_CTIME_SWAP)
				s->fl |= MG_RS_CLOCK;
			/* a set stores the nanoseconds without QUERIED: no getattr has shown
			 * the ctime since (a skip after it is no skip after a query) */
			if (k == MG_EV_CTIME_SET) {
				s->fl &= ~MG_RS_STATTED;
				s->max_stat_ns = 0;
			}
			if (k == MG_EV_STAT && !(s->fl & MG_RS_STATTED)) {
				s->fl |= MG_RS_STATTED;
				s->max_stat_ns = in->o.t_ns;
			}
			return;
		}
		if (cmp < 0) {
			mg_rule_earlier(s, p, in, tai_minus_real, out);
			return;
		}
	}
	mg_rule_advance(s, in, k == MG_EV_CTIME_SWAP ? MG_SRC_CLOCK : MG_SRC_OTHER);
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
 *  - a getattr of the latest ctime with the low bit set changes nothing and
 *    reports nothing (mg_rule_is_quiet()): it is counted and not judged;
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

/* A getattr in is quiet against the quiet word q (read without the lock). */
MG_RULE_INLINE int mg_rule_is_quiet(unsigned long long q, const struct mg_rin *in)
{
	return in->o.kind == MG_EV_STAT && q == (mg_rule_fp(in->o.sec, in->o.nsec) << 1 | 1);
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

/*
 * Whether judging in against s may read or write the held getattr (struct
 * mg_rpend): one is held, or in is a getattr or skip of a ctime earlier than
 * the latest that is not a value the inode held shortly before (it may be
 * held: mg_rule_earlier(); a stale read is not). A superset, decided before
 * any rule changes s (the unit test rule_needs_context judges streams with the
 * storage given only where it says). BPF decides it first on the state read
 * without the lock, to look the storage up (no helper may run under the lock;
 * the event's clock is read by then: mg_rule_needs_context() holds for such a
 * getattr), and again under it.
 */
MG_RULE_INLINE int mg_rule_needs_pend(const struct mg_rstate *s, const struct mg_rin *in)
{
	unsigned int k = in->o.kind;

	if (s->fl & MG_RS_PENDING)
		return 1;
	return (k == MG_EV_STAT || k == MG_EV_CTIME_SKIP) && (s->fl & MG_RS_KNOWN) &&
	       mg_rule_cmp(in->o.sec, in->o.nsec, s->max.sec, s->max.nsec) < 0 &&
	       !mg_rule_held_recently(s, in->o.sec, in->o.nsec, in->o.t_ns);
}

/*
 * Judge one ctime event (MG_EV_CTIME_SWAP, _SKIP, _STAT, _SET) of the inode
 * whose state is s, its held getattr in p, in delivery order; tai_minus_real is
 * TAI - REALTIME (ns). Updates s, its quiet word last, and p; adds to out
 * (cleared by the caller with mg_rule_out_init()). Returns 0, or -1 with
 * nothing judged or changed when p is NULL (no storage for a held getattr:
 * BPF's map full) and the event needs it (mg_rule_needs_pend()).
 */
MG_RULE_INLINE int mg_rule_event(struct mg_rstate *s, struct mg_rpend *p, const struct mg_rin *in,
				 long long tai_minus_real, struct mg_rout *out)
{
	unsigned long long q;

	if (!p && mg_rule_needs_pend(s, in))
		return -1;
	mg_rule_event_(s, p, in, tai_minus_real, out);
	q = mg_rule_quiet(s);
	if (s->quiet != q)	/* written only when it changes: readers on other CPUs
				 * keep their copy of the line */
		s->quiet = q;
	return 0;
}

/*
 * End of the stream: judge a getattr still held in p (its swap never came).
 * Returns 0, or -1 with nothing judged when one is held and p is NULL (its
 * storage lost: never expected; the caller counts it).
 */
MG_RULE_INLINE int mg_rule_finish(struct mg_rstate *s, const struct mg_rpend *p,
				  struct mg_rout *out)
{
	if ((s->fl & MG_RS_PENDING) && !p)
		return -1;
	if (s->fl & MG_RS_PENDING)
		mg_rule_resolve_pending(s, p, 0, out);
	s->quiet = mg_rule_quiet(s);
	return 0;
}

/*
 * Whether judging in against s reads the event's context: its clocks
 * (in->o.t_ns, tai_ns, the step fields), thread id, CPU and comm. 0 only for a
 * getattr of the latest ctime when nothing is held and its time can never be
 * compared: a getattr showed that ctime before, or updates carry no entry time
 * (entry_times 0: tracepoints only; a getattr's time is compared only with an
 * update's entry time, MG_V_SKIP_AFTER_QUERY). mg_rule_event() then only marks
 * max_statted: it reports nothing and keeps nothing of the event's context.
 * So the most common event of a write+stat workload (with tracepoints only,
 * every getattr of the current ctime) is judged without the two clock reads,
 * which are a third of the handler's cost here (bench/notes.md). The caller
 * decides under the inode's lock, or checks again there. The unit tests judge
 * streams side by side with and without these events' context.
 */
MG_RULE_INLINE int mg_rule_needs_context(const struct mg_rstate *s, const struct mg_rin *in,
				       int entry_times)
{
	return !(in->o.kind == MG_EV_STAT && (s->fl & MG_RS_KNOWN) && !(s->fl & MG_RS_PENDING) &&
		 in->o.sec == s->max.sec && in->o.nsec == s->max.nsec &&
		 ((s->fl & MG_RS_STATTED) || !entry_times));
}

/*
 * An event has an inode to judge it against once the inode has its number, or
 * when it is a swap of an inode whose address is known (addr_known: in BPF, and
 * in user space for an event whose record carries it).
 * Filesystems set a new in-core inode's timestamps while they initialise it, some
 * before i_ino: xfs loading an inode from disk, overlayfs copying the real inode's
 * attributes (ovl_inode_init() before ovl_map_ino()); those inode_set_ctime_to_ts
 * events carry i_ino 0, and unrelated inodes would meet under (dev, 0, gen): the
 * generation is the disk's or 0, and an inode allocated where another was freed
 * would find that one's state. Such events are counted
 * (events_without_inode_number), never judged. A swap with number 0 is xfs
 * stamping a file it creates (xfs_init_new_inode(): the times before
 * xfs_setup_inode() sets i_ino, i_generation already set, at random): under
 * (dev, 0, gen, addr) it is one inode's creation, and the key with the number
 * takes its state at its first event (bpf/mg_judge.bpf.h mg_judge_adopt(),
 * src/util/checker.c), so that the creation's ctime is the base of the next update.
 */
MG_RULE_INLINE int mg_rule_has_identity(unsigned long long ino, int addr_known, unsigned int kind)
{
	return ino != 0 || (addr_known && kind == MG_EV_CTIME_SWAP);
}

/*
 * Clock steps, judged per CPU from the clocks read at each event: t0 =
 * CLOCK_MONOTONIC, then tai = CLOCK_TAI, and, only when needed, t1 =
 * CLOCK_MONOTONIC again. TAI - MONOTONIC is the kernel's offs_tai: setting
 * CLOCK_REALTIME (settimeofday, clock_settime, adjtimex ADJ_SETOFFSET) moves it,
 * and so does adjtimex ADJ_TAI (a change of the TAI offset, seen as a step of
 * whole seconds); a leap second does not (REALTIME and the TAI offset move
 * together). The fast clocks read it as mono(now) + offs_tai, so x = tai - t0 >=
 * offs_tai >= tai - t1: [tai - t1, x] brackets it.
 *
 * struct mg_rclock keeps the last measured bracket [lo, hi] (an event where t1
 * was read). A later event reads t1 only when:
 *  - x < lo: offs_tai fell below a proven lower bound (a step back);
 *  - x > hi + MG_CLK_RISE_NS (possibly a step forward);
 *  - the bracket is wider than MG_CLK_WIDE_NS (an interrupt between its reads,
 *    or a machine whose clock reads are slow: then every event measures);
 *  - or it is older than MG_CLK_REFRESH_NS.
 * A measured bracket disjoint from the kept one is a step, reported with the
 * window from the kept bracket's measurement to this event: offs_tai was inside
 * the kept bracket at its measurement, so the step lies in that window.
 *
 * What this gives up against reading t1 at every event: a step forward of up to
 * MG_CLK_RISE_NS + MG_CLK_WIDE_NS (0.35 us) may go unreported (it cannot explain
 * a violation: no ctime gets earlier when the clock jumps ahead), and then, until
 * the next measurement (at most MG_CLK_REFRESH_NS later), a step back is seen
 * net of it: two steps within 100 us, the first forward and under 0.35 us, look
 * like their sum, as two steps between one event and the next always did.
 */
#define MG_CLK_RISE_NS 100LL
#define MG_CLK_WIDE_NS 250LL
#define MG_CLK_REFRESH_NS 100000ULL

struct mg_rclock {
	long long lo, hi;		/* the last measured bracket of TAI - MONOTONIC, ns */
	unsigned long long measured;	/* CLOCK_MONOTONIC when it was measured (0: never) */
	long long back_lo;		/* the last step found that was surely backward: its
					 * largest size (< 0 ns; 0: none yet) */
	unsigned long long back_at;	/* CLOCK_MONOTONIC of the event that found it */
};

/* True when the event with clocks t0, tai needs t1 (mg_rule_clock_measure()). */
MG_RULE_INLINE int mg_rule_clock_need_t1(const struct mg_rclock *c, unsigned long long t0,
					 unsigned long long tai)
{
	long long x = (long long)(tai - t0);

	return !c->measured || t0 - c->measured > MG_CLK_REFRESH_NS || x < c->lo ||
	       x > c->hi + MG_CLK_RISE_NS || c->hi - c->lo > MG_CLK_WIDE_NS;
}

/*
 * An event whose t1 was read: measures [tai - t1, tai - t0] and keeps it;
 * returns 1 if it is disjoint from the bracket kept so far (a step: *t_from,
 * when that bracket was measured, and the step's size in [*dlo, *dhi] ns,
 * negative for back), else 0.
 */
MG_RULE_INLINE int mg_rule_clock_measure(struct mg_rclock *c, unsigned long long t0,
					 unsigned long long tai, unsigned long long t1,
					 unsigned long long *t_from, long long *dlo, long long *dhi)
{
	long long lo = (long long)(tai - t1), hi = (long long)(tai - t0);
	int step = c->measured && (hi < c->lo || lo > c->hi);

	if (step) {
		*t_from = c->measured;
		*dlo = lo - c->hi;
		*dhi = hi - c->lo;
		if (*dhi < 0) {
			c->back_lo = *dlo;
			c->back_at = t0;
		}
	}
	c->lo = lo;
	c->hi = hi;
	c->measured = t0;
	return step;
}

/* mg_rule_floor() result bits. */
#define MG_RF_FLOOR_CHECKED	(1U << 0)	/* mg_floor was read at entry and exit */
#define MG_RF_FLOOR_BACKWARD	(1U << 1)	/* violation: the second read is lower */
#define MG_RF_FINE_DECIDED	(1U << 2)	/* the fine-stamp condition was decided */
#define MG_RF_FINE_UNNEEDED	(1U << 3)	/* violation: a fine stamp it did not need */

/*
 * The two floor invariants of one fine stamp (bpf/floor.bpf.c's MG_EV_FLOOR_*
 * event): mg_floor read at entry (before) and at return (after) of
 * ktime_get_real_ts64_mg, in that order, and the MG_EVF_FINE_* decision.
 * Returns MG_RF_* bits; a floor event without MG_RF_FINE_DECIDED is undecided.
 */
MG_RULE_INLINE unsigned int mg_rule_floor(unsigned int floor_known, unsigned long long before,
					  unsigned long long after, unsigned int flags)
{
	unsigned int r = 0;

	if (floor_known) {
		r |= MG_RF_FLOOR_CHECKED;
		if (after < before)
			r |= MG_RF_FLOOR_BACKWARD;
	}
	if (flags & (MG_EVF_FINE_NEEDED | MG_EVF_FINE_UNNEEDED)) {
		r |= MG_RF_FINE_DECIDED;
		if (flags & MG_EVF_FINE_UNNEEDED)
			r |= MG_RF_FINE_UNNEEDED;
	}
	return r;
}

/* ---- judging in BPF (bpf/mg_judge.bpf.h, src/util/judge.c) ---- */

/* Key of the BPF hash "inodes": the kernel's identity of an inode. */
struct mg_inode_key {
	unsigned long long ino;		/* inode->i_ino */
	unsigned int dev;		/* kernel dev_t, inode->i_sb->s_dev */
	unsigned int gen;		/* inode->i_generation */
	unsigned long long addr;	/* the struct inode's address: btrfs subvolumes and
					 * snapshots share s_dev, and a snapshot's file keeps the
					 * inode number and generation of the original (0: not
					 * known, user-space judging and the test hook) */
};

/*
 * Value of "inodes" without its lock: the first word is the struct
 * bpf_res_spin_lock of the map's value (bpf/mg_judge.bpf.h), which the kernel
 * never copies to or from user space. No name: a report reads the inode's name
 * when it is written (the event's inode; at the end, inode_name), so the map
 * holds only what judging needs.
 */
struct mg_inode_plain {
	unsigned int lock;
	unsigned int moved;		/* check --forget: this generation's state was copied
					 * into the next generation's map, which holds the
					 * inode now (bpf/mg_judge.bpf.h mg_judge_migrate()) */
	struct mg_rstate s;
};

/*
 * 112 bytes: with struct htab_elem's 48, the 24-byte key and the allocator's
 * 8-byte list node, one kmalloc-192 object per inode (kernel/bpf/memalloc.c;
 * docs/check.md "Memory"). A held getattr (struct mg_rpend) is kept apart.
 */
_Static_assert(sizeof(struct mg_inode_plain) == 112, "the per-inode value is 112 bytes");
_Static_assert(sizeof(struct mg_rpend) == 48, "a held getattr is 48 bytes");

/*
 * One observation's context, kept for a report in a ring of the last ones
 * (BPF: "judge_ctx", one ring per CPU, of the observations the per-inode
 * state came to hold; user space: the checker's), where struct mg_rseen::kc
 * refers to it (mg_ctx_ref()): 48 bytes.
 */
struct mg_rctx {
	unsigned long long t_ns;	/* the observation's CLOCK_MONOTONIC: checked on lookup */
	unsigned long long tai_ns, entry_ns;
	unsigned int pid, cpu;
	char comm[16];
};

#define MG_CTX_RING_BITS 10
#define MG_CTX_RING (1u << MG_CTX_RING_BITS)	/* contexts kept per CPU (BPF) */
#define MG_CTX_SEQ_BITS 18			/* of a reference: the slot's sequence */
#define MG_CTX_MAX_CPUS ((1u << (MG_KC_KIND_SHIFT - MG_CTX_SEQ_BITS)) - 1)
						/* CPUs whose contexts a reference can name:
						 * 4095 (the others' are not kept) */

/* BPF's ring of one CPU: the value of "judge_ctx" (key: the CPU). */
struct mg_ctx_ring {
	unsigned long long head;	/* contexts kept so far; the next goes to head % MG_CTX_RING */
	struct mg_rctx e[MG_CTX_RING];
};

/* The reference to context seq (a ring's count) of ring (CPU) ring: never 0. */
MG_RULE_INLINE unsigned int mg_ctx_ref(unsigned int ring, unsigned long long seq)
{
	return (ring + 1) << MG_CTX_SEQ_BITS | (unsigned int)(seq & ((1u << MG_CTX_SEQ_BITS) - 1));
}

/*
 * The sequence that reference ref names in a ring of size slots whose head is
 * head: the latest one before head with the reference's low bits; into *ring
 * its ring. 0 when ref names none, or that slot has been overwritten since (it
 * lies size or more before head), else 1.
 */
MG_RULE_INLINE int mg_ctx_seq(unsigned int ref, unsigned long long head, unsigned int size,
			      unsigned int *ring, unsigned long long *seq)
{
	unsigned long long mask = (1ull << MG_CTX_SEQ_BITS) - 1, low = ref & mask;

	if (!(ref >> MG_CTX_SEQ_BITS) || !head)
		return 0;
	*ring = (ref >> MG_CTX_SEQ_BITS) - 1;
	*seq = head - 1 - ((head - 1 - low) & mask);
	return head - *seq <= size;
}

/*
 * The slot of entries (a ring of size slots, a power of two, whose head is
 * head; its id ring_id) that holds observation o's context (reference o->ctx),
 * or NULL: the reference names another ring or none, the slot was overwritten
 * since (head moved size or more past it), or it holds another observation
 * (its t_ns differs). BPF's rings (bpf/mg_judge.bpf.h), and user space's after
 * the run (src/util/judge_pass.c) and under --judge user (src/util/checker.c).
 */
MG_RULE_INLINE const struct mg_rctx *mg_ctx_find(const struct mg_rctx *entries, unsigned int size,
						 unsigned long long head, unsigned int ring_id,
						 const struct mg_robs *o)
{
	unsigned long long seq = 0;
	unsigned int ring = 0;
	const struct mg_rctx *e;

	if (!mg_ctx_seq(o->ctx, head, size, &ring, &seq) || ring != ring_id)
		return 0;
	e = &entries[seq & (size - 1)];
	return e->t_ns == o->t_ns ? e : 0;
}

/* Context e into o, an observation whose context was kept (MG_CTX_KEPT): read. */
MG_RULE_INLINE void mg_ctx_put(struct mg_robs *o, const struct mg_rctx *e)
{
	int i;

	o->tai_ns = e->tai_ns;
	o->entry_ns = e->entry_ns;
	o->pid = e->pid;
	o->cpu = e->cpu;
	for (i = 0; i < 16; i++)
		o->comm[i] = e->comm[i];
	o->ctx_from = MG_CTX_READ;
}

/* Observation o, whose context was not found: MG_CTX_LOST, its context fields cleared. */
MG_RULE_INLINE void mg_ctx_lost(struct mg_robs *o)
{
	struct mg_rctx none = {};

	mg_ctx_put(o, &none);
	o->ctx_from = MG_CTX_LOST;
}

/* Observation o's context into e (its slot). */
MG_RULE_INLINE void mg_ctx_take(struct mg_rctx *e, const struct mg_robs *o)
{
	int i;

	e->t_ns = o->t_ns;
	e->tai_ns = o->tai_ns;
	e->entry_ns = o->entry_ns;
	e->pid = o->pid;
	e->cpu = o->cpu;
	for (i = 0; i < 16; i++)
		e->comm[i] = o->comm[i];
}

/*
 * A held getattr's two contexts, kept apart from the rings when it is held: it
 * is judged when its 1 s window ends, by when the rings under load have
 * overwritten both (BPF: the value of the LRU hash "judge_held", by inode). A
 * context whose t_ns is 0 was not found when the getattr was held.
 */
struct mg_held {
	struct mg_rctx pend;		/* the held getattr's (struct mg_rpend::pend) */
	struct mg_rctx earlier;		/* the newer value's it was older than (earlier) */
};

#define MG_HELD_ENTRIES 4096		/* inodes whose held getattr's contexts are kept */

/* Into o (MG_CTX_KEPT), the context of h (a held getattr's) with o's time: 1, else 0. */
MG_RULE_INLINE int mg_held_put(struct mg_robs *o, const struct mg_held *h)
{
	if (h->pend.t_ns && h->pend.t_ns == o->t_ns) {
		mg_ctx_put(o, &h->pend);
		return 1;
	}
	if (h->earlier.t_ns && h->earlier.t_ns == o->t_ns) {
		mg_ctx_put(o, &h->earlier);
		return 1;
	}
	return 0;
}

/*
 * The input and output of bpf/mgtrace.bpf.c's syscall program inode_name
 * (BPF_PROG_TEST_RUN, copied back; src/util/judge.c at the end of a run): the name
 * of the inode of key, read through key.addr while that memory still holds the
 * inode (mg_inode_alive()), for a violation judged when no event names it.
 */
struct mg_name_ctx {
	struct mg_inode_key key;	/* in */
	unsigned int alive;		/* out: the inode still exists (0: gone, no name) */
	unsigned int name_len;		/* out: d_name.len (0: no dentry); > strlen(name): cut */
	char name[MG_NAME_LEN];		/* out: last path component, NUL-terminated, cut */
};

/*
 * Value of the BPF_MAP_TYPE_PERCPU_ARRAY "judge_counts": one per possible CPU.
 * Every judged tracepoint event is counted here, and only violations cross the
 * ring buffer (struct mg_vrec).
 */
struct mg_judge_counts {
	unsigned long long by_kind[MG_EV_NR_KINDS];	/* events judged, by enum mg_event_kind */
	unsigned long long benign[MG_B_NR_KINDS];	/* not-fault cases, by enum mg_benign_kind */
	unsigned long long violations[MG_V_NR_KINDS];	/* violations found (records may be lost) */
	unsigned long long untracked;	/* events of inodes "inodes" could not hold (E2BIG) */
	unsigned long long no_ino;	/* events of inodes without an inode number yet, other
					 * than xfs's creation swap (not judged:
					 * mg_rule_has_identity()) */
	unsigned long long inodes;	/* inodes entered into "inodes" */
	unsigned long long records;	/* violation records written to the ring buffer */
	unsigned long long lost;	/* violation records lost: ring buffer full */
	unsigned long long overflow;	/* violations beyond MG_RULE_MAX_VIOL in one event */
	unsigned long long examples;	/* not-fault example records written */
	unsigned long long examples_lost;	/* not-fault example records lost (counts exact) */
	unsigned long long clock_steps;	/* clock-step records written (struct mg_steprec) */
	unsigned long long steps_lost;	/* clock-step records lost: ring buffer full */
	unsigned long long clock_brackets;	/* events that measured a clock bracket (read
						 * t1: mg_rule_clock_need_t1()) */
	unsigned long long lock_failed;	/* events not judged: the inode's bpf_res_spin_lock
					 * failed (deadlock or timeout detected; inconclusive) */
	unsigned long long quiet;	/* getattrs judged without the lock: found quiet
					 * (mg_rule_is_quiet()) or marking the quiet word
					 * (mg_rule_can_mark()); also in context_free */
	unsigned long long context_free;	/* events judged without reading a clock
					 * (mg_rule_needs_context()) */
	unsigned long long out_of_scope;	/* check --tree: events of inodes not in the map,
					 * by a process outside COMMAND's tree: not judged
					 * (such an inode enters only through the tree) */
	unsigned long long migrated;	/* check --forget: inodes whose state was copied from
					 * the previous generation's map into the current one */
	unsigned long long forget_raced;	/* check --forget: events not judged (also in
					 * untracked) because their inode's state was being
					 * moved between generations at that moment */
	unsigned long long adopted;	/* inodes entered with the state of their creation,
					 * judged under i_generation 0 (ext4, tmpfs) or i_ino
					 * 0 (xfs) before the filesystem set it
					 * (mg_judge_adopt()) */
	unsigned long long adopted_moved;	/* of those, creation entries deleted by the
					 * event that took them (the rest: by the inode GC) */
	unsigned long long adopt_raced;	/* of the inodes that found such a state, those
					 * that could not take it: the inode GC deleted it
					 * meanwhile (entered afresh, as without it) */
};

/*
 * Value of bpf/floor.bpf.c's BPF_MAP_TYPE_PERCPU_ARRAY "floor_judge" (check,
 * judge set): every floor event judged there with mg_rule_floor(); only the
 * events that break a floor invariant are written to the ring buffer, with
 * MG_EVF_JUDGED set (their counts are already here).
 */
struct mg_floor_judge_counts {
	unsigned long long by_kind[3];	/* MG_EV_FLOOR_SWAP, _FAIL, _UNKNOWN */
	unsigned long long floor_checked;	/* MG_RF_FLOOR_CHECKED */
	unsigned long long fine_decided;	/* MG_RF_FINE_DECIDED */
	unsigned long long fine_undecided;	/* floor events without it */
	unsigned long long backward;	/* MG_RF_FLOOR_BACKWARD: violations */
	unsigned long long unneeded;	/* MG_RF_FINE_UNNEEDED: violations */
};

/* Magic of the records of judging; their sizes tell them from struct mg_event. */
#define MG_VREC_MAGIC 0x6d677672U	/* "mgvr": struct mg_vrec */
#define MG_STEPREC_MAGIC 0x6d677374U	/* "mgst": struct mg_steprec */
#define MG_GENREC_MAGIC 0x6d676772U	/* "mggr": struct mg_genrec */

/*
 * check --forget: an event began the next generation of the per-inode map, the
 * current one holding half of --max-inodes (bpf/mg_judge.bpf.h
 * mg_judge_gen_entered()): sent by that event, with a forced wakeup, so that
 * user space makes the one after ready now and not at its next tick.
 */
struct mg_genrec {
	unsigned int magic;		/* MG_GENREC_MAGIC */
	unsigned int slot;		/* the slot of "inode_gens" of the generation that ended */
	unsigned long long entered;	/* its entries when sent */
};

/*
 * A realtime clock step seen in BPF (mg_rule_clock_*): a bracket of TAI -
 * MONOTONIC (the kernel's offs_tai) measured at a judged event no longer
 * overlaps the one that CPU measured before: the clock was set in between, by
 * delta_lo..delta_hi ns (negative: back). Every CPU that judges events sees the
 * same step: user space merges records whose times and sizes overlap.
 */
struct mg_steprec {
	unsigned int magic;		/* MG_STEPREC_MAGIC */
	unsigned int cpu;
	unsigned long long t0_ns, t1_ns;	/* CLOCK_MONOTONIC: the two measurements (the step
					 * lies between) */
	long long delta_lo, delta_hi;	/* the step's size, ns */
};

/*
 * struct mg_vrec::kind of a not-fault case sent as an example: MG_VREC_BENIGN |
 * enum mg_benign_kind. BPF sends the first MG_BENIGN_EXAMPLES of each kind per
 * CPU; the counts are exact either way.
 */
#define MG_VREC_BENIGN 0x100U
#define MG_BENIGN_EXAMPLES 2

/* A violation (or a not-fault example) found in BPF, with its context (ring buffer "events"). */
struct mg_vrec {
	unsigned int magic;		/* MG_VREC_MAGIC */
	unsigned int kind;		/* enum mg_violation_kind, or MG_VREC_BENIGN | benign kind */
	unsigned int dev, gen;		/* the inode's identity */
	unsigned long long ino;
	unsigned int name_len;		/* d_name.len (0: no name) */
	unsigned int later_flags;	/* struct mg_rviol::later_flags */
	char name[MG_NAME_LEN];		/* last path component, NUL-terminated, cut */
	struct mg_robs earlier, later;
};

/* The path mg_judge() (bpf/mg_judge.bpf.h) took for an event: judgetest's return value. */
enum mg_judge_path {
	MG_JPATH_CONTEXT = 1,	/* judged under the lock, with its clocks, task and CPU */
	MG_JPATH_NO_CONTEXT,	/* judged under the lock, no context read (mg_rule_needs_context) */
	MG_JPATH_QUIET,		/* a getattr found quiet without the lock (mg_rule_is_quiet) */
	MG_JPATH_NOT_JUDGED,	/* untracked (map full) or the lock failed */
	MG_JPATH_MARKED,	/* a getattr that marked the quiet word without the lock
				 * (mg_rule_can_mark) */
};

/*
 * The input and output of bpf/mg_inodegc.bpf.h (BPF_PROG_TEST_RUN, copied back):
 * one pass over the entries of "inodes", forgetting those of inodes gone.
 */
struct mg_gc_ctx {
	unsigned int slot;		/* in: the generation's slot of "inode_gens" (0: "inodes",
					 * the only one without --forget) */
	unsigned int pad;
	unsigned long long visited;	/* entries visited */
	unsigned long long alive;	/* of them, inodes that still exist */
	unsigned long long kept_pending;	/* gone, kept: a getattr held (judged at the end) */
	unsigned long long collected;	/* gone, deleted */
	unsigned long long creation_keys;	/* of them, the generation-0 key of a live inode
					 * whose generation is set now (its creation's state,
					 * not taken: no later event came yet) */
};

/* Generations of the per-inode map under check --forget: "inode_gens" has this many slots. */
#define MG_GENS 3

/*
 * The input and output of bpf/mgtrace.bpf.c's syscall program inode_drain
 * (check --forget, src/util/judge.c): one pass over a generation's map that no
 * program reads any more, deleting every entry and counting what it held.
 */
struct mg_drain_ctx {
	unsigned int slot;		/* in: the slot of "inode_gens" to empty */
	unsigned int pad;
	unsigned long long visited;	/* entries deleted */
	unsigned long long moved;	/* of them, copied into the next generation first
					 * (struct mg_inode_plain moved): nothing forgotten */
	unsigned long long gone;	/* of them, inodes that no longer exist
					 * (mg_inode_alive(); 0 where it cannot be read) */
	unsigned long long creation_keys;	/* of them, the generation-0 key of a live
					 * inode whose generation is set now (not forgotten:
					 * its state is its creation's, not taken) */
	unsigned long long forgotten;	/* of them, live inodes (or not known to be gone)
					 * whose history is forgotten */
	unsigned long long forgotten_pending;	/* of the forgotten, holding a getattr
					 * never judged */
	unsigned long long delete_failed;	/* entries bpf_map_delete_elem() refused
					 * (never expected) */
};

/*
 * TEST ONLY (MGTRACE_TEST_INJECT=1): the input of bpf/judgetest.bpf.c, a
 * syscall program run with BPF_PROG_TEST_RUN that judges one synthetic event
 * with the same map, rules and ring buffer as the tracepoint programs.
 */
struct mg_judge_test_ctx {
	struct mg_inode_key key;
	struct mg_rin in;
	char name[MG_NAME_LEN];
	unsigned int close;		/* first set the inode's quiet word to 0, as a lock's
					 * holder closes it (the race mg_judge() re-checks) */
	unsigned int race;		/* enum mg_judge_test_race: another event moves the
					 * inode on (check --forget), or the inode GC deletes
					 * its creation state, as this one is judged */
};

/* check --forget's races, made to happen by bpf/judgetest.bpf.c (tests/forgetrace.c) */
enum mg_judge_test_race {
	MG_JTEST_RACE_NONE,
	/* before the event: the previous generation's entry is marked moved and not yet
	 * entered in the current one (another event's move half done) */
	MG_JTEST_RACE_HALF_MOVED,
	/* after the event found its entry: judge_gen advances and another event moves
	 * the inode on to the next generation (mg_judge_migrate()) */
	MG_JTEST_RACE_MOVED_UNDER,
	/* with or without --forget: once the event copied its inode's creation state
	 * (generation 0), the inode GC deletes that entry and another inode's entry
	 * takes its memory (mg_judge_adopt()) */
	MG_JTEST_RACE_CREATION_DELETED,
};

#endif /* MG_RULES_H */
