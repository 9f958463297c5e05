// SPDX-License-Identifier: GPL-2.0
/*
 * tmpfs-dir-ctime.c - the smallest reproducer of docs/findings/tmpfs-dir-ctime.md:
 * after a stat() of a tmpfs directory, link(), unlink() and a rename() over an
 * existing name in it can leave its ctime unchanged (fs/libfs.c simple_link()
 * and __simple_unlink() copy the child's time onto the directory with
 * inode_set_ctime_to_ts()). Documentation/filesystems/multigrain-ts.rst: a
 * change after a query shows a later ctime.
 *
 * usage: tmpfs-dir-ctime [-n N] DIR
 *   DIR  a directory (made if absent) on the filesystem under test; left empty
 *   -n   iterations (default 1000)
 * Each iteration, each op preceded and followed by a stat() of DIR:
 *   create f; link f g; unlink g; create t; rename t over f; unlink f
 * and counts, per op, how often DIR's ctime after it was not later than before.
 * Prints one line per op, "OP: N of M unchanged", and exits 0 (1 on an error).
 * Build: cc -O2 -static -o tmpfs-dir-ctime tmpfs-dir-ctime.c
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CREATE, LINK, UNLINK, RENAME, NOPS };
static const char *names[NOPS] = { "create", "link", "unlink", "rename-over" };
static long done[NOPS], unchanged[NOPS];
static int dfd;
static struct timespec last;	/* DIR's ctime at the last stat() */

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

static struct timespec dir_ctime(void)
{
	struct stat s;

	if (fstat(dfd, &s))
		fail("fstat");
	return s.st_ctim;
}

/* after an op on DIR: count it, and whether DIR's ctime moved past the last stat()'s */
static void op_done(int op, int rc)
{
	struct timespec now;

	if (rc)
		fail(names[op]);
	done[op]++;
	now = dir_ctime();
	if (now.tv_sec < last.tv_sec || (now.tv_sec == last.tv_sec && now.tv_nsec <= last.tv_nsec))
		unchanged[op]++;
	last = now;
}

static int create(const char *name)
{
	int fd = openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY, 0644);

	return fd < 0 ? -1 : close(fd);
}

int main(int argc, char **argv)
{
	long n = 1000, i;
	int c;

	while ((c = getopt(argc, argv, "n:")) != -1)
		if (c != 'n' || (n = atol(optarg)) < 1)
			break;
	if (c != -1 || optind != argc - 1) {
		fprintf(stderr, "usage: tmpfs-dir-ctime [-n N] DIR\n");
		return 2;
	}
	mkdir(argv[optind], 0755);
	dfd = open(argv[optind], O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		fail(argv[optind]);
	last = dir_ctime();
	for (i = 0; i < n; i++) {
		op_done(CREATE, create("f"));
		op_done(LINK, linkat(dfd, "f", dfd, "g", 0));
		op_done(UNLINK, unlinkat(dfd, "g", 0));
		op_done(CREATE, create("t"));
		op_done(RENAME, renameat(dfd, "t", dfd, "f"));
		op_done(UNLINK, unlinkat(dfd, "f", 0));
	}
	for (c = 0; c < NOPS; c++)
		printf("%s: %ld of %ld unchanged\n", names[c], unchanged[c], done[c]);
	return 0;
}
