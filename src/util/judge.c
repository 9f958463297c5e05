// SPDX-License-Identifier: GPL-2.0
/* judge.c - the user-space side of judging in BPF (see judge.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "judge.h"
#include "mgtrace.skel.h"
#include "judgetest.skel.h"
#include "floor.skel.h"
#include "follow.h"
#include "util.h"

int mg_judge_pre_load(struct mgtrace_bpf *skel, enum mg_backend be, bool tp_btf, void *ctx)
{
	struct mg_judge *j = ctx;
	int err, ncpu;

	j->configured = tp_btf && !j->user && j->env && j->env->res_spin_lock;
	skel->rodata->judge = j->configured;
	skel->rodata->judge_tai_minus_real = j->tai_minus_real;
	/* entry_ns comes from the function probes of bpf/floor.bpf.c (fentry, kprobe backends) */
	skel->rodata->judge_entry_ns = j->configured && mg_backend_has_funcs(be);
	/* judged in user space (--judge user, raw_tp) with --stacks: each record carries its
	 * kernel stack, so that a violation found there has its event's (a 4 MB stack map,
	 * only then; the stack walk costs about 5x an event: bench/notes.md) */
	skel->rodata->event_stacks = !j->configured && j->stacks;
	/* with function probes check loads bpf/floor.bpf.c, whose violations take their stacks
	 * into this map too (at the violation only: a few distinct stacks) */
	if ((err = bpf_map__set_max_entries(skel->maps.ev_stacks,
					    skel->rodata->event_stacks ? MG_EV_STACKS :
					    mg_backend_has_funcs(be) ? MG_FLOOR_STACKS : 1)))
		return err;
	if (j->configured && j->ringbuf_bytes) {
		/* as backend.c sizes it: wake the consumer at a quarter full */
		skel->rodata->wakeup_bytes = j->ringbuf_bytes / 4;
		if ((err = bpf_map__set_max_entries(skel->maps.events, j->ringbuf_bytes)))
			return err;
	}
	/* the pass that forgets inodes gone (bpf/mg_inodegc.bpf.h): only when judging here,
	 * and not under lockdown=confidentiality: it reads freed inodes' memory with
	 * bpf_probe_read_kernel, which that lockdown takes away */
	bpf_program__set_autoload(skel->progs.inode_gc, j->configured && !MG_NO_KERNEL_READS(j->env));
	/* the same reads give the name of an inode judged at the end (finish_inodes()) */
	bpf_program__set_autoload(skel->progs.inode_name, j->configured &&
				  !MG_NO_KERNEL_READS(j->env));
	if (j->configured && MG_NO_KERNEL_READS(j->env))
		snprintf(j->gc_why, sizeof(j->gc_why), "lockdown=confidentiality takes away "
			 "bpf_probe_read_kernel, which the inode GC needs");
	/* check --tree: inodes enter the map only through COMMAND's tree (bpf/follow.bpf.c's
	 * process map); without judging here user space refuses --tree (check.c) */
	skel->rodata->judge_tree = j->configured && j->tree_fd > 0;
	if (skel->rodata->judge_tree && (err = bpf_map__reuse_fd(skel->maps.traced_tgids,
								   j->tree_fd)))
		return err;
	/* --forget: three generations of the per-inode map, each of --max-inodes entries */
	skel->rodata->judge_forget = j->configured && j->forget;
	skel->rodata->judge_gen_half = j->max_inodes / 2;
	bpf_program__set_autoload(skel->progs.inode_drain, j->configured && j->forget);
	if (j->configured && j->forget &&
	    ((err = bpf_map__set_max_entries(skel->maps.inodes1, (uint32_t)j->max_inodes)) ||
	     (err = bpf_map__set_max_entries(skel->maps.inodes2, (uint32_t)j->max_inodes)) ||
	     (err = bpf_map__set_max_entries(skel->maps.inode_pend1, (uint32_t)j->max_inodes)) ||
	     (err = bpf_map__set_max_entries(skel->maps.inode_pend2, (uint32_t)j->max_inodes))))
		return err;
	/* the held getattrs (struct mg_rpend), apart: at most one an entry of its slot */
	if ((err = bpf_map__set_max_entries(skel->maps.inode_pend,
					    j->configured ? (uint32_t)j->max_inodes : 1)))
		return err;
	/* the context rings: one per possible CPU that a reference can name */
	ncpu = libbpf_num_possible_cpus();
	if (ncpu < 1)
		return ncpu;
	if ((err = bpf_map__set_max_entries(skel->maps.judge_ctx, !j->configured ? 1 :
					    ncpu < (int)MG_CTX_MAX_CPUS ? (uint32_t)ncpu :
					    MG_CTX_MAX_CPUS)) ||
	    (err = bpf_map__set_max_entries(skel->maps.judge_held,
					    j->configured ? MG_HELD_ENTRIES : 1)))
		return err;
	return bpf_map__set_max_entries(skel->maps.inodes,
					j->configured ? (uint32_t)j->max_inodes : 1);
}

