// SPDX-License-Identifier: GPL-2.0
/* check_opts.c - the options of `mgtrace check` (usage text and parsing). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "check_int.h"
#include "opts.h"

static int usage(FILE *f, int code)
{
	fprintf(f,
		"Usage: mgtrace check [options] [-- COMMAND [ARGS...]]\n"
		"Trace a workload (the built-in one, or COMMAND), assert the multigrain invariants and\n"
		"the floor thresholds, and print a verdict.\n"
		"Invariants, as the kernel promises them (no stricter): (1) no ctime regression per inode;\n"
		"(2) an update after a query yields a later ctime (at the filesystem's granularity);\n"
		"(3) built-in workload only: a modification that began after another ended shows an\n"
		"equal or later ctime/mtime; with a function-probe backend, (4) the floor never moves\n"
		"back and no fine-grained stamp is taken outside the kernel's condition. Clock steps,\n"
		"stored or set ctimes later than the clock, coarse granularity and undecidable races\n"
		"are counted in their own categories, never as kernel faults.\n"
		"Floor gates (off unless set; a correct kernel makes every update fine-grained when\n"
		"each one follows a query):\n"
		"      --baseline FILE     fail when a floor figure grows past the one in FILE (an\n"
		"                          earlier check --json report of the same workload: the\n"
		"                          same COMMAND argv, or the built-in one with the same\n"
		"                          --threads and --rate; any duration); another workload\n"
		"                          is refused (exit 2), another kernel or filesystem noted\n"
		"      --baseline-factor F allowed growth: baseline * F + slack (default 2; slack 0.02,\n"
		"                          1000/s for floor_swaps_per_sec, 0.1 for\n"
		"                          floor_cmpxchg_fail_ratio); needs --baseline\n"
		"  --max-floor-swap-ratio R        floor_swaps / ctime_updates\n"
		"  --max-fine-stamp-ratio R        fine_stamps / ctime_updates\n"
		"  --max-floor-swaps-per-sec N     floor_swaps per second\n"
		"  --max-floor-cmpxchg-fail-ratio R  floor_cmpxchg_fails / fine_stamps\n"
		"                                  a negative value turns a threshold off\n"
		"  -b, --backend B       auto, fentry, kprobe or tracepoint (as in `mgtrace stat`)\n"
		"  -j, --json            JSON report\n"
		"  -o, --output FILE     the report to FILE (default: stdout; stderr with COMMAND)\n"
		"  -v, --verbose         every row with its reason, each refused backend\n"
		"      --junit FILE      also write a JUnit XML test suite to FILE\n"
		"      --ringbuf-size B  BPF ring buffer bytes, a power of 2 >= 4096 (default 16777216;\n"
		"                        judged in BPF, where only violations cross it: 1048576)\n"
		"      --max-inodes N    inodes tracked, 1 to 268435456 (default 262144; in BPF about\n"
		"                        400 bytes each, only for inodes seen; in BPF, inodes that\n"
		"                        no longer exist are forgotten); events of further inodes\n"
		"                        are counted as untracked: inconclusive\n"
		"      --judge WHERE     bpf (default: judge each ctime event in BPF at the event, where\n"
		"                        tracepoints load as tp_btf) or user (every event crosses the\n"
		"                        ring buffer to the same rules in user space)\n"
		"      --tree            judge only the inodes COMMAND and its descendants touch\n"
		"                        first (an event of theirs enters an inode; after that\n"
		"                        every process's events of it are judged); other inodes'\n"
		"                        events are counted as out of scope. Needs COMMAND and\n"
		"                        judging in BPF. The counters, floor figures and gates\n"
		"                        stay system-wide (the kernel's counters are global)\n"
		"  Built-in workload (without COMMAND): threads doing write(f1) stat(f2) write(f2)\n"
		"  stat(f2) write(f1) stat(f1) on a private tmpfs (or --dir):\n"
		"  -t, --threads N       worker threads (default: online CPUs)\n"
		"  -d, --duration S      seconds (default 3)\n"
		"      --rate N          iterations per second per thread (default 20000; 0: unpaced)\n"
		"  -D, --dir PATH        work in a fresh directory under PATH, which must be on a\n"
		"                        multigrain filesystem (else exit 3)\n"
		"Exit codes: 0 all hold, 1 violation or floor gate failed, 2 usage, 3 environment\n"
		"unsupported, 4 inconclusive (events lost or untracked, or SIGINT/SIGTERM/SIGHUP\n"
		"before the planned end), 5 the report could not be written, 126/127 COMMAND\n"
		"cannot be executed / was not found (one line, no report).\n");
	return code;
}

int check_parse_opts(struct check_opts *o, int argc, char **argv)
{
	int cmd_err;
	/* O_MAX + enum mg_figure: the absolute thresholds */
	enum { O_MAX = 256, O_JUNIT = O_MAX + MG_F_NR, O_RB, O_INODES, O_RATE, O_BASE, O_FACTOR, O_JUDGE,
	       O_TREE };
	static const struct option lo[] = {
		{ "max-floor-swap-ratio", required_argument, 0, O_MAX + MG_F_SWAPS_PER_UPDATE },
		{ "max-fine-stamp-ratio", required_argument, 0, O_MAX + MG_F_FINE_PER_UPDATE },
		{ "max-floor-swaps-per-sec", required_argument, 0, O_MAX + MG_F_SWAPS_PER_SEC },
		{ "max-floor-cmpxchg-fail-ratio", required_argument, 0, O_MAX + MG_F_FAIL_RATIO },
		{ "baseline", required_argument, 0, O_BASE },
		{ "baseline-factor", required_argument, 0, O_FACTOR },
		{ "backend", required_argument, 0, 'b' }, MG_OPT_COMMON_LONG,
		{ "junit", required_argument, 0, O_JUNIT },
		{ "ringbuf-size", required_argument, 0, O_RB },
		{ "max-inodes", required_argument, 0, O_INODES },
		{ "judge", required_argument, 0, O_JUDGE }, { "tree", no_argument, 0, O_TREE },
		{ "threads", required_argument, 0, 't' }, { "duration", required_argument, 0, 'd' },
		{ "rate", required_argument, 0, O_RATE }, { "dir", required_argument, 0, 'D' },
		{ "help", no_argument, 0, 'h' }, { 0 } };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	for (c = 0; c < MG_F_NR; c++)
		o->limit[c] = -1;
	o->baseline_factor = MG_BASELINE_FACTOR_DEFAULT;
	o->ringbuf_bytes = MG_RINGBUF_DEFAULT;
	o->max_inodes = 262144;
	o->threads = ncpu > 0 ? (uint64_t)ncpu : 1;
	o->duration = 3;
	o->rate = 20000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:b:t:d:D:h" MG_OPT_COMMON_SHORT, lo, NULL)) != -1) {
		int e = 0;
		char *end;

		switch (c) {
		case O_MAX ... O_MAX + MG_F_NR - 1: {
			double *l = &o->limit[c - O_MAX];

			errno = 0;
			*l = strtod(optarg, &end);
			if (!*optarg || *end || errno || isnan(*l) || isinf(*l))
				return mg_err(MG_EXIT_USAGE, "check: invalid value '%s' for --max-%s",
					      optarg, mg_figure_option(c - O_MAX));
			break;
		}
		case O_BASE: o->baseline = optarg; break;
		case O_FACTOR:
			errno = 0;
			o->factor_given = true;
			o->baseline_factor = strtod(optarg, &end);
			if (!*optarg || *end || errno || !(o->baseline_factor >= 1) ||
			    isinf(o->baseline_factor))
				return mg_err(MG_EXIT_USAGE, "check: invalid --baseline-factor '%s' "
					      "(a number >= 1)", optarg);
			break;
		case 'b':
			if (mg_opt_backend("check", optarg, MG_OPT_BE_TRACEPOINT, &o->backend))
				return MG_EXIT_USAGE;
			break;
		case O_JUNIT: o->junit = optarg; break;
		case O_RB:
			if (mg_opt_ringbuf("check", optarg, &o->ringbuf_bytes))
				return MG_EXIT_USAGE;
			o->ringbuf_set = true;
			break;
		case O_INODES: e = mg_parse_u64(optarg, 1, 1ull << 28, &o->max_inodes); break;
		case O_JUDGE:
			if (strcmp(optarg, "bpf") && strcmp(optarg, "user"))
				return mg_err(MG_EXIT_USAGE, "check: invalid --judge '%s' (bpf or user)",
					      optarg);
			o->judge_user = !strcmp(optarg, "user");
			break;
		case O_TREE: o->tree = true; break;
		case 't': e = mg_parse_u64(optarg, 1, 1024, &o->threads); break;
		case 'd': e = mg_parse_seconds(optarg, 86400, &o->duration); break;
		case O_RATE: e = mg_parse_u64(optarg, 0, 100000000, &o->rate); break;
		case 'D': o->dir = optarg; break;
		case 'h': exit(usage(stdout, MG_EXIT_OK));
		default:
			if (!mg_opt_common(c, optarg))
				return mg_bad_option("check", c, argv);
		}
		if (e)
			return mg_err(MG_EXIT_USAGE, "check: invalid value '%s' for %s", optarg,
				      argv[optind - 1][0] == '-' && argv[optind - 1][1] == '-' ?
				      argv[optind - 1] : argv[optind - 2]);
	}
	if ((cmd_err = mg_opt_command("check", argc, argv, &o->argv)))
		return cmd_err;
	if (o->tree && !o->argv)
		return mg_err(MG_EXIT_USAGE, "check: --tree needs -- COMMAND");
	if (o->tree && o->judge_user)
		return mg_err(MG_EXIT_USAGE, "check: --tree scopes judging in BPF: not with "
			      "--judge user");
	if (o->junit && mg_output_path && mg_same_file(mg_output_path, o->junit))
		return mg_err(MG_EXIT_USAGE, "check: -o '%s' and --junit '%s' are one file: each "
			      "output needs its own", mg_output_path, o->junit);
	return MG_EXIT_OK;
}


