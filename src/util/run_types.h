/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_types.h - struct mg_run, what a measurement run owns: the environment, the session,
 * the kernel counter reader, the snapshots, COMMAND and the signals. No code: run.c
 * (setup, snapshots, reports' header) and run_child.c (COMMAND, signals) stand above it.
 */
#ifndef MG_RUN_TYPES_H
#define MG_RUN_TYPES_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "backend.h"
#include "counters.h"
#include "kcounters.h"
#include "kenv.h"

/* Everything a run owns; mg_run_cleanup() releases all of it. */
struct mg_run {
	struct mg_kenv env;
	bool env_ok;			/* mg_run_require_env() passed: env is probed */
	struct mg_session sess;
	struct mg_kreader *kr;		/* kernel per-CPU counters, or NULL */
	char kr_why[384];		/* why kr is NULL */
	bool kr_tried;			/* mg_run_prepare() opened kr, or tried to */
	struct mg_report_cfg cfg;
	struct mg_snap first, prev, cur;	/* start, previous interval, latest */
	pid_t child;			/* COMMAND, or 0 */
	/* COMMAND's own process group (its pid), which stop signals and the SIGKILL go to
	 * (kill(-pgid)), so that its whole tree ends; 0 when COMMAND stays in mgtrace's
	 * group: mgtrace is the foreground job of the terminal on its stdin, whose Ctrl-C
	 * and hangup reach every process of the group from the terminal (mg_run_spawn). */
	pid_t pgid;
	int go_fd;			/* releases the child once counting began */
	int exec_fd;			/* the child's exec: EOF on success, else its errno */
	int exec_err;			/* errno of COMMAND's failed exec (mg_run_start), or 0 */
	const char *argv0;		/* COMMAND's name (mg_run_spawn), for the reports */
	int child_status;		/* COMMAND's exit code (128+N for signal N) */
	int child_signal;		/* the signal that killed COMMAND (WTERMSIG), or 0: it
					 * exited, maybe with a status above 128 of its own */
	bool child_done;
	uint64_t child_end_ns;		/* when COMMAND was reaped, CLOCK_MONOTONIC ns; 0: not */
	/* Stop signals passed on while COMMAND ran (mg_run_wait): the first is sent as it
	 * came, the second as SIGKILL, and a third ends the run without waiting for a
	 * COMMAND stuck in the kernel (child_abandoned: no status, never reaped here). */
	int stops_forwarded;
	bool child_abandoned;
	sigset_t sigs, oldmask;		/* SIGINT, SIGTERM, SIGHUP, SIGCHLD: blocked, taken synchronously */
	bool sigs_blocked;		/* mg_run_block_signals() ran */
	/* The first SIGINT, SIGTERM or SIGHUP taken (mg_run_wait, mg_run_stop_pending) before
	 * COMMAND, if any, was reaped: the run did not reach its own end. 0: none. */
	int stop_sig;
	uint64_t stop_ns;		/* when it was taken, CLOCK_MONOTONIC ns (mg_now_ns) */
	uint64_t stop_sigs;		/* every such signal taken: bit N for signal N */
	/* Set before the run (continuous check with -o FILE): SIGHUP is not a stop signal
	 * but reopens -o (mg_out_reopen), as daemons do for logrotate; hups counts them. */
	bool hup_reopens;
	uint64_t hups;
	/* Optional, set before mg_run_start(): called right after the first snapshot and
	 * before COMMAND is released, so that other readings (stat --latency) start the
	 * same window. Returns 0 or -errno, which mg_run_start() returns. */
	int (*at_start)(void *arg);
	void *at_start_arg;
	/* Optional (-p PID): false once the traced processes are all gone; mg_run_wait()
	 * then asks it at least every MG_RUN_ALIVE_MS and ends the run (as perf stat -p
	 * ends when its target exits), setting target_gone. */
	bool (*alive)(void *arg);
	void *alive_arg;
	bool target_gone;
};

#endif
