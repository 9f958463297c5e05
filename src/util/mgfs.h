/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mgfs.h - is a path's filesystem multigrain (FS_MGTIME)? Asked of the kernel:
 * a getattr of a multigrain inode fires timestamp:fill_mg_cmtime in the
 * asking thread (bpf/mgfs.bpf.c), a getattr of any other fires none. The
 * filesystem type's name is not enough: the set of FS_MGTIME filesystems
 * changes with the kernel, and an overlayfs path's timestamps are its real
 * inode's.
 */
#ifndef MG_MGFS_H
#define MG_MGFS_H

#include <stddef.h>
#include <stdint.h>

/*
 * stat() path with bpf/mgfs.bpf.c attached as raw_tp/fill_mg_cmtime, in this
 * thread, and detach it. Returns 1 when the getattr reached a multigrain inode,
 * 0 when it fired no fill_mg_cmtime (not multigrain), or a negative errno when
 * the kernel could not say (the program refused: why has one line; the stat
 * failed: why names path). The stat sets I_CTIME_QUERIED on path's inode (any
 * getattr that fires the tracepoint does): ask it of a directory of mgtrace's
 * own, such as a workload's. Needs CAP_BPF/CAP_PERFMON (root).
 */
int mg_fs_multigrain(const char *path, char *why, size_t len);

/*
 * As mg_fs_multigrain(), and when it returns 1, *kdev is the kernel's dev_t
 * (inode->i_sb->s_dev, as struct mg_event's dev) of the inode the getattr reached:
 * not always stat()'s st_dev (btrfs reports its subvolume's anonymous device,
 * overlayfs its own where the real inode is on the upper filesystem); 0 otherwise.
 */
int mg_fs_multigrain_dev(const char *path, uint32_t *kdev, char *why, size_t len);

#endif
