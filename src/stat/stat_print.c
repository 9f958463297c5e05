// SPDX-License-Identifier: GPL-2.0
/* stat_print.c - what `mgtrace stat` prints (see stat_int.h, docs/json.md). */
#include <string.h>
#include <jansson.h>
#include "json_writer.h"
#include "opts.h"
#include "stat_int.h"
#include "term.h"
#include "util.h"

/* perf stat repeats its interval header every 25 rows on a terminal */
#define HEADER_EVERY 25

/* The fields every stat object has after the run's header: scope. */
static json_t *header(struct stat_run *r, const char *type)
{
	json_t *o = mg_run_json_header(&r->run, type);

	json_object_set_new(o, "scope", json_string(r->scope));
	if (r->o.cpus.given) {	/* -C: the CPUs whose counts the totals sum */
		json_t *c = json_array();

		for (int cpu = 0; cpu < MG_MAX_CPUS; cpu++)
			if (mg_cpus_has(&r->o.cpus, cpu))
				json_array_append_new(c, json_integer(cpu));
		json_object_set_new(o, "cpus", c);
	}
	if (r->scope_cost[0])
		json_object_set_new(o, "scope_cost", json_string(r->scope_cost));
	return o;
}

/*
 * "mismatches": rows outside their debugfs bracket; null with
 * "mismatches_unavailable" when no row was compared (process scope, or no
 * debugfs reading: mg_debugfs_problem() says why), never a 0 that stands for
 * "nothing compared".
 */
static void mismatches_json(json_t *o, const struct stat_run *r, const struct mg_report *rep)
{
	char why[512];
	const char *dbg = mg_debugfs_problem(&r->run.env);

	if (rep->compared) {
		json_object_set_new(o, "mismatches", json_integer(rep->mismatches));
		return;
	}
	if (r->run.cfg.scoped)
		snprintf(why, sizeof(why), "no counter was compared with debugfs (process scope: "
			 "the kernel's counters are global)");
	else if (dbg)
		snprintf(why, sizeof(why), "no counter was compared with debugfs: %s", dbg);
	else
		snprintf(why, sizeof(why), "no counter was compared with debugfs (no row has a "
			 "debugfs counterpart with this backend)");
	json_object_set_new(o, "mismatches", json_null());
	json_object_set_new(o, "mismatches_unavailable", json_string(why));
}

/* The interval columns left out to fit the terminal (1 << enum mg_row_id), named once. */
static void left_out_note(struct stat_run *r, unsigned int left)
{
	char line[400];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "(to fit %d columns, not shown:", r->po.width);
	for (int i = 0; i < MG_R_NR && n < sizeof(line); i++)
		if (left & 1u << i)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s", mg_row_name(i));
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "; the summary, -v, -x and -j show them)");
	mg_wrap(r->out, line, 0, 2, r->po.width);
}

void stat_print_interval(struct stat_run *r, uint64_t n, bool partial)
{
	struct mg_run *R = &r->run;
	struct mg_report rep;
	char when[40];

	if (mg_report_build(&rep, &R->cfg, &R->prev, &R->cur))
		return;
	if (mg_json_output) {
		json_t *o = header(r, "interval");

		mg_clock_iso(when, sizeof(when));
		json_object_set_new(o, "interval", json_integer((json_int_t)n));
		json_object_set_new(o, "time", json_string(when));
		json_object_set_new(o, "partial", json_boolean(partial));
		json_object_set_new(o, "elapsed_s", json_real((R->cur.t_ns - R->first.t_ns) / 1e9));
		json_object_set_new(o, "duration_s", json_real(rep.seconds));
		mismatches_json(o, r, &rep);
		json_object_set_new(o, "counters", mg_report_json(&rep));
		mg_json_print_line(r->out, o);
		json_decref(o);
	} else if (r->o.sep) {	/* perf stat -I -x: seconds since the start, one line a counter */
		snprintf(when, sizeof(when), "%.9f", (R->cur.t_ns - R->first.t_ns) / 1e9);
		mg_report_print_csv(r->out, &rep, &r->po, when, r->o.per_cpu);
		r->rows++;
	} else {
		if (!r->rows) {
			struct mg_print_opts all = r->po;
			unsigned int left;

			r->po.cols = mg_report_columns(&rep, &r->po);
			all.width = 0;
			if ((left = mg_report_columns(&rep, &all) & ~r->po.cols))
				left_out_note(r, left);
		}
		if (!r->rows || r->o.per_cpu || (r->tty && !(r->rows % HEADER_EVERY)))
			mg_report_print_interval_header(r->out, &r->po);
		/* milliseconds below 1 s, and on a partial row, which may end within the
		 * second of the row before it */
		mg_clock_hms(when, sizeof(when), r->o.interval < 1 || partial);
		mg_report_print_interval(r->out, &rep, &r->po, when, partial);
		if (r->o.per_cpu)
			mg_report_print_percpu(r->out, &rep, &r->po);
		r->rows++;
	}
	mg_report_free(&rep);
}

