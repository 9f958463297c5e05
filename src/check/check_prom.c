// SPDX-License-Identifier: GPL-2.0
/*
 * check_prom.c - `check -i S --prometheus FILE`: continuous check's cumulative
 * counts in the Prometheus text exposition format (0.0.4), rewritten atomically
 * (prom.h mg_prom_write_with) at the start and after every interval, for
 * node_exporter's textfile collector. It renders the same interval result as the
 * interval's line (check_interval.c): its cumulative tallies, of which the lines are
 * differences, so the file after interval N equals the sum of intervals 1..N of the
 * JSON; nothing unmeasured is written as 0 (bpf_inode_bytes is absent when user
 * space judges).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include "check_int.h"
#include "opts.h"
#include "prom.h"
#include "vocab.h"

/* "name{kind=\"x\"} v" with the user's labels first */
static void labelled(FILE *f, const char *name, const char *label, const char *value, uint64_t v)
{
	mg_prom_series(f, name, true);
	fprintf(f, "%s=\"", label);
	mg_prom_label(f, value);
	fprintf(f, "\"} %" PRIu64 "\n", v);
}

/* by check_verdict_rank() */
static const char *const verdicts[3] = { "PASS", "INCONCLUSIVE", "FAIL" };

/* mgtrace_check_info: what the run is (labels), value 1 */
static void put_info(FILE *f, const struct check_interval_result *ir)
{
	mg_prom_family(f, "mgtrace_check_info", "gauge", "mgtrace check's run: backend, kernel "
		       "release, where events are judged, scope, --known file (value always 1)");
	mg_prom_series(f, "mgtrace_check_info", true);
	fprintf(f, "backend=\"");
	mg_prom_label(f, ir->backend);
	fprintf(f, "\",kernel_release=\"");
	mg_prom_label(f, ir->release);
	fprintf(f, "\",judge=\"%s\",scope=\"%s\",known_faults=\"", ir->judge_active ? "bpf" : "user",
		ir->tree ? "COMMAND's process tree" : "system-wide");
	mg_prom_label(f, ir->known_path ? ir->known_path : "");
	fprintf(f, "\"} 1\n");
}

