// SPDX-License-Identifier: GPL-2.0
/*
 * stat.c - `mgtrace stat`: count multigrain events while it runs, or for the
 * lifetime of a COMMAND, as `perf stat` does. BPF counts sit beside the
 * kernel's own counters (per-CPU ksyms where readable, debugfs totals always)
 * for the same window, and every mismatch is flagged.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "backend.h"
#include "commands.h"
#include "counters.h"
#include "kcounters.h"
#include "kenv.h"
#include "report.h"
#include "util.h"

#define MG_SCHEMA_VERSION 1

struct stat_opts {
	double interval;	/* seconds between interval rows; 0: none */
	uint64_t count;		/* stop after this many intervals; 0: no limit */
	bool per_cpu;		/* per-CPU table on every interval */
	bool json;		/* JSON lines instead of text */
	bool hot;		/* also probe current_time and coarse_mg */
	enum mg_backend backend;
	const char *output;	/* -o FILE, or NULL: stdout */
	char **argv;		/* COMMAND, or NULL */
};

/* Everything one stat run owns, so that every exit path releases it. */
struct stat_run {
	struct stat_opts o;
	struct mg_kenv env;
	struct mg_session sess;
	struct mg_kreader *kr;
	char kr_why[256];
	struct mg_report_cfg cfg;
	struct mg_snap first, prev, cur;
	FILE *out;
	pid_t child;
	int go_fd;		/* write end of the pipe that releases the child */
	int child_status;	/* exit code to return for the child */
};

static int usage(FILE *f, int code)
{
	fprintf(f,
		"Usage: mgtrace stat [-i SECONDS] [-c COUNT] [--per-cpu] [--json] [-o FILE]\n"
		"                    [--backend auto|fentry|kprobe|tracepoint] [--hot] [-- COMMAND [ARGS...]]\n"
		"Count multigrain timestamp events until interrupted (SIGINT/SIGTERM), for COUNT\n"
		"intervals, or for the lifetime of COMMAND (then exit with its status).\n"
		"  -i, --interval S     print a row of totals every S seconds (0.01..86400)\n"
		"  -c, --count N        stop after N intervals (default interval 1 s)\n"
		"  -p, --per-cpu        per-CPU table with every interval (the summary always has one)\n"
		"  -j, --json           one JSON object per line: each interval and the summary\n"
		"  -o, --output FILE    write results to FILE instead of stdout\n"
		"  -b, --backend B      attach backend: auto (default: fentry, then kprobe, then\n"
		"                       tracepoints only), fentry, kprobe or tracepoint\n"
		"  -H, --hot            also count current_time and ktime_get_coarse_real_ts64_mg\n"
		"                       (they run on every write; function-probe backends only)\n"
		"Exit codes: 0 ok (or COMMAND's status), 2 usage, 3 environment unsupported.\n");
	return code;
}

static int parse_opts(struct stat_opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "interval", required_argument, 0, 'i' }, { "count", required_argument, 0, 'c' },
		{ "per-cpu", no_argument, 0, 'p' }, { "json", no_argument, 0, 'j' },
		{ "output", required_argument, 0, 'o' }, { "backend", required_argument, 0, 'b' },
		{ "hot", no_argument, 0, 'H' }, { "help", no_argument, 0, 'h' },
		{ "verbose", no_argument, 0, 'v' }, { 0 } };
	int c;

	optind = 1;
	opterr = 0;
	/* '+': stop at the first non-option, which starts COMMAND. */
	while ((c = getopt_long(argc, argv, "+:i:c:pjo:b:Hhv", lo, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (mg_parse_seconds(optarg, 86400, &o->interval) || o->interval < 0.01)
				return mg_err(MG_EXIT_USAGE, "stat: invalid interval '%s' "
					      "(seconds, 0.01 to 86400)", optarg);
			break;
		case 'c':
			if (mg_parse_u64(optarg, 1, 1000000000, &o->count))
				return mg_err(MG_EXIT_USAGE, "stat: invalid count '%s' "
					      "(1 to 1000000000)", optarg);
			break;
		case 'p': o->per_cpu = true; break;
		case 'j': o->json = true; break;
		case 'o': o->output = optarg; break;
		case 'b':
			if (mg_backend_parse(optarg, &o->backend))
				return mg_err(MG_EXIT_USAGE, "stat: unknown backend '%s' "
					      "(auto, fentry, kprobe, tracepoint)", optarg);
			break;
		case 'H': o->hot = true; break;
		case 'v': mg_verbose++; break;
		case 'h': exit(usage(stdout, MG_EXIT_OK));
		default: return mg_bad_option("stat", c, argv);
		}
	}
	if (o->count && !o->interval)
		o->interval = 1;
	if (o->hot && o->backend == MG_BE_TRACEPOINT)
		return mg_err(MG_EXIT_USAGE, "stat: --hot needs a function-probe backend "
			      "(fentry or kprobe), not tracepoint");
	if (optind < argc)
		o->argv = &argv[optind];
	return MG_EXIT_OK;
}

