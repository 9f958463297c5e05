// SPDX-License-Identifier: GPL-2.0
/*
 * mgtrace.bpf.c - counting programs for multigrain timestamps.
 *
 * One object, three attach backends. User space (src/util/backend.c) enables one
 * set before load with bpf_program__set_autoload():
 *   fentry/fexit  fe_*   function probes through BPF trampolines
 *   kprobe        kp_*   function probes through kprobes
 *   tracepoints   tpb_*  tp_btf, or rtp_* raw_tp when tp_btf cannot load
 * The function probes are used with either tracepoint flavour; the tracepoint
 * backend alone attaches no function probe.
 *
 * Each handler's logic is written once (count_*, on_*) and the backends are
 * thin wrappers. Counting mode emits no per-event output: one per-CPU array
 * slot is incremented per event, without atomics or locks. Event mode
 * (emit_events, a load-time constant, so counting mode carries none of its
 * code) also writes each tracepoint event to the ring buffer "events", after
 * the filters below; a full ring buffer is counted in MG_BPF_LOST. ctime swap
 * and skip events carry the entry time of their inode_set_ctime_current call
 * when bpf/floor.bpf.c is loaded beside this object (map set_ctime, shared).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"
#include "mg_common.bpf.h"

/*
 * COMMAND and its descendants (trace -- COMMAND, stat --tree, check --tree): filled by
 * bpf/follow.bpf.c, whose map user space shares; shrunk to one entry when unused.
 */
MG_TRACED_TGIDS_MAP;

/* check --tree: an inode enters the judging map only through an event of COMMAND's tree */
const volatile bool judge_tree = false;

/*
 * mg_judge.bpf.h's MG_JUDGE_MAY_ENTER for check --tree: true unless judge_tree is set
 * and the current process is outside traced_tgids (one hash lookup, made only for an
 * inode not in the map yet).
 */
static __always_inline bool judge_may_enter(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	return !judge_tree || bpf_map_lookup_elem(&traced_tgids, &tgid) != NULL;
}
#define MG_JUDGE_MAY_ENTER() judge_may_enter()

/* a violation judged here carries its event's kernel stack (bpf/mg_judge_report.bpf.h) */
#define MG_JUDGE_STACKS 1
#include "mg_judge.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* One struct mg_bpf_counts per possible CPU; user space sums and diffs them. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mg_bpf_counts);
} counts SEC(".maps");

/* Load-time configuration (rodata), set by user space before load. */
const volatile bool emit_events = false;	/* event mode */
const volatile __u32 event_mask = ~0U;		/* 1 << enum mg_event_kind to emit */
const volatile __u32 filter_tgid = 0;		/* only this process, if non-zero */
const volatile bool filter_tree = false;	/* only processes in traced_tgids (then
						 * filter_tgid is unused) */
const volatile __u32 filter_nids = 0;		/* only these (kernel dev_t, inode number) */
const volatile __u32 filter_devs[MG_MAX_IDS] = {};	/* pairs, if non-zero */
const volatile __u64 filter_inos[MG_MAX_IDS] = {};
const volatile char filter_comm[16] = {};	/* only this comm, if set */
const volatile __u64 wakeup_bytes = 0;		/* wake the consumer only past this backlog */
const volatile bool judge = false;		/* check: judge the ctime events here (tp_btf
						 * only: mg_judge.bpf.h), report violations only */
const volatile bool judge_entry_ns = false;	/* judge: a function probe (bpf/floor.bpf.c)
						 * fills set_ctime, so look up entry_ns */
const volatile bool event_clock = false;	/* event mode for check: each record's clock
						 * bracket, steps sent (mg_event_clock()) */
const volatile bool event_stacks = false;	/* event mode for check --judge user: each
						 * record's kernel stack into ev_stacks */

/* check --judge user: the events' kernel stacks (resized to 1 entry unless event_stacks). */
MG_STACK_MAP(ev_stacks, MG_EV_STACKS);

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);		/* resized by user space */
} events SEC(".maps");

/* Per task: the running inode_set_ctime_current call (shared between the two objects). */
MG_SET_CTIME_MAP;

/* Per CPU: the realtime clock's last bracket measured at an event (event_clock). */
MG_EVENT_CLK_MAP;

/*
 * Counting mode in process scope (stat -p PID, stat --tree): count only events of the
 * processes the filter passes (filter_tgid, or traced_tgids with filter_tree).
 */
const volatile bool count_scoped = false;

