/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_int.h - what the parts of `mgtrace check` share: its options and run
 * state (check.c owns them), the result model (check_result.c) and the
 * renderers that read only it (check_text.c, check_json.c, check_junit.c).
 * Not a public interface.
 */
#ifndef MG_CHECK_INT_H
#define MG_CHECK_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <bpf/libbpf.h>
#include <jansson.h>
#include "backend.h"
#include "baseline.h"
#include "checker.h"
#include "escape.h"
#include "events.h"
#include "floor.h"
#include "ident.h"
#include "judge.h"
#include "known.h"
#include "ksyms.h"
#include "replace.h"
#include "report.h"
#include "run.h"
#include "util.h"
#include "verdict.h"
#include "workload.h"
#include "check_names.h"

/* Modifications a workload thread may record ahead of the event loop (88 bytes each). */
#define CHECK_RING_OPS 4096

/* One workload thread's modifications on their way to the ordering judge (check_order.c). */
struct check_ring {
	_Atomic uint64_t head;		/* appended so far (the workload thread writes it) */
	_Atomic uint64_t tail;		/* taken so far (the event loop writes it) */
	struct mg_op ops[CHECK_RING_OPS];
};
#define MG_BATCH_EVENTS 65536	/* events consumed before the loop checks signals again */
#define CHECK_WL_FILES 2		/* files per thread of the built-in workload */
#define CHECK_BLOCKED_NOTE_NS 1000000000ull	/* a call on --dir this long is said blocked */

struct mg_opt;

struct check_opts {
	enum mg_backend backend;
	bool test_invert_fine;		/* TEST ONLY: MGTRACE_TEST_INVERT_FINE=1 (testhook.h) */
	int test_inject;		/* TEST ONLY: MGTRACE_TEST_INJECT=N regressions (testhook.h) */
	int test_inject_interval;	/* TEST ONLY: ... judged at the start of this interval */
	bool test_ksyms_file;		/* TEST ONLY: MGTRACE_TEST_KSYMS_FILE=1 (testhook.h) */
	const char *junit;		/* --json and -o are global: opts.h */
	uint64_t ringbuf_bytes, max_inodes, threads, rate;
	bool judge_user;		/* --judge user: the ctime events cross to user space */
	bool stacks;			/* --stacks: judged in user space, each event's stack */
	bool forget;			/* --forget: generations of inode state (judge.h) */
	bool ringbuf_set;		/* --ringbuf-size given (else judging in BPF sizes it) */
	bool tree;			/* judge the inodes COMMAND's tree touches first: --tree,
					 * or the default with COMMAND (tree_default) */
	bool tree_default;		/* tree by default (COMMAND without -a or --tree): where
					 * judging in BPF is not available it falls back to
					 * system-wide, saying why (check_state.tree_why) */
	bool all;			/* -a: judge every process's events, also with COMMAND */
	double duration;
	const char *dir;
	char **argv;
	double limit[MG_F_NR];		/* absolute thresholds (--max-*); < 0: off (default) */
	double interval;		/* continuous check: -i S / -I MS, seconds; 0: one verdict */
	uint64_t count;			/* -c N: stop after N intervals; 0: at a stop signal */
	const struct mg_opt *workload_opt; /* the first built-in-workload option given (-d,
					 * -t, --rate, -D), refused in continuous mode */
	int ival_opt;			/* which of -i/-I gave the interval (optab.h) */
	const char *prom;		/* --prometheus FILE (a symlink resolved), or NULL */
	int prom_labels;		/* --prometheus-label given (prom.c keeps them) */
	const char *known_path;		/* --known FILE */
	struct mg_known *known;		/* its faults (check_known_open); NULL: none */
	const char *baseline;		/* --baseline FILE */
	double baseline_factor;
	bool factor_given;		/* --baseline-factor was given (it needs --baseline) */
	struct mg_figures base;		/* its figures */
	char baseline_warn[700];	/* why its figures may differ (kernel, filesystem); "": none */
};

