// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - `mgtrace check`: trace a workload (the built-in one, or COMMAND),
 * assert the multigrain invariants and the floor thresholds, print a verdict.
 *
 * Events come from the timestamp:* tracepoints through a BPF ring buffer
 * (event mode of bpf/mgtrace.bpf.c) into the checker (checker.c); with a
 * function-probe backend, bpf/floor.bpf.c (src/floor.c) adds one event per
 * fine-grained stamp to the same ring buffer, carrying the floor before and
 * after and the kernel's fine-stamp decision (the two floor invariants). The
 * floor figures come from the same counters as `mgtrace stat` (run.c). The built-in
 * workload also checks cross-file ordering from user space (invariant 3), and
 * the realtime clock is watched for steps (invariant 5).
 *
 * Exit: 0 all hold, 1 violation or threshold breached, 2 usage, 3 environment,
 * 4 inconclusive (events lost or not tracked: a pass cannot be claimed).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <jansson.h>
#include "backend.h"
#include "checker.h"
#include "commands.h"
#include "escape.h"
#include "ident.h"
#include "floor.h"
#include "mgtrace.skel.h"
#include "report.h"
#include "run.h"
#include "testhook.h"
#include "util.h"
#include "verdict.h"
#include "workload.h"

#define MAX_OPS (4u << 20)		/* ordering observations kept (about 200 MB at most) */
#define MG_BATCH_EVENTS 65536	/* events consumed before the loop checks signals again */

struct check_opts {
	enum mg_backend backend;
	bool json;
	bool test_invert_fine;		/* TEST ONLY: MGTRACE_TEST_INVERT_FINE=1 (testhook.h) */
	const char *output, *junit;
	uint64_t ringbuf_bytes, max_inodes, threads, rate;
	double duration;
	const char *dir;
	char **argv;
	double limit[MG_F_NR];		/* absolute thresholds (--max-*); < 0: off (default) */
	const char *baseline;		/* --baseline FILE */
	double baseline_factor;
	struct mg_figures base;		/* its figures */
};

struct check_state {
	struct check_opts o;
	struct mg_run run;
	struct mg_checker *chk;
	struct ring_buffer *rb;
	FILE *out;
	/* built-in workload (workload.c); its threads record ordering observations */
	struct mg_workload wl;
	bool wl_started;
	struct mg_op *ops;
	atomic_size_t nops;
	bool ops_capped;
	uint64_t order_violations;
	/* clock watch */
	unsigned int batch;		/* events consumed since the last clock sample */
	struct mg_event *pending;	/* events newer than the last clock sample, held back */
	size_t npending;		/* at most MG_BATCH_EVENTS */
	bool interrupted;		/* the built-in workload was stopped by SIGINT/SIGTERM */
	FILE *junit;			/* --junit, opened before the run */
	int64_t last_offset;		/* CLOCK_REALTIME - CLOCK_MONOTONIC at the last sample, ns */
	int64_t last_halfwidth;		/* that sample's uncertainty, ns */
	uint64_t last_sample;		/* CLOCK_MONOTONIC just before that sample was read */
	struct mg_figures fig;		/* this window's floor figures */
	struct mg_gate gates[MG_F_NR];
	int gates_failed, gates_unknown;
	char floor_why[400];		/* why the floor invariants are not checked ("": they are) */
	char floor_read_why[120];	/* why "floor moves forward" alone is not ("": it is) */
	struct mg_floor floor;		/* bpf/floor.bpf.c, with a function-probe backend */
};

static int usage(FILE *f, int code)
{
	fprintf(f,
		"Usage: mgtrace check [options] [-- COMMAND [ARGS...]]\n"
		"Trace a workload (the built-in one, or COMMAND), assert the multigrain invariants and\n"
		"the floor thresholds, and print a verdict.\n"
		"Invariants, as the kernel promises them (no stricter): (1) no ctime regression per inode;\n"
		"(2) an update after a query yields a later ctime (at the filesystem's granularity);\n"
		"(3) built-in workload only: a modification that began after another ended shows an\n"
		"equal or later ctime/mtime; with a function-probe backend, (4) the floor never moves\n"
		"back and no fine-grained stamp is taken outside the kernel's condition. Clock steps,\n"
		"stored or set ctimes later than the clock, coarse granularity and undecidable races\n"
		"are counted in their own categories, never as kernel faults.\n"
		"Floor gates (off unless set; a correct kernel makes every update fine-grained when\n"
		"each one follows a query):\n"
		"      --baseline FILE     fail when a floor figure grows past the one in FILE (an\n"
		"                          earlier check --json report of the same workload)\n"
		"      --baseline-factor F allowed growth: baseline * F + slack (default 2; slack 0.02,\n"
		"                          or 1000/s for floor_swaps_per_sec)\n"
		"  --max-floor-swap-ratio R        floor_swaps / ctime_updates\n"
		"  --max-fine-stamp-ratio R        fine_stamps / ctime_updates\n"
		"  --max-floor-swaps-per-sec N     floor_swaps per second\n"
		"  --max-floor-cmpxchg-fail-ratio R  floor_cmpxchg_fails / fine_stamps\n"
		"                                  a negative value turns a threshold off\n"
		"  -b, --backend B       auto, fentry, kprobe or tracepoint (as in `mgtrace stat`)\n"
		"  -j, --json            JSON report on stdout (or -o FILE)\n"
		"  -o, --output FILE     write the report to FILE\n"
		"      --junit FILE      also write a JUnit XML test suite to FILE\n"
		"      --ringbuf-size B  BPF ring buffer bytes, a power of 2 >= 4096 (default 16777216)\n"
		"      --max-inodes N    inodes tracked (default 262144, about 100 bytes each); events of\n"
		"                        further inodes are counted as untracked and make the verdict\n"
		"                        inconclusive\n"
		"  Built-in workload (without COMMAND): threads doing write(f1) stat(f2) write(f2)\n"
		"  stat(f2) write(f1) stat(f1) on a private tmpfs (or --dir):\n"
		"  -t, --threads N       worker threads (default: online CPUs)\n"
		"  -d, --duration S      seconds (default 3)\n"
		"      --rate N          iterations per second per thread (default 20000; 0: unpaced)\n"
		"  -D, --dir PATH        work in a fresh directory under PATH\n"
		"Exit codes: 0 all hold, 1 violation or floor gate failed, 2 usage, 3 environment\n"
		"unsupported, 4 inconclusive (events lost or untracked).\n");
	return code;
}

