/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ident.h - one representation of a device number end to end: the kernel's
 * dev_t (include/linux/kdev_t.h: MKDEV(ma, mi) = ma << 20 | mi, 12-bit major,
 * 20-bit minor), which is what the BPF events carry (inode->i_sb->s_dev) and
 * what /proc/self/mountinfo prints as MAJ:MIN (show_mountinfo(): sb->s_dev).
 * A user-space dev_t (glibc's encoding, from stat()'s st_dev) is converted
 * once, where it enters, with mg_kdev_from_user().
 *
 * Note: st_dev is not always the superblock's s_dev: btrfs reports each
 * subvolume's anonymous device, overlayfs the underlying file's device.
 * mg_kdev_from_user() converts the encoding only; it does not map those.
 */
#ifndef MG_IDENT_H
#define MG_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MG_KDEV_MINORBITS 20
#define MG_KDEV_MAX_MAJOR 4095u		/* 12 bits */
#define MG_KDEV_MAX_MINOR 0xfffffu	/* 20 bits */
/* Room for "MAJ:MIN" of any kernel dev_t: "4095:1048575" and the NUL. */
#define MG_KDEV_STRLEN 16

/* Kernel dev_t of major:minor (MKDEV). Values beyond 12/20 bits are masked. */
uint32_t mg_kdev(unsigned int major, unsigned int minor);
/* Major and minor of a kernel dev_t (MAJOR(), MINOR()). */
unsigned int mg_kdev_major(uint32_t kdev);
unsigned int mg_kdev_minor(uint32_t kdev);

/*
 * Kernel dev_t of a user-space dev_t (st_dev, glibc's major()/minor()).
 * Returns 0 and sets *kdev, or -ERANGE when the major or minor does not fit
 * the kernel's 12/20 bits (no st_dev from this kernel does).
 */
int mg_kdev_from_user(dev_t dev, uint32_t *kdev);

/* "MAJ:MIN" of a kernel dev_t into buf (MG_KDEV_STRLEN bytes); returns buf. */
const char *mg_kdev_str(uint32_t kdev, char buf[MG_KDEV_STRLEN]);

/*
 * Mount point of the first mount of the filesystem with kernel dev_t kdev in
 * /proc/self/mountinfo (its MAJ:MIN field), unescaped (mountinfo writes
 * space, tab, newline and backslash as \ooo). Returns the length written to
 * buf (NUL-terminated; cut to len - 1 bytes), -ENOENT when no mount has that
 * device, or -errno when mountinfo cannot be read.
 */
int mg_kdev_mount(uint32_t kdev, char *buf, size_t len);

/* The filesystem type of kdev's first mount ("tmpfs", "ext4"; mountinfo's field after
 * " - ") into buf, cut to len - 1 bytes. Returns 0, -ENOENT or -errno. */
int mg_kdev_fstype(uint32_t kdev, char *buf, size_t len);

/* One mount of struct mg_mounts: offsets into its pool. */
struct mg_mount {
	uint32_t kdev;			/* MAJ:MIN, as the events name the superblock */
	size_t mnt, mntlen;		/* the mount point, unescaped (bytes, no NUL) */
	size_t fs;			/* the filesystem type ("tmpfs") */
};

/*
 * /proc/self/mountinfo read once into a table, for a report that names the mounts of
 * many violations (check): each lookup answers as mg_kdev_mount() and mg_kdev_fstype()
 * would have at the table's load, from the same parser. Zero-initialised: not loaded.
 */
struct mg_mounts {
	struct mg_mount *m;
	size_t n, cap;
	char *pool;
	size_t used, pool_cap;
	int err;			/* the load's -errno (0: read whole) */
	bool loaded;
};

/* Read mountinfo into t (emptied first). Returns 0, -ENOMEM, or the -errno of opening it. */
int mg_mounts_load(struct mg_mounts *t);

/*
 * The first mount of kdev in t (loaded here at the first lookup): its mount point into
 * *mnt and its filesystem type into *fs (either may be NULL; NUL-terminated, t's own).
 * Returns the mount point's length, -ENOENT when no mount has that device, or the
 * load's -errno (-ENOMEM, or opening mountinfo).
 */
int mg_mounts_find(struct mg_mounts *t, uint32_t kdev, const char **mnt, const char **fs);

/* Free what t holds; t is left not loaded. */
void mg_mounts_free(struct mg_mounts *t);

#endif
