// SPDX-License-Identifier: GPL-2.0
/*
 * unit_tests.c - tests of mgtrace's user-space logic that need no kernel:
 * argument parsing, counter deltas, derived counters, sources, mismatch
 * flags and the JSON rendering (re-parsed with jansson's parser; the host
 * test script also validates live JSON with Python's json module).
 *
 * Prints one line per check and ends with "N passed, M failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <jansson.h>
#include <bpf/btf.h>
#include "vocab.h"
#include "backend.h"
#include "mgtrace.skel.h"
#include "checker.h"
#include "counters.h"
#include "escape.h"
#include "ident.h"
#include "kenv.h"
#include "opts.h"
#include "prom.h"
#include "report.h"
#include "run.h"
#include "util.h"
#include "verdict.h"
#include "baseline.h"
#include "top_int.h"

static int passed, failed;

/*
 * CHECK(cond, fmt, ...): one check, one line "ok   msg" or "FAIL msg". cond is built from
 * the comparisons below (EQ, STREQ, ...), joined with && as the kernel's selftests chain
 * ASSERT_*: the first that fails records the expression with its actual and expected
 * value, which the FAIL line prints after the message. A failed cond that recorded
 * nothing is reported as such, with the condition's text.
 */
static char why_[768];

#define CHECK(cond, ...) do {						\
	bool ok_;							\
	why_[0] = 0;							\
	ok_ = (cond);							\
	if (ok_) { passed++; printf("ok   "); }				\
	else { failed++; printf("FAIL "); }				\
	printf(__VA_ARGS__);						\
	if (!ok_)							\
		printf(" [%s]", why_[0] ? why_ : "no comparison recorded: " #cond); \
	putchar('\n');							\
} while (0)

/* Record the first failed comparison of a CHECK: false, for chaining with &&. */
static bool note_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool note_(const char *fmt, ...)
{
	va_list ap;

	if (why_[0])
		return false;
	va_start(ap, fmt);
	vsnprintf(why_, sizeof(why_), fmt, ap);
	va_end(ap);
	return false;
}

static bool note_int_(const char *expr, const char *op, bool sgn, unsigned long long a,
		      unsigned long long e)
{
	return sgn ? note_("%s: actual %lld, expected %s %lld", expr, (long long)a, op, (long long)e)
		   : note_("%s: actual %llu, expected %s %llu", expr, a, op, e);
}

static bool note_dbl_(const char *expr, const char *op, bool sgn, double a, double e)
{
	return note_("%s: actual %.15g, expected %s %.15g", expr, a, op, e);
}

/* Compare actual a with expected e by op (integers or doubles), in their common type. */
#define CMP_(a, op, e) ({						\
	typedef __typeof__((a) + (e)) t_;	/* as op converts them */	\
	t_ a_ = (a), e_ = (e);						\
	(a_ op e_) ? true : _Generic(a_, double: note_dbl_, float: note_dbl_,	\
				     default: note_int_)(#a, #op, !((t_)-1 > (t_)0), a_, e_); \
})
#define EQ(a, e) CMP_(a, ==, e)
#define NE(a, e) CMP_(a, !=, e)
#define GE(a, e) CMP_(a, >=, e)
#define GT(a, e) CMP_(a, >, e)
#define LE(a, e) CMP_(a, <=, e)
#define LT(a, e) CMP_(a, <, e)
/* A truth value (pointer or integer): actual "false" when it fails. */
#define IS_TRUE(a) ((a) ? true : note_("%s: actual false (0/NULL), expected true", #a))
/* An integer or pointer expected 0 (an error code: 0 is success). */
#define IS_FALSE(a) ({ long long v_ = (long long)(a);			\
	!v_ ? true : note_("%s: actual %lld, expected 0", #a, v_); })
/* Strings (NULL fails, never crashes). */
#define STREQ(a, e) ({ const char *sa_ = (a), *se_ = (e);		\
	sa_ && se_ && !strcmp(sa_, se_) ? true :			\
	note_("%s: actual \"%.300s\", expected \"%.300s\"", #a, sa_ ? sa_ : "(null)",	\
	      se_ ? se_ : "(null)"); })
#define STRSTR(h, n) ({ const char *sh_ = (h), *sn_ = (n);		\
	sh_ && sn_ && strstr(sh_, sn_) ? true :			\
	note_("%s: actual \"%.400s\", expected to contain \"%.200s\"", #h, sh_ ? sh_ : "(null)", sn_); })
#define NO_STRSTR(h, n) ({ const char *sh_ = (h), *sn_ = (n);		\
	sh_ && sn_ && !strstr(sh_, sn_) ? true :			\
	note_("%s: actual \"%.400s\", expected not to contain \"%.200s\"", #h,	\
	      sh_ ? sh_ : "(null)", sn_); })

/* A double within 1e-9 of b. */
#define NEAR(a, b) ({ double na_ = (a), nb_ = (b);				\
	fabs(na_ - nb_) < 1e-9 ? true :					\
	note_("%s: actual %.17g, expected %.17g (within 1e-9)", #a, na_, nb_); })

/* As the kernel's selftests' ASSERT_EQ: print the actual and the expected value. */
#define ASSERT_EQ(actual, expected, ...) do {				\
	unsigned long long a_ = (unsigned long long)(actual);		\
	unsigned long long e_ = (unsigned long long)(expected);		\
	if (a_ == e_) { passed++; printf("ok   "); }			\
	else { failed++; printf("FAIL "); }				\
	printf(__VA_ARGS__);						\
	printf(" (%s: actual %llu, expected %llu)\n", #actual, a_, e_);	\
} while (0)

static void test_parse_u64(void)
{
	static const struct { const char *s; uint64_t min, max; int err; uint64_t v; } cases[] = {
		{ "5", 1, 10, 0, 5 },
		{ "0", 1, 10, -ERANGE, 0 },
		{ "11", 1, 10, -ERANGE, 0 },
		{ "-1", 0, 10, -EINVAL, 0 },
		{ "+1", 0, 10, -EINVAL, 0 },
		{ "", 0, 10, -EINVAL, 0 },
		{ " 1", 0, 10, -EINVAL, 0 },
		{ "1x", 0, 10, -EINVAL, 0 },
		{ "0x10", 0, 100, -EINVAL, 0 },
		{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", 0, UINT64_MAX, -ERANGE, 0 },
		{ "99999999999999999999999", 0, UINT64_MAX, -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int err = mg_parse_u64(cases[i].s, cases[i].min, cases[i].max, &v);

		CHECK(EQ(err, cases[i].err) && (err || EQ(v, cases[i].v)),
		      "parse_u64(\"%s\") -> %d (want %d)", cases[i].s, err, cases[i].err);
	}
	CHECK(EQ(mg_parse_u64(NULL, 0, 1, &(uint64_t){0}), -EINVAL), "parse_u64(NULL) is -EINVAL");
}

static void test_parse_seconds(void)
{
	static const struct { const char *s; int err; double v; } cases[] = {
		{ "1", 0, 1 }, { "0.5", 0, 0.5 }, { ".25", 0, 0.25 }, { "86400", 0, 86400 },
		{ "0", -ERANGE, 0 }, { "-1", -EINVAL, 0 }, { "86401", -ERANGE, 0 },
		{ "1e999", -EINVAL, 0 }, { "0x10", -EINVAL, 0 }, { "1.5.2", -EINVAL, 0 }, { "nan", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
		{ "1s", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "abc", -EINVAL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = 0;
		int err = mg_parse_seconds(cases[i].s, 86400, &v);

		CHECK(EQ(err, cases[i].err) && (err || EQ(v, cases[i].v)),
		      "parse_seconds(\"%s\") -> %d (want %d)", cases[i].s, err, cases[i].err);
	}
}

/* Two snapshots for 2 CPUs with known per-CPU values. */
static void make_snaps(struct mg_snap *a, struct mg_snap *b, bool kpc)
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

static void test_report_funcs_kpc(void)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .func_backend = "fentry", .tp_flavour = "tp_btf",
				     .func_probe = { "kprobe", "fentry", "kprobe", "fentry" },
				     .hot = true, .kpc = true };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *R;

	make_snaps(&a, &b, true);
	CHECK(IS_FALSE(mg_report_build(&r, &cfg, &a, &b)), "report builds (fentry, per-CPU ksyms)");
	R = r.rows;
	CHECK(EQ(r.seconds, 2.5), "window is 2.5 s (got %g)", r.seconds);
	CHECK(EQ(R[MG_R_CTIME_UPDATES].src, MG_SRC_BPF) && EQ(R[MG_R_CTIME_UPDATES].total, 110) &&
	      EQ(R[MG_R_CTIME_UPDATES].percpu[0], 10) && EQ(R[MG_R_CTIME_UPDATES].percpu[1], 100),
	      "ctime_updates from bpf: 10 + 100 = 110");
	CHECK(IS_TRUE(R[MG_R_CTIME_UPDATES].have_kernel) && IS_FALSE(R[MG_R_CTIME_UPDATES].mismatch),
	      "ctime_updates matches the debugfs delta");
	/* floor swaps: kernel per-CPU, k=3: deltas 4*3=12 and 4*7=28 */
	CHECK(EQ(R[MG_R_FLOOR_SWAPS].src, MG_SRC_KERNEL) &&
	      IS_TRUE(R[MG_R_FLOOR_SWAPS].have_percpu) && EQ(R[MG_R_FLOOR_SWAPS].percpu[0], 12) &&
	      EQ(R[MG_R_FLOOR_SWAPS].percpu[1], 28) && EQ(R[MG_R_FLOOR_SWAPS].total, 40), "floor_swaps from kernel per-CPU ksyms: 12 + 28");
	CHECK(IS_TRUE(R[MG_R_FLOOR_SWAPS].mismatch) && EQ(R[MG_R_FLOOR_SWAPS].kernel, 15) &&
	      EQ(R[MG_R_FLOOR_SWAPS].match, MG_MATCH_OUTSIDE),
	      "floor_swaps 40 vs debugfs 15 is flagged as a mismatch");
	CHECK(EQ(R[MG_R_CTIME_UPDATES].match, MG_MATCH_EXACT) &&
	      EQ(R[MG_R_CTIME_UPDATES].bracket.width, 0),
	      "quiet machine: width-0 bracket, ctime_updates an exact match");
	/* an operand off its kernel count makes the difference unavailable, with the reason */
	CHECK(EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE) &&
	      IS_FALSE(R[MG_R_FLOOR_CMPXCHG_FAILS].have_total) &&
	      STRSTR(R[MG_R_FLOOR_CMPXCHG_FAILS].why, "floor_swaps 40 differs from the kernel's 15"),
	      "floor_cmpxchg_fails unavailable while floor_swaps differs from debugfs: %s",
	      R[MG_R_FLOOR_CMPXCHG_FAILS].why);
	mg_report_free(&r);
	b.dbg_pre[MG_K_FLOOR_SWAPS] = a.dbg_post[MG_K_FLOOR_SWAPS] + 40;	/* consistent now */
	b.dbg_post[MG_K_FLOOR_SWAPS] = a.dbg_pre[MG_K_FLOOR_SWAPS] + 40;
	CHECK(IS_FALSE(mg_report_build(&r, &cfg, &a, &b)), "report builds (floor_swaps consistent)");
	R = r.rows;
	CHECK(EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_DERIVED) &&
	      IS_TRUE(R[MG_R_FLOOR_CMPXCHG_FAILS].have_percpu) &&
	      EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].percpu[0], 20 - 12) &&
	      EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].percpu[1], 200 - 28) &&
	      EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].total, 220 - 40),
	      "floor_cmpxchg_fails = fine_stamps - floor_swaps, per CPU");
	CHECK(IS_FALSE(R[MG_R_FLOOR_CMPXCHG_FAILS].approx) &&
	      IS_FALSE(R[MG_R_FLOOR_CMPXCHG_FAILS].clamped),
	      "floor_cmpxchg_fails exact: both operands still while read (%s)",
	      R[MG_R_FLOOR_CMPXCHG_FAILS].approx_why);
	/* an impossible difference is never printed: 0, marked approximate, raw kept */
	CHECK(EQ(R[MG_R_CTIME_CMPXCHG_FAILS].src, MG_SRC_DERIVED) &&
	      EQ(R[MG_R_CTIME_CMPXCHG_FAILS].total, 0) &&
	      IS_TRUE(R[MG_R_CTIME_CMPXCHG_FAILS].clamped) &&
	      IS_TRUE(R[MG_R_CTIME_CMPXCHG_FAILS].approx) &&
	      EQ(R[MG_R_CTIME_CMPXCHG_FAILS].raw, 110 - 330 - 440),
	      "ctime_cmpxchg_fails = updates - swaps - skips, below 0 -> 0 approximate, raw kept");
	CHECK(IS_FALSE(R[MG_R_CTIME_CMPXCHG_FAILS].have_percpu) &&
	      STRSTR(R[MG_R_CTIME_CMPXCHG_FAILS].why, "below 0 on CPU0"),
	      "ctime_cmpxchg_fails: no per-CPU split below 0, the reason instead");
	CHECK(IS_TRUE(R[MG_R_CTIME_SWAPS].have_kernel) && IS_FALSE(R[MG_R_CTIME_SWAPS].mismatch) &&
	      EQ(R[MG_R_CTIME_SWAPS].total, 330), "ctime_swaps 330 matches debugfs");
	CHECK(EQ(R[MG_R_CURRENT_TIME].src, MG_SRC_BPF) && EQ(R[MG_R_CURRENT_TIME].total, 770),
	      "current_time counted with --hot");
	ASSERT_EQ(r.mismatches, 0, "no mismatch left (got %d)", r.mismatches);
	mg_report_free(&r);

	/* counters that moved while an end was read: the difference is approximate */
	b.dbg_post[MG_K_FINE_STAMPS] += 3;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(IS_TRUE(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].approx) &&
	      STRSTR(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].approx_why, "fine_stamps: 3 counted"),
	      "floor_cmpxchg_fails approximate when fine_stamps moved during a reading");
	mg_report_free(&r);
	b.dbg_post[MG_K_FINE_STAMPS] -= 3;

	/* A BPF undercount (a lost event) must be flagged: the check can fail. */
	b.bpf[0].v[MG_BPF_CTIME_SWAPS]--;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(IS_TRUE(r.rows[MG_R_CTIME_SWAPS].mismatch), "ctime_swaps one short of debugfs is flagged");
	CHECK(!STRSTR(r.rows[MG_R_CTIME_SWAPS].why, "delegated"), "without nfsd no word of delegated "
	      "swaps: %s", r.rows[MG_R_CTIME_SWAPS].why);
	mg_report_free(&r);
	/* with nfsd loaded the same shortfall may be delegated-timestamp swaps (no tracepoint):
	 * still a mismatch, now with that reason; the difference it feeds says so too */
	cfg.nfsd = true;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(IS_TRUE(r.rows[MG_R_CTIME_SWAPS].mismatch) &&
	      STRSTR(r.rows[MG_R_CTIME_SWAPS].why, "inode_set_ctime_deleg") &&
	      STRSTR(r.rows[MG_R_CTIME_CMPXCHG_FAILS].why, "inode_set_ctime_deleg") &&
	      IS_TRUE(r.deleg_possible), "nfsd loaded: ctime_swaps short of debugfs says why (%s)",
	      r.rows[MG_R_CTIME_SWAPS].why);
	mg_report_free(&r);
	b.bpf[0].v[MG_BPF_CTIME_SWAPS]++;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(IS_FALSE(r.rows[MG_R_CTIME_SWAPS].mismatch) &&
	      IS_TRUE(r.rows[MG_R_CTIME_CMPXCHG_FAILS].approx) &&
	      STRSTR(r.rows[MG_R_CTIME_CMPXCHG_FAILS].approx_why, "delegated swaps"),
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
static void test_report_zero_cost(void)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .func_backend = "fentry", .tp_flavour = "tp_btf",
				     .func_probe = { "kprobe", "fentry" }, .kpc = true,
				     .prefer_kpc = true, .tp_off = 0xf,
				     .tp_off_why = "not counted: opt in with -e %s (or -e all)" };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *R;

	make_snaps(&a, &b, true);
	CHECK(IS_FALSE(mg_report_build(&r, &cfg, &a, &b)), "report builds (zero-cost)");
	R = r.rows;
	/* kernel per-CPU deltas: counter k is (k+1)*3 on CPU0, (k+1)*7 on CPU1 */
	CHECK(EQ(R[MG_R_CTIME_UPDATES].src, MG_SRC_KERNEL) && EQ(R[MG_R_CTIME_UPDATES].total, 10) &&
	      EQ(R[MG_R_CTIME_UPDATES].percpu[1], 7), "zero-cost: ctime_updates from the kernel (3 + 7)");
	CHECK(EQ(R[MG_R_CTIME_SWAPS].src, MG_SRC_KERNEL) && EQ(R[MG_R_CTIME_SWAPS].total, 20),
	      "zero-cost: ctime_swaps from the kernel (6 + 14), ctime_ns_xchg not attached");
	CHECK(EQ(R[MG_R_FINE_STAMPS].src, MG_SRC_KERNEL) && EQ(R[MG_R_FINE_STAMPS].total, 30),
	      "zero-cost: fine_stamps from the kernel (9 + 21)");
	/* the synthetic debugfs deltas differ from the per-CPU sums, so the operands mismatch:
	 * the derived row says so instead of printing an impossible difference (30 - 40) */
	CHECK(R[MG_R_FLOOR_CMPXCHG_FAILS].src == MG_SRC_DERIVED ?
	      EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].total, 30 - 40) &&
	      EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].percpu[0], 9 - 12) :
	      EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE) &&
	      STRSTR(R[MG_R_FLOOR_CMPXCHG_FAILS].why, "differs from the kernel"),
	      "zero-cost: floor_cmpxchg_fails = the kernel's fine_stamps - floor_swaps, or "
	      "unavailable with the reason when an operand disagrees with debugfs (%s)",
	      R[MG_R_FLOOR_CMPXCHG_FAILS].why);
	CHECK(EQ(R[MG_R_STAT_QUERIES].src, MG_SRC_UNAVAILABLE) &&
	      IS_FALSE(R[MG_R_STAT_QUERIES].have_total) &&
	      STRSTR(R[MG_R_STAT_QUERIES].why, "opt in with -e stat_queries"),
	      "zero-cost: stat_queries unavailable, says how to opt in (%s)", R[MG_R_STAT_QUERIES].why);
	CHECK(EQ(R[MG_R_CTIME_SKIPS].src, MG_SRC_UNAVAILABLE) &&
	      EQ(R[MG_R_CTIME_SETS].src, MG_SRC_UNAVAILABLE),
	      "zero-cost: ctime_skips and ctime_sets unavailable");
	CHECK(EQ(R[MG_R_CTIME_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE) &&
	      STRSTR(R[MG_R_CTIME_CMPXCHG_FAILS].why, "ctime_skips: not counted"),
	      "zero-cost: ctime_cmpxchg_fails needs ctime_skips (%s)", R[MG_R_CTIME_CMPXCHG_FAILS].why);
	mg_report_free(&r);
	/* the check can fail: opted in (tp_off 0x1: only ctime_ns_xchg off), the rows are BPF's */
	cfg.tp_off = 0x1;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(EQ(r.rows[MG_R_STAT_QUERIES].src, MG_SRC_BPF) &&
	      EQ(r.rows[MG_R_STAT_QUERIES].total, 550),
	      "opted in: stat_queries from BPF (50 + 500)");
	CHECK(EQ(r.rows[MG_R_CTIME_SWAPS].src, MG_SRC_KERNEL), "opted in: ctime_swaps still the kernel's");
	mg_report_free(&r);
	/* an explicit probe backend (prefer_kpc off, everything attached): the probes count */
	cfg.prefer_kpc = false;
	cfg.tp_off = 0;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(EQ(r.rows[MG_R_CTIME_UPDATES].src, MG_SRC_BPF) &&
	      EQ(r.rows[MG_R_CTIME_SWAPS].src, MG_SRC_BPF),
	      "explicit probe backend: ctime_updates and ctime_swaps from BPF");
	mg_report_free(&r);
	mg_snap_free(&a);
	mg_snap_free(&b);
}

/*
 * stat --prometheus: counters with a cpu label and cumulative values; an unavailable row is
 * absent with its reason in mgtrace_source_info, a derived row absent; label values escaped
 * (a release with a quote, a backslash and a newline); the atomic write leaves one file,
 * mode 0644, and a write into a missing directory fails with nothing left.
 */
static void test_prom(void)
{
	struct mg_run r = { 0 };
	char *buf = NULL, dir[] = "/tmp/mgtrace-unit.XXXXXX", path[64];
	size_t len = 0;
	struct stat st;
	FILE *f;

	r.cfg = (struct mg_report_cfg){ .nr_cpus = 2, .tp_flavour = "tp_btf", .kpc = true,
					.prefer_kpc = true, .tp_off = 0xf & ~(1u << 2),
					.kpc_method = "per-CPU via BTF offsets",
					.tp_off_why = "not counted: opt in with -e %s (or -e all)", .skew_row = -1 };
	r.sess.backend = MG_BE_KERNEL;
	r.sess.nr_cpus = 2;
	snprintf(r.env.release, sizeof(r.env.release), "a\"b\\c\nd");
	snprintf(r.kr_why, sizeof(r.kr_why), "no reader in a unit test");
	make_snaps(&r.first, &r.cur, true);
	f = open_memstream(&buf, &len);
	CHECK(IS_TRUE(f) && IS_FALSE(mg_prom_render(f, &r, "system-wide", 3)), "prom: renders");
	fclose(f);
	CHECK(STRSTR(buf, "# TYPE mgtrace_ctime_updates_total counter\n"
		     "mgtrace_ctime_updates_total{cpu=\"0\"} 3\nmgtrace_ctime_updates_total{cpu=\"1\"} 7\n"),
	      "prom: kernel counter per CPU, cumulative, with its TYPE");
	CHECK(STRSTR(buf, "mgtrace_stat_queries_total{cpu=\"1\"} 500\n"), "prom: opted-in BPF counter");
	CHECK(NO_STRSTR(buf, "mgtrace_ctime_skips_total") &&
	      STRSTR(buf, "counter=\"ctime_skips\",source=\"unavailable\"") &&
	      STRSTR(buf, "reason=\"not counted: opt in with -e ctime_skips (or -e all)\""),
	      "prom: an unavailable counter is absent, its reason in mgtrace_source_info");
	/* derived rows are never in the file, whether exact or approximate */
	CHECK(NO_STRSTR(buf, "mgtrace_floor_cmpxchg_fails_total") &&
	      STRSTR(buf, "counter=\"floor_cmpxchg_fails\",source=\"") &&
	      NO_STRSTR(buf, "counter=\"floor_cmpxchg_fails\",source=\"derived\",from=\"fine_stamps - "
			"floor_swaps\",state=\"exported\""),
	      "prom: a derived counter is absent, left to PromQL");
	CHECK(STRSTR(buf, "kernel_release=\"a\\\"b\\\\\\\\c\\\\nd\""),
	      "prom: the release's quote, backslash and newline escaped");
	CHECK(STRSTR(buf, "scope=\"system-wide\"") &&
	      STRSTR(buf, "kernel_per_cpu=\"unavailable: no reader in a unit test\""),
	      "prom: the scope, and the per-CPU reader's absence with why");
	CHECK(STRSTR(buf, "mgtrace_intervals_total 3\n") && STRSTR(buf, "mgtrace_elapsed_seconds 2.5"),
	      "prom: intervals and the window");
	free(buf);
	CHECK(IS_TRUE(mkdtemp(dir)), "prom: a scratch directory");
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	CHECK(IS_FALSE(mg_prom_write(path, &r, NULL, 3)) && IS_FALSE(stat(path, &st)) &&
	      EQ(st.st_mode & 0777, 0644), "prom: written, mode 0644");
	CHECK(IS_FALSE(mg_prom_write(path, &r, NULL, 4)), "prom: rewritten over the old file");
	snprintf(path, sizeof(path), "%s/missing/m.prom", dir);
	CHECK(LT(mg_prom_write(path, &r, NULL, 3), 0), "prom: a missing directory fails");
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	unlink(path);
	CHECK(IS_FALSE(rmdir(dir)), "prom: no temporary file left beside the file");
	mg_snap_free(&r.first);
	mg_snap_free(&r.cur);
}