static int parse_opts(struct check_opts *o, int argc, char **argv)
{
	/* O_MAX + enum mg_figure: the absolute thresholds */
	enum { O_MAX = 256, O_JUNIT = O_MAX + MG_F_NR, O_RB, O_INODES, O_RATE, O_BASE, O_FACTOR };
	static const struct option lo[] = {
		{ "max-floor-swap-ratio", required_argument, 0, O_MAX + MG_F_SWAPS_PER_UPDATE },
		{ "max-fine-stamp-ratio", required_argument, 0, O_MAX + MG_F_FINE_PER_UPDATE },
		{ "max-floor-swaps-per-sec", required_argument, 0, O_MAX + MG_F_SWAPS_PER_SEC },
		{ "max-floor-cmpxchg-fail-ratio", required_argument, 0, O_MAX + MG_F_FAIL_RATIO },
		{ "baseline", required_argument, 0, O_BASE },
		{ "baseline-factor", required_argument, 0, O_FACTOR },
		{ "backend", required_argument, 0, 'b' }, { "json", no_argument, 0, 'j' },
		{ "output", required_argument, 0, 'o' }, { "junit", required_argument, 0, O_JUNIT },
		{ "ringbuf-size", required_argument, 0, O_RB },
		{ "max-inodes", required_argument, 0, O_INODES },
		{ "threads", required_argument, 0, 't' }, { "duration", required_argument, 0, 'd' },
		{ "rate", required_argument, 0, O_RATE }, { "dir", required_argument, 0, 'D' },
		{ "help", no_argument, 0, 'h' }, { "verbose", no_argument, 0, 'v' }, { 0 } };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	for (c = 0; c < MG_F_NR; c++)
		o->limit[c] = -1;
	o->baseline_factor = MG_BASELINE_FACTOR_DEFAULT;
	o->ringbuf_bytes = 16u << 20;
	o->max_inodes = 262144;
	o->threads = ncpu > 0 ? (uint64_t)ncpu : 1;
	o->duration = 3;
	o->rate = 20000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:b:jo:t:d:D:hv", lo, NULL)) != -1) {
		int e = 0;
		char *end;

		switch (c) {
		case O_MAX ... O_MAX + MG_F_NR - 1: {
			double *l = &o->limit[c - O_MAX];

			errno = 0;
			*l = strtod(optarg, &end);
			if (!*optarg || *end || errno || isnan(*l) || isinf(*l))
				return mg_err(MG_EXIT_USAGE, "check: invalid value '%s' for --max-%s",
					      optarg, mg_figure_option(c - O_MAX));
			break;
		}
		case O_BASE: o->baseline = optarg; break;
		case O_FACTOR:
			errno = 0;
			o->baseline_factor = strtod(optarg, &end);
			if (!*optarg || *end || errno || !(o->baseline_factor >= 1) ||
			    isinf(o->baseline_factor))
				return mg_err(MG_EXIT_USAGE, "check: invalid --baseline-factor '%s' "
					      "(a number >= 1)", optarg);
			break;
		case 'b':
			if (mg_backend_parse(optarg, &o->backend))
				return mg_err(MG_EXIT_USAGE, "check: unknown backend '%s' "
					      "(auto, fentry, kprobe, tracepoint)", optarg);
			break;
		case 'j': o->json = true; break;
		case 'o': o->output = optarg; break;
		case O_JUNIT: o->junit = optarg; break;
		case O_RB:
			e = mg_parse_u64(optarg, 4096, 1u << 30, &o->ringbuf_bytes);
			if (!e && (o->ringbuf_bytes & (o->ringbuf_bytes - 1)))
				e = -EINVAL;
			if (e)
				return mg_err(MG_EXIT_USAGE, "check: invalid --ringbuf-size '%s' "
					      "(a power of 2, 4096 to 1073741824)", optarg);
			break;
		case O_INODES: e = mg_parse_u64(optarg, 1, 1ull << 28, &o->max_inodes); break;
		case 't': e = mg_parse_u64(optarg, 1, 1024, &o->threads); break;
		case 'd': e = mg_parse_seconds(optarg, 86400, &o->duration); break;
		case O_RATE: e = mg_parse_u64(optarg, 0, 100000000, &o->rate); break;
		case 'D': o->dir = optarg; break;
		case 'v': mg_verbose++; break;
		case 'h': exit(usage(stdout, MG_EXIT_OK));
		default: return mg_bad_option("check", c, argv);
		}
		if (e)
			return mg_err(MG_EXIT_USAGE, "check: invalid value '%s' for %s", optarg,
				      argv[optind - 1][0] == '-' && argv[optind - 1][1] == '-' ?
				      argv[optind - 1] : argv[optind - 2]);
	}
	if (optind < argc)
		o->argv = &argv[optind];
	return MG_EXIT_OK;
}

/* ---- built-in workload ---- */

static struct mg_ts ts_of(const struct timespec *t)
{
	return (struct mg_ts){ t->tv_sec, (uint32_t)t->tv_nsec };
}

/* Workload hook: record a timed write and the fstat() that shows its stamps (invariant 3). */
static int record_op(void *ctx, int thread, int file, uint64_t t0, uint64_t t1,
		     const struct stat *st)
{
	struct check_state *cs = ctx;
	uint32_t dev;
	size_t i;

	if (mg_kdev_from_user(st->st_dev, &dev))
		return EOVERFLOW;
	i = atomic_fetch_add_explicit(&cs->nops, 1, memory_order_relaxed);
	if (i >= MAX_OPS) {
		cs->ops_capped = true;
		return 0;
	}
	cs->ops[i] = (struct mg_op){ .start_ns = t0, .end_ns = t1, .ctime = ts_of(&st->st_ctim),
				     .mtime = ts_of(&st->st_mtim), .ino = st->st_ino,
				     .dev = dev, .thread = (uint32_t)thread };
	return 0;
}

