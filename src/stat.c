// SPDX-License-Identifier: GPL-2.0
/*
 * stat.c - `mgtrace stat`: count multigrain events while it runs, or for the
 * lifetime of a COMMAND, as `perf stat` does. BPF counts sit beside the
 * kernel's own counters (per-CPU ksyms where readable, debugfs totals always)
 * for the same window, and every mismatch is flagged.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "backend.h"
#include "commands.h"
#include "counters.h"
#include "latency.h"
#include "report.h"
#include "run.h"
#include "util.h"
#include "opts.h"

struct stat_opts {
	double interval;	/* seconds between interval rows; 0: none */
	uint64_t count;		/* stop after this many intervals; 0: no limit */
	bool per_cpu;		/* per-CPU table on every interval */
	bool hot;		/* also probe current_time and coarse_mg */
	bool latency;		/* time inode_set_ctime_current and ktime_get_real_ts64_mg */
	enum mg_backend backend;
	bool backend_given;	/* --backend fentry|kprobe|tracepoint: probes count every row */
	unsigned int events;	/* -e: opted-in event counters, 1 << index in mg_tp_names[] */
	char **argv;		/* COMMAND, or NULL */
};

/* A stat run: the shared measurement run plus stat's options and output. */
struct stat_run {
	struct stat_opts o;
	struct mg_run run;
	struct mg_latency *lat;	/* --latency histograms, or NULL */
	FILE *out;		/* mg_out: -o FILE, stderr with COMMAND, else stdout */
};

static int usage(FILE *f, int code)
{
	fprintf(f,
		"Usage: mgtrace stat [-i SECONDS] [-c COUNT] [--per-cpu] [--json] [-o FILE]\n"
		"                    [-e EVENTS] [--backend auto|kernel|fentry|kprobe|tracepoint]\n"
		"                    [--hot] [--latency] [-- COMMAND [ARGS...]]\n"
		"Count multigrain timestamp events until interrupted (SIGINT/SIGTERM), for COUNT\n"
		"intervals, or for the lifetime of COMMAND (then exit with its status).\n"
		"By default ctime_updates, ctime_swaps, fine_stamps and floor_swaps come from the\n"
		"kernel's own per-CPU counters, with no program on the write or stat path; the\n"
		"counters that exist only as tracepoint events are opt-in with -e.\n"
		"  -e, --events LIST    also count these event counters (comma-separated):\n"
		"                       stat_queries (timestamp:fill_mg_cmtime), ctime_skips\n"
		"                       (timestamp:ctime_xchg_skip), ctime_sets\n"
		"                       (timestamp:inode_set_ctime_to_ts), or all\n"
		"  -i, --interval S     print a row of totals every S seconds (0.01..86400)\n"
		"  -c, --count N        stop after N intervals (default interval 1 s)\n"
		"  -p, --per-cpu        per-CPU table with every interval (the summary always has one)\n"
		"  -j, --json           one JSON object per line: each interval and the summary\n"
		"  -o, --output FILE    write results to FILE instead of stdout\n"
		"  -b, --backend B      auto (default): the kernel's per-CPU counters where\n"
		"                       readable, else fentry, kprobe, then tracepoints only;\n"
		"                       kernel: those counters or fail; fentry, kprobe,\n"
		"                       tracepoint: count with probes, every event counter on\n"
		"  -H, --hot            also count current_time and ktime_get_coarse_real_ts64_mg\n"
		"                       (they run on every write; function-probe backends only)\n"
		"  -L, --latency        log2 histograms (ns) of the time spent in\n"
		"                       ktime_get_real_ts64_mg and inode_set_ctime_current, total\n"
		"                       and per CPU (function-probe backends only; with --per-cpu,\n"
		"                       each CPU's histogram)\n"
		"Exit codes: 0 ok (or COMMAND's status), 2 usage, 3 environment unsupported.\n");
	return code;
}

/* Event counters -e names, in mg_tp_names[] order (ctime_swaps is the kernel's). */
static const char *const event_names[MG_NR_TPS] = {
	NULL, "ctime_skips", "stat_queries", "ctime_sets",
};

