// SPDX-License-Identifier: GPL-2.0
/*
 * kcounters.c - read the kernel's per-CPU multigrain counters on demand.
 *
 * Two readers, tried in this order:
 *  1. bpf/kcounters.bpf.c: typed per-CPU ksyms and bpf_per_cpu_ptr() (needs
 *     CONFIG_KALLSYMS_ALL);
 *  2. bpf/pcpu.bpf.c: the counters' offsets in .data..percpu from BTF, added to
 *     each CPU's per-CPU base (found from this CPU's runqueue and the per-CPU
 *     copies of a map value). Before it is trusted, and at every read, its
 *     per-CPU sums must lie between two debugfs readings taken around it
 *     (mg_kpc_check(); the counters only grow, so a right reading always does,
 *     however fast they grow; mg_run_snap() checks each snapshot).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "backend.h"
#include "counters.h"
#include "kcounters.h"
#include "kcounters.skel.h"
#include "kenv.h"
#include "pcpu.skel.h"
#include "testhook.h"
#include "util.h"

struct mg_kreader {
	struct kcounters_bpf *ksym;	/* reader 1, or NULL */
	struct pcpu_bpf *pcpu;		/* reader 2, or NULL */
	int nr_cpus;
};

static int run_prog(struct bpf_program *p)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	return bpf_prog_test_run_opts(bpf_program__fd(p), &opts) ? -errno : 0;
}

/* Offsets in .data..percpu of runqueues and of the counters (mg_kcounter_syms). */
static int percpu_offsets(uint64_t *rq_off, uint64_t off[MG_K_NR_COUNTERS])
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	int id, i, k, found = 0;

	if (!btf || libbpf_get_error(btf))
		return -ENOENT;
	id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
	if (id <= 0) {
		btf__free(btf);
		return -ENOENT;
	}
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (i = 0; i < btf_vlen(t); i++, vs++) {
		const char *n = btf__name_by_offset(btf, btf__type_by_id(btf, vs->type)->name_off);

		if (!strcmp(n, "runqueues")) {
			*rq_off = vs->offset;
			found |= 1 << MG_K_NR_COUNTERS;
		}
		for (k = 0; k < MG_K_NR_COUNTERS; k++) {
			if (!strcmp(n, mg_kcounter_syms[k])) {
				off[k] = vs->offset;
				found |= 1 << k;
			}
		}
	}
	btf__free(btf);
	return found == (1 << (MG_K_NR_COUNTERS + 1)) - 1 ? 0 : -ENOENT;
}

/* Run reader 2 into out (unchecked). Returns 0 or a negative errno (the program's status). */
static int pcpu_read(struct mg_kreader *r, uint64_t *out)
{
	int err;

	if ((err = run_prog(r->pcpu->progs.read_pcpu)))
		return err;
	if (r->pcpu->bss->status)
		return r->pcpu->bss->status;
	memcpy(out, r->pcpu->bss->out, sizeof(uint64_t) * MG_K_NR_COUNTERS * r->nr_cpus);
	return 0;
}

/*
 * Read reader 2 between two debugfs readings and check it (mg_kpc_check). Returns 0,
 * -EPROTO with the reason in why, or -errno.
 */
static int pcpu_read_checked(struct mg_kreader *r, uint64_t *out, char *why, size_t whylen)
{
	uint64_t d1[MG_K_NR_COUNTERS], d2[MG_K_NR_COUNTERS];
	int err;

	if ((err = mg_debugfs_read(d1)) || (err = pcpu_read(r, out)) ||
	    (err = mg_debugfs_read(d2))) {
		snprintf(why, whylen, "%s", strerror(-err));
		return err;
	}
	return mg_kpc_check(out, r->nr_cpus, d1, d2, why, whylen);
}

