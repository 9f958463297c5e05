// SPDX-License-Identifier: GPL-2.0
/*
 * soakload.c - the workload of bench/soak: many distinct files created, written, stat()ed
 * and deleted, with a bounded number alive at any time.
 *
 * usage: soakload [-t T] [-l L] [-r RATE] [-d S] [-n N] [-p S] DIR
 *   DIR  an existing directory; each thread works in DIR/t<i> (made, removed at the end)
 *   -t   threads (default 2)
 *   -l   live files per thread (default 2000): file k is deleted when file k+L is made
 *   -r   files made per second, all threads together (default 0: unpaced)
 *   -d   run at least S seconds (default 10)
 *   -n   and make at least N files in all (default 0); the run ends when both hold
 *   -p   a progress line every S seconds (default 10; 0: none)
 *
 * Each thread makes files DIR/t<i>/f<k>, k = 0, 1, 2, ..., never a name twice. For each:
 * open(O_CREAT|O_EXCL), pwrite() 64 bytes, fstat() (the ctime is now QUERIED), pwrite()
 * 64 bytes more (an update after a query: fine-grained unless the coarse clock ticked),
 * close(). Then file k-L is stat()ed by name (QUERIED again) and unlink()ed, so each
 * thread holds at most L files and the live set stays flat while the total grows. At the
 * end (or on SIGINT/SIGTERM) each thread deletes what it still holds. Paced by
 * CLOCK_MONOTONIC deadlines (file k of a thread is made no earlier than k / (RATE/T) s
 * after the start, checked every 8 files); a thread that falls behind runs unpaced until
 * it catches up.
 *
 * Prints on stdout, every -p seconds, {"type":"soakload_progress","t_s":s,
 * "files_created":n,"files_unlinked":n}, and at the end one line {"type":"soakload",
 * "threads":T,"live_per_thread":L,"rate_asked":R,"elapsed_s":s,"files_created":n,
 * "files_unlinked":n,"writes":n,"fstats":n,"stats":n,"rate_files_per_s":r,
 * "interrupted":bool,"errors":n,"first_error":null|"text"} (counts: the calls that
 * succeeded; elapsed: CLOCK_MONOTONIC, start to the last thread's end). Exit 0, 1 when a
 * call failed (the run stops at the first; first_error names it), 2 on usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* One worker thread: its directory fd and what it did (counts of calls that succeeded). */
struct worker {
	pthread_t tid;
	int idx, dfd;
	unsigned long long made, unlinked, writes, fstats, stats;
};

static int nthreads = 2, progress_s = 10;
static long live = 2000;
static double rate, duration = 10;
static unsigned long long min_files;
static const char *top;
static long long t_start;			/* CLOCK_MONOTONIC ns */
static volatile sig_atomic_t stop_sig;		/* SIGINT/SIGTERM seen */
static atomic_int stop_err;			/* a call failed: every thread stops */
static atomic_ullong total_made, total_unlinked;
static atomic_ullong nerrors;
static char first_error[256];
static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;

/* CLOCK_MONOTONIC in ns. */
static long long mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Record a failed call (the first one's text is kept) and stop the run. */
static void fail(const struct worker *w, const char *what, const char *name)
{
	int e = errno;

	pthread_mutex_lock(&err_lock);
	if (!first_error[0])
		snprintf(first_error, sizeof(first_error), "%s %s/t%d/%s: %s", what, top,
			 w->idx, name, strerror(e));
	pthread_mutex_unlock(&err_lock);
	atomic_fetch_add(&nerrors, 1);
	atomic_store(&stop_err, 1);
}

/* stat() file k of w by name and unlink it; false on a failed call. */
static int drop(struct worker *w, unsigned long long k)
{
	char name[64];
	struct stat st;

	snprintf(name, sizeof(name), "f%llu", k);
	if (fstatat(w->dfd, name, &st, 0)) {
		fail(w, "stat", name);
		return 0;
	}
	w->stats++;
	if (unlinkat(w->dfd, name, 0)) {
		fail(w, "unlink", name);
		return 0;
	}
	w->unlinked++;
	atomic_fetch_add_explicit(&total_unlinked, 1, memory_order_relaxed);
	return 1;
}

/* Make file k of w: create, write, fstat, write, close; false on a failed call. */
static int make(struct worker *w, unsigned long long k)
{
	static const char buf[64] = "soakload: 64 bytes of data, written twice to each file.\n";
	char name[64];
	struct stat st;
	int fd;

	snprintf(name, sizeof(name), "f%llu", k);
	fd = openat(w->dfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		fail(w, "open", name);
		return 0;
	}
	if (pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf)) {
		fail(w, "write", name);
		close(fd);
		return 0;
	}
	w->writes++;
	if (fstat(fd, &st)) {
		fail(w, "fstat", name);
		close(fd);
		return 0;
	}
	w->fstats++;
	if (pwrite(fd, buf, sizeof(buf), sizeof(buf)) != (ssize_t)sizeof(buf)) {
		fail(w, "write", name);
		close(fd);
		return 0;
	}
	w->writes++;
	close(fd);
	w->made++;
	atomic_fetch_add_explicit(&total_made, 1, memory_order_relaxed);
	return 1;
}

/* Whether the run is over: a signal, a failure, or both the time and the count reached. */
static int done(void)
{
	if (stop_sig || atomic_load(&stop_err))
		return 1;
	return mono() - t_start >= (long long)(duration * 1e9) &&
	       atomic_load_explicit(&total_made, memory_order_relaxed) >= min_files;
}

