/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rule_obs.h - what the rules of include/mg_rules.h judge and find: the
 * kinds of violation and of not-fault case, one observation of an inode's
 * ctime (as an event carries it, and as the per-inode state keeps it), one
 * event to judge, and how observations compare and convert.
 */
#ifndef MG_RULE_OBS_H
#define MG_RULE_OBS_H

#include "mgtrace.h"

#define MG_RULE_INLINE static inline __attribute__((always_inline))

#define MG_STALE_WINDOW_NS 1000000000ll	/* a racing getattr is delivered within 1 s */

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

#endif /* MG_RULE_OBS_H */
