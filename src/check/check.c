// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - `mgtrace check`: trace a workload (the built-in one, or COMMAND),
 * assert the multigrain invariants and the floor gates, print a verdict.
 * This file holds the options and the orchestration; the rules are in
 * checker.c (events) and verdict.c (floor figures, gates, verdict), the
 * workload in workload.c and check_workload.c, the result in check_result.c,
 * and its renderings in check_text.c, check_json.c and check_junit.c.
 *
 * Events come from the timestamp:* tracepoints through a BPF ring buffer
 * (event mode of bpf/mgtrace.bpf.c) into the checker (checker.c); with a
 * function-probe backend, bpf/floor.bpf.c (src/util/floor.c) adds one event per
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
#include "prom.h"
#include "events.h"
#include "commands.h"
#include "floor.skel.h"
#include "mgtrace.skel.h"
#include "testhook.h"
#include "mgfs.h"
#include "pathid.h"

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
		if ((err = mg_events_wait(&cs->ev, check_wait_ms(cs, mg_judge_tick_ms(&cs->judge)))))
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
		if (cs->o.interval) {		/* continuous: each interval's line, -c N */
			if (check_interval_tick(cs, false, -1)) {
				cs->counted_out = cs->o.count && cs->intervals + 1 >= cs->o.count;
				break;
			}
		} else if (!cs->o.argv && (mg_now_ns() >= end || !mg_wl_running(&cs->wl))) {
			break;
		}
		if (mg_run_wait(&cs->run, &zero))	/* a signal (run.stop_sig) or COMMAND's end */
			break;
	}
	return 0;
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
				    .judge = !cs->o.judge_user, .event_clock = true,
				    .stacks = true };
	const char *ks;
	int err;

	if (!mg_backend_has_funcs(cs->run.sess.backend)) {
		const struct mg_attempt *fe = &cs->run.sess.attempts[MG_BE_FENTRY];
		const struct mg_attempt *kp = &cs->run.sess.attempts[MG_BE_KPROBE];

		/* whole reasons (floor_why holds both), never cut mid-word: a JUnit skip */
		if (fe->tried || kp->tried)
			mg_snprintf_words(cs->floor_why, sizeof(cs->floor_why), "needs a function-probe "
					  "backend; this run has tracepoints only: fentry %s; kprobe %s",
					  fe->tried ? fe->why : "not tried", kp->tried ? kp->why : "not tried");
		else
			snprintf(cs->floor_why, sizeof(cs->floor_why), "needs a function-probe "
				 "backend (fentry or kprobe); this run has tracepoints only "
				 "(--backend tracepoint)");
		return;
	}
	err = mg_floor_open(&cs->floor, &cs->run.env, &cs->run.sess, &fo);
	if (err) {
		mg_snprintf_words(cs->floor_why, sizeof(cs->floor_why), "the floor probes did not "
				  "load: %s", cs->floor.why);
		return;
	}
	cs->floor_why[0] = 0;
	ks = mg_kallsyms_problem("mg_floor", true);	/* one scan of /proc/kallsyms */
	if (ks)
		mg_snprintf_words(cs->floor_read_why, sizeof(cs->floor_read_why),
				  "%s: its moves cannot be read", ks);
}

static void cleanup(struct check_state *cs)
{
	check_workload_finish(cs);
	mg_wl_free(&cs->wl);
	mg_events_close(&cs->ev);
	mg_floor_close(&cs->floor);
	mg_run_cleanup(&cs->run);
	mg_checker_free(cs->chk);
	free(cs->o.known);
	cs->o.known = NULL;
	mg_judge_free(&cs->judge);
	free(cs->pending);
	check_order_free(cs);
	check_ksyms_end(cs);	/* the loader thread joined, also on an early exit */
	cs->out = NULL;
	if (cs->junit)	/* not written: its temporary file goes, the earlier --junit stays */
		mg_replace_fclose(&cs->junit_rp, cs->junit, -ECANCELED);
	cs->junit = NULL;
}

/* A stop signal while loading or attaching: one line, exit 4, no report; cleanup() detaches. */
static int stopped_early(struct check_state *cs)
{
	int sig = mg_run_stop_pending(&cs->run);

	return sig ? mg_err(MG_EXIT_INCONCLUSIVE, "check: interrupted by %s while loading and "
			    "attaching, before judging began: no verdict", mg_signal_name(sig)) : 0;
}