static int open_pcpu(struct mg_kreader *r, char *why, size_t whylen)
{
	uint64_t rq_off = 0, off[MG_K_NR_COUNTERS], *tmp;
	char reason[192];
	int err;

	if ((err = percpu_offsets(&rq_off, off))) {
		snprintf(why, whylen, "BTF has no .data..percpu offsets for the counters");
		return err;
	}
	if ((err = mg_test_hook_pcpu_alias(off))) {
		snprintf(why, whylen, "bad MGTRACE_TEST_PCPU_ALIAS (test hook)");
		return err;
	}
	mg_libbpf_log_reset();
	r->pcpu = pcpu_bpf__open();
	if (!r->pcpu) {
		snprintf(why, whylen, "BTF-offset reader: open failed: %s", strerror(errno));
		return -errno;
	}
	r->pcpu->rodata->nr_cpus = r->nr_cpus;
	r->pcpu->rodata->rq_off = rq_off;
	memcpy((void *)r->pcpu->rodata->var_off, off, sizeof(off));
	if ((err = pcpu_bpf__load(r->pcpu))) {
		char c[200];

		snprintf(why, whylen, "BTF-offset reader refused: %s (%s)", strerror(-err),
			 mg_libbpf_cause(err, "load", false, c, sizeof(c)));
		return err;
	}
	tmp = calloc((size_t)r->nr_cpus * MG_K_NR_COUNTERS, sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	/* one reading, bracketed by debugfs: a right one always lies in the bracket */
	err = pcpu_read_checked(r, tmp, reason, sizeof(reason));
	free(tmp);
	if (err == -EPROTO)
		snprintf(why, whylen, "BTF-offset reader rejected: %s", reason);
	else if (err)
		snprintf(why, whylen, "BTF-offset reader failed: %s", reason);
	return err;
}

struct mg_kreader *mg_kreader_open(int nr_cpus, int *err, char *why, size_t whylen)
{
	char why1[160];
	struct mg_kreader *r;
	int e;

	if (nr_cpus > MG_MAX_CPUS) {
		*err = -E2BIG;
		snprintf(why, whylen, "%d possible CPUs, reader handles %d", nr_cpus, MG_MAX_CPUS);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		*err = -ENOMEM;
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	r->nr_cpus = nr_cpus;
	r->ksym = kcounters_bpf__open();
	if (r->ksym) {
		r->ksym->rodata->nr_cpus = nr_cpus;
		e = kcounters_bpf__load(r->ksym);
		if (!e)
			return r;
		snprintf(why1, sizeof(why1), "typed per-CPU ksyms refused (%s): data symbols "
			 "need CONFIG_KALLSYMS_ALL", strerror(-e));
		kcounters_bpf__destroy(r->ksym);
		r->ksym = NULL;
	} else {
		snprintf(why1, sizeof(why1), "ksym reader: open failed: %s", strerror(errno));
	}
	e = open_pcpu(r, why, whylen);
	if (!e)
		return r;
	{
		char why2[256];

		snprintf(why2, sizeof(why2), "%s", why);
		snprintf(why, whylen, "%s; %s", why1, why2);
	}
	*err = e;
	mg_kreader_close(r);
	return NULL;
}

const char *mg_kreader_method(const struct mg_kreader *r)
{
	return r->ksym ? "per-CPU ksym" : "per-CPU via BTF offsets, checked against debugfs";
}

bool mg_kreader_needs_check(const struct mg_kreader *r)
{
	return !r->ksym;
}

int mg_kreader_read(struct mg_kreader *r, uint64_t *out)
{
	int err;

	if (r->ksym) {
		if ((err = run_prog(r->ksym->progs.read_kcounters)))
			return err;
		memcpy(out, r->ksym->bss->out, sizeof(uint64_t) * MG_K_NR_COUNTERS * r->nr_cpus);
		return 0;
	}
	return pcpu_read(r, out);
}

void mg_kreader_close(struct mg_kreader *r)
{
	if (!r)
		return;
	kcounters_bpf__destroy(r->ksym);
	pcpu_bpf__destroy(r->pcpu);
	free(r);
}
