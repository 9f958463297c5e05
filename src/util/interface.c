// SPDX-License-Identifier: GPL-2.0
/*
 * interface.c - the kernel interface the BPF programs rely on, as its BTF shows it
 * (see interface.h): the timestamp:* tracepoints' arguments, the floor functions'
 * prototypes, the type of inode.i_ctime_nsec, and where struct inode's state flags
 * are with the values of I_NEW, I_FREEING and I_CLEAR, where bpf/follow.bpf.c reads a
 * task's thread group; mg_interface_changed() names what changed.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "interface.h"
#include "knames.h"

/*
 * The shape of one BTF type as the interface checks compare it: "void", "u32"/"u64"
 * (or s32/s64: any integer of that size), "struct NAME *", "struct NAME", else the kind.
 */
static void type_shape(const struct btf *btf, int id, char *out, size_t len)
{
	const struct btf_type *t;

	id = id ? btf__resolve_type(btf, id) : 0;
	if (id < 0) {
		snprintf(out, len, "?");
		return;
	}
	if (!id) {
		snprintf(out, len, "void");
		return;
	}
	t = btf__type_by_id(btf, id);
	if (btf_is_int(t) || btf_is_enum(t)) {
		snprintf(out, len, "u%u", t->size * 8);
	} else if (btf_is_ptr(t)) {
		char in[96];

		type_shape(btf, t->type, in, sizeof(in));
		snprintf(out, len, "%.*s *", (int)sizeof(in) - 3, in);
	} else if (btf_is_struct(t) || btf_is_union(t)) {
		snprintf(out, len, "%s %s", btf_is_struct(t) ? "struct" : "union",
			 btf__name_by_offset(btf, t->name_off));
	} else {
		snprintf(out, len, "kind%u", btf_kind(t));
	}
}

/* "(shape, shape, ...)" of a FUNC_PROTO's parameters from the skip-th on, into out. */
static void proto_shape(const struct btf *btf, const struct btf_type *proto, int skip,
			char *out, size_t len)
{
	const struct btf_param *p = btf_params(proto);
	size_t n = 0;
	int i;

	n += snprintf(out + n, len - n, "(");
	for (i = skip; i < btf_vlen(proto) && n < len; i++) {
		char sh[96];

		type_shape(btf, p[i].type, sh, sizeof(sh));
		n += snprintf(out + n, len - n, "%s%s", i > skip ? ", " : "", sh);
	}
	if (n < len)
		snprintf(out + n, len - n, ")");
}

/*
 * What the BPF programs assume of each tracepoint (include/trace/events/timestamp.h,
 * TP_PROTO after the hidden void *__data) and of the floor functions.
 */
static const char *const tp_want[MG_NR_TPS] = {
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in, top) [MG_TP_##ID] = proto,
#include "mg_vocab.def"
};

