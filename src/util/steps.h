/* SPDX-License-Identifier: GPL-2.0 */
/*
 * steps.h - the realtime clock steps a check saw, for attributing violations
 * (src/util/checker.c): user space's samples of the realtime offset (src/check/check.c
 * watch_clock) and BPF's records (struct mg_steprec, one per CPU that saw a
 * step, merged here). Times are CLOCK_MONOTONIC ns; sizes ns, negative back.
 * The arrays grow as steps come, up to MG_STEPS_MAX of each source.
 */
#ifndef MG_STEPS_H
#define MG_STEPS_H

#include <stdint.h>
#include <stddef.h>

/*
 * A violation that no step between its observations explains is undecided, not
 * a fault, if a backward step at least its size lies between up to this much
 * before its earlier observation and its later one: the clock read behind an
 * observation comes before it (the kernel's read before the tracepoint's or the
 * built-in workload's syscall time), and a step and its return can both fall
 * between a read and its observation, where no bracket sees them (clock steps
 * repeated faster than the events, as a new user tried: 1,700 pairs of 20 us a
 * second).
 */
#define MG_STEP_NEAR_NS 10000000ull

/* Clock steps kept, of each source (user-space samples, BPF records). */
#define MG_STEPS_MAX (1u << 20)

/* A step user space recorded: it happened within [t0_ns, t1_ns], by delta_ns (its largest size). */
struct mg_clock_step {
	uint64_t t0_ns, t1_ns;
	int64_t delta_ns;
};

/* A step BPF saw (merged across CPUs): within [t0, t1], by lo..hi ns. */
struct mg_kstep {
	uint64_t t0, t1;
	int64_t lo, hi;
};

/* Both sources; zero-initialised is empty. */
struct mg_steps {
	struct mg_clock_step *user;
	size_t nuser, capuser;
	struct mg_kstep *kern;
	size_t nkern, capkern;
};

/* Free the arrays (s stays valid and empty). */
void mg_steps_free(struct mg_steps *s);

/* Keep a user-space step. Returns 0, or -ENOSPC past MG_STEPS_MAX or out of memory. */
int mg_steps_add_user(struct mg_steps *s, uint64_t t0_ns, uint64_t t1_ns, int64_t delta_ns);

/*
 * Keep a BPF record: merged into a step kept among the last 64 whose window and
 * size it overlaps (the same step seen from another CPU). Returns 1 if merged,
 * 0 if kept as a new step, -ENOSPC if not kept (bound, or out of memory).
 */
int mg_steps_add_kernel(struct mg_steps *s, uint64_t t0_ns, uint64_t t1_ns, int64_t lo,
			int64_t hi);

/*
 * How far the clock stepped back within [ta, tb] (<= 0 ns): the larger of the
 * user-space steps added up and the BPF steps added up by their largest sizes.
 */
int64_t mg_steps_back_between(const struct mg_steps *s, uint64_t ta, uint64_t tb);

/*
 * The largest single backward step whose window meets [ta - near, tb]: one that
 * may lie between the clock read behind the observation at ta (up to near ns
 * before it) and the observation at tb; <= 0 ns.
 */
int64_t mg_steps_largest_back_near(const struct mg_steps *s, uint64_t ta, uint64_t tb,
				   uint64_t near);

/*
 * The latest user-space backward step whose window starts at or before t_ns,
 * among the last 64 kept: its size (*ns < 0) and the end of its window (*at);
 * 0 and 0 if none.
 */
void mg_steps_last_user_back(const struct mg_steps *s, uint64_t t_ns, long long *ns,
			     unsigned long long *at);

#endif
