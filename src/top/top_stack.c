// SPDX-License-Identifier: GPL-2.0
/*
 * top_stack.c - `top --by stack`: a row is a kernel stack (bpf_get_stackid() in
 * bpf/top.bpf.c, the frames kept in the stack map top_stacks), its frames named by the
 * kernel (bpf/ksym.bpf.c, ksyms_bpf.h) each table, or from /proc/kallsyms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "escape.h"
#include "ksyms_bpf.h"
#include "jsonnum.h"
#include "top_int.h"

/* /proc/kallsyms into t->ks for the rest of the run, or why not; bpf_err: why the
 * kernel's naming could not (0: not tried). */
static void ksyms_file(struct top_state *t, int bpf_err)
{
	const char *sep = bpf_err ? "; bpf/ksym.bpf.c: " : "";
	const char *bpf_why = bpf_err ? strerror(-bpf_err) : "";
	int err = mg_ksyms_load(&t->ks, NULL);

	t->ks_source = err ? NULL : "/proc/kallsyms";
	if (err == -EPERM)
		snprintf(t->ks_why, sizeof(t->ks_why), "/proc/kallsyms hides the addresses (%s)%s%s",
			 mg_kallsyms_hidden_why(), sep, bpf_why);
	else if (err)
		snprintf(t->ks_why, sizeof(t->ks_why), "/proc/kallsyms: %s%s%s", strerror(-err),
			 sep, bpf_why);
}

void top_stack_open(struct top_state *t)
{
	int err;

	t->ks_why[0] = 0;
	if (t->o.by != MG_TOP_BY_STACK)
		return;
	/* the kernel's naming: no 121,000-line file formatted, nor its table kept; the
	 * frames named whatever kernel.kptr_restrict hides from this process */
	if (t->test_ksyms_file || (err = mg_ksym_namer_open(&t->namer)))
		ksyms_file(t, t->test_ksyms_file ? 0 : err);
}

void top_stack_close(struct top_state *t)
{
	mg_ksym_namer_close(t->namer);
	t->namer = NULL;
	mg_ksyms_free(t->ks);
	t->ks = NULL;
}

void top_stack_name(struct top_state *t, const struct top_table *tb)
{
	uint64_t *addr = t->namer ? calloc(tb->nr ? tb->nr : 1, sizeof(uint64_t) * MG_STACK_FRAMES) :
				    NULL;
	struct mg_ksyms *ks = NULL;
	size_t i, n = 0;
	uint32_t id;
	int err;

	if (!t->namer)
		return;
	if (!addr) {
		err = -ENOMEM;
		goto file;
	}
	for (i = 0; i < tb->nr; i++) {
		id = (uint32_t)tb->rows[i].key.stack;
		/* a row without a stack, or one gone from the map: no frame to name */
		if (tb->rows[i].key.stack >= 0 &&
		    !bpf_map_lookup_elem(t->b.stacks_fd, &id, addr + n))
			n += MG_STACK_FRAMES;
	}
	err = mg_ksym_namer_name(t->namer, &ks, addr, n);	/* 0 frames skipped there */
	free(addr);
	if (!err) {
		mg_ksyms_free(t->ks);
		t->ks = ks;
		t->ks_source = "kernel";
		return;
	}
file:
	/* the kernel could not: the file, once, for this table and the rest */
	mg_ksym_namer_close(t->namer);
	t->namer = NULL;
	mg_ksyms_free(t->ks);
	t->ks = NULL;
	ksyms_file(t, err);
}

int top_stack_frames(struct top_state *t, const struct top_row *r, struct mg_kframe *fr)
{
	uint64_t ips[MG_STACK_FRAMES] = { 0 };
	uint32_t id = (uint32_t)r->key.stack, n, i, start;

	if (r->key.stack < 0)
		return r->key.stack;
	if (bpf_map_lookup_elem(t->b.stacks_fd, &id, ips))
		return -errno;
	for (n = 0; n < MG_STACK_FRAMES && ips[n]; n++)
		;
	start = t->ks ? mg_kstack_start(t->ks, ips, n) : 0;
	for (i = start; i < n; i++) {
		if (t->ks)
			mg_ksyms_name(t->ks, ips[i], &fr[i - start]);
		else
			fr[i - start] = (struct mg_kframe){ .addr = ips[i] };
	}
	return (int)(n - start);
}

