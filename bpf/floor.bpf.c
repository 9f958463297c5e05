// SPDX-License-Identifier: GPL-2.0
/*
 * floor.bpf.c - one event per fine-grained timestamp, saying whether it
 * swapped the multigrain floor, and whether the kernel needed to take it
 * (mgtrace trace and check, function-probe backends).
 *
 * ktime_get_real_ts64_mg() tries one cmpxchg of mg_floor and, on success,
 * increments this CPU's timekeeping_mg_floor_swaps. The entry probe records
 * the CPU, that CPU's counter and mg_floor; the exit probe compares: the same
 * CPU and a counter one higher is a swap, unchanged is a lost cmpxchg, and
 * anything else (migrated, or another swap on this CPU in between) is
 * reported as unknown, never guessed. mg_floor is a static variable, read
 * through a weak typeless ksym: floor_known says whether it resolved.
 *
 * The fine-stamp decision (fs/inode.c inode_set_ctime_current()): the kernel
 * calls ktime_get_coarse_real_ts64_mg(&now), truncates now to the superblock
 * (timestamp_truncate), loads cns = i_ctime_nsec, and takes a fine stamp only
 * if cns has I_CTIME_QUERIED and now <= (i_ctime_sec, cns & ~QUERIED). That
 * load lies between the coarse call's return and ktime_get_real_ts64_mg's
 * entry. The ctime is captured at both points (and the coarse now at the
 * first): if the two captures are identical, the kernel decided on that
 * state, and the event carries MG_EVF_FINE_NEEDED or MG_EVF_FINE_UNNEEDED.
 * If they differ (a getattr or another update came in between) or the call
 * was not seen whole, neither flag is set: undecided, never guessed.
 * Only an update that wrote back the identical sec, nsec and QUERIED bit
 * within that window (an explicit set, or a clock stepped back onto the same
 * value) could hide from this comparison.
 *
 * The cookie form of the floor API (u64 ktime_get_coarse_real_ts64_mg(ts),
 * ktime_get_real_ts64_mg(ts, cookie)) keeps ts as the first argument and the
 * same order of calls in inode_set_ctime_current, so the same probes apply.
 *
 * The per-CPU counter is a typed per-CPU ksym, so this object needs
 * CONFIG_KALLSYMS_ALL. Events go to the ring buffer of bpf/mgtrace.bpf.c
 * (user space shares the map, and the per-task map set_ctime), in the same
 * order as the tracepoint events.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"
#include "mg_common.bpf.h"
#include "mg_rules.h"

char LICENSE[] SEC("license") = "GPL";

extern const void mg_floor __ksym __weak;

const volatile __u32 filter_tgid = 0;
const volatile bool filter_tree = false;	/* only processes in traced_tgids */
const volatile __u32 filter_nids = 0;
const volatile __u32 filter_devs[MG_MAX_IDS] = {};
const volatile __u64 filter_inos[MG_MAX_IDS] = {};
const volatile char filter_comm[16] = {};
const volatile __u64 wakeup_bytes = 0;	/* wake the consumer only past this backlog */
/*
 * TEST HOOK ONLY (MGTRACE_TEST_INVERT_FINE=1 in mgtrace's environment): report
 * every decided fine stamp with the opposite decision, so that tests can show
 * that `mgtrace check` fails on unnecessary fine stamps. Never set otherwise.
 */
const volatile bool test_invert_fine = false;
/* check: judge each floor event here (mg_rule_floor), send only those that break an invariant */
const volatile bool judge = false;
/* check: each record's clock bracket, steps sent (mg_event_clock()) */
const volatile bool event_clock = false;
/*
 * check: the record of an event that breaks a floor invariant (mg_rule_floor(), the rule
 * user space and judge apply) carries its kernel stack: bpf_get_stackid() into ev_stacks,
 * taken on the violation path only, so that a run that finds nothing takes none.
 */
const volatile bool violation_stacks = false;

