/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_judge_gens.bpf.h - check --forget's generations of the per-inode state
 * (bpf/mg_judge.bpf.h), and an inode's entry into the current one.
 *
 * check --forget keeps the state in generations, not in the one map "inodes"
 * (src/util/judge.c, mg_judge_collect()): "inodes", "inodes1" and "inodes2"
 * are the slots of the map-in-map "inode_gens"; judge_gen names the current
 * one, gen % MG_GENS, and the previous one, (gen + 2) % MG_GENS. An inode
 * missing from the current map whose state the previous one holds has it
 * copied over under the previous entry's lock, which is then marked moved
 * (mg_judge_migrate()). When the current map holds half of --max-inodes and
 * user space has made the next slot ready, the event that finds it so makes
 * that slot current (mg_judge_gen_entered()); user space then waits until no
 * program can still read the generation before (a map-in-map update:
 * synchronize_rcu(), kernel/bpf/syscall.c maybe_wait_bpf_programs()), empties
 * that one with inode_drain, counting each inode not moved as forgotten, and
 * makes its slot the next one ready (src/util/judge_pass.c forget_rotated()).
 * No entry is deleted while a program can hold it: a hash map reuses a deleted
 * element's memory at once (kernel/bpf/memalloc.c), so deleting a live inode's
 * entry under a running program could hand its writes to another inode.
 */
#ifndef MG_JUDGE_GENS_BPF_H
#define MG_JUDGE_GENS_BPF_H

#include "mg_judge_state.bpf.h"

/*
 * The generations' slots (MG_GENS), for --forget and its passes of user space: filled
 * by user space after load, before attach, only under --forget (judge_pass.c
 * mg_judge_fill_gens(): "inodes", "inodes1", "inodes2", in one batch). Not by libbpf
 * from a static initialiser: each update of a map-in-map waits for running programs
 * (synchronize_rcu(), kernel/bpf/syscall.c maybe_wait_bpf_programs()), 8 to 25 ms
 * each on 6.18 here, which every check paid three times at start. Without --forget
 * nothing reads them: the programs judge in "inodes" and the inode GC passes over it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, MG_GENS);
	__type(key, __u32);
	__array(values, struct mg_inodes_map);
} inode_gens SEC(".maps");

/* check --forget: judge in generations (set by user space before load) */
const volatile bool judge_forget = false;

/*
 * The slot of generation gen, gen % MG_GENS; without --forget gen is always 0, and
 * so is the slot: a constant the verifier sees (it knows no bound of the modulo,
 * which clang computes by multiplication), so that it verifies the held getattrs'
 * map of slot 0 alone, not all three.
 */
static __always_inline __u32 mg_judge_gen_slot(__u64 gen)
{
	return judge_forget ? gen % MG_GENS : 0;
}

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
	__u64 ck = (key->gen ? 0 : 1) | (key->ino ? 0 : 2);
	long err;

	/* a creation key's kind, marked before it can be found (judge_creation_keys) */
	if (ck & ~*(volatile __u64 *)&judge_creation_keys)
		__sync_fetch_and_or(&judge_creation_keys, ck);
	err = bpf_map_update_elem(map, key, &sc->fresh, BPF_NOEXIST);
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

#endif
