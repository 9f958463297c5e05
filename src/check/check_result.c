// SPDX-License-Identifier: GPL-2.0
/*
 * check_result.c - what `mgtrace check` found, decided once (struct
 * check_result): the floor figures and their gates, the verdict, each
 * invariant's line and COMMAND's. The renderers (check_text.c, check_json.c,
 * check_junit.c) only read it. The rules themselves are in checker.c and
 * include/mg_rules.h, the verdict's in verdict.c.
 */
#include <stdio.h>
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
void check_gate_text(const struct check_state *cs, int i, char *buf, size_t len)
{
	const struct mg_gate *g = &cs->gates[i];
	double v = cs->fig.f[i].value;
	size_t n = 0;

	buf[0] = 0;
	if (g->limit >= 0)
		n += snprintf(buf + n, len - n, "%.6g %s %.6g (limit)", v, v > g->limit ? ">" : "<=",
			      g->limit);
	if (g->have_base && n < len)
		snprintf(buf + n, len - n, "%s%.6g %s %.6g allowed (baseline %.6g x %g + %g)",
			 n ? "; " : "", v, v > g->allowed ? ">" : "<=", g->allowed, g->base,
			 cs->o.baseline_factor, mg_baseline_slack(i));
}

/*
 * The name a violation is about: the one the events carried, or for a cross-file
 * order report (user-space observations, no name) the built-in workload's file
 * with that dev and inode. Sets *len and *cut (escape.h); NULL when unknown.
 */
const char *check_violation_name(const struct check_state *cs, const struct mg_violation *v,
				  char *buf, size_t buflen, size_t *len, bool *cut)
{
	uint64_t i;

	*cut = false;
	if (v->name[0]) {
		*len = mg_name_len(v->name, sizeof(v->name), 0, cut);
		*cut = *cut || v->name_truncated;
		return v->name;
	}
	for (i = 0; v->kind == MG_V_ORDER && cs->wl.t && i < cs->wl.o.threads; i++)
		for (int k = 0; k < 2; k++)
			if (cs->wl.t[i].dev[k] == v->dev && cs->wl.t[i].ino[k] == v->ino) {
				*len = (size_t)snprintf(buf, buflen, "t%d-f%d", cs->wl.t[i].idx, k + 1);
				return buf;
			}
	return NULL;
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
	l->faults = inv_sum(r->st, l->kinds, NULL);
	l->violations = inv_sum(r->st, l->kinds, r->st->violations);
	l->explained = inv_sum(r->st, l->kinds, r->st->explained);
	l->undecided = inv_sum(r->st, l->kinds, r->st->undecided);
	l->known = inv_sum(r->st, l->kinds, r->st->known);
	l->result = l->faults ? CHECK_FAIL : l->undecided ? CHECK_UNDECIDED :
		    l->known ? CHECK_KNOWN : CHECK_PASS;
	l->clock_steps = k0 == MG_V_REGRESSION || k0 == MG_V_ORDER || k0 == MG_V_NOT_LATER;
}

/* The five invariants (docs/check.md "The invariants"), with what each judged. */
static void collect_invariants(struct check_result *r)
{
	const struct check_state *cs = r->cs;
	const struct mg_check_stats *st = r->st;
	const char *fw = r->floor_unchecked;

	r->ninv = 0;
	inv_add(r, "no ctime regression", MG_V_REGRESSION, -1, NULL);
	inv_add(r, "change visibility", MG_V_NOT_LATER, MG_V_SKIP_AFTER_QUERY, NULL);
	inv_add(r, "cross-file ordering", MG_V_ORDER, -1, cs->o.argv ? "built-in workload only" : NULL);
	inv_add(r, "floor moves forward", MG_V_FLOOR_BACKWARD, -1, fw[0] ? fw : NULL);
	inv_add(r, "fine stamps only when needed", MG_V_FINE_UNNEEDED, -1, fw[0] ? fw : NULL);
	if (r->inv[2].result != CHECK_NOT_CHECKED && cs->order) {
		uint64_t taken, judged;
		size_t held;

		mg_order_counts(cs->order, &taken, &judged, &held);
		snprintf(r->inv[2].scope, sizeof(r->inv[2].scope), " in %llu modifications",
			 (unsigned long long)judged);
	}
	snprintf(r->inv[3].scope, sizeof(r->inv[3].scope), " in %llu floor reads",
		 (unsigned long long)st->floor_checked);
	snprintf(r->inv[4].scope, sizeof(r->inv[4].scope), " in %llu decided fine stamps, %llu undecided",
		 (unsigned long long)st->fine_checked, (unsigned long long)st->fine_undecided);
}

/* "COMMAND succeeds": its exit status, unless the run has none to judge. */
static void collect_command(struct check_result *r)
{
	const struct check_state *cs = r->cs;
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
	const struct mg_known *k = r->cs->o.known;
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
	const char *intr = r->cs->interrupt_why;
	uint64_t n = r->st->faults_elsewhere;
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

void check_collect(struct check_result *r, struct check_state *cs, const struct mg_report *rep)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);

	memset(r, 0, sizeof(*r));
	r->cs = cs;
	r->rep = rep;
	r->st = st;
	eval_gates(cs, rep);
	decide(cs, &r->v);
	r->scope = scope_text(cs, r->scope_buf, sizeof(r->scope_buf));
	r->floor_unchecked = cs->floor_why[0] ? cs->floor_why : cs->floor_read_why;
	r->floor_events = st->by_kind[MG_EV_FLOOR_SWAP] + st->by_kind[MG_EV_FLOOR_FAIL] +
			  st->by_kind[MG_EV_FLOOR_UNKNOWN];
	mg_judge_describe(&cs->judge, r->judged, sizeof(r->judged));
	r->window_s = cs->run.cur.t_ns > cs->run.first.t_ns ?
		      (double)(cs->run.cur.t_ns - cs->run.first.t_ns) / 1e9 : 0;
	r->junit_errors = (cs->interrupt_why[0] != 0) +
			  (r->v.code == MG_EXIT_INCONCLUSIVE && !r->v.interrupted);
	collect_invariants(r);
	collect_command(r);
	known_reason(r);
	elsewhere_reason(r);
}
