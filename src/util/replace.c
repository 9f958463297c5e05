// SPDX-License-Identifier: GPL-2.0
/* replace.c - a report file replaced whole or not at all (replace.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "replace.h"

/* The path written in place, truncated, as before temporary files: a descriptor or -errno. */
static int open_direct(struct mg_replace *rp, const char *path)
{
	int fd;

	rp->direct = true;
	rp->tmp[0] = 0;
	snprintf(rp->target, sizeof(rp->target), "%s", path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	return fd < 0 ? -errno : fd;
}

/* The temporary file's owner and mode: the replaced file's (st, or NULL: a new file), or mode. */
static int set_mode(int fd, const struct stat *st, int mode)
{
	mode_t mask;

	/* root replacing another user's file gives it back to its owner; else it is ours */
	if (st && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(fd, st->st_uid, st->st_gid))
		errno = 0;
	if (mode == MG_REPLACE_MODE_KEEP && st) {
		mode = (int)(st->st_mode & 07777);
	} else if (mode == MG_REPLACE_MODE_KEEP) {
		mask = umask(0);
		umask(mask);
		mode = (int)(0666 & ~mask);
	}
	return fchmod(fd, (mode_t)mode) ? -errno : 0;
}

int mg_replace_open(struct mg_replace *rp, const char *path, int mode)
{
	char dbuf[PATH_MAX], bbuf[PATH_MAX];
	struct stat st, lst;
	size_t n = strlen(path);
	bool exists;
	int fd, e;

	rp->direct = false;
	rp->tmp[0] = 0;
	exists = !stat(path, &st);
	/* not a regular file, a dangling symlink, a path ending in '/', one stat() cannot
	 * reach (the open names why): written in place, as they always were */
	if ((exists && !S_ISREG(st.st_mode)) || (!exists && errno != ENOENT) || !n ||
	    path[n - 1] == '/' || n >= sizeof(dbuf))
		return open_direct(rp, path);
	snprintf(rp->target, sizeof(rp->target), "%s", path);
	if (!lstat(path, &lst) && S_ISLNK(lst.st_mode)) {
		/* written through: the target is replaced, the symlink stays */
		if (!exists || !realpath(path, rp->target))
			return open_direct(rp, path);
	}
	snprintf(dbuf, sizeof(dbuf), "%s", rp->target);
	snprintf(bbuf, sizeof(bbuf), "%s", rp->target);
	/* hidden, and ending in neither .prom nor .json: no collector reads it */
	if (snprintf(rp->tmp, sizeof(rp->tmp), "%s/.%s.XXXXXX", dirname(dbuf), basename(bbuf)) >=
	    (int)sizeof(rp->tmp)) {
		rp->tmp[0] = 0;
		return -ENAMETOOLONG;
	}
	fd = mkostemp(rp->tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		rp->tmp[0] = 0;
		/* a file the user may write in a directory they may not: in place, as before */
		if (exists && (e == EACCES || e == EPERM) && !access(path, W_OK) && !rp->atomic)
			return open_direct(rp, path);
		return -e;
	}
	if ((e = set_mode(fd, exists ? &st : NULL, mode))) {
		close(fd);
		mg_replace_finish(rp, e);
		return e;
	}
	return fd;
}

int mg_replace_sync(struct mg_replace *rp, int fd)
{
	if (rp->direct || !rp->tmp[0])
		return 0;
	return fsync(fd) ? -errno : 0;
}

int mg_replace_finish(struct mg_replace *rp, int err)
{
	if (rp->direct || !rp->tmp[0])
		return err;
	if (!err && rename(rp->tmp, rp->target))
		err = -errno;
	if (err)
		unlink(rp->tmp);
	rp->tmp[0] = 0;
	return err;
}

FILE *mg_replace_fopen(struct mg_replace *rp, const char *path, int mode)
{
	int fd = mg_replace_open(rp, path, mode), e;
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	if (!(f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		mg_replace_finish(rp, -e);
		errno = e;
	}
	return f;
}

int mg_replace_fclose(struct mg_replace *rp, FILE *f, int err)
{
	int e;

	/* the failed write's own errno (ENOSPC, EDQUOT...): the writer cleared errno first */
	if ((fflush(f) || ferror(f)) && !err)
		err = -(errno ? errno : EIO);
	if (!err && (e = mg_replace_sync(rp, fileno(f))))
		err = e;
	/* fclose closes the descriptor whatever it returns */
	if (fclose(f) && !err)
		err = -errno;
	return mg_replace_finish(rp, err);
}
