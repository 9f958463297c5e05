// SPDX-License-Identifier: GPL-2.0
/* workload.c - the built-in multigrain workload (see workload.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "ident.h"
#include "pathid.h"
#include "util.h"
#include "workload.h"

const char *mg_fs_name(const char *dir)
{
	static const char *const multigrain[] = { "tmpfs", "ext4", "xfs", "btrfs" };
	static char fstype[32];
	unsigned int kdev;
	char mnt[8];
	struct statfs s;
	const char *name;

	if (statfs(dir, &s))
		return "unknown";
	name = mg_fs_magic_name((unsigned long)s.f_type);
	for (size_t i = 0; name && i < sizeof(multigrain) / sizeof(multigrain[0]); i++)
		if (!strcmp(name, multigrain[i]))
			return name;
	/* any other: the kernel's own name of its type (overlay, ramfs, nfs4, ...) */
	if (!mg_path_mount(dir, &kdev, mnt, sizeof(mnt), fstype, sizeof(fstype)) && fstype[0] &&
	    strcmp(fstype, "unknown"))
		return fstype;
	return "other";
}

/* A file's name in the directory: "shared-f<i>" or "t<thread>-f<i>". */
static void file_name(const struct mg_workload *wl, int thread, int file, char *buf, size_t len)
{
	if (wl->o.shared)
		snprintf(buf, len, "shared-f%d", file + 1);
	else
		snprintf(buf, len, "t%d-f%d", thread, file + 1);
}

static void file_path(const struct mg_workload *wl, int thread, int file, char *buf, size_t len)
{
	char name[64];

	file_name(wl, thread, file, name, sizeof(name));
	snprintf(buf, len, "%s/%s", wl->dir, name);
}

/* Sleep until iteration n of a thread that started at start is due. */
static void pace(uint64_t start, uint64_t n, uint64_t rate)
{
	uint64_t due = start + n * 1000000000ull / rate, now = mg_now_ns();

	if (due > now) {
		struct timespec ts = { (time_t)((due - now) / 1000000000ull),
				       (long)((due - now) % 1000000000ull) };

		nanosleep(&ts, NULL);
	}
}

/* One iteration: 0 or an errno. */
static int iterate(struct mg_wl_thread *t, const int *fds)
{
	const struct mg_wl_opts *o = &t->wl->o;
	struct stat st;
	char b = 'x';
	int i, err;

	for (i = 0; i < o->nsteps; i++) {
		int file = (int)((o->steps[i].file + (o->rotate_files ? t->iterations : 0)) % o->files);
		int fd = fds[file];
		uint64_t t0, t1;

		switch (o->steps[i].op) {
		case MG_WL_WRITE:
			if (pwrite(fd, &b, 1, 0) != 1)
				return errno ? errno : EIO;
			break;
		case MG_WL_STAT:
			if (fstat(fd, &st))
				return errno;
			break;
		case MG_WL_RACE:
			if (t->idx & 1 ? fstat(fd, &st) :
			    fchmod(fd, t->iterations & 1 ? 0644 : 0600))
				return errno;
			break;
		case MG_WL_TWRITE:
			/* published before each clock read (seq_cst): see mg_wl_thread::phase */
			atomic_store(&t->phase, MG_WL_TIMING);
			t0 = mg_now_ns();
			atomic_store(&t->op_start, t0);
			if (pwrite(fd, &b, 1, 0) != 1)
				return errno ? errno : EIO;
			atomic_store(&t->phase, MG_WL_ENDING);
			t1 = mg_now_ns();
			if (fstat(fd, &st))
				return errno;
			if (o->hook && (err = o->hook(o->ctx, t->idx, file, t0, t1, &st)))
				return err;
			atomic_store(&t->phase, MG_WL_IDLE);
			break;
		}
	}
	return 0;
}

