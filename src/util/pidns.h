/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pidns.h - process ids across PID namespaces.
 *
 * BPF sees the kernel's ids (those of the initial PID namespace). When mgtrace
 * runs in a PID namespace of its own (a container, unshare -p), every id it gets
 * from getpid(), fork(), /proc or -p PID is that namespace's: they are turned into
 * the kernel's before they go into BPF (mg_pid_kernel(), bpf/pidns.bpf.c), and the
 * ids BPF reports back are the namespace's (mg_pidns_set(): the event programs
 * read them with bpf_get_ns_current_pid_tgid()).
 */
#ifndef MG_PIDNS_H
#define MG_PIDNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* PROC_PID_INIT_INO (include/linux/proc_ns.h): the initial PID namespace's inode. */
#define MG_PIDNS_INIT_INO 0xEFFFFFFCu

/*
 * mgtrace's PID namespace, from /proc/self/ns/pid: *dev (nsfs device, the kernel's
 * encoding new_encode_dev) and *ino. Returns 1 when it is not the initial one, 0 when
 * it is, or -errno (the namespace link unreadable: taken as initial by callers that
 * say so).
 */
int mg_pidns_self(uint64_t *dev, uint64_t *ino);

/*
 * The kernel's tgid and tid of the task vpid names in mgtrace's PID namespace
 * (either pointer may be NULL). In the initial namespace they are vpid itself.
 * Returns 0, -ESRCH when vpid names no task there, or another -errno with one line
 * in why (the translation program refused to load: kernels before 6.13 lack the
 * bpf_task_from_vpid kfunc).
 */
int mg_pid_kernel(pid_t vpid, uint32_t *tgid, uint32_t *tid, char *why, size_t len);

/*
 * Set a skeleton's pidns_dev and pidns_ino (bpf/mg_common.bpf.h) when mgtrace runs in
 * a PID namespace of its own, so that its events show the caller's ids.
 */
#define MG_PIDNS_RODATA(skel)							\
	do {									\
		uint64_t d_, i_;						\
										\
		if (mg_pidns_self(&d_, &i_) > 0) {				\
			(skel)->rodata->pidns_dev = d_;				\
			(skel)->rodata->pidns_ino = i_;				\
		}								\
	} while (0)

#endif
