// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - `mgtrace check`: trace a workload (the built-in one, or COMMAND),
 * assert the multigrain invariants and the floor gates, print a verdict.
 * This file holds the options and the orchestration; the rules are in
 * checker.c (events) and verdict.c (floor figures, gates, verdict), the
 * workload in workload.c, and the renderings in check_report.c and
 * check_json.c.
 *
 * Events come from the timestamp:* tracepoints through a BPF ring buffer
 * (event mode of bpf/mgtrace.bpf.c) into the checker (checker.c); with a
 * function-probe backend, bpf/floor.bpf.c (src/floor.c) adds one event per
 * fine-grained stamp to the same ring buffer, carrying the floor before and
 * after and the kernel's fine-stamp decision (the two floor invariants). The
 * floor figures come from the same counters as `mgtrace stat` (run.c). The built-in
 * workload also checks cross-file ordering from user space (invariant 3), and
 * the realtime clock is watched for steps (invariant 5).
 *
 * Exit: 0 all hold, 1 violation or threshold breached, 2 usage, 3 environment,
 * 4 inconclusive (events lost or not tracked: a pass cannot be claimed).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "check_int.h"
#include "opts.h"
#include "events.h"
#include "commands.h"
#include "floor.skel.h"
#include "mgtrace.skel.h"
#include "testhook.h"
#include "mgfs.h"
#include "pathid.h"

/* ---- built-in workload ---- */

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

/* Threads loop write(f1) stat(f2) write(f2) stat(f2) write(f1) stat(f1), timing the last two. */
static int workload_start(struct check_state *cs)
{
	static const struct mg_wl_step steps[] = {
		{ MG_WL_WRITE, 0 }, { MG_WL_STAT, 1 }, { MG_WL_TWRITE, 1 }, { MG_WL_TWRITE, 0 },
	};
	struct mg_wl_opts o = {
		.threads = cs->o.threads, .files = CHECK_WL_FILES, .steps = steps, .nsteps = 4,
		.rate = cs->o.rate, .parent = cs->o.dir, .prefix = "mgtrace-check",
		.hook = record_op, .ctx = cs, .dir_ready = wl_dir_multigrain,
	};
	char why[300];
	int err;

	if (check_order_start(cs, cs->o.threads))
		return mg_err(MG_EXIT_FAIL, "out of memory");
	if ((err = mg_wl_start(&cs->wl, &o, why, sizeof(why))))
		return mg_err(err == -ENOMEM || err == -EAGAIN ? MG_EXIT_FAIL : MG_EXIT_ENV,
			      "check: %s", why);
	cs->wl_started = true;
	cs->wl_fs = mg_fs_name(cs->wl.dir);
	return MG_EXIT_OK;
}

static int workload_finish(struct check_state *cs)
{
	int err;

	/* the threads may wait on a full ring for their last modifications: keep taking */
	if (cs->wl_started) {
		mg_wl_stop(&cs->wl);
		while (mg_wl_running(&cs->wl)) {
			check_order_consume(cs, false);
			usleep(1000);
		}
	}
	err = cs->wl_started ? mg_wl_finish(&cs->wl) : 0;

	cs->wl_started = false;
	return err;
}

/* ---- event loop ---- */

static void on_event(void *ctx, const struct mg_event *e)
{
	struct check_state *cs = ctx;

	/*
	 * An event made after the last clock sample is held until the next sample:
	 * a clock step it depends on may not be recorded yet. Consumption reads up
	 * to the producer position, which can be newer than the sample.
	 */
	if (e->ts_ns > cs->last_sample && cs->pending && cs->npending < MG_BATCH_EVENTS)
		cs->pending[cs->npending++] = *e;
	else
		mg_checker_event(cs->chk, e);
}

/* A violation found in BPF: held until the end, when every clock step is recorded. */
static void on_vrec(void *ctx, const struct mg_vrec *r)
{
	struct check_state *cs = ctx;

	mg_judge_record(&cs->judge, cs->chk, r);
}

/* A realtime step BPF saw (one record per CPU that saw it; the checker merges them). */
static void on_steprec(void *ctx, const struct mg_steprec *r)
{
	struct check_state *cs = ctx;

	mg_checker_kernel_step(cs->chk, r->t0_ns, r->t1_ns, r->delta_lo, r->delta_hi);
}

/* Feed held-back events made before the last clock sample (all of them if flush). */
static void feed_pending(struct check_state *cs, bool flush)
{
	size_t i, kept = 0;

	for (i = 0; i < cs->npending; i++) {
		if (!flush && cs->pending[i].ts_ns > cs->last_sample)
			cs->pending[kept++] = cs->pending[i];
		else
			mg_checker_event(cs->chk, &cs->pending[i]);
	}
	cs->npending = kept;
}

