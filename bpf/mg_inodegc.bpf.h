/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_inodegc.bpf.h - `mgtrace check`, judged in BPF: forget the state of inodes
 * that no longer exist, so that a workload creating and deleting more files
 * over its life than --max-inodes still fits the per-inode map.
 *
 * The syscall program inode_gc of bpf/mgtrace.bpf.c (loaded only when check judges in BPF:
 * mg_judge_pre_load()), run by user space with BPF_PROG_TEST_RUN (src/util/judge.c,
 * mg_judge_collect()) on the "inodes" map of bpf/mg_judge.bpf.h: it
 * visits every entry (bpf_for_each_map_elem) and deletes the entries of
 * inodes gone, which no event can name again. The key holds the struct
 * inode's address with its identity (dev, ino, generation): the inode is gone
 * when the memory there no longer holds that identity (freed and reused, or
 * unreadable), or when the kernel is freeing it (i_state I_FREEING or I_CLEAR,
 * set by evict() before the filesystem lets it go; read by mg_inode_state() in
 * either layout of i_state, else the identity alone decides).
 * A live inode always holds its identity, so its state is never forgotten:
 * an event of it after a wrong "gone" could only start its state afresh (as
 * at attach), never judge it against forgotten state. An entry holding a
 * getattr (pending) is kept: its judgment comes at the end (mg_judge_finish()).
 * Reads of the inode are bpf_probe_read_kernel() (CO-RE), which fail cleanly
 * on memory no longer mapped.
 *
 * Its syscall programs, last in bpf/mgtrace.bpf.c (which includes this file at its
 * end): inode_gc, inode_drain (check --forget: empty a generation) and inode_name
 * (the name of an inode that no event names).
 */
#ifndef MG_INODEGC_BPF_H
#define MG_INODEGC_BPF_H

#include "mg_judge.bpf.h"

/* The inode at key->addr still is the inode of key, and is not being freed. */
static __always_inline bool mg_inode_alive(const struct mg_inode_key *key)
{
	struct inode *inode = (struct inode *)key->addr;
	struct super_block *sb = NULL;
	unsigned long ino = 0;
	struct mg_istate st;
	__u32 gen = 0;
	dev_t dev = 0;

	if (!inode || bpf_core_read(&ino, sizeof(ino), &inode->i_ino) || ino != key->ino ||
	    bpf_core_read(&gen, sizeof(gen), &inode->i_generation) || gen != key->gen ||
	    bpf_core_read(&sb, sizeof(sb), &inode->i_sb) || !sb ||
	    bpf_core_read(&dev, sizeof(dev), &sb->s_dev) || dev != key->dev)
		return false;
	/* the state unknown (no i_state layout in the kernel's BTF): the identity decides */
	if (!mg_inode_state(inode, &st, false) && (st.state & (st.i_freeing | st.i_clear)))
		return false;
	return true;
}

/*
 * key is the creation key of a live inode that the filesystem has since given
 * its generation (key generation 0: ext4, tmpfs) or its number (key number 0:
 * xfs): the state of its creation (bpf/mg_judge.bpf.h mg_judge_adopt()), which
 * no event takes once the inode's next event has entered its real key.
 */
static __always_inline bool mg_inode_creation_key(const struct mg_inode_key *key)
{
	struct inode *inode = (struct inode *)key->addr;
	struct super_block *sb = NULL;
	unsigned long ino = 0;
	__u32 gen = 0;
	dev_t dev = 0;

	if (!inode || bpf_core_read(&ino, sizeof(ino), &inode->i_ino) ||
	    bpf_core_read(&gen, sizeof(gen), &inode->i_generation) ||
	    bpf_core_read(&sb, sizeof(sb), &inode->i_sb) || !sb ||
	    bpf_core_read(&dev, sizeof(dev), &sb->s_dev) || dev != key->dev)
		return false;
	if (!key->gen)
		return ino == key->ino && gen;
	return !key->ino && ino && gen == key->gen;
}

/*
 * bpf_for_each_map_elem() callback over "inodes": count the entry in c, and
 * delete it if its inode is gone and it holds no getattr. Returns 0 (go on).
 */
static long mg_gc_one(struct bpf_map *map, struct mg_inode_key *key, struct mg_inode_val *v,
		   struct mg_gc_ctx *c)
{
	c->visited++;
	if (mg_inode_alive(key)) {
		c->alive++;
		return 0;
	}
	/* --forget: its state lives in the next generation now (emptied with this one) */
	if (*(volatile unsigned int *)&v->moved)
		return 0;
	/* a held getattr is judged at the end; no event of a gone inode comes to resolve it */
	if (*(volatile unsigned char *)&v->s.fl & MG_RS_PENDING) {
		c->kept_pending++;
		return 0;
	}
	if (!bpf_map_delete_elem(map, key)) {
		c->collected++;
		if (mg_inode_creation_key(key))
			c->creation_keys++;
		/* its held getattr's storage, stale (ENOENT: it never held one) */
		if (!bpf_map_delete_elem(mg_judge_pend_map(c->slot), key))
			__sync_fetch_and_add(&judge_pend_entries, -1);
	}
	return 0;
}