/* The bracket from four debugfs readings, and the judgement of a figure against it. */
static void test_bracket(void)
{
	struct mg_bracket br;

	/* start read while 100 -> 105, end read while 300 -> 320: window count in [195, 220] */
	CHECK(IS_FALSE(mg_bracket_make(&br, 100, 105, 300, 320)) && EQ(br.low, 195) &&
	      EQ(br.high, 220) && EQ(br.width, 25), "bracket [195, 220], width 25 (got [%lld, %lld] %lld)",
	      (long long)br.low, (long long)br.high, (long long)br.width);
	CHECK(EQ(mg_bracket_judge(&br, 195), MG_MATCH_WITHIN) &&
	      EQ(mg_bracket_judge(&br, 220), MG_MATCH_WITHIN) &&
	      EQ(mg_bracket_judge(&br, 207), MG_MATCH_WITHIN), "195, 207 and 220 lie within");
	CHECK(EQ(mg_bracket_judge(&br, 194), MG_MATCH_OUTSIDE) &&
	      EQ(mg_bracket_judge(&br, 221), MG_MATCH_OUTSIDE),
	      "194 and 221 lie outside: a bracket can fail");
	CHECK(IS_FALSE(mg_bracket_make(&br, 100, 100, 300, 300)) && EQ(br.width, 0) &&
	      EQ(mg_bracket_judge(&br, 200), MG_MATCH_EXACT) &&
	      EQ(mg_bracket_judge(&br, 199), MG_MATCH_OUTSIDE) &&
	      EQ(mg_bracket_judge(&br, 201), MG_MATCH_OUTSIDE),
	      "quiet: width 0, only 200 matches (exact)");
	CHECK(EQ(mg_bracket_make(&br, 105, 100, 300, 320), -ERANGE) &&
	      EQ(mg_bracket_make(&br, 100, 310, 300, 320), -ERANGE) &&
	      EQ(mg_bracket_make(&br, 100, 105, 320, 300), -ERANGE),
	      "readings out of order are refused (-ERANGE)");
	br = (struct mg_bracket){ .low = 10, .high = 9, .width = -1 };
	CHECK(EQ(mg_bracket_judge(&br, 9), MG_MATCH_OUTSIDE) &&
	      EQ(mg_bracket_judge(&br, 10), MG_MATCH_OUTSIDE),
	      "an inverted bracket matches nothing");
	CHECK(STREQ(mg_match_name(MG_MATCH_EXACT), "yes") &&
	      STREQ(mg_match_name(MG_MATCH_WITHIN), "within") &&
	      STREQ(mg_match_name(MG_MATCH_OUTSIDE), "NO"), "match names yes, within, NO");
}

/* A BTF-offset per-CPU reading checked against the debugfs readings around it. */
static void test_kpc_check(void)
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
	CHECK(IS_FALSE(mg_kpc_check(kpc, 2, pre, post, why, sizeof(why))),
	      "per-CPU sums inside their debugfs readings are accepted under load");
	pre[MG_K_FINE_STAMPS] = post[MG_K_FINE_STAMPS] = 4500;
	CHECK(IS_FALSE(mg_kpc_check(kpc, 2, pre, post, why, sizeof(why))), "a width-0 bracket accepts its sum");
	/* a wrong offset: fine_stamps read at ctime_swaps' offset on CPU 1 */
	kpc[MG_K_NR_COUNTERS + MG_K_FINE_STAMPS] = kpc[MG_K_NR_COUNTERS + MG_K_CTIME_SWAPS];
	CHECK(EQ(mg_kpc_check(kpc, 2, pre, post, why, sizeof(why)), -EPROTO) &&
	      STRSTR(why, "mg_fine_stamps") && STRSTR(why, "below") && STRSTR(why, "[4500, 4500]"),
	      "a wrong reading is rejected, saying why: %s", why);
	kpc[MG_K_NR_COUNTERS + MG_K_FINE_STAMPS] = 1500 + 1;
	CHECK(EQ(mg_kpc_check(kpc, 2, pre, post, why, sizeof(why)), -EPROTO) && STRSTR(why, "above"),
	      "one count above the later debugfs reading is rejected: %s", why);
}

/* A busy machine: every end read while the counters moved; and the test skew. */
static void test_report_busy(void)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .func_backend = NULL, .tp_flavour = "tp_btf",
				     .kpc = true, .kpc_method = "per-CPU via BTF offsets", .skew_row = -1 };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *sw, *fl;
	json_t *j, *row, *br;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	struct mg_print_opts po = { 0 };
	int k;

	make_snaps(&a, &b, true);
	/* kernel rows from kpc: deltas (k+1)*10 in all; ctime_swaps from bpf: 330 */
	for (k = 0; k < MG_K_NR_COUNTERS; k++) {
		int64_t d = k == MG_K_CTIME_SWAPS ? 330 : (k + 1) * 10;

		a.dbg_pre[k] = 1000;
		a.dbg_post[k] = 1004;		/* 4 counted while the start was read */
		b.dbg_pre[k] = 1000 + d - 3;	/* the figure's end was read 3 + 2 into the end read */
		b.dbg_post[k] = 1000 + d + 4;
	}
	mg_report_build(&r, &cfg, &a, &b);
	sw = &r.rows[MG_R_CTIME_SWAPS];
	fl = &r.rows[MG_R_FLOOR_SWAPS];
	CHECK(IS_TRUE(sw->have_kernel) && EQ(sw->total, 330) && EQ(sw->bracket.low, 330 - 7) &&
	      EQ(sw->bracket.high, 330 + 4) && EQ(sw->bracket.width, 11) &&
	      EQ(sw->match, MG_MATCH_WITHIN) && IS_FALSE(sw->mismatch), "busy: bpf ctime_swaps 330 within [323, 334]");
	CHECK(EQ(fl->total, 40) && EQ(fl->match, MG_MATCH_WITHIN) && EQ(r.mismatches, 0),
	      "busy: kernel floor_swaps 40 within [33, 44]; no mismatch at all (got %d)", r.mismatches);
	po.cols = mg_report_columns(&r, &po);
	f = open_memstream(&text, &len);
	mg_report_print_summary(f, &r, &po);
	mg_report_print_interval(f, &r, &po, "12:00:01", false);
	fclose(f);
	CHECK(STRSTR(text, "323..334  within") && STRSTR(text, "within: the count lies") &&
	      NO_STRSTR(text, "WARNING") && STRSTR(text, "  within\n") && STRSTR(text, "\n12:00:01 "),
	      "text: range 323..334, match 'within', a note, the interval row at 12:00:01 says within");
	for (char *l = text, *e; l && *l; l = e ? e + 1 : NULL) {
		e = strchr(l, '\n');
		CHECK(LE((long)(e ? e - l : (long)strlen(l)), 100L), "text: a line within 100 columns: %.*s",
		      (int)(e ? e - l : (long)strlen(l)), l);
	}
	free(text);
	/* separated fields (-x ,): the header names the summary's rows, numbers without padding */
	text = NULL;
	f = open_memstream(&text, &len);
	po.sep = ",";
	po.cols = mg_report_columns(&r, &po);
	mg_report_print_interval_header(f, &po);
	mg_report_print_interval(f, &r, &po, "12:00:01", true);
	po.sep = NULL;
	po.cols = mg_report_columns(&r, &po);
	fclose(f);
	CHECK(STRSTR(text, "time,ctime_updates,fine_stamps,floor_swaps,floor_cmpxchg_fails,ctime_swaps,") &&
	      STRSTR(text, ",debugfs,approximate\n") && STRSTR(text, "\n12:00:01,") &&
	      STRSTR(text, ",330,") && STRSTR(text, ",within (partial),"),
	      "-x ,: header of row names, the partial interval's fields, then its approximate "
	      "rows: %s", text);
	free(text);
	j = mg_report_json(&r);
	row = json_object_get(j, "ctime_swaps");
	br = json_object_get(row, "debugfs_bracket");
	CHECK(EQ(json_integer_value(json_object_get(br, "low")), 323) &&
	      EQ(json_integer_value(json_object_get(br, "high")), 334) &&
	      EQ(json_integer_value(json_object_get(br, "width")), 11) &&
	      IS_TRUE(json_is_true(json_object_get(row, "match"))) &&
	      STREQ(json_string_value(json_object_get(row, "match_kind")), "within"),
	      "JSON: debugfs_bracket {323, 334, 11}, match true, match_kind within");
	json_decref(j);
	mg_report_free(&r);

	/* one event more than the widest reading allows: NO, in text and JSON */
	b.bpf[1].v[MG_BPF_CTIME_SWAPS] += 5;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(EQ(r.rows[MG_R_CTIME_SWAPS].total, 335) &&
	      IS_TRUE(r.rows[MG_R_CTIME_SWAPS].mismatch) && EQ(r.mismatches, 1), "busy: 335 above [323, 334] is NO");
	text = NULL;
	f = open_memstream(&text, &len);
	mg_report_print_summary(f, &r, &po);
	mg_report_print_interval(f, &r, &po, "12:00:02", false);
	fclose(f);
	CHECK(STRSTR(text, "323..334  NO") && STRSTR(text, "WARNING: 1 counter") &&
	      STRSTR(text, "NO: ctime_swaps\n"), "text: NO in the summary and the interval row");
	free(text);
	j = mg_report_json(&r);
	row = json_object_get(j, "ctime_swaps");
	CHECK(IS_TRUE(json_is_false(json_object_get(row, "match"))) &&
	      STREQ(json_string_value(json_object_get(row, "match_kind")), "outside"),
	      "JSON: match false, match_kind outside");
	json_decref(j);
	mg_report_free(&r);
	b.bpf[1].v[MG_BPF_CTIME_SWAPS] -= 5;

	/* the test skew shifts one row out of its bracket and keeps the per-CPU sum */
	cfg.skew_row = MG_R_FLOOR_SWAPS;
	cfg.skew_n = 5;
	mg_report_build(&r, &cfg, &a, &b);
	fl = &r.rows[MG_R_FLOOR_SWAPS];
	/* an operand outside its bracket: the difference is unavailable, never 30 - 45 */
	CHECK(EQ(fl->total, 45) && EQ(fl->percpu[0] + fl->percpu[1], 45) && IS_TRUE(fl->mismatch) &&
	      EQ(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE) &&
	      STRSTR(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why, "floor_swaps 45 differs"),
	      "skew floor_swaps +5: 45 outside [33, 44], per-CPU sum 45, derived row unavailable: %s",
	      r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why);
	mg_report_free(&r);
	cfg.skew_n = 4;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(IS_FALSE(r.rows[MG_R_FLOOR_SWAPS].mismatch), "skew +4: 44 still within [33, 44]");
	mg_report_free(&r);
	CHECK(EQ(mg_row_by_name("ctime_swaps"), MG_R_CTIME_SWAPS) && EQ(mg_row_by_name("nope"), -1),
	      "row names resolve");
	mg_snap_free(&a);
	mg_snap_free(&b);
}

static void test_report_tracepoint_only(void)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .func_backend = NULL, .tp_flavour = "raw_tp",
				     .kpc = false };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *R;
	json_t *j, *parsed, *row;
	json_error_t jerr;
	char *text;

	make_snaps(&a, &b, false);
	mg_report_build(&r, &cfg, &a, &b);
	R = r.rows;
	CHECK(EQ(R[MG_R_CTIME_UPDATES].src, MG_SRC_KERNEL) &&
	      IS_TRUE(R[MG_R_CTIME_UPDATES].have_total) &&
	      IS_FALSE(R[MG_R_CTIME_UPDATES].have_percpu) && EQ(R[MG_R_CTIME_UPDATES].total, 110),
	      "tracepoint backend: ctime_updates is the debugfs total, no per-CPU values");
	CHECK(EQ(R[MG_R_FLOOR_SWAPS].total, 15) && IS_TRUE(R[MG_R_FLOOR_SWAPS].why[0]),
	      "floor_swaps debugfs total 15, per-CPU marked unavailable with a reason");
	CHECK(EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_DERIVED) &&
	      IS_FALSE(R[MG_R_FLOOR_CMPXCHG_FAILS].have_percpu) &&
	      EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].total, 220 - 15),
	      "floor_cmpxchg_fails derived from totals only");
	CHECK(EQ(R[MG_R_CURRENT_TIME].src, MG_SRC_UNAVAILABLE) &&
	      IS_FALSE(R[MG_R_CURRENT_TIME].have_total) &&
	      STRSTR(R[MG_R_CURRENT_TIME].why, "function-probe"),
	      "current_time unavailable without a function-probe backend, with the reason");

	j = mg_report_json(&r);
	text = json_dumps(j, JSON_COMPACT);
	parsed = json_loads(text, 0, &jerr);
	CHECK(IS_TRUE(parsed), "report JSON parses back (%s)", parsed ? "ok" : jerr.text);
	row = json_object_get(parsed, "floor_swaps");
	CHECK(IS_TRUE(row) && EQ(json_integer_value(json_object_get(row, "total")), 15) &&
	      IS_TRUE(json_is_null(json_object_get(row, "per_cpu"))) &&
	      STREQ(json_string_value(json_object_get(row, "source")), "kernel"),
	      "JSON floor_swaps: total 15, per_cpu null, source kernel");
	row = json_object_get(parsed, "ctime_swaps");
	CHECK(IS_TRUE(row) && EQ(json_array_size(json_object_get(row, "per_cpu")), 2) &&
	      EQ(json_integer_value(json_array_get(json_object_get(row, "per_cpu"), 1)), 300) &&
	      IS_TRUE(json_is_true(json_object_get(row, "match"))),
	      "JSON ctime_swaps: per_cpu [30, 300], match true");
	row = json_object_get(parsed, "current_time");
	CHECK(IS_TRUE(row) && IS_TRUE(json_is_null(json_object_get(row, "total"))) &&
	      IS_TRUE(json_string_value(json_object_get(row, "unavailable"))),
	      "JSON current_time: total null with an 'unavailable' reason");
	free(text);
	json_decref(j);
	json_decref(parsed);
	mg_report_free(&r);

	/* debugfs-sourced rows carry the bracket of their own count */
	a.dbg_post[MG_K_FLOOR_SWAPS] += 2;
	b.dbg_pre[MG_K_FLOOR_SWAPS] -= 1;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(EQ(r.rows[MG_R_FLOOR_SWAPS].total, 15) &&
	      IS_TRUE(r.rows[MG_R_FLOOR_SWAPS].have_bracket) &&
	      EQ(r.rows[MG_R_FLOOR_SWAPS].bracket.low, 12) &&
	      IS_FALSE(r.rows[MG_R_FLOOR_SWAPS].have_kernel) &&
	      STRSTR(r.rows[MG_R_FLOOR_SWAPS].detail, "[12, 15]"),
	      "debugfs total: outer delta 15, its bracket [12, 15] in the detail, not compared (%s)",
	      r.rows[MG_R_FLOOR_SWAPS].detail);
	mg_report_free(&r);

	/* debugfs unreadable at the end: kernel-sourced rows become unavailable, never 0 */
	b.dbg_err = -ENOENT;
	mg_report_build(&r, &cfg, &a, &b);
	CHECK(EQ(r.rows[MG_R_CTIME_UPDATES].src, MG_SRC_UNAVAILABLE) &&
	      IS_FALSE(r.rows[MG_R_CTIME_UPDATES].have_total) &&
	      EQ(r.rows[MG_R_CTIME_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE) &&
	      IS_FALSE(r.rows[MG_R_CTIME_SWAPS].have_kernel),
	      "without debugfs: kernel rows and their derivations are unavailable, not zero");
	mg_report_free(&r);
	mg_snap_free(&a);
	mg_snap_free(&b);
}


/* ---- invariant checker: synthetic event sequences ---- */

static struct mg_event ev(enum mg_event_kind k, uint64_t ino, int64_t sec, uint32_t nsec, uint64_t t)
{
	struct mg_event e = { .ts_ns = t, .ino = ino, .ctime_sec = sec, .ctime_nsec = nsec,
			      .dev = (8u << 20) | 1, .gen = 7, .pid = 42, .tgid = 42, .cpu = 1, .kind = k };

	strcpy(e.comm, "unit");
	strcpy(e.name, "f");
	return e;
}

static struct mg_event swap_ev(uint64_t ino, int64_t sec, uint32_t new, uint32_t old, uint32_t cur,
			       uint64_t t)
{
	struct mg_event e = ev(MG_EV_CTIME_SWAP, ino, sec, new, t);

	e.old_nsec = old;
	e.cur_nsec = cur;
	return e;
}

/* ---- include/mg_rules.h, the rules BPF runs, called directly ---- */

static struct mg_rin rin(unsigned int kind, int64_t sec, uint32_t nsec, uint64_t t)
{
	struct mg_rin in = { .o = { .sec = sec, .nsec = nsec, .kind = kind, .t_ns = t, .pid = 7,
				    .cpu = 1 }, .time_gran = 1 };

	strcpy(in.o.comm, "rule");
	return in;
}

static struct mg_rin rswap(int64_t sec, uint32_t nsec, uint32_t old, uint32_t cur, uint64_t t)
{
	struct mg_rin in = rin(MG_EV_CTIME_SWAP, sec, nsec, t);

	in.old_nsec = old;
	in.cur_nsec = cur;
	return in;
}

/*
 * Judge in on s (tai_minus_real 0). out is filled with garbage and then cleared
 * with mg_rule_out_init(), as BPF does: only its counts, so every rule below also
 * shows that no rule reads viol[] or ben before writing them.
 */
static const struct mg_rout *judge(struct mg_rstate *s, struct mg_rin in)
{
	static struct mg_rout out;

	memset(&out, 0xa5, sizeof(out));
	mg_rule_out_init(&out);
	mg_rule_event(s, &in, 0, &out);
	return &out;
}

/* Only not-fault kind b (count 1) and no violation; b < 0: nothing at all. */
static bool only_benign(const struct mg_rout *o, int b)
{
	for (int k = 0; k < MG_B_NR_KINDS; k++)
		if (o->benign[k] != (k == b))
			return false;
	return !o->nviol && !o->overflow;
}

