// SPDX-License-Identifier: GPL-2.0
/*
 * check_result.c - what `mgtrace check` found, decided once (struct
 * check_result): the floor figures and their gates, the verdict, each
 * invariant's line and COMMAND's. The renderers (check_text.c, check_json.c,
 * check_junit.c) only read it. The rules themselves are in checker.c and
 * include/mg_rules.h, the verdict's in verdict.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_int.h"
#include "util.h"

/*
 * What the run covers, for the text report and JUnit, into buf: judging is COMMAND's
 * tree with COMMAND (--tree or the default; system-wide with -a, or where the default
 * fell back, saying why), system-wide without; the counters, floor figures and gates are
 * always the kernel's global counts (two CI jobs on one machine see each other's
 * events there).
 */
static const char *scope_text(const struct check_state *cs, char *buf, size_t len)
{
	static const char global[] = "counters, floor figures and gates: system-wide (the "
				     "kernel's counters are global: other processes' updates count too)";

	if (cs->o.tree)
		snprintf(buf, len, "judging: COMMAND's process tree (%s, below); %s",
			 cs->o.tree_default ? "the default with COMMAND; -a judges every process" :
			 "--tree", global);
	else if (cs->o.argv && cs->tree_why[0])
		snprintf(buf, len, "judging: system-wide, every process's timestamp events: "
			 "COMMAND's tree, the default, needs judging in BPF, not available here "
			 "(%s); %s", cs->tree_why, global);
	else if (cs->o.argv)
		snprintf(buf, len, "judging: system-wide (-a), every process's timestamp events, "
			 "not only COMMAND's; %s", global);
	else
		snprintf(buf, len, "system-wide: every process's timestamp events are judged, not "
			 "only the workload's, and the counters, floor figures and gates are the "
			 "kernel's global counts");
	return buf;
}

/* One line for a gate: "0.31 <= 0.7 (limit)", "0.9 > 0.47 allowed (baseline 0.3 x 1.5 + 0.01)". */
void check_gate_text(const struct check_result *r, int i, char *buf, size_t len)
{
	const struct mg_gate *g = &r->gates[i];
	double v = r->fig.f[i].value;
	size_t n = 0;

	buf[0] = 0;
	if (g->limit >= 0)
		n += snprintf(buf + n, len - n, "%.6g %s %.6g (limit)", v, v > g->limit ? ">" : "<=",
			      g->limit);
	if (g->have_base && n < len)
		snprintf(buf + n, len - n, "%s%.6g %s %.6g allowed (baseline %.6g x %g + %g)",
			 n ? "; " : "", v, v > g->allowed ? ">" : "<=", g->allowed, g->base,
			 r->o.baseline_factor, mg_baseline_slack(i));
}

/* The floor figures of this window and the gates set on them. */
static void eval_gates(struct check_state *cs, const struct mg_report *rep)
{
	int i;

	mg_figures_from_report(&cs->fig, rep);
	cs->gates_failed = mg_gates_eval(cs->gates, &cs->fig, cs->o.limit,
					 cs->o.baseline ? &cs->o.base : NULL, cs->o.baseline_factor);
	cs->gates_unknown = 0;
	for (i = 0; i < MG_F_NR; i++)
		cs->gates_unknown += cs->gates[i].result < 0 &&
				     (cs->gates[i].limit >= 0 || cs->gates[i].have_base);
}

