/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kenv.h - facts about the running kernel that decide what mgtrace can do:
 * BTF, lockdown, the multigrain API, tracepoints, debugfs and the kernel's
 * own counters. Nothing here attaches a probe; see backend.h for that.
 */
#ifndef MG_KENV_H
#define MG_KENV_H

#include <stdbool.h>
#include <string.h>
#include <stdint.h>
#include "mgtrace.h"
#include "knames.h"
#include "interface.h"

#define MG_DEBUGFS_DIR  "/sys/kernel/debug"
#define MG_DEBUGFS_FILE MG_DEBUGFS_DIR "/multigrain_timestamps"

/* Which form of the floor API the kernel's BTF shows. */
enum mg_api {
	MG_API_NONE,		/* no ktime_get_real_ts64_mg: no multigrain timestamps */
	MG_API_MAINLINE,	/* ktime_get_real_ts64_mg(struct timespec64 *ts), 6.13+ */
	MG_API_COOKIE,		/* earlier form ktime_get_real_ts64_mg(ts, cookie) */
	MG_API_UNKNOWN,		/* the function exists with another prototype */
};


/* Snapshot of the environment, filled by mg_kenv_probe(). */
struct mg_kenv {
	char release[128];		/* uname -r */
	bool btf;			/* /sys/kernel/btf/vmlinux readable and parsed */
	int btf_err;			/* else why: -ENOENT no such file (no
					 * CONFIG_DEBUG_INFO_BTF), or the -errno of its open or
					 * parse */
	char lockdown[64];		/* "none", "integrity", "confidentiality", or "unknown (...)" */
	enum mg_api api;
	bool func_in_btf[MG_NR_FUNCS];	/* per enum mg_func: the function is in kernel BTF */
	int func_btf_id[MG_NR_FUNCS];	/* its BTF id there (0: absent) */
	bool func_ret_struct[MG_NR_FUNCS];	/* returns a struct by value (struct timespec64):
					 * BPF trampolines refuse such functions */
	bool tp_in_btf[MG_NR_TPS];	/* btf_trace_<tp> typedef present */
	bool res_spin_lock;		/* kfunc bpf_res_spin_lock in kernel BTF (6.15+): check can
					 * judge in BPF (bpf/mg_judge.bpf.h) */
	bool ksym_in_btf[MG_K_NR_COUNTERS]; /* per-CPU VAR present in BTF */
	bool kallsyms_all;		/* data symbols listed in /proc/kallsyms (only once
					 * mg_kenv_probe_kallsyms() ran: kallsyms_known) */
	bool kallsyms_known;		/* kallsyms_all was probed */
	/* The interface the BPF programs read, as BTF shows it; see mg_interface_problem(). */
	struct mg_interface iface;
	int debugfs;			/* 0 ok, -ENODEV not mounted, -ENOENT file missing, -EPROTO
					 * not the kernel's file or format, other -errno */
};

/*
 * lockdown=confidentiality (LOCKDOWN_BPF_READ_KERNEL): BPF may not read kernel memory
 * with bpf_probe_read_kernel; only direct loads of BTF-typed pointers (tp_btf, fentry).
 */
#define MG_NO_KERNEL_READS(env) (!strcmp((env)->lockdown, "confidentiality"))


/*
 * Fill *env. Never fails; unavailable facts are recorded as such. Parses the kernel
 * BTF once (mg_vmlinux_btf()); does not read /proc/kallsyms (mg_kenv_probe_kallsyms()).
 */
void mg_kenv_probe(struct mg_kenv *env);

/*
 * Read /proc/kallsyms (about 120k lines: tens of ms) once to fill env->kallsyms_all,
 * and return it. Only the callers that need it pay for it.
 */
bool mg_kenv_probe_kallsyms(struct mg_kenv *env);

/* CONFIG_KALLSYMS_ALL, as /proc/kallsyms shows it: read on the first call only. */
bool mg_kallsyms_all(void);

/*
 * The running kernel's BTF (/sys/kernel/btf/vmlinux), parsed on first use and kept
 * for the process, or NULL when it cannot be parsed. Owned here: do not free.
 */
struct btf;
struct btf *mg_vmlinux_btf(void);

/*
 * Release the cached BTF (its memory is only needed while programs are set up): kept,
 * not freed, for the next object libbpf loads (btf__load_vmlinux_btf(), kenv.c, takes it
 * instead of parsing the file again), or for mg_vmlinux_btf() if it is asked for first.
 */
void mg_vmlinux_btf_release(void);

/* Free the released parse if no load took it (its memory not held for the run). */
void mg_vmlinux_btf_free_spare(void);