void mg_judge_record(struct mg_judge *j, struct mg_checker *c, const struct mg_vrec *r)
{
	unsigned int k = r->kind < MG_V_NR_KINDS ? r->kind : MG_V_REGRESSION;
	struct mg_rviol ben;
	char name[MG_NAME_LEN];

	if (r->kind & MG_VREC_BENIGN) {
		/* a not-fault example: kept as it comes (no clock step explains it) */
		ben = (struct mg_rviol){ .kind = r->kind & ~MG_VREC_BENIGN, .earlier = r->earlier,
					 .later = r->later };
		memcpy(name, r->name, sizeof(name));
		name[sizeof(name) - 1] = 0;
		mg_checker_example(c, ben.kind, r->dev, r->ino, r->gen, name,
				   r->name_len > strlen(name), &ben);
		return;
	}

	j->received[k]++;
	if (j->nheld == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 64;
		struct mg_vrec *p = realloc(j->held, cap * sizeof(*p));

		if (!p) {
			j->unheld[k]++;
			return;
		}
		j->held = p;
		j->cap = cap;
	}
	j->held[j->nheld++] = *r;
}

/* Record one violation found in BPF, with its context. */
static void add_record(struct mg_checker *c, const struct mg_vrec *r)
{
	struct mg_violation v = { .kind = r->kind < MG_V_NR_KINDS ? r->kind : MG_V_REGRESSION,
				  .dev = r->dev, .gen = r->gen, .ino = r->ino };

	memcpy(v.name, r->name, sizeof(v.name));
	v.name[sizeof(v.name) - 1] = 0;
	v.name_truncated = r->name_len > strnlen(v.name, sizeof(v.name));
	mg_obs_from_rule(&v.earlier, &r->earlier);
	mg_obs_from_rule(&v.later, &r->later);
	v.later_flags = r->later_flags;
	v.fs_magic = r->fs_magic;
	strcpy(v.what, "ctime");
	if (r->stack_bytes == MG_VREC_NO_STACK) {
		v.stack_why = MG_STACK_SYNTHETIC;	/* the test program's event */
	} else if (r->stack_bytes < 0) {
		v.stack_why = MG_STACK_FAILED;
		v.stack_err = r->stack_bytes;
	} else {
		v.stack_why = MG_STACK_TAKEN;
		v.stack_len = (uint32_t)r->stack_bytes / sizeof(r->stack[0]);
		if (v.stack_len > MG_STACK_FRAMES)
			v.stack_len = MG_STACK_FRAMES;
		memcpy(v.stack, r->stack, v.stack_len * sizeof(v.stack[0]));
	}
	mg_checker_add(c, &v);
}

