// SPDX-License-Identifier: GPL-2.0
/*
 * check_interval.c - continuous check (check -i S / -I MS [-c N]): the
 * invariants watched on the live machine, one line (or JSON object) per
 * interval with what that interval judged and found, its verdict and the
 * running verdict since the start. The counts are differences of cumulative
 * tallies (check_tally.c). Each interval is decided once into a struct
 * check_interval_result, which its line of text, its JSON object and the
 * Prometheus file (check_prom.c) render.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check_int.h"
#include "events.h"
#include "jsonnum.h"
#include "opts.h"
#include "json_writer.h"
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

/*
 * What one interval found (from..to; code: its verdict's exit code), with the running
 * verdict and the counts since the start that the Prometheus file shows: the one result
 * every rendering of an interval reads.
 */
static void interval_result(struct check_interval_result *ir, struct check_state *cs,
			    const struct check_tally *from, const struct check_tally *to, int code,
			    bool last)
{
	*ir = (struct check_interval_result){
		.n = cs->intervals, .last = last, .from = *from, .to = *to, .code = code,
		.running_code = cs->running_code, .start_ns = cs->interval_start_ns,
		.last_code = cs->prom_last_code, .streak = cs->prom_streak,
		.unreadable = cs->prom_unreadable,
		.judge_active = cs->judge.active, .forget = cs->judge.forget,
		.tree = cs->o.tree, .known_path = cs->o.known_path,
		.backend = mg_backend_name(cs->run.sess.backend),
	};
	size_t i;

	memcpy(ir->verdicts, cs->prom_verdicts, sizeof(ir->verdicts));
	snprintf(ir->release, sizeof(ir->release), "%s", cs->run.env.release);
	ir->reports = mg_checker_reports(cs->chk, &ir->nreports);
	/* continuous check has no built-in workload: no file table is allocated; the
	 * kernel's symbols once a report of this interval has a stack to name */
	for (i = from->nreports; i < to->nreports && i < ir->nreports &&
	     ir->reports[i].stack_why != MG_STACK_TAKEN; i++)
		;
	check_names_of(&ir->names, cs, i < to->nreports && i < ir->nreports);
}

/*
 * --prometheus: ir written atomically; a failure said once, and the run ends (exit 5).
 * 0 or -1; nothing without --prometheus.
 */
static int prom_write(struct check_state *cs, const struct check_interval_result *ir)
{
	if (!cs->o.prom)
		return 0;
	if (cs->prom_failed)	/* said once; the run is ending */
		return -1;
	if (check_prom_write(ir, cs->o.prom)) {
		cs->prom_failed = true;
		return -1;
	}
	return 0;
}

void check_interval_start(struct check_state *cs)
{
	struct check_interval_result ir;

	/* from zero: the intervals partition the window (attach to detach), so their counts
	 * sum to the report's; the last is read after the drain */
	memset(&cs->tally, 0, sizeof(cs->tally));
	/* the first interval begins where the report's window does (run.first) */
	cs->tally.t_ns = cs->run.first.t_ns ? cs->run.first.t_ns : mg_now_ns();
	cs->interval_start_ns = cs->tally.t_ns;
	cs->next_interval_ns = cs->tally.t_ns + (uint64_t)(cs->o.interval * 1e9);
	cs->running_code = MG_EXIT_OK;
	/* --prometheus: the file exists from the start, every count 0, no interval yet */
	interval_result(&ir, cs, &cs->tally, &cs->tally, MG_EXIT_OK, false);
	prom_write(cs, &ir);
	check_names_free(&ir.names);
	if (cs->o.test_inject && cs->o.test_inject_interval == 1)
		check_inject(cs);
}

