/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_child.h - a run's COMMAND and signals (run_child.c): held until counting begins,
 * stop signals passed on, reaped, its status; `trace` uses them with its own session.
 * run.h includes it.
 */
#ifndef MG_RUN_CHILD_H
#define MG_RUN_CHILD_H

#include <stdbool.h>
#include <time.h>
#include <jansson.h>
#include "run_types.h"

/* How often, at least, mg_run_wait() asks a run's alive callback (-p PID), ms. */
#define MG_RUN_ALIVE_MS 200

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

/* COMMAND's exit code as JSON: null when the run gave up on it (child_abandoned). */
json_t *mg_run_status_json(const struct mg_run *r);

#endif
