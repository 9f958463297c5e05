// SPDX-License-Identifier: GPL-2.0
/*
 * top_bpf.c - `mgtrace top`: load bpf/top.bpf.c with one backend, and read one
 * interval out of it (see top_int.h and the comment of bpf/top.bpf.c); what a row's key
 * names (--by's words, a pid outside mgtrace's PID namespace).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "follow.h"
#include "pidns.h"
#include "kenv.h"
#include "top_int.h"
#include "top.skel.h"
#include "util.h"

/* --by's words: what a row is, top's own (not an event kind). */
const char *const top_by_names[MG_TOP_BY_NR] = { "pid", "comm", "file", "cgroup", "stack" };

bool top_pid_outside(uint32_t pid)
{
	return !pid && mg_pidns_self(NULL, NULL) > 0;
}

/* Per-CPU value bytes as the map system calls lay them out (8-byte aligned per CPU). */
#define VAL_SZ ((sizeof(struct mg_top_val) + 7) & ~(size_t)7)

/* Put the two reserved entries, zeroed, into map fd. Returns 0 or -errno. */
static int reserve(struct top_bpf_state *b, int fd)
{
	struct mg_top_key k = { 0 };

	memset(b->vals, 0, VAL_SZ * b->nr_cpus);
	for (k.special = MG_TOPK_TOTAL; k.special <= MG_TOPK_UNATTR; k.special++)
		if (bpf_map_update_elem(fd, &k, b->vals, BPF_ANY))
			return -errno;
	return 0;
}

/* When a program of bpf/top.bpf.c loads (top_progs[].when). */
#define W_BTF		(1u << 0)	/* tracepoints as tp_btf */
#define W_RAW		(1u << 1)	/* tracepoints as raw_tp */
#define W_FENTRY	(1u << 2)	/* the fentry backend */
#define W_KPROBE	(1u << 3)	/* the kprobe backend */
#define W_BY_FILE	(1u << 4)	/* only with --by file */

