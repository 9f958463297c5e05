// SPDX-License-Identifier: GPL-2.0
/*
 * overlayfs-fifo-times.c - the smallest reproducer of docs/findings/overlayfs-fifo-times.md:
 * on overlayfs a write() to a FIFO leaves the FIFO's mtime and ctime unchanged, even right
 * after a stat() queried them. fs/pipe.c fifo_pipe_write() calls file_update_time() on the
 * overlay inode, which has S_NOCMTIME (fs/overlayfs/inode.c ovl_fill_inode() sets it on
 * every overlay inode), so it returns at once; the inode's ->update_time, ovl_update_time(),
 * acts on FS_UPD_ATIME only anyway. ovl_getattr() reports the upper inode's times, which
 * nothing stamps. POSIX write():
 * "Upon successful completion ... write() shall mark for update the last data modification
 * and last file status change timestamps of the file" (FIFOs included).
 *
 * usage: overlayfs-fifo-times [-n N] DIR
 *   DIR   a directory on the filesystem under test; DIR/fifo (mkfifo) and DIR/file are
 *         made if absent and left in place
 *   -n    iterations (default 1000)
 * Each iteration runs two cases, each an fstat() (the query), a write() of one byte, then
 * an fstat():
 *   fifo-write  DIR/fifo, opened O_RDWR (its own reader, so nothing blocks); the byte is
 *               read back after the second fstat() (the conform row fifo-write/file)
 *   file-write  DIR/file, pwrite() at offset 0 (the control: write(2) on a regular file
 *               stamps everywhere, overlayfs included)
 * and counts, per case, how often the ctime and the mtime after it were not later than
 * the query's. Prints one line per case,
 *   "CASE: ctime not later in N of M, mtime not later in N of M",
 * and exits 0 (1 on an error, 2 on bad usage).
 * Build: cc -O2 -static -o overlayfs-fifo-times overlayfs-fifo-times.c
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum { FIFO, FILE_, NCASES };
static const char *names[NCASES] = { "fifo-write", "file-write" };
static long ctime_same[NCASES], mtime_same[NCASES];

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

static int not_later(struct timespec a, struct timespec b)
{
	return b.tv_sec < a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec <= a.tv_nsec);
}

/* one case on fd: fstat (the query), a write of one byte, fstat; count what did not move */
static void one(int c, int fd)
{
	struct stat before, after;
	char b = 'x';

	if (fstat(fd, &before))
		fail("fstat");
	if ((c == FIFO ? write(fd, &b, 1) : pwrite(fd, &b, 1, 0)) != 1)
		fail("write");
	if (fstat(fd, &after))
		fail("fstat");
	if (c == FIFO && read(fd, &b, 1) != 1)
		fail("read");
	ctime_same[c] += not_later(before.st_ctim, after.st_ctim);
	mtime_same[c] += not_later(before.st_mtim, after.st_mtim);
}

int main(int argc, char **argv)
{
	long n = 1000, i;
	char path[4096];
	int opt, fd[NCASES], c;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n' || (n = atol(optarg)) <= 0) {
			fprintf(stderr, "usage: overlayfs-fifo-times [-n N] DIR\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: overlayfs-fifo-times [-n N] DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/fifo", argv[optind]);
	if (mkfifo(path, 0600) && errno != EEXIST)
		fail(path);
	fd[FIFO] = open(path, O_RDWR);
	if (fd[FIFO] < 0)
		fail(path);
	snprintf(path, sizeof(path), "%s/file", argv[optind]);
	fd[FILE_] = open(path, O_RDWR | O_CREAT, 0600);
	if (fd[FILE_] < 0)
		fail(path);
	for (i = 0; i < n; i++)
		for (c = 0; c < NCASES; c++)
			one(c, fd[c]);
	for (c = 0; c < NCASES; c++)
		printf("%s: ctime not later in %ld of %ld, mtime not later in %ld of %ld\n",
		       names[c], ctime_same[c], n, mtime_same[c], n);
	return 0;
}
