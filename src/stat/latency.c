// SPDX-License-Identifier: GPL-2.0
/* latency.c - load bpf/latency.bpf.c, read, summarise and print its histograms (see latency.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "latency.h"
#include "latency.skel.h"
#include "kenv.h"
#include "util.h"

struct mg_latency {
	struct latency_bpf *skel;
	int nr_cpus;
	const char *probe[MG_LAT_NR_FUNCS];	/* "fentry/fexit" or "kprobe/kretprobe" */
	struct mg_lat_cpu *first, *last;	/* nr_cpus each: readings at the window's ends */
	struct mg_lat_cpu *delta;		/* nr_cpus: last - first */
};

double mg_lat_percentile(const unsigned long long slot[MG_LAT_SLOTS], double q)
{
	uint64_t total = 0, before = 0;
	double rank, lo, hi;
	int i, last = -1;

	for (i = 0; i < MG_LAT_SLOTS; i++) {
		total += slot[i];
		if (slot[i])
			last = i;
	}
	if (!total)
		return NAN;
	rank = q * (double)total;
	/* the first non-empty bucket whose cumulative count reaches rank (else the last one) */
	for (i = 0; i < last; i++) {
		if (slot[i] && (double)(before + slot[i]) >= rank)
			break;
		before += slot[i];
	}
	lo = i ? ldexp(1, i) : 0;
	hi = ldexp(1, i + 1);
	return lo + (hi - lo) * ((rank - (double)before) / (double)slot[i]);
}

void mg_lat_stats(struct mg_lat_stats *st, const unsigned long long slot[MG_LAT_SLOTS],
		  uint64_t count, uint64_t sum_ns)
{
	st->count = count;
	st->sum_ns = sum_ns;
	st->mean_ns = count ? (double)sum_ns / (double)count : NAN;
	st->p50_ns = mg_lat_percentile(slot, 0.50);
	st->p99_ns = mg_lat_percentile(slot, 0.99);
}

void mg_lat_slot_label(int i, uint64_t *low, uint64_t *high)
{
	*low = i ? 1ULL << i : 0;	/* bcc: 1 -> 1 is printed as 0 -> 1 */
	*high = i >= 63 ? UINT64_MAX : (1ULL << (i + 1)) - 1;
}

/* As libbpf-tools' print_stars(): width characters, '+' when val exceeds val_max. */
static void print_stars(FILE *f, uint64_t val, uint64_t val_max, int width)
{
	int n = (int)((val < val_max ? val : val_max) * width / val_max), i;

	for (i = 0; i < n; i++)
		fputc('*', f);
	for (; i < width; i++)
		fputc(' ', f);
	if (val > val_max)
		fputc('+', f);
}

void mg_lat_print_log2(FILE *f, const unsigned long long slot[MG_LAT_SLOTS])
{
	int i, idx_max = -1, stars, w;
	uint64_t val_max = 0, low, high;

	for (i = 0; i < MG_LAT_SLOTS; i++) {
		if (slot[i])
			idx_max = i;
		if (slot[i] > val_max)
			val_max = slot[i];
	}
	if (idx_max < 0) {
		fprintf(f, "     (no calls)\n");
		return;
	}
	stars = idx_max <= 32 ? 40 : 20;
	w = idx_max <= 32 ? 10 : 20;
	fprintf(f, "%*s%-*s : count    distribution\n", idx_max <= 32 ? 5 : 15, "",
		idx_max <= 32 ? 19 : 29, "nsecs");
	for (i = 0; i <= idx_max; i++) {
		mg_lat_slot_label(i, &low, &high);
		fprintf(f, "%*" PRIu64 " -> %-*" PRIu64 " : %-8llu |", w, low, w, high, slot[i]);
		print_stars(f, slot[i], val_max, stars);
		fprintf(f, "|\n");
	}
}

static const char *probe_pair(const char *how)
{
	if (!how)
		return NULL;
	if (!strcmp(how, "fentry"))
		return "fentry/fexit";
	if (!strcmp(how, "kprobe"))
		return "kprobe/kretprobe";
	return NULL;
}

