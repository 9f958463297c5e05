/* SPDX-License-Identifier: GPL-2.0 */
/* commands.h - entry points of mgtrace's subcommands; each returns an exit code (util.h). */
#ifndef MG_COMMANDS_H
#define MG_COMMANDS_H

#include "optab.h"

int cmd_probe(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_stress(int argc, char **argv);
/* `mgtrace check`: multigrain invariants and floor thresholds (src/check/check.c). */
int cmd_check(int argc, char **argv);
/* `mgtrace trace`: stream floor, ctime, stat and set events (src/trace/trace.c). */
int cmd_trace(int argc, char **argv);
/* `mgtrace top`: multigrain work per process, comm, file or cgroup (src/top/top.c). */
int cmd_top(int argc, char **argv);
/* `mgtrace clocks`: clock_gettime() cost and vDSO/syscall per clock (src/clocks.c). */
int cmd_clocks(int argc, char **argv);
/* `mgtrace conform`: the contract, operation by operation (src/conform/conform.c). */
int cmd_conform(int argc, char **argv);
/* `mgtrace` alone: stat --per-cpu around a short stress run. */
int cmd_default(const char *self);

/* Each command's option table (optab.h): its getopt, usage and `help --options`. */
extern const struct mg_cmd_opts probe_cmdopts, stat_cmdopts, stress_cmdopts, check_cmdopts,
	trace_cmdopts, top_cmdopts, clocks_cmdopts, conform_cmdopts;

#endif