/* Parse -e LIST into *mask (1 << tracepoint index). Returns 0 or MG_EXIT_USAGE (printed). */
static int parse_events(const char *list, unsigned int *mask)
{
	char buf[256], *save = NULL, *t;
	int i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "all")) {
			*mask |= (1u << MG_NR_TPS) - 2;
			continue;
		}
		for (i = 1; i < MG_NR_TPS; i++)
			if (!strcmp(t, event_names[i]))
				break;
		if (i == MG_NR_TPS)
			return mg_err(MG_EXIT_USAGE, "stat: unknown event counter '%s' (stat_queries, "
				      "ctime_skips, ctime_sets, all%s)", t, !strcmp(t, "ctime_swaps") ?
				      "; ctime_swaps is always counted" : "");
		*mask |= 1u << i;
	}
	if (!*mask)
		return mg_err(MG_EXIT_USAGE, "stat: empty event list '%s'", list);
	return 0;
}

static int parse_opts(struct stat_opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "interval", required_argument, 0, 'i' }, { "count", required_argument, 0, 'c' },
		{ "per-cpu", no_argument, 0, 'p' }, MG_OPT_COMMON_LONG,
		{ "backend", required_argument, 0, 'b' },
		{ "hot", no_argument, 0, 'H' }, { "latency", no_argument, 0, 'L' },
		{ "help", no_argument, 0, 'h' }, { "events", required_argument, 0, 'e' }, { 0 } };
	int c;

	optind = 1;
	opterr = 0;
	/* '+': stop at the first non-option, which starts COMMAND. */
	while ((c = getopt_long(argc, argv, "+:i:c:pb:HLhe:" MG_OPT_COMMON_SHORT, lo, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (mg_parse_seconds(optarg, 86400, &o->interval) || o->interval < 0.01)
				return mg_err(MG_EXIT_USAGE, "stat: invalid interval '%s' "
					      "(seconds, 0.01 to 86400)", optarg);
			break;
		case 'c':
			if (mg_parse_u64(optarg, 1, 1000000000, &o->count))
				return mg_err(MG_EXIT_USAGE, "stat: invalid count '%s' "
					      "(1 to 1000000000)", optarg);
			break;
		case 'p': o->per_cpu = true; break;
		case 'b':
			/* "kernel" is stat's own: the other commands need their probes */
			if (mg_opt_backend("stat", optarg, MG_OPT_BE_TRACEPOINT | MG_OPT_BE_KERNEL,
					   &o->backend))
				return MG_EXIT_USAGE;
			o->backend_given = o->backend != MG_BE_AUTO && o->backend != MG_BE_KERNEL;
			break;
		case 'e':
			if (parse_events(optarg, &o->events))
				return MG_EXIT_USAGE;
			break;
		case 'H': o->hot = true; break;
		case 'L': o->latency = true; break;
		case 'h': exit(usage(stdout, MG_EXIT_OK));
		default:
			if (!mg_opt_common(c, optarg))
				return mg_bad_option("stat", c, argv);
		}
	}
	if (o->count && !o->interval)
		o->interval = 1;
	if (o->hot && o->backend == MG_BE_TRACEPOINT)
		return mg_err(MG_EXIT_USAGE, "stat: --hot needs a function-probe backend "
			      "(fentry or kprobe), not tracepoint");
	if (o->latency && o->backend == MG_BE_TRACEPOINT)
		return mg_err(MG_EXIT_USAGE, "stat: --latency needs a function-probe backend "
			      "(fentry or kprobe), not tracepoint");
	if (optind < argc)
		o->argv = &argv[optind];
	return MG_EXIT_OK;
}

static void print_interval(struct stat_run *r, uint64_t n)
{
	struct mg_run *R = &r->run;
	struct mg_report rep;

	if (mg_report_build(&rep, &R->cfg, &R->prev, &R->cur))
		return;
	if (mg_json_output) {
		json_t *o = mg_run_json_header(R, "interval");

		json_object_set_new(o, "interval", json_integer((json_int_t)n));
		json_object_set_new(o, "elapsed_s", json_real((R->cur.t_ns - R->first.t_ns) / 1e9));
		json_object_set_new(o, "duration_s", json_real(rep.seconds));
		json_object_set_new(o, "mismatches", json_integer(rep.mismatches));
		json_object_set_new(o, "counters", mg_report_json(&rep));
		mg_json_print_line(r->out, o);
		json_decref(o);
	} else {
		if (n == 1 || r->o.per_cpu)
			mg_report_print_interval_header(r->out);
		mg_report_print_interval(r->out, &rep, (R->cur.t_ns - R->first.t_ns) / 1e9);
		if (r->o.per_cpu)
			mg_report_print_percpu(r->out, &rep);
	}
	mg_report_free(&rep);
}

