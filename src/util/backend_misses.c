// SPDX-License-Identifier: GPL-2.0
/*
 * backend_misses.c - the runs the kernel skipped of a loaded object's programs (see
 * backend.h): each program's recursion_misses, and the missed count of its kprobe
 * and kretprobe links, in one total and a "prog=n ..." text, split where the caller
 * sets some programs apart.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "backend.h"
#include "mgtrace.skel.h"

uint64_t mg_session_recursion_misses(const struct mg_session *s, char *detail, size_t len)
{
	struct bpf_object *clones[MG_PARLOAD_CLONES];
	uint64_t n;
	int i, nc;

	if (detail && len)
		detail[0] = 0;
	if (!s->skel)
		return 0;
	/* the programs the clones loaded (parload.h) are not loaded in skel's object */
	n = mg_obj_recursion_misses(s->skel->obj, detail, len);
	nc = mg_parload_objs(&s->pl, clones);
	for (i = 0; i < nc; i++)
		n += mg_obj_recursion_misses(clones[i], detail, len);
	return n;
}

/* One kprobe program of an object: its id, name and its links' missed count. */
struct kp_missed {
	__u32 prog_id;
	const char *name;
	uint64_t missed;
};

/*
 * Add to each of t[0..n) the missed count of the perf-event kprobe and kretprobe links
 * of its program, from one walk of every BPF link (root): hits in which the kernel did
 * not run the program (kprobe reentrancy, or more returns in flight than the
 * kretprobe's maxactive). Adds nothing where the kernel reports no count (before 6.7).
 */
static void kprobe_link_misses(struct kp_missed *t, size_t n)
{
	__u32 id = 0;
	size_t i;

	while (!bpf_link_get_next_id(id, &id)) {
		struct mg_link_info_kprobe info = { 0 };
		__u32 ilen = sizeof(info);
		int fd = bpf_link_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &ilen) && info.type == MG_LINK_TYPE_PERF_EVENT &&
		    ilen == sizeof(info) &&
		    (info.pe_type == MG_PERF_EVENT_KPROBE || info.pe_type == MG_PERF_EVENT_KRETPROBE))
			for (i = 0; i < n; i++)
				if (t[i].prog_id == info.prog_id)
					t[i].missed += info.missed;
		close(fd);
	}
}

/* True when name is one of the NULL-terminated names (NULL: none is). */
static bool named(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

uint64_t mg_obj_recursion_misses(const struct bpf_object *obj, char *detail, size_t len)
{
	return mg_obj_misses_split(obj, NULL, detail, len, NULL, NULL, 0);
}

/* One tally of skipped runs: its total and its "prog=n ..." text (detail may be NULL). */
struct miss_tally {
	uint64_t *total;
	char *detail;
	size_t len, n;
};

/* Add program name's m skipped runs (tag: "" or "(probe missed)") to t. */
static void tally_miss(struct miss_tally *t, const char *name, const char *tag, uint64_t m)
{
	*t->total += m;
	if (t->detail && t->n < t->len)
		t->n += snprintf(t->detail + t->n, t->len - t->n, "%s%s%s=%llu", t->n ? " " : "",
				 name, tag, (unsigned long long)m);
}

uint64_t mg_obj_misses_split(const struct bpf_object *obj, const char *const *apart,
			     char *detail, size_t len, uint64_t *apart_total, char *apart_detail,
			     size_t alen)
{
	struct kp_missed kp[64];
	struct bpf_program *prog;
	uint64_t total = 0;
	struct miss_tally main_t = { &total, detail, len, detail ? strlen(detail) : 0 };
	struct miss_tally apart_t = { apart_total, apart_detail, alen,
				      apart_detail ? strlen(apart_detail) : 0 };
	size_t nkp = 0, i;

	if (!obj)
		return 0;
	/* a probe hit that ran no program is an event missed as surely as a skipped run */
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 ilen = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (nkp < sizeof(kp) / sizeof(kp[0]) && fd >= 0 &&
		    bpf_program__type(prog) == BPF_PROG_TYPE_KPROBE &&
		    !bpf_obj_get_info_by_fd(fd, &info, &ilen))
			kp[nkp++] = (struct kp_missed){ info.id, bpf_program__name(prog), 0 };
	}
	if (nkp)
		kprobe_link_misses(kp, nkp);
	for (i = 0; i < nkp; i++)
		if (kp[i].missed)
			tally_miss(named(apart, kp[i].name) ? &apart_t : &main_t, kp[i].name,
				   "(probe missed)", kp[i].missed);
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 ilen = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &ilen) || !info.recursion_misses)
			continue;
		tally_miss(named(apart, bpf_program__name(prog)) ? &apart_t : &main_t,
			   bpf_program__name(prog), "", info.recursion_misses);
	}
	return total;
}