/* A row's shown frames, for top_stack_merge()'s sort. */
struct shown {
	size_t row;
	int n;				/* frames, or a negative errno: never merged */
	uint64_t addr[MG_STACK_FRAMES];
};

static int by_frames(const void *a, const void *b)
{
	const struct shown *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	if (x->n <= 0)
		return x->row < y->row ? -1 : x->row > y->row;
	return memcmp(x->addr, y->addr, (size_t)x->n * sizeof(x->addr[0]));
}

void top_stack_merge(struct top_state *t, struct top_table *tb)
{
	struct mg_kframe fr[MG_STACK_FRAMES];
	struct shown *sh = calloc(tb->nr ? tb->nr : 1, sizeof(*sh));
	struct top_row *rows = calloc(tb->nr ? tb->nr : 1, sizeof(*rows));
	size_t i, nr = 0;

	if (!sh || !rows) {	/* no memory: the rows stay as the map keeps them */
		free(sh);
		free(rows);
		return;
	}
	for (i = 0; i < tb->nr; i++) {
		sh[i].row = i;
		sh[i].n = top_stack_frames(t, &tb->rows[i], fr);
		for (int k = 0; k < sh[i].n; k++)
			sh[i].addr[k] = fr[k].addr;
	}
	qsort(sh, tb->nr, sizeof(*sh), by_frames);
	for (i = 0; i < tb->nr; i++) {
		const struct top_row *r = &tb->rows[sh[i].row];

		if (nr && sh[i].n > 0 && !by_frames(&sh[i - 1], &sh[i])) {
			for (int c = 0; c < MG_TOP_NR; c++)
				rows[nr - 1].n[c] += r->n[c];
			rows[nr - 1].merged += 1 + r->merged;
			continue;
		}
		rows[nr++] = *r;
	}
	free(sh);
	free(tb->rows);
	tb->rows = rows;
	tb->nr = nr;
}

const char *top_stack_why(int n)
{
	switch (n) {
	case -EEXIST:
		return "bpf_get_stackid: EEXIST (another stack holds its hash bucket in the stack map)";
	case -EFAULT:
		return "bpf_get_stackid: EFAULT (the kernel could not walk the stack)";
	case -ENOENT:
		return "the stack map holds no stack of this id";
	case 0:
		return "bpf_get_stackid gave no frame";
	}
	return "bpf_get_stackid or the stack map's lookup failed";
}

void top_stack_label(struct top_state *t, const struct top_row *r, char *buf, size_t len)
{
	struct mg_kframe fr[MG_STACK_FRAMES];
	int n = top_stack_frames(t, r, fr);
	size_t used = 0;

	if (n <= 0) {
		snprintf(buf, len, "(no stack: %s)", n == -EEXIST ? "hash collision" :
			 n == -EFAULT ? "EFAULT" : n ? strerror(-n) : "no frame");
		return;
	}
	buf[0] = 0;
	for (int i = 0; i < n && used + 1 < len; i++) {
		const char *sep = i ? " < " : "";

		if (fr[i].sym)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, fr[i].sym);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s0x%llx", sep,
						 (unsigned long long)fr[i].addr);
	}
}

void top_stack_json(struct top_state *t, const struct top_row *r, json_t *o)
{
	struct mg_kframe fr[MG_STACK_FRAMES];
	int n = top_stack_frames(t, r, fr);
	json_t *a;

	json_object_set_new(o, "stack_id", r->key.stack < 0 ? json_null() :
			    json_integer(r->key.stack));
	json_object_set_new(o, "stack_ids_merged", json_integer(r->merged));
	if (n <= 0) {
		json_object_set_new(o, "stack", json_null());
		json_object_set_new(o, "stack_unavailable", json_string(top_stack_why(n)));
		json_object_set_new(o, "stack_symbols", json_null());
		return;
	}
	a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, mg_kframe_json(&fr[i]));
	json_object_set_new(o, "stack", a);
	json_object_set_new(o, "stack_unavailable", t->ks_why[0] ? json_string(t->ks_why) :
			    json_null());
	json_object_set_new(o, "stack_symbols", t->ks && t->ks_source ?
			    json_string(t->ks_source) : json_null());
}