static void *thread_main(void *arg)
{
	struct mg_wl_thread *t = arg;
	struct mg_workload *wl = t->wl;
	const struct mg_wl_opts *o = &wl->o;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), fds[MG_WL_MAX_FILES];
	uint64_t i, n = o->files;
	char path[4200];
	struct stat st;
	cpu_set_t set;

	atomic_store(&t->ktid, (int)gettid());
	CPU_ZERO(&set);
	CPU_SET(t->idx % (ncpu > 0 ? ncpu : 1), &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);	/* best effort */
	for (i = 0; i < n; i++) {
		file_path(wl, t->idx, (int)i, path, sizeof(path));
		fds[i] = open(path, O_RDWR | O_CREAT | (wl->o.shared ? 0 : O_TRUNC) | O_CLOEXEC, 0600);
		if (fds[i] < 0 || fstat(fds[i], &st)) {
			t->err = errno;
			n = fds[i] < 0 ? i : i + 1;
			goto out;
		}
		if (mg_kdev_from_user(st.st_dev, &t->dev[i])) {
			t->err = EOVERFLOW;
			n = i + 1;
			goto out;
		}
		t->ino[i] = st.st_ino;
	}
	pthread_mutex_lock(&wl->gate_mu);
	while (!wl->gate_open)
		pthread_cond_wait(&wl->gate_cv, &wl->gate_mu);
	pthread_mutex_unlock(&wl->gate_mu);
	t->start_ns = mg_now_ns();
	t->end_ns = t->start_ns;
	while (!atomic_load_explicit(&wl->stop, memory_order_relaxed)) {
		if ((t->err = iterate(t, fds)))
			break;
		t->iterations++;
		t->end_ns = mg_now_ns();
		if (o->iterations && t->iterations >= o->iterations)
			break;
		if (o->rate && !(t->iterations % 64))
			pace(t->start_ns, t->iterations, o->rate);
	}
out:
	atomic_store(&t->phase, MG_WL_IDLE);	/* a failed step records nothing more */
	for (i = 0; i < n; i++)
		close(fds[i]);
	atomic_store(&t->done, true);
	atomic_fetch_sub(&wl->running, 1);
	return NULL;
}

/*
 * Move this process into a mount namespace of its own, every mount in it
 * private (nothing propagates to or from the host's), so that the workload's
 * tmpfs dies with the process even when it is killed (SIGKILL: no cleanup
 * runs; only the empty directory stays). Called before the workload's threads
 * exist: unshare() moves the calling thread only, and the threads it starts
 * inherit its namespace. The copy holds every mount the host had (debugfs at
 * /sys/kernel/debug, the output paths); nothing the process does afterwards
 * needs a mount made on the host later (COMMAND never runs with the built-in
 * workload). Returns 0 or -errno (EPERM without CAP_SYS_ADMIN: then no tmpfs,
 * the plain directory is used).
 */
static int private_mounts(void)
{
	if (unshare(CLONE_NEWNS))
		return -errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	return 0;
}

/* Let the threads waiting at the start gate run (struct mg_workload::gate_open). */
static void open_gate(struct mg_workload *wl)
{
	pthread_mutex_lock(&wl->gate_mu);
	wl->gate_open = true;
	pthread_cond_broadcast(&wl->gate_cv);
	pthread_mutex_unlock(&wl->gate_mu);
}

