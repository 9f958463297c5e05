// SPDX-License-Identifier: GPL-2.0
/*
 * conform_attrib.c - check's violations and conform's missing updates attributed to
 * the (operation, role, run) whose inode and window they fall in, and the rows' kernel
 * stacks grouped and named (src/util/ksyms.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conform_attrib.h"
#include "kenv.h"
#include "ksyms.h"
#include "ksyms_bpf.h"

/* The log entry of v's inode whose window holds v's later observation, or NULL. */
static struct cf_log *find(struct cf_sweep *s, const struct mg_violation *v)
{
	size_t i;

	for (i = 0; i < s->nlog; i++) {
		const struct cf_probe *p = &s->log[i].p;

		if (p->ino == v->ino && p->dev == v->dev && v->later.t_ns >= p->t0_ns &&
		    v->later.t_ns <= p->t1_ns)
			return &s->log[i];
	}
	return NULL;
}

/* One frame as text: "func+0xoff [module]", or its address. NULL: ENOMEM. */
static char *frame_text(const struct mg_ksyms *ks, uint64_t addr)
{
	struct mg_kframe fr = { .addr = addr };
	char buf[256];

	if (ks)
		mg_ksyms_name(ks, addr, &fr);
	if (fr.sym)
		snprintf(buf, sizeof(buf), "%s+0x%llx%s%s%s", fr.sym, (unsigned long long)fr.off,
			 fr.module ? " [" : "", fr.module ? fr.module : "", fr.module ? "]" : "");
	else
		snprintf(buf, sizeof(buf), "0x%016llx", (unsigned long long)addr);
	return strdup(buf);
}

/* v's stack counted in row: a stack seen before counts once more, a new one is named. */
static int add_stack(struct cf_row *row, const struct mg_violation *v, const struct mg_ksyms *ks)
{
	uint32_t len = v->stack_len < MG_STACK_FRAMES ? v->stack_len : MG_STACK_FRAMES, i, k0;
	struct cf_stack *st, *n;
	size_t k;

	if (v->stack_why != MG_STACK_TAKEN || !len)
		return 0;
	k0 = ks ? mg_kstack_start(ks, v->stack, len) : 0;
	for (k = 0; k < row->nstacks; k++) {
		st = &row->stacks[k];
		if (st->naddr == len - k0 && !memcmp(st->addr, v->stack + k0, st->naddr * 8)) {
			st->count++;
			return 0;
		}
	}
	n = realloc(row->stacks, (row->nstacks + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	row->stacks = n;
	st = &n[row->nstacks++];
	memset(st, 0, sizeof(*st));
	st->count = 1;
	st->naddr = len - k0;
	memcpy(st->addr, v->stack + k0, st->naddr * 8);
	if (!(st->frames = calloc(st->naddr, sizeof(*st->frames))))
		return -ENOMEM;
	for (i = 0; i < st->naddr; i++, st->nframes++)
		if (!(st->frames[i] = frame_text(ks, st->addr[i])))
			return -ENOMEM;
	return 0;
}

/*
 * The kernel's symbols for the stacks of v[0..n): named by the kernel (ksyms_bpf.h, the
 * addresses asked only), else from /proc/kallsyms (its 55 ms of formatting, here and
 * for every sweep). 0 or the file's -errno (*ks NULL).
 */
static int attrib_ksyms(const struct mg_violation *v, size_t n, struct mg_ksyms **ks)
{
	return mg_ksyms_of_reports(ks, v, n) ? mg_ksyms_load(ks, NULL) : 0;
}

int cf_attrib(struct cf_sweep *s, const struct mg_violation *v, size_t n,
	      const struct mg_check_stats *st, bool incomplete, char *why, size_t len)
{
	uint64_t total = 0;
	struct mg_ksyms *ks = NULL;
	uint32_t dev = s->nlog ? s->log[0].p.dev : 0;
	size_t i, k;
	int err = attrib_ksyms(v, n, &ks);

	if (err)
		snprintf(s->ks_why, sizeof(s->ks_why), "/proc/kallsyms: %s%s: frames are "
			 "addresses only", err == -EPERM ? "addresses hidden: " : strerror(-err),
			 err == -EPERM ? mg_kallsyms_hidden_why() : "");
	for (k = 0; k < MG_V_NR_KINDS; k++)
		total += st->violations[k];
	for (i = 0; i < n; i++) {
		struct cf_log *l;

		if (v[i].step_explained)	/* a clock step, not the kernel */
			continue;
		if (!(l = find(s, &v[i]))) {
			if (v[i].dev == dev)
				s->outside++;
			else
				s->elsewhere++;
			continue;
		}
		l->j.violations++;
		if (add_stack(&s->rows[l->row], &v[i], ks)) {
			mg_ksyms_free(ks);
			snprintf(why, len, "out of memory");
			return -1;
		}
	}
	mg_ksyms_free(ks);
	for (i = 0; i < s->nlog; i++) {
		struct cf_log *l = &s->log[i];

		l->j.missing = l->p.updated == 0;
		/* replaced by a later ctime within the operation: the stat() after cannot see it */
		if (l->j.violations && l->p.updated == 1 &&
		    !cf_not_later(l->p.before, l->p.kernel_last)) {
			l->j.transient = l->j.violations;
			l->j.violations = 0;
		}
	}
	/* a violation counted but not kept cannot be attributed: no row can claim agreement */
	if (total > n || incomplete)
		for (i = 0; i < s->nrows; i++)
			s->rows[i].inconclusive = true;
	return 0;
}
