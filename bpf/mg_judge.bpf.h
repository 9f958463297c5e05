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
 * (mg_rule_needs_context); one that changes nothing is counted from the
 * state's quiet word without taking the lock (mg_rule_is_quiet), and so is the
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
 * "inodes" has no LRU and is not preallocated: when it is full, an event of a
 * new inode is counted as untracked (the verdict is then inconclusive), never
 * judged against forgotten state.
 *
 * check --forget keeps the state in generations instead (src/util/judge.c,
 * mg_judge_collect()): "inodes", "inodes1" and "inodes2" are the slots of
 * the map-in-map "inode_gens"; judge_gen names the current one, gen %
 * MG_GENS, and the previous one, (gen + 2) % MG_GENS. An inode missing from
 * the current map whose state the previous one holds has it copied over under
 * the previous entry's lock, which is then marked moved (mg_judge_migrate()).
 * When the current map holds half of --max-inodes and user space has made the
 * next slot ready, the event that finds it so makes that slot current
 * (mg_judge_gen_entered()); user space then waits until no program can still
 * read the generation before (a map-in-map update: synchronize_rcu(),
 * kernel/bpf/syscall.c maybe_wait_bpf_programs()), empties that one with
 * inode_drain, counting each inode not moved as forgotten, and makes its slot
 * the next one ready (src/util/judge_pass.c forget_rotated()). No entry is
 * deleted while a program can hold it: a hash map reuses a deleted element's
 * memory at once (kernel/bpf/memalloc.c), so deleting a live inode's entry
 * under a running program could hand its writes to another inode.
 */
#ifndef MG_JUDGE_BPF_H
#define MG_JUDGE_BPF_H

#include "mg_rules.h"

#ifndef EEXIST
#define EEXIST 17	/* include/uapi/asm-generic/errno-base.h */
#endif

/* kernel/bpf/rqspinlock.c (6.15+); 0 if absent (weak). lock returns 0 or -EDEADLK/-ETIMEDOUT. */
extern int bpf_res_spin_lock(struct bpf_res_spin_lock *lock) __ksym __weak;
extern void bpf_res_spin_unlock(struct bpf_res_spin_lock *lock) __ksym __weak;

/* The value of "inodes": struct mg_inode_plain with its lock typed for the verifier. */
struct mg_inode_val {
	struct bpf_res_spin_lock lock;
	unsigned int moved;
	struct mg_rstate s;
};

/*
 * Per-CPU scratch, one per event kind (so one per program): the event judged,
 * what the rules found, a new map value, and the clock bracket that program
 * last measured on this CPU (mg_rule_clock_*). Not one scratch for all programs: where
 * tracepoint programs can be preempted (7.3 showed BPF runs skipped for
 * recursion, which takes a program preempted on its CPU; PREEMPT_RT runs
 * tracepoint callbacks with only migration disabled), another program on the
 * same CPU could write it in the middle of an event. One program cannot: the
 * kernel skips its nested run (counted as a recursion miss: inconclusive).
 * For the same reason every count in "judge_counts", which all the programs
 * share, is an atomic add (MG_JADD).
 */
struct mg_judge_scratch {
	struct mg_rin in;
	struct mg_rout out;
	struct mg_inode_plain fresh;
	struct mg_rclock clk;		/* this program's last measured clock bracket on
					 * this CPU (mg_rule_clock_*) */
	struct mg_inode_key k0;		/* the key of an inode's creation (mg_judge_adopt()) */
	__u64 fence;			/* the target of a fully ordered exchange (a barrier) */
	struct mg_held held;		/* a getattr held now: its contexts (mg_judge_held()) */
	struct mg_robs pe;		/* the value it is older than, its context looked up */
	struct mg_rpend pz;		/* a held getattr's storage to insert: zero, or a
					 * creation's copy (mg_judge_pend(), mg_judge_adopt()) */
};

/* TAI - REALTIME, ns (adjtimex), set by user space before load: the clock at an event. */
const volatile long long judge_tai_minus_real = 0;

/*
 * Inodes entered into "inodes" so far, all CPUs (judge_counts.inodes summed): one
 * atomic add per inode entered, so that the event loop reads it from the mapped .bss,
 * with no bpf() syscall. A map syscall holds bpf_prog_active on its CPU while it runs
 * (bpf_disable_instrumentation()), and where it can be preempted (lazy preemption:
 * Debian's 6.18 and 7.x) a workload thread on that CPU runs meanwhile with every kprobe
 * program skipped: 342 skipped runs made a VM check inconclusive.
 */
