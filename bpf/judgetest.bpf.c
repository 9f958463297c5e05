// SPDX-License-Identifier: GPL-2.0
/*
 * judgetest.bpf.c - TEST ONLY: judge one synthetic event, given as the
 * context of BPF_PROG_TEST_RUN (struct mg_judge_test_ctx), with the code the
 * tracepoint programs run (mg_judge.bpf.h) on their maps: user space shares
 * "inodes", "judge_counts" and "events" of bpf/mgtrace.bpf.c with this object
 * (bpf_map__reuse_fd). Loaded only under MGTRACE_TEST_INJECT=1 (src/util/judge.c),
 * to show that a violation found in BPF reaches the verdict with its context.
 * A syscall program: BPF_PROG_TEST_RUN runs it with a context from user
 * space, and it may take bpf_res_spin_lock.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"
#include "mg_common.bpf.h"
/* the input carries each event's clocks, task and CPU: nothing to read */
#define MG_JUDGE_READ_CONTEXT(sc, jc, rb, wb) do { } while (0)

/* this event's MG_JTEST_RACE_MOVED_UNDER, still to happen (judge_test sets it) */
__u32 test_move_under = 0;

/* this event's MG_JTEST_RACE_CREATION_DELETED, still to happen (judge_test sets it) */
__u32 test_creation_deleted = 0;

/*
 * MG_JTEST_RACE_CREATION_DELETED: once the event copied its inode's creation
 * state, the inode GC deletes that entry and the next insertion reuses the
 * memory (an inode of number 99), as it can while mg_judge_adopt() runs
 * (tests/forgetrace.c).
 */
#define MG_JUDGE_ADOPT_COPIED(sc, src) do {					\
	struct mg_inode_key ok_ = { .ino = 99 };				\
										\
	if (test_creation_deleted) {						\
		test_creation_deleted = 0;					\
		bpf_map_delete_elem(src, &sc->k0);				\
		bpf_map_update_elem(src, &ok_, &sc->fresh, BPF_NOEXIST);	\
	}									\
} while (0)

/*
 * MG_JTEST_RACE_MOVED_UNDER (check --forget): once the event found its entry,
 * user space begins the next generation and another event of the inode moves
 * its state there, as mg_judge_find() would have (tests/forgetrace.c).
 */
#define MG_JUDGE_FOUND(sc, jc, key, rb) do {					\
	__u64 ng_;								\
	__u32 ns_;								\
	void *nm_;								\
										\
	if (test_move_under) {							\
		test_move_under = 0;						\
		ng_ = ++judge_gen;						\
		ns_ = ng_ % MG_GENS;						\
		nm_ = bpf_map_lookup_elem(&inode_gens, &ns_);			\
		if (nm_)							\
			mg_judge_migrate(sc, jc, nm_, key, ng_, rb);		\
	}									\
} while (0)
#include "mg_judge.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

SEC("syscall")
int judge_test(struct mg_judge_test_ctx *ctx)
{
	struct mg_judge_scratch *sc;
	struct mg_judge_counts *jc;
	struct mg_inode_key key;
	char name[MG_NAME_LEN];

	if (!mg_judge_maps(ctx->in.o.kind, &sc, &jc))
		return 100;
	key = ctx->key;
	__builtin_memcpy(name, ctx->name, sizeof(name));
	sc->in = ctx->in;
	if (judge_forget && ctx->race == MG_JTEST_RACE_HALF_MOVED) {
		__u32 b = (judge_gen + MG_GENS - 1) % MG_GENS;
		void *prev = bpf_map_lookup_elem(&inode_gens, &b);
		struct mg_inode_val *pv = prev ? bpf_map_lookup_elem(prev, &key) : NULL;

		/* its mover took the move under the lock (moved, and the held getattr
		 * copied) and has not entered the copy yet */
		if (pv)
			mg_judge_take_move(pv, bpf_map_lookup_elem(mg_judge_pend_map(b), &key),
					   mg_judge_pend(sc, mg_judge_pend_map(judge_gen % MG_GENS),
							 &key));
	}
	test_move_under = judge_forget && ctx->race == MG_JTEST_RACE_MOVED_UNDER;
	test_creation_deleted = ctx->race == MG_JTEST_RACE_CREATION_DELETED;
	if (ctx->close) {
		struct mg_inode_val *v = bpf_map_lookup_elem(&inodes, &key);

		/* as a lock's holder closes the word (mg_judge_close_quiet) */
		if (v)
			__sync_lock_test_and_set(&v->s.quiet, 0);
	}
	/* a getattr goes the tracepoint program's lazy way (quiet, marked, or no context read) */
	return mg_judge(ctx, sc, jc, &key, NULL, name, &events, 0, ctx->in.o.kind == MG_EV_STAT, false);
}
