/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rule_clock.h - realtime clock steps, judged per CPU from the clocks
 * read at each event (struct mg_rclock): the bracket of TAI - MONOTONIC, when
 * to measure it, and a step found between two brackets.
 */
#ifndef MG_RULE_CLOCK_H
#define MG_RULE_CLOCK_H

#include "mg_rule_obs.h"

/*
 * Clock steps, judged per CPU from the clocks read at each event: t0 =
 * CLOCK_MONOTONIC, then tai = CLOCK_TAI, and, only when needed, t1 =
 * CLOCK_MONOTONIC again. TAI - MONOTONIC is the kernel's offs_tai: setting
 * CLOCK_REALTIME (settimeofday, clock_settime, adjtimex ADJ_SETOFFSET) moves it,
 * and so does adjtimex ADJ_TAI (a change of the TAI offset, seen as a step of
 * whole seconds); a leap second does not (REALTIME and the TAI offset move
 * together). The fast clocks read it as mono(now) + offs_tai, so x = tai - t0 >=
 * offs_tai >= tai - t1: [tai - t1, x] brackets it.
 *
 * struct mg_rclock keeps the last measured bracket [lo, hi] (an event where t1
 * was read). A later event reads t1 only when:
 *  - x < lo: offs_tai fell below a proven lower bound (a step back);
 *  - x > hi + MG_CLK_RISE_NS (possibly a step forward);
 *  - the bracket is wider than MG_CLK_WIDE_NS (an interrupt between its reads,
 *    or a machine whose clock reads are slow: then every event measures);
 *  - or it is older than MG_CLK_REFRESH_NS.
 * A measured bracket disjoint from the kept one is a step, reported with the
 * window from the kept bracket's measurement to this event: offs_tai was inside
 * the kept bracket at its measurement, so the step lies in that window.
 *
 * What this gives up against reading t1 at every event: a step forward of up to
 * MG_CLK_RISE_NS + MG_CLK_WIDE_NS (0.35 us) may go unreported (it cannot explain
 * a violation: no ctime gets earlier when the clock jumps ahead), and then, until
 * the next measurement (at most MG_CLK_REFRESH_NS later), a step back is seen
 * net of it: two steps within 100 us, the first forward and under 0.35 us, look
 * like their sum, as two steps between one event and the next always did.
 */
#define MG_CLK_RISE_NS 100LL
#define MG_CLK_WIDE_NS 250LL
#define MG_CLK_REFRESH_NS 100000ULL

struct mg_rclock {
	long long lo, hi;		/* the last measured bracket of TAI - MONOTONIC, ns */
	unsigned long long measured;	/* CLOCK_MONOTONIC when it was measured (0: never) */
	long long back_lo;		/* the last step found that was surely backward: its
					 * largest size (< 0 ns; 0: none yet) */
	unsigned long long back_at;	/* CLOCK_MONOTONIC of the event that found it */
};

/* True when the event with clocks t0, tai needs t1 (mg_rule_clock_measure()). */
MG_RULE_INLINE int mg_rule_clock_need_t1(const struct mg_rclock *c, unsigned long long t0,
					 unsigned long long tai)
{
	long long x = (long long)(tai - t0);

	return !c->measured || t0 - c->measured > MG_CLK_REFRESH_NS || x < c->lo ||
	       x > c->hi + MG_CLK_RISE_NS || c->hi - c->lo > MG_CLK_WIDE_NS;
}

/*
 * An event whose t1 was read: measures [tai - t1, tai - t0] and keeps it;
 * returns 1 if it is disjoint from the bracket kept so far (a step: *t_from,
 * when that bracket was measured, and the step's size in [*dlo, *dhi] ns,
 * negative for back), else 0.
 */
MG_RULE_INLINE int mg_rule_clock_measure(struct mg_rclock *c, unsigned long long t0,
					 unsigned long long tai, unsigned long long t1,
					 unsigned long long *t_from, long long *dlo, long long *dhi)
{
	long long lo = (long long)(tai - t1), hi = (long long)(tai - t0);
	int step = c->measured && (hi < c->lo || lo > c->hi);

	if (step) {
		*t_from = c->measured;
		*dlo = lo - c->hi;
		*dhi = hi - c->lo;
		if (*dhi < 0) {
			c->back_lo = *dlo;
			c->back_at = t0;
		}
	}
	c->lo = lo;
	c->hi = hi;
	c->measured = t0;
	return step;
}

#endif /* MG_RULE_CLOCK_H */