/*
 * bpf/latency.bpf.c's programs per timed function (MG_LAT_*, enum mg_func): an
 * fentry/fexit pair and a kprobe/kretprobe pair; the session's probe type for the
 * function picks one.
 */
static const struct { size_t fentry, fexit, kprobe, kretprobe; } lat_progs[MG_LAT_NR_FUNCS] = {
#define P(name) MG_SKEL_PROG_OFF(latency_bpf, name)
	[MG_LAT_CTIME] = { P(fe_lat_ctime), P(fe_latx_ctime), P(kp_lat_ctime), P(kp_latr_ctime) },
	[MG_LAT_REAL_MG] = { P(fe_lat_real_mg), P(fe_latx_real_mg), P(kp_lat_real_mg),
			     P(kp_latr_real_mg) },
#undef P
};

int mg_latency_progs_check(char *why, size_t len)
{
	static const char *const kinds[4] = { "fentry", "fexit", "kprobe", "kretprobe" };
	struct mg_prog_ref refs[4 * MG_LAT_NR_FUNCS];
	struct latency_bpf *skel = latency_bpf__open();
	size_t n = 0;
	int fn, k, err;

	if (!skel) {
		err = -errno;
		snprintf(why, len, "open: %s", strerror(-err));
		return err;
	}
	for (fn = 0; fn < MG_LAT_NR_FUNCS; fn++) {
		const size_t offs[4] = { lat_progs[fn].fentry, lat_progs[fn].fexit,
					 lat_progs[fn].kprobe, lat_progs[fn].kretprobe };

		for (k = 0; k < 4; k++) {
			refs[n].off = offs[k];
			snprintf(refs[n++].sec, sizeof(refs[0].sec), "%s/%s", kinds[k], mg_func_names[fn]);
		}
	}
	err = mg_progs_check(skel->obj, skel, refs, n, why, len);
	latency_bpf__destroy(skel);
	return err;
}

/* Autoload each function's pair of the probe type l->probe[] names; nothing else. */
static void select_progs(struct mg_latency *l)
{
	struct bpf_program *prog;
	int fn;

	bpf_object__for_each_program(prog, l->skel->obj)
		bpf_program__set_autoload(prog, false);
	for (fn = 0; fn < MG_LAT_NR_FUNCS; fn++) {
		bool fe = !strcmp(l->probe[fn], "fentry/fexit");

		bpf_program__set_autoload(MG_SKEL_PROG(l->skel, lat_progs[fn].fentry), fe);
		bpf_program__set_autoload(MG_SKEL_PROG(l->skel, lat_progs[fn].fexit), fe);
		bpf_program__set_autoload(MG_SKEL_PROG(l->skel, lat_progs[fn].kprobe), !fe);
		bpf_program__set_autoload(MG_SKEL_PROG(l->skel, lat_progs[fn].kretprobe), !fe);
	}
}

