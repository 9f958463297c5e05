/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - one measurement run, shared by `stat` and `check`: environment checks,
 * the kernel per-CPU counter reader, an attached session, snapshots of every
 * counter source, and an optional COMMAND started once counting has begun.
 * `trace` uses its COMMAND and signal handling (mg_run_block_signals,
 * mg_run_spawn, mg_run_release, mg_run_wait, mg_run_end_child) with its own session.
 * Defined in run.c (setup, snapshots, reports' header) and run_child.c (COMMAND, signals).
 */
#ifndef MG_RUN_H
#define MG_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <jansson.h>
#include "escape.h"
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

#define MG_RUN_ALIVE_MS 200

/*
 * Probe the environment into r->env and check what every probing command needs
 * (mg_env_require(), need_mg): the one step before any BPF object is loaded, the
 * process-following and PID-namespace ones (follow.c, pidns.c) too, so that a refusal
 * names what is missing, not the first loader it stopped. Once per run (later calls
 * return MG_EXIT_OK). Returns an exit code (util.h), one line printed on failure.
 */
int mg_run_require_env(struct mg_run *r);

/*
 * Block the run's signals (mg_run_block_signals: a SIGINT during the load is taken, not
 * a death), check the environment, open the kernel counter reader, attach the session
 * and allocate snapshots; prints one line on failure. Returns an exit code (util.h).
 */
int mg_run_setup(struct mg_run *r, enum mg_backend want, const struct mg_session_opts *o);

/*
 * Block SIGINT, SIGTERM, SIGHUP and SIGCHLD, which mg_run_wait() then takes
 * synchronously (the mask before is kept for COMMAND). A blocked signal is queued even
 * where its disposition is SIG_IGN. Once per run; mg_run_setup() and mg_run_spawn()
 * call it, a command may call it earlier (from its start: check, trace, top).
 */
void mg_run_block_signals(struct mg_run *r);

/*
 * Take a pending SIGINT, SIGTERM or SIGHUP without waiting (SIGCHLD stays pending for
 * mg_run_wait), recorded as in mg_run_wait. Returns the signal, or 0 when none is
 * pending. For the stages before the run starts (loading, attaching).
 */
int mg_run_stop_pending(struct mg_run *r);

/*
 * True when COMMAND's exit status is one a stop signal taken before COMMAND ended
 * would give: killed by signal N, or exited 128+N (a shell's way), N in stop_sigs; or
 * killed by the SIGKILL a second stop signal sent (mg_run_wait()).
 */
bool mg_run_status_from_stop(const struct mg_run *r);

/* "SIGINT" for SIGINT; "signal N" for a signal without a name. Static storage. */
const char *mg_signal_name(int sig);

/*
 * Block the run's signals and fork argv, held on a pipe (its pid can be a load-time
 * filter) until mg_run_release(). COMMAND runs in a process group of its own (pgid, as a
 * shell's job), unless stdin is a terminal whose foreground group is mgtrace's: then it
 * stays there, so that it can read the terminal. Returns an exit code.
 */
int mg_run_spawn(struct mg_run *r, char **argv);

/*
 * Whether exit code ret is mgtrace's own refusal, before any result (2 usage, 3
 * environment, or 126/127: COMMAND could not be run), not COMMAND's exit status: the
 * case where the reports asked for get an error record (mg_out_error()).
 */
bool mg_run_refused(const struct mg_run *r, int ret);

/*
 * Release COMMAND, if held: it execs now (or exits 127 if the pipe broke). Waits for
 * the exec: when COMMAND cannot be run, exec_err is set (the child printed one line
 * and exits 127 or 126).
 */
void mg_run_release(struct mg_run *r);

/*
 * Take the first snapshot, call at_start if set, mg_run_release(): with exec_err set
 * the run has nothing to report. Returns 0 or -errno.
 */
int mg_run_start(struct mg_run *r);

/*
 * Read every counter source into s: debugfs, the kernel per-CPU counters, the BPF
 * map, debugfs again (struct mg_snap), the same at both ends of a window. A
 * BTF-offset per-CPU reading outside its debugfs readings is rejected, and a snapshot
 * slower than 200 us (descheduled: a wide bracket) retaken; up to 3 tries in all.
 * Prints one line on failure. Returns 0 or -errno (-EPROTO: every reading rejected).
 */
int mg_run_snap(struct mg_run *r, struct mg_snap *s);

/* dst = src (arrays sized for this run). */
void mg_run_copy_snap(struct mg_run *r, struct mg_snap *dst, const struct mg_snap *src);

/*
 * Wait for a signal until timeout (NULL: forever; {0,0}: poll). SIGCHLD reaps
 * COMMAND; SIGINT/SIGTERM/SIGHUP are forwarded to COMMAND when there is one, and
 * recorded (stop_sig, stop_ns, stop_sigs) while COMMAND, if any, runs. With
 * alive set, waits at most MG_RUN_ALIVE_MS and stops when it returns false.
 * Returns 1 when the run should stop, 0 on timeout (maybe early) or a signal
 * that does not stop it.
 */
int mg_run_wait(struct mg_run *r, const struct timespec *timeout);

/*
 * After mg_run_release(): if COMMAND could not be run (exec_err; the child
 * printed one line), collect it and return the exit code, 127 (not found) or
 * 126 (not executable): the caller then prints no report. Else 0.
 */
int mg_run_exec_failed(struct mg_run *r);

/*
 * End COMMAND if it still runs and collect its status: SIGTERM to its process group,
 * SIGKILL MG_OUT_STOP_GRACE_MS later if it has not ended (it ignores SIGTERM, or is
 * blocked on an output mgtrace abandoned), and if not even SIGKILL ends it within as
 * long (blocked in the kernel), the run gives it up (child_abandoned). Never waits longer.
 */
void mg_run_end_child(struct mg_run *r);

/* Release everything; safe after any failure. */
void mg_run_cleanup(struct mg_run *r);

/* COMMAND's exit code as JSON: null when the run gave up on it (child_abandoned). */
json_t *mg_run_status_json(const struct mg_run *r);

/* JSON object with the fields every stat/check object starts with. New reference. */
json_t *mg_run_json_header(const struct mg_run *r, const char *type);
/* {backend: {attached, reason}} for every backend tried. New reference. */
json_t *mg_run_json_attempts(struct mg_run *r);
/* Text lines: backend, probe type per function, refused backends, kernel per-CPU reader. */
void mg_run_print_backend(const struct mg_run *r, FILE *f);

#endif
