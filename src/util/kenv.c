// SPDX-License-Identifier: GPL-2.0
/*
 * kenv.c - probe the running kernel's multigrain support (see kenv.h): release,
 * lockdown, the kernel BTF (parsed once, from a read-only mapping) and what it has:
 * the probed functions, the tracepoints, the per-CPU counters, the floor API's form.
 * The parts: interface.c (prototypes and struct inode as BTF shows them), debugfs.c,
 * kallsyms.c, envcheck.c (mg_env_require()); the names they look for: knames.c.
 */
#include <dlfcn.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kenv.h"
#include "kenv_int.h"
#include "util.h"

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
 * peak RSS stays under 10 MiB. NULL when the file cannot be mapped or parsed; *err
 * then says why the file is not the kernel's BTF (-errno of open(), -ENODATA when it is
 * empty, the parse's -errno), or 0 when only the mapping was refused (libbpf reads it).
 */
static struct btf *btf_from_mmap(int *err)
{
	struct btf *btf = NULL;
	struct stat st;
	void *p;
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);

	*err = fd < 0 ? -errno : 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size <= 0)
		*err = -ENODATA;
	else if ((p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED) {
		btf = btf__new(p, st.st_size);
		if (libbpf_get_error(btf)) {
			*err = (int)libbpf_get_error(btf);
			btf = NULL;
		}
		munmap(p, st.st_size);
	}
	close(fd);
	return btf;
}
static int vmlinux_btf_err;

/*
 * The parse released (mg_vmlinux_btf_release()) and not freed: the next call of
 * btf__load_vmlinux_btf() (below), which libbpf makes to load an object that needs the
 * kernel BTF, takes it instead of parsing the file again; mg_vmlinux_btf() takes it back
 * if it is asked for first. NULL when none is kept.
 */
static struct btf *spare_btf;

struct btf *mg_vmlinux_btf(void)
{
	if (!vmlinux_btf && spare_btf) {
		vmlinux_btf = spare_btf;
		spare_btf = NULL;
	}
	if (!vmlinux_btf && !vmlinux_btf_err) {
		int file_err;

		vmlinux_btf = btf_from_mmap(&file_err);
		if (!vmlinux_btf)
			vmlinux_btf = btf__load_vmlinux_btf();
		if (!vmlinux_btf || libbpf_get_error(vmlinux_btf)) {
			vmlinux_btf_err = vmlinux_btf ? (int)libbpf_get_error(vmlinux_btf) : -errno;
			/* the file's own fault first: libbpf's last word is -ESRCH, "none found" */
			if (file_err)
				vmlinux_btf_err = file_err;
			if (!vmlinux_btf_err)
				vmlinux_btf_err = -ENOENT;
			vmlinux_btf = NULL;
		}
	}
	return vmlinux_btf;
}

void mg_vmlinux_btf_release(void)
{
	if (vmlinux_btf) {
		btf__free(spare_btf);
		spare_btf = vmlinux_btf;
	}
	vmlinux_btf = NULL;
	vmlinux_btf_err = 0;
}

void mg_vmlinux_btf_free_spare(void)
{
	btf__free(spare_btf);
	spare_btf = NULL;
}

/*
 * Lending (mg_vmlinux_btf_lend_begin()): the parse every btf__load_vmlinux_btf() call
 * returns until the lending ends, which a btf__free() of it leaves alone; NULL when
 * none is lent. spare_btf, lent and lend_depth under btf_lock: libbpf may load objects
 * in several threads at once (parload.c).
 */
static struct btf *lent;
static int lend_depth;
static pthread_mutex_t btf_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The kernel BTF for a caller of btf__load_vmlinux_btf(): the lent parse, else the one
 * mgtrace released (handed over once, then the caller's; lent instead while a lending
 * is open), else NULL (the caller parses). want_lend: a fresh parse is to be lent.
 */
static struct btf *take_spare(bool *want_lend)
{
	struct btf *btf;

	pthread_mutex_lock(&btf_lock);
	btf = lent ? lent : spare_btf;
	if (!lent)
		spare_btf = NULL;
	if (lend_depth && !lent)
		lent = btf;
	*want_lend = lend_depth && !btf;
	pthread_mutex_unlock(&btf_lock);
	return btf;
}

/* A parse made by libbpf's own loader, lent from now on if a lending is open and has none. */
static struct btf *lend_fresh(struct btf *btf, bool want_lend)
{
	if (!want_lend || !btf || libbpf_get_error(btf))
		return btf;
	pthread_mutex_lock(&btf_lock);
	if (lend_depth && !lent)
		lent = btf;
	pthread_mutex_unlock(&btf_lock);
	return btf;
}

/* Whether btf is the lent parse, which no btf__free() may free while it is lent. */
static bool is_lent(const struct btf *btf)
{
	bool r;

	pthread_mutex_lock(&btf_lock);
	r = btf && btf == lent;
	pthread_mutex_unlock(&btf_lock);
	return r;
}

