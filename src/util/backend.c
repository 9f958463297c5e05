// SPDX-License-Identifier: GPL-2.0
/*
 * backend.c - choose, load and attach an attach backend (see backend.h): the program
 * table of bpf/mgtrace.bpf.c that drives autoload, one load+attach per attempt, the
 * auto order, reading the counters. Why an attempt failed is backend_why.c's; the
 * runs the kernel skipped, backend_misses.c's. The only caller of mgtrace_bpf__open()
 * (a static inline carrying the whole object: one copy in the binary).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "backend.h"
#include "backend_why.h"
#include "funcprobe.h"
#include "cpulist.h"
#include "parload.h"
#include "pidns.h"
#include "mgtrace.skel.h"
#include "util.h"

static const char *const be_names[MG_BE_NR] = { "auto", "fentry", "kprobe", "tracepoint", "kernel" };

const char *mg_backend_name(enum mg_backend b)
{
	return b < MG_BE_NR ? be_names[b] : "?";
}

int mg_backend_parse(const char *s, enum mg_backend *b)
{
	int i;

	for (i = 0; i < MG_BE_NR; i++) {
		if (!strcmp(s, be_names[i])) {
			*b = i;
			return 0;
		}
	}
	return -EINVAL;
}

bool mg_backend_has_funcs(enum mg_backend b)
{
	return b == MG_BE_FENTRY || b == MG_BE_KPROBE;
}

/*
 * bpf/mgtrace.bpf.c's function probes per enum mg_func: the fentry and the kprobe
 * program. func_probe() picks the column for a backend.
 */
static const struct { size_t fentry, kprobe; } func_progs[MG_NR_FUNCS] = {
#define P(name) MG_SKEL_PROG_OFF(mgtrace_bpf, name)
	[MG_FN_SET_CTIME_CURRENT] = { P(fe_set_ctime_current), P(kp_set_ctime_current) },
	[MG_FN_REAL_MG] = { P(fe_real_mg), P(kp_real_mg) },
	[MG_FN_CURRENT_TIME] = { P(fe_current_time), P(kp_current_time) },
	[MG_FN_COARSE_MG] = { P(fe_coarse_mg), P(kp_coarse_mg) },
};

/* Its tracepoint programs per mg_tp_names[] index: as tp_btf and as raw_tp. */
static const struct { size_t tp_btf, raw_tp; } tp_progs[MG_NR_TPS] = {
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in, top)	\
	[MG_TP_##ID] = { P(tpb_##prog), P(rtp_##prog) },
#include "mg_vocab.def"
#undef P
};

/*
 * Autoload the programs of backend be from the tables: the selected tracepoints as
 * tp_btf or raw_tp, each function's probe type (none under tracepoint and kernel).
 * A program in neither table stays off.
 */
static void select_progs(struct mgtrace_bpf *skel, const struct mg_kenv *env,
			 enum mg_backend be, bool tp_btf, const struct mg_session_opts *o)
{
	struct bpf_program *prog;
	int i;

	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	for (i = 0; i < MG_NR_TPS; i++) {
		bool on = !o->tp_select || (o->tp_mask & 1u << i);

		bpf_program__set_autoload(MG_SKEL_PROG(skel, tp_progs[i].tp_btf), on && tp_btf);
		bpf_program__set_autoload(MG_SKEL_PROG(skel, tp_progs[i].raw_tp), on && !tp_btf);
	}
	for (i = 0; i < MG_NR_FUNCS; i++) {
		const char *how = mg_func_probe(env, be, o->hot, i);

		bpf_program__set_autoload(MG_SKEL_PROG(skel, func_progs[i].fentry),
					  how && !strcmp(how, "fentry"));
		bpf_program__set_autoload(MG_SKEL_PROG(skel, func_progs[i].kprobe),
					  how && !strcmp(how, "kprobe"));
	}
}

