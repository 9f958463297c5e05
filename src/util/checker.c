// SPDX-License-Identifier: GPL-2.0
/*
 * checker.c - multigrain invariant checker (see checker.h): the inode table and the
 * judging of each event by the rules of include/mg_rules.h (ctime events per inode,
 * floor events alone), and what is still held at the end. What it finds is recorded
 * by checker_record.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <bpf/bpf.h>
#include "checker.h"
#include "checker_int.h"

/* Per-inode state: an open-addressing table slot around the shared rule state. */
struct ino_state {
	uint64_t ino;
	uint32_t dev, gen;
	uint64_t addr;			/* mg_event::inode_addr (0 in synthetic streams) */
	bool used;
	bool name_cut;			/* name was cut by the event buffer (mg_event::name_len) */
	struct mg_rstate r;		/* include/mg_rules.h: the same state BPF keeps */
	struct mg_rpend p;		/* its held getattr (BPF keeps it apart) */
	char name[MG_NAME_LEN];
};

/*
 * Contexts kept in user space (struct mg_checker::ctx): 3 MiB, the last 65,536
 * observations the state came to hold (every event crosses to user space here,
 * so more than BPF's MG_CTX_RING a CPU); at most 2^MG_CTX_SEQ_BITS.
 */
#define CHECKER_CTX_RING 65536u

/* The first size of the inode table, in slots (grow() doubles it). */
#define CHECKER_FIRST_CAP 1024

