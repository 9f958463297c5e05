// SPDX-License-Identifier: GPL-2.0
/*
 * check_tally.c - the run's cumulative counts at one moment (struct check_tally: the
 * checker's, plus, while BPF judges, the per-CPU judging counts read from their maps
 * without importing them), and the one decision of a verdict from the counts between
 * two such moments: the end-of-run report's (from zero) and each interval's of
 * continuous check.
 */
#include <stdlib.h>
#include <string.h>
#include "check_int.h"
#include "events.h"

/* Add what BPF judged so far (while it runs; at the end the checker holds it all). */
static void tally_bpf(struct check_state *cs, struct check_tally *t)
{
	struct mg_judge_counts sum;
	struct mg_floor_judge_counts fl;
	uint64_t entries, bytes;
	int k;

	if (!mg_judge_read(&cs->judge, cs->run.sess.skel, cs->run.sess.nr_cpus, &sum, &entries,
			   &bytes)) {
		for (k = 0; k < MG_EV_NR_KINDS; k++)
			t->by_kind[k] += sum.by_kind[k];
		for (k = 0; k < MG_B_NR_KINDS; k++)
			t->benign += sum.benign[k];
		for (k = 0; k < MG_V_NR_KINDS; k++)	/* found, their records lost: faults */
			if (sum.violations[k] > cs->judge.received[k]) {
				t->violations[k] += sum.violations[k] - cs->judge.received[k];
				t->faults[k] += sum.violations[k] - cs->judge.received[k];
			}
		t->untracked += sum.untracked;
		t->lock_failed += sum.lock_failed;
		t->lost += sum.lost + sum.steps_lost;
		t->inodes = entries;
		t->inode_bytes = mg_judge_elements(&cs->judge, &sum) * bytes +
				 mg_judge_pend_bytes(cs->run.sess.skel);
		t->forgotten = mg_judge_forgotten(&cs->judge);
	} else {
		t->read_failed = true;
	}
	if (cs->floor.skel && !cs->o.judge_user) {
		if (mg_judge_floor_read(cs->floor.skel, cs->run.sess.nr_cpus, &fl)) {
			t->read_failed = true;
			return;
		}
		for (k = 0; k < 3; k++)
			t->by_kind[MG_EV_FLOOR_SWAP + k] += fl.by_kind[k];
	}
}

void check_tally_read(struct check_state *cs, struct check_tally *t, bool finished)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);
	struct mg_bpf_counts *scratch;
	char detail[400];
	uint64_t lost = 0;
	int k;

	/* violations found in BPF wait for the clock sample after them (check.c): those
	 * older than the last sample are judged now, in the interval that found them */
	if (!finished && cs->judge.active)
		mg_judge_release(&cs->judge, cs->chk, cs->last_sample);
	memset(t, 0, sizeof(*t));
	/* the last interval ends where the report's window does (the counters' last
	 * reading, run.cur), so that the intervals' durations sum to its duration_s */
	t->t_ns = finished && cs->run.cur.t_ns > cs->tally.t_ns ? cs->run.cur.t_ns : mg_now_ns();
	for (k = 0; k < MG_EV_NR_KINDS; k++)
		t->by_kind[k] = st->by_kind[k];
	for (k = 0; k < MG_V_NR_KINDS; k++) {
		t->violations[k] = st->violations[k];
		t->faults[k] = mg_checker_faults_of(st, k);
		t->known += st->known[k];
		t->undecided += st->undecided[k];
	}
	for (k = 0; k < MG_B_NR_KINDS; k++)
		t->benign += st->benign[k];
	t->untracked = st->untracked_events;
	t->lock_failed = st->lock_failed_events;
	t->inodes = st->inodes;
	mg_checker_reports(cs->chk, &t->nreports);
	if (finished) {
		t->lost = st->lost;
		t->missed = st->missed;
		if (cs->judge.active) {
			t->inodes = cs->judge.map_inodes;
			t->inode_bytes = mg_judge_elements(&cs->judge, &cs->judge.sum) *
					 cs->judge.value_bytes + cs->judge.pend_bytes;
			t->forgotten = mg_judge_forgotten(&cs->judge);
		}
		return;
	}
	if (cs->judge.active)
		tally_bpf(cs, t);
	scratch = calloc(cs->run.sess.nr_cpus, sizeof(*scratch));
	if (!scratch || mg_events_lost(&cs->run.sess, &cs->floor, scratch, &lost))
		t->read_failed = true;
	free(scratch);
	t->lost += lost + cs->ev.short_records;
	t->missed = mg_session_recursion_misses(&cs->run.sess, detail, sizeof(detail));
}

void check_decide_counts(struct mg_verdict *v, const struct check_tally *from,
			 const struct check_tally *to, const struct mg_verdict_in *facts)
{
	static const struct check_tally zero;
	struct mg_verdict_in in = *facts;
	int k;

	if (!from)
		from = &zero;
	in.faults = in.events = 0;
	for (k = 0; k < MG_V_NR_KINDS; k++)
		in.faults += to->faults[k] - from->faults[k];
	for (k = 0; k < MG_EV_NR_KINDS; k++)
		in.events += to->by_kind[k] - from->by_kind[k];
	in.lost = to->lost - from->lost;
	in.untracked = to->untracked - from->untracked;
	in.missed = to->missed - from->missed;
	in.lock_failed = to->lock_failed - from->lock_failed;
	in.step_undecided = to->undecided - from->undecided;
	in.counts_unread = to->read_failed;
	mg_verdict_decide(v, &in);
}
