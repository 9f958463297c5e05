// SPDX-License-Identifier: GPL-2.0
/*
 * stress.c - `mgtrace stress`: the built-in multigrain workload.
 *
 * N threads, each pinned to CPU (k mod online CPUs), loop over M files of their
 * own: pwrite() one byte then fstat(). The fstat() marks the ctime QUERIED, so
 * the next write within the same coarse tick needs a fine-grained timestamp
 * (ktime_get_real_ts64_mg) and tries to swap the floor: fine stamps and floor
 * swaps happen on every CPU. By default the files live on a tmpfs mounted on a
 * fresh directory under /tmp (multigrain), falling back to /tmp itself.
 * With --no-stat the threads only write: nothing marks a ctime QUERIED, so every
 * update takes the coarse path (as in will-it-scale's pipe1 and write1).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "util.h"

#define TMPFS_MAGIC_ 0x01021994
#define EXT4_MAGIC_  0xEF53
#define XFS_MAGIC_   0x58465342
#define BTRFS_MAGIC_ 0x9123683E

struct stress_opts {
	uint64_t threads;	/* worker threads */
	uint64_t files;		/* files per thread */
	double duration;	/* seconds, when ops == 0 */
	uint64_t ops;		/* write+stat pairs per thread; 0: run for duration */
	const char *dir;	/* parent directory, or NULL: tmpfs under /tmp */
	bool no_stat;		/* write only: no fstat(), so no fine-grained stamps */
};

struct worker {
	pthread_t tid;
	int idx;
	const struct stress_opts *o;
	const char *dir;
	uint64_t done;		/* write+stat pairs (writes with --no-stat) completed */
	int err;		/* 0 or errno of the first failure */
};

static atomic_bool stop_flag;
static atomic_uint running;	/* worker threads not yet finished */

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), fds[256];
	uint64_t i, n = w->o->files;
	char path[4096], b = 'x';
	cpu_set_t set;
	struct stat st;

	CPU_ZERO(&set);
	CPU_SET(w->idx % (ncpu > 0 ? ncpu : 1), &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set); /* best effort */
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/t%d-f%llu", w->dir, w->idx, (unsigned long long)i);
		fds[i] = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fds[i] < 0) {
			w->err = errno;
			n = i;
			goto out;
		}
	}
	while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
		for (i = 0; i < n; i++) {
			if (pwrite(fds[i], &b, 1, 0) != 1 || (!w->o->no_stat && fstat(fds[i], &st))) {
				w->err = errno;
				goto out;
			}
			w->done++;
			if (w->o->ops && w->done >= w->o->ops)
				goto out;
		}
	}
out:
	atomic_fetch_sub(&running, 1);
	for (i = 0; i < n; i++) {
		close(fds[i]);
		snprintf(path, sizeof(path), "%s/t%d-f%llu", w->dir, w->idx, (unsigned long long)i);
		unlink(path);
	}
	return NULL;
}

static const char *fs_name(const char *dir)
{
	struct statfs s;

	if (statfs(dir, &s))
		return "unknown";
	switch ((unsigned long)s.f_type) {
	case TMPFS_MAGIC_: return "tmpfs";
	case EXT4_MAGIC_: return "ext4";
	case XFS_MAGIC_: return "xfs";
	case BTRFS_MAGIC_: return "btrfs";
	default: return "other";
	}
}

static int usage(FILE *f, int code)
{
	fprintf(f,
		"Usage: mgtrace stress [--threads N] [--files M] [--duration SECONDS | --ops N] [--dir PATH]\n"
		"                      [--no-stat]\n"
		"Write and stat files from N threads (one per CPU by default) so that fine-grained\n"
		"timestamps and floor swaps happen on every CPU; print write+stat operations per second.\n"
		"  -t, --threads N      worker threads, 1..1024 (default: online CPUs)\n"
		"  -f, --files M        files per thread, 1..256 (default 4)\n"
		"  -d, --duration S     run for S seconds, up to 86400 (default 3)\n"
		"  -n, --ops N          stop each thread after N write+stat pairs instead\n"
		"  -D, --dir PATH       work in a fresh directory under PATH (default: a tmpfs\n"
		"                       mounted on a fresh directory under /tmp, else /tmp)\n"
		"  -S, --no-stat        write only, no fstat(): every ctime update takes the coarse\n"
		"                       path (no fine-grained stamps); --ops then counts writes\n");
	return code;
}