int mg_progs_check(struct bpf_object *obj, const void *skel, const struct mg_prog_ref *refs,
		   size_t n, char *why, size_t len)
{
	struct bpf_program *prog;
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct bpf_program *p = MG_SKEL_PROG(skel, refs[i].off);
		const char *sec = p ? bpf_program__section_name(p) : NULL;

		if (!sec || strcmp(sec, refs[i].sec)) {
			snprintf(why, len, "table entry %zu: program %s has section %s, want %s", i,
				 p ? bpf_program__name(p) : "(none)", sec ? sec : "(none)", refs[i].sec);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (MG_SKEL_PROG(skel, refs[j].off) == p) {
				snprintf(why, len, "table entries %zu and %zu are both program %s", j,
					 i, bpf_program__name(p));
				return -EINVAL;
			}
	}
	bpf_object__for_each_program(prog, obj) {
		for (i = 0; i < n && MG_SKEL_PROG(skel, refs[i].off) != prog; i++)
			;
		if (i == n) {
			snprintf(why, len, "program %s (%s) is not in the table", bpf_program__name(prog),
				 bpf_program__section_name(prog));
			return -EINVAL;
		}
	}
	return 0;
}

int mg_session_progs_check(char *why, size_t len)
{
	struct mg_prog_ref refs[2 * (MG_NR_FUNCS + MG_NR_TPS) + 3];
	struct mgtrace_bpf *skel = mgtrace_bpf__open();
	size_t n = 0;
	int i, err;

	if (!skel) {
		err = -errno;
		snprintf(why, len, "open: %s", strerror(-err));
		return err;
	}
	for (i = 0; i < MG_NR_FUNCS; i++) {
		refs[n].off = func_progs[i].fentry;
		snprintf(refs[n++].sec, sizeof(refs[0].sec), "fentry/%s", mg_func_names[i]);
		refs[n].off = func_progs[i].kprobe;
		snprintf(refs[n++].sec, sizeof(refs[0].sec), "kprobe/%s", mg_func_names[i]);
	}
	for (i = 0; i < MG_NR_TPS; i++) {
		refs[n].off = tp_progs[i].tp_btf;
		snprintf(refs[n++].sec, sizeof(refs[0].sec), "tp_btf/%s", mg_tp_names[i]);
		refs[n].off = tp_progs[i].raw_tp;
		snprintf(refs[n++].sec, sizeof(refs[0].sec), "raw_tp/%s", mg_tp_names[i]);
	}
	/* check's passes over "inodes" (judge.c), autoloaded by mg_judge_pre_load() only:
	 * the inode GC, --forget's emptying of a generation, and the names read at the end */
	refs[n].off = offsetof(struct mgtrace_bpf, progs.inode_gc);
	snprintf(refs[n++].sec, sizeof(refs[0].sec), "syscall");
	refs[n].off = offsetof(struct mgtrace_bpf, progs.inode_drain);
	snprintf(refs[n++].sec, sizeof(refs[0].sec), "syscall");
	refs[n].off = offsetof(struct mgtrace_bpf, progs.inode_name);
	snprintf(refs[n++].sec, sizeof(refs[0].sec), "syscall");
	err = mg_progs_check(skel->obj, skel, refs, n, why, len);
	mgtrace_bpf__destroy(skel);
	return err;
}

/*
 * Whether an attempt of backend be would fail before its programs load, as a
 * trivial probe shows: -EPERM when the kernel refuses a BPF trampoline on the
 * first function be attaches with fentry or fexit (BPF_PROG_LOAD of "r0 = 0;
 * exit"; lockdown, or no CAP_BPF), -ENOENT when be needs a kprobe and the kernel
 * has none (mg_have_kprobe_pmu()); else 0. A doomed attempt is then not made:
 * its full load, the kernel BTF parsed twice by libbpf (11 MB here) and every
 * program verified, costs seconds on a busy machine and set check's peak RSS.
 * The attempt's why is what that attempt would have said (mg_backend_explain()).
 */