__u64 judge_inodes_entered = 0;

/* The per-inode map: "inodes", and under check --forget its two other generations. */
struct mg_inodes_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);			/* --max-inodes, set by user space */
	__uint(map_flags, BPF_F_NO_PREALLOC);	/* memory only for inodes seen */
	__type(key, struct mg_inode_key);
	__type(value, struct mg_inode_val);
};

struct mg_inodes_map inodes SEC(".maps");
struct mg_inodes_map inodes1 SEC(".maps");	/* check --forget only (else 1 entry) */
struct mg_inodes_map inodes2 SEC(".maps");

/*
 * The held getattrs (struct mg_rpend), by inode, apart from the state: holds are
 * rare, and the state without them fits a kmalloc-192 element (include/mg_rules.h).
 * One map a generation, paired with "inodes", "inodes1", "inodes2" by slot
 * (mg_judge_pend_map()): an entry is read and written only under the lock of
 * its inode's state in the same slot, exists whenever that state holds a getattr
 * (MG_RS_PENDING: made before the hold, mg_judge_pend(); copied before a state
 * enters another generation, mg_judge_migrate() and mg_judge_adopt()), and is
 * deleted only with the state (the inode GC of a gone inode, or emptying the
 * generation). An entry of a state that holds nothing is stale, never read.
 */
struct mg_pend_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);			/* as its slot's state map (user space) */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct mg_inode_key);
	__type(value, struct mg_rpend);
};

struct mg_pend_map inode_pend SEC(".maps");
struct mg_pend_map inode_pend1 SEC(".maps");	/* check --forget only (else 1 entry) */
struct mg_pend_map inode_pend2 SEC(".maps");

/*
 * Entries of the held getattrs' maps, all generations: + 1 an insert, - 1 a
 * delete (the inode GC, a creation taken, a generation emptied), read by user
 * space from the mapped .bss for the BPF memory an interval reports.
 */
__u64 judge_pend_entries = 0;

/* The held getattrs' map of slot (0 to MG_GENS - 1), paired with its state map. */
static __always_inline void *mg_judge_pend_map(__u32 slot)
{
	return slot == 1 ? (void *)&inode_pend1 : slot == 2 ? (void *)&inode_pend2 :
							    (void *)&inode_pend;
}

/*
 * The held getattr's storage of inode key in pend map pm, made (zero) if absent,
 * for a state that may hold one (mg_rule_needs_pend()). Never overwrites: an
 * existing entry is the state's, or stale. NULL when pm took no new entry (full,
 * or out of memory): the caller does not judge the event, and counts it.
 */
static __always_inline struct mg_rpend *mg_judge_pend(struct mg_judge_scratch *sc, void *pm,
						      const struct mg_inode_key *key)
{
	struct mg_rpend *p = bpf_map_lookup_elem(pm, key);

	if (p)
		return p;
	__builtin_memset(&sc->pz, 0, sizeof(sc->pz));
	/* EEXIST: made meanwhile */
	if (!bpf_map_update_elem(pm, key, &sc->pz, BPF_NOEXIST))
		__sync_fetch_and_add(&judge_pend_entries, 1);
	return bpf_map_lookup_elem(pm, key);
}

/* The generations' slots (MG_GENS), for --forget and the passes of user space. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, MG_GENS);
	__type(key, __u32);
	__array(values, struct mg_inodes_map);
} inode_gens SEC(".maps") = {
	.values = { &inodes, &inodes1, &inodes2 },
};

/* check --forget: judge in generations (set by user space before load) */
const volatile bool judge_forget = false;

/*
 * check --forget: the current generation (its slot is judge_gen % MG_GENS), begun
 * by BPF (mg_judge_gen_entered()) when user space has made the next one ready
 */
__u64 judge_gen = 0;

/*
 * check --forget: generation judge_gen_armed + 1 may begin (user space, once its
 * slot is empty and no program reads it: src/util/judge_pass.c forget_rotated()); 0 at
 * load, slot 1 never used yet
 */
__u64 judge_gen_armed = 0;

/* check --forget: entries in each slot's map (inserted, fresh or moved, less those the
 * inode GC deleted), since it became current */
__u64 judge_gen_entered[MG_GENS] = {};

/* check --forget: half of --max-inodes, where a generation begins the next */
const volatile __u64 judge_gen_half = 0;

/*
 * check --forget: one more entry in generation gen's map; at half of
 * --max-inodes, if user space made the next one ready, begin it (one
 * compare-and-exchange of judge_gen: of the CPUs that try, one wins) and wake
 * user space (struct mg_genrec, forced wakeup) to wait for the programs that
 * still read the generation before and empty it. Begun here, not by user
 * space, so that a starved or busy user space costs no event: it has the time
 * of a whole generation (--max-inodes entries) to make the next one ready.
 */
