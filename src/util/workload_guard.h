/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload_guard.h - what the built-in workload does where the kernel can hold it
 * (workload_guard.c): its directory made in a helper process, the threads blocked in the
 * kernel named, and given up on. workload.h includes it.
 */
#ifndef MG_WORKLOAD_GUARD_H
#define MG_WORKLOAD_GUARD_H

#include <stddef.h>
#include "workload_types.h"

/*
 * mkdtemp(tmpl) in a helper process, so that a mkdir the kernel holds (a frozen
 * filesystem) does not hold the caller: waiting (may be NULL) is called while it
 * has not returned, and a nonzero from it gives up. tmpl ("DIR/prefix.XXXXXX",
 * len bytes) gets the name made. The helper holds no fd of the caller's, and
 * removes the directory itself when the caller gave up or is gone by the time
 * mkdir returns. Returns 0, -errno of mkdtemp (or of pipe, fork), or -EINTR.
 */
int mg_wl_guarded_mkdtemp(char *tmpl, size_t len, mg_wl_waiting waiting, void *ctx);

/*
 * Workload threads that have not returned (blocked in the kernel after
 * mg_wl_stop()): one line into buf, naming the first one's wait channel
 * (/proc/self/task/TID/wchan, percpu_rwsem_wait on a frozen filesystem).
 * Returns their number (0: none, buf "").
 */
int mg_wl_blocked_text(const struct mg_workload *wl, char *buf, size_t len);

/*
 * Give up on threads that do not return (instead of mg_wl_finish): stop them,
 * keep their memory (they may run again when the kernel lets them), and fork a
 * cleaner, holding no fd but the directory's, that removes the files and the
 * directory once every thread of this process is gone. Returns the cleaner's
 * pid or -errno (fork).
 */
int mg_wl_abandon(struct mg_workload *wl);

#endif
