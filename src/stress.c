// SPDX-License-Identifier: GPL-2.0
/*
 * stress.c - `mgtrace stress`: the built-in multigrain workload.
 *
 * N threads, each pinned to CPU (k mod online CPUs), loop over M files of their
 * own: pwrite() one byte then fstat(). The fstat() marks the ctime QUERIED, so
 * the next write within the same coarse tick needs a fine-grained timestamp
 * (ktime_get_real_ts64_mg) and tries to swap the floor: fine stamps and floor
 * swaps happen on every CPU. By default the files live on a tmpfs mounted on a
 * fresh directory under /tmp (multigrain), falling back to /tmp itself.
 * With --no-stat the threads only write: nothing marks a ctime QUERIED, so every
 * update takes the coarse path (as in will-it-scale's pipe1 and write1).
 * With --shared every thread works on the same M files, so one thread's fstat()
 * races with another's write on one inode (the contended case of the floor
 * invariants' "undecided" count).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <jansson.h>
#include "commands.h"
#include "escape.h"
#include "opts.h"
#include "optab.h"
#include "json_writer.h"
#include "report.h"
#include "run.h"
#include "util.h"
#include "workload.h"

/* The ranges of stress's numbers: parsed, and named by the line that refuses one */
#define STRESS_THREADS_MAX 1024
#define STRESS_DURATION_MAX 86400	/* seconds */

/* stress's options (a run's parameters) */
struct stress_opts {
	struct mg_wl_opts wl;
	double duration;
	bool no_stat, race;
	const struct mg_opt *duration_given;	/* --duration's entry when given */
};

/* Where a stored option goes in struct stress_opts */
#define AT(field) MG_OPT_AT(struct stress_opts, field)

static const struct mg_opt stress_opts[] = {
	{ .val = 't', .lname = "threads", .arg = "N", .store = MG_OS_U64, .at = AT(wl.threads),
	  .min = 1, .max = STRESS_THREADS_MAX,
	  .help = "worker threads, 1..1024 (default: online CPUs)" },
	{ .val = 'f', .lname = "files", .arg = "M", .store = MG_OS_U64, .at = AT(wl.files),
	  .min = 1, .max = MG_WL_MAX_FILES,
	  .help = "files per thread, 1..256 (default 4)" },
	{ .val = 'd', .lname = "duration", .arg = "S", .store = MG_OS_SECONDS, .at = AT(duration),
	  .max = STRESS_DURATION_MAX, .seen = AT(duration_given),
	  .help = "run for S seconds, up to 86400 (default 3)" },
	{ .val = 'n', .lname = "ops", .arg = "N", .store = MG_OS_U64, .at = AT(wl.iterations),
	  .min = 1, .max = UINT64_MAX,
	  .help = "stop each thread after N write+stat pairs instead" },
	{ .val = 'D', .lname = "dir", .arg = "PATH", .store = MG_OS_STR, .at = AT(wl.parent),
	  .help = "work in a fresh directory under PATH (default: a tmpfs\n"
	  "mounted on a fresh directory under /tmp, else /tmp)", .kind = MG_OV_DIR },
	{ .val = 'S', .lname = "no-stat", .store = MG_OS_FLAG, .at = AT(no_stat),
	  .help = "write only, no fstat(): every ctime update takes the coarse\n"
	  "path (no fine-grained stamps); --ops then counts writes" },
	{ .val = 's', .lname = "shared", .store = MG_OS_FLAG, .at = AT(wl.shared),
	  .help = "every thread writes and stats the same M files (one thread's\n"
	  "stat races with another's write on one inode)" },
	{ .val = 'R', .lname = "race", .store = MG_OS_FLAG, .at = AT(race),
	  .help = "the chmod-against-fstat race: all threads share one file;\n"
	  "even threads fchmod it (0600/0644 in turn), odd threads\n"
	  "fstat it (needs 2 threads or more); --ops counts each\n"
	  "thread's calls" },
	MG_OPTS_COMMON("the result as one JSON object (docs/json.md)",
		       "the result to FILE instead of stdout", NULL),
	{ 0 }
};

const struct mg_cmd_opts stress_cmdopts = {
	.name = "stress",
	.synopsis = "[--threads N] [--files M] [--duration SECONDS | --ops N] [--dir PATH]\n"
		    "[--no-stat] [--shared | --race] [--json] [-o FILE]",
	.about = "Write and stat files from N threads (one per CPU by default) so that fine-grained\n"
		 "timestamps and floor swaps happen on every CPU; print write+stat operations per second.\n",
	.opts = stress_opts,
};


/* Parse into so (defaults first). Returns 0, or MG_EXIT_USAGE with one line printed. */
static int stress_parse_opts(struct stress_opts *so, int argc, char **argv)
{
	struct mg_wl_opts *o = &so->wl;
	struct mg_opt_parser p;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	so->duration = 3;
	o->files = 4;
	o->prefix = "mgtrace-stress";
	o->threads = ncpu > 0 ? (uint64_t)ncpu : 1;
	mg_opt_begin(&p, &stress_cmdopts, argc, argv);
	if ((c = mg_opt_parse(&p, so, NULL)))
		return c;
	if ((c = mg_opt_no_operands(&p)))
		return c;
	if (so->duration_given && o->iterations)
		return mg_err(MG_EXIT_USAGE, "stress: --duration and --ops exclude each other");
	if (so->no_stat && so->race)
		return mg_err(MG_EXIT_USAGE, "stress: --no-stat and --race exclude each other");
	if (so->race && o->threads < 2)
		return mg_err(MG_EXIT_USAGE, "stress: --race needs 2 threads or more");
	return 0;
}

