/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replace.h - a report file replaced whole or not at all: written to a temporary file
 * beside it (".NAME.XXXXXX" in the same directory, so that the rename is atomic), which
 * is renamed over it once every write, fsync() and close() succeeded. A full disk or
 * any failed write leaves the earlier file whole and no temporary file behind.
 * Used by -o of a report written once (output.c), --junit (check) and --prometheus
 * (prom.c).
 */
#ifndef MG_REPLACE_H
#define MG_REPLACE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

/* mg_replace_open()'s mode: the replaced file's permissions, or 0666 & ~umask when new */
#define MG_REPLACE_MODE_KEEP (-1)

/* One file being replaced. */
struct mg_replace {
	char target[PATH_MAX];	/* the file replaced: the path, a symlink followed to its target */
	char tmp[PATH_MAX];	/* the temporary file written; "" once renamed or removed */
	bool direct;		/* written in place (truncated), not replaced: see mg_replace_open() */
	bool atomic;		/* set by the caller: never written in place where the directory
				 * refuses the temporary file (a file read at any time, as the
				 * Prometheus textfile collector reads --prometheus FILE) */
};

/*
 * Open path for writing whole: a new temporary file beside it (mode as said, owner kept
 * when root replaces another user's file). Written in place instead, opened O_TRUNC as
 * before (rp->direct): a path that exists and is not a regular file (/dev/null, a FIFO, a
 * terminal: a directory fails there with EISDIR), a dangling symlink, and a regular file
 * whose directory refuses a new file (EACCES, EPERM) while the file itself takes writes
 * (not with rp->atomic, set before the call: then that refusal is the error).
 * Returns a descriptor (O_CLOEXEC), or -errno (ENOENT: no such directory; EACCES, EROFS...).
 */
int mg_replace_open(struct mg_replace *rp, const char *path, int mode);

/*
 * After the last write to fd and before it is closed: fsync() it (nothing for a file
 * written in place). Returns 0 or -errno.
 */
int mg_replace_sync(struct mg_replace *rp, int fd);

/*
 * After fd was closed: when err is 0, rename the temporary file over the target; else,
 * or when the rename fails, remove it. Returns 0 or -errno (the rename's), never
 * leaving a temporary file behind. Nothing for a file written in place.
 */
int mg_replace_finish(struct mg_replace *rp, int err);

/* mg_replace_open() as a stdio stream ("w"), or NULL with errno set. */
FILE *mg_replace_fopen(struct mg_replace *rp, const char *path, int mode);

/*
 * Close a stream of mg_replace_fopen(): err (0, or -errno of its writer), else the
 * first of fflush(), the stream's error flag (EIO when errno says nothing), fsync()
 * and fclose(), decides; then mg_replace_finish(). Returns 0 or -errno.
 */
int mg_replace_fclose(struct mg_replace *rp, FILE *f, int err);

#endif
