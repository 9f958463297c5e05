/* SPDX-License-Identifier: GPL-2.0 */
/*
 * latency.h - `mgtrace stat --latency`: log2 histograms (ns) of the time spent
 * in inode_set_ctime_current() and ktime_get_real_ts64_mg(), measured by
 * bpf/latency.bpf.c with the probe type the counting session uses for each.
 *
 * The map layout it reads (struct mg_lat_cpu) is in include/mgtrace.h, shared
 * with bpf/latency.bpf.c.
 */
#ifndef MG_LATENCY_H
#define MG_LATENCY_H

#include "mgtrace.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "escape.h"
#include "backend.h"

/* Figures of one histogram (a function, total or one CPU) over a window. */
struct mg_lat_stats {
	uint64_t count;		/* calls timed */
	uint64_t sum_ns;
	double mean_ns;		/* sum_ns / count, exact; NAN when count is 0 */
	double p50_ns;		/* estimates from the buckets (mg_lat_percentile); NAN when empty */
	double p99_ns;
};

/*
 * Estimate the q-quantile (0 < q <= 1) in ns of a log2 histogram: the bucket
 * holding rank q * total, linearly interpolated within it ([0, 2) for slot 0,
 * [2^i, 2^(i+1)) otherwise). Returns NAN for an empty histogram.
 */
double mg_lat_percentile(const unsigned long long slot[MG_LAT_SLOTS], double q);

/* Fill st from a histogram and its exact count and sum (ns). */
void mg_lat_stats(struct mg_lat_stats *st, const unsigned long long slot[MG_LAT_SLOTS],
		  uint64_t count, uint64_t sum_ns);

/* bcc's bucket label of slot i: low -> high ns, inclusive ("0 -> 1", "256 -> 511"). */
void mg_lat_slot_label(int i, uint64_t *low, uint64_t *high);

/*
 * Print a histogram as bcc/libbpf-tools print_log2_hist() does: a header line
 * "     nsecs               : count    distribution" and one bar per slot, from
 * slot 0 to the last non-empty one. Prints "(no calls)" when empty.
 */
void mg_lat_print_log2(FILE *f, const unsigned long long slot[MG_LAT_SLOTS]);

/* A loaded and attached latency object with its readings; opaque. */
struct mg_latency;

/*
 * Load and attach bpf/latency.bpf.c with the probe type s->func_probe[] names for
 * inode_set_ctime_current ([0]) and ktime_get_real_ts64_mg ([1]). Returns NULL
 * with a one-line reason in why (and errno set) when a probe type is missing or
 * the load or attach fails; nothing stays loaded then.
 */
struct mg_latency *mg_latency_open(const struct mg_session *s, char *why, size_t whylen);

/*
 * Read the per-CPU histograms: at_start true for the window's start, false for
 * its end (may be read again). Returns 0 or -errno.
 */
int mg_latency_read(struct mg_latency *l, bool at_start);

/*
 * Text: per function, the probe pair, count, exact mean, p50/p99 estimates,
 * unmatched (and non-FS_MGTIME) calls, the histogram of all CPUs and a per-CPU
 * count/mean table; with per_cpu also each CPU's histogram. Window: the two reads.
 */
void mg_latency_print(struct mg_latency *l, FILE *f, bool per_cpu);

/*
 * The "latency" JSON object: { function: { probe, count, sum_ns, mean_ns,
 * p50_ns_estimate, p99_ns_estimate, unmatched, [non_mgtime,] log2_ns[64],
 * per_cpu: [{count, sum_ns, mean_ns, log2_ns[64]}] } }. New reference, or NULL.
 */
json_t *mg_latency_json(struct mg_latency *l);

/* Detach and unload; safe on NULL. */
void mg_latency_close(struct mg_latency *l);

#endif
