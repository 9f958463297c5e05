/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pathid.h - resolve a user's path to the identities the kernel's events name:
 * (inode->i_sb->s_dev, inode->i_ino), as bpf/mgtrace.bpf.c reads them.
 *
 * stat(2) does not always report those: btrfs reports a subvolume's anonymous
 * device, overlayfs a per-layer pseudo device and the real inode's number, while
 * the timestamp events of a file on overlayfs happen on the real (upper or lower)
 * inode. See src/pathid.c for the method.
 */
#ifndef MG_PATHID_H
#define MG_PATHID_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "mgtrace.h"

/* One identity events are matched on, and why it is traced. */
struct mg_ident {
	unsigned int dev;		/* kernel dev_t (major << 20 | minor): inode->i_sb->s_dev */
	unsigned long long ino;		/* inode->i_ino */
	char fstype[32];		/* from /proc/self/mountinfo */
	char role[16];			/* "file", "overlay", "upper" or "lower" */
	char why[200];			/* one line: where dev and ino came from */
};

/* The identities of one path (at most MG_MAX_IDS) and what is not traced. */
struct mg_ident_set {
	int n;
	struct mg_ident id[MG_MAX_IDS];
	unsigned int stat_dev;		/* st_dev statx reported, kernel form */
	char note[400];			/* caveat (overlay layers not reachable, copy-up), or "" */
	/* overlay file found only in a lower layer: its would-be upper path, checked after
	 * the trace for a copy-up (whose new upper inode was not traced) */
	bool upper_pending;
	char upper_path[PATH_MAX];
};

/*
 * Resolve path (followed if a symlink) without asking for its timestamps, so
 * that resolving sets no I_CTIME_QUERIED flag. Returns 0, or a negative errno
 * with a one-line reason in err.
 */
int mg_ident_resolve(const char *path, struct mg_ident_set *s, char *err, size_t errlen);

/*
 * For a set with upper_pending: true when the file now exists in the upper layer
 * (copied up during the trace); *now is its identity.
 */
bool mg_ident_copied_up(const struct mg_ident_set *s, struct mg_ident *now);

/*
 * True when path, resolved again (as mg_ident_resolve(), no timestamps asked), now
 * names an inode none of s's identities is: the file was replaced during the trace
 * (a rename over it, a delete and re-create); *now is the new inode's identity.
 * False when it still names a traced inode, or no longer resolves.
 */
bool mg_ident_replaced(const char *path, const struct mg_ident_set *s, struct mg_ident *now);

/*
 * The mount of path, by the mount id statx gives (no timestamps asked): its device
 * as the kernel's events name it (the superblock's s_dev from mountinfo, which is
 * not stat's st_dev on a btrfs subvolume) into *kdev, its mount point into buf and
 * its filesystem type as mountinfo names it ("ext4", "overlay", ...) into fstype.
 * Returns 0, or a negative errno (buf untouched, fstype "unknown").
 */
int mg_path_mount(const char *path, unsigned int *kdev, char *buf, size_t len, char *fstype,
		  size_t flen);

#endif
