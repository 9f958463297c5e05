/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mgtrace.h - definitions shared by the BPF programs (bpf/) and user space (src/).
 *
 * Keep this header free of libc and vmlinux.h types: it is included from both sides.
 */
#ifndef MGTRACE_H
#define MGTRACE_H

/* Bit 31 of inode->i_ctime_nsec: set by stat()/getattr, cleared by the next ctime update. */
#define MG_I_CTIME_QUERIED (1U << 31)

/* struct file_system_type::fs_flags bit of filesystems with multigrain timestamps (6.13+). */
#define MG_FS_MGTIME 64

/*
 * Counters kept by the BPF programs, one slot each in struct mg_bpf_counts.
 * All are event counts. The comment names the probe that increments the slot.
 */
enum mg_bpf_counter {
	MG_BPF_CTIME_UPDATES,	/* inode_set_ctime_current() on an FS_MGTIME inode (fentry/kprobe) */
	MG_BPF_FINE_STAMPS,	/* ktime_get_real_ts64_mg() calls (fentry/kprobe) */
	MG_BPF_CTIME_SWAPS,	/* tracepoint timestamp:ctime_ns_xchg */
	MG_BPF_CTIME_SKIPS,	/* tracepoint timestamp:ctime_xchg_skip */
	MG_BPF_STAT_QUERIES,	/* tracepoint timestamp:fill_mg_cmtime */
	MG_BPF_CTIME_SETS,	/* tracepoint timestamp:inode_set_ctime_to_ts */
	MG_BPF_CURRENT_TIME,	/* current_time() calls (--hot, fentry/kprobe) */
	MG_BPF_COARSE_MG,	/* ktime_get_coarse_real_ts64_mg() calls (--hot, fentry/kprobe) */
	MG_BPF_NR_COUNTERS,
};

/* Value of the single-entry BPF_MAP_TYPE_PERCPU_ARRAY "counts": one copy per possible CPU. */
struct mg_bpf_counts {
	unsigned long long v[MG_BPF_NR_COUNTERS];
};

/*
 * The kernel's own per-CPU multigrain counters, in the order of the debugfs file
 * multigrain_timestamps: mg_ctime_updates, mg_ctime_swaps, mg_fine_stamps (fs/inode.c),
 * timekeeping_mg_floor_swaps (kernel/time/timekeeping.c).
 */
enum mg_kernel_counter {
	MG_K_CTIME_UPDATES,
	MG_K_CTIME_SWAPS,
	MG_K_FINE_STAMPS,
	MG_K_FLOOR_SWAPS,
	MG_K_NR_COUNTERS,
};

/* Upper bound on possible CPUs the per-CPU ksym reader walks (bpf/kcounters.bpf.c). */
#define MG_MAX_CPUS 1024

#endif /* MGTRACE_H */