static void test_rules(void)
{
	const uint32_t Q = MG_I_CTIME_QUERIED;
	const uint64_t S = 1000000000ull;
	const struct mg_rout *o;
	struct mg_rstate s;
	struct mg_rout fin;
	struct mg_rin in;

	/* no regression: a later ctime holds, an earlier one more than 1 s on is a violation */
	memset(&s, 0, sizeof(s));
	CHECK(only_benign(judge(&s, rswap(100, 5, 0, 0, 1000)), -1), "rules: a first swap holds");
	CHECK(only_benign(judge(&s, rswap(100, 9, 5, 5, 2000)), -1), "rules: a later swap holds");
	o = judge(&s, rswap(99, 0, 9, 9, 2000 + 2 * S));
	CHECK(o->nviol == 1 && o->viol[0].kind == MG_V_REGRESSION && o->viol[0].earlier.sec == 100 &&
	      o->viol[0].earlier.nsec == 9 && o->viol[0].later.sec == 99 &&
	      o->viol[0].later.pid == 7 && !strcmp(o->viol[0].later.comm, "rule"),
	      "rules: an earlier ctime 2 s on is a regression, with both observations");
	/* later after a query: equal fails at 1 ns, is the contract at a coarser granularity */
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_STAT, 20, 700, 10));
	o = judge(&s, rswap(20, 700, 700 | Q, 700 | Q, 20));
	CHECK(o->nviol == 1 && o->viol[0].kind == MG_V_NOT_LATER, "rules: a QUERIED update to an "
	      "equal ctime is not later");
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_STAT, 20, 0, 10));
	in = rswap(20, 0, 0 | Q, 0 | Q, 20);
	in.time_gran = 1000000000;
	CHECK(only_benign(judge(&s, in), MG_B_GRANULARITY), "rules: equal at s_time_gran 1 s: "
	      "granularity_equal");
	memset(&s, 0, sizeof(s));
	CHECK(only_benign(judge(&s, rswap(20, 5, 3 | Q, 3 | Q, 20)), MG_B_UNVERIFIED),
	      "rules: a QUERIED update of a ctime never seen: unverified");
	/* a skip after a query that finished before the update began */
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_STAT, 30, 1, 3990));
	in = rin(MG_EV_CTIME_SKIP, 30, 1, 4000);
	in.o.entry_ns = 3995;
	o = judge(&s, in);
	CHECK(o->nviol == 1 && o->viol[0].kind == MG_V_SKIP_AFTER_QUERY,
	      "rules: a skip after a query that preceded the update fails");
	in.o.entry_ns = 3980;
	CHECK(only_benign(judge(&s, in), MG_B_SKIP_UNDECIDED), "rules: a skip of a query that may "
	      "follow the decision: undecided");
	/*
	 * A set over a QUERIED ctime (its tracepoint fires before its store: old_nsec is the
	 * replaced value). Real: a git clone on tmpfs, the .git directory (one pid): swap V,
	 * getattr V twice, unlink in it copies the child's V onto it (a set), then an update
	 * of the directory finds V without QUERIED and skips. The set is a change after a
	 * query that shows no later ctime: invariant 2 (mm/shmem.c copies the child's ctime).
	 */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 848225193, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 848225193, 110));
	judge(&s, rin(MG_EV_STAT, 40, 848225193, 120));
	in = rin(MG_EV_CTIME_SET, 40, 848225193, 130);
	in.old_nsec = 848225193 | Q;
	o = judge(&s, in);
	CHECK(o->nviol == 1 && o->viol[0].kind == MG_V_NOT_LATER && o->viol[0].earlier.kind ==
	      MG_EV_CTIME_SWAP && o->viol[0].later.kind == MG_EV_CTIME_SET, "rules: a set over a QUERIED "
	      "ctime to the same value: not later after a query (the tmpfs unlink)");
	in = rin(MG_EV_CTIME_SKIP, 40, 848225193, 140);
	in.o.entry_ns = 135;
	CHECK(only_benign(judge(&s, in), -1), "rules: a skip after the set (which stored the "
	      "ctime without QUERIED) with an entry time after every getattr: nothing (it was "
	      "a SKIP_AFTER_QUERY before the set cleared max_statted)");
	/* must-fail direction: without the set the same skip is one */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 848225193, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 848225193, 110));
	o = judge(&s, in);
	CHECK(o->nviol == 1 && o->viol[0].kind == MG_V_SKIP_AFTER_QUERY, "rules: the same skip "
	      "without the set between: a skip after a query");
	/* a later set over a QUERIED ctime holds */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in = rin(MG_EV_CTIME_SET, 40, 200, 130);
	in.old_nsec = 100 | Q;
	CHECK(only_benign(judge(&s, in), -1), "rules: a set over a QUERIED ctime to a later one holds");
	/* the inode being set up (I_NEW: loaded from disk over a stale QUERIED bit of its
	 * memory, an earlier incarnation of the same identity): not a change */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in = rin(MG_EV_CTIME_SET, 40, 100, 130);
	in.old_nsec = 100 | Q;
	in.flags = MG_EVF_INODE_SETUP;
	CHECK(only_benign(judge(&s, in), -1), "rules: a set of an inode being set up is not judged "
	      "for visibility");
	/* i_state unreadable (a kernel whose BTF has no layout of it that BPF knows: every
	 * kernel after 6.18 until issue 32): the same set is undecided, never passed silently */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in.flags = MG_EVF_STATE_UNKNOWN;
	CHECK(only_benign(judge(&s, in), MG_B_SET_UNDECIDED), "rules: a set over a QUERIED ctime "
	      "of an inode whose state is unknown: undecided");
	/* must-fail direction: the same set with the state read is a violation */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in.flags = 0;
	o = judge(&s, in);
	CHECK(o->nviol == 1 && o->viol[0].kind == MG_V_NOT_LATER, "rules: the same set with the "
	      "inode's state read: not later after a query");
	/* QUERIED on a value no getattr was seen to show: a stale bit, not judged */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	in = rin(MG_EV_CTIME_SET, 40, 100, 130);
	in.old_nsec = 100 | Q;
	CHECK(only_benign(judge(&s, in), -1), "rules: a set over QUERIED no getattr was seen to "
	      "set: not judged for visibility");
	/* a set over a ctime without QUERIED to the same value is no change after a query */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(40, 100, 5, 5, 100));
	judge(&s, rin(MG_EV_STAT, 40, 100, 110));
	in = rin(MG_EV_CTIME_SET, 40, 100, 130);
	in.old_nsec = 100;
	CHECK(only_benign(judge(&s, in), -1), "rules: a set over a ctime without QUERIED holds");
	/* delivery-order races */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(50, 10, 0, 0, 50));
	judge(&s, rswap(50, 30, 20, 20, 52));
	CHECK(only_benign(judge(&s, rswap(50, 20, 10, 10, 51)), MG_B_REORDERED),
	      "rules: a swap delivered after the swap that replaced it: reordered");
	o = judge(&s, rin(MG_EV_STAT, 50, 10, 60));
	CHECK(only_benign(o, MG_B_STALE_READ), "rules: a getattr of a value held < 1 s before: stale");
	CHECK(o->has_ben && o->ben.kind == MG_B_STALE_READ && o->ben.earlier.nsec == 30 &&
	      o->ben.earlier.t_ns == 52 && o->ben.later.nsec == 10 && o->ben.later.t_ns == 60,
	      "rules: the stale read's example carries the newer value it lost to, and itself");
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(10, 500, 0, 0, 1));
	judge(&s, rswap(11, 100, 500, 500, 2));
	CHECK(only_benign(judge(&s, rin(MG_EV_STAT, 10, 100, 3)), MG_B_TORN_READ),
	      "rules: old seconds with new nanoseconds: torn read");
	in = rswap(12, 7, 100, 100, 4);
	in.flags = MG_EVF_SEC_UNSURE;
	CHECK(only_benign(judge(&s, in), MG_B_SEC_UNSURE), "rules: unsure seconds are not judged");
	/* overlapping updates */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 0, 0, 0, 1000));
	in = rswap(99, 3, 0, 0, 1500);
	in.o.entry_ns = 900;
	CHECK(only_benign(judge(&s, in), MG_B_CONCURRENT), "rules: an update that began before the "
	      "newer value's event: concurrent");
	judge(&s, rswap(101, 0, 0, 0, 2000));
	CHECK(only_benign(judge(&s, rswap(100, 5, 0, 0, 2500)), MG_B_CONCURRENT_UNDECIDED),
	      "rules: the same without an entry time, within 1 s: undecided");
	/* an update after a step of the clock back that BPF found on its CPU: a regression the
	 * step explains, reported as one (user space attributes it), not taken for overlapping
	 * updates; only a step found after the latest value's event and at least as large */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(110, 700, 0, 600, 1000));
	in = rswap(100, 300, 0, 200, 1500);
	in.step_back_ns = -10000000000ll - 400;	/* 10 s back (+ bracket width) */
	in.step_back_at = 1400;
	o = judge(&s, in);
	CHECK(o->nviol == 1 && o->viol[0].kind == MG_V_REGRESSION && o->viol[0].later.sec == 100 &&
	      !o->has_ben && s.max.sec == 100,
	      "rules: an update 10 s back after a 10 s step back: a regression the step explains "
	      "(violations %u, kind %u, not-fault %u)", o->nviol, o->viol[0].kind, o->has_ben);
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(110, 700, 0, 600, 1000));
	in.step_back_at = 900;				/* found before the latest value's event */
	CHECK(only_benign(judge(&s, in), MG_B_CONCURRENT_UNDECIDED),
	      "rules: a step found before the latest value's event explains nothing");
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(110, 700, 0, 600, 1000));
	in.step_back_at = 1400;
	in.step_back_ns = -1000000;			/* 1 ms back: too small for 10 s */
	CHECK(only_benign(judge(&s, in), MG_B_CONCURRENT_UNDECIDED),
	      "rules: a step smaller than the regression explains nothing");
	in.step_back_ns = -10000000400ll + 1000;	/* within the slack */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(110, 700, 0, 600, 1000));
	o = judge(&s, in);
	CHECK(o->nviol == 1 && !o->has_ben, "rules: a step within %d ns of the regression's size "
	      "explains it", MG_STEP_SLACK_NS);
	/* a new file's ctime (set, not from a swap), then a step back, then an update: the step,
	 * not a future ctime (the clock at the update is before the file's ctime) */
	memset(&s, 0, sizeof(s));
	in = rin(MG_EV_CTIME_SET, 110, 0, 1000);
	judge(&s, in);
	in = rswap(100, 300, 0, 200, 1500);
	in.o.tai_ns = 100ull * S + 1;			/* realtime 100 s (TAI - REAL 0) */
	CHECK(only_benign(judge(&s, in), MG_B_FUTURE_CTIME),
	      "rules: without a step found, a set ctime later than the clock is a future ctime");
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_CTIME_SET, 110, 0, 1000));
	in.step_back_ns = -10000000000ll - 400;
	in.step_back_at = 1400;
	o = judge(&s, in);
	CHECK(o->nviol == 1 && o->viol[0].kind == MG_V_REGRESSION && !o->has_ben,
	      "rules: with the step found, it is a regression the step explains");
	/* a held getattr: its swap comes (concurrent read), never (unseen within 1 s, else a
	 * regression at the end) */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 0, 0, 0, 1000));
	CHECK(only_benign(judge(&s, rin(MG_EV_STAT, 99, 5, 1100)), -1) && s.pending,
	      "rules: a getattr of an older value not seen is held");
	o = judge(&s, rswap(99, 5, 0, 0, 1200));
	CHECK(o->benign[MG_B_CONCURRENT_READ] == 1 && !o->nviol && !s.pending,
	      "rules: ... and its swap resolves it as a concurrent read");
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 0, 0, 0, 1000));
	judge(&s, rin(MG_EV_STAT, 99, 5, 1100));
	memset(&fin, 0, sizeof(fin));
	mg_rule_finish(&s, &fin);
	CHECK(only_benign(&fin, MG_B_UNSEEN), "rules: a held getattr whose swap never came, within "
	      "1 s: unseen");
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 0, 0, 0, 1000));
	judge(&s, rin(MG_EV_STAT, 99, 5, 1000 + 2 * S));
	memset(&fin, 0, sizeof(fin));
	mg_rule_finish(&s, &fin);
	CHECK(fin.nviol == 1 && fin.viol[0].kind == MG_V_REGRESSION && fin.viol[0].later.sec == 99,
	      "rules: ... 2 s after the newer value: a regression");
	/* a ctime stored in the future (not from the clock) replaced by the clock */
	memset(&s, 0, sizeof(s));
	judge(&s, rin(MG_EV_STAT, 2000000000, 0, 10));
	in = rswap(1700000000, 0, 0, 0, 20);
	in.o.tai_ns = (1700000000ull + 37) * S;
	memset(&fin, 0, sizeof(fin));
	mg_rule_event(&s, &in, 37 * (int64_t)S, &fin);
	CHECK(only_benign(&fin, MG_B_FUTURE_CTIME), "rules: a stored ctime later than the clock, "
	      "replaced: future_ctime");
	/* the floor */
	ASSERT_EQ(mg_rule_floor(1, 10, 20, MG_EVF_FINE_NEEDED),
		  MG_RF_FLOOR_CHECKED | MG_RF_FINE_DECIDED, "rules: floor forward, fine stamp needed");
	ASSERT_EQ(mg_rule_floor(1, 20, 10, MG_EVF_FINE_UNNEEDED), MG_RF_FLOOR_CHECKED |
		  MG_RF_FLOOR_BACKWARD | MG_RF_FINE_DECIDED | MG_RF_FINE_UNNEEDED,
		  "rules: floor backward, fine stamp unneeded: two violations");
	ASSERT_EQ(mg_rule_floor(0, 20, 10, 0), 0, "rules: floor unread, undecided: nothing checked");
}

/* Floor events judged in BPF: counted there, sent for their violations only. */
/* The context-free predicate under test: mg_rule_needs_context, or a naive one (every getattr). */
typedef int (*needs_context_fn)(const struct mg_rstate *s, const struct mg_rin *in, int entry_times);

static int naive_needs_context(const struct mg_rstate *s, const struct mg_rin *in, int entry_times)
{
	(void)s;
	(void)entry_times;
	return in->o.kind != MG_EV_STAT;
}

/*
 * How the side-by-side judging below treats getattrs without the lock: as BPF
 * does (quiet word, marks, folded under the lock), or one of the naive ways
 * that must break the property.
 */
enum lockfree_model {
	LF_BPF,			/* mg_rule_is_quiet, mg_rule_can_mark, mg_rule_fold_quiet */
	LF_NAIVE_QUIET,		/* any getattr of max is quiet (held ones, first ones too) */
	LF_MARK_ENTRY,		/* marks even when updates carry entry times */
	LF_NO_FOLD,		/* marks, but the lock's holder never folds them in */
};

/*
 * One event of the BPF-like side: judged without the lock (1: quiet or a mark;
 * *s updated as BPF's exchange would) or not (0).
 */
static int lockfree_event(struct mg_rstate *s, const struct mg_rin *in, int entry_times,
			  enum lockfree_model m)
{
	unsigned long long q = s->quiet;

	if (m == LF_NAIVE_QUIET)
		return s->known && in->o.kind == MG_EV_STAT &&
		       mg_rule_fp(in->o.sec, in->o.nsec) == mg_rule_fp(s->max.sec, s->max.nsec);
	if (mg_rule_is_quiet(q, in))
		return 1;
	if (mg_rule_can_mark(q, in, m == LF_MARK_ENTRY ? 0 : entry_times)) {
		s->quiet = q | 1;	/* the compare-and-exchange */
		return 1;
	}
	return 0;
}

/* Under the lock, before judging: close the word and fold a mark in (mg_judge_close_quiet()). */
static void lockfree_close(struct mg_rstate *s, enum lockfree_model m)
{
	unsigned long long w = s->quiet;

	if (w && !(w & 1))
		s->quiet = 0;
	if (m != LF_NO_FOLD)
		mg_rule_fold_quiet(s, w);
}

/* The same violation or case: kind and both observations (the padding is never written). */
static bool same_viol(const struct mg_rviol *a, const struct mg_rviol *b)
{
	return a->kind == b->kind && !memcmp(&a->earlier, &b->earlier, sizeof(a->earlier)) &&
	       !memcmp(&a->later, &b->later, sizeof(a->later));
}

/* The same report: counts, violations and the first not-fault case (their observations too). */
static bool same_out(const struct mg_rout *a, const struct mg_rout *b)
{
	unsigned int i;

	if (memcmp(a->benign, b->benign, sizeof(a->benign)) || a->nviol != b->nviol ||
	    a->overflow != b->overflow || a->has_ben != b->has_ben)
		return false;
	for (i = 0; i < a->nviol && i < MG_RULE_MAX_VIOL; i++)
		if (!same_viol(&a->viol[i], &b->viol[i]))
			return false;
	return !a->has_ben || same_viol(&a->ben, &b->ben);
}

/*
 * A pseudo-random stream of one inode's events (getattrs of the current, the
 * previous and a not yet swapped value, swaps forward and back, QUERIED swaps,
 * skips, explicit sets; times 1 ns to 0.6 s apart, so the 1 s windows are
 * crossed), judged twice side by side: once with every event's clocks, once
 * as BPF judges it (model m): an event judged without the lock is not judged
 * at all (quiet, or it marks the quiet word), the word is closed and a mark
 * folded in before each judged event, and the clocks, task and CPU of the
 * events pred() calls context-free are left 0. The two must report the same
 * for every event (a context-free one: nothing) and keep the same state (the
 * BPF-like one with its mark folded in), but for max_stat_ns when updates
 * carry no entry time (the only value it is compared with). Returns the events
 * where they did not; *free_n: how many events were context-free, *quiet_n:
 * judged without the lock.
 */
static unsigned int needs_context_breaks(needs_context_fn pred, enum lockfree_model m,
					 int entry_times, unsigned int *free_n, unsigned int *quiet_n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, t = 1000;
	int64_t cur_s = 100, prev_s = 100;
	uint32_t cur_n = 1000, prev_n = 500;
	unsigned int breaks = 0, i;
	struct mg_rstate a, b, ma, mb;
	struct mg_rout oa, ob;
	struct mg_rin in, inb;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	*free_n = 0;
	*quiet_n = 0;
	for (i = 0; i < 20000; i++) {
		unsigned int r;
		bool free_ev, lockfree;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		r = (unsigned int)(x % 100);
		t += 1 + (x >> 8) % (r < 3 ? 600000000ull : 200000ull);
		if (r < 45)
			in = rin(MG_EV_STAT, cur_s, cur_n, t);
		else if (r < 47)
			in = rin(MG_EV_STAT, prev_s, prev_n, t);
		else if (r < 49)
			in = rin(MG_EV_STAT, cur_s, cur_n + 7, t);	/* a value not swapped yet */
		else if (r < 85 || r >= 97) {
			uint32_t old = cur_n | ((x >> 20) & 1 ? MG_I_CTIME_QUERIED : 0);

			prev_s = cur_s, prev_n = cur_n;
			cur_n += 1 + (uint32_t)((x >> 24) % 5000);
			if (cur_n >= 1000000000u)
				cur_s++, cur_n -= 1000000000u;
			in = rswap(cur_s, cur_n, old, old, t);
		} else if (r < 89)
			in = rswap(prev_s, prev_n - 1, cur_n, cur_n, t);	/* an older swap */
		else if (r < 94)
			in = rin(MG_EV_CTIME_SKIP, cur_s, cur_n, t);
		else
			in = rin(MG_EV_CTIME_SET, cur_s - 5, 0, t);
		if (entry_times && (in.o.kind == MG_EV_CTIME_SWAP || in.o.kind == MG_EV_CTIME_SKIP))
			in.o.entry_ns = t - 1 - (x >> 30) % 3000;
		in.o.tai_ns = t + 37 * 1000000000ull;
		if ((x >> 40) % 50 == 0)
			in.step_back_ns = -5000, in.step_back_at = t;
		inb = in;
		mg_rule_out_init(&oa);
		lockfree = lockfree_event(&a, &in, entry_times, m);
		if (lockfree)
			(*quiet_n)++;
		free_ev = lockfree || !pred(&a, &in, entry_times);
		if (free_ev) {
			(*free_n)++;
			in.o.t_ns = in.o.tai_ns = 0;
			in.step_back_ns = 0, in.step_back_at = 0;
			in.o.pid = in.o.cpu = 0;
			memset(in.o.comm, 0, sizeof(in.o.comm));
		}
		if (!lockfree) {
			lockfree_close(&a, m);
			mg_rule_event(&a, &in, 37 * 1000000000ll, &oa);
		}
		mg_rule_out_init(&ob);
		mg_rule_event(&b, &inb, 37 * 1000000000ll, &ob);
		ma = a, mb = b;
		mg_rule_fold_quiet(&ma, ma.quiet);	/* the state a mark stands for */
		if (!entry_times)
			ma.max_stat_ns = mb.max_stat_ns = 0;
		if (!same_out(&oa, &ob) || (free_ev && !only_benign(&oa, -1)) ||
		    memcmp(&ma, &mb, sizeof(ma)))
			breaks++;
	}
	return breaks;
}

/*
 * mg_rule_needs_context(): the events BPF judges without reading a clock are
 * exactly those whose judging does not depend on the clocks.
 */
static void test_rule_needs_context(void)
{
	unsigned int n0 = 0, n1 = 0, nn = 0, q0 = 0, q1 = 0, qn = 0;
	struct mg_rstate s;
	struct mg_rin st;

	ASSERT_EQ(needs_context_breaks(mg_rule_needs_context, LF_BPF, 0, &n0, &q0), 0,
		  "needs_context: tracepoints only, context-free events judge the same without their context");
	CHECK(GT(n0, 5000), "needs_context: tracepoints only, most getattrs of the latest ctime are "
	      "context-free (%u of 20000 events, 9000 getattrs of it)", n0);
	ASSERT_EQ(needs_context_breaks(mg_rule_needs_context, LF_BPF, 1, &n1, &q1), 0,
		  "needs_context: with entry times, the same");
	CHECK(GT(n1, 1000) && LT(n1, n0), "needs_context: with entry times fewer are context-free "
	      "(%u, against %u): the first getattr of a value keeps its time", n1, n0);
	/* tracepoints only, the first getattr of a value marks the word: every context-free
	 * getattr takes no lock; with entry times only the later ones */
	CHECK(EQ(q0, n0) && GT(q1, 1000) && LT(q1, q0),
	      "needs_context: getattrs judged without the lock: %u of %u context-free (tracepoints "
	      "only), %u (entry times)", q0, n0, q1);
	/* the check can fail: calling every getattr context-free breaks the property */
	CHECK(GT(needs_context_breaks(naive_needs_context, LF_BPF, 0, &nn, &qn), 0),
	      "needs_context: a predicate calling every getattr context-free is caught");
	CHECK(GT(needs_context_breaks(naive_needs_context, LF_BPF, 1, &nn, &qn), 0),
	      "needs_context: the same with entry times");
	CHECK(GT(needs_context_breaks(mg_rule_needs_context, LF_NAIVE_QUIET, 0, &nn, &qn), 0),
	      "needs_context: a lock-free test taking every getattr of the latest ctime (held "
	      "getattrs too) is caught");
	CHECK(GT(needs_context_breaks(mg_rule_needs_context, LF_MARK_ENTRY, 1, &nn, &qn), 0),
	      "needs_context: marks without the lock when updates carry entry times (the "
	      "getattr's time lost) are caught");
	CHECK(GT(needs_context_breaks(mg_rule_needs_context, LF_NO_FOLD, 0, &nn, &qn), 0),
	      "needs_context: marks the lock's holder does not fold in are caught");

	/* the quiet word: markable once the latest ctime is known, quiet once a getattr
	 * showed it, 0 while a getattr is held */
	memset(&s, 0, sizeof(s));
	st = rin(MG_EV_STAT, 100, 5, 2000);
	CHECK(EQ(mg_rule_quiet(&s), 0) && !mg_rule_can_mark(s.quiet, &st, 0),
	      "quiet: 0 before anything is known");
	judge(&s, rswap(100, 5, 0, 0, 1000));
	CHECK(EQ(s.quiet, mg_rule_fp(100, 5) << 1) && !mg_rule_is_quiet(s.quiet, &st) &&
	      mg_rule_can_mark(s.quiet, &st, 0) && !mg_rule_can_mark(s.quiet, &st, 1) &&
	      !mg_rule_can_mark(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_STAT,
			.sec = 100, .nsec = 6 } }, 0) &&
	      !mg_rule_can_mark(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_CTIME_SKIP,
			.sec = 100, .nsec = 5 } }, 0),
	      "quiet: after a swap, markable by a getattr of its value only, tracepoints only");
	judge(&s, st);
	CHECK(EQ(s.quiet, mg_rule_fp(100, 5) << 1 | 1) && mg_rule_is_quiet(s.quiet, &st) &&
	      !mg_rule_can_mark(s.quiet, &st, 0) &&
	      !mg_rule_is_quiet(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_CTIME_SKIP,
			.sec = 100, .nsec = 5 } }) &&
	      !mg_rule_is_quiet(s.quiet, &(struct mg_rin){ .o = { .kind = MG_EV_STAT,
			.sec = 100, .nsec = 6 } }), "quiet: a getattr of it after one, nothing else");
	judge(&s, rin(MG_EV_STAT, 100, 4, 3000));	/* held */
	CHECK(EQ(s.quiet, 0), "quiet: not while a getattr is held");
	CHECK(EQ(mg_rule_fp(-1, 999999999), 0) && NE(mg_rule_fp(0, 0), 0),
	      "quiet: the one ctime whose word is 0 is 1 ns before the epoch");

	/* a mark folds in only as the mark of the latest ctime, not yet shown */
	memset(&s, 0, sizeof(s));
	judge(&s, rswap(100, 5, 0, 0, 1000));
	mg_rule_fold_quiet(&s, mg_rule_fp(100, 6) << 1 | 1);
	CHECK(IS_FALSE(s.max_statted), "fold: the mark of another ctime is not folded in");
	mg_rule_fold_quiet(&s, s.quiet);
	CHECK(IS_FALSE(s.max_statted), "fold: an unmarked word changes nothing");
	mg_rule_fold_quiet(&s, s.quiet | 1);
	CHECK(IS_TRUE(s.max_statted) && EQ(s.max_stat_ns, 0) && EQ(mg_rule_quiet(&s), s.quiet | 1),
	      "fold: the mark of the latest ctime: shown, at a time unknown");
	memset(&s, 0, sizeof(s));
	mg_rule_fold_quiet(&s, 1);
	CHECK(IS_FALSE(s.max_statted), "fold: nothing on an inode not known (word 1)");

	/* the cases, one by one */
	memset(&s, 0, sizeof(s));
	st = rin(MG_EV_STAT, 100, 5, 1000);
	CHECK(IS_TRUE(mg_rule_needs_context(&s, &st, 0)), "needs_context: an inode not seen yet");
	judge(&s, rswap(100, 5, 0, 0, 1000));
	CHECK(IS_FALSE(mg_rule_needs_context(&s, &st, 0)), "needs_context: a getattr of the latest "
	      "ctime, tracepoints only");
	CHECK(IS_TRUE(mg_rule_needs_context(&s, &st, 1)), "needs_context: its first getattr keeps "
	      "its time when updates carry their entry time");
	judge(&s, st);
	CHECK(IS_FALSE(mg_rule_needs_context(&s, &st, 1)) && EQ(s.max_stat_ns, 1000),
	      "needs_context: a second getattr of it does not");
	st.o.nsec = 4;
	CHECK(IS_TRUE(mg_rule_needs_context(&s, &st, 0)), "needs_context: a getattr of another value");
	judge(&s, st);	/* held: an older value not seen before */
	st.o.nsec = 5;
	CHECK(IS_TRUE(s.pending) && IS_TRUE(mg_rule_needs_context(&s, &st, 0)),
	      "needs_context: anything while a getattr is held");
	st = rswap(100, 5, 5, 5, 3000);
	CHECK(IS_TRUE(mg_rule_needs_context(&s, &st, 0)), "needs_context: every update");
}

