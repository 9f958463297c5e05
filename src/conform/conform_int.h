/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conform_int.h - what the files of `mgtrace conform` share (not a public interface):
 * the operations and their expectations (conform_table.c), one run of them with the
 * observer's stat() calls (conform_sweep.c), the verdict of each row
 * (conform_verdict.c), the kernel judge (conform_judge.c) and the renderings
 * (conform_out.c).
 */
#ifndef MG_CONFORM_INT_H
#define MG_CONFORM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

/* The inodes an operation changes, as the issue names them. */
enum cf_role {
	CF_FILE,	/* the file the operation names (the destination of a copy) */
	CF_DIR,		/* the directory it changes (the source directory of a rename) */
	CF_DIR2,	/* the second directory of a cross-directory rename */
	CF_REPLACED,	/* the inode a rename over an existing name replaces */
	CF_OTHER,	/* the second file of RENAME_EXCHANGE (in dir2 across directories) */
	CF_NR_ROLES
};

/* What the contract says of one (operation, role). */
enum cf_expect {
	CF_LATER,	/* a ctime later than the one the query saw is required */
	CF_INFO,	/* the contract is silent: what was seen is reported, never judged */
};

/* The verdict of one row. */
enum cf_verdict {
	CF_V_PASS,		/* every run kept the contract, check and the observer agree */
	CF_V_FAIL,		/* a ctime not later where the contract requires one */
	CF_V_INFO,		/* informational: reported, not judged */
	CF_V_UNSUPPORTED,	/* the filesystem refused the operation: never a pass */
	CF_V_DISAGREE,		/* check and the observer disagree: a fault of mgtrace */
	CF_V_INCONCLUSIVE,	/* the kernel judge lost events: no verdict */
	CF_V_NR
};

struct cf_ctx;

/*
 * One operation: the inodes it changes are queried with cf_before() (a stat() that
 * marks the ctime QUERIED), the change made after cf_go(), and each stat()ed again
 * with cf_after(). Returns 0, a positive errno when the filesystem does not support it
 * (EOPNOTSUPP, ENOTTY, EINVAL for a mode: the row is unsupported), or -1 with
 * ctx->why set (a failure of the run, exit 3).
 */
typedef int (*cf_op_fn)(struct cf_ctx *c);

/* The expectation of one role of an operation, with where it is written. */
struct cf_role_expect {
	enum cf_role role;
	enum cf_expect expect;
	const char *source;	/* the contract, POSIX or the kernel's documented semantics */
};

#define CF_MAX_ROLES 4

/* One operation of the table (conform_table.c). */
struct cf_op {
	const char *name;		/* "link", "rename-over", ... */
	cf_op_fn fn;
	unsigned int nroles;
	struct cf_role_expect roles[CF_MAX_ROLES];
};

/* The operations, in the order they run (conform_table.c). */
extern const struct cf_op cf_ops[];
extern const size_t cf_nops;

/* The index in cf_ops of the operation named name, or -1: none. */
int cf_op_index(const char *name);

/* A role's name as the reports print it ("file", "dir", ...). */
const char *cf_role_name(enum cf_role r);
/* "later" or "informational". */
const char *cf_expect_name(enum cf_expect e);
/* "PASS", "FAIL", "INFO", "UNSUPPORTED", "DISAGREE", "INCONCLUSIVE". */
const char *cf_verdict_name(enum cf_verdict v);
/* The same in lower case, as JSON has it ("pass", "fail", ...). */
const char *cf_verdict_word(enum cf_verdict v);

/* What one run of one role observed: its inode, the stat() before and after, the op's window. */
struct cf_probe {
	bool used;
	uint64_t ino;
	uint32_t dev;			/* kernel dev_t (ident.h) */
	struct timespec before, after;	/* st_ctim before the op and after it */
	uint64_t t0_ns, t1_ns;		/* CLOCK_MONOTONIC: the op's start, the end of the
					 * stat() after it */
	int updated;			/* the kernel judge's ctime events of the inode in
					 * [t0_ns, t1_ns]: 1 some, 0 none (missing_update when
					 * the role must change), -1 not known */
	struct timespec kernel_last;	/* updated 1: the ctime the last of them left */
};

