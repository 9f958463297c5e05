// SPDX-License-Identifier: GPL-2.0
/* verdict.c - floor figures, gates and the verdict of `mgtrace check` (see verdict.h). */
#include <stdio.h>
#include <string.h>
#include "util.h"
#include "steps.h"
#include "verdict.h"

static const struct {
	const char *name, *formula, *option;
	int num, den;		/* report rows; den -1: per second */
} figs[MG_F_NR] = {
	[MG_F_SWAPS_PER_UPDATE] = { "floor_swaps_per_update", "floor_swaps / ctime_updates",
				    "floor-swap-ratio", MG_R_FLOOR_SWAPS, MG_R_CTIME_UPDATES },
	[MG_F_FINE_PER_UPDATE] = { "fine_stamps_per_update", "fine_stamps / ctime_updates",
				   "fine-stamp-ratio", MG_R_FINE_STAMPS, MG_R_CTIME_UPDATES },
	[MG_F_SWAPS_PER_SEC] = { "floor_swaps_per_sec", "floor_swaps / seconds",
				 "floor-swaps-per-sec", MG_R_FLOOR_SWAPS, -1 },
	[MG_F_FAIL_RATIO] = { "floor_cmpxchg_fail_ratio", "floor_cmpxchg_fails / fine_stamps",
			      "floor-cmpxchg-fail-ratio", MG_R_FLOOR_CMPXCHG_FAILS, MG_R_FINE_STAMPS },
};

const char *mg_figure_name(enum mg_figure f)
{
	return f < MG_F_NR ? figs[f].name : "?";
}

const char *mg_figure_formula(enum mg_figure f)
{
	return f < MG_F_NR ? figs[f].formula : "?";
}

const char *mg_figure_option(enum mg_figure f)
{
	return f < MG_F_NR ? figs[f].option : "?";
}

void mg_figures_from_report(struct mg_figures *out, const struct mg_report *rep)
{
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < MG_F_NR; i++) {
		const struct mg_row *n = &rep->rows[figs[i].num];
		const struct mg_row *d = figs[i].den >= 0 ? &rep->rows[figs[i].den] : NULL;
		struct mg_fig *f = &out->f[i];

		if (!n->have_total || (d && !d->have_total)) {
			snprintf(f->why, sizeof(f->why), "%s unavailable",
				 !n->have_total ? n->name : d->name);
		} else if (d && d->total <= 0) {
			snprintf(f->why, sizeof(f->why), "%s is 0 in this window", d->name);
		} else if (!d && rep->seconds <= 0) {
			snprintf(f->why, sizeof(f->why), "the window has no length");
		} else if (n->total < 0) {
			snprintf(f->why, sizeof(f->why), "%s is negative in this window", n->name);
		} else {
			f->have = true;
			f->value = d ? (double)n->total / (double)d->total : n->total / rep->seconds;
		}
	}
}

double mg_baseline_slack(enum mg_figure f)
{
	return f == MG_F_SWAPS_PER_SEC ? MG_BASELINE_SLACK_PER_SEC :
	       f == MG_F_FAIL_RATIO ? MG_BASELINE_SLACK_CMPXCHG : MG_BASELINE_SLACK;
}

int mg_gates_eval(struct mg_gate gates[MG_F_NR], const struct mg_figures *now,
		  const double limits[MG_F_NR], const struct mg_figures *base, double factor)
{
	int i, failed = 0;

	for (i = 0; i < MG_F_NR; i++) {
		struct mg_gate *g = &gates[i];
		const struct mg_fig *f = &now->f[i];
		bool any = limits[i] >= 0;

		memset(g, 0, sizeof(*g));
		g->limit = limits[i];
		g->result = -1;
		if (base && base->f[i].have) {
			g->have_base = true;
			g->base = base->f[i].value;
			g->allowed = g->base * factor + mg_baseline_slack(i);
			any = true;
		} else if (base) {
			/* asked for, and not evaluated: said, never a gate silently off */
			snprintf(g->why, sizeof(g->why), "no baseline gate: %s", base->f[i].why);
			if (limits[i] < 0)
				continue;
		}
		if (!any)
			continue;
		if (!f->have) {
			snprintf(g->why, sizeof(g->why), "%s", f->why);
			continue;
		}
		g->result = 1;
		if (g->limit >= 0 && f->value > g->limit)
			g->result = 0;
		if (g->have_base && f->value > g->allowed)
			g->result = 0;
		failed += g->result == 0;
	}
	return failed;
}