/* Compare the tracepoints' and ktime_get_*_mg's BTF prototypes and inode.i_ctime_nsec. */
void mg_interface_probe(struct mg_interface *ifc, const struct btf *btf)
{
	char name[128], got[256];
	const struct btf_type *t;
	int i, id;

	for (i = 0; i < MG_NR_TPS; i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", mg_tp_names[i]);
		id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
		if (id <= 0)
			continue;
		/* typedef void (*btf_trace_X)(void *__data, TP_PROTO...) */
		id = btf__resolve_type(btf, btf__type_by_id(btf, id)->type);
		t = id > 0 ? btf__type_by_id(btf, id) : NULL;
		t = t && btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
		if (!t || !btf_is_func_proto(t)) {
			snprintf(ifc->tp_args[i], sizeof(ifc->tp_args[i]), "not a function prototype");
			ifc->tp_args_changed[i] = true;
			continue;
		}
		proto_shape(btf, t, 1, got, sizeof(got));
		snprintf(ifc->tp_args[i], sizeof(ifc->tp_args[i]), "%.*s",
			 (int)sizeof(ifc->tp_args[i]) - 1, got);
		ifc->tp_args_changed[i] = strcmp(got, tp_want[i]) != 0;
	}
	for (int f = 0; f < MG_NR_FLOOR_FUNCS; f++) {
		char ret[96];

		i = mg_floor_funcs[f];

		id = btf__find_by_name_kind(btf, mg_func_names[i], BTF_KIND_FUNC);
		if (id <= 0)
			continue;
		t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
		proto_shape(btf, t, 0, got, sizeof(got));
		type_shape(btf, t->type, ret, sizeof(ret));
		snprintf(ifc->func_proto[i], sizeof(ifc->func_proto[i]), "%.40s %s%.200s", ret,
			 mg_func_names[i], got);
	}
	id = btf__find_by_name_kind(btf, "inode", BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	snprintf(ifc->ctime_nsec, sizeof(ifc->ctime_nsec), "absent");
	for (i = 0; t && i < btf_vlen(t); i++) {
		const struct btf_member *m = btf_members(t) + i;

		if (strcmp(btf__name_by_offset(btf, m->name_off), "i_ctime_nsec"))
			continue;
		type_shape(btf, m->type, ifc->ctime_nsec, sizeof(ifc->ctime_nsec));
	}
}

/* The value of enumerator name in enum type id (BTF_KIND_ENUM), or -1. */
static long long enum_value(const struct btf *btf, int id, const char *name)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_enum *e;
	int i;

	if (!t || !btf_is_enum(t))
		return -1;
	for (i = 0, e = btf_enum(t); i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(btf, e->name_off), name))
			return e->val;
	return -1;
}

int mg_btf_find_member(const struct btf *btf, int id, const char *name, long *off)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));
	const struct btf_member *m;
	int i;

	*off = -1;
	if (!t || !(btf_is_struct(t) || btf_is_union(t)))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);
		long bits = btf_member_bit_offset(t, i);
		bool whole = !(bits % 8) && !btf_member_bitfield_size(t, i);

		if (n && *n && !strcmp(n, name)) {
			*off = whole ? bits / 8 : -1;
			return m->type;
		}
		if (!n || !*n) {
			long in;
			int type = mg_btf_find_member(btf, m->type, name, &in);

			if (type > 0) {
				*off = whole && in >= 0 ? bits / 8 + in : -1;
				return type;
			}
		}
	}
	return -1;
}

void mg_interface_probe_task(struct mg_interface *ifc, const struct btf *btf)
{
	int task = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	int sig = btf__find_by_name_kind(btf, "signal_struct", BTF_KIND_STRUCT);
	long tgid = -1, signal = -1, live = -1;

	memset(&ifc->task, 0, sizeof(ifc->task));
	if (task <= 0 || sig <= 0)
		return;
	mg_btf_find_member(btf, task, "tgid", &tgid);
	mg_btf_find_member(btf, task, "signal", &signal);
	mg_btf_find_member(btf, sig, "live", &live);
	if (tgid < 0 || signal < 0 || live < 0)
		return;
	ifc->task = (struct mg_task_layout){ .known = true, .tgid = (unsigned int)tgid,
					     .signal = (unsigned int)signal,
					     .live = (unsigned int)live };
}

/*
 * Where struct inode's state flags are and what I_NEW, I_FREEING and I_CLEAR are:
 * i_state is a u32 with macro flags (6.12 to 6.17), an enum (6.18) or a struct with
 * one enum member (6.19+), 4 bytes.
 */
