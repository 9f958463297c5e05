/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_int.h - what the parts of `mgtrace top` share: options and state
 * (top.c), loading and reading bpf/top.bpf.c (top_bpf.c) and rendering
 * (top_print.c). Not a public interface.
 */
#ifndef MG_TOP_INT_H
#define MG_TOP_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "backend.h"
#include "ksyms.h"
#include "cpulist.h"
#include "follow.h"
#include "mgtrace.h"
#include "run.h"

/* --sort: a counter, or "auto" (floor_swaps with function probes, else queried_swaps). */
#define TOP_SORT_AUTO (-1)
#define TOP_SORT_PROBES		MG_TOP_FLOOR_SWAPS	/* auto with function probes */
#define TOP_SORT_NO_PROBES	MG_TOP_QUERIED_SWAPS	/* auto with tracepoints only */

/* One of top's counters (include/mg_vocab.def, MG_TOP_COUNTER: its fields). */
struct top_counter {
	const char *name, *head, *source;
	int width, place;
	int tp;				/* enum mg_tp, -1: top's function probes */
	int part_of;			/* enum mg_top_counter, -1: events of its own */
};

struct top_opts {
	enum mg_top_by by;
	int sort;			/* enum mg_top_counter or TOP_SORT_AUTO */
	double interval;		/* seconds between tables */
	uint64_t count;			/* tables before stopping; 0: until stopped */
	int ival_opt;			/* which of -i/-I gave the interval (optab.h) */
	uint64_t rows;			/* text rows per table (JSON: every row) */
	uint64_t max_entries;		/* rows each BPF map holds */
	struct mg_pids pids;		/* -p: these processes and their descendants (n 0: none) */
	struct mg_cpus cpus;		/* -C: only events on these CPUs (filtered in BPF) */
	bool json, tree, all, noclear;
	enum mg_backend backend;	/* auto, fentry, kprobe or tracepoint */
	char **argv;			/* COMMAND, or NULL */
};

/* One row of a table, its per-CPU values summed. */
struct top_row {
	struct mg_top_key key;
	uint64_t n[MG_TOP_NR];
	unsigned int tgid;		/* a process seen (file, comm, cgroup rows) */
	unsigned int name_len;
	char comm[16];
	char name[MG_NAME_LEN];
	unsigned int merged;		/* --by stack: stack-map entries summed into this row
					 * beyond its own (they differ only in the tracing
					 * machinery's frames: top_stack_merge()) */
};

/* The loaded object, from top_bpf_open() to top_bpf_close(). */
struct top_bpf_state {
	struct top_bpf *skel;
	enum mg_backend backend;	/* FENTRY, KPROBE or TRACEPOINT once open */
	bool tp_btf;			/* tracepoints as tp_btf (else raw_tp) */
	const char *floor_probe;	/* "fentry/fexit", "kprobe/kretprobe" or NULL */
	char floor_why[32 + 2 * 320];	/* why no function probe attached (NULL floor_probe):
					 * both attempts' whys, whole */
	int nr_cpus;			/* possible CPUs: copies per per-CPU value */
	int active;			/* 0: top_a counts, 1: top_b */
	bool batch_ok;			/* lookup_and_delete_batch worked (else iterate) */
	uint64_t errs_seen[MG_TOPE_NR];	/* top_errs summed at the last read (cumulative) */
	struct mg_top_key *keys;	/* read buffers: max_entries + 2 */
	void *vals;
	int stacks_fd;			/* top_stacks (--by stack: the rows' kernel stacks) */
};

struct top_state {
	struct top_opts o;
	struct mg_run run;		/* env, COMMAND and signals (no session) */
	struct top_bpf_state b;
	struct follow_bpf *follow;	/* -p / --tree: the traced process set */
	FILE *out;			/* mg_out: -o FILE, stderr with COMMAND, else stdout */
	char scope[160];		/* "system-wide", "pid N and its descendants", ... */
	int sort;			/* the counter sorted on (auto resolved) */
	uint64_t tables;		/* tables printed */
	uint64_t dbg_before[MG_K_NR_COUNTERS], dbg_after[MG_K_NR_COUNTERS];
	bool dbg_ok;			/* the debugfs readings of the last boundary worked */
	uint64_t start_ns, last_ns;	/* CLOCK_MONOTONIC at start and at the last table */
	struct mg_ksyms *ks;		/* --by stack: the frames' names, of this table's stacks
					 * (the kernel's) or of all (/proc/kallsyms); NULL:
					 * frames unnamed */
	struct mg_ksym_namer *namer;	/* the kernel's naming program (ksyms_bpf.h), loaded
					 * once; NULL: /proc/kallsyms or nothing */
	const char *ks_source;		/* "kernel", "/proc/kallsyms"; NULL with ks NULL */
	bool test_ksyms_file;		/* TEST ONLY: MGTRACE_TEST_KSYMS_FILE=1 (testhook.h) */
	char ks_why[320];		/* why frames are addresses only ("": named) */
};

/* One interval's content, read by top_bpf_read(). */
struct top_table {
	struct top_row *rows;
	size_t nr;
	struct top_row total, unattr;	/* the reserved entries */
	uint64_t errs[MG_TOPE_NR];	/* this window's top_errs: MG_TOPE_NO_MAP events lost
					 * (no map), new rows refused (map full, other) */
	uint64_t dbg_low[MG_K_NR_COUNTERS], dbg_high[MG_K_NR_COUNTERS];
	bool dbg_ok;
	double elapsed_s, interval_s;
	bool final;			/* the last table (stopped or COMMAND ended) */
};

/*
 * Parse `top` options into o (zeroed by the caller), then COMMAND (the first
 * non-option, or what follows --; argv[0] is "top"); -j, -o and -v go to the
 * shared parser (opts.h). Returns 0 or MG_EXIT_USAGE (one line printed).
 */
