// SPDX-License-Identifier: GPL-2.0
/* kcounters.c - run bpf/kcounters.bpf.c on demand to read per-CPU kernel counters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kcounters.h"
#include "kcounters.skel.h"
#include "util.h"

struct mg_kreader {
	struct kcounters_bpf *skel;
	int nr_cpus;
};

struct mg_kreader *mg_kreader_open(int nr_cpus, int *err, char *why, size_t whylen)
{
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
	r->skel = kcounters_bpf__open();
	if (!r->skel) {
		*err = -errno;
		snprintf(why, whylen, "open failed: %s", strerror(errno));
		goto fail;
	}
	r->skel->rodata->nr_cpus = nr_cpus;
	e = kcounters_bpf__load(r->skel);
	if (e) {
		*err = e;
		snprintf(why, whylen,
			 "typed per-CPU ksyms refused (%s): data symbols need CONFIG_KALLSYMS_ALL",
			 strerror(-e));
		goto fail;
	}
	return r;
fail:
	mg_kreader_close(r);
	return NULL;
}

int mg_kreader_read(struct mg_kreader *r, uint64_t *out)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int fd = bpf_program__fd(r->skel->progs.read_kcounters);
	int err;

	err = bpf_prog_test_run_opts(fd, &opts);
	if (err)
		return -errno;
	memcpy(out, r->skel->bss->out, sizeof(uint64_t) * MG_K_NR_COUNTERS * r->nr_cpus);
	return 0;
}

void mg_kreader_close(struct mg_kreader *r)
{
	if (!r)
		return;
	kcounters_bpf__destroy(r->skel);
	free(r);
}
