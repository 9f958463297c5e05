// SPDX-License-Identifier: GPL-2.0
/*
 * mgfs.bpf.c - is a path's filesystem multigrain? The kernel's own answer.
 *
 * fill_mg_cmtime() (fs/stat.c) is called by a getattr of an inode whose
 * filesystem has FS_MGTIME (generic_fillattr() and xfs_vn_getattr() test
 * is_mgtime()), and it fires timestamp:fill_mg_cmtime before it returns, in
 * the thread that asked, whenever the request includes STATX_CTIME or
 * STATX_MTIME. User space attaches this program, stat()s the path in thread
 * `tid`, and reads `hits`: non-zero when the getattr reached a multigrain
 * inode (for an overlayfs path: the real inode below it), 0 when it did not,
 * and `dev`: the first such inode's inode->i_sb->s_dev (the kernel's dev_t, what
 * the other programs key inodes by; btrfs's stat() reports its subvolume's
 * anonymous device instead, overlayfs its own).
 * raw_tp, so that no kernel BTF is parsed for a moment's test (src/util/mgfs.c);
 * the one CO-RE read is relocated against the running kernel's BTF all the same.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 tid = 0;	/* the thread that stat()s the path */
__u64 hits = 0;			/* fill_mg_cmtime events of that thread */
__u32 dev = 0;			/* the first one's inode->i_sb->s_dev */

SEC("raw_tp/fill_mg_cmtime")
int mgfs_getattr(struct bpf_raw_tracepoint_args *ctx)
{
	struct inode *inode = (struct inode *)ctx->args[0];

	if ((__u32)bpf_get_current_pid_tgid() != tid)
		return 0;
	if (__sync_fetch_and_add(&hits, 1) == 0)
		dev = BPF_CORE_READ(inode, i_sb, s_dev);
	return 0;
}
