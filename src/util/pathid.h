/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pathid.h - resolve a user's path to the identities the kernel's events name:
 * (inode->i_sb->s_dev, inode->i_ino), as bpf/mgtrace.bpf.c reads them.
 *
 * stat(2) does not always report those: btrfs reports a subvolume's anonymous
 * device, overlayfs a per-layer pseudo device and the real inode's number, while
 * the timestamp events of a file on overlayfs happen on the real (upper or lower)
 * inode. See src/util/pathid.c for the method.
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
	char ftype[16];			/* the inode's type (mg_ident_ftype()); "": not known (--inode) */
	char why[200];			/* one line: where dev and ino came from */
};

/* The identities of one path (at most MG_MAX_IDS) and what is not traced. */
struct mg_ident_set {
	int n;
	struct mg_ident id[MG_MAX_IDS];
	unsigned int stat_dev;		/* st_dev statx reported, kernel form */
	unsigned int mode;		/* the path's inode's S_IFMT bits (statx) */
	unsigned long long ino;		/* its stx_ino, and its mount's id and mount point */
	unsigned long long mnt_id;
	char mnt_point[PATH_MAX];
	/* caveats (overlay layers not reachable, copy-up, an inode or filesystem without
	 * these events: mg_ident_notes()), "; "-joined, or "" */
	char note[1024];
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

/* The type of an inode by its mode: "regular", "directory", "fifo", "socket",
 * "char-device", "block-device", "symlink" or "unknown". */
const char *mg_ident_ftype(unsigned int mode);

/*
 * Is the filesystem of s's path multigrain (FS_MGTIME)? Asked of the kernel (mgfs.h)
 * by a stat() of another inode of the same mount, so that the traced inode's ctime is
 * not marked QUERIED: the mount's root directory, or, when the path is that root, an
 * entry in it; that inode's path into probe. Returns 1 (multigrain), 0 (not), or a
 * negative errno with one line in why (BPF refused, no other inode to ask). Needs
 * CAP_BPF/CAP_PERFMON.
 */
int mg_ident_multigrain(const struct mg_ident_set *s, char *probe, size_t plen, char *why,
			size_t len);

/*
 * Append to s->note what a user of trace --path must know about path: on a filesystem
 * that is not multigrain (mg 0: only ctime_set events can come), and a socket or device,
 * whose reads and writes change none of its timestamps; mg < 0: not known, why.
 * mg: mg_ident_multigrain()'s result, and why its line.
 */
void mg_ident_notes(struct mg_ident_set *s, const char *path, int mg, const char *why);

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
