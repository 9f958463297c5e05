/* SPDX-License-Identifier: GPL-2.0 */
/*
 * testhook.h - TEST-ONLY hooks, read from the environment. They exist so that the
 * host tests can show that mgtrace's checks fail on a wrong figure; never set them
 * outside tests. When one is set, mgtrace says so on stderr. Documented in docs/tests.md.
 *
 *   MGTRACE_TEST_SKEW=ROW:N           add N (may be negative) to the count of report
 *                                     row ROW (ctime_updates, fine_stamps, floor_swaps,
 *                                     ctime_swaps, ...) and to its CPU 0 value, in every
 *                                     window, before it is judged against debugfs.
 *   MGTRACE_TEST_PCPU_ALIAS=A=B       the BTF-offset per-CPU reader reads kernel counter
 *                                     B's .data..percpu offset in place of A's (A, B:
 *                                     ctime_updates, ctime_swaps, fine_stamps, floor_swaps):
 *                                     a wrong offset its debugfs check must reject.
 *   MGTRACE_TEST_INVERT_FINE=1        bpf/floor.bpf.c reports every fine-stamp decision
 *                                     inverted: `check` must then report each decided
 *                                     fine stamp as unneeded (its floor invariant fails).
 */
#ifndef MG_TESTHOOK_H
#define MG_TESTHOOK_H

#include <stdint.h>
#include "mgtrace.h"

/*
 * MGTRACE_TEST_SKEW: sets *row (enum mg_row_id) and *n; *row = -1 when unset.
 * Returns 0, or -EINVAL (one "mgtrace:" line printed) when the value is malformed.
 */
int mg_test_hook_skew(int *row, int64_t *n);

/*
 * MGTRACE_TEST_PCPU_ALIAS: when set, replaces off[A] by off[B] (offsets indexed by
 * enum mg_kernel_counter). Returns 0, or -EINVAL (one line printed) when malformed.
 */
int mg_test_hook_pcpu_alias(uint64_t off[MG_K_NR_COUNTERS]);

/*
 * MGTRACE_TEST_INVERT_FINE: returns 0 (unset or empty), 1 ("1": announced on stderr),
 * or -EINVAL (one line printed) for any other value.
 */
int mg_test_hook_invert_fine(void);

/*
 * MGTRACE_TEST_INJECT=N: check judges N synthetic ctime regressions, one per
 * made-up inode (src/util/judge.c mg_judge_inject: through BPF_PROG_TEST_RUN of
 * bpf/judgetest.bpf.c when judging in BPF). Returns N (1..100000) if set, and
 * says so on stderr; 0 if not; -EINVAL (message printed) for anything else.
 */
int mg_test_hook_inject(void);

/*
 * MGTRACE_TEST_INJECT_INTERVAL=K (check -i/-I with MGTRACE_TEST_INJECT): judge the
 * injected violations at the start of interval K instead of at the run's end, so
 * that a test sees one interval fail and the next pass. K, 0 when unset, or -EINVAL
 * (printed).
 */
int mg_test_hook_inject_interval(void);

/*
 * MGTRACE_TEST_KSYMS_FILE=1: check and top name stack frames from /proc/kallsyms, as where the
 * kernel cannot name them (bpf/ksym.bpf.c did not load), so that the naming by the
 * kernel can be compared with the file's and its test shown to fail. Returns 0 (unset or
 * empty), 1 ("1": announced on stderr), or -EINVAL (one line printed) for any other value.
 */
int mg_test_hook_ksyms_file(void);

#endif
