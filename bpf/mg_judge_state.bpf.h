/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_judge_state.bpf.h - the per-inode state of `mgtrace check` judging in BPF
 * (bpf/mg_judge.bpf.h) and where it is kept: the value of the hash "inodes"
 * (the state of include/mg_rules.h with its bpf_res_spin_lock), its maps and
 * those of the held getattrs' storage, the per-CPU scratch an event is judged
 * in, and the quiet word's fold under the lock.
 *
 * "inodes" has no LRU and is not preallocated: when it is full, an event of a
 * new inode is counted as untracked (the verdict is then inconclusive), never
 * judged against forgotten state.
 */
#ifndef MG_JUDGE_STATE_BPF_H
#define MG_JUDGE_STATE_BPF_H

#include "mg_rules.h"

#ifndef EEXIST
#define EEXIST 17	/* include/uapi/asm-generic/errno-base.h */
#endif

/* kernel/bpf/rqspinlock.c (6.15+); 0 if absent (weak). lock returns 0 or -EDEADLK/-ETIMEDOUT. */
extern int bpf_res_spin_lock(struct bpf_res_spin_lock *lock) __ksym __weak;
extern void bpf_res_spin_unlock(struct bpf_res_spin_lock *lock) __ksym __weak;

/* Add n to a per-CPU count that several programs share: atomic (BPF_XADD). */
#define MG_JADD(x, n) __sync_fetch_and_add(&(x), (n))

/* The value of "inodes": struct mg_inode_plain with its lock typed for the verifier. */
struct mg_inode_val {
	struct bpf_res_spin_lock lock;
	unsigned int moved;
	struct mg_rstate s;
};

/*
 * What mg_judge() (bpf/mg_judge.bpf.h) has read of an event so far: whether it has
 * its context (clocks, task, CPU: have_ctx), whether this CPU's context ring gave the
 * event a slot (ring) and that slot's sequence (seq: mg_judge_ctx_next()). Kept in
 * the scratch, not on the stack: the verifier then does not know these values, so
 * the states of an event that read its context before the lock, after it, or not at
 * all (a lazy one), or whose ring gave it no slot, are one state where the rules
 * begin, verified once, not once for each (bench/notes.md "check start", second pass).
 */
struct mg_judge_ev {
	__u64 seq;
	__u8 have_ctx;
	__u8 ring;
};

/*
 * Per-CPU scratch, one per event kind (so one per program): the event judged,
 * what the rules found, a new map value, and the clock bracket that program
 * last measured on this CPU (mg_rule_clock_*). Not one scratch for all programs: where
 * tracepoint programs can be preempted (7.3 showed BPF runs skipped for
 * recursion, which takes a program preempted on its CPU; PREEMPT_RT runs
 * tracepoint callbacks with only migration disabled), another program on the
 * same CPU could write it in the middle of an event. One program cannot: the
 * kernel skips its nested run (counted as a recursion miss: inconclusive).
 * For the same reason every count in "judge_counts", which all the programs
 * share, is an atomic add (MG_JADD).
 */
struct mg_judge_scratch {
	struct mg_rin in;
	struct mg_rout out;
	struct mg_inode_plain fresh;
	struct mg_rclock clk;		/* this program's last measured clock bracket on
					 * this CPU (mg_rule_clock_*) */
	struct mg_inode_key k0;		/* the key of an inode's creation (mg_judge_adopt()) */
	__u64 fence;			/* the target of a fully ordered exchange (a barrier) */
	struct mg_held held;		/* a getattr held now: its contexts (mg_judge_held()) */
	struct mg_robs pe;		/* the value it is older than, its context looked up */
	struct mg_rpend pz;		/* a held getattr's storage to insert: zero, or a
					 * creation's copy (mg_judge_pend(), mg_judge_adopt()) */
	struct mg_judge_ev ev;		/* what mg_judge() has read of the event */
};

/* TAI - REALTIME, ns (adjtimex), set by user space before load: the clock at an event. */
const volatile long long judge_tai_minus_real = 0;

/*
 * Inodes entered into "inodes" so far, all CPUs (judge_counts.inodes summed): one
 * atomic add per inode entered, so that the event loop reads it from the mapped .bss,
 * with no bpf() syscall. A map syscall holds bpf_prog_active on its CPU while it runs
 * (bpf_disable_instrumentation()), and where it can be preempted (lazy preemption:
 * Debian's 6.18 and 7.x) a workload thread on that CPU runs meanwhile with every kprobe
 * program skipped: 342 skipped runs made a VM check inconclusive.
 */
__u64 judge_inodes_entered = 0;

