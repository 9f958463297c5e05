/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conform_judge.h - conform's kernel judge (conform_judge.c): check's BPF judge loaded
 * through the engine, and the per-inode ctime events counted in BPF for
 * missing_update; its findings attributed to the sweep's log.
 */
#ifndef MG_CONFORM_JUDGE_H
#define MG_CONFORM_JUDGE_H

#include "conform_sweep.h"

struct cf_judge;

/*
 * Load and attach the judge into *j (o->judge says how it runs) for the filesystem dev
 * (kernel dev_t), keeping max_reports violations in full. 0, or an exit code
 * with one line printed (MG_EXIT_ENV: BPF refused, with a hint to --observer-only).
 */
int cf_judge_open(struct cf_judge **j, struct cf_opts *o, uint32_t dev, size_t max_reports);

/* The hooks the sweep calls at each op's start and after each role's stat(). */
const struct cf_hooks *cf_judge_hooks(struct cf_judge *j);

/*
 * After the sweep: detach, drain, and attribute each violation to the log entry of its
 * inode whose window holds it (s->log[].j), the rows' stacks named. 0, or -1 with why.
 */
int cf_judge_finish(struct cf_judge *j, struct cf_sweep *s, char *why, size_t len);

/* Detach and free (NULL: nothing). */
void cf_judge_close(struct cf_judge *j);

#endif
