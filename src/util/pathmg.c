// SPDX-License-Identifier: GPL-2.0
/*
 * pathmg.c - what trace --path tells about a path that cannot have every event
 * (see pathid.h): a filesystem without multigrain timestamps, asked of the kernel
 * (mgfs.h) on another inode of the same mount, and an inode whose reads and writes
 * change none of its timestamps (a socket, a device).
 *
 * Measured on 6.18 (trace --path): ramfs and devtmpfs (/dev) are not multigrain, and a
 * write or chmod there gives ctime_set events only (inode_set_ctime_to_ts fires for every
 * filesystem), a stat none; /proc gives none. On tmpfs, a directory gets ctime_swap and
 * ctime_set events as entries come and go, a FIFO a ctime_swap per write, while a
 * datagram sent to a socket and a write to a character device give none: only their
 * chmod and stat do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "mgfs.h"
#include "pathid.h"

/* What statx is asked for here: never STATX_CTIME or STATX_MTIME (pathid.c). */
#define PROBE_MASK (STATX_TYPE | STATX_INO | STATX_MNT_ID)

static void add_note(struct mg_ident_set *s, const char *fmt, ...)
{
	size_t n = strlen(s->note);
	va_list ap;

	if (n)
		snprintf(s->note + n, sizeof(s->note) - n, "; ");
	n = strlen(s->note);
	va_start(ap, fmt);
	vsnprintf(s->note + n, sizeof(s->note) - n, fmt, ap);
	va_end(ap);
}

/* getdents64(2)'s record (glibc declares none). */
struct dirent64_rec {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * An entry of the mount's root (not the traced inode, not a symlink, on the same mount)
 * into probe. Read with getdents64(2), not opendir(3): glibc's opendir() fstat()s the
 * directory, which would mark the root's ctime QUERIED.
 */
static int probe_child(const struct mg_ident_set *s, char *probe, size_t plen)
{
	int fd = open(s->mnt_point, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = -ENOENT;
	char buf[8192];
	long n;

	if (fd < 0)
		return -errno;
	while (ret && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n && ret; ) {
			struct dirent64_rec *e = (struct dirent64_rec *)(buf + off);
			struct statx stx;

			off += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (statx(fd, e->d_name, AT_SYMLINK_NOFOLLOW, PROBE_MASK, &stx) ||
			    stx.stx_mnt_id != s->mnt_id || S_ISLNK(stx.stx_mode) ||
			    stx.stx_ino == s->ino)
				continue;
			if (snprintf(probe, plen, "%s/%s", strcmp(s->mnt_point, "/") ? s->mnt_point : "",
				     e->d_name) < (int)plen)
				ret = 0;
		}
	}
	close(fd);
	return ret;
}

int mg_ident_multigrain(const struct mg_ident_set *s, char *probe, size_t plen, char *why,
			size_t len)
{
	struct statx stx;
	int err;

	snprintf(probe, plen, "%s", s->mnt_point);
	if (statx(AT_FDCWD, s->mnt_point, 0, PROBE_MASK, &stx)) {
		err = -errno;
		snprintf(why, len, "cannot statx its mount point %.160s: %s", s->mnt_point,
			 strerror(-err));
		return err;
	}
	if (stx.stx_mnt_id != s->mnt_id) {
		snprintf(why, len, "its mount point %.160s names another mount now (mounted over)",
			 s->mnt_point);
		return -EXDEV;
	}
	/* the path is its mount's root: ask an entry in it, never the traced inode */
	if (stx.stx_ino == s->ino && (err = probe_child(s, probe, plen))) {
		snprintf(why, len, "the path is the root of its mount, which has no other entry to "
			 "stat (a stat of the path itself would mark its ctime QUERIED)%s%s",
			 err == -ENOENT ? "" : ": ", err == -ENOENT ? "" : strerror(-err));
		return err;
	}
	return mg_fs_multigrain(probe, why, len);
}

void mg_ident_notes(struct mg_ident_set *s, const char *path, int mg, const char *why)
{
	const char *fs = s->n ? s->id[0].fstype : "unknown";

	if (mg < 0)
		add_note(s, "whether %s uses multigrain timestamps is not known: %s", fs, why);
	if (!mg)
		add_note(s, "%.160s is on %s, which does not use multigrain timestamps (a getattr there "
			 "fired no timestamp:fill_mg_cmtime): it gets no stat, ctime_swap, ctime_skip "
			 "or floor events, only ctime_set (inode_set_ctime_to_ts) when its ctime is set",
			 path, fs);
	if (s->mode == S_IFSOCK)
		add_note(s, "%.160s is a socket: what is sent through it changes none of its "
			 "timestamps; only a metadata change (chmod, chown, utimensat, setxattr, link) "
			 "and a stat give events", path);
	else if (s->mode == S_IFCHR || s->mode == S_IFBLK)
		add_note(s, "%.160s is a %s device: its reads and writes go to the driver and change "
			 "none of its timestamps; only a metadata change (chmod, chown, utimensat, "
			 "setxattr, link) and a stat give events", path,
			 s->mode == S_IFCHR ? "character" : "block");
}
