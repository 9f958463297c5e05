// SPDX-License-Identifier: GPL-2.0
/*
 * clocks.c - `mgtrace clocks`: what each POSIX clock costs on this machine, and
 * whether libc's clock_gettime() serves it from the vDSO or enters the kernel.
 *
 * Two passes over the clocks, each a tight loop of N calls of libc's
 * clock_gettime() (which uses the vDSO where it can, as applications do):
 *  1. counted: bpf/clocks.bpf.c, attached to sys_enter, counts this thread's
 *     clock_gettime system calls per clock id, read right before and after
 *     each clock's loop, so "vdso" (0 per call) or "syscall" (1 per call) is
 *     observed, never guessed;
 *  2. timed, with the BPF program detached (see time_clock()): CLK_RUNS runs,
 *     reported as the median, min and max ns per call.
 * Also printed: clock_getres() of each clock and the kernel's clocksource.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "escape.h"
#include "json_writer.h"
#include <bpf/libbpf.h>
#include "clocks.skel.h"
#include "commands.h"
#include "kenv.h"
#include "loadlog.h"
#include "pidns.h"
#include "report.h"
#include "opts.h"
#include "util.h"

#define CLK_RUNS	5		/* timed runs per clock: median, min and max of these */
#define CLK_WARMUP	1000		/* untimed, uncounted calls before the runs */
#define CLK_DEF_ITERS	200000		/* default calls per run */
#define CLK_MAX_ITERS	100000000	/* --iterations upper bound */
#define CLK_SRC_DIR	"/sys/devices/system/clocksource/clocksource0"