static void print_summary(struct stat_run *r)
{
	struct mg_run *R = &r->run;
	struct mg_report rep;

	char mdetail[512];
	uint64_t misses = mg_session_recursion_misses(&R->sess, mdetail, sizeof(mdetail));

	if (mg_report_build(&rep, &R->cfg, &R->first, &R->cur))
		return;
	if (mg_json_output) {
		json_t *o = mg_run_json_header(R, "summary"), *argv;

		json_object_set_new(o, "duration_s", json_real(rep.seconds));
		json_object_set_new(o, "backend_attempts", mg_run_json_attempts(R));
		if (r->o.argv) {
			argv = json_array();
			for (char **a = r->o.argv; *a; a++)
				json_array_append_new(argv, mg_json_cstr(*a));
			json_object_set_new(o, "command", argv);
			json_object_set_new(o, "command_status", json_integer(R->child_status));
		}
		json_object_set_new(o, "mismatches", json_integer(rep.mismatches));
		json_object_set_new(o, "bpf_recursion_misses", json_integer((json_int_t)misses));
		json_object_set_new(o, "bpf_recursion_misses_by_program", json_string(mdetail));
		json_object_set_new(o, "counters", mg_report_json(&rep));
		if (r->lat)
			json_object_set_new(o, "latency", mg_latency_json(r->lat));
		mg_json_print_line(r->out, o);
		json_decref(o);
	} else {
		fprintf(r->out, "\nmgtrace stat: %.3f s on kernel %s, %d possible CPUs\n",
			rep.seconds, R->env.release, R->sess.nr_cpus);
		mg_run_print_backend(R, r->out);
		fputc('\n', r->out);
		mg_report_print_summary(r->out, &rep);
		fputc('\n', r->out);
		mg_report_print_percpu(r->out, &rep);
		if (misses)
			fprintf(r->out, "\nBPF programs skipped %llu runs (kernel recursion_misses: the "
				"program was already running on that CPU, e.g. preempted inside it): "
				"the counts they feed are short by that many; %s\n",
				(unsigned long long)misses, mdetail);
		if (r->lat)
			mg_latency_print(r->lat, r->out, r->o.per_cpu);
		fflush(r->out);
	}
	mg_report_free(&rep);
}

/* Count until COMMAND exits, a signal arrives or COUNT intervals passed. */
static int main_loop(struct stat_run *r)
{
	struct mg_run *R = &r->run;
	uint64_t n = 0, interval_ns = (uint64_t)(r->o.interval * 1e9), next;
	int err;

	next = R->first.t_ns + interval_ns;
	for (;;) {
		struct timespec ts;

		if (interval_ns) {
			uint64_t now = mg_now_ns(), left = next > now ? next - now : 0;

			ts.tv_sec = left / 1000000000ull;
			ts.tv_nsec = left % 1000000000ull;
		}
		if (mg_run_wait(R, interval_ns ? &ts : NULL))
			break;
		if (interval_ns && mg_now_ns() >= next) {
			if ((err = mg_run_snap(R, &R->cur)))
				return err;
			print_interval(r, ++n);
			mg_run_copy_snap(R, &R->prev, &R->cur);
			next += interval_ns;
			if (r->o.count && n >= r->o.count)
				break;
		}
	}
	mg_run_end_child(R);
	if ((err = mg_run_snap(R, &R->cur)))
		return err;
	/* the latency window ends right after the counters' (as it starts: latency_start) */
	if (r->lat && (err = mg_latency_read(r->lat, false)))
		mg_err(MG_EXIT_FAIL, "reading latency histograms: %s", strerror(-err));
	return err;
}

/* mg_run::at_start hook: the latency baseline, after the counters' first snapshot. */
static int latency_start(void *arg)
{
	struct stat_run *r = arg;
	int err = mg_latency_read(r->lat, true);

	if (err)
		mg_err(MG_EXIT_FAIL, "reading latency histograms: %s", strerror(-err));
	return err;
}