/*
 * Read every source. The debugfs line brackets the BPF read: read first at the
 * start of a window and last at its end, so both cover the same events.
 */
static int take_snap(struct stat_run *r, struct mg_snap *s, bool at_start)
{
	int err;

	if (at_start)
		s->dbg_err = mg_debugfs_read(s->dbg);
	if (r->kr && (err = mg_kreader_read(r->kr, s->kpc))) {
		mg_err(MG_EXIT_FAIL, "reading kernel per-CPU counters: %s", strerror(-err));
		return err;
	}
	if ((err = mg_session_read(&r->sess, s->bpf))) {
		mg_err(MG_EXIT_FAIL, "reading BPF counters: %s", strerror(-err));
		return err;
	}
	if (!at_start)
		s->dbg_err = mg_debugfs_read(s->dbg);
	s->t_ns = mg_now_ns();
	return 0;
}

static void copy_snap(struct stat_run *r, struct mg_snap *dst, const struct mg_snap *src)
{
	int n = r->sess.nr_cpus;

	memcpy(dst->bpf, src->bpf, sizeof(*src->bpf) * n);
	if (src->kpc)
		memcpy(dst->kpc, src->kpc, sizeof(*src->kpc) * n * MG_K_NR_COUNTERS);
	memcpy(dst->dbg, src->dbg, sizeof(src->dbg));
	dst->dbg_err = src->dbg_err;
	dst->t_ns = src->t_ns;
}

static json_t *json_header(struct stat_run *r, const char *type)
{
	json_t *o = json_object(), *fp;
	int i;

	json_object_set_new(o, "schema_version", json_integer(MG_SCHEMA_VERSION));
	json_object_set_new(o, "type", json_string(type));
	json_object_set_new(o, "kernel_release", json_string(r->env.release));
	json_object_set_new(o, "backend", json_string(mg_backend_name(r->sess.backend)));
	json_object_set_new(o, "tracepoints", json_string(r->cfg.tp_flavour));
	json_object_set_new(o, "hot", json_boolean(r->o.hot));
	fp = json_object();
	for (i = 0; i < 4; i++)
		if (r->sess.func_probe[i])
			json_object_set_new(fp, mg_func_names[i], json_string(r->sess.func_probe[i]));
	json_object_set_new(o, "function_probes", fp);
	json_object_set_new(o, "nr_cpus", json_integer(r->sess.nr_cpus));
	json_object_set_new(o, "kernel_per_cpu", r->kr ? json_string("per-CPU ksyms")
						     : json_null());
	if (!r->kr)
		json_object_set_new(o, "kernel_per_cpu_unavailable", json_string(r->kr_why));
	return o;
}

static json_t *json_attempts(struct stat_run *r)
{
	json_t *a = json_object();
	int b;

	for (b = MG_BE_FENTRY; b < MG_BE_NR; b++) {
		const struct mg_attempt *at = &r->sess.attempts[b];
		json_t *o;

		if (!at->tried)
			continue;
		o = json_object();
		json_object_set_new(o, "attached", json_boolean(!at->err));
		json_object_set_new(o, "reason", json_string(at->why));
		json_object_set_new(a, mg_backend_name(b), o);
	}
	return a;
}

static void print_interval(struct stat_run *r, uint64_t n)
{
	struct mg_report rep;

	if (mg_report_build(&rep, &r->cfg, &r->prev, &r->cur))
		return;
	if (r->o.json) {
		json_t *o = json_header(r, "interval");

		json_object_set_new(o, "interval", json_integer((json_int_t)n));
		json_object_set_new(o, "elapsed_s", json_real((r->cur.t_ns - r->first.t_ns) / 1e9));
		json_object_set_new(o, "duration_s", json_real(rep.seconds));
		json_object_set_new(o, "mismatches", json_integer(rep.mismatches));
		json_object_set_new(o, "counters", mg_report_json(&rep));
		mg_json_print_line(r->out, o);
		json_decref(o);
	} else {
		if (n == 1 || r->o.per_cpu)
			mg_report_print_interval_header(r->out);
		mg_report_print_interval(r->out, &rep, (r->cur.t_ns - r->first.t_ns) / 1e9);
		if (r->o.per_cpu)
			mg_report_print_percpu(r->out, &rep);
	}
	mg_report_free(&rep);
}