static int render(FILE *f, void *arg)
{
	const struct check_interval_result *ir = arg;
	const struct check_tally *t = &ir->to;
	struct timespec now;
	uint64_t floor;
	int k;

	put_info(f, ir);
	mg_prom_up(f, "mgtrace_check", true);

	mg_prom_family(f, "mgtrace_check_events_judged_total", "counter", "Timestamp events judged "
		       "against the multigrain invariants, by kind (floor: the floor's swaps, "
		       "failed and unknown cmpxchgs, with a function-probe backend)");
	for (k = 0; k < MG_EV_NR_KINDS; k++)
		if (!(MG_KINDS_FLOOR & 1u << k))
			labelled(f, "mgtrace_check_events_judged_total", "kind", mg_event_kind_name(k),
				 t->by_kind[k]);
	floor = t->by_kind[MG_EV_FLOOR_SWAP] + t->by_kind[MG_EV_FLOOR_FAIL] +
		t->by_kind[MG_EV_FLOOR_UNKNOWN];
	labelled(f, "mgtrace_check_events_judged_total", "kind", "floor", floor);

	mg_prom_family(f, "mgtrace_check_violations_total", "counter", "Violations that are kernel "
		       "faults (not explained by a clock step, undecided, or a --known fault), by "
		       "kind: any is a FAIL");
	for (k = 0; k < MG_V_NR_KINDS; k++)
		labelled(f, "mgtrace_check_violations_total", "kind", mg_violation_name(k),
			 t->faults[k]);
	mg_prom_family(f, "mgtrace_check_known_faults_total", "counter", "Violations that matched a "
		       "fault declared in --known FILE (counted, not a FAIL)");
	MG_PROM_SERIES(f, "mgtrace_check_known_faults_total", "%" PRIu64, t->known);
	mg_prom_family(f, "mgtrace_check_not_faults_total", "counter", "Cases the invariants allow "
		       "(coarse granularity, a set ctime, a stored later time...): counted, never a "
		       "fault");
	MG_PROM_SERIES(f, "mgtrace_check_not_faults_total", "%" PRIu64, t->benign);

	mg_prom_family(f, "mgtrace_check_inconclusive_total", "counter", "What left something "
		       "unjudged, by reason: events lost or untracked, BPF runs the kernel skipped, "
		       "violations undecided near a clock step, per-inode lock failures, intervals "
		       "whose counters could not be read; any makes its interval INCONCLUSIVE");
	labelled(f, "mgtrace_check_inconclusive_total", "reason", "lost_events", t->lost);
	labelled(f, "mgtrace_check_inconclusive_total", "reason", "untracked_events", t->untracked);
	labelled(f, "mgtrace_check_inconclusive_total", "reason", "missed_bpf_runs", t->missed);
	labelled(f, "mgtrace_check_inconclusive_total", "reason", "undecided", t->undecided);
	labelled(f, "mgtrace_check_inconclusive_total", "reason", "lock_failed_events",
		 t->lock_failed);
	labelled(f, "mgtrace_check_inconclusive_total", "reason", "unreadable_counts",
		 ir->unreadable);

	if (ir->forget && ir->judge_active) {
		mg_prom_family(f, "mgtrace_check_history_forgotten_total", "counter", "--forget: "
			       "inodes whose timestamp history was forgotten (no event in two "
			       "generations of the inode map), judged afresh at their next event");
		MG_PROM_SERIES(f, "mgtrace_check_history_forgotten_total", "%" PRIu64, t->forgotten);
	}
	mg_prom_family(f, "mgtrace_check_inodes_tracked", "gauge", "Inodes whose timestamp history "
		       "the checker holds now");
	MG_PROM_SERIES(f, "mgtrace_check_inodes_tracked", "%" PRIu64, t->inodes);
	if (ir->judge_active) {
		mg_prom_family(f, "mgtrace_check_bpf_inode_bytes", "gauge", "BPF hash map memory of "
			       "the tracked inodes: entries times key and value size, with the "
			       "held getattrs' (judged in BPF only)");
		MG_PROM_SERIES(f, "mgtrace_check_bpf_inode_bytes", "%" PRIu64, t->inode_bytes);
	}

	mg_prom_family(f, "mgtrace_check_intervals_total", "counter", "Intervals completed, by "
		       "their own verdict");
	for (k = 0; k < 3; k++)
		labelled(f, "mgtrace_check_intervals_total", "verdict", verdicts[k],
			 ir->verdicts[k]);
	mg_prom_family(f, "mgtrace_check_running_verdict", "gauge", "The verdict since the start "
		       "(the exit code's): 1 for the current one, 0 for the others");
	for (k = 0; k < 3; k++)
		labelled(f, "mgtrace_check_running_verdict", "verdict", verdicts[k],
			 check_verdict_rank(ir->running_code) == k);
	if (ir->n) {
		mg_prom_family(f, "mgtrace_check_last_interval_verdict", "gauge", "The last "
			       "interval's verdict: 1 for it, 0 for the others");
		for (k = 0; k < 3; k++)
			labelled(f, "mgtrace_check_last_interval_verdict", "verdict", verdicts[k],
				 check_verdict_rank(ir->last_code) == k);
	}
	mg_prom_family(f, "mgtrace_check_inconclusive_streak", "gauge", "Consecutive INCONCLUSIVE "
		       "intervals ending with the last one (0: the last was not)");
	MG_PROM_SERIES(f, "mgtrace_check_inconclusive_streak", "%" PRIu64, ir->streak);
	clock_gettime(CLOCK_REALTIME, &now);
	mg_prom_family(f, "mgtrace_check_start_time_seconds", "gauge", "Unix time when judging "
		       "began: every counter is cumulative since then");
	MG_PROM_SERIES(f, "mgtrace_check_start_time_seconds", "%.3f", now.tv_sec + now.tv_nsec / 1e9 -
		       (mg_now_ns() - ir->start_ns) / 1e9);
	mg_prom_family(f, "mgtrace_check_last_interval_end_time_seconds", "gauge", "Unix time of the "
		       "counts this file was written from");
	MG_PROM_SERIES(f, "mgtrace_check_last_interval_end_time_seconds", "%.3f",
		       now.tv_sec + now.tv_nsec / 1e9 - (mg_now_ns() - t->t_ns) / 1e9);
	mg_prom_family(f, "mgtrace_check_finished", "gauge", "1 once the run has ended (the last "
		       "interval is in this file and it will not be written again), else 0");
	MG_PROM_SERIES(f, "mgtrace_check_finished", "%d", ir->last);
	return ferror(f) ? -EIO : 0;
}

int check_prom_write(const struct check_interval_result *ir, const char *path)
{
	mg_prom_set_command("check");
	/* render() only reads ir: prom.h's callback takes a void * */
	return mg_prom_write_with(path, render, (void *)ir) ? -1 : 0;
}
