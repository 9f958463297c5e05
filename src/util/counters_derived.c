// SPDX-License-Identifier: GPL-2.0
/*
 * counters_derived.c - the rows that are differences of others (see counters.h,
 * counters_derived.h): x - y - z per CPU where every operand has per-CPU values, whether
 * the operands were one consistent reading, a difference below 0 printed as 0
 * (approximate), and what nfsd's delegated-timestamp swaps do to them.
 */
#include <stdio.h>
#include <string.h>
#include "counters_derived.h"

/*
 * Whether x - y - z comes from one consistent reading: the operands are read one
 * after another (kernel per-CPU counters, then the BPF map), and an operation counted
 * in x before the reading but in y or z after it (in flight) shifts the difference.
 * The reading is taken as consistent when every operand with a debugfs bracket shows
 * that nothing moved while either end was read (width 0), and at least one has a
 * bracket; otherwise r is marked approximate, with the widest operand named.
 */
static void derive_consistency(struct mg_row *r, const struct mg_row *x, const struct mg_row *y,
			       const struct mg_row *z)
{
	const struct mg_row *ops[3] = { x, y, z }, *w = NULL;
	int i;

	for (i = 0; i < 3 && ops[i]; i++)
		if (ops[i]->have_bracket && (!w || ops[i]->bracket.width > w->bracket.width))
			w = ops[i];
	if (!w) {
		r->approx = true;
		snprintf(r->approx_why, sizeof(r->approx_why), "approximate: no debugfs reading "
			 "shows the operands were still while they were read");
	} else if (w->bracket.width) {
		r->approx = true;
		snprintf(r->approx_why, sizeof(r->approx_why), "approximate: read while the "
			 "counters moved (%s: %lld counted during the readings)", w->name,
			 (long long)w->bracket.width);
	}
}

/*
 * r = x - y - z (z may be NULL), per CPU where all operands have per-CPU values;
 * never below 0 (struct mg_row: approx, clamped, raw).
 */
void mg_row_derive(struct mg_row *r, const struct mg_row *x, const struct mg_row *y,
		   const struct mg_row *z, int n)
{
	int cpu;

	snprintf(r->detail, sizeof(r->detail), "%s - %s%s%s", x->name, y->name,
		 z ? " - " : "", z ? z->name : "");
	if (!x->have_total || !y->have_total || (z && !z->have_total)) {
		const struct mg_row *m = !x->have_total ? x : !y->have_total ? y : z;

		r->src = MG_SRC_UNAVAILABLE;
		r->by_design = m->by_design;
		/* an option counts it only when one counts every missing operand */
		r->opt_in = (x->have_total || x->opt_in) && (y->have_total || y->opt_in) &&
			    (!z || z->have_total || z->opt_in);
		size_t k;

		k = (size_t)snprintf(r->why, sizeof(r->why), "needs %s (%s: ", r->detail, m->name);
		for (const char *w = m->why; *w && k + 2 < sizeof(r->why); w++)
			r->why[k++] = *w;
		if (k + 1 < sizeof(r->why)) {
			r->why[k++] = ')';
			r->why[k] = 0;
		}
		return;
	}
	/* an operand that differs from the kernel's own count for the window (BPF runs the
	 * kernel skipped, see mg_session_recursion_misses()) would make the difference wrong */
	if (x->mismatch || y->mismatch || (z && z->mismatch)) {
		const struct mg_row *m = x->mismatch ? x : y->mismatch ? y : z;

		r->src = MG_SRC_UNAVAILABLE;
		snprintf(r->why, sizeof(r->why), "needs %.60s, but %s %lld differs from the kernel's "
			 "%lld (%s)", r->detail, m->name, (long long)m->total, (long long)m->kernel,
			 m->src == MG_SRC_BPF ? "BPF program runs skipped?" :
			 "the per-CPU reading disagrees with debugfs");
		return;
	}
	r->src = MG_SRC_DERIVED;
	r->have_total = true;
	r->raw = r->total = x->total - y->total - (z ? z->total : 0);
	derive_consistency(r, x, y, z);
	if (r->total < 0) {
		r->total = 0;
		r->clamped = r->approx = true;
		snprintf(r->approx_why, sizeof(r->approx_why), "approximate: a difference below 0 "
			 "(%lld) printed as 0: operations in flight while the operands were read",
			 (long long)r->raw);
	}
	r->have_percpu = x->have_percpu && y->have_percpu && (!z || z->have_percpu);
	if (!r->have_percpu) {
		snprintf(r->why, sizeof(r->why), "per-CPU: an operand has no per-CPU values");
		return;
	}
	for (cpu = 0; cpu < n; cpu++) {
		r->percpu[cpu] = x->percpu[cpu] - y->percpu[cpu] - (z ? z->percpu[cpu] : 0);
		/* below 0 on one CPU: an operation counted on two CPUs (migrated between its
		 * increments) or in flight; no per-CPU split is printed rather than a wrong one.
		 * The total stays what derive_consistency() found: a migrated operation is in
		 * every sum, and one in flight already shows in a bracket's width. */
		if (r->percpu[cpu] < 0 && r->have_percpu) {
			r->have_percpu = false;
			snprintf(r->why, sizeof(r->why), "per-CPU: a difference below 0 on CPU%d "
				 "(%lld): operations in flight or migrated between the operands' "
				 "increments", cpu, (long long)r->percpu[cpu]);
		}
	}
	if (!r->have_percpu)
		memset(r->percpu, 0, sizeof(*r->percpu) * n);
}

/*
 * nfsd is loaded: inode_set_ctime_deleg() (fs/inode.c, NFS delegated timestamps) swaps a
 * ctime and counts mg_ctime_swaps, with no tracepoint and no mg_ctime_updates. So the
 * kernel's ctime_swaps may exceed the ctime_ns_xchg events (a BPF count below it is then
 * no lost event, but it cannot be told from one: the mismatch stays, with this reason),
 * and updates - swaps - skips is low by their number (approximate).
 */
void mg_rows_deleg_swaps(struct mg_report *rep, struct mg_row *R)
{
	static const char why[] = "the kernel's ctime_swaps also counts NFS delegated-timestamp "
				  "swaps (inode_set_ctime_deleg; nfsd is loaded), which fire no "
				  "tracepoint and are no ctime updates";
	struct mg_row *s = &R[MG_R_CTIME_SWAPS], *f = &R[MG_R_CTIME_CMPXCHG_FAILS];

	rep->deleg_possible = true;
	if (s->mismatch && s->src == MG_SRC_BPF && s->total < s->bracket.low)
		snprintf(s->why, sizeof(s->why), "below the kernel's count: %s", why);
	if (f->src == MG_SRC_UNAVAILABLE && R[MG_R_CTIME_SWAPS].mismatch)
		snprintf(f->why, sizeof(f->why), "needs %.40s, but ctime_swaps differs from the "
			 "kernel's: %s", f->detail, why);
	else if (f->have_total && f->clamped)
		snprintf(f->approx_why, sizeof(f->approx_why), "approximate: a difference below 0 "
			 "(%lld) printed as 0: delegated swaps or operations in flight; %s",
			 (long long)f->raw, why);
	else if (f->have_total) {
		f->approx = true;
		snprintf(f->approx_why, sizeof(f->approx_why), "approximate: low by the delegated "
			 "swaps; %s", why);
	}
}