/* Threads loop write(f1) stat(f2) write(f2) stat(f2) write(f1) stat(f1), timing the last two. */
static int workload_start(struct check_state *cs)
{
	static const struct mg_wl_step steps[] = {
		{ MG_WL_WRITE, 0 }, { MG_WL_STAT, 1 }, { MG_WL_TWRITE, 1 }, { MG_WL_TWRITE, 0 },
	};
	struct mg_wl_opts o = {
		.threads = cs->o.threads, .files = 2, .steps = steps, .nsteps = 4,
		.rate = cs->o.rate, .parent = cs->o.dir, .prefix = "mgtrace-check",
		.hook = record_op, .ctx = cs,
	};
	char why[300];
	int err;

	cs->ops = calloc(MAX_OPS, sizeof(*cs->ops));
	if (!cs->ops)
		return mg_err(MG_EXIT_FAIL, "out of memory");
	if ((err = mg_wl_start(&cs->wl, &o, why, sizeof(why))))
		return mg_err(err == -ENOMEM || err == -EAGAIN ? MG_EXIT_FAIL : MG_EXIT_ENV,
			      "check: %s", why);
	cs->wl_started = true;
	return MG_EXIT_OK;
}

static int workload_finish(struct check_state *cs)
{
	int err = cs->wl_started ? mg_wl_finish(&cs->wl) : 0;

	cs->wl_started = false;
	return err;
}

/* ---- event loop ---- */

static int on_event(void *ctx, void *data, size_t len)
{
	struct check_state *cs = ctx;
	const struct mg_event *e = data;

	if (len < sizeof(*e))
		return 0;
	/*
	 * An event made after the last clock sample is held until the next sample:
	 * a clock step it depends on may not be recorded yet. Consumption reads up
	 * to the producer position, which can be newer than the sample.
	 */
	if (e->ts_ns > cs->last_sample && cs->pending && cs->npending < MG_BATCH_EVENTS)
		cs->pending[cs->npending++] = *e;
	else
		mg_checker_event(cs->chk, e);
	/* under a sustained stream libbpf would never return: hand back control per batch */
	return ++cs->batch >= MG_BATCH_EVENTS ? -EAGAIN : 0;
}

/* Feed held-back events made before the last clock sample (all of them if flush). */
static void feed_pending(struct check_state *cs, bool flush)
{
	size_t i, kept = 0;

	for (i = 0; i < cs->npending; i++) {
		if (!flush && cs->pending[i].ts_ns > cs->last_sample)
			cs->pending[kept++] = cs->pending[i];
		else
			mg_checker_event(cs->chk, &cs->pending[i]);
	}
	cs->npending = kept;
}

/*
 * Sample the realtime offset. The sample is read somewhere in [before, after];
 * a step between the previous sample and this one happened somewhere in
 * [previous before, this after], and is recorded with that interval. Any
 * change larger than the two samples' uncertainty is a step: REALTIME and
 * MONOTONIC are slewed alike, so their difference moves only when the clock
 * is set. The size recorded is the largest the two brackets allow.
 */
static void watch_clock(struct check_state *cs)
{
	uint64_t before = mg_now_ns(), after;
	int64_t hw, off = mg_realtime_offset_bracket(&hw), d = off - cs->last_offset;
	int64_t tol = hw + cs->last_halfwidth;

	after = mg_now_ns();
	if (d > tol || d < -tol)
		mg_checker_clock_step(cs->chk, cs->last_sample, after, d < 0 ? d - tol : d + tol);
	cs->last_offset = off;
	cs->last_halfwidth = hw;
	cs->last_sample = before;
}

static int event_loop(struct check_state *cs)
{
	static const struct timespec zero = { 0, 0 };
	uint64_t end = mg_now_ns() + (uint64_t)(cs->o.duration * 1e9);
	int err;

	struct epoll_event ev;
	int efd = ring_buffer__epoll_fd(cs->rb);

	for (;;) {
		/*
		 * Wait, sample the clock, then consume: every event consumed was made
		 * before the sample, so a step that explains it is already recorded.
		 */
		if (epoll_wait(efd, &ev, 1, 50) < 0 && errno != EINTR)
			return mg_err(MG_EXIT_FAIL, "epoll: %s", strerror(errno));
		watch_clock(cs);
		feed_pending(cs, false);
		cs->batch = 0;
		err = ring_buffer__consume(cs->rb);
		if (err < 0 && err != -EINTR && err != -EAGAIN)
			return mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(-err));
		if (mg_run_wait(&cs->run, &zero)) {
			cs->interrupted = !cs->o.argv;
			break;
		}
		if (!cs->o.argv && (mg_now_ns() >= end || !mg_wl_running(&cs->wl)))
			break;
	}
	return 0;
}

/* ---- verdict and reports ---- */

/* The floor figures of this window and the gates set on them. */
static void eval_gates(struct check_state *cs, const struct mg_report *rep)
{
	int i;

	mg_figures_from_report(&cs->fig, rep);
	cs->gates_failed = mg_gates_eval(cs->gates, &cs->fig, cs->o.limit,
					 cs->o.baseline ? &cs->o.base : NULL, cs->o.baseline_factor);
	cs->gates_unknown = 0;
	for (i = 0; i < MG_F_NR; i++)
		cs->gates_unknown += cs->gates[i].result < 0 &&
				     (cs->gates[i].limit >= 0 || cs->gates[i].have_base);
}

/* One line for a gate: "0.31 <= 0.7 (limit)", "0.9 > 0.47 allowed (baseline 0.3 x 1.5 + 0.01)". */
static void gate_text(const struct check_state *cs, int i, char *buf, size_t len)
{
	const struct mg_gate *g = &cs->gates[i];
	double v = cs->fig.f[i].value;
	size_t n = 0;

	buf[0] = 0;
	if (g->limit >= 0)
		n += snprintf(buf + n, len - n, "%.6g %s %.6g (limit)", v, v > g->limit ? ">" : "<=",
			      g->limit);
	if (g->have_base && n < len)
		snprintf(buf + n, len - n, "%s%.6g %s %.6g allowed (baseline %.6g x %g + %g)",
			 n ? "; " : "", v, v > g->allowed ? ">" : "<=", g->allowed, g->base,
			 cs->o.baseline_factor, i == MG_F_SWAPS_PER_SEC ? MG_BASELINE_SLACK_PER_SEC :
			 MG_BASELINE_SLACK);
}

/*
 * The name a violation is about: the one the events carried, or for a cross-file
 * order report (user-space observations, no name) the built-in workload's file
 * with that dev and inode. Sets *len and *cut (escape.h); NULL when unknown.
 */