static void test_checker_floor_judged(void)
{
	struct mg_checker *c = mg_checker_new(16, 8);
	struct mg_floor_judge_counts sum = { .by_kind = { 10, 0, 0 }, .floor_checked = 10,
					     .fine_decided = 10, .unneeded = 2 };
	const struct mg_check_stats *st = mg_checker_stats(c);
	struct mg_event e = ev(MG_EV_FLOOR_SWAP, 3, 100, 5, 10);

	e.flags = MG_EVF_JUDGED | MG_EVF_FINE_UNNEEDED | MG_EVF_IN_SET_CTIME;
	e.floor_known = 1;
	mg_checker_judged_in_bpf(c);
	mg_checker_event(c, &e);	/* the one record that arrived */
	mg_checker_import_floor(c, &sum);
	CHECK(st->events == 10 && st->by_kind[MG_EV_FLOOR_SWAP] == 10 && st->fine_checked == 10 &&
	      st->floor_checked == 10 && st->fine_undecided == 0 && st->inodes == 0,
	      "checker: floor events judged in BPF are counted once, from BPF's counts");
	CHECK(st->violations[MG_V_FINE_UNNEEDED] == 2 && mg_checker_faults(c) == 2,
	      "checker: BPF's unneeded fine stamps all count, the one whose record was lost too");
	mg_checker_free(c);
}

/* Clock steps BPF saw: one per CPU merged; they explain a regression, never added up twice. */
/*
 * One event through the clock-step rules as bpf/mg_judge.bpf.h runs them: offs is
 * the kernel's offs_tai at the event, d the delay between the monotonic and the TAI
 * read, e the delay between the TAI read and the second monotonic read. Returns 1
 * if a step was reported (its window from *from to t, its size in *dlo..*dhi), and
 * counts the second reads.
 */
static int clock_event(struct mg_rclock *c, uint64_t t, int64_t offs, uint64_t d, uint64_t e,
		       unsigned long long *from, long long *dlo, long long *dhi, int *t1_reads)
{
	unsigned long long tai = t + d + (uint64_t)offs;

	if (!mg_rule_clock_need_t1(c, t, tai))
		return 0;
	(*t1_reads)++;
	return mg_rule_clock_measure(c, t, tai, t + d + e, from, dlo, dhi);
}

static void test_rule_clock(void)
{
	const int64_t offs = 37000000000LL;
	struct mg_rclock c = { 0 };
	unsigned long long from = 0;
	long long lo = 0, hi = 0;
	int steps = 0, reads = 0, i;
	uint64_t t = 1000000, r = 12345, ts;

	/* a steady clock with delays of 20 to 60 ns between reads, and now and then an
	 * interrupt between them (5 us): never a step; a second read on the first event,
	 * once per refresh, on a slow read and on the event after it */
	for (i = 0; i < 100000; i++) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t d = 20 + (r >> 33) % 40, e = 20 + (r >> 45) % 40;

		if (i % 2000 == 999)
			d += 5000;
		else if (i % 2000 == 1999)
			e += 5000;
		t += 200;
		steps += clock_event(&c, t, offs, d, e, &from, &lo, &hi, &reads);
	}
	ASSERT_EQ(steps, 0, "clock rules: a steady clock with jittery reads shows no step");
	CHECK(reads < 100000 / 10, "clock rules: second reads on %d of 100000 events (expected "
	      "under 10000: first event, refreshes, slow reads)", reads);
	/* a step back of 100 ns just after a measurement is found at the next event */
	t += 200;
	clock_event(&c, t, offs, 30, 30, &from, &lo, &hi, &reads);	/* refresh or not */
	c.measured = 0;							/* measure here */
	clock_event(&c, t += 200, offs, 30, 30, &from, &lo, &hi, &reads);
	ts = t + 100;
	steps = clock_event(&c, t += 200, offs - 100, 30, 30, &from, &lo, &hi, &reads);
	CHECK(steps == 1 && lo <= -100 && hi >= -100 && hi < 0 && from <= ts && ts <= t,
	      "clock rules: a 100 ns step back is found (%d; size %lld..%lld, expected -100 inside, "
	      "negative; window %llu..%llu around %llu)", steps, lo, hi, from,
	      (unsigned long long)t, (unsigned long long)ts);
	CHECK(c.back_lo == lo && c.back_at == t, "clock rules: the step back is kept for the rules "
	      "(mg_rule_step_explains: %lld at %llu, want %lld at %llu)", c.back_lo, c.back_at, lo,
	      (unsigned long long)t);
	/* a measurement (d 30, e 40), a 60 ns step back, an event that passes (d 35), one that
	 * finds it (d 15): the window starts at the measurement, before the step */
	c.measured = 0;
	clock_event(&c, t += 200, offs, 30, 40, &from, &lo, &hi, &reads);
	ts = t + 100;
	steps = clock_event(&c, t += 200, offs - 60, 35, 30, &from, &lo, &hi, &reads);
	steps += clock_event(&c, t += 200, offs - 60, 15, 30, &from, &lo, &hi, &reads);
	CHECK(steps == 1 && from <= ts && lo <= -60 && hi >= -60,
	      "clock rules: a step found one event late has a window that holds it (%d; window "
	      "from %llu, step at %llu; size %lld..%lld)", steps, from, (unsigned long long)ts, lo, hi);
	/* a step back smaller than the clocks' jitter cannot be shown: 10 ns */
	ASSERT_EQ(clock_event(&c, t += 200, offs - 70, 50, 30, &from, &lo, &hi, &reads), 0,
		  "clock rules: a 10 ns step back, inside the clocks' jitter");
	/* steps forward of 10 us and of 800 ns are found, and 800 ns back after the latter */
	steps = clock_event(&c, t += 200, offs + 10000, 30, 30, &from, &lo, &hi, &reads);
	CHECK(steps == 1 && lo <= 10070 && hi >= 10070,
	      "clock rules: a 10 us step forward is found (%d; size %lld..%lld, expected 10070 "
	      "inside)", steps, lo, hi);
	steps = clock_event(&c, t += 200, offs + 10800, 30, 30, &from, &lo, &hi, &reads);
	steps += clock_event(&c, t += 200, offs + 10000, 30, 30, &from, &lo, &hi, &reads);
	CHECK(steps == 2 && lo <= -800 && hi >= -800,
	      "clock rules: 800 ns forward then back: two steps (%d; the second %lld..%lld)", steps,
	      lo, hi);
	/* a bracket measured with a slow second read (900 ns) is measured again at the next
	 * event, so a 300 ns step back after it is found */
	c.measured = 0;
	clock_event(&c, t += 200, offs, 30, 900, &from, &lo, &hi, &reads);
	clock_event(&c, t += 200, offs, 30, 30, &from, &lo, &hi, &reads);
	steps = clock_event(&c, t += 200, offs - 300, 30, 30, &from, &lo, &hi, &reads);
	CHECK(steps == 1 && lo <= -300 && hi >= -300,
	      "clock rules: a step back after a slow measurement is found (%d; size %lld..%lld)",
	      steps, lo, hi);
	/* the documented limit: a step forward within the rise allowed (here 60 ns) goes
	 * unreported, and until the next refresh (100 us) a step back is seen net of it;
	 * after the refresh the bracket holds the new offset and a step back is sized from it */
	steps = clock_event(&c, t += 200, offs - 240, 30, 30, &from, &lo, &hi, &reads);
	ASSERT_EQ(steps, 0, "clock rules: 60 ns forward, inside the rise allowed, unreported");
	for (i = 0; i < 510; i++)
		steps += clock_event(&c, t += 200, offs - 240, 30, 30, &from, &lo, &hi, &reads);
	steps += clock_event(&c, t += 200, offs - 540, 30, 30, &from, &lo, &hi, &reads);
	CHECK(steps == 1 && lo <= -300 && hi >= -300,
	      "clock rules: after a refresh a step back is sized from the new bracket (%d; size "
	      "%lld..%lld, expected -300 inside)", steps, lo, hi);
}

static void test_checker_kernel_steps(void)
{
	struct mg_checker *c = mg_checker_new(16, 8);
	const struct mg_check_stats *st = mg_checker_stats(c);
	struct mg_event e;

	mg_checker_judged_in_bpf(c);
	mg_checker_kernel_step(c, 1000, 5000, -600000, -400000);	/* CPU 0 */
	mg_checker_kernel_step(c, 2000, 6000, -550000, -450000);	/* CPU 1: the same step */
	mg_checker_kernel_step(c, 9000, 9500, 300000, 310000);		/* a later one, forward */
	CHECK(st->kernel_steps == 2 && st->kernel_step_records == 3,
	      "checker: a step seen by two CPUs is one step");
	/* across the step (at most 0.55 ms back): a fall of 0.5 ms is explained; one of 1 ms
	 * is not (it would be, were the two CPUs' records added up) */
	e = swap_ev(9, 100, 600000, 0, 0, 500); mg_checker_event(c, &e);
	e = swap_ev(9, 100, 100000, 0, 0, 1000007500ull); mg_checker_event(c, &e);
	e = swap_ev(10, 100, 1100000, 0, 0, 500); mg_checker_event(c, &e);
	e = swap_ev(10, 100, 100000, 0, 0, 1000007500ull); mg_checker_event(c, &e);
	CHECK(st->violations[MG_V_REGRESSION] == 2 && st->explained[MG_V_REGRESSION] == 1 &&
	      mg_checker_faults(c) == 1, "checker: a BPF-seen step explains a fall up to its size, "
	      "counted once");
	mg_checker_free(c);
}

/* A regression observed at t_ns a then b (ns), ctime (sec, nsec) then (sec2, nsec2). */
static struct mg_violation regression(uint64_t a, uint64_t b, int64_t sec, uint32_t nsec,
				       int64_t sec2, uint32_t nsec2)
{
	struct mg_violation v = { .kind = MG_V_REGRESSION, .ino = 42 };

	v.earlier.ctime = (struct mg_ts){ sec, nsec };
	v.earlier.t_ns = a;
	v.later.ctime = (struct mg_ts){ sec2, nsec2 };
	v.later.t_ns = b;
	return v;
}

/* Many clock steps: every one kept up to the bound, and what fails the check is reported. */
static void test_checker_many_steps(void)
{
	struct mg_checker *c = mg_checker_new(16, 2);
	const struct mg_check_stats *st = mg_checker_stats(c);
	const struct mg_violation *r;
	struct mg_violation v;
	size_t i, n;

	/* 5000 steps of 20 us, back and forth (more than the 4096 kept until 2026-12-01),
	 * then one of 1 ms back: a fall of 0.5 ms across it is explained */
	for (i = 0; i < 5000; i++)
		mg_checker_kernel_step(c, 1000000 + i * 10000, 1000000 + i * 10000 + 100,
				       (i & 1) ? 19000 : -21000, (i & 1) ? 21000 : -19000);
	mg_checker_kernel_step(c, 100000000, 100000100, -1000100, -999900);
	ASSERT_EQ(st->kernel_steps, 5001, "checker: 5001 distinct steps seen in BPF");
	v = regression(99000000, 101000000, 100, 1000000, 100, 500000);
	mg_checker_add(c, &v);
	CHECK(st->violations[MG_V_REGRESSION] == 1 && st->explained[MG_V_REGRESSION] == 1,
	      "checker: the 5001st step explains a fall across it (explained %llu of %llu)",
	      (unsigned long long)st->explained[MG_V_REGRESSION],
	      (unsigned long long)st->violations[MG_V_REGRESSION]);
	/* the reports (2 here) are full of explained ones: an unexplained one takes a place */
	v = regression(99000000, 101000000, 100, 900000, 100, 500000);
	mg_checker_add(c, &v);
	v = regression(200000000, 200001000, 100, 900000, 100, 500000);	/* no step */
	mg_checker_add(c, &v);
	r = mg_checker_reports(c, &n);
	CHECK(n == 2 && (!r[0].step_explained || !r[1].step_explained) && mg_checker_faults(c) == 1,
	      "checker: a violation no step explains is reported when the reports are full "
	      "(%zu reports, explained %d %d)", n, r[0].step_explained, n > 1 && r[1].step_explained);
	mg_checker_free(c);

	/* judged in user space: a regression after a step back that the clock samples
	 * recorded is filed as the step's, as BPF files it (not as overlapping updates) */
	c = mg_checker_new(16, 2);
	st = mg_checker_stats(c);
	{
		struct mg_event e = swap_ev(3, 110, 700, 0, 600, 1000);

		mg_checker_event(c, &e);
		mg_checker_clock_step(c, 1200, 1300, -10000000400ll);
		e = swap_ev(3, 100, 300, 0, 200, 1500);
		mg_checker_event(c, &e);
	}
	CHECK(st->violations[MG_V_REGRESSION] == 1 && st->explained[MG_V_REGRESSION] == 1 &&
	      st->benign[MG_B_CONCURRENT_UNDECIDED] == 0, "checker: user space files a fall after a "
	      "sampled step back as the step's (violations %llu, explained %llu, undecided %llu)",
	      (unsigned long long)st->violations[MG_V_REGRESSION],
	      (unsigned long long)st->explained[MG_V_REGRESSION],
	      (unsigned long long)st->benign[MG_B_CONCURRENT_UNDECIDED]);
	/* past the bound a step is not kept: counted as lost (inconclusive), not dropped */
	for (i = 0; i < MG_STEPS_MAX + 2; i++)	/* one more is kept above */
		mg_checker_clock_step(c, i * 10, i * 10 + 5, -1000);
	CHECK(st->steps_not_kept == 3 && st->lost >= 3, "checker: 3 steps past the bound are "
	      "counted (not kept %llu, lost %llu)", (unsigned long long)st->steps_not_kept,
	      (unsigned long long)st->lost);
	mg_checker_free(c);

	/* a preempted update: its clock was read after its entry, its event came 20 ms later,
	 * after the window of a 10 s step back; the next update's value is 10 s earlier. With
	 * the entry time the step explains it (the first read may precede the step); without,
	 * the step lies before the earlier event: only near it, undecided (a checker that
	 * ignores the entry time fails the first case) */
	for (i = 0; i < 2; i++) {
		struct mg_checker *k = mg_checker_new(16, 4);
		const struct mg_check_stats *ks = mg_checker_stats(k);

		mg_checker_clock_step(k, 86792269230ull, 86848312877ull, -10822893925ll);
		v = regression(86848684762ull, 86848855077ull, 1796124820, 827987067,
			       1796124810, 25959810);
		if (i == 0)
			v.earlier.entry_ns = 86827994919ull;
		mg_checker_add(k, &v);
		CHECK(i == 0 ? ks->explained[MG_V_REGRESSION] == 1 && ks->undecided[MG_V_REGRESSION] == 0
			     : ks->explained[MG_V_REGRESSION] == 0 && ks->undecided[MG_V_REGRESSION] == 1,
		      "checker: a step after a preempted update's entry, before its event: %s "
		      "(explained %llu, undecided %llu)", i == 0 ? "explained with the entry time" :
		      "undecided without it", (unsigned long long)ks->explained[MG_V_REGRESSION],
		      (unsigned long long)ks->undecided[MG_V_REGRESSION]);
		mg_checker_free(k);
	}
}