static __always_inline void count(enum mg_bpf_counter c)
{
	__u32 zero = 0;
	struct mg_bpf_counts *p;

	if (count_scoped) {
		__u32 tgid = bpf_get_current_pid_tgid() >> 32;

		if (!MG_TGID_PASSES(&traced_tgids, filter_tree, filter_tgid, tgid))
			return;
	}
	p = bpf_map_lookup_elem(&counts, &zero);

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

/*
 * A field of a kernel object: a direct BTF-typed load (CO-RE relocated, no
 * bpf_probe_read_kernel call) when btf, which only tp_btf programs may do, else
 * BPF_CORE_READ(...). btf must be a compile-time constant in an __always_inline
 * caller, so that a raw_tp program never contains the direct load.
 */
#define MG_READ(btf, direct, ...) ((btf) ? (direct) : BPF_CORE_READ(__VA_ARGS__))

/*
 * Event mode's filters (process, inode, comm): true when an event of inode
 * by task id passes; *dev and *ino get the inode's identity (read as MG_READ),
 * and *gran, unless NULL, its superblock's s_time_gran (ns). With btf, i_sb is
 * loaded once for both: the verifier looks each load of a pointer from a
 * BTF-typed one up in the kernel's BTF by name, four times, each a walk of all
 * its types (kernel/bpf/btf.c btf_nested_type_is_trusted(), about 0.5 ms on 6.18).
 */
static __always_inline bool passes(enum mg_event_kind kind, struct inode *inode, __u64 id,
				   __u32 *dev, __u64 *ino, unsigned int *gran, bool btf)
{
	__u32 tgid = id >> 32;
	struct super_block *sb;

	if (!(event_mask & (1U << kind)) || !mg_cpu_passes())
		return false;
	if (!MG_TGID_PASSES(&traced_tgids, filter_tree, filter_tgid, tgid))
		return false;
	if (btf) {
		sb = inode->i_sb;
		*dev = sb->s_dev;
		if (gran)
			*gran = sb->s_time_gran;
	} else {
		*dev = BPF_CORE_READ(inode, i_sb, s_dev);
		if (gran)
			*gran = BPF_CORE_READ(inode, i_sb, s_time_gran);
	}
	*ino = MG_READ(btf, inode->i_ino, inode, i_ino);
	if (!mg_ids_match(filter_devs, filter_inos, filter_nids, *dev, *ino))
		return false;
	return mg_comm_passes(filter_comm);
}

/*
 * The ctime an event reports: *ctime, or for ctime_ns_xchg (ctime NULL) the
 * swap's nanoseconds (new) with the inode's seconds (read as MG_READ). Returns
 * MG_EVF_SEC_UNSURE or 0.
 */
static __always_inline __u32 event_ctime(struct inode *inode, struct timespec64 *ctime, __u32 new,
					 long long *sec, unsigned int *nsec, bool btf)
{
	__u32 live;

	if (ctime) {
		*sec = MG_READ(btf, ctime->tv_sec, ctime, tv_sec);
		*nsec = MG_READ(btf, ctime->tv_nsec, ctime, tv_nsec) & ~MG_I_CTIME_QUERIED;
		return 0;
	}
	/*
	 * ctime_ns_xchg gives only the nanoseconds: this update stored
	 * i_ctime_sec just before the tracepoint, but another update may have
	 * swapped i_ctime_nsec and stored its own seconds since. Updates swap
	 * the nanoseconds before they store the seconds, so if i_ctime_nsec,
	 * read after i_ctime_sec, still holds this update's value (QUERIED
	 * aside), the seconds read are this update's. Otherwise they are
	 * flagged as unsure, not guessed.
	 */
	*sec = MG_READ(btf, inode->i_ctime_sec, inode, i_ctime_sec);
	live = MG_READ(btf, inode->i_ctime_nsec, inode, i_ctime_nsec);
	*nsec = new & ~MG_I_CTIME_QUERIED;
	return (live & ~MG_I_CTIME_QUERIED) != *nsec ? MG_EVF_SEC_UNSURE : 0;
}

/*
 * MG_EVF_INODE_SETUP for a ctime set (inode_set_ctime_to_ts) of an inode being set
 * up: i_state has I_NEW (iget: loaded from disk); MG_EVF_STATE_UNKNOWN when its
 * state cannot be read (no layout of i_state known in the kernel's BTF: the set is
 * then counted as undecided, never taken as judged). 0 otherwise. btf: a direct
 * load (tp_btf, which lockdown=confidentiality leaves), else a probe read.
 */
static __always_inline __u32 set_flags(struct inode *inode, bool btf)
{
	umode_t mode = btf ? inode->i_mode : BPF_CORE_READ(inode, i_mode);
	__u32 dir = (mode & 00170000) == 0040000 ? MG_EVF_DIR : 0;	/* S_ISDIR */
	struct mg_istate s;

	if (mg_inode_state(inode, &s, btf))
		return MG_EVF_STATE_UNKNOWN | dir;
	return (s.state & s.i_new ? MG_EVF_INODE_SETUP : 0) | dir;
}

/*
 * Event mode: reserve, fill and submit one record for inode. ctime/mtime may be
 * NULL (taken from the inode then). btf: the tp_btf programs, which read the
 * typed arguments by direct loads (lockdown=confidentiality takes
 * bpf_probe_read_kernel away); a constant in each program. Returns nothing: a
 * failed reservation is counted as lost, never dropped silently.
 */
static __always_inline void emit(void *ctx, enum mg_event_kind kind, struct inode *inode,
				 struct timespec64 *ctime, struct timespec64 *mtime,
				 __u32 old, __u32 new, __u32 cur, bool btf)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct mg_event *e;
	long long sec;
	unsigned int nsec;
	__u32 dev;
	__u64 ino;

	if (!passes(kind, inode, id, &dev, &ino, NULL, btf))
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count(MG_BPF_LOST);
		return;
	}
	/* only an update runs inside inode_set_ctime_current: no lookup for the others */
	mg_event_fill(e, kind, inode, dev, ino, id, &set_ctime,
		      kind == MG_EV_CTIME_SWAP || kind == MG_EV_CTIME_SKIP, btf);
	e->flags |= event_ctime(inode, ctime, new, &sec, &nsec, btf);
	if (kind == MG_EV_CTIME_SET)
		e->flags |= set_flags(inode, btf);
	e->ctime_sec = sec;
	e->ctime_nsec = nsec;
	if (mtime) {
		e->mtime_sec = MG_READ(btf, mtime->tv_sec, mtime, tv_sec);
		e->mtime_nsec = MG_READ(btf, mtime->tv_nsec, mtime, tv_nsec);
	}
	e->old_nsec = old;
	e->cur_nsec = cur;
	/* judged in user space: the stack of any event may be the one a violation needs */
	if (event_stacks) {
		long sid = bpf_get_stackid(ctx, &ev_stacks, 0);

		e->stack_id = sid < 0 ? (int)sid : (int)sid + 1;
	}
	if (!mg_event_clock(event_clock, &event_clk, e, &events, wakeup_bytes))
		count(MG_BPF_LOST);	/* a step's record: a lost record, as an event */
	bpf_ringbuf_submit(e, mg_wakeup_flags(&events, wakeup_bytes));
	count(MG_BPF_EVENTS);
}