void mg_judge_release(struct mg_judge *j, struct mg_checker *c, uint64_t before_ns)
{
	size_t i, n = 0;

	for (i = 0; i < j->nheld; i++)
		if (j->held[i].later.t_ns < before_ns)
			add_record(c, &j->held[i]);
		else
			j->held[n++] = j->held[i];
	j->nheld = n;
}

/* Sum a per-CPU array's one value of n u64 (nr_cpus entries) into sum. */
static int sum_percpu(int fd, int nr_cpus, unsigned long long *sum, size_t n)
{
	unsigned long long *pc = calloc((size_t)nr_cpus * n, sizeof(*pc));
	uint32_t zero = 0;
	size_t i;
	int cpu, err;

	if (!pc)
		return -ENOMEM;
	err = bpf_map_lookup_elem(fd, &zero, pc) ? -errno : 0;
	memset(sum, 0, n * sizeof(*sum));
	for (cpu = 0; !err && cpu < nr_cpus; cpu++)
		for (i = 0; i < n; i++)
			sum[i] += pc[(size_t)cpu * n + i];
	free(pc);
	return err;
}

/*
 * Sum "judge_counts" over the CPUs into sum, and fold in quiet_by_kind: BPF counts
 * an event judged without the lock only there (one atomic add on that path), and it
 * is also an event judged (by_kind), quiet and context-free. Negative errno.
 */
static int mg_judge_sum(struct mgtrace_bpf *skel, int nr_cpus, struct mg_judge_counts *sum)
{
	int k, err = sum_percpu(bpf_map__fd(skel->maps.judge_counts), nr_cpus,
				(unsigned long long *)sum, sizeof(*sum) / sizeof(unsigned long long));

	for (k = 0; !err && k < MG_EV_NR_KINDS; k++) {
		sum->by_kind[k] += sum->quiet_by_kind[k];
		sum->quiet += sum->quiet_by_kind[k];
		sum->context_free += sum->quiet_by_kind[k];
	}
	return err;
}

int mg_judge_floor_read(struct floor_bpf *skel, int nr_cpus, struct mg_floor_judge_counts *sum)
{
	return sum_percpu(bpf_map__fd(skel->maps.floor_judge), nr_cpus, (unsigned long long *)sum,
			  sizeof(*sum) / sizeof(unsigned long long));
}

int mg_judge_floor_finish(struct mg_checker *c, struct floor_bpf *skel, int nr_cpus)
{
	struct mg_floor_judge_counts sum;
	int err = mg_judge_floor_read(skel, nr_cpus, &sum);

	if (!err)
		mg_checker_import_floor(c, &sum);
	return err;
}

/*
 * The name of the inode of key into nc (struct mg_name_ctx: empty when the inode
 * is gone, has no dentry, or inode_name is not loaded: lockdown=confidentiality),
 * by one BPF_PROG_TEST_RUN of inode_name (fd: j->name_fd): the map keeps no names.
 */
static void inode_name(int fd, const struct mg_inode_key *key, struct mg_name_ctx *nc)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = nc, .ctx_out = nc,
		    .ctx_size_in = sizeof(*nc), .ctx_size_out = sizeof(*nc));

	memset(nc, 0, sizeof(*nc));
	nc->key = *key;
	if (fd < 0 || bpf_prog_test_run_opts(fd, &o) || o.retval)
		memset(nc, 0, sizeof(*nc));
	nc->name[MG_NAME_LEN - 1] = 0;
}

/*
 * One entry of "inodes" at the end: counted, and its getattr still held judged as
 * mg_checker_finish() does. 0, or a negative errno (its held getattr unreadable).
 */
static int finish_entry(struct mg_judge *j, struct mg_checker *c, struct mgtrace_bpf *skel,
			uint32_t slot, const struct mg_inode_key *key,
			struct mg_inode_plain *val)
{
	struct mg_name_ctx nc;
	struct mg_rpend pend;
	struct mg_rout out;