static void test_checker(void)
{
	struct mg_checker *c = mg_checker_new(16, 8);
	const struct mg_check_stats *st;
	const struct mg_violation *v;
	struct mg_event e;
	size_t n;
	const uint32_t Q = MG_I_CTIME_QUERIED;

	/* clean: stat, queried update to a later time, stat of the new value */
	e = ev(MG_EV_STAT, 1, 100, 500, 10); mg_checker_event(c, &e);
	e = swap_ev(1, 100, 900, 500 | Q, 500 | Q, 20); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 1, 100, 900, 30); mg_checker_event(c, &e);
	e = swap_ev(1, 101, 5, 900 | Q, 900 | Q, 40); mg_checker_event(c, &e);
	st = mg_checker_stats(c);
	CHECK(EQ(mg_checker_faults(c), 0) && EQ(st->events, 4) && EQ(st->inodes, 1),
	      "checker: a clean sequence passes (4 events, 1 inode)");

	/* a getattr that raced with the last update: stale by one, tolerated */
	e = ev(MG_EV_STAT, 1, 100, 900, 45); mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 0) && EQ(st->benign[MG_B_STALE_READ], 1),
	      "checker: a stale-by-one read is tolerated");

	/* a swap delivered after the swap that replaced its value: reordered, tolerated */
	e = swap_ev(2, 50, 10, 0, 0, 50); mg_checker_event(c, &e);
	e = swap_ev(2, 50, 30, 20, 20, 52); mg_checker_event(c, &e);
	e = swap_ev(2, 50, 20, 10, 10, 51); mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 0) && EQ(st->benign[MG_B_REORDERED], 1),
	      "checker: a reordered swap is tolerated");

	/* invariant 1: a real regression (two steps back, not stale by one) fails */
	e = ev(MG_EV_STAT, 1, 99, 1, 2000000060ull); mg_checker_event(c, &e);
	mg_checker_finish(c);	/* a held getattr is judged at the end */
	CHECK(EQ(st->violations[MG_V_REGRESSION], 1) && EQ(mg_checker_faults(c), 1),
	      "checker: a ctime regression is a violation");
	v = mg_checker_reports(c, &n);
	CHECK(EQ(n, 1) && EQ(v[0].kind, MG_V_REGRESSION) && EQ(v[0].earlier.ctime.sec, 101) &&
	      EQ(v[0].earlier.ctime.nsec, 5) && EQ(v[0].later.ctime.sec, 99) && EQ(v[0].ino, 1) &&
	      EQ(v[0].later.pid, 42) && STREQ(v[0].later.comm, "unit") && STREQ(v[0].name, "f"),
	      "checker: the report names the inode, both values, pid and comm");

	/* stale-by-one read arriving too late (> 1 s) is not tolerated */
	e = swap_ev(3, 10, 100, 0, 0, 1000); mg_checker_event(c, &e);
	e = swap_ev(3, 10, 200, 100, 100, 2000); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 3, 10, 100, 2000 + 2000000000ull); mg_checker_event(c, &e);
	mg_checker_finish(c);	/* a held getattr is judged at the end */
	ASSERT_EQ(st->violations[MG_V_REGRESSION], 2, "checker: a stale read 2 s late is a regression");

	/* invariant 2: an update of a QUERIED ctime that is not later fails */
	e = ev(MG_EV_STAT, 4, 20, 700, 3000); mg_checker_event(c, &e);
	e = swap_ev(4, 20, 700, 700 | Q, 700 | Q, 3001); mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_NOT_LATER], 1, "checker: QUERIED update to an equal ctime is a violation");

	/* invariant 2: a skip after a getattr that finished before the update began fails */
	e = ev(MG_EV_STAT, 5, 30, 1, 3990); mg_checker_event(c, &e);
	e = ev(MG_EV_CTIME_SKIP, 5, 30, 1, 4000); e.entry_ns = 3995; mg_checker_event(c, &e);
	ASSERT_EQ(st->violations[MG_V_SKIP_AFTER_QUERY], 1, "checker: a skip after a query that preceded the update is a violation (%llu)",
	      (unsigned long long)st->violations[MG_V_SKIP_AFTER_QUERY]);
	/* without the update's entry time the order of query and decision is unknown */
	e = ev(MG_EV_CTIME_SKIP, 5, 30, 1, 4001); mg_checker_event(c, &e);
	CHECK(EQ(st->violations[MG_V_SKIP_AFTER_QUERY], 1) && EQ(st->benign[MG_B_SKIP_UNDECIDED], 1),
	      "checker: a skip whose query may have come after the decision is undecided");
	/* the query ended after the update began: concurrent, not a fault */
	e = ev(MG_EV_CTIME_SKIP, 5, 30, 1, 4002); e.entry_ns = 3980; mg_checker_event(c, &e);
	CHECK(EQ(st->violations[MG_V_SKIP_AFTER_QUERY], 1) && EQ(st->benign[MG_B_SKIP_UNDECIDED], 2),
	      "checker: a skip concurrent with the query is undecided");

	/* invariant 5 (at 100 s, after the other cases' times): a regression across a backward
	 * realtime step is attributed to it */
	e = swap_ev(6, 1000, 5, 0, 0, 100000000000ull + 5000); mg_checker_event(c, &e);
	mg_checker_clock_step(c, 100000000000ull + 5500, 100000000000ull + 5600, -3000000000ll);
	e = swap_ev(6, 997, 1, 9, 9, 100000000000ull + 6000); e.entry_ns = 100000000000ull + 5900; mg_checker_event(c, &e);
	CHECK(EQ(st->violations[MG_V_REGRESSION], 3) && EQ(st->explained[MG_V_REGRESSION], 1) &&
	      EQ(mg_checker_faults(c), 4), "checker: a regression after a backward clock step is explained");
	v = mg_checker_reports(c, &n);
	CHECK(GE(n, 5) && IS_TRUE(v[n - 1].step_explained) && EQ(v[n - 1].step_ns, -3000000000ll),
	      "checker: the report carries the step (-3 s)");
	/* the same regression with the step before both observations, 2 us before: not
	 * explained, but within MG_STEP_NEAR_NS of a step of its size: undecided (a step and
	 * its return may lie between a clock read and its observation), not a fault */
	e = swap_ev(7, 1000, 5, 0, 0, 100000000000ull + 7000); mg_checker_event(c, &e);
	e = swap_ev(7, 999, 3, 9, 9, 100000000000ull + 8000); e.entry_ns = 100000000000ull + 7900; mg_checker_event(c, &e);
	CHECK(EQ(st->explained[MG_V_REGRESSION], 1) && EQ(st->undecided[MG_V_REGRESSION], 1) &&
	      EQ(mg_checker_faults(c), 4), "checker: a step just outside the window leaves the "
	      "regression undecided");
	/* ... and 20 ms after the step, a fault */
	e = swap_ev(7, 1000, 5, 0, 0, 100000000000ull + 20007000); mg_checker_event(c, &e);
	e = swap_ev(7, 999, 3, 9, 9, 100000000000ull + 20008000); e.entry_ns = 100000000000ull + 20007900; mg_checker_event(c, &e);
	CHECK(EQ(st->explained[MG_V_REGRESSION], 1) && EQ(st->undecided[MG_V_REGRESSION], 1) &&
	      EQ(mg_checker_faults(c), 5), "checker: a step 20 ms before both observations "
	      "explains nothing");

	/* a getattr stamped before the swap delivered ahead of it (signed times): stale */
	e = swap_ev(8, 50, 100, 0, 0, 1000); mg_checker_event(c, &e);
	e = swap_ev(8, 50, 200, 100, 100, 2000); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 8, 50, 100, 1900); mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 5) && EQ(st->benign[MG_B_STALE_READ], 2),
	      "checker: swap at 2000 ns A->B, stat at 1900 ns showing A: a tolerated stale read "
	      "(faults %llu want 5, stale %llu want 2)", (unsigned long long)mg_checker_faults(c),
	      (unsigned long long)st->benign[MG_B_STALE_READ]);

	/* a getattr delayed across several updates (stale by three) within the window */
	e = swap_ev(16, 90, 100, 0, 0, 10000); mg_checker_event(c, &e);
	e = swap_ev(16, 90, 200, 100, 100, 10100); mg_checker_event(c, &e);
	e = swap_ev(16, 90, 300, 200, 200, 10200); mg_checker_event(c, &e);
	e = swap_ev(16, 90, 400, 300, 300, 10300); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 16, 90, 100, 10400); mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 5) && EQ(st->benign[MG_B_STALE_READ], 3),
	      "checker: a getattr stale by three updates within 1 s is tolerated (faults %llu, "
	      "stale %llu)", (unsigned long long)mg_checker_faults(c),
	      (unsigned long long)st->benign[MG_B_STALE_READ]);
	/* ... but a value replaced 2 s before the getattr's event is a regression */
	e = swap_ev(16, 90, 500, 400, 400, 10500); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 16, 90, 400, 10500 + 2000000000ull); mg_checker_event(c, &e);
	mg_checker_finish(c);	/* a held getattr is judged at the end */
	ASSERT_EQ(mg_checker_faults(c), 6, "checker: a value replaced 2 s before the read is a regression");

	/* torn getattr: the old seconds with the new nanoseconds, across a second boundary */
	e = swap_ev(9, 60, 999999000, 0, 0, 1000); mg_checker_event(c, &e);
	e = swap_ev(9, 61, 1000, 999999000, 999999000, 2000); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 9, 60, 1000, 2001); mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 6) && EQ(st->benign[MG_B_TORN_READ], 1),
	      "checker: a torn getattr (old sec, new nsec) is counted, not a fault");

	/* a swap whose seconds BPF could not tie to it is not judged */
	e = swap_ev(9, 1, 5, 1000, 1000, 2100); e.flags = MG_EVF_SEC_UNSURE; mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 6) && EQ(st->benign[MG_B_SEC_UNSURE], 1),
	      "checker: a swap with unsure seconds is counted, not judged");

	/* granularity: ext4 with 128-byte inodes keeps seconds (s_time_gran 1e9) */
	e = ev(MG_EV_STAT, 10, 70, 0, 3000); e.time_gran = 1000000000; mg_checker_event(c, &e);
	e = swap_ev(10, 70, 0, Q, Q, 3001); e.time_gran = 1000000000; mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 6) && EQ(st->benign[MG_B_GRANULARITY], 1),
	      "checker: an equal ctime after a query at 1 s granularity is not a fault");
	/* the same at 1 ns granularity is one */
	e = ev(MG_EV_STAT, 11, 70, 5, 3000); e.time_gran = 1; mg_checker_event(c, &e);
	e = swap_ev(11, 70, 5, 5 | Q, 5 | Q, 3001); e.time_gran = 1; mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 7) && EQ(st->violations[MG_V_NOT_LATER], 2),
	      "checker: an equal ctime after a query at 1 ns granularity is a violation");

	/* a stored ctime from 2035, replaced by the clock's 2026 time: not a fault */
	mg_checker_set_tai_offset(c, 37000000000ll);
	e = ev(MG_EV_STAT, 12, 2051222400, 0, 5000);	/* 2035-01-01 */
	e.tai_ns = 1796000000ull * 1000000000ull + 37000000000ull; mg_checker_event(c, &e);
	e = swap_ev(12, 1796000000, 7, Q, Q, 5001);	/* 2026-11 */
	e.tai_ns = 1796000000ull * 1000000000ull + 37000000010ull; mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 7) && EQ(st->benign[MG_B_FUTURE_CTIME], 1),
	      "checker: a stored ctime later than the clock, replaced, is not a fault");
	/* the same fall from a ctime the kernel's clock gave is a regression */
	e = swap_ev(13, 2051222400, 0, 0, 0, 5000);
	e.tai_ns = 1796000000ull * 1000000000ull + 37000000000ull; mg_checker_event(c, &e);
	e = swap_ev(13, 1796000000, 7, Q, Q, 5001); e.entry_ns = 5001;
	e.tai_ns = 1796000000ull * 1000000000ull + 37000000010ull; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 8, "checker: a fall from a clock-given future ctime is a fault");

	/* a 0.5 ms backward step seen in the events' own offsets explains a 0.3 ms fall */
	e = swap_ev(14, 80, 900000, 0, 0, 6000); e.tai_ns = 6000 + 1000000000000ull;
	mg_checker_event(c, &e);
	e = swap_ev(14, 80, 600000, 0, 0, 7000); e.tai_ns = 7000 + 1000000000000ull - 500000;
	e.entry_ns = 6500;
	mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 8) && EQ(st->explained[MG_V_REGRESSION], 2),
	      "checker: a fall within a small step seen in the event offsets is explained");
	/* ... but not a 2 ms fall */
	e = swap_ev(15, 80, 3000000, 0, 0, 6000); e.tai_ns = 6000 + 1000000000000ull;
	mg_checker_event(c, &e);
	e = swap_ev(15, 80, 1000000, 0, 0, 7000); e.tai_ns = 7000 + 1000000000000ull - 500000;
	e.entry_ns = 6500;
	mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 9, "checker: a fall larger than the step is a fault");
	/* an equal ctime after a query whose events' offsets differ by read jitter (60 ns
	 * lower, no step): not explained (every other one was, a real run of tmpfs unlinks) */
	{
		struct mg_checker *j = mg_checker_new(16, 8);
		const struct mg_check_stats *js = j ? mg_checker_stats(j) : NULL;

		if (!j) { CHECK(0, "checker: a second checker"); return; }
		e = ev(MG_EV_STAT, 1, 90, 5, 7100); e.time_gran = 1;
		e.tai_ns = 7100 + 1000000000000ull; mg_checker_event(j, &e);
		e = swap_ev(1, 90, 5, 5 | Q, 5 | Q, 7200); e.time_gran = 1;
		e.tai_ns = 7200 + 1000000000000ull - 60; mg_checker_event(j, &e);
		CHECK(EQ(mg_checker_faults(j), 1) && EQ(js->explained[MG_V_NOT_LATER], 0),
		      "checker: an offset 60 ns lower (read jitter) explains no equal ctime after a "
		      "query (explained %llu)", (unsigned long long)js->explained[MG_V_NOT_LATER]);
		/* must-fail direction: 20 us lower is a step, which explains it */
		e = ev(MG_EV_STAT, 2, 90, 5, 7300); e.time_gran = 1;
		e.tai_ns = 7300 + 1000000000000ull; mg_checker_event(j, &e);
		e = swap_ev(2, 90, 5, 5 | Q, 5 | Q, 7400); e.time_gran = 1;
		e.tai_ns = 7400 + 1000000000000ull - 20000; mg_checker_event(j, &e);
		CHECK(EQ(mg_checker_faults(j), 1) && EQ(js->explained[MG_V_NOT_LATER], 1),
		      "checker: an offset 20 us lower between the two events explains it");
		/* judged in BPF the offsets are not used (the clock brackets report steps) */
		mg_checker_judged_in_bpf(j);
		e = ev(MG_EV_STAT, 3, 90, 5, 7500); e.time_gran = 1;
		e.tai_ns = 7500 + 1000000000000ull; mg_checker_event(j, &e);
		e = swap_ev(3, 90, 5, 5 | Q, 5 | Q, 7600); e.time_gran = 1;
		e.tai_ns = 7600 + 1000000000000ull - 20000; mg_checker_event(j, &e);
		CHECK(EQ(js->explained[MG_V_NOT_LATER], 1), "checker: judged in BPF, the events' "
		      "offsets explain nothing (explained %llu)",
		      (unsigned long long)js->explained[MG_V_NOT_LATER]);
		mg_checker_free(j);
	}

	/* floor: mg_floor lower at exit than at entry is a move back */
	e = ev(MG_EV_FLOOR_SWAP, 0, 80, 1, 8000); e.floor_known = 1;
	e.floor_before = 5000; e.floor_after = 6000; mg_checker_event(c, &e);
	CHECK(EQ(mg_checker_faults(c), 9) && EQ(st->floor_checked, 1), "checker: a floor moving on passes");
	e.floor_before = 6000; e.floor_after = 5999; mg_checker_event(c, &e);
	CHECK(EQ(st->violations[MG_V_FLOOR_BACKWARD], 1) && EQ(mg_checker_faults(c), 10),
	      "checker: a floor moving back is a violation");
	/* an unnecessary fine stamp (decided in BPF) */
	e = ev(MG_EV_FLOOR_SWAP, 0, 80, 1, 8001);
	e.flags = MG_EVF_IN_SET_CTIME | MG_EVF_FINE_NEEDED; mg_checker_event(c, &e);
	e.flags = MG_EVF_IN_SET_CTIME; mg_checker_event(c, &e);
	CHECK(EQ(st->fine_checked, 1) && EQ(st->fine_undecided, 3) && EQ(mg_checker_faults(c), 10),
	      "checker: needed and undecided fine stamps pass (the two floor events above, "
	      "outside a known inode_set_ctime_current, are undecided too)");
	e.flags = MG_EVF_IN_SET_CTIME | MG_EVF_FINE_UNNEEDED; mg_checker_event(c, &e);
	CHECK(EQ(st->violations[MG_V_FINE_UNNEEDED], 1) && EQ(mg_checker_faults(c), 11),
	      "checker: an unnecessary fine stamp is a violation");

	/* overlapping updates: the later swap began before the earlier value's event */
	e = swap_ev(3, 20, 500, 0, 0, 20000); mg_checker_event(c, &e);
	e = swap_ev(3, 20, 400, 500, 500, 20100); e.entry_ns = 19990; mg_checker_event(c, &e);
	ASSERT_EQ(st->benign[MG_B_CONCURRENT], 1, "checker: an older ctime from an overlapping update "
		  "is counted as concurrent");
	e = swap_ev(3, 20, 300, 400, 400, 20200); mg_checker_event(c, &e);
	ASSERT_EQ(st->benign[MG_B_CONCURRENT_UNDECIDED], 1, "checker: without the entry time it is "
		  "undecided within 1 s");
	e = swap_ev(3, 20, 200, 300, 300, 20300); e.entry_ns = 20250; mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 12, "checker: an older ctime from an update that began after "
		  "the newer value's event is a regression");

	/* a getattr of a concurrent update's value, delivered before that update's swap */
	e = swap_ev(4, 30, 900, 0, 0, 30000); mg_checker_event(c, &e);
	e = ev(MG_EV_STAT, 4, 30, 800, 30050); mg_checker_event(c, &e);
	e = swap_ev(4, 30, 800, 900, 900, 30100); e.entry_ns = 29990; mg_checker_event(c, &e);
	ASSERT_EQ(st->benign[MG_B_CONCURRENT_READ], 1, "checker: a getattr of a concurrent "
		  "update's value delivered before its swap is counted, not a fault");
	ASSERT_EQ(mg_checker_faults(c), 12, "checker: ... and no fault");
	/* a getattr of an older value no update installed: undecided within 1 s ... */
	e = ev(MG_EV_STAT, 4, 30, 700, 30200); mg_checker_event(c, &e);
	mg_checker_finish(c);
	ASSERT_EQ(st->benign[MG_B_UNSEEN], 1, "checker: an older getattr with no swap behind it, "
		  "within 1 s of the newer value, is undecided");
	/* ... and a regression 2 s after the newer value */
	e = ev(MG_EV_STAT, 4, 30, 600, 30200 + 2000000000ull); mg_checker_event(c, &e);
	mg_checker_finish(c);
	ASSERT_EQ(mg_checker_faults(c), 13, "checker: an older getattr with no swap behind it, "
		  "2 s after the newer value, is a regression");

	/* a skip delivered after the swap that replaced the value it decided on: stale */
	e = swap_ev(2, 60, 100, 0, 0, 40000); mg_checker_event(c, &e);
	e = swap_ev(2, 60, 200, 100, 100, 40100); mg_checker_event(c, &e);
	e = ev(MG_EV_CTIME_SKIP, 2, 60, 100, 40050); mg_checker_event(c, &e);
	ASSERT_EQ(mg_checker_faults(c), 13, "checker: a skip delivered after the swap that replaced "
		  "its value is a stale observation, not a regression");

	/* a reordered swap's value, then a getattr of it: the inode held it, a stale read */
	e = swap_ev(5, 70, 100, 0, 0, 50000); mg_checker_event(c, &e);
	e = swap_ev(5, 70, 300, 200, 200, 50100); mg_checker_event(c, &e);	/* replaced 200 */
	e = swap_ev(5, 70, 200, 100, 100, 50050); mg_checker_event(c, &e);	/* reordered */
	e = ev(MG_EV_STAT, 5, 70, 200, 50060); mg_checker_event(c, &e);
	mg_checker_finish(c);
	ASSERT_EQ(mg_checker_faults(c), 13, "checker: a getattr of a reordered swap's value is a "
		  "stale read");

	/* lost events are counted (the verdict turns inconclusive in check.c) */
	mg_checker_lost(c, 3);
	ASSERT_EQ(st->lost, 3, "checker: lost events are counted");
	mg_checker_free(c);

	/* the inode bound: events beyond it are untracked, not dropped silently */
	c = mg_checker_new(2, 1);
	for (int i = 0; i < 4; i++) {
		e = ev(MG_EV_STAT, 100 + i, 1, 1, i);
		mg_checker_event(c, &e);
	}
	st = mg_checker_stats(c);
	CHECK(EQ(st->inodes, 2) && EQ(st->untracked_events, 2), "checker: 2 inodes tracked, 2 events untracked");
	mg_checker_free(c);
}

/* ---- floor figures, gates, baseline, verdict ---- */

/* Write text to a fresh temporary file; its path in path (a mkstemp template). */
static void write_tmp(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs(text, f);
	fclose(f);
}

/*
 * --baseline's workload identity (baseline.c): a report of another COMMAND, of the
 * built-in workload against a COMMAND, or of the built-in workload with other threads
 * or rate is refused; the same argv or parameters pass whatever the duration; another
 * kernel or filesystem only warns.
 */
static void test_baseline_workload(void)
{
	char pc[] = "/tmp/mgtrace-unit-XXXXXX", pb[] = "/tmp/mgtrace-unit-XXXXXX";
	char *argv_same[] = { "sh", "-c", "touch x\n\xff", NULL };
	char *argv_other[] = { "sh", "-c", "touch y", NULL };
	char *argv_more[] = { "sh", "-c", "touch x\n\xff", "", NULL };
	struct mg_workload_id cmd, bi, now = { 0 };
	struct mg_figures fig;
	char err[600], warn[600];
	json_t *a;
	char *s;

	/* the report's own encoding of an argv that is not valid UTF-8 */
	a = mg_argv_json(argv_same);
	s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	{
		char text[400];

		snprintf(text, sizeof(text), "{\"schema_version\":1,\"type\":\"check\",\"kernel_release\":\"6.18.0\","
			 "\"workload\":\"command\",\"command\":%s,\"duration_s\":0.01,"
			 "\"floor_figures\":{\"floor_swaps_per_sec\":5}}\n", s);
		write_tmp(pc, text);
	}
	free(s);
	write_tmp(pb, "{\"schema_version\":1,\"type\":\"check\",\"kernel_release\":\"6.18.0\",\"workload\":\"built-in\","
		  "\"workload_dir\":{\"dev\":\"0:39\",\"mount\":null,\"fs\":\"tmpfs\"},"
		  "\"workload_params\":{\"threads\":2,\"files_per_thread\":2,\"rate_per_thread\":20000},"
		  "\"duration_s\":3.0,\"floor_figures\":{\"floor_swaps_per_update\":0.4}}\n");
	ASSERT_EQ(mg_baseline_load(pc, &fig, &cmd, err, sizeof(err)), 0, "baseline: a COMMAND report "
		  "loads: %s", err);
	ASSERT_EQ(mg_baseline_load(pb, &fig, &bi, err, sizeof(err)), 0, "baseline: a built-in "
		  "report loads: %s", err);
	CHECK(IS_TRUE(cmd.command) && IS_TRUE(bi.have_params) && EQ(bi.threads, 2) &&
	      EQ(bi.files, 2) && EQ(bi.rate, 20000) && !strcmp(bi.fs, "tmpfs") &&
	      !strcmp(bi.release, "6.18.0"), "baseline: the identity is read (fs %s)", bi.fs);

	/* COMMAND: the same argv (escaped bytes included) passes, silently */
	snprintf(now.release, sizeof(now.release), "6.18.0");
	now.command = true;
	now.argv = mg_argv_json(argv_same);
	CHECK(EQ(mg_workload_id_compare(pc, &cmd, &now, err, sizeof(err), warn, sizeof(warn)), 0) &&
	      EQ(warn[0], 0), "baseline: the same COMMAND passes (%s)", warn);
	mg_workload_id_free(&now);
	now.argv = mg_argv_json(argv_other);
	CHECK(EQ(mg_workload_id_compare(pc, &cmd, &now, err, sizeof(err), warn, sizeof(warn)),
		 -EINVAL) && strstr(err, "is of another workload") && strstr(err, "touch y") &&
	      !strchr(err, '\n'), "baseline: another COMMAND is refused in one line: %s", err);
	mg_workload_id_free(&now);
	now.argv = mg_argv_json(argv_more);
	ASSERT_EQ(mg_workload_id_compare(pc, &cmd, &now, err, sizeof(err), warn, sizeof(warn)),
		  -EINVAL, "baseline: an argv with one more (empty) argument is another COMMAND");
	mg_workload_id_free(&now);

	/* built-in against a COMMAND, both ways */
	now = (struct mg_workload_id){ .have_params = true, .threads = 2, .files = 2, .rate = 20000 };
	snprintf(now.release, sizeof(now.release), "6.18.0");
	snprintf(now.fs, sizeof(now.fs), "tmpfs");
	ASSERT_EQ(mg_workload_id_compare(pc, &cmd, &now, err, sizeof(err), warn, sizeof(warn)),
		  -EINVAL, "baseline: a COMMAND's report cannot gate the built-in workload");
	CHECK(strstr(err, "COMMAND [\"sh\",\"-c\",\"touch x\\n\\\\xff\"]") != NULL,
	      "baseline: the refusal shows the argv as JSON: %s", err);
	/* built-in: same parameters pass (the duration is not compared); others are refused */
	CHECK(EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)), 0) &&
	      EQ(warn[0], 0), "baseline: the same built-in workload passes (%s)", warn);
	now.threads = 1;
	CHECK(EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)),
		 -EINVAL) && strstr(err, "2 threads") && strstr(err, "1 threads"),
	      "baseline: other --threads are another workload: %s", err);
	now.threads = 2;
	now.rate = 0;
	ASSERT_EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)),
		  -EINVAL, "baseline: another --rate is another workload");
	now.rate = 20000;
	now.files = 3;
	ASSERT_EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)),
		  -EINVAL, "baseline: other files per thread are another workload");
	now.files = 2;
	/* another kernel or filesystem: accepted, with one line naming both */
	snprintf(now.release, sizeof(now.release), "6.19.0");
	snprintf(now.fs, sizeof(now.fs), "xfs");
	CHECK(EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)), 0) &&
	      strstr(warn, "kernel 6.18.0 (this run: 6.19.0)") &&
	      strstr(warn, "filesystem tmpfs (this run: xfs)") && !strchr(warn, '\n'),
	      "baseline: another kernel and filesystem warn, not refuse: %s", warn);
	/* an older report without the parameters: accepted, with a warning */
	bi.have_params = false;
	snprintf(now.release, sizeof(now.release), "6.18.0");
	snprintf(now.fs, sizeof(now.fs), "tmpfs");
	CHECK(EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)), 0) &&
	      strstr(warn, "does not record"), "baseline: no parameters recorded: a warning: %s",
	      warn);
	mg_workload_id_free(&cmd);
	mg_workload_id_free(&bi);
	unlink(pc);
	unlink(pb);
}