static const char *violation_name(const struct check_state *cs, const struct mg_violation *v,
				  char *buf, size_t buflen, size_t *len, bool *cut)
{
	uint64_t i;

	*cut = false;
	if (v->name[0]) {
		*len = mg_name_len(v->name, sizeof(v->name), 0, cut);
		*cut = *cut || v->name_truncated;
		return v->name;
	}
	for (i = 0; v->kind == MG_V_ORDER && cs->wl.t && i < cs->wl.o.threads; i++)
		for (int k = 0; k < 2; k++)
			if (cs->wl.t[i].dev[k] == v->dev && cs->wl.t[i].ino[k] == v->ino) {
				*len = (size_t)snprintf(buf, buflen, "t%d-f%d", cs->wl.t[i].idx, k + 1);
				return buf;
			}
	return NULL;
}

/* An observation of a violation report; its comm cut at a character boundary (escape.h). */
static json_t *json_obs(const struct mg_obs *o)
{
	json_t *j = json_object();
	bool cut;
	size_t n = mg_name_len(o->comm, sizeof(o->comm), 0, &cut);

	json_object_set_new(j, "ctime_sec", json_integer(o->ctime.sec));
	json_object_set_new(j, "ctime_nsec", json_integer(o->ctime.nsec));
	json_object_set_new(j, "t_mono_ns", json_integer((json_int_t)o->t_ns));
	json_object_set_new(j, "pid", json_integer(o->pid));
	json_object_set_new(j, "cpu", json_integer(o->cpu));
	json_object_set_new(j, "comm", mg_json_str(o->comm, n));
	json_object_set_new(j, "comm_truncated", json_boolean(cut));
	return j;
}

/* External bytes in a text line (xml false) or in XML character data (xml true). */
static void put_bytes(FILE *f, const char *s, size_t len, bool cut, bool xml)
{
	if (!xml) {
		mg_text_fput(f, s, len, cut);
		return;
	}
	mg_xml_fput(f, s, len);
	if (cut)
		fputs("\\...", f);
}

static void put_obs(FILE *f, const struct mg_obs *o, bool xml)
{
	bool cut;
	size_t n = mg_name_len(o->comm, sizeof(o->comm), 0, &cut);

	fprintf(f, "%lld.%09u (pid %u ", (long long)o->ctime.sec, o->ctime.nsec, o->pid);
	put_bytes(f, o->comm, n, cut, xml);
	fprintf(f, " cpu %u at %.6f s)", o->cpu, o->t_ns / 1e9);
}

/*
 * One violation report as a text line (no newline): kind, dev MAJ:MIN, inode,
 * mount point and name (escaped), and the two observations.
 */
static void put_violation(FILE *f, const struct check_state *cs, const struct mg_violation *v,
			  bool xml)
{
	char dev[MG_KDEV_STRLEN], mnt[4096], nb[32];
	int mlen = mg_kdev_mount(v->dev, mnt, sizeof(mnt));
	const char *name;
	size_t nlen;
	bool cut;

	fprintf(f, "violation %s%s: dev %s ino %llu gen %u (", mg_violation_name(v->kind),
		v->step_explained ? " (explained by a realtime clock step)" : "",
		mg_kdev_str(v->dev, dev), (unsigned long long)v->ino, v->gen);
	if (mlen >= 0)
		put_bytes(f, mnt, (size_t)mlen, false, xml);
	else
		fputs("?", f);
	fputs(": ", f);
	name = violation_name(cs, v, nb, sizeof(nb), &nlen, &cut);
	if (name)
		put_bytes(f, name, nlen, cut, xml);
	else
		fputs("?", f);
	fprintf(f, ") %s ", v->what);
	put_obs(f, &v->earlier, xml);
	fputs(" then ", f);
	put_obs(f, &v->later, xml);
}

/* JSON "mount" of a kernel dev_t: the mount point, or null when none is found. */
static json_t *json_mount(uint32_t dev)
{
	char mnt[4096];
	int n = mg_kdev_mount(dev, mnt, sizeof(mnt));

	return n >= 0 ? mg_json_str(mnt, (size_t)n) : json_null();
}

/* Violations of kind k not explained by a clock step. */
static uint64_t faults_of(const struct mg_check_stats *st, enum mg_violation_kind k)
{
	return st->violations[k] - st->explained[k];
}

/* Why the floor invariants were not (both) checked in this run ("" when they were). */
static const char *floor_unchecked(const struct check_state *cs)
{
	return cs->floor_why[0] ? cs->floor_why : cs->floor_read_why;
}

static void decide(struct check_state *cs, struct mg_verdict *v)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);
	struct mg_verdict_in in = {
		.faults = mg_checker_faults(cs->chk), .gates_failed = cs->gates_failed,
		.gates_unknown = cs->gates_unknown, .command = cs->o.argv != NULL,
		.command_status = cs->run.child_status, .lost = st->lost,
		.untracked = st->untracked_events, .events = st->events,
		.interrupted = cs->interrupted,
	};

	mg_verdict_decide(v, &in);
}

/* The invariant lines: name, whether it applies, its violations. */
struct inv_line {
	const char *name;
	int kinds[2];		/* violation kinds counted, -1: none */
	const char *na;		/* not checked: why (NULL: checked) */
};

static int inv_lines(const struct check_state *cs, struct inv_line *l)
{
	int n = 0;
	const char *fw = floor_unchecked(cs);

	l[n++] = (struct inv_line){ "no ctime regression", { MG_V_REGRESSION, -1 }, NULL };
	l[n++] = (struct inv_line){ "change visibility", { MG_V_NOT_LATER, MG_V_SKIP_AFTER_QUERY },
				    NULL };
	l[n++] = (struct inv_line){ "cross-file ordering", { MG_V_ORDER, -1 },
				    cs->o.argv ? "built-in workload only" : NULL };
	l[n++] = (struct inv_line){ "floor moves forward", { MG_V_FLOOR_BACKWARD, -1 },
				    fw[0] ? fw : cs->floor_read_why[0] ? cs->floor_read_why : NULL };
	l[n++] = (struct inv_line){ "fine stamps only when needed", { MG_V_FINE_UNNEEDED, -1 },
				    fw[0] ? fw : NULL };
	return n;
}

static uint64_t line_count(const struct mg_check_stats *st, const struct inv_line *l, bool faults)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < 2; k++)
		if (l->kinds[k] >= 0)
			n += faults ? faults_of(st, l->kinds[k]) : st->violations[l->kinds[k]];
	return n;
}

