// SPDX-License-Identifier: GPL-2.0
/* run.c - one measurement run shared by stat and check, COMMAND and signals also by trace (see run.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report.h"
#include "opts.h"
#include "run.h"
#include "testhook.h"
#include "util.h"

int mg_run_setup(struct mg_run *r, enum mg_backend want, const struct mg_session_opts *o)
{
	struct mg_session_opts so = *o;
	int ret, err, kerr = 0;
	bool kpc;

	mg_run_block_signals(r);	/* before the load, which takes a noticeable time */
	mg_kenv_probe(&r->env);
	if ((ret = mg_env_require(&r->env, true)))
		return ret;
	r->kr = mg_kreader_open(mg_nr_cpus(), &kerr, r->kr_why, sizeof(r->kr_why));
	if (want == MG_BE_KERNEL && !r->kr)
		return mg_err(MG_EXIT_ENV, "backend kernel unavailable: the kernel's per-CPU "
			      "counters are not readable: %s", r->kr_why);
	if (o->prefer_kernel && want == MG_BE_AUTO && r->kr)
		want = MG_BE_KERNEL;
	/* without the kernel's per-CPU counters, ctime_swaps needs timestamp:ctime_ns_xchg */
	if (so.tp_select && want != MG_BE_KERNEL && !r->kr)
		so.tp_mask |= 1u << MG_TP_CTIME_NS_XCHG;
	/* our parse of the kernel BTF served the interface checks and the per-CPU reader's
	 * offsets; freed before libbpf parses its own copy to load the programs, so the two
	 * copies (5.5 MiB each on 6.18) are never held at once */
	mg_vmlinux_btf_release();
	err = mg_session_open(&r->sess, &r->env, want, &so);
	if (err) {
		enum mg_backend be = want == MG_BE_AUTO ? MG_BE_TRACEPOINT : want;

		return mg_err(MG_EXIT_ENV, "backend %s unavailable: %s", mg_backend_name(be),
			      r->sess.attempts[be].why);
	}
	kpc = r->kr != NULL;
	r->cfg = (struct mg_report_cfg){
		.skew_row = -1,
		.nr_cpus = r->sess.nr_cpus,
		.func_backend = mg_backend_has_funcs(r->sess.backend) ?
				mg_backend_name(r->sess.backend) : NULL,
		.tp_flavour = r->sess.tp_btf ? "tp_btf" : "raw_tp",
		.hot = o->hot, .kpc = kpc, .kpc_method = kpc ? mg_kreader_method(r->kr) : NULL,
		.prefer_kpc = kpc && (want == MG_BE_AUTO || want == MG_BE_KERNEL),
		.tp_off = ~r->sess.tp_mask & ((1u << MG_NR_TPS) - 1),
		.tp_off_why = o->tp_off_why,
		/* loaded nfsd can make delegated-timestamp swaps (counters.c: deleg_swaps) */
		.nfsd = !access("/sys/module/nfsd", F_OK),
	};
	memcpy(r->cfg.func_probe, r->sess.func_probe, sizeof(r->cfg.func_probe));
	for (int k = 0; k < MG_K_NR_COUNTERS; k++)
		r->cfg.kcounter_absent[k] = r->env.btf && !r->env.ksym_in_btf[k];
	if (mg_test_hook_skew(&r->cfg.skew_row, &r->cfg.skew_n))
		return MG_EXIT_USAGE;
	if (mg_snap_alloc(&r->first, r->sess.nr_cpus, kpc) ||
	    mg_snap_alloc(&r->prev, r->sess.nr_cpus, kpc) ||
	    mg_snap_alloc(&r->cur, r->sess.nr_cpus, kpc))
		return mg_err(MG_EXIT_FAIL, "out of memory");
	return MG_EXIT_OK;
}

void mg_run_block_signals(struct mg_run *r)
{
	if (r->sigs_blocked)
		return;
	mg_stop_sigset(&r->sigs);	/* SIGHUP too: a closed terminal, summarise too */
	sigaddset(&r->sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &r->sigs, &r->oldmask);
	r->sigs_blocked = true;
}

/* A stop signal taken: the first one is the run's; every one may explain COMMAND's status. */
static void note_stop(struct mg_run *r, int sig)
{
	if (r->child && r->child_done)
		return;		/* COMMAND ended first: the run reached its end */
	if (!r->stop_sig) {
		r->stop_sig = sig;
		r->stop_ns = mg_now_ns();
	}
	if (sig > 0 && sig < 64)
		r->stop_sigs |= 1ull << sig;
}

