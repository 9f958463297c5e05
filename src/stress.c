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
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <jansson.h>
#include "commands.h"
#include "escape.h"
#include "opts.h"
#include "report.h"
#include "util.h"
#include "workload.h"

static int usage(FILE *f, int code)
{
	fprintf(f,
		"Usage: mgtrace stress [--threads N] [--files M] [--duration SECONDS | --ops N] [--dir PATH]\n"
		"                      [--no-stat] [--shared | --race] [--json] [-o FILE]\n"
		"Write and stat files from N threads (one per CPU by default) so that fine-grained\n"
		"timestamps and floor swaps happen on every CPU; print write+stat operations per second.\n"
		"  -t, --threads N      worker threads, 1..1024 (default: online CPUs)\n"
		"  -f, --files M        files per thread, 1..256 (default 4)\n"
		"  -d, --duration S     run for S seconds, up to 86400 (default 3)\n"
		"  -n, --ops N          stop each thread after N write+stat pairs instead\n"
		"  -D, --dir PATH       work in a fresh directory under PATH (default: a tmpfs\n"
		"                       mounted on a fresh directory under /tmp, else /tmp)\n"
		"  -S, --no-stat        write only, no fstat(): every ctime update takes the coarse\n"
		"                       path (no fine-grained stamps); --ops then counts writes\n"
		"  -s, --shared         every thread writes and stats the same M files (one thread's\n"
		"                       stat races with another's write on one inode)\n"
		"  -R, --race           the chmod-against-fstat race: all threads share one file;\n"
		"                       even threads fchmod it (0600/0644 in turn), odd threads\n"
		"                       fstat it (needs 2 threads or more); --ops counts each\n"
		"                       thread's calls\n"
		"  -j, --json           the result as one JSON object (docs/json.md)\n"
		"  -o, --output FILE    the result to FILE instead of stdout\n"
		"Exit codes: 0 ok, 1 runtime failure, 2 usage (also: --dir does not exist),\n"
		"3 environment (--dir or -o refused: permission denied, read-only), 5 output not\n"
		"written.\n");
	return code;
}