static __always_inline void mg_judge_gen_entered(__u64 gen, void *rb)
{
	__u32 slot = gen % MG_GENS;
	struct mg_genrec *r;

	/* clang knows the bound, the verifier not (a 64-bit modulo by multiplication) */
	asm volatile("" : "+r"(slot));
	if (slot >= MG_GENS)
		return;
	__sync_fetch_and_add(&judge_gen_entered[slot], 1);
	if (judge_gen_entered[slot] < judge_gen_half ||
	    *(volatile __u64 *)&judge_gen_armed != gen ||
	    __sync_val_compare_and_swap(&judge_gen, gen, gen + 1) != gen)
		return;
	r = bpf_ringbuf_reserve(rb, sizeof(*r), 0);
	if (!r)
		return;		/* its next tick sees it (mg_judge_tick_ms()) */
	r->magic = MG_GENREC_MAGIC;
	r->slot = slot;
	r->entered = judge_gen_entered[slot];
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
}

/* check --forget: n entries of slot's map deleted by the inode GC (bpf/mg_inodegc.bpf.h) */
static __always_inline void mg_judge_gen_deleted(__u32 slot, __u64 n)
{
	__u64 *e;

	/* the bound checked on the register that indexes (the verifier tracks no spill) */
	asm volatile("" : "+r"(slot));
	if (slot >= MG_GENS)
		return;
	e = &judge_gen_entered[slot];
	__sync_fetch_and_add(e, -(__s64)n);
}

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
 * This CPU's context ring, and into sc->in.o.ctx the reference of its next slot,
 * which the event takes if the state refers to it after judging
 * (mg_judge_ctx_keep()); NULL (no reference) where no ring names this CPU.
 * *seq: that slot's sequence.
 */
static __always_inline struct mg_ctx_ring *mg_judge_ctx_next(struct mg_judge_scratch *sc,
							     __u64 *seq)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct mg_ctx_ring *r;

	sc->in.o.ctx = 0;
	if (cpu >= MG_CTX_MAX_CPUS)
		return NULL;
	r = bpf_map_lookup_elem(&judge_ctx, &cpu);
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

/* Add n to a per-CPU count that several programs share: atomic (BPF_XADD). */
#define MG_JADD(x, n) __sync_fetch_and_add(&(x), (n))

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mg_judge_counts);
} judge_counts SEC(".maps");

/*
 * Write one violation record (example: a not-fault example); a full ring
 * buffer is counted in jc->lost (jc->examples_lost: the counts stay exact).
 * wb: the wakeup threshold, bytes (mg_wakeup_flags(); asked only here, when a
 * record is written, not on every event). The name is read now, when the record
 * is written, from the event's inode (when not NULL: its first dentry; none once
 * unlinked and closed, or before a btrfs inode has its dentry), else it is the
 * event's own (name: the test program's synthetic event), else none (name_len 0,
 * reported as null). The per-inode map keeps no name (issue 29: only what
 * judging needs).
 */
