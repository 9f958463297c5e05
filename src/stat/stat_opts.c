// SPDX-License-Identifier: GPL-2.0
/* stat_opts.c - the options of `mgtrace stat`: its option table (optab.h) and parsing. */
#include <limits.h>
#include <string.h>
#include "commands.h"
#include "counters.h"
#include "opts.h"
#include "optab.h"
#include "prom.h"
#include "stat_int.h"
#include "util.h"
#include "vocab.h"

/*
 * -e LIST (vocab.h mg_events_parse) into *mask: 1 << enum mg_tp of each opt-in
 * tracepoint named (ctime_swap is always counted: accepted, nothing to add).
 * Returns 0 or MG_EXIT_USAGE (printed).
 */
static int parse_events(const char *list, unsigned int *mask)
{
	unsigned int k = 0, i, opt_in = 0;
	char buf[512], *t, *save = NULL;
	int err;

	for (i = 0; i < MG_EV_NR_KINDS; i++)
		if (mg_tp_opt_in(mg_tp_of_kind(i)))
			opt_in |= 1u << i;
	/* ctime_swaps alone: counted already (the kernel's counter or its tracepoint) */
	snprintf(buf, sizeof(buf), "%s", list);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (mg_event_item(t) == 1u << MG_EV_CTIME_SWAP)
			return mg_err(MG_EXIT_USAGE, "stat: -e %s: ctime_swaps is always counted "
				      "(%s)", t, mg_events_names(opt_in));
	if ((err = mg_events_parse("stat", list, opt_in, &k)))
		return err;
	for (i = 0; i < MG_EV_NR_KINDS; i++)
		if (k & 1u << i)
			*mask |= 1u << mg_tp_of_kind(i);
	return 0;
}

static char prom_path[PATH_MAX];	/* --prometheus FILE, a symlink resolved */

/* -e's words: the opt-in tracepoints' kinds (vocab.h) */
static const char *stat_event_words(void)
{
	unsigned int i, opt_in = 0;

	for (i = 0; i < MG_EV_NR_KINDS; i++)
		if (mg_tp_opt_in(mg_tp_of_kind(i)))
			opt_in |= 1u << i;
	return mg_events_names(opt_in);
}

/*
 * -e's help, from the table (include/mg_vocab.def): each opt-in tracepoint's kind in
 * its opt_in place, with the tracepoint and the row it is counted in.
 */
static const char *stat_events_help(void)
{
	static char buf[800];
	char text[800];
	int tps[MG_NR_TPS], n = mg_tps_opt_in(tps);
	size_t len;

	len = (size_t)snprintf(text, sizeof(text), "also count these events (comma-separated): ");
	for (int i = 0; i < n && len < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s (timestamp:%s; %s%s), ",
					mg_event_kind_name(mg_tp_kind(tps[i])), mg_tp_names[tps[i]],
					i ? "" : "counter ", mg_row_name(mg_tp_row(tps[i])));
	if (len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, "all, or tracepoints as perf names them, "
			 "with globs: timestamp:*");
	return mg_opt_wrap(buf, sizeof(buf), text);
}

/* stat's own long-only option with a case of its own */
enum { O_TIMEOUT = MG_OPTID_FIRST_CMD };

/* Where a stored option goes in struct stat_opts */
#define AT(field) MG_OPT_AT(struct stat_opts, field)