/* The kernel judge of one run of one role (conform_judge.c fills it; zero without). */
struct cf_judged {
	uint32_t violations;		/* check's violations of the inode in the window */
	uint32_t missing;		/* missing_update: no ctime event at all in the window */
	uint32_t transient;		/* violations a later ctime replaced before the op
					 * returned (the last event's ctime is later than the
					 * query's): a concurrent stat() could see them, the
					 * stat() after cannot */
};

/* One row's totals over the N runs. */
struct cf_row {
	const struct cf_op *op;
	unsigned int ri;		/* index into op->roles */
	uint64_t done;			/* runs made */
	uint64_t not_later;		/* runs where the observer saw a ctime not later */
	uint64_t check_violations;	/* runs where check found a violation or missing_update */
	uint64_t missing;		/* of those, missing_update */
	uint64_t transient;		/* runs where check's violations were transient */
	uint64_t disagreements;		/* runs where check and the observer differ */
	int unsupported;		/* the errno that refused the operation, 0: supported */
	bool judged;			/* the kernel judge ran (not --observer-only) */
	bool inconclusive;		/* the judge lost events during this row */
	enum cf_verdict verdict;
	struct cf_stack *stacks;	/* distinct stacks of its violations (conform_judge.c) */
	size_t nstacks;
};

/* A kernel stack of a row's violations, its frames named (ksyms.h), and how many had it. */
struct cf_stack {
	char **frames;
	size_t nframes;
	uint64_t count;
	uint64_t addr[32];		/* the raw frames (MG_STACK_FRAMES), to group by */
	uint32_t naddr;
};

/* The state of an operation while it runs: the directories, names and the probes. */
struct cf_ctx {
	int dfd, d2fd;			/* the work directory, its subdirectory "d2" */
	unsigned int iter;		/* the run number, 0..N-1 */
	enum cf_role only;		/* the role this run observes: only its inode is
					 * queried and stat()ed after (a query of one inode
					 * would change the stamp another gets) */
	uint64_t go_ns;			/* CLOCK_MONOTONIC at cf_go() */
	struct cf_probe probe[CF_NR_ROLES];
	char why[256];			/* a failure of the run */
	const struct cf_hooks *hooks;	/* the kernel judge's, or NULL (--observer-only) */
	uint32_t dev_stat, dev_kernel;	/* a stat()'s st_dev (kernel form) dev_stat is the
					 * kernel's dev_kernel (cf_sweep's; 0: as it is) */
};

/* What the kernel judge does at an op's start and after each role's stat() (may be NULL). */
struct cf_hooks {
	void *ctx;
	void (*go)(void *ctx, struct cf_ctx *c);
	void (*after)(void *ctx, struct cf_ctx *c, struct cf_probe *p);	/* sets p->updated */
};

/* conform's options and the run's facts the reports print */
struct cf_opts {
	const char *parent;		/* -D DIR, or NULL: a private tmpfs */
	uint64_t runs;			/* -n N, 1..CF_RUNS_MAX */
	const char *junit;		/* --junit FILE, or NULL */
	bool observer_only;		/* --observer-only */
	bool list;			/* -l: print the table, run nothing */
	bool *pick;			/* the operands: pick[i] runs cf_ops[i] (cf_nops
					 * entries, malloc'd); NULL: every operation */
	const char *fs;			/* the work directory's filesystem (mg_fs_name) */
	const char *dir;		/* the work directory */
	int multigrain;			/* its filesystem is multigrain (mg_fs_multigrain()):
					 * 1 (0 is refused), or -errno not known (BPF refused,
					 * as where --observer-only is the way: mg_why says why) */
	char mg_why[200];
	int stop_sig;			/* the stop signal that ended the sweep early, or 0 */
	double seconds;			/* the sweep's time, CLOCK_MONOTONIC */
	char judge[512];		/* how the kernel judge ran, or why there was none */
	char why_judge[256];		/* a failure of the judge */
	char incomplete[300];		/* why the judge's counts are incomplete ("": they are
					 * whole): every row INCONCLUSIVE */
};

/* conform_probe.c: the observer's stat() calls around an operation */

/* Query a role's inode: stat() of name in dirfd ("" : dirfd itself; an absolute path:
 * followed), when r is the role this run observes (else nothing). 0, or -1 with why set. */
