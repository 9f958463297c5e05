// SPDX-License-Identifier: GPL-2.0
/*
 * conform.bpf.c - `mgtrace conform`'s missing_update: the last ctime event of each
 * inode of one filesystem. Every update of a ctime fires one of three tracepoints
 * (fs/inode.c): timestamp:ctime_ns_xchg (a multigrain ctime swapped in),
 * timestamp:ctime_xchg_skip (the same value: nothing to swap) or
 * timestamp:inode_set_ctime_to_ts (a time given, or a filesystem that is not
 * multigrain). User space (src/conform/conform_judge.c) reads an inode's entry after
 * an operation: no event since the operation began is an update that never happened;
 * the ctime the last event left tells whether a violation check found was replaced by a
 * later ctime before the operation returned (transient).
 * raw_tp with CO-RE reads of the inode (i_sb->s_dev, i_ino).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* An inode: its number and its filesystem's kernel dev_t (as struct mg_event's). */
struct cf_key {
	__u64 ino;
	__u32 dev;
	__u32 pad;
};

/* The filesystem under test (kernel dev_t, inode->i_sb->s_dev), set before load. */
const volatile __u32 cf_dev = 0;

/* The last ctime event of each inode: bpf_ktime_get_ns() (CLOCK_MONOTONIC), the ctime
 * it left (seconds, nanoseconds without I_CTIME_QUERIED) and the events' count. A conform
 * run touches a few thousand inodes; LRU keeps the newest. */
struct cf_seen {
	__u64 last_ns;
	__s64 sec;
	__u64 nsec;
	__u64 events;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct cf_key);
	__type(value, struct cf_seen);
} cf_inodes SEC(".maps");

#define CF_QUERIED (1u << 31)	/* I_CTIME_QUERIED in i_ctime_nsec (include/linux/fs.h) */

/* inode's ctime is now (sec, nsec): its entry updated. */
static __always_inline void cf_event(struct inode *inode, __s64 sec, __u64 nsec)
{
	struct cf_key k = {};
	struct cf_seen *v, nv = {};

	k.dev = BPF_CORE_READ(inode, i_sb, s_dev);
	if (k.dev != cf_dev)
		return;
	k.ino = BPF_CORE_READ(inode, i_ino);
	v = bpf_map_lookup_elem(&cf_inodes, &k);
	if (v) {
		v->last_ns = bpf_ktime_get_ns();
		v->sec = sec;
		v->nsec = nsec;
		__sync_fetch_and_add(&v->events, 1);
		return;
	}
	nv.last_ns = bpf_ktime_get_ns();
	nv.sec = sec;
	nv.nsec = nsec;
	nv.events = 1;
	bpf_map_update_elem(&cf_inodes, &k, &nv, BPF_ANY);
}

/* fs/inode.c sets i_ctime_sec before the tracepoint; new is the nanoseconds swapped in */
SEC("raw_tp/ctime_ns_xchg")
int BPF_PROG(cf_ctime_ns_xchg, struct inode *inode, __u32 old, __u32 new)
{
	cf_event(inode, BPF_CORE_READ(inode, i_ctime_sec), new & ~CF_QUERIED);
	return 0;
}

SEC("raw_tp/ctime_xchg_skip")
int BPF_PROG(cf_ctime_xchg_skip, struct inode *inode, struct timespec64 *ctime)
{
	cf_event(inode, BPF_CORE_READ(ctime, tv_sec), BPF_CORE_READ(ctime, tv_nsec));
	return 0;
}

SEC("raw_tp/inode_set_ctime_to_ts")
int BPF_PROG(cf_set_ctime_to_ts, struct inode *inode, struct timespec64 *ctime)
{
	cf_event(inode, BPF_CORE_READ(ctime, tv_sec), BPF_CORE_READ(ctime, tv_nsec));
	return 0;
}