static int doomed(const struct mg_kenv *env, enum mg_backend be, bool hot, const char **stage)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int i, fd, nf = hot ? MG_NR_FUNCS : MG_FN_NR_BASE;
	const char *how;

	for (i = 0; be == MG_BE_FENTRY && i < nf; i++) {
		LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_FENTRY);

		how = mg_func_probe(env, be, hot, i);
		if (!how || strncmp(how, "f", 1) || !env->func_btf_id[i])
			continue;	/* not fentry/fexit, or the load says why */
		o.attach_btf_id = (__u32)env->func_btf_id[i];
		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", insns, 2, &o);
		if (fd >= 0) {
			close(fd);
			break;
		}
		if (errno == EPERM) {
			*stage = "load";
			return -EPERM;
		}
		break;
	}
	for (i = 0; i < nf; i++) {
		how = mg_func_probe(env, be, hot, i);
		if (how && !strcmp(how, "kprobe") && !mg_have_kprobe_pmu()) {
			*stage = "attach";
			return -ENOENT;
		}
	}
	return 0;
}

/*
 * The object's settings before its load: event mode's rodata and ring buffer, the
 * stack map, the process filter, what this kernel's BTF says of struct inode. 0, or
 * -errno with *stage the step that failed (its explanation's stage).
 */
static int configure(struct mgtrace_bpf *skel, const struct mg_kenv *env,
		     const struct mg_session_opts *o, const char **stage)
{
	int err;

	if (o->events) {
		skel->rodata->emit_events = true;
		skel->rodata->event_mask = o->event_mask ? o->event_mask : ~0U;
		skel->rodata->event_clock = o->event_clock;
		skel->rodata->filter_nids = o->filter_nids;
		memcpy((void *)skel->rodata->filter_devs, o->filter_devs, sizeof(o->filter_devs));
		memcpy((void *)skel->rodata->filter_inos, o->filter_inos, sizeof(o->filter_inos));
		memcpy((char *)skel->rodata->filter_comm, o->filter_comm, sizeof(o->filter_comm));
		MG_CPUS_RODATA(skel, o->cpu_mask);
		/* wake the consumer at a quarter full; it also polls every 50-100 ms */
		skel->rodata->wakeup_bytes = (o->ringbuf_bytes ? o->ringbuf_bytes : 16u << 20) / 4;
		err = bpf_map__set_max_entries(skel->maps.events,
					       o->ringbuf_bytes ? o->ringbuf_bytes : 16u << 20);
		if (err) {
			*stage = "ring buffer size";
			return err;
		}
	}
	/* one entry: only check's judging in user space asks for the events' stacks and sizes
	 * the map (judge.c mg_judge_pre_load()) */
	err = bpf_map__set_max_entries(skel->maps.ev_stacks, 1);
	if (err) {
		*stage = "stack map size";
		return err;
	}
	/* the process filter: of events, or of counts in process scope (stat -p, --tree) */
	skel->rodata->count_scoped = o->count_scoped;
	MG_PIDNS_RODATA(skel);
	/* lockdown=confidentiality: no bpf_probe_read_kernel, so no names (mg_inode_name()) */
	skel->rodata->no_kernel_reads = MG_NO_KERNEL_READS(env);
	/* inode.i_state as this kernel's BTF has it (bpf/mg_common.bpf.h mg_inode_state()) */
	if (env->iface.istate.known) {
		skel->rodata->istate_off = env->iface.istate.off;
		skel->rodata->istate_size = env->iface.istate.size;
		skel->rodata->istate_i_new = env->iface.istate.i_new;
		skel->rodata->istate_i_freeing = env->iface.istate.i_freeing;
		skel->rodata->istate_i_clear = env->iface.istate.i_clear;
	}
	skel->rodata->filter_tgid = o->filter_tgid;
	skel->rodata->filter_tree = (o->events || o->count_scoped) && o->traced_tgids_fd > 0;
	/* the process set is shared with bpf/follow.bpf.c; unused, it shrinks to one entry */
	if ((o->events || o->count_scoped) && o->traced_tgids_fd > 0)
		err = bpf_map__reuse_fd(skel->maps.traced_tgids, o->traced_tgids_fd);
	else
		err = bpf_map__set_max_entries(skel->maps.traced_tgids, 1);
	*stage = "process map";
	return err;
}