/*
 * Sample the realtime offset. The sample is read somewhere in [before, after];
 * a step between the previous sample and this one happened somewhere in
 * [previous before, this after], and is recorded with that interval. Any
 * change larger than the two samples' uncertainty is a step: REALTIME and
 * MONOTONIC are slewed alike, so their difference moves only when the clock
 * is set. The size recorded is the largest the two brackets allow.
 */
static void watch_clock(struct check_state *cs)
{
	uint64_t before = mg_now_ns(), after;
	int64_t hw, off = mg_realtime_offset_bracket(&hw), d = off - cs->last_offset;
	int64_t tol = hw + cs->last_halfwidth;

	after = mg_now_ns();
	if (d > tol || d < -tol)
		mg_checker_clock_step(cs->chk, cs->last_sample, after, d < 0 ? d - tol : d + tol);
	cs->last_offset = off;
	cs->last_halfwidth = hw;
	cs->last_sample = before;
}

static int event_loop(struct check_state *cs)
{
	static const struct timespec zero = { 0, 0 };
	uint64_t end = mg_now_ns() + (uint64_t)(cs->o.duration * 1e9);
	int err;

	for (;;) {
		/*
		 * Wait, sample the clock, then consume: every event consumed was made
		 * before the sample, so a step that explains it is already recorded.
		 */
		if ((err = mg_events_wait(&cs->ev, (int)mg_judge_tick_ms(&cs->judge))))
			return mg_err(MG_EXIT_FAIL, "epoll: %s", strerror(-err));
		watch_clock(cs);
		feed_pending(cs, false);
		if ((err = mg_events_consume(&cs->ev)) < 0)
			return mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(-err));
		if (check_order_consume(cs, false))
			return mg_err(MG_EXIT_FAIL, "out of memory judging cross-file ordering");
		/* forget inodes gone when the map fills (judged in BPF) */
		mg_judge_collect(&cs->judge, cs->run.sess.skel);
		/* the planned end first: a signal taken after it (a loop running late on a
		 * saturated machine) did not cut the run short */
		if (!cs->o.argv && (mg_now_ns() >= end || !mg_wl_running(&cs->wl)))
			break;
		if (mg_run_wait(&cs->run, &zero))	/* a signal (run.stop_sig) or COMMAND's end */
			break;
	}
	return 0;
}

/* ---- verdict and reports ---- */

/* The floor figures of this window and the gates set on them. */
static void eval_gates(struct check_state *cs, const struct mg_report *rep)
{
	int i;

	mg_figures_from_report(&cs->fig, rep);
	cs->gates_failed = mg_gates_eval(cs->gates, &cs->fig, cs->o.limit,
					 cs->o.baseline ? &cs->o.base : NULL, cs->o.baseline_factor);
	cs->gates_unknown = 0;
	for (i = 0; i < MG_F_NR; i++)
		cs->gates_unknown += cs->gates[i].result < 0 &&
				     (cs->gates[i].limit >= 0 || cs->gates[i].have_base);
}

/* The verdict (verdict.c); first whether and how a signal cut the run short. */
static void decide(struct check_state *cs, struct mg_verdict *v)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);
	const struct mg_run *r = &cs->run;
	struct mg_verdict_in in;

	/* a signal before the planned end (the built-in workload's duration, COMMAND's own exit) */
	cs->interrupt_why[0] = 0;
	if (r->stop_sig) {
		struct mg_cmd_end ce = {
			.abandoned = r->child_abandoned, .signal = r->child_signal,
			.status = r->child_status,
			.after_stop_s = r->child_end_ns > r->stop_ns ?
					(double)(r->child_end_ns - r->stop_ns) / 1e9 : 0.0,
		};

		mg_verdict_interrupt_text(cs->interrupt_why, sizeof(cs->interrupt_why),
					  mg_signal_name(r->stop_sig), r->stop_ns > r->first.t_ns ?
					  (double)(r->stop_ns - r->first.t_ns) / 1e9 : 0.0,
					  cs->o.argv ? -1.0 : cs->o.duration, cs->o.argv ? &ce : NULL);
	}
	cs->status_from_signal = cs->o.argv && mg_run_status_from_stop(r);
	in = (struct mg_verdict_in){
		.faults = mg_checker_faults(cs->chk), .gates_failed = cs->gates_failed,
		.gates_unknown = cs->gates_unknown, .command = cs->o.argv != NULL,
		/* a COMMAND the run gave up on has no status: not a COMMAND failure */
		.command_status = cs->run.child_abandoned ? 0 : cs->run.child_status,
		.command_signal = cs->run.child_signal,
		.lost = st->lost,
		.untracked = st->untracked_events, .events = st->events, .missed = st->missed,
		.max_inodes = cs->o.max_inodes, .ringbuf_bytes = cs->o.ringbuf_bytes,
		.not_followed = mg_judge_tree_not_followed(&cs->judge),
		.lock_failed = st->lock_failed_events,
		.step_undecided = mg_checker_undecided(cs->chk),
		.interrupted = r->stop_sig ? cs->interrupt_why : NULL,
		.status_from_signal = cs->status_from_signal,
	};

	mg_verdict_decide(v, &in);
}

