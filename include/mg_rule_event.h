/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rule_event.h - the event rules of include/mg_rules.h: one ctime event
 * (a swap, a skip, a getattr, a set) judged against its inode's state
 * (mg_rule_event()), the end of a stream (mg_rule_finish()), and what judging
 * an event needs read first (its context, its held getattr's storage, an
 * identity).
 */
#ifndef MG_RULE_EVENT_H
#define MG_RULE_EVENT_H

#include "mg_rule_state.h"
#include "mg_rule_out.h"

/* Measurement slack when a step's size is compared with a regression's (ns). */
#define MG_STEP_SLACK_NS 1000

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

#endif /* MG_RULE_EVENT_H */