void mg_verdict_interrupt_text(char *buf, size_t len, const char *signame, double after_s,
			       double planned_s, const struct mg_cmd_end *cmd)
{
	const char *a;

	if (planned_s >= 0 || !cmd)
		snprintf(buf, len, "interrupted by %s after %.2f s of %g s: the workload did not run "
			 "to its end", signame, after_s, planned_s);
	else if (cmd->abandoned)
		snprintf(buf, len, "interrupted by %s after %.2f s: COMMAND did not end, not even "
			 "after SIGKILL (blocked in the kernel?); the run ended without its status",
			 signame, after_s);
	else if (cmd->signal)
		snprintf(buf, len, "interrupted by %s after %.2f s: COMMAND was killed by SIG%s "
			 "%.2f s later and did not run to its end", signame, after_s,
			 (a = sigabbrev_np(cmd->signal)) ? a : "?", cmd->after_stop_s);
	else
		snprintf(buf, len, "interrupted by %s after %.2f s: COMMAND, sent the signal, exited "
			 "%.2f s later with status %d: whether it cut its work short is not known",
			 signame, after_s, cmd->after_stop_s, cmd->status);
}

/*
 * What an incomplete run's reason adds, so that the next run can be complete: the
 * bound each loss hit and the option that raises it ("" when neither was hit).
 */
static void incomplete_hint(char *buf, size_t len, const struct mg_verdict_in *in)
{
	int n = 0;

	buf[0] = 0;
	if (in->untracked && in->max_inodes && in->forget)
		n = snprintf(buf, len, " (a generation of the inode map filled before the next "
			     "began, or an inode's state was moving: --forget with --max-inodes "
			     "%llu, raise it", (unsigned long long)in->max_inodes);
	else if (in->untracked && in->max_inodes)
		n = snprintf(buf, len, " (the inode map was full: %llu inode(s), raise --max-inodes",
			     (unsigned long long)in->max_inodes);
	if (in->lost && in->ringbuf_bytes && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%sthe ring buffer of %llu bytes was full, "
			      "raise --ringbuf-size", n ? "; " : " (",
			      (unsigned long long)in->ringbuf_bytes);
	if (in->not_followed && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%s%llu process(es) of COMMAND's tree not "
			      "followed: the process map was full", n ? "; " : " (",
			      (unsigned long long)in->not_followed);
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ")");
}

/*
 * Append to buf (a FAIL's reason) what was not judged, the non-zero counts only, so that
 * a count of violations read as a floor is never taken for all there were.
 */
static void lower_bound_why(char *buf, size_t len, const struct mg_verdict_in *in)
{
	static const char *const what[] = { "event(s) lost", "untracked", "BPF run(s) skipped "
		"by the kernel", "not judged (inode lock failed)", "process(es) not followed" };
	uint64_t n[] = { in->lost, in->untracked, in->missed, in->lock_failed, in->not_followed };
	size_t at = strlen(buf), i;
	bool first = true;

	for (i = 0; i < sizeof(n) / sizeof(n[0]) && at < len; i++) {
		if (!n[i])
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%llu %s", first ? "; unjudged: " : ", ",
				       (unsigned long long)n[i], what[i]);
		first = false;
	}
	if (in->counts_unread && at < len)
		snprintf(buf + at, len - at, "; a counter could not be read");
}