/* A worker: the loop of the header comment, then its live files deleted. */
static void *run(void *arg)
{
	struct worker *w = arg;
	double per_ns = rate > 0 ? rate / nthreads / 1e9 : 0;	/* files per ns, this thread */
	unsigned long long k = 0, j;

	for (;; k++) {
		if (!(k & 7)) {
			if (done())
				break;
			if (per_ns > 0) {
				long long due = t_start + (long long)(k / per_ns);
				struct timespec ts = { due / 1000000000LL, due % 1000000000LL };

				if (mono() < due)
					clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			}
		}
		if (!make(w, k))
			break;
		if (k >= (unsigned long long)live && !drop(w, k - live))
			break;
	}
	/* what it still holds: files max(0, k-L) .. made-1 (k itself failed or was never made) */
	for (j = k > (unsigned long long)live ? k - live : 0; j < w->made; j++)
		if (!drop(w, j))
			break;
	return NULL;
}

static void on_signal(int sig)
{
	stop_sig = sig;
}

static int usage(void)
{
	fprintf(stderr, "usage: soakload [-t T] [-l L] [-r RATE] [-d S] [-n N] [-p S] DIR\n");
	return 2;
}

/* Print the final JSON line of the header comment. */
static void report(struct worker *ws, long long t_end)
{
	unsigned long long made = 0, unl = 0, wr = 0, fs = 0, st = 0;
	double el = (t_end - t_start) / 1e9;
	int i;

	for (i = 0; i < nthreads; i++) {
		made += ws[i].made;
		unl += ws[i].unlinked;
		wr += ws[i].writes;
		fs += ws[i].fstats;
		st += ws[i].stats;
	}
	printf("{\"type\":\"soakload\",\"threads\":%d,\"live_per_thread\":%ld,\"rate_asked\":%.0f,"
	       "\"elapsed_s\":%.6f,\"files_created\":%llu,\"files_unlinked\":%llu,\"writes\":%llu,"
	       "\"fstats\":%llu,\"stats\":%llu,\"rate_files_per_s\":%.1f,\"interrupted\":%s,"
	       "\"errors\":%llu,\"first_error\":",
	       nthreads, live, rate, el, made, unl, wr, fs, st, el > 0 ? made / el : 0.0,
	       stop_sig ? "true" : "false", (unsigned long long)atomic_load(&nerrors));
	if (first_error[0]) {
		putchar('"');
		for (const char *c = first_error; *c; c++)
			if (*c == '"' || *c == '\\')
				printf("\\%c", *c);
			else if ((unsigned char)*c < 0x20)
				printf("\\u%04x", *c);
			else
				putchar(*c);
		printf("\"}\n");
	} else {
		printf("null}\n");
	}
	fflush(stdout);
}

/* Wait for the workers, printing a progress line every progress_s seconds. */
static void wait_workers(struct worker *ws)
{
	long long next = t_start + progress_s * 1000000000LL;
	int i;

	while (progress_s > 0 && !done()) {
		struct timespec ts = { 0, 100000000 };

		nanosleep(&ts, NULL);
		if (mono() >= next) {
			printf("{\"type\":\"soakload_progress\",\"t_s\":%.3f,\"files_created\":%llu,"
			       "\"files_unlinked\":%llu}\n", (mono() - t_start) / 1e9,
			       (unsigned long long)atomic_load(&total_made),
			       (unsigned long long)atomic_load(&total_unlinked));
			fflush(stdout);
			next += progress_s * 1000000000LL;
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(ws[i].tid, NULL);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct worker *ws;
	char *end;
	int c, i, topfd, rc = 0;

	while ((c = getopt(argc, argv, "t:l:r:d:n:p:")) != -1) {
		errno = 0;
		switch (c) {
		case 't': nthreads = (int)strtol(optarg, &end, 10); break;
		case 'l': live = strtol(optarg, &end, 10); break;
		case 'r': rate = strtod(optarg, &end); break;
		case 'd': duration = strtod(optarg, &end); break;
		case 'n': min_files = strtoull(optarg, &end, 10); break;
		case 'p': progress_s = (int)strtol(optarg, &end, 10); break;
		default: return usage();
		}
		if (errno || *end || end == optarg)
			return usage();
	}
	if (optind != argc - 1 || nthreads < 1 || nthreads > 256 || live < 1 || rate < 0 ||
	    duration < 0 || progress_s < 0)
		return usage();
	top = argv[optind];
	topfd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (topfd < 0) {
		fprintf(stderr, "soakload: %s: %s\n", top, strerror(errno));
		return 1;
	}
	ws = calloc(nthreads, sizeof(*ws));
	if (!ws)
		return 1;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i < nthreads; i++) {
		char name[16];

		snprintf(name, sizeof(name), "t%d", i);
		ws[i].idx = i;
		if (mkdirat(topfd, name, 0755) ||
		    (ws[i].dfd = openat(topfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			fprintf(stderr, "soakload: %s/%s: %s\n", top, name, strerror(errno));
			return 1;
		}
	}
	t_start = mono();
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&ws[i].tid, NULL, run, &ws[i])) {
			fprintf(stderr, "soakload: pthread_create failed\n");
			atomic_store(&stop_err, 1);
			nthreads = i;
			break;
		}
	wait_workers(ws);
	report(ws, mono());
	for (i = 0; i < nthreads; i++) {
		char name[16];

		snprintf(name, sizeof(name), "t%d", i);
		close(ws[i].dfd);
		if (unlinkat(topfd, name, AT_REMOVEDIR) && !first_error[0]) {
			fprintf(stderr, "soakload: rmdir %s/%s: %s\n", top, name, strerror(errno));
			rc = 1;
		}
	}
	if (first_error[0]) {
		fprintf(stderr, "soakload: %s\n", first_error);
		rc = 1;
	}
	return rc;
}