/* A tracepoint's two programs when top counts it (MG_TRACEPOINT's top is 1), else none. */
#define TOP_TP_0(tp, prog)
#define TOP_TP_1(tp, prog)	{ P(tpb_##prog), "tp_btf/" tp, W_BTF }, \
				{ P(rtp_##prog), "raw_tp/" tp, W_RAW },

/*
 * bpf/top.bpf.c's programs, where each attaches (its SEC()) and when it loads: the
 * tracepoints' from include/mg_vocab.def, then top's own function probes (no event
 * kind: fine stamps, their floor outcome, and the inode of --by file). The fentry
 * backend probes inode_set_ctime_current with a kprobe: it returns a struct, which
 * BPF trampolines refuse.
 */
static const struct {
	size_t prog;
	const char *sec;
	unsigned int when;
} top_progs[] = {
#define P(name) MG_SKEL_PROG_OFF(top_bpf, name)
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in, top)	\
	TOP_TP_##top(tp, prog)
#include "mg_vocab.def"
	{ P(fe_floor_entry), "fentry/ktime_get_real_ts64_mg", W_FENTRY },
	{ P(fe_floor_exit), "fexit/ktime_get_real_ts64_mg", W_FENTRY },
	{ P(kp_floor_entry), "kprobe/ktime_get_real_ts64_mg", W_KPROBE },
	{ P(kp_floor_exit), "kretprobe/ktime_get_real_ts64_mg", W_KPROBE },
	{ P(kp_inode), "kprobe/inode_set_ctime_current", W_FENTRY | W_KPROBE | W_BY_FILE },
	{ P(kp_inode_exit), "kretprobe/inode_set_ctime_current", W_FENTRY | W_KPROBE | W_BY_FILE },
#undef P
};
#define NR_TOP_PROGS (sizeof(top_progs) / sizeof(top_progs[0]))

int mg_top_progs_check(char *why, size_t len)
{
	struct mg_prog_ref refs[NR_TOP_PROGS];
	struct top_bpf *skel = top_bpf__open();
	int err;

	if (!skel) {
		err = -errno;
		snprintf(why, len, "open: %s", strerror(-err));
		return err;
	}
	for (size_t i = 0; i < NR_TOP_PROGS; i++) {
		refs[i].off = top_progs[i].prog;
		snprintf(refs[i].sec, sizeof(refs[i].sec), "%s", top_progs[i].sec);
	}
	err = mg_progs_check(skel->obj, skel, refs, NR_TOP_PROGS, why, len);
	top_bpf__destroy(skel);
	return err;
}

/* Autoload the programs of backend be (FENTRY, KPROBE, TRACEPOINT), tracepoints as tp_btf or raw_tp. */
static void choose(struct top_bpf *s, enum mg_backend be, bool btf, enum mg_top_by by)
{
	unsigned int want = (btf ? W_BTF : W_RAW) | (be == MG_BE_FENTRY ? W_FENTRY : 0) |
			    (be == MG_BE_KPROBE ? W_KPROBE : 0);

	for (size_t i = 0; i < NR_TOP_PROGS; i++) {
		unsigned int w = top_progs[i].when;

		bpf_program__set_autoload(MG_SKEL_PROG(s, top_progs[i].prog), (w & want) &&
					  (!(w & W_BY_FILE) || by == MG_TOP_BY_FILE));
	}
}

/* One open, load, reserve and attach. Returns 0 or a negative errno; why says at which stage. */
static int try_one(struct top_state *t, enum mg_backend be, bool btf, const char **stage)
{
	struct top_bpf_state *b = &t->b;
	__u32 n = (__u32)t->o.max_entries + 2, zero = 0;
	struct top_bpf *s;
	int err, fd;

	mg_libbpf_log_reset();
	*stage = "open";
	s = top_bpf__open();
	*stage = "setup";
	if (!s)
		return -errno;
	choose(s, be, btf, t->o.by);
	s->rodata->by = t->o.by;
	/* lockdown=confidentiality: no bpf_probe_read_kernel, so no file names */
	s->rodata->no_kernel_reads = MG_NO_KERNEL_READS(&t->run.env);
	MG_PIDNS_RODATA(s);
	s->rodata->filter_tree = t->follow != NULL;
	if (t->o.cpus.given)
		MG_CPUS_RODATA(s, t->o.cpus.mask);
	err = bpf_map__set_max_entries(s->maps.top_a, n);
	if (!err)
		err = bpf_map__set_max_entries(s->maps.top_b, n);
	if (!err)
		err = t->follow ? bpf_map__reuse_fd(s->maps.traced_tgids, mg_follow_fd(t->follow))
				: bpf_map__set_max_entries(s->maps.traced_tgids, 1);
	/* the stack map is preallocated: its 4 MB only for --by stack */
	if (!err)
		err = bpf_map__set_max_entries(s->maps.top_stacks, t->o.by == MG_TOP_BY_STACK ?
					       MG_TOP_STACKS : 1);
	if (!err) {
		*stage = "load";
		err = top_bpf__load(s);
	}
	if (!err) {
		*stage = "map setup";
		if (!(err = reserve(b, bpf_map__fd(s->maps.top_a))) &&
		    !(err = reserve(b, bpf_map__fd(s->maps.top_b)))) {
			fd = bpf_map__fd(s->maps.top_a);
			if (bpf_map_update_elem(bpf_map__fd(s->maps.top_cur), &zero, &fd, BPF_ANY))
				err = -errno;
		}
	}
	if (!err) {
		*stage = "attach";
		err = top_bpf__attach(s);
	}
	if (err) {
		top_bpf__destroy(s);
		return err < 0 ? err : -EINVAL;
	}
	b->skel = s;
	b->stacks_fd = bpf_map__fd(s->maps.top_stacks);
	b->backend = be;
	b->tp_btf = btf;
	b->active = 0;
	return 0;
}

int top_bpf_open(struct top_state *t)
{
	static const enum mg_backend order[] = { MG_BE_FENTRY, MG_BE_KPROBE, MG_BE_TRACEPOINT };
	struct top_bpf_state *b = &t->b;
	char why[MG_BE_NR][200] = { { 0 } }, cause[200], also[200] = "";
	const char *stage, *ks = NULL;
	struct mg_attempt a;
	size_t i, len;
	int err, cpus = mg_nr_cpus();

	if (cpus <= 0)
		return mg_err(MG_EXIT_FAIL, "top: possible CPUs: %s", strerror(-cpus));
	b->nr_cpus = cpus;
	b->batch_ok = true;
	b->keys = calloc(t->o.max_entries + 2, sizeof(*b->keys));
	b->vals = calloc(t->o.max_entries + 2, VAL_SZ * (size_t)cpus);
	if (!b->keys || !b->vals)
		return mg_err(MG_EXIT_FAIL, "top: out of memory for %llu map entries",
			      (unsigned long long)t->o.max_entries);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum mg_backend be = order[i];

		if (t->o.backend != MG_BE_AUTO && t->o.backend != be)
			continue;
		err = try_one(t, be, true, &stage);
		if (err && be == MG_BE_TRACEPOINT) {
			mg_libbpf_cause(err, stage, false, why[be], sizeof(why[be]));
			err = try_one(t, be, false, &stage);	/* raw_tp */
		}
		if (!err)
			break;
		if (be == MG_BE_TRACEPOINT) {
			len = strlen(why[be]);
			snprintf(why[be] + len, sizeof(why[be]) - len, "; raw_tp: %s",
				 mg_libbpf_cause(err, stage, false, cause, sizeof(cause)));
		} else {
			memset(&a, 0, sizeof(a));
			mg_attempt_explain(&a, &t->run.env, be, err, stage);
			snprintf(why[be], sizeof(why[be]), "%.190s", a.why);
			/* said once, after the function-probe backends' own causes */
			if (!ks)
				ks = mg_kallsyms_problem("timekeeping_mg_floor_swaps", true);
		}
	}
	if (ks)
		snprintf(also, sizeof(also), "; also: %s", ks);
	if (!b->skel) {
		if (t->o.backend == MG_BE_AUTO)
			return mg_err(MG_EXIT_ENV, "top: no backend attaches: fentry %s; kprobe %s%s; "
				      "tracepoints %s", why[MG_BE_FENTRY], why[MG_BE_KPROBE], also,
				      why[MG_BE_TRACEPOINT]);
		return mg_err(MG_EXIT_ENV, "top: backend %s unavailable: %s%s",
			      mg_backend_name(t->o.backend), why[t->o.backend], also);
	}
	if (b->backend == MG_BE_FENTRY || b->backend == MG_BE_KPROBE)
		b->floor_probe = b->backend == MG_BE_FENTRY ? "fentry/fexit" : "kprobe/kretprobe";
	else if (t->o.backend == MG_BE_AUTO)
		mg_snprintf_words(b->floor_why, sizeof(b->floor_why), "fentry %s; kprobe %s%s",
				  why[MG_BE_FENTRY], why[MG_BE_KPROBE], also);
	else
		snprintf(b->floor_why, sizeof(b->floor_why), "--backend tracepoint");
	return MG_EXIT_OK;
}

