// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - mgtrace command dispatch, in the manner of bpftool and perf:
 * `mgtrace [-v] COMMAND [ARGS]`. Commands come from one table; a unique prefix
 * selects one (`mgtrace ch` is check), as bpftool's cmd_select() does. With no
 * command it runs the embedded default job: `stat` around a short built-in
 * `stress` workload.
 */
#include <malloc.h>
#include <signal.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "backend.h"
#include "commands.h"
#include "opts.h"
#include "optab.h"
#include "util.h"

#ifndef MGTRACE_VERSION
#error "MGTRACE_VERSION comes from the VERSION file (Makefile)"
#endif

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the command name */
	const char *help;			/* one line for `mgtrace help` */
	const struct mg_cmd_opts *opts;		/* its option table (optab.h), or NULL */
};

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct cmd cmds[] = {
	{ "probe", cmd_probe, "what this kernel offers: multigrain API, tracepoints, counters, backends", &probe_cmdopts },
	{ "stat", cmd_stat, "count floor swaps, fine-grained stamps and ctime updates, per CPU", &stat_cmdopts },
	{ "trace", cmd_trace, "stream floor swaps, ctime swaps/skips, stat queries and ctime sets", &trace_cmdopts },
	{ "check", cmd_check, "verify the invariants: no ctime regression, change visibility,\n"
	  "           ordering, the floor; floor gates (exit 0 pass, 1 fail, 4 inconclusive)", &check_cmdopts },
	{ "top", cmd_top, "which processes, comms, files or cgroups cause floor swaps, fine stamps,\n"
	  "           ctime swaps and stat queries, refreshed every interval", &top_cmdopts },
	{ "conform", cmd_conform, "the contract operation by operation: every ctime-changing operation,\n"
	  "           judged per inode by check and by stat() (exit 0 pass, 1 fail, 4 inconclusive)",
	  &conform_cmdopts },
	{ "stress", cmd_stress, "built-in workload: threads writing and stat()ing files", &stress_cmdopts },
	{ "clocks", cmd_clocks, "cost of clock_gettime() per clock, and whether it is vDSO or a system call", &clocks_cmdopts },
	{ "help", cmd_help, "this text; `mgtrace help COMMAND` for a command's options", NULL },
	{ "version", cmd_version, "print the version", NULL },
};
#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static void main_usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: mgtrace [-v] [-j] [-o FILE] [COMMAND [ARGS...]]\n"
		"Trace and verify the Linux kernel's multigrain file timestamps with eBPF.\n\n"
		"Options of every command (before or after its name):\n"
		"  -j, --json         JSON lines instead of text\n"
		"  -o, --output FILE  results to FILE; else to stdout, or to stderr when mgtrace\n"
		"                     runs a COMMAND (as perf stat), so COMMAND's stdout stays its own\n"
		"  -v, --verbose      more detail (source notes, refused backends); twice: libbpf debug\n\n"
		"Commands (a unique prefix is enough):\n");
	for (i = 0; i < NR_CMDS; i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\nWithout a command, mgtrace runs `stat` around a 3 s `stress` run.\n");
	mg_opt_exit_codes(f, NULL);
}

static const struct mg_opt main_opts[] = {
	MG_OPTS_COMMON("JSON lines instead of text", "results to FILE", "more detail"),
	{ .val = 'V', .lname = "version", .help = "print the version" },
	{ 0 }
};

/* mgtrace's own options, before the command's name */
static const struct mg_cmd_opts main_cmdopts = {
	.name = "mgtrace", .opts = main_opts, .command = true, .usage_fn = main_usage,
};

/* mgtrace's usage text to f; code, or MG_EXIT_OUTPUT when stdout could not be written */
static int usage(FILE *f, int code)
{
	main_usage(f);
	return f == stdout ? mg_stdout_flush(code) : code;
}

/*
 * The command named by s: an exact name, or a prefix of exactly one name.
 * NULL if none or ambiguous (then *ambiguous is set).
 */
static const struct cmd *cmd_select(const char *s, bool *ambiguous)
{
	const struct cmd *found = NULL;
	size_t i, n = strlen(s);

	*ambiguous = false;
	if (!n)
		return NULL;
	for (i = 0; i < NR_CMDS; i++) {
		if (!strcmp(s, cmds[i].name))
			return &cmds[i];
		if (!strncmp(s, cmds[i].name, n)) {
			if (found)
				*ambiguous = true;
			found = &cmds[i];
		}
	}
	return *ambiguous ? NULL : found;
}

/*
 * One line for s, which cmd_select() did not take: "unknown command", or "ambiguous command"
 * with the commands it begins ("'c': check, clocks"). Returns MG_EXIT_USAGE.
 */
static int unknown(const char *s, bool ambiguous)
{
	char which[128] = "";
	size_t i, n = 0, len = strlen(s);

	for (i = 0; ambiguous && i < NR_CMDS; i++)
		if (!strncmp(s, cmds[i].name, len) && n < sizeof(which))
			n += (size_t)snprintf(which + n, sizeof(which) - n, "%s%s", n ? ", " : ": ",
					      cmds[i].name);
	return mg_err(MG_EXIT_USAGE, "%s command '%s'%s (try 'mgtrace help')",
		      ambiguous ? "ambiguous" : "unknown", s, which);
}