static const struct mg_opt stat_opts[] = {
	MG_OPTS_SCOPE("all-cpus", "system-wide (the default)",
		      "only PID and its descendants (a list: 1,2, as perf): their\n"
		      "tracepoint (and function-probe) events, filtered by tgid in\n"
		      "BPF; no kernel counters"),
	MG_OPT_SCOPE_TREE("with COMMAND: only COMMAND and its descendants, as -p"),
	MG_OPT_CPUS("count only these CPUs (perf's list: 0,2-3): their per-CPU\n"
		    "counts, summed; debugfs has only all-CPU sums, so the match\n"
		    "column judges the all-CPU sum of the same per-CPU reading"),
	{ .val = 'A', .lname = "per-cpu", .store = MG_OS_FLAG, .at = AT(per_cpu),
	  .help = "per-CPU table (online CPUs) in the summary and every interval" },
	MG_OPTS_INTERVAL("print a row", "",
			 "stop after N intervals (default interval 1 s); with COMMAND\n"
			 "still running, mgtrace ends it (SIGTERM) and exits 0"),
	{ .val = 'd', .lname = "duration", .arg = "S",
	  .help = "stop after S seconds (0.01..86400); with COMMAND still\n"
	  "running, mgtrace ends it (SIGTERM) and exits 0" },
	{ .val = O_TIMEOUT, .lname = "timeout", .arg = "MS",
	  .help = "the same in milliseconds (10..86400000), as perf stat's" },
	{ .val = MG_OPT_AUTO, .lname = "rate", .store = MG_OS_FLAG, .at = AT(rate), .help = "interval values per second instead of counts" },
	{ .val = 'x', .lname = "field-separator", .arg = "SEP",
	  .help = "fields separated by SEP, no padding (as perf stat -x)" },
	{ .val = 'e', .lname = "events", .arg = "LIST",
	  .help_fn = stat_events_help, .kind = MG_OV_LIST, .words_fn = stat_event_words },
	MG_OPT_BACKEND("auto kernel fentry kprobe tracepoint",
		       "auto (default): the kernel's per-CPU counters where\n"
		       "readable, else fentry, kprobe, then tracepoints only;\n"
		       "kernel: those counters or fail; fentry, kprobe,\n"
		       "tracepoint: count with probes, every event counter on"),
	{ .val = 'H', .lname = "hot", .store = MG_OS_FLAG, .at = AT(hot),
	  .help = "also count current_time and ktime_get_coarse_real_ts64_mg\n"
	  "(they run on every write; function-probe backends only)" },
	{ .val = 'L', .lname = "latency", .store = MG_OS_FLAG, .at = AT(latency), .help = "log2 histograms (ns) of the time spent in\n"
	  "ktime_get_real_ts64_mg and inode_set_ctime_current (function-\n"
	  "probe backends only; with -A, each CPU's histogram)" },
	MG_OPTS_COMMON("one JSON object per line: each interval and the summary",
		       "results to FILE (default: stdout; stderr with COMMAND, as perf)",
		       "also the rows not counted, refused backends, source notes"),
	MG_OPTS_PROM("also write the counters, cumulative since start, in the\n"
		     "Prometheus text format to FILE (atomically: a temporary\n"
		     "file in its directory renamed over it), at start, every\n"
		     "interval (without -i or -I: every " MG_STR(MG_PROM_INTERVAL_S) " s, node_exporter's\n"
		     "usual scrape interval, no rows printed) and at the end; for\n"
		     "node_exporter's textfile collector"),
	{ 0 }
};

const struct mg_cmd_opts stat_cmdopts = {
	.name = "stat",
	.synopsis = "[-a | -p PID[,PID...] | --tree] [-C CPUS] [-A] [-I MS | -i SECONDS] [-c COUNT]\n"
		    "[-d SECONDS | --timeout MS] [--rate]\n"
		    "[-x SEP] [-e EVENTS] [-b auto|kernel|fentry|kprobe|tracepoint]\n"
		    "[-H] [-L] [-j] [-o FILE] [-v] [--prometheus FILE [--prometheus-label NAME=VALUE]]\n"
		    "[-- COMMAND [ARGS...]]",
	.about = "Count multigrain timestamp events until interrupted (SIGINT/SIGTERM/SIGHUP), for COUNT\n"
		 "intervals or -d SECONDS, or for the lifetime of COMMAND (then exit with its status).\n"
		 "By default ctime_updates, ctime_swaps, fine_stamps and floor_swaps come from the\n"
		 "kernel's own per-CPU counters, with no program on the write or stat path; the\n"
		 "counters that exist only as tracepoint events are opt-in with -e.\n"
		 "Scope: system-wide by default, with COMMAND too (the floor is global and so are the\n"
		 "kernel's counters; COMMAND only sets the window).\n",
	.opts = stat_opts,
	.exit_note = "stat: 0 also when COUNT intervals or -d's end ended COMMAND.\n",
	.command = true,
};