/*
 * Before the run: the outputs (-i's streamed, else replaced whole at the end), --dir, the
 * baseline, then the session (loaded and attached), the checker, the ring buffer and the
 * floor probes; COMMAND spawned, waiting to exec. MG_EXIT_OK, or an exit code, one line.
 */
static int check_prepare(struct check_state *cs, struct mg_session_opts *so)
{
	int ret, err;

	if ((ret = (cs->o.interval ? mg_out_open : mg_out_open_once)("check", cs->o.argv != NULL)))
		return ret;
	cs->out = mg_out;
	if ((ret = check_open_junit(cs)))
		return ret;
	if (cs->o.dir) {
		struct stat st;
		/* a file is not a directory: access() would say EACCES (no x bit), even to root */
		int e = stat(cs->o.dir, &st) ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR :
			access(cs->o.dir, W_OK | X_OK) ? errno : 0;

		if (e)
			return mg_err(mg_path_exit(e), "check: cannot use --dir '%s': %s", cs->o.dir,
				      strerror(e));
	}
	/* a baseline of another workload is refused before anything is loaded */
	if ((ret = check_baseline_open(&cs->o)) || (ret = check_known_open(&cs->o)))
		return ret;
	if ((ret = check_judge_config(cs, so)))
		return ret;
	/* the tree (--tree, or COMMAND's by default): COMMAND before the session, which
	 * follows its tree (it waits to exec); judging in user space cannot scope */
	/* the environment and the kernel counter reader before any BPF object (one parse of
	 * the kernel BTF serves both): the tree's follow.c loads before the session */
	if ((ret = mg_run_prepare(&cs->run)))
		return ret;
	if (cs->o.tree && cs->o.tree_default && cs->o.judge_user)
		check_tree_fall_back(cs, "--judge user");
	if (cs->o.tree && ((ret = mg_run_spawn(&cs->run, cs->o.argv)) ||
			   (ret = mg_judge_tree_open(&cs->judge, cs->run.child))))
		return ret;
	if ((ret = mg_run_setup(&cs->run, cs->o.backend, so)) || (ret = stopped_early(cs)))
		return ret;
	if ((ret = check_judge_choose(cs)))
		return ret;
	if ((err = mg_events_open(&cs->ev, bpf_map__fd(cs->run.sess.skel->maps.events), on_event,
				  cs, MG_BATCH_EVENTS)))
		return mg_err_step("ring buffer", err);
	cs->ev.vrec_fn = on_vrec;
	cs->ev.step_fn = on_steprec;
	/* COMMAND's end seen at once, not at the next tick (event_loop() takes the signal) */
	mg_events_wake_on_signals(&cs->ev, &cs->run.sigs);
	floor_setup(cs);
	if (cs->o.argv && !cs->run.child && (ret = mg_run_spawn(&cs->run, cs->o.argv)))
		return ret;
	if (!(cs->pending = calloc(MG_BATCH_EVENTS, sizeof(*cs->pending))))
		return mg_err(MG_EXIT_FAIL, "out of memory");
	return MG_EXIT_OK;
}

/*
 * The run: the clock's first sample, COMMAND let go (or the built-in workload
 * started), the event loop to the end, the workload stopped and the counters
 * read. MG_EXIT_OK, or an exit code with one line printed.
 */