/* The verdict (verdict.c); first whether and how a signal cut the run short. */
static void decide(struct check_state *cs, struct mg_verdict *v)
{
	const struct mg_run *r = &cs->run;
	struct mg_verdict_in in;
	struct check_tally t;

	/* a signal before the planned end (the built-in workload's duration, COMMAND's own exit) */
	cs->interrupt_why[0] = 0;
	/* continuous without COMMAND: a stop signal is the planned end */
	if (r->stop_sig && !(cs->o.interval && !cs->o.argv)) {
		struct mg_cmd_end ce = {
			.abandoned = r->child_abandoned, .signal = r->child_signal,
			.status = r->child_status,
			.after_stop_s = r->child_end_ns > r->stop_ns ?
					(double)(r->child_end_ns - r->stop_ns) / 1e9 : 0.0,
		};

		mg_verdict_interrupt_text(cs->interrupt_why, sizeof(cs->interrupt_why),
					  mg_signal_name(r->stop_sig), r->stop_ns > r->first.t_ns ?
					  (double)(r->stop_ns - r->first.t_ns) / 1e9 : 0.0,
					  cs->o.argv ? -1.0 : cs->o.duration, cs->o.argv ? &ce : NULL);
		if (cs->wl_abandoned[0])	/* its threads blocked in the kernel: say so */
			snprintf(cs->interrupt_why, sizeof(cs->interrupt_why), "interrupted by %s "
				 "after %.2f s: %.240s: the run ended without them",
				 mg_signal_name(r->stop_sig), r->stop_ns > r->first.t_ns ?
				 (double)(r->stop_ns - r->first.t_ns) / 1e9 : 0.0, cs->wl_abandoned);
	}
	cs->status_from_signal = cs->o.argv && mg_run_status_from_stop(r);
	in = (struct mg_verdict_in){
		.gates_failed = cs->gates_failed,
		.gates_unknown = cs->gates_unknown, .command = cs->o.argv != NULL,
		/* a COMMAND the run gave up on has no status: not a COMMAND failure */
		.command_status = cs->run.child_abandoned ? 0 : cs->run.child_status,
		.command_signal = cs->run.child_signal,
		.max_inodes = cs->o.max_inodes, .ringbuf_bytes = cs->o.ringbuf_bytes,
		.forget = cs->judge.forget && cs->judge.active,
		.forgotten = mg_judge_forgotten(&cs->judge),
		.not_followed = mg_judge_tree_not_followed(&cs->judge),
		.interrupted = r->stop_sig && !(cs->o.interval && !cs->o.argv) ? cs->interrupt_why : NULL,
		.status_from_signal = cs->status_from_signal,
		.command_ended_by_count = cs->ended_child,
	};
	/* the counts of the whole window, after the drain: the checker holds them all */
	check_tally_read(cs, &t, true);
	check_decide_counts(v, NULL, &t, &in);
}

/* A per-kind count summed over an invariant's kinds; by_kind NULL: its faults. */
static uint64_t inv_sum(const struct mg_check_stats *st, const int kinds[2], const uint64_t *by_kind)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < 2; k++)
		if (kinds[k] >= 0)
			n += by_kind ? by_kind[kinds[k]] : mg_checker_faults_of(st, kinds[k]);
	return n;
}

static void inv_add(struct check_result *r, const char *name, int k0, int k1, const char *why)
{
	struct check_inv *l = &r->inv[r->ninv++];

	*l = (struct check_inv){ .name = name, .kinds = { k0, k1 }, .why = why };
	if (why) {
		l->result = CHECK_NOT_CHECKED;
		return;
	}
	l->faults = inv_sum(&r->st, l->kinds, NULL);
	l->violations = inv_sum(&r->st, l->kinds, r->st.violations);
	l->explained = inv_sum(&r->st, l->kinds, r->st.explained);
	l->undecided = inv_sum(&r->st, l->kinds, r->st.undecided);
	l->known = inv_sum(&r->st, l->kinds, r->st.known);
	l->result = l->faults ? CHECK_FAIL : l->undecided ? CHECK_UNDECIDED :
		    l->known ? CHECK_KNOWN : CHECK_PASS;
	l->clock_steps = k0 == MG_V_REGRESSION || k0 == MG_V_ORDER || k0 == MG_V_NOT_LATER;
}

