// SPDX-License-Identifier: GPL-2.0
/* kenv.c - probe the running kernel's multigrain support (see kenv.h). */
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kenv.h"
#include "util.h"

#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

const char *const mg_tp_names[MG_NR_TPS] = {
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in) [MG_TP_##ID] = tp,
#include "mg_vocab.def"
};

const char *const mg_kcounter_syms[MG_K_NR_COUNTERS] = {
	"mg_ctime_updates", "mg_ctime_swaps", "mg_fine_stamps", "timekeeping_mg_floor_swaps",
};

const char *const mg_kcounter_names[MG_K_NR_COUNTERS] = {
	"ctime_updates", "ctime_swaps", "fine_stamps", "floor_swaps",
};

const char *const mg_func_names[MG_NR_FUNCS] = {
	[MG_FN_SET_CTIME_CURRENT] = "inode_set_ctime_current",
	[MG_FN_REAL_MG] = "ktime_get_real_ts64_mg",
	[MG_FN_CURRENT_TIME] = "current_time",
	[MG_FN_COARSE_MG] = "ktime_get_coarse_real_ts64_mg",
};

const enum mg_func mg_floor_funcs[MG_NR_FLOOR_FUNCS] = { MG_FN_REAL_MG, MG_FN_COARSE_MG };

static void probe_lockdown(struct mg_kenv *env)
{
	char buf[256], *l, *r;
	int n = mg_read_file("/sys/kernel/security/lockdown", buf, sizeof(buf));

	if (n < 0) {
		snprintf(env->lockdown, sizeof(env->lockdown), "unknown (%s)",
			 n == -ENOENT ? "securityfs not mounted" : strerror(-n));
		return;
	}
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!l || !r) {
		snprintf(env->lockdown, sizeof(env->lockdown), "unknown");
		return;
	}
	*r = 0;
	snprintf(env->lockdown, sizeof(env->lockdown), "%s", l + 1);
}

static struct btf *vmlinux_btf;

/*
 * Parse /sys/kernel/btf/vmlinux from a read-only mapping (kernels that allow it map
 * the kernel's own BTF pages: they are not in this process's RSS), so the parse holds
 * one copy (libbpf's), not two (libbpf's read buffer and its copy): the default stat's
 * peak RSS stays under 10 MiB. NULL when the file cannot be mapped.
 */
static struct btf *btf_from_mmap(void)
{
	struct btf *btf = NULL;
	struct stat st;
	void *p;
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0) {
		p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			btf = btf__new(p, st.st_size);
			if (libbpf_get_error(btf))
				btf = NULL;
			munmap(p, st.st_size);
		}
	}
	close(fd);
	return btf;
}
static int vmlinux_btf_err;

struct btf *mg_vmlinux_btf(void)
{
	if (!vmlinux_btf && !vmlinux_btf_err) {
		vmlinux_btf = btf_from_mmap();
		if (!vmlinux_btf)
			vmlinux_btf = btf__load_vmlinux_btf();
		if (!vmlinux_btf || libbpf_get_error(vmlinux_btf)) {
			vmlinux_btf_err = vmlinux_btf ? (int)libbpf_get_error(vmlinux_btf) : -errno;
			if (!vmlinux_btf_err)
				vmlinux_btf_err = -ENOENT;
			vmlinux_btf = NULL;
		}
	}
	return vmlinux_btf;
}

void mg_vmlinux_btf_release(void)
{
	btf__free(vmlinux_btf);
	vmlinux_btf = NULL;
	vmlinux_btf_err = 0;
}

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
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in) [MG_TP_##ID] = proto,
#include "mg_vocab.def"
};

