// SPDX-License-Identifier: GPL-2.0
/* test_counters.c - tests of src/util/counters.c: deltas, sources, derived rows, brackets. */
#include <errno.h>
#include <string.h>
#include "unit.h"
#include "counters.h"
#include "counters_derived.h"

/* Two snapshots for 2 CPUs with known per-CPU values (test_report.c, test_prom.c: unit.h). */
void make_snaps(struct mg_snap *a, struct mg_snap *b, bool kpc)
{
	int cpu, c;

	mg_snap_alloc(a, 2, kpc);
	mg_snap_alloc(b, 2, kpc);
	a->t_ns = 1000000000ull;
	b->t_ns = 3500000000ull;
	for (cpu = 0; cpu < 2; cpu++) {
		for (c = 0; c < MG_BPF_NR_COUNTERS; c++) {
			a->bpf[cpu].v[c] = 1000 + c;
			/* delta = (c + 1) * 10 on CPU0, (c + 1) * 100 on CPU1 */
			b->bpf[cpu].v[c] = a->bpf[cpu].v[c] + (c + 1) * (cpu ? 100 : 10);
		}
		for (c = 0; kpc && c < MG_K_NR_COUNTERS; c++) {
			a->kpc[cpu * MG_K_NR_COUNTERS + c] = 5000;
			b->kpc[cpu * MG_K_NR_COUNTERS + c] = 5000 + (c + 1) * (cpu ? 7 : 3);
		}
	}
	/* debugfs deltas equal to the BPF totals where the two overlap */
	a->dbg_pre[MG_K_CTIME_UPDATES] = 100;
	b->dbg_pre[MG_K_CTIME_UPDATES] = 100 + 10 + 100;		/* bpf CTIME_UPDATES (c=0) */
	a->dbg_pre[MG_K_CTIME_SWAPS] = 200;
	b->dbg_pre[MG_K_CTIME_SWAPS] = 200 + 30 + 300;		/* bpf CTIME_SWAPS (c=2) */
	a->dbg_pre[MG_K_FINE_STAMPS] = 300;
	b->dbg_pre[MG_K_FINE_STAMPS] = 300 + 20 + 200;		/* bpf FINE_STAMPS (c=1) */
	a->dbg_pre[MG_K_FLOOR_SWAPS] = 400;
	b->dbg_pre[MG_K_FLOOR_SWAPS] = 400 + 15;
	/* a quiet machine: nothing counted while each end was read */
	memcpy(a->dbg_post, a->dbg_pre, sizeof(a->dbg_pre));
	memcpy(b->dbg_post, b->dbg_pre, sizeof(b->dbg_pre));
}

