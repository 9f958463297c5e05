// SPDX-License-Identifier: GPL-2.0
/*
 * tmpfs-mmap-msync.c - the smallest reproducer of docs/findings/tmpfs-mmap-msync.md:
 * on tmpfs a store through a MAP_SHARED mapping whose page table entry is already
 * writable, then msync(), leaves the file's mtime and ctime unchanged, even right
 * after a stat() queried them. mm/shmem.c's vm_operations have no ->page_mkwrite and
 * tmpfs has no writeback, so nothing makes such a store fault, and only a fault
 * stamps the file (mm/memory.c fault_dirty_shared_page()). POSIX mmap(), msync():
 * the times are marked for update between a write reference to the mapping and the
 * next msync() with MS_SYNC or MS_ASYNC; Documentation/filesystems/multigrain-ts.rst:
 * a change after a query shows a later ctime.
 *
 * usage: tmpfs-mmap-msync [-a] [-n N] FILE
 *   FILE  a file on the filesystem under test, made (4096 bytes) if absent and
 *         left in place
 *   -n    iterations (default 1000)
 *   -a    msync(MS_ASYNC) instead of msync(MS_SYNC)
 * Each iteration runs four cases, each an fstat() of FILE (the query), the change,
 * then an fstat():
 *   write              pwrite() of one byte (the control: write(2) stamps everywhere)
 *   first-store        a new mapping, a store (a write fault installs the entry), msync
 *   store-after-msync  a second store through the same mapping, msync (the conform row
 *                      mmap-msync/file)
 *   read-then-store    a new mapping, a load (a read fault installs the entry), then
 *                      the query, a store, msync (fstests' generic/080)
 * and counts, per case, how often the ctime and the mtime after it were not later
 * than the query's. Prints one line per case,
 *   "CASE: ctime not later in N of M, mtime not later in N of M",
 * and exits 0 (1 on an error, 2 on bad usage).
 * Build: cc -O2 -static -o tmpfs-mmap-msync tmpfs-mmap-msync.c
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { WRITE, FIRST, AGAIN, READ, NCASES };
static const char *names[NCASES] = { "write", "first-store", "store-after-msync",
				     "read-then-store" };
static long done[NCASES], ctime_same[NCASES], mtime_same[NCASES];
static int fd, sync_flag = MS_SYNC;
static struct stat before;	/* FILE at the query */

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

static int not_later(struct timespec a, struct timespec b)
{
	return b.tv_sec < a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec <= a.tv_nsec);
}

static void query(void)
{
	if (fstat(fd, &before))
		fail("fstat");
}

/* after a case's change: count it, and whether the times moved past the query's */
static void changed(int c)
{
	struct stat after;

	if (fstat(fd, &after))
		fail("fstat");
	done[c]++;
	ctime_same[c] += not_later(before.st_ctim, after.st_ctim);
	mtime_same[c] += not_later(before.st_mtim, after.st_mtim);
}

static char *map(void)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		fail("mmap");
	return p;
}

static void store(char *p, long i)
{
	p[i % 4096] = (char)('a' + i % 26);
	if (msync(p, 4096, sync_flag))
		fail("msync");
}

int main(int argc, char **argv)
{
	long n = 1000, i;
	volatile char sink;
	char *p;
	int c;

	while ((c = getopt(argc, argv, "an:")) != -1) {
		if (c == 'a')
			sync_flag = MS_ASYNC;
		else if (c != 'n' || (n = atol(optarg)) < 1)
			break;
	}
	if (c != -1 || optind != argc - 1) {
		fprintf(stderr, "usage: tmpfs-mmap-msync [-a] [-n N] FILE\n");
		return 2;
	}
	fd = open(argv[optind], O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		fail(argv[optind]);
	if (ftruncate(fd, 4096) || pwrite(fd, "x", 1, 0) != 1 || fsync(fd))
		fail("fill");
	for (i = 0; i < n; i++) {
		query();
		if (pwrite(fd, "w", 1, 4095) != 1)
			fail("pwrite");
		changed(WRITE);

		p = map();
		query();
		store(p, i);
		changed(FIRST);
		query();
		store(p, i + 1);
		changed(AGAIN);
		munmap(p, 4096);

		p = map();
		sink = p[0];
		(void)sink;
		query();
		store(p, i + 2);
		changed(READ);
		munmap(p, 4096);
	}
	for (c = 0; c < NCASES; c++)
		printf("%s: ctime not later in %ld of %ld, mtime not later in %ld of %ld\n",
		       names[c], ctime_same[c], done[c], mtime_same[c], done[c]);
	return 0;
}
