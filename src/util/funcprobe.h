/* SPDX-License-Identifier: GPL-2.0 */
/*
 * funcprobe.h - how each probed kernel function is attached under a backend (fentry,
 * kprobe or not at all), and whether this kernel can attach kprobes: the plan that
 * backend.c loads and backend_why.c explains (funcprobe.c).
 */
#ifndef MG_FUNCPROBE_H
#define MG_FUNCPROBE_H

#include <stdbool.h>
#include "backend_types.h"
#include "kenv.h"

/*
 * How function fn is probed under backend be: "fentry", "kprobe" or NULL (not at all:
 * tracepoint and kernel backends, or one of --hot's functions without hot). The
 * fentry backend kprobes a function that returns a struct by value
 * (env->func_ret_struct), which BPF trampolines refuse.
 */
const char *mg_func_probe(const struct mg_kenv *env, enum mg_backend be, bool hot,
			  enum mg_func fn);

/* The kernel can attach kprobes: a kprobe PMU or tracefs kprobe_events. */
bool mg_have_kprobe_pmu(void);

#endif