UNIT_TEST(report_funcs_kpc)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .func_backend = "fentry", .tp_flavour = "tp_btf",
				     .func_probe = { "kprobe", "fentry", "kprobe", "fentry" },
				     .hot = true, .kpc = true };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *R;

	make_snaps(&a, &b, true);
	ASSERT_OK(mg_report_build(&r, &cfg, &a, &b), "report builds (fentry, per-CPU ksyms)");
	R = r.rows;
	ASSERT_EQ(r.seconds, 2.5, "window is 2.5 s (got %g)", r.seconds);
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].src, MG_SRC_BPF, "ctime_updates from bpf: 10 + 100 = 110");
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].total, 110, "ctime_updates from bpf: 10 + 100 = 110");
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].percpu[0], 10, "ctime_updates from bpf: 10 + 100 = 110");
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].percpu[1], 100, "ctime_updates from bpf: 10 + 100 = 110");
	ASSERT_TRUE(R[MG_R_CTIME_UPDATES].have_kernel, "ctime_updates matches the debugfs delta");
	ASSERT_FALSE(R[MG_R_CTIME_UPDATES].mismatch, "ctime_updates matches the debugfs delta");
	/* floor swaps: kernel per-CPU, k=3: deltas 4*3=12 and 4*7=28 */
	ASSERT_EQ(R[MG_R_FLOOR_SWAPS].src, MG_SRC_KERNEL,
		  "floor_swaps from kernel per-CPU ksyms: 12 + 28");
	ASSERT_TRUE(R[MG_R_FLOOR_SWAPS].have_percpu,
		    "floor_swaps from kernel per-CPU ksyms: 12 + 28");
	ASSERT_EQ(R[MG_R_FLOOR_SWAPS].percpu[0], 12,
		  "floor_swaps from kernel per-CPU ksyms: 12 + 28");
	ASSERT_EQ(R[MG_R_FLOOR_SWAPS].percpu[1], 28,
		  "floor_swaps from kernel per-CPU ksyms: 12 + 28");
	ASSERT_EQ(R[MG_R_FLOOR_SWAPS].total, 40, "floor_swaps from kernel per-CPU ksyms: 12 + 28");
	ASSERT_TRUE(R[MG_R_FLOOR_SWAPS].mismatch,
		    "floor_swaps 40 vs debugfs 15 is flagged as a mismatch");
	ASSERT_EQ(R[MG_R_FLOOR_SWAPS].kernel, 15,
		  "floor_swaps 40 vs debugfs 15 is flagged as a mismatch");
	ASSERT_EQ(R[MG_R_FLOOR_SWAPS].match, MG_MATCH_OUTSIDE,
		  "floor_swaps 40 vs debugfs 15 is flagged as a mismatch");
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].match, MG_MATCH_EXACT,
		  "quiet machine: width-0 bracket, ctime_updates an exact match");
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].bracket.width, 0,
		  "quiet machine: width-0 bracket, ctime_updates an exact match");
	/* an operand off its kernel count makes the difference unavailable, with the reason */
	ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE,
		  "floor_cmpxchg_fails unavailable while floor_swaps differs from debugfs: %s",
		  R[MG_R_FLOOR_CMPXCHG_FAILS].why);
	ASSERT_FALSE(R[MG_R_FLOOR_CMPXCHG_FAILS].have_total,
		     "floor_cmpxchg_fails unavailable while floor_swaps differs from debugfs: %s",
		     R[MG_R_FLOOR_CMPXCHG_FAILS].why);
	ASSERT_HAS_SUBSTR(R[MG_R_FLOOR_CMPXCHG_FAILS].why, "floor_swaps 40 differs from the kernel's 15",
			  "floor_cmpxchg_fails unavailable while floor_swaps differs from debugfs: %s",
			  R[MG_R_FLOOR_CMPXCHG_FAILS].why);
	mg_report_free(&r);
	b.dbg_pre[MG_K_FLOOR_SWAPS] = a.dbg_post[MG_K_FLOOR_SWAPS] + 40;	/* consistent now */
	b.dbg_post[MG_K_FLOOR_SWAPS] = a.dbg_pre[MG_K_FLOOR_SWAPS] + 40;
	ASSERT_OK(mg_report_build(&r, &cfg, &a, &b), "report builds (floor_swaps consistent)");
	R = r.rows;
	ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_DERIVED,
		  "floor_cmpxchg_fails = fine_stamps - floor_swaps, per CPU");
	ASSERT_TRUE(R[MG_R_FLOOR_CMPXCHG_FAILS].have_percpu,
		    "floor_cmpxchg_fails = fine_stamps - floor_swaps, per CPU");
	ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].percpu[0], 20 - 12,
		  "floor_cmpxchg_fails = fine_stamps - floor_swaps, per CPU");
	ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].percpu[1], 200 - 28,
		  "floor_cmpxchg_fails = fine_stamps - floor_swaps, per CPU");
	ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].total, 220 - 40,
		  "floor_cmpxchg_fails = fine_stamps - floor_swaps, per CPU");
	ASSERT_FALSE(R[MG_R_FLOOR_CMPXCHG_FAILS].approx,
		     "floor_cmpxchg_fails exact: both operands still while read (%s)",
		     R[MG_R_FLOOR_CMPXCHG_FAILS].approx_why);
	ASSERT_FALSE(R[MG_R_FLOOR_CMPXCHG_FAILS].clamped,
		     "floor_cmpxchg_fails exact: both operands still while read (%s)",
		     R[MG_R_FLOOR_CMPXCHG_FAILS].approx_why);
	/* an impossible difference is never printed: 0, marked approximate, raw kept */
	ASSERT_EQ(R[MG_R_CTIME_CMPXCHG_FAILS].src, MG_SRC_DERIVED,
		  "ctime_cmpxchg_fails = updates - swaps - skips, below 0 -> 0 approximate, raw kept");
	ASSERT_EQ(R[MG_R_CTIME_CMPXCHG_FAILS].total, 0,
		  "ctime_cmpxchg_fails = updates - swaps - skips, below 0 -> 0 approximate, raw kept");
	ASSERT_TRUE(R[MG_R_CTIME_CMPXCHG_FAILS].clamped,
		    "ctime_cmpxchg_fails = updates - swaps - skips, below 0 -> 0 approximate, raw kept");
	ASSERT_TRUE(R[MG_R_CTIME_CMPXCHG_FAILS].approx,
		    "ctime_cmpxchg_fails = updates - swaps - skips, below 0 -> 0 approximate, raw kept");
	ASSERT_EQ(R[MG_R_CTIME_CMPXCHG_FAILS].raw, 110 - 330 - 440,
		  "ctime_cmpxchg_fails = updates - swaps - skips, below 0 -> 0 approximate, raw kept");
	ASSERT_FALSE(R[MG_R_CTIME_CMPXCHG_FAILS].have_percpu,
		     "ctime_cmpxchg_fails: no per-CPU split below 0, the reason instead");
	ASSERT_HAS_SUBSTR(R[MG_R_CTIME_CMPXCHG_FAILS].why, "below 0 on CPU0",
			  "ctime_cmpxchg_fails: no per-CPU split below 0, the reason instead");
	ASSERT_TRUE(R[MG_R_CTIME_SWAPS].have_kernel, "ctime_swaps 330 matches debugfs");
	ASSERT_FALSE(R[MG_R_CTIME_SWAPS].mismatch, "ctime_swaps 330 matches debugfs");
	ASSERT_EQ(R[MG_R_CTIME_SWAPS].total, 330, "ctime_swaps 330 matches debugfs");
	ASSERT_EQ(R[MG_R_CURRENT_TIME].src, MG_SRC_BPF, "current_time counted with --hot");
	ASSERT_EQ(R[MG_R_CURRENT_TIME].total, 770, "current_time counted with --hot");
	ASSERT_EQ(r.mismatches, 0, "no mismatch left (got %d)", r.mismatches);
	mg_report_free(&r);

	/* counters that moved while an end was read: the difference is approximate */
	b.dbg_post[MG_K_FINE_STAMPS] += 3;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_TRUE(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].approx,
		    "floor_cmpxchg_fails approximate when fine_stamps moved during a reading");
	ASSERT_HAS_SUBSTR(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].approx_why, "fine_stamps: 3 counted",
			  "floor_cmpxchg_fails approximate when fine_stamps moved during a reading");
	mg_report_free(&r);
	b.dbg_post[MG_K_FINE_STAMPS] -= 3;

	/* A BPF undercount (a lost event) must be flagged: the check can fail. */
	b.bpf[0].v[MG_BPF_CTIME_SWAPS]--;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_TRUE(r.rows[MG_R_CTIME_SWAPS].mismatch,
		    "ctime_swaps one short of debugfs is flagged");
	ASSERT_NO_SUBSTR(r.rows[MG_R_CTIME_SWAPS].why, "delegated",
			 "without nfsd no word of delegated "
			 "swaps: %s", r.rows[MG_R_CTIME_SWAPS].why);
	mg_report_free(&r);
	/* with nfsd loaded the same shortfall may be delegated-timestamp swaps (no tracepoint):
	 * still a mismatch, now with that reason; the difference it feeds says so too */
	cfg.nfsd = true;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_TRUE(r.rows[MG_R_CTIME_SWAPS].mismatch,
		    "nfsd loaded: ctime_swaps short of debugfs says why (%s)",
		    r.rows[MG_R_CTIME_SWAPS].why);
	ASSERT_HAS_SUBSTR(r.rows[MG_R_CTIME_SWAPS].why, "inode_set_ctime_deleg",
			  "nfsd loaded: ctime_swaps short of debugfs says why (%s)",
			  r.rows[MG_R_CTIME_SWAPS].why);
	ASSERT_HAS_SUBSTR(r.rows[MG_R_CTIME_CMPXCHG_FAILS].why, "inode_set_ctime_deleg",
			  "nfsd loaded: ctime_swaps short of debugfs says why (%s)",
			  r.rows[MG_R_CTIME_SWAPS].why);
	ASSERT_TRUE(r.deleg_possible, "nfsd loaded: ctime_swaps short of debugfs says why (%s)",
		    r.rows[MG_R_CTIME_SWAPS].why);
	mg_report_free(&r);
	b.bpf[0].v[MG_BPF_CTIME_SWAPS]++;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_FALSE(r.rows[MG_R_CTIME_SWAPS].mismatch,
		     "nfsd loaded: updates - swaps - skips is approximate (%s)",
		     r.rows[MG_R_CTIME_CMPXCHG_FAILS].approx_why);
	ASSERT_TRUE(r.rows[MG_R_CTIME_CMPXCHG_FAILS].approx,
		    "nfsd loaded: updates - swaps - skips is approximate (%s)",
		    r.rows[MG_R_CTIME_CMPXCHG_FAILS].approx_why);
	ASSERT_HAS_SUBSTR(r.rows[MG_R_CTIME_CMPXCHG_FAILS].approx_why, "delegated swaps",
			  "nfsd loaded: updates - swaps - skips is approximate (%s)",
			  r.rows[MG_R_CTIME_CMPXCHG_FAILS].approx_why);
	mg_report_free(&r);
	cfg.nfsd = false;
	mg_snap_free(&a);
	mg_snap_free(&b);
}

