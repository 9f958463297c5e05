// SPDX-License-Identifier: GPL-2.0
/* check_opts.c - the options of `mgtrace check` (usage text and parsing). */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "check_int.h"
#include "opts.h"
#include "optab.h"
#include "commands.h"
#include "prom.h"

/* O_MAX + enum mg_figure: the absolute thresholds */
enum { O_MAX = MG_OPTID_FIRST_CMD, O_FACTOR = O_MAX + MG_F_NR, O_JUDGE };

/* Where a stored option goes in struct check_opts */
#define AT(field) MG_OPT_AT(struct check_opts, field)

/* The ranges of check's numbers: parsed by check_opt(), named by check_parse_opts()'s line */
#define THREADS_MAX 1024
#define DURATION_MAX 86400	/* seconds */
#define RATE_MAX 100000000
/* kernel/bpf/hashtab.c: n_buckets, max_entries rounded up to a power of 2, times
 * sizeof(struct bucket) (16) must fit in a u32, else E2BIG: at most 2^27 */
#define INODES_MAX 134217728
_Static_assert(INODES_MAX == 1ull << 27, "--max-inodes: 2^27");

static const struct mg_opt check_opts[] = {
	MG_OPT_HEADING("Floor gates (off unless set; a correct kernel makes every update fine-grained when\n"
		       "each one follows a query):\n"),
	{ .val = MG_OPT_AUTO, .lname = "baseline", .arg = "FILE", .store = MG_OS_STR, .at = AT(baseline),
	  .help = "fail when a floor figure grows past the one in FILE (an\n"
	  "earlier check --json report of the same workload: the\n"
	  "same COMMAND argv, or the built-in one with the same\n"
	  "--threads and --rate; any duration); another workload\n"
	  "is refused (exit 2), another kernel or filesystem noted", .kind = MG_OV_FILE },
	{ .val = O_FACTOR, .lname = "baseline-factor", .arg = "F",
	  .help = "allowed growth: baseline * F + slack (1 to 1e6, default 2; slack 0.02,\n"
	  "1000/s for floor_swaps_per_sec, 0.1 for\n"
	  "floor_cmpxchg_fail_ratio); needs --baseline" },
	{ .val = O_MAX + MG_F_SWAPS_PER_UPDATE, .lname = "max-floor-swap-ratio", .arg = "R",
	  .help = "floor_swaps / ctime_updates" },
	{ .val = O_MAX + MG_F_FINE_PER_UPDATE, .lname = "max-fine-stamp-ratio", .arg = "R",
	  .help = "fine_stamps / ctime_updates" },
	{ .val = O_MAX + MG_F_SWAPS_PER_SEC, .lname = "max-floor-swaps-per-sec", .arg = "N",
	  .help = "floor_swaps per second" },
	{ .val = O_MAX + MG_F_FAIL_RATIO, .lname = "max-floor-cmpxchg-fail-ratio", .arg = "R",
	  .help = "floor_cmpxchg_fails / fine_stamps;\n"
	  "a negative value turns a threshold off" },
	MG_OPT_HEADING("Continuous check (no built-in workload: the whole machine, until a stop signal,\n"
		       "or per interval while COMMAND runs):\n"),
	MG_OPTS_INTERVAL("judge and print one line (or JSON object)", "",
			 "stop after N intervals (default interval 1 s)"),
	MG_OPTS_PROM("also write the counts, cumulative since start, in the\n"
		     "Prometheus text format to FILE (atomically: a temporary\n"
		     "file in its directory renamed over it), at start and after\n"
		     "every interval; for node_exporter's textfile collector\n"
		     "(contrib/mgtrace-check.rules.yml); needs -i or -I"),
	MG_OPT_HEADING("Known kernel faults:\n"),
	{ .val = MG_OPT_AUTO, .lname = "known", .arg = "FILE", .store = MG_OS_STR, .at = AT(known_path),
	  .help = "violations that match a fault declared in FILE (JSON: kind,\n"
	  "filesystem type, setter, kernel releases; contrib/known-faults.json)\n"
	  "are counted as known kernel faults with their reference and do\n"
	  "not fail the run; any other violation still fails", .kind = MG_OV_FILE },
	MG_OPT_HEADING("Tracing and judging:\n"),
	MG_OPT_BACKEND("auto fentry kprobe tracepoint",
		       "auto, fentry, kprobe or tracepoint (as in `mgtrace stat`)"),
	MG_OPTS_COMMON("JSON report", "the report to FILE (default: stdout; stderr with COMMAND)",
		       "every row with its reason, each refused backend"),
	{ .val = MG_OPT_AUTO, .lname = "junit", .arg = "FILE", .store = MG_OS_STR, .at = AT(junit),
	  .help = "also write a JUnit XML test suite to FILE", .kind = MG_OV_FILE },
	MG_OPT_RINGBUF("BPF ring buffer bytes, a power of 2 >= 4096 (default 16777216;\n"
		       "judged in BPF, where only violations cross it: 1048576)"),
	{ .val = MG_OPT_AUTO, .lname = "max-inodes", .arg = "N", .store = MG_OS_U64, .at = AT(max_inodes),
	  .min = 1, .max = INODES_MAX,
	  .help = "inodes tracked, 1 to " MG_STR(INODES_MAX) " (the largest BPF hash: 2^27\n"
	  "buckets of 16 bytes; default 262144; in BPF the\n"
	  "kernel takes a 192-byte slab object each (kmalloc-192), only\n"
	  "for inodes seen, plus 16 bytes a bucket of N: about 55 MB\n"
	  "with all 262144 in use; in BPF, inodes that no longer exist\n"
	  "are forgotten);\n"
	  "events of further inodes are counted as untracked:\n"
	  "inconclusive (or see --forget)" },
	{ .val = MG_OPT_AUTO, .lname = "forget", .store = MG_OS_FLAG, .at = AT(forget),
	  .help = "when --max-inodes fills, forget the history of the inodes\n"
	  "least recently seen instead of leaving new ones untracked:\n"
	  "the state is kept in generations of N/2 inodes, and an\n"
	  "inode with no event in the last two is judged afresh at its\n"
	  "next event; every one forgotten is counted and a PASS says\n"
	  "so (at most 3N entries in BPF; judged in BPF only)" },
	{ .val = O_JUDGE, .lname = "judge", .arg = "WHERE",
	  .help = "bpf (default: judge each ctime event in BPF at the event, where\n"
	  "tracepoints load as tp_btf) or user (every event crosses the\n"
	  "ring buffer to the same rules in user space)", .kind = MG_OV_WORDS, .words = "bpf user" },
	{ .val = MG_OPT_AUTO, .lname = "stacks", .store = MG_OS_FLAG, .at = AT(stacks),
	  .help = "judged in user space: every event's record takes its kernel\n"
	  "stack, so that a violation has its own (bpf_get_stackid(): about\n"
	  "5x an event's cost; judged in BPF a violation's stack is always\n"
	  "taken, at the violation only)" },
	MG_OPT_SCOPE_TREE("judge only the inodes COMMAND and its descendants touch\n"
			  "first (an event of theirs enters an inode; after that\n"
			  "every process's events of it are judged); other inodes'\n"
			  "events are counted as out of scope. The default with\n"
			  "COMMAND, as perf stat counts COMMAND (where judging in BPF\n"
			  "is not available, tracepoints as raw_tp or --judge user,\n"
			  "the default falls back to system-wide and says why; --tree\n"
			  "given is refused there). The counters, floor figures and\n"
			  "gates stay system-wide (the kernel's counters are global)"),
	{ .val = 'a', .lname = "all", .store = MG_OS_FLAG, .at = AT(all),
	  .help = "with COMMAND: judge every process's events (system-wide),\n"
	  "as without COMMAND" },
	{ .val = 'a', .lname = "all-cpus" },	/* the old name, hidden: -a is about processes */
	MG_OPT_HEADING("Built-in workload (without COMMAND): threads doing write(f1) stat(f2) write(f2)\n"
		       "stat(f2) write(f1) stat(f1) on a private tmpfs (or --dir):\n"),
	{ .val = 't', .lname = "threads", .arg = "N", .store = MG_OS_U64, .at = AT(threads),
	  .min = 1, .max = THREADS_MAX, .seen = AT(workload_opt),
	  .help = "worker threads, 1.." MG_STR(THREADS_MAX) " (default: online CPUs)" },
	{ .val = 'd', .lname = "duration", .arg = "S", .store = MG_OS_SECONDS, .at = AT(duration),
	  .max = DURATION_MAX, .seen = AT(workload_opt),
	  .help = "seconds, up to " MG_STR(DURATION_MAX) " (default 3)" },
	{ .val = MG_OPT_AUTO, .lname = "rate", .arg = "N", .store = MG_OS_U64, .at = AT(rate),
	  .min = 0, .max = RATE_MAX, .seen = AT(workload_opt),
	  .help = "iterations per second per thread (default 20000; 0: unpaced)" },
	{ .val = 'D', .lname = "dir", .arg = "PATH", .store = MG_OS_STR, .at = AT(dir),
	  .seen = AT(workload_opt),
	  .help = "work in a fresh directory under PATH, which must be on a\n"
	  "multigrain filesystem (else exit 3)", .kind = MG_OV_DIR },
	{ 0 }
};