/* Cumulative counts of a run at one moment: continuous check's intervals are their differences. */
struct check_tally {
	uint64_t t_ns;				/* CLOCK_MONOTONIC when read */
	uint64_t by_kind[MG_EV_NR_KINDS];	/* events judged */
	uint64_t violations[MG_V_NR_KINDS];	/* found */
	uint64_t faults[MG_V_NR_KINDS];		/* of those, failing (not explained, undecided
						 * or known) */
	uint64_t known, undecided, benign;	/* summed over kinds */
	uint64_t lost, untracked, missed, lock_failed;
	uint64_t inodes, inode_bytes;		/* tracked now; BPF map bytes (judged in BPF) */
	uint64_t forgotten;			/* --forget: inodes whose history was forgotten */
	size_t nreports;			/* the checker's stored reports */
	bool read_failed;			/* a BPF counter could not be read: incomplete */
};

struct check_state {
	struct check_opts o;
	struct mg_run run;
	struct mg_checker *chk;
	struct mg_events ev;		/* the ring buffer (events.c) */
	FILE *out;
	/* built-in workload (workload.c); its threads hand their modifications to the
	 * ordering judge (check_order.c) */
	struct mg_workload wl;
	bool wl_started;
	bool wl_wait_said;		/* the blocked-mkdir line was printed */
	/* the run ended without workload threads blocked in the kernel (mg_wl_abandon);
	 * "": it did not */
	char wl_abandoned[400];
	struct check_ring *rings;	/* one per workload thread */
	uint64_t nrings;
	struct mg_order *order;		/* the cross-file-ordering judge (order.c) */
	atomic_bool order_failed;	/* it ran out of memory: the threads stop waiting on it */
	/* clock watch */
	struct mg_event *pending;	/* events newer than the last clock sample, held back */
	size_t npending;		/* at most MG_BATCH_EVENTS */
	/* continuous check (-i/-I): the counts at the interval's start, when the next ends,
	 * intervals printed, the running verdict (an exit code: the worst so far) */
	struct check_tally tally;
	uint64_t interval_start_ns, next_interval_ns, intervals;
	int running_code;
	/* --prometheus (check_prom.c): intervals by verdict (check_verdict_rank()), the
	 * last one's exit code, consecutive INCONCLUSIVE ones ending with it, intervals whose
	 * counts could not all be read; a write failed (the run ends, exit 5) */
	uint64_t prom_verdicts[3], prom_streak, prom_unreadable;
	int prom_last_code;
	bool prom_failed;
	/* a signal ended the run before its planned end (mg_verdict_interrupt_text); "": none */
	char interrupt_why[320];
	bool status_from_signal;	/* COMMAND's status is that signal's (mg_run_status_from_stop) */
	bool counted_out;		/* the event loop ended at -c N intervals (continuous check) */
	bool ended_child;		/* ... while COMMAND ran: mgtrace ended it (SIGTERM, then
					 * SIGKILL), as stat and top do; its status is not judged */
	FILE *junit;			/* --junit's temporary file, opened before the run */
	struct mg_replace junit_rp;	/* ... renamed over --junit once written whole */
	bool junit_written;		/* --junit holds the verdict (check_render()) */
	char tree_why[300];		/* why a default tree scope fell back to system-wide ("") */
	const char *wl_fs;		/* mg_fs_name() of the built-in workload's directory */
	bool have_wl_mount;		/* wl_mount and wl_mount_dev were found */
	unsigned int wl_mount_dev;	/* its superblock's s_dev, as events name it */
	char wl_mount[4096];		/* its mount point */
	int64_t last_offset;		/* CLOCK_REALTIME - CLOCK_MONOTONIC at the last sample, ns */
	int64_t last_halfwidth;		/* that sample's uncertainty, ns */
	uint64_t last_sample;		/* CLOCK_MONOTONIC just before that sample was read */
	struct mg_figures fig;		/* this window's floor figures */
	struct mg_gate gates[MG_F_NR];
	int gates_failed, gates_unknown;
	/* why the floor invariants are not checked ("": they are): room for both backends'
	 * reasons (struct mg_attempt why) whole */
	char floor_why[64 + 2 * 320];
	char floor_read_why[320];	/* why "floor moves forward" alone is not ("": it is) */
	char missed_detail[400];	/* "prog=n ..." of programs whose runs were skipped */
	/* skipped runs that can only leave a fine stamp undecided (mg_floor_undeciding_progs):
	 * counted and said, not inconclusive */
	uint64_t undeciding_misses;
	char undeciding_detail[200];
	struct mg_floor floor;		/* bpf/floor.bpf.c, with a function-probe backend */
	struct mg_judge judge;		/* the ctime events judged in BPF (tp_btf: judge.c) */
	/* the kernel's symbols for the stored reports' stacks, made at the first stack to
	 * name (check_ksyms()): named by the kernel (ks_by_bpf), else loaded from
	 * /proc/kallsyms */
	struct mg_ksyms *ks;
	bool ks_by_bpf;
	int ks_err;			/* the /proc/kallsyms load's -errno (0: loaded or not tried) */
	char ks_why[320];		/* why frames go unnamed ("": they are named) */
};

