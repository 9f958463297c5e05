/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_judge_ctx.bpf.h - an event's context in `mgtrace check` judging in BPF
 * (bpf/mg_judge.bpf.h): the per-CPU scratch it is read into, the per-CPU rings
 * that keep the contexts of the observations the state holds, the held
 * getattrs' contexts, and reading the clocks (with their bracket and steps),
 * CPU and comm of an event when the rules need them.
 */
#ifndef MG_JUDGE_CTX_BPF_H
#define MG_JUDGE_CTX_BPF_H

#include "mg_judge_state.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MG_EV_NR_KINDS);	/* one per event kind: enum mg_event_kind */
	__type(key, __u32);
	__type(value, struct mg_judge_scratch);
} judge_scratch SEC(".maps");

/*
 * The contexts of the observations the per-inode state holds (struct mg_rctx:
 * clocks, entry time, thread id, CPU, comm), one ring per CPU (key: the CPU;
 * max_entries: the possible CPUs, set by user space), so that the state keeps
 * only what judging reads (struct mg_rseen, 24 bytes an observation, not 72)
 * and a report still gives an earlier observation's context while its slot
 * lasts (MG_CTX_RING of this CPU's events that the state came to hold, after it).
 * An event takes a slot only if the state refers to it after judging
 * (mg_judge_ctx_keep()); a report looks it up by the reference
 * (mg_judge_ctx_fill()), else says it was overwritten (MG_CTX_LOST).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);			/* the possible CPUs, set by user space */
	__type(key, __u32);
	__type(value, struct mg_ctx_ring);
} judge_ctx SEC(".maps");

/*
 * This CPU's context ring (a program runs on one CPU from start to end: the same
 * ring each time it asks), or NULL where no ring names this CPU; *cpu: the CPU.
 */
static __always_inline struct mg_ctx_ring *mg_judge_ctx_this(__u32 *cpu)
{
	*cpu = bpf_get_smp_processor_id();
	if (*cpu >= MG_CTX_MAX_CPUS)
		return NULL;
	return bpf_map_lookup_elem(&judge_ctx, cpu);
}

/*
 * This CPU's context ring, and into sc->in.o.ctx the reference of its next slot,
 * which the event takes if the state refers to it after judging
 * (mg_judge_ctx_keep()); NULL (no reference) where no ring names this CPU.
 * *seq: that slot's sequence.
 */
static __always_inline struct mg_ctx_ring *mg_judge_ctx_next(struct mg_judge_scratch *sc,
							     __u64 *seq)
{
	struct mg_ctx_ring *r;
	__u32 cpu;

	sc->in.o.ctx = 0;
	r = mg_judge_ctx_this(&cpu);
	if (!r)
		return NULL;
	*seq = *(volatile __u64 *)&r->head;
	sc->in.o.ctx = mg_ctx_ref(cpu, *seq);
	return r;
}

/*
 * After judging: the state refers to this event's context (ref), so it takes
 * slot seq of ring r, unless another program on this CPU took that slot
 * meanwhile (preempted: then the reference finds another event's time there,
 * and a report says the context was overwritten).
 */
static __always_inline void mg_judge_ctx_keep(struct mg_judge_scratch *sc, struct mg_ctx_ring *r,
					      __u64 seq)
{
	if (__sync_val_compare_and_swap(&r->head, seq, seq + 1) != seq)
		return;
	mg_ctx_take(&r->e[seq & (MG_CTX_RING - 1)], &sc->in.o);
}

/*
 * The held getattrs' contexts (struct mg_held), by inode: written when an event
 * holds a getattr (mg_judge_held()), read by a report whose observation's
 * context its ring no longer holds. An LRU hash of MG_HELD_ENTRIES: holds are
 * rare (a getattr of a value older than the latest), and one evicted is a
 * context lost, said so.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);			/* MG_HELD_ENTRIES when judging (user space) */
	__type(key, struct mg_inode_key);
	__type(value, struct mg_held);
} judge_held SEC(".maps");

/*
 * A report's observation o, kept by the state (MG_CTX_KEPT): its context from
 * the ring its reference names, read between two loads of that ring's head that
 * both leave the slot unclaimed since, and with the observation's own time
 * (MG_CTX_READ: true); else false, o unchanged.
 */
static __always_inline bool mg_judge_ctx_ring(struct mg_robs *o)
{
	unsigned int cpu = (o->ctx >> MG_CTX_SEQ_BITS) - 1;
	const struct mg_rctx *e;
	struct mg_ctx_ring *r;

	r = o->ctx ? bpf_map_lookup_elem(&judge_ctx, &cpu) : NULL;
	if (!r)
		return false;
	e = mg_ctx_find(r->e, MG_CTX_RING, __sync_fetch_and_add(&r->head, 0), cpu, o);
	if (!e)
		return false;
	mg_ctx_put(o, e);
	if (mg_ctx_find(r->e, MG_CTX_RING, __sync_fetch_and_add(&r->head, 0), cpu, o) == e)
		return true;
	o->ctx_from = MG_CTX_KEPT;
	return false;
}

