// SPDX-License-Identifier: GPL-2.0
/*
 * workload_guard.c - the built-in workload on a directory that may block in the
 * kernel (see workload.h): a frozen filesystem (fsfreeze -f) holds every mkdir,
 * create, write and unlink on it in percpu_rwsem_wait, uninterruptibly, and a
 * dead NFS server does the like. Neither a stop signal nor SIGKILL ends such a
 * call. So the one call made before the threads start (the directory's mkdir)
 * runs in a helper process while mgtrace keeps taking signals, and a workload
 * whose threads do not come back is left to a cleaner process instead of being
 * joined. Either helper removes what the workload made once the filesystem lets
 * it, so that a thaw after mgtrace has gone leaves no mgtrace directory behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util.h"
#include "workload_guard.h"

#define GUARD_POLL_MS 50

/* Close every fd but keep_a and keep_b (either may be -1): a helper must not hold BPF links. */
static void close_all_but(int keep_a, int keep_b)
{
	int lo = keep_a < keep_b ? keep_a : keep_b, hi = keep_a < keep_b ? keep_b : keep_a;
	int fd;

	if (lo < 0)
		lo = hi;
	for (fd = 0; fd < 3; fd++)	/* no terminal or pipe of the caller's stays open either */
		if (fd != lo && fd != hi)
			close(fd);
	if (lo < 0) {
		syscall(SYS_close_range, 3u, ~0u, 0u);
		return;
	}
	if (lo > 3)
		syscall(SYS_close_range, 3u, (unsigned)lo - 1, 0u);
	if (hi > lo + 1)
		syscall(SYS_close_range, (unsigned)lo + 1, (unsigned)hi - 1, 0u);
	syscall(SYS_close_range, (unsigned)hi + 1, ~0u, 0u);
}

/*
 * The helper: mkdtemp(tmpl), send "0 <name>" or "<errno>" on out, then wait on in
 * for the parent's byte. EOF instead (the parent gave up or is gone): the
 * directory is nobody's, so remove it. Never returns.
 */
static void mkdir_helper(char *tmpl, int in, int out)
{
	char msg[4200], b;
	int n;

	close_all_but(in, out);
	signal(SIGPIPE, SIG_IGN);	/* a parent gone: EPIPE, then the rmdir below */
	if (!mkdtemp(tmpl)) {
		n = snprintf(msg, sizeof(msg), "%d", errno);
		(void)!write(out, msg, (size_t)n);
		_exit(0);
	}
	n = snprintf(msg, sizeof(msg), "0 %s", tmpl);
	if (write(out, msg, (size_t)n) != n || read(in, &b, 1) != 1)
		rmdir(tmpl);
	_exit(0);
}

int mg_wl_guarded_mkdtemp(char *tmpl, size_t len, mg_wl_waiting waiting, void *ctx)
{
	int to[2], from[2], e = 0, st;
	uint64_t start = mg_now_ns();
	char msg[4200];
	ssize_t n;
	pid_t pid;

	if (pipe2(to, O_CLOEXEC))
		return -errno;
	if (pipe2(from, O_CLOEXEC)) {
		e = -errno;
		close(to[0]);
		close(to[1]);
		return e;
	}
	pid = fork();
	if (pid == 0)
		mkdir_helper(tmpl, to[0], from[1]);
	close(to[0]);
	close(from[1]);
	if (pid < 0) {
		e = -errno;
		goto out;
	}
	for (;;) {
		struct pollfd p = { .fd = from[0], .events = POLLIN };
		int r = poll(&p, 1, GUARD_POLL_MS);

		if (r > 0)
			break;
		if (r < 0 && errno != EINTR) {
			e = -errno;
			break;
		}
		if (waiting && waiting(ctx, "mkdir", mg_now_ns() - start)) {
			e = -EINTR;	/* the helper removes the directory if mkdir ever returns */
			goto out;
		}
	}
	if (!e) {
		n = read(from[0], msg, sizeof(msg) - 1);
		msg[n > 0 ? n : 0] = 0;
		if (n <= 0)
			e = -EIO;
		else if (strncmp(msg, "0 ", 2))
			e = -(atoi(msg) ? atoi(msg) : EIO);
		else if (strlen(msg + 2) >= len)
			e = -ENAMETOOLONG;
		else
			strcpy(tmpl, msg + 2);
		/* the directory is ours now: one byte, and the helper leaves it in place */
		if (!e && write(to[1], "k", 1) != 1)
			e = -errno;
	}
out:
	close(to[1]);
	close(from[0]);
	if (pid > 0 && e != -EINTR)
		waitpid(pid, &st, 0);	/* it exits at once: it has its answer or EOF */
	return e;
}

/* Text of one thread's wait channel (/proc/self/task/TID/wchan), "" when unknown. */
static void wchan_of(int tid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/wchan", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (!strcmp(buf, "0"))
		buf[0] = 0;
}

int mg_wl_blocked_text(const struct mg_workload *wl, char *buf, size_t len)
{
	char w[64], first[64] = "";
	uint64_t i;
	int n = 0;

	for (i = 0; i < wl->nthreads; i++) {
		if (atomic_load(&wl->t[i].done))
			continue;
		n++;
		if (!first[0] && wl->t[i].ktid > 0) {
			wchan_of(wl->t[i].ktid, w, sizeof(w));
			if (w[0])
				snprintf(first, sizeof(first), "%s", w);
		}
	}
	if (!n) {
		buf[0] = 0;
		return 0;
	}
	snprintf(buf, len, "%d of %llu workload threads have not returned from a call on %s "
		 "(waiting in %s%s)", n, (unsigned long long)wl->nthreads, wl->dir,
		 first[0] ? first : "the kernel",
		 !strcmp(first, "percpu_rwsem_wait") ? ": a frozen filesystem? fsfreeze -u thaws "
		 "it" : "");
	return n;
}

/* Remove the workload's files and directory through the fds it kept. */
static void remove_all(const struct mg_workload *wl)
{
	const char *base = strrchr(wl->dir, '/');
	char name[64];
	uint64_t i;
	int f;

	for (i = 0; wl->dfd >= 0 && i < wl->o.threads; i++)
		for (f = 0; f < (int)wl->o.files; f++) {
			if (wl->o.shared)
				snprintf(name, sizeof(name), "shared-f%d", f + 1);
			else
				snprintf(name, sizeof(name), "t%d-f%d", (int)i, f + 1);
			unlinkat(wl->dfd, name, 0);
		}
	if (base && wl->pfd >= 0)
		unlinkat(wl->pfd, base + 1, AT_REMOVEDIR);
}

int mg_wl_abandon(struct mg_workload *wl)
{
	pid_t parent = getpid(), pid;

	atomic_store(&wl->stop, true);
	wl->abandoned = true;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid)
		return pid;
	/* the cleaner: until the last of mgtrace's threads is gone it is their parent's child
	 * (a blocked thread's file create could still land); then it removes what they made */
	close_all_but(wl->pfd, wl->dfd);
	while (getppid() == parent)
		usleep(200000);
	remove_all(wl);
	_exit(0);
}