/*
 * run.c's stop signals: one raised while blocked (a SIGTERM during the load) is taken by
 * mg_run_stop_pending() and recorded; COMMAND's status is the signal's only for a signal
 * taken (killed by it, or exit 128+N), never for another.
 */
static void test_run_stop_signals(void)
{
	struct mg_run r;

	memset(&r, 0, sizeof(r));
	mg_run_block_signals(&r);
	CHECK(mg_run_stop_pending(&r) == 0 && !r.stop_sig, "run: no stop signal pending at first");
	raise(SIGTERM);		/* blocked: pending, not a death */
	CHECK(mg_run_stop_pending(&r) == SIGTERM && r.stop_sig == SIGTERM && r.stop_ns > 0,
	      "run: a SIGTERM raised while blocked is taken and recorded (stop_sig %d)", r.stop_sig);
	CHECK(mg_run_stop_pending(&r) == 0, "run: ... once");
	sigprocmask(SIG_SETMASK, &r.oldmask, NULL);
	CHECK(!strcmp(mg_signal_name(SIGINT), "SIGINT") && !strcmp(mg_signal_name(SIGHUP), "SIGHUP"),
	      "run: signal names: %s", mg_signal_name(SIGINT));
	memset(&r, 0, sizeof(r));
	r.child = 1;
	r.child_done = true;
	r.child_status = 128 + SIGINT;
	CHECK(!mg_run_status_from_stop(&r), "run: must-fail direction: 130 without a SIGINT taken "
	      "is COMMAND's own status");
	r.stop_sig = SIGINT;
	r.stop_sigs = 1ull << SIGINT;
	CHECK(mg_run_status_from_stop(&r), "run: 130 after a SIGINT taken is the signal's");
	r.child_status = 128 + SIGTERM;
	CHECK(!mg_run_status_from_stop(&r), "run: 143 after only a SIGINT is not the signal's");
	r.child_status = 1;
	CHECK(!mg_run_status_from_stop(&r), "run: status 1 after a SIGINT is not the signal's");
}

/* A run a signal cut short: never a PASS; a violation, a gate or COMMAND's own failure still FAIL. */
static void test_verdict_interrupted(void)
{
	struct mg_verdict v;
	char why[200];

	mg_verdict_interrupt_text(why, sizeof(why), "SIGINT", 0.15, 5, NULL);
	CHECK(!strcmp(why, "interrupted by SIGINT after 0.15 s of 5 s: the workload did not run to "
		      "its end"), "verdict: the built-in interruption line: %s", why);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .interrupted = why });
	ASSERT_EQ(v.code, 4, "verdict: an interrupted clean run is INCONCLUSIVE (%s)", v.reason);
	CHECK(v.interrupted && !strcmp(v.reason, why), "verdict: its reason is the line: %s",
	      v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5 });
	CHECK(v.code == 0 && !v.interrupted, "verdict: must-fail direction: the same run not "
	      "interrupted is a PASS (%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .faults = 1, .interrupted = why });
	ASSERT_EQ(v.code, 1, "verdict: a violation seen before the signal still FAILs (%s)", v.reason);
	CHECK(strstr(v.reason, "1 violation(s)") && strstr(v.reason, why) && !v.interrupted,
	      "verdict: ... its reason names both: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .gates_failed = 1,
						       .interrupted = why });
	ASSERT_EQ(v.code, 1, "verdict: a failed floor gate before the signal still FAILs (%s)",
		  v.reason);
	mg_verdict_interrupt_text(why, sizeof(why), "SIGTERM", 1.5, -1,
				  &(struct mg_cmd_end){ .status = 0, .after_stop_s = 8.7 });
	CHECK(!strcmp(why, "interrupted by SIGTERM after 1.50 s: COMMAND, sent the signal, exited "
		      "8.70 s later with status 0: whether it cut its work short is not known"),
	      "verdict: COMMAND that exited after the signal is not said to have been cut: %s", why);
	mg_verdict_interrupt_text(why, sizeof(why), "SIGTERM", 1.5, -1,
				  &(struct mg_cmd_end){ .abandoned = true });
	CHECK(strstr(why, "not even after SIGKILL") && strstr(why, "without its status"),
	      "verdict: COMMAND that SIGKILL did not end: %s", why);
	mg_verdict_interrupt_text(why, sizeof(why), "SIGINT", 1.5, -1,
				  &(struct mg_cmd_end){ .signal = 2, .status = 130, .after_stop_s = 0.01 });
	CHECK(!strcmp(why, "interrupted by SIGINT after 1.50 s: COMMAND was killed by SIGINT 0.01 s "
		      "later and did not run to its end"), "verdict: the COMMAND interruption line: %s",
	      why);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .command = true,
						       .command_status = 130, .interrupted = why,
						       .status_from_signal = true });
	ASSERT_EQ(v.code, 4, "verdict: COMMAND's 130 from the interrupting SIGINT is not a COMMAND "
		  "failure: INCONCLUSIVE (%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .command = true,
						       .command_status = 3, .interrupted = why });
	ASSERT_EQ(v.code, 1, "verdict: COMMAND's own status 3 after the signal still FAILs (%s)",
		  v.reason);
	CHECK(strstr(v.reason, "status 3") && strstr(v.reason, why), "verdict: ... and says both: %s",
	      v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .command = true,
						       .command_status = 130 });
	ASSERT_EQ(v.code, 1, "verdict: COMMAND killed by a signal mgtrace did not take FAILs (%s)",
		  v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .lost = 2, .interrupted = why });
	CHECK(v.code == 4 && strstr(v.reason, "also 2 event(s) lost"),
	      "verdict: interrupted with events lost: INCONCLUSIVE, both said: %s", v.reason);
	test_run_stop_signals();
}

/* An incomplete run's reason names the bound each loss hit and the option that raises it. */
static void test_verdict_hints(void)
{
	struct mg_verdict v;

	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .untracked = 3,
						       .max_inodes = 8000, .ringbuf_bytes = 4096 });
	ASSERT_EQ(v.code, 4, "verdict: untracked events: INCONCLUSIVE (%s)", v.reason);
	CHECK(strstr(v.reason, "inode map was full: 8000 inode(s), raise --max-inodes)") &&
	      !strstr(v.reason, "--ringbuf-size"),
	      "verdict: untracked names --max-inodes, not the ring buffer: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .lost = 2,
						       .max_inodes = 8000, .ringbuf_bytes = 4096 });
	CHECK(v.code == 4 && strstr(v.reason, "(the ring buffer of 4096 bytes was full, raise "
				     "--ringbuf-size)") && !strstr(v.reason, "--max-inodes"),
	      "verdict: lost names --ringbuf-size only: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .lost = 2, .untracked = 1,
						       .max_inodes = 8000, .ringbuf_bytes = 4096 });
	CHECK(strstr(v.reason, "raise --max-inodes; the ring buffer of 4096 bytes was full, "
			       "raise --ringbuf-size)"), "verdict: both bounds named: %s", v.reason);
	/* must-fail direction: skipped BPF runs hit no bound an option raises: no hint */
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .missed = 4,
						       .max_inodes = 8000, .ringbuf_bytes = 4096 });
	CHECK(v.code == 4 && !strstr(v.reason, "raise"), "verdict: skipped runs only: no hint: %s",
	      v.reason);
}

static void test_verdict(void)
{
	struct mg_figures now = { 0 }, base = { 0 };
	struct mg_gate g[MG_F_NR];
	double off[MG_F_NR] = { -1, -1, -1, -1 }, lim[MG_F_NR] = { 0.7, -1, -1, -1 };
	struct mg_verdict v;
	char path[] = "/tmp/mgtrace-unit-XXXXXX", err[300];
	struct mg_workload_id bid;
	FILE *f;
	int fd;

	now.f[MG_F_SWAPS_PER_UPDATE] = (struct mg_fig){ .have = true, .value = 0.99 };
	now.f[MG_F_FINE_PER_UPDATE] = (struct mg_fig){ .have = true, .value = 1.0 };
	now.f[MG_F_SWAPS_PER_SEC] = (struct mg_fig){ .have = true, .value = 300000 };
	now.f[MG_F_FAIL_RATIO] = (struct mg_fig){ .have = true, .value = 0.001 };
	CHECK(EQ(mg_gates_eval(g, &now, off, NULL, 1.5), 0) && EQ(g[0].result, -1),
	      "verdict: no gate by default, a swap ratio of 0.99 passes (got %d)", g[0].result);
	CHECK(EQ(mg_gates_eval(g, &now, lim, NULL, 1.5), 1) && EQ(g[0].result, 0),
	      "verdict: --max-floor-swap-ratio 0.7 fails 0.99");
	/* a baseline of the same workload: equal passes, growth past factor x base + slack fails */
	base = now;
	CHECK(EQ(mg_gates_eval(g, &now, off, &base, 1.5), 0), "verdict: the baseline itself passes");
	base.f[MG_F_SWAPS_PER_UPDATE].value = 0.1;
	CHECK(EQ(mg_gates_eval(g, &now, off, &base, 1.5), 1) && EQ(g[0].result, 0) &&
	      GT(g[0].allowed, 0.169) && LT(g[0].allowed, 0.171),
	      "verdict: 0.99 swaps/update against a baseline of 0.1 fails (allowed %g, want 0.17)",
	      g[0].allowed);
	base.f[MG_F_FAIL_RATIO].value = 0;
	now.f[MG_F_FAIL_RATIO].value = 0.005;
	mg_gates_eval(g, &now, off, &base, 1.5);
	ASSERT_EQ(g[MG_F_FAIL_RATIO].result, 1, "verdict: a baseline of 0 allows the slack (0.005 <= 0.02)");
	now.f[MG_F_FINE_PER_UPDATE].have = false;
	mg_gates_eval(g, &now, off, &base, 1.5);
	CHECK(EQ(g[MG_F_FINE_PER_UPDATE].result, -1), "verdict: an unavailable figure is not evaluated");

	/* baseline files */
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fprintf(f, "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\",\"floor_figures\":"
		   "{\"floor_swaps_per_update\":0.25,\"floor_swaps_per_sec\":12.5}}\n");
	fclose(f);
	CHECK(EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), 0) &&
	      IS_TRUE(base.f[MG_F_SWAPS_PER_UPDATE].have) &&
	      EQ(base.f[MG_F_SWAPS_PER_UPDATE].value, 0.25) &&
	      IS_FALSE(base.f[MG_F_FINE_PER_UPDATE].have) && IS_FALSE(bid.command) &&
	      IS_FALSE(bid.have_params), "verdict: a check report loads as a baseline");
	mg_workload_id_free(&bid);
	f = fopen(path, "w");
	fprintf(f, "{\"type\":\"stat\"}\n");
	fclose(f);
	CHECK(EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -EINVAL),
	      "verdict: a stat report is refused as a baseline: %s", err);
	f = fopen(path, "w");
	fprintf(f, "{\"schema_version\":1,\"type\":\"check\",\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n");
	fclose(f);
	CHECK(EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -EINVAL) &&
	      strstr(err, "does not record its workload"),
	      "verdict: a check report without its workload is refused: %s", err);
	{	/* what makes a report no baseline: each refused in one line, the good one loads */
		static const struct { const char *text, *why; } bad[] = {
			{ "{\"schema_version\":2,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n", "schema_version 2" },
			{ "{\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n", "no schema_version" },
			{ "{\"schema_version\":\"1\",\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n", "schema_version \"1\"" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":\"1\"}}\n", "of the wrong type" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1},\"floor_figures\":{}}\n",
			  "duplicate object key" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":-1}}\n", "floor_swaps_per_sec -1" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1e300}}\n", "1e+300" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"test_hook\":\"x\",\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n", "test hook" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n{\"type\":\"check\"}\n",
			  "is not JSON" },
		};
		size_t k;

		for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			f = fopen(path, "w");
			fputs(bad[k].text, f);
			fclose(f);
			CHECK(EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -EINVAL) &&
			      strstr(err, bad[k].why) && !strchr(err, '\n'),
			      "baseline: refused, case %zu (want '%s'): %s", k, bad[k].why, err);
		}
		f = fopen(path, "w");
		fputs("{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\",\"test_hook\":false,"
		      "\"floor_figures\":{\"floor_swaps_per_sec\":1,\"floor_cmpxchg_fail_ratio\":null},"
		      "\"floor_figures_unavailable\":{\"floor_cmpxchg_fail_ratio\":\"no fine stamps\"}}\n", f);
		fclose(f);
		ASSERT_EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), 0,
			  "baseline: a report with a null figure loads: %s", err);
		mg_workload_id_free(&bid);
		mg_gates_eval(g, &now, off, &base, 2);
		CHECK(EQ(g[MG_F_FAIL_RATIO].result, -1) &&
		      strstr(g[MG_F_FAIL_RATIO].why, "no baseline gate: unavailable in the baseline: "
			     "no fine stamps") && EQ(g[MG_F_SWAPS_PER_SEC].result, 0),
		      "baseline: a figure null in the baseline says why it is not gated (%s)",
		      g[MG_F_FAIL_RATIO].why);
		CHECK(GT(mg_baseline_slack(MG_F_FAIL_RATIO), 0.099) &&
		      LT(mg_baseline_slack(MG_F_SWAPS_PER_UPDATE), 0.021),
		      "baseline: the cmpxchg-failure ratio has its own slack (0.1), the others 0.02");
	}
	unlink(path);
	ASSERT_EQ(mkdir(path, 0700), 0, "baseline: a directory made to be refused");
	CHECK(EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -EISDIR),
	      "baseline: a directory is -EISDIR: %s", err);
	rmdir(path);
	CHECK(EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -ENOENT),
	      "verdict: a missing baseline is -ENOENT: %s", err);
	test_baseline_workload();

	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5 });
	ASSERT_EQ(v.code, 0, "verdict: nothing wrong is PASS");
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .gates_failed = 1 });
	ASSERT_EQ(v.code, 1, "verdict: a failed gate is FAIL");
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .lost = 1 });
	ASSERT_EQ(v.code, 4, "verdict: lost events are INCONCLUSIVE");
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .missed = 3 });
	ASSERT_EQ(v.code, 4, "verdict: BPF runs the kernel skipped are INCONCLUSIVE (%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .step_undecided = 2 });
	ASSERT_EQ(v.code, 4, "verdict: violations near a clock step of their size are INCONCLUSIVE "
		  "(%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .faults = 1, .step_undecided = 2 });
	ASSERT_EQ(v.code, 1, "verdict: ... and a fault beside them still FAILs (%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .lock_failed = 1 });
	ASSERT_EQ(v.code, 4, "verdict: an event whose inode lock failed is INCONCLUSIVE (%s)", v.reason);
	CHECK(strstr(v.reason, "1 not judged (inode lock failed)") != NULL,
	      "verdict: the reason counts it: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .command = true,
						       .command_status = 2 });
	ASSERT_EQ(v.code, 1, "verdict: a failed COMMAND is FAIL (%s)", v.reason);
	test_verdict_interrupted();
	test_verdict_hints();
}

/*
 * The ordering judge fed as check feeds it (order.c): three threads' modifications in
 * each thread's order, a piece at a time, judged up to the frontier (the least latest
 * end over the threads), finds what a brute-force pass over the whole run finds, and
 * holds only the ops around the frontier. Pseudo-random runs with regressions.
 */
static void test_order_stream(void)
{
	enum { T = 3, N = 6000 };
	static struct mg_op ops[N];
	unsigned int seed = 777;
	uint64_t now[T] = { 0 }, found = 0, f, brute = 0, taken, judged, frontier;
	size_t idx[T] = { 0 }, held, i, j, per = N / T, skew = 0;
	struct mg_checker *c = mg_checker_new(4, 4);
	struct mg_order *o = mg_order_new();
	int64_t s;
	int err = 0;

	/* thread t's ops are ops[t * per ...], sequential in time, with overlaps across threads */
	for (i = 0; i < N; i++) {
		size_t t = i / per;
		uint64_t start = now[t] + 1 + (uint64_t)(rand_r(&seed) % 50);
		uint64_t end = start + 1 + (uint64_t)(rand_r(&seed) % 100);

		now[t] = end;
		/* stamped within its own window, as a correct kernel does; now and then earlier */
		s = 1000000 + (int64_t)(start + (uint64_t)rand_r(&seed) % (end - start));
		if (rand_r(&seed) % 300 == 0)
			s -= 500;
		ops[i] = (struct mg_op){ .start_ns = start, .end_ns = end,
					 .ctime = { (int64_t)(s / 1000), (uint32_t)(s % 1000) },
					 .mtime = { (int64_t)(s / 1000), (uint32_t)(s % 1000) },
					 .ino = t + 1, .thread = (uint32_t)t };
	}
	for (i = 0; i < N; i++) {	/* brute force: B against every A that ended before it */
		struct mg_ts mc = { -1, 0 }, mm = { -1, 0 };

		for (j = 0; j < N; j++)
			if (ops[j].end_ns < ops[i].start_ns) {
				if (mg_ts_cmp(ops[j].ctime, mc) > 0)
					mc = ops[j].ctime;
				if (mg_ts_cmp(ops[j].mtime, mm) > 0)
					mm = ops[j].mtime;
			}
		brute += mg_ts_cmp(ops[i].ctime, mc) < 0 || mg_ts_cmp(ops[i].mtime, mm) < 0;
	}
	while (!err && (idx[0] < per || idx[1] < per || idx[2] < per)) {
		size_t t = (size_t)rand_r(&seed) % T, k = 1 + (size_t)rand_r(&seed) % 40;

		for (; k && idx[t] < per; k--, idx[t]++)
			err = err ?: mg_order_add(o, &ops[t * per + idx[t]]);
		frontier = UINT64_MAX;
		for (j = 0; j < T; j++) {
			uint64_t e = idx[j] ? ops[j * per + idx[j] - 1].end_ns : 0;

			frontier = e < frontier ? e : frontier;
		}
		err = err ?: mg_order_run(o, c, frontier, UINT64_MAX, &f);
		found += f;
		for (j = 0; j < T; j++)
			for (size_t m = 0; m < T; m++)
				skew = idx[j] > idx[m] + skew ? idx[j] - idx[m] : skew;
	}
	err = err ?: mg_order_run(o, c, UINT64_MAX, UINT64_MAX, &f);
	found += f;
	mg_order_counts(o, &taken, &judged, &held);
	CHECK(EQ(err, 0) && GT(brute, 5) && EQ(found, brute) && EQ(judged, N),
	      "order: judged a piece at a time to the frontier, %llu violations as brute force "
	      "finds (%llu), all %llu judged", (unsigned long long)found,
	      (unsigned long long)brute, (unsigned long long)judged);
	CHECK(LT(held, T * skew + 200), "order: at most %zu of %d ops held at once: the ops around "
	      "the frontier (threads up to %zu ops apart in this feed), not the run", held, N, skew);
	CHECK(EQ(mg_order_check(c, ops, N), (int64_t)brute),
	      "order: all at once, the same count (must-fail direction: GT(brute, 5) above)");
	mg_order_free(o);
	mg_checker_free(c);
}

static void test_order_check(void)
{
	struct mg_checker *c = mg_checker_new(4, 4);
	struct mg_op ok[] = {
		{ .start_ns = 10, .end_ns = 20, .ctime = { 5, 100 }, .mtime = { 5, 100 }, .ino = 1, .thread = 0 },
		{ .start_ns = 15, .end_ns = 25, .ctime = { 5, 90 }, .mtime = { 5, 90 }, .ino = 2, .thread = 1 },
		{ .start_ns = 30, .end_ns = 40, .ctime = { 5, 100 }, .mtime = { 5, 100 }, .ino = 2, .thread = 1 },
	};
	struct mg_op bad[] = {
		{ .start_ns = 10, .end_ns = 20, .ctime = { 5, 100 }, .mtime = { 5, 100 }, .ino = 1, .thread = 0,
		  .tid = 4242, .comm = "wl-a" },
		{ .start_ns = 30, .end_ns = 40, .ctime = { 5, 99 }, .mtime = { 5, 100 }, .ino = 2, .thread = 1,
		  .tid = 4243, .comm = "wl-b" },
		{ .start_ns = 50, .end_ns = 60, .ctime = { 6, 0 }, .mtime = { 4, 0 }, .ino = 3, .thread = 0 },
	};
	const struct mg_violation *v;
	size_t n;

	/* overlapping ops may be in any order; equal stamps after completion are allowed */
	CHECK(EQ(mg_order_check(c, ok, 3), 0), "order: overlap and equal stamps pass");
	CHECK(EQ(mg_order_check(c, bad, 3), 2), "order: an earlier ctime and an earlier mtime after completion fail");
	v = mg_checker_reports(c, &n);
	CHECK(EQ(n, 2) && EQ(v[0].kind, MG_V_ORDER) && STREQ(v[0].what, "ctime") &&
	      EQ(v[0].ino, 2) && STREQ(v[1].what, "mtime") && EQ(v[1].ino, 3), "order: reports name the file and the timestamp");
	CHECK(EQ(v[0].earlier.pid, 4242) && EQ(v[0].later.pid, 4243) && STREQ(v[0].earlier.comm, "wl-a") &&
	      STREQ(v[0].later.comm, "wl-b"), "order: reports name each side's thread id and comm, "
	      "not its workload index (%u %s, %u %s)", v[0].earlier.pid, v[0].earlier.comm,
	      v[0].later.pid, v[0].later.comm);
	mg_checker_free(c);
	test_order_stream();
}

#include "latency.h"

/* --latency math: percentile estimates, exact mean, bucket labels, bcc-style bars. */
static void test_latency_math(void)
{
	unsigned long long h[MG_LAT_SLOTS] = { 0 };
	struct mg_lat_stats st;
	uint64_t lo, hi;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	double p50;

	/* all 100 calls in [256, 512): ranks interpolate linearly inside the bucket */
	h[8] = 100;
	p50 = mg_lat_percentile(h, 0.50);
	CHECK(NEAR(p50, 384), "latency: p50 of 100 calls in [256,512) is 384 (got %g)", p50);
	CHECK(GE(fabs(p50 - 256), 1e-9) && GE(fabs(p50 - 511), 1e-9), "latency: a wrong p50 (256 or 511) fails the same comparison");
	CHECK(NEAR(mg_lat_percentile(h, 0.99), 509.44), "latency: p99 of 100 calls in [256,512) is 509.44 (got %g)",
	      mg_lat_percentile(h, 0.99));
	/* two buckets: rank 50 ends bucket 4, rank 99 is 49/50 into bucket 10 */
	memset(h, 0, sizeof(h));
	h[4] = 50;
	h[10] = 50;
	CHECK(NEAR(mg_lat_percentile(h, 0.50), 32), "latency: p50 of 50 in [16,32) + 50 in [1024,2048) is 32 (got %g)",
	      mg_lat_percentile(h, 0.50));
	CHECK(NEAR(mg_lat_percentile(h, 0.99), 2027.52), "latency: p99 of the same is 2027.52 (got %g)",
	      mg_lat_percentile(h, 0.99));
	/* one outlier among 100 stays out of p99 */
	memset(h, 0, sizeof(h));
	h[5] = 99;
	h[20] = 1;
	CHECK(NEAR(mg_lat_percentile(h, 0.99), 64) &&
	      NEAR(mg_lat_percentile(h, 0.50), 32 + 32 * 50 / 99.0),
	      "latency: 99 in [32,64) + 1 in [1M,2M): p99 64, p50 48.16 (got %g, %g)",
	      mg_lat_percentile(h, 0.99), mg_lat_percentile(h, 0.50));
	/* slot 0 is [0, 2) */
	memset(h, 0, sizeof(h));
	h[0] = 10;
	CHECK(NEAR(mg_lat_percentile(h, 0.50), 1), "latency: p50 of 10 calls in slot 0 ([0,2)) is 1");
	/* the mean is exact (sum/count), not taken from the buckets */
	memset(h, 0, sizeof(h));
	h[8] = 2;
	h[9] = 1;
	mg_lat_stats(&st, h, 3, 1000);
	CHECK(EQ(st.count, 3) && NEAR(st.mean_ns, 1000 / 3.0), "latency: mean of 3 calls summing 1000 ns is 333.33");
	memset(h, 0, sizeof(h));
	mg_lat_stats(&st, h, 0, 0);
	CHECK(IS_TRUE(isnan(st.mean_ns)) && IS_TRUE(isnan(st.p50_ns)) && IS_TRUE(isnan(st.p99_ns)),
	      "latency: an empty histogram has no mean or percentiles (NAN, null in JSON)");
	/* bcc's bucket labels */
	mg_lat_slot_label(0, &lo, &hi);
	CHECK(EQ(lo, 0) && EQ(hi, 1), "latency: slot 0 is labelled 0 -> 1");
	mg_lat_slot_label(1, &lo, &hi);
	CHECK(EQ(lo, 2) && EQ(hi, 3), "latency: slot 1 is labelled 2 -> 3");
	mg_lat_slot_label(8, &lo, &hi);
	CHECK(EQ(lo, 256) && EQ(hi, 511), "latency: slot 8 is labelled 256 -> 511");
	mg_lat_slot_label(63, &lo, &hi);
	CHECK(EQ(lo, 1ULL << 63) && EQ(hi, UINT64_MAX), "latency: slot 63 is labelled 2^63 -> 2^64-1");
	/* bars as libbpf-tools' print_log2_hist(): header, slots 0..last non-empty, 40 columns */
	h[1] = 5;
	h[8] = 10;
	f = open_memstream(&buf, &len);
	mg_lat_print_log2(f, h);
	fclose(f);
	CHECK(IS_TRUE(buf) &&
	      IS_TRUE(strstr(buf, "     nsecs               : count    distribution\n") == buf),
	      "latency: bcc header line");
	CHECK(IS_TRUE(buf) &&
	      STRSTR(buf, "\n       256 -> 511        : 10       |****************************************|\n"),
	      "latency: full bar for the largest bucket");
	CHECK(IS_TRUE(buf) &&
	      STRSTR(buf, "\n         2 -> 3          : 5        |********************                    |\n"),
	      "latency: half bar for half the count");
	CHECK(IS_TRUE(buf) && NO_STRSTR(buf, "512 -> 1023"), "latency: no rows after the last non-empty bucket");
	free(buf);
}


/* ---- escape.h: names and external bytes in output ---- */

/*
 * Decode a JSON string value by the documented rule (docs/json.md "Strings"):
 * "\\" is a backslash, "\xHH" the byte HH, everything else its UTF-8 bytes.
 * True when the result is exactly want[0..len).
 */
static bool json_decodes_to(const json_t *j, const char *want, size_t len)
{
	const char *s = json_string_value(j);
	size_t n = json_string_length(j), i = 0, o = 0;
	unsigned int hx;

	if (!s)
		return false;
	while (i < n) {
		char c = s[i];

		if (s[i] == '\\') {
			if (i + 1 < n && s[i + 1] == '\\') {
				i += 2;
			} else if (i + 3 < n && s[i + 1] == 'x' && sscanf(s + i + 2, "%2x", &hx) == 1) {
				c = (char)hx;
				i += 4;
			} else {
				return false;
			}
		} else {
			i++;
		}
		if (o >= len || want[o] != c)
			return false;
		o++;
	}
	return o == len;
}

/* Round trip through jansson's encoder and parser, then the documented decoding. */
static bool json_roundtrips(const char *b, size_t len)
{
	json_t *j = mg_json_str(b, len), *arr = json_array(), *back;
	char *txt;
	bool ok = false;

	if (!j || !arr)
		goto out;
	mg_json_append(arr, j);
	j = NULL;
	txt = json_dumps(arr, JSON_COMPACT);
	back = txt ? json_loads(txt, 0, NULL) : NULL;
	ok = back && json_decodes_to(json_array_get(back, 0), b, len);
	json_decref(back);
	free(txt);
out:
	json_decref(j);
	json_decref(arr);
	return ok;
}

static void test_utf8_names(void)
{
	static const struct { const char *s; size_t len, want; } cut[] = {
		{ "abc", 3, 3 },
		{ "a\xc3", 2, 1 },		/* 2-byte character cut after its lead byte */
		{ "a\xe2\x82", 3, 1 },		/* euro sign cut after 2 of 3 bytes */
		{ "\xf0\x9f\x98", 3, 0 },	/* emoji cut after 3 of 4 bytes */
		{ "\xe2\x82\xac", 3, 3 },	/* a whole euro sign stays */
		{ "a\xff", 2, 2 },		/* an invalid byte is not a cut: kept, escaped later */
		{ "a\xed\xa0", 3, 3 },		/* surrogate start: invalid, not a cut */
		{ "a\xe0\x80", 3, 3 },		/* overlong start: invalid, not a cut */
		{ "a\xf4\x90", 3, 3 },		/* beyond U+10FFFF: invalid, not a cut */
	};
	char euro12[37] = "", name[MG_NAME_LEN], comm[16];
	size_t i, n;
	bool cut_flag;

	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
		CHECK(EQ(mg_utf8_cut(cut[i].s, cut[i].len), cut[i].want), "utf8_cut case %zu: %zu bytes "
		      "kept of %zu (want %zu)", i, mg_utf8_cut(cut[i].s, cut[i].len), cut[i].len,
		      cut[i].want);

	/* twelve 3-byte characters (36 bytes) as the BPF buffer holds them: 31 bytes + NUL */
	for (i = 0; i < 12; i++)
		strcat(euro12, "\xe2\x82\xac");
	memcpy(name, euro12, MG_NAME_LEN - 1);
	name[MG_NAME_LEN - 1] = 0;
	CHECK(IS_FALSE(json_stringn(name, strlen(name))),
	      "the cut name is invalid UTF-8: jansson refuses it (why fields went missing)");
	n = mg_name_len(name, sizeof(name), 36, &cut_flag);
	CHECK(EQ(n, 30) && IS_TRUE(cut_flag), "name cut by the buffer: 10 whole characters (30 bytes), "
	      "truncated (got %zu, %d)", n, cut_flag);
	n = mg_name_len(name, sizeof(name), 31, &cut_flag);
	CHECK(EQ(n, 31) && IS_FALSE(cut_flag), "a 31-byte name that fits is neither cut nor marked (%zu, %d)",
	      n, cut_flag);
	memcpy(name, "abcdefghijklmnopqrstuvwxyz01234", 32);
	n = mg_name_len(name, sizeof(name), 40, &cut_flag);
	CHECK(EQ(n, 31) && IS_TRUE(cut_flag), "an ASCII name cut by the buffer keeps 31 bytes, truncated");
	/* comm: 15 bytes, no length known */
	memcpy(comm, "abcdefghijklmn\xc3", 16);
	n = mg_name_len(comm, sizeof(comm), 0, &cut_flag);
	CHECK(EQ(n, 14) && IS_TRUE(cut_flag), "comm split inside a character at 15 bytes: 14 kept, truncated");
	memcpy(comm, "abcdefghijklm\xc3\xa9", 16);
	n = mg_name_len(comm, sizeof(comm), 0, &cut_flag);
	CHECK(EQ(n, 15) && IS_FALSE(cut_flag), "comm ending in a whole character is kept whole");
	memcpy(comm, "abcdefghijklmn\xff", 16);
	n = mg_name_len(comm, sizeof(comm), 0, &cut_flag);
	CHECK(EQ(n, 15) && IS_FALSE(cut_flag), "comm ending in an invalid byte: kept (escaped), not a cut");
	memcpy(comm, "ab\xc3\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	n = mg_name_len(comm, sizeof(comm), 0, &cut_flag);
	CHECK(EQ(n, 3) && IS_FALSE(cut_flag), "a short comm ending in a lead byte was not cut: kept for \\xHH");
}

static void test_json_str(void)
{
	static const struct { const char *in; size_t len; const char *want; } cases[] = {
		{ "plain", 5, "plain" },
		{ "caf\xc3\xa9", 5, "caf\xc3\xa9" },
		{ "a\xff" "b", 3, "a\\xffb" },
		{ "back\\slash", 10, "back\\\\slash" },
		{ "\\xff", 4, "\\\\xff" },		/* literal text that looks like an escape */
		{ "quote\"", 6, "quote\"" },		/* JSON's own escaping handles quotes */
		{ "new\nline", 8, "new\nline" },	/* and control characters */
		{ "nul\0x", 5, "nul\\x00x" },
		{ "\xc0\xaf", 2, "\\xc0\\xaf" },	/* overlong '/' */
		{ "\xed\xa0\x80", 3, "\\xed\\xa0\\x80" },	/* surrogate */
		{ "\xe2\x82", 2, "\\xe2\\x82" },	/* a cut character not removed: escaped */
	};
	size_t i;
	unsigned int seed = 12345;
	int bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *j = mg_json_str(cases[i].in, cases[i].len);
		const char *v = j ? json_string_value(j) : NULL;

		char shown[128];

		mg_text_escape(shown, sizeof(shown), v ? v : "(NULL)", v ? strlen(v) : 6, false);
		CHECK(IS_TRUE(v) && STREQ(v, cases[i].want) &&
		      IS_TRUE(json_roundtrips(cases[i].in, cases[i].len)),
		      "json_str case %zu: value '%s' as expected, and it round-trips", i, shown);
		json_decref(j);
	}
	{	/* a file name: null when unknown (no bytes), else as mg_json_str */
		json_t *u = mg_json_name("", 0), *k = mg_json_name("f\xff", 2);

		CHECK(IS_TRUE(json_is_null(u)) && IS_TRUE(json_is_string(k)) &&
		      STREQ(json_string_value(k), "f\\xff"),
		      "json_name: an unknown (empty) name is null, a name its escaped string");
		json_decref(u);
		json_decref(k);
	}
	/* random byte strings, biased towards UTF-8 lead/continuation bytes and backslashes */
	for (i = 0; i < 20000; i++) {
		unsigned char b[24];
		size_t n = rand_r(&seed) % sizeof(b), k;

		for (k = 0; k < n; k++) {
			int r = rand_r(&seed) % 8;

			b[k] = r == 0 ? '\\' : r == 1 ? 'x' : r < 4 ? 0x80 + rand_r(&seed) % 64 :
			       r < 6 ? 0xc0 + rand_r(&seed) % 64 : rand_r(&seed) % 256;
		}
		bad += !json_roundtrips((char *)b, n);
	}
	ASSERT_EQ(bad, 0, "20000 random byte strings: always a JSON string, decoding to the same "
	      "bytes (%d failed)", bad);
	/* the round-trip check itself fails on a wrong encoding */
	{
		json_t *naive = json_string("\\xff");	/* "\xff" text left as is: decodes to 0xff */

		CHECK(IS_FALSE(json_decodes_to(naive, "\\xff", 4)) &&
		      IS_TRUE(json_decodes_to(naive, "\xff", 1)),
		      "the decoding check rejects an encoding that does not double backslashes");
		json_decref(naive);
	}
	{
		unsigned long before = mg_json_failures;
		json_t *o = json_object();

		CHECK(EQ(mg_json_set(o, "name", json_stringn("\xe2\x82", 2)), -1) &&
		      EQ(mg_json_failures, before + 1) && IS_FALSE(json_object_get(o, "name")),
		      "a field jansson refuses is reported (mg_json_failures), not dropped silently");
		json_decref(o);
	}
}

static void test_text_escape(void)
{
	static const struct { const char *in; size_t len; bool cut; const char *want; } cases[] = {
		{ "plain name", 10, false, "plain name" },
		{ "new\nline", 8, false, "new\\nline" },
		{ "tab\there\r", 9, false, "tab\\there\\r" },
		{ "\x01\x1b[31m\x7f", 7, false, "\\x01\\x1b[31m\\x7f" },
		{ "c1\xc2\x85", 4, false, "c1\\xc2\\x85" },	/* NEL: a C1 control */
		{ "caf\xc3\xa9", 5, false, "caf\xc3\xa9" },
		{ "\xff", 1, false, "\\xff" },
		{ "a\\b", 3, false, "a\\\\b" },
		{ "\xef\xbf\xbe", 3, false, "\\xef\\xbf\\xbe" },	/* U+FFFE: not XML */
		{ "cut", 3, true, "cut\\..." },
	};
	char out[64], small[6];
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = mg_text_escape(out, sizeof(out), cases[i].in, cases[i].len, cases[i].cut);
		CHECK(EQ(n, strlen(cases[i].want)) && STREQ(out, cases[i].want),
		      "text_escape case %zu: '%s' (want '%s')", i, out, cases[i].want);
	}
	n = mg_text_escape(small, sizeof(small), "\n\n\n\n", 4, false);
	CHECK(EQ(n, 8) && STREQ(small, "\\n\\n\\"), "text_escape reports the needed length (8) and "
	      "stays within the buffer ('%s')", small);
	for (i = 0, n = 0; i < 256; i++) {
		char b[1] = { (char)i };

		mg_text_escape(out, sizeof(out), b, 1, false);
		n += strchr(out, '\n') || strchr(out, '\r') || (out[0] && (unsigned char)out[0] < 0x20);
	}
	ASSERT_EQ(n, 0, "no single byte escapes to a control character (%zu did)", n);
}

