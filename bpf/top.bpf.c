// SPDX-License-Identifier: GPL-2.0
/*
 * top.bpf.c - `mgtrace top`: count multigrain work per process, comm, file,
 * cgroup or kernel stack (a stack map, --by stack only), in BPF hash maps, with
 * no per-event output.
 *
 * Two per-CPU hash maps (top_a, top_b) of the same shape; the single slot of
 * the array-of-maps top_cur says which one counts. Once per interval user
 * space points top_cur at the other map. The kernel's update of an
 * array-of-maps from a system call waits for an RCU grace period
 * (kernel/bpf/syscall.c, maybe_wait_bpf_programs()), and every program here
 * runs inside one RCU read-side section, so once the update returns no
 * program still holds the old map: user space reads and empties it whole, and
 * no event falls between two intervals or is counted twice.
 *
 * Each map holds two reserved entries that user space inserts before the map
 * counts: MG_TOPK_TOTAL (every event in scope) and MG_TOPK_UNATTR (events no
 * row could take: the map was full, or an allocation failed; top_errs counts which).
 * Per-CPU values: no atomics, no locks.
 *
 * What a row counts (enum mg_top_counter) is include/mg_vocab.def's MG_TOP_COUNTER;
 * the tracepoints counted here are those whose MG_TRACEPOINT has top 1 (src/top/top_bpf.c
 * makes its program table from it, and unit test top_opts fails on a program not there).
 *
 * Programs, chosen by user space per backend (bpf_program__set_autoload):
 *   tpb_* / rtp_*    timestamp:ctime_ns_xchg, ctime_xchg_skip, fill_mg_cmtime,
 *                    as tp_btf, or raw_tp when tp_btf cannot load
 *   fe_floor_*       fentry/fexit on ktime_get_real_ts64_mg: fine stamps and
 *                    floor swaps (as bpf/floor.bpf.c decides them: this CPU's
 *                    timekeeping_mg_floor_swaps moved by exactly one between
 *                    entry and exit on the same CPU; otherwise unknown)
 *   kp_floor_*       the same with kprobe/kretprobe
 *   kp_inode*        kprobe/kretprobe on inode_set_ctime_current (struct
 *                    return: no trampoline), with --by file only: the inode a
 *                    fine stamp is for
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"
#include "mg_common.bpf.h"

#define E2BIG 7

char LICENSE[] SEC("license") = "GPL";


const volatile __u32 by = MG_TOP_BY_PID;	/* enum mg_top_by */
const volatile __u32 filter_tgid = 0;		/* only this process (0: all) */
const volatile bool filter_tree = false;	/* only processes in traced_tgids */

/*
 * Not preallocated: a per-CPU element takes one value per possible CPU, so only the rows
 * in use cost memory (multigrain kernels, 6.13+, allocate in any program context).
 */
struct top_map {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, MG_TOP_ENTRIES_DEFAULT);	/* --max-entries + 2 reserved */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct mg_top_key);
	__type(value, struct mg_top_val);
};
struct top_map top_a SEC(".maps");
struct top_map top_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct top_map);
} top_cur SEC(".maps");

/*
 * Per-CPU, cumulative: [MG_TOPE_NO_MAP] events lost because top_cur or a reserved entry
 * was missing (never expected); [MG_TOPE_FULL] new rows refused because the map was full
 * (E2BIG); [MG_TOPE_OTHER] new rows refused for another reason (an allocation failed).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MG_TOPE_NR);
	__type(key, __u32);
	__type(value, __u64);
} top_errs SEC(".maps");

/* --by stack: the kernel stacks the rows name (max_entries 1 unless --by stack). */
MG_STACK_MAP(top_stacks, MG_TOP_STACKS);

/* Shared with bpf/follow.bpf.c (with filter_tree only). */
MG_TRACED_TGIDS_MAP;

/* ktime_get_real_ts64_mg in flight, by pid_tgid: CPU and its swap counter at entry. */
struct floor_entry {
	__u64 swaps;
	struct inode *inode;
	__u32 cpu;
};
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct floor_entry);
} top_inflight SEC(".maps");