static int check_run(struct check_state *cs)
{
	int ret, err;

	cs->last_sample = mg_now_ns();
	cs->last_offset = mg_realtime_offset_bracket(&cs->last_halfwidth);
	mg_checker_set_tai_offset(cs->chk, mg_tai_minus_realtime());
	if ((ret = stopped_early(cs)))
		return ret;
	if (mg_run_start(&cs->run))
		return MG_EXIT_FAIL;
	/* COMMAND never ran: its one line said why; no report, no verdict (a typo in CI is
	 * not a kernel fault) */
	if ((ret = mg_run_exec_failed(&cs->run)))
		return ret;
	if (!cs->o.argv && !cs->o.interval && (ret = check_workload_start(cs)))
		return ret;
	/* judged system-wide: say which faults lie outside the workload's filesystem */
	if (!cs->o.argv && !cs->o.interval)
		mg_checker_set_home_dev(cs->chk, cs->have_wl_mount ? cs->wl_mount_dev :
					cs->wl.have_dir_dev ? cs->wl.dir_dev : 0);
	if (cs->o.interval)
		check_interval_start(cs);
	if (!mg_json_output)
		fprintf(stderr, "mgtrace: checking with backend %s (tracepoints as %s; floor "
			"probes: %s%s)\n", mg_backend_name(cs->run.sess.backend), cs->run.cfg.tp_flavour,
			cs->floor.skel ? cs->floor.probe : "not loaded: ",
			cs->floor.skel ? "" : cs->floor_why);
	if ((ret = event_loop(cs)))
		return ret;
	if (!cs->o.argv && (err = check_workload_finish(cs)))
		return mg_err_step("check: workload failed", -err);
	/* -c N intervals done while COMMAND runs: mgtrace ends it, as asked (as stat does) */
	cs->ended_child = cs->counted_out && cs->run.child && !cs->run.child_done;
	mg_run_end_child(&cs->run);	/* SIGTERM, SIGKILL after the grace */
	return mg_run_snap(&cs->run, &cs->run.cur) ? MG_EXIT_FAIL : MG_EXIT_OK;
}

/* Runs the kernel skipped (recursion_misses): events neither delivered nor counted lost. */
static void count_missed(struct check_state *cs)
{
	uint64_t n;

	cs->missed_detail[0] = 0;
	cs->undeciding_detail[0] = 0;
	n = mg_session_recursion_misses(&cs->run.sess, cs->missed_detail, sizeof(cs->missed_detail));
	if (cs->floor.skel)
		n += mg_obj_misses_split(cs->floor.skel->obj, mg_floor_undeciding_progs,
					 cs->missed_detail, sizeof(cs->missed_detail),
					 &cs->undeciding_misses, cs->undeciding_detail,
					 sizeof(cs->undeciding_detail));
	mg_checker_missed(cs->chk, n);
}

/*
 * After the run: every event drained and judged, the BPF judging maps and the loss
 * counters read, the held events judged. MG_EXIT_OK, or an exit code and one line.
 */
static int check_drain(struct check_state *cs)
{
	struct mg_bpf_counts *scratch;
	uint64_t lost;
	int err;

	if (cs->o.test_inject && !cs->o.test_inject_interval && (err = check_inject(cs)))
		return err;
	/*
	 * Judged in BPF: the workload has ended; detach, so that "inodes" is read whole
	 * and still (mg_judge_finish(): a bpf_res_spin_lock map cannot be read with
	 * BPF_F_LOCK) and the counts summed are those of the events drained.
	 */
	if (cs->judge.active)
		mgtrace_bpf__detach(cs->run.sess.skel);
	watch_clock(cs);
	feed_pending(cs, false);
	/* drain: the workload has ended, the stream is finite */
	if ((err = mg_events_drain(&cs->ev)) < 0)
		return mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(-err));
	watch_clock(cs);
	feed_pending(cs, true);
	/* since load: every event is fed, from load on */
	scratch = calloc(cs->run.sess.nr_cpus, sizeof(*scratch));
	err = scratch ? mg_events_lost(&cs->run.sess, &cs->floor, scratch, &lost) : -ENOMEM;
	free(scratch);
	if (err)
		return mg_err(MG_EXIT_FAIL, "check: reading the loss counters: %s", strerror(-err));
	lost += cs->ev.short_records;	/* a record too short to judge is an event not checked */
	if ((cs->judge.active &&
	     (err = mg_judge_finish(&cs->judge, cs->chk, cs->run.sess.skel, cs->run.sess.nr_cpus))) ||
	    (!cs->o.judge_user && cs->floor.skel &&
	     (err = mg_judge_floor_finish(cs->chk, cs->floor.skel, cs->run.sess.nr_cpus))))
		return mg_err(MG_EXIT_FAIL, "check: reading the BPF judging maps: %s", strerror(-err));
	mg_checker_finish(cs->chk);	/* every event is in: judge what was held */
	mg_checker_lost(cs->chk, lost);
	count_missed(cs);
	if (!cs->o.argv && check_order_consume(cs, true))
		return mg_err(MG_EXIT_FAIL, "check: out of memory judging cross-file ordering");
	return MG_EXIT_OK;
}

