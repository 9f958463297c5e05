/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcounters.h - the kernel's own per-CPU multigrain counters, read from BPF.
 *
 * Source: typed per-CPU ksyms mg_ctime_updates, mg_ctime_swaps, mg_fine_stamps
 * (fs/inode.c) and timekeeping_mg_floor_swaps (kernel/time/timekeeping.c),
 * read by bpf/kcounters.bpf.c run with bpf_prog_test_run_opts(). Needs
 * CONFIG_KALLSYMS_ALL; without it mg_kreader_open() fails and callers fall
 * back to the debugfs totals.
 */
#ifndef MG_KCOUNTERS_H
#define MG_KCOUNTERS_H

#include <stdint.h>
#include <stddef.h>
#include "mgtrace.h"

struct mg_kreader;

/*
 * Load the reader for nr_cpus possible CPUs. On failure returns NULL, sets
 * *err to a negative errno and writes the reason (one line) into why.
 */
struct mg_kreader *mg_kreader_open(int nr_cpus, int *err, char *why, size_t whylen);

/*
 * Read all counters: out[cpu * MG_K_NR_COUNTERS + enum mg_kernel_counter],
 * one row per possible CPU, counts since boot. Returns 0 or -errno.
 */
int mg_kreader_read(struct mg_kreader *r, uint64_t *out);

/* Unload; NULL is fine. */
void mg_kreader_close(struct mg_kreader *r);

#endif
