// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - build report rows from two snapshots (see counters.h): row names,
 * debugfs brackets, each row from its source (BPF map, the kernel's per-CPU counters
 * or debugfs, a tracepoint not attached), compared with debugfs. The derived rows
 * (differences of others) are counters_derived.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "counters.h"
#include "counters_derived.h"
#include "kenv.h"

static const char *const row_names[MG_R_NR] = {
#define MG_ROW(ID, name, help) [MG_R_##ID] = name,
#include "mg_vocab.def"
};

static const char *const row_helps[MG_R_NR] = {
#define MG_ROW(ID, name, help) [MG_R_##ID] = help,
#include "mg_vocab.def"
};

const char *mg_row_name(int row)
{
	return row >= 0 && row < MG_R_NR ? row_names[row] : NULL;
}

const char *mg_row_help(int row)
{
	return row >= 0 && row < MG_R_NR ? row_helps[row] : NULL;
}

int mg_row_by_name(const char *name)
{
	int i;

	for (i = 0; name && i < MG_R_NR; i++)
		if (!strcmp(name, row_names[i]))
			return i;
	return -1;
}

int mg_bracket_make(struct mg_bracket *br, uint64_t a_pre, uint64_t a_post,
		    uint64_t b_pre, uint64_t b_post)
{
	/* At a's BPF read the total lay in [a_pre, a_post], at b's in [b_pre, b_post]. */
	br->low = (int64_t)(b_pre - a_post);
	br->high = (int64_t)(b_post - a_pre);
	br->width = br->high - br->low;
	return a_pre <= a_post && a_post <= b_pre && b_pre <= b_post ? 0 : -ERANGE;
}

enum mg_match mg_bracket_judge(const struct mg_bracket *br, int64_t figure)
{
	if (br->low > br->high || figure < br->low || figure > br->high)
		return MG_MATCH_OUTSIDE;
	return br->width == 0 ? MG_MATCH_EXACT : MG_MATCH_WITHIN;
}

/*
 * The debugfs bracket of counter k over the window [a, b] (mg_bracket_make()). A window
 * whose two ends are one reading (the start snapshot beside itself: the first
 * --prometheus file, written before any interval) counted nothing: [0, 0], whatever
 * moved while that one reading was taken. Returns 0, or -ERANGE: readings out of order.
 */
static int snap_bracket(struct mg_bracket *br, const struct mg_snap *a, const struct mg_snap *b,
			enum mg_kernel_counter k)
{
	if (a == b || (a->t_ns == b->t_ns && !memcmp(a->dbg_pre, b->dbg_pre, sizeof(a->dbg_pre)) &&
		       !memcmp(a->dbg_post, b->dbg_post, sizeof(a->dbg_post)))) {
		*br = (struct mg_bracket){ 0, 0, 0 };
		return 0;
	}
	return mg_bracket_make(br, a->dbg_pre[k], a->dbg_post[k], b->dbg_pre[k], b->dbg_post[k]);
}

const char *mg_match_name(enum mg_match m)
{
	static const char *const n[] = { "yes", "within", "NO" };

	return m <= MG_MATCH_OUTSIDE ? n[m] : "?";
}

const char *mg_kcheck_name(enum mg_kcheck k)
{
	return k == MG_KCHECK_START ? "start" : k == MG_KCHECK_KSYM ? "ksym" : NULL;
}

int mg_kpc_check(const uint64_t *kpc, int nr_cpus, const uint64_t pre[MG_K_NR_COUNTERS],
		 const uint64_t post[MG_K_NR_COUNTERS], char *why, size_t whylen)
{
	uint64_t sum;
	int k, cpu;

	for (k = 0; k < MG_K_NR_COUNTERS; k++) {
		for (sum = 0, cpu = 0; cpu < nr_cpus; cpu++)
			sum += kpc[(size_t)cpu * MG_K_NR_COUNTERS + k];
		if (sum < pre[k] || sum > post[k]) {
			snprintf(why, whylen, "%s: per-CPU sum %llu %s the debugfs readings "
				 "around it [%llu, %llu]", mg_kcounter_syms[k],
				 (unsigned long long)sum, sum < pre[k] ? "below" : "above",
				 (unsigned long long)pre[k], (unsigned long long)post[k]);
			return -EPROTO;
		}
	}
	return 0;
}

