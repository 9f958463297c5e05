/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rule_out.h - what judging one event found (struct mg_rout): its
 * violations and not-fault cases, each with the earlier and the later
 * observation it was judged on.
 */
#ifndef MG_RULE_OUT_H
#define MG_RULE_OUT_H

#include "mg_rule_obs.h"

#define MG_RULE_MAX_VIOL 2		/* violations one event can produce (resolving a held
					 * getattr, then its own) */

/* A violation: the earlier observation and the later one that contradicts it. */
struct mg_rviol {
	unsigned int kind;		/* enum mg_violation_kind */
	unsigned int later_flags;	/* the later event's MG_EVF_* (MG_EVF_DIR of a set), when
					 * that event is the one judged; 0: not known */
	struct mg_robs earlier, later;
};

/*
 * What judging one event found; the caller clears it first with mg_rule_out_init().
 * viol[] is read only below nviol and ben only when has_ben is set.
 */
struct mg_rout {
	unsigned char benign[MG_B_NR_KINDS];	/* not-fault cases found, by kind */
	unsigned int nviol;			/* entries of viol[] used */
	unsigned int overflow;			/* violations beyond MG_RULE_MAX_VIOL (never
						 * expected; counted, not dropped silently) */
	struct mg_rviol viol[MG_RULE_MAX_VIOL];
	unsigned int has_ben;			/* ben holds the first not-fault case */
	struct mg_rviol ben;			/* its kind (enum mg_benign_kind) and the two
						 * observations it was judged on */
};

/*
 * The n-th observation out reports (the violations' earlier and later, then the
 * first not-fault case's), or NULL past the last: for a caller that fills in
 * the context of those the state kept (MG_CTX_KEPT).
 */
MG_RULE_INLINE struct mg_robs *mg_rule_out_obs(struct mg_rout *out, unsigned int n)
{
	unsigned int nv = out->nviol < MG_RULE_MAX_VIOL ? out->nviol : MG_RULE_MAX_VIOL;

	if (n < 2 * nv)
		return n & 1 ? &out->viol[n / 2].later : &out->viol[n / 2].earlier;
	if (out->has_ben && n < 2 * nv + 2)
		return n & 1 ? &out->ben.later : &out->ben.earlier;
	return 0;
}

/*
 * Clear what mg_rule_event() reports: the counts and flags only. viol[] and ben
 * (a few hundred bytes) are written before they become valid, so clearing them
 * on every event, which the BPF side pays for, is not needed.
 */
MG_RULE_INLINE void mg_rule_out_init(struct mg_rout *out)
{
	int i;

	for (i = 0; i < MG_B_NR_KINDS; i++)
		out->benign[i] = 0;
	out->nviol = 0;
	out->overflow = 0;
	out->has_ben = 0;
}

/*
 * A violation of kind: the earlier observation is es (the state's) or else eo,
 * the later one ls or else lo (the callers pass constants: the other is NULL).
 */
MG_RULE_INLINE void mg_rule_viol(struct mg_rout *out, unsigned int kind,
				 const struct mg_rseen *es, const struct mg_robs *eo,
				 const struct mg_rseen *ls, const struct mg_robs *lo,
				 unsigned int later_flags)
{
	unsigned int n = out->nviol;

	if (n >= MG_RULE_MAX_VIOL) {
		out->overflow++;
		return;
	}
	out->viol[n].kind = kind;
	mg_rule_put_obs(&out->viol[n].earlier, es, eo);
	mg_rule_put_obs(&out->viol[n].later, ls, lo);
	out->viol[n].later_flags = later_flags;
	out->nviol = n + 1;
}

/*
 * A not-fault case of kind k, judged on earlier (es or eo) and later (ls or lo),
 * as mg_rule_viol(): counted; the first one kept.
 */
MG_RULE_INLINE void mg_rule_benign(struct mg_rout *out, unsigned int k,
				   const struct mg_rseen *es, const struct mg_robs *eo,
				   const struct mg_rseen *ls, const struct mg_robs *lo)
{
	if (k >= MG_B_NR_KINDS)
		return;
	out->benign[k]++;
	if (out->has_ben)
		return;
	out->has_ben = 1;
	out->ben.kind = k;
	mg_rule_put_obs(&out->ben.earlier, es, eo);
	mg_rule_put_obs(&out->ben.later, ls, lo);
}

#endif /* MG_RULE_OUT_H */