/*
 * Parse check's options into o (defaults first). Returns 0, or an exit code
 * (MG_EXIT_USAGE with one line printed); --help exits 0 after printing usage.
 */
int check_parse_opts(struct check_opts *o, int argc, char **argv);
/*
 * Load --baseline (if given) and refuse it, with one line and MG_EXIT_USAGE, when
 * it is not a report of this run's workload (baseline.h); before anything is
 * loaded. A kernel or filesystem that differ: o->baseline_warn, printed on
 * stderr in text mode (JSON: "baseline_warning"). Returns 0 or an exit code.
 */
int check_baseline_open(struct check_opts *o);
/*
 * Load --known FILE (if given) into o->known before anything is loaded: a file that
 * is not one is refused with one line and MG_EXIT_USAGE; one that cannot be read,
 * with the exit code of its errno. Returns 0 or an exit code.
 */
int check_known_open(struct check_opts *o);

/* A verdict's exit code as a rank, the worst highest: PASS 0, INCONCLUSIVE 1, FAIL 2. */
static inline int check_verdict_rank(int code)
{
	return code == MG_EXIT_FAIL ? 2 : code == MG_EXIT_INCONCLUSIVE;
}
/* ---- the result model (check_result.c): decided once, rendered three ways ---- */

/* The outcome of one line of the report: an invariant, a gate, COMMAND's status. */
enum check_outcome {
	CHECK_PASS,
	CHECK_FAIL,
	CHECK_UNDECIDED,	/* violations near a clock step of their size, no fault */
	CHECK_NOT_CHECKED,	/* not applicable to this run: why says why */
	CHECK_KNOWN,		/* no fault, but violations that match declared known kernel
				 * faults (--known): never a pass (JUnit: skipped) */
};

/* One invariant's line: its violation kinds summed (checker.h counts). */
struct check_inv {
	const char *name;		/* "no ctime regression", ... (JUnit testcase name) */
	int kinds[2];			/* enum mg_violation_kind counted, -1: none */
	enum check_outcome result;
	const char *why;		/* CHECK_NOT_CHECKED: why (static or in check_state) */
	uint64_t violations, explained, undecided, faults;
	uint64_t known;			/* of the violations, matched --known (not faults) */
	bool clock_steps;		/* explained/undecided apply (steps can explain it) */
	char scope[96];			/* " in N floor reads", ...: what it judged ("": nothing said) */
};

/* The "COMMAND succeeds" line (check -- COMMAND only). */
struct check_cmd_line {
	bool present;			/* a COMMAND was the workload */
	enum check_outcome result;	/* PASS, FAIL, or NOT_CHECKED (no status to judge) */
	char text[240];			/* the text report's words after the name */
	char junit[240];		/* the JUnit failure or skipped message ("": passed) */
};

