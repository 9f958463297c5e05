// SPDX-License-Identifier: GPL-2.0
/* test_backend.c - tests of src/util/backend.c: the program tables, the link info's layout in BTF. */
#include <errno.h>
#include <stddef.h>
#include <bpf/btf.h>
#include "unit.h"
#include "backend.h"
#include "mgtrace.skel.h"

/*
 * Bit offset of the member reached by path (NULL-terminated names; "" steps into an
 * anonymous member) from struct or union type id of btf; -1 if not found.
 */
static long btf_path_bits(const struct btf *btf, __u32 id, const char *const *path)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));
	const struct btf_member *m;
	int i;

	if (!*path)
		return 0;
	if (!t || !(btf_is_struct(t) || btf_is_union(t)))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		long rest;

		if (strcmp(name ? name : "", path[0]))
			continue;
		rest = btf_path_bits(btf, m->type, path + 1);
		if (rest >= 0)
			return (long)btf_member_bit_offset(t, i) + rest;
	}
	return -1;
}

/* struct mg_link_info_kprobe (backend.h, for kprobe misses) against the running kernel's BTF */
UNIT_TEST(link_info_layout)
{
	static const struct {
		const char *path[6];	/* NULL-terminated; "": an anonymous member */
		long off;		/* bytes in struct mg_link_info_kprobe; -1: absent */
	} m[] = {
		{ { "type" }, offsetof(struct mg_link_info_kprobe, type) },
		{ { "prog_id" }, offsetof(struct mg_link_info_kprobe, prog_id) },
		{ { "", "perf_event", "type" }, offsetof(struct mg_link_info_kprobe, pe_type) },
		{ { "", "perf_event", "", "kprobe", "func_name" },
		  offsetof(struct mg_link_info_kprobe, func_name) },
		{ { "", "perf_event", "", "kprobe", "missed" },
		  offsetof(struct mg_link_info_kprobe, missed) },
		/* must-fail direction: the walk does not find what the kernel does not have */
		{ { "", "perf_event", "", "kprobe", "nmissed" }, -1 },
	};
	struct btf *btf = btf__load_vmlinux_btf();
	size_t i;
	__s32 id;

	if (!btf || (id = btf__find_by_name_kind(btf, "bpf_link_info", BTF_KIND_STRUCT)) < 0) {
		printf("skip link info layout: no kernel BTF with struct bpf_link_info\n");
		btf__free(btf);
		return;
	}
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		long bits = btf_path_bits(btf, id, m[i].path);
		const char *leaf = m[i].path[0];

		for (int k = 1; k < 6 && m[i].path[k]; k++)
			leaf = m[i].path[k];
		ASSERT_EQ(bits < 0 ? -1 : bits / 8, m[i].off, "link info: %s at the kernel's offset "
			  "(or absent from both)", leaf);
	}
	btf__free(btf);
}

/*
 * The program tables of src/util/backend.c, src/stat/latency.c and src/util/floor.c: each entry attaches
 * where the table says (its SEC()), every program of each object is in its table once; and
 * mg_progs_check() fails on a table that misnames, misses or repeats a program.
 */
UNIT_TEST(prog_tables)
{
	struct mg_prog_ref refs[2];
	struct mgtrace_bpf *skel;
	char why[256] = "";
	int err;

	err = mg_session_progs_check(why, sizeof(why));
	ASSERT_OK(err, "mgtrace.bpf.c's table: each function's fentry/kprobe and each "
		  "tracepoint's tp_btf/raw_tp program, every program once (%s)", why);
	why[0] = 0;
	err = mg_latency_progs_check(why, sizeof(why));
	ASSERT_OK(err, "latency.bpf.c's table: fentry/fexit and kprobe/kretprobe per timed "
		  "function, every program once (%s)", why);
	why[0] = 0;
	err = mg_floor_progs_check(why, sizeof(why));
	ASSERT_OK(err, "floor.bpf.c's table: each program on its function, in the right "
		  "backends, every program once (%s)", why);
	skel = mgtrace_bpf__open();
	if (!ASSERT_OK_PTR(skel, "open mgtrace.bpf.c's skeleton: %s", strerror(errno)))
		return;
	refs[0].off = MG_SKEL_PROG_OFF(mgtrace_bpf, fe_real_mg);
	snprintf(refs[0].sec, sizeof(refs[0].sec), "fentry/current_time");
	err = mg_progs_check(skel->obj, skel, refs, 1, why, sizeof(why));
	ASSERT_EQ(err, -EINVAL, "a table entry on the wrong function fails: %s", why);
	ASSERT_HAS_SUBSTR(why, "want fentry/current_time",
			  "a table entry on the wrong function fails: %s", why);
	snprintf(refs[0].sec, sizeof(refs[0].sec), "fentry/ktime_get_real_ts64_mg");
	err = mg_progs_check(skel->obj, skel, refs, 1, why, sizeof(why));
	ASSERT_EQ(err, -EINVAL, "a table missing programs fails: %s", why);
	ASSERT_HAS_SUBSTR(why, "fe_set_ctime_current (fentry/inode_set_ctime_current) is not in the table",
			  "a table missing programs fails: %s", why);
	refs[1] = refs[0];
	err = mg_progs_check(skel->obj, skel, refs, 2, why, sizeof(why));
	ASSERT_EQ(err, -EINVAL, "a program listed twice fails: %s", why);
	ASSERT_HAS_SUBSTR(why, "table entries 0 and 1 are both program fe_real_mg",
			  "a program listed twice fails: %s", why);
	mgtrace_bpf__destroy(skel);
}
