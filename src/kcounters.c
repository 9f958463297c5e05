// SPDX-License-Identifier: GPL-2.0
/*
 * kcounters.c - read the kernel's per-CPU multigrain counters on demand.
 *
 * Two readers, tried in this order:
 *  1. bpf/kcounters.bpf.c: typed per-CPU ksyms and bpf_per_cpu_ptr() (needs
 *     CONFIG_KALLSYMS_ALL);
 *  2. bpf/pcpu.bpf.c: the counters' offsets in .data..percpu from BTF, added to
 *     each CPU's per-CPU base (found from this CPU's runqueue and the per-CPU
 *     copies of a map value). Before it is trusted, and after every read, its
 *     per-CPU sums must lie between two debugfs readings taken around it (the
 *     counters only grow).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kcounters.h"
#include "kcounters.skel.h"
#include "kenv.h"
#include "pcpu.skel.h"
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

/* Read reader 2 and check it against debugfs. Returns 0, -EPROTO (mismatch) or -errno. */
static int pcpu_read_checked(struct mg_kreader *r, uint64_t *out)
{
	uint64_t d1[MG_K_NR_COUNTERS], d2[MG_K_NR_COUNTERS], sum;
	int err, cpu, k;

	if ((err = mg_debugfs_read(d1)))
		return err;
	if ((err = run_prog(r->pcpu->progs.read_pcpu)))
		return err;
	if (r->pcpu->bss->status)
		return r->pcpu->bss->status;
	memcpy(out, r->pcpu->bss->out, sizeof(uint64_t) * MG_K_NR_COUNTERS * r->nr_cpus);
	if ((err = mg_debugfs_read(d2)))
		return err;
	for (k = 0; k < MG_K_NR_COUNTERS; k++) {
		for (sum = 0, cpu = 0; cpu < r->nr_cpus; cpu++)
			sum += out[cpu * MG_K_NR_COUNTERS + k];
		if (sum < d1[k] || sum > d2[k])
			return -EPROTO;
	}
	return 0;
}

static int open_pcpu(struct mg_kreader *r, char *why, size_t whylen)
{
	uint64_t rq_off = 0, off[MG_K_NR_COUNTERS], *tmp;
	int err, i;

	if ((err = percpu_offsets(&rq_off, off))) {
		snprintf(why, whylen, "BTF has no .data..percpu offsets for the counters");
		return err;
	}
	r->pcpu = pcpu_bpf__open();
	if (!r->pcpu) {
		snprintf(why, whylen, "BTF-offset reader: open failed: %s", strerror(errno));
		return -errno;
	}
	r->pcpu->rodata->nr_cpus = r->nr_cpus;
	r->pcpu->rodata->rq_off = rq_off;
	memcpy((void *)r->pcpu->rodata->var_off, off, sizeof(off));
	if ((err = pcpu_bpf__load(r->pcpu))) {
		snprintf(why, whylen, "BTF-offset reader refused: %s", strerror(-err));
		return err;
	}
	tmp = calloc((size_t)r->nr_cpus * MG_K_NR_COUNTERS, sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	/* counters move between the reads: a few tries to land between two debugfs readings */
	for (i = 0, err = -EPROTO; i < 5 && err == -EPROTO; i++)
		err = pcpu_read_checked(r, tmp);
	free(tmp);
	if (err)
		snprintf(why, whylen, "BTF-offset reader did not match debugfs (%s)", strerror(-err));
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
		char why2[160];

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

int mg_kreader_read(struct mg_kreader *r, uint64_t *out)
{
	int err, i;

	if (r->ksym) {
		if ((err = run_prog(r->ksym->progs.read_kcounters)))
			return err;
		memcpy(out, r->ksym->bss->out, sizeof(uint64_t) * MG_K_NR_COUNTERS * r->nr_cpus);
		return 0;
	}
	for (i = 0, err = -EPROTO; i < 5 && err == -EPROTO; i++)
		err = pcpu_read_checked(r, out);
	return err;
}

void mg_kreader_close(struct mg_kreader *r)
{
	if (!r)
		return;
	kcounters_bpf__destroy(r->ksym);
	pcpu_bpf__destroy(r->pcpu);
	free(r);
}
