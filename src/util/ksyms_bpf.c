// SPDX-License-Identifier: GPL-2.0
/* ksyms_bpf.c - kernel text addresses named by the kernel (see ksyms_bpf.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ksyms_bpf.h"
#include "mg_ksym.h"
#include "ksym.skel.h"

/* A hex number "0x..." at *p (digits right after "0x"): its value, *p moved past it. */
static bool hex_at(char **p, uint64_t *v)
{
	size_t digits = strspn(*p + 2, "0123456789abcdefABCDEF");
	char *end;

	if (strncmp(*p, "0x", 2) || !digits)
		return false;
	errno = 0;
	*v = strtoull(*p + 2, &end, 16);
	/* the digits only: strtoull() would take a second "0x" too */
	if (errno || end != *p + 2 + digits)
		return false;
	*p = end;
	return true;
}

int mg_ksym_parse_pS(char *text, struct mg_kframe *fr)
{
	char *plus, *p, *mod;
	uint64_t size;

	fr->sym = NULL;
	fr->off = 0;
	fr->module = NULL;
	p = text;
	if (hex_at(&p, &size) && !*p)
		return 0;	/* sprint_symbol(): no symbol holds the address */
	plus = strrchr(text, '+');
	if (!plus || plus == text)
		return -EBADMSG;
	p = plus + 1;
	if (!hex_at(&p, &fr->off) || *p++ != '/' || !hex_at(&p, &size))
		return -EBADMSG;
	if (*p == ' ') {	/* " [ext4]" */
		mod = p + 1;
		if (*mod != '[' || strlen(mod) < 3 || mod[strlen(mod) - 1] != ']')
			return -EBADMSG;
		mod[strlen(mod) - 1] = 0;
		fr->module = mod + 1;
	} else if (*p) {
		return -EBADMSG;
	}
	*plus = 0;
	fr->sym = text;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Name the addresses u[0..n) (distinct) in batches into names/fr; 0 or -errno. */
static int name_all(struct ksym_bpf *s, const uint64_t *u, size_t n, char (*names)[MG_KSYM_LEN],
		    struct mg_kframe *fr)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	size_t at, i, k;
	int err;

	for (at = 0; at < n; at += k) {
		k = n - at < MG_KSYM_BATCH ? n - at : MG_KSYM_BATCH;
		memcpy(s->bss->ks_addr, u + at, k * sizeof(*u));
		s->bss->ks_n = (uint32_t)k;
		if (bpf_prog_test_run_opts(bpf_program__fd(s->progs.ksym_names), &run))
			return -errno;
		for (i = 0; i < k; i++) {
			fr[at + i].addr = u[at + i];
			if (s->bss->ks_ret[i] < 0)
				return (int)s->bss->ks_ret[i];
			/* cut (longer than any name the kernel makes): that frame unnamed */
			if (s->bss->ks_ret[i] > MG_KSYM_LEN)
				continue;
			memcpy(names[at + i], s->bss->ks_name[i], MG_KSYM_LEN);
			names[at + i][MG_KSYM_LEN - 1] = 0;
			if ((err = mg_ksym_parse_pS(names[at + i], &fr[at + i])))
				return err;
		}
	}
	return 0;
}

/* The naming program, loaded once (mg_ksym_namer_open()). */
struct mg_ksym_namer {
	struct ksym_bpf *s;
};

int mg_ksym_namer_open(struct mg_ksym_namer **out)
{
	struct mg_ksym_namer *nm = calloc(1, sizeof(*nm));
	int err;

	*out = NULL;
	if (!nm)
		return -ENOMEM;
	if (!(nm->s = ksym_bpf__open_and_load())) {
		err = errno ? -errno : -EINVAL;
		free(nm);
		return err;
	}
	*out = nm;
	return 0;
}

void mg_ksym_namer_close(struct mg_ksym_namer *nm)
{
	if (!nm)
		return;
	ksym_bpf__destroy(nm->s);
	free(nm);
}

/* mg_ksyms_by_bpf() with nm's program, or (nm NULL) one loaded for the call if any
 * address is to be named. */
static int by_bpf(struct mg_ksym_namer *nm, struct mg_ksyms **out, const uint64_t *addr,
		  size_t n)
{
	char (*names)[MG_KSYM_LEN] = NULL;
	struct mg_kframe *fr = NULL;
	struct ksym_bpf *s = nm ? nm->s : NULL;
	uint64_t *u = NULL;
	size_t i, m = 0;
	int err;

	*out = NULL;
	u = malloc((n ? n : 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (addr[i])
			u[m++] = addr[i];
	qsort(u, m, sizeof(*u), by_value);
	for (i = 0, n = m, m = 0; i < n; i++)	/* distinct */
		if (!m || u[m - 1] != u[i])
			u[m++] = u[i];
	names = calloc(m ? m : 1, sizeof(*names));
	fr = calloc(m ? m : 1, sizeof(*fr));
	if (!names || !fr) {
		err = -ENOMEM;
		goto out;
	}
	if (m && !s && !(s = ksym_bpf__open_and_load())) {	/* nothing to name: no load */
		err = errno ? -errno : -EINVAL;
		goto out;
	}
	if (!m || !(err = name_all(s, u, m, names, fr)))
		err = mg_ksyms_from_frames(out, fr, m);
out:
	if (!nm)
		ksym_bpf__destroy(s);
	free(names);
	free(fr);
	free(u);
	return err;
}

int mg_ksyms_by_bpf(struct mg_ksyms **out, const uint64_t *addr, size_t n)
{
	return by_bpf(NULL, out, addr, n);
}

int mg_ksym_namer_name(struct mg_ksym_namer *nm, struct mg_ksyms **out, const uint64_t *addr,
		       size_t n)
{
	return by_bpf(nm, out, addr, n);
}

/* The frames v's stack holds, at most its array's. */
static size_t frames(const struct mg_violation *v)
{
	return v->stack_len < MG_STACK_FRAMES ? v->stack_len : MG_STACK_FRAMES;
}

int mg_ksyms_of_reports(struct mg_ksyms **out, const struct mg_violation *v, size_t n)
{
	uint64_t *addr;
	size_t i, m = 0;
	int err;

	*out = NULL;
	for (i = 0; i < n; i++)
		m += v[i].stack_why == MG_STACK_TAKEN ? frames(&v[i]) : 0;
	if (!(addr = malloc((m ? m : 1) * sizeof(*addr))))
		return -ENOMEM;
	for (i = 0, m = 0; i < n; i++)
		if (v[i].stack_why == MG_STACK_TAKEN) {
			memcpy(addr + m, v[i].stack, frames(&v[i]) * sizeof(*addr));
			m += frames(&v[i]);
		}
	err = mg_ksyms_by_bpf(out, addr, m);
	free(addr);
	return err;
}
