// SPDX-License-Identifier: GPL-2.0
/*
 * conform_ops_copy.c - conform's operations that write f from another file or a pipe:
 * copy_file_range, FICLONE, FICLONERANGE, FIDEDUPERANGE, sendfile, splice, and an
 * io_uring write (IORING_OP_WRITE through io_uring_setup(2) and io_uring_enter(2)
 * directly: one write needs no library). The source is "src" in the work directory,
 * made and removed by each. Returns as cf_op_fn.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "conform_int.h"

#define CF_BLK 4096

/* The source (4 KiB of c's byte, or of f's own data when same) and f, f queried. */
struct pair {
	int src, dst;
};

/* 0, or a cf_op_fn's failure with nothing left open */
static int pair_open(struct cf_ctx *c, struct pair *p, bool same)
{
	char buf[CF_BLK];

	memset(buf, same ? 's' : 'a' + (int)(c->iter % 26), sizeof(buf));
	p->src = openat(c->dfd, "src", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (p->src < 0)
		return cf_fail(c, "create src");
	p->dst = openat(c->dfd, CF_FILE_NAME, O_RDWR | O_CLOEXEC);
	if (p->dst < 0 || pwrite(p->src, buf, CF_BLK, 0) != CF_BLK ||
	    (same && (pwrite(p->dst, buf, CF_BLK, 0) != CF_BLK || fsync(p->dst)))) {
		int e = cf_fail(c, "write src");

		if (p->dst >= 0)
			close(p->dst);
		close(p->src);
		unlinkat(c->dfd, "src", 0);
		return e;
	}
	fsync(p->src);
	if (cf_before(c, CF_FILE, c->dfd, CF_FILE_NAME)) {
		close(p->dst);
		close(p->src);
		unlinkat(c->dfd, "src", 0);
		return -1;
	}
	cf_go(c);
	return 0;
}

/* the op's result ret (0, unsupported errno, -1): f stat()ed after, both closed, src removed */
static int pair_close(struct cf_ctx *c, struct pair *p, int ret)
{
	if (!ret && cf_after(c, CF_FILE, c->dfd, CF_FILE_NAME))
		ret = -1;
	close(p->dst);
	close(p->src);
	unlinkat(c->dfd, "src", 0);
	return ret;
}

int cf_op_copy_range(struct cf_ctx *c)
{
	struct pair p;
	loff_t in = 0, out = 0;
	int e = pair_open(c, &p, false);

	if (e)
		return e;
	e = copy_file_range(p.src, &in, p.dst, &out, CF_BLK, 0) > 0 ? 0 :
	    cf_fail(c, "copy_file_range");
	return pair_close(c, &p, e);
}

int cf_op_ficlone(struct cf_ctx *c)
{
	struct pair p;
	int e = pair_open(c, &p, false);

	if (e)
		return e;
	return pair_close(c, &p, ioctl(p.dst, FICLONE, p.src) ? cf_fail(c, "FICLONE") : 0);
}

int cf_op_ficlonerange(struct cf_ctx *c)
{
	struct file_clone_range r = { .src_length = CF_BLK };
	struct pair p;
	int e = pair_open(c, &p, false);

	if (e)
		return e;
	r.src_fd = p.src;
	return pair_close(c, &p, ioctl(p.dst, FICLONERANGE, &r) ? cf_fail(c, "FICLONERANGE") : 0);
}

int cf_op_dedupe(struct cf_ctx *c)
{
	struct {
		struct file_dedupe_range r;
		struct file_dedupe_range_info info;
	} d = { .r = { .src_length = CF_BLK, .dest_count = 1 } };
	struct pair p;
	int e = pair_open(c, &p, true);

	if (e)
		return e;
	d.info.dest_fd = p.dst;
	if (ioctl(p.src, FIDEDUPERANGE, &d))
		e = cf_fail(c, "FIDEDUPERANGE");
	else if (d.info.status < 0 && cf_unsupported_errno(-d.info.status))
		e = -d.info.status;
	return pair_close(c, &p, e);
}

int cf_op_sendfile(struct cf_ctx *c)
{
	struct pair p;
	off_t in = 0;
	int e = pair_open(c, &p, false);

	if (e)
		return e;
	return pair_close(c, &p, sendfile(p.dst, p.src, &in, CF_BLK) > 0 ? 0 :
			  cf_fail(c, "sendfile"));
}

int cf_op_splice(struct cf_ctx *c)
{
	char b = (char)('a' + c->iter % 26);
	struct pair p;
	loff_t out = 0;
	int e, pfd[2];

	if (pipe2(pfd, O_CLOEXEC))
		return cf_fail(c, "pipe");
	e = write(pfd[1], &b, 1) != 1 ? cf_fail(c, "pipe write") : pair_open(c, &p, false);
	if (e) {
		close(pfd[0]);
		close(pfd[1]);
		return e;
	}
	e = splice(pfd[0], NULL, p.dst, &out, 1, 0) == 1 ? 0 : cf_fail(c, "splice");
	close(pfd[0]);
	close(pfd[1]);
	return pair_close(c, &p, e);
}

/* An io_uring of one entry: its fd and the mapped rings. */
struct ring {
	int fd;
	void *sq, *cq;
	struct io_uring_sqe *sqes;
	size_t sq_len, cq_len;
	struct io_uring_params p;
};

static void ring_free(struct ring *r)
{
	if (r->sqes && r->sqes != MAP_FAILED)
		munmap(r->sqes, sizeof(*r->sqes) * r->p.sq_entries);
	if (r->cq && r->cq != MAP_FAILED && r->cq != r->sq)
		munmap(r->cq, r->cq_len);
	if (r->sq && r->sq != MAP_FAILED)
		munmap(r->sq, r->sq_len);
	if (r->fd >= 0)
		close(r->fd);
}

/* 0, or -errno (ENOSYS, EPERM: io_uring unavailable here) */
static int ring_open(struct ring *r)
{
	memset(r, 0, sizeof(*r));
	r->fd = (int)syscall(__NR_io_uring_setup, 1, &r->p);
	if (r->fd < 0)
		return -errno;
	r->sq_len = r->p.sq_off.array + r->p.sq_entries * sizeof(__u32);
	r->cq_len = r->p.cq_off.cqes + r->p.cq_entries * sizeof(struct io_uring_cqe);
	r->sq = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		     IORING_OFF_SQ_RING);
	r->cq = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		     IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, sizeof(*r->sqes) * r->p.sq_entries, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sq == MAP_FAILED || r->cq == MAP_FAILED || r->sqes == MAP_FAILED) {
		int e = -errno;

		ring_free(r);
		return e;
	}
	return 0;
}

