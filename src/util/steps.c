// SPDX-License-Identifier: GPL-2.0
/* steps.c - the realtime clock steps a check saw (see steps.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include "steps.h"

/* A BPF record is compared with the last this many steps kept (they come in time order,
 * give or take a CPU's lag); user-space steps are searched as far back for the rules. */
#define RECENT 64

void mg_steps_free(struct mg_steps *s)
{
	free(s->user);
	free(s->kern);
	*s = (struct mg_steps){ 0 };
}

/* Room for one more element in *arr (n used of *cap, each size bytes): false at the bound. */
static bool grow(void **arr, size_t n, size_t *cap, size_t size)
{
	size_t ncap = *cap ? 2 * *cap : 256;
	void *p;

	if (n < *cap)
		return true;
	if (n >= MG_STEPS_MAX || !(p = realloc(*arr, ncap * size)))
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

int mg_steps_add_user(struct mg_steps *s, uint64_t t0_ns, uint64_t t1_ns, int64_t delta_ns)
{
	if (!grow((void **)&s->user, s->nuser, &s->capuser, sizeof(*s->user)))
		return -ENOSPC;
	s->user[s->nuser++] = (struct mg_clock_step){ t0_ns, t1_ns, delta_ns };
	return 0;
}

int mg_steps_add_kernel(struct mg_steps *s, uint64_t t0_ns, uint64_t t1_ns, int64_t lo,
			int64_t hi)
{
	size_t i;

	for (i = s->nkern > RECENT ? s->nkern - RECENT : 0; i < s->nkern; i++) {
		struct mg_kstep *k = &s->kern[i];

		if (t0_ns <= k->t1 && k->t0 <= t1_ns && lo <= k->hi && k->lo <= hi) {
			/* the same step seen from another CPU: both brackets hold it */
			k->t0 = k->t0 > t0_ns ? k->t0 : t0_ns;
			k->t1 = k->t1 < t1_ns ? k->t1 : t1_ns;
			k->lo = k->lo > lo ? k->lo : lo;
			k->hi = k->hi < hi ? k->hi : hi;
			return 1;
		}
	}
	if (!grow((void **)&s->kern, s->nkern, &s->capkern, sizeof(*s->kern)))
		return -ENOSPC;
	s->kern[s->nkern++] = (struct mg_kstep){ t0_ns, t1_ns, lo, hi };
	return 0;
}

int64_t mg_steps_back_between(const struct mg_steps *s, uint64_t ta, uint64_t tb)
{
	int64_t u = 0, k = 0;
	size_t i;

	for (i = 0; i < s->nuser; i++)
		if (s->user[i].delta_ns < 0 && s->user[i].t1_ns >= ta && s->user[i].t0_ns <= tb)
			u += s->user[i].delta_ns;
	for (i = 0; i < s->nkern; i++)
		if (s->kern[i].hi < 0 && s->kern[i].t1 >= ta && s->kern[i].t0 <= tb)
			k += s->kern[i].lo;
	return k < u ? k : u;
}

int64_t mg_steps_largest_back_near(const struct mg_steps *s, uint64_t ta, uint64_t tb,
				   uint64_t near)
{
	uint64_t a = ta > near ? ta - near : 0, b = tb;
	int64_t m = 0;
	size_t i;

	for (i = 0; i < s->nuser; i++)
		if (s->user[i].delta_ns < m && s->user[i].t1_ns >= a && s->user[i].t0_ns <= b)
			m = s->user[i].delta_ns;
	for (i = 0; i < s->nkern; i++)
		if (s->kern[i].hi < 0 && s->kern[i].lo < m && s->kern[i].t1 >= a && s->kern[i].t0 <= b)
			m = s->kern[i].lo;
	return m;
}

void mg_steps_last_user_back(const struct mg_steps *s, uint64_t t_ns, long long *ns,
			     unsigned long long *at)
{
	size_t i, lo = s->nuser > RECENT ? s->nuser - RECENT : 0;

	*ns = 0;
	*at = 0;
	for (i = s->nuser; i-- > lo;)
		if (s->user[i].delta_ns < 0 && s->user[i].t0_ns <= t_ns) {
			*ns = s->user[i].delta_ns;
			*at = s->user[i].t1_ns;
			return;
		}
}
