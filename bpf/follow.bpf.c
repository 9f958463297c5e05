// SPDX-License-Identifier: GPL-2.0
/*
 * follow.bpf.c - keep the set of processes `mgtrace trace -- COMMAND` follows:
 * COMMAND and its descendants, as perf's inherit does.
 *
 * traced_tgids holds tgids. User space inserts COMMAND's pid before COMMAND is
 * released; these programs maintain the rest:
 *   sched_process_fork  (kernel_clone(): trace_sched_process_fork(current, p) runs
 *                        after copy_process() and before wake_up_new_task(), so the
 *                        child is in the map before it runs a single instruction):
 *                        a new process (not a thread: child tgid != parent tgid)
 *                        whose parent's tgid is in the map is added. "Parent" is
 *                        the forking task, also for CLONE_PARENT.
 *   sched_process_exit  (do_exit(): runs after atomic_dec_and_test(&signal->live)):
 *                        when signal->live is 0 the whole thread group is dead and
 *                        its tgid is removed, so a recycled pid is not traced. Read
 *                        from the task rather than the tracepoint's group_dead
 *                        argument, which kernels before 6.16 lack.
 * A full map is counted in not_followed (never silent): user space reports it.
 * mgtrace.bpf.c and floor.bpf.c look the current tgid up in the same map (shared
 * with bpf_map__reuse_fd): one hash lookup per event, only when following.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"
#include "mg_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

MG_TRACED_TGIDS_MAP;

struct mg_follow_counts follow_counts = {};

/*
 * btf: tp_btf, whose task pointers are BTF-typed: read with direct loads, which
 * need no bpf_probe_read_kernel (lockdown=confidentiality takes that away);
 * raw_tp reads them with CO-RE probe reads.
 */
static __always_inline void on_fork(struct task_struct *parent, struct task_struct *child,
				    bool btf)
{
	__u32 ptgid = btf ? parent->tgid : BPF_CORE_READ(parent, tgid);
	__u32 ctgid = btf ? child->tgid : BPF_CORE_READ(child, tgid);

	if (ptgid == ctgid || !bpf_map_lookup_elem(&traced_tgids, &ptgid))
		return;
	if (bpf_map_update_elem(&traced_tgids, &ctgid, &ptgid, BPF_ANY))
		__sync_fetch_and_add(&follow_counts.not_followed, 1);
	else
		__sync_fetch_and_add(&follow_counts.followed, 1);
}

static __always_inline void on_exit(struct task_struct *p, bool btf)
{
	__u32 tgid = btf ? p->tgid : BPF_CORE_READ(p, tgid);

	if ((btf ? p->signal->live.counter : BPF_CORE_READ(p, signal, live.counter)) != 0)
		return;		/* other threads of the group still run */
	if (!bpf_map_delete_elem(&traced_tgids, &tgid))
		__sync_fetch_and_add(&follow_counts.exited, 1);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(tpb_follow_fork, struct task_struct *parent, struct task_struct *child)
{
	on_fork(parent, child, true);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tpb_follow_exit, struct task_struct *p)
{
	on_exit(p, true);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(rtp_follow_fork, struct task_struct *parent, struct task_struct *child)
{
	on_fork(parent, child, false);
	return 0;
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(rtp_follow_exit, struct task_struct *p)
{
	on_exit(p, false);
	return 0;
}
