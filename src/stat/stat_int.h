/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat_int.h - what `mgtrace stat` shares between its files: stat.c (options,
 * scope, the counting loop) and stat_print.c (interval rows, the summary, JSON).
 * Not a public interface.
 */
#ifndef MG_STAT_INT_H
#define MG_STAT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "backend.h"
#include "cpulist.h"
#include "follow.h"
#include "latency.h"
#include "report.h"
#include "run.h"

struct stat_opts {
	double interval;	/* seconds between interval rows; 0: none */
	uint64_t count;		/* stop after this many intervals; 0: no limit */
	int ival_opt;		/* which of -i/-I gave the interval (optab.h) */
	double duration;	/* -d S, --timeout MS: stop after this many seconds; 0: none */
	int dur_opt;		/* which of -d/--timeout gave it (0: neither) */
	bool per_cpu;		/* -A: per-CPU table (online CPUs) in the summary and intervals */
	bool hot;		/* also probe current_time and coarse_mg */
	bool latency;		/* time inode_set_ctime_current and ktime_get_real_ts64_mg */
	bool rate;		/* --rate: interval rows per second */
	const char *sep;	/* -x SEP: separated fields (perf stat -x), or NULL */
	struct mg_pids pids;	/* -p PID[,PID...]: process scope, each with its descendants */
	struct mg_cpus cpus;	/* -C CPUS: only these CPUs' per-CPU counts */
	bool tree;		/* --tree: process scope, COMMAND and its descendants */
	bool all;		/* -a: system-wide (the default), said explicitly */
	enum mg_backend backend;
	bool backend_given;	/* --backend fentry|kprobe|tracepoint: probes count every row */
	unsigned int events;	/* -e: opted-in event counters, 1 << index in mg_tp_names[] */
	char **argv;		/* COMMAND, or NULL */
	const char *prom;	/* --prometheus FILE, or NULL */
	int prom_labels;	/* --prometheus-label given (prom.c keeps them) */
	bool demo;		/* the no-argument run: COMMAND is the built-in workload */
};

/*
 * Parse stat's options into o (stat_opts.c). Returns 0, or MG_EXIT_USAGE (or
 * --prometheus FILE's refusal code) with one line printed; --help exits 0.
 */
int stat_parse_opts(struct stat_opts *o, int argc, char **argv);

/* A stat run: the shared measurement run plus stat's options and output. */
struct stat_run {
	struct stat_opts o;
	struct mg_run run;
	struct mg_latency *lat;	/* --latency histograms, or NULL */
	struct follow_bpf *follow;	/* process scope: the followed tree, or NULL */
	char scope[160];	/* "system-wide", "pid N and its descendants", ... */
	char scope_cost[256];	/* what process scope costs, or "" */
	FILE *out;		/* mg_out: -o FILE, stderr with COMMAND, else stdout */
	struct mg_print_opts po;	/* text layout: -v, -x, --rate, -A's online CPUs */
	bool *online;		/* nr_cpus flags for po.online (online, and -C's) */
	int nr_online;		/* CPUs online (-errno: unknown) */
	bool tty;		/* out is a terminal: the interval header repeats */
	uint64_t rows;		/* interval rows printed */
	bool ended_child;	/* COUNT intervals or the duration ended the run: mgtrace
				 * ended COMMAND */
	bool timed_out;		/* the run ended at -d/--timeout's end */
	bool out_ended;		/* the run ended at a failed write of its output (exit 5) */
	unsigned int prom_failed;	/* --prometheus writes that failed (printed) */
	bool prom_done;		/* the run's last --prometheus write was made (or tried) */
};

/* One interval (n: its number; partial: the shorter last one) as text, CSV or JSON. */
void stat_print_interval(struct stat_run *r, uint64_t n, bool partial);
/* The summary over the whole run. */
void stat_print_summary(struct stat_run *r);

#endif
