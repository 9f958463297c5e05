// SPDX-License-Identifier: GPL-2.0
/*
 * check_judge.c - where check judges: in BPF at the event (tp_btf, bpf_res_spin_lock) or
 * in user space (--judge user, raw_tp), asked for before the session loads and decided
 * after it attached; the scope that falls back when COMMAND's tree cannot be judged; the
 * user-space checker made for the run; the kernel memory a large --max-inodes takes
 * before the first inode (see check_int.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include "check_int.h"
#include "mgtrace.skel.h"
#include "util.h"

static int check_judge_room(const struct check_state *cs);

int check_judge_config(struct check_state *cs, struct mg_session_opts *so)
{
	/* tp_btf judges the ctime events in BPF (judge.c); raw_tp sends them here */
	cs->judge.max_inodes = cs->o.max_inodes;
	cs->judge.user = cs->o.judge_user;
	cs->judge.stacks = cs->o.stacks;
	cs->judge.forget = cs->o.forget;
	cs->judge.ringbuf_bytes = cs->o.ringbuf_set ? 0 : MG_JUDGE_RINGBUF_DEFAULT;
	cs->judge.tai_minus_real = mg_tai_minus_realtime();
	cs->judge.env = &cs->run.env;	/* probed by mg_run_prepare() before the load */
	so->pre_load = mg_judge_pre_load;
	so->pre_load_ctx = &cs->judge;
	so->post_load = mg_judge_post_load;
	/* the judging programs' verification, most of check's start, on two CPUs; the
	 * event programs of --judge user verify in a few ms and are loaded as before */
	so->split_load = !cs->judge.user;
	return check_judge_room(cs);
}

/*
 * COMMAND's tree, the default scope, cannot be judged in this session (why): judge
 * system-wide instead, as -a would, and say so in the report (check_state.tree_why).
 */
void check_tree_fall_back(struct check_state *cs, const char *why)
{
	cs->o.tree = false;
	snprintf(cs->tree_why, sizeof(cs->tree_why), "%s", why);
	mg_judge_tree_close(&cs->judge);
}

int check_judge_choose(struct check_state *cs)
{
	mg_judge_attached(&cs->judge, &cs->run.sess);
	if (cs->o.tree && !cs->judge.active && !cs->o.tree_default)
		return mg_err(MG_EXIT_ENV, "check: --tree needs judging in BPF (tracepoints as "
			      "tp_btf, bpf_res_spin_lock: kernel 6.15+); this session judges in user "
			      "space");
	if (cs->o.forget && !cs->judge.active)
		return mg_err(MG_EXIT_ENV, "check: --forget needs judging in BPF (tracepoints as "
			      "tp_btf, bpf_res_spin_lock: kernel 6.15+); this session judges in user "
			      "space");
	if (cs->o.tree && !cs->judge.active)
		check_tree_fall_back(cs, cs->o.judge_user ? "--judge user" :
			       "this session judges in user space (tracepoints as tp_btf and "
			       "bpf_res_spin_lock, kernel 6.15+, are needed to judge in BPF)");
	cs->judge.ringbuf_used = cs->run.sess.skel ?
				 bpf_map__max_entries(cs->run.sess.skel->maps.events) : 0;
	cs->chk = mg_checker_new(cs->judge.active ? 1 : cs->o.max_inodes, 100);
	/* the machine cannot hold what --max-inodes asks: not a failed check */
	if (!cs->chk) {
		uint64_t slots;
		size_t sb;
		uint64_t b = mg_checker_table_bytes(cs->judge.active ? 1 : cs->o.max_inodes,
						    &slots, &sb);

		return mg_err(MG_EXIT_ENV, "check: out of memory for %llu inodes (--max-inodes): "
			      "judged in user space their table grows to %llu slots of %zu bytes "
			      "(2N rounded up to a power of two: %llu MiB), more than this machine's "
			      "RAM and swap, or what it could give now",
			      (unsigned long long)cs->o.max_inodes, (unsigned long long)slots, sb,
			      (unsigned long long)(b >> 20));
	}
	if (cs->o.known)
		mg_checker_set_known(cs->chk, mg_known_match, cs->o.known);
	if (cs->judge.active)
		mg_checker_judged_in_bpf(cs->chk);
	/* judged here with --stacks, a violation has its event's record's stack; and a floor
	 * violation has its own wherever it was judged (bpf/floor.bpf.c) */
	mg_checker_set_stacks(cs->chk, mg_session_stacks_fd(&cs->run.sess));
	return MG_EXIT_OK;
}

/* inode maps' buckets of this much kernel memory or more are noted before they are made */
#define MG_ROOM_NOTE_BYTES (256ull << 20)

/* The inode maps' buckets: a note from MG_ROOM_NOTE_BYTES, a refusal beyond the RAM. */
static int check_judge_room(const struct check_state *cs)
{
	uint64_t buckets = 1, bytes, total;
	int maps = cs->o.forget ? 6 : 2;
	struct sysinfo si;

	if (cs->o.judge_user)
		return 0;
	while (buckets < cs->o.max_inodes)
		buckets <<= 1;
	bytes = buckets * 16 * maps;
	if (bytes < MG_ROOM_NOTE_BYTES)
		return 0;
	/* beyond the machine's memory the maps cannot be made; below it the kernel may make
	 * them by reclaiming (measured: 12 GiB of buckets made with 11 GiB available) */
	total = sysinfo(&si) ? 0 : (uint64_t)si.totalram * si.mem_unit;
	if (total && bytes > total)
		return mg_err(MG_EXIT_ENV, "check: --max-inodes %" PRIu64 ": the inode maps' buckets "
			      "alone take %" PRIu64 " MiB of kernel memory before any inode enters (16 "
			      "bytes a bucket, %" PRIu64 " in each of %d maps), more than the machine's "
			      "%" PRIu64 " MiB of RAM (MemTotal)", cs->o.max_inodes, bytes >> 20,
			      buckets, maps, total >> 20);
	fprintf(stderr, "mgtrace: check: --max-inodes %" PRIu64 ": the inode maps' buckets take %"
		PRIu64 " MiB of kernel memory before any inode enters (16 bytes a bucket, %" PRIu64
		" in each of %d maps); making them takes a while (about 3 s a GiB on 6.18 here), "
		"a stop signal acts after it\n", cs->o.max_inodes, bytes >> 20, buckets, maps);
	return 0;
}
