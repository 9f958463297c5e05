/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_judge.bpf.h - `mgtrace check` judging each ctime event in BPF, at the
 * event: the per-inode state lives in the hash "inodes" keyed by the kernel's
 * identity of the inode (dev, ino, generation, address), and the rules of
 * include/mg_rules.h run on it under the value's lock, so concurrent events of
 * one inode on several CPUs are judged one at a time, in the order they take
 * the lock. Every event is counted in the per-CPU "judge_counts"; only
 * violations cross the ring buffer (struct mg_vrec, with their context). A
 * getattr reads its clocks, task and CPU only when the rules can use them
 * (mg_rule_needs_context); one that changes nothing, and a skip that changes
 * nothing, are counted from the state's quiet word without taking the lock
 * (mg_rule_is_quiet), and so is the
 * first getattr of a ctime when that is all it changes, by marking the word
 * with one compare-and-exchange (mg_rule_can_mark; a 64-bit BPF atomic, kernel
 * 5.12+, which clang emits for any -mcpu).
 *
 * The lock is a bpf_res_spin_lock (kernel 6.15+, kernel/bpf/rqspinlock.c):
 * it disables preemption, not interrupts, and cost about 15 ns less per event
 * here than bpf_spin_lock (bench/progcost, old and new binaries alternating:
 * 313 -> 299 ns a run). Taking it can fail (the kernel detects an AA or ABBA
 * deadlock, or gives up after 250 ms; never expected, one lock is held at a
 * time): the event is then counted in lock_failed, not judged, and the
 * verdict is inconclusive. Both locks are refused to kprobe, tracepoint and
 * raw_tp programs ("tracing progs cannot use bpf_spin_lock yet") and accepted
 * for BTF-typed tracing programs (tp_btf) and syscall programs (the test-only
 * bpf/judgetest.bpf.c): only those include the code that takes it. The kfuncs
 * are weak: on 6.13 and 6.14, which lack them, user space does not judge here
 * (mg_judge_pre_load()) and the object still loads for the other commands.
 *
 * Its parts, in this order (each includes those it needs; the order keeps
 * every map and global where the object has it): mg_judge_state.bpf.h (the
 * state's maps and value), mg_judge_gens.bpf.h (check --forget's
 * generations), mg_judge_ctx.bpf.h (an event's context), mg_judge_report.bpf.h
 * (the counts and records), mg_judge_find.bpf.h (the entry an event judges);
 * this file judges an event (mg_judge()).
 */
#ifndef MG_JUDGE_BPF_H
#define MG_JUDGE_BPF_H

#include "mg_judge_state.bpf.h"
#include "mg_judge_gens.bpf.h"
#include "mg_judge_ctx.bpf.h"
#include "mg_judge_report.bpf.h"
#include "mg_judge_find.bpf.h"

/* Read the event's context now (MG_JUDGE_READ_CONTEXT) and find its slot's reference. */
static __always_inline void mg_judge_get_ctx(struct mg_judge_scratch *sc,
					     struct mg_judge_counts *jc, void *rb, __u64 wb)
{
	MG_JUDGE_READ_CONTEXT(sc, jc, rb, wb);
	sc->ev.have_ctx = 1;
	sc->ev.ring = mg_judge_ctx_next(sc, &sc->ev.seq) != NULL;
}

/* Whether the event has its context (lazy: as sc->ev says; else read before judging). */
#define MG_JUDGE_HAVE_CTX(sc, lazy) (!(lazy) || (sc)->ev.have_ctx)

/*
 * The lock-free path of a lazily judged getattr or skip, from one load of v's
 * quiet word: MG_JPATH_QUIET when it changes nothing (mg_rule_is_quiet()),
 * MG_JPATH_MARKED when it is the first of the latest ctime and marks the word
 * by one exchange (mg_rule_can_mark()); 0: the event is judged under the lock.
 */
static __always_inline int mg_judge_quiet(struct mg_judge_scratch *sc, struct mg_inode_val *v,
					  bool lazy, bool entry_times)
{
	__u64 q;

	if (!lazy)
		return 0;
	q = *(volatile __u64 *)&v->s.quiet;
	/* a getattr or skip that changes nothing: counted as of this one load */
	if (mg_rule_is_quiet(q, &sc->in))
		return MG_JPATH_QUIET;
	/* the first getattr of the latest ctime: its mark, by one exchange */
	if (mg_rule_can_mark(q, &sc->in, entry_times) &&
	    __sync_val_compare_and_swap(&v->s.quiet, q, q | 1) == q)
		return MG_JPATH_MARKED;
	return 0;
}

/*
 * Take v's lock to judge sc->in, having read first what the rules need (no
 * helper runs under the lock): the event's context, if not read yet and the
 * rules need it (mg_rule_needs_context()), and the held getattr's storage in
 * slot's map (mg_rule_needs_pend()), both decided on a racy read and checked
 * again under the lock (lazy: as mg_judge()'s). *pp: the held getattr's storage, or
 * NULL. 0: locked; -1: not, counted in lock_failed.
 */
static __always_inline int mg_judge_lock(struct mg_judge_scratch *sc, struct mg_judge_counts *jc,
					 struct mg_rpend **pp, struct mg_inode_val *v,
					 const struct mg_inode_key *key, __u32 slot, void *rb,
					 __u64 wb, bool lazy, bool entry_times)
{
	/* a racy read: the decision is checked again under the lock */
	if (!MG_JUDGE_HAVE_CTX(sc, lazy) && mg_rule_needs_context(&v->s, &sc->in, entry_times))
		mg_judge_get_ctx(sc, jc, rb, wb);
	/* the held getattr's storage, if the rules may read or write it: looked up
	 * now, as no helper runs under the lock (decided racily, checked there) */
	*pp = NULL;
	if (mg_rule_needs_pend(&v->s, &sc->in))
		*pp = mg_judge_pend(sc, mg_judge_pend_map(slot), key);
	/* without the kfunc user space judges (mg_judge_pre_load): never taken, the
	 * verifier drops the rest where it is absent */
	if (!bpf_res_spin_lock || bpf_res_spin_lock(&v->lock)) {
		MG_JADD(jc->lock_failed, 1);
		return -1;
	}
	if ((!MG_JUDGE_HAVE_CTX(sc, lazy) && mg_rule_needs_context(&v->s, &sc->in, entry_times)) ||
	    (!*pp && mg_rule_needs_pend(&v->s, &sc->in))) {
		/* another CPU changed the inode since: read what it needs now (both,
		 * so that nothing more can be needed after the lock is taken again)
		 * and judge then */
		bpf_res_spin_unlock(&v->lock);
		if (!MG_JUDGE_HAVE_CTX(sc, lazy))
			mg_judge_get_ctx(sc, jc, rb, wb);
		if (!*pp)
			*pp = mg_judge_pend(sc, mg_judge_pend_map(slot), key);
		if (bpf_res_spin_lock(&v->lock)) {
			MG_JADD(jc->lock_failed, 1);
			return -1;
		}
	}
	return 0;
}

/*
 * After judging: count what the rules found in sc->out (not-fault cases by
 * kind, violations beyond MG_RULE_MAX_VIOL, violations by kind) and report the
 * violations and the first not-fault examples of each kind on this CPU
 * (mg_judge_report(); key, inode, name: as mg_judge()'s).
 */
static __always_inline void mg_judge_count_out(void *ctx, struct mg_judge_scratch *sc,
					       struct mg_judge_counts *jc,
					       const struct mg_inode_key *key, struct inode *inode,
					       const char *name, void *rb, __u64 wb)
{
	int i;

	/* a not-fault case sets has_ben (mg_rule_benign): nothing else to count without it */
	if (sc->out.has_ben) {
		for (i = 0; i < MG_B_NR_KINDS; i++)
			if (sc->out.benign[i])
				MG_JADD(jc->benign[i], sc->out.benign[i]);
		/* the first not-fault cases of each kind on this CPU cross with their context */
		if (sc->out.ben.kind < MG_B_NR_KINDS &&
		    jc->benign[sc->out.ben.kind] <= MG_BENIGN_EXAMPLES) {
			sc->out.ben.kind |= MG_VREC_BENIGN;
			mg_judge_report(ctx, rb, wb, jc, key, inode, name, &sc->out.ben, true);
		}
	}
	if (sc->out.overflow)
		MG_JADD(jc->overflow, sc->out.overflow);
	for (i = 0; i < MG_RULE_MAX_VIOL; i++) {
		if (i >= sc->out.nviol)
			break;
		if (sc->out.viol[i].kind < MG_V_NR_KINDS)
			MG_JADD(jc->violations[sc->out.viol[i].kind], 1);
		mg_judge_report(ctx, rb, wb, jc, key, inode, name, &sc->out.viol[i], false);
	}
}

/*
 * Under v's lock (mg_judge_lock()): judge sc->in by the rules, release the
 * lock, keep the event's context if the state refers to it now (its ring
 * slot; a held getattr's also in judge_held), and count and report what was
 * found (kind: the event's). Returns the path taken (enum mg_judge_path).
 */
static __always_inline int mg_judge_locked(void *ctx, struct mg_judge_scratch *sc,
					   struct mg_judge_counts *jc,
					   struct mg_rpend *pp, struct mg_inode_val *v,
					   const struct mg_inode_key *key, struct inode *inode,
					   const char *name, void *rb, __u64 wb, unsigned int kind,
					   bool lazy)
{
	struct mg_ctx_ring *ring;
	unsigned int holds;
	__u32 cpu;
	bool held;

	mg_judge_close_quiet(&v->s);
	if (mg_rule_event(&v->s, pp, &sc->in, judge_tai_minus_real, &sc->out)) {
		/* a getattr to hold, with no storage for it (the map full, or out of
		 * memory): nothing judged, the word closed above set again */
		v->s.quiet = mg_rule_quiet(&v->s);
		bpf_res_spin_unlock(&v->lock);
		MG_JADD(jc->untracked, 1);
		return MG_JPATH_NOT_JUDGED;
	}
	/* the state holds this event's observation: its context is to be kept */
	holds = mg_rule_holds_ctx(&v->s, pp, sc->in.o.ctx);
	held = holds == MG_HOLDS_PEND && pp;
	if (held) {
		sc->pe.ctx = pp->earlier.kc & MG_CTX_REF_MASK;
		sc->pe.t_ns = pp->earlier.t_ns;
	}
	bpf_res_spin_unlock(&v->lock);
	/* the ring that gave the event its slot: this CPU's, asked again */
	if (holds != MG_HOLDS_NONE && MG_JUDGE_HAVE_CTX(sc, lazy) && sc->ev.ring) {
		ring = mg_judge_ctx_this(&cpu);
		if (ring)
			mg_judge_ctx_keep(sc, ring, sc->ev.seq);
	}
	if (held)
		mg_judge_held(sc, key);
	if (!MG_JUDGE_HAVE_CTX(sc, lazy))
		MG_JADD(jc->context_free, 1);
	if (kind < MG_EV_NR_KINDS)
		MG_JADD(jc->by_kind[kind], 1);
	mg_judge_count_out(ctx, sc, jc, key, inode, name, rb, wb);
	return MG_JUDGE_HAVE_CTX(sc, lazy) ? MG_JPATH_CONTEXT : MG_JPATH_NO_CONTEXT;
}

/*
 * Judge sc->in, an event of inode key (its name, for a report: from inode when
 * not NULL, else from name; read only when a record is written); ctx: the
 * program's context, whose kernel stack a violation's record carries. Counts in jc,
 * reports violations to rb (wb: wakeup threshold in bytes, 0: wake every time).
 * lazy: read the event's clocks, task and CPU here (mg_judge_read_context,
 * tp_btf), only if the rules need them (mg_rule_needs_context: decided on the
 * state read without the lock, checked again under it); false: sc->in carries
 * them (read by the caller, or the test program's). entry_times: updates carry
 * their entry time (function probes). Returns the path taken (enum
 * mg_judge_path: the test program checks it). Its steps: find the entry
 * (mg_judge_find()), the lock-free path (mg_judge_quiet()), take the lock
 * (mg_judge_lock()), judge under it (mg_judge_locked()).
 */
static __always_inline int mg_judge(void *ctx, struct mg_judge_scratch *sc,
				     struct mg_judge_counts *jc,
				     const struct mg_inode_key *key, struct inode *inode,
				     const char *name, void *rb, __u64 wb, bool lazy,
				     bool entry_times)
{
	unsigned int kind = sc->in.o.kind;
	struct mg_rpend *pp;
	struct mg_inode_val *v;
	int again, path;
	__u32 slot = 0;

	sc->in.o.ctx = 0;
	sc->in.o.ctx_from = MG_CTX_READ;
	sc->ev.have_ctx = !lazy;
	sc->ev.ring = 0;
	if (!lazy)
		sc->ev.ring = mg_judge_ctx_next(sc, &sc->ev.seq) != NULL;

	/*
	 * Under --forget an event can find its entry moved on (it read judge_gen before
	 * another event began the next generation, and an event of the inode moved it
	 * there): it is judged once more, in the generation that holds the inode now.
	 * One more try is enough: user space waits for running programs before it makes
	 * another generation ready, so judge_gen changes at most once while this runs.
	 */
	for (again = 0; again < 2; again++) {
		v = mg_judge_find(sc, jc, key, rb, &slot);
		if (!v)
			return MG_JPATH_NOT_JUDGED;
		if (!again)
			MG_JUDGE_FOUND(sc, jc, key, rb);
		path = mg_judge_quiet(sc, v, lazy, entry_times);
		/* after the exchange (fully ordered): a mark moved is copied, or moved seen */
		if (path && (!judge_forget || !*(volatile unsigned int *)&v->moved)) {
			/* one count, also judged, quiet and context-free (mg_judge_sum()) */
			if (kind < MG_EV_NR_KINDS)
				MG_JADD(jc->quiet_by_kind[kind], 1);
			return path;
		}
		if (path) {
			if (again)
				break;
			continue;
		}
		mg_rule_out_init(&sc->out);
		if (mg_judge_lock(sc, jc, &pp, v, key, slot, rb, wb, lazy, entry_times))
			return MG_JPATH_NOT_JUDGED;
		if (!judge_forget || !v->moved)
			return mg_judge_locked(ctx, sc, jc, pp, v, key, inode, name, rb, wb, kind,
					       lazy);
		/* an event of the generation before: the next one holds the inode now */
		bpf_res_spin_unlock(&v->lock);
	}
	/* moved twice while one event ran: never expected (see above) */
	MG_JADD(jc->untracked, 1);
	MG_JADD(jc->forget_raced, 1);
	return MG_JPATH_NOT_JUDGED;
}

#endif
