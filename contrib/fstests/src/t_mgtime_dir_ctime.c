// SPDX-License-Identifier: GPL-2.0
/*
 * Check that a directory operation after a stat() of the directory gives the
 * directory a visibly later ctime, as multigrain timestamps promise
 * (Documentation/filesystems/multigrain-ts.rst: once the ctime has been
 * queried, "the kernel takes special care to ensure the next timestamp update
 * will display a visible change").
 *
 * usage: t_mgtime_dir_ctime -p [-n N] DIR
 *        t_mgtime_dir_ctime [-n N] DIR
 *
 * -p: probe.  N times: stat a file in DIR, fchmod() it, stat it again.  Exits
 *     0 if its ctime was later every time (the filesystem gives a queried
 *     inode a fine-grained ctime), 1 if not (coarse-grained timestamps: the
 *     test does not apply), 2 on an error.
 *
 * Otherwise, N times, each operation preceded and followed by an fstat() of
 * DIR (so the directory's ctime is always queried before the operation):
 *     create f; link f g; unlink g; create t; rename t over f; unlink f;
 *     mkdir s; rmdir s
 * Prints one line per operation whose second fstat() showed a ctime not later
 * than the first, with the count, and nothing if every operation showed a
 * change.  A one-line summary per operation goes to stderr.  Exits 0, or 2
 * on an error.
 *
 * The operations run back to back in one process: the fault this catches
 * (a directory given its child's ctime with inode_set_ctime_to_ts()) shows
 * when the child's and the directory's stamps fall within the same coarse
 * clock tick, which a loop of shell commands rarely manages.
 *
 * Copyright (c) 2026 The mgtrace authors.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CREATE, LINK, UNLINK, RENAME, MKDIR, RMDIR, NOPS };
static const char *names[NOPS] = {
	"create", "link", "unlink", "rename over an existing name",
	"mkdir", "rmdir",
};
static long done[NOPS], unchanged[NOPS];
static struct timespec first_before[NOPS], first_after[NOPS];
static int dfd;
static struct timespec last;	/* DIR's ctime at the last fstat() */

static void die(const char *what)
{
	fprintf(stderr, "t_mgtime_dir_ctime: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int later(struct timespec a, struct timespec b)
{
	return b.tv_sec > a.tv_sec ||
	       (b.tv_sec == a.tv_sec && b.tv_nsec > a.tv_nsec);
}

static struct timespec ctime_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		die("fstat");
	return st.st_ctim;
}

/* After operation @op returned @rc: stat DIR, count whether its ctime moved. */
static void op_done(int op, int rc)
{
	struct timespec now;

	if (rc)
		die(names[op]);
	done[op]++;
	now = ctime_of(dfd);
	if (!later(last, now)) {
		if (!unchanged[op]) {
			first_before[op] = last;
			first_after[op] = now;
		}
		unchanged[op]++;
	}
	last = now;
}

static int create_at(const char *name)
{
	int fd = openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY, 0644);

	if (fd < 0)
		return -1;
	return close(fd);
}

static int probe(long n)
{
	struct timespec a, b;
	long i, same = 0;
	int fd = openat(dfd, "probe", O_CREAT | O_RDWR, 0644);

	if (fd < 0)
		die("create probe");
	for (i = 0; i < n; i++) {
		a = ctime_of(fd);
		if (fchmod(fd, (i & 1) ? 0644 : 0600))
			die("fchmod");
		b = ctime_of(fd);
		same += !later(a, b);
	}
	close(fd);
	if (unlinkat(dfd, "probe", 0))
		die("unlink probe");
	fprintf(stderr, "probe: ctime of a queried file not later after fchmod in %ld of %ld\n",
		same, n);
	return same ? 1 : 0;
}

int main(int argc, char **argv)
{
	long i, n = 1000;
	int c, do_probe = 0;

	while ((c = getopt(argc, argv, "pn:")) != -1) {
		switch (c) {
		case 'p':
			do_probe = 1;
			break;
		case 'n':
			n = atol(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || n < 1)
		goto usage;
	dfd = open(argv[optind], O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		die(argv[optind]);
	if (do_probe)
		return probe(n);

	last = ctime_of(dfd);
	for (i = 0; i < n; i++) {
		op_done(CREATE, create_at("f"));
		op_done(LINK, linkat(dfd, "f", dfd, "g", 0));
		op_done(UNLINK, unlinkat(dfd, "g", 0));
		op_done(CREATE, create_at("t"));
		op_done(RENAME, renameat(dfd, "t", dfd, "f"));
		op_done(UNLINK, unlinkat(dfd, "f", 0));
		op_done(MKDIR, mkdirat(dfd, "s", 0755));
		op_done(RMDIR, unlinkat(dfd, "s", AT_REMOVEDIR));
	}
	for (c = 0; c < NOPS; c++) {
		fprintf(stderr, "%s: directory ctime not later in %ld of %ld\n",
			names[c], unchanged[c], done[c]);
		if (unchanged[c])
			printf("%s: directory ctime not later after a stat() in %ld of %ld tries (first: %lld.%09ld then %lld.%09ld)\n",
			       names[c], unchanged[c], done[c],
			       (long long)first_before[c].tv_sec, first_before[c].tv_nsec,
			       (long long)first_after[c].tv_sec, first_after[c].tv_nsec);
	}
	return 0;
usage:
	fprintf(stderr, "usage: t_mgtime_dir_ctime [-p] [-n N] DIR\n");
	return 2;
}
