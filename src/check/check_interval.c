// SPDX-License-Identifier: GPL-2.0
/*
 * check_interval.c - continuous check (check -i S / -I MS [-c N]): the
 * invariants watched on the live machine, one line (or JSON object) per
 * interval with what that interval judged and found, its verdict and the
 * running verdict since the start. The counts are differences of cumulative
 * tallies: the checker's own (checker.h), plus, while BPF judges, the per-CPU
 * judging counts read from their maps (judge.h) without importing them, so the
 * end of the run adds them once as it always does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check_int.h"
#include "events.h"
#include "jsonnum.h"
#include "opts.h"
#include "report.h"
#include "vocab.h"

#define JI(x) json_integer((json_int_t)(x))

/* The worse of two verdicts by exit code: FAIL over INCONCLUSIVE over PASS. */
static int worse(int a, int b)
{
	return check_verdict_rank(a) >= check_verdict_rank(b) ? a : b;
}

static const char *word(int code)
{
	return code == MG_EXIT_FAIL ? "FAIL" : code == MG_EXIT_INCONCLUSIVE ? "INCONCLUSIVE" : "PASS";
}

void check_interval_start(struct check_state *cs)
{
	/* from zero: the intervals partition the window (attach to detach), so their counts
	 * sum to the report's; the last is read after the drain */
	memset(&cs->tally, 0, sizeof(cs->tally));
	/* the first interval begins where the report's window does (run.first) */
	cs->tally.t_ns = cs->run.first.t_ns ? cs->run.first.t_ns : mg_now_ns();
	cs->interval_start_ns = cs->tally.t_ns;
	cs->next_interval_ns = cs->tally.t_ns + (uint64_t)(cs->o.interval * 1e9);
	cs->running_code = MG_EXIT_OK;
	/* --prometheus: the file exists from the start, every count 0, no interval yet */
	check_prom_write(cs, &cs->tally, false);
	if (cs->o.test_inject && cs->o.test_inject_interval == 1)
		check_inject(cs);
}

/* One interval's line of text: counts, the first violation of each kind it found, verdicts. */
static void put_text(struct check_state *cs, const struct check_tally *a, const struct check_tally *b,
		     int code, bool last)
{
	FILE *f = cs->out;
	uint64_t ev = 0, faults = 0;
	char w1[80], w2[80];
	size_t i;
	int k;

	for (k = 0; k < MG_EV_NR_KINDS; k++)
		ev += b->by_kind[k] - a->by_kind[k];
	for (k = 0; k < MG_V_NR_KINDS; k++)
		faults += b->faults[k] - a->faults[k];
	fprintf(f, "interval %llu%s %.3f s: events %llu (", (unsigned long long)cs->intervals,
		last ? " (last)" : "", (double)(b->t_ns - a->t_ns) / 1e9, (unsigned long long)ev);
	for (k = 0; k < MG_EV_NR_KINDS; k++)
		if (!(MG_KINDS_FLOOR & 1u << k) || b->by_kind[k] != a->by_kind[k])
			fprintf(f, "%s%s %llu", k ? ", " : "", mg_event_kind_name(k),
				(unsigned long long)(b->by_kind[k] - a->by_kind[k]));
	fprintf(f, "); violations %llu, known %llu, not faults %llu; lost %llu, untracked %llu, "
		"missed %llu, undecided %llu, lock failures %llu; inodes %llu",
		(unsigned long long)faults, (unsigned long long)(b->known - a->known),
		(unsigned long long)(b->benign - a->benign), (unsigned long long)(b->lost - a->lost),
		(unsigned long long)(b->untracked - a->untracked),
		(unsigned long long)(b->missed - a->missed),
		(unsigned long long)(b->undecided - a->undecided),
		(unsigned long long)(b->lock_failed - a->lock_failed),
		(unsigned long long)b->inodes);
	if (cs->judge.active)
		fprintf(f, " (%llu KiB in BPF)", (unsigned long long)(b->inode_bytes / 1024));
	if (cs->judge.forget && cs->judge.active)
		fprintf(f, ", history forgotten %llu", (unsigned long long)(b->forgotten - a->forgotten));
	fprintf(f, "%s: %s, running %s\n", b->read_failed ? " (a counter could not be read)" : "",
		mg_verdict_word_forgotten(word(code), code, b->forgotten - a->forgotten, w1, sizeof(w1)),
		mg_verdict_word_forgotten(word(cs->running_code), cs->running_code, b->forgotten, w2,
					  sizeof(w2)));
	for (k = 0; k < MG_V_NR_KINDS; k++) {
		const struct mg_violation *vs;
		size_t n;

		if (b->faults[k] == a->faults[k])
			continue;
		vs = mg_checker_reports(cs->chk, &n);
		for (i = a->nreports; i < n && i < b->nreports; i++)
			if ((int)vs[i].kind == k && vs[i].known < 0 && !vs[i].step_explained &&
			    !vs[i].step_undecided) {
				fputs("  e.g. ", f);
				check_put_violation(f, cs, &vs[i], false, -1);
				fputc('\n', f);
				break;
			}
	}
	fflush(f);
}