int top_parse_opts(struct top_opts *o, int argc, char **argv);

/* top's counters, by enum mg_top_counter (top_vocab.c, from include/mg_vocab.def). */
extern const struct top_counter top_counters[MG_TOP_NR];
/* Counter names as --sort and JSON spell them, by enum mg_top_counter. */
extern const char *const top_counter_names[MG_TOP_NR];
/* The text columns in printed order: enum mg_top_counter by place. */
extern const int top_col_order[MG_TOP_NR];
/* By enum mg_tp: top counts it (MG_TRACEPOINT's top). */
extern const bool top_tp_counted[MG_NR_TPS];

/*
 * --sort's words, ", "-separated: the default with function probes first, then
 * every counter in table order, then auto; and its help text (wrapped).
 */
const char *top_sort_words(void);
const char *top_sort_help(void);

/*
 * Whether table k of n counters (top_counters, or a doctored copy) holds together
 * with tp_counted (top_tp_counted): names unique, heads within their width,
 * places 0..n-1 once each, tracepoints that top counts, each part of a whole
 * counted by the same probe, and every counted tracepoint some whole's. Returns
 * 0, or -1 with why set.
 */
int top_counters_problem(const struct top_counter *k, int n, const bool *tp_counted,
			 char *why, size_t len);
/*
 * --by stack (top_stack.c): load the kernel's naming program (bpf/ksym.bpf.c), where it
 * cannot load /proc/kallsyms into t->ks, or say in t->ks_why why the frames will be
 * addresses only (kptr_restrict, no /proc). Never fails the run.
 */
void top_stack_open(struct top_state *t);
void top_stack_close(struct top_state *t);
/*
 * --by stack, each table: the frames of tb's stacks named by the kernel into t->ks (the
 * table's addresses only); where that fails, /proc/kallsyms once for the rest of the run.
 */
void top_stack_name(struct top_state *t, const struct top_table *tb);
/*
 * The kernel stack of row r (r->key.stack, an id in top_stacks): its frames from the
 * first that is not the tracing machinery (ksyms.h mg_kstack_start()), into fr (up to
 * MG_STACK_FRAMES, named where t->ks allows). Returns the count, or a negative errno:
 * the id itself when bpf_get_stackid() failed (-EEXIST: a hash collision, -EFAULT),
 * else the lookup's.
 */
int top_stack_frames(struct top_state *t, const struct top_row *r, struct mg_kframe *fr);
/*
 * --by stack: merge the rows of tb whose stacks are the same once the tracing machinery's
 * frames are left out (bpf_get_stackid() hashes those too: one code path can hold two
 * ids), summing their counts into the first. Rows without a stack are kept as they are.
 */
void top_stack_merge(struct top_state *t, struct top_table *tb);
/* Why row r has no stack (n: top_stack_frames()'s negative errno), one phrase. */
const char *top_stack_why(int n);
/* Text label of row r: its frames "inner < caller < ..." as fit in width cells. */
void top_stack_label(struct top_state *t, const struct top_row *r, char *buf, size_t len);
/* JSON: "stack" [{addr, sym, off, module}] or null with "stack_unavailable"; and
 * "stack_symbols": who named the frames ("kernel", "/proc/kallsyms"), or null. */
void top_stack_json(struct top_state *t, const struct top_row *r, json_t *o);

/* --by names, by enum mg_top_by. */
extern const char *const top_by_names[MG_TOP_BY_NR];

/*
 * Load and attach bpf/top.bpf.c with t->o.backend (auto: fentry, kprobe, then
 * tracepoints only), both maps sized t->o.max_entries + 2 and top_a counting.
 * Returns an exit code (one line printed on failure, nothing left attached).
 */
int top_bpf_open(struct top_state *t);

/*
 * Make the other map count (the kernel waits for the programs using the old
 * one), then read, sum per CPU and empty the old one into tb (rows malloc'ed:
 * free tb->rows). Returns 0 or -errno.
 */
int top_bpf_read(struct top_state *t, struct top_table *tb);

/*
 * bpf/top.bpf.c's program table checked with mg_progs_check() on an opened skeleton:
 * each program attaches where the table says, every program is in it once. Returns 0
 * or a negative errno with why set.
 */
int mg_top_progs_check(char *why, size_t len);

/* Detach and unload; safe when not open. */
void top_bpf_close(struct top_bpf_state *b);

/* True when counter c is counted with this backend (those of function probes need one). */
bool top_counted(const struct top_state *t, int c);

/*
 * The name of cgroup id (bpf_get_current_cgroup_id(): the kernfs inode number of its
 * cgroup v2 directory) relative to the caller's cgroup namespace root, "/" for the
 * root; cached (the last 256 ids), owned here. NULL where it has none, with *why one
 * clause: outside the caller's cgroup namespace, or gone. top_cgroup.c.
 */
const char *top_cgroup_path(uint64_t id, const char **why);

/* Where counter c (enum mg_top_counter) comes from, for the legend and JSON "sources". */
void top_source_of(const struct top_state *t, int c, char *buf, size_t len);

/* A row's pid 0 where mgtrace runs in a PID namespace of its own: processes outside it
 * (bpf/mg_common.bpf.h mg_shown_ids()). In the initial namespace 0 is the idle task. */
bool top_pid_outside(uint32_t pid);

/* One table as one JSON object on t->out (top_json.c). */
void top_print_json(struct top_state *t, struct top_table *tb);

/* Print the text header lines (once) and one table, text or JSON, to t->out. */
void top_print_start(struct top_state *t);
void top_print_table(struct top_state *t, struct top_table *tb);

#endif