static void test_kdev(void)
{
	char buf[MG_KDEV_STRLEN], mnt[4096];
	uint32_t k = 0;
	struct stat st;
	int n;

	CHECK(IS_FALSE(mg_kdev_from_user(makedev(7, 0), &k)) && EQ(k, 7u << 20) &&
	      STREQ(mg_kdev_str(k, buf), "7:0"), "loop0's st_dev converts to kernel 7:0 (%s)", buf);
	/* the bug: glibc's st_dev of 7:0 is 0x700; read as a kernel dev_t it is 0:1792 */
	CHECK(NE(strcmp(mg_kdev_str((uint32_t)makedev(7, 0), buf), "7:0"), 0),
	      "glibc's raw st_dev is not a kernel dev_t (it reads as %s)", buf);
	CHECK(IS_FALSE(mg_kdev_from_user(makedev(259, 1048575), &k)) &&
	      STREQ(mg_kdev_str(k, buf), "259:1048575"), "20-bit minors survive (%s)", buf);
	CHECK(EQ(mg_kdev_from_user(makedev(4096, 0), &k), -ERANGE), "a 13-bit major is refused");
	CHECK(EQ(mg_kdev_major(mg_kdev(8, 17)), 8) && EQ(mg_kdev_minor(mg_kdev(8, 17)), 17),
	      "mg_kdev and its major/minor agree");
	if (!stat("/proc/self", &st) && !mg_kdev_from_user(st.st_dev, &k)) {
		n = mg_kdev_mount(k, mnt, sizeof(mnt));
		CHECK(GT(n, 0) && STREQ(mnt, "/proc"), "/proc's device is mounted on /proc (%s)",
		      n >= 0 ? mnt : strerror(-n));
	}
	CHECK(EQ(mg_kdev_mount(mg_kdev(4095, 1048575), mnt, sizeof(mnt)), -ENOENT),
	      "an unused device has no mount (-ENOENT)");
}

/* The kernel's fine-stamp condition as bpf/floor.bpf.c evaluates it (include/mgtrace.h). */
static void test_fine_needed(void)
{
	const long long lo = -(1LL << 31), hi = (1LL << 31) - 1;	/* ext4 -I 128 limits */
	const long long min64 = -(1LL << 62), max64 = 1LL << 62;
	const unsigned int Q = MG_I_CTIME_QUERIED;

	CHECK(EQ(mg_fine_needed(100, 500, 1, min64, max64, 100, 500 | Q), 1),
	      "fine: coarse now equal to a QUERIED ctime needs a fine stamp");
	CHECK(EQ(mg_fine_needed(100, 400, 1, min64, max64, 100, 500 | Q), 1),
	      "fine: coarse now earlier than a QUERIED ctime needs one");
	CHECK(EQ(mg_fine_needed(99, 999999999, 1, min64, max64, 100, 0 | Q), 1),
	      "fine: an earlier second needs one whatever the nanoseconds");
	CHECK(EQ(mg_fine_needed(100, 501, 1, min64, max64, 100, 500 | Q), 0),
	      "fine: coarse now later than the ctime: no fine stamp");
	CHECK(EQ(mg_fine_needed(100, 500, 1, min64, max64, 100, 500), 0),
	      "fine: ctime not QUERIED: no fine stamp even when equal");
	CHECK(EQ(mg_fine_needed(100, 999999999, 1000000000, min64, max64, 100, 0 | Q), 1),
	      "fine: 1 s granularity truncates now to the ctime's second: needed");
	CHECK(EQ(mg_fine_needed(100, 999999999, 1000, min64, max64, 100, 999999000 | Q), 1),
	      "fine: 1 us granularity truncates .999999999 to .999999000: needed");
	CHECK(EQ(mg_fine_needed(100, 999999999, 1, min64, max64, 100, 999999000 | Q), 0),
	      "fine: the same at 1 ns granularity is later: not needed");
	CHECK(EQ(mg_fine_needed(hi + 5, 7, 1, lo, hi, hi, 0 | Q), 1),
	      "fine: now clamped to s_time_max (nanoseconds cleared) equals the ctime: needed");
	CHECK(EQ(mg_fine_needed(hi + 5, 7, 1, lo, hi, hi - 1, 0 | Q), 0),
	      "fine: clamped now still later than the ctime: not needed");
}

/* mg_classify_load_log: each class from a log as libbpf 1.1 and the verifier write it */
static void test_classify_load_log(void)
{
	char c[200];
	enum mg_load_cause k;
	/* the 7.2 failure of the file-name helper before the ___flavor fix */
	const char *core = "prog 'fe_floor_exit': BPF program load failed: Invalid argument\n"
		"prog 'fe_floor_exit': -- BEGIN PROG LOAD LOG --\n"
		"0: R1=ctx() R10=fp0\n12: <invalid CO-RE relocation>\n"
		"failed to resolve CO-RE relocation <byte_off> [88] struct dentry.d_u.d_alias (0:22:0 @ offset 184)\n"
		"processed 13 insns (limit 1000000)\n-- END PROG LOAD LOG --\n"
		"prog 'fe_floor_exit': failed to load: -22\n";
	/* a kernel without CONFIG_NET under libbpf 1.1: .bss never created */
	const char *map = "prog 'tpb_ctime_xchg': -- BEGIN PROG LOAD LOG --\n"
		"3: <invalid BPF map reference>\nBPF map 'mgtrace_.bss' is referenced but wasn't created\n"
		"-- END PROG LOAD LOG --\n";
	const char *rejected = "prog 'fe_real_mg': -- BEGIN PROG LOAD LOG --\n"
		"Attaching tracing programs to function 'ktime_get_real_ts64_mg' is rejected.\n"
		"-- END PROG LOAD LOG --\n";

	k = mg_classify_load_log(core, -EINVAL, "load", true, c, sizeof(c));
	CHECK(EQ(k, MG_CAUSE_CORE_RELO) &&
	      STREQ(c, "CO-RE relocation failed: struct " "dentry.d_u.d_alias is not in this kernel's BTF"), "classify CO-RE: %d \"%s\"", k, c);
	k = mg_classify_load_log(map, -EINVAL, "load", false, c, sizeof(c));
	CHECK(EQ(k, MG_CAUSE_MAP) && STRSTR(c, "map not created: BPF map 'mgtrace_.bss'"),
	      "classify map: %d \"%s\"", k, c);
	k = mg_classify_load_log(rejected, -EINVAL, "load", true, c, sizeof(c));
	CHECK(EQ(k, MG_CAUSE_UNTRACEABLE) && STRSTR(c, "'ktime_get_real_ts64_mg' is rejected"),
	      "classify rejected attach target: %d \"%s\"", k, c);
	k = mg_classify_load_log("", -EINVAL, "attach", true, c, sizeof(c));
	CHECK(EQ(k, MG_CAUSE_UNTRACEABLE) && STREQ(c, "function not traceable"),
	      "classify EINVAL at attach of a function probe: %d \"%s\"", k, c);
	/* EINVAL at load with nothing recognisable is not "function not traceable" */
	k = mg_classify_load_log("prog 'x': failed to load: -22\n", -EINVAL, "load", true, c, sizeof(c));
	CHECK(EQ(k, MG_CAUSE_UNKNOWN) && IS_FALSE(c[0]), "classify unknown EINVAL at load: %d \"%s\"", k, c);
	k = mg_classify_load_log("", -EINVAL, "attach", false, c, sizeof(c));
	CHECK(EQ(k, MG_CAUSE_UNKNOWN), "classify EINVAL at attach of tracepoints only: %d", k);
}

