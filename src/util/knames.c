// SPDX-License-Identifier: GPL-2.0
/*
 * knames.c - the names of the kernel interface mgtrace looks for (knames.h).
 */
#include "knames.h"

const char *const mg_tp_names[MG_NR_TPS] = {
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in, top) [MG_TP_##ID] = tp,
#include "mg_vocab.def"
};

const char *const mg_kcounter_syms[MG_K_NR_COUNTERS] = {
	"mg_ctime_updates", "mg_ctime_swaps", "mg_fine_stamps", "timekeeping_mg_floor_swaps",
};

const char *const mg_kcounter_names[MG_K_NR_COUNTERS] = {
	"ctime_updates", "ctime_swaps", "fine_stamps", "floor_swaps",
};

const char *const mg_func_names[MG_NR_FUNCS] = {
	[MG_FN_SET_CTIME_CURRENT] = "inode_set_ctime_current",
	[MG_FN_REAL_MG] = "ktime_get_real_ts64_mg",
	[MG_FN_CURRENT_TIME] = "current_time",
	[MG_FN_COARSE_MG] = "ktime_get_coarse_real_ts64_mg",
};

const enum mg_func mg_floor_funcs[MG_NR_FLOOR_FUNCS] = { MG_FN_REAL_MG, MG_FN_COARSE_MG };