const char *mg_src_name(enum mg_src s)
{
	static const char *const n[] = { "bpf", "kernel", "derived", "unavailable" };

	return s <= MG_SRC_UNAVAILABLE ? n[s] : "?";
}

int mg_snap_alloc(struct mg_snap *s, int nr_cpus, bool with_kpc)
{
	memset(s, 0, sizeof(*s));
	s->bpf = calloc(nr_cpus, sizeof(*s->bpf));
	if (with_kpc)
		s->kpc = calloc((size_t)nr_cpus * MG_K_NR_COUNTERS, sizeof(*s->kpc));
	if (!s->bpf || (with_kpc && !s->kpc)) {
		mg_snap_free(s);
		return -ENOMEM;
	}
	return 0;
}

void mg_snap_free(struct mg_snap *s)
{
	free(s->bpf);
	free(s->kpc);
	s->bpf = NULL;
	s->kpc = NULL;
}

static void set_unavail(struct mg_row *r, const char *why)
{
	r->src = MG_SRC_UNAVAILABLE;
	r->have_total = r->have_percpu = false;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/* Unavailable because of what was asked for (struct mg_row::by_design). */
static void set_off(struct mg_row *r, const char *why)
{
	set_unavail(r, why);
	r->by_design = true;
}

/* A CPU's count goes into the total: every CPU, or with -C (cfg->cpus) a selected one. */
static bool cpu_selected(const struct mg_report_cfg *cfg, int cpu)
{
	return !cfg->cpus || (cpu < MG_MAX_CPUS && (cfg->cpus[cpu / 64] >> (cpu % 64) & 1));
}

/*
 * The total from r->percpu: every CPU's sum, or with -C the selected CPUs' (then
 * all_cpus_total keeps every CPU's, which is what debugfs can judge).
 */
static void sum_percpu(struct mg_row *r, const struct mg_report_cfg *cfg)
{
	int cpu;

	r->total = r->all_cpus_total = 0;
	r->cpu_subset = cfg->cpus != NULL;
	for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
		r->all_cpus_total += r->percpu[cpu];
		if (cpu_selected(cfg, cpu))
			r->total += r->percpu[cpu];
	}
}

static void from_bpf(struct mg_row *r, const struct mg_report_cfg *cfg, const struct mg_snap *a,
		     const struct mg_snap *b, enum mg_bpf_counter c)
{
	int cpu;

	r->src = MG_SRC_BPF;
	r->have_total = r->have_percpu = true;
	for (cpu = 0; cpu < cfg->nr_cpus; cpu++)
		r->percpu[cpu] = (int64_t)(b->bpf[cpu].v[c] - a->bpf[cpu].v[c]);
	sum_percpu(r, cfg);
}