int check_baseline_open(struct check_opts *o)
{
	struct mg_workload_id base, now = { 0 };
	struct utsname u;
	char e[1200];
	int r;

	o->baseline_warn[0] = 0;
	if (!o->baseline && o->factor_given)
		return mg_err(MG_EXIT_USAGE, "check: --baseline-factor without --baseline gates "
			      "nothing (a CI job meant to gate would pass unchecked)");
	if (!o->baseline)
		return MG_EXIT_OK;
	if ((r = mg_baseline_load(o->baseline, &o->base, &base, e, sizeof(e))))
		return mg_err(MG_EXIT_USAGE, "check: %s", e);
	if (!uname(&u))
		snprintf(now.release, sizeof(now.release), "%s", u.release);
	now.command = o->argv != NULL;
	if (o->argv && !(now.argv = mg_argv_json(o->argv))) {
		mg_workload_id_free(&base);
		return mg_err(MG_EXIT_FAIL, "out of memory");
	}
	if (!o->argv) {
		now.have_params = true;
		now.threads = o->threads;
		now.files = CHECK_WL_FILES;
		now.rate = o->rate;
		/* the fresh directory is made in --dir, on its filesystem; else a tmpfs */
		snprintf(now.fs, sizeof(now.fs), "%s", o->dir ? mg_fs_name(o->dir) : "tmpfs");
	}
	r = mg_workload_id_compare(o->baseline, &base, &now, e, sizeof(e), o->baseline_warn,
				   sizeof(o->baseline_warn));
	mg_workload_id_free(&base);
	mg_workload_id_free(&now);
	if (r)
		return mg_err(MG_EXIT_USAGE, "check: %s", e);
	if (o->baseline_warn[0] && !mg_json_output)
		fprintf(stderr, "mgtrace: %s\n", o->baseline_warn);
	return MG_EXIT_OK;
}
