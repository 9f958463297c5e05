/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_judge_find.bpf.h - the entry of the per-inode state an event of
 * `mgtrace check` is judged against (bpf/mg_judge.bpf.h): found in the current
 * map, moved on from the previous generation (check --forget), entered with
 * the state of the inode's creation (judged under generation 0 or number 0),
 * or entered fresh; and the includer's hooks on that path.
 */
#ifndef MG_JUDGE_FIND_BPF_H
#define MG_JUDGE_FIND_BPF_H

#include "mg_judge_gens.bpf.h"
#include "mg_judge_report.bpf.h"

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
		err = bpf_map_update_elem(mg_judge_pend_map(mg_judge_gen_slot(gen)), key, &sc->pz,
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
 * known: mg_rule_has_identity()). False when key has no such creation key, or
 * when no key of that kind was entered yet (judge_creation_keys).
 */
static __always_inline bool mg_judge_creation_key(struct mg_judge_scratch *sc,
						  const struct mg_inode_key *key, int c)
{
	if (!key->ino || (c ? !key->addr : !key->gen))
		return false;
	/* no key of that kind was ever entered: nothing to look up */
	if (!(*(volatile __u64 *)&judge_creation_keys & (1ULL << c)))
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
		mv = mg_judge_adopt(sc, jc, map, map, mg_judge_gen_slot(gen), key, gen, rb);
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

#endif
