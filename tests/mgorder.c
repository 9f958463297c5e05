// SPDX-License-Identifier: GPL-2.0
/*
 * mgorder.c - cross-file ordering over link() and unlink(), observed outside mgtrace.
 *
 * usage: mgorder [-n N] [-t T] [-D] [-q] DIR
 *   DIR  a directory (made if absent); each thread works in DIR/<i>, removed at the end
 *   -n   ops per thread (default 2000)
 *   -t   threads (default 2)
 *   -D   doctor the data before judging, the must-fail case of the VM stage: the op
 *        that started last gets a directory ctime 1 ns before the earliest ctime seen
 *   -q   quiet: no stat() at all, so nothing is QUERIED and nothing judged ("judged" 0):
 *        the same link/unlink ops as a floor-cost baseline (bench/libfs-floor)
 *
 * Each thread makes DIR/<i>/f, then N times: stat()s its directory and f (both are then
 * QUERIED), reads CLOCK_MONOTONIC, links f to g (even ops) or unlinks g (odd ops), reads
 * CLOCK_MONOTONIC again, and stat()s the directory and f. A link or unlink stamps both
 * the child and the directory (fs/libfs.c simple_link(), __simple_unlink() on tmpfs).
 * Nothing else changes these inodes, so the ctimes read after an op are the op's.
 *
 * Documentation/filesystems/multigrain-ts.rst: when one modification ended before
 * another began (in one thread or across threads), the later one's timestamps are equal
 * or later. After the run every op is judged against every op that ended before it
 * began: each of its two ctimes must be >= both ctimes of each such op (one sweep in
 * order of start, with the maximum over the ops ended so far).
 *
 * Prints one JSON line: {"type":"order","threads":T,"ops":n,"judged":n (ops with at
 * least one op ended before them),"violations":n,"doctored":bool,"first":null|{"earlier":[s,ns],
 * "later":[s,ns],"later_role":"dir"|"file"}}. Exit 0, 1 on an error (one line on
 * stderr), 2 on usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct rec {
	long long t0, t1;		/* CLOCK_MONOTONIC ns around the op */
	struct timespec dir, file;	/* ctimes after it */
};

struct worker {
	pthread_t tid;
	int idx, dfd;
	struct rec *recs;
	char err[160];
};

static long nops = 2000;
static int quiet;
static const char *top;

static long long mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int ts_cmp(struct timespec a, struct timespec b)
{
	if (a.tv_sec != b.tv_sec)
		return a.tv_sec < b.tv_sec ? -1 : 1;
	return a.tv_nsec < b.tv_nsec ? -1 : a.tv_nsec > b.tv_nsec;
}

static int ctimes(struct worker *w, struct timespec *dir, struct timespec *file)
{
	struct stat s;

	if (fstat(w->dfd, &s))
		return -1;
	*dir = s.st_ctim;
	if (fstatat(w->dfd, "f", &s, 0))
		return -1;
	*file = s.st_ctim;
	return 0;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct timespec d, f;
	char name[32];
	long i;
	int fd;

	snprintf(name, sizeof(name), "%d", w->idx);
	if (mkdirat(AT_FDCWD, name, 0755) && errno != EEXIST)
		goto err;
	w->dfd = open(name, O_RDONLY | O_DIRECTORY);
	if (w->dfd < 0)
		goto err;
	fd = openat(w->dfd, "f", O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || close(fd))
		goto err;
	for (i = 0; i < nops; i++) {
		struct rec *r = &w->recs[i];
		int rc;

		if (!quiet && ctimes(w, &d, &f))
			goto err;
		r->t0 = mono();
		rc = i & 1 ? unlinkat(w->dfd, "g", 0) : linkat(w->dfd, "f", w->dfd, "g", 0);
		r->t1 = mono();
		if (rc || (!quiet && ctimes(w, &r->dir, &r->file)))
			goto err;
	}
	if (unlinkat(w->dfd, "f", 0) || unlinkat(AT_FDCWD, name, AT_REMOVEDIR))
		goto err;
	close(w->dfd);
	return NULL;
err:
	snprintf(w->err, sizeof(w->err), "%s/%s: %s", top, name, strerror(errno));
	return NULL;
}