void mg_vmlinux_btf_lend_begin(void)
{
	pthread_mutex_lock(&btf_lock);
	lend_depth++;
	pthread_mutex_unlock(&btf_lock);
}

void mg_vmlinux_btf_lend_end(void)
{
	struct btf *btf = NULL;

	pthread_mutex_lock(&btf_lock);
	if (lend_depth && !--lend_depth) {
		btf = lent;
		lent = NULL;
	}
	pthread_mutex_unlock(&btf_lock);
	btf__free(btf);
}

/*
 * The kernel BTF for libbpf (and any caller): the parse mgtrace released, handed over
 * once (the caller owns and frees it: libbpf's load frees it when done), or the lent
 * one (above), else libbpf's own parse of /sys/kernel/btf/vmlinux. check's load of
 * mgtrace_bpf so skips libbpf's parse (5.5 MiB read from sysfs 4 KiB at a time, copied
 * and parsed; bench/notes.md "check start", second pass). Linked against libbpf.so,
 * this definition overrides libbpf's for libbpf too: libbpf 1.1 calls it through its
 * PLT (bpf_object__load_vmlinux_btf(), libbpf_find_vmlinux_btf_id()), and has no option
 * to be given a parsed BTF. Weak, so that a static link takes libbpf.a's, whose callers
 * reach __wrap_btf__load_vmlinux_btf() below instead (-Wl,--wrap, Makefile). NULL
 * (errno set) when it cannot be parsed.
 */
__attribute__((weak)) struct btf *btf__load_vmlinux_btf(void)
{
	static struct btf *(*real)(void);
	bool want_lend;
	struct btf *btf = take_spare(&want_lend);

	if (btf)
		return btf;
	if (!real)
		real = (struct btf *(*)(void))dlsym(RTLD_NEXT, "btf__load_vmlinux_btf");
	if (!real) {
		errno = ENOSYS;
		return NULL;
	}
	return lend_fresh(real(), want_lend);
}

/* libbpf.a's own, under --wrap (a static link only; NULL in a dynamic one). */
extern struct btf *__real_btf__load_vmlinux_btf(void) __attribute__((weak));

/* btf__load_vmlinux_btf() for a static link, with libbpf.a's own under it (-Wl,--wrap). */
struct btf *__wrap_btf__load_vmlinux_btf(void)
{
	bool want_lend;
	struct btf *btf = take_spare(&want_lend);

	if (btf)
		return btf;
	if (!__real_btf__load_vmlinux_btf) {
		errno = ENOSYS;
		return NULL;
	}
	return lend_fresh(__real_btf__load_vmlinux_btf(), want_lend);
}

/*
 * btf__free() for libbpf and mgtrace: libbpf's own, but a no-op on the lent parse
 * (libbpf frees its object's kernel BTF at the end of each load). Overrides libbpf.so's
 * as btf__load_vmlinux_btf() does; a static link reaches __wrap_btf__free() instead.
 */
__attribute__((weak)) void btf__free(struct btf *btf)
{
	static void (*real)(struct btf *);

	if (!btf || is_lent(btf))
		return;
	if (!real)
		real = (void (*)(struct btf *))dlsym(RTLD_NEXT, "btf__free");
	if (real)
		real(btf);
}

/* libbpf.a's btf__free(), under --wrap (a static link only). */
extern void __real_btf__free(struct btf *btf) __attribute__((weak));

/* btf__free() for a static link (-Wl,--wrap=btf__free): as above. */
void __wrap_btf__free(struct btf *btf)
{
	if (btf && !is_lent(btf) && __real_btf__free)
		__real_btf__free(btf);
}

static void probe_btf(struct mg_kenv *env)
{
	struct btf *btf = mg_vmlinux_btf();
	char name[128];
	int i, id;

	if (!btf) {
		env->btf_err = vmlinux_btf_err ? vmlinux_btf_err : -ENOENT;
		return;
	}
	env->btf = true;
	for (i = 0; i < MG_NR_FUNCS; i++) {
		id = btf__find_by_name_kind(btf, mg_func_names[i], BTF_KIND_FUNC);
		env->func_in_btf[i] = id > 0;
		env->func_btf_id[i] = id > 0 ? id : 0;
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

	mg_interface_probe(&env->iface, btf);
	mg_interface_probe_istate(&env->iface, btf);
	mg_interface_probe_task(&env->iface, btf);
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

void mg_kenv_probe(struct mg_kenv *env)
{
	struct utsname u;

	memset(env, 0, sizeof(*env));
	if (!uname(&u))
		snprintf(env->release, sizeof(env->release), "%s", u.release);
	probe_lockdown(env);
	probe_btf(env);
	env->debugfs = mg_debugfs_probe();
}

bool mg_kenv_probe_kallsyms(struct mg_kenv *env)
{
	env->kallsyms_all = mg_kallsyms_all();
	env->kallsyms_known = true;
	return env->kallsyms_all;
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
	return mg_interface_changed(&env->iface, env->release, env->btf && mg_kenv_multigrain(env));
}