static void print_text(struct check_state *cs, const struct mg_report *rep,
		       const struct mg_verdict *v)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);
	const struct mg_violation *vs;
	struct inv_line lines[8];
	size_t n, i;
	int nl;
	FILE *f = cs->out;
	char dev[MG_KDEV_STRLEN], mnt[4096];
	int mlen;

	fprintf(f, "\nmgtrace check: %.3f s on kernel ", rep->seconds);
	mg_text_fput(f, cs->run.env.release, strlen(cs->run.env.release), false);
	fputs(", ", f);
	if (cs->o.argv)
		mg_text_fput(f, cs->o.argv[0], strlen(cs->o.argv[0]), false);
	fprintf(f, "%s workload\n", cs->o.argv ? "" : "built-in");
	if (!cs->o.argv && cs->wl.have_dir_dev) {
		mlen = mg_kdev_mount(cs->wl.dir_dev, mnt, sizeof(mnt));
		fprintf(f, "workload directory: dev %s, mounted on ", mg_kdev_str(cs->wl.dir_dev, dev));
		if (mlen >= 0)
			mg_text_fput(f, mnt, (size_t)mlen, false);
		else
			fputs("? (not in /proc/self/mountinfo)", f);
		fputc('\n', f);
	}
	mg_run_print_backend(&cs->run, f);
	fputc('\n', f);
	mg_report_print_summary(f, rep);
	fprintf(f, "\nevents: %llu (ctime swaps %llu, skips %llu, stat queries %llu, sets %llu, "
		"floor %llu) on %llu inodes; lost %llu; untracked %llu\n",
		(unsigned long long)st->events, (unsigned long long)st->by_kind[MG_EV_CTIME_SWAP],
		(unsigned long long)st->by_kind[MG_EV_CTIME_SKIP],
		(unsigned long long)st->by_kind[MG_EV_STAT], (unsigned long long)st->by_kind[MG_EV_CTIME_SET],
		(unsigned long long)(st->by_kind[MG_EV_FLOOR_SWAP] + st->by_kind[MG_EV_FLOOR_FAIL] +
				     st->by_kind[MG_EV_FLOOR_UNKNOWN]),
		(unsigned long long)st->inodes, (unsigned long long)st->lost,
		(unsigned long long)st->untracked_events);
	fprintf(f, "not faults (outside the kernel's contract, or races the events cannot decide):\n");
	for (i = 0; i < MG_B_NR_KINDS; i++)
		fprintf(f, "  %-30s %10llu  %s\n", mg_benign_name(i),
			(unsigned long long)st->benign[i], mg_benign_why(i));
	fprintf(f, "realtime clock steps: %llu (recorded at any size)\n",
		(unsigned long long)st->clock_steps);
	nl = inv_lines(cs, lines);
	for (i = 0; i < (size_t)nl; i++) {
		const struct inv_line *l = &lines[i];

		if (l->na) {
			fprintf(f, "%-6s %-30s not checked: %s\n", "-", l->name, l->na);
			continue;
		}
		fprintf(f, "%-6s %-30s %llu violation(s)", line_count(st, l, true) ? "FAIL" : "PASS",
			l->name, (unsigned long long)line_count(st, l, false));
		if (l->kinds[0] == MG_V_REGRESSION || l->kinds[0] == MG_V_ORDER ||
		    l->kinds[0] == MG_V_NOT_LATER)
			fprintf(f, ", %llu explained by clock steps",
				(unsigned long long)(line_count(st, l, false) - line_count(st, l, true)));
		if (l->kinds[0] == MG_V_ORDER)
			fprintf(f, " in %zu modifications%s",
				atomic_load(&cs->nops) < MAX_OPS ? atomic_load(&cs->nops) : MAX_OPS,
				cs->ops_capped ? " (recording capped)" : "");
		if (l->kinds[0] == MG_V_FLOOR_BACKWARD)
			fprintf(f, " in %llu floor reads", (unsigned long long)st->floor_checked);
		if (l->kinds[0] == MG_V_FINE_UNNEEDED)
			fprintf(f, " in %llu decided fine stamps, %llu undecided",
				(unsigned long long)st->fine_checked,
				(unsigned long long)st->fine_undecided);
		fputc('\n', f);
	}
	for (i = 0; i < MG_F_NR; i++) {
		const struct mg_gate *g = &cs->gates[i];
		char buf[200];

		if (!cs->fig.f[i].have) {
			fprintf(f, "%-6s %-30s unavailable: %s\n", g->result < 0 && (g->limit >= 0 ||
				g->have_base) ? "?" : "-", mg_figure_name(i), cs->fig.f[i].why);
			continue;
		}
		if (g->result < 0) {
			fprintf(f, "%-6s %-30s %.6g (%s, derived), no gate\n", "-", mg_figure_name(i),
				cs->fig.f[i].value, mg_figure_formula(i));
			continue;
		}
		gate_text(cs, i, buf, sizeof(buf));
		fprintf(f, "%-6s %-30s %s (%s, derived)\n", g->result ? "PASS" : "FAIL",
			mg_figure_name(i), buf, mg_figure_formula(i));
	}
	vs = mg_checker_reports(cs->chk, &n);
	for (i = 0; i < n; i++) {
		put_violation(f, cs, &vs[i], false);
		fputc('\n', f);
	}
	fprintf(f, "verdict: %s (%s)\n", v->word, v->reason);
	fflush(f);
}

