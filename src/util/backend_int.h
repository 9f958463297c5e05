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
#include "kenv.h"

/*
 * How function fn is probed under backend be: "fentry", "kprobe" or NULL (not at all:
 * tracepoint and kernel backends, or one of --hot's functions without hot). The
 * fentry backend kprobes a function that returns a struct by value
 * (env->func_ret_struct), which BPF trampolines refuse. backend.c.
 */
const char *mg_func_probe(const struct mg_kenv *env, enum mg_backend be, bool hot,
			  enum mg_func fn);

/*
 * Fill a->why with "STAGE failed: ERRNAME (cause)" for a failed step of one attempt
 * under backend be (tracepoints as tp_btf or raw_tp; hot: --hot's functions probed
 * too): the best-known cause from env, libbpf's log (loadlog.h) or the program types
 * the kernel lacks, else libbpf's last error. err: a negative errno; stage: "open",
 * "ring buffer size", "process map", "load" or "attach". backend_why.c.
 */
void mg_backend_explain(struct mg_attempt *a, const struct mg_kenv *env, enum mg_backend be,
			bool tp_btf, bool hot, int err, const char *stage);

/* The kernel can attach kprobes: a kprobe PMU or tracefs kprobe_events. backend_why.c. */
bool mg_have_kprobe_pmu(void);

#endif