static void print_summary(struct stat_run *r, int cmd_status, bool have_cmd)
{
	struct mg_report rep;
	int b;

	if (mg_report_build(&rep, &r->cfg, &r->first, &r->cur))
		return;
	if (r->o.json) {
		json_t *o = json_header(r, "summary"), *argv;

		json_object_set_new(o, "duration_s", json_real(rep.seconds));
		json_object_set_new(o, "backend_attempts", json_attempts(r));
		if (have_cmd) {
			argv = json_array();
			for (char **a = r->o.argv; *a; a++)
				json_array_append_new(argv, json_string(*a));
			json_object_set_new(o, "command", argv);
			json_object_set_new(o, "command_status", json_integer(cmd_status));
		}
		json_object_set_new(o, "mismatches", json_integer(rep.mismatches));
		json_object_set_new(o, "counters", mg_report_json(&rep));
		mg_json_print_line(r->out, o);
		json_decref(o);
	} else {
		fprintf(r->out, "\nmgtrace stat: %.3f s on kernel %s, %d possible CPUs\n",
			rep.seconds, r->env.release, r->sess.nr_cpus);
		fprintf(r->out, "backend: %s", mg_backend_name(r->sess.backend));
		fprintf(r->out, ", tracepoints as %s\n", r->cfg.tp_flavour);
		for (b = 0; b < 4; b++)
			if (r->sess.func_probe[b])
				fprintf(r->out, "  %s %s\n", r->sess.func_probe[b], mg_func_names[b]);
		for (b = MG_BE_FENTRY; b < MG_BE_NR; b++)
			if (r->sess.attempts[b].tried && r->sess.attempts[b].err)
				fprintf(r->out, "  %s refused: %s\n", mg_backend_name(b),
					r->sess.attempts[b].why);
		fprintf(r->out, "kernel per-CPU counters: %s%s\n\n",
			r->kr ? "read from BPF (per-CPU ksyms)" : "unavailable: ",
			r->kr ? "" : r->kr_why);
		mg_report_print_summary(r->out, &rep);
		fputc('\n', r->out);
		mg_report_print_percpu(r->out, &rep);
		fflush(r->out);
	}
	mg_report_free(&rep);
}