/* mg_interface_problem: a changed tracepoint prototype or i_ctime_nsec is refused in one line */
static void test_interface_problem(void)
{
	struct mg_kenv e;
	const char *w;

	memset(&e, 0, sizeof(e));
	snprintf(e.release, sizeof(e.release), "9.9-test");
	e.btf = true;
	e.api = MG_API_MAINLINE;
	snprintf(e.ctime_nsec, sizeof(e.ctime_nsec), "u32");
	CHECK(STREQ(mg_interface_problem(&e) ? mg_interface_problem(&e) : "(none)", "(none)"), "interface as expected: no problem");
	snprintf(e.tp_args[0], sizeof(e.tp_args[0]), "(struct inode *, u64, u32, u32)");
	e.tp_args_changed[0] = true;
	w = mg_interface_problem(&e);
	CHECK(IS_TRUE(w) && STRSTR(w, "timestamp:ctime_ns_xchg") &&
	      STRSTR(w, "(struct inode *, u64, u32, u32)") &&
	      STRSTR(w, "(struct inode *, u32, u32, u32)") && IS_FALSE(strchr(w, '\n')),
	      "changed tracepoint arguments named: %s", w ? w : "(null)");
	e.tp_args_changed[0] = false;
	snprintf(e.ctime_nsec, sizeof(e.ctime_nsec), "u64");
	w = mg_interface_problem(&e);
	CHECK(IS_TRUE(w) && STRSTR(w, "i_ctime_nsec (BTF: u64)"), "changed i_ctime_nsec named: %s", w ? w : "(null)");
}

/* The comparisons fail as they should, and record the actual and the expected value. */
static void test_check_macros(void)
{
	static const struct { const char *want; } cases[] = {
		{ "two: actual 2, expected == 3" },
		{ "minus: actual -1, expected >= 0" },
		{ "big: actual 18446744073709551615, expected < 1" },
		{ "half: actual 0.5, expected == 0.25" },
		{ "name: actual \"abc\", expected \"abd\"" },
		{ "name: actual \"abc\", expected to contain \"x\"" },
		{ "null: actual \"(null)\", expected \"abc\"" },
		{ "err: actual -22, expected 0" },
	};
	int two = 2, minus = -1, err = -EINVAL;
	unsigned long long big = UINT64_MAX;
	double half = 0.5;
	const char *name = "abc", *null = NULL;
	char got[sizeof(cases) / sizeof(cases[0])][sizeof(why_)];
	bool r[sizeof(cases) / sizeof(cases[0])];
	size_t i;

#define RECORD_(k, expr) (why_[0] = 0, r[k] = (expr), snprintf(got[k], sizeof(got[k]), "%s", why_))
	RECORD_(0, EQ(two, 3));
	RECORD_(1, GE(minus, 0));
	RECORD_(2, LT(big, 1));
	RECORD_(3, EQ(half, 0.25));
	RECORD_(4, STREQ(name, "abd"));
	RECORD_(5, STRSTR(name, "x"));
	RECORD_(6, STREQ(null, "abc"));
	RECORD_(7, IS_FALSE(err));
#undef RECORD_
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(IS_FALSE(r[i]) && STREQ(got[i], cases[i].want),
		      "a failing comparison records actual and expected: %s", cases[i].want);
	why_[0] = 0;
	CHECK(EQ(two, 2) && STREQ(name, "abc") && NEAR(half, 0.5) && IS_FALSE(why_[0]),
	      "passing comparisons record nothing");
}

/*
 * The program tables of src/backend.c, src/latency.c and src/floor.c: each entry attaches
 * where the table says (its SEC()), every program of each object is in its table once; and
 * mg_progs_check() fails on a table that misnames, misses or repeats a program.
 */
static void test_prog_tables(void)
{
	struct mg_prog_ref refs[2];
	struct mgtrace_bpf *skel;
	char why[256] = "";
	int err;

	err = mg_session_progs_check(why, sizeof(why));
	CHECK(IS_FALSE(err), "mgtrace.bpf.c's table: each function's fentry/kprobe and each "
	      "tracepoint's tp_btf/raw_tp program, every program once (%s)", why);
	why[0] = 0;
	err = mg_latency_progs_check(why, sizeof(why));
	CHECK(IS_FALSE(err), "latency.bpf.c's table: fentry/fexit and kprobe/kretprobe per timed "
	      "function, every program once (%s)", why);
	why[0] = 0;
	err = mg_floor_progs_check(why, sizeof(why));
	CHECK(IS_FALSE(err), "floor.bpf.c's table: each program on its function, in the right "
	      "backends, every program once (%s)", why);
	skel = mgtrace_bpf__open();
	if (!skel) {
		CHECK(IS_TRUE(skel), "open mgtrace.bpf.c's skeleton: %s", strerror(errno));
		return;
	}
	refs[0].off = MG_SKEL_PROG_OFF(mgtrace_bpf, fe_real_mg);
	snprintf(refs[0].sec, sizeof(refs[0].sec), "fentry/current_time");
	err = mg_progs_check(skel->obj, skel, refs, 1, why, sizeof(why));
	CHECK(EQ(err, -EINVAL) && STRSTR(why, "want fentry/current_time"),
	      "a table entry on the wrong function fails: %s", why);
	snprintf(refs[0].sec, sizeof(refs[0].sec), "fentry/ktime_get_real_ts64_mg");
	err = mg_progs_check(skel->obj, skel, refs, 1, why, sizeof(why));
	CHECK(EQ(err, -EINVAL) && STRSTR(why, "fe_set_ctime_current (fentry/inode_set_ctime_current) is not in the table"),
	      "a table missing programs fails: %s", why);
	refs[1] = refs[0];
	err = mg_progs_check(skel->obj, skel, refs, 2, why, sizeof(why));
	CHECK(EQ(err, -EINVAL) && STRSTR(why, "table entries 0 and 1 are both program fe_real_mg"),
	      "a program listed twice fails: %s", why);
	mgtrace_bpf__destroy(skel);
}

/*
 * The vocabulary (include/mg_vocab.def, src/vocab.c): every -e spelling selects
 * the kinds it names, in stat and trace alike; each refusal (empty item, unknown
 * name, a glob matching nothing, a kind the command cannot select, one floor kind
 * alone) returns MG_EXIT_USAGE. The names agree with the enums.
 */
static void test_vocab(void)
{
	static const struct { const char *list; unsigned int allowed, want; int err; } c[] = {
		{ "stat", MG_KINDS_TP, 1u << MG_EV_STAT, 0 },
		{ "stat_queries", MG_KINDS_TP, 1u << MG_EV_STAT, 0 },
		{ "timestamp:fill_mg_cmtime", MG_KINDS_TP, 1u << MG_EV_STAT, 0 },
		{ "tracepoint:timestamp:ctime_xchg_skip", MG_KINDS_TP, 1u << MG_EV_CTIME_SKIP, 0 },
		{ "timestamp:*", MG_KINDS_ALL, MG_KINDS_TP, 0 },
		{ "timestamp:ctime_*", MG_KINDS_ALL, 1u << MG_EV_CTIME_SWAP | 1u << MG_EV_CTIME_SKIP, 0 },
		{ "ctime,set", MG_KINDS_ALL, 1u << MG_EV_CTIME_SWAP | 1u << MG_EV_CTIME_SKIP |
		  1u << MG_EV_CTIME_SET, 0 },
		{ "floor", MG_KINDS_ALL, MG_KINDS_FLOOR, 0 },
		{ "all", MG_KINDS_TP, MG_KINDS_TP, 0 },
		{ "stat,,ctime_set", MG_KINDS_TP, 0, MG_EXIT_USAGE },
		{ "stat,", MG_KINDS_TP, 0, MG_EXIT_USAGE },
		{ "", MG_KINDS_TP, 0, MG_EXIT_USAGE },
		{ "bogus", MG_KINDS_ALL, 0, MG_EXIT_USAGE },
		{ "timestamp:nope*", MG_KINDS_ALL, 0, MG_EXIT_USAGE },
		{ "timestamp", MG_KINDS_ALL, 0, MG_EXIT_USAGE },
		{ "floor", MG_KINDS_TP, 0, MG_EXIT_USAGE },
		{ "floor_swap", MG_KINDS_ALL, 0, MG_EXIT_USAGE },
	};
	unsigned int i, k;
	int err, tp;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		k = 0;
		err = mg_events_parse("unit", c[i].list, c[i].allowed, &k);
		CHECK(EQ(err, c[i].err) && (err || EQ(k, c[i].want)),
		      "-e '%s' (allowed %#x): exit %d, kinds %#x", c[i].list, c[i].allowed, err, k);
	}
	for (k = 0; k < MG_EV_NR_KINDS; k++) {
		tp = mg_tp_of_kind(k);
		CHECK(IS_TRUE(mg_event_kind_name(k)) && IS_TRUE(mg_event_kind_help(k)) &&
		      (tp < 0 ? (MG_KINDS_FLOOR & 1u << k) != 0 : (MG_KINDS_TP & 1u << k) != 0),
		      "kind %u (%s): tracepoint %d", k, mg_event_kind_name(k), tp);
	}
	CHECK(STREQ(mg_tp_names[MG_TP_FILL_MG_CMTIME], "fill_mg_cmtime") &&
	      EQ(mg_tp_of_kind(MG_EV_CTIME_SWAP), MG_TP_CTIME_NS_XCHG) &&
	      IS_FALSE(mg_tp_opt_in(MG_TP_CTIME_NS_XCHG)) && IS_TRUE(mg_tp_opt_in(MG_TP_CTIME_XCHG_SKIP)),
	      "tracepoint names and kinds agree with the enums");
	CHECK(STREQ(mg_row_name(MG_R_STAT_QUERIES), "stat_queries") && IS_TRUE(mg_row_help(MG_R_CTIME_SETS)) &&
	      IS_FALSE(mg_row_help(MG_R_FLOOR_CMPXCHG_FAILS)) && IS_FALSE(mg_row_name(MG_R_NR)),
	      "rows: names and Prometheus help by enum mg_row_id, none for derived rows");
}

/* top's options: positionals [interval [count]] before --, COMMAND after it. */
static int top_parse(struct top_opts *o, const char *line)
{
	static char buf[256];
	static char *argv[16];
	char *save = NULL, *tok;
	int argc = 0;

	memset(o, 0, sizeof(*o));
	snprintf(buf, sizeof(buf), "top %s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return top_parse_opts(o, argc, argv);
}

static void test_top_opts(void)
{
	struct top_opts o;
	char why[256] = "";
	int err;

	err = mg_top_progs_check(why, sizeof(why));
	CHECK(IS_FALSE(err), "top.bpf.c's table: each program where the table says, every "
	      "program once (%s)", why);

	ASSERT_EQ(top_parse(&o, ""), 0, "top: no arguments");
	CHECK(EQ(o.interval, 1.0) && EQ(o.count, 0) && IS_FALSE(o.argv) && EQ(o.rows, 20) &&
	      EQ(o.max_entries, MG_TOP_ENTRIES_DEFAULT) && EQ(o.sort, TOP_SORT_AUTO),
	      "top: defaults 1 s, no count, 20 rows, %u entries, sort auto", MG_TOP_ENTRIES_DEFAULT);
	ASSERT_EQ(top_parse(&o, "-i 0.5 -c 4 --by file -s ctime_skips"), 0, "top -i -c --by -s");
	CHECK(EQ(o.interval, 0.5) && EQ(o.count, 4) && EQ(o.by, MG_TOP_BY_FILE) &&
	      EQ(o.sort, MG_TOP_CTIME_SKIPS), "top: -i 0.5 -c 4, --by file, -s ctime_skips");
	ASSERT_EQ(top_parse(&o, "-I 250 --interval-count 3"), 0, "top -I 250 --interval-count 3");
	CHECK(EQ(o.interval, 0.25) && EQ(o.count, 3), "top -I 250: 0.25 s, as perf's -I");
	ASSERT_EQ(top_parse(&o, "-i 5 -- sleep 1"), 0, "top -i 5 -- sleep 1");
	CHECK(EQ(o.interval, 5.0) && IS_TRUE(o.argv) && STREQ(o.argv[0], "sleep") &&
	      STREQ(o.argv[1], "1"), "top -i 5 -- sleep 1: COMMAND after --");
	ASSERT_EQ(top_parse(&o, "-C sleep 1"), 0, "top -C sleep 1");
	CHECK(IS_TRUE(o.argv) && STREQ(o.argv[0], "sleep"), "top: the first non-option starts COMMAND");
	ASSERT_EQ(top_parse(&o, "--tree -- true"), 0, "top --tree -- true");
	CHECK(IS_TRUE(o.tree) && IS_TRUE(o.argv), "top --tree with COMMAND");
	ASSERT_EQ(top_parse(&o, "-i 0"), MG_EXIT_USAGE, "top -i 0: interval 0");
	ASSERT_EQ(top_parse(&o, "-I 5"), MG_EXIT_USAGE, "top -I 5: below 10 ms");
	ASSERT_EQ(top_parse(&o, "-c 0"), MG_EXIT_USAGE, "top -c 0");
	ASSERT_EQ(top_parse(&o, "-i 1x"), MG_EXIT_USAGE, "top -i 1x: junk");
	ASSERT_EQ(top_parse(&o, "-a -p 1"), MG_EXIT_USAGE, "top -a and -p");
	ASSERT_EQ(top_parse(&o, "--tree"), MG_EXIT_USAGE, "top --tree without COMMAND");
	ASSERT_EQ(top_parse(&o, "-p 1 --tree -- true"), MG_EXIT_USAGE, "top -p and --tree");
	ASSERT_EQ(top_parse(&o, "--max-entries 1000001"), MG_EXIT_USAGE, "top --max-entries too big");
	ASSERT_EQ(top_parse(&o, "--by inode"), MG_EXIT_USAGE, "top --by inode");
	ASSERT_EQ(top_parse(&o, "-b kernel"), MG_EXIT_USAGE, "top -b kernel: not a top backend");
}

/* Bytes a non-blocking reader can take now from fd (at most len), NUL-terminated. */
static size_t drain_fd(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = 0;
	return n;
}

/*
 * mg_out (src/output.c) on a FIFO: a reader that went away ends the output at the first
 * write (EPIPE, exit 5, later writes fail at once); a full FIFO and a pending SIGTERM
 * abandon it (ETIMEDOUT) after the stop grace with only whole lines written; with room,
 * a stop asked changes nothing. Each failure case beside its passing twin.
 */
static void test_output(void)
{
	char path[] = "/tmp/mgtrace-unit-out.XXXXXX", fifo[64], buf[8192];
	const char *saved = mg_output_path;
	sigset_t term, old;
	int rd, sig, i, whole;
	size_t n;

	if (!mkdtemp(path)) {
		ASSERT_EQ(errno, 0, "output: mkdtemp");
		return;
	}
	signal(SIGPIPE, SIG_IGN);	/* as main() does: EPIPE, not a death */
	snprintf(fifo, sizeof(fifo), "%s/f", path);
	ASSERT_EQ(mkfifo(fifo, 0600), 0, "output: mkfifo");
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	mg_output_path = fifo;
	/* passing twin: a reader that reads */
	ASSERT_EQ(mg_out_open("unit", false), MG_EXIT_OK, "output: open a FIFO with a reader");
	fprintf(mg_out, "line 1\n");
	ASSERT_EQ(mg_out_failed(), false, "output: a line to a FIFO with a reader is written");
	n = drain_fd(rd, buf, sizeof(buf));
	CHECK(STREQ(buf, "line 1\n"), "output: the reader got the line");
	(void)n;
	/* the reader goes away: the next write fails with EPIPE, the later ones at once */
	close(rd);
	fprintf(mg_out, "line 2\n");
	ASSERT_EQ(mg_out_failed(), true, "output: a write after the reader left fails");
	ASSERT_EQ(mg_out_errno(), EPIPE, "output: ... with EPIPE");
	ASSERT_EQ(fprintf(mg_out, "line 3\n") < 0 || ferror(mg_out), true,
		  "output: every later write fails at once");
	ASSERT_EQ(mg_out_close(), MG_EXIT_OUTPUT, "output: closing a failed output gives exit 5");

	/* a full FIFO nobody reads, SIGTERM pending (blocked, as in a run) */
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	ASSERT_EQ(mg_out_open("unit", false), MG_EXIT_OK, "output: reopen the FIFO");
	ASSERT_EQ(fcntl(rd, F_SETPIPE_SZ, 4096), 4096, "output: the FIFO holds one page");
	/* passing twin: a stop asked while there is room changes nothing */
	mg_out_stop(SIGTERM);
	fprintf(mg_out, "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij-0\n");
	ASSERT_EQ(mg_out_failed(), false, "output: a stop asked, room in the FIFO: written");
	mg_out_close();
	drain_fd(rd, buf, sizeof(buf));
	ASSERT_EQ(mg_out_open("unit", false), MG_EXIT_OK, "output: reopen the FIFO again");
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	raise(SIGTERM);
	for (i = 0; i < 200 && !mg_out_failed(); i++)	/* 59 bytes a line: full at 70 */
		fprintf(mg_out, "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij-%d\n",
			i % 10);
	ASSERT_EQ(mg_out_failed(), true, "output: a full FIFO with SIGTERM pending is abandoned");
	ASSERT_EQ(mg_out_errno(), ETIMEDOUT, "output: ... as ETIMEDOUT (the stop grace passed)");
	ASSERT_EQ(i < 200, true, "output: ... at the first line that did not fit");
	n = drain_fd(rd, buf, sizeof(buf));
	whole = n % 59 == 0 && n >= 59 * 60;	/* 4096 / 59: 69 lines fit */
	ASSERT_EQ(whole, true, "output: only whole lines went out (%zu bytes)", n);
	ASSERT_EQ(mg_out_close(), MG_EXIT_OUTPUT, "output: an abandoned output gives exit 5");
	sig = sigtimedwait(&term, NULL, &(struct timespec){ 0, 0 });
	ASSERT_EQ(sig, SIGTERM, "output: the signal stayed pending for the run to take");
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(rd);
	unlink(fifo);
	rmdir(path);
	mg_output_path = saved;
}

/*
 * Bit offset of the member reached by path (NULL-terminated names; "" steps into an
 * anonymous member) from struct or union type id of btf; -1 if not found.
 */
static long btf_path_bits(const struct btf *btf, __u32 id, const char *const *path)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));
	const struct btf_member *m;
	int i;

	if (!*path)
		return 0;
	if (!t || !(btf_is_struct(t) || btf_is_union(t)))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		long rest;

		if (strcmp(name ? name : "", path[0]))
			continue;
		rest = btf_path_bits(btf, m->type, path + 1);
		if (rest >= 0)
			return (long)btf_member_bit_offset(t, i) + rest;
	}
	return -1;
}

/* struct mg_link_info_kprobe (backend.h, for kprobe misses) against the running kernel's BTF */
static void test_link_info_layout(void)
{
	static const struct {
		const char *path[6];	/* NULL-terminated; "": an anonymous member */
		long off;		/* bytes in struct mg_link_info_kprobe; -1: absent */
	} m[] = {
		{ { "type" }, offsetof(struct mg_link_info_kprobe, type) },
		{ { "prog_id" }, offsetof(struct mg_link_info_kprobe, prog_id) },
		{ { "", "perf_event", "type" }, offsetof(struct mg_link_info_kprobe, pe_type) },
		{ { "", "perf_event", "", "kprobe", "func_name" },
		  offsetof(struct mg_link_info_kprobe, func_name) },
		{ { "", "perf_event", "", "kprobe", "missed" },
		  offsetof(struct mg_link_info_kprobe, missed) },
		/* must-fail direction: the walk does not find what the kernel does not have */
		{ { "", "perf_event", "", "kprobe", "nmissed" }, -1 },
	};
	struct btf *btf = btf__load_vmlinux_btf();
	size_t i;
	__s32 id;

	if (!btf || (id = btf__find_by_name_kind(btf, "bpf_link_info", BTF_KIND_STRUCT)) < 0) {
		printf("skip link info layout: no kernel BTF with struct bpf_link_info\n");
		btf__free(btf);
		return;
	}
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		long bits = btf_path_bits(btf, id, m[i].path);
		const char *leaf = m[i].path[0];

		for (int k = 1; k < 6 && m[i].path[k]; k++)
			leaf = m[i].path[k];
		ASSERT_EQ(bits < 0 ? -1 : bits / 8, m[i].off, "link info: %s at the kernel's offset "
			  "(or absent from both)", leaf);
	}
	btf__free(btf);
}

/* Every test, in run order; -t NAME runs those whose name contains NAME. */
static const struct { const char *name; void (*fn)(void); } tests[] = {
	{ "check_macros", test_check_macros },
	{ "link_info_layout", test_link_info_layout },
	{ "prog_tables", test_prog_tables },
	{ "top_opts", test_top_opts },
	{ "vocab", test_vocab },
	{ "interface_problem", test_interface_problem },
	{ "classify_load_log", test_classify_load_log },
	{ "utf8_names", test_utf8_names },
	{ "json_str", test_json_str },
	{ "text_escape", test_text_escape },
	{ "kdev", test_kdev },
	{ "parse_u64", test_parse_u64 },
	{ "parse_seconds", test_parse_seconds },
	{ "report_funcs_kpc", test_report_funcs_kpc },
	{ "report_tracepoint_only", test_report_tracepoint_only },
	{ "report_zero_cost", test_report_zero_cost },
	{ "prom", test_prom },
	{ "bracket", test_bracket },
	{ "kpc_check", test_kpc_check },
	{ "report_busy", test_report_busy },
	{ "rules", test_rules },
	{ "rule_needs_context", test_rule_needs_context },
	{ "checker_floor_judged", test_checker_floor_judged },
	{ "rule_clock", test_rule_clock },
	{ "checker_kernel_steps", test_checker_kernel_steps },
	{ "checker_many_steps", test_checker_many_steps },
	{ "checker", test_checker },
	{ "fine_needed", test_fine_needed },
	{ "order_check", test_order_check },
	{ "verdict", test_verdict },
	{ "latency_math", test_latency_math },
	{ "output", test_output },
};

/* usage: unit_tests [-t NAME]... ; prints "ok"/"FAIL" lines and "unit: N passed, N failed, N skipped". */
int main(int argc, char **argv)
{
	size_t i, skipped = 0;
	int j, want;

	for (j = 1; j < argc; j++)
		if (strcmp(argv[j], "-t") || j + 1 == argc) {
			fprintf(stderr, "usage: %s [-t NAME]...\n", argv[0]);
			return 2;
		} else {
			j++;
		}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		for (j = 1, want = argc == 1; j + 1 < argc && !want; j += 2)
			want = strstr(tests[i].name, argv[j + 1]) != NULL;
		if (want)
			tests[i].fn();
		else
			skipped++;
	}
	printf("unit: %d passed, %d failed, %zu skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
