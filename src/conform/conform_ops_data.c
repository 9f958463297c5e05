// SPDX-License-Identifier: GPL-2.0
/*
 * conform_ops_data.c - conform's operations on a file's data and size: the writes
 * (write, pwrite, writev, O_APPEND, O_DIRECT, a store through a shared mapping then
 * msync), truncate, ftruncate, O_TRUNC and fallocate's modes, on the work directory's
 * file f. Each changes something real (another byte, another size), queried and
 * stat()ed around it as conform_ops_ns.c's. Returns as cf_op_fn.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "conform_int.h"

/* f opened with flags into *fd, and queried: 0, or a cf_op_fn's failure (fd closed) */
static int open_query(struct cf_ctx *c, int flags, int *fd)
{
	*fd = openat(c->dfd, CF_FILE_NAME, flags | O_CLOEXEC);
	if (*fd < 0)
		return cf_fail(c, "open f");
	if (cf_before(c, CF_FILE, c->dfd, CF_FILE_NAME)) {
		close(*fd);
		return -1;
	}
	return 0;
}

/* the end of a data op: ret (0, an unsupported errno or -1), f stat()ed after, fd closed */
static int done(struct cf_ctx *c, int fd, int ret)
{
	if (!ret && cf_after(c, CF_FILE, c->dfd, CF_FILE_NAME))
		ret = -1;
	close(fd);
	return ret;
}

/* a byte that differs from the last run's */
static char byte(const struct cf_ctx *c)
{
	return (char)('a' + c->iter % 26);
}

int cf_op_write(struct cf_ctx *c)
{
	char b = byte(c);
	int fd, e = open_query(c, O_WRONLY, &fd);

	if (e)
		return e;
	cf_go(c);
	return done(c, fd, write(fd, &b, 1) == 1 ? 0 : cf_fail(c, "write"));
}

int cf_op_pwrite(struct cf_ctx *c)
{
	char b = byte(c);
	int fd, e = open_query(c, O_WRONLY, &fd);

	if (e)
		return e;
	cf_go(c);
	return done(c, fd, pwrite(fd, &b, 1, 1) == 1 ? 0 : cf_fail(c, "pwrite"));
}

int cf_op_writev(struct cf_ctx *c)
{
	char a = byte(c), b = 'z';
	struct iovec iov[2] = { { &a, 1 }, { &b, 1 } };
	int fd, e = open_query(c, O_WRONLY, &fd);

	if (e)
		return e;
	cf_go(c);
	return done(c, fd, writev(fd, iov, 2) == 2 ? 0 : cf_fail(c, "writev"));
}

int cf_op_append(struct cf_ctx *c)
{
	char b = byte(c);
	int fd, e = open_query(c, O_WRONLY | O_APPEND, &fd);

	if (e)
		return e;
	cf_go(c);
	return done(c, fd, write(fd, &b, 1) == 1 ? 0 : cf_fail(c, "write O_APPEND"));
}

int cf_op_direct(struct cf_ctx *c)
{
	void *buf;
	int fd, ret;

	if (posix_memalign(&buf, 4096, 4096)) {
		errno = ENOMEM;
		return cf_fail(c, "O_DIRECT buffer");
	}
	memset(buf, byte(c), 4096);
	if ((ret = open_query(c, O_WRONLY | O_DIRECT, &fd))) {
		free(buf);
		return ret;
	}
	cf_go(c);
	ret = pwrite(fd, buf, 4096, 0) == 4096 ? 0 : cf_fail(c, "write O_DIRECT");
	free(buf);
	return done(c, fd, ret);
}

int cf_op_mmap_msync(struct cf_ctx *c)
{
	struct stat st;
	char *p;
	int fd = openat(c->dfd, CF_FILE_NAME, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0)
		return cf_fail(c, "open f");
	if (fstat(fd, &st) || (st.st_size < 4096 && ftruncate(fd, 4096))) {
		ret = cf_fail(c, "size f");
		close(fd);
		return ret;
	}
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		ret = cf_fail(c, "mmap f");
		close(fd);
		return ret;
	}
	/* the page is in the mapping before the query: the store below only changes data */
	p[0] = 'x';
	msync(p, 4096, MS_SYNC);
	if (cf_before(c, CF_FILE, c->dfd, CF_FILE_NAME)) {
		munmap(p, 4096);
		close(fd);
		return -1;
	}
	cf_go(c);
	p[0] = byte(c);
	ret = msync(p, 4096, MS_SYNC) ? cf_fail(c, "msync") : 0;
	ret = done(c, fd, ret);
	munmap(p, 4096);
	return ret;
}

