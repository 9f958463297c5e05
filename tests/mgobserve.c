// SPDX-License-Identifier: GPL-2.0
/*
 * mgobserve.c - an observer outside mgtrace: a workload that counts, with its
 * own stat() calls, every break of the multigrain contract it can see.
 *
 * usage: mgobserve [-n N] [-o OPS] [-p] DIR
 *   DIR  an empty or new directory (made if absent) on the filesystem under test
 *   -n   iterations (default 100)
 *   -o   comma list of sequences (default all): link unlink rename chmod write
 *        setxattr. Each iteration creates a file f, runs each sequence once on it
 *        and on the directory, and unlinks f: "link" links f to g and unlinks g,
 *        "unlink" creates and unlinks a name t never queried, "rename" renames f
 *        to h and back, the others change f
 *   -p   pause 2 ms after each iteration (the coarse clock then moves on between them)
 *
 * Every op changes the ctime of the inodes it names, and every one of those
 * inodes was queried (stat()ed) right before the op and is stat()ed right
 * after it (Documentation/filesystems/multigrain-ts.rst: a change after a
 * query shows a later ctime). The ctimes are compared as (sec, nsec): after <=
 * before is a break, counted per op and per inode role ("dir" or "file").
 * One process, one directory of its own: nothing else changes these inodes, so
 * every break is the kernel's. Granularity is not this program's business: on
 * a filesystem whose s_time_gran is over 1 ns an equal ctime after a query is
 * within the contract, and the JSON carries the directory's stat so that the
 * comparison (tests/checkjson.py observer) knows the filesystem.
 *
 * Prints one JSON line on stdout:
 *   {"type":"observer","dir":..,"pid":getpid() (one thread: also its tid),"dir_ino":..,
 *    "file_ino_last":..,"dev":"MAJ:MIN",
 *    "iterations":N,"ops":{OP:{"done":n,"unsupported":null|"errno text",
 *    "not_later":{"dir":n,"file":n}}},"stats":n (stat() calls made),"not_later_total":n,
 *    "breaks":[{"op":..,"role":..,"ino":..,"before":[s,ns],"after":[s,ns]}]}
 * ("breaks" holds the first 65536). Exit 0, or 1 with one line on stderr when
 * an op fails for any reason but an unsupported xattr (ENOTSUP, EOPNOTSUPP).
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
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

enum { OP_CREATE, OP_LINK, OP_UNLINK, OP_RENAME, OP_CHMOD, OP_WRITE, OP_SETXATTR, OP_NR };
static const char *op_names[OP_NR] = {
	"create", "link", "unlink", "rename", "chmod", "write", "setxattr",
};
enum { ROLE_DIR, ROLE_FILE, ROLE_NR };
static const char *role_names[ROLE_NR] = { "dir", "file" };

#define MAX_BREAKS 65536

struct brk {
	int op, role;
	unsigned long long ino;
	struct timespec before, after;
};

static struct {
	unsigned long done[OP_NR];
	unsigned long not_later[OP_NR][ROLE_NR];
	const char *unsupported[OP_NR];
	struct brk breaks[MAX_BREAKS];
	unsigned long nbreaks, stats;
} st;

static int dirfd_ = -1;
static const char *dirpath;

static void die(const char *what, const char *name)
{
	fprintf(stderr, "mgobserve: %s %s/%s: %s\n", what, dirpath, name ? name : "", strerror(errno));
	exit(1);
}

/* The ctime of NAME in the directory ("" for the directory itself). */
static struct timespec ctime_of(const char *name, unsigned long long *ino)
{
	struct stat s;

	if (fstatat(dirfd_, *name ? name : ".", &s, AT_SYMLINK_NOFOLLOW))
		die("cannot stat", name);
	st.stats++;
	if (ino)
		*ino = (unsigned long long)s.st_ino;
	return s.st_ctim;
}

static int not_later(struct timespec a, struct timespec b)	/* b <= a */
{
	return b.tv_sec < a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec <= a.tv_nsec);
}

/*
 * The inodes an op changes: the directory (roles[ROLE_DIR]) and/or the file
 * it names as file_before before the op and file_after after it (roles[ROLE_FILE]).
 * Their ctimes are taken before and after fn(a, b); fn returns 0, or the errno of an
 * unsupported op (which is then not tried again).
 */
