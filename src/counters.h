/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - the counter model: from two snapshots (BPF per-CPU map, kernel
 * per-CPU counters, debugfs totals) to the rows mgtrace prints, each with its
 * source. Pure computation, no BPF calls: unit-tested in tests/unit_tests.c.
 */
#ifndef MG_COUNTERS_H
#define MG_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include "mgtrace.h"

/* Where a printed number comes from. */
enum mg_src {
	MG_SRC_BPF,		/* counted by mgtrace's own BPF programs */
	MG_SRC_KERNEL,		/* the kernel's counters (per-CPU ksym or debugfs) */
	MG_SRC_DERIVED,		/* arithmetic on other rows */
	MG_SRC_UNAVAILABLE,	/* not measurable here; the row's why says why */
};

/* Rows in output order. */
enum mg_row_id {
	MG_R_CTIME_UPDATES,
	MG_R_FINE_STAMPS,
	MG_R_FLOOR_SWAPS,
	MG_R_FLOOR_CMPXCHG_FAILS,
	MG_R_CTIME_SWAPS,
	MG_R_CTIME_SKIPS,
	MG_R_CTIME_CMPXCHG_FAILS,
	MG_R_STAT_QUERIES,
	MG_R_CTIME_SETS,
	MG_R_CURRENT_TIME,
	MG_R_COARSE_MG,
	MG_R_NR,
};

/* A point-in-time reading of every counter source. */
struct mg_snap {
	uint64_t t_ns;			/* CLOCK_MONOTONIC when taken */
	struct mg_bpf_counts *bpf;	/* one per possible CPU */
	uint64_t *kpc;			/* [cpu * MG_K_NR_COUNTERS + k], or NULL: no per-CPU reader */
	uint64_t dbg[MG_K_NR_COUNTERS];	/* debugfs multigrain_timestamps totals */
	int dbg_err;			/* 0, or -errno of the debugfs read */
};

/* What the session measures; decides each row's source. */
struct mg_report_cfg {
	int nr_cpus;			/* possible CPUs */
	const char *func_backend;	/* "fentry" or "kprobe", or NULL: no function probes */
	const char *func_probe[4];	/* probe type per function: inode_set_ctime_current,
					 * ktime_get_real_ts64_mg, current_time,
					 * ktime_get_coarse_real_ts64_mg ("fentry"/"kprobe") */
	const char *tp_flavour;		/* "tp_btf" or "raw_tp" */
	bool hot;			/* current_time and coarse_mg probes attached */
	bool kpc;			/* snapshots carry kernel per-CPU counters */
	const char *kpc_method;		/* how they are read (mg_kreader_method()) */
};

/* One printed counter over a window [a, b]. */
struct mg_row {
	const char *name;		/* ctime_updates, ... */
	enum mg_src src;
	char detail[128];		/* probe, symbol or formula behind src */
	bool have_total;
	int64_t total;			/* counts in the window */
	bool have_percpu;
	int64_t *percpu;		/* nr_cpus counts, when have_percpu */
	char why[192];			/* reason total and/or per-CPU values are unavailable */
	bool from_debugfs;		/* total is the debugfs delta itself (not compared) */
	bool have_kernel;		/* a debugfs delta exists to compare with */
	int64_t kernel;			/* debugfs delta for the same window */
	bool mismatch;			/* have_kernel && total != kernel */
};

/* All rows for one window. */
struct mg_report {
	int nr_cpus;
	double seconds;			/* window length */
	int mismatches;			/* rows with mismatch set */
	struct mg_row rows[MG_R_NR];
};

/* Allocate a snapshot's arrays for nr_cpus (kpc only if with_kpc). Returns 0 or -ENOMEM. */
int mg_snap_alloc(struct mg_snap *s, int nr_cpus, bool with_kpc);
void mg_snap_free(struct mg_snap *s);

/* Fill r with b - a. Returns 0 or -ENOMEM; free with mg_report_free(). */
int mg_report_build(struct mg_report *r, const struct mg_report_cfg *cfg,
		    const struct mg_snap *a, const struct mg_snap *b);
void mg_report_free(struct mg_report *r);

/* "bpf", "kernel", "derived", "unavailable". */
const char *mg_src_name(enum mg_src s);

#endif
