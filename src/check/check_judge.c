// SPDX-License-Identifier: GPL-2.0
/*
 * check_judge.c - where check judges: in BPF at the event (tp_btf, bpf_res_spin_lock) or
 * in user space (--judge user, raw_tp), asked for before the session loads and decided
 * after it attached; the scope that falls back when COMMAND's tree cannot be judged; the
 * user-space checker made for the run (see check_int.h).
 */
#include <stdio.h>
#include "check_int.h"
#include "mgtrace.skel.h"
#include "util.h"

void check_judge_config(struct check_state *cs, struct mg_session_opts *so)
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
	cs->judge.active = cs->run.sess.skel && cs->run.sess.tp_btf && cs->judge.configured;
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
	if (!cs->chk)
		return mg_err(MG_EXIT_ENV, "check: out of memory for %llu inodes (--max-inodes)",
			      (unsigned long long)cs->o.max_inodes);
	if (cs->o.known)
		mg_checker_set_known(cs->chk, mg_known_match, cs->o.known);
	if (cs->judge.active)
		mg_checker_judged_in_bpf(cs->chk);
	/* judged here with --stacks, a violation has its event's record's stack; and a floor
	 * violation has its own wherever it was judged (bpf/floor.bpf.c) */
	mg_checker_set_stacks(cs->chk, mg_session_stacks_fd(&cs->run.sess));
	return MG_EXIT_OK;
}