/*
 * The zero-cost default (backend kernel): the four kernel-counted rows from the kernel's
 * per-CPU counters even where function probes count them too; event rows not attached are
 * unavailable with the opt-in reason, never 0; the same rows come from BPF once attached.
 */
UNIT_TEST(report_zero_cost)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .func_backend = "fentry", .tp_flavour = "tp_btf",
				     .func_probe = { "kprobe", "fentry" }, .kpc = true,
				     .prefer_kpc = true, .tp_off = 0xf,
				     .tp_off_why = "not counted: opt in with -e %s (or -e all)" };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *R;

	make_snaps(&a, &b, true);
	ASSERT_OK(mg_report_build(&r, &cfg, &a, &b), "report builds (zero-cost)");
	R = r.rows;
	/* kernel per-CPU deltas: counter k is (k+1)*3 on CPU0, (k+1)*7 on CPU1 */
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].src, MG_SRC_KERNEL,
		  "zero-cost: ctime_updates from the kernel (3 + 7)");
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].total, 10,
		  "zero-cost: ctime_updates from the kernel (3 + 7)");
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].percpu[1], 7,
		  "zero-cost: ctime_updates from the kernel (3 + 7)");
	ASSERT_EQ(R[MG_R_CTIME_SWAPS].src, MG_SRC_KERNEL,
		  "zero-cost: ctime_swaps from the kernel (6 + 14), ctime_ns_xchg not attached");
	ASSERT_EQ(R[MG_R_CTIME_SWAPS].total, 20,
		  "zero-cost: ctime_swaps from the kernel (6 + 14), ctime_ns_xchg not attached");
	ASSERT_EQ(R[MG_R_FINE_STAMPS].src, MG_SRC_KERNEL,
		  "zero-cost: fine_stamps from the kernel (9 + 21)");
	ASSERT_EQ(R[MG_R_FINE_STAMPS].total, 30, "zero-cost: fine_stamps from the kernel (9 + 21)");
	/* the synthetic debugfs deltas differ from the per-CPU sums, so the operands mismatch:
	 * the derived row says so instead of printing an impossible difference (30 - 40) */
	if (R[MG_R_FLOOR_CMPXCHG_FAILS].src == MG_SRC_DERIVED) {
		ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].total, 30 - 40,
			  "zero-cost: floor_cmpxchg_fails = the kernel's fine_stamps - floor_swaps");
		ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].percpu[0], 9 - 12,
			  "zero-cost: floor_cmpxchg_fails = the kernel's fine_stamps - floor_swaps");
	} else {
		ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE,
			  "zero-cost: floor_cmpxchg_fails unavailable with the reason when an operand "
			  "disagrees with debugfs (%s)", R[MG_R_FLOOR_CMPXCHG_FAILS].why);
		ASSERT_HAS_SUBSTR(R[MG_R_FLOOR_CMPXCHG_FAILS].why, "differs from the kernel",
				  "zero-cost: floor_cmpxchg_fails unavailable with the reason when an operand "
				  "disagrees with debugfs (%s)", R[MG_R_FLOOR_CMPXCHG_FAILS].why);
	}
	ASSERT_EQ(R[MG_R_STAT_QUERIES].src, MG_SRC_UNAVAILABLE,
		  "zero-cost: stat_queries unavailable, says how to opt in (%s)", R[MG_R_STAT_QUERIES].why);
	ASSERT_FALSE(R[MG_R_STAT_QUERIES].have_total,
		     "zero-cost: stat_queries unavailable, says how to opt in (%s)", R[MG_R_STAT_QUERIES].why);
	ASSERT_HAS_SUBSTR(R[MG_R_STAT_QUERIES].why, "opt in with -e stat_queries",
			  "zero-cost: stat_queries unavailable, says how to opt in (%s)", R[MG_R_STAT_QUERIES].why);
	ASSERT_EQ(R[MG_R_CTIME_SKIPS].src, MG_SRC_UNAVAILABLE,
		  "zero-cost: ctime_skips and ctime_sets unavailable");
	ASSERT_EQ(R[MG_R_CTIME_SETS].src, MG_SRC_UNAVAILABLE,
		  "zero-cost: ctime_skips and ctime_sets unavailable");
	ASSERT_EQ(R[MG_R_CTIME_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE,
		  "zero-cost: ctime_cmpxchg_fails needs ctime_skips (%s)", R[MG_R_CTIME_CMPXCHG_FAILS].why);
	ASSERT_HAS_SUBSTR(R[MG_R_CTIME_CMPXCHG_FAILS].why, "ctime_skips: not counted",
			  "zero-cost: ctime_cmpxchg_fails needs ctime_skips (%s)", R[MG_R_CTIME_CMPXCHG_FAILS].why);
	mg_report_free(&r);
	/* the check can fail: opted in (tp_off 0x1: only ctime_ns_xchg off), the rows are BPF's */
	cfg.tp_off = 0x1;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_EQ(r.rows[MG_R_STAT_QUERIES].src, MG_SRC_BPF,
		  "opted in: stat_queries from BPF (50 + 500)");
	ASSERT_EQ(r.rows[MG_R_STAT_QUERIES].total, 550,
		  "opted in: stat_queries from BPF (50 + 500)");
	ASSERT_EQ(r.rows[MG_R_CTIME_SWAPS].src, MG_SRC_KERNEL,
		  "opted in: ctime_swaps still the kernel's");
	mg_report_free(&r);
	/* an explicit probe backend (prefer_kpc off, everything attached): the probes count */
	cfg.prefer_kpc = false;
	cfg.tp_off = 0;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_EQ(r.rows[MG_R_CTIME_UPDATES].src, MG_SRC_BPF,
		  "explicit probe backend: ctime_updates and ctime_swaps from BPF");
	ASSERT_EQ(r.rows[MG_R_CTIME_SWAPS].src, MG_SRC_BPF,
		  "explicit probe backend: ctime_updates and ctime_swaps from BPF");
	mg_report_free(&r);
	mg_snap_free(&a);
	mg_snap_free(&b);
}

