// SPDX-License-Identifier: GPL-2.0
/* unit.h - what every unit test file shares: UNIT_TEST and the ASSERT_* assertions. */
#ifndef MG_UNIT_H
#define MG_UNIT_H
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * UNIT_TEST(name) { ... }: a test, run by main.c and picked by -t NAME. The build lists
 * the lines that start with UNIT_TEST( in tests/unit/test_*.c, in file order, in
 * $(OUT)/unit_list.h: a test is defined once, nowhere else named.
 */
#define UNIT_TEST(name) void unit_test_##name(void); void unit_test_##name(void)

/* the assertions passed and failed (main.c prints them) */
extern int unit_passed, unit_failed;

/*
 * The assertions, after the kernel's BPF selftests' ASSERT_* (tools/testing/selftests/bpf/
 * test_progs.h): ASSERT_xxx(actual[, expected], fmt, ...) is one assertion and an expression,
 * true when it holds, so that a test can stop where going on would crash or cascade:
 *	if (!ASSERT_OK_PTR(r, "report built")) return;
 * Each prints one line, "PASS what" or "FAIL what [why]", what being fmt with its arguments
 * (evaluated after the comparison) and why the comparison with its actual and expected
 * value, e.g. "FAIL events [st->events: actual 3, expected == 4]". A helper called in
 * actual may record a better why with unit_note() and return false: the first note wins.
 * One assertion is one count of "unit: N passed, N failed".
 */
extern char unit_why[768];

/* Record why the assertion being evaluated fails, unless a note came first: false. */
bool unit_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* expr's actual failed "actual op expected": both as kind (enum unit_kind) says */
bool unit_note_cmp(const char *expr, const char *op, int kind, unsigned long long a,
		   unsigned long long e, double da, double de);
/* where unit_result() prints (NULL: stdout); test_macros.c catches its own failures there */
extern FILE *unit_out;
/* expr's error code v failed ASSERT_OK: -errno named, -1 with errno's name (err) */
bool unit_note_err(const char *expr, long long v, int err);
/* Print the PASS or FAIL line of one assertion (with unit_why), count it: ok. */
bool unit_result(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Evaluate check (a bool expression that calls unit_note() when false), then report it. */
#define UNIT_ASSERT_(check, ...) ({					\
	bool ok_;							\
	unit_why[0] = 0;						\
	ok_ = (check);							\
	unit_result(ok_, __VA_ARGS__);					\
})

/*
 * Compare actual a with expected e by op in their common type, the type op converts them to
 * (integers, doubles or pointers), and note the values as that type.
 */
#define UNIT_CMP_(a, op, e, ...) UNIT_ASSERT_(({				\
	typedef __typeof__(1 ? (a) : (e)) t_;				\
	t_ a_ = (a), e_ = (e);						\
	(a_ op e_) ? true : unit_note_cmp(#a, #op, UNIT_KIND_(a_, t_),	\
		(unsigned long long)(uintptr_t)a_, (unsigned long long)(uintptr_t)e_,	\
		UNIT_DBL_(a_), UNIT_DBL_(e_));					\
}), __VA_ARGS__)
/* how unit_note_cmp() prints a value: its type's class (GCC's and clang's type classes) */
enum unit_kind { UNIT_UNSIGNED, UNIT_SIGNED, UNIT_DOUBLE, UNIT_POINTER };
#define UNIT_KIND_(v, t) (__builtin_classify_type(v) == 5 ? UNIT_POINTER :	\
	__builtin_classify_type(v) == 8 ? UNIT_DOUBLE :			\
	_Generic((v), float: UNIT_DOUBLE, double: UNIT_DOUBLE,		\
		 default: ((t)-1 < (t)1) ? UNIT_SIGNED : UNIT_UNSIGNED))
