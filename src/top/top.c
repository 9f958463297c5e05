// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - `mgtrace top`: which processes, comms, files or cgroups cause
 * multigrain work, refreshed every interval, in the manner of libbpf-tools'
 * filetop and biotop. Counting happens in BPF hash maps (bpf/top.bpf.c), read
 * out once per interval; no per-event output. This file: options, the process
 * scope (bpf/follow.bpf.c) and the interval loop.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "commands.h"
#include "follow.h"
#include "kenv.h"
#include "opts.h"
#include "testhook.h"
#include "top_int.h"
#include "util.h"

static int parse_name(const char *what, const char *s, const char *const *names, int n, int *out)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	if (!strcmp(what, "sort") && !strcmp(s, "auto")) {
		*out = TOP_SORT_AUTO;
		return 0;
	}
	return mg_err(MG_EXIT_USAGE, "top: invalid --%s '%s' (%s)", what, s, !strcmp(what, "by") ?
		      "pid, comm, file, cgroup, stack" : top_sort_words());
}

/* Where a stored option goes in struct top_opts */
#define AT(field) MG_OPT_AT(struct top_opts, field)


static const struct mg_opt top_opts[] = {
	MG_OPTS_SCOPE("all-cpus", "system-wide (the default)",
		      "only PID and its descendants (a list: 1,2, as perf; tgid\n"
		      "filter in BPF; forks followed in BPF, running descendants\n"
		      "read from /proc)"),
	MG_OPT_CPUS("only events on these CPUs (perf's list: 0,2-3), filtered in BPF"),
	MG_OPT_SCOPE_TREE("with COMMAND: only COMMAND and its descendants, as -p"),
	{ .val = 'B', .lname = "by", .arg = "KEY",
	  .help = "one row per pid (default), comm, file (dev:ino, name),\n"
	  "cgroup (cgroup v2 path) or stack (the kernel stack of the event,\n"
	  "its frames named by the kernel: which code paths stamp fine-grained\n"
	  "and swap ctimes; a stack per event in BPF)",
	  .kind = MG_OV_WORDS, .words = "pid comm file cgroup stack" },
	{ .val = 's', .lname = "sort", .arg = "KEY",
	  .help_fn = top_sort_help, .kind = MG_OV_WORDS, .words_fn = top_sort_words },
	{ .val = 'r', .lname = "rows", .arg = "N", .store = MG_OS_U64, .at = AT(rows),
	  .min = 1, .max = 100000,
	  .help = "text rows per table (default 20; JSON has every row)" },
	{ .val = MG_OPT_AUTO, .lname = "noclear", .store = MG_OS_FLAG, .at = AT(noclear),
	  .help = "do not clear the screen between tables (only a terminal is;\n"
	  "-C was this before it took perf's CPU list)" },
	MG_OPTS_INTERVAL("a table", "; default 1",
			 "stop after N tables; with COMMAND still running, mgtrace\n"
			 "ends it (SIGTERM) and exits 0"),
	MG_OPT_BACKEND("auto fentry kprobe tracepoint",
		       "auto (fentry, kprobe, then tracepoints), fentry, kprobe,\n"
		       "tracepoint"),
	{ .val = MG_OPT_AUTO, .lname = "max-entries", .arg = "N", .store = MG_OS_U64,
	  .at = AT(max_entries), .min = 1, .max = MG_TOP_ENTRIES_MAX,
	  .help = "rows each BPF map holds (default " MG_STR(MG_TOP_ENTRIES_DEFAULT)
	  "); events of rows\nthat do not fit are counted as not attributed" },
	MG_OPTS_COMMON("one JSON object per table (docs/json.md)",
		       "results to FILE (default: stdout; stderr with COMMAND, as perf)",
		       "every column's source, and why a backend was refused"),
	{ 0 }
};

const struct mg_cmd_opts top_cmdopts = {
	.name = "top",
	.synopsis = "[-a | -p PID[,PID...] | --tree] [-C CPUS] [-B pid|comm|file|cgroup|stack]\n"
		    "[-s KEY] [-r N] [--noclear]\n"
		    "[-I MS | -i SECONDS] [-c COUNT] [-b auto|fentry|kprobe|tracepoint]\n"
		    "[--max-entries N] [-j] [-o FILE] [-v] [-- COMMAND [ARGS...]]",
	.about = "Show, every interval (default 1 s), the processes (or comms, files, cgroups) that\n"
		 "cause multigrain work: fine-grained stamps and floor swaps (function-probe\n"
		 "backends), updates after a query (timestamp:ctime_ns_xchg with I_CTIME_QUERIED in\n"
		 "the old value: the proxy for fine stamps), ctime swaps, ctime skips and stat\n"
		 "queries. Counted in BPF hash maps, read once per interval. With COMMAND, top runs\n"
		 "until COMMAND exits and exits with its status.\n"
		 "Scope: system-wide by default, with COMMAND too (COMMAND only sets the window).\n",
	.opts = top_opts,
	.exit_note = "top: 0 also when COUNT tables ended COMMAND.\n",
	.command = true,
};