/*
 * `mgtrace help [COMMAND]`: COMMAND's --help, or the command list. `mgtrace help
 * --options [COMMAND]`: the option table (optab.h mg_opt_dump()) of COMMAND (a
 * unique prefix: its full name first), or mgtrace's own; what the bash completion
 * reads.
 */
static int cmd_help(int argc, char **argv)
{
	const struct cmd *c;
	bool amb;

	if (argc >= 2 && !strcmp(argv[1], "--options")) {
		if (argc > 3)
			return mg_err(MG_EXIT_USAGE, "help: --options takes one COMMAND");
		if (argc < 3) {
			mg_opt_dump(&main_cmdopts, stdout);
			return mg_stdout_flush(MG_EXIT_OK);
		}
		if (!(c = cmd_select(argv[2], &amb)))
			return unknown(argv[2], amb);
		if (!c->opts) {
			printf("command\t%s\n", c->name);
			return mg_stdout_flush(MG_EXIT_OK);
		}
		mg_opt_dump(c->opts, stdout);
		return mg_stdout_flush(MG_EXIT_OK);
	}
	if (argc < 2 || !strcmp(argv[1], "help"))
		return usage(stdout, MG_EXIT_OK);
	c = cmd_select(argv[1], &amb);
	if (!c)
		return unknown(argv[1], amb);
	if (c->fn == cmd_version)
		return usage(stdout, MG_EXIT_OK);
	return c->fn(2, (char *[]){ (char *)c->name, "--help", NULL });
}

/* version's options: the shared ones only; its --help is mgtrace's (as `help version`) */
static const struct mg_opt version_opts[] = {
	MG_OPTS_COMMON("JSON", "the version to FILE", "no effect"),
	{ 0 }
};
static const struct mg_cmd_opts version_cmdopts = {
	.name = "version", .opts = version_opts, .usage_fn = main_usage,
};

/*
 * mgtrace version [-j] [-o FILE] (argc 0: -V, its options already taken): "mgtrace X.Y.Z",
 * or {"schema_version":1,"type":"version","version":...}, to mg_out as every command's
 * results. Returns 0, MG_EXIT_USAGE (an unknown option or argument) or mg_out_open()'s and
 * mg_out_close()'s exit codes (MG_EXIT_OUTPUT: the line could not be written).
 */
static int cmd_version(int argc, char **argv)
{
	struct mg_opt_parser p;
	const char *arg;
	int o, ret;

	if (argc > 0) {
		mg_opt_begin(&p, &version_cmdopts, argc, argv);
		while ((o = mg_opt_next(&p, &arg)) > 0)
			;
		if (o < 0)
			return -o;
		if ((ret = mg_opt_no_operands(&p)))
			return ret;
	}
	if ((ret = mg_out_open_once("version", false)))
		return ret;
	if (mg_json_output)
		fprintf(mg_out, "{\"schema_version\":1,\"type\":\"version\",\"version\":\"%s\"}\n",
			MGTRACE_VERSION);
	else
		fprintf(mg_out, "mgtrace %s\n", MGTRACE_VERSION);
	return mg_out_close();
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	bool amb;

	struct mg_opt_parser p;
	const char *arg;
	int o;

	/*
	 * glibc raises its mmap threshold to the size of any mmapped block freed, so
	 * once our parse of the kernel BTF (5.5 MiB) is freed, libbpf's two copies of it
	 * and every later large buffer come from the brk heap, which is not trimmed:
	 * the process then kept about 2 MiB more at its peak (check: 17.7 MiB instead
	 * of 15.4 with its ring buffer mapped after the load). A fixed threshold keeps
	 * large blocks in their own mappings, returned to the kernel when freed.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	/* a closed stdout or stderr stays closed to what mgtrace writes: see util.h */
	mg_std_fds_hold();
	/* a closed pipe (mgtrace ... | head) is a failed write, reported with exit 5
	 * (MG_EXIT_OUTPUT) after detaching, not a death by SIGPIPE mid-report */
	signal(SIGPIPE, SIG_IGN);
	mg_libbpf_setup();
	/* `mgtrace --help COMMAND` (`-h`): COMMAND's help, as `mgtrace help COMMAND` and
	 * `git --help log`; other options around it are mgtrace's own usage, as before */
	if (argc == 3 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) &&
	    argv[2][0] != '-')
		return cmd_help(2, (char *[]){ "help", argv[2], NULL });
	/* the shared options may come before the command, as bpftool's global ones */
	mg_opt_begin(&p, &main_cmdopts, argc, argv);
	while ((o = mg_opt_next(&p, &arg)) > 0)
		if (o == 'V')
			return cmd_version(0, NULL);
	if (o < 0)
		return -o;
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 2)
		return cmd_default("/proc/self/exe");
	c = cmd_select(argv[1], &amb);
	if (!c)
		return unknown(argv[1], amb);
	return c->fn(argc - 1, argv + 1);
}