static uint64_t mix(uint64_t x)
{
	x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27; x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* bytes fit in the machine's RAM and swap (true if sysinfo(2) fails). */
static bool table_fits(uint64_t bytes)
{
	struct sysinfo si;

	return sysinfo(&si) || (double)bytes <= ((double)si.totalram + si.totalswap) * si.mem_unit;
}

uint64_t mg_checker_table_bytes(size_t max_inodes, uint64_t *slots, size_t *slot_bytes)
{
	for (*slots = 16; *slots < 2 * (uint64_t)max_inodes; *slots <<= 1)
		;
	*slot_bytes = sizeof(struct ino_state);
	return *slots * sizeof(struct ino_state);
}

struct mg_checker *mg_checker_new(size_t max_inodes, size_t max_reports)
{
	struct mg_checker *c;
	uint64_t cap;
	size_t sb;

	if (!max_inodes || max_inodes > (1ull << 40) ||
	    !table_fits(mg_checker_table_bytes(max_inodes, &cap, &sb)) ||
	    !(c = calloc(1, sizeof(*c))))
		return NULL;
	c->max_inodes = max_inodes;
	c->stacks_fd = -1;
	c->max_cap = cap;
	/* grown as inodes enter (grow()): read whole at the end (mg_checker_finish()), a
	 * preallocated table was all resident, untouched pages too (218 MB by default) */
	c->cap = c->max_cap < CHECKER_FIRST_CAP ? c->max_cap : CHECKER_FIRST_CAP;
	c->tab = calloc(c->cap, sizeof(*c->tab));
	c->max_reports = max_reports;
	c->reports = calloc(max_reports ? max_reports : 1, sizeof(*c->reports));
	if (!c->tab || !c->reports) {
		mg_checker_free(c);
		return NULL;
	}
	return c;
}

void mg_checker_free(struct mg_checker *c)
{
	if (!c)
		return;
	free(c->tab);
	free(c->reports);
	free(c->ctx);
	mg_steps_free(&c->steps);
	free(c);
}

int mg_ts_cmp(struct mg_ts a, struct mg_ts b)
{
	if (a.sec != b.sec)
		return a.sec < b.sec ? -1 : 1;
	if (a.nsec != b.nsec)
		return a.nsec < b.nsec ? -1 : 1;
	return 0;
}

/* The home slot of (dev, ino, gen, addr): where its probe begins. */
static size_t home_of(const struct mg_checker *c, uint32_t dev, uint64_t ino, uint32_t gen,
		      uint64_t addr)
{
	return mix(ino ^ ((uint64_t)dev << 32) ^ ((uint64_t)gen << 13) ^ addr) & (c->cap - 1);
}

/* The slot of (dev, ino, gen, addr): its entry, or the free slot where it would go. */
static struct ino_state *slot_of(struct mg_checker *c, uint32_t dev, uint64_t ino, uint32_t gen,
				 uint64_t addr)
{
	size_t i = home_of(c, dev, ino, gen, addr);

	for (;; i = (i + 1) & (c->cap - 1)) {
		struct ino_state *s = &c->tab[i];

		if (!s->used || (s->ino == ino && s->dev == dev && s->gen == gen && s->addr == addr))
			return s;
	}
}

/*
 * Empty slot z, shifting back the entries of its probe run that would no
 * longer be found past the hole (linear probing's deletion, no tombstones).
 */
static void remove_slot(struct mg_checker *c, struct ino_state *z)
{
	size_t i = (size_t)(z - c->tab), j = i, k, mask = c->cap - 1;

	for (;;) {
		j = (j + 1) & mask;
		if (!c->tab[j].used)
			break;
		k = home_of(c, c->tab[j].dev, c->tab[j].ino, c->tab[j].gen, c->tab[j].addr);
		/* the entry at j stays if its home lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		c->tab[i] = c->tab[j];
		i = j;
	}
	memset(&c->tab[i], 0, sizeof(c->tab[i]));
}

/*
 * Double the table, rehashing its entries; false (the table kept) when calloc
 * fails.
 */
static bool grow(struct mg_checker *c)
{
	size_t old = c->cap, i;
	struct ino_state *otab = c->tab, *nt = calloc(2 * old, sizeof(*nt));

	if (!nt) {
		c->grow_failed++;
		return false;
	}
	c->tab = nt;
	c->cap = 2 * old;
	for (i = 0; i < old; i++)
		if (otab[i].used)
			*slot_of(c, otab[i].dev, otab[i].ino, otab[i].gen, otab[i].addr) = otab[i];
	free(otab);
	return true;
}

/*
 * The slot of the creation of new key (dev, ino, gen, addr), if one was
 * judged: under generation 0 (ext4 and tmpfs stamp a new inode's times before
 * they set i_generation) or, for a known address, under number 0 (xfs's
 * creation swap: mg_rule_has_identity()); NULL if none.
 */
static struct ino_state *creation_of(struct mg_checker *c, uint32_t dev, uint64_t ino,
				     uint32_t gen, uint64_t addr)
{
	struct ino_state *z;

	if (!ino)
		return NULL;
	if (gen && (z = slot_of(c, dev, ino, 0, addr))->used)
		return z;
	if (addr && (z = slot_of(c, dev, 0, gen, addr))->used)
		return z;
	return NULL;
}

/*
 * Find or insert (dev, ino, gen, addr); NULL when the bound is reached (or the
 * table could not grow: out of memory). A new key takes the state of its
 * creation if that was judged under generation 0 or number 0 (creation_of()),
 * as BPF does (bpf/mg_judge.bpf.h mg_judge_adopt()): that entry moves to the
 * new key, so the inode is one entry.
 */
static struct ino_state *lookup(struct mg_checker *c, uint32_t dev, uint64_t ino, uint32_t gen,
				uint64_t addr)
{
	struct ino_state *s = slot_of(c, dev, ino, gen, addr), *z;
	struct ino_state created;

	if (s->used)
		return s;
	if ((z = creation_of(c, dev, ino, gen, addr))) {
		created = *z;
		remove_slot(c, z);
		s = slot_of(c, dev, ino, gen, addr);
		*s = created;
		s->ino = ino;
		s->gen = gen;
		c->st.creation_taken++;
		return s;
	}
	if (c->st.inodes >= c->max_inodes)
		return NULL;
	/* at most half full, so that a probe ends soon and always finds a free slot */
	if (2 * (c->st.inodes + 1) > c->cap) {
		if (c->cap >= c->max_cap || !grow(c))
			return NULL;
		s = slot_of(c, dev, ino, gen, addr);
	}
	s->used = true;
	s->dev = dev;
	s->ino = ino;
	s->gen = gen;
	s->addr = addr;
	c->st.inodes++;
	return s;
}

/* The rules' input from an event record. */
void mg_rule_in_of(struct mg_rin *in, const struct mg_event *e)
{
	in->o = (struct mg_robs){ .sec = e->ctime_sec, .nsec = e->ctime_nsec & ~MG_I_CTIME_QUERIED,
				  .kind = e->kind, .t_ns = e->ts_ns, .tai_ns = e->tai_ns,
				  .entry_ns = e->entry_ns, .pid = e->pid, .cpu = e->cpu };
	memcpy(in->o.comm, e->comm, sizeof(in->o.comm));
	in->old_nsec = e->old_nsec;
	in->cur_nsec = e->cur_nsec;
	in->flags = e->flags;
	in->time_gran = e->time_gran;
	/* set by the caller from the clock samples (mg_steps_last_user_back()), where known */
	in->step_back_ns = 0;
	in->step_back_at = 0;
}

/*
 * A report's observation o whose context the state kept (MG_CTX_KEPT): from the
 * checker's ring, else MG_CTX_LOST (overwritten since).
 */
static void ctx_fill(const struct mg_checker *c, struct mg_robs *o)
{
	const struct mg_rctx *e;

	if (o->ctx_from != MG_CTX_KEPT)
		return;
	if (c->ctx && (e = mg_ctx_find(c->ctx, CHECKER_CTX_RING, c->ctx_head, 0, o)))
		mg_ctx_put(o, e);
	else
		mg_ctx_lost(o);
}

/*
 * After judging event in against state s: if s holds the event's observation
 * now, keep its context (as reference in->o.ctx, the ring's next slot, says).
 */
static void ctx_keep(struct mg_checker *c, const struct ino_state *s, const struct mg_rin *in)
{
	if (mg_rule_holds_ctx(&s->r, &s->p, in->o.ctx) == MG_HOLDS_NONE)
		return;
	if (!c->ctx && !(c->ctx = calloc(CHECKER_CTX_RING, sizeof(*c->ctx))))
		return;		/* its report says the context was lost */
	mg_ctx_take(&c->ctx[c->ctx_head % CHECKER_CTX_RING], &in->o);
	c->ctx_head++;
}

/* Into v, the kernel stack stk says its event had: why, errno, and the frames if taken. */
static void violation_stack(struct mg_violation *v, const struct mg_vstack *stk)
{
	v->stack_why = stk->why, v->stack_err = stk->err;
	if (stk->why != MG_STACK_TAKEN)
		return;		/* v->stack_len stays 0: v is zero-initialised */
	v->stack_len = stk->len < MG_STACK_FRAMES ? stk->len : MG_STACK_FRAMES;
	memcpy(v->stack, stk->frames, v->stack_len * sizeof(v->stack[0]));
}

void mg_checker_rule_out(struct mg_checker *c, uint32_t dev, uint64_t ino, uint32_t gen,
			 const char *name, bool name_cut, const struct mg_rout *rout,
			 const struct mg_vstack *stk)
{
	struct mg_violation v = { .dev = dev, .gen = gen, .ino = ino, .name_truncated = name_cut };
	struct mg_rout o = *rout, *out = &o;
	struct mg_robs *ob;
	unsigned int i;

	for (i = 0; (ob = mg_rule_out_obs(out, i)); i++)
		ctx_fill(c, ob);

	for (i = 0; i < MG_B_NR_KINDS; i++)
		c->st.benign[i] += out->benign[i];
	if (name) {
		memcpy(v.name, name, sizeof(v.name));
		v.name[sizeof(v.name) - 1] = 0;
	}
	violation_stack(&v, stk);
	strcpy(v.what, "ctime");
	for (i = 0; i < out->nviol && i < MG_RULE_MAX_VIOL; i++) {
		v.kind = out->viol[i].kind;
		mg_obs_from_rule(&v.earlier, &out->viol[i].earlier);
		mg_obs_from_rule(&v.later, &out->viol[i].later);
		v.later_flags = out->viol[i].later_flags;
		mg_checker_add(c, &v);
	}
	/* never expected (mg_rule_viol): counted as regressions without a report */
	c->st.violations[MG_V_REGRESSION] += out->overflow;
	if (out->has_ben)
		mg_checker_example(c, out->ben.kind, dev, ino, gen, name, name_cut, &out->ben);
}

/*
 * The kernel stack e's record carries (stack_id: its id in the stack map plus 1, or
 * bpf_get_stackid()'s -errno, 0 none) into frames and *stk. Asked only for an event that
 * broke a rule: one map lookup per violation.
 */
static void event_stack(const struct mg_checker *c, const struct mg_event *e, uint64_t *frames,
			struct mg_vstack *stk)
{
	uint32_t id = (uint32_t)e->stack_id - 1, n;

	if (c->stacks_fd < 0 || !e->stack_id)
		return;		/* *stk as the caller set it: no record of a stack */
	if (e->stack_id < 0) {
		*stk = (struct mg_vstack){ .why = MG_STACK_FAILED, .err = e->stack_id };
		return;
	}
	memset(frames, 0, MG_STACK_FRAMES * sizeof(*frames));
	if (bpf_map_lookup_elem(c->stacks_fd, &id, frames)) {
		*stk = (struct mg_vstack){ .why = MG_STACK_MAP_LOST, .err = -errno };
		return;
	}
	for (n = 0; n < MG_STACK_FRAMES && frames[n]; n++)
		;
	*stk = (struct mg_vstack){ .frames = frames, .len = n, .why = MG_STACK_TAKEN };
}

/*
 * Floor events (bpf/floor.bpf.c): the two floor invariants (mg_rule_floor). A violation
 * has the kernel stack its record carries (taken in BPF at the violation only), else
 * MG_STACK_FLOOR.
 */
static void floor_event(struct mg_checker *c, struct ino_state *s, const struct mg_event *e,
			const struct mg_obs *obs)
{
	struct mg_violation v = { .dev = e->dev, .gen = e->gen, .ino = e->ino,
				  .earlier = *obs, .later = *obs };
	unsigned int r = mg_rule_floor(e->floor_known, e->floor_before, e->floor_after, e->flags);
	struct mg_vstack stk = { .why = MG_STACK_FLOOR };
	uint64_t frames[MG_STACK_FRAMES];

	if (r & (MG_RF_FLOOR_BACKWARD | MG_RF_FINE_UNNEEDED))	/* one lookup per violation */
		event_stack(c, e, frames, &stk);
	violation_stack(&v, &stk);
	if (s) {
		memcpy(v.name, s->name, sizeof(v.name));
		v.name_truncated = s->name_cut;
	} else {
		memcpy(v.name, e->name, sizeof(v.name));
		v.name[sizeof(v.name) - 1] = 0;
		v.name_truncated = e->name_len > strnlen(v.name, sizeof(v.name));
	}
	strcpy(v.what, "floor");
	/* judged in BPF: counted there (mg_checker_import_floor), sent for its violations */
	if (e->flags & MG_EVF_JUDGED) {
		c->floor_records[0] += !!(r & MG_RF_FLOOR_BACKWARD);
		c->floor_records[1] += !!(r & MG_RF_FINE_UNNEEDED);
	}
	if (!(e->flags & MG_EVF_JUDGED))
		c->st.floor_checked += !!(r & MG_RF_FLOOR_CHECKED);
	if (r & MG_RF_FLOOR_BACKWARD) {
		v.kind = MG_V_FLOOR_BACKWARD;
		v.earlier.ctime = (struct mg_ts){ (int64_t)(e->floor_before / 1000000000),
						  (uint32_t)(e->floor_before % 1000000000) };
		v.later.ctime = (struct mg_ts){ (int64_t)(e->floor_after / 1000000000),
						(uint32_t)(e->floor_after % 1000000000) };
		mg_checker_add(c, &v);
	}
	/* every floor event is a fine stamp: one not decided (state changed between the
	 * captures, or its inode_set_ctime_current began before the probes were attached)
	 * is undecided, never dropped */
	if (r & MG_RF_FINE_DECIDED) {
		c->st.fine_checked += !(e->flags & MG_EVF_JUDGED);
		if (r & MG_RF_FINE_UNNEEDED) {
			v.kind = MG_V_FINE_UNNEEDED;
			v.earlier = v.later = *obs;
			mg_checker_add(c, &v);
		}
	} else if (!(e->flags & MG_EVF_JUDGED)) {
		c->st.fine_undecided++;
	}
}

void mg_checker_finish(struct mg_checker *c)
{
	struct mg_rout out;
	size_t i;

	for (i = 0; i < c->cap; i++) {
		struct ino_state *s = &c->tab[i];

		if (!s->used || !(s->r.fl & MG_RS_PENDING))
			continue;
		memset(&out, 0, sizeof(out));
		mg_rule_finish(&s->r, &s->p, &out);	/* p given: never -1 */
		mg_checker_rule_out(c, s->dev, s->ino, s->gen, s->name, s->name_cut, &out,
				    &(struct mg_vstack){ .why = MG_STACK_AT_END });
	}
}

/*
 * Count one event judged here in "events" and by kind: what BPF counts in
 * judge_counts.by_kind (bpf/mg_judge.bpf.h), so events without an inode
 * number and untracked ones are counted only in their own fields, on both paths.
 */
static void count_judged(struct mg_checker *c, unsigned int kind)
{
	c->st.events++;
	if (kind < MG_EV_NR_KINDS)
		c->st.by_kind[kind]++;
}

void mg_checker_set_stacks(struct mg_checker *c, int fd)
{
	c->stacks_fd = fd;
}

void mg_checker_event(struct mg_checker *c, const struct mg_event *e)
{
	struct mg_vstack stk = { .why = MG_STACK_NO_RECORD };
	uint64_t frames[MG_STACK_FRAMES];
	struct ino_state *s = NULL;
	struct mg_rout out;
	struct mg_rin in;
	struct mg_obs obs;

	if (e->kind >= MG_EV_FLOOR_SWAP) {
		/* a floor event judged in BPF is counted there (mg_checker_import_floor) */
		if (!(e->flags & MG_EVF_JUDGED))
			count_judged(c, e->kind);
		mg_rule_in_of(&in, e);
		mg_obs_from_rule(&obs, &in.o);
		if (e->ino && !c->no_floor_inodes)
			s = lookup(c, e->dev, e->ino, e->gen, e->inode_addr);
		floor_event(c, s, e, &obs);
		return;
	}
	if (!mg_rule_has_identity(e->ino, e->inode_addr != 0, e->kind)) {
		c->st.no_ino_events++;
		return;
	}
	s = lookup(c, e->dev, e->ino, e->gen, e->inode_addr);
	if (!s) {
		c->st.untracked_events++;
		return;
	}
	count_judged(c, e->kind);
	if (e->name[0]) {
		memcpy(s->name, e->name, sizeof(s->name));
		s->name_cut = e->name_len > strnlen(e->name, sizeof(e->name));
	}
	s->name[MG_NAME_LEN - 1] = 0;
	mg_rule_in_of(&in, e);
	/* judged here: the steps user space's samples recorded (events are fed only after
	 * a sample taken after them, src/check/check.c) */
	mg_steps_last_user_back(&c->steps, in.o.t_ns, &in.step_back_ns, &in.step_back_at);
	in.o.ctx = mg_ctx_ref(0, c->ctx_head);
	memset(&out, 0, sizeof(out));
	mg_rule_event(&s->r, &s->p, &in, c->tai_minus_real, &out);	/* p given: never -1 */
	ctx_keep(c, s, &in);
	if (out.nviol)
		event_stack(c, e, frames, &stk);
	mg_checker_rule_out(c, s->dev, s->ino, s->gen, s->name, s->name_cut, &out, &stk);
}

void mg_checker_judged_in_bpf(struct mg_checker *c)
{
	c->no_floor_inodes = true;
}

void mg_checker_set_home_dev(struct mg_checker *c, uint32_t dev)
{
	c->home_dev = dev;
}

void mg_checker_set_tai_offset(struct mg_checker *c, int64_t tai_minus_real_ns)
{
	c->tai_minus_real = tai_minus_real_ns;
}
