/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend_why.h - why a backend's load or attach failed, in one line (backend_why.c):
 * the errno's name and the best-known cause. backend.h includes it.
 */
#ifndef MG_BACKEND_WHY_H
#define MG_BACKEND_WHY_H

#include <stdbool.h>
#include "backend_types.h"
#include "kenv.h"

/*
 * Fill a->why with "STAGE failed: ERRNAME (cause)" for a failed step of one attempt
 * under backend be (tracepoints as tp_btf or raw_tp; hot: --hot's functions probed
 * too): the best-known cause from env, libbpf's log (loadlog.h) or the program types
 * the kernel lacks, else libbpf's last error. err: a negative errno; stage: "open",
 * "ring buffer size", "process map", "load" or "attach".
 */
void mg_backend_explain(struct mg_attempt *a, const struct mg_kenv *env, enum mg_backend be,
			bool tp_btf, bool hot, int err, const char *stage);

/*
 * Fill a->why with the best-known cause of a failed load/attach of function
 * probes under backend be (fentry or kprobe) on inode_set_ctime_current and
 * ktime_get_real_ts64_mg; stage is "load" or "attach"; err a negative errno.
 */
void mg_attempt_explain(struct mg_attempt *a, const struct mg_kenv *env, enum mg_backend be,
			int err, const char *stage);

#endif