const struct mg_cmd_opts check_cmdopts = {
	.name = "check",
	.synopsis = "[options] [-- COMMAND [ARGS...]]",
	.about = "Trace a workload (the built-in one, or COMMAND), assert the multigrain invariants and\n"
		 "the floor thresholds, and print a verdict.\n"
		 "Invariants, as the kernel promises them (no stricter): (1) no ctime regression per inode;\n"
		 "(2) an update after a query yields a later ctime (at the filesystem's granularity);\n"
		 "(3) built-in workload only: a modification that began after another ended shows an\n"
		 "equal or later ctime/mtime; with a function-probe backend, (4) the floor never moves\n"
		 "back and no fine-grained stamp is taken outside the kernel's condition. Clock steps,\n"
		 "stored or set ctimes later than the clock, coarse granularity and undecidable races\n"
		 "are counted in their own categories, never as kernel faults.\n",
	.opts = check_opts,
	.exit_note = "check: 0 all hold, 1 violation or floor gate failed, 4 inconclusive (events lost or\n"
		     "untracked, or SIGINT/SIGTERM/SIGHUP before the planned end), 5 the report could\n"
		     "not be written.\n",
	.command = true,
};

static char prom_path[PATH_MAX];	/* --prometheus FILE, a symlink resolved */

/*
 * One of check's options the table does not store (c, its value arg) into o: the
 * thresholds, the Prometheus file, the baseline factor, the backend, the ring buffer,
 * --judge, --tree and the intervals. Returns 0 or an exit code (printed).
 */