struct mg_latency *mg_latency_open(const struct mg_session *s, char *why, size_t whylen)
{
	struct mg_latency *l;
	int i, err;

	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(why, whylen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	l->nr_cpus = s->nr_cpus;
	for (i = 0; i < MG_LAT_NR_FUNCS; i++) {
		l->probe[i] = probe_pair(s->func_probe[i]);
		if (!l->probe[i]) {
			snprintf(why, whylen, "%s is not probed by the %s backend", mg_func_names[i],
				 mg_backend_name(s->backend));
			err = -EOPNOTSUPP;
			goto fail;
		}
	}
	l->first = calloc(l->nr_cpus, sizeof(*l->first));
	l->last = calloc(l->nr_cpus, sizeof(*l->last));
	l->delta = calloc(l->nr_cpus, sizeof(*l->delta));
	if (!l->first || !l->last || !l->delta) {
		snprintf(why, whylen, "out of memory");
		err = -ENOMEM;
		goto fail;
	}
	mg_libbpf_log_reset();
	l->skel = latency_bpf__open();
	if (!l->skel) {
		err = -errno;
		snprintf(why, whylen, "open failed: %s", strerror(-err));
		goto fail;
	}
	select_progs(l);
	if ((err = latency_bpf__load(l->skel))) {
		char c[200];

		snprintf(why, whylen, "load failed: %s (%s)", strerror(-err),
			 mg_libbpf_cause(err, "load", true, c, sizeof(c)));
		goto fail;
	}
	if ((err = latency_bpf__attach(l->skel))) {
		char c[200];

		snprintf(why, whylen, "attach failed: %s (%s)", strerror(-err),
			 mg_libbpf_cause(err, "attach", true, c, sizeof(c)));
		goto fail;
	}
	return l;
fail:
	mg_latency_close(l);
	errno = -err;
	return NULL;
}

int mg_latency_read(struct mg_latency *l, bool at_start)
{
	struct mg_lat_cpu *dst = at_start ? l->first : l->last;
	const uint64_t *a = (const uint64_t *)l->first, *b = (const uint64_t *)l->last;
	uint64_t *d = (uint64_t *)l->delta;
	size_t i, n = sizeof(*dst) / sizeof(uint64_t) * l->nr_cpus;
	__u32 zero = 0;

	if (bpf_map__lookup_elem(l->skel->maps.hist, &zero, sizeof(zero), dst,
				 sizeof(*dst) * l->nr_cpus, 0))
		return -errno;
	if (at_start)
		memcpy(l->last, l->first, sizeof(*dst) * l->nr_cpus);
	for (i = 0; i < n; i++)
		d[i] = b[i] - a[i];
	return 0;
}

/* Histogram, count, sum, unmatched and non_mgtime of function fn over all CPUs. */
static void total_of(const struct mg_latency *l, int fn, struct mg_lat_cpu *t)
{
	int cpu, i;

	memset(t, 0, sizeof(*t));
	for (cpu = 0; cpu < l->nr_cpus; cpu++) {
		const struct mg_lat_cpu *c = &l->delta[cpu];

		for (i = 0; i < MG_LAT_SLOTS; i++)
			t->slot[fn][i] += c->slot[fn][i];
		t->count[fn] += c->count[fn];
		t->sum_ns[fn] += c->sum_ns[fn];
		t->unmatched[fn] += c->unmatched[fn];
		t->non_mgtime[fn] += c->non_mgtime[fn];
	}
}

/* "  mean M ns (exact: sum/count); p50 ~A ns, p99 ~B ns (estimates ...)", if any calls. */
static void print_stat_line(FILE *f, const struct mg_lat_stats *st)
{
	if (st->count)
		fprintf(f, "  mean %.1f ns (exact: sum/count); p50 ~%.0f ns, p99 ~%.0f ns "
			"(estimates: linear within log2 buckets)\n", st->mean_ns, st->p50_ns, st->p99_ns);
}

void mg_latency_print(struct mg_latency *l, FILE *f, bool per_cpu)
{
	static const int order[] = { MG_LAT_REAL_MG, MG_LAT_CTIME };
	struct mg_lat_cpu t;
	struct mg_lat_stats st;
	int k, fn, cpu;

	fprintf(f, "\nlatency (bpf: entry/exit probes, bpf_ktime_get_ns() per call, same window "
		"as the counters; includes probe overhead):\n");
	for (k = 0; k < MG_LAT_NR_FUNCS; k++) {
		fn = order[k];
		total_of(l, fn, &t);
		mg_lat_stats(&st, t.slot[fn], t.count[fn], t.sum_ns[fn]);
		fprintf(f, "\n%s (%s): %" PRIu64 " calls", mg_func_names[fn], l->probe[fn], st.count);
		if (fn == MG_LAT_CTIME)
			fprintf(f, " on FS_MGTIME inodes (%llu other calls not timed)", t.non_mgtime[fn]);
		fprintf(f, ", %llu unmatched exits\n", t.unmatched[fn]);
		print_stat_line(f, &st);
		mg_lat_print_log2(f, t.slot[fn]);
		fprintf(f, "%-20s", "per-CPU (exit CPU)");
		for (cpu = 0; cpu < l->nr_cpus; cpu++) {
			char h[16];

			snprintf(h, sizeof(h), "CPU%d", cpu);
			fprintf(f, " %10s", h);
		}
		fprintf(f, "\n%-20s", "count");
		for (cpu = 0; cpu < l->nr_cpus; cpu++)
			fprintf(f, " %10llu", l->delta[cpu].count[fn]);
		fprintf(f, "\n%-20s", "mean_ns");
		for (cpu = 0; cpu < l->nr_cpus; cpu++) {
			const struct mg_lat_cpu *c = &l->delta[cpu];

			if (c->count[fn])
				fprintf(f, " %10.1f", (double)c->sum_ns[fn] / (double)c->count[fn]);
			else
				fprintf(f, " %10s", "-");
		}
		fputc('\n', f);
		for (cpu = 0; per_cpu && cpu < l->nr_cpus; cpu++) {
			const struct mg_lat_cpu *c = &l->delta[cpu];

			mg_lat_stats(&st, c->slot[fn], c->count[fn], c->sum_ns[fn]);
			fprintf(f, "\n%s on CPU%d: %" PRIu64 " calls\n", mg_func_names[fn], cpu,
				st.count);
			print_stat_line(f, &st);
			if (c->count[fn])
				mg_lat_print_log2(f, c->slot[fn]);
		}
	}
	fflush(f);
}

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *slots_json(const unsigned long long *slot)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < MG_LAT_SLOTS; i++)
		json_array_append_new(a, json_integer((json_int_t)slot[i]));
	return a;
}