static void observe(int op, const int roles[ROLE_NR], const char *file_before,
		    const char *file_after, int (*fn)(const char *, const char *),
		    const char *a, const char *b)
{
	struct timespec before[ROLE_NR], after[ROLE_NR];
	unsigned long long ino[ROLE_NR] = { 0, 0 };
	int r, e;

	if (st.unsupported[op])
		return;
	for (r = 0; r < ROLE_NR; r++)
		if (roles[r])
			before[r] = ctime_of(r == ROLE_DIR ? "" : file_before, &ino[r]);
	e = fn(a, b);
	if (e) {
		st.unsupported[op] = strerror(e);
		return;
	}
	st.done[op]++;
	for (r = 0; r < ROLE_NR; r++) {
		if (!roles[r])
			continue;
		after[r] = ctime_of(r == ROLE_DIR ? "" : file_after, NULL);
		if (!not_later(before[r], after[r]))
			continue;
		st.not_later[op][r]++;
		if (st.nbreaks < MAX_BREAKS)
			st.breaks[st.nbreaks] = (struct brk){ op, r, ino[r], before[r], after[r] };
		st.nbreaks++;
	}
}

/* The ops: names a and b in the directory (b unused by some); 0, or die() on failure. */
static int do_create(const char *a, const char *b)
{
	int fd = openat(dirfd_, a, O_CREAT | O_EXCL | O_WRONLY, 0644);

	(void)b;
	if (fd < 0)
		die("cannot create", a);
	close(fd);
	return 0;
}

static int do_unlink(const char *a, const char *b)
{
	(void)b;
	if (unlinkat(dirfd_, a, 0))
		die("cannot unlink", a);
	return 0;
}

static int do_link(const char *a, const char *b)
{
	if (linkat(dirfd_, a, dirfd_, b, 0))
		die("cannot link to", b);
	return 0;
}

static int do_rename(const char *a, const char *b)
{
	if (renameat(dirfd_, a, dirfd_, b))
		die("cannot rename to", b);
	return 0;
}

static mode_t mode = 0600;
static int do_chmod(const char *a, const char *b)
{
	(void)a;
	(void)b;
	mode = mode == 0600 ? 0644 : 0600;
	if (fchmodat(dirfd_, "f", mode, 0))
		die("cannot chmod", "f");
	return 0;
}

static int do_write(const char *a, const char *b)
{
	(void)a;
	(void)b;
	int fd = openat(dirfd_, "f", O_WRONLY | O_APPEND);

	if (fd < 0 || write(fd, "x", 1) != 1)
		die("cannot write", "f");
	close(fd);
	return 0;
}

static unsigned long xattr_seq;
static int do_setxattr(const char *a, const char *b)
{
	char val[32];
	int fd = openat(dirfd_, "f", O_RDONLY);
	int n = snprintf(val, sizeof(val), "%lu", ++xattr_seq);

	(void)a;
	(void)b;
	if (fd < 0)
		die("cannot open", "f");
	if (fsetxattr(fd, "user.mgobserve", val, (size_t)n, 0)) {
		int e = errno;

		close(fd);
		if (e == ENOTSUP || e == EOPNOTSUPP)
			return e;
		errno = e;
		die("cannot setxattr", "f");
	}
	close(fd);
	return 0;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);	/* bytes above ASCII as code points: a test's own paths */
		else
			putchar(c);
	}
	putchar('"');
}