/* Compare the tracepoints' and ktime_get_*_mg's BTF prototypes and inode.i_ctime_nsec. */
static void probe_interface(struct mg_kenv *env, const struct btf *btf)
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
			snprintf(env->tp_args[i], sizeof(env->tp_args[i]), "not a function prototype");
			env->tp_args_changed[i] = true;
			continue;
		}
		proto_shape(btf, t, 1, got, sizeof(got));
		snprintf(env->tp_args[i], sizeof(env->tp_args[i]), "%.*s",
			 (int)sizeof(env->tp_args[i]) - 1, got);
		env->tp_args_changed[i] = strcmp(got, tp_want[i]) != 0;
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
		snprintf(env->func_proto[i], sizeof(env->func_proto[i]), "%.40s %s%.200s", ret,
			 mg_func_names[i], got);
	}
	id = btf__find_by_name_kind(btf, "inode", BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	snprintf(env->ctime_nsec, sizeof(env->ctime_nsec), "absent");
	for (i = 0; t && i < btf_vlen(t); i++) {
		const struct btf_member *m = btf_members(t) + i;

		if (strcmp(btf__name_by_offset(btf, m->name_off), "i_ctime_nsec"))
			continue;
		type_shape(btf, m->type, env->ctime_nsec, sizeof(env->ctime_nsec));
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

/*
 * Where struct inode's state flags are and what I_NEW, I_FREEING and I_CLEAR are:
 * i_state is a u32 with macro flags (6.12 to 6.17), an enum (6.18) or a struct with
 * one enum member (6.19+), 4 bytes.
 */
static void probe_istate(struct mg_kenv *env, const struct btf *btf)
{
	int inode = btf__find_by_name_kind(btf, "inode", BTF_KIND_STRUCT), tid, i;
	const struct btf_type *t = inode > 0 ? btf__type_by_id(btf, inode) : NULL, *mt;
	const struct btf_member *m;
	long long v[3];
	char outer[64] = "";

	snprintf(env->istate.layout, sizeof(env->istate.layout), "struct inode has no i_state");
	if (!t)
		return;
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "i_state"))
			break;
	if (i == btf_vlen(t) || btf_member_bitfield_size(t, i) || btf_member_bit_offset(t, i) % 8)
		return;
	env->istate.off = btf_member_bit_offset(t, i) / 8;
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
		snprintf(env->istate.layout, sizeof(env->istate.layout), "u32 (flags as macros: "
			 "include/linux/fs.h values of 6.12 to 6.17)");
		env->istate.size = 4;
		env->istate.i_new = 1u << 0;
		env->istate.i_freeing = 1u << 7;
		env->istate.i_clear = 1u << 8;
		env->istate.known = true;
		return;
	}
	if (!mt || !btf_is_enum(mt) || mt->size != 4) {
		snprintf(env->istate.layout, sizeof(env->istate.layout), "inode.i_state is neither "
			 "a u32, a 4-byte enum nor a struct holding one");
		return;
	}
	v[0] = enum_value(btf, tid, "I_NEW");
	v[1] = enum_value(btf, tid, "I_FREEING");
	v[2] = enum_value(btf, tid, "I_CLEAR");
	snprintf(env->istate.layout, sizeof(env->istate.layout), "%senum %s%s%s", outer,
		 btf__name_by_offset(btf, mt->name_off), outer[0] ? " __state; }" : "",
		 v[0] < 0 || v[1] < 0 || v[2] < 0 ? " without I_NEW, I_FREEING or I_CLEAR" : "");
	if (v[0] < 0 || v[1] < 0 || v[2] < 0)
		return;
	env->istate.size = 4;
	env->istate.i_new = (unsigned int)v[0];
	env->istate.i_freeing = (unsigned int)v[1];
	env->istate.i_clear = (unsigned int)v[2];
	env->istate.known = true;
}

