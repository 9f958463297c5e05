// SPDX-License-Identifier: GPL-2.0
/*
 * check_names.c - what a violation is shown with: the name of its inode (the
 * events' or the built-in workload's file), the kernel's symbols for its stack
 * (/proc/kallsyms through ksyms.c, or why frames are addresses only), and the
 * reports grouped by distinct kernel stack. check_result.c collects with them;
 * the renderers name with them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_int.h"
#include "ksyms_bpf.h"
#include "util.h"

/*
 * The name a violation is about: the one the events carried, or for a cross-file
 * order report (user-space observations, no name) the built-in workload's file
 * with that dev and inode. Sets *len and *cut (escape.h); NULL when unknown.
 */
const char *check_violation_name(const struct check_names *nm, const struct mg_violation *v,
				  char *buf, size_t buflen, size_t *len, bool *cut)
{
	size_t i;

	*cut = false;
	if (v->name[0]) {
		*len = mg_name_len(v->name, sizeof(v->name), 0, cut);
		*cut = *cut || v->name_truncated;
		return v->name;
	}
	for (i = 0; v->kind == MG_V_ORDER && i < nm->nfiles; i++)
		if (nm->files[i].dev == v->dev && nm->files[i].ino == v->ino) {
			*len = (size_t)snprintf(buf, buflen, "t%d-f%d", nm->files[i].thread,
						nm->files[i].file);
			return buf;
		}
	return NULL;
}

/*
 * The stored reports' stacks named by the kernel (mg_ksyms_by_bpf()) into cs->ks: 0, or
 * its -errno (then cs->ks is left as it was).
 */
static int ksyms_by_bpf(struct check_state *cs, const struct mg_violation *vs, size_t n)
{
	struct mg_ksyms *ks;
	int err = mg_ksyms_of_reports(&ks, vs, n);

	if (err)
		return err;
	mg_ksyms_free(cs->ks);
	cs->ks = ks;
	cs->ks_by_bpf = true;
	return 0;
}

/* Whether ks names every frame of the stored reports' stacks (a report may have come, or
 * replaced another, since it was made: check -i); a 0 frame is never asked of the kernel. */
static bool ksyms_cover(const struct mg_ksyms *ks, const struct mg_violation *vs, size_t n)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < n; i++)
		for (k = 0; vs[i].stack_why == MG_STACK_TAKEN && k < vs[i].stack_len &&
		     k < MG_STACK_FRAMES; k++)
			if (vs[i].stack[k] && !mg_ksyms_has(ks, vs[i].stack[k]))
				return false;
	return true;
}

/*
 * The kernel's symbols for the stored reports' stacks (cs->ks), or why not (cs->ks_why):
 * named by the kernel itself (bpf/ksym.bpf.c: the addresses asked only, in microseconds,
 * whatever kernel.kptr_restrict hides), again when a stored report has a frame it did not
 * name (check -i); where that program cannot run, loaded once from /proc/kallsyms (55 ms
 * of the kernel's time here), as check did before; MGTRACE_TEST_KSYMS_FILE=1 takes that
 * way only. The table a struct check_names holds lives until the next call.
 */
static const struct mg_ksyms *check_ksyms(struct check_state *cs)
{
	size_t n;
	const struct mg_violation *vs = mg_checker_reports(cs->chk, &n);
	int bpf_err = 0;

	if (cs->ks_why[0] || (cs->ks && (!cs->ks_by_bpf || ksyms_cover(cs->ks, vs, n))))
		return cs->ks;
	/* here cs->ks is NULL or the kernel's naming that no longer covers every frame */
	if (!cs->o.test_ksyms_file && !(bpf_err = ksyms_by_bpf(cs, vs, n)))
		return cs->ks;
	mg_ksyms_free(cs->ks);
	cs->ks = NULL;
	cs->ks_by_bpf = false;
	cs->ks_err = mg_ksyms_load(&cs->ks, NULL);
	if (cs->ks_err == -EPERM)
		snprintf(cs->ks_why, sizeof(cs->ks_why), "/proc/kallsyms hides the kernel's "
			 "addresses from this process (%s)%s%s: frames are shown by address only",
			 mg_kallsyms_hidden_why(), bpf_err ? "; bpf/ksym.bpf.c: " : "",
			 bpf_err ? strerror(-bpf_err) : "");
	else if (cs->ks_err)
		snprintf(cs->ks_why, sizeof(cs->ks_why), "/proc/kallsyms: %s%s%s: frames are shown "
			 "by address only", strerror(-cs->ks_err), bpf_err ? "; bpf/ksym.bpf.c: " :
			 "", bpf_err ? strerror(-bpf_err) : "");
	return cs->ks;
}