	/* --forget: moved on to the next generation, which holds its state */
	if (val->moved)
		return 0;
	j->map_inodes++;
	if (!(val->s.fl & MG_RS_PENDING))
		return 0;
	/* its held getattr: kept whenever one is held (bpf/mg_judge.bpf.h "inode_pend") */
	if (bpf_map_lookup_elem(bpf_map__fd(mg_judge_pend_map(skel, slot)), key, &pend))
		return -errno;	/* never expected */
	memset(&out, 0, sizeof(out));
	mg_rule_finish(&val->s, &pend, &out);
	mg_judge_out_fill(bpf_map__fd(skel->maps.judge_ctx),
			  bpf_map__fd(skel->maps.judge_held), key, &out);
	inode_name(j->name_fd, key, &nc);	/* a held getattr: few, and only at the end */
	mg_checker_rule_out(c, key->dev, key->ino, key->gen, nc.name,
			    nc.name_len > strlen(nc.name), &out,
			    &(struct mg_vstack){ .why = MG_STACK_AT_END });
	return 0;
}

#define FINISH_BATCH 1024	/* entries read by one BPF_MAP_LOOKUP_BATCH (finish_map()) */

/*
 * Walk "inodes" once its writers are detached (no lock needed, none is readable):
 * every entry through finish_entry(), FINISH_BATCH a syscall (Linux 5.6+; values
 * copied without their lock), not two syscalls an entry. 0, or a negative errno.
 */
static int finish_map(struct mg_judge *j, struct mg_checker *c, struct mgtrace_bpf *skel,
		      uint32_t slot)
{
	int fd = bpf_map__fd(mg_judge_slot_map(skel, slot)), err = 0, last = 0, first = 1;
	struct mg_inode_key *keys = calloc(FINISH_BATCH, sizeof(*keys));
	struct mg_inode_plain *vals = calloc(FINISH_BATCH, sizeof(*vals));
	uint32_t cursor = 0, n, i;	/* the hash's batch cursor: a bucket index */

	j->value_bytes = sizeof(*keys) + sizeof(*vals);
	if (!keys || !vals)
		err = -ENOMEM;
	while (!err && !last) {
		n = FINISH_BATCH;
		err = bpf_map_lookup_batch(fd, first ? NULL : &cursor, &cursor, keys, vals, &n,
					   NULL);
		first = 0;
		/* ENOENT: this batch, possibly empty, is the last */
		if (err == -ENOENT) {
			err = 0;
			last = 1;
		}
		for (i = 0; !err && i < n; i++)
			err = finish_entry(j, c, skel, slot, &keys[i], &vals[i]);
	}
	free(keys);
	free(vals);
	return err;
}


/*
 * Walk the per-inode map ("inodes"; under --forget every generation's) after
 * the programs that write it are detached: judge each getattr still held, as
 * mg_checker_finish() does, and count the inodes it holds.
 */
static int finish_inodes(struct mg_judge *j, struct mg_checker *c, struct mgtrace_bpf *skel)
{
	uint32_t slot;
	int err = 0;

	for (slot = 0; !err && slot < (j->forget && j->active ? MG_GENS : 1); slot++)
		err = finish_map(j, c, skel, slot);
	return err;
}

int mg_judge_finish(struct mg_judge *j, struct mg_checker *c, struct mgtrace_bpf *skel,
		    int nr_cpus)
{
	size_t i;
	int err;

	/* COMMAND has exited: who of its tree still runs, beyond the window */
	j->tree_alive_at_end = j->follow ? mg_follow_live(j->follow) : 0;
	for (i = 0; i < j->nheld; i++)
		add_record(c, &j->held[i]);
	if ((err = mg_judge_sum(skel, nr_cpus, &j->sum)))
		return err;
	mg_checker_import_judged(c, &j->sum, j->received, j->unheld);
	j->pend_bytes = mg_judge_pend_bytes(skel);
	return finish_inodes(j, c, skel);
}