/* One interval's JSON object (docs/json.md "check_interval"). */
static void put_json(struct check_state *cs, const struct check_tally *a, const struct check_tally *b,
		     int code, bool last)
{
	json_t *o = json_object(), *jk = json_object(), *jv = json_object(), *je = json_object();
	const struct mg_violation *vs;
	size_t n, i;
	int k;

	json_object_set_new(o, "schema_version", json_integer(1));
	json_object_set_new(o, "type", json_string("check_interval"));
	json_object_set_new(o, "interval", JI(cs->intervals));
	json_object_set_new(o, "last", json_boolean(last));
	json_object_set_new(o, "start_s", json_real((double)(a->t_ns - cs->interval_start_ns) / 1e9));
	json_object_set_new(o, "duration_s", json_real((double)(b->t_ns - a->t_ns) / 1e9));
	for (k = 0; k < MG_EV_NR_KINDS; k++)
		if (!(MG_KINDS_FLOOR & 1u << k))
			json_object_set_new(jk, mg_event_kind_name(k),
					    JI(b->by_kind[k] - a->by_kind[k]));
	json_object_set_new(jk, "floor", JI(b->by_kind[MG_EV_FLOOR_SWAP] + b->by_kind[MG_EV_FLOOR_FAIL] +
					    b->by_kind[MG_EV_FLOOR_UNKNOWN] -
					    a->by_kind[MG_EV_FLOOR_SWAP] - a->by_kind[MG_EV_FLOOR_FAIL] -
					    a->by_kind[MG_EV_FLOOR_UNKNOWN]));
	json_object_set_new(o, "events_by_kind", jk);
	vs = mg_checker_reports(cs->chk, &n);
	for (k = 0; k < MG_V_NR_KINDS; k++) {
		json_object_set_new(jv, mg_violation_name(k), JI(b->faults[k] - a->faults[k]));
		json_object_set_new(je, mg_violation_name(k), json_null());
		for (i = a->nreports; b->faults[k] != a->faults[k] && i < n && i < b->nreports; i++)
			if ((int)vs[i].kind == k && vs[i].known < 0 && !vs[i].step_explained &&
			    !vs[i].step_undecided) {
				json_object_set_new(je, mg_violation_name(k),
						    check_json_violation(cs, &vs[i]));
				break;
			}
	}
	json_object_set_new(o, "violations", jv);
	json_object_set_new(o, "first_violations", je);
	json_object_set_new(o, "known", JI(b->known - a->known));
	json_object_set_new(o, "not_faults", JI(b->benign - a->benign));
	json_object_set_new(o, "lost_events", JI(b->lost - a->lost));
	json_object_set_new(o, "untracked_events", JI(b->untracked - a->untracked));
	json_object_set_new(o, "missed_bpf_runs", JI(b->missed - a->missed));
	json_object_set_new(o, "undecided", JI(b->undecided - a->undecided));
	json_object_set_new(o, "lock_failed_events", JI(b->lock_failed - a->lock_failed));
	json_object_set_new(o, "inodes_tracked", JI(b->inodes));
	json_object_set_new(o, "bpf_inode_bytes", cs->judge.active ? JI(b->inode_bytes) : json_null());
	/* --forget: the verdict stays PASS for a gate to read; this says what it forgot */
	json_object_set_new(o, "history_forgotten", cs->judge.forget && cs->judge.active ?
			    JI(b->forgotten - a->forgotten) : json_null());
	json_object_set_new(o, "counts_complete", json_boolean(!b->read_failed));
	json_object_set_new(o, "verdict", json_string(word(code)));
	json_object_set_new(o, "running_verdict", json_string(word(cs->running_code)));
	mg_json_print_line(cs->out, o);
	json_decref(o);
}

bool check_interval_tick(struct check_state *cs, bool last)
{
	struct check_tally now;
	const struct check_tally *a = &cs->tally;
	struct mg_verdict v;
	int code;

	if (!last && cs->prom_failed)	/* the first --prometheus write failed */
		return true;
	if (!last && mg_now_ns() < cs->next_interval_ns)
		return false;
	/* the -c Nth interval is printed after the drain, whole, as the last */
	if (!last && cs->o.count && cs->intervals + 1 >= cs->o.count)
		return true;
	check_tally_read(cs, &now, last);
	/* the interval's counts alone: no gate, COMMAND or interruption is an interval's */
	check_decide_counts(&v, a, &now, &(struct mg_verdict_in){ 0 });
	code = v.code;
	cs->running_code = worse(cs->running_code, code);
	cs->intervals++;
	cs->prom_verdicts[check_verdict_rank(code)]++;
	cs->prom_streak = code == MG_EXIT_INCONCLUSIVE ? cs->prom_streak + 1 : 0;
	cs->prom_last_code = code;
	cs->prom_unreadable += now.read_failed;
	if (mg_json_output)
		put_json(cs, a, &now, code, last);
	else
		put_text(cs, a, &now, code, last);
	cs->tally = now;
	/* a --prometheus file that cannot be written ends the run, as -o's output does */
	if (check_prom_write(cs, &now, last) || mg_out_failed())
		return true;
	if (!last && cs->o.test_inject && cs->o.test_inject_interval == (int)cs->intervals + 1)
		check_inject(cs);
	while (cs->next_interval_ns <= now.t_ns)
		cs->next_interval_ns += (uint64_t)(cs->o.interval * 1e9);
	return cs->o.count && cs->intervals >= cs->o.count;
}

int check_inject(struct check_state *cs)
{
	char why[200];

	if (mg_judge_inject(&cs->judge, cs->run.sess.skel, cs->chk, cs->o.test_inject, why,
			    sizeof(why)))
		return mg_err(MG_EXIT_FAIL, "check: MGTRACE_TEST_INJECT: %s", why);
	return MG_EXIT_OK;
}

int check_wait_ms(const struct check_state *cs, unsigned int tick_ms)
{
	uint64_t ms = tick_ms, now, left;

	if (cs->o.interval && cs->next_interval_ns) {
		now = mg_now_ns();
		left = cs->next_interval_ns > now ? (cs->next_interval_ns - now + 999999) / 1000000 : 0;
		if (left < ms)
			ms = left;
	}
	return (int)ms;
}