static int check_opt(void *base, int c, const char *arg)
{
	struct check_opts *o = base;
	int e;

	if ((e = mg_opt_intervals("check", c, arg, &o->interval, &o->ival_opt, &o->count)))
		return e < 0 ? -e : 0;
	switch (c) {
	case O_MAX ... O_MAX + MG_F_NR - 1: {
		double *l = &o->limit[c - O_MAX];

		if (mg_parse_real(arg, true, l))
			return mg_err(MG_EXIT_USAGE, "check: invalid value '%s' for --max-%s (a "
				      "decimal number, such as 0.5 or 2e-3; below 0 turns the gate "
				      "off)", arg, mg_figure_option(c - O_MAX));
		/* "-0" is zero, a gate with limit 0 (only below 0 turns it off): never "-0" */
		if (*l == 0)
			*l = 0;
		return 0;
	}
	case MG_OPTID_PROM:
	case MG_OPTID_PROM_LABEL:
		mg_prom_set_command("check");
		/* 2, or 3 for a directory the machine refuses */
		return mg_opt_prom(c, arg, prom_path, sizeof(prom_path), &o->prom, &o->prom_labels);
	case O_FACTOR:
		o->factor_given = true;
		/* bounded: baseline * F + slack must stay a finite limit (1e308 made it inf,
		 * a gate with no "allowed" value) */
		if (mg_parse_real(arg, false, &o->baseline_factor) || !(o->baseline_factor >= 1) ||
		    !(o->baseline_factor <= MG_BASELINE_FACTOR_MAX))
			return mg_err(MG_EXIT_USAGE, "check: invalid --baseline-factor '%s' "
				      "(a number from 1 to %g)", arg, MG_BASELINE_FACTOR_MAX);
		return 0;
	case 'b':
		return mg_opt_backend("check", arg, MG_OPT_BE_TRACEPOINT, &o->backend) ?
		       MG_EXIT_USAGE : 0;
	case MG_OPTID_RINGBUF:
		o->ringbuf_set = true;
		return mg_opt_ringbuf("check", arg, &o->ringbuf_bytes) ? MG_EXIT_USAGE : 0;
	case O_JUDGE:
		if (strcmp(arg, "bpf") && strcmp(arg, "user"))
			return mg_err(MG_EXIT_USAGE, "check: invalid --judge '%s' (bpf or user)", arg);
		o->judge_user = !strcmp(arg, "user");
		return 0;
	case MG_OPTID_TREE:
		o->tree = true;
		return 0;
	}
	return 0;
}

