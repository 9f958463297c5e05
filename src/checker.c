// SPDX-License-Identifier: GPL-2.0
/* checker.c - multigrain invariant checker (see checker.h). */
#include <stdlib.h>
#include <string.h>
#include "checker.h"

#define NO_CUR UINT32_MAX		/* max_cur: the maximum was not set by a swap */
#define STALE_WINDOW_NS 1000000000ull	/* a racing getattr is delivered within 1 s */
#define MAX_STEPS 4096

/* Per-inode state: an open-addressing table slot. */
struct ino_state {
	uint64_t ino;
	uint32_t dev, gen;
	bool used, known, have_prev;
	uint32_t max_cur;		/* masked cur_nsec of the swap that set max, or NO_CUR */
	struct mg_ts max;		/* latest (highest) ctime observed */
	struct mg_ts prev;		/* the ctime before max was set */
	struct mg_obs max_obs;		/* the observation that set max */
	char name[MG_NAME_LEN];
};

struct mg_checker {
	struct ino_state *tab;
	size_t cap, max_inodes;		/* cap: power of two >= 2 * max_inodes */
	struct mg_violation *reports;
	size_t nreports, max_reports;
	struct mg_clock_step steps[MAX_STEPS];
	size_t nsteps;
	struct mg_check_stats st;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27; x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

struct mg_checker *mg_checker_new(size_t max_inodes, size_t max_reports)
{
	struct mg_checker *c;

	if (!max_inodes || max_inodes > (1ull << 40))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->max_inodes = max_inodes;
	for (c->cap = 16; c->cap < 2 * max_inodes; c->cap <<= 1)
		;
	c->tab = calloc(c->cap, sizeof(*c->tab));
	c->max_reports = max_reports;
	c->reports = calloc(max_reports ? max_reports : 1, sizeof(*c->reports));
	if (!c->tab || !c->reports) {
		mg_checker_free(c);
		return NULL;
	}
	return c;
}

void mg_checker_free(struct mg_checker *c)
{
	if (!c)
		return;
	free(c->tab);
	free(c->reports);
	free(c);
}

int mg_ts_cmp(struct mg_ts a, struct mg_ts b)
{
	if (a.sec != b.sec)
		return a.sec < b.sec ? -1 : 1;
	if (a.nsec != b.nsec)
		return a.nsec < b.nsec ? -1 : 1;
	return 0;
}

/* Find or insert (dev, ino, gen); NULL when the bound is reached. */
static struct ino_state *lookup(struct mg_checker *c, uint32_t dev, uint64_t ino, uint32_t gen)
{
	size_t i = mix(ino ^ ((uint64_t)dev << 32) ^ ((uint64_t)gen << 13)) & (c->cap - 1);

	for (;; i = (i + 1) & (c->cap - 1)) {
		struct ino_state *s = &c->tab[i];

		if (!s->used) {
			if (c->st.inodes >= c->max_inodes)
				return NULL;
			s->used = true;
			s->dev = dev;
			s->ino = ino;
			s->gen = gen;
			s->max_cur = NO_CUR;
			c->st.inodes++;
			return s;
		}
		if (s->ino == ino && s->dev == dev && s->gen == gen)
			return s;
	}
}

/* A backward step within [t_earlier, t_later]? Returns its size or 0. */
static int64_t step_between(const struct mg_checker *c, uint64_t ta, uint64_t tb)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++)
		if (c->steps[i].delta_ns < 0 && c->steps[i].t1_ns >= ta && c->steps[i].t0_ns <= tb)
			return c->steps[i].delta_ns;
	return 0;
}

void mg_checker_add(struct mg_checker *c, const struct mg_violation *v)
{
	struct mg_violation copy = *v;
	/* A backward step can explain a later ctime that is earlier, not a skip. */
	int64_t step = copy.kind == MG_V_SKIP_QUERIED ? 0 :
		       step_between(c, copy.earlier.t_ns, copy.later.t_ns);

	copy.step_explained = step != 0;
	copy.step_ns = step;
	c->st.violations[copy.kind]++;
	c->st.explained[copy.kind] += copy.step_explained;
	if (c->nreports < c->max_reports)
		c->reports[c->nreports++] = copy;
}

