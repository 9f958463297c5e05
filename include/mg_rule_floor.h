/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rule_floor.h - the floor rule (bpf/floor.bpf.c, check): the two
 * invariants of one fine stamp against the multigrain floor (mg_rule_floor()).
 */
#ifndef MG_RULE_FLOOR_H
#define MG_RULE_FLOOR_H

#include "mg_rule_obs.h"

/* mg_rule_floor() result bits. */
#define MG_RF_FLOOR_CHECKED	(1U << 0)	/* mg_floor was read at entry and exit */
#define MG_RF_FLOOR_BACKWARD	(1U << 1)	/* violation: the second read is lower */
#define MG_RF_FINE_DECIDED	(1U << 2)	/* the fine-stamp condition was decided */
#define MG_RF_FINE_UNNEEDED	(1U << 3)	/* violation: a fine stamp it did not need */

/*
 * The two floor invariants of one fine stamp (bpf/floor.bpf.c's MG_EV_FLOOR_*
 * event): mg_floor read at entry (before) and at return (after) of
 * ktime_get_real_ts64_mg, in that order, and the MG_EVF_FINE_* decision.
 * Returns MG_RF_* bits; a floor event without MG_RF_FINE_DECIDED is undecided.
 */
MG_RULE_INLINE unsigned int mg_rule_floor(unsigned int floor_known, unsigned long long before,
					  unsigned long long after, unsigned int flags)
{
	unsigned int r = 0;

	if (floor_known) {
		r |= MG_RF_FLOOR_CHECKED;
		if (after < before)
			r |= MG_RF_FLOOR_BACKWARD;
	}
	if (flags & (MG_EVF_FINE_NEEDED | MG_EVF_FINE_UNNEEDED)) {
		r |= MG_RF_FINE_DECIDED;
		if (flags & MG_EVF_FINE_UNNEEDED)
			r |= MG_RF_FINE_UNNEEDED;
	}
	return r;
}

#endif /* MG_RULE_FLOOR_H */
