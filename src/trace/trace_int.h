/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_int.h - what the parts of `mgtrace trace` share: its options and state
 * (trace.c owns them) and the renderers (trace_print.c: event lines in text
 * or JSON, the selection header, the summary). Not a public interface.
 */
#ifndef MG_TRACE_INT_H
#define MG_TRACE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>
#include "backend.h"
#include "cpulist.h"
#include "events.h"
#include "floor.h"
#include "follow.skel.h"
#include "pathid.h"
#include "run.h"

#define EV_FLOOR (1u << 31)	/* --events bit for the floor object (not a tracepoint kind) */

struct trace_opts {
	enum mg_backend backend;	/* for floor events: auto, fentry or kprobe */
	bool json, all, events_given;
	bool floor_named;		/* -e names floor itself (not through all): required */
	bool inode_given;		/* --inode: ids holds that one inode */
	bool no_inherit;		/* with COMMAND: COMMAND's own process only */
	unsigned int mask;		/* 1 << enum mg_event_kind, plus EV_FLOOR */
	struct mg_pids pids;		/* -p: these processes and their descendants */
	struct mg_cpus cpus;		/* -C: only events on these CPUs (filtered in BPF) */
	char comm[16];
	struct mg_ident_set ids;	/* --path or --inode: the inodes traced (ids.n = 0: all) */
	const char *path;
	uint64_t ringbuf_bytes;
	char **argv;
};

struct trace_state {
	struct trace_opts o;
	struct mg_run run;		/* env, session (tracepoints), COMMAND */
	struct mg_floor floor;		/* floor.skel NULL: not loaded */
	struct follow_bpf *follow;	/* COMMAND's descendants (NULL: not followed) */
	const char *procs;		/* which processes are traced, for the header */
	char procs_buf[224];		/* procs for --pid */
	char floor_why[32 + 2 * 320];	/* why no floor events: struct mg_floor's why */
	/* --path: its filesystem multigrain (1), not (0), not known (< 0: path_mg_why) */
	int path_mg;
	char path_mg_why[320];
	struct mg_events ev;		/* the ring buffer (events.c) */
	int64_t offset;			/* CLOCK_REALTIME - CLOCK_MONOTONIC at start */
	uint64_t printed, lost_seen, nf_seen;
	uint64_t not_written;		/* events taken from the ring buffer whose line failed */
	uint64_t bad_kind;		/* records of an unknown kind (never expected) */
	uint64_t by_kind[MG_EV_NR_KINDS];
};

/*
 * trace's options (trace_opts.c) into *o: the table, -e's list (floor_named when it names
 * floor itself), --inode's parts in range, COMMAND and the scope checks. MG_EXIT_OK or an
 * exit code (one line printed).
 */
int trace_parse_opts(struct trace_opts *o, int argc, char **argv);

/* The event handler (events.c): one text line or one JSON object per event. */
void trace_on_event(void *ctx, const struct mg_event *e);
/* The lines that say which processes and inodes are traced (text mode). */
void trace_print_selection(struct trace_state *t);
/* The final summary: stderr in text mode, a trace_summary object in JSON. */
void trace_print_summary(struct trace_state *t);

#endif