static void obs_of(struct mg_obs *o, const struct mg_event *e)
{
	o->ctime = (struct mg_ts){ e->ctime_sec, e->ctime_nsec & ~MG_I_CTIME_QUERIED };
	o->t_ns = e->ts_ns;
	o->pid = e->pid;
	o->cpu = e->cpu;
	o->kind = e->kind;
	memcpy(o->comm, e->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = 0;
}

static void violation(struct mg_checker *c, enum mg_violation_kind k, const struct ino_state *s,
		      const struct mg_obs *earlier, const struct mg_obs *later)
{
	struct mg_violation v = { .kind = k, .dev = s->dev, .gen = s->gen, .ino = s->ino,
				  .earlier = *earlier, .later = *later };

	memcpy(v.name, s->name, sizeof(v.name));
	strcpy(v.what, "ctime");
	mg_checker_add(c, &v);
}

void mg_checker_event(struct mg_checker *c, const struct mg_event *e)
{
	struct mg_ts v = { e->ctime_sec, e->ctime_nsec & ~MG_I_CTIME_QUERIED };
	struct ino_state *s;
	struct mg_obs obs;
	int cmp;

	c->st.events++;
	if (e->kind < MG_EV_NR_KINDS)
		c->st.by_kind[e->kind]++;
	s = lookup(c, e->dev, e->ino, e->gen);
	if (!s) {
		c->st.untracked_events++;
		return;
	}
	if (e->name[0])
		memcpy(s->name, e->name, sizeof(s->name));
	s->name[MG_NAME_LEN - 1] = 0;
	obs_of(&obs, e);

	/* Invariant 2: an update of a QUERIED ctime must yield a later one. */
	if (e->kind == MG_EV_CTIME_SWAP && (e->old_nsec & MG_I_CTIME_QUERIED)) {
		uint32_t old = e->old_nsec & ~MG_I_CTIME_QUERIED;

		if (s->known && s->max.nsec == old) {
			if (mg_ts_cmp(v, s->max) <= 0)
				violation(c, MG_V_NOT_LATER, s, &s->max_obs, &obs);
		} else {
			c->st.unverified_queried++;
		}
	}
	if (e->kind == MG_EV_CTIME_SKIP && e->queried)
		violation(c, MG_V_SKIP_QUERIED, s, s->known ? &s->max_obs : &obs, &obs);

	/* Invariant 1: no regression. */
	if (s->known) {
		cmp = mg_ts_cmp(v, s->max);
		if (cmp == 0)
			return;
		if (cmp < 0) {
			if (e->kind == MG_EV_STAT && s->have_prev && !mg_ts_cmp(v, s->prev) &&
			    e->ts_ns - s->max_obs.t_ns < STALE_WINDOW_NS)
				c->st.stale_reads++;
			else if (e->kind == MG_EV_CTIME_SWAP && s->max_cur == v.nsec)
				c->st.reordered++;
			else
				violation(c, MG_V_REGRESSION, s, &s->max_obs, &obs);
			return;
		}
	}
	s->prev = s->max;
	s->have_prev = s->known;
	s->max = v;
	s->max_obs = obs;
	s->max_cur = e->kind == MG_EV_CTIME_SWAP ? e->cur_nsec & ~MG_I_CTIME_QUERIED : NO_CUR;
	s->known = true;
}

void mg_checker_clock_step(struct mg_checker *c, uint64_t t0_ns, uint64_t t1_ns, int64_t delta_ns)
{
	c->st.clock_steps++;
	if (c->nsteps < MAX_STEPS)
		c->steps[c->nsteps++] = (struct mg_clock_step){ t0_ns, t1_ns, delta_ns };
}

const struct mg_clock_step *mg_checker_steps(const struct mg_checker *c, size_t *n)
{
	*n = c->nsteps;
	return c->steps;
}

void mg_checker_lost(struct mg_checker *c, uint64_t n)
{
	c->st.lost += n;
}

const struct mg_check_stats *mg_checker_stats(const struct mg_checker *c)
{
	return &c->st;
}

const struct mg_violation *mg_checker_reports(const struct mg_checker *c, size_t *n)
{
	*n = c->nreports;
	return c->reports;
}

uint64_t mg_checker_faults(const struct mg_checker *c)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < MG_V_NR_KINDS; k++)
		n += c->st.violations[k] - c->st.explained[k];
	return n;
}

const char *mg_violation_name(enum mg_violation_kind k)
{
	static const char *const n[MG_V_NR_KINDS] = {
		"ctime_regression", "not_later_after_query", "skip_on_queried", "cross_file_order",
	};

	return k < MG_V_NR_KINDS ? n[k] : "?";
}

static int by_start(const void *a, const void *b)
{
	const struct mg_op *x = a, *y = b;

	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

static int by_end(const void *a, const void *b)
{
	const struct mg_op *x = *(const struct mg_op *const *)a, *y = *(const struct mg_op *const *)b;

	return x->end_ns < y->end_ns ? -1 : x->end_ns > y->end_ns;
}

static void order_violation(struct mg_checker *c, const struct mg_op *a, const struct mg_op *b,
			    const char *what)
{
	struct mg_violation v = { .kind = MG_V_ORDER, .dev = b->dev, .ino = b->ino };
	bool m = what[0] == 'm';

	strcpy(v.what, what);
	/*
	 * The widest bracket, A's start to B's end: a clock step anywhere in it can
	 * explain B < A (A's write may finish, or its end stamp be taken, after the
	 * step was noticed).
	 */
	v.earlier = (struct mg_obs){ .ctime = m ? a->mtime : a->ctime, .t_ns = a->start_ns,
				     .pid = a->thread };
	v.later = (struct mg_obs){ .ctime = m ? b->mtime : b->ctime, .t_ns = b->end_ns,
				   .pid = b->thread };
	mg_checker_add(c, &v);
}

uint64_t mg_order_check(struct mg_checker *c, struct mg_op *ops, size_t n)
{
	const struct mg_op **ends, *maxc = NULL, *maxm = NULL;
	uint64_t found = 0;
	size_t i, j = 0;

	if (!n)
		return 0;
	ends = malloc(n * sizeof(*ends));
	if (!ends)
		return 0;
	qsort(ops, n, sizeof(*ops), by_start);
	for (i = 0; i < n; i++)
		ends[i] = &ops[i];
	qsort(ends, n, sizeof(*ends), by_end);
	for (i = 0; i < n; i++) {
		const struct mg_op *b = &ops[i];

		/* every op that completed before b began */
		for (; j < n && ends[j]->end_ns < b->start_ns; j++) {
			if (!maxc || mg_ts_cmp(ends[j]->ctime, maxc->ctime) > 0)
				maxc = ends[j];
			if (!maxm || mg_ts_cmp(ends[j]->mtime, maxm->mtime) > 0)
				maxm = ends[j];
		}
		if (maxc && mg_ts_cmp(b->ctime, maxc->ctime) < 0) {
			order_violation(c, maxc, b, "ctime");
			found++;
		} else if (maxm && mg_ts_cmp(b->mtime, maxm->mtime) < 0) {
			order_violation(c, maxm, b, "mtime");
			found++;
		}
	}
	free(ends);
	return found;
}