/* Shared with mgtrace.bpf.c's ev_stacks (bpf_map__reuse_fd): the session sizes it. */
MG_STACK_MAP(ev_stacks, MG_EV_STACKS);

/* Per CPU: the realtime clock's last bracket measured at an event (event_clock). */
MG_EVENT_CLK_MAP;

/* Shared with mgtrace.bpf.c's "events" (bpf_map__reuse_fd). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

/* Shared with bpf/follow.bpf.c's traced_tgids (used with filter_tree only). */
MG_TRACED_TGIDS_MAP;

/* Per task: the running inode_set_ctime_current call (shared between the two objects). */
MG_SET_CTIME_MAP;

/* Per-CPU: [0] events written, [1] events lost (ring buffer full), with the clock-step
 * records they found (event_clock). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} floor_counts SEC(".maps");

/* Per-CPU counts of the floor events judged here (judge). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mg_floor_judge_counts);
} floor_judge SEC(".maps");

struct entry {
	__u64 floor;
	__u64 swaps;
	struct timespec64 *ts;
	struct inode *inode;	/* of the enclosing inode_set_ctime_current, or NULL */
	__u32 cpu;
	__u32 flags;		/* MG_EVF_IN_SET_CTIME, MG_EVF_FINE_* */
};

/* In-flight calls of ktime_get_real_ts64_mg, by pid_tgid. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct entry);
} inflight SEC(".maps");

static __always_inline void bump(__u32 slot)
{
	__u64 *p = bpf_map_lookup_elem(&floor_counts, &slot);

	if (p)
		(*p)++;
}

static __always_inline __u64 floor_now(void)
{
	__u64 v = 0;

	if (&mg_floor)
		bpf_probe_read_kernel(&v, sizeof(v), &mg_floor);
	return v;
}

static __always_inline bool pass_filters(__u64 id)
{
	__u32 tgid = id >> 32;

	if (!mg_cpu_passes() || !MG_TGID_PASSES(&traced_tgids, filter_tree, filter_tgid, tgid))
		return false;
	return mg_comm_passes(filter_comm);
}

static __always_inline void on_set_ctime_entry(struct inode *inode)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct mg_set_ctime r = {};

	if (!pass_filters(id))
		return;
	r.inode = inode;
	r.entry_ns = bpf_ktime_get_ns();
	bpf_map_update_elem(&set_ctime, &id, &r, BPF_ANY);
}

static __always_inline void on_set_ctime_exit(void)
{
	__u64 id = bpf_get_current_pid_tgid();

	bpf_map_delete_elem(&set_ctime, &id);
}

/* kprobe backend: remember the coarse call's ts for the kretprobe (hot path: one lookup). */
static __always_inline void on_coarse_entry(struct timespec64 *ts)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct mg_set_ctime *r = bpf_map_lookup_elem(&set_ctime, &id);

	if (r)
		r->coarse_ts = ts;
}

/* The coarse call returned: capture its now and the inode's ctime (first capture). */
static __always_inline void on_coarse_exit(struct timespec64 *ts)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct mg_set_ctime *r = bpf_map_lookup_elem(&set_ctime, &id);
	struct inode *inode;

	if (!r)
		return;
	if (!ts)
		ts = r->coarse_ts;
	r->coarse_ts = NULL;
	if (!ts || r->coarse_exits++)
		return;		/* a second coarse call: coarse_exits != 1 leaves it undecided */
	r->coarse_sec = BPF_CORE_READ(ts, tv_sec);
	r->coarse_nsec = BPF_CORE_READ(ts, tv_nsec);
	inode = r->inode;
	r->ctime_sec = BPF_CORE_READ(inode, i_ctime_sec);
	r->ctime_nsec = BPF_CORE_READ(inode, i_ctime_nsec);
}

