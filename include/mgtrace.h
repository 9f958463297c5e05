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
	MG_BPF_EVENTS,		/* events written to the ring buffer (event mode) */
	MG_BPF_LOST,		/* events lost: ring buffer full (event mode); with
				 * event_clock also the clock-step records they found */
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

/*
 * The kernel functions mgtrace probes (fentry/fexit or kprobe/kretprobe). Indexes
 * mg_func_names[] and mg_kenv's per-function facts (src/util/kenv.h), mg_session::func_probe[]
 * and the per-function program tables of src/util/backend.c, src/stat/latency.c and src/util/floor.c.
 */
enum mg_func {
	MG_FN_SET_CTIME_CURRENT,	/* inode_set_ctime_current() (fs/inode.c): a ctime update */
	MG_FN_REAL_MG,			/* ktime_get_real_ts64_mg(): a fine-grained stamp */
	MG_FN_NR_BASE,			/* the functions above are always probed, those below
					 * only with --hot (called on every timestamp) */
	MG_FN_CURRENT_TIME = MG_FN_NR_BASE,	/* current_time() (fs/inode.c) */
	MG_FN_COARSE_MG,		/* ktime_get_coarse_real_ts64_mg(): a coarse-grained stamp */
	MG_NR_FUNCS,
};

/*
 * Kinds of struct mg_event; also bits of the event_mask filter (1 << kind).
 * Defined in include/mg_vocab.def (MG_KIND): CTIME_SWAP (timestamp:ctime_ns_xchg:
 * ctime = new value; old/cur carry QUERIED), CTIME_SKIP (ctime_xchg_skip: ctime
 * unchanged), STAT (fill_mg_cmtime: ctime/mtime reported to getattr), CTIME_SET
 * (inode_set_ctime_to_ts: explicit ctime), FLOOR_SWAP/FLOOR_FAIL/FLOOR_UNKNOWN
 * (ktime_get_real_ts64_mg swapped mg_floor, lost the cmpxchg, outcome unknown:
 * bpf/floor.bpf.c).
 */
enum mg_event_kind {
#define MG_KIND(ID, name, alias, help) MG_EV_##ID,
#include "mg_vocab.def"
	MG_EV_NR_KINDS,
};

/* The timestamp:* tracepoints (include/mg_vocab.def, MG_TRACEPOINT); bits of tp_mask. */
enum mg_tp {
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in, top) MG_TP_##ID,
#include "mg_vocab.def"
	MG_NR_TPS,
};

/* struct mg_event::flags */
#define MG_EVF_SEC_UNSURE	(1U << 0)	/* MG_EV_CTIME_SWAP: i_ctime_sec was read after another
						 * update had swapped i_ctime_nsec: the seconds may be
						 * that update's, not this one's */
#define MG_EVF_FINE_NEEDED	(1U << 1)	/* MG_EV_FLOOR_*: the kernel's condition for a fine
						 * stamp held in the state it decided on */
#define MG_EVF_FINE_UNNEEDED	(1U << 2)	/* MG_EV_FLOOR_*: it did not: an unnecessary fine stamp */
#define MG_EVF_IN_SET_CTIME	(1U << 3)	/* MG_EV_FLOOR_*: inside inode_set_ctime_current */
#define MG_EVF_JUDGED		(1U << 4)	/* MG_EV_FLOOR_*: judged in BPF and counted there
						 * (struct mg_floor_judge_counts): sent because it
						 * breaks a floor invariant */
#define MG_EVF_INODE_SETUP	(1U << 5)	/* MG_EV_CTIME_SET: the inode is being set up (i_state
						 * I_NEW: loaded from disk, initialised): the set is not
						 * a change after a query (include/mg_rules.h) */
#define MG_EVF_UNLINKED		(1U << 6)	/* the inode had no link left at the event (i_nlink 0:
						 * unlinked while open, or an O_TMPFILE not yet
						 * linked): its name is the one it had, as the
						 * "(deleted)" of /proc/PID/fd */
#define MG_EVF_PID_OUTSIDE	(1U << 8)	/* the task is outside mgtrace's PID namespace:
						 * pid and tgid are 0, its ids there unknown
						 * (bpf/mg_common.bpf.h mg_shown_ids()) */
