/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - the built-in multigrain workload, shared by `mgtrace stress` and
 * the built-in run of `mgtrace check`: pinned threads (thread k on online CPU
 * k mod N) looping over files of their own in a fresh directory, a tmpfs
 * mounted on it unless the user named a parent directory (in a private mount
 * namespace of the process: the tmpfs dies with it, even on SIGKILL).
 *
 * What one iteration does is a short program of steps (write one byte to file
 * i, fstat file i, or a timed write whose fstat is handed to a hook), so that
 * stress's write+stat loop and check's ordering pattern are the same code.
 * Each thread takes its own start and end times (CLOCK_MONOTONIC, ns): a run's
 * time is from the first start to the last end, with no waiting in it.
 */
#ifndef MG_WORKLOAD_H
#define MG_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include "workload_types.h"
#include "workload_guard.h"

/*
 * Make the directory and start the threads. Returns 0, or -errno with a reason
 * in err (the directory could not be made: -EACCES, -ENOENT, ...; threads:
 * -EAGAIN; memory: -ENOMEM). On error nothing is left running or mounted.
 */
int mg_wl_start(struct mg_workload *wl, const struct mg_wl_opts *o, char *err, size_t errlen);

/* Ask the threads to stop after their current iteration. */
void mg_wl_stop(struct mg_workload *wl);

/* True while some thread runs (it has iterations left and was not stopped). */
bool mg_wl_running(struct mg_workload *wl);

/*
 * Stop, join the threads, remove the files and the directory (and unmount the
 * tmpfs). Returns the first thread error (a positive errno) or 0. Totals stay
 * readable until mg_wl_free().
 */
int mg_wl_finish(struct mg_workload *wl);

/* Iterations of all threads, and the run's time: first start to last end (ns). */
uint64_t mg_wl_iterations(const struct mg_workload *wl);
uint64_t mg_wl_elapsed_ns(const struct mg_workload *wl);

/* Free the thread array. */
void mg_wl_free(struct mg_workload *wl);

/*
 * The filesystem of dir: "tmpfs", "ext4", "xfs" or "btrfs" (by statfs's magic); any
 * other by the type mountinfo gives its mount ("overlay", "ramfs"; kept in a static
 * buffer until the next call), else "other"; "unknown" when statfs fails.
 */
const char *mg_fs_name(const char *dir);

#endif
