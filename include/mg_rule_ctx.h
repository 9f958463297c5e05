/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rule_ctx.h - the contexts of the observations the per-inode state holds
 * (struct mg_rctx: clocks, entry time, thread id, CPU, comm), kept for a
 * report in rings of the last ones (BPF: one per CPU; user space: the
 * checker's) and, for a held getattr, apart (struct mg_held); how a
 * reference names a ring's slot, and how a report finds its context there.
 */
#ifndef MG_RULE_CTX_H
#define MG_RULE_CTX_H

#include "mg_rule_obs.h"

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

#endif /* MG_RULE_CTX_H */