/* Fork COMMAND; it waits on a pipe until counting has started. */
static int spawn(struct stat_run *r, const sigset_t *oldmask)
{
	int p[2];
	char c;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	r->child = fork();
	if (r->child < 0)
		return -errno;
	if (r->child == 0) {
		close(p[1]);
		sigprocmask(SIG_SETMASK, oldmask, NULL);
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* mgtrace went away before counting began */
		execvp(r->o.argv[0], r->o.argv);
		fprintf(stderr, "mgtrace: cannot run '%s': %s\n", r->o.argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(p[0]);
	r->go_fd = p[1];
	return 0;
}

static int status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return MG_EXIT_FAIL;
}

/* Count until the child exits, a signal arrives or COUNT intervals passed. */
static int main_loop(struct stat_run *r, const sigset_t *sigs)
{
	uint64_t n = 0, interval_ns = (uint64_t)(r->o.interval * 1e9), next;
	bool child_done = !r->child;
	int err;

	next = r->first.t_ns + interval_ns;
	for (;;) {
		struct timespec ts, *tp = NULL;
		siginfo_t si;
		int sig;

		if (interval_ns) {
			uint64_t now = mg_now_ns(), left = next > now ? next - now : 0;

			ts.tv_sec = left / 1000000000ull;
			ts.tv_nsec = left % 1000000000ull;
			tp = &ts;
		}
		sig = tp ? sigtimedwait(sigs, &si, tp) : sigwaitinfo(sigs, &si);
		if (sig < 0 && errno == EAGAIN) {	/* interval elapsed */
			if ((err = take_snap(r, &r->cur, false)))
				return err;
			print_interval(r, ++n);
			copy_snap(r, &r->prev, &r->cur);
			next += interval_ns;
			if (r->o.count && n >= r->o.count)
				break;
			continue;
		}
		if (sig == SIGCHLD) {
			int st;

			if (r->child && waitpid(r->child, &st, WNOHANG) == r->child) {
				r->child_status = status_code(st);
				child_done = true;
				break;
			}
			continue;
		}
		if (sig == SIGINT || sig == SIGTERM) {
			if (!r->child)
				break;
			kill(r->child, sig);	/* let COMMAND end, then summarise */
			continue;
		}
	}
	if (!child_done) {
		int st;

		kill(r->child, SIGTERM);
		if (waitpid(r->child, &st, 0) == r->child)
			r->child_status = status_code(st);
	}
	return take_snap(r, &r->cur, false);
}

static void run_cleanup(struct stat_run *r)
{
	if (r->out && r->out != stdout)
		fclose(r->out);
	mg_session_close(&r->sess);
	mg_kreader_close(r->kr);
	mg_snap_free(&r->first);
	mg_snap_free(&r->prev);
	mg_snap_free(&r->cur);
}

/* Attach, count, print. Returns an exit code. Used by `stat` and the default job. */
static int run_stat(struct stat_run *r)
{
	sigset_t sigs, old;
	int err, ret, kerr = 0;
	bool kpc;

	mg_kenv_probe(&r->env);
	if ((ret = mg_env_require(&r->env, true)))
		return ret;

	r->out = stdout;
	if (r->o.output && !(r->out = fopen(r->o.output, "we")))
		return mg_err(MG_EXIT_USAGE, "stat: cannot open '%s': %s", r->o.output,
			      strerror(errno));

	mg_libbpf_setup();
	r->kr = mg_kreader_open(mg_nr_cpus(), &kerr, r->kr_why, sizeof(r->kr_why));
	err = mg_session_open(&r->sess, &r->env, r->o.backend, r->o.hot);
	if (err) {
		enum mg_backend be = r->o.backend == MG_BE_AUTO ? MG_BE_TRACEPOINT : r->o.backend;

		ret = mg_err(MG_EXIT_ENV, "backend %s unavailable: %s", mg_backend_name(be),
			     r->sess.attempts[be].why);
		goto out;
	}
	kpc = r->kr != NULL;
	r->cfg = (struct mg_report_cfg){
		.nr_cpus = r->sess.nr_cpus,
		.func_backend = mg_backend_has_funcs(r->sess.backend) ?
				mg_backend_name(r->sess.backend) : NULL,
		.tp_flavour = r->sess.tp_btf ? "tp_btf" : "raw_tp",
		.hot = r->o.hot, .kpc = kpc,
	};
	memcpy(r->cfg.func_probe, r->sess.func_probe, sizeof(r->cfg.func_probe));
	if (mg_snap_alloc(&r->first, r->sess.nr_cpus, kpc) ||
	    mg_snap_alloc(&r->prev, r->sess.nr_cpus, kpc) ||
	    mg_snap_alloc(&r->cur, r->sess.nr_cpus, kpc)) {
		ret = mg_err(MG_EXIT_FAIL, "out of memory");
		goto out;
	}
	if (!r->o.json)
		fprintf(stderr, "mgtrace: counting with backend %s (tracepoints as %s)%s\n",
			mg_backend_name(r->sess.backend), r->cfg.tp_flavour,
			r->o.argv ? "" : "; Ctrl-C to stop");

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	if (r->o.argv && (err = spawn(r, &old))) {
		ret = mg_err(MG_EXIT_FAIL, "fork: %s", strerror(-err));
		goto out;
	}
	if (take_snap(r, &r->first, true)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	copy_snap(r, &r->prev, &r->first);
	if (r->child) {
		/* On a failed write the child reads EOF and exits 127. */
		ssize_t w = write(r->go_fd, "g", 1);

		(void)w;
		close(r->go_fd);
	}
	if (main_loop(r, &sigs)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	print_summary(r, r->child_status, r->o.argv != NULL);
	ret = r->o.argv ? r->child_status : MG_EXIT_OK;
out:
	run_cleanup(r);
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_run r = { 0 };
	int ret = parse_opts(&r.o, argc, argv);

	if (ret)
		return ret;
	return run_stat(&r);
}

int cmd_default(const char *self)
{
	static char *argv[] = { NULL, "stress", "--duration", "3", NULL };
	struct stat_run r = { 0 };

	argv[0] = (char *)self;
	r.o.argv = argv;
	return run_stat(&r);
}