#define UNIT_DBL_(v) _Generic((v), float: (v), double: (v), long double: (v), default: 0.0)
#define ASSERT_EQ(a, e, ...)  UNIT_CMP_(a, ==, e, __VA_ARGS__)
#define ASSERT_NEQ(a, e, ...) UNIT_CMP_(a, !=, e, __VA_ARGS__)
#define ASSERT_LT(a, e, ...)  UNIT_CMP_(a, <, e, __VA_ARGS__)
#define ASSERT_LE(a, e, ...)  UNIT_CMP_(a, <=, e, __VA_ARGS__)
#define ASSERT_GT(a, e, ...)  UNIT_CMP_(a, >, e, __VA_ARGS__)
#define ASSERT_GE(a, e, ...)  UNIT_CMP_(a, >=, e, __VA_ARGS__)
/* A double within 1e-9 of e. */
#define ASSERT_NEAR(a, e, ...) UNIT_ASSERT_(({ double na_ = (a), ne_ = (e);	\
	fabs(na_ - ne_) < 1e-9 ? true :					\
	unit_note("%s: actual %.17g, expected %.17g (within 1e-9)", #a, na_, ne_); }), __VA_ARGS__)
/* A truth value (integer or pointer). */
#define ASSERT_TRUE(a, ...) UNIT_ASSERT_((a) ? true :			\
	unit_note("%s: actual false (0/NULL), expected true", #a), __VA_ARGS__)
#define ASSERT_FALSE(a, ...) UNIT_ASSERT_(({ long long v_ = (long long)(a);	\
	!v_ ? true : unit_note("%s: actual %lld, expected false (0)", #a, v_); }), __VA_ARGS__)
/* An error code: 0 (success), or negative (-errno, or libc's -1 with errno: failure). */
#define ASSERT_OK(a, ...) UNIT_ASSERT_(({ long long v_ = (long long)(a);	\
	!v_ ? true : unit_note_err(#a, v_, errno); }), __VA_ARGS__)
#define ASSERT_ERR(a, ...) UNIT_ASSERT_(({ long long v_ = (long long)(a);	\
	v_ < 0 ? true : unit_note("%s: actual %lld, expected < 0 (-errno)", #a, v_); }), __VA_ARGS__)
/* A pointer: not NULL, or NULL. */
#define ASSERT_OK_PTR(p, ...) UNIT_ASSERT_((p) ? true :			\
	unit_note("%s: actual NULL, expected a pointer", #p), __VA_ARGS__)
#define ASSERT_NULL(p, ...) UNIT_ASSERT_(({ const void *p_ = (p);	\
	!p_ ? true : unit_note("%s: actual %p, expected NULL", #p, p_); }), __VA_ARGS__)
/* Strings (a NULL fails, never crashes). */
#define ASSERT_STREQ(a, e, ...) UNIT_ASSERT_(({ const char *sa_ = (a), *se_ = (e);	\
	sa_ && se_ && !strcmp(sa_, se_) ? true :			\
	unit_note("%s: actual \"%.300s\", expected \"%.300s\"", #a, sa_ ? sa_ : "(null)",	\
		  se_ ? se_ : "(null)"); }), __VA_ARGS__)
#define ASSERT_HAS_SUBSTR(h, n, ...) UNIT_ASSERT_(({ const char *sh_ = (h), *sn_ = (n);	\
	sh_ && sn_ && strstr(sh_, sn_) ? true :				\
	unit_note("%s: actual \"%.400s\", expected to contain \"%.200s\"", #h,	\
		  sh_ ? sh_ : "(null)", sn_); }), __VA_ARGS__)
#define ASSERT_NO_SUBSTR(h, n, ...) UNIT_ASSERT_(({ const char *sh_ = (h), *sn_ = (n);	\
	sh_ && sn_ && !strstr(sh_, sn_) ? true :			\
	unit_note("%s: actual \"%.400s\", expected not to contain \"%.200s\"", #h,	\
		  sh_ ? sh_ : "(null)", sn_); }), __VA_ARGS__)

/* Helpers of one file that another uses too. */
struct mg_snap;
struct mg_rin;
struct mg_rout;
struct mg_rstate;
/* test_counters.c, for test_report.c and test_prom.c: two snapshots for 2 CPUs */
void make_snaps(struct mg_snap *a, struct mg_snap *b, bool kpc);
/* test_rules.c, for test_rules_context.c: events, judged as BPF judges them */
struct mg_rin rin(unsigned int kind, int64_t sec, uint32_t nsec, uint64_t t);
struct mg_rin rswap(int64_t sec, uint32_t nsec, uint32_t old, uint32_t cur, uint64_t t);
const struct mg_rout *judge(struct mg_rstate *s, struct mg_rin in);
struct mg_rpend *test_pend(const struct mg_rstate *s);
bool only_benign(const struct mg_rout *o, int b);

#endif /* MG_UNIT_H */