#define CHECK_NR_INV 5

/* Where and how the ctime events were judged (judge.h struct mg_judge), copied once. */
struct check_judged {
	bool active;			/* judged in BPF */
	bool forget;			/* --forget was asked for */
	uint64_t map_inodes, max_inodes, value_bytes, ringbuf_used;
	struct mg_judge_counts sum;	/* the per-CPU counts, summed */
	struct mg_gc_ctx gc_sum;	/* the inode GC's counts */
	struct mg_drain_ctx drained;	/* --forget: the emptied generations' counts */
	uint64_t gc_passes, gc_ns, rotations, rotate_ns;
	char gc_why[200], forget_why[200];
	uint64_t forgotten;		/* mg_judge_forgotten() */
	uint64_t tree_followed, tree_not_followed, tree_alive_at_end;	/* check --tree */
};

/*
 * What `mgtrace check` found, filled once by check_collect() from the run's state,
 * and all that the text, JSON and JUnit renderers read: the options and the run's
 * facts are copied, the verdict and each line decided here. rep (the counters around
 * the workload) and the checker's stored reports, examples and clock steps are data the
 * run keeps until the result is freed (check_result_free()).
 */
struct check_result {
	struct check_opts o;		/* the options, as parsed */
	const struct mg_report *rep;	/* the counters around the workload (report.c) */
	struct mg_check_stats st;	/* the checker's counts (checker.c) */
	const struct mg_violation *reports;	/* the checker's stored violation reports */
	size_t nreports;
	const struct mg_violation *examples[MG_B_NR_KINDS];	/* not-fault examples */
	size_t nexamples[MG_B_NR_KINDS];
	const struct mg_clock_step *steps;	/* the clock steps kept */
	size_t nsteps;
	/* report i's kernel stack is the same as report stack_first[i]'s (i itself: the
	 * first with it), which stack_count[stack_first[i]] reports share; malloc'd */
	size_t *stack_first;
	uint64_t *stack_count;
	uint64_t stacks_missing[MG_STACK_SYNTHETIC + 1];	/* reports without one, by why */
	struct check_names names;
	struct check_judged jg;
	/* the run */
	char release[128];		/* the kernel's (uname -r) */
	json_t *header;			/* the JSON header every report starts with (run.h) */
	char *backend_text;		/* the backend lines of the text report (run.h) */
	json_t *command_status;		/* COMMAND's exit status, or null (run.h) */
	pid_t child;			/* COMMAND's pid */
	int child_signal;		/* the signal that killed COMMAND, or 0 */
	bool status_from_signal;	/* COMMAND's status is the interrupting signal's */
	bool ended_child;		/* -c N ended the run, and mgtrace COMMAND */
	int stop_sig;			/* the signal that ended the run before its end, or 0 */
	double stop_after_s;		/* its time from the run's start */
	uint64_t intervals;		/* continuous check: intervals printed */
	char interrupt_why[320];	/* how a signal cut the run short ("": it did not) */
	char tree_why[300];		/* why a default tree scope fell back ("": it did not) */
	char missed_detail[400];	/* "prog=n ..." of programs whose runs were skipped */
	uint64_t undeciding_misses;	/* floor probe runs skipped that only leave undecided */
	char undeciding_detail[200];
	/* the built-in workload's directory */
	const char *wl_fs;		/* its filesystem's name (mgfs.h), or NULL */
	bool have_wl_mount, have_dir_dev;
	uint32_t wl_mount_dev, dir_dev;
	char wl_mount[4096];
	bool have_order;		/* cross-file order was judged */
	uint64_t order_judged;		/* modifications it judged */
	size_t order_held;		/* the most it held at once */
	const char *floor_probe;	/* bpf/floor.bpf.c's probes, NULL: not loaded */
	/* the floor figures, their gates, and the decision */
	struct mg_figures fig;
	struct mg_gate gates[MG_F_NR];
	struct mg_verdict v;
	struct check_inv inv[CHECK_NR_INV];
	int ninv;
	struct check_cmd_line cmd;
	const char *scope;		/* what the run covers (system-wide or COMMAND's tree), one line */
	char scope_buf[640];
	const char *floor_unchecked;	/* why the floor invariants were not (both) checked, "" */
	char floor_unchecked_buf[64 + 2 * 320];
	uint64_t floor_events;		/* floor swaps + cmpxchg fails + unknown, from the events */
	char judged[MG_JUDGE_DESCRIBE_LEN];	/* where and how the ctime events were judged */
	double window_s;		/* attach to detach, s (JUnit times) */
	int junit_errors;		/* interrupted + inconclusive not the signal's (0 to 2) */
};