/*
 * One of top's options the table does not store (c, its value arg) into o: the scope,
 * the intervals, -B, -s, -C and -b. Returns 0 or an exit code (printed).
 */
static int top_opt(void *base, int c, const char *arg)
{
	struct top_opts *o = base;
	int e, v;

	if ((e = mg_opt_scope("top", c, arg, &o->pids, &o->all, &o->tree)) ||
	    (e = mg_opt_intervals("top", c, arg, &o->interval, &o->ival_opt, &o->count)))
		return e < 0 ? -e : 0;
	switch (c) {
	case 'B':
		if (parse_name("by", arg, top_by_names, MG_TOP_BY_NR, &v))
			return MG_EXIT_USAGE;
		o->by = v;
		return 0;
	case 's':
		return parse_name("sort", arg, top_counter_names, MG_TOP_NR, &o->sort) ?
		       MG_EXIT_USAGE : 0;
	case 'C':
		return mg_opt_cpus("top", arg, &o->cpus) ? MG_EXIT_USAGE : 0;
	case 'b':
		return mg_opt_backend("top", arg, MG_OPT_BE_TRACEPOINT, &o->backend) ?
		       MG_EXIT_USAGE : 0;
	}
	return 0;
}

int top_parse_opts(struct top_opts *o, int argc, char **argv)
{
	struct mg_opt_parser p;
	int e;

	o->interval = 1;
	o->rows = 20;
	o->max_entries = MG_TOP_ENTRIES_DEFAULT;
	o->sort = TOP_SORT_AUTO;
	mg_opt_begin(&p, &top_cmdopts, argc, argv);
	if ((e = mg_opt_parse(&p, o, top_opt)))
		return e;
	o->json = mg_json_output;
	if ((e = mg_opt_command("top", argc, argv, &o->argv)) ||
	    (e = mg_opt_scope_check("top", &o->pids, o->all, &o->tree, o->argv != NULL)))
		return e;
	return MG_EXIT_OK;
}

/* Follow the process trees of roots (n of them). Returns an exit code. */
static int follow_open(struct top_state *t, const uint32_t *roots, unsigned int n, bool existing)
{
	char why[400];

	t->follow = mg_follow_open_pids(&t->run.env, roots, n, existing, why, sizeof(why));
	if (!t->follow)
		return mg_err(MG_EXIT_ENV, "top: cannot follow the process tree: %s", why);
	if (existing) {		/* -p PID: the run ends when they have all exited */
		t->run.alive = mg_follow_alive;
		t->run.alive_arg = t->follow;
	}
	return MG_EXIT_OK;
}

static int scope_open_pids(struct top_state *t);

/* The scope text and the process filter; with -C the CPUs are named too. */
static int scope_open(struct top_state *t)
{
	int ret = scope_open_pids(t);
	size_t n = strlen(t->scope);

	if (!ret && t->o.cpus.given)
		snprintf(t->scope + n, sizeof(t->scope) - n, ", on CPU%s %s",
			 t->o.cpus.n > 1 ? "s" : "", t->o.cpus.text);
	return ret;
}

static int scope_open_pids(struct top_state *t)
{
	if (t->o.pids.n) {
		for (unsigned int i = 0; i < t->o.pids.n; i++)
			if (mg_check_pid("top", t->o.pids.pid[i]))
				return MG_EXIT_USAGE;
		mg_pids_scope(&t->o.pids, t->scope, sizeof(t->scope));
		return follow_open(t, t->o.pids.pid, t->o.pids.n, true);
	}
	if (t->o.tree) {
		uint32_t child = (uint32_t)t->run.child;

		snprintf(t->scope, sizeof(t->scope), "COMMAND (pid %d) and its descendants",
			 (int)t->run.child);
		return follow_open(t, &child, 1, false);
	}
	snprintf(t->scope, sizeof(t->scope), "system-wide");
	return MG_EXIT_OK;
}

/*
 * An interval boundary: debugfs (system-wide kernel counters), the flip and read of
 * the maps (tb not NULL), debugfs again. The kernel's counts over the interval lie
 * between the inner and outer differences of the readings. Returns 0 or -errno.
 */