/* --by file: the inode of the running inode_set_ctime_current, by pid_tgid. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, struct inode *);
} top_inode SEC(".maps");

static __always_inline void err_bump(__u32 slot)
{
	__u64 *p = bpf_map_lookup_elem(&top_errs, &slot);

	if (p)
		(*p)++;
}

static __always_inline void add(struct mg_top_val *v, __u32 bits)
{
	for (int i = 0; i < MG_TOP_NR; i++)
		if (bits & (1u << i))
			v->n[i]++;
}

/* This CPU's copy was never written: fill what a row shows besides counts. */
static __always_inline void fill_val(struct mg_top_val *v, __u32 tgid, struct inode *inode)
{
	v->tgid = tgid;
	bpf_get_current_comm(v->comm, sizeof(v->comm));
	if (by == MG_TOP_BY_FILE && inode)
		mg_inode_name(inode, v->name, sizeof(v->name), &v->name_len);
}

/* The row of key k in map m, created if absent; NULL when the map is full. */
static __always_inline struct mg_top_val *row(void *m, struct mg_top_key *k, __u32 tgid,
					      struct inode *inode)
{
	struct mg_top_val *v = bpf_map_lookup_elem(m, k), nv = {};
	long err;

	if (v)
		return v;
	fill_val(&nv, tgid, inode);
	err = bpf_map_update_elem(m, k, &nv, BPF_NOEXIST);	/* EEXIST: another CPU was first */
	v = bpf_map_lookup_elem(m, k);
	if (!v)
		err_bump(err == -E2BIG ? MG_TOPE_FULL : MG_TOPE_OTHER);
	return v;
}

/*
 * Count the events in bits (1 << enum mg_top_counter) for the current task and inode;
 * ctx: the program's context (--by stack takes the kernel stack from it).
 */
static __always_inline void top_add(void *ctx, struct inode *inode, __u32 bits)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, zero = 0, pid;
	struct mg_top_key k = {};
	struct mg_top_val *v;
	void *m;

	if (!mg_cpu_passes() || !MG_TGID_PASSES(&traced_tgids, filter_tree, filter_tgid, tgid))
		return;
	m = bpf_map_lookup_elem(&top_cur, &zero);
	if (!m)
		goto err;
	k.special = MG_TOPK_TOTAL;
	v = bpf_map_lookup_elem(m, &k);
	if (!v)
		goto err;
	add(v, bits);
	k.special = 0;
	/* rows show the caller's ids (0: a process outside mgtrace's PID namespace) */
	mg_shown_ids(id, &pid, &tgid);
	if (by == MG_TOP_BY_PID)
		k.tgid = tgid;
	else if (by == MG_TOP_BY_COMM)
		bpf_get_current_comm(k.comm, sizeof(k.comm));
	else if (by == MG_TOP_BY_CGROUP)
		k.cgroup = bpf_get_current_cgroup_id();
	else if (by == MG_TOP_BY_STACK)
		k.stack = bpf_get_stackid(ctx, &top_stacks, 0);
	else if (inode) {
		k.dev = BPF_CORE_READ(inode, i_sb, s_dev);
		k.ino = BPF_CORE_READ(inode, i_ino);
	}
	v = row(m, &k, tgid, inode);
	if (v) {
		if (!v->comm[0])
			fill_val(v, tgid, inode);
		else if (by == MG_TOP_BY_FILE && !v->name_len && inode)	/* created unnamed */
			mg_inode_name(inode, v->name, sizeof(v->name), &v->name_len);
		add(v, bits);
		return;
	}
	__builtin_memset(&k, 0, sizeof(k));
	k.special = MG_TOPK_UNATTR;
	v = bpf_map_lookup_elem(m, &k);
	if (v) {
		add(v, bits);
		return;
	}
err:
	err_bump(MG_TOPE_NO_MAP);
}

/* ---- tracepoints ---- */

static __always_inline void on_xchg(void *ctx, struct inode *inode, __u32 old)
{
	top_add(ctx, inode, 1u << MG_TOP_CTIME_SWAPS |
		       (old & MG_I_CTIME_QUERIED ? 1u << MG_TOP_QUERIED_SWAPS : 0));
}

SEC("tp_btf/ctime_ns_xchg")
int BPF_PROG(tpb_ctime_ns_xchg, struct inode *inode, __u32 old, __u32 new, __u32 cur)
{
	on_xchg(ctx, inode, old);
	return 0;
}