/*
 * Decide the run: the floor figures and gates (cs->fig, cs->gates), the interruption
 * line (cs->interrupt_why), the verdict, and every line of r. rep outlives r. 0, or
 * -ENOMEM (r is then freed).
 */
int check_collect(struct check_result *r, struct check_state *cs, const struct mg_report *rep);
/* Free what r owns. */
void check_result_free(struct check_result *r);
/* One line for gate i: "0.31 <= 0.7 (limit)" and/or "... allowed (baseline ...)". */
void check_gate_text(const struct check_result *r, int i, char *buf, size_t len);
/* The text report on f. */
void check_print_text(const struct check_result *r, FILE *f);
/* The JSON report on f (one line). */
void check_print_json(const struct check_result *r, FILE *f);
/* The JUnit XML suite to f (rp's temporary file), renamed over path (--junit) once written
 * whole, else removed. Returns 0, or MG_EXIT_OUTPUT with one line naming path and the error. */
int check_write_junit(const struct check_result *r, FILE *f, struct mg_replace *rp,
		      const char *path);
/* check_workload.c: the built-in workload, its modifications recorded for the ordering judge. */
/* Start its threads (MG_EXIT_OK, or one line and an exit code). */
int check_workload_start(struct check_state *cs);
/* Stop and join them, taking their last modifications; 0 or the workload's errno. */
int check_workload_finish(struct check_state *cs);

/* ---- the counts and their verdict (check_tally.c) ---- */

/*
 * The run's cumulative counts now into *t; finished: after the drain, when the checker
 * holds them all (else BPF's per-CPU judging counts are read and added, and the ring
 * buffer's losses: t->read_failed where one could not be read).
 */
void check_tally_read(struct check_state *cs, struct check_tally *t, bool finished);
/*
 * The verdict of the counts from..to (from NULL: from zero, the run's whole window)
 * under facts (the gates, COMMAND, the interruption, the limits named in the reason;
 * its count fields are ignored): the one decision of the end-of-run report and of
 * each interval of continuous check (mg_verdict_decide()).
 */
void check_decide_counts(struct mg_verdict *v, const struct check_tally *from,
			 const struct check_tally *to, const struct mg_verdict_in *facts);

/* ---- continuous check (check_interval.c) ---- */

/*
 * What continuous check found in one interval and since the start, decided once by
 * check_interval_tick(): the one result its line of text, its JSON object and the
 * Prometheus file are renderings of. Interval 0 (at the start) has no counts yet.
 */
struct check_interval_result {
	uint64_t n;			/* the interval's number, from 1; 0: before the first */
	bool last;			/* the run's last (read after the drain) */
	struct check_tally from, to;	/* the cumulative counts at its start and its end */
	int code;			/* its verdict (an exit code: check_decide_counts()) */
	int running_code;		/* the worst verdict since the start */
	uint64_t start_ns;		/* CLOCK_MONOTONIC when judging began */
	/* since the start (the Prometheus file): intervals by verdict (check_verdict_rank()),
	 * the last one's exit code, consecutive INCONCLUSIVE ones ending with it, intervals
	 * whose counts could not all be read */
	uint64_t verdicts[3], streak, unreadable;
	int last_code;
	/* the run */
	bool judge_active, forget, tree;
	const char *backend;		/* mg_backend_name() of the attached backend */
	char release[128];		/* the kernel's (uname -r) */
	const char *known_path;		/* --known FILE, or NULL */
	struct check_names names;	/* how its reports are named */
	const struct mg_violation *reports;	/* the checker's stored reports: those of this */
	size_t nreports;			/* interval are from.nreports .. to.nreports */
};