/* A new skeleton of the object, for a clone (parload.c): one copy of it in the binary. */
static struct mgtrace_bpf *skel_open(void)
{
	return mgtrace_bpf__open();
}

/* One load+attach of the object with the given set of programs. */
static int try_attach(struct mg_session *s, const struct mg_kenv *env, enum mg_backend be,
		      bool tp_btf, const struct mg_session_opts *o, struct mg_attempt *a)
{
	bool hot = o->hot;
	struct mgtrace_bpf *skel;
	struct mg_parload pl = { 0 };
	const char *stage = "";
	int err;

	mg_libbpf_log_reset();
	a->tried = true;
	if (be == MG_BE_FENTRY || be == MG_BE_KPROBE) {
		err = doomed(env, be, hot, &stage);
		if (err) {
			mg_backend_explain(a, env, be, tp_btf, hot, err, stage);
			return a->err = err;
		}
	}
	skel = mgtrace_bpf__open();
	if (!skel) {
		err = -errno;
		mg_backend_explain(a, env, be, tp_btf, hot, err, "open");
		return a->err = err;
	}
	select_progs(skel, env, be, tp_btf, o);
	err = configure(skel, env, o, &stage);
	if (err) {
		mg_backend_explain(a, env, be, tp_btf, hot, err, stage);
		goto fail;
	}
	err = o->pre_load ? o->pre_load(skel, be, tp_btf, o->pre_load_ctx) : 0;
	/* check's judging programs verified on two CPUs (parload.h) */
	if (!err && o->split_load && tp_btf)
		mg_parload_start(&pl, skel, skel_open);
	err = err ? err : mgtrace_bpf__load(skel);
	err = mg_parload_finish(&pl, err);
	if (err && pl.on)
		goto unsplit;
	if (err) {
		mg_backend_explain(a, env, be, tp_btf, hot, err, "load");
		goto fail;
	}
	/* what the programs need before they run (post_load), then attach */
	err = o->post_load ? o->post_load(skel, o->pre_load_ctx) : 0;
	err = err ? err : mgtrace_bpf__attach(skel);
	err = err ? err : mg_parload_attach(&pl);
	if (err && pl.on)
		goto unsplit;
	if (err) {
		mg_backend_explain(a, env, be, tp_btf, hot, err, "attach");
		goto fail;
	}
	s->skel = skel;
	s->pl = pl;
	s->tp_mask = o->tp_select ? o->tp_mask : (1u << MG_NR_TPS) - 1;
	for (int i = 0; i < MG_NR_FUNCS; i++)
		s->func_probe[i] = mg_func_probe(env, be, hot, i);
	a->err = 0;
	snprintf(a->why, sizeof(a->why), "loaded and attached");
	return 0;
fail:
	mgtrace_bpf__destroy(skel);
	return a->err = err;
unsplit:
	/* the same attempt in one thread: its failure, if it fails again, said as before */
	mgtrace_bpf__destroy(skel);
	mg_parload_close(&pl);
	{
		struct mg_session_opts one = *o;

		one.split_load = false;
		return try_attach(s, env, be, tp_btf, &one, a);
	}
}

/* A shortage of descriptors or memory, which no other program type avoids. */
static bool short_of(int err)
{
	return err == -EMFILE || err == -ENFILE || err == -ENOMEM;
}

int mg_session_open(struct mg_session *s, const struct mg_kenv *env,
		    enum mg_backend want, const struct mg_session_opts *opts)
{
	bool hot = opts->hot;
	static const enum mg_backend order[] = { MG_BE_FENTRY, MG_BE_KPROBE, MG_BE_TRACEPOINT };
	struct mg_attempt tpa = { 0 };
	struct mgtrace_bpf *tp_skel;
	struct mg_parload tp_pl;
	int i, err;

