// SPDX-License-Identifier: GPL-2.0
/*
 * judge_pass.c - the passes user space runs over the per-inode maps while check
 * judges in BPF (see judge.h): the inode GC (inode_gc: entries of inodes gone)
 * and, under --forget, the generations (inode_drain), with the event loop's
 * tick that keeps them up with the rate inodes enter; and the maps of each
 * generation's slot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "judge.h"
#include "judge_gens.h"
#include "mgtrace.skel.h"
#include "util.h"

int mg_judge_post_load(struct mgtrace_bpf *skel, void *ctx)
{
	int fds[MG_GENS];
	uint32_t i;

	if (!skel->rodata->judge_forget)
		return 0;
	for (i = 0; i < MG_GENS; i++)
		fds[i] = bpf_map__fd(mg_judge_slot_map(skel, i));
	return mg_judge_fill_gens(bpf_map__fd(skel->maps.inode_gens), fds);
}

void mg_judge_attached(struct mg_judge *j, const struct mg_session *s)
{
	j->active = s->skel && s->tp_btf && j->configured;
	j->gc_fd = s->skel ? mg_session_prog_fd(s, s->skel->progs.inode_gc) : -1;
	j->drain_fd = s->skel ? mg_session_prog_fd(s, s->skel->progs.inode_drain) : -1;
	j->name_fd = s->skel ? mg_session_prog_fd(s, s->skel->progs.inode_name) : -1;
}

unsigned int mg_judge_tick_ms(const struct mg_judge *j)
{
	if (!j->active)
		return 50;
	return j->gc_tick_ms ? j->gc_tick_ms : 10;
}

/* One inode_gc pass over slot's map into j's counts; false (gc_why set) if it failed. */
static bool gc_pass(struct mg_judge *j, struct mgtrace_bpf *skel, uint32_t slot)
{
	struct mg_gc_ctx c = { .slot = slot };
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &c, .ctx_size_in = sizeof(c));
	uint64_t t0 = mg_now_ns();

	if (bpf_prog_test_run_opts(j->gc_fd, &o) || o.retval) {
		snprintf(j->gc_why, sizeof(j->gc_why), "inode_gc: BPF_PROG_TEST_RUN: %s",
			 o.retval ? "no map in the slot" : strerror(errno));
		return false;
	}
	j->gc_ns += mg_now_ns() - t0;
	j->gc_passes++;
	j->gc_sum.visited += c.visited;
	j->gc_sum.alive += c.alive;
	j->gc_sum.kept_pending += c.kept_pending;
	j->gc_sum.collected += c.collected;
	j->gc_sum.creation_keys += c.creation_keys;
	return true;
}

/*
 * check --forget: BPF began generation j->gen + 1 (mg_judge_gen_entered());
 * make the one after it ready. Programs that still read the generation before
 * the new one's previous (to move an inode's state on) are waited for by a
 * map-in-map update, which returns after synchronize_rcu()
 * (kernel/bpf/syscall.c maybe_wait_bpf_programs()); then that generation is
 * emptied, every inode it held that had not moved on counted as forgotten, its
 * slot's count cleared, and judge_gen_armed lets the generation after gen
 * begin there. 0 or -errno (forget_why says why; no generation is made ready
 * again, and once the current one is full its new inodes are untracked).
 */
static int forget_rotated(struct mg_judge *j, struct mgtrace_bpf *skel)
{
	uint64_t gen = j->gen + 1;
	uint32_t old = (gen + 1) % MG_GENS, key = gen % MG_GENS;
	int outer = bpf_map__fd(skel->maps.inode_gens), inner;
	struct mg_drain_ctx c = { .slot = old };
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &c, .ctx_size_in = sizeof(c));
	uint64_t t0 = mg_now_ns();

	j->gen = gen;
	j->rotations++;
	/* the current slot's own map stored again: the update waits for running programs */
	inner = bpf_map__fd(mg_judge_slot_map(skel, key));
	if (bpf_map_update_elem(outer, &key, &inner, BPF_ANY)) {
		snprintf(j->forget_why, sizeof(j->forget_why), "inode_gens: map update (the wait "
			 "for running programs): %s", strerror(errno));
		return -errno;
	}
	if (bpf_prog_test_run_opts(j->drain_fd, &o) || o.retval) {
		snprintf(j->forget_why, sizeof(j->forget_why), "inode_drain: BPF_PROG_TEST_RUN: %s",
			 o.retval ? "no map in the slot" : strerror(errno));
		return -EIO;
	}
	j->drained.visited += c.visited;
	j->drained.moved += c.moved;
	j->drained.gone += c.gone;
	j->drained.creation_keys += c.creation_keys;
	j->drained.forgotten += c.forgotten;
	j->drained.forgotten_pending += c.forgotten_pending;
	j->drained.delete_failed += c.delete_failed;
	__atomic_store_n(&skel->bss->judge_gen_entered[old], 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&skel->bss->judge_gen_armed, gen, __ATOMIC_SEQ_CST);
	j->rotate_ns += mg_now_ns() - t0;
	return 0;
}

/*
 * check --forget: make the next generation ready if BPF began the one it was
 * ready for, then the inode GC on the current and previous generations.
 */
static void forget_collect(struct mg_judge *j, struct mgtrace_bpf *skel, uint64_t inodes)
{
	uint64_t gen = __atomic_load_n(&skel->bss->judge_gen, __ATOMIC_SEQ_CST);

	/* BPF begins at most one generation until the next is made ready */
	if (!j->forget_why[0] && gen != j->gen) {
		if (gen != j->gen + 1)
			snprintf(j->forget_why, sizeof(j->forget_why), "judge_gen went from %llu "
				 "to %llu (never expected)", (unsigned long long)j->gen,
				 (unsigned long long)gen);
		else
			forget_rotated(j, skel);
	}
	if (!j->gc_why[0] && inodes - j->gc_at_inodes >= j->max_inodes / 8 + 1) {
		if (gc_pass(j, skel, j->gen % MG_GENS) &&
		    gc_pass(j, skel, (j->gen + 2) % MG_GENS))
			j->gc_at_inodes = inodes;
	}
}

void mg_judge_collect(struct mg_judge *j, struct mgtrace_bpf *skel)
{
	uint64_t entries, t0, inodes;

	if (!j->active || (j->gc_why[0] && !j->forget) || !skel || !skel->bss)
		return;
	/* from the mapped .bss, not a map syscall (bpf/mg_judge.bpf.h judge_inodes_entered) */
	inodes = __atomic_load_n(&skel->bss->judge_inodes_entered, __ATOMIC_RELAXED);
	entries = inodes - j->gc_sum.collected;
	t0 = mg_now_ns();
	if (j->gc_read_ns && t0 > j->gc_read_ns) {
		/* wake up often enough that max/8 inodes enter between two reads at this rate */
		double rate = (inodes - j->gc_read_inodes) * 1e9 / (double)(t0 - j->gc_read_ns);
		double ms = rate > 0 ? (j->max_inodes / 8.0) * 1e3 / rate : 50;

		j->gc_tick_ms = ms < 2 ? 2 : ms > 50 ? 50 : (unsigned int)ms;
	}
	j->gc_read_ns = t0;
	j->gc_read_inodes = inodes;
	if (j->forget) {
		forget_collect(j, skel, inodes);
		return;
	}
	if (entries < j->max_inodes / 4 || inodes - j->gc_at_inodes < j->max_inodes / 8 + 1)
		return;
	if (gc_pass(j, skel, 0))
		j->gc_at_inodes = inodes;
}