static __always_inline void mg_judge_report(void *rb, __u64 wb, struct mg_judge_counts *jc,
					    const struct mg_inode_key *key, struct inode *inode,
					    const char *name, const struct mg_rviol *viol,
					    bool example)
{
	struct mg_vrec *r = bpf_ringbuf_reserve(rb, sizeof(*r), 0);

	if (!r) {
		if (example)
			MG_JADD(jc->examples_lost, 1);
		else
			MG_JADD(jc->lost, 1);
		return;
	}
	r->magic = MG_VREC_MAGIC;
	r->kind = viol->kind;
	r->dev = key->dev;
	r->gen = key->gen;
	r->ino = key->ino;
	r->later_flags = viol->later_flags;
	r->name_len = 0;
	r->name[0] = 0;
	if (inode) {
		mg_inode_name(inode, r->name, MG_NAME_LEN, &r->name_len);
	} else if (name) {	/* the test program's: never cut (name_len 0 says so) */
		__builtin_memcpy(r->name, name, MG_NAME_LEN);
		r->name[MG_NAME_LEN - 1] = 0;
	}
	r->earlier = viol->earlier;
	r->later = viol->later;
	mg_judge_ctx_fill(&r->earlier, key);
	mg_judge_ctx_fill(&r->later, key);
	bpf_ringbuf_submit(r, mg_wakeup_flags(rb, wb));
	if (example)
		MG_JADD(jc->examples, 1);
	else
		MG_JADD(jc->records, 1);
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

/*
 * Under the inode's lock, just before judging: fold in a getattr's mark set
 * without the lock (mg_rule_fold_quiet()). A word a getattr may still mark
 * (the latest ctime's, low bit clear) is first exchanged for 0, so that no
 * getattr marks it while the state changes; any other word only the lock's
 * holder writes, so one load reads it. mg_rule_event() then sets the word.
 */
static __always_inline void mg_judge_close_quiet(struct mg_rstate *s)
{
	__u64 w = *(volatile __u64 *)&s->quiet;

	if (w && !(w & 1))
		w = __sync_lock_test_and_set(&s->quiet, 0);
	mg_rule_fold_quiet(s, w);
}

/*
 * Whether an inode not in "inodes" may enter it with this event: always, unless
 * the includer scopes judging (mgtrace.bpf.c: check --tree, the event's process
 * must be in COMMAND's tree). An event refused is counted in out_of_scope.
 */
#ifndef MG_JUDGE_MAY_ENTER
#define MG_JUDGE_MAY_ENTER() true
#endif

/*
 * Right after an event found its entry (mg_judge_find()), on its first try:
 * nothing, unless the includer makes a race happen there (the test program
 * bpf/judgetest.bpf.c: another event moves the inode on to the next generation,
 * as it can while this one runs under --forget).
 */
#ifndef MG_JUDGE_FOUND
#define MG_JUDGE_FOUND(sc, jc, key, rb) do { } while (0)
#endif

/*
 * Between the copy of a creation's state and the check that it was still in
 * its map (mg_judge_adopt()): nothing, unless the includer makes the inode GC's
 * deletion happen there (bpf/judgetest.bpf.c).
 */
#ifndef MG_JUDGE_ADOPT_COPIED
#define MG_JUDGE_ADOPT_COPIED(sc, src) do { } while (0)
#endif

/*
 * Enter key into map (the current generation's, gen) with the state in
 * sc->fresh, new or copied: counted in judge_inodes_entered and, under
 * --forget, in the generation's entries (mg_judge_gen_entered()). Returns 0
 * when entered, 1 when another event of the inode entered it first (EEXIST),
 * -1 when map took no new entry (full, E2BIG, or out of memory); the caller
 * counts each its own way.
 */
static __always_inline int mg_judge_enter(struct mg_judge_scratch *sc, void *map,
					  const struct mg_inode_key *key, __u64 gen, void *rb)
{
	long err = bpf_map_update_elem(map, key, &sc->fresh, BPF_NOEXIST);

	if (!err) {
		__sync_fetch_and_add(&judge_inodes_entered, 1);
		if (judge_forget)
			mg_judge_gen_entered(gen, rb);
		return 0;
	}
	return err == -EEXIST ? 1 : -1;
}

/*
 * Under the lock of pv, an entry of the previous generation not moved yet: mark
 * it moved, and copy its held getattr, if any, from ps (the previous
 * generation's storage) to pd (the current one's; both found when it holds one).
 */
static __always_inline void mg_judge_take_move(struct mg_inode_val *pv, const struct mg_rpend *ps,
					       struct mg_rpend *pd)
{
	pv->moved = 1;
	if ((pv->s.fl & MG_RS_PENDING) && ps && pd)
		__builtin_memcpy(pd, ps, sizeof(*pd));
}

/*
 * check --forget: an inode missing from the current generation's map (map): if
 * the previous generation holds its state, copy that into map and mark the
 * previous entry moved, so that no event of the generation before judges it
 * again (gen: the current generation, read by the caller; its slot is gen %
 * MG_GENS, the previous one's (gen - 1) % MG_GENS). A moved entry's state is final (mg_judge() judges
 * no moved entry), so an event that finds the entry already moved, its mover
 * not yet done, copies the same state and enters it itself (one insert wins,
 * EEXIST for the other): no event waits or goes unjudged for a move in
 * flight. moved is stored before the quiet word is read by an exchange (a
 * fully ordered BPF atomic), so a getattr that marks the previous entry's word
 * without the lock either has its mark copied or sees moved and is judged
 * again in this generation (mg_judge()). Returns 1 when map holds the inode
 * now, 0 when the previous generation does not know it (a new inode), -1 when
 * the event is not judged (counted: the lock failed, or the current map took
 * no new entry (full, E2BIG, or out of memory) and the state stays where it
 * was).
 */
static __always_inline int mg_judge_migrate(struct mg_judge_scratch *sc, struct mg_judge_counts *jc,
					    void *map, const struct mg_inode_key *key, __u64 gen,
					    void *rb)
{
	__u32 b = (gen + MG_GENS - 1) % MG_GENS;
	struct mg_rpend *ps = NULL, *pd = NULL;
	struct mg_inode_val *pv;
	bool took = false;
	void *prev;
	long err;
	int i;

	prev = bpf_map_lookup_elem(&inode_gens, &b);
	if (!prev)
		return 0;
	pv = bpf_map_lookup_elem(prev, key);
	if (!pv)
		return 0;
	/*
	 * A held getattr moves with the state: the event that marks the entry moved
	 * copies it, under the lock, before any event can enter the state into map
	 * (so no copy lands on a storage that events of the next generation write).
	 * Looked up before the lock (no helper runs under it), again if the state
	 * came to hold one meanwhile.
	 */
	for (i = 0; i < 2; i++) {
		if (*(volatile unsigned char *)&pv->s.fl & MG_RS_PENDING) {
			ps = bpf_map_lookup_elem(mg_judge_pend_map(b), key);
			pd = mg_judge_pend(sc, mg_judge_pend_map(gen % MG_GENS), key);
		}
		if (!bpf_res_spin_lock || bpf_res_spin_lock(&pv->lock)) {
			MG_JADD(jc->lock_failed, 1);
			return -1;
		}
		if (pv->moved || !(pv->s.fl & MG_RS_PENDING) || (ps && pd))
			break;
		bpf_res_spin_unlock(&pv->lock);
		if (i) {	/* no storage for it in map (full, or out of memory) */
			MG_JADD(jc->untracked, 1);
			return -1;
		}
	}
	if (!pv->moved) {
		mg_judge_take_move(pv, ps, pd);
		took = true;
	}
	sc->fresh.lock = 0;
	sc->fresh.moved = 0;
	__builtin_memcpy(&sc->fresh.s, &pv->s, sizeof(pv->s));
	/* after moved, by a fully ordered exchange that changes nothing (a 32-bit one would
	 * need -mcpu=v3): a getattr's mark made before it is in the copy */
	sc->fresh.s.quiet = __sync_val_compare_and_swap(&pv->s.quiet, 0, 0);
	bpf_res_spin_unlock(&pv->lock);
	err = mg_judge_enter(sc, map, key, gen, rb);
	if (!err)
		MG_JADD(jc->migrated, 1);
	if (err >= 0)	/* EEXIST: entered meanwhile by the other event moving it: the same state */
		return 1;
	/* not entered: unless another event entered it meanwhile, the state stays in the
	 * previous generation (the next event may move it; else emptying that generation
	 * counts it as forgotten) */
	if (took && !bpf_map_lookup_elem(map, key) && !bpf_res_spin_lock(&pv->lock)) {
		pv->moved = 0;
		bpf_res_spin_unlock(&pv->lock);
	}
	MG_JADD(jc->untracked, 1);	/* E2BIG: the current generation is full (or ENOMEM) */
	return -1;
}

/*
 * An inode missing from map (the current generation's, gen) whose creation was
 * judged under the key in sc->k0 (mg_judge_creation_key()): ext4 and tmpfs
 * stamp a new inode's times before they set i_generation (__ext4_new_inode(),
 * __shmem_get_inode()), xfs before it sets i_ino (xfs_init_new_inode()), so its
 * first event carries generation 0, or number 0, and the rest the real one. If
 * src (map, or under --forget the previous generation's) holds that state,
 * enter key with a copy of it, so that the creation's ctime is the base of the
 * next event (else a ctime regression of the first update after creation went
 * unseen). The creation's state is final: no event carries generation 0, or
 * number 0, once the filesystem set it, so the copy takes no lock. The inode
 * GC may delete that entry meanwhile (the inode at its address no longer has
 * generation 0, or number 0), and a hash map hands a deleted element to the
 * next insertion at once (kernel/bpf/memalloc.c): the
 * copy counts only if the same element still holds that key after it (looked
 * up again behind a fully ordered exchange); else it is dropped (adopt_raced)
 * and the inode enters afresh. The event whose copy enters then deletes the
 * creation's entry (src_slot: src's slot under --forget), so that a new file
 * with later events costs one entry, not two; another event of the inode that
 * is copying it meanwhile finds that entry gone or key already entered, and
 * uses what entered (key enters before the deletion). Returns 1 when map holds
 * the inode now, 0 when there is nothing to take (entered afresh by the
 * caller), -1 when the event is not judged (counted: map full).
 */
static __always_inline int mg_judge_adopt(struct mg_judge_scratch *sc, struct mg_judge_counts *jc,
					  void *map, void *src, __u32 src_slot,
					  const struct mg_inode_key *key, __u64 gen, void *rb)
{
	struct mg_rpend *p0 = NULL;
	struct mg_inode_val *v0;
	int err;

	v0 = bpf_map_lookup_elem(src, &sc->k0);
	if (!v0)
		return 0;
	__builtin_memcpy(&sc->fresh.s, &v0->s, sizeof(v0->s));
	sc->fresh.lock = 0;
	sc->fresh.moved = 0;
	/* a creation holding a getattr (none seen: getattrs name the real key) */
	if (sc->fresh.s.fl & MG_RS_PENDING) {
		p0 = bpf_map_lookup_elem(mg_judge_pend_map(src_slot), &sc->k0);
		if (p0)
			__builtin_memcpy(&sc->pz, p0, sizeof(sc->pz));
	}
	MG_JUDGE_ADOPT_COPIED(sc, src);
	/* the copy's loads before the lookup's (a fully ordered BPF atomic) */
	__sync_val_compare_and_swap(&sc->fence, 0, 0);
	if (bpf_map_lookup_elem(src, &sc->k0) != v0 ||
	    ((sc->fresh.s.fl & MG_RS_PENDING) &&
	     (!p0 || bpf_map_lookup_elem(mg_judge_pend_map(src_slot), &sc->k0) != p0))) {
		MG_JADD(jc->adopt_raced, 1);
		return 0;
	}
	/* its held getattr first, never over an entry there: that is the copy of another
	 * event adopting the same final state, or the state's own once entered */
	if (sc->fresh.s.fl & MG_RS_PENDING) {
		err = bpf_map_update_elem(mg_judge_pend_map(gen % MG_GENS), key, &sc->pz,
					  BPF_NOEXIST);
		if (err && err != -EEXIST) {
			MG_JADD(jc->untracked, 1);	/* full (or ENOMEM) */
			return -1;
		}
		if (!err)
			__sync_fetch_and_add(&judge_pend_entries, 1);
	}
	err = mg_judge_enter(sc, map, key, gen, rb);
	if (!err) {
		MG_JADD(jc->adopted, 1);
		/* moved, not copied: ENOENT if the inode GC deleted it meanwhile (counted there) */
		if (!bpf_map_delete_elem(src, &sc->k0)) {
			MG_JADD(jc->adopted_moved, 1);
			if (judge_forget)
				mg_judge_gen_deleted(src_slot, 1);
			/* and its held getattr's, copied above if it held one */
			if ((sc->fresh.s.fl & MG_RS_PENDING) &&
			    !bpf_map_delete_elem(mg_judge_pend_map(src_slot), &sc->k0))
				__sync_fetch_and_add(&judge_pend_entries, -1);
		}
	}
	if (err >= 0)	/* EEXIST: entered meanwhile by another event of the inode */
		return 1;
	MG_JADD(jc->untracked, 1);	/* E2BIG: full (or ENOMEM) */
	return -1;
}

/*
 * Into sc->k0, creation key c (0 or 1) of key, an inode missing from the map:
 * 0, under generation 0 (ext4, tmpfs); 1, under number 0 (xfs; its address is
 * known: mg_rule_has_identity()). False when key has no such creation key.
 */
static __always_inline bool mg_judge_creation_key(struct mg_judge_scratch *sc,
						  const struct mg_inode_key *key, int c)
{
	if (!key->ino || (c ? !key->addr : !key->gen))
		return false;
	sc->k0 = *key;
	if (c)
		sc->k0.ino = 0;
	else
		sc->k0.gen = 0;
	return true;
}

/*
 * The entry of inode key that an event judges: in "inodes", or under --forget
 * in the current generation's map (judge_gen read now), moved on from the
 * previous one (mg_judge_migrate()), entered with its creation's state
 * (mg_judge_adopt()), or entered fresh if the inode may enter
 * (MG_JUDGE_MAY_ENTER()). NULL when the event is not judged, counted in jc:
 * out of scope, or untracked (the map full, the lock failed). *cur_slot: the
 * slot of the map searched (its held getattrs: mg_judge_pend_map()).
 */
static __always_inline struct mg_inode_val *mg_judge_find(struct mg_judge_scratch *sc,
							 struct mg_judge_counts *jc,
							 const struct mg_inode_key *key, void *rb,
							 __u32 *cur_slot)
{
	struct mg_inode_val *v;
	void *map = &inodes, *prev;
	__u64 gen = 0;
	__u32 slot;
	int mv, c;

	*cur_slot = 0;
	if (judge_forget) {
		gen = *(volatile __u64 *)&judge_gen;
		slot = gen % MG_GENS;
		map = bpf_map_lookup_elem(&inode_gens, &slot);
		if (!map) {	/* never expected: the slots are filled at load */
			MG_JADD(jc->untracked, 1);
			return NULL;
		}
		*cur_slot = slot;
	}
	v = bpf_map_lookup_elem(map, key);
	if (v)
		return v;
	mv = 0;
	/* the previous generation's state, copied over: the inode keeps its history */
	if (judge_forget)
		mv = mg_judge_migrate(sc, jc, map, key, gen, rb);
	/* else the state of its creation, judged under generation 0 (ext4, tmpfs) or
	 * number 0 (xfs) */
	for (c = 0; c < 2 && !mv; c++) {
		if (!mg_judge_creation_key(sc, key, c))
			continue;
		mv = mg_judge_adopt(sc, jc, map, map, gen % MG_GENS, key, gen, rb);
		if (!mv && judge_forget) {
			slot = (gen + MG_GENS - 1) % MG_GENS;
			prev = bpf_map_lookup_elem(&inode_gens, &slot);
			if (prev)
				mv = mg_judge_adopt(sc, jc, map, prev, slot, key, gen, rb);
		}
	}
	if (mv < 0)
		return NULL;
	if (mv > 0) {
		v = bpf_map_lookup_elem(map, key);
		if (!v)	/* entered, then deleted by the inode GC: never expected */
			MG_JADD(jc->untracked, 1);
		return v;
	}
	if (!MG_JUDGE_MAY_ENTER()) {
		MG_JADD(jc->out_of_scope, 1);
		return NULL;
	}
	__builtin_memset(&sc->fresh, 0, sizeof(sc->fresh));
	/* E2BIG: full; EEXIST: another CPU entered it first */
	if (!mg_judge_enter(sc, map, key, gen, rb))
		MG_JADD(jc->inodes, 1);
	v = bpf_map_lookup_elem(map, key);
	if (!v)
		MG_JADD(jc->untracked, 1);
	return v;
}

/*
 * Judge sc->in, an event of inode key (its name, for a report: from inode when
 * not NULL, else from name; read only when a record is written). Counts in jc,
 * reports violations to rb (wb: wakeup threshold in bytes, 0: wake every time).
 * lazy: read the event's clocks, task and CPU here (mg_judge_read_context,
 * tp_btf), only if the rules need them (mg_rule_needs_context: decided on the
 * state read without the lock, checked again under it); false: sc->in carries
 * them (read by the caller, or the test program's). entry_times: updates carry
 * their entry time (function probes). Returns the path taken (enum
 * mg_judge_path: the test program checks it).
 */
static __always_inline int mg_judge(struct mg_judge_scratch *sc, struct mg_judge_counts *jc,
				     const struct mg_inode_key *key, struct inode *inode,
				     const char *name, void *rb, __u64 wb, bool lazy,
				     bool entry_times)
{
	unsigned int kind = sc->in.o.kind;
	struct mg_ctx_ring *ring = NULL;
	bool have_ctx = !lazy, held;
	struct mg_rpend *pp = NULL;
	unsigned int holds;
	struct mg_inode_val *v;
	int i, again, path;
	__u64 seq = 0;
	__u32 slot = 0;

	sc->in.o.ctx = 0;
	sc->in.o.ctx_from = MG_CTX_READ;
	if (have_ctx)
		ring = mg_judge_ctx_next(sc, &seq);

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
		path = 0;
		if (lazy) {
			__u64 q = *(volatile __u64 *)&v->s.quiet;

			/* a getattr that changes nothing: counted as of this one load */
			if (mg_rule_is_quiet(q, &sc->in))
				path = MG_JPATH_QUIET;
			/* the first getattr of the latest ctime: its mark, by one exchange */
			else if (mg_rule_can_mark(q, &sc->in, entry_times) &&
				 __sync_val_compare_and_swap(&v->s.quiet, q, q | 1) == q)
				path = MG_JPATH_MARKED;
		}
		/* after the exchange (fully ordered): a mark moved is copied, or moved seen */
		if (path && (!judge_forget || !*(volatile unsigned int *)&v->moved)) {
			if (kind < MG_EV_NR_KINDS)
				MG_JADD(jc->by_kind[kind], 1);
			MG_JADD(jc->quiet, 1);
			MG_JADD(jc->context_free, 1);
			return path;
		}
		if (path) {
			if (again)
				break;
			continue;
		}
		mg_rule_out_init(&sc->out);
		/* a racy read: the decision is checked again under the lock */
		if (!have_ctx && mg_rule_needs_context(&v->s, &sc->in, entry_times)) {
			MG_JUDGE_READ_CONTEXT(sc, jc, rb, wb);
			have_ctx = true;
			ring = mg_judge_ctx_next(sc, &seq);
		}
		/* the held getattr's storage, if the rules may read or write it: looked up
		 * now, as no helper runs under the lock (decided racily, checked there) */
		pp = NULL;
		if (mg_rule_needs_pend(&v->s, &sc->in))
			pp = mg_judge_pend(sc, mg_judge_pend_map(slot), key);
		/* without the kfunc user space judges (mg_judge_pre_load): never taken, the
		 * verifier drops the rest where it is absent */
		if (!bpf_res_spin_lock || bpf_res_spin_lock(&v->lock)) {
			MG_JADD(jc->lock_failed, 1);
			return MG_JPATH_NOT_JUDGED;
		}
		if ((!have_ctx && mg_rule_needs_context(&v->s, &sc->in, entry_times)) ||
		    (!pp && mg_rule_needs_pend(&v->s, &sc->in))) {
			/* another CPU changed the inode since: read what it needs now (both,
			 * so that nothing more can be needed after the lock is taken again)
			 * and judge then */
			bpf_res_spin_unlock(&v->lock);
			if (!have_ctx) {
				MG_JUDGE_READ_CONTEXT(sc, jc, rb, wb);
				have_ctx = true;
				ring = mg_judge_ctx_next(sc, &seq);
			}
			if (!pp)
				pp = mg_judge_pend(sc, mg_judge_pend_map(slot), key);
			if (bpf_res_spin_lock(&v->lock)) {
				MG_JADD(jc->lock_failed, 1);
				return MG_JPATH_NOT_JUDGED;
			}
		}
		if (!judge_forget || !v->moved)
			goto judge;
		/* an event of the generation before: the next one holds the inode now */
		bpf_res_spin_unlock(&v->lock);
	}
	/* moved twice while one event ran: never expected (see above) */
	MG_JADD(jc->untracked, 1);
	MG_JADD(jc->forget_raced, 1);
	return MG_JPATH_NOT_JUDGED;
judge:
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
	if (holds != MG_HOLDS_NONE && ring)
		mg_judge_ctx_keep(sc, ring, seq);
	if (held)
		mg_judge_held(sc, key);
	if (!have_ctx)
		MG_JADD(jc->context_free, 1);
	if (kind < MG_EV_NR_KINDS)
		MG_JADD(jc->by_kind[kind], 1);
	/* a not-fault case sets has_ben (mg_rule_benign): nothing else to count without it */
	if (sc->out.has_ben) {
		for (i = 0; i < MG_B_NR_KINDS; i++)
			if (sc->out.benign[i])
				MG_JADD(jc->benign[i], sc->out.benign[i]);
		/* the first not-fault cases of each kind on this CPU cross with their context */
		if (sc->out.ben.kind < MG_B_NR_KINDS &&
		    jc->benign[sc->out.ben.kind] <= MG_BENIGN_EXAMPLES) {
			sc->out.ben.kind |= MG_VREC_BENIGN;
			mg_judge_report(rb, wb, jc, key, inode, name, &sc->out.ben, true);
		}
	}
	if (sc->out.overflow)
		MG_JADD(jc->overflow, sc->out.overflow);
	for (i = 0; i < MG_RULE_MAX_VIOL; i++) {
		if (i >= sc->out.nviol)
			break;
		if (sc->out.viol[i].kind < MG_V_NR_KINDS)
			MG_JADD(jc->violations[sc->out.viol[i].kind], 1);
		mg_judge_report(rb, wb, jc, key, inode, name, &sc->out.viol[i], false);
	}
	return have_ctx ? MG_JPATH_CONTEXT : MG_JPATH_NO_CONTEXT;
}

/*
 * This CPU's scratch for events of kind (enum mg_event_kind), and the counts;
 * false if either lookup failed (a kind out of range: never expected).
 */
static __always_inline bool mg_judge_maps(__u32 kind, struct mg_judge_scratch **sc,
					  struct mg_judge_counts **jc)
{
	__u32 zero = 0;

	*sc = bpf_map_lookup_elem(&judge_scratch, &kind);
	*jc = bpf_map_lookup_elem(&judge_counts, &zero);
	return *sc && *jc;
}

#endif
