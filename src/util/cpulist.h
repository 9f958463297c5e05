/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpulist.h - perf's list syntax for CPUs ("0,2-3", -C CPUS of stat, top, trace and
 * clocks) and for pids (-p 1,2 of stat, top and trace): parsed once, each bad list
 * refused in one line.
 */
#ifndef MG_CPULIST_H
#define MG_CPULIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mgtrace.h"

#define MG_CPU_WORDS (MG_MAX_CPUS / 64)

/* -C CPUS: the CPUs selected (given false: every CPU). */
struct mg_cpus {
	bool given;
	int n;				/* CPUs in mask */
	uint64_t mask[MG_CPU_WORDS];	/* bit cpu % 64 of word cpu / 64 */
	char text[160];			/* the list in canonical form ("0,2-3") */
};

/*
 * Parse a CPU list in perf's syntax (comma-separated CPU numbers and ranges A-B, A <= B)
 * into mask (MG_CPU_WORDS words, zeroed first). Pure: no look at the machine. Returns
 * the number of CPUs, or -EINVAL (an empty list or item, junk, a reversed range) or
 * -ERANGE (a CPU >= MG_MAX_CPUS), with why one clause.
 */
int mg_cpulist_parse(const char *s, uint64_t *mask, char *why, size_t len);

/* The canonical form of mask ("0,2-3"; "" when empty) into buf. */
void mg_cpulist_str(const uint64_t *mask, char *buf, size_t len);

/*
 * -C CPUS of command cmd: parsed (mg_cpulist_parse) and every CPU checked against the
 * online ones (/sys/devices/system/cpu/online) and the possible count
 * (libbpf_num_possible_cpus()). Returns 0, or MG_EXIT_USAGE with one line printed.
 */
int mg_opt_cpus(const char *cmd, const char *arg, struct mg_cpus *c);

/* True when cpu is selected (every CPU is when -C was not given). */
static inline bool mg_cpus_has(const struct mg_cpus *c, int cpu)
{
	if (!c || !c->given)
		return true;
	return cpu >= 0 && cpu < MG_MAX_CPUS && (c->mask[cpu / 64] >> (cpu % 64) & 1);
}

/*
 * Set a BPF object's -C filter (bpf/mg_common.bpf.h cpu_filter, cpu_mask) from mask
 * (MG_CPU_WORDS words; NULL: every CPU, the filter off) before load.
 */
#define MG_CPUS_RODATA(skel, mask) do {						\
	if (mask) {								\
		(skel)->rodata->cpu_filter = true;				\
		memcpy((void *)(skel)->rodata->cpu_mask, (mask),		\
		       sizeof((skel)->rodata->cpu_mask));			\
	}									\
} while (0)

/* -p PID[,PID...]: the processes of a scope, each with its descendants. */
#define MG_PIDS_MAX 64
struct mg_pids {
	unsigned int n;			/* 0: -p not given */
	uint32_t pid[MG_PIDS_MAX];	/* as given (mgtrace's PID namespace), no duplicates */
};

/*
 * Parse a pid list ("1,2"; each 1..4194304, duplicates dropped) and add it to p. Pure.
 * Returns 0, or -EINVAL (empty list or item, junk), -ERANGE (a pid out of range) or
 * -E2BIG (more than MG_PIDS_MAX), with why one clause.
 */
int mg_pidlist_parse(const char *s, struct mg_pids *p, char *why, size_t len);

/*
 * What the scope says of p: "pid 5 and its descendants", "pids 5, 7 and their
 * descendants" (cut with "..." past len).
 */
void mg_pids_scope(const struct mg_pids *p, char *buf, size_t len);

#endif