/*
 * --latency: load the latency probes with the session's probe types. Returns an
 * exit code: MG_EXIT_ENV (one line) without a function-probe backend or when the
 * probes cannot be attached.
 */
static int setup_latency(struct stat_run *r)
{
	struct mg_session *s = &r->run.sess;
	char why[320];

	if (!mg_backend_has_funcs(s->backend))
		return mg_err(MG_EXIT_ENV, "--latency needs a function-probe backend (fentry or "
			      "kprobe): fentry refused: %s; kprobe refused: %s",
			      s->attempts[MG_BE_FENTRY].tried ? s->attempts[MG_BE_FENTRY].why : "not tried",
			      s->attempts[MG_BE_KPROBE].tried ? s->attempts[MG_BE_KPROBE].why : "not tried");
	r->lat = mg_latency_open(s, why, sizeof(why));
	if (!r->lat)
		return mg_err(MG_EXIT_ENV, "latency probes unavailable: %s", why);
	r->run.at_start = latency_start;
	r->run.at_start_arg = r;
	return MG_EXIT_OK;
}

/* Attach, count, print. Returns an exit code. Used by `stat` and the default job. */
static int run_stat(struct stat_run *r)
{
	struct mg_session_opts so = {
		.hot = r->o.hot,
		/* the default: the kernel's counters, event counters opted in with -e */
		.prefer_kernel = !r->o.backend_given && !r->o.hot && !r->o.latency,
		.tp_select = !r->o.backend_given,
		.tp_mask = r->o.events,
		.tp_off_why = "not counted: opt in with -e %s (or -e all)",
	};
	int ret;

	if ((ret = mg_out_open("stat", r->o.argv != NULL)))
		return ret;
	r->out = mg_out;
	if ((ret = mg_run_setup(&r->run, r->o.backend, &so)))
		goto out;
	if (r->o.hot && !mg_backend_has_funcs(r->run.sess.backend)) {
		const struct mg_attempt *a = r->run.sess.attempts;

		ret = mg_err(MG_EXIT_ENV, "--hot needs a function-probe backend (fentry or kprobe): "
			     "fentry refused: %s; kprobe refused: %s",
			     a[MG_BE_FENTRY].tried ? a[MG_BE_FENTRY].why : "not tried",
			     a[MG_BE_KPROBE].tried ? a[MG_BE_KPROBE].why : "not tried");
		goto out;
	}
	if (r->o.latency && (ret = setup_latency(r)))
		goto out;
	if (r->o.argv && (ret = mg_run_spawn(&r->run, r->o.argv)))
		goto out;
	if (mg_run_start(&r->run)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	if (r->run.exec_err) {	/* COMMAND never ran: its one line said why; no report */
		mg_run_end_child(&r->run);
		ret = r->run.exec_err == ENOENT ? 127 : 126;
		goto out;
	}
	if (!mg_json_output && r->run.sess.backend == MG_BE_KERNEL)
		fprintf(stderr, "mgtrace: counting with backend kernel (%s%s)%s\n",
			r->run.cfg.kpc_method, r->run.sess.tp_mask ? ", opted-in tracepoints" :
			"; no probes", r->o.argv ? "" : "; Ctrl-C to stop");
	else if (!mg_json_output)
		fprintf(stderr, "mgtrace: counting with backend %s (tracepoints as %s)%s\n",
			mg_backend_name(r->run.sess.backend), r->run.cfg.tp_flavour,
			r->o.argv ? "" : "; Ctrl-C to stop");
	if (main_loop(r)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	print_summary(r);
	ret = r->o.argv ? r->run.child_status : MG_EXIT_OK;
out:
	mg_latency_close(r->lat);
	r->lat = NULL;
	mg_run_cleanup(&r->run);
	if (mg_out_close() && !ret)
		ret = MG_EXIT_FAIL;
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_run r = { 0 };
	int ret = parse_opts(&r.o, argc, argv);

	if (ret)
		return ret;
	return run_stat(&r);
}

int cmd_default(const char *self)
{
	static char *argv[] = { NULL, "stress", "--duration", "3", NULL };
	struct stat_run r = { 0 };

	argv[0] = (char *)self;
	r.o.argv = argv;
	return run_stat(&r);
}