/*
 * An operation whose increments fell on two CPUs (a task migrated between
 * inode_set_ctime_current()'s mg_ctime_updates and the skip's count, as arm64 6.18
 * showed: 0 updates and 2 skips on CPU1) leaves one CPU's difference below 0: the
 * per-CPU split is withheld with the reason, and the total of a still reading stays
 * exact, neither approximate nor without its reason.
 */
UNIT_TEST(derive_migrated)
{
	int64_t px[2] = { 2008, 0 }, py[2] = { 2006, 0 }, pz[2] = { 0, 2 }, pr[2] = { 7, 7 };
	struct mg_row x = { .name = "ctime_updates", .have_total = true, .total = 2008,
			    .have_percpu = true, .percpu = px, .have_bracket = true };
	struct mg_row y = { .name = "ctime_swaps", .have_total = true, .total = 2006,
			    .have_percpu = true, .percpu = py, .have_bracket = true };
	struct mg_row z = { .name = "ctime_skips", .have_total = true, .total = 2,
			    .have_percpu = true, .percpu = pz };
	struct mg_row r = { .name = "ctime_cmpxchg_fails", .percpu = pr };

	mg_row_derive(&r, &x, &y, &z, 2);
	ASSERT_EQ(r.src, MG_SRC_DERIVED, "migrated: derived");
	ASSERT_EQ(r.total, 0, "migrated: 2008 - 2006 - 2 = 0");
	ASSERT_FALSE(r.approx, "migrated: the total of a still reading is exact (%s)", r.approx_why);
	ASSERT_FALSE(r.have_percpu, "migrated: no per-CPU split below 0");
	ASSERT_HAS_SUBSTR(r.why, "below 0 on CPU1", "migrated: the per-CPU reason names CPU1");
	ASSERT_EQ(pr[0] | pr[1], 0, "migrated: no per-CPU value left behind");
	/* the same with a bracket that moved: approximate, and the reason says why */
	x.bracket.width = 3;
	mg_row_derive(&r, &x, &y, &z, 2);
	ASSERT_TRUE(r.approx && r.approx_why[0], "moved: approximate with its reason (%s)",
		    r.approx_why);
}