/*
 * One of stat's options the table does not store (c, its value arg) into o: the scope,
 * the intervals, the duration, -C, --prometheus, -x, -b and -e. Returns 0 or an exit
 * code (printed).
 */
static int stat_opt(void *base, int c, const char *arg)
{
	struct stat_opts *o = base;
	int e;

	if ((e = mg_opt_scope("stat", c, arg, &o->pids, &o->all, &o->tree)) ||
	    (e = mg_opt_intervals("stat", c, arg, &o->interval, &o->ival_opt, &o->count)))
		return e < 0 ? -e : 0;
	switch (c) {
	case 'C':
		return mg_opt_cpus("stat", arg, &o->cpus) ? MG_EXIT_USAGE : 0;
	case MG_OPTID_PROM:
	case MG_OPTID_PROM_LABEL:
		return mg_opt_prom(c, arg, prom_path, sizeof(prom_path), &o->prom, &o->prom_labels);
	case 'x':
		if (!*arg || strchr(arg, '\n'))
			return mg_err(MG_EXIT_USAGE, "stat: invalid field separator '%s'", arg);
		o->sep = arg;
		return 0;
	case 'b':
		/* "kernel" is stat's own: the other commands need their probes */
		if (mg_opt_backend("stat", arg, MG_OPT_BE_TRACEPOINT | MG_OPT_BE_KERNEL, &o->backend))
			return MG_EXIT_USAGE;
		o->backend_given = o->backend != MG_BE_AUTO && o->backend != MG_BE_KERNEL;
		return 0;
	case 'e':
		return parse_events(arg, &o->events) ? MG_EXIT_USAGE : 0;
	case 'd':
	case O_TIMEOUT:
		return mg_opt_time("stat", "duration", "-d", "--timeout", c, 'd', &o->dur_opt, arg,
				   &o->duration);
	}
	return 0;
}

int stat_parse_opts(struct stat_opts *o, int argc, char **argv)
{
	struct mg_opt_parser p;
	int e;

	mg_opt_begin(&p, &stat_cmdopts, argc, argv);
	if ((e = mg_opt_parse(&p, o, stat_opt)))
		return e;
	if (o->count && !o->interval)
		o->interval = 1;
	if (o->hot && o->backend == MG_BE_TRACEPOINT)
		return mg_err(MG_EXIT_USAGE, "stat: --hot needs a function-probe backend "
			      "(fentry or kprobe), not tracepoint");
	if (o->latency && o->backend == MG_BE_TRACEPOINT)
		return mg_err(MG_EXIT_USAGE, "stat: --latency needs a function-probe backend "
			      "(fentry or kprobe), not tracepoint");
	if ((e = mg_opt_command("stat", argc, argv, &o->argv)) ||
	    (e = mg_opt_scope_check("stat", &o->pids, o->all, &o->tree, o->argv != NULL)))
		return e;
	if ((o->pids.n || o->tree) && o->backend == MG_BE_KERNEL)
		return mg_err(MG_EXIT_USAGE, "stat: process scope (-p, --tree) counts events in BPF; "
			      "backend kernel has only the kernel's global counters");
	if (o->prom_labels && !o->prom)
		return mg_err(MG_EXIT_USAGE, "stat: --prometheus-label labels --prometheus FILE's "
			      "series: give --prometheus");
	if (o->cpus.given && o->prom)
		return mg_err(MG_EXIT_USAGE, "stat: -C and --prometheus exclude each other: the "
			      "series are the machine's counters, every CPU");
	if (o->sep && mg_json_output)
		return mg_err(MG_EXIT_USAGE, "stat: -x and --json exclude each other");
	if (o->prom && mg_output_path && mg_same_file(mg_output_path, o->prom))
		return mg_err(MG_EXIT_USAGE, "stat: -o '%s' and --prometheus '%s' are one file: "
			      "each output needs its own", mg_output_path, o->prom);
	return MG_EXIT_OK;
}

