// SPDX-License-Identifier: GPL-2.0
/*
 * run_child.c - a run's COMMAND and signals (see run.h), for stat, check and trace:
 * the stop signals blocked and taken synchronously, COMMAND forked and held until
 * counting began, its exec's outcome, waiting (a stop signal passed on, a second
 * sends SIGKILL, a third gives up), reaping and ending it, its exit status. COMMAND
 * runs in a process group of its own, and what is sent to it goes to that group.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <jansson.h>
#include "opts.h"
#include "run_child.h"
#include "util.h"

/* The run's stop signals (mg_stop_sigset()), and SIGHUP where it reopens -o: the reopen
 * (logrotate) is harmless to a run under nohup, so it is taken there too. */
static void run_stop_set(const struct mg_run *r, sigset_t *set)
{
	mg_stop_sigset(set);	/* SIGHUP too: a closed terminal, summarise too */
	if (r->hup_reopens)
		sigaddset(set, SIGHUP);
}

void mg_run_block_signals(struct mg_run *r)
{
	if (r->sigs_blocked)
		return;
	run_stop_set(r, &r->sigs);
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

/* SIGHUP where it reopens -o (hup_reopens: logrotate's signal), not a stop: reopen, count. */
static bool hup_reopened(struct mg_run *r, int sig)
{
	if (sig != SIGHUP || !r->hup_reopens)
		return false;
	r->hups++;
	mg_out_reopen();
	return true;
}

int mg_run_stop_pending(struct mg_run *r)
{
	static const struct timespec zero = { 0, 0 };
	sigset_t stop;
	int sig;

	run_stop_set(r, &stop);
	while (hup_reopened(r, sig = sigtimedwait(&stop, NULL, &zero)))
		;
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

/*
 * Send sig to COMMAND: to its process group (its tree: a shell's children too), or to
 * COMMAND alone when it shares mgtrace's group (r->pgid 0).
 */
static void signal_child(const struct mg_run *r, int sig)
{
	if (r->pgid > 0 && !kill(-r->pgid, sig))
		return;
	kill(r->child, sig);	/* the group is gone (ESRCH): COMMAND, maybe a zombie */
}

/*
 * Whether COMMAND stays in mgtrace's process group: mgtrace has a controlling terminal
 * and its group is that terminal's foreground group (an interactive run, whatever stdin
 * is). A new group would be a background job there, stopped (SIGTTIN) when COMMAND
 * reads the terminal (/dev/tty: ssh or sudo asking for a password, with stdin a pipe);
 * and the terminal's Ctrl-C and hangup reach every process of mgtrace's group,
 * COMMAND's tree included.
 */
static bool keep_group(void)
{
	int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	pid_t fg;

	if (fd < 0)		/* ENXIO: no controlling terminal (a service, CI) */
		return false;
	fg = tcgetpgrp(fd);
	close(fd);
	return fg > 0 && fg == getpgrp();
}

/* Why COMMAND argv0 could not be run (errno e): the line on stderr and the reports' reason. */
static void exec_reason(char *buf, size_t len, const char *argv0, int e)
{
	snprintf(buf, len, "cannot run '%s': %s", argv0 ? argv0 : "?", strerror(e));
}

int mg_run_spawn(struct mg_run *r, char **argv)
{
	int p[2], ep[2];
	bool own_group = !keep_group();
	char c;

	mg_run_block_signals(r);	/* a SIGCHLD is never missed */
	r->argv0 = argv[0];
	if (pipe2(p, O_CLOEXEC))
		return mg_err_step("pipe", -errno);
	/* exec's outcome: the write end closes on a successful exec (O_CLOEXEC) */
	if (pipe2(ep, O_CLOEXEC)) {
		close(p[0]);
		close(p[1]);
		return mg_err_step("pipe", -errno);
	}
	r->child = fork();
	if (r->child < 0)
		return mg_err_step("fork", -errno);
	if (r->child == 0) {
		int e;

		if (own_group)
			setpgid(0, 0);	/* as a shell's job; the parent does it too (no race) */
		close(p[1]);
		close(ep[0]);
		sigprocmask(SIG_SETMASK, &r->oldmask, NULL);
		signal(SIGPIPE, SIG_DFL);	/* ignored by mgtrace itself (main.c) */
		/* mgtrace takes SIGINT and SIGTERM even when it was started with them ignored
		 * (a non-interactive shell's background job ignores SIGINT) and passes them on:
		 * COMMAND gets them at their default, so that the signal passed on ends it.
		 * SIGHUP keeps what it had (nohup). */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* mgtrace went away before counting began */
		execvp(argv[0], argv);
		e = errno;
		exec_reason(mg_last_err, sizeof(mg_last_err), argv[0], e);
		mg_err_line(mg_last_err);
		if (write(ep[1], &e, sizeof(e)) != sizeof(e))
			_exit(126);
		_exit(e == ENOENT ? 127 : 126);
	}
	if (own_group && (!setpgid(r->child, r->child) || errno == EACCES))
		r->pgid = r->child;	/* EACCES: the child did it first */
	close(p[0]);
	close(ep[1]);
	r->go_fd = p[1];
	r->exec_fd = ep[0];
	return MG_EXIT_OK;
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
 * server). Both go to COMMAND's process group, so that its tree ends too (a
 * shell's child). Returns 1 when the run ends now. A signal the terminal sent
 * (si_code SI_KERNEL: Ctrl-C, a hangup) went to the whole foreground process
 * group, COMMAND included when it is still in mgtrace's group: it is not sent
 * a second time (as perf and time leave it).
 */
static int forward_stop(struct mg_run *r, int sig, const siginfo_t *si)
{
	switch (r->stops_forwarded++) {
	case 0:
		if (!(si->si_code == SI_KERNEL && getpgid(r->child) == getpgrp()))
			signal_child(r, sig);
		return 0;
	case 1:
		fprintf(stderr, "mgtrace: %s again: COMMAND (pid %d) has not ended; sending it "
			"SIGKILL (a third signal ends the run without waiting for it)\n",
			mg_signal_name(sig), (int)r->child);
		signal_child(r, SIGKILL);
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
	if (hup_reopened(r, sig))	/* logrotate's: -o again, the run goes on */
		return 0;
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
	exec_reason(mg_last_err, sizeof(mg_last_err), r->argv0, r->exec_err);
	return r->exec_err == ENOENT ? 127 : 126;
}

void mg_run_end_child(struct mg_run *r)
{
	int st, i;

	/* never an unbounded wait: a COMMAND that ignores SIGTERM would hold the run, its
	 * programs attached, with every signal to mgtrace blocked (a run ending on an error,
	 * top -c N) */
	if (!r->child || r->child_done || r->child_abandoned)
		return;
	signal_child(r, SIGTERM);
	for (i = 0; i <= MG_OUT_STOP_GRACE_MS / 10; i++) {
		if (waitpid(r->child, &st, WNOHANG) == r->child) {
			reaped(r, st);
			return;
		}
		usleep(10000);
	}
	signal_child(r, SIGKILL);	/* stuck, maybe writing to the output we abandoned */
	for (i = 0; i <= MG_OUT_STOP_GRACE_MS / 10; i++) {	/* SIGKILL waits for a task
								 * blocked in the kernel */
		if (waitpid(r->child, &st, WNOHANG) == r->child) {
			reaped(r, st);
			return;
		}
		usleep(10000);
	}
	r->child_abandoned = true;
	r->child_status = MG_EXIT_FAIL;
}

bool mg_run_refused(const struct mg_run *r, int ret)
{
	if (ret == 126 || ret == 127)
		return r->exec_err != 0;
	return (ret == MG_EXIT_USAGE || ret == MG_EXIT_ENV) && !r->child_done;
}

json_t *mg_run_status_json(const struct mg_run *r)
{
	return r->child_abandoned ? json_null() : json_integer(r->child_status);
}