int mg_run_stop_pending(struct mg_run *r)
{
	static const struct timespec zero = { 0, 0 };
	sigset_t stop;
	int sig;

	mg_stop_sigset(&stop);
	sig = sigtimedwait(&stop, NULL, &zero);
	if (sig <= 0)
		return 0;
	note_stop(r, sig);
	return sig;
}

bool mg_run_status_from_stop(const struct mg_run *r)
{
	int n = r->child_status - 128;

	/* the stop signal passed on, or the SIGKILL a second one sent (forward_stop()) */
	return r->child_done && n > 0 && n < 64 && ((r->stop_sigs & 1ull << n) ||
		(r->stops_forwarded > 1 && r->child_signal == SIGKILL));
}

const char *mg_signal_name(int sig)
{
	static char buf[32];
	const char *a = sigabbrev_np(sig);

	if (a)
		snprintf(buf, sizeof(buf), "SIG%s", a);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

void mg_run_release(struct mg_run *r)
{
	if (!r->child || r->go_fd < 0)
		return;
	/* On a failed write the child reads EOF and exits 127. */
	ssize_t w = write(r->go_fd, "g", 1);
	int e = 0;

	(void)w;
	close(r->go_fd);
	r->go_fd = -1;
	/* returns at COMMAND's exec (EOF) or with the errno of its failure */
	if (r->exec_fd > 0 && read(r->exec_fd, &e, sizeof(e)) == sizeof(e))
		r->exec_err = e ? e : ENOEXEC;
	if (r->exec_fd > 0)
		close(r->exec_fd);
	r->exec_fd = -1;
}

int mg_run_spawn(struct mg_run *r, char **argv)
{
	int p[2], ep[2];
	char c;

	mg_run_block_signals(r);	/* a SIGCHLD is never missed */
	r->argv0 = argv[0];
	if (pipe2(p, O_CLOEXEC))
		return mg_err(MG_EXIT_FAIL, "pipe: %s", strerror(errno));
	/* exec's outcome: the write end closes on a successful exec (O_CLOEXEC) */
	if (pipe2(ep, O_CLOEXEC)) {
		close(p[0]);
		close(p[1]);
		return mg_err(MG_EXIT_FAIL, "pipe: %s", strerror(errno));
	}
	r->child = fork();
	if (r->child < 0)
		return mg_err(MG_EXIT_FAIL, "fork: %s", strerror(errno));
	if (r->child == 0) {
		int e;

		close(p[1]);
		close(ep[0]);
		sigprocmask(SIG_SETMASK, &r->oldmask, NULL);
		signal(SIGPIPE, SIG_DFL);	/* ignored by mgtrace itself (main.c) */
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* mgtrace went away before counting began */
		execvp(argv[0], argv);
		e = errno;
		fprintf(stderr, "mgtrace: cannot run '%s': %s\n", argv[0], strerror(e));
		if (write(ep[1], &e, sizeof(e)) != sizeof(e))
			_exit(126);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(p[0]);
	close(ep[1]);
	r->go_fd = p[1];
	r->exec_fd = ep[0];
	return MG_EXIT_OK;
}

/*
 * Snapshots tried before a BTF-offset reading rejected every time is an error, or
 * before a slow snapshot is kept.
 */
#define MG_SNAP_TRIES 3
/*
 * A snapshot takes about 10 us. One that took longer than this was descheduled
 * between its reads (on a busy machine a time slice is milliseconds): still a valid
 * bracket, but a wide one, so it is retaken while tries remain.
 */
#define MG_SNAP_SLOW_NS 200000ull

int mg_run_snap(struct mg_run *r, struct mg_snap *s)
{
	char why[192] = "";
	uint64_t t0;
	int err, i;

	for (i = 1;; i++) {
		/*
		 * debugfs, kernel per-CPU counters, BPF map, debugfs: every counter read
		 * in between lay in [dbg_pre, dbg_post] when it was read (struct mg_snap).
		 * The BPF map goes last: its probes fire just before the kernel's
		 * increments, so nothing but the second debugfs read should follow it.
		 */
		t0 = mg_now_ns();
		s->dbg_err = mg_debugfs_read(s->dbg_pre);
		if (r->kr && (err = mg_kreader_read(r->kr, s->kpc))) {
			mg_err(MG_EXIT_FAIL, "reading kernel per-CPU counters: %s", strerror(-err));
			return err;
		}
		if ((err = mg_session_read(&r->sess, s->bpf))) {
			mg_err(MG_EXIT_FAIL, "reading BPF counters: %s", strerror(-err));
			return err;
		}
		if (!s->dbg_err)
			s->dbg_err = mg_debugfs_read(s->dbg_post);
		s->t_ns = mg_now_ns();
		if (r->kr && mg_kreader_needs_check(r->kr)) {
			if (s->dbg_err) {
				mg_err(MG_EXIT_FAIL, "reading kernel per-CPU counters: the BTF-offset "
				       "reader needs debugfs to check each reading: %s",
				       strerror(-s->dbg_err));
				return s->dbg_err;
			}
			if (mg_kpc_check(s->kpc, r->sess.nr_cpus, s->dbg_pre, s->dbg_post, why,
					 sizeof(why))) {
				if (i == MG_SNAP_TRIES) {
					mg_err(MG_EXIT_FAIL, "reading kernel per-CPU counters: "
					       "BTF-offset reading rejected %d times: %s", i, why);
					return -EPROTO;
				}
				if (mg_verbose)
					fprintf(stderr, "mgtrace: BTF-offset per-CPU reading %d of %d "
						"rejected: %s\n", i, MG_SNAP_TRIES, why);
				continue;
			}
		}
		if (s->t_ns - t0 <= MG_SNAP_SLOW_NS || i == MG_SNAP_TRIES)
			return 0;
		if (mg_verbose)
			fprintf(stderr, "mgtrace: snapshot %d of %d took %llu us (descheduled), "
				"retaking it\n", i, MG_SNAP_TRIES,
				(unsigned long long)(s->t_ns - t0) / 1000);
	}
}

void mg_run_copy_snap(struct mg_run *r, struct mg_snap *dst, const struct mg_snap *src)
{
	int n = r->sess.nr_cpus;

	memcpy(dst->bpf, src->bpf, sizeof(*src->bpf) * n);
	if (src->kpc)
		memcpy(dst->kpc, src->kpc, sizeof(*src->kpc) * n * MG_K_NR_COUNTERS);
	memcpy(dst->dbg_pre, src->dbg_pre, sizeof(src->dbg_pre));
	memcpy(dst->dbg_post, src->dbg_post, sizeof(src->dbg_post));
	dst->dbg_err = src->dbg_err;
	dst->t_ns = src->t_ns;
}

int mg_run_start(struct mg_run *r)
{
	int err = mg_run_snap(r, &r->first);

	if (err)
		return err;
	mg_run_copy_snap(r, &r->prev, &r->first);
	if (r->at_start && (err = r->at_start(r->at_start_arg)))
		return err;
	mg_run_release(r);
	return 0;
}

/* COMMAND reaped with wait status st: its exit code (128+N for signal N), its signal. */
static void reaped(struct mg_run *r, int st)
{
	r->child_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	r->child_status = WIFEXITED(st) ? WEXITSTATUS(st) :
			  WIFSIGNALED(st) ? 128 + WTERMSIG(st) : MG_EXIT_FAIL;
	r->child_done = true;
	r->child_end_ns = mg_now_ns();
}

/*
 * A stop signal while COMMAND runs: pass it on and let COMMAND end (then
 * summarise); a second one kills COMMAND; a third gives up on a COMMAND that
 * SIGKILL did not end (blocked in the kernel: a frozen filesystem, a dead NFS
 * server). Returns 1 when the run ends now. A signal the terminal sent
 * (si_code SI_KERNEL: Ctrl-C, a hangup) went to the whole foreground process
 * group, COMMAND included when it is still in mgtrace's group: it is not sent
 * a second time (as perf and time leave it).
 */
static int forward_stop(struct mg_run *r, int sig, const siginfo_t *si)
{
	switch (r->stops_forwarded++) {
	case 0:
		if (!(si->si_code == SI_KERNEL && getpgid(r->child) == getpgrp()))
			kill(r->child, sig);
		return 0;
	case 1:
		fprintf(stderr, "mgtrace: %s again: COMMAND (pid %d) has not ended; sending it "
			"SIGKILL (a third signal ends the run without waiting for it)\n",
			mg_signal_name(sig), (int)r->child);
		kill(r->child, SIGKILL);
		return 0;
	default:
		fprintf(stderr, "mgtrace: COMMAND (pid %d) has not ended after SIGKILL (blocked in "
			"the kernel?): the run ends without its exit status\n", (int)r->child);
		r->child_abandoned = true;
		r->child_status = MG_EXIT_FAIL;	/* mgtrace's exit code: not COMMAND's success */
		return 1;
	}
}

int mg_run_wait(struct mg_run *r, const struct timespec *timeout)
{
	const struct timespec cap = { 0, MG_RUN_ALIVE_MS * 1000000L };
	siginfo_t si;
	int sig, st;

	if (r->alive) {
		if (!timeout || timeout->tv_sec > 0 || timeout->tv_nsec > cap.tv_nsec)
			timeout = &cap;
		if (!r->alive(r->alive_arg)) {
			if (!r->target_gone)
				fprintf(stderr, "mgtrace: the traced processes have all exited: the "
					"run ends\n");
			r->target_gone = true;
			return 1;
		}
	}
	sig = timeout ? sigtimedwait(&r->sigs, &si, timeout) : sigwaitinfo(&r->sigs, &si);
	if (sig == SIGCHLD) {
		if (r->child && !r->child_done && waitpid(r->child, &st, WNOHANG) == r->child) {
			reaped(r, st);
			return 1;
		}
		return 0;
	}
	if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
		mg_out_stop(sig);	/* output that blocks from now on is abandoned in time */
		note_stop(r, sig);
		if (!r->child || r->child_done || r->child_abandoned)
			return 1;
		return forward_stop(r, sig, &si);
	}
	return 0;
}

int mg_run_exec_failed(struct mg_run *r)
{
	if (!r->exec_err)
		return 0;
	mg_run_end_child(r);
	/* the child said it on stderr; the reason is kept for the reports (mg_out_error()) */
	snprintf(mg_last_err, sizeof(mg_last_err), "cannot run COMMAND '%s': %s",
		 r->argv0 ? r->argv0 : "?", strerror(r->exec_err));
	return r->exec_err == ENOENT ? 127 : 126;
}

void mg_run_end_child(struct mg_run *r)
{
	int st;

	if (!r->child || r->child_done || r->child_abandoned)
		return;
	kill(r->child, SIGTERM);
	if (waitpid(r->child, &st, 0) == r->child)
		reaped(r, st);
	r->child_done = true;
}

void mg_run_cleanup(struct mg_run *r)
{
	mg_run_end_child(r);
	if (r->go_fd > 0)
		close(r->go_fd);
	if (r->exec_fd > 0)
		close(r->exec_fd);
	r->go_fd = r->exec_fd = -1;
	mg_session_close(&r->sess);
	mg_kreader_close(r->kr);
	r->kr = NULL;
	mg_snap_free(&r->first);
	mg_snap_free(&r->prev);
	mg_snap_free(&r->cur);
}

json_t *mg_run_status_json(const struct mg_run *r)
{
	return r->child_abandoned ? json_null() : json_integer(r->child_status);
}

json_t *mg_run_json_header(const struct mg_run *r, const char *type)
{
	json_t *o = json_object(), *fp = json_object();
	int i;

	mg_json_put_header(o, type, r->env.release);
	json_object_set_new(o, "backend", json_string(mg_backend_name(r->sess.backend)));
	json_object_set_new(o, "tracepoints", json_string(r->cfg.tp_flavour));
	json_object_set_new(o, "hot", json_boolean(r->cfg.hot));
	for (i = 0; i < MG_NR_FUNCS; i++)
		if (r->sess.func_probe[i])
			json_object_set_new(fp, mg_func_names[i], json_string(r->sess.func_probe[i]));
	json_object_set_new(o, "function_probes", fp);
	json_object_set_new(o, "nr_cpus", json_integer(r->sess.nr_cpus));
	/* process scope uses no kernel counter: say so, not how they would be read (as the
	 * text's backend lines and the Prometheus label say) */
	if (r->cfg.scoped) {
		json_object_set_new(o, "kernel_per_cpu", json_null());
		json_object_set_new(o, "kernel_per_cpu_unavailable",
				    json_string(MG_KPC_UNUSED_SCOPED));
		return o;
	}
	json_object_set_new(o, "kernel_per_cpu", r->kr ? json_string(mg_kreader_method(r->kr)) :
			    json_null());
	if (!r->kr)
		json_object_set_new(o, "kernel_per_cpu_unavailable", json_string(r->kr_why));
	return o;
}

json_t *mg_run_json_attempts(struct mg_run *r)
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

void mg_run_print_backend(const struct mg_run *r, FILE *f)
{
	int b, n;

	if (r->sess.backend == MG_BE_KERNEL) {
		fprintf(f, "backend: kernel (the kernel's per-CPU counters; no program on the write "
			"or stat path)\n");
		for (b = 0; b < MG_NR_TPS; b++)
			if (r->sess.tp_mask & 1u << b)
				fprintf(f, "%s%s", b == __builtin_ctz(r->sess.tp_mask) ?
					"  opted-in tracepoints: " : ", ", mg_tp_names[b]);
		if (r->sess.tp_mask)
			fprintf(f, " (%s)\n", r->cfg.tp_flavour);
	} else {
		fprintf(f, "backend: %s, ", mg_backend_name(r->sess.backend));
		if (!r->sess.tp_mask)
			fprintf(f, "no tracepoints");
		else
			fprintf(f, "tracepoints as %s", r->cfg.tp_flavour);
		if (r->sess.tp_mask && r->sess.tp_mask != (1u << MG_NR_TPS) - 1) {
			for (b = 0; b < MG_NR_TPS; b++)
				if (r->sess.tp_mask & 1u << b)
					fprintf(f, "%s%s", b == __builtin_ctz(r->sess.tp_mask) ?
						" (" : ",", mg_tp_names[b]);
			fprintf(f, " only)");
		}
		fputc('\n', f);
		if (r->cfg.prefer_kpc == false && r->kr == NULL && r->cfg.tp_off_why)
			fprintf(f, "  probes used because the kernel's per-CPU counters are not "
				"readable (below)\n");
	}
	for (b = 0; b < MG_NR_FUNCS; b++)
		if (r->sess.func_probe[b])
			fprintf(f, "  %s %s\n", r->sess.func_probe[b], mg_func_names[b]);
	/* the refusals are long (a load log's cause each): named, and explained under -v */
	for (b = MG_BE_FENTRY, n = 0; b < MG_BE_NR; b++) {
		if (!r->sess.attempts[b].tried || !r->sess.attempts[b].err)
			continue;
		if (mg_verbose)
			fprintf(f, "  %s refused: %s\n", mg_backend_name(b), r->sess.attempts[b].why);
		else
			fprintf(f, "%s%s", n++ ? ", " : "  refused: ", mg_backend_name(b));
	}
	if (n)
		fprintf(f, " (-v: why)\n");
	if (r->cfg.scoped)	/* as stat's JSON says it */
		fprintf(f, "kernel per-CPU counters: %s\n", MG_KPC_UNUSED_SCOPED);
	else
		fprintf(f, "kernel per-CPU counters: %s%s\n", r->kr ? "read from BPF, " :
			"unavailable: ", r->kr ? mg_kreader_method(r->kr) : r->kr_why);
	if (!r->cfg.scoped && mg_debugfs_problem(&r->env))
		fprintf(f, "debugfs totals: unavailable: %s; nothing is compared with them\n",
			mg_debugfs_problem(&r->env));
}

bool mg_run_end_child_within(struct mg_run *r, int ms)
{
	int st, i;

	if (!r->child || r->child_done || r->child_abandoned)
		return false;
	kill(r->child, SIGTERM);
	for (i = 0; i <= ms / 10; i++) {
		if (waitpid(r->child, &st, WNOHANG) == r->child) {
			reaped(r, st);
			return false;
		}
		usleep(10000);
	}
	kill(r->child, SIGKILL);	/* stuck, maybe writing to the output we abandoned */
	for (i = 0; i <= ms / 10; i++) {	/* SIGKILL waits for a task blocked in the kernel */
		if (waitpid(r->child, &st, WNOHANG) == r->child) {
			reaped(r, st);
			return true;
		}
		usleep(10000);
	}
	r->child_abandoned = true;
	r->child_status = MG_EXIT_FAIL;
	return true;
}

bool mg_run_refused(const struct mg_run *r, int ret)
{
	if (ret == 126 || ret == 127)
		return r->exec_err != 0;
	return (ret == MG_EXIT_USAGE || ret == MG_EXIT_ENV) && !r->child_done;
}