#define MG_EVF_DIR		(1U << 9)	/* MG_EV_CTIME_SET: the inode is a directory
						 * (S_ISDIR(inode->i_mode)), as when a link or an
						 * unlink copies the child's time onto it (fs/libfs.c
						 * simple_link, __simple_unlink) */
#define MG_EVF_STATE_UNKNOWN	(1U << 7)	/* MG_EV_CTIME_SET: i_state could not be read (its
						 * layout is not in the kernel's BTF, or the read
						 * failed): whether the inode is being set up is
						 * unknown, and a set after a query is undecided
						 * (MG_B_SET_UNDECIDED), never judged nor passed */

/*
 * The kernel's condition for a fine-grained stamp (fs/inode.c
 * inode_set_ctime_current()), on one consistent state: the coarse time the
 * kernel read (now_sec, now_nsec), truncated as timestamp_truncate() does with
 * the superblock's s_time_gran, s_time_min and s_time_max, is not later than
 * the ctime (ctime_sec, raw i_ctime_nsec), and that ctime has I_CTIME_QUERIED.
 * Returns 1 when a fine stamp is needed, 0 when not. Used by bpf/floor.bpf.c
 * and unit-tested in tests/unit/test_fine.c.
 */
static inline int mg_fine_needed(long long now_sec, unsigned int now_nsec, unsigned int gran,
				 long long time_min, long long time_max, long long ctime_sec,
				 unsigned int ctime_nsec_raw)
{
	unsigned int cnsec = ctime_nsec_raw & ~MG_I_CTIME_QUERIED;

	/* timestamp_truncate() */
	if (now_sec < time_min)
		now_sec = time_min;
	if (now_sec > time_max)
		now_sec = time_max;
	if (now_sec == time_max || now_sec == time_min)
		now_nsec = 0;
	if (gran == 1000000000)
		now_nsec = 0;
	else if (gran > 1 && gran < 1000000000)
		now_nsec -= now_nsec % gran;
	/* cns & I_CTIME_QUERIED && timespec64_compare(&now, &ctime) <= 0 */
	return (ctime_nsec_raw & MG_I_CTIME_QUERIED) &&
	       (now_sec < ctime_sec || (now_sec == ctime_sec && now_nsec <= cnsec));
}

/* Bytes of struct mg_event::name: a longer name is cut to MG_NAME_LEN - 1 bytes (name_len tells). */
#define MG_NAME_LEN 32

/*
 * Frames of the kernel stack a violation keeps (bpf_get_stack() at the event that broke
 * the rule, innermost first): deep enough for a VFS call from its system call down.
 */
#define MG_STACK_FRAMES 32

/*
 * One ring-buffer record (event mode: mgtrace check and trace). Times are ns;
 * ctime/mtime are seconds + nanoseconds with the QUERIED bit masked off, so
 * they equal what stat() returns. For MG_EV_FLOOR_* events ctime is the
 * fine-grained time ktime_get_real_ts64_mg returned (CLOCK_REALTIME), and
 * dev/ino/gen/name the inode of the enclosing inode_set_ctime_current (0 if none).
 */