static void probe_btf(struct mg_kenv *env)
{
	struct btf *btf = mg_vmlinux_btf();
	char name[128];
	int i, id;

	if (!btf)
		return;
	env->btf = true;
	for (i = 0; i < MG_NR_FUNCS; i++) {
		id = btf__find_by_name_kind(btf, mg_func_names[i], BTF_KIND_FUNC);
		env->func_in_btf[i] = id > 0;
		if (id > 0) {
			const struct btf_type *proto = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
			int rid = btf__resolve_type(btf, proto->type);
			const struct btf_type *ret = rid > 0 ? btf__type_by_id(btf, rid) : NULL;

			env->func_ret_struct[i] = ret && (btf_is_struct(ret) || btf_is_union(ret));
		}
	}
	for (i = 0; i < MG_NR_TPS; i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", mg_tp_names[i]);
		env->tp_in_btf[i] = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
	}
	for (i = 0; i < MG_K_NR_COUNTERS; i++)
		env->ksym_in_btf[i] = btf__find_by_name_kind(btf, mg_kcounter_syms[i], BTF_KIND_VAR) > 0;
	env->res_spin_lock = btf__find_by_name_kind(btf, "bpf_res_spin_lock", BTF_KIND_FUNC) > 0;

	probe_interface(env, btf);
	probe_istate(env, btf);
	env->api = MG_API_NONE;
	id = btf__find_by_name_kind(btf, "ktime_get_real_ts64_mg", BTF_KIND_FUNC);
	if (id > 0) {
		const struct btf_type *fn = btf__type_by_id(btf, id);
		const struct btf_type *proto = btf__type_by_id(btf, fn->type);

		switch (proto ? btf_vlen(proto) : 0) {
		case 1: env->api = MG_API_MAINLINE; break;
		case 2: env->api = MG_API_COOKIE; break;
		default: env->api = MG_API_UNKNOWN; break;
		}
	}
}

int mg_kallsyms_lookup(const char *sym)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t len = strlen(sym);
	int found = 0;
	char line[512];

	if (!f)
		return -errno;
	/* "ADDRESS TYPE NAME[\t[MODULE]]": compare the name without parsing every line */
	while (fgets(line, sizeof(line), f)) {
		char *name = strchr(line, ' ');

		if (!name || !(name = strchr(name + 1, ' ')))
			continue;
		name++;
		if (!strncmp(name, sym, len) && (name[len] == '\n' || name[len] == '\t' || !name[len])) {
			/* kallsyms_show_value(): zeros unless CAP_SYSLOG (kptr_restrict 1) */
			found = strtoull(line, NULL, 16) != 0 ? 1 : -EPERM;
			break;
		}
	}
	fclose(f);
	return found;
}

bool mg_kallsyms_has(const char *sym)
{
	return mg_kallsyms_lookup(sym) == 1;
}

const char *mg_kallsyms_problem(const char *sym, bool data)
{
	static char buf[4][200];
	static unsigned int next;
	char *b = buf[next++ % 4];
	int r = mg_kallsyms_lookup(sym);

	if (r == 1)
		return NULL;
	if (r == -EPERM)
		snprintf(b, sizeof(buf[0]), "%s's address is hidden in /proc/kallsyms (shown only "
			 "with CAP_SYSLOG: kptr_restrict, kallsyms_show_value())", sym);
	else if (r < 0)
		snprintf(b, sizeof(buf[0]), "/proc/kallsyms: %s", strerror(-r));
	else
		snprintf(b, sizeof(buf[0]), "%s is not in /proc/kallsyms%s", sym,
			 data ? " (data symbols need CONFIG_KALLSYMS_ALL)" : "");
	return b;
}

/*
 * 0 when the debugfs file opens for reading, else -ENODEV (no debugfs there) or the
 * open's -errno. The open itself, not access(): access() checks the real uid, so a
 * non-root user holding CAP_DAC_READ_SEARCH (or CAP_SYS_ADMIN) was told "not readable".
 */
