// SPDX-License-Identifier: GPL-2.0
/*
 * mgtrace.bpf.c - counting programs for multigrain timestamps.
 *
 * One object, three attach backends. User space (src/backend.c) enables one
 * set before load with bpf_program__set_autoload():
 *   fentry/fexit  fe_*   function probes through BPF trampolines
 *   kprobe        kp_*   function probes through kprobes
 *   tracepoints   tpb_*  tp_btf, or rtp_* raw_tp when tp_btf cannot load
 * The function probes are used with either tracepoint flavour; the tracepoint
 * backend alone attaches no function probe.
 *
 * Each handler's logic is written once (count_*) and the backends are thin
 * wrappers. Counting mode emits no per-event output: one per-CPU array slot
 * is incremented per event, without atomics or locks.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"

char LICENSE[] SEC("license") = "GPL";

/* One struct mg_bpf_counts per possible CPU; user space sums and diffs them. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mg_bpf_counts);
} counts SEC(".maps");

static __always_inline void count(enum mg_bpf_counter c)
{
	__u32 zero = 0;
	struct mg_bpf_counts *p = bpf_map_lookup_elem(&counts, &zero);

	if (p)
		p->v[c]++;
}

/* Mirrors is_mgtime(): the kernel counts mg_ctime_updates only on FS_MGTIME inodes. */
static __always_inline void count_set_ctime_current(struct inode *inode)
{
	int flags = BPF_CORE_READ(inode, i_sb, s_type, fs_flags);

	if (flags & MG_FS_MGTIME)
		count(MG_BPF_CTIME_UPDATES);
}

/* ---- fentry/fexit backend ---- */

SEC("fentry/inode_set_ctime_current")
int BPF_PROG(fe_set_ctime_current, struct inode *inode)
{
	count_set_ctime_current(inode);
	return 0;
}

SEC("fentry/ktime_get_real_ts64_mg")
int BPF_PROG(fe_real_mg)
{
	count(MG_BPF_FINE_STAMPS);
	return 0;
}

SEC("fentry/current_time")
int BPF_PROG(fe_current_time)
{
	count(MG_BPF_CURRENT_TIME);
	return 0;
}

SEC("fentry/ktime_get_coarse_real_ts64_mg")
int BPF_PROG(fe_coarse_mg)
{
	count(MG_BPF_COARSE_MG);
	return 0;
}

/* ---- kprobe backend ---- */

SEC("kprobe/inode_set_ctime_current")
int BPF_KPROBE(kp_set_ctime_current, struct inode *inode)
{
	count_set_ctime_current(inode);
	return 0;
}

SEC("kprobe/ktime_get_real_ts64_mg")
int BPF_KPROBE(kp_real_mg)
{
	count(MG_BPF_FINE_STAMPS);
	return 0;
}

SEC("kprobe/current_time")
int BPF_KPROBE(kp_current_time)
{
	count(MG_BPF_CURRENT_TIME);
	return 0;
}

SEC("kprobe/ktime_get_coarse_real_ts64_mg")
int BPF_KPROBE(kp_coarse_mg)
{
	count(MG_BPF_COARSE_MG);
	return 0;
}

/* ---- tracepoints: tp_btf (BTF-typed) and raw_tp (fallback) ---- */

SEC("tp_btf/ctime_ns_xchg")
int BPF_PROG(tpb_ctime_ns_xchg)
{
	count(MG_BPF_CTIME_SWAPS);
	return 0;
}

SEC("tp_btf/ctime_xchg_skip")
int BPF_PROG(tpb_ctime_xchg_skip)
{
	count(MG_BPF_CTIME_SKIPS);
	return 0;
}

SEC("tp_btf/fill_mg_cmtime")
int BPF_PROG(tpb_fill_mg_cmtime)
{
	count(MG_BPF_STAT_QUERIES);
	return 0;
}

SEC("tp_btf/inode_set_ctime_to_ts")
int BPF_PROG(tpb_set_ctime_to_ts)
{
	count(MG_BPF_CTIME_SETS);
	return 0;
}

SEC("raw_tp/ctime_ns_xchg")
int BPF_PROG(rtp_ctime_ns_xchg)
{
	count(MG_BPF_CTIME_SWAPS);
	return 0;
}

SEC("raw_tp/ctime_xchg_skip")
int BPF_PROG(rtp_ctime_xchg_skip)
{
	count(MG_BPF_CTIME_SKIPS);
	return 0;
}

SEC("raw_tp/fill_mg_cmtime")
int BPF_PROG(rtp_fill_mg_cmtime)
{
	count(MG_BPF_STAT_QUERIES);
	return 0;
}

SEC("raw_tp/inode_set_ctime_to_ts")
int BPF_PROG(rtp_set_ctime_to_ts)
{
	count(MG_BPF_CTIME_SETS);
	return 0;
}