/*
 * A report's observation o of inode key, if the state kept it (MG_CTX_KEPT): its
 * context from its ring (mg_judge_ctx_ring()), else from the inode's held
 * getattr's (judge_held: its time matched before and after the copy), else
 * MG_CTX_LOST.
 */
static __always_inline void mg_judge_ctx_fill(struct mg_robs *o, const struct mg_inode_key *key)
{
	struct mg_held *h;

	if (o->ctx_from != MG_CTX_KEPT || mg_judge_ctx_ring(o))
		return;
	h = bpf_map_lookup_elem(&judge_held, key);
	if (h && mg_held_put(o, h) && (h->pend.t_ns == o->t_ns || h->earlier.t_ns == o->t_ns))
		return;
	mg_ctx_lost(o);
}

/*
 * After judging, the event held its getattr (sc->in, whose context it read):
 * keep its context and that of the value it was older than (sc->pe: its
 * reference and time, read under the lock; looked up in its ring now, while it
 * is likely still there) for the report that judges it, in judge_held.
 */
static __always_inline void mg_judge_held(struct mg_judge_scratch *sc,
					  const struct mg_inode_key *key)
{
	mg_ctx_take(&sc->held.pend, &sc->in.o);
	sc->held.earlier.t_ns = 0;
	if (mg_judge_ctx_ring(&sc->pe))
		mg_ctx_take(&sc->held.earlier, &sc->pe);
	bpf_map_update_elem(&judge_held, key, &sc->held, BPF_ANY);
}
/*
 * The realtime clock at this event (t0 = bpf_ktime_get_ns(), then tai =
 * bpf_ktime_get_tai_ns()): a second monotonic read only when the bracket rules
 * of include/mg_rules.h ask for it (a possible step, or a bracket to refresh);
 * a step is one struct mg_steprec. Saves one clock read on most events.
 */
static __always_inline void mg_judge_clock(struct mg_judge_scratch *sc, struct mg_judge_counts *jc,
					   __u64 t0, __u64 tai, void *rb, __u64 wb)
{
	int r = mg_clock_bracket(&sc->clk, t0, tai, rb, wb);

	if (r)
		MG_JADD(jc->clock_brackets, 1);
	if (r == 2)
		MG_JADD(jc->clock_steps, 1);
	else if (r < 0)
		MG_JADD(jc->steps_lost, 1);
}

/*
 * current->comm (16 bytes, NUL-padded as the kernel keeps it) into dst, by two
 * direct BTF-typed loads instead of bpf_get_current_comm()'s string copy; for
 * tp_btf programs. Racy with a concurrent rename as that helper is.
 */
static __always_inline void mg_comm_btf(char *dst)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 a = *(__u64 *)&t->comm[0], b = *(__u64 *)&t->comm[8];

	__builtin_memcpy(dst, &a, 8);
	__builtin_memcpy(dst + 8, &b, 8);
}

/*
 * Read the event's context into sc->in: its clocks (CLOCK_MONOTONIC, then TAI),
 * measuring a bracket when needed (mg_judge_clock), the last step back this
 * program found on this CPU, its CPU and comm (the caller sets the thread id,
 * which it has read anyway). For tp_btf programs
 * (mg_comm_btf); never called under the inode's lock (the verifier allows no
 * helper call there).
 */
static __always_inline void mg_judge_read_context(struct mg_judge_scratch *sc,
						  struct mg_judge_counts *jc, void *rb, __u64 wb)
{
	struct mg_rin *in = &sc->in;

	in->o.cpu = bpf_get_smp_processor_id();
	mg_comm_btf(in->o.comm);
	in->o.t_ns = bpf_ktime_get_ns();
	in->o.tai_ns = bpf_ktime_get_tai_ns();
	mg_judge_clock(sc, jc, in->o.t_ns, in->o.tai_ns, rb, wb);
	in->step_back_ns = sc->clk.back_lo;
	in->step_back_at = sc->clk.back_at;
}

/*
 * How mg_judge() reads an event's context when the rules need it: tp_btf
 * programs read it (mg_judge_read_context); the test program, which carries
 * the context in its input, defines this as nothing before including this file.
 */
#ifndef MG_JUDGE_READ_CONTEXT
#define MG_JUDGE_READ_CONTEXT(sc, jc, rb, wb) mg_judge_read_context(sc, jc, rb, wb)
#endif

#endif