static int probe_debugfs(void)
{
	struct statfs sfs;
	int fd;

	if (statfs(MG_DEBUGFS_DIR, &sfs)) {
		/* the mount point itself may be closed to this user (mode 0700) */
		return errno == EACCES || errno == EPERM ? -errno : -ENODEV;
	}
	if (sfs.f_type != DEBUGFS_MAGIC)
		return -ENODEV;
	fd = open(MG_DEBUGFS_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

void mg_kenv_probe(struct mg_kenv *env)
{
	struct utsname u;

	memset(env, 0, sizeof(*env));
	if (!uname(&u))
		snprintf(env->release, sizeof(env->release), "%s", u.release);
	probe_lockdown(env);
	probe_btf(env);
	env->debugfs = probe_debugfs();
}

bool mg_kallsyms_all(void)
{
	static int known = -1;

	/* Data symbols appear in kallsyms only with CONFIG_KALLSYMS_ALL. */
	if (known < 0) {	/* listed, whether or not its address is shown */
		int r = mg_kallsyms_lookup("timekeeping_mg_floor_swaps");

		known = r == 1 || r == -EPERM;
	}
	return known;
}

bool mg_kenv_probe_kallsyms(struct mg_kenv *env)
{
	env->kallsyms_all = mg_kallsyms_all();
	env->kallsyms_known = true;
	return env->kallsyms_all;
}

bool mg_kenv_multigrain(const struct mg_kenv *env)
{
	return env->api != MG_API_NONE || env->tp_in_btf[0];
}

const char *mg_api_name(enum mg_api api)
{
	switch (api) {
	case MG_API_MAINLINE: return "mainline ktime_get_real_ts64_mg(ts)";
	case MG_API_COOKIE: return "cookie ktime_get_real_ts64_mg(ts, cookie)";
	case MG_API_UNKNOWN: return "unknown prototype of ktime_get_real_ts64_mg";
	default: return "none";
	}
}

const char *mg_interface_problem(const struct mg_kenv *env)
{
	static char why[400];
	int i;

	for (i = 0; i < MG_NR_TPS; i++)
		if (env->tp_args_changed[i]) {
			snprintf(why, sizeof(why), "kernel %s changed tracepoint timestamp:%s: BTF "
				 "arguments %s, mgtrace reads %s", env->release, mg_tp_names[i],
				 env->tp_args[i], tp_want[i]);
			return why;
		}
	if (strcmp(env->ctime_nsec, "u32") && env->btf && mg_kenv_multigrain(env)) {
		snprintf(why, sizeof(why), "kernel %s changed struct inode's i_ctime_nsec (BTF: %s), "
			 "which holds I_CTIME_QUERIED as bit 31 of a u32", env->release, env->ctime_nsec);
		return why;
	}
	return NULL;
}

const char *mg_debugfs_problem(const struct mg_kenv *env)
{
	switch (env->debugfs) {
	case 0: return NULL;
	case -ENODEV: return "debugfs is not mounted at " MG_DEBUGFS_DIR
			     " (mount -t debugfs none " MG_DEBUGFS_DIR "; in a container, "
			     "which may not mount it: -v " MG_DEBUGFS_DIR ":" MG_DEBUGFS_DIR ":ro)";
	case -ENOENT: return MG_DEBUGFS_FILE " is missing (kernel without multigrain "
			     "timestamps or without CONFIG_DEBUG_FS)";
	case -EACCES:
	case -EPERM: return MG_DEBUGFS_FILE " is not readable by this user (EACCES: debugfs "
			    "is root's, mode 0700; CAP_DAC_READ_SEARCH opens it)";
	default: return MG_DEBUGFS_FILE " is not readable";
	}
}

int mg_debugfs_read(uint64_t out[MG_K_NR_COUNTERS])
{
	/*
	 * Kept open: each pread() at offset 0 makes the seq_file sum the counters
	 * afresh. About 1.3 us against 9 us for statfs+open+read+close, which keeps
	 * the debugfs brackets around each snapshot narrow (src/run.c).
	 */
	static int fd = -1;
	char buf[256];
	unsigned long long v[MG_K_NR_COUNTERS];
	struct statfs sfs;
	ssize_t n;
	int i;

	if (fd < 0) {
		if (statfs(MG_DEBUGFS_DIR, &sfs) || sfs.f_type != DEBUGFS_MAGIC)
			return -ENODEV;
		fd = open(MG_DEBUGFS_FILE, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0) {
		int err = -errno;

		close(fd);
		fd = -1;
		return err;
	}
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3]) != 4)
		return -EPROTO;
	for (i = 0; i < MG_K_NR_COUNTERS; i++)
		out[i] = v[i];
	return 0;
}

#include <linux/bpf.h>
#include <linux/capability.h>
#include <sys/syscall.h>