/* The clocks measured, in output order. */
static const struct {
	const char *name;
	clockid_t id;
} clk_list[] = {
	{ "CLOCK_REALTIME", CLOCK_REALTIME },
	{ "CLOCK_MONOTONIC", CLOCK_MONOTONIC },
	{ "CLOCK_BOOTTIME", CLOCK_BOOTTIME },
	{ "CLOCK_TAI", CLOCK_TAI },
	{ "CLOCK_MONOTONIC_RAW", CLOCK_MONOTONIC_RAW },
	{ "CLOCK_REALTIME_COARSE", CLOCK_REALTIME_COARSE },
	{ "CLOCK_MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE },
	{ "CLOCK_PROCESS_CPUTIME_ID", CLOCK_PROCESS_CPUTIME_ID },
	{ "CLOCK_THREAD_CPUTIME_ID", CLOCK_THREAD_CPUTIME_ID },
};
#define CLK_NR (sizeof(clk_list) / sizeof(clk_list[0]))

/* How clock_gettime() reached the clock during the timed runs. */
enum clk_served { CLK_VDSO, CLK_SYSCALL, CLK_MIXED };
static const char *const served_names[] = { "vdso", "syscall", "mixed" };

/* One clock's measurement. Times are ns per call; counts are calls. */
struct clk_result {
	int err;		/* 0, or errno of clock_getres/clock_gettime: unavailable */
	char why[128];		/* when err, e.g. "EINVAL: Invalid argument" */
	long long res_ns;	/* clock_getres() resolution, ns */
	double ns[CLK_RUNS];	/* ns per call of each run, sorted ascending */
	unsigned long long calls;	/* clock_gettime() calls in the counted loop */
	unsigned long long syscalls;	/* clock_gettime system calls counted during it */
	enum clk_served served;
};

struct clk_opts {
	uint64_t iters;		/* calls per run */
	struct mg_cpus cpus;	/* -C: the CPUs the measuring thread may run on (given
				 * false: not pinned) */
};


/* Where a stored option goes in struct clk_opts */
#define AT(field) MG_OPT_AT(struct clk_opts, field)

static const struct mg_opt clocks_opts[] = {
	{ .val = 'n', .lname = "iterations", .arg = "N", .store = MG_OS_U64, .at = AT(iters),
	  .min = 1, .max = CLK_MAX_ITERS,
	  .help = "calls per run (1 to " MG_STR(CLK_MAX_ITERS) ", default "
	  MG_STR(CLK_DEF_ITERS) ")" },
	MG_OPT_CPUS("pin the measuring thread to these online CPUs (perf's list:\n"
		    "0,2-3; as taskset -c)"),
	MG_OPTS_COMMON("one JSON object instead of the table",
		       "the results to FILE instead of stdout",
		       "libbpf's warnings too (-vv: its debug messages)"),
	{ 0 }
};

const struct mg_cmd_opts clocks_cmdopts = {
	.name = "clocks",
	.synopsis = "[--iterations N] [--cpu CPUS] [-j] [-o FILE] [-v]",
	.about = "Measure clock_gettime() for each POSIX clock: ns per call (median, min and max\n"
		 "of " MG_STR(CLK_RUNS) " runs), clock_getres(), and whether libc served it from the vDSO or by a\n"
		 "system call, established by counting this thread's clock_gettime system calls\n"
		 "with a BPF program on sys_enter during a loop of N calls per clock (the timed\n"
		 "runs are made with it detached). Also prints the current and available\n"
		 "clocksources.\n",
	.opts = clocks_opts,
	.exit_note = "clocks: 3 also when the sys_enter tracepoint cannot be attached.\n",
};

/* -C CPUS, the one option the table does not store. Returns 0 or MG_EXIT_USAGE (printed). */
static int clocks_opt(void *base, int c, const char *arg)
{
	struct clk_opts *o = base;

	return c == 'C' && mg_opt_cpus("clocks", arg, &o->cpus) ? MG_EXIT_USAGE : 0;
}

static int parse_opts(struct clk_opts *o, int argc, char **argv)
{
	struct mg_opt_parser p;
	int e;

	memset(o, 0, sizeof(*o));
	o->iters = CLK_DEF_ITERS;
	mg_opt_begin(&p, &clocks_cmdopts, argc, argv);
	if ((e = mg_opt_parse(&p, o, clocks_opt)))
		return e;
	return mg_opt_no_operands(&p);
}

/*
 * Load and attach bpf/clocks.bpf.c counting this thread's clock_gettime system
 * calls: tp_btf/sys_enter, else raw_tp/sys_enter. Returns the skeleton, or NULL
 * with a one-line reason in why; *flavour is "tp_btf" or "raw_tp".
 */
static struct clocks_bpf *open_counter(const char **flavour, char *why, size_t len)
{
	char w[2][200] = { "", "" };	/* each flavour's cause: [1] tp_btf, [0] raw_tp */
	struct clocks_bpf *skel;
	int pass, err = 0;

	for (pass = 0; pass < 2; pass++) {
		bool btf = pass == 0;

		mg_libbpf_log_reset();
		skel = clocks_bpf__open();
		if (!skel) {
			err = -errno;
			snprintf(w[btf], sizeof(w[btf]), "open failed: %s", strerror(-err));
			continue;
		}
		/* the kernel's ids of this thread, as BPF sees them (pidns.h) */
		if ((err = mg_pid_kernel(gettid(), (uint32_t *)&skel->rodata->tgid,
					 (uint32_t *)&skel->rodata->tid, why, len))) {
			clocks_bpf__destroy(skel);
			return NULL;
		}
		skel->rodata->nr = SYS_clock_gettime;
		bpf_program__set_autoload(skel->progs.tpb_clk_sys_enter, btf);
		bpf_program__set_autoload(skel->progs.rtp_clk_sys_enter, !btf);
		err = clocks_bpf__load(skel);
		if (!err && (err = clocks_bpf__attach(skel)))
			mg_libbpf_cause(err, "attach", false, w[btf], sizeof(w[btf]));
		else if (err)
			mg_libbpf_cause(err, "load", false, w[btf], sizeof(w[btf]));
		if (!err && !skel->bss)
			err = -ENOTSUP;	/* .bss not mmap-able: counts could not be read */
		if (!err) {
			*flavour = btf ? "tp_btf" : "raw_tp";
			return skel;
		}
		if (!w[btf][0])
			snprintf(w[btf], sizeof(w[btf]), "%s: %s", strerrorname_np(-err) ?: "?",
				 strerror(-err));
		clocks_bpf__destroy(skel);
	}
	if (!strcmp(w[0], w[1]))	/* one cause for both, e.g. a lockdown's */
		snprintf(why, len, "sys_enter tracepoint unavailable (tp_btf and raw_tp): %.190s", w[1]);
	else
		snprintf(why, len, "sys_enter tracepoint unavailable: as tp_btf: %.190s; as raw_tp: %.190s",
			 w[1], w[0]);
	return NULL;
}

static unsigned long long counted(const struct clocks_bpf *skel, clockid_t id)
{
	return __atomic_load_n(&skel->bss->calls[id], __ATOMIC_SEQ_CST);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Resolution of clock id, or r->err and r->why when the clock is unavailable. */
static void probe_clock(clockid_t id, struct clk_result *r)
{
	struct timespec ts;

	memset(r, 0, sizeof(*r));
	if (clock_getres(id, &ts) || clock_gettime(id, &ts)) {
		r->err = errno;
		snprintf(r->why, sizeof(r->why), "%s: %s", strerrorname_np(errno) ?: "?",
			 strerror(errno));
		return;
	}
	clock_getres(id, &ts);
	r->res_ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * The counted loop: iters calls of clock_gettime(id) with the BPF counter
 * attached, its count read right before and after the loop. Sets calls,
 * syscalls and served.
 */
static void count_clock(const struct clocks_bpf *skel, clockid_t id, uint64_t iters,
			struct clk_result *r)
{
	struct timespec ts;
	unsigned long long c0, c1;
	uint64_t i;

	c0 = counted(skel, id);
	for (i = 0; i < iters; i++)
		clock_gettime(id, &ts);
	c1 = counted(skel, id);
	r->calls = iters;
	r->syscalls = c1 - c0;
	r->served = !r->syscalls ? CLK_VDSO : r->syscalls == r->calls ? CLK_SYSCALL : CLK_MIXED;
}

/*
 * The timed runs, with the counter detached: while any sys_enter program is
 * attached, every system call of every task takes the kernel's slower traced
 * entry path, which would add the tracing cost to the system-call clocks.
 * CLK_RUNS runs of iters calls after CLK_WARMUP untimed ones; r->ns is
 * sorted, so ns[CLK_RUNS / 2] is the median.
 */
static void time_clock(clockid_t id, uint64_t iters, struct clk_result *r)
{
	struct timespec ts;
	uint64_t i, t0;
	int run;

	for (i = 0; i < CLK_WARMUP && i < iters; i++)
		clock_gettime(id, &ts);
	for (run = 0; run < CLK_RUNS; run++) {
		t0 = mg_now_ns();
		for (i = 0; i < iters; i++)
			clock_gettime(id, &ts);
		r->ns[run] = (double)(mg_now_ns() - t0) / (double)iters;
	}
	qsort(r->ns, CLK_RUNS, sizeof(r->ns[0]), cmp_double);
}

/* Read a sysfs line into buf without its newline; on failure "unknown (reason)". */
static void read_line(const char *path, char *buf, size_t len)
{
	int n = mg_read_file(path, buf, len);

	if (n < 0) {
		snprintf(buf, len, "unknown (%s)", strerror(-n));
		return;
	}
	buf[strcspn(buf, "\n")] = 0;
	for (n = (int)strlen(buf); n > 0 && buf[n - 1] == ' '; n--)
		buf[n - 1] = 0;	/* available_clocksource ends in a space */
}

static void print_text(const struct clk_opts *o, const struct mg_kenv *env, const char *flavour,
		       const char *cur, const char *avail, const struct clk_result *res)
{
	char cpu[200];
	size_t k;

	if (o->cpus.given)
		snprintf(cpu, sizeof(cpu), "pinned to CPU%s %s", o->cpus.n > 1 ? "s" : "",
			 o->cpus.text);
	else
		snprintf(cpu, sizeof(cpu), "not pinned");
	fprintf(mg_out, "mgtrace clocks: libc clock_gettime() on kernel %s, %llu calls x %d runs per clock, %s\n",
	       env->release, (unsigned long long)o->iters, CLK_RUNS, cpu);
	fprintf(mg_out, "clocksource: %s (available: %s)\n", cur, avail);
	fprintf(mg_out, "system calls counted by BPF %s sys_enter (clock_gettime, this thread only)\n\n",
	       flavour);
	fprintf(mg_out, "%-25s %2s %10s %10s %10s %10s %10s %8s  %s\n", "clock", "id", "res_ns",
	       "median_ns", "min_ns", "max_ns", "syscalls", "per_call", "served_by");
	for (k = 0; k < CLK_NR; k++) {
		const struct clk_result *r = &res[k];

		fprintf(mg_out, "%-25s %2d ", clk_list[k].name, (int)clk_list[k].id);
		if (r->err) {
			fprintf(mg_out, "%10s %10s %10s %10s %10s %8s  unavailable: %s\n", "-", "-", "-", "-",
			       "-", "-", r->why);
			continue;
		}
		fprintf(mg_out, "%10lld %10.1f %10.1f %10.1f %10llu %8.3f  %s", r->res_ns,
		       r->ns[CLK_RUNS / 2], r->ns[0], r->ns[CLK_RUNS - 1], r->syscalls,
		       (double)r->syscalls / (double)r->calls, served_names[r->served]);
		if (r->served == CLK_MIXED)
			fprintf(mg_out, " (%llu syscalls)", r->syscalls);
		fputc('\n', mg_out);
	}
}

static json_t *json_clock(size_t k, const struct clk_result *r)
{
	json_t *c = json_object(), *ns;

	json_object_set_new(c, "name", json_string(clk_list[k].name));
	json_object_set_new(c, "id", json_integer(clk_list[k].id));
	if (r->err) {
		json_object_set_new(c, "res_ns", json_null());
		json_object_set_new(c, "ns_per_call", json_null());
		json_object_set_new(c, "syscalls", json_null());
		json_object_set_new(c, "calls", json_null());
		json_object_set_new(c, "served_by", json_null());
		json_object_set_new(c, "unavailable", json_string(r->why));
		return c;
	}
	json_object_set_new(c, "res_ns", json_integer(r->res_ns));
	ns = json_object();
	json_object_set_new(ns, "median", json_real(r->ns[CLK_RUNS / 2]));
	json_object_set_new(ns, "min", json_real(r->ns[0]));
	json_object_set_new(ns, "max", json_real(r->ns[CLK_RUNS - 1]));
	json_object_set_new(c, "ns_per_call", ns);
	json_object_set_new(c, "syscalls", json_integer((json_int_t)r->syscalls));
	json_object_set_new(c, "calls", json_integer((json_int_t)r->calls));
	json_object_set_new(c, "served_by", json_string(served_names[r->served]));
	return c;
}

static void print_json(const struct clk_opts *o, const struct mg_kenv *env, const char *flavour,
		       const char *cur, const char *avail, const struct clk_result *res)
{
	json_t *obj = json_object(), *a = json_array(), *cs = json_array(), *cpus = json_array();
	struct mg_jw w;
	char buf[256], *tok, *save;
	size_t k;

	snprintf(buf, sizeof(buf), "%s", avail);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		json_array_append_new(cs, mg_json_cstr(tok));
	for (k = 0; k < CLK_NR; k++)
		json_array_append_new(a, json_clock(k, &res[k]));
	mg_json_put_header(obj, "clocks", env->release);
	json_object_set_new(obj, "clocksource", mg_json_cstr(cur));
	json_object_set_new(obj, "available_clocksources", cs);
	json_object_set_new(obj, "syscall_counter", json_string(flavour));
	json_object_set_new(obj, "iterations", json_integer((json_int_t)o->iters));
	json_object_set_new(obj, "runs", json_integer(CLK_RUNS));
	/* cpu: the one CPU pinned to (null: not pinned, or several: then cpus lists them) */
	for (int c = 0; c < MG_MAX_CPUS && o->cpus.given; c++)
		if (mg_cpus_has(&o->cpus, c)) {
			if (o->cpus.n == 1)
				json_object_set_new(obj, "cpu", json_integer(c));
			json_array_append_new(cpus, json_integer(c));
		}
	if (o->cpus.n != 1)
		json_object_set_new(obj, "cpu", json_null());
	json_object_set_new(obj, "cpus", o->cpus.given ? json_incref(cpus) : json_null());
	json_decref(cpus);
	json_object_set_new(obj, "clocks", a);
	/* 6 significant digits: ns per call to 0.01 ns and better than the run-to-run noise. */
	mg_jw_init(&w, mg_out);
	mg_jw_set_real_precision(&w, 6);
	mg_jw_value(&w, obj);
	if (mg_jw_end_line(&w))
		mg_err(MG_EXIT_FAIL, "JSON: writing the clocks object failed");
	json_decref(obj);
}

int cmd_clocks(int argc, char **argv)
{
	struct clk_result res[CLK_NR];
	struct clk_opts o;
	struct mg_kenv env;
	struct clocks_bpf *skel;
	char why[448], cur[128], cur2[128], avail[256];
	const char *flavour = "?";
	cpu_set_t *set;
	size_t k, setsz;
	int ret;

	if ((ret = parse_opts(&o, argc, argv)) || (ret = mg_out_open_once("clocks", false)))
		return ret;
	mg_kenv_probe(&env);
	if ((ret = mg_env_require(&env, false)))
		return ret;
	if (o.cpus.given) {
		if (!(set = CPU_ALLOC(MG_MAX_CPUS)))
			return mg_err(MG_EXIT_FAIL, "clocks: %s", strerror(errno));
		setsz = CPU_ALLOC_SIZE(MG_MAX_CPUS);
		CPU_ZERO_S(setsz, set);
		for (int c = 0; c < MG_MAX_CPUS; c++)
			if (mg_cpus_has(&o.cpus, c))
				CPU_SET_S(c, setsz, set);
		ret = sched_setaffinity(0, setsz, set);
		CPU_FREE(set);
		if (ret)	/* online, but outside this process's cpuset */
			return mg_err(MG_EXIT_USAGE, "clocks: cannot pin to CPU%s %s: %s",
				      o.cpus.n > 1 ? "s" : "", o.cpus.text, strerror(errno));
	}
	skel = open_counter(&flavour, why, sizeof(why));
	if (!skel)
		return mg_err(MG_EXIT_ENV, "clocks: %s", why);
	read_line(CLK_SRC_DIR "/current_clocksource", cur, sizeof(cur));
	read_line(CLK_SRC_DIR "/available_clocksource", avail, sizeof(avail));
	for (k = 0; k < CLK_NR; k++) {
		probe_clock(clk_list[k].id, &res[k]);
		if (!res[k].err)
			count_clock(skel, clk_list[k].id, o.iters, &res[k]);
	}
	clocks_bpf__destroy(skel);
	for (k = 0; k < CLK_NR; k++)
		if (!res[k].err)
			time_clock(clk_list[k].id, o.iters, &res[k]);
	read_line(CLK_SRC_DIR "/current_clocksource", cur2, sizeof(cur2));
	if (strcmp(cur, cur2))
		return mg_err(MG_EXIT_FAIL, "clocks: clocksource changed from %s to %s while "
			      "measuring; run again", cur, cur2);

	if (mg_json_output)
		print_json(&o, &env, flavour, cur, avail, res);
	else
		print_text(&o, &env, flavour, cur, avail, res);
	return mg_out_close();
}
