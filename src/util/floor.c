// SPDX-License-Identifier: GPL-2.0
/* floor.c - load bpf/floor.bpf.c beside an event-mode session (see floor.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "floor.h"
#include "pidns.h"
#include "floor.skel.h"
#include "mgtrace.skel.h"
#include "util.h"

/*
 * bpf/floor.bpf.c's programs per probed function, and the backends that load each:
 * the fentry backend takes fentry/fexit where trampolines attach and a
 * kprobe/kretprobe on inode_set_ctime_current, which returns a struct (refused by
 * BPF trampolines); the kprobe backend takes kprobe/kretprobe throughout.
 */
static const struct {
	size_t prog;
	enum mg_func fn;
	bool fentry, kprobe;	/* loaded by the fentry, by the kprobe backend */
} floor_progs[] = {
#define P(name) MG_SKEL_PROG_OFF(floor_bpf, name)
	{ P(fe_floor_entry), MG_FN_REAL_MG, true, false },
	{ P(fe_floor_exit), MG_FN_REAL_MG, true, false },
	{ P(fe_floor_coarse_exit), MG_FN_COARSE_MG, true, false },
	{ P(kp_floor_inode), MG_FN_SET_CTIME_CURRENT, true, true },
	{ P(kp_floor_inode_exit), MG_FN_SET_CTIME_CURRENT, true, true },
	{ P(kp_floor_coarse_entry), MG_FN_COARSE_MG, false, true },
	{ P(kp_floor_coarse_exit), MG_FN_COARSE_MG, false, true },
	{ P(kp_floor_entry), MG_FN_REAL_MG, false, true },
	{ P(kp_floor_exit), MG_FN_REAL_MG, false, true },
#undef P
};

int mg_floor_progs_check(char *why, size_t len)
{
	struct mg_prog_ref refs[sizeof(floor_progs) / sizeof(floor_progs[0])];
	struct floor_bpf *skel = floor_bpf__open();
	size_t i, n = sizeof(refs) / sizeof(refs[0]);
	int err;

	if (!skel) {
		err = -errno;
		snprintf(why, len, "open: %s", strerror(-err));
		return err;
	}
	for (i = 0; i < n; i++) {
		const struct bpf_program *p = MG_SKEL_PROG(skel, floor_progs[i].prog);
		const char *sec = bpf_program__section_name(p);
		/* fentry/fexit only in the fentry backend; kprobe/kretprobe in the kprobe
		 * backend, and in the fentry backend only on a function returning a struct */
		bool fe = sec[0] == 'f';
		bool ok = fe ? floor_progs[i].fentry && !floor_progs[i].kprobe :
			  floor_progs[i].kprobe &&
			  floor_progs[i].fentry == (floor_progs[i].fn == MG_FN_SET_CTIME_CURRENT);

		refs[i].off = floor_progs[i].prog;
		snprintf(refs[i].sec, sizeof(refs[i].sec), "%.*s/%s", (int)strcspn(sec, "/"), sec,
			 mg_func_names[floor_progs[i].fn]);
		if (!ok) {
			snprintf(why, len, "program %s (%s) in the wrong backends (fentry %d, kprobe %d)",
				 bpf_program__name(p), sec, floor_progs[i].fentry, floor_progs[i].kprobe);
			floor_bpf__destroy(skel);
			return -EINVAL;
		}
	}
	err = mg_progs_check(skel->obj, skel, refs, n, why, len);
	floor_bpf__destroy(skel);
	return err;
}

/* Autoload the programs of backend be (MG_BE_FENTRY or MG_BE_KPROBE) from the table. */
static void select_progs(struct floor_bpf *skel, enum mg_backend be)
{
	struct bpf_program *p;
	size_t i;

	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, false);
	for (i = 0; i < sizeof(floor_progs) / sizeof(floor_progs[0]); i++)
		bpf_program__set_autoload(MG_SKEL_PROG(skel, floor_progs[i].prog),
					  be == MG_BE_FENTRY ? floor_progs[i].fentry :
					  floor_progs[i].kprobe);
}

/* One load+attach with backend be. Returns 0 or a negative errno (a->why set;
 * *load_failed set when the load itself was refused). */