/* The five invariants (docs/check.md "The invariants"), with what each judged. */
static void collect_invariants(struct check_result *r)
{
	const struct mg_check_stats *st = &r->st;
	const char *fw = r->floor_unchecked;

	r->ninv = 0;
	inv_add(r, "no ctime regression", MG_V_REGRESSION, -1, NULL);
	inv_add(r, "change visibility", MG_V_NOT_LATER, MG_V_SKIP_AFTER_QUERY, NULL);
	/* judged on the built-in workload's own files: not with COMMAND, nor in continuous
	 * check, which runs no workload of its own */
	inv_add(r, "cross-file ordering", MG_V_ORDER, -1, r->o.argv || r->o.interval ?
		"built-in workload only" : NULL);
	inv_add(r, "floor moves forward", MG_V_FLOOR_BACKWARD, -1, fw[0] ? fw : NULL);
	inv_add(r, "fine stamps only when needed", MG_V_FINE_UNNEEDED, -1, fw[0] ? fw : NULL);
	if (r->inv[2].result != CHECK_NOT_CHECKED && r->have_order)
		snprintf(r->inv[2].scope, sizeof(r->inv[2].scope), " in %llu modifications",
			 (unsigned long long)r->order_judged);
	snprintf(r->inv[3].scope, sizeof(r->inv[3].scope), " in %llu floor reads",
		 (unsigned long long)st->floor_checked);
	snprintf(r->inv[4].scope, sizeof(r->inv[4].scope), " in %llu decided fine stamps, %llu undecided",
		 (unsigned long long)st->fine_checked, (unsigned long long)st->fine_undecided);
}

/* "COMMAND succeeds": its exit status, unless the run has none to judge. */
static void collect_command(struct check_result *r, const struct check_state *cs)
{
	const struct mg_run *run = &cs->run;
	struct check_cmd_line *c = &r->cmd;
	const char *sig = run->child_signal ? mg_signal_name(run->child_signal) : "";

	memset(c, 0, sizeof(*c));
	if (!(c->present = cs->o.argv != NULL))
		return;
	if (run->child_abandoned) {
		c->result = CHECK_NOT_CHECKED;
		snprintf(c->text, sizeof(c->text), "not judged: COMMAND did not end (no exit status)");
		snprintf(c->junit, sizeof(c->junit), "COMMAND did not end, not even after SIGKILL: no "
			 "exit status");
	} else if (cs->ended_child) {
		c->result = CHECK_NOT_CHECKED;
		snprintf(c->text, sizeof(c->text), "not judged: still running after -c %llu "
			 "intervals, ended by mgtrace (exit status %d)",
			 (unsigned long long)cs->o.count, run->child_status);
		snprintf(c->junit, sizeof(c->junit), "COMMAND was still running after -c %llu "
			 "intervals; mgtrace ended it (exit status %d)", (unsigned long long)cs->o.count,
			 run->child_status);
	} else if (cs->status_from_signal) {
		c->result = CHECK_NOT_CHECKED;
		snprintf(c->text, sizeof(c->text), "not judged: exit status %d is from %s, which "
			 "interrupted the run", run->child_status,
			 mg_signal_name(run->child_status - 128));
		snprintf(c->junit, sizeof(c->junit), "exit status %d is from %s, which interrupted the "
			 "run", run->child_status, mg_signal_name(run->child_status - 128));
	} else {
		c->result = run->child_status ? CHECK_FAIL : CHECK_PASS;
		snprintf(c->text, sizeof(c->text), "exit status %d%s%s (expected 0)", run->child_status,
			 run->child_signal ? ", killed by " : "", sig);
		if (run->child_status)
			snprintf(c->junit, sizeof(c->junit), "expected exit status 0, got %d%s%s%s",
				 run->child_status, run->child_signal ? " (killed by " : "", sig,
				 run->child_signal ? ")" : "");
	}
}