static void print_json(struct check_state *cs, const struct mg_report *rep,
		       const struct mg_verdict *v)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);
	json_t *o = mg_run_json_header(&cs->run, "check"), *a, *inv;
	const struct mg_violation *vs;
	size_t n, i;
	char dev[MG_KDEV_STRLEN], nb[32];

	json_object_set_new(o, "verdict", json_string(v->word));
	json_object_set_new(o, "exit_code", json_integer(v->code));
	json_object_set_new(o, "reason", json_string(v->reason));
	json_object_set_new(o, "duration_s", json_real(rep->seconds));
	json_object_set_new(o, "workload", json_string(cs->o.argv ? "command" : "built-in"));
	if (cs->o.argv) {
		a = json_array();
		for (char **p = cs->o.argv; *p; p++)
			json_array_append_new(a, mg_json_cstr(*p));
		json_object_set_new(o, "command", a);
		json_object_set_new(o, "command_status", json_integer(cs->run.child_status));
	}
	if (!cs->o.argv) {
		json_t *wd = json_object();

		json_object_set_new(wd, "dev", cs->wl.have_dir_dev ?
				    json_string(mg_kdev_str(cs->wl.dir_dev, dev)) : json_null());
		json_object_set_new(wd, "mount", cs->wl.have_dir_dev ? json_mount(cs->wl.dir_dev) :
				    json_null());
		json_object_set_new(o, "workload_dir", wd);
	}
	json_object_set_new(o, "lost_events", json_integer((json_int_t)st->lost));
	json_object_set_new(o, "floor_probes", cs->floor.skel ? json_string(cs->floor.probe) :
			    json_null());
	if (cs->o.test_invert_fine)
		json_object_set_new(o, "test_hook", json_string("MGTRACE_TEST_INVERT_FINE=1: every "
				    "fine-stamp decision inverted (a test of the check itself)"));
	inv = json_object();
	json_object_set_new(inv, "events", json_integer((json_int_t)st->events));
	json_object_set_new(inv, "inodes", json_integer((json_int_t)st->inodes));
	json_object_set_new(inv, "untracked_events", json_integer((json_int_t)st->untracked_events));
	for (i = 0; i < MG_B_NR_KINDS; i++)
		json_object_set_new(inv, mg_benign_name(i), json_integer((json_int_t)st->benign[i]));
	json_object_set_new(inv, "clock_steps", json_integer((json_int_t)st->clock_steps));
	json_object_set_new(inv, "floor_reads_checked", json_integer((json_int_t)st->floor_checked));
	json_object_set_new(inv, "fine_stamps_decided", json_integer((json_int_t)st->fine_checked));
	json_object_set_new(inv, "fine_stamps_undecided", json_integer((json_int_t)st->fine_undecided));
	json_object_set_new(inv, "floor_events",
			    json_integer((json_int_t)(st->by_kind[MG_EV_FLOOR_SWAP] +
						      st->by_kind[MG_EV_FLOOR_FAIL] +
						      st->by_kind[MG_EV_FLOOR_UNKNOWN])));
	json_object_set_new(inv, "floor_invariants_checked", json_boolean(!floor_unchecked(cs)[0]));
	if (floor_unchecked(cs)[0])
		json_object_set_new(inv, "floor_invariants_unchecked", json_string(floor_unchecked(cs)));
	for (i = 0; i < MG_V_NR_KINDS; i++) {
		json_t *k = json_object();

		json_object_set_new(k, "violations", json_integer((json_int_t)st->violations[i]));
		json_object_set_new(k, "explained_by_clock_step", json_integer((json_int_t)st->explained[i]));
		json_object_set_new(inv, mg_violation_name(i), k);
	}
	if (!cs->o.argv)
		json_object_set_new(inv, "ordering_modifications",
				    json_integer((json_int_t)(atomic_load(&cs->nops) < MAX_OPS ?
							      atomic_load(&cs->nops) : MAX_OPS)));
	json_object_set_new(o, "invariants", inv);
	a = json_array();
	{
		const struct mg_clock_step *steps = mg_checker_steps(cs->chk, &n);

		for (i = 0; i < n; i++) {
			json_t *j = json_object();

			json_object_set_new(j, "t0_mono_ns", json_integer((json_int_t)steps[i].t0_ns));
			json_object_set_new(j, "t1_mono_ns", json_integer((json_int_t)steps[i].t1_ns));
			json_object_set_new(j, "delta_ns", json_integer(steps[i].delta_ns));
			json_array_append_new(a, j);
		}
	}
	json_object_set_new(o, "clock_steps", a);
	{
		json_t *fo = json_object(), *fu = json_object();

		for (i = 0; i < MG_F_NR; i++) {
			if (cs->fig.f[i].have)
				json_object_set_new(fo, mg_figure_name(i), json_real(cs->fig.f[i].value));
			else
				json_object_set_new(fu, mg_figure_name(i), json_string(cs->fig.f[i].why));
		}
		json_object_set_new(o, "floor_figures", fo);
		json_object_set_new(o, "floor_figures_unavailable", fu);
	}
	a = json_array();
	for (i = 0; i < MG_F_NR; i++) {
		const struct mg_gate *g = &cs->gates[i];
		json_t *j = json_object();

		json_object_set_new(j, "figure", json_string(mg_figure_name(i)));
		json_object_set_new(j, "formula", json_string(mg_figure_formula(i)));
		json_object_set_new(j, "value", cs->fig.f[i].have ? json_real(cs->fig.f[i].value) :
					       json_null());
		json_object_set_new(j, "limit", g->limit < 0 ? json_null() : json_real(g->limit));
		json_object_set_new(j, "baseline", g->have_base ? json_real(g->base) : json_null());
		json_object_set_new(j, "allowed", g->have_base ? json_real(g->allowed) : json_null());
		json_object_set_new(j, "pass", g->result < 0 ? json_null() : json_boolean(g->result));
		if (!cs->fig.f[i].have)
			json_object_set_new(j, "unavailable", json_string(cs->fig.f[i].why));
		json_array_append_new(a, j);
	}
	json_object_set_new(o, "gates", a);
	if (cs->o.baseline) {
		json_object_set_new(o, "baseline_file", mg_json_cstr(cs->o.baseline));
		json_object_set_new(o, "baseline_factor", json_real(cs->o.baseline_factor));
	}
	a = json_array();
	vs = mg_checker_reports(cs->chk, &n);
	for (i = 0; i < n; i++) {
		json_t *j = json_object();
		const char *name;
		size_t nlen;
		bool cut;

		name = violation_name(cs, &vs[i], nb, sizeof(nb), &nlen, &cut);
		json_object_set_new(j, "kind", json_string(mg_violation_name(vs[i].kind)));
		json_object_set_new(j, "timestamp", json_string(vs[i].what));
		json_object_set_new(j, "dev", json_string(mg_kdev_str(vs[i].dev, dev)));
		json_object_set_new(j, "ino", json_integer((json_int_t)vs[i].ino));
		json_object_set_new(j, "gen", json_integer(vs[i].gen));
		json_object_set_new(j, "mount", json_mount(vs[i].dev));
		json_object_set_new(j, "name", name ? mg_json_str(name, nlen) : json_null());
		json_object_set_new(j, "name_truncated", json_boolean(cut));
		json_object_set_new(j, "step_explained", json_boolean(vs[i].step_explained));
		json_object_set_new(j, "earlier", json_obs(&vs[i].earlier));
		json_object_set_new(j, "later", json_obs(&vs[i].later));
		json_array_append_new(a, j);
	}
	json_object_set_new(o, "violations", a);
	json_object_set_new(o, "counters", mg_report_json(rep));
	mg_json_print_line(cs->out, o);
	json_decref(o);
}

