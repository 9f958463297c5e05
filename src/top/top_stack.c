// SPDX-License-Identifier: GPL-2.0
/*
 * top_stack.c - `top --by stack`: a row is a kernel stack (bpf_get_stackid() in
 * bpf/top.bpf.c, the frames kept in the stack map top_stacks), named from /proc/kallsyms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "escape.h"
#include "jsonnum.h"
#include "top_int.h"

void top_stack_open(struct top_state *t)
{
	int err;

	t->ks_why[0] = 0;
	if (t->o.by != MG_TOP_BY_STACK)
		return;
	err = mg_ksyms_load(&t->ks, NULL);
	if (err == -EPERM)
		snprintf(t->ks_why, sizeof(t->ks_why), "/proc/kallsyms hides the addresses "
			 "(kernel.kptr_restrict, no CAP_SYSLOG)");
	else if (err)
		snprintf(t->ks_why, sizeof(t->ks_why), "/proc/kallsyms: %s", strerror(-err));
}

void top_stack_close(struct top_state *t)
{
	mg_ksyms_free(t->ks);
	t->ks = NULL;
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
		return;
	}
	a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, mg_kframe_json(&fr[i]));
	json_object_set_new(o, "stack", a);
	json_object_set_new(o, "stack_unavailable", t->ks_why[0] ? json_string(t->ks_why) :
			    json_null());
}