/*
 * Which creation keys "inodes" (any generation's map) may hold: bit c set once
 * a key of the form creation key c takes (mg_judge_creation_key(): 0, generation
 * 0; 1, number 0) was entered (mg_judge_enter() sets it before the insert, and
 * never clears it). An inode missing from the map looks up its creation key c
 * only while bit c is set: on ext4 and tmpfs no key has number 0, so a new
 * inode's entry skips that lookup (a miss in a cold bucket), and on xfs none
 * has generation 0. An event that reads the bit clear while another enters
 * such a key is judged as if its lookup came before that insert, which it may.
 */
__u64 judge_creation_keys = 0;	/* 64-bit: the atomic OR for any -mcpu */

/* The per-inode map: "inodes", and under check --forget its two other generations. */
struct mg_inodes_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);			/* --max-inodes, set by user space */
	__uint(map_flags, BPF_F_NO_PREALLOC);	/* memory only for inodes seen */
	__type(key, struct mg_inode_key);
	__type(value, struct mg_inode_val);
};

/* initialised (to nothing), so defined here, before inode_gens (mg_judge_gens.bpf.h) in
 * the object: clang then gives the BTF struct mg_inode_val whole, where libbpf finds the
 * value size of inode_gens' inner maps; reached first through inode_gens' pointers it
 * keeps only its declaration, and the object does not open */
struct mg_inodes_map inodes SEC(".maps") = {};
struct mg_inodes_map inodes1 SEC(".maps");	/* check --forget only (else 1 entry) */
struct mg_inodes_map inodes2 SEC(".maps");

/*
 * The held getattrs (struct mg_rpend), by inode, apart from the state: holds are
 * rare, and the state without them fits a kmalloc-192 element (include/mg_rules.h).
 * One map a generation, paired with "inodes", "inodes1", "inodes2" by slot
 * (mg_judge_pend_map()): an entry is read and written only under the lock of
 * its inode's state in the same slot, exists whenever that state holds a getattr
 * (MG_RS_PENDING: made before the hold, mg_judge_pend(); copied before a state
 * enters another generation, mg_judge_migrate() and mg_judge_adopt()), and is
 * deleted only with the state (the inode GC of a gone inode, or emptying the
 * generation). An entry of a state that holds nothing is stale, never read.
 */
struct mg_pend_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);			/* as its slot's state map (user space) */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct mg_inode_key);
	__type(value, struct mg_rpend);
};

struct mg_pend_map inode_pend SEC(".maps");
struct mg_pend_map inode_pend1 SEC(".maps");	/* check --forget only (else 1 entry) */
struct mg_pend_map inode_pend2 SEC(".maps");

/*
 * Entries of the held getattrs' maps, all generations: + 1 an insert, - 1 a
 * delete (the inode GC, a creation taken, a generation emptied), read by user
 * space from the mapped .bss for the BPF memory an interval reports.
 */
__u64 judge_pend_entries = 0;

/* The held getattrs' map of slot (0 to MG_GENS - 1), paired with its state map. */
static __always_inline void *mg_judge_pend_map(__u32 slot)
{
	return slot == 1 ? (void *)&inode_pend1 : slot == 2 ? (void *)&inode_pend2 :
							    (void *)&inode_pend;
}

/*
 * The held getattr's storage of inode key in pend map pm, made (zero) if absent,
 * for a state that may hold one (mg_rule_needs_pend()). Never overwrites: an
 * existing entry is the state's, or stale. NULL when pm took no new entry (full,
 * or out of memory): the caller does not judge the event, and counts it.
 */
static __always_inline struct mg_rpend *mg_judge_pend(struct mg_judge_scratch *sc, void *pm,
						      const struct mg_inode_key *key)
{
	struct mg_rpend *p = bpf_map_lookup_elem(pm, key);

	if (p)
		return p;
	__builtin_memset(&sc->pz, 0, sizeof(sc->pz));
	/* EEXIST: made meanwhile */
	if (!bpf_map_update_elem(pm, key, &sc->pz, BPF_NOEXIST))
		__sync_fetch_and_add(&judge_pend_entries, 1);
	return bpf_map_lookup_elem(pm, key);
}
/*
 * Under the inode's lock, just before judging: fold in a getattr's mark set
 * without the lock (mg_rule_fold_quiet()). A word a getattr may still mark
 * (the latest ctime's, low bit clear) is first exchanged for 0, so that no
 * getattr marks it while the state changes; any other word only the lock's
 * holder writes, so one load reads it. mg_rule_event() then sets the word.
 */
static __always_inline void mg_judge_close_quiet(struct mg_rstate *s)
{
	__u64 w = *(volatile __u64 *)&s->quiet;

	if (w && !(w & 1))
		w = __sync_lock_test_and_set(&s->quiet, 0);
	mg_rule_fold_quiet(s, w);
}

#endif