/* One interval's line of text: counts, the first violation of each kind it found, verdicts. */
static void put_text(const struct check_interval_result *ir, FILE *f)
{
	const struct check_tally *a = &ir->from, *b = &ir->to;
	uint64_t ev = 0, faults = 0;
	char w1[80], w2[80];
	size_t i;
	int k;

	for (k = 0; k < MG_EV_NR_KINDS; k++)
		ev += b->by_kind[k] - a->by_kind[k];
	for (k = 0; k < MG_V_NR_KINDS; k++)
		faults += b->faults[k] - a->faults[k];
	fprintf(f, "interval %llu%s %.3f s: events %llu (", (unsigned long long)ir->n,
		ir->last ? " (last)" : "", (double)(b->t_ns - a->t_ns) / 1e9, (unsigned long long)ev);
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
	if (ir->judge_active)
		fprintf(f, " (%llu KiB in BPF)", (unsigned long long)(b->inode_bytes / 1024));
	if (ir->forget && ir->judge_active)
		fprintf(f, ", history forgotten %llu", (unsigned long long)(b->forgotten - a->forgotten));
	fprintf(f, "%s: %s, running %s\n", b->read_failed ? " (a counter could not be read)" : "",
		mg_verdict_word_forgotten(word(ir->code), ir->code, b->forgotten - a->forgotten, w1,
					  sizeof(w1)),
		mg_verdict_word_forgotten(word(ir->running_code), ir->running_code, b->forgotten, w2,
					  sizeof(w2)));
	for (k = 0; k < MG_V_NR_KINDS; k++) {
		const struct mg_violation *vs;
		size_t n;

		if (b->faults[k] == a->faults[k])
			continue;
		vs = ir->reports;
		n = ir->nreports;
		for (i = a->nreports; i < n && i < b->nreports; i++)
			if ((int)vs[i].kind == k && vs[i].known < 0 && !vs[i].step_explained &&
			    !vs[i].step_undecided) {
				fputs("  e.g. ", f);
				check_put_violation(f, &ir->names, &vs[i], false, -1);
				fputc('\n', f);
				break;
			}
	}
	fflush(f);
}

/* One interval's JSON object (docs/json.md "check_interval"). */
static void put_json(const struct check_interval_result *ir, FILE *f)
{
	json_t *o = json_object(), *jk = json_object(), *jv = json_object(), *je = json_object();
	const struct check_tally *a = &ir->from, *b = &ir->to;
	const struct mg_violation *vs;
	size_t n, i;
	int k;

	json_object_set_new(o, "schema_version", json_integer(1));
	json_object_set_new(o, "type", json_string("check_interval"));
	json_object_set_new(o, "interval", JI(ir->n));
	json_object_set_new(o, "last", json_boolean(ir->last));
	json_object_set_new(o, "start_s", json_real((double)(a->t_ns - ir->start_ns) / 1e9));
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
	vs = ir->reports;
	n = ir->nreports;
	for (k = 0; k < MG_V_NR_KINDS; k++) {
		json_object_set_new(jv, mg_violation_name(k), JI(b->faults[k] - a->faults[k]));
		json_object_set_new(je, mg_violation_name(k), json_null());
		for (i = a->nreports; b->faults[k] != a->faults[k] && i < n && i < b->nreports; i++)
			if ((int)vs[i].kind == k && vs[i].known < 0 && !vs[i].step_explained &&
			    !vs[i].step_undecided) {
				json_object_set_new(je, mg_violation_name(k),
						    check_json_violation(&ir->names, &vs[i]));
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
	json_object_set_new(o, "bpf_inode_bytes", ir->judge_active ? JI(b->inode_bytes) : json_null());
	/* --forget: the verdict stays PASS for a gate to read; this says what it forgot */
	json_object_set_new(o, "history_forgotten", ir->forget && ir->judge_active ?
			    JI(b->forgotten - a->forgotten) : json_null());
	json_object_set_new(o, "counts_complete", json_boolean(!b->read_failed));
	json_object_set_new(o, "verdict", json_string(word(ir->code)));
	json_object_set_new(o, "running_verdict", json_string(word(ir->running_code)));
	mg_json_print_line(f, o);
	json_decref(o);
}

bool check_interval_tick(struct check_state *cs, bool last, int final_code)
{
	struct check_interval_result ir;
	struct check_tally now;
	const struct check_tally *a = &cs->tally;
	struct mg_verdict v;
	bool failed;
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
	if (last && final_code >= 0)	/* the run's own: COMMAND, gates, interruption */
		cs->running_code = worse(cs->running_code, final_code);
	cs->intervals++;
	cs->prom_verdicts[check_verdict_rank(code)]++;
	cs->prom_streak = code == MG_EXIT_INCONCLUSIVE ? cs->prom_streak + 1 : 0;
	cs->prom_last_code = code;
	cs->prom_unreadable += now.read_failed;
	interval_result(&ir, cs, a, &now, code, last);
	if (mg_json_output)
		put_json(&ir, cs->out);
	else
		put_text(&ir, cs->out);
	cs->tally = now;
	/* a --prometheus file that cannot be written ends the run, as -o's output does */
	failed = prom_write(cs, &ir) || mg_out_failed();
	check_names_free(&ir.names);	/* its mount table: read again for the next interval */
	if (failed)
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
