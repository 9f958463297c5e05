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
 * Where a task's tgid and its signal_struct's live count are: byte offsets user space
 * found in the kernel BTF (src/util/interface.c), in the one parse it makes. No CO-RE
 * relocation here, so libbpf loads the raw_tp programs without parsing the kernel BTF
 * (about 40 ms on 6.18); the tp_btf ones still make it find their attach points there.
 */
const volatile __u32 task_tgid_off = 0;		/* task_struct.tgid */
const volatile __u32 task_signal_off = 0;	/* task_struct.signal */
const volatile __u32 signal_live_off = 0;	/* signal_struct.live (atomic_t.counter) */

/*
 * btf: tp_btf, whose task pointers are BTF-typed: read with direct loads, which need
 * no bpf_probe_read_kernel (lockdown=confidentiality takes that away); raw_tp reads
 * them with probe reads. Both at the offsets above: the verifier checks a direct
 * load's offset (known: read-only data) against the kernel's own BTF.
 */
static __always_inline __u32 task_tgid(struct task_struct *p, bool btf)
{
	__u32 tgid = 0;

	if (btf)
		return *(__u32 *)((char *)p + task_tgid_off);
	bpf_probe_read_kernel(&tgid, sizeof(tgid), (char *)p + task_tgid_off);
	return tgid;
}

/* The live count of p's thread group (-1 where it cannot be read: not all gone). */
static __always_inline int task_live(struct task_struct *p, bool btf)
{
	struct signal_struct *sig = NULL;
	int live = -1;

	if (btf) {
		sig = *(struct signal_struct **)((char *)p + task_signal_off);
		return sig ? *(int *)((char *)sig + signal_live_off) : -1;
	}
	if (bpf_probe_read_kernel(&sig, sizeof(sig), (char *)p + task_signal_off) || !sig)
		return -1;
	bpf_probe_read_kernel(&live, sizeof(live), (char *)sig + signal_live_off);
	return live;
}

static __always_inline void on_fork(struct task_struct *parent, struct task_struct *child,
				    bool btf)
{
	__u32 ptgid = task_tgid(parent, btf);
	__u32 ctgid = task_tgid(child, btf);

	if (ptgid == ctgid || !bpf_map_lookup_elem(&traced_tgids, &ptgid))
		return;
	if (bpf_map_update_elem(&traced_tgids, &ctgid, &ptgid, BPF_ANY))
		__sync_fetch_and_add(&follow_counts.not_followed, 1);
	else
		__sync_fetch_and_add(&follow_counts.followed, 1);
}

static __always_inline void on_exit(struct task_struct *p, bool btf)
{
	__u32 tgid = task_tgid(p, btf);

	if (task_live(p, btf) != 0)
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