/* The bracket from four debugfs readings, and the judgement of a figure against it. */
UNIT_TEST(bracket)
{
	struct mg_bracket br;

	/* start read while 100 -> 105, end read while 300 -> 320: window count in [195, 220] */
	ASSERT_OK(mg_bracket_make(&br, 100, 105, 300, 320),
		  "bracket [195, 220], width 25 (got [%lld, %lld] %lld)",
		  (long long)br.low, (long long)br.high, (long long)br.width);
	ASSERT_EQ(br.low, 195, "bracket [195, 220], width 25 (got [%lld, %lld] %lld)",
		  (long long)br.low, (long long)br.high, (long long)br.width);
	ASSERT_EQ(br.high, 220, "bracket [195, 220], width 25 (got [%lld, %lld] %lld)",
		  (long long)br.low, (long long)br.high, (long long)br.width);
	ASSERT_EQ(br.width, 25, "bracket [195, 220], width 25 (got [%lld, %lld] %lld)",
		  (long long)br.low, (long long)br.high, (long long)br.width);
	ASSERT_EQ(mg_bracket_judge(&br, 195), MG_MATCH_WITHIN, "195, 207 and 220 lie within");
	ASSERT_EQ(mg_bracket_judge(&br, 220), MG_MATCH_WITHIN, "195, 207 and 220 lie within");
	ASSERT_EQ(mg_bracket_judge(&br, 207), MG_MATCH_WITHIN, "195, 207 and 220 lie within");
	ASSERT_EQ(mg_bracket_judge(&br, 194), MG_MATCH_OUTSIDE,
		  "194 and 221 lie outside: a bracket can fail");
	ASSERT_EQ(mg_bracket_judge(&br, 221), MG_MATCH_OUTSIDE,
		  "194 and 221 lie outside: a bracket can fail");
	ASSERT_OK(mg_bracket_make(&br, 100, 100, 300, 300),
		  "quiet: width 0, only 200 matches (exact)");
	ASSERT_EQ(br.width, 0, "quiet: width 0, only 200 matches (exact)");
	ASSERT_EQ(mg_bracket_judge(&br, 200), MG_MATCH_EXACT,
		  "quiet: width 0, only 200 matches (exact)");
	ASSERT_EQ(mg_bracket_judge(&br, 199), MG_MATCH_OUTSIDE,
		  "quiet: width 0, only 200 matches (exact)");
	ASSERT_EQ(mg_bracket_judge(&br, 201), MG_MATCH_OUTSIDE,
		  "quiet: width 0, only 200 matches (exact)");
	ASSERT_EQ(mg_bracket_make(&br, 105, 100, 300, 320), -ERANGE,
		  "readings out of order are refused (-ERANGE)");
	ASSERT_EQ(mg_bracket_make(&br, 100, 310, 300, 320), -ERANGE,
		  "readings out of order are refused (-ERANGE)");
	ASSERT_EQ(mg_bracket_make(&br, 100, 105, 320, 300), -ERANGE,
		  "readings out of order are refused (-ERANGE)");
	br = (struct mg_bracket){ .low = 10, .high = 9, .width = -1 };
	ASSERT_EQ(mg_bracket_judge(&br, 9), MG_MATCH_OUTSIDE,
		  "an inverted bracket matches nothing");
	ASSERT_EQ(mg_bracket_judge(&br, 10), MG_MATCH_OUTSIDE,
		  "an inverted bracket matches nothing");
	ASSERT_STREQ(mg_match_name(MG_MATCH_EXACT), "yes", "match names yes, within, NO");
	ASSERT_STREQ(mg_match_name(MG_MATCH_WITHIN), "within", "match names yes, within, NO");
	ASSERT_STREQ(mg_match_name(MG_MATCH_OUTSIDE), "NO", "match names yes, within, NO");
}