int mg_wl_start(struct mg_workload *wl, const struct mg_wl_opts *o, char *err, size_t errlen)
{
	const char *parent = o->parent ? o->parent : "/tmp";
	struct stat st;
	uint64_t i;
	int e;

	memset(wl, 0, sizeof(*wl));
	pthread_mutex_init(&wl->gate_mu, NULL);
	pthread_cond_init(&wl->gate_cv, NULL);
	wl->pfd = wl->dfd = -1;
	wl->o = *o;
	if (!o->threads || !o->files || o->files > MG_WL_MAX_FILES || o->nsteps < 1 ||
	    o->nsteps > MG_WL_MAX_STEPS) {
		snprintf(err, errlen, "invalid workload shape");
		return -EINVAL;
	}
	snprintf(wl->dir, sizeof(wl->dir), "%s/%s.XXXXXX", parent, o->prefix);
	e = o->parent && o->waiting ? mg_wl_guarded_mkdtemp(wl->dir, sizeof(wl->dir), o->waiting,
							     o->ctx) :
	    mkdtemp(wl->dir) ? 0 : -errno;
	if (e == -EINTR) {
		snprintf(err, errlen, "gave up waiting for mkdir under %s", parent);
		wl->dir[0] = 0;
		return e;
	}
	if (e) {
		struct stat st;

		/* ENOENT under a directory that exists: a filesystem that makes none (proc, sysfs) */
		snprintf(err, errlen, "cannot create a directory under %s: %s%s", parent, strerror(-e),
			 e == -ENOENT && !stat(parent, &st) && S_ISDIR(st.st_mode) ?
			 " (it exists: its filesystem creates no directories)" : "");
		wl->dir[0] = 0;
		return e;
	}
	if (!o->parent && !private_mounts() &&
	    !mount(o->prefix, wl->dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=0700"))
		wl->mounted = true;
	/* removed through these at the end, so a lazy umount of its filesystem during the run
	 * does not leave the directory behind (its path then names another one, or none) */
	wl->pfd = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	wl->dfd = open(wl->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	wl->have_dir_dev = !stat(wl->dir, &st) && !mg_kdev_from_user(st.st_dev, &wl->dir_dev);
	if (o->dir_ready && (e = o->dir_ready(wl->dir, o->ctx, err, errlen)) < 0) {
		mg_wl_finish(wl);
		return e;
	}
	wl->t = calloc(o->threads, sizeof(*wl->t));
	if (!wl->t) {
		mg_wl_finish(wl);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	atomic_store(&wl->running, (unsigned)o->threads);
	for (i = 0; i < o->threads; i++) {
		wl->t[i].idx = (int)i;
		wl->t[i].wl = wl;
		if ((e = pthread_create(&wl->t[i].tid, NULL, thread_main, &wl->t[i]))) {
			atomic_fetch_sub(&wl->running, (unsigned)(o->threads - i));
			mg_wl_finish(wl);
			snprintf(err, errlen, "cannot start workload threads: %s", strerror(e));
			return -e;
		}
		wl->nthreads = i + 1;
	}
	open_gate(wl);	/* every thread exists: the run begins */
	return 0;
}

void mg_wl_stop(struct mg_workload *wl)
{
	atomic_store(&wl->stop, true);
	open_gate(wl);	/* threads still at the gate see stop once through it */
}

bool mg_wl_running(struct mg_workload *wl)
{
	return atomic_load(&wl->running) > 0;
}

int mg_wl_finish(struct mg_workload *wl)
{
	char name[64];
	const char *base = strrchr(wl->dir, '/');
	uint64_t i;
	int err = 0;

	if (wl->abandoned)	/* mg_wl_abandon()'s cleaner removes the directory */
		return 0;
	mg_wl_stop(wl);
	for (i = 0; i < wl->nthreads; i++) {
		pthread_join(wl->t[i].tid, NULL);
		if (wl->t[i].err && !err)
			err = wl->t[i].err;
		for (int f = 0; wl->dfd >= 0 && f < (int)wl->o.files; f++) {
			file_name(wl, (int)i, f, name, sizeof(name));
			/* shared: the first thread's pass removes it, ENOENT after */
			unlinkat(wl->dfd, name, 0);
		}
	}
	wl->nthreads = 0;
	if (wl->mounted)
		umount2(wl->dir, MNT_DETACH);
	wl->mounted = false;
	if (wl->dfd >= 0)
		close(wl->dfd);
	if (wl->dir[0] && base && wl->pfd >= 0)
		unlinkat(wl->pfd, base + 1, AT_REMOVEDIR);
	else if (wl->dir[0])
		rmdir(wl->dir);
	if (wl->pfd >= 0)
		close(wl->pfd);
	wl->dfd = wl->pfd = -1;
	return err;
}

uint64_t mg_wl_iterations(const struct mg_workload *wl)
{
	uint64_t i, n = 0;

	for (i = 0; wl->t && i < wl->o.threads; i++)
		n += wl->t[i].iterations;
	return n;
}

uint64_t mg_wl_elapsed_ns(const struct mg_workload *wl)
{
	uint64_t i, first = UINT64_MAX, last = 0;

	for (i = 0; wl->t && i < wl->o.threads; i++) {
		if (!wl->t[i].start_ns)
			continue;
		if (wl->t[i].start_ns < first)
			first = wl->t[i].start_ns;
		if (wl->t[i].end_ns > last)
			last = wl->t[i].end_ns;
	}
	return first == UINT64_MAX ? 0 : last - first;
}

void mg_wl_free(struct mg_workload *wl)
{
	if (wl->abandoned)	/* its threads may run again when the kernel lets them */
		return;
	free(wl->t);
	wl->t = NULL;
	pthread_cond_destroy(&wl->gate_cv);
	pthread_mutex_destroy(&wl->gate_mu);
}