/* One IORING_OP_WRITE of len bytes of buf at off to fd: its result (bytes or -errno). */
static int ring_write(struct ring *r, int fd, const void *buf, unsigned int len, off_t off)
{
	__u32 *tail = (__u32 *)((char *)r->sq + r->p.sq_off.tail);
	__u32 *array = (__u32 *)((char *)r->sq + r->p.sq_off.array);
	__u32 *ctail = (__u32 *)((char *)r->cq + r->p.cq_off.tail);
	__u32 *chead = (__u32 *)((char *)r->cq + r->p.cq_off.head);
	struct io_uring_cqe *cqes = (void *)((char *)r->cq + r->p.cq_off.cqes);
	__u32 t = *tail, h;

	memset(&r->sqes[0], 0, sizeof(r->sqes[0]));
	r->sqes[0].opcode = IORING_OP_WRITE;
	r->sqes[0].fd = fd;
	r->sqes[0].addr = (__u64)(uintptr_t)buf;
	r->sqes[0].len = len;
	r->sqes[0].off = (__u64)off;
	array[t & *(__u32 *)((char *)r->sq + r->p.sq_off.ring_mask)] = 0;
	__atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -errno;
	h = *chead;
	if (h == __atomic_load_n(ctail, __ATOMIC_ACQUIRE))
		return -EIO;
	t = (__u32)cqes[h & *(__u32 *)((char *)r->cq + r->p.cq_off.ring_mask)].res;
	__atomic_store_n(chead, h + 1, __ATOMIC_RELEASE);
	return (int)t;
}

int cf_op_uring_write(struct cf_ctx *c)
{
	char b = (char)('a' + c->iter % 26);
	struct ring r;
	int e, fd, n;

	if ((e = ring_open(&r))) {
		errno = -e;
		/* io_uring refused here (kernel.io_uring_disabled, a seccomp filter) */
		return e == -ENOSYS || e == -EPERM ? -e : cf_fail(c, "io_uring_setup");
	}
	fd = openat(c->dfd, CF_FILE_NAME, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || cf_before(c, CF_FILE, c->dfd, CF_FILE_NAME)) {
		e = fd < 0 ? cf_fail(c, "open f") : -1;
		if (fd >= 0)
			close(fd);
		ring_free(&r);
		return e;
	}
	cf_go(c);
	n = ring_write(&r, fd, &b, 1, 0);
	if (n != 1) {
		errno = n < 0 ? -n : EIO;
		e = cf_fail(c, "io_uring write");
	}
	if (!e && cf_after(c, CF_FILE, c->dfd, CF_FILE_NAME))
		e = -1;
	close(fd);
	ring_free(&r);
	return e;
}