/* A BTF-offset per-CPU reading checked against the debugfs readings around it. */
UNIT_TEST(kpc_check)
{
	uint64_t kpc[2 * MG_K_NR_COUNTERS], pre[MG_K_NR_COUNTERS], post[MG_K_NR_COUNTERS];
	char why[192] = "";
	int k;

	for (k = 0; k < MG_K_NR_COUNTERS; k++) {
		kpc[k] = 1000 * (k + 1);
		kpc[MG_K_NR_COUNTERS + k] = 500 * (k + 1);
		pre[k] = 1500 * (k + 1) - 7;	/* busy: the sums were read mid-way */
		post[k] = 1500 * (k + 1) + 9;
	}
	ASSERT_OK(mg_kpc_check(kpc, 2, pre, post, why, sizeof(why)),
		  "per-CPU sums inside their debugfs readings are accepted under load");
	pre[MG_K_FINE_STAMPS] = post[MG_K_FINE_STAMPS] = 4500;
	ASSERT_OK(mg_kpc_check(kpc, 2, pre, post, why, sizeof(why)),
		  "a width-0 bracket accepts its sum");
	/* a wrong offset: fine_stamps read at ctime_swaps' offset on CPU 1 */
	kpc[MG_K_NR_COUNTERS + MG_K_FINE_STAMPS] = kpc[MG_K_NR_COUNTERS + MG_K_CTIME_SWAPS];
	ASSERT_EQ(mg_kpc_check(kpc, 2, pre, post, why, sizeof(why)), -EPROTO,
		  "a wrong reading is rejected, saying why: %s", why);
	ASSERT_HAS_SUBSTR(why, "mg_fine_stamps",
			  "a wrong reading is rejected, saying why: %s", why);
	ASSERT_HAS_SUBSTR(why, "below", "a wrong reading is rejected, saying why: %s", why);
	ASSERT_HAS_SUBSTR(why, "[4500, 4500]", "a wrong reading is rejected, saying why: %s", why);
	kpc[MG_K_NR_COUNTERS + MG_K_FINE_STAMPS] = 1500 + 1;
	ASSERT_EQ(mg_kpc_check(kpc, 2, pre, post, why, sizeof(why)), -EPROTO,
		  "one count above the later debugfs reading is rejected: %s", why);
	ASSERT_HAS_SUBSTR(why, "above",
			  "one count above the later debugfs reading is rejected: %s", why);
}

