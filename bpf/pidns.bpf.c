// SPDX-License-Identifier: GPL-2.0
/*
 * pidns.bpf.c - the kernel's (initial PID namespace's) ids of processes that
 * mgtrace names as its caller sees them.
 *
 * BPF programs see the ids of the initial PID namespace (bpf_get_current_pid_tgid,
 * task->tgid). In a PID namespace of its own (a container, unshare -p), mgtrace's
 * getpid(), fork()'s return, /proc and -p PID give that namespace's ids, which
 * match nothing there. pid_xlate is a syscall program user space runs with
 * BPF_PROG_TEST_RUN (src/util/pidns.c): it looks the vpid of its context up in the
 * running task's (mgtrace's) PID namespace with the kfunc bpf_task_from_vpid()
 * (6.13+, as is every multigrain kernel) and writes that task's kernel tgid and
 * pid, 0 when the vpid names no task there.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"

char LICENSE[] SEC("license") = "GPL";

extern struct task_struct *bpf_task_from_vpid(s32 vpid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

SEC("syscall")
int pid_xlate(struct mg_pid_xlate *x)
{
	struct task_struct *t = bpf_task_from_vpid((s32)x->vpid);

	x->tgid = 0;
	x->tid = 0;
	if (!t)
		return 0;
	x->tgid = t->tgid;
	x->tid = t->pid;
	bpf_task_release(t);
	return 0;
}