static int write_junit(struct check_state *cs, const struct mg_verdict *v)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);
	FILE *f = cs->junit;
	struct inv_line lines[8];
	/* kinds: the violation kinds whose reports a failed testcase lists (-1: none) */
	struct { const char *name; char fail[240]; char skip[200]; int kinds[2]; }
		tc[8 + MG_F_NR + 1];
	const struct mg_violation *vs;
	size_t nv, j;
	int i, n = 0, nl, failures = 0, skipped = 0;

	cs->junit = NULL;
	vs = mg_checker_reports(cs->chk, &nv);
	memset(tc, 0, sizeof(tc));
	nl = inv_lines(cs, lines);
	for (i = 0; i < nl; i++, n++) {
		tc[n].name = lines[i].name;
		tc[n].kinds[0] = lines[i].kinds[0];
		tc[n].kinds[1] = lines[i].kinds[1];
		if (lines[i].na)
			snprintf(tc[n].skip, sizeof(tc[n].skip), "%s", lines[i].na);
		else if (line_count(st, &lines[i], true))
			snprintf(tc[n].fail, sizeof(tc[n].fail), "expected 0 violations, got %llu",
				 (unsigned long long)line_count(st, &lines[i], true));
	}
	for (i = 0; i < MG_F_NR; i++, n++) {
		const struct mg_gate *g = &cs->gates[i];

		tc[n].name = mg_figure_name(i);
		tc[n].kinds[0] = tc[n].kinds[1] = -1;
		if (g->result < 0)
			snprintf(tc[n].skip, sizeof(tc[n].skip), "%s", g->limit >= 0 || g->have_base ?
				 g->why : "no gate set");
		else if (!g->result)
			gate_text(cs, i, tc[n].fail, sizeof(tc[n].fail));
	}
	if (cs->o.argv) {
		tc[n].name = "COMMAND succeeds";
		tc[n].kinds[0] = tc[n].kinds[1] = -1;
		if (cs->run.child_status)
			snprintf(tc[n].fail, sizeof(tc[n].fail), "expected exit status 0, got %d",
				 cs->run.child_status);
		n++;
	}
	for (i = 0; i < n; i++) {
		failures += tc[i].fail[0] != 0;
		skipped += tc[i].skip[0] != 0;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuite name=\"mgtrace check\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		"skipped=\"%d\">\n", n + (v->code == MG_EXIT_INCONCLUSIVE), failures,
		v->code == MG_EXIT_INCONCLUSIVE, skipped);
	/* what was checked: external bytes, escaped as in text output (docs/json.md "Strings") */
	fprintf(f, "  <properties>\n    <property name=\"kernel_release\" value=\"");
	mg_xml_fput(f, cs->run.env.release, strlen(cs->run.env.release));
	fprintf(f, "\"/>\n");
	for (i = 0; cs->o.argv && cs->o.argv[i]; i++) {
		fprintf(f, "    <property name=\"command[%d]\" value=\"", i);
		mg_xml_fput(f, cs->o.argv[i], strlen(cs->o.argv[i]));
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "  </properties>\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "  <testcase classname=\"mgtrace.check\" name=\"");
		mg_xml_fput(f, tc[i].name, strlen(tc[i].name));
		fprintf(f, "\">");
		if (tc[i].skip[0]) {
			fprintf(f, "<skipped message=\"");
			mg_xml_fput(f, tc[i].skip, strlen(tc[i].skip));
			fprintf(f, "\"/>");
		} else if (tc[i].fail[0]) {
			/* the body lists the stored reports of this testcase's kinds, one a line */
			fprintf(f, "<failure message=\"");
			mg_xml_fput(f, tc[i].fail, strlen(tc[i].fail));
			fprintf(f, "\">");
			for (j = 0; j < nv; j++) {
				if (vs[j].step_explained || ((int)vs[j].kind != tc[i].kinds[0] &&
							     (int)vs[j].kind != tc[i].kinds[1]))
					continue;
				put_violation(f, cs, &vs[j], true);
				fputc('\n', f);
			}
			fprintf(f, "</failure>");
		}
		fprintf(f, "</testcase>\n");
	}
	if (v->code == MG_EXIT_INCONCLUSIVE) {
		fprintf(f, "  <testcase classname=\"mgtrace.check\" name=\"events complete\">"
			"<error message=\"");
		mg_xml_fput(f, v->reason, strlen(v->reason));
		fprintf(f, "\"/></testcase>\n");
	}
	fprintf(f, "</testsuite>\n");
	return fclose(f) ? mg_err(MG_EXIT_FAIL, "check: writing '%s' failed", cs->o.junit) : 0;
}

/* ---- the command ---- */

/*
 * Load bpf/floor.bpf.c with the session's function-probe backend, sharing its
 * ring buffer: its events reach the checker through on_event like the
 * tracepoint events. Sets floor_why ("" when the two floor invariants are
 * checked) and floor_read_why (mg_floor unreadable: only the fine-stamp one is).
 */
static void floor_setup(struct check_state *cs)
{
	struct mg_floor_opts fo = { .backend = cs->run.sess.backend,
				    .test_invert_fine = cs->o.test_invert_fine };
	int err;

	if (!mg_backend_has_funcs(cs->run.sess.backend)) {
		const struct mg_attempt *fe = &cs->run.sess.attempts[MG_BE_FENTRY];
		const struct mg_attempt *kp = &cs->run.sess.attempts[MG_BE_KPROBE];

		if (fe->tried || kp->tried)
			snprintf(cs->floor_why, sizeof(cs->floor_why), "needs a function-probe "
				 "backend; this run has tracepoints only: fentry %.150s; kprobe %.150s",
				 fe->tried ? fe->why : "not tried", kp->tried ? kp->why : "not tried");
		else
			snprintf(cs->floor_why, sizeof(cs->floor_why), "needs a function-probe "
				 "backend (fentry or kprobe); this run has tracepoints only "
				 "(--backend tracepoint)");
		return;
	}
	err = mg_floor_open(&cs->floor, &cs->run.env, &cs->run.sess, &fo);
	if (err) {
		snprintf(cs->floor_why, sizeof(cs->floor_why), "the floor probes did not load: %s",
			 cs->floor.why);
		return;
	}
	cs->floor_why[0] = 0;
	if (!mg_kallsyms_has("mg_floor"))
		snprintf(cs->floor_read_why, sizeof(cs->floor_read_why),
			 "mg_floor is not in /proc/kallsyms: its moves cannot be read");
}

