/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend_int.h - what the parts of the backend share: backend.c (program table,
 * load and attach) and backend_why.c (why an attempt failed). Not a public
 * interface (backend.h is).
 */
#ifndef MG_BACKEND_INT_H
#define MG_BACKEND_INT_H

#include <stdbool.h>
#include "backend.h"
#include "funcprobe.h"
#include "kenv.h"

/*
 * Fill a->why with "STAGE failed: ERRNAME (cause)" for a failed step of one attempt
 * under backend be (tracepoints as tp_btf or raw_tp; hot: --hot's functions probed
 * too): the best-known cause from env, libbpf's log (loadlog.h) or the program types
 * the kernel lacks, else libbpf's last error. err: a negative errno; stage: "open",
 * "ring buffer size", "process map", "load" or "attach". backend_why.c.
 */
void mg_backend_explain(struct mg_attempt *a, const struct mg_kenv *env, enum mg_backend be,
			bool tp_btf, bool hot, int err, const char *stage);

#endif