SEC("tp_btf/ctime_xchg_skip")
int BPF_PROG(tpb_ctime_xchg_skip, struct inode *inode)
{
	top_add(ctx, inode, 1u << MG_TOP_CTIME_SKIPS);
	return 0;
}

SEC("tp_btf/fill_mg_cmtime")
int BPF_PROG(tpb_fill_mg_cmtime, struct inode *inode)
{
	top_add(ctx, inode, 1u << MG_TOP_STAT_QUERIES);
	return 0;
}

SEC("raw_tp/ctime_ns_xchg")
int BPF_PROG(rtp_ctime_ns_xchg, struct inode *inode, __u32 old, __u32 new, __u32 cur)
{
	on_xchg(ctx, inode, old);
	return 0;
}

SEC("raw_tp/ctime_xchg_skip")
int BPF_PROG(rtp_ctime_xchg_skip, struct inode *inode)
{
	top_add(ctx, inode, 1u << MG_TOP_CTIME_SKIPS);
	return 0;
}

SEC("raw_tp/fill_mg_cmtime")
int BPF_PROG(rtp_fill_mg_cmtime, struct inode *inode)
{
	top_add(ctx, inode, 1u << MG_TOP_STAT_QUERIES);
	return 0;
}

/* ---- fine stamps and floor swaps (function probes) ---- */

static __always_inline void floor_entry(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;
	struct floor_entry e = {};
	struct inode **ip;

	if (!MG_TGID_PASSES(&traced_tgids, filter_tree, filter_tgid, tgid))
		return;
	if (by == MG_TOP_BY_FILE && (ip = bpf_map_lookup_elem(&top_inode, &id)))
		e.inode = *ip;
	e.cpu = bpf_get_smp_processor_id();
	e.swaps = mg_floor_swaps_here();
	bpf_map_update_elem(&top_inflight, &id, &e, BPF_ANY);
}

/* One fine stamp, counted at its return (so it and its outcome fall in one interval). */
static __always_inline void floor_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), swaps = mg_floor_swaps_here();
	__u32 cpu = bpf_get_smp_processor_id(), bits = 1u << MG_TOP_FINE_STAMPS;
	struct floor_entry *e = bpf_map_lookup_elem(&top_inflight, &id);

	if (!e)
		return;
	/* without the kernel's counter (CONFIG_DEBUG_FS=n) every outcome is unknown */
	if (!MG_FLOOR_SWAPS_KNOWN)
		bits |= 1u << MG_TOP_FLOOR_UNKNOWN;
	else if (cpu == e->cpu && swaps == e->swaps + 1)
		bits |= 1u << MG_TOP_FLOOR_SWAPS;
	else if (cpu != e->cpu || swaps != e->swaps)
		bits |= 1u << MG_TOP_FLOOR_UNKNOWN;
	top_add(ctx, e->inode, bits);
	bpf_map_delete_elem(&top_inflight, &id);
}

SEC("fentry/ktime_get_real_ts64_mg")
int BPF_PROG(fe_floor_entry)
{
	floor_entry();
	return 0;
}

SEC("fexit/ktime_get_real_ts64_mg")
int BPF_PROG(fe_floor_exit)
{
	floor_exit(ctx);
	return 0;
}

SEC("kprobe/ktime_get_real_ts64_mg")
int BPF_KPROBE(kp_floor_entry)
{
	floor_entry();
	return 0;
}

SEC("kretprobe/ktime_get_real_ts64_mg")
int BPF_KRETPROBE(kp_floor_exit)
{
	floor_exit(ctx);
	return 0;
}

SEC("kprobe/inode_set_ctime_current")
int BPF_KPROBE(kp_inode, struct inode *inode)
{
	__u64 id = bpf_get_current_pid_tgid();

	bpf_map_update_elem(&top_inode, &id, &inode, BPF_ANY);
	return 0;
}

SEC("kretprobe/inode_set_ctime_current")
int BPF_KRETPROBE(kp_inode_exit)
{
	__u64 id = bpf_get_current_pid_tgid();

	bpf_map_delete_elem(&top_inode, &id);
	return 0;
}