int cf_before(struct cf_ctx *c, enum cf_role r, int dirfd, const char *name);
/* Mark the op's start (after every cf_before()). */
void cf_go(struct cf_ctx *c);
/* The role's inode after the op: stat() of name in dirfd. 0, or -1 with why set. */
int cf_after(struct cf_ctx *c, enum cf_role r, int dirfd, const char *name);
/* An errno an unsupported operation returns (EOPNOTSUPP, ENOTSUP, ENOTTY, EINVAL, ENOSYS). */
bool cf_unsupported_errno(int e);
/* -1 with why "what: strerror(errno)" (errno kept); or errno itself if unsupported. */
int cf_fail(struct cf_ctx *c, const char *what);

/* The operations, grouped by what they change (conform_ops_*.c). */
int cf_op_create(struct cf_ctx *c);
int cf_op_mkdir(struct cf_ctx *c);
int cf_op_rmdir(struct cf_ctx *c);
int cf_op_mknod(struct cf_ctx *c);
int cf_op_symlink(struct cf_ctx *c);
int cf_op_link(struct cf_ctx *c);
int cf_op_unlink(struct cf_ctx *c);
int cf_op_rename(struct cf_ctx *c);
int cf_op_rename_across(struct cf_ctx *c);
int cf_op_rename_over(struct cf_ctx *c);
int cf_op_rename_exchange(struct cf_ctx *c);
int cf_op_rename_exchange_across(struct cf_ctx *c);
int cf_op_rename_noreplace(struct cf_ctx *c);
int cf_op_rename_whiteout(struct cf_ctx *c);
int cf_op_tmpfile_linkat(struct cf_ctx *c);
int cf_op_write(struct cf_ctx *c);
int cf_op_pwrite(struct cf_ctx *c);
int cf_op_writev(struct cf_ctx *c);
int cf_op_append(struct cf_ctx *c);
int cf_op_direct(struct cf_ctx *c);
int cf_op_mmap_msync(struct cf_ctx *c);
int cf_op_truncate(struct cf_ctx *c);
int cf_op_ftruncate(struct cf_ctx *c);
int cf_op_o_trunc(struct cf_ctx *c);
int cf_op_falloc(struct cf_ctx *c);
int cf_op_falloc_keep(struct cf_ctx *c);
int cf_op_falloc_punch(struct cf_ctx *c);
int cf_op_falloc_zero(struct cf_ctx *c);
int cf_op_falloc_collapse(struct cf_ctx *c);
int cf_op_falloc_insert(struct cf_ctx *c);
int cf_op_copy_range(struct cf_ctx *c);
int cf_op_ficlone(struct cf_ctx *c);
int cf_op_ficlonerange(struct cf_ctx *c);
int cf_op_dedupe(struct cf_ctx *c);
int cf_op_sendfile(struct cf_ctx *c);
int cf_op_splice(struct cf_ctx *c);
int cf_op_uring_write(struct cf_ctx *c);
int cf_op_chmod(struct cf_ctx *c);
int cf_op_fchmod(struct cf_ctx *c);
int cf_op_chown_same(struct cf_ctx *c);
int cf_op_chown_other(struct cf_ctx *c);
int cf_op_setxattr(struct cf_ctx *c);
int cf_op_removexattr(struct cf_ctx *c);
int cf_op_acl(struct cf_ctx *c);
int cf_op_utimens_now(struct cf_ctx *c);
int cf_op_utimens_times(struct cf_ctx *c);
int cf_op_futimens(struct cf_ctx *c);
int cf_op_setflags(struct cf_ctx *c);
int cf_op_fssetxattr(struct cf_ctx *c);
int cf_op_fifo_write(struct cf_ctx *c);

/* The file every data and attribute operation changes: "f" in the work directory, made
 * once by the sweep. */
#define CF_FILE_NAME "f"

/*
 * One row's verdict from its counts (conform_verdict.c): unsupported is never a
 * pass; a disagreement of check and the observer is DISAGREE (exit 1).
 */
enum cf_verdict cf_row_verdict(const struct cf_row *r, enum cf_expect expect);

/*
 * One run of one role judged: count the observer's not-later and the judge's
 * findings into row, a disagreement when they differ. expect: the role's.
 */
void cf_row_account(struct cf_row *row, enum cf_expect expect, const struct cf_probe *p,
		    const struct cf_judged *j);

/* Whether after is not later than before (a break when a later one is required). */
bool cf_not_later(struct timespec before, struct timespec after);

/* The run's verdict over every row: exit code (0 pass, 1 fail or disagree, 4 inconclusive). */
int cf_run_exit(const struct cf_row *rows, size_t n);

#endif