struct mg_event {
	unsigned long long ts_ns;	/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	unsigned long long ino;		/* inode->i_ino */
	long long ctime_sec;		/* the ctime this event reports or sets */
	long long mtime_sec;		/* MG_EV_STAT only */
	unsigned int ctime_nsec;
	unsigned int mtime_nsec;	/* MG_EV_STAT only */
	unsigned int old_nsec;		/* MG_EV_CTIME_SWAP, MG_EV_CTIME_SET: i_ctime_nsec before,
					 * QUERIED bit kept (a set's tracepoint fires before
					 * its store) */
	unsigned int cur_nsec;		/* MG_EV_CTIME_SWAP: value the cmpxchg replaced, QUERIED kept */
	unsigned int dev;		/* kernel dev_t: major << 20 | minor */
	unsigned int gen;		/* inode->i_generation */
	unsigned int pid;		/* thread id */
	unsigned int tgid;		/* process id */
	unsigned int cpu;
	unsigned int kind;		/* enum mg_event_kind */
	unsigned int flags;		/* MG_EVF_* */
	unsigned int floor_known;	/* MG_EV_FLOOR_*: floor_before/after were read (mg_floor ksym) */
	unsigned int time_gran;		/* the inode's sb->s_time_gran, ns (0: no inode) */
	unsigned long long floor_before;	/* MG_EV_FLOOR_*: mg_floor at entry, CLOCK_MONOTONIC ns */
	unsigned long long floor_after;		/* MG_EV_FLOOR_*: mg_floor at return */
	unsigned long long tai_ns;	/* bpf_ktime_get_tai_ns() right after ts_ns: tai_ns - ts_ns
					 * is the realtime clock's offset (plus TAI - UTC) at the event */
	unsigned long long entry_ns;	/* MG_EV_CTIME_*: CLOCK_MONOTONIC at entry of the enclosing
					 * inode_set_ctime_current (function probes; 0: unknown) */
	unsigned long long inode_addr;	/* the struct inode's address: check's inode identity
					 * with dev, ino, gen (btrfs snapshots share all three);
					 * never printed */
	char comm[16];
	char name[MG_NAME_LEN];		/* last path component of the inode's first dentry alias,
					 * NUL-terminated, cut to MG_NAME_LEN - 1 bytes */
	unsigned int name_len;		/* that component's full length (d_name.len; 0: no name):
					 * > strlen(name) when the name was cut */
	int stack_id;			/* check --judge user --stacks, and a floor event that
					 * breaks an invariant (check): the event's kernel stack,
					 * its id in the stack map ev_stacks plus 1
					 * (bpf_get_stackid()), or that helper's -errno; 0: none */
};

/* Kernel stacks the stack map ev_stacks holds (check --judge user --stacks: else below). */
#define MG_EV_STACKS 16384
/*
 * ... with the floor probes and without --stacks (check with a function-probe backend):
 * only the floor violations' stacks, one per distinct stack (a stack map is preallocated:
 * 1024 * 256 bytes of frames); else 1 entry.
 */
#define MG_FLOOR_STACKS 1024

/* ---- trace filters (bpf/mgtrace.bpf.c, bpf/floor.bpf.c, bpf/follow.bpf.c, src/util/ident.c) ---- */

/*
 * Most (kernel dev_t, inode number) identities one trace filters on: a path's own
 * inode and, on overlayfs, the real inode in the upper or lower layer (src/util/ident.h).
 */
#define MG_MAX_IDS 4

/*
 * Entries of the BPF hash "traced_tgids" (key: tgid, value: parent tgid): the
 * processes `trace -- COMMAND` follows, COMMAND and its descendants alive at once.
 */
#define MG_MAX_TRACED 8192

/* bpf/follow.bpf.c's counters (.bss, one copy; added to atomically). */
struct mg_follow_counts {
	unsigned long long followed;	/* forks of a traced process added to traced_tgids */
	unsigned long long not_followed;	/* such forks NOT added: map full (or update error) */
	unsigned long long exited;	/* traced processes removed: their last thread exited */
};

/* ---- stat --latency (bpf/latency.bpf.c, src/stat/latency.c) ---- */

/* Histograms per probed function: the first MG_LAT_NR_FUNCS of enum mg_func. */
#define MG_LAT_CTIME	MG_FN_SET_CTIME_CURRENT	/* FS_MGTIME inodes only */
#define MG_LAT_REAL_MG	MG_FN_REAL_MG
#define MG_LAT_NR_FUNCS	MG_FN_NR_BASE
/* log2 buckets: slot i counts durations in [2^i, 2^(i+1)) ns; slot 0 also counts 0 ns. */
#define MG_LAT_SLOTS	64

/* Value of the single-entry BPF_MAP_TYPE_PERCPU_ARRAY "hist": one per possible CPU. */
struct mg_lat_cpu {
	unsigned long long slot[MG_LAT_NR_FUNCS][MG_LAT_SLOTS];	/* calls per log2 ns bucket */
	unsigned long long count[MG_LAT_NR_FUNCS];	/* calls timed: the sum of slot[f][] */
	unsigned long long sum_ns[MG_LAT_NR_FUNCS];	/* ns in those calls (exact mean: sum/count) */
	unsigned long long unmatched[MG_LAT_NR_FUNCS];	/* exits with no recorded entry */
	unsigned long long non_mgtime[MG_LAT_NR_FUNCS];	/* MG_LAT_CTIME on non-FS_MGTIME
							 * inodes: not timed */
};