/*
 * -C (cfg.cpus): totals sum the selected CPUs' values only, all_cpus_total every CPU's,
 * and debugfs judges that sum; without a per-CPU reader a debugfs-only row is unavailable.
 */
UNIT_TEST(report_cpu_subset)
{
	uint64_t cpu1[MG_MAX_CPUS / 64] = { 1u << 1 };
	struct mg_report_cfg cfg = { .nr_cpus = 2, .tp_flavour = "tp_btf", .kpc = true,
				     .prefer_kpc = true, .tp_off = 0x1, .cpus = cpu1 };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *u, *q;

	make_snaps(&a, &b, true);
	/* the kernel's ctime_updates: 3 on CPU0, 7 on CPU1; debugfs: the sum, 10 */
	b.dbg_pre[MG_K_CTIME_UPDATES] = b.dbg_post[MG_K_CTIME_UPDATES] = 100 + 10;
	mg_report_build(&r, &cfg, &a, &b);
	u = &r.rows[MG_R_CTIME_UPDATES];
	q = &r.rows[MG_R_STAT_QUERIES];
	ASSERT_EQ(u->total, 7, "-C 1: ctime_updates 7 (CPU1), every CPU's 10 (got %lld, %lld)",
		  (long long)u->total, (long long)u->all_cpus_total);
	ASSERT_EQ(u->all_cpus_total, 10,
		  "-C 1: ctime_updates 7 (CPU1), every CPU's 10 (got %lld, %lld)",
		  (long long)u->total, (long long)u->all_cpus_total);
	ASSERT_TRUE(u->cpu_subset, "-C 1: ctime_updates 7 (CPU1), every CPU's 10 (got %lld, %lld)",
		    (long long)u->total, (long long)u->all_cpus_total);
	ASSERT_TRUE(u->have_kernel,
		    "-C 1: debugfs judges every CPU's sum (10 = 10), not the subset");
	ASSERT_EQ(u->match, MG_MATCH_EXACT,
		  "-C 1: debugfs judges every CPU's sum (10 = 10), not the subset");
	ASSERT_FALSE(u->mismatch, "-C 1: debugfs judges every CPU's sum (10 = 10), not the subset");
	ASSERT_EQ(q->total, 500, "-C 1: a BPF row, stat_queries, sums CPU1 only (500 of 550)");
	mg_report_free(&r);
	/* the same with CPU1's counter one higher: every CPU's sum 11 is outside debugfs's 10 */
	b.kpc[1 * MG_K_NR_COUNTERS + MG_K_CTIME_UPDATES]++;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_TRUE(r.rows[MG_R_CTIME_UPDATES].mismatch,
		    "-C 1: a per-CPU reading off by one is NO, though the subset looks plausible");
	ASSERT_EQ(r.rows[MG_R_CTIME_UPDATES].total, 8,
		  "-C 1: a per-CPU reading off by one is NO, though the subset looks plausible");
	mg_report_free(&r);
	/* no per-CPU reader: debugfs's all-CPU total cannot be split */
	cfg.kpc = false;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_EQ(r.rows[MG_R_FLOOR_SWAPS].src, MG_SRC_UNAVAILABLE,
		  "-C without the per-CPU reader: floor_swaps unavailable (%s)", r.rows[MG_R_FLOOR_SWAPS].why);
	ASSERT_HAS_SUBSTR(r.rows[MG_R_FLOOR_SWAPS].why, "cannot be split by CPU",
			  "-C without the per-CPU reader: floor_swaps unavailable (%s)", r.rows[MG_R_FLOOR_SWAPS].why);
	mg_report_free(&r);
	mg_snap_free(&a);
	mg_snap_free(&b);
}