/*
 * The capabilities BPF tracing needs that this process lacks in its effective set:
 * "" when it has them, else "CAP_BPF", "CAP_PERFMON" or both. The kernel's
 * bpf_capable() is CAP_BPF or CAP_SYS_ADMIN, perfmon_capable() CAP_PERFMON or
 * CAP_SYS_ADMIN (include/linux/capability.h). CAP_BPF (39) and CAP_PERFMON (38)
 * are in the second capability word, CAP_SYS_ADMIN (21) in the first.
 */
static const char *missing_bpf_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	bool admin, bpf, perfmon;

	if (syscall(SYS_capget, &h, d))
		return "CAP_BPF and CAP_PERFMON (capget failed)";
	admin = d[0].effective & (1u << 21);
	bpf = admin || (d[1].effective & (1u << (39 - 32)));
	perfmon = admin || (d[1].effective & (1u << (38 - 32)));
	return bpf && perfmon ? "" : !bpf && !perfmon ? "CAP_BPF and CAP_PERFMON" :
	       !bpf ? "CAP_BPF" : "CAP_PERFMON";
}

/* The Seccomp: field of /proc/self/status: 0 none, 1 strict, 2 filter; -1 unknown. */
static int seccomp_mode(void)
{
	char line[256];
	int mode = -1;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode;
}

/*
 * Whether bpf() itself is refused to this process although it holds the
 * capabilities: a one-entry BPF_MAP_TYPE_ARRAY, which CAP_BPF may always
 * create, is made and closed. Returns NULL when it is allowed, else the reason:
 * a seccomp filter (a container runtime's default profile, Docker's and
 * podman's, allows bpf() only with CAP_SYS_ADMIN) or, without one, an LSM.
 */
static const char *bpf_syscall_refused(void)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	fd = (int)syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	if (errno != EPERM && errno != EACCES)
		return NULL;	/* not a refusal: let the load say what it is */
	if (seccomp_mode() == 2)
		return "bpf() is refused by this process's seccomp filter (Seccomp: 2 in "
		       "/proc/self/status), not for a missing capability: container runtimes' "
		       "default profiles allow bpf() only with CAP_SYS_ADMIN (podman/docker run "
		       "--security-opt seccomp=unconfined, a profile that allows bpf, or --cap-add "
		       "SYS_ADMIN)";
	return "bpf() is refused (EPERM) although this process has CAP_BPF and CAP_PERFMON and "
	       "no seccomp filter: a security module's policy (SELinux, AppArmor, BPF LSM) denies it";
}

int mg_env_require(const struct mg_kenv *env, bool need_mg)
{
	const char *why;

	why = missing_bpf_caps();
	if (why[0])	/* root too: a container or a unit may have dropped them */
		return geteuid() ?
		       mg_err(MG_EXIT_ENV, "needs root, or CAP_BPF and CAP_PERFMON (or "
			      "CAP_SYS_ADMIN): this process lacks %s", why) :
		       mg_err(MG_EXIT_ENV, "needs %s (or CAP_SYS_ADMIN), dropped from this root "
			      "process's effective capabilities", why);
	if ((why = bpf_syscall_refused()))
		return mg_err(MG_EXIT_ENV, "%s", why);
	if (!env->btf)
		return mg_err(MG_EXIT_ENV, "kernel %s has no BTF (/sys/kernel/btf/vmlinux): "
			      "CONFIG_DEBUG_INFO_BTF is required", env->release);
	if (!need_mg)
		return MG_EXIT_OK;
	if (!mg_kenv_multigrain(env))
		return mg_err(MG_EXIT_ENV, "kernel %s has no multigrain timestamps "
			      "(no ktime_get_real_ts64_mg or timestamp:ctime_ns_xchg in BTF; needs Linux 6.13+)",
			      env->release);
	why = mg_interface_problem(env);
	if (why)
		return mg_err(MG_EXIT_ENV, "%s", why);
	/* debugfs is not required: where it is absent (containers, debugfs=off,
	 * CONFIG_DEBUG_FS=n) each number says what it was checked against instead */
	return MG_EXIT_OK;
}