/*
 * check, tp_btf: judge the event here (mg_judge.bpf.h) instead of emitting it.
 * The observation is filled as mg_event_fill() fills a record, with direct
 * BTF-typed loads; the ring buffer's fill is asked only when a record is written.
 * This runs on every write and every stat: each helper call here is measured
 * in bench/ (bpf_stats: ns per run of each program).
 */
static __always_inline void judge_event(void *ctx, enum mg_event_kind kind, struct inode *inode,
					struct timespec64 *ctime, __u32 old, __u32 new, __u32 cur)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct mg_judge_scratch *sc;
	struct mg_judge_counts *jc;
	struct mg_inode_key key;
	struct mg_set_ctime *r;
	unsigned int gran = 0;
	struct mg_rin *in;

	if (!passes(kind, inode, id, &key.dev, &key.ino, &gran, true) ||
	    !mg_judge_maps(kind, &sc, &jc))
		return;
	/* the address is known here (a tracepoint's inode is never NULL) */
	if (!mg_rule_has_identity(key.ino, true, kind)) {
		MG_JADD(jc->no_ino, 1);
		return;
	}
	key.gen = inode->i_generation;
	key.addr = (__u64)inode;
	in = &sc->in;
	in->o.kind = kind;
	if (pidns_ino) {	/* the ids mgtrace's caller sees (0: outside its namespace) */
		__u32 tgid;

		mg_shown_ids(id, &in->o.pid, &tgid);
	} else {
		in->o.pid = (__u32)id;
	}
	in->o.entry_ns = 0;
	/* set_ctime is filled only by bpf/floor.bpf.c's function probes */
	if (judge_entry_ns && (kind == MG_EV_CTIME_SWAP || kind == MG_EV_CTIME_SKIP)) {
		r = bpf_map_lookup_elem(&set_ctime, &id);
		if (r && r->inode == inode)
			in->o.entry_ns = r->entry_ns;
	}
	in->flags = event_ctime(inode, ctime, new, &in->o.sec, &in->o.nsec, true);
	if (kind == MG_EV_CTIME_SET)
		in->flags |= set_flags(inode, true);
	in->old_nsec = old;
	in->cur_nsec = cur;
	in->time_gran = gran;
	/* only a getattr can be judged without its clocks, task and CPU
	 * (mg_rule_needs_context), and a getattr or a skip without the lock when it
	 * changes nothing (mg_rule_is_quiet): mg_judge() reads them for those if the
	 * rules need them; kind is a constant in each program, so the others read them
	 * here, with no test */
	if (kind != MG_EV_STAT && kind != MG_EV_CTIME_SKIP)
		mg_judge_read_context(sc, jc, &events, wakeup_bytes);
	mg_judge(ctx, sc, jc, &key, inode, NULL, &events, wakeup_bytes,
		 kind == MG_EV_STAT || kind == MG_EV_CTIME_SKIP, judge_entry_ns);
}

