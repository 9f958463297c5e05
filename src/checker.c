// SPDX-License-Identifier: GPL-2.0
/* checker.c - multigrain invariant checker (see checker.h). */
#include <stdlib.h>
#include <string.h>
#include "checker.h"

#define NO_CUR UINT32_MAX		/* max_cur: the maximum was not set by a swap */
#define STALE_WINDOW_NS 1000000000ull	/* a racing getattr is delivered within 1 s */
#define MAX_STEPS 4096
#define HIST 4				/* replaced ctimes remembered per inode */

/* Where an inode's latest ctime came from. */
enum ctime_src {
	SRC_OTHER,	/* first seen by getattr or skip (stored on disk, or unknown), or set
			 * explicitly (inode_set_ctime_to_ts) */
	SRC_CLOCK,	/* a swap by inode_set_ctime_current: the kernel's clock */
};

/* Per-inode state: an open-addressing table slot. */
struct ino_state {
	uint64_t ino;
	uint32_t dev, gen;
	bool used, known, have_prev;
	uint8_t src;			/* enum ctime_src of max */
	bool name_cut;			/* name was cut by the event buffer (mg_event::name_len) */
	uint32_t max_cur;		/* masked cur_nsec of the swap that set max, or NO_CUR */
	struct mg_ts max;		/* latest (highest) ctime observed */
	struct mg_ts prev;		/* the ctime before max was set */
	/* the last HIST values max replaced, newest first, with when each was replaced */
	struct { struct mg_ts v; uint64_t replaced_ns; } hist[HIST];
	uint8_t nhist;
	struct mg_obs max_obs;		/* the observation that set max */
	uint64_t max_stat_ns;		/* earliest getattr event showing max (0: none) */
	/* a getattr of an older value never seen before: a concurrent update's, whose swap
	 * event may still come, or a regression; judged when that swap comes or the window
	 * passes (pending_stat) */
	bool pending_stat;
	struct mg_obs pending_obs, pending_earlier;
	char name[MG_NAME_LEN];
};

struct mg_checker {
	struct ino_state *tab;
	size_t cap, max_inodes;		/* cap: power of two >= 2 * max_inodes */
	struct mg_violation *reports;
	size_t nreports, max_reports;
	struct mg_clock_step steps[MAX_STEPS];
	size_t nsteps;
	int64_t tai_minus_real;		/* ns: CLOCK_TAI - CLOCK_REALTIME */
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

/* The backward realtime steps recorded within [ta, tb], added up (<= 0 ns). */
static int64_t steps_between(const struct mg_checker *c, uint64_t ta, uint64_t tb)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < c->nsteps; i++)
		if (c->steps[i].delta_ns < 0 && c->steps[i].t1_ns >= ta && c->steps[i].t0_ns <= tb)
			sum += c->steps[i].delta_ns;
	return sum;
}

/* a - b in ns, saturated to INT64 range. */
static int64_t ts_diff(struct mg_ts a, struct mg_ts b)
{
	__int128 d = (__int128)(a.sec - b.sec) * 1000000000 + ((int64_t)a.nsec - (int64_t)b.nsec);

	return d > INT64_MAX ? INT64_MAX : d < INT64_MIN ? INT64_MIN : (int64_t)d;
}

/*
 * How far the realtime clock stepped back between two observations: the
 * larger of what user space recorded in that window and what the BPF offsets
 * read at the two events show. <= 0 ns.
 */
static int64_t backward_between(const struct mg_checker *c, const struct mg_obs *a,
				const struct mg_obs *b)
{
	int64_t rec = steps_between(c, a->t_ns, b->t_ns), ev = 0;

	if (a->off_known && b->off_known && b->off_ns < a->off_ns)
		ev = b->off_ns - a->off_ns;
	return rec < ev ? rec : ev;
}