void check_ksyms_end(struct check_state *cs)
{
	mg_ksyms_free(cs->ks);
	cs->ks = NULL;
}

int check_mount(const struct check_names *nm, uint32_t dev, const char **mnt)
{
	if (!nm->mounts)	/* names made without a table (none: check_names_of() makes it) */
		return -ENOENT;
	return mg_mounts_find(nm->mounts, dev, mnt, NULL);
}

void check_names_free(struct check_names *nm)
{
	free(nm->files);
	if (nm->mounts)
		mg_mounts_free(nm->mounts);
	free(nm->mounts);
	nm->files = NULL;
	nm->mounts = NULL;
}

int check_names_of(struct check_names *nm, struct check_state *cs, bool with_ksyms)
{
	uint64_t i;

	*nm = (struct check_names){ .known = cs->o.known, .ks_why = "" };
	/* read at the first mount a renderer names: never for a report that names none */
	if (!(nm->mounts = calloc(1, sizeof(*nm->mounts))))
		return -ENOMEM;
	if (with_ksyms) {
		nm->ks = check_ksyms(cs);
		nm->ks_why = cs->ks_why;
		nm->ks_source = !nm->ks ? NULL : cs->ks_by_bpf ? "kernel" : "/proc/kallsyms";
	}
	if (!cs->wl.t || !cs->wl.o.threads)
		return 0;
	nm->files = calloc(cs->wl.o.threads * 2, sizeof(*nm->files));
	if (!nm->files)
		return -ENOMEM;
	for (i = 0; i < cs->wl.o.threads; i++)
		for (int k = 0; k < 2; k++)
			nm->files[nm->nfiles++] = (struct check_wl_file){
				.dev = cs->wl.t[i].dev[k], .ino = cs->wl.t[i].ino[k],
				.thread = cs->wl.t[i].idx, .file = k + 1 };
	return 0;
}

uint32_t check_stack_start(const struct check_names *nm, const struct mg_violation *v)
{
	return mg_kstack_start(nm->ks, v->stack, v->stack_len < MG_STACK_FRAMES ?
			       v->stack_len : MG_STACK_FRAMES);
}

/* Two reports with the same kernel stack. */
static bool same_stack(const struct mg_violation *a, const struct mg_violation *b)
{
	return a->stack_len == b->stack_len &&
	       !memcmp(a->stack, b->stack, a->stack_len * sizeof(a->stack[0]));
}

/*
 * The reports grouped by kernel stack (each distinct stack shown once, under its first
 * report, with how many share it) and those without one counted by why. 0 or -ENOMEM.
 */
int check_collect_stacks(struct check_result *r)
{
	size_t i, j;

	if (!r->nreports)
		return 0;
	r->stack_first = calloc(r->nreports, sizeof(*r->stack_first));
	r->stack_count = calloc(r->nreports, sizeof(*r->stack_count));
	if (!r->stack_first || !r->stack_count)
		return -ENOMEM;
	for (i = 0; i < r->nreports; i++) {
		const struct mg_violation *v = &r->reports[i];

		r->stack_first[i] = i;
		if (v->stack_why != MG_STACK_TAKEN) {
			if ((unsigned int)v->stack_why <= MG_STACK_SYNTHETIC)
				r->stacks_missing[v->stack_why]++;
			continue;
		}
		/* a --known fault's report is shown apart (its entry's example): not grouped */
		for (j = 0; j < i && v->known < 0; j++)
			if (r->reports[j].stack_why == MG_STACK_TAKEN && r->reports[j].known < 0 &&
			    r->stack_first[j] == j && same_stack(&r->reports[j], v)) {
				r->stack_first[i] = j;
				break;
			}
		r->stack_count[r->stack_first[i]]++;
	}
	return 0;
}