/*
 * The start snapshot beside itself (stat --prometheus's first file, issue 43): taken while a
 * fine stamp was in flight (debugfs 300 before the per-CPU read, 301 after), the window of no
 * time counted 0, exactly, and nothing disagrees with debugfs; the end of a run whose reading
 * does disagree still says so.
 */
UNIT_TEST(report_start_snapshot)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .tp_flavour = "tp_btf", .kpc = true,
				     .prefer_kpc = true, .tp_off = 0x1 };
	struct mg_snap a, b, same;
	struct mg_report r;
	const struct mg_row *f, *d;

	make_snaps(&a, &b, true);
	a.dbg_post[MG_K_FINE_STAMPS]++;
	a.dbg_post[MG_K_FLOOR_SWAPS]++;
	mg_snap_alloc(&same, 2, true);	/* as mg_run_copy_snap() copies it */
	memcpy(same.bpf, a.bpf, sizeof(*a.bpf) * 2);
	memcpy(same.kpc, a.kpc, sizeof(*a.kpc) * 2 * MG_K_NR_COUNTERS);
	memcpy(same.dbg_pre, a.dbg_pre, sizeof(a.dbg_pre));
	memcpy(same.dbg_post, a.dbg_post, sizeof(a.dbg_post));
	same.t_ns = a.t_ns;
	ASSERT_OK(mg_report_build(&r, &cfg, &a, &same), "the start snapshot beside itself builds");
	f = &r.rows[MG_R_FINE_STAMPS];
	d = &r.rows[MG_R_FLOOR_CMPXCHG_FAILS];
	ASSERT_EQ(f->total, 0, "start: fine_stamps 0 (kernel per-CPU)");
	ASSERT_FALSE(f->mismatch, "start: fine_stamps 0 agrees with debugfs (kernel %lld, "
		     "bracket [%lld, %lld])", (long long)f->kernel, (long long)f->bracket.low,
		     (long long)f->bracket.high);
	ASSERT_EQ(f->match, MG_MATCH_EXACT, "start: an exact match, 0 in [0, 0]");
	ASSERT_EQ(f->kernel, 0, "start: the kernel's count of the window is 0");
	ASSERT_EQ(d->src, MG_SRC_DERIVED, "start: floor_cmpxchg_fails derived, not refused (%s)",
		  d->why);
	ASSERT_EQ(d->total, 0, "start: floor_cmpxchg_fails 0");
	ASSERT_FALSE(strstr(d->why, "disagrees"), "start: no disagreement (%s)", d->why);
	mg_report_free(&r);
	/* without the per-CPU reader: floor_swaps is debugfs's own count, 0 over no time */
	cfg.kpc = cfg.prefer_kpc = false;
	mg_report_build(&r, &cfg, &a, &same);
	ASSERT_EQ(r.rows[MG_R_FLOOR_SWAPS].total, 0, "start: debugfs's floor_swaps 0, not 1");
	mg_report_free(&r);
	/* the end of the run, whose per-CPU deltas (30, 40) debugfs does not confirm: reported */
	cfg.kpc = cfg.prefer_kpc = true;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_TRUE(r.rows[MG_R_FINE_STAMPS].mismatch, "end: a true disagreement is still NO");
	ASSERT_HAS_SUBSTR(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why, "disagrees with debugfs",
			  "end: the derived row still says why (%s)", r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why);
	mg_report_free(&r);
	mg_snap_free(&a);
	mg_snap_free(&b);
	mg_snap_free(&same);
}