int main(int argc, char **argv)
{
	int want[OP_NR], c, i, pause = 0;
	long n = 100, it;
	unsigned long long dir_ino, file_ino = 0;
	unsigned long total = 0;
	struct stat ds;
	char *ops = NULL;

	for (i = 0; i < OP_NR; i++)
		want[i] = 1;
	while ((c = getopt(argc, argv, "n:o:p")) != -1) {
		switch (c) {
		case 'n': {
			char *end;

			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || *end || n < 1) {
				fprintf(stderr, "mgobserve: -n %s: not a positive count\n", optarg);
				return 2;
			}
			break;
		}
		case 'o':
			ops = optarg;
			break;
		case 'p':
			pause = 1;
			break;
		default:
			fprintf(stderr, "usage: mgobserve [-n N] [-o OPS] [-p] DIR\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: mgobserve [-n N] [-o OPS] [-p] DIR\n");
		return 2;
	}
	if (ops) {
		char *tok, *save = NULL;

		for (i = 0; i < OP_NR; i++)
			want[i] = 0;
		for (tok = strtok_r(ops, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			for (i = 0; i < OP_NR && strcmp(tok, op_names[i]); i++)
				;
			if (i == OP_NR) {
				fprintf(stderr, "mgobserve: -o: unknown op '%s'\n", tok);
				return 2;
			}
			want[i] = 1;
		}
	}
	dirpath = argv[optind];
	if (mkdir(dirpath, 0755) && errno != EEXIST)
		die("cannot make", NULL);
	dirfd_ = open(dirpath, O_RDONLY | O_DIRECTORY);
	if (dirfd_ < 0 || fstat(dirfd_, &ds))
		die("cannot open", NULL);
	dir_ino = (unsigned long long)ds.st_ino;

	for (it = 0; it < n; it++) {
		static const int dir[ROLE_NR] = { 1, 0 }, file[ROLE_NR] = { 0, 1 },
				 both[ROLE_NR] = { 1, 1 };

		/* every op done is observed, whichever sequences -o chose */
		observe(OP_CREATE, dir, NULL, NULL, do_create, "f", NULL);
		ctime_of("f", &file_ino);
		if (want[OP_LINK]) {
			observe(OP_LINK, both, "f", "f", do_link, "f", "g");
			observe(OP_UNLINK, both, "f", "f", do_unlink, "g", NULL);
		}
		if (want[OP_UNLINK]) {
			/* a name made and removed with its inode never queried (fs/libfs.c
			 * __simple_unlink() copies that inode's fresh ctime onto the directory) */
			observe(OP_CREATE, dir, NULL, NULL, do_create, "t", NULL);
			observe(OP_UNLINK, dir, NULL, NULL, do_unlink, "t", NULL);
		}
		if (want[OP_RENAME]) {
			observe(OP_RENAME, both, "f", "h", do_rename, "f", "h");
			observe(OP_RENAME, both, "h", "f", do_rename, "h", "f");
		}
		if (want[OP_CHMOD])
			observe(OP_CHMOD, file, "f", "f", do_chmod, "f", NULL);
		if (want[OP_WRITE])
			observe(OP_WRITE, file, "f", "f", do_write, "f", NULL);
		if (want[OP_SETXATTR])
			observe(OP_SETXATTR, file, "f", "f", do_setxattr, "f", NULL);
		/* the file's last name: the directory only (no name is left to stat the file by) */
		observe(OP_UNLINK, dir, NULL, NULL, do_unlink, "f", NULL);
		if (pause)
			nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
	}

	printf("{\"type\":\"observer\",\"dir\":");
	json_str(dirpath);
	printf(",\"pid\":%d,\"dir_ino\":%llu,\"file_ino_last\":%llu,\"dev\":\"%u:%u\","
	       "\"iterations\":%ld,\"ops\":{", (int)getpid(), dir_ino, file_ino, major(ds.st_dev),
	       minor(ds.st_dev), n);
	for (i = 0, c = 0; i < OP_NR; i++) {
		if (!want[i] && i != OP_CREATE && i != OP_UNLINK)
			continue;
		printf("%s\"%s\":{\"done\":%lu,\"unsupported\":", c++ ? "," : "", op_names[i],
		       st.done[i]);
		if (st.unsupported[i])
			json_str(st.unsupported[i]);
		else
			printf("null");
		printf(",\"not_later\":{\"dir\":%lu,\"file\":%lu}}", st.not_later[i][ROLE_DIR],
		       st.not_later[i][ROLE_FILE]);
		total += st.not_later[i][ROLE_DIR] + st.not_later[i][ROLE_FILE];
	}
	printf("},\"stats\":%lu,\"not_later_total\":%lu,\"breaks\":[", st.stats, total);
	for (unsigned long k = 0; k < st.nbreaks && k < MAX_BREAKS; k++) {
		const struct brk *b = &st.breaks[k];

		printf("%s{\"op\":\"%s\",\"role\":\"%s\",\"ino\":%llu,\"before\":[%lld,%ld],"
		       "\"after\":[%lld,%ld]}", k ? "," : "", op_names[b->op], role_names[b->role],
		       b->ino, (long long)b->before.tv_sec, b->before.tv_nsec,
		       (long long)b->after.tv_sec, b->after.tv_nsec);
	}
	printf("]}\n");
	(void)rmdir(dirpath);	/* left when it holds anything else: the caller's */
	return ferror(stdout) ? 1 : 0;
}
