// SPDX-License-Identifier: GPL-2.0
/*
 * conform_probe.c - the observer's side of each operation: the stat() that queries an
 * inode before it (marking its ctime QUERIED), the mark of its start, the stat() after
 * it, with the kernel judge's hooks; what an unsupported operation returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "conform_int.h"
#include "ident.h"
#include "util.h"

bool cf_unsupported_errno(int e)
{
	return e == EOPNOTSUPP || e == ENOTSUP || e == ENOTTY || e == EINVAL || e == ENOSYS ||
	       e == EPERM || e == EXDEV;
}

int cf_fail(struct cf_ctx *c, const char *what)
{
	int e = errno;

	if (cf_unsupported_errno(e))
		return e;
	snprintf(c->why, sizeof(c->why), "%s: %s", what, strerror(e));
	return -1;
}

/* stat() of name in dirfd ("": dirfd itself; an absolute path: followed) into *st */
static int stat_of(struct cf_ctx *c, int dirfd, const char *name, struct stat *st)
{
	int r;

	if (!*name)
		r = fstat(dirfd, st);
	else
		r = fstatat(dirfd, name, st, name[0] == '/' ? 0 : AT_SYMLINK_NOFOLLOW);
	if (r) {
		snprintf(c->why, sizeof(c->why), "stat %s: %s", *name ? name : ".", strerror(errno));
		return -1;
	}
	return 0;
}

int cf_before(struct cf_ctx *c, enum cf_role r, int dirfd, const char *name)
{
	struct cf_probe *p = &c->probe[r];
	struct stat st;

	if (r != c->only)	/* another role's run: this inode is left unqueried */
		return 0;
	if (stat_of(c, dirfd, name, &st))
		return -1;
	p->used = true;
	p->ino = (uint64_t)st.st_ino;
	if (mg_kdev_from_user(st.st_dev, &p->dev))
		p->dev = 0;
	/* btrfs's subvolume device, overlayfs's own: the device the kernel's events carry */
	if (c->dev_kernel && p->dev == c->dev_stat)
		p->dev = c->dev_kernel;
	p->before = st.st_ctim;
	return 0;
}

void cf_go(struct cf_ctx *c)
{
	/* the judge's work (the ring buffer read, a map pass) before the window opens */
	if (c->hooks && c->hooks->go)
		c->hooks->go(c->hooks->ctx, c);
	c->go_ns = mg_now_ns();
}

int cf_after(struct cf_ctx *c, enum cf_role r, int dirfd, const char *name)
{
	struct cf_probe *p = &c->probe[r];
	struct stat st;

	if (r != c->only)
		return 0;
	if (stat_of(c, dirfd, name, &st))
		return -1;
	p->after = st.st_ctim;
	p->t0_ns = c->go_ns;
	p->t1_ns = mg_now_ns();
	p->updated = -1;
	if (c->hooks && c->hooks->after)
		c->hooks->after(c->hooks->ctx, c, p);
	if ((uint64_t)st.st_ino != p->ino)
		snprintf(c->why, sizeof(c->why), "role %s: inode %llu became %llu", cf_role_name(r),
			 (unsigned long long)p->ino, (unsigned long long)st.st_ino);
	return (uint64_t)st.st_ino != p->ino ? -1 : 0;
}

