// SPDX-License-Identifier: GPL-2.0
/*
 * conform_ops_attr.c - conform's operations on f's attributes: chmod, fchmod, chown
 * (the same owner, another one), setxattr, removexattr, a POSIX ACL, utimensat
 * (UTIME_NOW, explicit times), futimens, FS_IOC_SETFLAGS, FS_IOC_FSSETXATTR, and a
 * write to a named FIFO. Each sets another value than the last run's. Returns as
 * cf_op_fn.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "conform_int.h"

/* f queried (by name), its descriptor opened with flags into *fd (-1: none wanted): 0 or as
 * cf_op_fn */
static int query(struct cf_ctx *c, int flags, int *fd)
{
	*fd = -1;
	if (flags >= 0 && (*fd = openat(c->dfd, CF_FILE_NAME, flags | O_CLOEXEC)) < 0)
		return cf_fail(c, "open f");
	if (cf_before(c, CF_FILE, c->dfd, CF_FILE_NAME)) {
		if (*fd >= 0)
			close(*fd);
		return -1;
	}
	cf_go(c);
	return 0;
}

/* the op's result ret: f stat()ed after (when it succeeded), fd closed */
static int after(struct cf_ctx *c, int fd, int ret)
{
	if (!ret && cf_after(c, CF_FILE, c->dfd, CF_FILE_NAME))
		ret = -1;
	if (fd >= 0)
		close(fd);
	return ret;
}

/* mode 0644 or 0600, the other of the last run's */
static mode_t mode_of(const struct cf_ctx *c)
{
	return c->iter % 2 ? 0644 : 0600;
}

int cf_op_chmod(struct cf_ctx *c)
{
	int fd, e = query(c, -1, &fd);

	if (e)
		return e;
	return after(c, fd, fchmodat(c->dfd, CF_FILE_NAME, mode_of(c), 0) ? cf_fail(c, "chmod") : 0);
}

int cf_op_fchmod(struct cf_ctx *c)
{
	int fd, e = query(c, O_RDONLY, &fd);

	if (e)
		return e;
	return after(c, fd, fchmod(fd, mode_of(c) ^ 0040) ? cf_fail(c, "fchmod") : 0);
}

int cf_op_chown_same(struct cf_ctx *c)
{
	struct stat st;
	int fd, e;

	if (fstatat(c->dfd, CF_FILE_NAME, &st, 0))
		return cf_fail(c, "stat f");
	if ((e = query(c, -1, &fd)))
		return e;
	return after(c, fd, fchownat(c->dfd, CF_FILE_NAME, st.st_uid, st.st_gid, 0) ?
		     cf_fail(c, "chown") : 0);
}

int cf_op_chown_other(struct cf_ctx *c)
{
	struct stat st;
	int fd, e;

	if (fstatat(c->dfd, CF_FILE_NAME, &st, 0))
		return cf_fail(c, "stat f");
	if ((e = query(c, -1, &fd)))
		return e;
	/* another owner and group: 0 and 1 in turn (EPERM without CAP_CHOWN: unsupported) */
	return after(c, fd, fchownat(c->dfd, CF_FILE_NAME, st.st_uid ? 0 : 1, st.st_gid ? 0 : 1, 0) ?
		     cf_fail(c, "chown") : 0);
}

int cf_op_setxattr(struct cf_ctx *c)
{
	char v = (char)('a' + c->iter % 26);
	int fd, e = query(c, O_RDONLY, &fd);

	if (e)
		return e;
	return after(c, fd, fsetxattr(fd, "user.mgtrace", &v, 1, 0) ? cf_fail(c, "setxattr") : 0);
}