/*
 * --prometheus FILE: the interval result ir (its cumulative counts and the verdicts so far;
 * the file of the run's last interval says finished) written atomically (check_prom.c).
 * Returns 0, or -1 with one line printed.
 */
int check_prom_write(const struct check_interval_result *ir, const char *path);

/* At the run's start: the counts the first interval is measured from. */
void check_interval_start(struct check_state *cs);
/* The test hooks' injected violations, judged now (MGTRACE_TEST_INJECT). 0 or an exit code. */
int check_inject(struct check_state *cs);
/*
 * When an interval has ended (or last: the run's end, after the drain), print its
 * line or JSON object on cs->out and update the running verdict. final_code: with
 * last, the run's verdict (its exit code, decided with COMMAND's status, the gates and
 * any interruption, which no interval's own counts carry), folded into the running
 * verdict so that the last line and the --prometheus file say what the exit code says;
 * -1 otherwise. Returns true when -c N intervals have been printed.
 */
bool check_interval_tick(struct check_state *cs, bool last, int final_code);

/*
 * How long the event loop may wait (ms): tick_ms (the judge's tick,
 * mg_judge_tick_ms(): 10 to 50 ms), but no later than the end of the current
 * interval (continuous check), so that -I below the tick still ends each
 * interval on time (a tester's finding: -I 10 gave intervals of 50 ms).
 */
int check_wait_ms(const struct check_state *cs, unsigned int tick_ms);
/* A stored violation as check --json's "violations" item. */
json_t *check_json_violation(const struct check_names *nm, const struct mg_violation *v);
/* --junit's temporary file (cs->junit) opened before the run: 0, or one line and an exit code. */
int check_open_junit(struct check_state *cs);

/*
 * A run that ends before a verdict (code: its exit code: 2, 3, 4 (a stop signal before judging), 126, 127): the JUnit
 * suite of one <error> testcase carrying mg_last_err, replacing --junit (a new temporary
 * file). Returns 0, or one line and mg_path_exit()/MG_EXIT_OUTPUT.
 */
int check_write_junit_error(struct check_state *cs, int code);

/* check_order.c: the built-in workload's modifications to the ordering judge. */
/* The judge and one ring per workload thread; 0 or -ENOMEM. */
int check_order_start(struct check_state *cs, uint64_t threads);
/* A workload thread (index thread) appends op; waits while its ring is full. */
void check_order_record(struct check_state *cs, int thread, const struct mg_op *op);
/*
 * The event loop takes what the rings hold and judges what it can (all of it when
 * final, after the threads were joined). 0 or -ENOMEM.
 */
int check_order_consume(struct check_state *cs, bool final);
void check_order_free(struct check_state *cs);

/*
 * Before the session (check_judge.c): what judging in BPF is asked to do (options, ring
 * buffer, clock offset, mg_judge_pre_load() as so's pre_load) and what its inode maps'
 * buckets take: a note from 256 MiB, a refusal (MG_EXIT_ENV, one line) beyond MemTotal.
 */
int check_judge_config(struct check_state *cs, struct mg_session_opts *so);
/*
 * After the session attached: whether it judges in BPF (judge.active), the refusals of
 * --tree and --forget given where it cannot, the default tree's fall back, the user-space
 * checker (cs->chk) with its known faults and, judged here with --stacks, the records'
 * stack map. Returns 0 or an exit code with one line printed.
 */
int check_judge_choose(struct check_state *cs);
/*
 * COMMAND's tree, the default scope, cannot be judged in this session (why): judge
 * system-wide instead, as -a would, and say so in the report (check_state.tree_why).
 */
void check_tree_fall_back(struct check_state *cs, const char *why);

#endif
