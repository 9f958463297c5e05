// SPDX-License-Identifier: GPL-2.0
/*
 * stat.c - `mgtrace stat`: count multigrain events while it runs, or for the
 * lifetime of a COMMAND, as `perf stat` does. BPF counts sit beside the
 * kernel's own counters (per-CPU ksyms where readable, debugfs totals always)
 * for the same window, and every mismatch is flagged.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "backend.h"
#include "commands.h"
#include "counters.h"
#include "opts.h"
#include "optab.h"
#include "prom.h"
#include "stat_int.h"
#include "term.h"
#include "util.h"
#include "vocab.h"

/* --prometheus: the counters since start, after n intervals; a failure is counted. */
static void prom_write(struct stat_run *r, uint64_t n)
{
	if (r->o.prom && mg_prom_write(r->o.prom, &r->run, r->scope, n))
		r->prom_failed++;
}

/*
 * Count until COMMAND exits, a signal arrives or COUNT intervals passed. The last,
 * shorter interval of an interval run ended by COMMAND or a signal is printed too.
 */
static int main_loop(struct stat_run *r)
{
	struct mg_run *R = &r->run;
	uint64_t n = 0, interval_ns = (uint64_t)(r->o.interval * 1e9), tick_ns, next, end = 0;
	bool counted_out = false, snapped = false;
	int err;

	/* --prometheus without -i/-I: the file is still rewritten every
	 * MG_PROM_INTERVAL_S (no rows printed), never left at its start values */
	tick_ns = interval_ns ? interval_ns : r->o.prom ? MG_PROM_INTERVAL_S * 1000000000ull : 0;
	next = R->first.t_ns + tick_ns;
	/* -d/--timeout: the window's end, counted from its first snapshot */
	if (r->o.duration)
		end = R->first.t_ns + (uint64_t)(r->o.duration * 1e9);
	mg_run_copy_snap(R, &R->cur, &R->first);
	prom_write(r, 0);
	/* a --prometheus file that cannot be written ends the run as -o's output does:
	 * a collector would go on serving the last file written */
	if (r->prom_failed)
		counted_out = r->out_ended = true;
	while (!counted_out) {
		struct timespec ts;
		uint64_t now;
		bool over;

		if (tick_ns || end) {
			uint64_t at = !end || (tick_ns && next < end) ? next : end, left;

			now = mg_now_ns();
			left = at > now ? at - now : 0;
			ts.tv_sec = left / 1000000000ull;
			ts.tv_nsec = left % 1000000000ull;
		}
		if (mg_run_wait(R, tick_ns || end ? &ts : NULL))
			break;
		now = mg_now_ns();	/* one reading judges both ends: the interval's and -d's */
		over = end && now >= end;
		if (tick_ns && now >= next) {
			if ((err = mg_run_snap(R, &R->cur)))
				return err;
			if (interval_ns)
				stat_print_interval(r, ++n, false);
			prom_write(r, n);
			if (interval_ns)
				mg_run_copy_snap(R, &R->prev, &R->cur);
			/* after a stall (the machine, a blocked output) the next interval ends at
			 * the first boundary at least half an interval ahead: one longer interval, not a burst of
			 * near-empty ones (each row says its real length: JSON duration_s) */
			next += tick_ns;
			for (uint64_t now = mg_now_ns(); next <= now + tick_ns / 2;)
				next += tick_ns;
			/* the output or --prometheus failed (a closed pipe, a full disk) or was
			 * abandoned: the run ends here, as at COUNT (COMMAND is ended) */
			if (mg_out_failed() || r->prom_failed) {
				counted_out = r->out_ended = true;
				break;
			}
			/* COUNT intervals, or the duration ending on an interval's end: the
			 * run ends with that interval (no empty last one) */
			if (interval_ns && ((r->o.count && n >= r->o.count) || over)) {
				counted_out = true;
				r->timed_out = over && !(r->o.count && n >= r->o.count);
				break;
			}
		}
		/* between two intervals: the window ends now, before COMMAND is ended (a last,
		 * partial interval below) */
		if (over) {
			r->timed_out = snapped = true;
			if ((err = mg_run_snap(R, &R->cur)))
				return err;
			break;
		}
	}
	/* COUNT intervals done while COMMAND runs: mgtrace ends it, as asked (exit 0) */
	r->ended_child = (counted_out || r->timed_out) && R->child && !R->child_done;
	mg_run_end_child(R);	/* SIGTERM, SIGKILL after the grace, as check does */
	if (r->out_ended)	/* COMMAND may have been blocked on the same output */
		mg_out_note("the run ended at interval %llu%s", (unsigned long long)n,
			    !r->ended_child ? "" :
			    R->child_abandoned || R->child_signal == SIGKILL ?
			    ", COMMAND killed (SIGKILL: SIGTERM did not end it)" :
			    ", COMMAND ended (SIGTERM)");
	/* ended at an interval (COUNT, a failed output): the summary is that interval's end,
	 * so the rows add up to it exactly; ended otherwise, a last, partial row */
	if (!(counted_out && n > 0) && !snapped && (err = mg_run_snap(R, &R->cur)))
		return err;
	if (interval_ns && !counted_out && R->cur.t_ns > R->prev.t_ns)
		stat_print_interval(r, ++n, true);
	if (!r->prom_failed)	/* one line for a failed file, not one per attempt */
		prom_write(r, n);
	r->prom_done = true;
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

/*
 * Process scope (-p PID, --tree): follow the tree in BPF and count only its events.
 * Sets the scope texts; returns an exit code.
 */
static int setup_scope(struct stat_run *r, struct mg_session_opts *so)
{
	char why[360];

	if (!r->o.pids.n && !r->o.tree) {
		snprintf(r->scope, sizeof(r->scope), "system-wide");
		return MG_EXIT_OK;
	}
	if (r->o.pids.n)
		r->follow = mg_follow_open_pids(&r->run.env, r->o.pids.pid, r->o.pids.n, true, why, sizeof(why));
	else
		r->follow = mg_follow_open(&r->run.env, r->run.child, false, why, sizeof(why));
	if (!r->follow)
		return mg_err(MG_EXIT_ENV, "stat: cannot follow the process tree: %s", why);
	if (r->o.pids.n) {
		mg_pids_scope(&r->o.pids, r->scope, sizeof(r->scope));
		r->run.alive = mg_follow_alive;	/* the run ends when they have all exited */
		r->run.alive_arg = r->follow;
	} else
		snprintf(r->scope, sizeof(r->scope), "COMMAND (pid %d) and its descendants",
			 (int)r->run.child);
	so->count_scoped = true;
	so->traced_tgids_fd = mg_follow_fd(r->follow);
	so->prefer_kernel = false;
	/* every tracepoint: the kernel's counters are global, the events are all there is */
	so->tp_mask |= (1u << MG_NR_TPS) - 1;
	return MG_EXIT_OK;
}

/* The cost line of process scope, once the session says what is attached. */
static void scope_cost(struct stat_run *r)
{
	const struct mg_session *s = &r->run.sess;
	size_t n;

	if (!r->follow)
		return;
	n = snprintf(r->scope_cost, sizeof(r->scope_cost), "every process runs the attached "
		     "programs (%s%s) and one hash lookup of its tgid per event; only the tree's "
		     "events count; the kernel's global counters are not used",
		     mg_backend_has_funcs(s->backend) ? mg_backend_name(s->backend) : "",
		     mg_backend_has_funcs(s->backend) ? " and tracepoints" : "tracepoints");
	(void)n;
}

/* The line on stderr that says what is counted, wrapped to its terminal (text mode). */
static void print_counting(struct stat_run *r)
{
	char line[512], end[64] = "";

	if (mg_json_output)
		return;
	if (r->o.duration)
		snprintf(end, sizeof(end), "; for %g s%s", r->o.duration,
			 r->o.argv ? " at most" : " (Ctrl-C stops it sooner)");
	else if (!r->o.argv)
		snprintf(end, sizeof(end), "; Ctrl-C to stop");
	if (r->run.sess.backend == MG_BE_KERNEL)
		snprintf(line, sizeof(line), "mgtrace: counting %s with backend kernel (the "
			 "kernel's counters, %s)%s", r->scope, r->run.sess.tp_mask ?
			 "opted-in tracepoints" : "no probes", end);
	else
		snprintf(line, sizeof(line), "mgtrace: counting %s with backend %s (tracepoints "
			 "as %s)%s", r->scope, mg_backend_name(r->run.sess.backend),
			 r->run.cfg.tp_flavour, end);
	mg_wrap(stderr, line, 0, 2, mg_term_size(STDERR_FILENO).cols);
}

/*
 * On stderr, in text mode: how a run with an end of its own (-c, -d, --timeout) ended,
 * where the summary does not show it: a stop signal before that end, or COMMAND ended
 * by it (exit 0, COMMAND's own status said).
 */
static void print_end(const struct stat_run *r)
{
	const char *opt = !r->o.duration ? "-c" : r->o.dur_opt == 'd' ? "-d" : "--timeout";
	char what[64];

	if (mg_json_output)
		return;
	if (r->run.stop_sig && (r->o.duration || r->o.count)) {
		fprintf(stderr, "mgtrace: %s ended the run before %s's end\n",
			mg_signal_name(r->run.stop_sig), opt);
		return;
	}
	if (!r->ended_child)
		return;
	if (r->timed_out)
		snprintf(what, sizeof(what), "%g s done (%s)", r->o.duration, opt);
	else
		snprintf(what, sizeof(what), "%llu intervals done", (unsigned long long)r->o.count);
	fprintf(stderr, "mgtrace: %s: COMMAND was still running and was ended (%s, its status "
		"%d); exit 0\n", what, r->run.child_signal == SIGKILL ?
		"SIGKILL: SIGTERM did not end it" : "SIGTERM", r->run.child_status);
}

/*
 * The end of a run that exits with ret: everything released, and the reports asked for
 * written when there is no result to write (-o's error record; --prometheus FILE says so,
 * never left with an earlier run's counts: mg_prom_write_error). Returns the exit code.
 */
static int stat_finish(struct stat_run *r, int ret)
{
	mg_latency_close(r->lat);
	r->lat = NULL;
	mg_run_cleanup(&r->run);
	mg_follow_close(r->follow);
	r->follow = NULL;
	free(r->online);
	if (mg_run_refused(&r->run, ret))
		mg_out_error("stat", ret);
	/* no count to end with: refused, or an error before the last one */
	if (r->o.prom && ret && !r->prom_done && !r->prom_failed)
		mg_prom_write_error(r->o.prom, "mgtrace", ret);
	if (mg_out_close() && !ret)
		ret = MG_EXIT_OUTPUT;
	return ret;
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
	int ret, nr = mg_nr_cpus();

	/* with COMMAND, results go to stderr (COMMAND's stdout stays its own); the demo's
	 * COMMAND is mgtrace's own, and they go to stdout with its result. Intervals stream
	 * as they go; else the report replaces -o FILE whole at the end */
	if ((ret = (r->o.interval ? mg_out_open : mg_out_open_once)("stat",
			r->o.argv != NULL && !r->o.demo)))
		return ret;
	r->out = mg_out;
	r->tty = isatty(mg_out_fd());
	/* fit the terminal (TIOCGWINSZ, else COLUMNS); a pipe or a file gets full lines */
	mg_text_cols = mg_term_size(mg_out_fd()).cols;
	r->online = calloc(nr > 0 ? nr : 1, sizeof(*r->online));
	if (!r->online) {
		ret = mg_err(MG_EXIT_FAIL, "out of memory");
		goto out;
	}
	r->nr_online = mg_online_cpus(r->online, nr > 0 ? nr : 1);
	for (int cpu = 0; cpu < nr; cpu++)	/* -A with -C: the selected CPUs' columns */
		r->online[cpu] = r->online[cpu] && mg_cpus_has(&r->o.cpus, cpu);
	r->po = (struct mg_print_opts){ .verbose = mg_verbose > 0, .sep = r->o.sep,
					.rate = r->o.rate, .online = r->online,
					.width = mg_text_cols };
	/* the environment and the kernel counter reader before any BPF object (the scope's
	 * follow.c too): one parse of the kernel BTF serves both */
	if ((ret = mg_run_prepare(&r->run)))
		goto out;
	/* COMMAND before the session: --tree's filter needs its pid (it waits to exec) */
	if (r->o.argv && r->o.tree && (ret = mg_run_spawn(&r->run, r->o.argv)))
		goto out;
	if ((ret = setup_scope(r, &so)))
		goto out;
	if (r->o.cpus.given) {	/* the scope names the CPUs: text, JSON, the stderr line */
		size_t n = strlen(r->scope);

		snprintf(r->scope + n, sizeof(r->scope) - n, ", on CPU%s %s (-C)",
			 r->o.cpus.n > 1 ? "s" : "", r->o.cpus.text);
	}
	if ((ret = mg_run_setup(&r->run, r->o.backend, &so)))
		goto out;
	r->run.cfg.scoped = r->follow != NULL;
	r->run.cfg.cpus = r->o.cpus.given ? r->o.cpus.mask : NULL;
	scope_cost(r);
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
	if (r->o.argv && !r->run.child && (ret = mg_run_spawn(&r->run, r->o.argv)))
		goto out;
	if (mg_run_start(&r->run)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	if ((ret = mg_run_exec_failed(&r->run)))	/* its one line said why; no report */
		goto out;
	print_counting(r);
	if (main_loop(r)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	stat_print_summary(r);
	ret = r->o.argv && !r->ended_child ? r->run.child_status : MG_EXIT_OK;
	if (r->prom_failed && !ret)
		ret = MG_EXIT_OUTPUT;
	if (r->out_ended)	/* the run ended there: 5, whatever COMMAND's status */
		ret = MG_EXIT_OUTPUT;
	else
		print_end(r);
out:
	return stat_finish(r, ret);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_run r = { 0 };
	int ret = stat_parse_opts(&r.o, argc, argv);

	if (ret)
		return ret;
	return run_stat(&r);
}

int cmd_default(const char *self)
{
	static char *argv[] = { NULL, "stress", "--duration", "3", NULL, NULL };
	struct stat_run r = { 0 };

	/* the first line says what this is and how to watch one's own workload; with -j,
	 * stdout carries only JSON lines: stress's result, then the summary */
	if (mg_json_output)
		argv[4] = "--json";
	else
		fprintf(stderr, "mgtrace: running a built-in demonstration workload; to watch your "
			"own: mgtrace stat -- COMMAND\n"
			"mgtrace: (mgtrace stress --duration 3: threads writing and stat()ing files on "
			"a tmpfs of its own, or in /tmp where it cannot mount one; its next line says "
			"which)\n");
	argv[0] = (char *)self;
	r.o.argv = argv;
	r.o.demo = true;
	return run_stat(&r);
}
