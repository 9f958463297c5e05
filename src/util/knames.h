/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knames.h - the names of the kernel interface mgtrace looks for: the timestamp:*
 * tracepoints (include/mg_vocab.def), the probed functions, the per-CPU counters'
 * symbols (knames.c). kenv.c probes for them, interface.c checks their prototypes.
 */
#ifndef MG_KNAMES_H
#define MG_KNAMES_H

#include "mgtrace.h"

/* The timestamp:* tracepoints' names, by enum mg_tp (include/mg_vocab.def). */
extern const char *const mg_tp_names[MG_NR_TPS];

/* The kernel's per-CPU counter symbols, indexed by enum mg_kernel_counter. */
extern const char *const mg_kcounter_syms[MG_K_NR_COUNTERS];
/* Their names in mgtrace output (debugfs order). */
extern const char *const mg_kcounter_names[MG_K_NR_COUNTERS];

/* Names of the probed functions, indexed by enum mg_func (include/mgtrace.h). */
extern const char *const mg_func_names[MG_NR_FUNCS];

/* The floor functions (they read mg_floor; ktime_get_real_ts64_mg may swap it): the
 * prototypes mg_kenv::func_proto[] records and `probe` shows. */
#define MG_NR_FLOOR_FUNCS 2
extern const enum mg_func mg_floor_funcs[MG_NR_FLOOR_FUNCS];

#endif