static void summary_json(struct stat_run *r, struct mg_report *rep, uint64_t misses,
			 const char *mdetail)
{
	struct mg_run *R = &r->run;
	json_t *o = header(r, "summary");

	json_object_set_new(o, "duration_s", json_real(rep->seconds));
	/* a stop signal ends a run that has no end of its own too: said, as check does */
	json_object_set_new(o, "interrupted", R->stop_sig ? json_string(mg_signal_name(R->stop_sig)) :
			    json_null());
	json_object_set_new(o, "backend_attempts", mg_run_json_attempts(R));
	if (r->o.argv) {
		json_object_set_new(o, "command", mg_argv_json(r->o.argv));
		json_object_set_new(o, "command_status", mg_run_status_json(R));
		json_object_set_new(o, "command_ended_by_count",
				    json_boolean(r->ended_child && !r->timed_out));
		json_object_set_new(o, "command_ended_by_duration",
				    json_boolean(r->ended_child && r->timed_out));
	}
	if (r->follow) {
		json_object_set_new(o, "processes_found_at_start",
				    json_integer((json_int_t)mg_follow_found(r->follow)));
		json_object_set_new(o, "processes_followed",
				    json_integer((json_int_t)mg_follow_followed(r->follow)));
		json_object_set_new(o, "processes_not_followed",
				    json_integer((json_int_t)mg_follow_not_followed(r->follow)));
	}
	mismatches_json(o, r, rep);
	json_object_set_new(o, "bpf_recursion_misses", json_integer((json_int_t)misses));
	json_object_set_new(o, "bpf_recursion_misses_by_program", json_string(mdetail));
	json_object_set_new(o, "counters", mg_report_json(rep));
	if (r->lat)
		json_object_set_new(o, "latency", mg_latency_json(r->lat));
	mg_json_print_line(r->out, o);
	json_decref(o);
}

void stat_print_summary(struct stat_run *r)
{
	struct mg_run *R = &r->run;
	struct mg_report rep;
	char mdetail[512];
	uint64_t misses = mg_session_recursion_misses(&R->sess, mdetail, sizeof(mdetail));
	struct mg_print_opts counts = r->po;	/* the summary counts, whatever --rate */
	int online = r->nr_online;

	counts.rate = false;
	if (mg_report_build(&rep, &R->cfg, &R->first, &R->cur))
		return;
	if (mg_json_output) {
		summary_json(r, &rep, misses, mdetail);
		mg_report_free(&rep);
		return;
	}
	if (!r->o.sep) {
		char title[400];

		snprintf(title, sizeof(title), "mgtrace stat: %s, %.3f s, kernel %s, %d CPUs online",
			 r->scope, rep.seconds, R->env.release, online);
		fputc('\n', r->out);
		mg_text_wrapped(r->out, title);
		if (r->scope_cost[0]) {
			char line[300];

			snprintf(line, sizeof(line), "cost of the scope: %s", r->scope_cost);
			mg_text_wrapped(r->out, line);
		}
		if (r->follow) {
			fprintf(r->out, "processes: %llu at the start, %llu forked and followed",
				(unsigned long long)mg_follow_found(r->follow) + 1,
				(unsigned long long)mg_follow_followed(r->follow));
			/* only when the map filled: 0 is the normal case */
			if (mg_follow_not_followed(r->follow))
				fprintf(r->out, ", %llu not followed (process map full)",
					(unsigned long long)mg_follow_not_followed(r->follow));
			fputc('\n', r->out);
		}
		mg_run_print_backend(R, r->out);
		fputc('\n', r->out);
	}
	if (r->o.sep) {
		/* perf stat -I -x prints the intervals only; without -I, one line a counter,
		 * counts as in the text summary (--rate is for the interval rows) */
		if (!r->o.interval)
			mg_report_print_csv(r->out, &rep, &counts, NULL, r->o.per_cpu);
		goto notes;
	}
	mg_report_print_summary(r->out, &rep, &r->po);
	if (r->o.cpus.given) {
		char line[640];

		snprintf(line, sizeof(line), "-C %s: each total sums CPU%s %s only; debugfs has only "
			 "all-CPU sums, so its column and match judge every CPU's sum of the same "
			 "per-CPU reading (JSON: all_cpus_total)", r->o.cpus.text,
			 r->o.cpus.n > 1 ? "s" : "", r->o.cpus.text);
		mg_text_wrapped(r->out, line);
	}
	if (r->o.per_cpu) {
		fputc('\n', r->out);
		mg_report_print_percpu(r->out, &rep, &counts);
	}
notes:
	if (misses)
		fprintf(r->o.sep ? stderr : r->out, "\nBPF programs skipped %llu runs (kernel recursion_misses: the "
			"program was already running on that CPU, e.g. preempted inside it): "
			"the counts they feed are short by that many; %s\n",
			(unsigned long long)misses, mdetail);
	if (r->lat)	/* -x: the histograms are not counter lines: stderr */
		mg_latency_print(r->lat, r->o.sep ? stderr : r->out, r->o.per_cpu);
	fflush(r->out);
	mg_report_free(&rep);
}
