// SPDX-License-Identifier: GPL-2.0
/* unit.h - what every unit test file shares: CHECK and its comparisons, UNIT_TEST. */
#ifndef MG_UNIT_H
#define MG_UNIT_H
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

/* the checks passed and failed (main.c prints them) */
extern int unit_passed, unit_failed;

/*
 * CHECK(cond, fmt, ...): one check, one line "PASS msg" or "FAIL msg". cond is built from
 * the comparisons below (EQ, STREQ, ...), joined with && as the kernel's selftests chain
 * ASSERT_*: the first that fails records the expression with its actual and expected
 * value, which the FAIL line prints after the message. A failed cond that recorded
 * nothing is reported as such, with the condition's text.
 */
extern char why_[768];

#define CHECK(cond, ...) do {						\
	bool ok_;							\
	why_[0] = 0;							\
	ok_ = (cond);							\
	if (ok_) { unit_passed++; printf("PASS "); }			\
	else { unit_failed++; printf("FAIL "); }			\
	printf(__VA_ARGS__);						\
	if (!ok_)							\
		printf(" [%s]", why_[0] ? why_ : "no comparison recorded: " #cond); \
	putchar('\n');							\
} while (0)

/* Record the first failed comparison of a CHECK: false, for chaining with &&. */
bool note_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool note_int_(const char *expr, const char *op, bool sgn, unsigned long long a,
	       unsigned long long e);
bool note_dbl_(const char *expr, const char *op, bool sgn, double a, double e);

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
	if (a_ == e_) { unit_passed++; printf("PASS "); }		\
	else { unit_failed++; printf("FAIL "); }			\
	printf(__VA_ARGS__);						\
	printf(" (%s: actual %llu, expected %llu)\n", #actual, a_, e_);	\
} while (0)

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