/* The kernel's decision on the state captured: MG_EVF_FINE_NEEDED or MG_EVF_FINE_UNNEEDED. */
static __always_inline __u32 fine_decision(const struct mg_set_ctime *r, struct inode *inode)
{
	struct super_block *sb = BPF_CORE_READ(inode, i_sb);
	bool needed = mg_fine_needed(r->coarse_sec, r->coarse_nsec, BPF_CORE_READ(sb, s_time_gran),
				     BPF_CORE_READ(sb, s_time_min), BPF_CORE_READ(sb, s_time_max),
				     r->ctime_sec, r->ctime_nsec);

	if (test_invert_fine)
		needed = !needed;
	return needed ? MG_EVF_FINE_NEEDED : MG_EVF_FINE_UNNEEDED;
}

static __always_inline void on_entry(struct timespec64 *ts)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct mg_set_ctime *r;
	struct entry e = {};

	if (!pass_filters(id))
		return;
	r = bpf_map_lookup_elem(&set_ctime, &id);
	if (r && r->inode) {
		struct inode *inode = r->inode;

		e.inode = inode;
		e.flags = MG_EVF_IN_SET_CTIME;
		/* second capture: identical to the first, or the event stays undecided */
		if (r->coarse_exits == 1 &&
		    BPF_CORE_READ(inode, i_ctime_nsec) == r->ctime_nsec &&
		    BPF_CORE_READ(inode, i_ctime_sec) == r->ctime_sec)
			e.flags |= fine_decision(r, inode);
	}
	e.cpu = bpf_get_smp_processor_id();
	e.swaps = mg_floor_swaps_here();
	e.floor = floor_now();
	e.ts = ts;
	bpf_map_update_elem(&inflight, &id, &e, BPF_ANY);
}

/*
 * judge: count the floor event kind with the outcome r of mg_rule_floor();
 * true when it breaks an invariant (then it is sent, flagged MG_EVF_JUDGED).
 */
static __always_inline bool judged_send(__u32 kind, __u64 before, __u64 after, __u32 flags)
{
	__u32 zero = 0, r = mg_rule_floor(&mg_floor != 0, before, after, flags);
	struct mg_floor_judge_counts *c = bpf_map_lookup_elem(&floor_judge, &zero);

	if (c) {
		if (kind >= MG_EV_FLOOR_SWAP && kind <= MG_EV_FLOOR_UNKNOWN)
			c->by_kind[kind - MG_EV_FLOOR_SWAP]++;
		c->floor_checked += !!(r & MG_RF_FLOOR_CHECKED);
		c->fine_decided += !!(r & MG_RF_FINE_DECIDED);
		c->fine_undecided += !(r & MG_RF_FINE_DECIDED);
		c->backward += !!(r & MG_RF_FLOOR_BACKWARD);
		c->unneeded += !!(r & MG_RF_FINE_UNNEEDED);
	}
	return r & (MG_RF_FLOOR_BACKWARD | MG_RF_FINE_UNNEEDED);
}

/* Whether the floor event breaks an invariant (mg_rule_floor()), for its stack only. */
static __always_inline bool floor_violates(__u64 before, __u64 after, __u32 flags)
{
	return mg_rule_floor(&mg_floor != 0, before, after, flags) &
	       (MG_RF_FLOOR_BACKWARD | MG_RF_FINE_UNNEEDED);
}

/*
 * ctx: the program's context, whose kernel stack a violation's record carries
 * (violation_stacks); judged here or in user space, the stack is asked only when the
 * event breaks an invariant.
 */