/*
 * The report, to mg_out: one JSON object (type stress, docs/json.md) or one text line.
 * total: write+stat pairs (or mode's ops) of all threads over secs seconds; stop: the
 * stop signal that ended the run early, or 0.
 */
static void stress_report(const struct mg_wl_opts *op, const char *dir, const char *fs,
			  const char *mode, uint64_t total, double secs, int stop)
{
	if (mg_json_output) {
		json_t *j = json_object();
		struct utsname u;

		uname(&u);
		mg_json_put_header(j, "stress", u.release);
		json_object_set_new(j, "threads", json_integer((json_int_t)op->threads));
		json_object_set_new(j, "files", json_integer((json_int_t)op->files));
		json_object_set_new(j, "dir", mg_json_cstr(dir));
		json_object_set_new(j, "fstype", mg_json_cstr(fs));
		json_object_set_new(j, "ops", json_string(mode));
		json_object_set_new(j, "shared", json_boolean(op->shared));
		json_object_set_new(j, "iterations", json_integer((json_int_t)total));
		json_object_set_new(j, "seconds", json_real(secs));
		/* no time measured (below the clock's step): no rate, never a silent 0 */
		json_object_set_new(j, "ops_per_s", secs > 0 ? json_real(total / secs) : json_null());
		json_object_set_new(j, "interrupted", stop ? json_string(mg_signal_name(stop)) :
				    json_null());
		mg_json_print_line(mg_out, j);
		json_decref(j);
		return;
	}
	fprintf(mg_out, "stress: %llu thread%s x %llu file%s on ", (unsigned long long)op->threads,
		op->threads == 1 ? "" : "s", (unsigned long long)op->files, op->files == 1 ? "" : "s");
	mg_text_fput(mg_out, dir, strlen(dir), false);
	/* a short run (-n 100) in microseconds, not "0.000 s" */
	fprintf(mg_out, " (%s): %llu %s ops in %.*f s = ", fs, (unsigned long long)total, mode,
		secs < 0.1 ? 6 : 3, secs);
	if (secs > 0)
		fprintf(mg_out, "%.0f ops/s", total / secs);
	else
		fputs("? ops/s (no time measured)", mg_out);
	fputs(op->shared ? " (files shared by all threads)" : "", mg_out);
	if (stop)
		fprintf(mg_out, "; interrupted by %s", mg_signal_name(stop));
	fputc('\n', mg_out);
}

int cmd_stress(int argc, char **argv)
{
	struct stress_opts so = { 0 };
	struct mg_wl_opts *op = &so.wl;
	struct mg_wl_step steps[2];
	const char *fs, *mode;
	struct mg_workload wl;
	double secs;
	uint64_t total, t0;
	char why[300];
	sigset_t sigs;
	int err, sig, stop = 0;

	if ((err = stress_parse_opts(&so, argc, argv)))
		return err;
	if ((err = mg_out_open_once("stress", false)))
		return err;
	/*
	 * One iteration: write+stat of one file (write only with --no-stat); the
	 * thread takes its files in turn, so --ops counts write+stat pairs.
	 */
	op->steps = steps;
	op->nsteps = so.no_stat ? 1 : 2;
	steps[0] = (struct mg_wl_step){ MG_WL_WRITE, 0 };
	steps[1] = (struct mg_wl_step){ MG_WL_STAT, 0 };
	op->rotate_files = true;
	if (so.race) {
		/* one file, shared: chmod from even threads, fstat from odd ones */
		op->nsteps = 1;
		steps[0] = (struct mg_wl_step){ MG_WL_RACE, 0 };
		op->files = 1;
		op->rotate_files = false;
		op->shared = true;
	}

	/*
	 * Block the stop signals (SIGINT, SIGTERM, SIGHUP: a closed terminal too, as check
	 * takes them) before the threads exist, so sigtimedwait() below gets them and the
	 * directory is removed; one that comes later stays pending, unread, until exit.
	 */
	mg_stop_sigset(&sigs);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	if ((err = mg_wl_start(&wl, op, why, sizeof(why))))
		return mg_err(err == -ENOMEM || err == -EAGAIN ? MG_EXIT_FAIL :
			      op->parent ? mg_path_exit(-err) : MG_EXIT_ENV, "stress: %s", why);
	/*
	 * Wait for the duration (or, with --ops, for the threads to finish); a stop
	 * signal ends the run early either way (stop: the report says it, exit 0 as
	 * stat's). The rate does not depend on this wait: each thread times itself.
	 */
	fs = mg_fs_name(wl.dir);
	t0 = mg_now_ns();
	while (mg_wl_running(&wl)) {
		uint64_t now = mg_now_ns(), end = t0 + (uint64_t)(so.duration * 1e9), left;
		struct timespec ts;

		if (!op->iterations && now >= end)
			break;
		left = op->iterations ? 10000000ull : end - now < 10000000ull ? end - now : 10000000ull;
		ts.tv_sec = left / 1000000000ull;
		ts.tv_nsec = left % 1000000000ull;
		if ((sig = sigtimedwait(&sigs, NULL, &ts)) > 0) {
			mg_out_stop(sig);	/* a blocked summary is abandoned in time */
			stop = sig;
			break;
		}
	}
	err = mg_wl_finish(&wl);
	total = mg_wl_iterations(&wl);
	secs = mg_wl_elapsed_ns(&wl) / 1e9;
	mode = so.race ? "chmod|fstat" : so.no_stat ? "write" : "write+stat";
	stress_report(op, wl.dir, fs, mode, total, secs, stop);
	mg_wl_free(&wl);
	if (err)
		return mg_err(MG_EXIT_FAIL, "stress: %s", strerror(err));
	return mg_out_close();
}