static void from_kernel(struct mg_row *r, const struct mg_report_cfg *cfg,
			const struct mg_snap *a, const struct mg_snap *b, enum mg_kernel_counter k,
			const char *sym)
{
	int cpu, n = cfg->nr_cpus;

	r->src = MG_SRC_KERNEL;
	if (cfg->kpc) {
		snprintf(r->detail, sizeof(r->detail), "%s (%s)", sym,
			 cfg->kpc_method ? cfg->kpc_method : "per-CPU ksym");
		r->have_total = r->have_percpu = r->from_kpc = true;
		for (cpu = 0; cpu < n; cpu++) {
			size_t i = (size_t)cpu * MG_K_NR_COUNTERS + k;

			r->percpu[cpu] = (int64_t)(b->kpc[i] - a->kpc[i]);
		}
		sum_percpu(r, cfg);
		return;
	}
	if (cfg->kcounter_absent[k]) {
		snprintf(r->detail, sizeof(r->detail), "%s", sym);
		set_unavail(r, k == MG_K_FLOOR_SWAPS ?
			    "the kernel has no timekeeping_mg_floor_swaps (defined only with "
			    "CONFIG_DEBUG_FS), and no probe can tell a floor swap from a failed "
			    "cmpxchg without it" :
			    "the kernel has no such counter (fs/inode.c defines it only with "
			    "CONFIG_DEBUG_FS)");
		return;
	}
	if (a->dbg_err || b->dbg_err) {
		char why[sizeof(r->why)];

		snprintf(r->detail, sizeof(r->detail), "%s", sym);
		/* never a 0 read from a file that is not the kernel's: why debugfs was not read */
		snprintf(why, sizeof(why), "neither per-CPU ksyms nor debugfs are readable "
			 "(debugfs: %s)", mg_debugfs_why(a->dbg_err ? a->dbg_err : b->dbg_err));
		set_unavail(r, why);
		return;
	}
	if (cfg->cpus) {	/* -C: debugfs has only the all-CPU total */
		snprintf(r->detail, sizeof(r->detail), "%s", sym);
		set_unavail(r, "-C: without the kernel per-CPU counter reader only debugfs's "
			    "all-CPU total is readable, which cannot be split by CPU");
		return;
	}
	r->from_debugfs = true;
	r->have_total = true;
	/* the outer delta; the window's own count lies in the bracket, shown beside it */
	snap_bracket(&r->bracket, a, b, k);
	r->have_bracket = true;
	r->total = r->bracket.high;
	snprintf(r->detail, sizeof(r->detail), "debugfs multigrain_timestamps total, outer "
		 "readings (window's count in [%lld, %lld])", (long long)r->bracket.low,
		 (long long)r->bracket.high);
	snprintf(r->why, sizeof(r->why), "per-CPU values need the kernel per-CPU counter reader");
}

/* A row counted on tracepoint mg_tp_names[tp], or unavailable when it is not attached. */
static void from_tp(struct mg_row *r, const struct mg_report_cfg *cfg, int n,
		    const struct mg_snap *a, const struct mg_snap *b, enum mg_bpf_counter c, int tp)
{
	char why[160];

	snprintf(r->detail, sizeof(r->detail), "%s timestamp:%s", cfg->tp_flavour, mg_tp_names[tp]);
	if (cfg->tp_off & 1u << tp) {
		snprintf(why, sizeof(why), cfg->tp_off_why ? cfg->tp_off_why : "not counted: %s",
			 r->name);
		set_off(r, why);
		r->opt_in = true;	/* -e attaches it with any backend */
		return;
	}
	from_bpf(r, cfg, a, b, c);
}

/*
 * Every tracepoint's row from its BPF counter (include/mg_vocab.def: row and
 * bpf_counter of each MG_TRACEPOINT), except those in skip (1 << enum mg_tp).
 */
static void rows_from_tps(struct mg_row *R, const struct mg_report_cfg *cfg, int n,
			  const struct mg_snap *a, const struct mg_snap *b, unsigned int skip)
{
	static const struct { int row, ctr; } tps[MG_NR_TPS] = {
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in, top)	\
		[MG_TP_##ID] = { row, bpf_counter },
#include "mg_vocab.def"
	};
	int i;

	for (i = 0; i < MG_NR_TPS; i++)
		if (!(skip & 1u << i))
			from_tp(&R[tps[i].row], cfg, n, a, b, tps[i].ctr, i);
}

/*
 * Judge r's total against the debugfs bracket of counter k over [a, b]. The row's
 * own figure was read between each snapshot's two debugfs readings, so it must lie
 * in the bracket; a reading out of order (-ERANGE) matches nothing.
 */
static void compare(struct mg_row *r, const struct mg_snap *a, const struct mg_snap *b,
		    enum mg_kernel_counter k)
{
	/* a value read from debugfs is not compared with itself */
	if (a->dbg_err || b->dbg_err || r->from_debugfs)
		return;
	r->have_kernel = r->have_bracket = true;
	if (snap_bracket(&r->bracket, a, b, k)) {
		r->bracket.low = r->bracket.high + 1;	/* inverted: matches nothing */
		r->bracket.width = -1;
	}
	r->kernel = r->bracket.high;
	/* -C: debugfs has only all-CPU sums: it judges every CPU's sum of the same reading */
	r->match = r->have_total ? mg_bracket_judge(&r->bracket, r->cpu_subset ?
						    r->all_cpus_total : r->total) : MG_MATCH_OUTSIDE;
	r->mismatch = r->have_total && r->match == MG_MATCH_OUTSIDE;
}