/* tp_btf handlers judge in check (can_judge); raw_tp ones cannot take the lock. */
#define EVENT(can_judge, kind, inode, ctime, mtime, old, new, cur)			\
	do {										\
		if ((can_judge) && judge)						\
			judge_event(ctx, kind, inode, ctime, old, new, cur);		\
		else if (emit_events)							\
			emit(ctx, kind, inode, ctime, mtime, old, new, cur, can_judge);	\
	} while (0)

static __always_inline void on_ctime_ns_xchg(void *ctx, struct inode *inode, __u32 old, __u32 new,
					     __u32 cur, bool can_judge)
{
	count(MG_BPF_CTIME_SWAPS);
	EVENT(can_judge, MG_EV_CTIME_SWAP, inode, NULL, NULL, old, new, cur);
}

static __always_inline void on_ctime_xchg_skip(void *ctx, struct inode *inode, struct timespec64 *ctime,
					       bool can_judge)
{
	count(MG_BPF_CTIME_SKIPS);
	EVENT(can_judge, MG_EV_CTIME_SKIP, inode, ctime, NULL, 0, 0, 0);
}

static __always_inline void on_fill_mg_cmtime(void *ctx, struct inode *inode, struct timespec64 *ctime,
					      struct timespec64 *mtime, bool can_judge)
{
	count(MG_BPF_STAT_QUERIES);
	EVENT(can_judge, MG_EV_STAT, inode, ctime, mtime, 0, 0, 0);
}

/* old: i_ctime_nsec before the set (its tracepoint fires before the store), QUERIED kept. */
static __always_inline void on_set_ctime_to_ts(void *ctx, struct inode *inode, struct timespec64 *ctime,
					       bool can_judge)
{
	count(MG_BPF_CTIME_SETS);
	if ((can_judge && judge) || emit_events) {
		__u32 old = MG_READ(can_judge, inode->i_ctime_nsec, inode, i_ctime_nsec);

		EVENT(can_judge, MG_EV_CTIME_SET, inode, ctime, NULL, old, 0, 0);
	}
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
int BPF_PROG(tpb_ctime_ns_xchg, struct inode *inode, __u32 old, __u32 new, __u32 cur)
{
	on_ctime_ns_xchg(ctx, inode, old, new, cur, true);
	return 0;
}

SEC("tp_btf/ctime_xchg_skip")
int BPF_PROG(tpb_ctime_xchg_skip, struct inode *inode, struct timespec64 *ctime)
{
	on_ctime_xchg_skip(ctx, inode, ctime, true);
	return 0;
}

SEC("tp_btf/fill_mg_cmtime")
int BPF_PROG(tpb_fill_mg_cmtime, struct inode *inode, struct timespec64 *ctime,
	     struct timespec64 *mtime)
{
	on_fill_mg_cmtime(ctx, inode, ctime, mtime, true);
	return 0;
}

SEC("tp_btf/inode_set_ctime_to_ts")
int BPF_PROG(tpb_set_ctime_to_ts, struct inode *inode, struct timespec64 *ctime)
{
	on_set_ctime_to_ts(ctx, inode, ctime, true);
	return 0;
}

SEC("raw_tp/ctime_ns_xchg")
int BPF_PROG(rtp_ctime_ns_xchg, struct inode *inode, __u32 old, __u32 new, __u32 cur)
{
	on_ctime_ns_xchg(ctx, inode, old, new, cur, false);
	return 0;
}

SEC("raw_tp/ctime_xchg_skip")
int BPF_PROG(rtp_ctime_xchg_skip, struct inode *inode, struct timespec64 *ctime)
{
	on_ctime_xchg_skip(ctx, inode, ctime, false);
	return 0;
}

SEC("raw_tp/fill_mg_cmtime")
int BPF_PROG(rtp_fill_mg_cmtime, struct inode *inode, struct timespec64 *ctime,
	     struct timespec64 *mtime)
{
	on_fill_mg_cmtime(ctx, inode, ctime, mtime, false);
	return 0;
}

SEC("raw_tp/inode_set_ctime_to_ts")
int BPF_PROG(rtp_set_ctime_to_ts, struct inode *inode, struct timespec64 *ctime)
{
	on_set_ctime_to_ts(ctx, inode, ctime, false);
	return 0;
}

/* check, judged in BPF: the syscall programs of the passes over the per-inode maps (last,
 * so that the object keeps its programs in the order it had) */
#include "mg_inodegc.bpf.h"