/* Upper bound on possible CPUs the per-CPU ksym reader walks (bpf/kcounters.bpf.c). */
#define MG_MAX_CPUS 1024

/* ---- mgtrace top (bpf/top.bpf.c, src/top/top.c) ---- */

/*
 * Counters of one top row, struct mg_top_val::n[]: include/mg_vocab.def
 * (MG_TOP_COUNTER) names each, its probe and what it is a part of.
 */
enum mg_top_counter {
#define MG_TOP_COUNTER(ID, name, head, width, place, tp, part_of, source) MG_TOP_##ID,
#include "mg_vocab.def"
	MG_TOP_NR,
};

/* What one top row is (--by): the fields of struct mg_top_key that are set. */
enum mg_top_by {
	MG_TOP_BY_PID,		/* tgid */
	MG_TOP_BY_COMM,		/* comm of the task (thread) */
	MG_TOP_BY_FILE,		/* inode->i_sb->s_dev, inode->i_ino */
	MG_TOP_BY_CGROUP,	/* bpf_get_current_cgroup_id(): the cgroup v2 directory's inode */
	MG_TOP_BY_STACK,	/* bpf_get_stackid(): the kernel stack of the event */
	MG_TOP_BY_NR,
};

/* struct mg_top_key::special: the two reserved entries user space puts in each map. */
#define MG_TOPK_TOTAL	1	/* every event counted (in scope), rows or not */
#define MG_TOPK_UNATTR	2	/* events no row took: a new row's insert failed */

/* Slots of bpf/top.bpf.c's per-CPU array top_errs (cumulative counts). */
#define MG_TOPE_NO_MAP	0	/* events lost: no counting map or reserved entry (never expected) */
#define MG_TOPE_FULL	1	/* new rows refused: the map was full (E2BIG) */
#define MG_TOPE_OTHER	2	/* new rows refused otherwise (an allocation failed) */
#define MG_TOPE_NR	3

/* Key of the per-CPU hash maps of bpf/top.bpf.c; fields unused by --by are 0. */
struct mg_top_key {
	unsigned long long ino;		/* MG_TOP_BY_FILE */
	unsigned long long cgroup;	/* MG_TOP_BY_CGROUP */
	unsigned int tgid;		/* MG_TOP_BY_PID */
	unsigned int dev;		/* MG_TOP_BY_FILE: kernel dev_t (0 with ino 0: no inode) */
	unsigned int special;		/* MG_TOPK_*, 0 for a row */
	int stack;			/* MG_TOP_BY_STACK: the id in top_stacks, or -errno of
					 * bpf_get_stackid() (-EEXIST: a hash collision) */
	char comm[16];			/* MG_TOP_BY_COMM */
};

/* Value: one copy per possible CPU (BPF_MAP_TYPE_PERCPU_HASH); user space sums n[]. */
struct mg_top_val {
	unsigned long long n[MG_TOP_NR];	/* events, enum mg_top_counter */
	unsigned int tgid;		/* a process seen on this CPU (0: this CPU saw none) */
	unsigned int name_len;		/* MG_TOP_BY_FILE: d_name.len (as struct mg_event) */
	char comm[16];			/* that process's task comm ("": none on this CPU) */
	char name[MG_NAME_LEN];		/* MG_TOP_BY_FILE: the inode's first dentry name */
};

/*
 * --by stack: the kernel stacks the stack map holds (BPF_MAP_TYPE_STACK_TRACE, buckets of
 * MG_STACK_FRAMES addresses: 16384 * 256 bytes, only with --by stack) and the frames of
 * the tracing machinery skipped in BPF before a stack is hashed (bpf_get_stackid()).
 */
#define MG_TOP_STACKS		16384

/* Default and bounds of --max-entries: rows per map (two maps, one counting at a time). */
#define MG_TOP_ENTRIES_DEFAULT	10240
#define MG_TOP_ENTRIES_MAX	1000000


/*
 * The context of bpf/pidns.bpf.c's pid_xlate (BPF_PROG_TEST_RUN): a vpid of the
 * caller's PID namespace in, the kernel's (initial namespace's) tgid and tid of
 * its task out, 0 when it names none.
 */
struct mg_pid_xlate {
	unsigned int vpid;
	unsigned int tgid;
	unsigned int tid;
};
#endif /* MGTRACE_H */