int mg_judge_read(const struct mg_judge *j, struct mgtrace_bpf *skel, int nr_cpus,
		  struct mg_judge_counts *sum, uint64_t *entries, uint64_t *entry_bytes)
{
	int err = mg_judge_sum(skel, nr_cpus, sum);
	uint64_t held = mg_judge_elements(j, sum), twice = sum->migrated - j->drained.moved;

	/* an inode moved on leaves its old entry, marked, until its generation is emptied:
	 * the entries held count it twice */
	*entries = held > twice ? held - twice : 0;
	*entry_bytes = sizeof(struct mg_inode_key) + sizeof(struct mg_inode_plain);
	return err;
}

struct bpf_map *mg_judge_slot_map(struct mgtrace_bpf *skel, uint32_t slot)
{
	return slot == 0 ? skel->maps.inodes : slot == 1 ? skel->maps.inodes1 : skel->maps.inodes2;
}

uint64_t mg_judge_pend_bytes(const struct mgtrace_bpf *skel)
{
	if (!skel || !skel->bss)
		return 0;
	return __atomic_load_n(&skel->bss->judge_pend_entries, __ATOMIC_RELAXED) *
	       (sizeof(struct mg_inode_key) + sizeof(struct mg_rpend));
}

struct bpf_map *mg_judge_pend_map(struct mgtrace_bpf *skel, uint32_t slot)
{
	return slot == 0 ? skel->maps.inode_pend : slot == 1 ? skel->maps.inode_pend1 :
			   skel->maps.inode_pend2;
}

uint64_t mg_judge_forgotten(const struct mg_judge *j)
{
	return j->drained.forgotten;
}

uint64_t mg_judge_elements(const struct mg_judge *j, const struct mg_judge_counts *sum)
{
	uint64_t held = sum->inodes + sum->migrated + sum->adopted - sum->adopted_moved;
	uint64_t gone = j->gc_sum.collected + j->drained.visited;

	return held > gone ? held - gone : 0;
}

/*
 * A report's observation o whose context the state kept (MG_CTX_KEPT): from
 * BPF's ring "judge_ctx" (fd) that its reference names, read after the programs
 * are detached; else MG_CTX_LOST (overwritten, as bpf/mg_judge.bpf.h
 * mg_judge_ctx_fill() would find it).
 */
static void ctx_fill(int fd, int held_fd, const struct mg_inode_key *key, struct mg_robs *o)
{
	unsigned int cpu = (o->ctx >> MG_CTX_SEQ_BITS) - 1;
	const struct mg_rctx *e;
	struct mg_ctx_ring *r;
	struct mg_held h;

	if (o->ctx_from != MG_CTX_KEPT)
		return;
	mg_ctx_lost(o);
	if (o->ctx && (r = malloc(sizeof(*r)))) {
		if (!bpf_map_lookup_elem(fd, &cpu, r) &&
		    (e = mg_ctx_find(r->e, MG_CTX_RING, r->head, cpu, o)))
			mg_ctx_put(o, e);
		free(r);
	}
	/* a held getattr's, and the value it was older than: kept apart when it was held */
	if (o->ctx_from == MG_CTX_LOST && !bpf_map_lookup_elem(held_fd, key, &h))
		mg_held_put(o, &h);
}

void mg_judge_out_fill(int fd, int held_fd, const struct mg_inode_key *key, struct mg_rout *out)
{
	struct mg_robs *o;
	unsigned int i;

	for (i = 0; (o = mg_rule_out_obs(out, i)); i++)
		ctx_fill(fd, held_fd, key, o);
}