static __always_inline void on_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), swaps = mg_floor_swaps_here(), after;
	__u32 cpu = bpf_get_smp_processor_id(), kind = MG_EV_FLOOR_UNKNOWN, flags;
	struct inode *inode;
	struct timespec64 *ts;
	struct entry *en;
	struct mg_event *e;
	bool viol = false;
	__u32 dev = 0;
	__u64 ino = 0;

	en = bpf_map_lookup_elem(&inflight, &id);
	if (!en)
		return;
	inode = en->inode;
	if (inode) {
		dev = BPF_CORE_READ(inode, i_sb, s_dev);
		ino = BPF_CORE_READ(inode, i_ino);
	}
	/* -C: the event's CPU is its return's (a call that migrated is checked twice) */
	if (!mg_ids_match(filter_devs, filter_inos, filter_nids, dev, ino) || !mg_cpu_passes())
		goto out;
	/* without the kernel's counter (CONFIG_DEBUG_FS=n) every outcome stays unknown */
	if (MG_FLOOR_SWAPS_KNOWN && cpu == en->cpu && swaps == en->swaps + 1)
		kind = MG_EV_FLOOR_SWAP;
	else if (MG_FLOOR_SWAPS_KNOWN && cpu == en->cpu && swaps == en->swaps)
		kind = MG_EV_FLOOR_FAIL;
	after = floor_now();
	flags = en->flags;
	if (judge) {
		if (!judged_send(kind, en->floor, after, flags))
			goto out;
		flags |= MG_EVF_JUDGED;
		viol = true;
	} else if (violation_stacks) {
		viol = floor_violates(en->floor, after, flags);
	}
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		bump(1);
		goto out;
	}
	mg_event_fill(e, kind, inode, dev, ino, id, &set_ctime, true, false);
	e->cpu = cpu;
	ts = en->ts;	/* a local copy: CO-RE relocates kernel types only, not struct entry */
	e->ctime_sec = BPF_CORE_READ(ts, tv_sec);
	e->ctime_nsec = BPF_CORE_READ(ts, tv_nsec);
	e->flags |= flags;
	e->floor_known = &mg_floor != 0;
	e->floor_before = en->floor;
	e->floor_after = after;
	if (viol && violation_stacks) {
		long sid = bpf_get_stackid(ctx, &ev_stacks, 0);

		e->stack_id = sid < 0 ? (int)sid : (int)sid + 1;
	}
	if (!mg_event_clock(event_clock, &event_clk, e, &events, wakeup_bytes))
		bump(1);	/* a step's record: a lost record, as an event */
	bpf_ringbuf_submit(e, mg_wakeup_flags(&events, wakeup_bytes));
	bump(0);
out:
	bpf_map_delete_elem(&inflight, &id);
}

/* fentry/fexit: ktime_get_real_ts64_mg returns void, so trampolines take it. */
SEC("fentry/ktime_get_real_ts64_mg")
int BPF_PROG(fe_floor_entry, struct timespec64 *ts)
{
	on_entry(ts);
	return 0;
}

SEC("fexit/ktime_get_real_ts64_mg")
int BPF_PROG(fe_floor_exit, struct timespec64 *ts)
{
	on_exit(ctx);
	return 0;
}

/* fexit gives the argument ts; the cookie form's u64 return value is not needed. */
SEC("fexit/ktime_get_coarse_real_ts64_mg")
int BPF_PROG(fe_floor_coarse_exit, struct timespec64 *ts)
{
	on_coarse_exit(ts);
	return 0;
}

/* inode_set_ctime_current returns a struct: kprobe/kretprobe in both backends. */
SEC("kprobe/inode_set_ctime_current")
int BPF_KPROBE(kp_floor_inode, struct inode *inode)
{
	on_set_ctime_entry(inode);
	return 0;
}

SEC("kretprobe/inode_set_ctime_current")
int BPF_KRETPROBE(kp_floor_inode_exit)
{
	on_set_ctime_exit();
	return 0;
}

SEC("kprobe/ktime_get_coarse_real_ts64_mg")
int BPF_KPROBE(kp_floor_coarse_entry, struct timespec64 *ts)
{
	on_coarse_entry(ts);
	return 0;
}

SEC("kretprobe/ktime_get_coarse_real_ts64_mg")
int BPF_KRETPROBE(kp_floor_coarse_exit)
{
	on_coarse_exit(NULL);
	return 0;
}

SEC("kprobe/ktime_get_real_ts64_mg")
int BPF_KPROBE(kp_floor_entry, struct timespec64 *ts)
{
	on_entry(ts);
	return 0;
}

SEC("kretprobe/ktime_get_real_ts64_mg")
int BPF_KRETPROBE(kp_floor_exit)
{
	on_exit(ctx);
	return 0;
}
