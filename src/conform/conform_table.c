// SPDX-License-Identifier: GPL-2.0
/*
 * conform_table.c - the operations of `mgtrace conform` and what the contract says of
 * each inode they change. Each expectation is written from the multigrain contract
 * (Documentation/filesystems/multigrain-ts.rst: a change after a query shows a later
 * ctime), POSIX.1-2024 or the kernel's documented semantics (man-pages), never from
 * what a kernel did; docs/conformance.md is the same table with its sources.
 */
#include <stddef.h>
#include <string.h>
#include "conform_int.h"

/* The sources, named once (docs/conformance.md quotes them) */
#define P_CREAT   "POSIX open(): O_CREAT of a new file marks the parent directory's st_ctime"
#define P_MKDIR   "POSIX mkdir(): marks the parent directory's st_ctime"
#define P_RMDIR   "POSIX rmdir(): marks the parent directory's st_ctime"
#define P_MKNOD   "POSIX mknod(): marks the parent directory's st_ctime"
#define P_SYMLINK "POSIX symlink(): marks the parent directory's st_ctime"
#define P_LINK_F  "POSIX link(): marks the file's st_ctime"
#define P_LINK_D  "POSIX link(): marks the new entry's directory's st_ctime"
#define P_UNL_F   "POSIX unlink(): marks the file's st_ctime when links remain"
#define P_UNL_D   "POSIX unlink(): marks the parent directory's st_ctime"
#define P_REN_D   "POSIX rename(): marks the parent directory of each file"
#define P_REN_F   "POSIX rename(): implementations differ on the renamed file"
#define P_REN_R   "POSIX rename() removes the replaced link as unlink() does: its st_ctime"
#define P_EXCH_D  "rename(2) RENAME_EXCHANGE changes an entry in each directory: as POSIX " \
		  "rename(), each parent directory's st_ctime"
#define P_WRITE   "POSIX write(): nbyte > 0 marks st_ctime and st_mtime"
#define P_MMAP    "POSIX mmap()/msync(): a store marks st_ctime before the next msync()"
#define P_TRUNC   "POSIX truncate()/ftruncate(): a size change marks st_ctime"
#define P_OTRUNC  "POSIX open(): O_TRUNC of a regular file marks st_ctime"
#define P_FALLOC  "posix_fallocate()/fallocate(2): the size changes, so st_ctime"
#define P_FKEEP   "fallocate(2) KEEP_SIZE: no size or data change; silent"
#define P_FDATA   "fallocate(2): the file's data changes (reads give zeros): st_ctime"
#define P_FSHIFT  "fallocate(2): data and size change: st_ctime"
#define P_COPY    "copy_file_range(2): writes the destination, as write()"
#define P_CLONE   "ioctl_ficlone(2): the destination's data changes, as write()"
#define P_DEDUPE  "ioctl_fideduperange(2): the data stays the same; silent"
#define P_SENDF   "sendfile(2)/splice(2): writes the file, as write()"
#define P_URING   "io_uring_enter(2) IORING_OP_WRITE: a write(), as write()"
#define P_CHMOD   "POSIX chmod()/fchmod(): marks st_ctime"
#define P_CHOWN   "POSIX chown(): marks st_ctime unless owner and group are both -1"
#define P_XATTR   "inode(7): st_ctime changes when inode information is set"
#define P_ACL     "acl(5)/inode(7): the ACL and mode are inode information: st_ctime"
#define P_UTIME   "POSIX utimensat()/futimens(): marks st_ctime"
#define P_IFLAGS  "ioctl_iflags(2)/inode(7): the flags are inode information: st_ctime"
#define P_FIFO    "POSIX write(): nbyte > 0 marks the FIFO's st_ctime"

#define R1(a, e, s) 1, { { a, e, s } }
#define R2(a, e1, s1, b, e2, s2) 2, { { a, e1, s1 }, { b, e2, s2 } }
#define R3(a, e1, s1, b, e2, s2, c, e3, s3) 3, { { a, e1, s1 }, { b, e2, s2 }, { c, e3, s3 } }
#define R4(a, e1, s1, b, e2, s2, c, e3, s3, d, e4, s4) \
	4, { { a, e1, s1 }, { b, e2, s2 }, { c, e3, s3 }, { d, e4, s4 } }

