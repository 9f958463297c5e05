// SPDX-License-Identifier: GPL-2.0
/*
 * conform.c - `mgtrace conform`: the multigrain contract, operation by operation.
 * Every operation that changes a ctime (conform_table.c) runs N times in a directory
 * of its own on the filesystem under test (default: a tmpfs mounted in a private
 * mount namespace, as stress's); each inode it changes is stat()ed right before it,
 * which marks its ctime QUERIED, and right after it. The observer (conform_sweep.c)
 * counts every ctime not later; the kernel judge (conform_judge.c: check's BPF judge,
 * loaded through the engine) attributes each violation it finds, and each inode that
 * got no ctime update at all (missing_update), to its (operation, role), with its
 * kernel stack. The two must agree in every row.
 *
 * Exit: 0 every operation keeps the contract, 1 a violation (or check and the observer
 * disagree: a fault of mgtrace), 2 usage, 3 environment, 4 inconclusive.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "ident.h"
#include "mgfs.h"
#include "conform_judge.h"
#include "conform_out.h"
#include "conform_sweep.h"
#include "opts.h"
#include "optab.h"
#include "util.h"
#include "workload.h"

#define CF_RUNS_DEFAULT 20
#define CF_RUNS_MAX 100000

/* Where a stored option goes in struct cf_opts */
#define AT(field) MG_OPT_AT(struct cf_opts, field)

static const struct mg_opt conform_opts[] = {
	{ .val = 'D', .lname = "dir", .arg = "DIR", .store = MG_OS_STR, .at = AT(parent),
	  .help = "work in a fresh directory under DIR, on the filesystem under\n"
	  "test (default: a tmpfs mounted on a fresh directory under /tmp)", .kind = MG_OV_DIR },
	{ .val = 'n', .lname = "runs", .arg = "N", .store = MG_OS_U64, .at = AT(runs),
	  .min = 1, .max = CF_RUNS_MAX,
	  .help = "run each operation N times, 1..100000 (default 20)" },
	{ .val = MG_OPT_AUTO, .lname = "junit", .arg = "FILE", .store = MG_OS_STR, .at = AT(junit),
	  .help = "also write the rows as JUnit XML to FILE", .kind = MG_OV_FILE },
	{ .val = 'l', .lname = "list", .store = MG_OS_FLAG, .at = AT(list),
	  .help = "print the operations (or only each OP given) and each\n"
	  "role's expectation with its source, and exit (no root,\n"
	  "nothing run)" },
	{ .val = MG_OPT_AUTO, .lname = "observer-only", .store = MG_OS_FLAG,
	  .at = AT(observer_only),
	  .help = "no kernel judge (no BPF, no root needed): the observer's\n"
	  "stat() calls alone, without check's counts and stacks" },
	MG_OPTS_COMMON("the result as one JSON object (docs/json.md)",
		       "the result to FILE instead of stdout", NULL),
	{ 0 }
};

const struct mg_cmd_opts conform_cmdopts = {
	.name = "conform",
	.synopsis = "[-D DIR] [-n N] [--observer-only] [--json] [-o FILE] [--junit FILE] "
		    "[-l] [-- OP...]",
	.about = "Run every operation that changes a ctime, each inode it changes stat()ed right\n"
		 "before and after it, and judge each (operation, role) against the multigrain\n"
		 "contract with check's BPF judge and with the stat() calls (docs/conform.md).\n"
		 "OP...: only these operations (names as -l prints them), in the table's order.\n",
	.opts = conform_opts,
	.exit_note = "  conform: 1 also when check and the observer disagree (a fault of mgtrace)\n",
};

/*
 * The operands argv[first..argc): the operations to run, by name, into o->pick (left
 * NULL without operands: every operation). 0, or MG_EXIT_USAGE with one line naming
 * the unknown operation and listing the names.
 */