static void cleanup(struct check_state *cs)
{
	workload_finish(cs);
	mg_wl_free(&cs->wl);
	ring_buffer__free(cs->rb);
	mg_floor_close(&cs->floor);
	mg_run_cleanup(&cs->run);
	mg_checker_free(cs->chk);
	free(cs->pending);
	free(cs->ops);
	if (cs->out && cs->out != stdout)
		fclose(cs->out);
	if (cs->junit)
		fclose(cs->junit);
}

int cmd_check(int argc, char **argv)
{
	struct check_state cs = { 0 };
	struct mg_session_opts so = { .events = true };
	struct mg_report rep;
	struct mg_verdict v;
	uint64_t lost;
	int ret, err;

	if ((ret = parse_opts(&cs.o, argc, argv)))
		return ret;
	if ((ret = mg_test_hook_invert_fine()) < 0)
		return MG_EXIT_USAGE;
	cs.o.test_invert_fine = ret;
	ret = MG_EXIT_OK;
	so.ringbuf_bytes = (unsigned int)cs.o.ringbuf_bytes;
	cs.out = stdout;
	if (cs.o.output && !(cs.out = fopen(cs.o.output, "we")))
		return mg_err(MG_EXIT_USAGE, "check: cannot open '%s': %s", cs.o.output, strerror(errno));
	if (cs.o.junit && !(cs.junit = fopen(cs.o.junit, "we"))) {
		ret = mg_err(MG_EXIT_USAGE, "check: cannot open '%s': %s", cs.o.junit, strerror(errno));
		goto out;
	}
	if (cs.o.baseline) {
		char e[400];
		int r = mg_baseline_load(cs.o.baseline, &cs.o.base, e, sizeof(e));

		if (r) {
			ret = mg_err(MG_EXIT_USAGE, "check: %s", e);
			goto out;
		}
	}
	if (cs.o.dir && access(cs.o.dir, W_OK | X_OK)) {
		ret = mg_err(MG_EXIT_USAGE, "check: cannot use --dir '%s': %s", cs.o.dir, strerror(errno));
		goto out;
	}
	cs.chk = mg_checker_new(cs.o.max_inodes, 100);
	if (!cs.chk) {
		ret = mg_err(MG_EXIT_FAIL, "out of memory for %llu inodes",
			     (unsigned long long)cs.o.max_inodes);
		goto out;
	}
	if ((ret = mg_run_setup(&cs.run, cs.o.backend, &so)))
		goto out;
	cs.rb = ring_buffer__new(bpf_map__fd(cs.run.sess.skel->maps.events), on_event, &cs, NULL);
	if (!cs.rb) {
		ret = mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(errno));
		goto out;
	}
	floor_setup(&cs);
	if (!cs.o.json)
		fprintf(stderr, "mgtrace: checking with backend %s (tracepoints as %s; floor "
			"probes: %s%s)\n", mg_backend_name(cs.run.sess.backend), cs.run.cfg.tp_flavour,
			cs.floor.skel ? cs.floor.probe : "not loaded: ",
			cs.floor.skel ? "" : cs.floor_why);
	if (cs.o.argv && (ret = mg_run_spawn(&cs.run, cs.o.argv)))
		goto out;
	cs.pending = calloc(MG_BATCH_EVENTS, sizeof(*cs.pending));
	if (!cs.pending) {
		ret = mg_err(MG_EXIT_FAIL, "out of memory");
		goto out;
	}
	cs.last_sample = mg_now_ns();
	cs.last_offset = mg_realtime_offset_bracket(&cs.last_halfwidth);
	mg_checker_set_tai_offset(cs.chk, mg_tai_minus_realtime());
	if (mg_run_start(&cs.run)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	if (!cs.o.argv && (ret = workload_start(&cs)))
		goto out;
	if ((ret = event_loop(&cs)))
		goto out;
	if (!cs.o.argv && (err = workload_finish(&cs))) {
		ret = mg_err(MG_EXIT_FAIL, "check: workload failed: %s", strerror(err));
		goto out;
	}
	mg_run_end_child(&cs.run);
	if (mg_run_snap(&cs.run, &cs.run.cur)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	watch_clock(&cs);
	feed_pending(&cs, false);
	do {	/* drain: the workload has ended, the stream is finite */
		cs.batch = 0;
		err = ring_buffer__consume(cs.rb);
	} while (err == -EAGAIN);
	watch_clock(&cs);
	feed_pending(&cs, true);
	lost = 0;
	for (int cpu = 0; cpu < cs.run.sess.nr_cpus; cpu++)
		lost += cs.run.cur.bpf[cpu].v[MG_BPF_LOST] - cs.run.first.bpf[cpu].v[MG_BPF_LOST];
	if (cs.floor.skel) {	/* since load: every floor event is fed, from load on */
		uint64_t fl;

		if ((err = mg_floor_lost(&cs.floor, cs.run.sess.nr_cpus, &fl))) {
			ret = mg_err(MG_EXIT_FAIL, "check: reading the floor loss counter: %s",
				     strerror(-err));
			goto out;
		}
		lost += fl;
	}
	mg_checker_lost(cs.chk, lost);
	if (!cs.o.argv)
		cs.order_violations = mg_order_check(cs.chk, cs.ops,
						     atomic_load(&cs.nops) < MAX_OPS ? atomic_load(&cs.nops) : MAX_OPS);
	if (mg_report_build(&rep, &cs.run.cfg, &cs.run.first, &cs.run.cur)) {
		ret = mg_err(MG_EXIT_FAIL, "out of memory");
		goto out;
	}
	eval_gates(&cs, &rep);
	decide(&cs, &v);
	if (cs.o.json)
		print_json(&cs, &rep, &v);
	else
		print_text(&cs, &rep, &v);
	mg_report_free(&rep);
	ret = v.code;
	if (cs.o.junit && (err = write_junit(&cs, &v)))
		ret = err;
out:
	cleanup(&cs);
	return ret;
}