static int boundary(struct top_state *t, struct top_table *tb)
{
	uint64_t before[MG_K_NR_COUNTERS], after[MG_K_NR_COUNTERS];
	bool ok = !mg_debugfs_read(before);
	int err = tb ? top_bpf_read(t, tb) : 0;

	ok = !mg_debugfs_read(after) && ok;
	if (tb && !err && t->o.by == MG_TOP_BY_STACK) {
		top_stack_name(t, tb);	/* before the merge: it leaves BPF's frames out by name */
		top_stack_merge(t, tb);
	}
	if (tb) {
		tb->dbg_ok = ok && t->dbg_ok;
		for (int i = 0; i < MG_K_NR_COUNTERS && tb->dbg_ok; i++) {
			tb->dbg_low[i] = before[i] - t->dbg_after[i];
			tb->dbg_high[i] = after[i] - t->dbg_before[i];
		}
	}
	t->dbg_ok = ok;
	memcpy(t->dbg_before, before, sizeof(before));
	memcpy(t->dbg_after, after, sizeof(after));
	return err;
}

/* One table: read, print, free. Returns 0 or an exit code. */
static int table(struct top_state *t, bool final)
{
	struct top_table tb = { 0 };
	uint64_t now = mg_now_ns();
	int err;

	tb.final = final;
	tb.elapsed_s = (double)(now - t->start_ns) / 1e9;
	tb.interval_s = (double)(now - t->last_ns) / 1e9;
	t->last_ns = now;
	if ((err = boundary(t, &tb))) {
		free(tb.rows);
		return mg_err(MG_EXIT_FAIL, "top: reading the maps: %s", strerror(-err));
	}
	top_print_table(t, &tb);
	free(tb.rows);
	t->tables++;
	return 0;
}

static int run(struct top_state *t)
{
	uint64_t next, now, step = (uint64_t)(t->o.interval * 1e9);
	int ret, stop = 0;

	t->start_ns = t->last_ns = mg_now_ns();
	boundary(t, NULL);
	mg_run_release(&t->run);	/* counting has begun */
	if ((ret = mg_run_exec_failed(&t->run)))	/* its one line said why; no table */
		return ret;
	top_print_start(t);
	for (next = t->start_ns + step;; next += step) {
		/* after a stall (the machine, a blocked output) the table that ended it was
		 * one longer interval; the next one ends at the first boundary at least half
		 * an interval ahead, not in a burst of near-empty tables (a busy machine
		 * gave 0.029 s after a 1.071 s one) */
		for (now = mg_now_ns(); next <= now + step / 2;)
			next += step;
		while (!stop && (now = mg_now_ns()) < next) {
			struct timespec ts = { (time_t)((next - now) / 1000000000),
					       (long)((next - now) % 1000000000) };

			stop = mg_run_wait(&t->run, &ts);
		}
		if ((ret = table(t, stop || (t->o.count && t->tables + 1 >= t->o.count))))
			return ret;
		if (mg_out_failed()) {	/* a closed pipe, a full disk: the run ends here */
			mg_out_note("the run ended at table %llu", (unsigned long long)t->tables);
			return MG_EXIT_OUTPUT;
		}
		if (stop)
			return t->o.argv ? t->run.child_status : MG_EXIT_OK;
		if (t->o.count && t->tables >= t->o.count)
			return MG_EXIT_OK;
	}
}

int cmd_top(int argc, char **argv)
{
	struct top_state t = { 0 };
	int ret;

	t.run.go_fd = -1;
	if ((ret = top_parse_opts(&t.o, argc, argv)))
		return ret;
	if ((ret = mg_test_hook_ksyms_file()) < 0)
		return MG_EXIT_USAGE;
	t.test_ksyms_file = ret;
	if ((ret = mg_out_open("top", t.o.argv != NULL)))
		return ret;
	t.out = mg_out;
	if ((ret = mg_run_require_env(&t.run)))	/* before any BPF object */
		goto out;
	mg_run_block_signals(&t.run);
	if (t.o.argv && (ret = mg_run_spawn(&t.run, t.o.argv)))
		goto out;
	if ((ret = scope_open(&t)) || (ret = top_bpf_open(&t)))
		goto out;
	t.sort = t.o.sort != TOP_SORT_AUTO ? t.o.sort : t.b.floor_probe ? TOP_SORT_PROBES :
		 TOP_SORT_NO_PROBES;
	if (!top_counted(&t, t.sort)) {
		ret = mg_err(MG_EXIT_ENV, "top: --sort %s needs a function-probe backend: %s",
			     top_counter_names[t.sort], t.b.floor_why);
		goto out;
	}
	top_stack_open(&t);	/* --by stack: the frames' names */
	ret = run(&t);
out:
	mg_run_end_child(&t.run);	/* SIGTERM, SIGKILL after the grace (COMMAND may be blocked
					 * on a failed output, or ignore SIGTERM) */
	top_bpf_close(&t.b);
	top_stack_close(&t);
	mg_follow_close(t.follow);
	mg_run_cleanup(&t.run);
	if (mg_run_refused(&t.run, ret))
		mg_out_error("top", ret);
	if (mg_out_close() && !ret)
		ret = MG_EXIT_OUTPUT;
	return ret;
}