/*
 * The verdict and its reports: the result decided once (check_result.c) and
 * rendered as text or JSON, and as JUnit (*judged set once decided). Returns the verdict's exit code, or 5
 * for a report that could not be written (a FAIL keeps 1).
 */
static int check_render(struct check_state *cs, bool *judged)
{
	struct check_result res;
	struct mg_report rep;
	FILE *junit = cs->junit;
	int ret, err;

	if (mg_report_build(&rep, &cs->run.cfg, &cs->run.first, &cs->run.cur))
		return mg_err(MG_EXIT_FAIL, "out of memory");
	if (check_collect(&res, cs, &rep)) {
		mg_report_free(&rep);
		return mg_err(MG_EXIT_FAIL, "out of memory");
	}
	*judged = true;
	if (cs->o.interval) {
		/* the last interval, drained whole, before the report, its running verdict the
		 * run's (decided above); the report counts it among the intervals */
		check_interval_tick(cs, true, res.v.code);
		res.intervals = cs->intervals;
	}
	if (mg_json_output)
		check_print_json(&res, cs->out);
	else
		check_print_text(&res, cs->out);
	ret = res.v.code;
	cs->junit = NULL;	/* check_write_junit() closes it */
	err = junit ? check_write_junit(&res, junit, &cs->junit_rp, cs->o.junit) : 0;
	cs->junit_written = junit && !err;
	if (err && (ret == MG_EXIT_OK || ret == MG_EXIT_INCONCLUSIVE))
		ret = err;
	check_result_free(&res);
	mg_report_free(&rep);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	struct check_state cs = { 0 };
	struct mg_session_opts so = { .events = true, .event_clock = true };
	bool judged = false;
	int ret, err;

	if ((ret = check_parse_opts(&cs.o, argc, argv)))
		return ret;
	/* from here a SIGINT, SIGTERM or SIGHUP is taken (stopped_early, event_loop); in
	 * continuous check with -o FILE, SIGHUP reopens FILE instead (logrotate) */
	cs.run.hup_reopens = cs.o.interval && mg_output_path && strcmp(mg_output_path, "-");
	mg_run_block_signals(&cs.run);
	if ((ret = mg_test_hook_invert_fine()) < 0)
		return MG_EXIT_USAGE;
	cs.o.test_invert_fine = ret;
	if ((ret = mg_test_hook_inject()) < 0)
		return MG_EXIT_USAGE;
	cs.o.test_inject = ret;
	if ((ret = mg_test_hook_inject_interval()) < 0)
		return MG_EXIT_USAGE;
	cs.o.test_inject_interval = ret;
	if ((ret = mg_test_hook_ksyms_file()) < 0)
		return MG_EXIT_USAGE;
	cs.o.test_ksyms_file = ret;
	so.ringbuf_bytes = (unsigned int)cs.o.ringbuf_bytes;
	if (!(ret = check_prepare(&cs, &so)) && !(ret = check_run(&cs)) && !(ret = check_drain(&cs))) {
		ret = check_render(&cs, &judged);
		/* --prometheus not written: exit 5, as for -o (a FAIL stays 1) */
		if (cs.prom_failed && (ret == MG_EXIT_OK || ret == MG_EXIT_INCONCLUSIVE))
			ret = MG_EXIT_OUTPUT;
	}
	cleanup(&cs);
	/* no verdict (an unsupported environment, COMMAND not run): the reports asked for say
	 * why, never left empty */
	if (!judged && ret) {
		if (cs.o.junit)
			check_write_junit_error(&cs, ret);
		mg_out_error("check", ret);
		/* --prometheus too: never an earlier run's counts, or the start's, left as if judged */
		if (cs.o.prom && !cs.prom_failed) {
			mg_prom_set_command("check");
			mg_prom_write_error(cs.o.prom, "mgtrace_check", ret);
		}
	}
	if ((err = mg_out_close()) && (ret == MG_EXIT_OK || ret == MG_EXIT_INCONCLUSIVE))
		ret = err;
	/* a report asked for and not written whole (-o, --prometheus: exit 5) after the JUnit
	 * got the verdict: it must not read green, so it becomes the error record, as for a
	 * run with no verdict (the write's line is mg_last_err) */
	if (ret == MG_EXIT_OUTPUT && cs.junit_written)
		check_write_junit_error(&cs, ret);
	return ret;
}
