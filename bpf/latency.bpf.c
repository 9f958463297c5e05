// SPDX-License-Identifier: GPL-2.0
/*
 * latency.bpf.c - time spent in ktime_get_real_ts64_mg() and
 * inode_set_ctime_current(), as log2 histograms in ns (mgtrace stat --latency).
 *
 * Entry/exit program pairs; user space (src/stat/latency.c) autoloads the pair
 * that matches the counting session's probe type for each function:
 *   fe_lat_* / fe_latx_*   fentry/fexit (BPF trampolines)
 *   kp_lat_* / kp_latr_*   kprobe/kretprobe
 * inode_set_ctime_current() returns struct timespec64 by value, which
 * trampolines refuse ("return type STRUCT is unsupported"), so mgtrace's
 * sessions probe it with kprobes; its fentry pair is kept for kernels where
 * that is not so.
 *
 * At entry the time (bpf_ktime_get_ns(), CLOCK_MONOTONIC) goes into the hash
 * map "start", keyed by thread and function (inode_set_ctime_current() calls
 * ktime_get_real_ts64_mg(), so both may be in flight on one thread). At exit
 * the delta in ns is added to the per-CPU histogram "hist" (slot i counts
 * deltas in [2^i, 2^(i+1)) ns, slot 0 also 0), with its count and sum, on the
 * CPU the call returned on; the entry is deleted. An exit with no entry (the
 * call began before attach, or the start map was full) counts as unmatched.
 * inode_set_ctime_current() calls on inodes without FS_MGTIME are counted in
 * non_mgtime and kept out of the histogram, so its count is comparable with
 * ctime_updates (mg_ctime_updates counts FS_MGTIME inodes only).
 *
 * Per-CPU slots are incremented without atomics, as in mgtrace.bpf.c. The
 * measured time includes the probes' own cost, and for inode_set_ctime_current
 * that of the nested ktime_get_real_ts64_mg() probes.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"

char LICENSE[] SEC("license") = "GPL";

/* Key of an in-flight call: thread (pid_tgid) and MG_LAT_* function index. */
struct start_key {
	__u64 id;
	__u32 fn;
	__u32 pad;
};

/* An in-flight call: entry time (ns, CLOCK_MONOTONIC); mg: inode has FS_MGTIME. */
struct start_val {
	__u64 ts;
	__u64 mg;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct start_key);
	__type(value, struct start_val);
} start SEC(".maps");

/* One struct mg_lat_cpu per possible CPU; user space diffs two readings. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mg_lat_cpu);
} hist SEC(".maps");

/* floor(log2(v)) for v > 0, 0 for v == 0 (as libbpf-tools' bits.bpf.h). */
static __always_inline __u64 log2_32(__u32 v)
{
	__u32 shift, r;

	r = (v > 0xFFFF) << 4; v >>= r;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline __u64 log2_64(__u64 v)
{
	__u32 hi = v >> 32;

	return hi ? log2_32(hi) + 32 : log2_32(v);
}

static __always_inline void lat_entry(__u32 fn, bool mg)
{
	struct start_key k = { .id = bpf_get_current_pid_tgid(), .fn = fn };
	struct start_val v = { .ts = bpf_ktime_get_ns(), .mg = mg };

	bpf_map_update_elem(&start, &k, &v, BPF_ANY);
}

static __always_inline void lat_exit(__u32 fn)
{
	__u64 now = bpf_ktime_get_ns(), d, slot, mg;
	struct start_key k = { .id = bpf_get_current_pid_tgid(), .fn = fn };
	struct start_val *v;
	struct mg_lat_cpu *h;
	__u32 zero = 0;

	h = bpf_map_lookup_elem(&hist, &zero);
	if (!h)
		return;
	v = bpf_map_lookup_elem(&start, &k);
	if (!v) {
		h->unmatched[fn]++;
		return;
	}
	d = now - v->ts;
	mg = v->mg;
	bpf_map_delete_elem(&start, &k);
	if (!mg) {
		h->non_mgtime[fn]++;
		return;
	}
	slot = log2_64(d);
	if (slot >= MG_LAT_SLOTS)
		slot = MG_LAT_SLOTS - 1;
	h->slot[fn][slot]++;
	h->count[fn]++;
	h->sum_ns[fn] += d;
}

/* Mirrors is_mgtime(), as count_set_ctime_current() in mgtrace.bpf.c. */
static __always_inline bool is_mgtime(struct inode *inode)
{
	return BPF_CORE_READ(inode, i_sb, s_type, fs_flags) & MG_FS_MGTIME;
}

/* ---- ktime_get_real_ts64_mg ---- */

SEC("fentry/ktime_get_real_ts64_mg")
int BPF_PROG(fe_lat_real_mg)
{
	lat_entry(MG_LAT_REAL_MG, true);
	return 0;
}

SEC("fexit/ktime_get_real_ts64_mg")
int BPF_PROG(fe_latx_real_mg)
{
	lat_exit(MG_LAT_REAL_MG);
	return 0;
}

SEC("kprobe/ktime_get_real_ts64_mg")
int BPF_KPROBE(kp_lat_real_mg)
{
	lat_entry(MG_LAT_REAL_MG, true);
	return 0;
}

SEC("kretprobe/ktime_get_real_ts64_mg")
int BPF_KRETPROBE(kp_latr_real_mg)
{
	lat_exit(MG_LAT_REAL_MG);
	return 0;
}

/* ---- inode_set_ctime_current ---- */

SEC("kprobe/inode_set_ctime_current")
int BPF_KPROBE(kp_lat_ctime, struct inode *inode)
{
	lat_entry(MG_LAT_CTIME, is_mgtime(inode));
	return 0;
}

SEC("kretprobe/inode_set_ctime_current")
int BPF_KRETPROBE(kp_latr_ctime)
{
	lat_exit(MG_LAT_CTIME);
	return 0;
}

SEC("fentry/inode_set_ctime_current")
int BPF_PROG(fe_lat_ctime, struct inode *inode)
{
	lat_entry(MG_LAT_CTIME, is_mgtime(inode));
	return 0;
}

SEC("fexit/inode_set_ctime_current")
int BPF_PROG(fe_latx_ctime)
{
	lat_exit(MG_LAT_CTIME);
	return 0;
}