/* Test hook (cfg->skew_row, MGTRACE_TEST_SKEW): add skew_n to one row's count. */
static void test_skew(struct mg_row *R, const struct mg_report_cfg *cfg)
{
	struct mg_row *r;

	if (cfg->skew_row < 0 || cfg->skew_row >= MG_R_NR || !cfg->skew_n)
		return;
	r = &R[cfg->skew_row];
	if (!r->have_total || r->from_debugfs)
		return;
	r->total += cfg->cpus && !cpu_selected(cfg, 0) ? 0 : cfg->skew_n;
	r->all_cpus_total += cfg->skew_n;
	if (r->have_percpu)
		r->percpu[0] += cfg->skew_n;
}

/*
 * Process scope: only BPF counts, which the programs filter by tgid. The kernel's
 * counters (and debugfs) count every process, so the rows only they give are off.
 */
static void build_scoped(struct mg_row *R, const struct mg_report_cfg *cfg,
			 const struct mg_snap *a, const struct mg_snap *b)
{
	static const char global[] = "process scope: the kernel's counter is global (every "
				     "process); the scope counts events in BPF";
	int n = cfg->nr_cpus;

	if (cfg->func_backend) {
		from_bpf(&R[MG_R_CTIME_UPDATES], cfg, a, b, MG_BPF_CTIME_UPDATES);
		snprintf(R[MG_R_CTIME_UPDATES].detail, sizeof(R[0].detail), "%s inode_set_ctime_current",
			 cfg->func_probe[0]);
		from_bpf(&R[MG_R_FINE_STAMPS], cfg, a, b, MG_BPF_FINE_STAMPS);
		snprintf(R[MG_R_FINE_STAMPS].detail, sizeof(R[0].detail), "%s ktime_get_real_ts64_mg",
			 cfg->func_probe[1]);
	} else {
		set_off(&R[MG_R_CTIME_UPDATES], "process scope: needs a function-probe backend "
			"(mg_ctime_updates is global)");
		set_off(&R[MG_R_FINE_STAMPS], "process scope: needs a function-probe backend "
			"(mg_fine_stamps is global)");
	}
	snprintf(R[MG_R_FLOOR_SWAPS].detail, sizeof(R[0].detail), "timekeeping_mg_floor_swaps");
	set_off(&R[MG_R_FLOOR_SWAPS], global);
	rows_from_tps(R, cfg, n, a, b, 0);
	test_skew(R, cfg);
}