json_t *mg_latency_json(struct mg_latency *l)
{
	json_t *all = json_object();
	struct mg_lat_cpu t;
	struct mg_lat_stats st;
	int fn, cpu;

	for (fn = 0; all && fn < MG_LAT_NR_FUNCS; fn++) {
		json_t *o = json_object(), *pc = json_array();

		total_of(l, fn, &t);
		mg_lat_stats(&st, t.slot[fn], t.count[fn], t.sum_ns[fn]);
		json_object_set_new(o, "probe", json_string(l->probe[fn]));
		json_object_set_new(o, "count", json_integer((json_int_t)st.count));
		json_object_set_new(o, "sum_ns", json_integer((json_int_t)st.sum_ns));
		json_object_set_new(o, "mean_ns", num_or_null(st.mean_ns));
		json_object_set_new(o, "p50_ns_estimate", num_or_null(st.p50_ns));
		json_object_set_new(o, "p99_ns_estimate", num_or_null(st.p99_ns));
		json_object_set_new(o, "unmatched", json_integer((json_int_t)t.unmatched[fn]));
		if (fn == MG_LAT_CTIME)
			json_object_set_new(o, "non_mgtime", json_integer((json_int_t)t.non_mgtime[fn]));
		json_object_set_new(o, "log2_ns", slots_json(t.slot[fn]));
		for (cpu = 0; cpu < l->nr_cpus; cpu++) {
			const struct mg_lat_cpu *c = &l->delta[cpu];
			json_t *p = json_object();

			json_object_set_new(p, "count", json_integer((json_int_t)c->count[fn]));
			json_object_set_new(p, "sum_ns", json_integer((json_int_t)c->sum_ns[fn]));
			json_object_set_new(p, "mean_ns", c->count[fn] ? json_real((double)c->sum_ns[fn] /
					    (double)c->count[fn]) : json_null());
			json_object_set_new(p, "log2_ns", slots_json(c->slot[fn]));
			json_array_append_new(pc, p);
		}
		json_object_set_new(o, "per_cpu", pc);
		json_object_set_new(all, mg_func_names[fn], o);
	}
	return all;
}

void mg_latency_close(struct mg_latency *l)
{
	if (!l)
		return;
	latency_bpf__destroy(l->skel);
	free(l->first);
	free(l->last);
	free(l->delta);
	free(l);
}