/* The verdict's reason names the known kernel faults matched: never a silent pass. */
static void known_reason(struct check_result *r)
{
	const struct mg_known *k = r->o.known;
	size_t i, len;
	uint64_t n = 0;

	for (i = 0; k && i < k->n; i++)
		n += k->e[i].matched;
	if (!n)
		return;
	if (!strncmp(r->v.reason, "all invariants hold", 19)) {	/* a PASS: say but for what */
		char rest[sizeof(r->v.reason)];

		snprintf(rest, sizeof(rest), "%s", r->v.reason + 19);
		snprintf(r->v.reason, sizeof(r->v.reason), "all invariants hold but for known kernel "
			 "faults%.600s", rest);
	}
	len = strlen(r->v.reason);
	snprintf(r->v.reason + len, sizeof(r->v.reason) - len, "; %llu violation(s) matched known "
		 "kernel faults (--known), not counted as failures:", (unsigned long long)n);
	for (i = 0; i < k->n; i++) {
		len = strlen(r->v.reason);
		if (k->e[i].matched)
			snprintf(r->v.reason + len, sizeof(r->v.reason) - len, " %s x %llu (%s)",
				 k->e[i].id, (unsigned long long)k->e[i].matched, k->e[i].reference);
	}
}

/*
 * The built-in workload is judged system-wide: a FAIL whose faults lie on other
 * filesystems than the workload's (other processes' files: a tester's -D ext4
 * run failed on another program's tmpfs directory) says how many, in its reason.
 */
static void elsewhere_reason(struct check_result *r)
{
	const char *intr = r->interrupt_why;
	uint64_t n = r->st.faults_elsewhere;
	size_t len = strlen(r->v.reason), il = strlen(intr);
	char tail[sizeof(r->v.reason)] = "";

	if (!n || r->v.code != MG_EXIT_FAIL)
		return;
	/* before "; interrupted by ...", which ends the reason (docs/json.md) */
	if (il && len >= il + 2 && !strcmp(r->v.reason + len - il, intr) &&
	    !strncmp(r->v.reason + len - il - 2, "; ", 2)) {
		len -= il + 2;
		snprintf(tail, sizeof(tail), "; %s", intr);
	}
	snprintf(r->v.reason + len, sizeof(r->v.reason) - len, "; %llu of the violations on "
		 "other filesystems than the workload's (judged system-wide: other processes' "
		 "files; each report names its dev and pid)%s", (unsigned long long)n, tail);
}

/* Where and how the ctime events were judged, copied from the judge. */
static void collect_judged(struct check_judged *d, const struct mg_judge *j)
{
	*d = (struct check_judged){
		.active = j->active, .forget = j->forget, .map_inodes = j->map_inodes,
		.max_inodes = j->max_inodes, .value_bytes = j->value_bytes,
		.ringbuf_used = j->ringbuf_used, .sum = j->sum, .gc_sum = j->gc_sum,
		.drained = j->drained, .gc_passes = j->gc_passes, .gc_ns = j->gc_ns,
		.rotations = j->rotations, .rotate_ns = j->rotate_ns,
		.forgotten = mg_judge_forgotten(j),
		.tree_followed = mg_judge_tree_followed(j),
		.tree_not_followed = mg_judge_tree_not_followed(j),
		.tree_alive_at_end = j->tree_alive_at_end,
	};
	snprintf(d->gc_why, sizeof(d->gc_why), "%s", j->gc_why);
	snprintf(d->forget_why, sizeof(d->forget_why), "%s", j->forget_why);
}