static int floor_try(struct mg_floor *f, const struct mg_kenv *env, struct mg_session *sess,
		     const struct mg_floor_opts *o, enum mg_backend be, struct mg_attempt *a,
		     bool *load_failed)
{
	struct floor_bpf *skel;
	int err;

	mg_libbpf_log_reset();	/* explain() classifies this load's libbpf log */
	skel = floor_bpf__open();
	if (!skel) {
		mg_attempt_explain(a, env, be, -errno, "open");
		return a->err;
	}
	select_progs(skel, be);
	skel->rodata->filter_tgid = sess->skel->rodata->filter_tgid;
	/* -C: the session's CPUs */
	skel->rodata->cpu_filter = sess->skel->rodata->cpu_filter;
	memcpy((void *)skel->rodata->cpu_mask, (const void *)sess->skel->rodata->cpu_mask,
	       sizeof(skel->rodata->cpu_mask));
	MG_PIDNS_RODATA(skel);
	skel->rodata->filter_tree = o->traced_tgids_fd > 0;
	skel->rodata->wakeup_bytes = sess->skel->rodata->wakeup_bytes;
	skel->rodata->filter_nids = o->nids;
	for (unsigned int i = 0; i < o->nids && i < MG_MAX_IDS; i++) {
		((__u32 *)skel->rodata->filter_devs)[i] = o->devs[i];
		((__u64 *)skel->rodata->filter_inos)[i] = o->inos[i];
	}
	memcpy((char *)skel->rodata->filter_comm, o->filter_comm, sizeof(o->filter_comm));
	skel->rodata->test_invert_fine = f->test_invert_fine;
	skel->rodata->judge = o->judge;
	skel->rodata->event_clock = o->event_clock;
	skel->rodata->violation_stacks = o->stacks;
	err = bpf_map__reuse_fd(skel->maps.events, bpf_map__fd(sess->skel->maps.events));
	if (!err)
		err = bpf_map__reuse_fd(skel->maps.set_ctime, bpf_map__fd(sess->skel->maps.set_ctime));
	/* a violation's stack goes where check reads the events' (mg_session_stacks_fd()) */
	if (!err)
		err = bpf_map__reuse_fd(skel->maps.ev_stacks, bpf_map__fd(sess->skel->maps.ev_stacks));
	if (!err)
		err = o->traced_tgids_fd > 0 ? bpf_map__reuse_fd(skel->maps.traced_tgids,
								 o->traced_tgids_fd)
					     : bpf_map__set_max_entries(skel->maps.traced_tgids, 1);
	if (!err)
		err = floor_bpf__load(skel);
	if (err) {
		mg_attempt_explain(a, env, be, err, "load");
		*load_failed = true;	/* mg_floor_open() adds what /proc/kallsyms says */
		floor_bpf__destroy(skel);
		return err;
	}
	err = floor_bpf__attach(skel);
	if (err) {
		mg_attempt_explain(a, env, be, err, "attach");
		floor_bpf__destroy(skel);
		return err;
	}
	f->skel = skel;
	f->backend = be;
	f->probe = be == MG_BE_FENTRY ? "fentry/fexit" : "kprobe/kretprobe";
	return 0;
}

int mg_floor_open(struct mg_floor *f, const struct mg_kenv *env, struct mg_session *sess,
		  const struct mg_floor_opts *o)
{
	struct mg_attempt a[MG_BE_NR] = { 0 };
	enum mg_backend be;
	bool load_failed = false;
	const char *ks;
	int err = -EINVAL;

	memset(f, 0, sizeof(*f));
	f->test_invert_fine = o->test_invert_fine;
	for (be = MG_BE_FENTRY; be <= MG_BE_KPROBE; be++) {
		if (o->backend != MG_BE_AUTO && o->backend != be)
			continue;
		err = floor_try(f, env, sess, o, be, &a[be], &load_failed);
		if (!err)
			return 0;
	}
	/* after a refused load, what /proc/kallsyms says of the floor counter: once, at the end
	 * (one scan of the file); each reason whole, never cut mid-word */
	ks = load_failed ? mg_kallsyms_problem("timekeeping_mg_floor_swaps", true) : NULL;
	if (o->backend == MG_BE_AUTO)
		mg_snprintf_words(f->why, sizeof(f->why), "fentry %s; kprobe %s%s%s",
				  a[MG_BE_FENTRY].why, a[MG_BE_KPROBE].why, ks ? "; also: " : "",
				  ks ? ks : "");
	else if (o->backend == MG_BE_FENTRY || o->backend == MG_BE_KPROBE)
		mg_snprintf_words(f->why, sizeof(f->why), "%s %s%s%s", mg_backend_name(o->backend),
				  a[o->backend].why, ks ? "; also: " : "", ks ? ks : "");
	else
		snprintf(f->why, sizeof(f->why), "needs a function-probe backend (fentry or kprobe)");
	return err;
}

int mg_floor_lost(const struct mg_floor *f, int nr_cpus, uint64_t *lost)
{
	uint64_t v[MG_MAX_CPUS];
	__u32 key = 1;
	int cpu;

	*lost = 0;
	if (!f->skel)
		return 0;
	if (nr_cpus > MG_MAX_CPUS)
		return -E2BIG;
	if (bpf_map__lookup_elem(f->skel->maps.floor_counts, &key, sizeof(key), v,
				 sizeof(v[0]) * nr_cpus, 0))
		return -errno;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		*lost += v[cpu];
	return 0;
}

const char *const mg_floor_undeciding_progs[] = {
	"fe_floor_coarse_exit", "kp_floor_coarse_entry", "kp_floor_coarse_exit", NULL,
};

void mg_floor_close(struct mg_floor *f)
{
	floor_bpf__destroy(f->skel);
	f->skel = NULL;
}