/* Read and delete every entry of fd into b->keys/b->vals. Returns the count or -errno. */
static int drain(struct top_bpf_state *b, int fd, size_t cap)
{
	__u32 count, in = 0, out = 0;
	size_t n = 0, i;
	void *inp = NULL;
	int err;

	while (b->batch_ok) {
		count = (__u32)(cap - n);
		err = bpf_map_lookup_and_delete_batch(fd, inp, &out, b->keys + n,
						      (char *)b->vals + n * VAL_SZ * b->nr_cpus,
						      &count, NULL);
		if (err && errno != ENOENT) {
			if (n || (errno != EINVAL && errno != ENOTSUP && errno != EOPNOTSUPP))
				return -errno;
			b->batch_ok = false;	/* kernel without batch ops on this map */
			break;
		}
		n += count;
		if (err || n >= cap)
			return (int)n;
		in = out;
		inp = &in;
	}
	/* iterate: the map is quiescent, so nothing changes under the walk */
	while (n < cap && !bpf_map_get_next_key(fd, n ? &b->keys[n - 1] : NULL, &b->keys[n])) {
		if (bpf_map_lookup_elem(fd, &b->keys[n], (char *)b->vals + n * VAL_SZ * b->nr_cpus))
			return -errno;
		n++;
	}
	if (errno != ENOENT && n < cap)
		return -errno;
	for (i = 0; i < n; i++)
		if (bpf_map_delete_elem(fd, &b->keys[i]) && errno != ENOENT)
			return -errno;
	return (int)n;
}