/* The run's facts the renderers read, copied: the result needs no run to be rendered. */
static int collect_facts(struct check_result *r, struct check_state *cs)
{
	const struct mg_run *run = &cs->run;
	size_t bl = 0, k;
	FILE *f;

	r->o = cs->o;
	r->st = *mg_checker_stats(cs->chk);
	r->reports = mg_checker_reports(cs->chk, &r->nreports);
	for (k = 0; k < MG_B_NR_KINDS; k++)
		r->examples[k] = mg_checker_examples(cs->chk, (unsigned int)k, &r->nexamples[k]);
	r->steps = mg_checker_steps(cs->chk, &r->nsteps);
	collect_judged(&r->jg, &cs->judge);
	snprintf(r->release, sizeof(r->release), "%s", run->env.release);
	r->header = mg_run_json_header(run, "check");
	r->command_status = mg_run_status_json(run);
	f = open_memstream(&r->backend_text, &bl);
	if (f) {
		mg_run_print_backend(run, f);
		fclose(f);
	}
	for (k = 0; k < r->nreports && r->reports[k].stack_why != MG_STACK_TAKEN; k++)
		;
	if (check_names_of(&r->names, cs, k < r->nreports) || !r->header || !r->command_status ||
	    !r->backend_text || check_collect_stacks(r))
		return -ENOMEM;
	r->child = run->child;
	r->child_signal = run->child_signal;
	r->status_from_signal = cs->status_from_signal;
	r->ended_child = cs->ended_child;
	r->stop_sig = run->stop_sig;
	r->stop_after_s = run->stop_ns > run->first.t_ns ?
			  (double)(run->stop_ns - run->first.t_ns) / 1e9 : 0.0;
	r->intervals = cs->intervals;
	memcpy(r->interrupt_why, cs->interrupt_why, sizeof(r->interrupt_why));
	memcpy(r->tree_why, cs->tree_why, sizeof(r->tree_why));
	memcpy(r->missed_detail, cs->missed_detail, sizeof(r->missed_detail));
	r->undeciding_misses = cs->undeciding_misses;
	memcpy(r->undeciding_detail, cs->undeciding_detail, sizeof(r->undeciding_detail));
	r->wl_fs = cs->wl_fs;
	r->have_wl_mount = cs->have_wl_mount;
	r->wl_mount_dev = cs->wl_mount_dev;
	memcpy(r->wl_mount, cs->wl_mount, sizeof(r->wl_mount));
	r->have_dir_dev = cs->wl.have_dir_dev;
	r->dir_dev = cs->wl.dir_dev;
	if ((r->have_order = cs->order != NULL)) {
		uint64_t taken;

		mg_order_counts(cs->order, &taken, &r->order_judged, &r->order_held);
	}
	r->floor_probe = cs->floor.skel ? cs->floor.probe : NULL;
	r->fig = cs->fig;
	memcpy(r->gates, cs->gates, sizeof(r->gates));
	return 0;
}

int check_collect(struct check_result *r, struct check_state *cs, const struct mg_report *rep)
{
	memset(r, 0, sizeof(*r));
	r->rep = rep;
	eval_gates(cs, rep);
	decide(cs, &r->v);
	if (collect_facts(r, cs)) {
		check_result_free(r);
		return -ENOMEM;
	}
	r->scope = scope_text(cs, r->scope_buf, sizeof(r->scope_buf));
	snprintf(r->floor_unchecked_buf, sizeof(r->floor_unchecked_buf), "%s",
		 cs->floor_why[0] ? cs->floor_why : cs->floor_read_why);
	r->floor_unchecked = r->floor_unchecked_buf;
	r->floor_events = r->st.by_kind[MG_EV_FLOOR_SWAP] + r->st.by_kind[MG_EV_FLOOR_FAIL] +
			  r->st.by_kind[MG_EV_FLOOR_UNKNOWN];
	mg_judge_describe(&cs->judge, r->judged, sizeof(r->judged));
	r->window_s = cs->run.cur.t_ns > cs->run.first.t_ns ?
		      (double)(cs->run.cur.t_ns - cs->run.first.t_ns) / 1e9 : 0;
	r->junit_errors = (cs->interrupt_why[0] != 0) +
			  (r->v.code == MG_EXIT_INCONCLUSIVE && !r->v.interrupted);
	collect_invariants(r);
	collect_command(r, cs);
	known_reason(r);
	elsewhere_reason(r);
	return 0;
}

void check_result_free(struct check_result *r)
{
	json_decref(r->header);
	json_decref(r->command_status);
	free(r->backend_text);
	check_names_free(&r->names);
	free(r->stack_first);
	free(r->stack_count);
	r->header = r->command_status = NULL;
	r->backend_text = NULL;
	r->stack_first = NULL;
	r->stack_count = NULL;
}
