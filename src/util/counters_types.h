/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters_types.h - the counter model's types: where a number comes from, the rows
 * (include/mg_vocab.def), a snapshot of every source, a debugfs bracket, a row and a
 * report. No code: counters.c (the report built from two snapshots) and
 * counters_derived.c (the derived rows) both stand above it.
 */
#ifndef MG_COUNTERS_TYPES_H
#define MG_COUNTERS_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mgtrace.h"

/* Where a printed number comes from. */
enum mg_src {
	MG_SRC_BPF,		/* counted by mgtrace's own BPF programs */
	MG_SRC_KERNEL,		/* the kernel's counters (per-CPU ksym or debugfs) */
	MG_SRC_DERIVED,		/* arithmetic on other rows */
	MG_SRC_UNAVAILABLE,	/* not measurable here; the row's why says why */
};

/* Rows in output order (include/mg_vocab.def, MG_ROW). */
enum mg_row_id {
#define MG_ROW(ID, name, help) MG_R_##ID,
#include "mg_vocab.def"
	MG_R_NR,
};

/*
 * A reading of every counter source, taken in this order (src/util/run.c, mg_run_snap):
 * debugfs (dbg_pre), the kernel per-CPU counters (kpc), mgtrace's BPF map (bpf),
 * debugfs again (dbg_post). The counters only grow, so at the instant kpc or bpf
 * was read each kernel counter's total lay in [dbg_pre, dbg_post].
 */
struct mg_snap {
	uint64_t t_ns;			/* CLOCK_MONOTONIC when taken */
	struct mg_bpf_counts *bpf;	/* one per possible CPU */
	uint64_t *kpc;			/* [cpu * MG_K_NR_COUNTERS + k], or NULL: no per-CPU reader */
	uint64_t dbg_pre[MG_K_NR_COUNTERS];	/* debugfs multigrain_timestamps totals, read first */
	uint64_t dbg_post[MG_K_NR_COUNTERS];	/* the same, read last */
	int dbg_err;			/* 0, or -errno of either debugfs read */
};

/*
 * What a kernel counter counted in a window whose ends are two snapshots a and b:
 * [low, high] with low = b.dbg_pre - a.dbg_post and high = b.dbg_post - a.dbg_pre.
 * width = high - low: the events counted while the reads at both ends ran.
 */
struct mg_bracket {
	int64_t low, high, width;
};

/* How a figure compares with its bracket. */
enum mg_match {
	MG_MATCH_EXACT,		/* width 0 and figure == low: printed "yes" */
	MG_MATCH_WITHIN,	/* low <= figure <= high, width > 0: printed "within" */
	MG_MATCH_OUTSIDE,	/* figure < low or > high: printed "NO" */
};

/*
 * What a kernel per-CPU figure was checked against where no debugfs bracket judged it
 * (no debugfs, or not readable by this user): the match column's word (mg_kcheck_name()).
 */
enum mg_kcheck {
	MG_KCHECK_NONE,		/* nothing to say: not read by the per-CPU reader, or judged
				 * against debugfs (have_kernel): yes, within or NO */
	MG_KCHECK_START,	/* "start": the BTF-offset reader, validated once at the start
				 * against the tracepoint events of a known workload */
	MG_KCHECK_KSYM,		/* "ksym": a typed per-CPU ksym, read at the kernel's own
				 * symbol: nothing to check it against */
};

/*
 * What stat's JSON (kernel_per_cpu_unavailable) and Prometheus (mgtrace_info's
 * kernel_per_cpu) say of the kernel's per-CPU counters in process scope: no row uses
 * them there, whether or not they are readable.
 */
#define MG_KPC_UNUSED_SCOPED "unused in process scope: the kernel's counters are global " \
	"(every process)"