void mg_checker_add(struct mg_checker *c, const struct mg_violation *v)
{
	struct mg_violation copy = *v;
	int64_t back = 0, gap;

	/* A backward step can explain a later value that is not later, nothing else. */
	if (copy.kind == MG_V_REGRESSION || copy.kind == MG_V_NOT_LATER || copy.kind == MG_V_ORDER) {
		back = backward_between(c, &copy.earlier, &copy.later);
		gap = ts_diff(copy.earlier.ctime, copy.later.ctime);	/* >= 0 */
		if (back < 0 && -back + MG_STEP_SLACK_NS < gap)
			back = 0;	/* the steps are too small to explain it */
	}
	copy.step_explained = back != 0;
	copy.step_ns = back;
	c->st.violations[copy.kind]++;
	c->st.explained[copy.kind] += copy.step_explained;
	if (c->nreports < c->max_reports)
		c->reports[c->nreports++] = copy;
}

static void obs_of(struct mg_obs *o, const struct mg_event *e)
{
	o->ctime = (struct mg_ts){ e->ctime_sec, e->ctime_nsec & ~MG_I_CTIME_QUERIED };
	o->t_ns = e->ts_ns;
	o->off_known = e->tai_ns != 0;
	o->off_ns = (int64_t)(e->tai_ns - e->ts_ns);
	o->pid = e->pid;
	o->cpu = e->cpu;
	o->kind = e->kind;
	o->entry_ns = e->entry_ns;
	memcpy(o->comm, e->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = 0;
}

static void violation(struct mg_checker *c, enum mg_violation_kind k, const struct ino_state *s,
		      const struct mg_obs *earlier, const struct mg_obs *later)
{
	struct mg_violation v = { .kind = k, .dev = s->dev, .gen = s->gen, .ino = s->ino,
				  .earlier = *earlier, .later = *later };

	memcpy(v.name, s->name, sizeof(v.name));
	v.name_truncated = s->name_cut;
	strcpy(v.what, "ctime");
	mg_checker_add(c, &v);
}

/* The event's CLOCK_REALTIME, from its BPF-read TAI time; false if unknown. */
static bool event_realtime(const struct mg_checker *c, const struct mg_event *e, struct mg_ts *out)
{
	int64_t r;

	if (!e->tai_ns)
		return false;
	r = (int64_t)e->tai_ns - c->tai_minus_real;
	out->sec = r / 1000000000;
	out->nsec = (uint32_t)(r % 1000000000);
	return true;
}

/* Floor events (bpf/floor.bpf.c): the two floor invariants. */
static void floor_event(struct mg_checker *c, struct ino_state *s, const struct mg_event *e,
			const struct mg_obs *obs)
{
	struct mg_violation v = { .dev = e->dev, .gen = e->gen, .ino = e->ino,
				  .earlier = *obs, .later = *obs };

	if (s) {
		memcpy(v.name, s->name, sizeof(v.name));
		v.name_truncated = s->name_cut;
	}
	strcpy(v.what, "floor");
	if (e->floor_known) {
		c->st.floor_checked++;
		/* two reads of one variable, in this order: a lower second value is a move back */
		if (e->floor_after < e->floor_before) {
			v.kind = MG_V_FLOOR_BACKWARD;
			v.earlier.ctime = (struct mg_ts){ (int64_t)(e->floor_before / 1000000000),
							  (uint32_t)(e->floor_before % 1000000000) };
			v.later.ctime = (struct mg_ts){ (int64_t)(e->floor_after / 1000000000),
							(uint32_t)(e->floor_after % 1000000000) };
			mg_checker_add(c, &v);
		}
	}
	if (e->flags & (MG_EVF_FINE_NEEDED | MG_EVF_FINE_UNNEEDED)) {
		c->st.fine_checked++;
		if (e->flags & MG_EVF_FINE_UNNEEDED) {
			v.kind = MG_V_FINE_UNNEEDED;
			mg_checker_add(c, &v);
		}
	} else {
		/* every floor event is a fine stamp: one not decided (state changed between
		 * the captures, or its inode_set_ctime_current began before the probes
		 * were attached: no MG_EVF_IN_SET_CTIME) is undecided, never dropped */
		c->st.fine_undecided++;
	}
}

/* Remember that the inode held v until replaced_ns (newest first, HIST kept). */
static void hist_push(struct ino_state *s, struct mg_ts v, uint64_t replaced_ns)
{
	memmove(&s->hist[1], &s->hist[0], sizeof(s->hist[0]) * (HIST - 1));
	s->hist[0].v = v;
	s->hist[0].replaced_ns = replaced_ns;
	if (s->nhist < HIST)
		s->nhist++;
}

/* True if v is a value the inode held, replaced less than STALE_WINDOW_NS before t_ns. */
static bool held_recently(const struct ino_state *s, struct mg_ts v, uint64_t t_ns)
{
	for (int h = 0; h < s->nhist; h++)
		if (!mg_ts_cmp(v, s->hist[h].v))
			return (int64_t)(t_ns - s->hist[h].replaced_ns) < (int64_t)STALE_WINDOW_NS;
	return false;
}

/* max becomes v, observed by obs; src says where v came from. */
static void advance(struct ino_state *s, struct mg_ts v, const struct mg_obs *obs,
		    const struct mg_event *e, enum ctime_src src)
{
	if (s->known)
		hist_push(s, s->max, obs->t_ns);
	s->prev = s->max;
	s->have_prev = s->known;
	s->max = v;
	s->max_obs = *obs;
	s->max_cur = e->kind == MG_EV_CTIME_SWAP ? e->cur_nsec & ~MG_I_CTIME_QUERIED : NO_CUR;
	s->max_stat_ns = e->kind == MG_EV_STAT ? e->ts_ns : 0;
	s->src = src;
	s->known = true;
}

static void resolve_pending(struct mg_checker *c, struct ino_state *s, const struct mg_event *e,
			    struct mg_ts v);

/*
 * v is earlier than the latest ctime seen: decide whether it is a race the
 * kernel allows, a case outside its contract, or a regression.
 */
static void earlier_value(struct mg_checker *c, struct ino_state *s, const struct mg_event *e,
			  struct mg_ts v, const struct mg_obs *obs)
{
	/* signed: a racing read may be stamped before the update delivered ahead of it */
	int64_t age = (int64_t)(e->ts_ns - s->max_obs.t_ns);
	struct mg_ts now;

	/*
	 * A getattr reads the ctime some time before its tracepoint fires, and a
	 * skip reports the value its update loaded before deciding: under
	 * preemption (or emulation) several updates can land in between. A value
	 * the inode held shortly before the event is a stale read: one that was
	 * replaced less than STALE_WINDOW_NS before the event. Times are signed:
	 * the read may be stamped before the update delivered ahead of it.
	 */
	if ((e->kind == MG_EV_STAT || e->kind == MG_EV_CTIME_SKIP) && held_recently(s, v, e->ts_ns)) {
		c->st.benign[MG_B_STALE_READ]++;
		return;
	}
	/* fill_mg_cmtime reads i_ctime_sec, then i_ctime_nsec; an update swaps the
	 * nanoseconds, then stores the seconds: a read between shows old sec, new nsec */
	if (e->kind == MG_EV_STAT && s->have_prev && v.sec == s->prev.sec &&
	    v.nsec == s->max.nsec && age < (int64_t)STALE_WINDOW_NS) {
		c->st.benign[MG_B_TORN_READ]++;
		return;
	}
	if (e->kind == MG_EV_CTIME_SWAP && s->max_cur == v.nsec) {
		/* the inode held v until the swap that set max replaced it */
		c->st.benign[MG_B_REORDERED]++;
		hist_push(s, v, s->max_obs.t_ns);
		return;
	}
	/* a ctime from disk or set explicitly, later than the clock: the kernel replaces it */
	if (s->src == SRC_OTHER && event_realtime(c, e, &now) && mg_ts_cmp(s->max, now) > 0) {
		c->st.benign[MG_B_FUTURE_CTIME]++;
		advance(s, v, obs, e, e->kind == MG_EV_CTIME_SWAP ? SRC_CLOCK : SRC_OTHER);
		s->have_prev = false;
		s->nhist = 0;
		return;
	}
	/*
	 * An update reads the clock before it loads i_ctime_nsec and swaps, and
	 * the kernel's QUERIED retry swaps without comparing again: an update that
	 * began before the earlier value's event may carry a clock read older than
	 * that value. Overlapping updates have no order (multigrain-ts.rst). With
	 * the update's entry time (function probes) the overlap is decided; without
	 * it, an update within STALE_WINDOW_NS of the earlier value is undecided.
	 */
	if (e->kind == MG_EV_CTIME_SWAP &&
	    (e->entry_ns ? (int64_t)(s->max_obs.t_ns - e->entry_ns) > 0 :
			   age < (int64_t)STALE_WINDOW_NS)) {
		c->st.benign[e->entry_ns ? MG_B_CONCURRENT : MG_B_CONCURRENT_UNDECIDED]++;
		advance(s, v, obs, e, SRC_CLOCK);	/* the inode holds v now */
		s->have_prev = false;
		s->nhist = 0;
		return;
	}
	/*
	 * A getattr of an older value not seen before may show a concurrent update's
	 * value whose swap event, reserved after the getattr's, is still to come. Hold
	 * it: the swap of that value resolves it; otherwise it is a regression once
	 * STALE_WINDOW_NS has passed (or at the end).
	 */
	if (e->kind == MG_EV_STAT || e->kind == MG_EV_CTIME_SKIP) {
		if (s->pending_stat)	/* one held at a time: judge the older one now */
			resolve_pending(c, s, NULL, v);
		s->pending_stat = true;
		s->pending_obs = *obs;
		s->pending_earlier = s->max_obs;
		return;
	}
	violation(c, MG_V_REGRESSION, s, &s->max_obs, obs);
	/* judge what follows against the new value, not against one already reported */
	advance(s, v, obs, e, e->kind == MG_EV_CTIME_SWAP ? SRC_CLOCK : SRC_OTHER);
	s->have_prev = false;
	s->nhist = 0;
}

/*
 * A held getattr (pending_stat): a swap to the value it showed means it read a
 * concurrent update (counted as such; the swap itself is judged as usual); an
 * event past the window, or e NULL (the end), makes it a regression.
 */
static void resolve_pending(struct mg_checker *c, struct ino_state *s, const struct mg_event *e,
			    struct mg_ts v)
{
	if (e && e->kind == MG_EV_CTIME_SWAP && !mg_ts_cmp(v, s->pending_obs.ctime)) {
		c->st.benign[MG_B_CONCURRENT_READ]++;
		s->pending_stat = false;
		return;
	}
	if (e && (int64_t)(e->ts_ns - s->pending_obs.t_ns) < (int64_t)STALE_WINDOW_NS)
		return;
	s->pending_stat = false;
	/* a swap delivered since (reordered) may have shown that the inode held the value */
	if (held_recently(s, s->pending_obs.ctime, s->pending_obs.t_ns)) {
		c->st.benign[MG_B_STALE_READ]++;
		return;
	}
	/*
	 * A value no traced update installed, read within STALE_WINDOW_NS of the
	 * newer one: the events cannot tell which update set it (seen in the VM with
	 * two threads writing one file), so it is undecided, not a fault.
	 */
	if ((int64_t)(s->pending_obs.t_ns - s->pending_earlier.t_ns) < (int64_t)STALE_WINDOW_NS) {
		c->st.benign[MG_B_UNSEEN]++;
		return;
	}
	violation(c, MG_V_REGRESSION, s, &s->pending_earlier, &s->pending_obs);
}

void mg_checker_finish(struct mg_checker *c)
{
	size_t i;

	for (i = 0; i < c->cap; i++)
		if (c->tab[i].used && c->tab[i].pending_stat)
			resolve_pending(c, &c->tab[i], NULL, (struct mg_ts){ 0, 0 });
}

/* Invariant 2 for a swap whose decision value (old) carried QUERIED. */
static void queried_swap(struct mg_checker *c, struct ino_state *s, const struct mg_event *e,
			 struct mg_ts v, const struct mg_obs *obs)
{
	uint32_t old = e->old_nsec & ~MG_I_CTIME_QUERIED;
	struct mg_ts base, now;
	const struct mg_obs *base_obs;
	enum ctime_src base_src;

	/* the replaced value: the latest seen, or the one before if a getattr of the new
	 * value was delivered ahead of this swap */
	if (s->known && s->max.nsec == old) {
		base = s->max;
		base_obs = &s->max_obs;
		base_src = s->src;
	} else if (s->known && s->have_prev && s->prev.nsec == old && !mg_ts_cmp(v, s->max)) {
		base = s->prev;
		base_obs = obs;	/* the observation of prev is gone; report this one */
		base_src = SRC_OTHER;
	} else {
		c->st.benign[MG_B_UNVERIFIED]++;
		return;
	}
	if (mg_ts_cmp(v, base) != 0)
		return;		/* later: holds; earlier: judged as a regression */
	if (e->time_gran > 1) {
		c->st.benign[MG_B_GRANULARITY]++;
		return;
	}
	if (base_src == SRC_OTHER && event_realtime(c, e, &now) && mg_ts_cmp(base, now) > 0) {
		c->st.benign[MG_B_FUTURE_CTIME]++;
		return;
	}
	violation(c, MG_V_NOT_LATER, s, base_obs, obs);
}

void mg_checker_event(struct mg_checker *c, const struct mg_event *e)
{
	struct mg_ts v = { e->ctime_sec, e->ctime_nsec & ~MG_I_CTIME_QUERIED };
	struct ino_state *s = NULL;
	struct mg_obs obs;
	int cmp;

	c->st.events++;
	if (e->kind < MG_EV_NR_KINDS)
		c->st.by_kind[e->kind]++;
	obs_of(&obs, e);
	if (e->kind >= MG_EV_FLOOR_SWAP) {
		if (e->ino)
			s = lookup(c, e->dev, e->ino, e->gen);
		floor_event(c, s, e, &obs);
		return;
	}
	s = lookup(c, e->dev, e->ino, e->gen);
	if (!s) {
		c->st.untracked_events++;
		return;
	}
	if (e->name[0]) {
		memcpy(s->name, e->name, sizeof(s->name));
		s->name_cut = e->name_len > strnlen(e->name, sizeof(e->name));
	}
	s->name[MG_NAME_LEN - 1] = 0;
	if (s->pending_stat)
		resolve_pending(c, s, e, v);

	if (e->kind == MG_EV_CTIME_SWAP && (e->flags & MG_EVF_SEC_UNSURE)) {
		/* the nanoseconds are this swap's, the seconds may be another's: not judged */
		c->st.benign[MG_B_SEC_UNSURE]++;
		return;
	}
	if (e->kind == MG_EV_CTIME_SWAP && (e->old_nsec & MG_I_CTIME_QUERIED))
		queried_swap(c, s, e, v, &obs);

	/*
	 * A skip happens only when the value the kernel decided on equals the new
	 * time exactly, and a time's nanoseconds never carry QUERIED: so the
	 * kernel never skips over a QUERIED ctime it saw. A getattr of the same
	 * value proves it was QUERIED only if it finished before the update began
	 * (entry_ns, from a function probe) and no other update came between.
	 */
	if (e->kind == MG_EV_CTIME_SKIP && s->known && !mg_ts_cmp(v, s->max) && s->max_stat_ns) {
		if (e->time_gran > 1)
			c->st.benign[MG_B_GRANULARITY]++;
		else if (e->entry_ns && s->max_stat_ns < e->entry_ns)
			violation(c, MG_V_SKIP_AFTER_QUERY, s, &s->max_obs, &obs);
		else
			c->st.benign[MG_B_SKIP_UNDECIDED]++;
	}

	/* Invariant 1: no regression. */
	if (s->known) {
		cmp = mg_ts_cmp(v, s->max);
		if (cmp == 0) {
			if (e->kind == MG_EV_CTIME_SWAP)
				s->src = SRC_CLOCK;
			if (e->kind == MG_EV_STAT && !s->max_stat_ns)
				s->max_stat_ns = e->ts_ns;
			return;
		}
		if (cmp < 0) {
			earlier_value(c, s, e, v, &obs);
			return;
		}
	}
	advance(s, v, &obs, e, e->kind == MG_EV_CTIME_SWAP ? SRC_CLOCK : SRC_OTHER);
}

void mg_checker_set_tai_offset(struct mg_checker *c, int64_t tai_minus_real_ns)
{
	c->tai_minus_real = tai_minus_real_ns;
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

void mg_checker_missed(struct mg_checker *c, uint64_t n)
{
	c->st.missed += n;
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
