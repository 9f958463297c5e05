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

#include "run_types.h"
#include "run_child.h"

/*
 * Probe the environment into r->env and check what every probing command needs
 * (mg_env_require(), need_mg): the one step before any BPF object is loaded, the
 * process-following and PID-namespace ones (follow.c, pidns.c) too, so that a refusal
 * names what is missing, not the first loader it stopped. Once per run (later calls
 * return MG_EXIT_OK). Returns an exit code (util.h), one line printed on failure.
 */
int mg_run_require_env(struct mg_run *r);

/*
 * mg_run_require_env(), and the kernel per-CPU counter reader opened (r->kr, or NULL
 * and r->kr_why) from the same parse of the kernel BTF, which is released after it:
 * what stat and check do before any other BPF object, so that the kernel BTF is parsed
 * once in mgtrace's own code. Once per run. Returns an exit code (util.h), one line
 * printed on failure.
 */
int mg_run_prepare(struct mg_run *r);

/*
 * Block the run's signals (mg_run_block_signals: a SIGINT during the load is taken, not
 * a death), check the environment, open the kernel counter reader, attach the session
 * and allocate snapshots; prints one line on failure. Returns an exit code (util.h).
 */
int mg_run_setup(struct mg_run *r, enum mg_backend want, const struct mg_session_opts *o);

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

/* Release everything; safe after any failure. */
void mg_run_cleanup(struct mg_run *r);

/* JSON object with the fields every stat/check object starts with. New reference. */
json_t *mg_run_json_header(const struct mg_run *r, const char *type);
/* {backend: {attached, reason}} for every backend tried. New reference. */
json_t *mg_run_json_attempts(struct mg_run *r);
/* Text lines: backend, probe type per function, refused backends, kernel per-CPU reader. */
void mg_run_print_backend(const struct mg_run *r, FILE *f);

#endif