int cmd_stress(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "threads", required_argument, 0, 't' }, { "files", required_argument, 0, 'f' },
		{ "duration", required_argument, 0, 'd' }, { "ops", required_argument, 0, 'n' },
		{ "dir", required_argument, 0, 'D' }, { "no-stat", no_argument, 0, 'S' },
		{ "shared", no_argument, 0, 's' },
		{ "race", no_argument, 0, 'R' }, MG_OPT_COMMON_LONG,
		{ "help", no_argument, 0, 'h' }, { 0 } };
	struct mg_wl_opts o = { .files = 4, .prefix = "mgtrace-stress" };
	struct mg_wl_step steps[2];
	const char *fs, *mode;
	struct mg_workload wl;
	double duration = 3, secs;
	bool duration_given = false, no_stat = false, race = false;
	uint64_t total, t0;
	char why[300];
	sigset_t sigs;
	int c, err, sig;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	o.threads = ncpu > 0 ? (uint64_t)ncpu : 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:f:d:n:D:SsRh" MG_OPT_COMMON_SHORT, lo, NULL)) != -1) {
		int e = 0;

		switch (c) {
		case 't': e = mg_parse_u64(optarg, 1, 1024, &o.threads); break;
		case 'f': e = mg_parse_u64(optarg, 1, MG_WL_MAX_FILES, &o.files); break;
		case 'd': e = mg_parse_seconds(optarg, 86400, &duration); duration_given = true; break;
		case 'n': e = mg_parse_u64(optarg, 1, UINT64_MAX, &o.iterations); break;
		case 'D': o.parent = optarg; break;
		case 'S': no_stat = true; break;
		case 's': o.shared = true; break;
		case 'R': race = true; break;
		case 'h': return usage(stdout, MG_EXIT_OK);
		default:
			if (!mg_opt_common(c, optarg))
				return mg_bad_option("stress", c, argv);
		}
		if (e)
			return mg_err(MG_EXIT_USAGE, "stress: invalid value '%s' for --%s", optarg,
				      c == 't' ? "threads" : c == 'f' ? "files" :
				      c == 'd' ? "duration" : "ops");
	}
	if (optind < argc)
		return mg_err(MG_EXIT_USAGE, "stress: unexpected argument '%s'", argv[optind]);
	if (duration_given && o.iterations)
		return mg_err(MG_EXIT_USAGE, "stress: --duration and --ops exclude each other");
	if ((err = mg_out_open("stress", false)))
		return err;

	/*
	 * One iteration: write+stat of one file (write only with --no-stat); the
	 * thread takes its files in turn, so --ops counts write+stat pairs.
	 */
	o.steps = steps;
	o.nsteps = no_stat ? 1 : 2;
	steps[0] = (struct mg_wl_step){ MG_WL_WRITE, 0 };
	steps[1] = (struct mg_wl_step){ MG_WL_STAT, 0 };
	o.rotate_files = true;
	if (no_stat && race)
		return mg_err(MG_EXIT_USAGE, "stress: --no-stat and --race exclude each other");
	if (race && o.threads < 2)
		return mg_err(MG_EXIT_USAGE, "stress: --race needs 2 threads or more");
	if (race) {
		/* one file, shared: chmod from even threads, fstat from odd ones */
		o.nsteps = 1;
		steps[0] = (struct mg_wl_step){ MG_WL_RACE, 0 };
		o.files = 1;
		o.rotate_files = false;
		o.shared = true;
	}

	/* Block SIGINT/SIGTERM before the threads exist, so sigtimedwait() below gets them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	if ((err = mg_wl_start(&wl, &o, why, sizeof(why))))
		return mg_err(err == -ENOMEM || err == -EAGAIN ? MG_EXIT_FAIL :
			      o.parent ? mg_path_exit(-err) : MG_EXIT_ENV, "stress: %s", why);
	/*
	 * Wait for the duration (or, with --ops, for the threads to finish); SIGINT and
	 * SIGTERM end the run early either way. The rate does not depend on this
	 * wait: each thread times itself.
	 */
	fs = mg_fs_name(wl.dir);
	t0 = mg_now_ns();
	while (mg_wl_running(&wl)) {
		uint64_t now = mg_now_ns(), end = t0 + (uint64_t)(duration * 1e9), left;
		struct timespec ts;

		if (!o.iterations && now >= end)
			break;
		left = o.iterations ? 10000000ull : end - now < 10000000ull ? end - now : 10000000ull;
		ts.tv_sec = left / 1000000000ull;
		ts.tv_nsec = left % 1000000000ull;
		if ((sig = sigtimedwait(&sigs, NULL, &ts)) > 0) {
			mg_out_stop(sig);	/* a blocked summary is abandoned in time */
			break;
		}
	}
	err = mg_wl_finish(&wl);
	total = mg_wl_iterations(&wl);
	secs = mg_wl_elapsed_ns(&wl) / 1e9;
	mode = race ? "chmod|fstat" : no_stat ? "write" : "write+stat";
	if (mg_json_output) {
		json_t *j = json_object();
		struct utsname u;

		uname(&u);
		mg_json_put_header(j, "stress", u.release);
		json_object_set_new(j, "threads", json_integer((json_int_t)o.threads));
		json_object_set_new(j, "files", json_integer((json_int_t)o.files));
		json_object_set_new(j, "dir", mg_json_cstr(wl.dir));
		json_object_set_new(j, "fstype", mg_json_cstr(fs));
		json_object_set_new(j, "ops", json_string(mode));
		json_object_set_new(j, "shared", json_boolean(o.shared));
		json_object_set_new(j, "iterations", json_integer((json_int_t)total));
		json_object_set_new(j, "seconds", json_real(secs));
		json_object_set_new(j, "ops_per_s", json_real(secs > 0 ? total / secs : 0));
		mg_json_print_line(mg_out, j);
		json_decref(j);
	} else {
		fprintf(mg_out, "stress: %llu threads x %llu files on %s (%s): %llu %s ops in %.3f s = "
			"%.0f ops/s%s\n", (unsigned long long)o.threads, (unsigned long long)o.files,
			wl.dir, fs, (unsigned long long)total, mode, secs, secs > 0 ? total / secs : 0,
			o.shared ? " (files shared by all threads)" : "");
	}
	mg_wl_free(&wl);
	if (err)
		return mg_err(MG_EXIT_FAIL, "stress: %s", strerror(err));
	return mg_out_close();
}