/* a size that differs from f's now */
static off_t other_size(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_size == 100 ? 200 : 100;
}

int cf_op_truncate(struct cf_ctx *c)
{
	char path[64];
	int fd, ret = open_query(c, O_RDONLY, &fd);

	if (ret)
		return ret;
	/* truncate() by name (through the directory's descriptor), the descriptor only kept
	 * for the size */
	snprintf(path, sizeof(path), "/proc/self/fd/%d/" CF_FILE_NAME, c->dfd);
	cf_go(c);
	ret = truncate(path, other_size(fd));
	return done(c, fd, ret ? cf_fail(c, "truncate") : 0);
}

int cf_op_ftruncate(struct cf_ctx *c)
{
	int fd, e = open_query(c, O_WRONLY, &fd);

	if (e)
		return e;
	cf_go(c);
	return done(c, fd, ftruncate(fd, other_size(fd)) ? cf_fail(c, "ftruncate") : 0);
}

int cf_op_o_trunc(struct cf_ctx *c)
{
	char b = byte(c);
	int fd = openat(c->dfd, CF_FILE_NAME, O_WRONLY | O_CLOEXEC), tfd;

	/* f not empty, so that O_TRUNC changes its size */
	if (fd < 0 || pwrite(fd, &b, 1, 0) != 1)
		return cf_fail(c, "write f");
	if (cf_before(c, CF_FILE, c->dfd, CF_FILE_NAME)) {
		close(fd);
		return -1;
	}
	cf_go(c);
	tfd = openat(c->dfd, CF_FILE_NAME, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (tfd < 0)
		return done(c, fd, cf_fail(c, "open O_TRUNC"));
	close(tfd);
	return done(c, fd, 0);
}

/* fallocate(mode, off, len) on f, after writing [0, fill) with data when fill > 0 */
static int falloc(struct cf_ctx *c, int mode, off_t off, off_t len, off_t fill)
{
	char buf[4096];
	off_t o;
	int fd = openat(c->dfd, CF_FILE_NAME, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0)
		return cf_fail(c, "open f");
	memset(buf, byte(c), sizeof(buf));
	for (o = 0; o < fill; o += (off_t)sizeof(buf))
		if (pwrite(fd, buf, sizeof(buf), o) != (ssize_t)sizeof(buf)) {
			ret = cf_fail(c, "write f");
			close(fd);
			return ret;
		}
	if (fill && ftruncate(fd, fill)) {
		ret = cf_fail(c, "ftruncate f");
		close(fd);
		return ret;
	}
	if (off < 0)		/* at the end of the file */
		off = lseek(fd, 0, SEEK_END);
	if (cf_before(c, CF_FILE, c->dfd, CF_FILE_NAME)) {
		close(fd);
		return -1;
	}
	cf_go(c);
	return done(c, fd, fallocate(fd, mode, off, len) ? cf_fail(c, "fallocate") : 0);
}

int cf_op_falloc(struct cf_ctx *c)
{
	return falloc(c, 0, -1, 4096, 0);
}

int cf_op_falloc_keep(struct cf_ctx *c)
{
	return falloc(c, FALLOC_FL_KEEP_SIZE, 1 << 20, 4096, 0);
}

int cf_op_falloc_punch(struct cf_ctx *c)
{
	return falloc(c, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096, 8192);
}

int cf_op_falloc_zero(struct cf_ctx *c)
{
	return falloc(c, FALLOC_FL_ZERO_RANGE, 0, 4096, 8192);
}

int cf_op_falloc_collapse(struct cf_ctx *c)
{
	return falloc(c, FALLOC_FL_COLLAPSE_RANGE, 0, 4096, 8192);
}

int cf_op_falloc_insert(struct cf_ctx *c)
{
	return falloc(c, FALLOC_FL_INSERT_RANGE, 0, 4096, 8192);
}