int cf_op_removexattr(struct cf_ctx *c)
{
	int fd = openat(c->dfd, CF_FILE_NAME, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return cf_fail(c, "open f");
	if (fsetxattr(fd, "user.mgtrace-rm", "x", 1, 0)) {
		e = cf_fail(c, "setxattr");
		close(fd);
		return e;
	}
	close(fd);
	if ((e = query(c, O_RDONLY, &fd)))
		return e;
	return after(c, fd, fremovexattr(fd, "user.mgtrace-rm") ? cf_fail(c, "removexattr") : 0);
}

/* The kernel's POSIX ACL xattr (include/uapi/linux/posix_acl_xattr.h), as acl(5) sets it. */
struct acl_entry {
	uint16_t tag, perm;
	uint32_t id;
};

int cf_op_acl(struct cf_ctx *c)
{
	/* user::rw- user:1:r-- or rw- in turn, group::r-- mask::rw- other::r-- */
	struct {
		uint32_t version;
		struct acl_entry e[5];
	} a = { 2, { { 0x01, 6, ~0u }, { 0x02, c->iter % 2 ? 6 : 4, 1 }, { 0x04, 4, ~0u },
		     { 0x10, 6, ~0u }, { 0x20, 4, ~0u } } };
	int fd, e = query(c, O_RDONLY, &fd);

	if (e)
		return e;
	return after(c, fd, fsetxattr(fd, "system.posix_acl_access", &a, sizeof(a), 0) ?
		     cf_fail(c, "set POSIX ACL") : 0);
}

int cf_op_utimens_now(struct cf_ctx *c)
{
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
	int fd, e = query(c, -1, &fd);

	if (e)
		return e;
	return after(c, fd, utimensat(c->dfd, CF_FILE_NAME, ts, 0) ? cf_fail(c, "utimensat") : 0);
}

int cf_op_utimens_times(struct cf_ctx *c)
{
	struct timespec ts[2] = { { 1000000 + c->iter, 1 }, { 2000000 + c->iter, 2 } };
	int fd, e = query(c, -1, &fd);

	if (e)
		return e;
	return after(c, fd, utimensat(c->dfd, CF_FILE_NAME, ts, 0) ? cf_fail(c, "utimensat") : 0);
}

int cf_op_futimens(struct cf_ctx *c)
{
	struct timespec ts[2] = { { 3000000 + c->iter, 3 }, { 4000000 + c->iter, 4 } };
	int fd, e = query(c, O_RDONLY, &fd);

	if (e)
		return e;
	return after(c, fd, futimens(fd, ts) ? cf_fail(c, "futimens") : 0);
}

int cf_op_setflags(struct cf_ctx *c)
{
	int fd = openat(c->dfd, CF_FILE_NAME, O_RDONLY | O_CLOEXEC), flags, e;

	if (fd < 0)
		return cf_fail(c, "open f");
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
		e = cf_fail(c, "FS_IOC_GETFLAGS");
		close(fd);
		return e;
	}
	close(fd);
	if ((e = query(c, O_RDONLY, &fd)))
		return e;
	flags ^= FS_NODUMP_FL;		/* the other of the last run's */
	return after(c, fd, ioctl(fd, FS_IOC_SETFLAGS, &flags) ? cf_fail(c, "FS_IOC_SETFLAGS") : 0);
}

int cf_op_fssetxattr(struct cf_ctx *c)
{
	int fd = openat(c->dfd, CF_FILE_NAME, O_RDONLY | O_CLOEXEC), e;
	struct fsxattr x;

	if (fd < 0)
		return cf_fail(c, "open f");
	if (ioctl(fd, FS_IOC_FSGETXATTR, &x)) {
		e = cf_fail(c, "FS_IOC_FSGETXATTR");
		close(fd);
		return e;
	}
	close(fd);
	if ((e = query(c, O_RDONLY, &fd)))
		return e;
	x.fsx_xflags ^= FS_XFLAG_NODUMP;
	return after(c, fd, ioctl(fd, FS_IOC_FSSETXATTR, &x) ? cf_fail(c, "FS_IOC_FSSETXATTR") : 0);
}

int cf_op_fifo_write(struct cf_ctx *c)
{
	char b = (char)('a' + c->iter % 26);
	int fd, e;

	if (mknodat(c->dfd, "q", S_IFIFO | 0600, 0))
		return cf_fail(c, "mkfifo q");
	/* read and write ends in one descriptor (Linux fifo(7)): the write never blocks */
	fd = openat(c->dfd, "q", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || cf_before(c, CF_FILE, c->dfd, "q")) {
		e = fd < 0 ? cf_fail(c, "open q") : -1;
		goto out;
	}
	cf_go(c);
	e = write(fd, &b, 1) == 1 ? 0 : cf_fail(c, "write q");
	if (!e && cf_after(c, CF_FILE, c->dfd, "q"))
		e = -1;
	if (read(fd, &b, 1) != 1 && !e)
		e = cf_fail(c, "read q");
out:
	if (fd >= 0)
		close(fd);
	unlinkat(c->dfd, "q", 0);
	return e;
}
