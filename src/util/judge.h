/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge.h - the user-space side of judging in BPF (bpf/mg_judge.bpf.h):
 * configuring the tracepoint programs before load, receiving the violation
 * records, and at the end adding the per-CPU counts and judging the getattrs
 * still held in the per-inode map, with the same rules (include/mg_rules.h).
 */
#ifndef MG_JUDGE_H
#define MG_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "backend.h"
#include "checker.h"
#include "mg_rules.h"

struct mgtrace_bpf;
struct follow_bpf;
struct floor_bpf;

/* One check's judging, from configuration to the end of the run. */
struct mg_judge {
	uint64_t max_inodes;		/* entries of the BPF hash "inodes" (--max-inodes) */
	int64_t tai_minus_real;		/* TAI - REALTIME, ns, for the rules' clock at an event */
	bool user;			/* --judge user: never judge in BPF */
	bool stacks;			/* --stacks: judged in user space, every record takes
					 * its kernel stack (bpf_get_stackid(): about 5x an
					 * event's cost, bench/notes.md) */
	struct follow_bpf *follow;	/* check --tree: COMMAND's tree (follow.h) */
	uint64_t tree_alive_at_end;	/* check --tree: processes of the tree still running
					 * when the run ended (mg_judge_finish): their later
					 * events are not judged */
	int tree_fd;			/* check --tree: bpf/follow.bpf.c's traced_tgids (an
					 * inode enters the map only through an event of a
					 * process in it); 0: every process */
	const struct mg_kenv *env;	/* the run's environment (res_spin_lock), filled before
					 * the load */
	unsigned int ringbuf_bytes;	/* judged in BPF: the ring buffer's size (0: as opened) */
	unsigned int ringbuf_used;	/* the ring buffer's size, as loaded */
	bool configured;		/* the last load attempt judges in BPF (tp_btf) */
	bool active;			/* the session attached with judging in BPF */
	int gc_fd, drain_fd, name_fd;	/* the session's inode_gc, inode_drain and inode_name
					 * programs wherever they loaded (mg_judge_attached());
					 * negative: not loaded */
	uint64_t received[MG_V_NR_KINDS];	/* violation records received, by kind */
	struct mg_vrec *held;		/* records held until the last clock sample */
	size_t nheld, cap;
	uint64_t unheld[MG_V_NR_KINDS];	/* records not held (out of memory): counted only */
	struct mg_judge_counts sum;	/* the per-CPU counts, summed (mg_judge_finish) */
	uint64_t map_inodes;		/* entries found in "inodes" at the end */
	uint64_t value_bytes;		/* bytes of one entry's key and value */
	uint64_t pend_bytes;		/* at the end: the held getattrs' maps' entries,
					 * key and value (mg_judge_pend_bytes()) */
	/* forgetting inodes gone (inode_gc, bpf/mg_inodegc.bpf.h: mg_judge_collect()) */
	char gc_why[200];		/* why passes cannot run ("": they can) */
	uint64_t gc_passes;		/* passes run */
	uint64_t gc_ns;			/* their time, CLOCK_MONOTONIC ns */
	struct mg_gc_ctx gc_sum;	/* their counts, summed */
	uint64_t gc_at_inodes;		/* inodes entered (judge_counts.inodes) at the last pass */
	uint64_t gc_read_ns, gc_read_inodes;	/* CLOCK_MONOTONIC and inodes entered at the last
					 * read of the counts (mg_judge_collect()) */
	unsigned int gc_tick_ms;	/* mg_judge_tick_ms(), from the rate inodes enter */
	/* check --forget (bpf/mg_judge.bpf.h: generations of the per-inode map) */
	bool forget;			/* asked for: keep the state in generations */
	uint64_t gen;			/* the current generation as last handled (BPF judge_gen
					 * begins the next: mg_judge_gen_entered()) */
	uint64_t rotations;		/* generations begun since the start */
	uint64_t rotate_ns;		/* the time to make each next one ready (the wait and
					 * the drain), summed, CLOCK_MONOTONIC ns */
	struct mg_drain_ctx drained;	/* the emptied generations' counts, summed */
	char forget_why[200];		/* why no next generation can be made ready ("": it
					 * can) */
};

/*
 * While the programs run (check's intervals): the per-CPU judging counts so far
 * (BPF "judge_counts", summed into *sum, nothing imported into the checker), and
 * the entries "inodes" holds now (entered minus forgotten by inode_gc) with the
 * bytes of one entry. 0 or -errno (the map read).
 */