static int conform_pick(struct cf_opts *o, int first, int argc, char **argv)
{
	char names[2048];
	size_t i, n = 0;
	int a, k;

	if (first >= argc)
		return 0;
	o->pick = calloc(cf_nops, sizeof(*o->pick));
	if (!o->pick)
		return mg_err(MG_EXIT_FAIL, "conform: out of memory");
	for (a = first; a < argc; a++) {
		if ((k = cf_op_index(argv[a])) >= 0) {
			o->pick[k] = true;
			continue;
		}
		for (i = 0, names[0] = 0; i < cf_nops && n < sizeof(names); i++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
					      cf_ops[i].name);
		return mg_err(MG_EXIT_USAGE, "conform: unknown operation '%s' (the operations: %s)",
			      argv[a], names);
	}
	return 0;
}

/* Parse into o. 0, or MG_EXIT_USAGE with one line printed. */
static int conform_parse(struct cf_opts *o, int argc, char **argv)
{
	struct mg_opt_parser p;
	int c;

	o->runs = CF_RUNS_DEFAULT;
	mg_opt_begin(&p, &conform_cmdopts, argc, argv);
	if ((c = mg_opt_parse(&p, o, NULL)))	/* every option is stored by the table */
		return c;
	if ((c = conform_pick(o, optind, argc, argv)))
		return c;
	if (o->list && (mg_json_output || o->junit))
		return mg_err(MG_EXIT_USAGE, "conform: -l prints a text table; it takes neither "
			      "--json nor --junit");
	if (o->junit && mg_output_path && mg_same_file(mg_output_path, o->junit))
		return mg_err(MG_EXIT_USAGE, "conform: -o '%s' and --junit '%s' are one file: each "
			      "output needs its own", mg_output_path, o->junit);
	return 0;
}

/* The work directory: a fresh one under --dir, else a tmpfs in a mount namespace of our own. */
struct cf_dir {
	char path[4096];
	int fd;
	bool mounted;
};

/* 0, or an exit code with one line printed */
static int dir_make(struct cf_dir *d, const char *parent)
{
	snprintf(d->path, sizeof(d->path), "%s/mgtrace-conform.XXXXXX", parent ? parent : "/tmp");
	if (!mkdtemp(d->path)) {
		int e = errno;

		d->path[0] = 0;
		return mg_err(parent ? mg_path_exit(e) : MG_EXIT_ENV, "conform: cannot create a "
			      "directory under %s: %s", parent ? parent : "/tmp", strerror(e));
	}
	/* as stress: the tmpfs dies with the process, even killed (workload.c private_mounts) */
	if (!parent && !unshare(CLONE_NEWNS) && !mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) &&
	    !mount("mgtrace-conform", d->path, "tmpfs", MS_NOSUID, "size=64m,mode=0700"))
		d->mounted = true;
	d->fd = open(d->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		return mg_err(MG_EXIT_ENV, "conform: cannot open '%s': %s", d->path, strerror(errno));
	return 0;
}

/* The work directory's kernel dev_t (what BPF sees as inode->i_sb->s_dev), 0 unknown. */
static uint32_t dir_dev(const struct cf_dir *d)
{
	struct stat st;
	uint32_t dev = 0;

	if (!fstat(d->fd, &st))
		mg_kdev_from_user(st.st_dev, &dev);
	return dev;
}

static void dir_remove(struct cf_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	if (d->mounted)
		umount2(d->path, MNT_DETACH);
	if (d->path[0])
		rmdir(d->path);
	d->path[0] = 0;
}

/* A stop signal pending (SIGINT, SIGTERM, SIGHUP, blocked from the start): end the sweep. */
static bool stop_pending(void *ctx)
{
	sigset_t set, pend;
	int *sig = ctx, s;

	mg_stop_sigset(&set);
	if (sigpending(&pend))
		return false;
	for (s = 1; s < NSIG; s++)
		if (sigismember(&set, s) && sigismember(&pend, s)) {
			*sig = s;
			return true;
		}
	return false;
}

