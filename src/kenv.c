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
	"ctime_ns_xchg", "ctime_xchg_skip", "fill_mg_cmtime", "inode_set_ctime_to_ts",
};

const char *const mg_kcounter_syms[MG_K_NR_COUNTERS] = {
	"mg_ctime_updates", "mg_ctime_swaps", "mg_fine_stamps", "timekeeping_mg_floor_swaps",
};

const char *const mg_kcounter_names[MG_K_NR_COUNTERS] = {
	"ctime_updates", "ctime_swaps", "fine_stamps", "floor_swaps",
};

const char *const mg_func_names[4] = {
	"inode_set_ctime_current", "ktime_get_real_ts64_mg",
	"current_time", "ktime_get_coarse_real_ts64_mg",
};

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

static void probe_btf(struct mg_kenv *env)
{
	struct btf *btf = mg_vmlinux_btf();
	char name[128];
	int i, id;

	if (!btf)
		return;
	env->btf = true;
	for (i = 0; i < 4; i++) {
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

bool mg_kallsyms_has(const char *sym)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t len = strlen(sym);
	bool found = false;
	char line[512];

	if (!f)
		return false;
	/* "ADDRESS TYPE NAME[\t[MODULE]]": compare the name without parsing every line */
	while (fgets(line, sizeof(line), f)) {
		char *name = strchr(line, ' ');

		if (!name || !(name = strchr(name + 1, ' ')))
			continue;
		name++;
		if (!strncmp(name, sym, len) && (name[len] == '\n' || name[len] == '\t' || !name[len])) {
			found = strtoull(line, NULL, 16) != 0;
			break;
		}
	}
	fclose(f);
	return found;
}

static int probe_debugfs(void)
{
	struct statfs sfs;

	if (statfs(MG_DEBUGFS_DIR, &sfs) || sfs.f_type != DEBUGFS_MAGIC)
		return -ENODEV;
	return access(MG_DEBUGFS_FILE, R_OK) ? -errno : 0;
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
	if (known < 0)
		known = mg_kallsyms_has("timekeeping_mg_floor_swaps");
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

const char *mg_debugfs_problem(const struct mg_kenv *env)
{
	switch (env->debugfs) {
	case 0: return NULL;
	case -ENODEV: return "debugfs is not mounted at " MG_DEBUGFS_DIR
			     " (mount -t debugfs none " MG_DEBUGFS_DIR ")";
	case -ENOENT: return MG_DEBUGFS_FILE " is missing (kernel without multigrain "
			     "timestamps or without CONFIG_DEBUG_FS)";
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

#include <linux/capability.h>
#include <sys/syscall.h>

/* CAP_BPF (39) and CAP_PERFMON (38) are in the second capability word. */
static bool have_bpf_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return false;
	return (d[1].effective & (1u << (39 - 32))) && (d[1].effective & (1u << (38 - 32)));
}

int mg_env_require(const struct mg_kenv *env, bool need_mg)
{
	const char *why;

	if (geteuid() != 0 && !have_bpf_caps())
		return mg_err(MG_EXIT_ENV, "needs root, or CAP_BPF and CAP_PERFMON");
	if (!env->btf)
		return mg_err(MG_EXIT_ENV, "kernel %s has no BTF (/sys/kernel/btf/vmlinux): "
			      "CONFIG_DEBUG_INFO_BTF is required", env->release);
	if (!need_mg)
		return MG_EXIT_OK;
	if (!mg_kenv_multigrain(env))
		return mg_err(MG_EXIT_ENV, "kernel %s has no multigrain timestamps "
			      "(no ktime_get_real_ts64_mg or timestamp:ctime_ns_xchg in BTF; needs Linux 6.13+)",
			      env->release);
	why = mg_debugfs_problem(env);
	if (why)
		return mg_err(MG_EXIT_ENV, "%s", why);
	return MG_EXIT_OK;
}