int check_parse_opts(struct check_opts *o, int argc, char **argv)
{
	struct mg_opt_parser p;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char name[32];
	int c, e;

	for (c = 0; c < MG_F_NR; c++)
		o->limit[c] = -1;
	o->baseline_factor = MG_BASELINE_FACTOR_DEFAULT;
	o->ringbuf_bytes = MG_RINGBUF_DEFAULT;
	o->max_inodes = 262144;
	o->threads = ncpu > 0 ? (uint64_t)ncpu : 1;
	o->duration = 3;
	o->rate = 20000;
	mg_opt_begin(&p, &check_cmdopts, argc, argv);
	if ((e = mg_opt_parse(&p, o, check_opt)))
		return e;
	if ((e = mg_opt_command("check", argc, argv, &o->argv)) ||
	    (e = mg_opt_scope_check("check", NULL, o->all, &o->tree, o->argv != NULL)))
		return e;
	/* with COMMAND, its tree is judged unless -a says the whole machine (as perf) */
	if (o->argv && !o->all && !o->tree)
		o->tree = o->tree_default = true;
	if (o->forget && o->judge_user)
		return mg_err(MG_EXIT_USAGE, "check: --forget keeps the state of inodes judged in "
			      "BPF: not with --judge user");
	if (o->forget && o->max_inodes < 2)
		return mg_err(MG_EXIT_USAGE, "check: --forget needs --max-inodes of at least 2 "
			      "(generations of N/2 inodes)");
	if (o->tree && o->judge_user && !o->tree_default)
		return mg_err(MG_EXIT_USAGE, "check: --tree scopes judging in BPF: not with "
			      "--judge user");
	if (o->count && !o->interval)
		o->interval = 1;	/* -c N alone: one-second intervals, as stat */
	if (o->interval && !o->argv && o->workload_opt)
		return mg_err(MG_EXIT_USAGE, "check: %s is the built-in workload's, and continuous "
			      "check (-i, -I, or -c N, which implies -i 1) without COMMAND watches the "
			      "whole machine with no workload of its own until a stop signal (or -c N)",
			      mg_opt_name(o->workload_opt, name, sizeof(name)));
	if (o->interval && o->baseline)
		return mg_err(MG_EXIT_USAGE, "check: --baseline gates one run's figures: not with "
			      "-i/-I");
	if (o->prom_labels && !o->prom)
		return mg_err(MG_EXIT_USAGE, "check: --prometheus-label labels --prometheus FILE's "
			      "series: give --prometheus");
	if (o->prom && !o->interval)
		return mg_err(MG_EXIT_USAGE, "check: --prometheus writes continuous check's counts "
			      "after each interval: give -i or -I");
	if (o->prom && mg_output_path && mg_same_file(mg_output_path, o->prom))
		return mg_err(MG_EXIT_USAGE, "check: -o '%s' and --prometheus '%s' are one file: "
			      "each output needs its own", mg_output_path, o->prom);
	if (o->prom && o->junit && mg_same_file(o->junit, o->prom))
		return mg_err(MG_EXIT_USAGE, "check: --junit '%s' and --prometheus '%s' are one "
			      "file: each output needs its own", o->junit, o->prom);
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
		mg_err_line(o->baseline_warn);
	return MG_EXIT_OK;
}

int check_known_open(struct check_opts *o)
{
	struct utsname u;
	char e[600];
	int r;

	if (!o->known_path)
		return MG_EXIT_OK;
	if (!(o->known = calloc(1, sizeof(*o->known))))
		return mg_err(MG_EXIT_FAIL, "out of memory");
	if ((r = mg_known_load(o->known, o->known_path, uname(&u) ? "" : u.release, e, sizeof(e))))
		return mg_err(r == -EINVAL ? MG_EXIT_USAGE : mg_path_exit(-r), "check: --known %s", e);
	return MG_EXIT_OK;
}
