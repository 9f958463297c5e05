// SPDX-License-Identifier: GPL-2.0
/*
 * check_workload.c - the built-in workload of `mgtrace check` (workload.c runs
 * it): its directory must be multigrain, and each thread's timed writes with
 * the fstat() that shows their stamps go to the cross-file ordering judge
 * (check_order.c, invariant 3).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check_int.h"
#include "mgfs.h"
#include "pathid.h"

static struct mg_ts ts_of(const struct timespec *t)
{
	return (struct mg_ts){ t->tv_sec, (uint32_t)t->tv_nsec };
}

/* Workload hook: record a timed write and the fstat() that shows its stamps (invariant 3). */
static int record_op(void *ctx, int thread, int file, uint64_t t0, uint64_t t1,
		     const struct stat *st)
{
	/* the recording thread's id and comm, as events report them: read once per thread */
	static __thread uint32_t tid;
	static __thread char comm[16];
	struct check_state *cs = ctx;
	struct mg_op op;
	uint32_t dev;

	if (!tid) {
		tid = (uint32_t)gettid();
		if (prctl(PR_GET_NAME, comm))
			comm[0] = 0;
		comm[sizeof(comm) - 1] = 0;
	}
	if (mg_kdev_from_user(st->st_dev, &dev))
		return EOVERFLOW;
	op = (struct mg_op){ .start_ns = t0, .end_ns = t1, .ctime = ts_of(&st->st_ctim),
			     .mtime = ts_of(&st->st_mtim), .ino = st->st_ino, .dev = dev,
			     .thread = (uint32_t)thread, .tid = tid, .cpu = (uint32_t)sched_getcpu() };
	memcpy(op.comm, comm, sizeof(comm));
	check_order_record(cs, thread, &op);
	return 0;
}

/*
 * The built-in workload's directory must be multigrain, or its timestamps are all
 * coarse-grained and nothing it does is checked (mgfs.h asks the kernel). -EMEDIUMTYPE
 * with err set when it is not; a kernel that cannot say is warned about, not refused.
 */
static int wl_dir_multigrain(const char *dir, void *ctx, char *err, size_t errlen)
{
	struct check_state *cs = ctx;
	const char *parent = cs->o.dir;
	char why[300], fstype[32];
	int mg = mg_fs_multigrain(dir, why, sizeof(why));

	/* where it is, as mountinfo says (stat's st_dev is not in it on a btrfs subvolume) */
	cs->have_wl_mount = !mg_path_mount(dir, &cs->wl_mount_dev, cs->wl_mount,
					   sizeof(cs->wl_mount), fstype, sizeof(fstype));
	if (mg < 0)
		fprintf(stderr, "mgtrace: check: cannot tell whether the workload's directory is "
			"multigrain (%s); checking on\n", why);
	if (mg)
		return 0;
	snprintf(err, errlen, "the workload's directory under %s is on %s, which is not multigrain "
		 "(a stat() there fired no timestamp:fill_mg_cmtime: no FS_MGTIME), so its "
		 "timestamps are all coarse-grained and there is nothing to check; choose --dir on a "
		 "multigrain filesystem, such as ext4, xfs, btrfs or tmpfs",
		 parent ? parent : "/tmp", fstype);
	return -EMEDIUMTYPE;
}

/*
 * Workload hook while the directory's mkdir has not returned (a frozen --dir):
 * one line after CHECK_BLOCKED_NOTE_NS, and a stop signal gives it up.
 */
static int wl_waiting(void *ctx, const char *what, uint64_t waited_ns)
{
	static const struct timespec zero = { 0, 0 };
	struct check_state *cs = ctx;

	if (waited_ns >= CHECK_BLOCKED_NOTE_NS && !cs->wl_wait_said) {
		fprintf(stderr, "mgtrace: check: %s under %s has not returned after %.1f s: blocked "
			"in the kernel (a frozen filesystem? fsfreeze -u thaws it); a stop signal "
			"ends the run\n", what, cs->o.dir, (double)waited_ns / 1e9);
		cs->wl_wait_said = true;
	}
	return mg_run_wait(&cs->run, &zero);
}

/* Threads loop write(f1) stat(f2) write(f2) stat(f2) write(f1) stat(f1), timing the last two. */
int check_workload_start(struct check_state *cs)
{
	static const struct mg_wl_step steps[] = {
		{ MG_WL_WRITE, 0 }, { MG_WL_STAT, 1 }, { MG_WL_TWRITE, 1 }, { MG_WL_TWRITE, 0 },
	};
	struct mg_wl_opts o = {
		.threads = cs->o.threads, .files = CHECK_WL_FILES, .steps = steps, .nsteps = 4,
		.rate = cs->o.rate, .parent = cs->o.dir, .prefix = "mgtrace-check",
		.hook = record_op, .ctx = cs, .dir_ready = wl_dir_multigrain,
		.waiting = wl_waiting,
	};
	char why[300];
	int err;

	if (check_order_start(cs, cs->o.threads))
		return mg_err(MG_EXIT_FAIL, "out of memory");
	err = mg_wl_start(&cs->wl, &o, why, sizeof(why));
	if (err == -EINTR)
		return mg_err(MG_EXIT_INCONCLUSIVE, "check: interrupted by %s while mkdir under %s "
			      "was blocked in the kernel, before the workload started: no verdict",
			      mg_signal_name(cs->run.stop_sig), cs->o.dir);
	if (err)
		return mg_err(err == -ENOMEM || err == -EAGAIN ? MG_EXIT_FAIL : MG_EXIT_ENV,
			      "check: %s", why);
	cs->wl_started = true;
	cs->wl_fs = mg_fs_name(cs->wl.dir);
	return MG_EXIT_OK;
}

/*
 * Wait for the stopped threads, taking their modifications. Threads that have not
 * returned CHECK_BLOCKED_NOTE_NS after the stop are said blocked on stderr, and a
 * stop signal then ends the wait without them (mg_wl_abandon(), wl_abandoned set,
 * false returned). True: they all returned.
 */
static bool wait_threads(struct check_state *cs)
{
	static const struct timespec ms = { 0, 1000000 };
	uint64_t t0 = mg_now_ns();
	char why[300];
	bool said = false;

	while (mg_wl_running(&cs->wl)) {
		check_order_consume(cs, false);
		if (mg_now_ns() - t0 < CHECK_BLOCKED_NOTE_NS) {
			usleep(1000);
			continue;
		}
		if (!said && mg_wl_blocked_text(&cs->wl, why, sizeof(why))) {
			fprintf(stderr, "mgtrace: check: %s; a stop signal ends the run without "
				"them\n", why);
			said = true;
		}
		if (mg_run_wait(&cs->run, &ms) && mg_wl_blocked_text(&cs->wl, why, sizeof(why))) {
			snprintf(cs->wl_abandoned, sizeof(cs->wl_abandoned), "%s", why);
			mg_wl_abandon(&cs->wl);
			fprintf(stderr, "mgtrace: check: the run ends without them: the report follows; "
				"this process exits when the kernel lets them return, and a cleaner "
				"process then removes %s\n", cs->wl.dir);
			cs->wl_started = false;
			return false;
		}
	}
	return true;
}

int check_workload_finish(struct check_state *cs)
{
	int err;

	/* the threads may wait on a full ring for their last modifications: keep taking */
	if (cs->wl_started) {
		mg_wl_stop(&cs->wl);
		if (!wait_threads(cs))
			return 0;
	}
	err = cs->wl_started ? mg_wl_finish(&cs->wl) : 0;

	cs->wl_started = false;
	return err;
}