int mg_report_build(struct mg_report *rep, const struct mg_report_cfg *cfg,
		    const struct mg_snap *a, const struct mg_snap *b)
{
	struct mg_row *R = rep->rows;
	int i, n = cfg->nr_cpus;

	memset(rep, 0, sizeof(*rep));
	rep->nr_cpus = n;
	rep->seconds = (double)(b->t_ns - a->t_ns) / 1e9;
	for (i = 0; i < MG_R_NR; i++) {
		R[i].name = row_names[i];
		R[i].percpu = calloc(n, sizeof(int64_t));
		if (!R[i].percpu) {
			mg_report_free(rep);
			return -ENOMEM;
		}
	}

	bool kern = cfg->kpc && cfg->prefer_kpc;

	if (cfg->scoped) {
		build_scoped(R, cfg, a, b);
		goto derived;
	}
	if (cfg->func_backend && !kern) {
		from_bpf(&R[MG_R_CTIME_UPDATES], cfg, a, b, MG_BPF_CTIME_UPDATES);
		snprintf(R[MG_R_CTIME_UPDATES].detail, sizeof(R[0].detail), "%s inode_set_ctime_current",
			 cfg->func_probe[MG_FN_SET_CTIME_CURRENT]);
		from_bpf(&R[MG_R_FINE_STAMPS], cfg, a, b, MG_BPF_FINE_STAMPS);
		snprintf(R[MG_R_FINE_STAMPS].detail, sizeof(R[0].detail), "%s ktime_get_real_ts64_mg",
			 cfg->func_probe[MG_FN_REAL_MG]);
	} else {
		from_kernel(&R[MG_R_CTIME_UPDATES], cfg, a, b, MG_K_CTIME_UPDATES, "mg_ctime_updates");
		from_kernel(&R[MG_R_FINE_STAMPS], cfg, a, b, MG_K_FINE_STAMPS, "mg_fine_stamps");
	}

	from_kernel(&R[MG_R_FLOOR_SWAPS], cfg, a, b, MG_K_FLOOR_SWAPS, "timekeeping_mg_floor_swaps");

	if (cfg->tp_off & 1u << MG_TP_CTIME_NS_XCHG)	/* not attached: the kernel counts it */
		from_kernel(&R[MG_R_CTIME_SWAPS], cfg, a, b, MG_K_CTIME_SWAPS, "mg_ctime_swaps");
	rows_from_tps(R, cfg, n, a, b, cfg->tp_off & 1u << MG_TP_CTIME_NS_XCHG);

	test_skew(R, cfg);
	compare(&R[MG_R_CTIME_UPDATES], a, b, MG_K_CTIME_UPDATES);
	compare(&R[MG_R_FINE_STAMPS], a, b, MG_K_FINE_STAMPS);
	compare(&R[MG_R_FLOOR_SWAPS], a, b, MG_K_FLOOR_SWAPS);
	compare(&R[MG_R_CTIME_SWAPS], a, b, MG_K_CTIME_SWAPS);
	/* the per-CPU reader's figures no debugfs bracket judged: say what judged them */
	for (i = 0; i < MG_R_NR; i++)
		if (R[i].from_kpc && !R[i].have_kernel)
			R[i].kcheck = cfg->kpc_check;

derived:
	mg_row_derive(&R[MG_R_FLOOR_CMPXCHG_FAILS], &R[MG_R_FINE_STAMPS], &R[MG_R_FLOOR_SWAPS],
		      NULL, n);
	mg_row_derive(&R[MG_R_CTIME_CMPXCHG_FAILS], &R[MG_R_CTIME_UPDATES], &R[MG_R_CTIME_SWAPS],
		      &R[MG_R_CTIME_SKIPS], n);
	if (cfg->nfsd)
		mg_rows_deleg_swaps(rep, R);

	if (cfg->func_backend && cfg->hot) {
		from_bpf(&R[MG_R_CURRENT_TIME], cfg, a, b, MG_BPF_CURRENT_TIME);
		snprintf(R[MG_R_CURRENT_TIME].detail, sizeof(R[0].detail), "%s current_time", cfg->func_probe[MG_FN_CURRENT_TIME]);
		from_bpf(&R[MG_R_COARSE_MG], cfg, a, b, MG_BPF_COARSE_MG);
		snprintf(R[MG_R_COARSE_MG].detail, sizeof(R[0].detail), "%s ktime_get_coarse_real_ts64_mg",
			 cfg->func_probe[MG_FN_COARSE_MG]);
	} else {
		const char *why = cfg->func_backend ? "hot-path probes need --hot"
						    : "needs a function-probe backend and --hot";

		set_off(&R[MG_R_CURRENT_TIME], why);
		set_off(&R[MG_R_COARSE_MG], why);
		R[MG_R_CURRENT_TIME].opt_in = R[MG_R_COARSE_MG].opt_in = cfg->func_backend != NULL;
	}

	for (i = 0; i < MG_R_NR; i++) {
		rep->mismatches += R[i].mismatch;
		rep->compared += R[i].have_kernel;
	}
	return 0;
}

void mg_report_free(struct mg_report *r)
{
	int i;

	for (i = 0; i < MG_R_NR; i++) {
		free(r->rows[i].percpu);
		r->rows[i].percpu = NULL;
	}
}
