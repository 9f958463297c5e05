/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - the counter model: from two snapshots (BPF per-CPU map, kernel
 * per-CPU counters, debugfs totals) to the rows mgtrace prints, each with its
 * source. Pure computation, no BPF calls: unit-tested in tests/unit/test_counters.c.
 */
#ifndef MG_COUNTERS_H
#define MG_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mgtrace.h"

#include "counters_types.h"

/* A row's name ("ctime_swaps"), by enum mg_row_id; NULL out of range. */
const char *mg_row_name(int row);
/* A row's Prometheus HELP text, NULL for a derived row (include/mg_vocab.def). */
const char *mg_row_help(int row);

/* Allocate a snapshot's arrays for nr_cpus (kpc only if with_kpc). Returns 0 or -ENOMEM. */
int mg_snap_alloc(struct mg_snap *s, int nr_cpus, bool with_kpc);
void mg_snap_free(struct mg_snap *s);

/* Fill r with b - a. Returns 0 or -ENOMEM; free with mg_report_free(). */
int mg_report_build(struct mg_report *r, const struct mg_report_cfg *cfg,
		    const struct mg_snap *a, const struct mg_snap *b);
void mg_report_free(struct mg_report *r);

/*
 * The bracket of a kernel counter's count over a window from snapshot a to b, from
 * the debugfs readings around each (see struct mg_bracket). Returns 0, or -ERANGE when
 * the readings are not in non-decreasing order (a_pre <= a_post <= b_pre <= b_post),
 * which no correct reading of a growing counter gives; *br is then still filled.
 */
int mg_bracket_make(struct mg_bracket *br, uint64_t a_pre, uint64_t a_post,
		    uint64_t b_pre, uint64_t b_post);

/* The match column's word for k: "start", "ksym", or NULL for MG_KCHECK_NONE. */
const char *mg_kcheck_name(enum mg_kcheck k);

/* Judge a figure against its bracket (an inverted bracket matches nothing). */
enum mg_match mg_bracket_judge(const struct mg_bracket *br, int64_t figure);

/* "yes", "within", "NO". */
const char *mg_match_name(enum mg_match m);

/*
 * Check a reading of the kernel's per-CPU counters (kpc[cpu * MG_K_NR_COUNTERS + k])
 * taken between two debugfs readings pre and post: for every counter, the sum over
 * CPUs must lie in [pre, post]. Returns 0, or -EPROTO with the first counter that
 * failed, its sum and the bracket written into why.
 */
int mg_kpc_check(const uint64_t *kpc, int nr_cpus, const uint64_t pre[MG_K_NR_COUNTERS],
		 const uint64_t post[MG_K_NR_COUNTERS], char *why, size_t whylen);

/* Row id of a row name ("ctime_swaps", ...), or -1. */
int mg_row_by_name(const char *name);

/* "bpf", "kernel", "derived", "unavailable". */
const char *mg_src_name(enum mg_src s);

#endif