/*
 * Load bpf/floor.bpf.c with the session's function-probe backend, sharing its
 * ring buffer: its events reach the checker through on_event like the
 * tracepoint events. Sets floor_why ("" when the two floor invariants are
 * checked) and floor_read_why (mg_floor unreadable: only the fine-stamp one is).
 */
static void floor_setup(struct check_state *cs)
{
	struct mg_floor_opts fo = { .backend = cs->run.sess.backend,
				    .test_invert_fine = cs->o.test_invert_fine,
				    .judge = !cs->o.judge_user };
	const char *ks;
	int err;

	if (!mg_backend_has_funcs(cs->run.sess.backend)) {
		const struct mg_attempt *fe = &cs->run.sess.attempts[MG_BE_FENTRY];
		const struct mg_attempt *kp = &cs->run.sess.attempts[MG_BE_KPROBE];

		if (fe->tried || kp->tried)
			snprintf(cs->floor_why, sizeof(cs->floor_why), "needs a function-probe "
				 "backend; this run has tracepoints only: fentry %.150s; kprobe %.150s",
				 fe->tried ? fe->why : "not tried", kp->tried ? kp->why : "not tried");
		else
			snprintf(cs->floor_why, sizeof(cs->floor_why), "needs a function-probe "
				 "backend (fentry or kprobe); this run has tracepoints only "
				 "(--backend tracepoint)");
		return;
	}
	err = mg_floor_open(&cs->floor, &cs->run.env, &cs->run.sess, &fo);
	if (err) {
		snprintf(cs->floor_why, sizeof(cs->floor_why), "the floor probes did not load: %s",
			 cs->floor.why);
		return;
	}
	cs->floor_why[0] = 0;
	ks = mg_kallsyms_problem("mg_floor", true);	/* one scan of /proc/kallsyms */
	if (ks)
		snprintf(cs->floor_read_why, sizeof(cs->floor_read_why),
			 "%s: its moves cannot be read", ks);
}

static void cleanup(struct check_state *cs)
{
	workload_finish(cs);
	mg_wl_free(&cs->wl);
	mg_events_close(&cs->ev);
	mg_floor_close(&cs->floor);
	mg_run_cleanup(&cs->run);
	mg_checker_free(cs->chk);
	mg_judge_free(&cs->judge);
	free(cs->pending);
	check_order_free(cs);
	cs->out = NULL;
	if (cs->junit)
		fclose(cs->junit);
	cs->junit = NULL;
}

/* A stop signal while loading or attaching: one line, exit 4, no report; cleanup() detaches. */
static int stopped_early(struct check_state *cs)
{
	int sig = mg_run_stop_pending(&cs->run);

	return sig ? mg_err(MG_EXIT_INCONCLUSIVE, "check: interrupted by %s while loading and "
			    "attaching, before judging began: no verdict", mg_signal_name(sig)) : 0;
}