/* The sweep with the judge (or without), its rows decided. 0, or an exit code (one line). */
static int conform_sweep(struct cf_opts *o, struct cf_sweep *s, struct cf_dir *d,
			 struct cf_judge *j, int *stop_sig)
{
	s->n = (unsigned int)o->runs;
	s->pick = o->pick;
	/* a person at a terminal: the report to it and stderr there too; never into a pipe,
	 * a file (-o) or JSON */
	s->progress = !mg_json_output && !mg_output_path && isatty(STDOUT_FILENO) &&
		      isatty(STDERR_FILENO);
	s->hooks = j ? cf_judge_hooks(j) : NULL;
	s->stop = stop_pending;
	s->stop_ctx = stop_sig;
	if (cf_sweep_rows(s))
		return mg_err(MG_EXIT_FAIL, "conform: out of memory");
	if (cf_sweep_run(s, d->fd))
		return mg_err(MG_EXIT_ENV, "conform: %s", s->why);
	if (j && cf_judge_finish(j, s, o->why_judge, sizeof(o->why_judge)))
		return mg_err(MG_EXIT_FAIL, "conform: %s", o->why_judge);
	s->judged = j != NULL;
	cf_sweep_account(s);
	return 0;
}

int cmd_conform(int argc, char **argv)
{
	struct cf_opts o = { 0 };
	struct cf_sweep s = { 0 };
	struct cf_dir d = { .fd = -1 };
	struct cf_judge *j = NULL;
	sigset_t sigs;
	int ret, err, stop_sig = 0;
	bool reported = false;

	if ((ret = conform_parse(&o, argc, argv)))
		goto out_list;
	if (o.list) {
		if (!(ret = mg_out_open("conform", false))) {
			cf_list(mg_out, o.pick);
			ret = mg_out_close();
		}
		goto out_list;
	}
	mg_stop_sigset(&sigs);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	if ((ret = mg_out_open("conform", false)))
		return ret;
	if ((ret = dir_make(&d, o.parent)))
		goto out;
	o.fs = mg_fs_name(d.path);
	o.dir = d.path;
	/* the kernel's answer (bpf/mgfs.bpf.c): the contract holds only where it is multigrain;
	 * and the device its events carry there (btrfs's and overlayfs's stat() say another) */
	s.dev_stat = dir_dev(&d);
	/* asked with --observer-only too: where BPF works, a filesystem that is not
	 * multigrain is refused there as well (each `later` row would fail, no fault) */
	o.multigrain = mg_fs_multigrain_dev(d.path, &s.dev_kernel, o.mg_why, sizeof(o.mg_why));
	if (o.observer_only)
		snprintf(o.judge, sizeof(o.judge), "none (--observer-only): the observer's stat() "
			 "calls alone, no check counts and no kernel stacks");
	else if ((ret = cf_judge_open(&j, &o, s.dev_kernel ? s.dev_kernel : s.dev_stat,
				      (size_t)o.runs * CF_MAX_ROLES * cf_nops + 4096)))
		goto out;
	if (!o.multigrain) {
		ret = mg_err(MG_EXIT_ENV, "conform: %s (%s) is not multigrain (a stat() there fires no "
			     "fill_mg_cmtime): the contract conform judges does not apply there",
			     d.path, o.fs);
		goto out;
	}
	if ((ret = conform_sweep(&o, &s, &d, j, &stop_sig)))
		goto out;
	o.stop_sig = stop_sig;
	o.seconds = (double)s.elapsed_ns / 1e9;
	ret = cf_run_exit(s.rows, s.nrows);
	if ((err = cf_report(&o, &s, ret)))
		ret = ret == MG_EXIT_FAIL ? ret : err;
	reported = true;
out:
	cf_judge_close(j);
	dir_remove(&d);
	cf_sweep_free(&s);
	if (!reported && ret) {
		if (o.junit)
			cf_junit_error(o.junit, ret);
		mg_out_error("conform", ret);
	}
	if ((err = mg_out_close()) && (ret == MG_EXIT_OK || ret == MG_EXIT_INCONCLUSIVE))
		ret = err;
out_list:
	free(o.pick);
	return ret;
}