/* What the session measures; decides each row's source. */
struct mg_report_cfg {
	int nr_cpus;			/* possible CPUs */
	const char *func_backend;	/* "fentry" or "kprobe", or NULL: no function probes */
	const char *func_probe[MG_NR_FUNCS];	/* probe type per enum mg_func: "fentry",
					 * "kprobe" or NULL */
	const char *tp_flavour;		/* "tp_btf" or "raw_tp" */
	bool hot;			/* current_time and coarse_mg probes attached */
	bool kpc;			/* snapshots carry kernel per-CPU counters */
	const char *kpc_method;		/* how they are read (mg_kreader_method()) */
	enum mg_kcheck kpc_check;	/* what their figures were checked against where no
					 * debugfs bracket judges them (mg_kreader_check()) */
	bool prefer_kpc;		/* with kpc, the four kernel-counted rows come from the
					 * kernel's counters even where probes count them too */
	bool scoped;			/* process scope (-p, --tree): BPF counts filtered by
					 * tgid; the kernel's global counters are not used and
					 * nothing is compared with debugfs */
	unsigned int tp_off;		/* tracepoints NOT attached (1 << index in mg_tp_names[]):
					 * their rows are unavailable, with tp_off_why */
	const char *tp_off_why;		/* e.g. "not counted: opt in with -e %s (or -e all)"; one
					 * %s, the row's name */
	bool kcounter_absent[MG_K_NR_COUNTERS];	/* the kernel has no such counter (not in its
					 * BTF: fs/inode.c and kernel/time/timekeeping.c
					 * define them only with CONFIG_DEBUG_FS) */
	bool nfsd;			/* nfsd is loaded (/sys/module/nfsd): the kernel's
					 * mg_ctime_swaps may also count NFS delegated-timestamp
					 * swaps (inode_set_ctime_deleg(), fs/inode.c), which
					 * fire no tracepoint and count no mg_ctime_updates */
	const uint64_t *cpus;		/* -C: totals sum only these CPUs' values (MG_CPU_WORDS
					 * words, src/util/cpulist.h); NULL: every CPU. Debugfs
					 * still judges every CPU's sum (all_cpus_total) */
	/* Test only (MGTRACE_TEST_SKEW, src/util/testhook.c): add skew_n to row skew_row's
	 * count (and to its CPU 0 value) in every window. skew_row < 0: off. */
	int skew_row;
	int64_t skew_n;
};

/* One printed counter over a window [a, b]. */
struct mg_row {
	const char *name;		/* ctime_updates, ... */
	enum mg_src src;
	char detail[256];		/* probe, symbol or formula behind src */
	bool have_total;
	int64_t total;			/* counts in the window */
	bool have_percpu;
	int64_t *percpu;		/* nr_cpus counts, when have_percpu */
	char why[256];			/* reason total and/or per-CPU values are unavailable */
	bool cpu_subset;		/* -C: total sums the selected CPUs only */
	int64_t all_cpus_total;		/* every CPU's sum of the same per-CPU values (with
					 * cpu_subset: what debugfs judges) */
	bool by_design;			/* unavailable because of what was asked (not opted in,
					 * no --hot, process scope), not because of a failure:
					 * text output lists it behind -v only */
	bool opt_in;			/* unavailable only because not asked for: an option
					 * (-e, --hot) would count it with this backend and
					 * scope (-x prints <not counted>; otherwise
					 * <not supported>, as perf stat -x) */
	bool from_debugfs;		/* total is the debugfs delta itself (not compared) */
	bool from_kpc;			/* total is the kernel per-CPU reader's (cfg->kpc) */
	enum mg_kcheck kcheck;		/* from_kpc rows not compared with debugfs: what the
					 * figure was checked against instead */
	bool have_kernel;		/* a debugfs bracket exists to compare with */
	int64_t kernel;			/* outer debugfs delta of the window (= bracket.high) */
	bool have_bracket;		/* bracket is set: compared rows and debugfs-sourced rows */
	struct mg_bracket bracket;	/* the window's count as debugfs bounds it */
	enum mg_match match;		/* total against bracket (when have_kernel) */
	bool mismatch;			/* have_kernel && match == MG_MATCH_OUTSIDE */
	/*
	 * Derived rows only: the operands were not one consistent reading (a counter moved
	 * while either end of the window was read, or no debugfs reading shows it did
	 * not), so operations in flight at the ends make the difference approximate. A
	 * difference below 0, impossible for a count, is then printed as 0 and raw keeps
	 * it (total and per-CPU values are never negative).
	 */
	bool approx;
	char approx_why[256];
	bool clamped;			/* total or a per-CPU value was raised to 0 */
	int64_t raw;			/* the difference before clamping */
};

/* All rows for one window. */
struct mg_report {
	int nr_cpus;
	double seconds;			/* window length */
	int mismatches;			/* rows with mismatch set */
	int compared;			/* rows compared with debugfs (have_kernel): 0 in
					 * process scope, where mismatches means nothing */
	bool deleg_possible;		/* cfg->nfsd: the report says what NFS delegated-
					 * timestamp swaps do to ctime_swaps and its difference */
	struct mg_row rows[MG_R_NR];
};

#endif
