// SPDX-License-Identifier: GPL-2.0
/*
 * conform_ops_ns.c - conform's operations on names: create, mkdir, rmdir, mknod,
 * symlink, link, unlink, the renames, O_TMPFILE then linkat. Each makes what it
 * needs, queries the inodes it changes (cf_before()), makes its change after cf_go(),
 * stat()s them again (cf_after()) and removes what it made. Returns as cf_op_fn.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "conform_int.h"

/* A new empty file name in dirfd. 0 or -1 with why set. */
static int mkfile(struct cf_ctx *c, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

	if (fd < 0)
		return cf_fail(c, name);
	close(fd);
	return 0;
}

int cf_op_create(struct cf_ctx *c)
{
	int fd;

	if (cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	cf_go(c);
	fd = openat(c->dfd, "n", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return cf_fail(c, "create n");
	close(fd);
	if (cf_after(c, CF_DIR, c->dfd, ""))
		return -1;
	return unlinkat(c->dfd, "n", 0) ? cf_fail(c, "unlink n") : 0;
}

int cf_op_mkdir(struct cf_ctx *c)
{
	if (cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	cf_go(c);
	if (mkdirat(c->dfd, "m", 0755))
		return cf_fail(c, "mkdir m");
	if (cf_after(c, CF_DIR, c->dfd, ""))
		return -1;
	return unlinkat(c->dfd, "m", AT_REMOVEDIR) ? cf_fail(c, "rmdir m") : 0;
}

int cf_op_rmdir(struct cf_ctx *c)
{
	if (mkdirat(c->dfd, "m", 0755))
		return cf_fail(c, "mkdir m");
	if (cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	cf_go(c);
	if (unlinkat(c->dfd, "m", AT_REMOVEDIR))
		return cf_fail(c, "rmdir m");
	return cf_after(c, CF_DIR, c->dfd, "");
}

int cf_op_mknod(struct cf_ctx *c)
{
	if (cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	cf_go(c);
	if (mknodat(c->dfd, "p", S_IFIFO | 0644, 0))
		return cf_fail(c, "mknod p");
	if (cf_after(c, CF_DIR, c->dfd, ""))
		return -1;
	return unlinkat(c->dfd, "p", 0) ? cf_fail(c, "unlink p") : 0;
}

int cf_op_symlink(struct cf_ctx *c)
{
	if (cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	cf_go(c);
	if (symlinkat(CF_FILE_NAME, c->dfd, "s"))
		return cf_fail(c, "symlink s");
	if (cf_after(c, CF_DIR, c->dfd, ""))
		return -1;
	return unlinkat(c->dfd, "s", 0) ? cf_fail(c, "unlink s") : 0;
}

int cf_op_link(struct cf_ctx *c)
{
	/* a fresh file: nothing queried it (a queried child hides tmpfs's directory stamp) */
	if (mkfile(c, c->dfd, "c"))
		return -1;
	if (cf_before(c, CF_FILE, c->dfd, "c") || cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	cf_go(c);
	if (linkat(c->dfd, "c", c->dfd, "g", 0))
		return cf_fail(c, "link c g");
	if (cf_after(c, CF_FILE, c->dfd, "c") || cf_after(c, CF_DIR, c->dfd, ""))
		return -1;
	return unlinkat(c->dfd, "g", 0) || unlinkat(c->dfd, "c", 0) ? cf_fail(c, "unlink g c") : 0;
}

int cf_op_unlink(struct cf_ctx *c)
{
	/* a fresh file c with a second name g: c keeps a link, so its ctime can be stat()ed */
	if (mkfile(c, c->dfd, "c"))
		return -1;
	if (linkat(c->dfd, "c", c->dfd, "g", 0))
		return cf_fail(c, "link c g");
	if (cf_before(c, CF_FILE, c->dfd, "c") || cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	cf_go(c);
	if (unlinkat(c->dfd, "g", 0))
		return cf_fail(c, "unlink g");
	if (cf_after(c, CF_FILE, c->dfd, "c") || cf_after(c, CF_DIR, c->dfd, ""))
		return -1;
	return unlinkat(c->dfd, "c", 0) ? cf_fail(c, "unlink c") : 0;
}

/* renameat2() of a in fa to b in fb with flags, between the queries and the stats */
static int ren(struct cf_ctx *c, int fa, const char *a, int fb, const char *b, unsigned int fl)
{
	cf_go(c);
	if (renameat2(fa, a, fb, b, fl))
		return cf_fail(c, "rename");
	return 0;
}

int cf_op_rename(struct cf_ctx *c)
{
	int e;

	if (mkfile(c, c->dfd, "r"))
		return -1;
	if (cf_before(c, CF_DIR, c->dfd, "") || cf_before(c, CF_FILE, c->dfd, "r"))
		return -1;
	if ((e = ren(c, c->dfd, "r", c->dfd, "r2", 0)))
		return e;
	if (cf_after(c, CF_DIR, c->dfd, "") || cf_after(c, CF_FILE, c->dfd, "r2"))
		return -1;
	return unlinkat(c->dfd, "r2", 0) ? cf_fail(c, "unlink r2") : 0;
}

int cf_op_rename_across(struct cf_ctx *c)
{
	int e;

	if (mkfile(c, c->dfd, "r"))
		return -1;
	if (cf_before(c, CF_DIR, c->dfd, "") || cf_before(c, CF_DIR2, c->d2fd, "") ||
	    cf_before(c, CF_FILE, c->dfd, "r"))
		return -1;
	if ((e = ren(c, c->dfd, "r", c->d2fd, "r", 0)))
		return e;
	if (cf_after(c, CF_DIR, c->dfd, "") || cf_after(c, CF_DIR2, c->d2fd, "") ||
	    cf_after(c, CF_FILE, c->d2fd, "r"))
		return -1;
	return unlinkat(c->d2fd, "r", 0) ? cf_fail(c, "unlink d2/r") : 0;
}

int cf_op_rename_over(struct cf_ctx *c)
{
	int e;

	/* t is replaced; its second name k keeps it, so its ctime can be stat()ed after */
	if (mkfile(c, c->dfd, "r") || mkfile(c, c->dfd, "t"))
		return -1;
	if (linkat(c->dfd, "t", c->dfd, "k", 0))
		return cf_fail(c, "link t k");
	if (cf_before(c, CF_DIR, c->dfd, "") || cf_before(c, CF_REPLACED, c->dfd, "t") ||
	    cf_before(c, CF_FILE, c->dfd, "r"))
		return -1;
	if ((e = ren(c, c->dfd, "r", c->dfd, "t", 0)))
		return e;
	if (cf_after(c, CF_DIR, c->dfd, "") || cf_after(c, CF_REPLACED, c->dfd, "k") ||
	    cf_after(c, CF_FILE, c->dfd, "t"))
		return -1;
	return unlinkat(c->dfd, "t", 0) || unlinkat(c->dfd, "k", 0) ? cf_fail(c, "unlink t k") : 0;
}

int cf_op_rename_exchange(struct cf_ctx *c)
{
	int e;

	if (mkfile(c, c->dfd, "r") || mkfile(c, c->dfd, "t"))
		return -1;
	if (cf_before(c, CF_DIR, c->dfd, "") || cf_before(c, CF_FILE, c->dfd, "r") ||
	    cf_before(c, CF_OTHER, c->dfd, "t"))
		return -1;
	e = ren(c, c->dfd, "r", c->dfd, "t", RENAME_EXCHANGE);
	if (!e && (cf_after(c, CF_DIR, c->dfd, "") || cf_after(c, CF_FILE, c->dfd, "t") ||
		   cf_after(c, CF_OTHER, c->dfd, "r")))
		e = -1;
	unlinkat(c->dfd, "r", 0);
	unlinkat(c->dfd, "t", 0);
	return e;
}

/* r in the work directory and t in d2 exchanged: both directories' entries change */
int cf_op_rename_exchange_across(struct cf_ctx *c)
{
	int e;

	if (mkfile(c, c->dfd, "r") || mkfile(c, c->d2fd, "t"))
		return -1;
	if (cf_before(c, CF_DIR, c->dfd, "") || cf_before(c, CF_DIR2, c->d2fd, "") ||
	    cf_before(c, CF_FILE, c->dfd, "r") || cf_before(c, CF_OTHER, c->d2fd, "t"))
		return -1;
	e = ren(c, c->dfd, "r", c->d2fd, "t", RENAME_EXCHANGE);
	if (!e && (cf_after(c, CF_DIR, c->dfd, "") || cf_after(c, CF_DIR2, c->d2fd, "") ||
		   cf_after(c, CF_FILE, c->d2fd, "t") || cf_after(c, CF_OTHER, c->dfd, "r")))
		e = -1;
	unlinkat(c->dfd, "r", 0);
	unlinkat(c->d2fd, "t", 0);
	return e;
}

int cf_op_rename_noreplace(struct cf_ctx *c)
{
	int e;

	if (mkfile(c, c->dfd, "r"))
		return -1;
	if (cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	e = ren(c, c->dfd, "r", c->dfd, "r2", RENAME_NOREPLACE);
	if (!e && cf_after(c, CF_DIR, c->dfd, ""))
		e = -1;
	unlinkat(c->dfd, "r", 0);
	unlinkat(c->dfd, "r2", 0);
	return e;
}

int cf_op_rename_whiteout(struct cf_ctx *c)
{
	int e;

	if (mkfile(c, c->dfd, "r"))
		return -1;
	if (cf_before(c, CF_DIR, c->dfd, ""))
		return -1;
	e = ren(c, c->dfd, "r", c->dfd, "r2", RENAME_WHITEOUT);
	if (!e && cf_after(c, CF_DIR, c->dfd, ""))
		e = -1;
	unlinkat(c->dfd, "r", 0);	/* the whiteout, a character device 0:0 */
	unlinkat(c->dfd, "r2", 0);
	return e;
}

int cf_op_tmpfile_linkat(struct cf_ctx *c)
{
	char path[64];
	int fd, e = 0;

	fd = openat(c->dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return cf_fail(c, "open O_TMPFILE");
	/* the unnamed inode is queried through its descriptor, as a stat() would */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (cf_before(c, CF_DIR, c->dfd, "") || cf_before(c, CF_FILE, AT_FDCWD, path)) {
		close(fd);
		return -1;
	}
	cf_go(c);
	if (linkat(fd, "", c->dfd, "o", AT_EMPTY_PATH))
		e = cf_fail(c, "linkat O_TMPFILE");
	close(fd);
	if (!e && (cf_after(c, CF_DIR, c->dfd, "") || cf_after(c, CF_FILE, c->dfd, "o")))
		e = -1;
	unlinkat(c->dfd, "o", 0);
	return e;
}