	memset(s, 0, sizeof(*s));
	s->nr_cpus = mg_nr_cpus();
	if (s->nr_cpus < 0)
		return s->nr_cpus;
	s->hot = hot;

	if (want == MG_BE_KERNEL) {
		/* the kernel's counters; tracepoints only for opted-in event counters */
		s->backend = MG_BE_KERNEL;
		s->tp_btf = true;
		if (!opts->tp_select || !opts->tp_mask)
			return 0;
		err = try_attach(s, env, MG_BE_KERNEL, true, opts, &tpa);
		if (err && !short_of(err)) {
			snprintf(s->tp_why, sizeof(s->tp_why), "%s", tpa.why);
			s->tp_btf = false;
			err = try_attach(s, env, MG_BE_KERNEL, false, opts, &tpa);
		}
		s->attempts[MG_BE_KERNEL] = tpa;
		return err;
	}

	/* Tracepoints first: every backend needs them; tp_btf, else raw_tp (not for a
	 * shortage of descriptors or memory: raw_tp would judge elsewhere for no reason of
	 * the kernel's, and run short too) */
	s->tp_btf = true;
	err = try_attach(s, env, MG_BE_TRACEPOINT, true, opts, &tpa);
	if (err && !short_of(err)) {
		snprintf(s->tp_why, sizeof(s->tp_why), "%s", tpa.why);
		s->tp_btf = false;
		err = try_attach(s, env, MG_BE_TRACEPOINT, false, opts, &tpa);
	}
	if (err) {
		s->attempts[MG_BE_TRACEPOINT] = tpa;
		for (i = 0; i < 2; i++) {
			struct mg_attempt *a = &s->attempts[order[i]];

			a->tried = true;
			a->err = err;
			snprintf(a->why, sizeof(a->why), "the tracepoints every backend needs: %.280s",
				 tpa.why);
		}
		return err;
	}
	tp_skel = s->skel;
	tp_pl = s->pl;
	s->skel = NULL;
	memset(&s->pl, 0, sizeof(s->pl));

	for (i = 0; i < 3; i++) {
		enum mg_backend be = order[i];

		if (want != MG_BE_AUTO && want != be)
			continue;
		if (be == MG_BE_TRACEPOINT) {
			s->attempts[be] = tpa;
			s->skel = tp_skel;
			s->pl = tp_pl;
			s->backend = be;
			return 0;
		}
		if (!try_attach(s, env, be, s->tp_btf, opts, &s->attempts[be])) {
			mgtrace_bpf__destroy(tp_skel);
			mg_parload_close(&tp_pl);
			s->backend = be;
			return 0;
		}
	}
	mgtrace_bpf__destroy(tp_skel);
	mg_parload_close(&tp_pl);
	return s->attempts[want].err;
}

int mg_session_stacks_fd(const struct mg_session *s)
{
	return s->skel ? bpf_map__fd(s->skel->maps.ev_stacks) : -1;
}

int mg_session_prog_fd(const struct mg_session *s, const struct bpf_program *prog)
{
	return s->skel ? mg_parload_prog_fd(&s->pl, s->skel, prog) : -ENOENT;
}

int mg_session_read(struct mg_session *s, struct mg_bpf_counts *out)
{
	__u32 zero = 0;

	if (!s->skel) {
		memset(out, 0, sizeof(*out) * s->nr_cpus);
		return 0;
	}
	if (bpf_map__lookup_elem(s->skel->maps.counts, &zero, sizeof(zero), out,
				 sizeof(*out) * s->nr_cpus, 0))
		return -errno;
	return 0;
}

void mg_session_close(struct mg_session *s)
{
	mgtrace_bpf__destroy(s->skel);
	s->skel = NULL;
	mg_parload_close(&s->pl);
}
