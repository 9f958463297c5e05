/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - option values shared by several commands, each with one parser and
 * one error message: --backend and --ringbuf-size.
 */
#ifndef MG_OPTS_H
#define MG_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include "backend.h"

/* Backends a command accepts besides auto, fentry and kprobe (mg_opt_backend's allow). */
#define MG_OPT_BE_TRACEPOINT	(1u << 0)	/* tracepoints only */
#define MG_OPT_BE_KERNEL	(1u << 1)	/* the kernel's per-CPU counters only (stat) */

/*
 * --backend for command cmd: auto, fentry, kprobe, and the backends in allow.
 * Returns 0, or MG_EXIT_USAGE with one line naming the accepted ones.
 */
int mg_opt_backend(const char *cmd, const char *arg, unsigned int allow, enum mg_backend *be);

/* Default --ringbuf-size: 16 MiB. */
#define MG_RINGBUF_DEFAULT (16u << 20)

/*
 * --ringbuf-size for command cmd: a power of 2 from 4096 to 1 GiB, in bytes.
 * Returns 0, or MG_EXIT_USAGE with one line printed.
 */
int mg_opt_ringbuf(const char *cmd, const char *arg, uint64_t *bytes);

#endif
