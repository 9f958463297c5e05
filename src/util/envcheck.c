// SPDX-License-Identifier: GPL-2.0
/*
 * envcheck.c - mg_env_require() (see kenv.h): what every probing command needs, each
 * refusal said in one line: /proc and /sys mounted, CAP_BPF and CAP_PERFMON (or
 * CAP_SYS_ADMIN), bpf() not refused by a seccomp filter or a security module, kernel
 * BTF, and for the multigrain commands the timestamps themselves and the interface BTF
 * shows. mg_run_require_env() (run.c) calls it before any BPF object loads.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include "kenv.h"
#include "util.h"

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

/*
 * Whether path is the root of a filesystem of type magic (statfs(2)'s f_type:
 * PROC_SUPER_MAGIC, SYSFS_MAGIC of linux/magic.h). A chroot or a container built
 * without them has plain directories there, or none.
 */
static bool mounted(const char *path, unsigned long magic)
{
	struct statfs st;

	return !statfs(path, &st) && (unsigned long)st.f_type == magic;
}

/*
 * /proc and /sys not mounted, said before anything that reads them: without /proc the
 * seccomp mode (/proc/self/status), the PID namespace (/proc/self/ns/pid) and a
 * process tree (/proc/PID/task) cannot be read, without /sys the kernel's BTF
 * (/sys/kernel/btf/vmlinux), which would otherwise read as a kernel built without
 * CONFIG_DEBUG_INFO_BTF. Returns MG_EXIT_OK or MG_EXIT_ENV with one line printed.
 */
static int require_mounts(void)
{
	bool proc = mounted("/proc", PROC_SUPER_MAGIC), sys = mounted("/sys", SYSFS_MAGIC);

	if (proc && sys)
		return MG_EXIT_OK;
	return mg_err(MG_EXIT_ENV, "%s not mounted (a chroot or a container without %s): "
		      "mgtrace reads %s%s%s (%s%s%s)",
		      !proc && !sys ? "/proc and /sys are" : !proc ? "/proc is" : "/sys is",
		      !proc && !sys ? "them" : "it",
		      proc ? "" : "its process's state in /proc (/proc/self/status, "
		      "/proc/self/ns/pid, /proc/PID/task)", !proc && !sys ? " and " : "",
		      sys ? "" : "the kernel's BTF in /sys (/sys/kernel/btf/vmlinux)",
		      proc ? "" : "mount -t proc proc /proc", !proc && !sys ? "; " : "",
		      sys ? "" : "mount -t sysfs sysfs /sys");
}

int mg_env_require(const struct mg_kenv *env, bool need_mg)
{
	const char *why;
	int ret;

	if ((ret = require_mounts()))
		return ret;
	why = missing_bpf_caps();
	if (why[0])	/* root too: a container or a unit may have dropped them */
		return geteuid() ?
		       mg_err(MG_EXIT_ENV, "needs root, or CAP_BPF and CAP_PERFMON (or "
			      "CAP_SYS_ADMIN): this process lacks %s", why) :
		       mg_err(MG_EXIT_ENV, "needs %s (or CAP_SYS_ADMIN), dropped from this root "
			      "process's effective capabilities", why);
	if ((why = bpf_syscall_refused()))
		return mg_err(MG_EXIT_ENV, "%s", why);
	if (!env->btf && (env->btf_err == -ENOENT || !env->btf_err))
		return mg_err(MG_EXIT_ENV, "kernel %s has no BTF (/sys/kernel/btf/vmlinux): "
			      "CONFIG_DEBUG_INFO_BTF is required", env->release);
	if (!env->btf)	/* there, but not the kernel's BTF as libbpf reads it */
		return mg_err(MG_EXIT_ENV, "kernel %s: /sys/kernel/btf/vmlinux cannot be read as "
			      "BTF: %s", env->release, strerror(-env->btf_err));
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