void mg_interface_probe_istate(struct mg_interface *ifc, const struct btf *btf)
{
	int inode = btf__find_by_name_kind(btf, "inode", BTF_KIND_STRUCT), tid, i;
	const struct btf_type *t = inode > 0 ? btf__type_by_id(btf, inode) : NULL, *mt;
	const struct btf_member *m;
	long long v[3];
	char outer[64] = "";

	snprintf(ifc->istate.layout, sizeof(ifc->istate.layout), "struct inode has no i_state");
	if (!t)
		return;
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "i_state"))
			break;
	if (i == btf_vlen(t) || btf_member_bitfield_size(t, i) || btf_member_bit_offset(t, i) % 8)
		return;
	ifc->istate.off = btf_member_bit_offset(t, i) / 8;
	tid = btf__resolve_type(btf, m->type);
	mt = tid > 0 ? btf__type_by_id(btf, tid) : NULL;
	if (mt && btf_is_struct(mt) && btf_vlen(mt) == 1 && !btf_member_bit_offset(mt, 0)) {
		/* 6.19+: struct inode_state_flags { enum inode_state_flags_enum __state; } */
		snprintf(outer, sizeof(outer), "struct %s { ", btf__name_by_offset(btf, mt->name_off));
		tid = btf__resolve_type(btf, btf_members(mt)->type);
		mt = tid > 0 ? btf__type_by_id(btf, tid) : NULL;
	}
	if (mt && btf_is_int(mt) && mt->size == 4 && !outer[0]) {
		/*
		 * 6.12 to 6.17: a u32 whose flags are macros, so BTF has no values;
		 * include/linux/fs.h defines them from 6.12 (where __I_NEW, __I_SYNC and
		 * __I_LRU_ISOLATING became bits 0 to 2) until 6.18 made them an enum
		 * with other values. Multigrain timestamps (6.13+) exist only there.
		 */
		snprintf(ifc->istate.layout, sizeof(ifc->istate.layout), "u32 (flags as macros: "
			 "include/linux/fs.h values of 6.12 to 6.17)");
		ifc->istate.size = 4;
		ifc->istate.i_new = 1u << 0;
		ifc->istate.i_freeing = 1u << 7;
		ifc->istate.i_clear = 1u << 8;
		ifc->istate.known = true;
		return;
	}
	if (!mt || !btf_is_enum(mt) || mt->size != 4) {
		snprintf(ifc->istate.layout, sizeof(ifc->istate.layout), "inode.i_state is neither "
			 "a u32, a 4-byte enum nor a struct holding one");
		return;
	}
	v[0] = enum_value(btf, tid, "I_NEW");
	v[1] = enum_value(btf, tid, "I_FREEING");
	v[2] = enum_value(btf, tid, "I_CLEAR");
	snprintf(ifc->istate.layout, sizeof(ifc->istate.layout), "%senum %s%s%s", outer,
		 btf__name_by_offset(btf, mt->name_off), outer[0] ? " __state; }" : "",
		 v[0] < 0 || v[1] < 0 || v[2] < 0 ? " without I_NEW, I_FREEING or I_CLEAR" : "");
	if (v[0] < 0 || v[1] < 0 || v[2] < 0)
		return;
	ifc->istate.size = 4;
	ifc->istate.i_new = (unsigned int)v[0];
	ifc->istate.i_freeing = (unsigned int)v[1];
	ifc->istate.i_clear = (unsigned int)v[2];
	ifc->istate.known = true;
}

const char *mg_interface_changed(const struct mg_interface *ifc, const char *release,
				 bool ctime_applies)
{
	static char why[400];
	int i;

	for (i = 0; i < MG_NR_TPS; i++)
		if (ifc->tp_args_changed[i]) {
			snprintf(why, sizeof(why), "kernel %s changed tracepoint timestamp:%s: BTF "
				 "arguments %s, mgtrace reads %s", release, mg_tp_names[i],
				 ifc->tp_args[i], tp_want[i]);
			return why;
		}
	if (strcmp(ifc->ctime_nsec, "u32") && ctime_applies) {
		snprintf(why, sizeof(why), "kernel %s changed struct inode's i_ctime_nsec (BTF: %s), "
			 "which holds I_CTIME_QUERIED as bit 31 of a u32", release, ifc->ctime_nsec);
		return why;
	}
	return NULL;
}
