// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - mgtrace command dispatch, in the manner of bpftool and perf:
 * `mgtrace [-v] COMMAND [ARGS]`. With no command it runs the embedded default
 * job: `stat` around a short built-in `stress` workload.
 */
#include <stdio.h>
#include <string.h>
#include "backend.h"
#include "commands.h"
#include "util.h"

#define MGTRACE_VERSION "0.1.0"

static int usage(FILE *f, int code)
{
	fprintf(f,
		"Usage: mgtrace [-v] [COMMAND [ARGS...]]\n"
		"Trace and verify the Linux kernel's multigrain file timestamps with eBPF.\n\n"
		"Commands:\n"
		"  probe    what this kernel offers: multigrain API, tracepoints, counters, backends\n"
		"  stat     count floor swaps, fine-grained stamps and ctime updates, per CPU\n"
		"  trace    stream floor swaps, ctime swaps/skips, stat queries and ctime sets\n"
		"  check    verify the invariants: no ctime regression, change visibility, ordering,\n"
		"           floor updates rare (exit 0 pass, 1 fail, 4 inconclusive)\n"
		"  stress   built-in workload: threads writing and stat()ing files\n"
		"  clocks   cost of clock_gettime() per clock, and whether it is vDSO or a system call\n"
		"  help     this text; `mgtrace COMMAND --help` for a command's options\n\n"
		"Without a command, mgtrace runs `stat` around a 3 s `stress` run.\n"
		"Exit codes: 0 ok, 1 failure (check: violation), 2 usage, 3 environment unsupported,\n"
		"4 check inconclusive\n"
		"(not root, no BTF, no multigrain timestamps, debugfs not mounted).\n");
	return code;
}

int main(int argc, char **argv)
{
	const char *cmd;

	mg_libbpf_setup();

	while (argc > 1 && (!strcmp(argv[1], "-v") || !strcmp(argv[1], "--verbose"))) {
		mg_verbose++;
		argv++;
		argc--;
	}
	if (argc < 2)
		return cmd_default("/proc/self/exe");
	cmd = argv[1];
	if (!strcmp(cmd, "probe"))
		return cmd_probe(argc - 1, argv + 1);
	if (!strcmp(cmd, "stat"))
		return cmd_stat(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace"))
		return cmd_trace(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "stress"))
		return cmd_stress(argc - 1, argv + 1);
	if (!strcmp(cmd, "clocks"))
		return cmd_clocks(argc - 1, argv + 1);
	if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		/* `mgtrace help CMD` is `mgtrace CMD --help` */
		if (argc > 2 && strcmp(argv[2], "help")) {
			char *args[] = { argv[2], "--help", NULL };

			argv = args;
			argc = 2;
			cmd = argv[0];
			if (strcmp(cmd, "probe") && strcmp(cmd, "stat") && strcmp(cmd, "stress") &&
			    strcmp(cmd, "check") && strcmp(cmd, "trace") && strcmp(cmd, "clocks"))
				return mg_err(MG_EXIT_USAGE, "unknown command '%s' (try 'mgtrace help')", cmd);
			return !strcmp(cmd, "probe") ? cmd_probe(argc, argv) :
			       !strcmp(cmd, "stat") ? cmd_stat(argc, argv) :
			       !strcmp(cmd, "stress") ? cmd_stress(argc, argv) :
			       !strcmp(cmd, "check") ? cmd_check(argc, argv) :
			       !strcmp(cmd, "trace") ? cmd_trace(argc, argv) : cmd_clocks(argc, argv);
		}
		return usage(stdout, MG_EXIT_OK);
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("mgtrace %s\n", MGTRACE_VERSION);
		return MG_EXIT_OK;
	}
	mg_err(MG_EXIT_USAGE, "unknown command '%s' (try 'mgtrace help')", cmd);
	return MG_EXIT_USAGE;
}
