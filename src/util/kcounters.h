/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcounters.h - the kernel's own per-CPU multigrain counters, read from BPF.
 *
 * Source: mg_ctime_updates, mg_ctime_swaps, mg_fine_stamps (fs/inode.c) and
 * timekeeping_mg_floor_swaps (kernel/time/timekeeping.c), read by a BPF
 * program run with bpf_prog_test_run_opts(): through typed per-CPU ksyms
 * (bpf/kcounters.bpf.c, needs CONFIG_KALLSYMS_ALL), else through their BTF
 * .data..percpu offsets (bpf/pcpu.bpf.c), each such reading checked against
 * the debugfs totals. When neither works, mg_kreader_open() fails and callers
 * fall back to the debugfs totals.
 */
#ifndef MG_KCOUNTERS_H
#define MG_KCOUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "counters.h"
#include "mgtrace.h"

struct mg_kreader;

/*
 * Load the reader for nr_cpus possible CPUs. On failure returns NULL, sets
 * *err to a negative errno and writes the reason (one line) into why.
 */
struct mg_kreader *mg_kreader_open(int nr_cpus, int *err, char *why, size_t whylen);

/*
 * Read all counters: out[cpu * MG_K_NR_COUNTERS + enum mg_kernel_counter],
 * one row per possible CPU, counts since boot. Returns 0 or -errno. The reading is
 * not checked here: when mg_kreader_needs_check(), the caller reads debugfs before
 * and after it and checks it with mg_kpc_check() (counters.h), as mg_run_snap() does.
 */
int mg_kreader_read(struct mg_kreader *r, uint64_t *out);

/* True for the BTF-offset reader, whose every reading must be checked against debugfs. */
bool mg_kreader_needs_check(const struct mg_kreader *r);

/*
 * How the reader reads: "per-CPU ksym", "per-CPU via BTF offsets, checked against
 * debugfs" or "..., validated at start (...)". Valid while r is open: the last is r's own.
 */
const char *mg_kreader_method(const struct mg_kreader *r);

/*
 * What the reader's figures are checked against where no debugfs bracket judges them:
 * MG_KCHECK_START (the BTF-offset reader, self-tested at the start), MG_KCHECK_KSYM (typed
 * per-CPU ksyms, nothing to check), or MG_KCHECK_NONE (the BTF-offset reader checked
 * against debugfs at every reading: a reading without debugfs is rejected, not shown).
 */
enum mg_kcheck mg_kreader_check(const struct mg_kreader *r);

/* Unload; NULL is fine. */
void mg_kreader_close(struct mg_kreader *r);

#endif