int mg_judge_read(const struct mg_judge *j, struct mgtrace_bpf *skel, int nr_cpus,
		  struct mg_judge_counts *sum, uint64_t *entries, uint64_t *entry_bytes);

/*
 * check --forget: inodes whose history was forgotten so far (the emptied
 * generations' entries whose state had not moved on and whose inode was not
 * known to be gone: struct mg_drain_ctx forgotten). Exact at every call; 0
 * without --forget.
 */
uint64_t mg_judge_forgotten(const struct mg_judge *j);

/*
 * Entries the per-inode maps hold now, given the judging counts sum
 * (mg_judge_read()): under --forget an inode moved on to the next generation
 * is held twice until its old generation is emptied, so this can exceed the
 * inodes tracked. Used for the BPF memory figure.
 */
uint64_t mg_judge_elements(const struct mg_judge *j, const struct mg_judge_counts *sum);

struct bpf_map;

/* The per-inode map in slot (0 .. MG_GENS - 1) of "inode_gens": "inodes", "inodes1", "inodes2". */
struct bpf_map *mg_judge_slot_map(struct mgtrace_bpf *skel, uint32_t slot);

/*
 * After mg_session_open() of a session loaded with mg_judge_pre_load(): whether it
 * judges in BPF (j->active: a skeleton, tp_btf, configured) and the descriptors of
 * its passes' programs (mg_session_prog_fd(): a clone may have verified them).
 */
void mg_judge_attached(struct mg_judge *j, const struct mg_session *s);

/*
 * mg_session_opts::post_load for check: under --forget (rodata judge_forget), the
 * generations' slots of "inode_gens" filled with "inodes", "inodes1", "inodes2"
 * (judge_gens.h mg_judge_fill_gens()) before the programs attach; nothing without
 * it. ctx: struct mg_judge (unused). 0 or -errno.
 */
int mg_judge_post_load(struct mgtrace_bpf *skel, void *ctx);
/*
 * Bytes of key and value of the held getattrs' maps' entries, all generations
 * (bpf/mg_judge.bpf.h judge_pend_entries, from the mapped .bss): the BPF memory
 * an interval reports beside the per-inode map's.
 */
uint64_t mg_judge_pend_bytes(const struct mgtrace_bpf *skel);

/* The held getattrs' map paired with slot's ("inode_pend", "inode_pend1", "inode_pend2"). */
struct bpf_map *mg_judge_pend_map(struct mgtrace_bpf *skel, uint32_t slot);

/*
 * Hand the checker the violation records held whose later event is older than
 * before_ns (CLOCK_MONOTONIC): the clock sample taken at before_ns recorded every
 * realtime step that could explain them (check's intervals; the rest wait).
 */
void mg_judge_release(struct mg_judge *j, struct mg_checker *c, uint64_t before_ns);

/* The same for bpf/floor.bpf.c's "floor_judge" (its per-CPU counts so far). 0 or -errno. */
int mg_judge_floor_read(struct floor_bpf *skel, int nr_cpus, struct mg_floor_judge_counts *sum);

/* The ring buffer when judging in BPF: only violations and clock steps cross it (about
 * 5,000 violation records per MiB). */
#define MG_JUDGE_RINGBUF_DEFAULT (1u << 20)

/*
 * mg_session_opts::pre_load for check: with tp_btf, turns judging on (rodata
 * judge, judge_tai_minus_real; judge_entry_ns when be has function probes, which
 * fill set_ctime), sizes "inodes" to max_inodes and, if
 * ringbuf_bytes, the ring buffer (and its wakeup threshold); with raw_tp
 * (no lock), or on a kernel without bpf_res_spin_lock (6.13, 6.14), leaves it
 * off and "inodes" at one entry: events then reach src/util/checker.c through the
 * ring buffer. Judging here with tree_fd set, shares that process map and sets
 * judge_tree. ctx: struct mg_judge. Returns 0
 * or -errno.
 */
int mg_judge_pre_load(struct mgtrace_bpf *skel, enum mg_backend be, bool tp_btf, void *ctx);

/*
 * A record from the ring buffer: a violation is held until mg_judge_finish();
 * a not-fault example goes to c's examples now.
 */
void mg_judge_record(struct mg_judge *j, struct mg_checker *c, const struct mg_vrec *r);

/*
 * The end of the run (every record consumed, every clock sample taken):
 * record the held violations in c (explained by clock steps there), add the
 * per-CPU counts of "judge_counts" (nr_cpus entries) and judge the getattrs
 * still held in "inodes". Returns 0 or -errno (a map could not be read).
 */