int cmd_check(int argc, char **argv)
{
	struct check_state cs = { 0 };
	struct mg_session_opts so = { .events = true };
	struct mg_report rep;
	struct mg_verdict v;
	struct mg_bpf_counts *scratch;
	uint64_t lost;
	bool judged = false;
	int ret, err;

	if ((ret = check_parse_opts(&cs.o, argc, argv)))
		return ret;
	/* from here a SIGINT, SIGTERM or SIGHUP is taken (stopped_early, event_loop) */
	mg_run_block_signals(&cs.run);
	if ((ret = mg_test_hook_invert_fine()) < 0)
		return MG_EXIT_USAGE;
	cs.o.test_invert_fine = ret;
	if ((ret = mg_test_hook_inject()) < 0)
		return MG_EXIT_USAGE;
	cs.o.test_inject = ret;
	ret = MG_EXIT_OK;
	so.ringbuf_bytes = (unsigned int)cs.o.ringbuf_bytes;
	if ((ret = mg_out_open("check", cs.o.argv != NULL)))
		return ret;
	cs.out = mg_out;
	if (cs.o.junit && !(cs.junit = fopen(cs.o.junit, "we"))) {
		ret = mg_err(mg_path_exit(errno), "check: cannot open '%s': %s", cs.o.junit,
			     strerror(errno));
		cs.o.junit = NULL;	/* no error report where none can be written */
		goto out;
	}
	if (cs.o.dir && access(cs.o.dir, W_OK | X_OK)) {
		ret = mg_err(mg_path_exit(errno), "check: cannot use --dir '%s': %s", cs.o.dir,
			     strerror(errno));
		goto out;
	}
	/* a baseline of another workload is refused before anything is loaded */
	if ((ret = check_baseline_open(&cs.o)))
		goto out;
	/* tp_btf judges the ctime events in BPF (judge.c); raw_tp sends them here */
	cs.judge.max_inodes = cs.o.max_inodes;
	cs.judge.user = cs.o.judge_user;
	cs.judge.ringbuf_bytes = cs.o.ringbuf_set ? 0 : MG_JUDGE_RINGBUF_DEFAULT;
	cs.judge.tai_minus_real = mg_tai_minus_realtime();
	cs.judge.env = &cs.run.env;	/* probed by mg_run_setup() before the load */
	so.pre_load = mg_judge_pre_load;
	so.pre_load_ctx = &cs.judge;
	/* --tree: COMMAND before the session, which follows its tree (it waits to exec) */
	if (cs.o.tree && ((ret = mg_run_spawn(&cs.run, cs.o.argv)) ||
			  (ret = mg_judge_tree_open(&cs.judge, cs.run.child))))
		goto out;
	if ((ret = mg_run_setup(&cs.run, cs.o.backend, &so)) || (ret = stopped_early(&cs)))
		goto out;
	cs.judge.active = cs.run.sess.skel && cs.run.sess.tp_btf && cs.judge.configured;
	if (cs.o.tree && !cs.judge.active) {
		ret = mg_err(MG_EXIT_ENV, "check: --tree needs judging in BPF (tracepoints as tp_btf, "
			     "bpf_res_spin_lock: kernel 6.15+); this session judges in user space");
		goto out;
	}
	cs.judge.ringbuf_used = cs.run.sess.skel ? bpf_map__max_entries(cs.run.sess.skel->maps.events) : 0;
	cs.chk = mg_checker_new(cs.judge.active ? 1 : cs.o.max_inodes, 100);
	if (!cs.chk) {
		/* the machine cannot hold what --max-inodes asks: not a failed check */
		ret = mg_err(MG_EXIT_ENV, "check: out of memory for %llu inodes (--max-inodes)",
			     (unsigned long long)cs.o.max_inodes);
		goto out;
	}
	if (cs.judge.active)
		mg_checker_judged_in_bpf(cs.chk);
	if ((err = mg_events_open(&cs.ev, bpf_map__fd(cs.run.sess.skel->maps.events), on_event,
				  &cs, MG_BATCH_EVENTS))) {
		ret = mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(-err));
		goto out;
	}
	cs.ev.vrec_fn = on_vrec;
	cs.ev.step_fn = on_steprec;
	floor_setup(&cs);
	if (cs.o.argv && !cs.run.child && (ret = mg_run_spawn(&cs.run, cs.o.argv)))
		goto out;
	cs.pending = calloc(MG_BATCH_EVENTS, sizeof(*cs.pending));
	if (!cs.pending) {
		ret = mg_err(MG_EXIT_FAIL, "out of memory");
		goto out;
	}
	cs.last_sample = mg_now_ns();
	cs.last_offset = mg_realtime_offset_bracket(&cs.last_halfwidth);
	mg_checker_set_tai_offset(cs.chk, mg_tai_minus_realtime());
	if ((ret = stopped_early(&cs)))
		goto out;
	if (mg_run_start(&cs.run)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	/* COMMAND never ran: its one line said why; no report, no verdict (a typo in CI is
	 * not a kernel fault) */
	if ((ret = mg_run_exec_failed(&cs.run)))
		goto out;
	if (!cs.o.argv && (ret = workload_start(&cs)))
		goto out;
	if (!mg_json_output)
		fprintf(stderr, "mgtrace: checking with backend %s (tracepoints as %s; floor "
			"probes: %s%s)\n", mg_backend_name(cs.run.sess.backend), cs.run.cfg.tp_flavour,
			cs.floor.skel ? cs.floor.probe : "not loaded: ",
			cs.floor.skel ? "" : cs.floor_why);
	if ((ret = event_loop(&cs)))
		goto out;
	if (!cs.o.argv && (err = workload_finish(&cs))) {
		ret = mg_err(MG_EXIT_FAIL, "check: workload failed: %s", strerror(err));
		goto out;
	}
	mg_run_end_child(&cs.run);
	if (mg_run_snap(&cs.run, &cs.run.cur)) {
		ret = MG_EXIT_FAIL;
		goto out;
	}
	if (cs.o.test_inject) {
		char why[200];

		if ((err = mg_judge_inject(&cs.judge, cs.run.sess.skel, cs.chk, cs.o.test_inject,
					   why, sizeof(why)))) {
			ret = mg_err(MG_EXIT_FAIL, "check: MGTRACE_TEST_INJECT: %s", why);
			goto out;
		}
	}
	/*
	 * Judged in BPF: the workload has ended; detach, so that "inodes" is read whole
	 * and still (mg_judge_finish(): a bpf_res_spin_lock map cannot be read with
	 * BPF_F_LOCK) and the counts summed are those of the events drained.
	 */
	if (cs.judge.active)
		mgtrace_bpf__detach(cs.run.sess.skel);
	watch_clock(&cs);
	feed_pending(&cs, false);
	/* drain: the workload has ended, the stream is finite */
	if ((err = mg_events_drain(&cs.ev)) < 0) {
		ret = mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(-err));
		goto out;
	}
	watch_clock(&cs);
	feed_pending(&cs, true);
	/* since load: every event is fed, from load on */
	scratch = calloc(cs.run.sess.nr_cpus, sizeof(*scratch));
	err = scratch ? mg_events_lost(&cs.run.sess, &cs.floor, scratch, &lost) : -ENOMEM;
	free(scratch);
	if (err) {
		ret = mg_err(MG_EXIT_FAIL, "check: reading the loss counters: %s", strerror(-err));
		goto out;
	}
	lost += cs.ev.short_records;	/* a record too short to judge is an event not checked */
	if ((cs.judge.active &&
	     (err = mg_judge_finish(&cs.judge, cs.chk, cs.run.sess.skel, cs.run.sess.nr_cpus))) ||
	    (!cs.o.judge_user && cs.floor.skel &&
	     (err = mg_judge_floor_finish(cs.chk, cs.floor.skel, cs.run.sess.nr_cpus)))) {
		ret = mg_err(MG_EXIT_FAIL, "check: reading the BPF judging maps: %s", strerror(-err));
		goto out;
	}
	mg_checker_finish(cs.chk);	/* every event is in: judge what was held */
	mg_checker_lost(cs.chk, lost);
	/* runs the kernel skipped (recursion_misses): events neither delivered nor counted lost */
	cs.missed_detail[0] = 0;
	cs.undeciding_detail[0] = 0;
	mg_checker_missed(cs.chk, mg_session_recursion_misses(&cs.run.sess, cs.missed_detail,
							      sizeof(cs.missed_detail)) +
			  (cs.floor.skel ? mg_obj_misses_split(cs.floor.skel->obj,
							       mg_floor_undeciding_progs,
							       cs.missed_detail,
							       sizeof(cs.missed_detail),
							       &cs.undeciding_misses,
							       cs.undeciding_detail,
							       sizeof(cs.undeciding_detail)) : 0));
	if (!cs.o.argv && check_order_consume(&cs, true)) {
		ret = mg_err(MG_EXIT_FAIL, "check: out of memory judging cross-file ordering");
		goto out;
	}
	if (mg_report_build(&rep, &cs.run.cfg, &cs.run.first, &cs.run.cur)) {
		ret = mg_err(MG_EXIT_FAIL, "out of memory");
		goto out;
	}
	eval_gates(&cs, &rep);
	decide(&cs, &v);
	if (mg_json_output)
		check_print_json(&cs, &rep, &v);
	else
		check_print_text(&cs, &rep, &v);
	mg_report_free(&rep);
	ret = v.code;
	judged = true;
	/* a report that could not be written: exit 5 instead of a pass or an inconclusive
	 * verdict; a failed check keeps 1 */
	if (cs.o.junit && (err = check_write_junit(&cs, &v)) &&
	    (ret == MG_EXIT_OK || ret == MG_EXIT_INCONCLUSIVE))
		ret = err;
out:
	cleanup(&cs);
	/* no verdict (an unsupported environment, COMMAND not run): the reports asked for say
	 * why, never left empty */
	if (!judged && ret) {
		if (cs.o.junit)
			check_write_junit_error(&cs, ret);
		mg_out_error("check", ret);
	}
	if ((err = mg_out_close()) && (ret == MG_EXIT_OK || ret == MG_EXIT_INCONCLUSIVE))
		ret = err;
	return ret;
}