void mg_verdict_decide(struct mg_verdict *v, const struct mg_verdict_in *in)
{
	char hint[320];
	/* a status the interrupting signal gave COMMAND is not COMMAND failing */
	bool cmd_failed = in->command && in->command_status && !in->status_from_signal &&
			  !in->command_ended_by_count;
	bool unjudged = in->lost || in->untracked || in->missed || in->lock_failed ||
			in->not_followed;
	bool incomplete = unjudged || in->counts_unread;
	const char *sep = in->interrupted ? "; " : "", *intr = in->interrupted ? in->interrupted : "";

	v->interrupted = false;
	incomplete_hint(hint, sizeof(hint), in);
	if (in->faults || in->gates_failed) {
		v->code = MG_EXIT_FAIL;
		v->word = "FAIL";
		/* judged less than all, or not known to have judged all (a counter of what was
		 * not judged unread): the count is a floor, and the reason says which */
		snprintf(v->reason, sizeof(v->reason), "%llu violation(s)%s, %d floor gate(s) "
			 "failed%s%s%s", (unsigned long long)in->faults, unjudged ?
			 " or more (not every event judged)" : incomplete ?
			 " or more (whether every event was judged is unknown)" : "", in->gates_failed,
			 cmd_failed ? ", COMMAND failed" : "", sep, intr);
		if (incomplete)
			lower_bound_why(v->reason, sizeof(v->reason), in);
	} else if (cmd_failed) {
		/* a workload that failed cannot vouch for anything: CI must see it */
		v->code = MG_EXIT_FAIL;
		v->word = "FAIL";
		if (in->command_signal)
			snprintf(v->reason, sizeof(v->reason), "COMMAND was killed by SIG%s (status "
				 "%d)%s%s", sigabbrev_np(in->command_signal) ?
				 sigabbrev_np(in->command_signal) : "?", in->command_status, sep, intr);
		else
			snprintf(v->reason, sizeof(v->reason), "COMMAND exited with status %d%s%s",
				 in->command_status, sep, intr);
	} else if (in->interrupted) {
		/* a window cut short vouches for less than was asked: never a pass (CI timeouts) */
		v->code = MG_EXIT_INCONCLUSIVE;
		v->word = "INCONCLUSIVE";
		v->interrupted = true;
		if (incomplete)
			snprintf(v->reason, sizeof(v->reason), "%s; also %llu event(s) lost, %llu "
				 "untracked, %llu BPF run(s) skipped, %llu not judged%s",
				 in->interrupted, (unsigned long long)in->lost,
				 (unsigned long long)in->untracked, (unsigned long long)in->missed,
				 (unsigned long long)in->lock_failed, hint);
		else
			snprintf(v->reason, sizeof(v->reason), "%s", in->interrupted);
	} else if (incomplete) {
		v->code = MG_EXIT_INCONCLUSIVE;
		v->word = "INCONCLUSIVE";
		snprintf(v->reason, sizeof(v->reason), "%llu event(s) lost, %llu untracked, %llu BPF "
			 "run(s) skipped by the kernel, %llu not judged (inode lock failed)%s: a "
			 "pass cannot be claimed%s", (unsigned long long)in->lost,
			 (unsigned long long)in->untracked, (unsigned long long)in->missed,
			 (unsigned long long)in->lock_failed,
			 in->counts_unread ? ", a counter could not be read" : "", hint);
	} else if (in->step_undecided) {
		v->code = MG_EXIT_INCONCLUSIVE;
		v->word = "INCONCLUSIVE";
		snprintf(v->reason, sizeof(v->reason), "%llu violation(s) near a realtime clock step "
			 "back of their size (from %llu ms before the earlier observation on): "
			 "undecided, a pass cannot be claimed", (unsigned long long)in->step_undecided,
			 MG_STEP_NEAR_NS / 1000000);
	} else if (!in->events && in->gates_unknown) {
		v->code = MG_EXIT_INCONCLUSIVE;
		v->word = "INCONCLUSIVE";
		snprintf(v->reason, sizeof(v->reason), "no events observed");
	} else {
		v->code = MG_EXIT_OK;
		v->word = "PASS";
		snprintf(v->reason, sizeof(v->reason), "all invariants hold%s%s",
			 in->gates_unknown ? "; some floor gates could not be evaluated" : "",
			 in->forgotten ? "; --forget: those inodes were judged afresh at their next "
			 "event" : "");
	}
}

const char *mg_verdict_word_forgotten(const char *word, int code, uint64_t forgotten, char *buf,
				      size_t len)
{
	if (code != MG_EXIT_OK || !forgotten)
		return word;
	snprintf(buf, len, "%s, %llu inode%s history forgotten", word, (unsigned long long)forgotten,
		 forgotten == 1 ? "'s" : "s'");
	return buf;
}