int mg_judge_finish(struct mg_judge *j, struct mg_checker *c, struct mgtrace_bpf *skel,
		    int nr_cpus);

struct floor_bpf;

/*
 * The end of a run with bpf/floor.bpf.c judging (judge set): add its per-CPU
 * counts ("floor_judge", nr_cpus entries) to c. Returns 0 or -errno.
 */
int mg_judge_floor_finish(struct mg_checker *c, struct floor_bpf *skel, int nr_cpus);

/*
 * During the run, judged in BPF: when "inodes" holds at least a quarter of its entries
 * and max_inodes / 8 inodes entered it since the last pass (so a pass, which
 * visits every entry, costs at most 8 visits per inode entered), run one pass
 * of the syscall program inode_gc (bpf/mg_inodegc.bpf.h, BPF_PROG_TEST_RUN): the
 * entries of inodes gone are deleted, so a workload that creates and deletes
 * more files over its life than --max-inodes fits. Reads the inodes entered
 * from the mapped .bss (judge_inodes_entered), with no bpf() syscall: a map
 * syscall would skip kprobe programs on its CPU while preempted (docs/kernel-facts.md).
 * A pass that fails sets gc_why and is not
 * tried again; the map then fills as before (untracked events, inconclusive).
 * Returns nothing.
 */
void mg_judge_collect(struct mg_judge *j, struct mgtrace_bpf *skel);

/*
 * How long check's event loop may wait between two mg_judge_collect() calls,
 * ms, judged in BPF: long enough for max_inodes / 8 inodes to enter the map at
 * the rate they entered since the last call, from 2 to 50 (10 before a rate is
 * known), so that passes keep up with a workload creating and deleting files
 * fast; 50 judged in user space.
 */
unsigned int mg_judge_tick_ms(const struct mg_judge *j);

/*
 * One line (no newline) saying where the ctime events were judged: in BPF,
 * with the map's fill and its entry size, or in user space, and why. Whole in
 * MG_JUDGE_DESCRIBE_LEN bytes whatever its numbers and reasons (every count at
 * its largest, the inode GC's part and --forget's with a stop reason: about
 * 1,100 bytes); cut at len - 1 in a smaller buffer.
 */
#define MG_JUDGE_DESCRIBE_LEN 2048
void mg_judge_describe(const struct mg_judge *j, char *buf, size_t len);

/*
 * TEST ONLY (MGTRACE_TEST_INJECT=n): for each of n made-up inodes (dev 0, ino
 * 1..n, "mgtrace-injected"), judge a synthetic ctime swap, two getattrs of its
 * value, and a swap 1 s earlier than the first, 2 s after it: n regressions.
 * Judging in BPF, they go through bpf/judgetest.bpf.c (BPF_PROG_TEST_RUN) into
 * the session's maps and ring buffer, and each must take the path the tracepoint
 * programs would (the getattrs: without context, then without the lock: -EIO
 * otherwise); else straight into c. Returns 0 or -errno, with why set.
 */
int mg_judge_inject(struct mg_judge *j, struct mgtrace_bpf *skel, struct mg_checker *c, int n,
		    char *why, size_t len);

/*
 * check --tree: follow COMMAND's tree (pid root, which waits to exec) in BPF
 * (bpf/follow.bpf.c) and set tree_fd to its process map, for mg_judge_pre_load().
 * Returns 0, or an exit code with one line printed.
 */
int mg_judge_tree_open(struct mg_judge *j, pid_t root);

/* Stop following it (check's default tree scope fell back to system-wide); safe twice. */
void mg_judge_tree_close(struct mg_judge *j);

/* Processes of the tree followed after the start (forks; check --tree; else 0). */
uint64_t mg_judge_tree_followed(const struct mg_judge *j);

/* Processes of the tree the process map could not take (check --tree; else 0). */
uint64_t mg_judge_tree_not_followed(const struct mg_judge *j);

/* Free the held records and detach the tree's programs. */
void mg_judge_free(struct mg_judge *j);

/*
 * Fill in the context of every observation out reports that the per-inode state
 * of inode key kept (MG_CTX_KEPT), from BPF's context rings "judge_ctx" (fd) or
 * else its held getattr's contexts "judge_held" (held_fd; the programs
 * detached): MG_CTX_READ with it, or MG_CTX_LOST where neither holds it any more
 * (include/mg_rules.h mg_ctx_seq(), mg_held_put()). judge_pass.c.
 */
void mg_judge_out_fill(int fd, int held_fd, const struct mg_inode_key *key,
		       struct mg_rout *out);

#endif