/* Sum the per-CPU copies of entry i into r. */
static void sum_row(struct top_bpf_state *b, size_t i, struct top_row *r)
{
	const char *base = (const char *)b->vals + i * VAL_SZ * b->nr_cpus;

	memset(r, 0, sizeof(*r));
	r->key = b->keys[i];
	for (int cpu = 0; cpu < b->nr_cpus; cpu++) {
		const struct mg_top_val *v = (const void *)(base + cpu * VAL_SZ);

		for (int c = 0; c < MG_TOP_NR; c++)
			r->n[c] += v->n[c];
		if (!r->comm[0] && v->comm[0]) {
			r->tgid = v->tgid;
			memcpy(r->comm, v->comm, sizeof(r->comm));
		}
		if (!r->name_len && v->name_len) {
			r->name_len = v->name_len;
			memcpy(r->name, v->name, sizeof(r->name));
		}
	}
}

int top_bpf_read(struct top_state *t, struct top_table *tb)
{
	struct top_bpf_state *b = &t->b;
	int old = b->active, next = !old, fd_next, fd_old, n;
	static uint64_t errs[MG_MAX_CPUS];
	__u32 zero = 0;
	size_t i;

	fd_next = bpf_map__fd(next ? b->skel->maps.top_b : b->skel->maps.top_a);
	fd_old = bpf_map__fd(old ? b->skel->maps.top_b : b->skel->maps.top_a);
	/* the kernel returns from this update after an RCU grace period: no program holds old */
	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.top_cur), &zero, &fd_next, BPF_ANY))
		return -errno;
	b->active = next;
	n = drain(b, fd_old, t->o.max_entries + 2);
	if (n < 0)
		return n;
	tb->rows = calloc(n ? n : 1, sizeof(*tb->rows));
	if (!tb->rows)
		return -ENOMEM;
	tb->nr = 0;
	memset(&tb->total, 0, sizeof(tb->total));
	memset(&tb->unattr, 0, sizeof(tb->unattr));
	for (i = 0; i < (size_t)n; i++) {
		struct top_row r;

		sum_row(b, i, &r);
		if (r.key.special == MG_TOPK_TOTAL)
			tb->total = r;
		else if (r.key.special == MG_TOPK_UNATTR)
			tb->unattr = r;
		else
			tb->rows[tb->nr++] = r;
	}
	n = reserve(b, fd_old);
	if (n < 0)
		return n;
	/* top_errs is cumulative: this window's counts are the difference to the last read */
	for (__u32 e = 0; e < MG_TOPE_NR; e++) {
		uint64_t sum = 0;

		if (b->nr_cpus > MG_MAX_CPUS ||
		    bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.top_errs), &e, errs))
			return -errno;
		for (int cpu = 0; cpu < b->nr_cpus; cpu++)
			sum += errs[cpu];
		tb->errs[e] = sum - b->errs_seen[e];
		b->errs_seen[e] = sum;
	}
	return 0;
}

void top_bpf_close(struct top_bpf_state *b)
{
	top_bpf__destroy(b->skel);
	b->skel = NULL;
	free(b->keys);
	free(b->vals);
	b->keys = NULL;
	b->vals = NULL;
}
