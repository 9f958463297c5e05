// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms.c - the kernel's code symbols from /proc/kallsyms, sorted by address, to name
 * a kernel stack's frames (see ksyms.h). Names and module names are kept in one
 * growing string pool, so a load is two allocations that grow, whatever its size.
 * A load touches only its own memory and stdio stream (no static buffer, no strtok,
 * no strerror). A table can also be made of frames named elsewhere (mg_ksyms_from_frames()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "escape.h"
#include "jsonnum.h"
#include "ksyms.h"
#include "util.h"

struct ksym {
	uint64_t addr;
	uint32_t name, module;		/* offsets into the pool; module 0: vmlinux */
	uint64_t off;			/* exact tables: the frame's offset into its symbol */
};

struct mg_ksyms {
	struct ksym *s;
	size_t n, cap;
	bool exact;			/* frames named elsewhere (mg_ksyms_from_frames()): keyed
					 * by the frame's own address, no other address named */
	char *pool;
	size_t used, pool_cap;
};

/* Append str to the pool; its offset, or 0 when memory ran out (offset 0 is ""). */
static uint32_t pool_add(struct mg_ksyms *ks, const char *str, size_t len)
{
	size_t at = ks->used;

	if (ks->used + len + 1 > ks->pool_cap) {
		size_t cap = ks->pool_cap ? ks->pool_cap * 2 : 1 << 20;
		char *p;

		while (cap < ks->used + len + 1)
			cap *= 2;
		if (!(p = realloc(ks->pool, cap)))
			return 0;
		ks->pool = p;
		ks->pool_cap = cap;
	}
	memcpy(ks->pool + at, str, len);
	ks->pool[at + len] = 0;
	ks->used += len + 1;
	return (uint32_t)at;
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Add one line "ADDRESS TYPE NAME[\t[MODULE]]" if it is a code symbol, of module mod (a
 * pool offset, 0: vmlinux); *zero counts code symbols whose address reads 0 (hidden).
 * -ENOMEM or 0.
 */
static int add_line(struct mg_ksyms *ks, char *line, uint32_t mod, size_t *zero)
{
	char type, *name, *end;
	uint64_t addr = strtoull(line, &end, 16);

	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return 0;
	type = end[1];
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	name = end + 3;
	name[strcspn(name, "\t\n")] = 0;
	if (!addr) {
		(*zero)++;
		return 0;
	}
	if (mg_grow(&ks->s, &ks->cap, ks->n, sizeof(*ks->s), 65536))
		return -ENOMEM;
	ks->s[ks->n] = (struct ksym){ .addr = addr };
	if (!(ks->s[ks->n].name = pool_add(ks, name, strlen(name))))
		return -ENOMEM;
	ks->s[ks->n].module = mod;
	ks->n++;
	return 0;
}

int mg_ksyms_load(struct mg_ksyms **out, const char *path)
{
	struct mg_ksyms *ks = calloc(1, sizeof(*ks));
	FILE *f = fopen(path ? path : "/proc/kallsyms", "re");
	char line[600], prev_mod[128] = "";
	uint32_t prev_off = 0;
	size_t zero = 0;
	int err = 0;

	*out = NULL;
	if (!ks || !f) {
		err = !ks ? -ENOMEM : -errno;
		goto fail;
	}
	if (pool_add(ks, "", 0) != 0 || !ks->pool) {	/* offset 0: "" (vmlinux) */
		err = -ENOMEM;
		goto fail;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *lb, *rb;
		uint32_t mod = 0;

		/* "\t[ext4]": the module, pooled once while lines of one module follow */
		if (tab && (lb = strchr(tab, '[')) && (rb = strchr(lb, ']'))) {
			*rb = 0;
			if (!prev_off || strcmp(prev_mod, lb + 1)) {
				snprintf(prev_mod, sizeof(prev_mod), "%s", lb + 1);
				if (!(prev_off = pool_add(ks, lb + 1, strlen(lb + 1)))) {
					err = -ENOMEM;
					break;
				}
			}
			mod = prev_off;
		}
		err = add_line(ks, line, mod, &zero);
	}
	if (!err && !ks->n)
		err = zero ? -EPERM : -ENOENT;
	if (err)
		goto fail;
	fclose(f);
	qsort(ks->s, ks->n, sizeof(*ks->s), by_addr);
	*out = ks;
	return 0;
fail:
	if (f)
		fclose(f);
	mg_ksyms_free(ks);
	return err;
}

/* The entry of the last symbol at or below addr in ks, or NULL (none, or ks NULL). */
static const struct ksym *at_or_below(const struct mg_ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks ? ks->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &ks->s[lo - 1] : NULL;
}

void mg_ksyms_name(const struct mg_ksyms *ks, uint64_t addr, struct mg_kframe *fr)
{
	const struct ksym *k = at_or_below(ks, addr);

	*fr = (struct mg_kframe){ .addr = addr };
	if (!k || !k->name)	/* name 0: an address known to have none */
		return;
	if (ks->exact && k->addr != addr)	/* a frame not asked: unnamed */
		return;
	fr->sym = ks->pool + k->name;
	fr->off = ks->exact ? k->off : addr - k->addr;
	fr->module = k->module ? ks->pool + k->module : NULL;
}

bool mg_ksyms_has(const struct mg_ksyms *ks, uint64_t addr)
{
	const struct ksym *k;

	if (!ks || !ks->exact)
		return ks != NULL;
	k = at_or_below(ks, addr);
	return k && k->addr == addr;
}

void mg_ksyms_free(struct mg_ksyms *ks)
{
	if (!ks)
		return;
	free(ks->s);
	free(ks->pool);
	free(ks);
}

int mg_ksyms_from_frames(struct mg_ksyms **out, const struct mg_kframe *fr, size_t n)
{
	struct mg_ksyms *ks = calloc(1, sizeof(*ks));
	size_t i;

	*out = NULL;
	if (!ks || pool_add(ks, "", 0) != 0 || !ks->pool)
		goto nomem;
	for (i = 0; i < n; i++) {
		if (mg_grow(&ks->s, &ks->cap, ks->n, sizeof(*ks->s), 64))
			goto nomem;
		/* keyed by the frame's address (unnamed: name 0) */
		ks->s[ks->n] = (struct ksym){ .addr = fr[i].addr, .off = fr[i].off };
		if (fr[i].sym && !(ks->s[ks->n].name = pool_add(ks, fr[i].sym, strlen(fr[i].sym))))
			goto nomem;
		if (fr[i].sym && fr[i].module &&
		    !(ks->s[ks->n].module = pool_add(ks, fr[i].module, strlen(fr[i].module))))
			goto nomem;
		ks->n++;
	}
	qsort(ks->s, ks->n, sizeof(*ks->s), by_addr);
	ks->exact = true;
	*out = ks;
	return 0;
nomem:
	mg_ksyms_free(ks);
	return -ENOMEM;
}

uint32_t mg_kstack_start(const struct mg_ksyms *ks, const uint64_t *stack, uint32_t len)
{
	struct mg_kframe fr;
	uint32_t i;

	for (i = 0; i < len; i++) {
		mg_ksyms_name(ks, stack[i], &fr);
		if (!fr.sym || !(!strncmp(fr.sym, "bpf_prog_", 9) ||
				 !strncmp(fr.sym, "bpf_trace_run", 13) ||
				 !strncmp(fr.sym, "__bpf_trace_", 12) ||
				 !strncmp(fr.sym, "__traceiter_", 12) ||
				 !strncmp(fr.sym, "bpf_trampoline_", 15)))
			break;
	}
	return i < len ? i : 0;
}

json_t *mg_kframe_json(const struct mg_kframe *fr)
{
	json_t *o = json_object();
	char addr[24];

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)fr->addr);
	json_object_set_new(o, "addr", json_string(addr));
	json_object_set_new(o, "sym", fr->sym ? mg_json_cstr(fr->sym) : json_null());
	json_object_set_new(o, "off", fr->sym ? mg_json_u64(fr->off) : json_null());
	json_object_set_new(o, "module", fr->module ? mg_json_cstr(fr->module) : json_null());
	return o;
}