/*
 * bpf_for_each_map_elem() callback of inode_drain (check --forget) over a
 * generation no program reads any more: delete the entry, counting in c
 * whether its state was moved on, its inode is gone, or its history is
 * forgotten. Returns 0 (go on).
 */
static long mg_drain_one(struct bpf_map *map, struct mg_inode_key *key, struct mg_inode_val *v,
			 struct mg_drain_ctx *c)
{
	if (v->moved)
		c->moved++;
	else if (!no_kernel_reads && mg_inode_creation_key(key))
		c->creation_keys++;
	else if (!no_kernel_reads && !mg_inode_alive(key))
		c->gone++;
	else {
		c->forgotten++;
		if (v->s.fl & MG_RS_PENDING)
			c->forgotten_pending++;
	}
	if (bpf_map_delete_elem(map, key))
		c->delete_failed++;
	else
		c->visited++;
	return 0;
}

/*
 * bpf_for_each_map_elem() callback of inode_drain over the held getattrs' map of
 * the generation emptied (mg_judge_pend_map()): delete the entry (counted with
 * the states: their holds are counted there). Returns 0 (go on).
 */
static long mg_drain_pend_one(struct bpf_map *map, struct mg_inode_key *key, struct mg_rpend *p,
			      struct mg_drain_ctx *c)
{
	if (bpf_map_delete_elem(map, key))
		c->delete_failed++;
	else
		__sync_fetch_and_add(&judge_pend_entries, -1);
	return 0;
}

/* inode_drain, after the states of slot: empty its held getattrs' map. */
static __always_inline void mg_drain_pend(__u32 slot, struct mg_drain_ctx *c)
{
	bpf_for_each_map_elem(mg_judge_pend_map(slot), mg_drain_pend_one, c, 0);
}

/* ---- check, judged in BPF: the passes over the per-inode maps (user space,
 * BPF_PROG_TEST_RUN; src/util/judge_pass.c) ---- */

/*
 * A syscall program NAME(CTX *ctx) visiting every entry of the map in slot ctx->slot of
 * "inode_gens" (without --forget, which fills those slots: "inodes", slot 0) with
 * callback CB and its own counts, copied back into *ctx: 0, or 1 if the slot holds no
 * map (never expected).
 */
#define MG_SLOT_PASS(NAME, CTX, CB, AFTER)					\
SEC("syscall")									\
int NAME(struct CTX *ctx)							\
{										\
	struct CTX c = { .slot = ctx->slot };					\
	__u32 slot = ctx->slot;							\
	void *map = judge_forget ? bpf_map_lookup_elem(&inode_gens, &slot) :	\
		    slot ? NULL : (void *)&inodes;				\
										\
	if (!map || slot >= MG_GENS)						\
		return 1;							\
	bpf_for_each_map_elem(map, CB, &c, 0);					\
	AFTER;									\
	*ctx = c;								\
	return 0;								\
}

/* forget the entries of inodes gone (struct mg_gc_ctx, bpf/mg_inodegc.bpf.h); under
 * --forget the slot's count of entries, which begins the next generation at half of
 * --max-inodes (mg_judge_gen_entered()), loses them */
MG_SLOT_PASS(inode_gc, mg_gc_ctx, mg_gc_one, mg_judge_gen_deleted(slot, c.collected))

/* check --forget: empty one generation's map (struct mg_drain_ctx), then its held
 * getattrs' (mg_drain_pend()) */
MG_SLOT_PASS(inode_drain, mg_drain_ctx, mg_drain_one, mg_drain_pend(slot, &c))

/*
 * The name of the inode of ctx->key (struct mg_name_ctx), read through its
 * address while that memory still holds the inode: for a violation judged at
 * the end of a run (a held getattr), which no event names.
 */
SEC("syscall")
int inode_name(struct mg_name_ctx *ctx)
{
	struct mg_name_ctx c = {};

	c.key = ctx->key;
	if (!no_kernel_reads && mg_inode_alive(&c.key)) {
		c.alive = 1;
		mg_inode_name((struct inode *)c.key.addr, c.name, MG_NAME_LEN, &c.name_len);
	}
	*ctx = c;
	return 0;
}

#endif