static int by_t0(const void *a, const void *b)
{
	const struct rec *x = *(struct rec *const *)a, *y = *(struct rec *const *)b;

	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

static int by_t1(const void *a, const void *b)
{
	const struct rec *x = *(struct rec *const *)a, *y = *(struct rec *const *)b;

	return x->t1 < y->t1 ? -1 : x->t1 > y->t1;
}

int main(int argc, char **argv)
{
	long threads = 2, total, i, j, judged = 0, viol = 0;
	struct timespec max = { 0, 0 }, fe = { 0, 0 }, fl = { 0, 0 };
	const char *frole = NULL;
	int doctor = 0;
	struct rec **s0, **s1;
	struct worker *w;
	int c;

	while ((c = getopt(argc, argv, "n:t:Dq")) != -1) {
		long v = c == 'D' || c == 'q' ? 1 : atol(optarg);

		if (c == 'D' || c == 'q') {
			*(c == 'D' ? &doctor : &quiet) = 1;
			continue;
		}

		if (v < 1 || (c != 'n' && c != 't')) {
			fprintf(stderr, "usage: mgorder [-n N] [-t T] [-D] [-q] DIR\n");
			return 2;
		}
		*(c == 'n' ? &nops : &threads) = v;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: mgorder [-n N] [-t T] [-D] [-q] DIR\n");
		return 2;
	}
	top = argv[optind];
	if ((mkdir(top, 0755) && errno != EEXIST) || chdir(top)) {
		fprintf(stderr, "mgorder: %s: %s\n", top, strerror(errno));
		return 1;
	}
	total = threads * nops;
	w = calloc((size_t)threads, sizeof(*w));
	s0 = calloc((size_t)total, sizeof(*s0));
	s1 = calloc((size_t)total, sizeof(*s1));
	if (!w || !s0 || !s1) {
		fprintf(stderr, "mgorder: out of memory\n");
		return 1;
	}
	for (i = 0; i < threads; i++) {
		w[i].idx = (int)i;
		w[i].recs = calloc((size_t)nops, sizeof(struct rec));
		if (!w[i].recs || pthread_create(&w[i].tid, NULL, work, &w[i])) {
			fprintf(stderr, "mgorder: cannot start thread %ld\n", i);
			return 1;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].tid, NULL);
		if (w[i].err[0]) {
			fprintf(stderr, "mgorder: %s\n", w[i].err);
			return 1;
		}
		for (j = 0; j < nops; j++)
			s0[i * nops + j] = s1[i * nops + j] = &w[i].recs[j];
	}
	if (quiet) {
		printf("{\"type\":\"order\",\"threads\":%ld,\"ops\":%ld,\"judged\":0,\"violations\":0,"
		       "\"doctored\":false,\"first\":null}\n", threads, total);
		return ferror(stdout) ? 1 : 0;
	}
	qsort(s0, (size_t)total, sizeof(*s0), by_t0);
	qsort(s1, (size_t)total, sizeof(*s1), by_t1);
	if (doctor) {
		struct timespec low = s0[0]->dir;

		for (i = 0; i < total; i++) {
			if (ts_cmp(s0[i]->dir, low) < 0)
				low = s0[i]->dir;
			if (ts_cmp(s0[i]->file, low) < 0)
				low = s0[i]->file;
		}
		if (low.tv_nsec-- == 0) {
			low.tv_sec--;
			low.tv_nsec = 999999999;
		}
		s0[total - 1]->dir = low;
	}
	for (i = 0, j = 0; i < total; i++) {
		struct rec *b = s0[i];

		for (; j < total && s1[j]->t1 < b->t0; j++) {
			if (ts_cmp(s1[j]->dir, max) > 0)
				max = s1[j]->dir;
			if (ts_cmp(s1[j]->file, max) > 0)
				max = s1[j]->file;
		}
		if (!j)
			continue;
		judged++;
		if (ts_cmp(b->dir, max) < 0 || ts_cmp(b->file, max) < 0) {
			if (!viol++) {
				fe = max;
				frole = ts_cmp(b->dir, max) < 0 ? "dir" : "file";
				fl = ts_cmp(b->dir, max) < 0 ? b->dir : b->file;
			}
		}
	}
	printf("{\"type\":\"order\",\"threads\":%ld,\"ops\":%ld,\"judged\":%ld,\"violations\":%ld,"
	       "\"doctored\":%s,\"first\":", threads, total, judged, viol, doctor ? "true" : "false");
	if (frole)
		printf("{\"earlier\":[%lld,%ld],\"later\":[%lld,%ld],\"later_role\":\"%s\"}}\n",
		       (long long)fe.tv_sec, fe.tv_nsec, (long long)fl.tv_sec, fl.tv_nsec, frole);
	else
		printf("null}\n");
	return ferror(stdout) ? 1 : 0;
}
