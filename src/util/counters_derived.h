/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters_derived.h - what mg_report_build() (counters.c) calls of the derived rows
 * (counters_derived.c). Not a public interface (counters.h is).
 */
#ifndef MG_COUNTERS_DERIVED_H
#define MG_COUNTERS_DERIVED_H

#include "counters_types.h"

/*
 * r = x - y - z (z may be NULL) over the window, per CPU (n CPUs) where all operands
 * have per-CPU values; never below 0 (struct mg_row: approx, clamped, raw).
 * Unavailable, with why naming the operand, when an operand has no total or differs
 * from the kernel's count (mismatch). r->name must be set; x, y, z are built first.
 */
void mg_row_derive(struct mg_row *r, const struct mg_row *x, const struct mg_row *y,
		   const struct mg_row *z, int n);

/*
 * nfsd is loaded (mg_report_cfg::nfsd): say in R's ctime_swaps and
 * ctime_cmpxchg_fails rows what inode_set_ctime_deleg() (fs/inode.c, NFS delegated
 * timestamps, no tracepoint, no mg_ctime_updates) does to them, and set
 * rep->deleg_possible. Call after the derived rows.
 */
void mg_rows_deleg_swaps(struct mg_report *rep, struct mg_row *R);

#endif