const struct cf_op cf_ops[] = {
	{ "create", cf_op_create, R1(CF_DIR, CF_LATER, P_CREAT) },
	{ "mkdir", cf_op_mkdir, R1(CF_DIR, CF_LATER, P_MKDIR) },
	{ "rmdir", cf_op_rmdir, R1(CF_DIR, CF_LATER, P_RMDIR) },
	{ "mknod", cf_op_mknod, R1(CF_DIR, CF_LATER, P_MKNOD) },
	{ "symlink", cf_op_symlink, R1(CF_DIR, CF_LATER, P_SYMLINK) },
	{ "link", cf_op_link, R2(CF_FILE, CF_LATER, P_LINK_F, CF_DIR, CF_LATER, P_LINK_D) },
	{ "unlink", cf_op_unlink, R2(CF_FILE, CF_LATER, P_UNL_F, CF_DIR, CF_LATER, P_UNL_D) },
	{ "rename", cf_op_rename, R2(CF_DIR, CF_LATER, P_REN_D, CF_FILE, CF_INFO, P_REN_F) },
	{ "rename-across", cf_op_rename_across,
	  R3(CF_DIR, CF_LATER, P_REN_D, CF_DIR2, CF_LATER, P_REN_D, CF_FILE, CF_INFO, P_REN_F) },
	{ "rename-over", cf_op_rename_over,
	  R3(CF_DIR, CF_LATER, P_REN_D, CF_REPLACED, CF_LATER, P_REN_R, CF_FILE, CF_INFO, P_REN_F) },
	{ "rename-exchange", cf_op_rename_exchange,
	  R3(CF_DIR, CF_LATER, P_REN_D, CF_FILE, CF_INFO, P_REN_F, CF_OTHER, CF_INFO, P_REN_F) },
	{ "rename-exchange-across", cf_op_rename_exchange_across,
	  R4(CF_DIR, CF_LATER, P_EXCH_D, CF_DIR2, CF_LATER, P_EXCH_D, CF_FILE, CF_INFO, P_REN_F,
	     CF_OTHER, CF_INFO, P_REN_F) },
	{ "rename-noreplace", cf_op_rename_noreplace, R1(CF_DIR, CF_LATER, P_REN_D) },
	{ "rename-whiteout", cf_op_rename_whiteout, R1(CF_DIR, CF_LATER, P_REN_D) },
	{ "tmpfile-linkat", cf_op_tmpfile_linkat,
	  R2(CF_DIR, CF_LATER, P_LINK_D, CF_FILE, CF_LATER, P_LINK_F) },
	{ "write", cf_op_write, R1(CF_FILE, CF_LATER, P_WRITE) },
	{ "pwrite", cf_op_pwrite, R1(CF_FILE, CF_LATER, P_WRITE) },
	{ "writev", cf_op_writev, R1(CF_FILE, CF_LATER, P_WRITE) },
	{ "append", cf_op_append, R1(CF_FILE, CF_LATER, P_WRITE) },
	{ "direct-write", cf_op_direct, R1(CF_FILE, CF_LATER, P_WRITE) },
	{ "mmap-msync", cf_op_mmap_msync, R1(CF_FILE, CF_LATER, P_MMAP) },
	{ "truncate", cf_op_truncate, R1(CF_FILE, CF_LATER, P_TRUNC) },
	{ "ftruncate", cf_op_ftruncate, R1(CF_FILE, CF_LATER, P_TRUNC) },
	{ "o-trunc", cf_op_o_trunc, R1(CF_FILE, CF_LATER, P_OTRUNC) },
	{ "fallocate", cf_op_falloc, R1(CF_FILE, CF_LATER, P_FALLOC) },
	{ "fallocate-keep-size", cf_op_falloc_keep, R1(CF_FILE, CF_INFO, P_FKEEP) },
	{ "fallocate-punch-hole", cf_op_falloc_punch, R1(CF_FILE, CF_LATER, P_FDATA) },
	{ "fallocate-zero-range", cf_op_falloc_zero, R1(CF_FILE, CF_LATER, P_FDATA) },
	{ "fallocate-collapse-range", cf_op_falloc_collapse, R1(CF_FILE, CF_LATER, P_FSHIFT) },
	{ "fallocate-insert-range", cf_op_falloc_insert, R1(CF_FILE, CF_LATER, P_FSHIFT) },
	{ "copy_file_range", cf_op_copy_range, R1(CF_FILE, CF_LATER, P_COPY) },
	{ "ficlone", cf_op_ficlone, R1(CF_FILE, CF_LATER, P_CLONE) },
	{ "ficlonerange", cf_op_ficlonerange, R1(CF_FILE, CF_LATER, P_CLONE) },
	{ "fideduperange", cf_op_dedupe, R1(CF_FILE, CF_INFO, P_DEDUPE) },
	{ "sendfile", cf_op_sendfile, R1(CF_FILE, CF_LATER, P_SENDF) },
	{ "splice", cf_op_splice, R1(CF_FILE, CF_LATER, P_SENDF) },
	{ "io_uring-write", cf_op_uring_write, R1(CF_FILE, CF_LATER, P_URING) },
	{ "chmod", cf_op_chmod, R1(CF_FILE, CF_LATER, P_CHMOD) },
	{ "fchmod", cf_op_fchmod, R1(CF_FILE, CF_LATER, P_CHMOD) },
	{ "chown-same", cf_op_chown_same, R1(CF_FILE, CF_LATER, P_CHOWN) },
	{ "chown-other", cf_op_chown_other, R1(CF_FILE, CF_LATER, P_CHOWN) },
	{ "setxattr", cf_op_setxattr, R1(CF_FILE, CF_LATER, P_XATTR) },
	{ "removexattr", cf_op_removexattr, R1(CF_FILE, CF_LATER, P_XATTR) },
	{ "posix-acl", cf_op_acl, R1(CF_FILE, CF_LATER, P_ACL) },
	{ "utimensat-now", cf_op_utimens_now, R1(CF_FILE, CF_LATER, P_UTIME) },
	{ "utimensat-times", cf_op_utimens_times, R1(CF_FILE, CF_LATER, P_UTIME) },
	{ "futimens", cf_op_futimens, R1(CF_FILE, CF_LATER, P_UTIME) },
	{ "fs_ioc_setflags", cf_op_setflags, R1(CF_FILE, CF_LATER, P_IFLAGS) },
	{ "fs_ioc_fssetxattr", cf_op_fssetxattr, R1(CF_FILE, CF_LATER, P_IFLAGS) },
	{ "fifo-write", cf_op_fifo_write, R1(CF_FILE, CF_LATER, P_FIFO) },
};
const size_t cf_nops = sizeof(cf_ops) / sizeof(cf_ops[0]);

int cf_op_index(const char *name)
{
	size_t i;

	for (i = 0; i < cf_nops; i++)
		if (!strcmp(cf_ops[i].name, name))
			return (int)i;
	return -1;
}