void mg_judge_describe(const struct mg_judge *j, char *buf, size_t len)
{
	if (!j->active)
		snprintf(buf, len, "in user space: every event crosses the ring buffer (%s)",
			 j->user ? "--judge user" : j->configured ? "judging in BPF was not attached" :
			 j->env && !j->env->res_spin_lock ? "kernel without bpf_res_spin_lock, "
			 "which judging in BPF takes (6.15+)" :
			 "tracepoints as raw_tp, which cannot take a BPF lock");
	else {
		int n = snprintf(buf, len, "in BPF at the event (tp_btf; include/mg_rules.h under one "
				 "bpf_res_spin_lock per inode); inode map: %llu of %llu entries%s, %llu "
				 "bytes of key and value each; violation records: %llu written, %llu lost; "
				 "lock failures %llu; getattrs and skips judged without a clock read %llu, "
				 "of them without the lock %llu; new inodes that took the state of their "
				 "creation (generation 0 or number 0) %llu, found it deleted %llu",
				 (unsigned long long)j->map_inodes, (unsigned long long)(j->forget ? 3 :
				 1) * j->max_inodes, j->forget ? " (--forget: three generations' maps "
				 "of --max-inodes each)" : "", (unsigned long long)j->value_bytes,
				 (unsigned long long)j->sum.records, (unsigned long long)j->sum.lost,
				 (unsigned long long)j->sum.lock_failed,
				 (unsigned long long)j->sum.context_free,
				 (unsigned long long)j->sum.quiet, (unsigned long long)j->sum.adopted,
				 (unsigned long long)j->sum.adopt_raced);

		if (n < 0 || (size_t)n >= len)
			return;
		if (j->gc_why[0])
			n += snprintf(buf + n, len - (size_t)n, "; inodes gone not forgotten: %s",
				      j->gc_why);
		else if (j->gc_passes)
			n += snprintf(buf + n, len - (size_t)n, "; inodes gone forgotten %llu in %llu "
				      "passes (%.1f ms), and creation keys of live inodes %llu",
				      (unsigned long long)(j->gc_sum.collected -
							   j->gc_sum.creation_keys),
				      (unsigned long long)j->gc_passes, j->gc_ns / 1e6,
				      (unsigned long long)j->gc_sum.creation_keys);
		if (n < 0 || (size_t)n >= len || !j->forget)
			return;
		snprintf(buf + n, len - (size_t)n, "; --forget: %llu generations begun (%.1f ms), "
			 "history of %llu inodes forgotten (%llu holding a getattr), %llu moved on, "
			 "%llu gone, events not judged while moving %llu%s%s",
			 (unsigned long long)j->rotations, j->rotate_ns / 1e6,
			 (unsigned long long)j->drained.forgotten,
			 (unsigned long long)j->drained.forgotten_pending,
			 (unsigned long long)j->sum.migrated, (unsigned long long)j->drained.gone,
			 (unsigned long long)j->sum.forget_raced, j->forget_why[0] ? "; stopped: " : "",
			 j->forget_why);
	}
}

int mg_judge_tree_open(struct mg_judge *j, pid_t root)
{
	char why[360];

	j->follow = mg_follow_open(j->env, root, false, why, sizeof(why));
	if (!j->follow)
		return mg_err(MG_EXIT_ENV, "check: cannot follow COMMAND's tree: %s", why);
	j->tree_fd = mg_follow_fd(j->follow);
	return MG_EXIT_OK;
}

uint64_t mg_judge_tree_followed(const struct mg_judge *j)
{
	return j->follow ? mg_follow_followed(j->follow) : 0;
}

uint64_t mg_judge_tree_not_followed(const struct mg_judge *j)
{
	return j->follow ? mg_follow_not_followed(j->follow) : 0;
}

void mg_judge_tree_close(struct mg_judge *j)
{
	mg_follow_close(j->follow);
	j->follow = NULL;
	j->tree_fd = 0;
}

void mg_judge_free(struct mg_judge *j)
{
	mg_follow_close(j->follow);
	j->follow = NULL;
	j->tree_fd = 0;
	free(j->held);
	j->held = NULL;
	j->nheld = j->cap = 0;
}