int cmd_stress(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "threads", required_argument, 0, 't' }, { "files", required_argument, 0, 'f' },
		{ "duration", required_argument, 0, 'd' }, { "ops", required_argument, 0, 'n' },
		{ "dir", required_argument, 0, 'D' }, { "no-stat", no_argument, 0, 'S' },
		{ "help", no_argument, 0, 'h' }, { 0 } };
	struct stress_opts o = { .files = 4, .duration = 3 };
	char dir[4096];
	bool mounted = false;
	struct worker *w;
	sigset_t sigs;
	bool duration_given = false;
	uint64_t total = 0, t0, t1;
	int c, err = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	o.threads = ncpu > 0 ? (uint64_t)ncpu : 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:f:d:n:D:Sh", lo, NULL)) != -1) {
		int e = 0;

		switch (c) {
		case 't': e = mg_parse_u64(optarg, 1, 1024, &o.threads); break;
		case 'f': e = mg_parse_u64(optarg, 1, 256, &o.files); break;
		case 'd': e = mg_parse_seconds(optarg, 86400, &o.duration); duration_given = true; break;
		case 'n': e = mg_parse_u64(optarg, 1, UINT64_MAX, &o.ops); break;
		case 'D': o.dir = optarg; break;
		case 'S': o.no_stat = true; break;
		case 'h': return usage(stdout, MG_EXIT_OK);
		default: return mg_bad_option("stress", c, argv);
		}
		if (e)
			return mg_err(MG_EXIT_USAGE, "stress: invalid value '%s' for --%s", optarg,
				      c == 't' ? "threads" : c == 'f' ? "files" :
				      c == 'd' ? "duration" : "ops");
	}
	if (optind < argc)
		return mg_err(MG_EXIT_USAGE, "stress: unexpected argument '%s'", argv[optind]);
	if (duration_given && o.ops)
		return mg_err(MG_EXIT_USAGE, "stress: --duration and --ops exclude each other");

	snprintf(dir, sizeof(dir), "%s/mgtrace-stress.XXXXXX", o.dir ? o.dir : "/tmp");
	if (!mkdtemp(dir))
		return mg_err(o.dir ? MG_EXIT_USAGE : MG_EXIT_ENV, "stress: cannot create a directory under %s: %s",
			      o.dir ? o.dir : "/tmp", strerror(errno));
	if (!o.dir && !mount("mgtrace-stress", dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=0700"))
		mounted = true;

	/* Block SIGINT/SIGTERM before the threads exist, so sigtimedwait() below gets them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	w = calloc(o.threads, sizeof(*w));
	if (!w) {
		err = ENOMEM;
		goto cleanup;
	}
	t0 = mg_now_ns();
	atomic_store(&running, (unsigned)o.threads);
	for (uint64_t i = 0; i < o.threads; i++) {
		w[i] = (struct worker){ .idx = (int)i, .o = &o, .dir = dir };
		if ((err = pthread_create(&w[i].tid, NULL, worker_main, &w[i]))) {
			atomic_fetch_sub(&running, (unsigned)(o.threads - i));
			o.threads = i;
			atomic_store(&stop_flag, true);
			break;
		}
	}
	/*
	 * Wait for the duration (or, with --ops, for the threads to finish); SIGINT and
	 * SIGTERM end the run early either way.
	 */
	while (!err && atomic_load(&running)) {
		uint64_t now = mg_now_ns(), end = t0 + (uint64_t)(o.duration * 1e9), left;
		struct timespec ts;

		if (!o.ops && now >= end)
			break;
		left = o.ops ? 100000000ull : end - now < 100000000ull ? end - now : 100000000ull;
		ts.tv_sec = left / 1000000000ull;
		ts.tv_nsec = left % 1000000000ull;
		if (sigtimedwait(&sigs, NULL, &ts) > 0)
			break;
	}
	atomic_store(&stop_flag, true);
	for (uint64_t i = 0; i < o.threads; i++) {
		pthread_join(w[i].tid, NULL);
		total += w[i].done;
		if (w[i].err && !err)
			err = w[i].err;
	}
	t1 = mg_now_ns();
	printf("stress: %llu threads x %llu files on %s (%s): %llu %s ops in %.3f s = %.0f ops/s\n",
	       (unsigned long long)o.threads, (unsigned long long)o.files, dir, fs_name(dir),
	       (unsigned long long)total, o.no_stat ? "write" : "write+stat", (t1 - t0) / 1e9, total / ((t1 - t0) / 1e9));
	fflush(stdout);
	free(w);
cleanup:
	if (mounted)
		umount2(dir, MNT_DETACH);
	rmdir(dir);
	if (err)
		return mg_err(MG_EXIT_FAIL, "stress: %s", strerror(err));
	return MG_EXIT_OK;
}
