/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vocab.h - the names of mgtrace's event kinds and tracepoints, and the one
 * parser of an -e LIST (stat, trace), all from include/mg_vocab.def.
 */
#ifndef MG_VOCAB_H
#define MG_VOCAB_H

#include "mgtrace.h"

/* The kinds a tracepoint produces, and the floor kinds (function probes): 1 << kind. */
#define MG_KINDS_FLOOR	(1u << MG_EV_FLOOR_SWAP | 1u << MG_EV_FLOOR_FAIL | 1u << MG_EV_FLOOR_UNKNOWN)
#define MG_KINDS_ALL	((1u << MG_EV_NR_KINDS) - 1)
#define MG_KINDS_TP	(MG_KINDS_ALL & ~MG_KINDS_FLOOR)

/* The name of an event kind ("ctime_swap", ...: MG_KIND's name), or NULL out of range. */
const char *mg_event_kind_name(unsigned int kind);
/* Its one-line description (MG_KIND's help), or NULL out of range. */
const char *mg_event_kind_help(unsigned int kind);
/* The tracepoint (enum mg_tp) that produces kind, or -1 (the floor kinds: function probes). */
int mg_tp_of_kind(unsigned int kind);
/*
 * Whether stat attaches tracepoint tp only when asked (-e): MG_TRACEPOINT's opt_in,
 * 0 when always counted, else its place in stat's -e help.
 */
int mg_tp_opt_in(int tp);
/* The kind (enum mg_event_kind) and the row (enum mg_row_id) of tracepoint tp, or -1. */
int mg_tp_kind(int tp);
int mg_tp_row(int tp);
/* The opt-in tracepoints into out[MG_NR_TPS], by their opt_in place; returns how many. */
int mg_tps_opt_in(int *out);

/*
 * Parse -e LIST, comma-separated, into *kinds (1 << enum mg_event_kind). An item
 * is a kind's name or alias (ctime_skip, ctime_skips), a group (ctime: ctime_swap
 * and ctime_skip; floor: the three floor kinds; all: every allowed kind), or a
 * tracepoint as perf and bpftrace name it, with fnmatch(3) globs
 * (timestamp:fill_mg_cmtime, tracepoint:timestamp:*, timestamp:*). allowed: the
 * kinds cmd can select; an item that names only others is refused, as are an
 * empty item (-e a,,b) and an item that matches nothing. floor kinds are selected
 * together or not at all (bpf/floor.bpf.c sends them as one stream).
 * Returns 0, or MG_EXIT_USAGE after one printed line naming the item.
 */
int mg_events_parse(const char *cmd, const char *list, unsigned int allowed, unsigned int *kinds);

/*
 * The kinds one -e item names (1 << kind, every kind for "all"), 0 when none:
 * the item grammar of mg_events_parse().
 */
unsigned int mg_event_item(const char *item);

/* The -e spellings to offer for allowed, ", "-separated: "ctime_swap, ..., all, timestamp:*". */
const char *mg_events_names(unsigned int allowed);

#endif