/*
 * Lend one parse of the kernel BTF to every libbpf load until the matching
 * mg_vmlinux_btf_lend_end(): each btf__load_vmlinux_btf() returns the same parse (the
 * released one, else the first libbpf makes), and btf__free() leaves it alone, so that
 * objects loaded one after another or at once (parload.c) share one parse. The end
 * frees it. Nests; thread-safe.
 */
void mg_vmlinux_btf_lend_begin(void);
void mg_vmlinux_btf_lend_end(void);

/* True when the kernel has multigrain timestamps (API or tracepoints in BTF). */
static inline bool mg_kenv_multigrain(const struct mg_kenv *env)
{
	return env->api != MG_API_NONE || env->tp_in_btf[0];
}

/* Human name of an API form. */
const char *mg_api_name(enum mg_api api);

/*
 * One line naming what changed in an interface the BPF programs rely on (a
 * tracepoint's arguments, inode.i_ctime_nsec no longer a u32), or NULL when BTF shows
 * what mgtrace expects. I_CTIME_QUERIED (bit 31) and FS_MGTIME (64) are macros, not
 * in BTF: the VM stage checks them through exact counts (ctime_updates counts only
 * FS_MGTIME inodes and must equal the kernel's counter).
 */
const char *mg_interface_problem(const struct mg_kenv *env);

/* One-line explanation of env->debugfs, or NULL when it is usable. */
const char *mg_debugfs_problem(const struct mg_kenv *env);

/*
 * Read the debugfs multigrain_timestamps line into out[enum mg_kernel_counter]
 * (ctime_updates ctime_swaps fine_stamps floor_swaps, totals over all CPUs).
 * Returns 0, -ENODEV (debugfs not mounted), -ENOENT (no such file: kernel lacks
 * multigrain or CONFIG_DEBUG_FS), -EPROTO (not debugfs's file, or not the kernel's format:
 * mg_debugfs_why() says which, never zeros in out) or -errno. The file
 * stays open (close-on-exec) after the first successful open, and is reopened after
 * a failed read. Not thread-safe.
 */
int mg_debugfs_read(uint64_t out[MG_K_NR_COUNTERS]);

/*
 * Parse len bytes of buf as the kernel's multigrain_timestamps (fs/inode.c, mgts_show():
 * "%lu %lu %lu %lu\n": ctime_updates ctime_swaps fine_stamps floor_swaps) into
 * out[enum mg_kernel_counter]: exactly one line of four decimal counts, one space between
 * them. Returns 0, or -EPROTO with why (whylen bytes) naming what is not the kernel's:
 * empty, a field that is not a count, fewer or more than four, text after them, no end of
 * line, more than one line.
 */
int mg_debugfs_parse(const char *buf, size_t len, uint64_t out[MG_K_NR_COUNTERS], char *why,
		     size_t whylen);

/*
 * The text of an error of mg_debugfs_read() or mg_debugfs_probe(): for -EPROTO why the
 * file is not the kernel's ("...: a file of tmpfs (f_type 0x1021994) is mounted over it",
 * "...: line 1 has 3 counts, not the kernel's four ..."), else the errno's. Static storage.
 */
const char *mg_debugfs_why(int err);

/*
 * `sym` in /proc/kallsyms: 1 listed with its address, 0 not listed, -EPERM listed
 * with its address hidden (zeros: no CAP_SYSLOG under kptr_restrict), -errno when
 * the file cannot be read.
 */
int mg_kallsyms_lookup(const char *sym);
/*
 * Why /proc/kallsyms shows this process zeros for addresses, one clause naming
 * kernel.kptr_restrict's value and who may see them then (kallsyms_show_value()).
 * A static string.
 */
const char *mg_kallsyms_hidden_why(void);
/* True if `sym` is listed in /proc/kallsyms with a non-zero address. */
bool mg_kallsyms_has(const char *sym);
/*
 * Why `sym`'s address cannot be had from /proc/kallsyms, one clause ("X is not in
 * /proc/kallsyms", "X's address is hidden ..."), or NULL when it can. data: a data
 * symbol (names CONFIG_KALLSYMS_ALL). The string lives until the fourth next call.
 */
const char *mg_kallsyms_problem(const char *sym, bool data);

#endif

/*
 * Check what every probing command needs and print one line on stderr when it
 * is missing: /proc and /sys mounted, CAP_BPF+CAP_PERFMON (or root), bpf() not
 * refused by seccomp or a security module, kernel BTF, and, if need_mg,
 * multigrain timestamps and a readable debugfs counters file.
 * Returns MG_EXIT_OK or MG_EXIT_ENV.
 */
int mg_env_require(const struct mg_kenv *env, bool need_mg);
