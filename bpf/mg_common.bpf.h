/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_common.bpf.h - helpers shared by the event-emitting BPF objects
 * (mgtrace.bpf.c and floor.bpf.c). Each object defines its own rodata
 * filter_comm[16]; these helpers read it.
 */
#ifndef MG_COMMON_BPF_H
#define MG_COMMON_BPF_H

#include "mg_rules.h"	/* struct mg_rclock, struct mg_steprec, mg_rule_clock_*() */

/* True when no comm filter is set, or the current task's comm equals filter_comm. */
static __always_inline bool mg_comm_passes(const volatile char *filter)
{
	char comm[16];
	int i;

	if (!filter[0])
		return true;
	bpf_get_current_comm(comm, sizeof(comm));
	for (i = 0; i < 16; i++) {
		if (comm[i] != filter[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

/*
 * Copy the last path component of inode's first dentry alias into name ("" if
 * none), cut to len - 1 bytes; *full_len gets its real length (d_name.len, 0 if none).
 */
/* 7.2 made struct dentry's d_u union anonymous: d_alias is then found as a direct member. */
struct dentry___anon_du {
	struct hlist_node d_alias;
} __attribute__((preserve_access_index));

/*
 * struct inode's i_state, as user space found it in the kernel's BTF (src/util/interface.c
 * mg_kenv_probe_istate()): from 6.12 to 6.17 a u32 with the flags as macros (their values
 * are not in BTF), in 6.18 an enum inode_state_flags_t; from 6.19 on a struct
 * inode_state_flags wrapping an enum inode_state_flags_enum __state (read by the
 * kernel only through inode_state_read()). Its offset, size and the values of the
 * flags asked about come in as constants, not CO-RE relocations: a relocation of
 * a type one kernel lacks sends libbpf 1.1 through the module BTFs, which a loader
 * without CAP_SYS_ADMIN may not list (the whole load then fails), and a CO-RE
 * read of one layout does not relocate on the other. mgtrace once asked only for
 * 6.18's layout and judged no ctime set on any other kernel (issue 32).
 * istate_size 0: the layout is not known.
 */
const volatile __u32 istate_off = 0, istate_size = 0;
const volatile __u32 istate_i_new = 0, istate_i_freeing = 0, istate_i_clear = 0;

/* The state flags of one inode, with the values of the flags mgtrace asks about. */
struct mg_istate {
	__u32 state;				/* i_state (either layout) */
	__u32 i_new, i_freeing, i_clear;	/* I_NEW, I_FREEING, I_CLEAR in this kernel */
};

/*
 * Read inode's i_state into *s: with a direct load when btf (inode is BTF-typed, as
 * tp_btf gives it; btf a compile-time constant), else bpf_probe_read_kernel(). Returns
 * 0, or -1 when its layout is unknown or the read failed: the state is then unknown, and a caller must say so, never take it
 * for "no flag set".
 */
static __always_inline int mg_inode_state(struct inode *inode, struct mg_istate *s, bool btf)
{
	s->state = 0;
	if (istate_size != sizeof(s->state))
		return -1;
	if (btf)	/* a BTF-typed inode (tp_btf): a direct load, no bpf_probe_read_kernel */
		s->state = *(__u32 *)((char *)inode + istate_off);
	else if (bpf_probe_read_kernel(&s->state, sizeof(s->state), (char *)inode + istate_off))
		return -1;
	s->i_new = istate_i_new;
	s->i_freeing = istate_i_freeing;
	s->i_clear = istate_i_clear;
	return 0;
}

/*
 * Set by user space under lockdown=confidentiality, which takes bpf_probe_read_kernel
 * away (LOCKDOWN_BPF_READ_KERNEL): the names of inodes (a walk of dentry pointers)
 * are then not read, and a report names an inode by its identity alone. The branches
 * on it are pruned by the verifier, so no program holds the refused helper.
 */
const volatile bool no_kernel_reads = false;

/*
 * The inode's filesystem magic, inode->i_sb->s_magic (0x01021994 tmpfs, 0xEF53 ext4,
 * ...), read with bpf_probe_read_kernel (no BTF pointer walk for the verifier); 0 under
 * lockdown=confidentiality, which takes that helper away. A violation's record only.
 */
static __always_inline __u32 mg_inode_fs_magic(struct inode *inode)
{
	if (no_kernel_reads)
		return 0;
	return (__u32)BPF_CORE_READ(inode, i_sb, s_magic);
}

static __always_inline void mg_inode_name(struct inode *inode, char *name, int len,
					  unsigned int *full_len)
{
	struct hlist_node *alias;
	unsigned long off;

	name[0] = 0;
	*full_len = 0;
	if (no_kernel_reads)
		return;
	alias = BPF_CORE_READ(inode, i_dentry.first);
	if (alias) {
		struct dentry *d;

		if (bpf_core_field_exists(struct dentry, d_u))
			off = bpf_core_field_offset(struct dentry, d_u.d_alias);
		else
			off = bpf_core_field_offset(struct dentry___anon_du, d_alias);
		d = (struct dentry *)((char *)alias - off);

		bpf_probe_read_kernel_str(name, len, BPF_CORE_READ(d, d_name.name));
		*full_len = BPF_CORE_READ(d, d_name.len);
	}
}

/*
 * Submit flags: no consumer wakeup until the backlog passes wakeup_bytes (0:
 * always wake). Waking the consumer for every event costs the traced workload a
 * context switch per event; the consumer polls on a timer instead.
 */
static __always_inline __u64 mg_wakeup_flags(void *rb, __u64 wakeup_bytes)
{
	if (!wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(rb, BPF_RB_AVAIL_DATA) >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP :
									  BPF_RB_NO_WAKEUP;
}

/*
 * The realtime clock's bracket at an event whose clocks were read as t0 =
 * bpf_ktime_get_ns(), then tai = bpf_ktime_get_tai_ns(), kept per CPU in *c
 * (include/mg_rules.h mg_rule_clock_*): a second CLOCK_MONOTONIC read only when
 * those rules ask; a step found (the bracket disjoint from the last measured
 * one) is one struct mg_steprec in ring buffer rb (wb: mg_wakeup_flags()).
 * Returns 0 (no second read), 1 (measured, no step), 2 (a step, its record
 * sent) or -1 (a step, its record lost: rb full; the caller counts it).
 * bpf/mg_judge.bpf.h's events judged in BPF, and mgtrace.bpf.c's and
 * floor.bpf.c's event records for check judged in user space.
 */
static __always_inline int mg_clock_bracket(struct mg_rclock *c, __u64 t0, __u64 tai, void *rb,
					    __u64 wb)
{
	unsigned long long from = 0;
	long long dlo = 0, dhi = 0;
	struct mg_steprec *r;

	if (!mg_rule_clock_need_t1(c, t0, tai))
		return 0;
	if (!mg_rule_clock_measure(c, t0, tai, bpf_ktime_get_ns(), &from, &dlo, &dhi))
		return 1;
	r = bpf_ringbuf_reserve(rb, sizeof(*r), 0);
	if (!r)
		return -1;
	r->magic = MG_STEPREC_MAGIC;
	r->cpu = bpf_get_smp_processor_id();
	r->t0_ns = from;
	r->t1_ns = t0;
	r->delta_lo = dlo;
	r->delta_hi = dhi;
	bpf_ringbuf_submit(r, mg_wakeup_flags(rb, wb));
	return 2;
}

/*
 * An event record's clock bracket (mg_clock_bracket()) when the object's rodata
 * asks for it: check judged in user space, where the checker explains a
 * violation by a step only from such records and its own clock samples, never
 * from two events' offsets (their TAI read can come microseconds after the
 * monotonic one). clk: the object's per-CPU "event_clk". Returns false when a
 * step's record was lost.
 */
static __always_inline bool mg_event_clock(bool want, void *clk, const struct mg_event *e, void *rb,
					   __u64 wb)
{
	__u32 zero = 0;
	struct mg_rclock *c;

	if (!want || !(c = bpf_map_lookup_elem(clk, &zero)))
		return true;
	return mg_clock_bracket(c, e->ts_ns, e->tai_ns, rb, wb) >= 0;
}

/* Per CPU: the clock bracket of mg_event_clock() (one per object). */
#define MG_EVENT_CLK_MAP						\
	struct {							\
		__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);		\
		__uint(max_entries, 1);					\
		__type(key, __u32);					\
		__type(value, struct mg_rclock);			\
	} event_clk SEC(".maps")

/*
 * True when n is 0 (no inode filter) or (dev, ino) is one of the first n entries of
 * devs[]/inos[] (kernel dev_t inode->i_sb->s_dev, inode->i_ino; n <= MG_MAX_IDS).
 */
static __always_inline bool mg_ids_match(const volatile __u32 *devs, const volatile __u64 *inos,
					 __u32 n, __u32 dev, __u64 ino)
{
	int i;

	if (!n)
		return true;
	for (i = 0; i < MG_MAX_IDS; i++)
		if (i < n && devs[i] == dev && inos[i] == ino)
			return true;
	return false;
}

/*
 * -C CPUS (trace, top): only events on the CPUs of cpu_mask (bit cpu % 64 of word
 * cpu / 64); cpu_filter false: every CPU, and the verifier prunes the check. The
 * first filter of a program: one helper call and one load of .rodata.
 */
const volatile bool cpu_filter = false;
const volatile __u64 cpu_mask[MG_MAX_CPUS / 64] = {};

static __always_inline bool mg_cpu_passes(void)
{
	__u32 cpu;

	if (!cpu_filter)
		return true;
	cpu = bpf_get_smp_processor_id();
	if (cpu >= MG_MAX_CPUS)
		return false;
	return (cpu_mask[cpu / 64] >> (cpu % 64)) & 1;
}

/*
 * The process filter: with a traced_tgids map (filter_tree), one hash lookup of the
 * current tgid; else the single filter_tgid (0: every process passes).
 */
#define MG_TGID_PASSES(map, tree, tgid_filter, tgid)					\
	((tree) ? bpf_map_lookup_elem(map, &(tgid)) != NULL :				\
		  (!(tgid_filter) || (tgid) == (tgid_filter)))

/* The traced_tgids map each event object declares: user space shares one (bpf_map__reuse_fd). */
#define MG_TRACED_TGIDS_MAP						\
	struct {							\
		__uint(type, BPF_MAP_TYPE_HASH);			\
		__uint(max_entries, MG_MAX_TRACED);			\
		__type(key, __u32);					\
		__type(value, __u32);					\
	} traced_tgids SEC(".maps")

/*
 * One running inode_set_ctime_current() call, per task (key: pid_tgid), as
 * bpf/floor.bpf.c sees it: created at the call's entry, deleted at its return.
 * Written by floor.bpf.c only; mgtrace.bpf.c reads entry_ns from it for the
 * ctime tracepoint events (user space shares the map between the two objects
 * with bpf_map__reuse_fd, so it is empty unless the floor object is loaded).
 */
struct mg_set_ctime {
	struct inode *inode;		/* the call's argument */
	struct timespec64 *coarse_ts;	/* kprobe backend: ts of the coarse call in flight */
	__u64 entry_ns;			/* bpf_ktime_get_ns() at the call's entry */
	__s64 coarse_sec;		/* what ktime_get_coarse_real_ts64_mg() returned in *ts, */
	__s64 ctime_sec;		/* and i_ctime_sec / i_ctime_nsec (QUERIED kept) read */
	__u32 coarse_nsec;		/* as it returned: the state before the kernel's */
	__u32 ctime_nsec;		/* smp_load_acquire of i_ctime_nsec */
	__u32 coarse_exits;		/* coarse calls that returned within this call */
};

/*
 * A stack map NAME of ENTRIES kernel stacks of MG_STACK_FRAMES frames (bpf_get_stackid():
 * top --by stack, check judging in user space); user space sizes it to 1 entry where no
 * stack is asked for (a stack map is preallocated).
 */
#define MG_STACK_MAP(NAME, ENTRIES)					\
	struct {							\
		__uint(type, BPF_MAP_TYPE_STACK_TRACE);			\
		__uint(max_entries, ENTRIES);				\
		__uint(key_size, sizeof(__u32));			\
		__uint(value_size, MG_STACK_FRAMES * sizeof(__u64));	\
	} NAME SEC(".maps")

/* The set_ctime map, declared by floor.bpf.c and mgtrace.bpf.c (NO_PREALLOC: an
 * empty map costs no memory in counting mode). */
#define MG_SET_CTIME_MAP						\
	struct {							\
		__uint(type, BPF_MAP_TYPE_HASH);			\
		__uint(max_entries, 8192);				\
		__uint(map_flags, BPF_F_NO_PREALLOC);			\
		__type(key, __u64);					\
		__type(value, struct mg_set_ctime);			\
	} set_ctime SEC(".maps")

/*
 * mgtrace's PID namespace (nsfs device, new_encode_dev, and inode of
 * /proc/self/ns/pid), set by user space only when it is not the initial one
 * (src/util/pidns.c): the ids an event shows are then those mgtrace's caller sees.
 * The filters and maps keep the kernel's ids (user space turns its own into
 * them, src/util/pidns.c), which bpf_get_current_pid_tgid() gives.
 */
const volatile __u64 pidns_dev = 0, pidns_ino = 0;

/*
 * The ids the current task shows for id (bpf_get_current_pid_tgid()): its own in
 * the initial PID namespace, else those of mgtrace's namespace. Returns 0, or
 * MG_EVF_PID_OUTSIDE with both 0 for a task outside that namespace (its ids there
 * do not exist: never shown as if they were the caller's).
 */
static __always_inline __u32 mg_shown_ids(__u64 id, __u32 *pid, __u32 *tgid)
{
	struct bpf_pidns_info ns;

	*pid = (__u32)id;
	*tgid = id >> 32;
	if (!pidns_ino)
		return 0;
	if (bpf_get_ns_current_pid_tgid(pidns_dev, pidns_ino, &ns, sizeof(ns))) {
		*pid = 0;
		*tgid = 0;
		return MG_EVF_PID_OUTSIDE;
	}
	*pid = ns.pid;
	*tgid = ns.tgid;
	return 0;
}

/*
 * Fill what every event record shares: its times (CLOCK_MONOTONIC, then TAI:
 * their difference is the realtime offset at the event), kind, task (its ids as
 * mgtrace's caller sees them: mg_shown_ids()), CPU, the
 * inode's identity (dev, ino as the caller read them; inode may be NULL),
 * granularity and name, and, if want_entry, the entry time of the enclosing
 * inode_set_ctime_current() from set_ctime_map (0 if unknown or not wanted). The
 * kind-specific fields are zeroed: the caller sets them. The one place a
 * record is filled, for bpf/mgtrace.bpf.c and bpf/floor.bpf.c alike.
 */
static __always_inline void mg_event_fill(struct mg_event *e, enum mg_event_kind kind,
					  struct inode *inode, __u32 dev, __u64 ino, __u64 id,
					  void *set_ctime_map, bool want_entry, bool btf)
{
	struct mg_set_ctime *r;

	e->ts_ns = bpf_ktime_get_ns();
	e->tai_ns = bpf_ktime_get_tai_ns();
	e->kind = kind;
	e->dev = dev;
	e->ino = ino;
	e->inode_addr = (__u64)inode;
	e->flags = mg_shown_ids(id, &e->pid, &e->tgid);
	e->cpu = bpf_get_smp_processor_id();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->ctime_sec = 0;
	e->ctime_nsec = 0;
	e->mtime_sec = 0;
	e->mtime_nsec = 0;
	e->old_nsec = 0;
	e->cur_nsec = 0;
	e->floor_known = 0;
	e->floor_before = 0;
	e->floor_after = 0;
	e->entry_ns = 0;
	e->name[0] = 0;
	e->name_len = 0;
	e->stack_id = 0;
	if (!inode) {
		e->gen = 0;
		e->time_gran = 0;
		return;
	}
	/* btf: a BTF-typed inode (tp_btf), read by direct loads, which
	 * lockdown=confidentiality leaves (no bpf_probe_read_kernel) */
	e->gen = btf ? inode->i_generation : BPF_CORE_READ(inode, i_generation);
	e->time_gran = btf ? inode->i_sb->s_time_gran : BPF_CORE_READ(inode, i_sb, s_time_gran);
	if (want_entry) {
		r = bpf_map_lookup_elem(set_ctime_map, &id);
		if (r && r->inode == inode)
			e->entry_ns = r->entry_ns;
	}
	mg_inode_name(inode, e->name, sizeof(e->name), &e->name_len);
	if (!(btf ? inode->__i_nlink : BPF_CORE_READ(inode, __i_nlink)))
		e->flags |= MG_EVF_UNLINKED;
}

/*
 * This CPU's timekeeping_mg_floor_swaps (kernel/time/timekeeping.c, 6.13+; a
 * per-CPU unsigned long): floor swaps made on this CPU so far. Read by the
 * function probes around ktime_get_real_ts64_mg() (floor.bpf.c, top.bpf.c),
 * which tell a swap of their own by the count moving by one on their CPU.
 */
extern const unsigned long timekeeping_mg_floor_swaps __ksym __weak;

/*
 * The counter exists: it is defined only with CONFIG_DEBUG_FS. Without it (weak:
 * resolved to 0, and the branches on it pruned by the verifier) no probe can tell a
 * floor swap from a failed cmpxchg: both leave the caller a floor value.
 */
#define MG_FLOOR_SWAPS_KNOWN (&timekeeping_mg_floor_swaps != 0)

/* This CPU's count so far; 0 when the kernel has no such counter (MG_FLOOR_SWAPS_KNOWN). */
static __always_inline __u64 mg_floor_swaps_here(void)
{
	if (!MG_FLOOR_SWAPS_KNOWN)
		return 0;
	return *(const unsigned long *)bpf_this_cpu_ptr(&timekeeping_mg_floor_swaps);
}

#endif
