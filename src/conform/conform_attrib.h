/* SPDX-License-Identifier: GPL-2.0 */
/* conform_attrib.h - the kernel judge's findings attributed to a sweep's log (conform_attrib.c). */
#ifndef MG_CONFORM_ATTRIB_H
#define MG_CONFORM_ATTRIB_H

#include "checker.h"
#include "conform_sweep.h"

/*
 * Attribute each of the n violation reports v (check's checker, every one kept) to the
 * log entry of its inode (dev, ino) whose window [t0_ns, t1_ns] holds its later
 * observation, its kernel stack added to the entry's row (grouped, frames named from
 * /proc/kallsyms); mark each entry whose inode got no ctime event (updated 0) missing.
 * st: the checker's totals (violations not kept make the rows inconclusive). 0, or -1
 * with why set (out of memory).
 */
int cf_attrib(struct cf_sweep *s, const struct mg_violation *v, size_t n,
	      const struct mg_check_stats *st, bool incomplete, char *why, size_t len);

#endif
