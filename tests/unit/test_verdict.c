// SPDX-License-Identifier: GPL-2.0
/* test_verdict.c - tests of src/util/verdict.c, baseline.c (and run.c's stop signals): the verdict. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <jansson.h>
#include "unit.h"
#include "baseline.h"
#include "escape.h"
#include "run.h"
#include "verdict.h"

/* Write text to a fresh temporary file; its path in path (a mkstemp template). */
static void write_tmp(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs(text, f);
	fclose(f);
}

/*
 * --baseline's workload identity (baseline.c): a report of another COMMAND, of the
 * built-in workload against a COMMAND, or of the built-in workload with other threads
 * or rate is refused; the same argv or parameters pass whatever the duration; another
 * kernel or filesystem only warns.
 */
static void test_baseline_workload(void)
{
	char pc[] = "/tmp/mgtrace-unit-XXXXXX", pb[] = "/tmp/mgtrace-unit-XXXXXX";
	char *argv_same[] = { "sh", "-c", "touch x\n\xff", NULL };
	char *argv_other[] = { "sh", "-c", "touch y", NULL };
	char *argv_more[] = { "sh", "-c", "touch x\n\xff", "", NULL };
	struct mg_workload_id cmd, bi, now = { 0 };
	struct mg_figures fig;
	char err[600] = "", warn[600] = "";	/* printed by passing checks too */
	json_t *a;
	char *s;

	/* the report's own encoding of an argv that is not valid UTF-8 */
	a = mg_argv_json(argv_same);
	s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	{
		char text[400];

		snprintf(text, sizeof(text), "{\"schema_version\":1,\"type\":\"check\",\"kernel_release\":\"6.18.0\","
			 "\"workload\":\"command\",\"command\":%s,\"duration_s\":0.01,"
			 "\"floor_figures\":{\"floor_swaps_per_sec\":5}}\n", s);
		write_tmp(pc, text);
	}
	free(s);
	write_tmp(pb, "{\"schema_version\":1,\"type\":\"check\",\"kernel_release\":\"6.18.0\",\"workload\":\"built-in\","
		  "\"workload_dir\":{\"dev\":\"0:39\",\"mount\":null,\"fs\":\"tmpfs\"},"
		  "\"workload_params\":{\"threads\":2,\"files_per_thread\":2,\"rate_per_thread\":20000},"
		  "\"duration_s\":3.0,\"floor_figures\":{\"floor_swaps_per_update\":0.4}}\n");
	ASSERT_EQ(mg_baseline_load(pc, &fig, &cmd, err, sizeof(err)), 0, "baseline: a COMMAND report "
		  "loads: %s", err);
	ASSERT_EQ(mg_baseline_load(pb, &fig, &bi, err, sizeof(err)), 0, "baseline: a built-in "
		  "report loads: %s", err);
	ASSERT_OK_PTR(cmd.command, "baseline: the identity is read (fs %s)", bi.fs);
	ASSERT_TRUE(bi.have_params, "baseline: the identity is read (fs %s)", bi.fs);
	ASSERT_EQ(bi.threads, 2, "baseline: the identity is read (fs %s)", bi.fs);
	ASSERT_EQ(bi.files, 2, "baseline: the identity is read (fs %s)", bi.fs);
	ASSERT_EQ(bi.rate, 20000, "baseline: the identity is read (fs %s)", bi.fs);
	ASSERT_STREQ(bi.fs, "tmpfs", "baseline: the identity is read (fs %s)", bi.fs);
	ASSERT_STREQ(bi.release, "6.18.0", "baseline: the identity is read (fs %s)", bi.fs);

	/* COMMAND: the same argv (escaped bytes included) passes, silently */
	snprintf(now.release, sizeof(now.release), "6.18.0");
	now.command = true;
	now.argv = mg_argv_json(argv_same);
	ASSERT_EQ(mg_workload_id_compare(pc, &cmd, &now, err, sizeof(err), warn, sizeof(warn)), 0,
		  "baseline: the same COMMAND passes (%s)", warn);
	ASSERT_EQ(warn[0], 0, "baseline: the same COMMAND passes (%s)", warn);
	mg_workload_id_free(&now);
	now.argv = mg_argv_json(argv_other);
	ASSERT_EQ(mg_workload_id_compare(pc, &cmd, &now, err, sizeof(err), warn, sizeof(warn)), -EINVAL,
		  "baseline: another COMMAND is refused in one line: %s", err);
	ASSERT_HAS_SUBSTR(err, "is of another workload",
			  "baseline: another COMMAND is refused in one line: %s", err);
	ASSERT_HAS_SUBSTR(err, "touch y",
			  "baseline: another COMMAND is refused in one line: %s", err);
	ASSERT_NULL(strchr(err, '\n'), "baseline: another COMMAND is refused in one line: %s", err);
	mg_workload_id_free(&now);
	now.argv = mg_argv_json(argv_more);
	ASSERT_EQ(mg_workload_id_compare(pc, &cmd, &now, err, sizeof(err), warn, sizeof(warn)),
		  -EINVAL, "baseline: an argv with one more (empty) argument is another COMMAND");
	mg_workload_id_free(&now);

	/* built-in against a COMMAND, both ways */
	now = (struct mg_workload_id){ .have_params = true, .threads = 2, .files = 2, .rate = 20000 };
	snprintf(now.release, sizeof(now.release), "6.18.0");
	snprintf(now.fs, sizeof(now.fs), "tmpfs");
	ASSERT_EQ(mg_workload_id_compare(pc, &cmd, &now, err, sizeof(err), warn, sizeof(warn)),
		  -EINVAL, "baseline: a COMMAND's report cannot gate the built-in workload");
	ASSERT_NEQ(strstr(err, "COMMAND [\"sh\",\"-c\",\"touch x\\n\\\\xff\"]"), NULL,
		   "baseline: the refusal shows the argv as JSON: %s", err);
	/* built-in: same parameters pass (the duration is not compared); others are refused */
	ASSERT_EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)), 0,
		  "baseline: the same built-in workload passes (%s)", warn);
	ASSERT_EQ(warn[0], 0, "baseline: the same built-in workload passes (%s)", warn);
	now.threads = 1;
	ASSERT_EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)), -EINVAL,
		  "baseline: other --threads are another workload: %s", err);
	ASSERT_HAS_SUBSTR(err, "2 threads",
			  "baseline: other --threads are another workload: %s", err);
	ASSERT_HAS_SUBSTR(err, "(1 thread,",
			  "baseline: other --threads are another workload: %s", err);
	now.threads = 2;
	now.rate = 0;
	ASSERT_EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)),
		  -EINVAL, "baseline: another --rate is another workload");
	now.rate = 20000;
	now.files = 3;
	ASSERT_EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)),
		  -EINVAL, "baseline: other files per thread are another workload");
	now.files = 2;
	/* another kernel or filesystem: accepted, with one line naming both */
	snprintf(now.release, sizeof(now.release), "6.19.0");
	snprintf(now.fs, sizeof(now.fs), "xfs");
	ASSERT_EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)), 0,
		  "baseline: another kernel and filesystem warn, not refuse: %s", warn);
	ASSERT_HAS_SUBSTR(warn, "kernel 6.18.0 (this run: 6.19.0)",
			  "baseline: another kernel and filesystem warn, not refuse: %s", warn);
	ASSERT_HAS_SUBSTR(warn, "filesystem tmpfs (this run: xfs)",
			  "baseline: another kernel and filesystem warn, not refuse: %s", warn);
	ASSERT_NULL(strchr(warn, '\n'),
		    "baseline: another kernel and filesystem warn, not refuse: %s", warn);
	/* an older report without the parameters: accepted, with a warning */
	bi.have_params = false;
	snprintf(now.release, sizeof(now.release), "6.18.0");
	snprintf(now.fs, sizeof(now.fs), "tmpfs");
	ASSERT_EQ(mg_workload_id_compare(pb, &bi, &now, err, sizeof(err), warn, sizeof(warn)), 0,
		  "baseline: no parameters recorded: a warning: %s",
		  warn);
	ASSERT_HAS_SUBSTR(warn, "does not record",
			  "baseline: no parameters recorded: a warning: %s",
			  warn);
	mg_workload_id_free(&cmd);
	mg_workload_id_free(&bi);
	unlink(pc);
	unlink(pb);
}

/*
 * run.c's stop signals: one raised while blocked (a SIGTERM during the load) is taken by
 * mg_run_stop_pending() and recorded; COMMAND's status is the signal's only for a signal
 * taken (killed by it, or exit 128+N), never for another.
 */
static void test_run_stop_signals(void)
{
	struct mg_run r;

	memset(&r, 0, sizeof(r));
	mg_run_block_signals(&r);
	ASSERT_EQ(mg_run_stop_pending(&r), 0, "run: no stop signal pending at first");
	ASSERT_FALSE(r.stop_sig, "run: no stop signal pending at first");
	raise(SIGTERM);		/* blocked: pending, not a death */
	ASSERT_EQ(mg_run_stop_pending(&r), SIGTERM,
		  "run: a SIGTERM raised while blocked is taken and recorded (stop_sig %d)", r.stop_sig);
	ASSERT_EQ(r.stop_sig, SIGTERM,
		  "run: a SIGTERM raised while blocked is taken and recorded (stop_sig %d)", r.stop_sig);
	ASSERT_GT(r.stop_ns, 0,
		  "run: a SIGTERM raised while blocked is taken and recorded (stop_sig %d)", r.stop_sig);
	ASSERT_EQ(mg_run_stop_pending(&r), 0, "run: ... once");
	sigprocmask(SIG_SETMASK, &r.oldmask, NULL);
	ASSERT_STREQ(mg_signal_name(SIGINT), "SIGINT",
		     "run: signal names: %s", mg_signal_name(SIGINT));
	ASSERT_STREQ(mg_signal_name(SIGHUP), "SIGHUP",
		     "run: signal names: %s", mg_signal_name(SIGINT));
	memset(&r, 0, sizeof(r));
	r.child = 1;
	r.child_done = true;
	r.child_status = 128 + SIGINT;
	ASSERT_FALSE(mg_run_status_from_stop(&r),
		     "run: must-fail direction: 130 without a SIGINT taken "
		     "is COMMAND's own status");
	r.stop_sig = SIGINT;
	r.stop_sigs = 1ull << SIGINT;
	ASSERT_TRUE(mg_run_status_from_stop(&r), "run: 130 after a SIGINT taken is the signal's");
	r.child_status = 128 + SIGTERM;
	ASSERT_FALSE(mg_run_status_from_stop(&r),
		     "run: 143 after only a SIGINT is not the signal's");
	r.child_status = 1;
	ASSERT_FALSE(mg_run_status_from_stop(&r),
		     "run: status 1 after a SIGINT is not the signal's");
}

/* A run a signal cut short: never a PASS; a violation, a gate or COMMAND's own failure still FAIL. */
static void test_verdict_interrupted(void)
{
	struct mg_verdict v;
	char why[200];

	mg_verdict_interrupt_text(why, sizeof(why), "SIGINT", 0.15, 5, NULL);
	ASSERT_STREQ(why, "interrupted by SIGINT after 0.15 s of 5 s: the workload did not run to " "its end",
		     "verdict: the built-in interruption line: %s", why);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .interrupted = why });
	ASSERT_EQ(v.code, 4, "verdict: an interrupted clean run is INCONCLUSIVE (%s)", v.reason);
	ASSERT_TRUE(v.interrupted, "verdict: its reason is the line: %s",
		    v.reason);
	ASSERT_STREQ(v.reason, why, "verdict: its reason is the line: %s",
		     v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5 });
	ASSERT_EQ(v.code, 0, "verdict: must-fail direction: the same run not "
		  "interrupted is a PASS (%s)", v.reason);
	ASSERT_FALSE(v.interrupted, "verdict: must-fail direction: the same run not "
		     "interrupted is a PASS (%s)", v.reason);
	/* a FAIL whose runs the kernel skipped: its count is a floor, and says so */
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .faults = 553, .missed = 187 });
	ASSERT_EQ(v.code, 1, "verdict: violations with skipped runs still FAIL (%s)", v.reason);
	ASSERT_STREQ(v.reason, "553 violation(s) or more (not every event judged), 0 floor gate(s) "
		     "failed; unjudged: 187 BPF run(s) skipped by the kernel",
		     "verdict: a FAIL that judged less than all names what it did not: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .faults = 2, .lost = 3,
						       .untracked = 4 });
	ASSERT_HAS_SUBSTR(v.reason, "; unjudged: 3 event(s) lost, 4 untracked",
			  "verdict: ... only the non-zero counts: %s", v.reason);
	/* only a counter unread: not known to be short, so not said to be */
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .faults = 2,
						       .counts_unread = true });
	ASSERT_STREQ(v.reason, "2 violation(s) or more (whether every event was judged is "
		     "unknown), 0 floor gate(s) failed; a counter could not be read",
		     "verdict: an unread counter makes the count a floor, not a known shortfall: %s",
		     v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .faults = 553 });
	ASSERT_STREQ(v.reason, "553 violation(s), 0 floor gate(s) failed",
		     "verdict: must-fail direction: a complete FAIL claims no floor: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .faults = 1, .interrupted = why });
	ASSERT_EQ(v.code, 1, "verdict: a violation seen before the signal still FAILs (%s)", v.reason);
	ASSERT_HAS_SUBSTR(v.reason, "1 violation(s)",
			  "verdict: ... its reason names both: %s", v.reason);
	ASSERT_HAS_SUBSTR(v.reason, why, "verdict: ... its reason names both: %s", v.reason);
	ASSERT_FALSE(v.interrupted, "verdict: ... its reason names both: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .gates_failed = 1,
						       .interrupted = why });
	ASSERT_EQ(v.code, 1, "verdict: a failed floor gate before the signal still FAILs (%s)",
		  v.reason);
	mg_verdict_interrupt_text(why, sizeof(why), "SIGTERM", 1.5, -1,
				  &(struct mg_cmd_end){ .status = 0, .after_stop_s = 8.7 });
	ASSERT_STREQ(why, "interrupted by SIGTERM after 1.50 s: COMMAND, sent the signal, exited " "8.70 s later with status 0: whether it cut its work short is not known",
		     "verdict: COMMAND that exited after the signal is not said to have been cut: %s", why);
	mg_verdict_interrupt_text(why, sizeof(why), "SIGTERM", 1.5, -1,
				  &(struct mg_cmd_end){ .abandoned = true });
	ASSERT_HAS_SUBSTR(why, "not even after SIGKILL",
			  "verdict: COMMAND that SIGKILL did not end: %s", why);
	ASSERT_HAS_SUBSTR(why, "without its status",
			  "verdict: COMMAND that SIGKILL did not end: %s", why);
	mg_verdict_interrupt_text(why, sizeof(why), "SIGINT", 1.5, -1,
				  &(struct mg_cmd_end){ .signal = 2, .status = 130, .after_stop_s = 0.01 });
	ASSERT_STREQ(why, "interrupted by SIGINT after 1.50 s: COMMAND was killed by SIGINT 0.01 s " "later and did not run to its end",
		     "verdict: the COMMAND interruption line: %s",
		     why);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .command = true,
						       .command_status = 130, .interrupted = why,
						       .status_from_signal = true });
	ASSERT_EQ(v.code, 4, "verdict: COMMAND's 130 from the interrupting SIGINT is not a COMMAND "
		  "failure: INCONCLUSIVE (%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .command = true,
						       .command_status = 3, .interrupted = why });
	ASSERT_EQ(v.code, 1, "verdict: COMMAND's own status 3 after the signal still FAILs (%s)",
		  v.reason);
	ASSERT_HAS_SUBSTR(v.reason, "status 3", "verdict: ... and says both: %s",
			  v.reason);
	ASSERT_HAS_SUBSTR(v.reason, why, "verdict: ... and says both: %s",
			  v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .command = true,
						       .command_status = 130 });
	ASSERT_EQ(v.code, 1, "verdict: COMMAND killed by a signal mgtrace did not take FAILs (%s)",
		  v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .lost = 2, .interrupted = why });
	ASSERT_EQ(v.code, 4,
		  "verdict: interrupted with events lost: INCONCLUSIVE, both said: %s", v.reason);
	ASSERT_HAS_SUBSTR(v.reason, "also 2 event(s) lost",
			  "verdict: interrupted with events lost: INCONCLUSIVE, both said: %s", v.reason);
	test_run_stop_signals();
}

/* An incomplete run's reason names the bound each loss hit and the option that raises it. */
static void test_verdict_hints(void)
{
	struct mg_verdict v;

	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .untracked = 3,
						       .max_inodes = 8000, .ringbuf_bytes = 4096 });
	ASSERT_EQ(v.code, 4, "verdict: untracked events: INCONCLUSIVE (%s)", v.reason);
	ASSERT_HAS_SUBSTR(v.reason, "inode map was full: 8000 inode(s), raise --max-inodes)",
			  "verdict: untracked names --max-inodes, not the ring buffer: %s", v.reason);
	ASSERT_NULL(strstr(v.reason, "--ringbuf-size"),
		    "verdict: untracked names --max-inodes, not the ring buffer: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .lost = 2,
						       .max_inodes = 8000, .ringbuf_bytes = 4096 });
	ASSERT_EQ(v.code, 4, "verdict: lost names --ringbuf-size only: %s", v.reason);
	ASSERT_HAS_SUBSTR(v.reason, "(the ring buffer of 4096 bytes was full, raise " "--ringbuf-size)",
			  "verdict: lost names --ringbuf-size only: %s", v.reason);
	ASSERT_NULL(strstr(v.reason, "--max-inodes"),
		    "verdict: lost names --ringbuf-size only: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .lost = 2, .untracked = 1,
						       .max_inodes = 8000, .ringbuf_bytes = 4096 });
	ASSERT_HAS_SUBSTR(v.reason, "raise --max-inodes; the ring buffer of 4096 bytes was full, " "raise --ringbuf-size)",
			  "verdict: both bounds named: %s", v.reason);
	/* must-fail direction: skipped BPF runs hit no bound an option raises: no hint */
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .missed = 4,
						       .max_inodes = 8000, .ringbuf_bytes = 4096 });
	ASSERT_EQ(v.code, 4, "verdict: skipped runs only: no hint: %s",
		  v.reason);
	ASSERT_NULL(strstr(v.reason, "raise"), "verdict: skipped runs only: no hint: %s",
		    v.reason);
}

UNIT_TEST(verdict)
{
	struct mg_figures now = { 0 }, base = { 0 };
	struct mg_gate g[MG_F_NR];
	double off[MG_F_NR] = { -1, -1, -1, -1 }, lim[MG_F_NR] = { 0.7, -1, -1, -1 };
	struct mg_verdict v;
	char path[] = "/tmp/mgtrace-unit-XXXXXX", err[300];
	struct mg_workload_id bid;
	FILE *f;
	int fd;

	now.f[MG_F_SWAPS_PER_UPDATE] = (struct mg_fig){ .have = true, .value = 0.99 };
	now.f[MG_F_FINE_PER_UPDATE] = (struct mg_fig){ .have = true, .value = 1.0 };
	now.f[MG_F_SWAPS_PER_SEC] = (struct mg_fig){ .have = true, .value = 300000 };
	now.f[MG_F_FAIL_RATIO] = (struct mg_fig){ .have = true, .value = 0.001 };
	ASSERT_EQ(mg_gates_eval(g, &now, off, NULL, 1.5), 0,
		  "verdict: no gate by default, a swap ratio of 0.99 passes (got %d)", g[0].result);
	ASSERT_EQ(g[0].result, -1,
		  "verdict: no gate by default, a swap ratio of 0.99 passes (got %d)", g[0].result);
	ASSERT_EQ(mg_gates_eval(g, &now, lim, NULL, 1.5), 1,
		  "verdict: --max-floor-swap-ratio 0.7 fails 0.99");
	ASSERT_EQ(g[0].result, 0, "verdict: --max-floor-swap-ratio 0.7 fails 0.99");
	/* a baseline of the same workload: equal passes, growth past factor x base + slack fails */
	base = now;
	ASSERT_EQ(mg_gates_eval(g, &now, off, &base, 1.5), 0,
		  "verdict: the baseline itself passes");
	base.f[MG_F_SWAPS_PER_UPDATE].value = 0.1;
	ASSERT_EQ(mg_gates_eval(g, &now, off, &base, 1.5), 1,
		  "verdict: 0.99 swaps/update against a baseline of 0.1 fails (allowed %g, want 0.17)",
		  g[0].allowed);
	ASSERT_EQ(g[0].result, 0,
		  "verdict: 0.99 swaps/update against a baseline of 0.1 fails (allowed %g, want 0.17)",
		  g[0].allowed);
	ASSERT_GT(g[0].allowed, 0.169,
		  "verdict: 0.99 swaps/update against a baseline of 0.1 fails (allowed %g, want 0.17)",
		  g[0].allowed);
	ASSERT_LT(g[0].allowed, 0.171,
		  "verdict: 0.99 swaps/update against a baseline of 0.1 fails (allowed %g, want 0.17)",
		  g[0].allowed);
	base.f[MG_F_FAIL_RATIO].value = 0;
	now.f[MG_F_FAIL_RATIO].value = 0.005;
	mg_gates_eval(g, &now, off, &base, 1.5);
	ASSERT_EQ(g[MG_F_FAIL_RATIO].result, 1, "verdict: a baseline of 0 allows the slack (0.005 <= 0.02)");
	now.f[MG_F_FINE_PER_UPDATE].have = false;
	mg_gates_eval(g, &now, off, &base, 1.5);
	ASSERT_EQ(g[MG_F_FINE_PER_UPDATE].result, -1,
		  "verdict: an unavailable figure is not evaluated");

	/* baseline files */
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fprintf(f, "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\",\"floor_figures\":"
		   "{\"floor_swaps_per_update\":0.25,\"floor_swaps_per_sec\":12.5}}\n");
	fclose(f);
	ASSERT_EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), 0,
		  "verdict: a check report loads as a baseline");
	ASSERT_TRUE(base.f[MG_F_SWAPS_PER_UPDATE].have,
		    "verdict: a check report loads as a baseline");
	ASSERT_EQ(base.f[MG_F_SWAPS_PER_UPDATE].value, 0.25,
		  "verdict: a check report loads as a baseline");
	ASSERT_FALSE(base.f[MG_F_FINE_PER_UPDATE].have,
		     "verdict: a check report loads as a baseline");
	ASSERT_FALSE(bid.command, "verdict: a check report loads as a baseline");
	ASSERT_FALSE(bid.have_params, "verdict: a check report loads as a baseline");
	mg_workload_id_free(&bid);
	f = fopen(path, "w");
	fprintf(f, "{\"type\":\"stat\"}\n");
	fclose(f);
	ASSERT_EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -EINVAL,
		  "verdict: a stat report is refused as a baseline: %s", err);
	f = fopen(path, "w");
	fprintf(f, "{\"schema_version\":1,\"type\":\"check\",\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n");
	fclose(f);
	ASSERT_EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -EINVAL,
		  "verdict: a check report without its workload is refused: %s", err);
	ASSERT_HAS_SUBSTR(err, "does not record its workload",
			  "verdict: a check report without its workload is refused: %s", err);
	{	/* what makes a report no baseline: each refused in one line, the good one loads */
		static const struct { const char *text, *why; } bad[] = {
			{ "{\"schema_version\":2,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n", "schema_version 2" },
			{ "{\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n", "no schema_version" },
			{ "{\"schema_version\":\"1\",\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n", "schema_version \"1\"" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":\"1\"}}\n", "of the wrong type" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1},\"floor_figures\":{}}\n",
			  "duplicate object key" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":-1}}\n", "floor_swaps_per_sec -1" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1e300}}\n", "1e+300" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"test_hook\":\"x\",\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n", "test hook" },
			{ "{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\","
			  "\"floor_figures\":{\"floor_swaps_per_sec\":1}}\n{\"type\":\"check\"}\n",
			  "is not JSON" },
		};
		size_t k;

		for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			f = fopen(path, "w");
			fputs(bad[k].text, f);
			fclose(f);
			ASSERT_EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -EINVAL,
				  "baseline: refused, case %zu (want '%s'): %s", k, bad[k].why, err);
			ASSERT_HAS_SUBSTR(err, bad[k].why,
					  "baseline: refused, case %zu (want '%s'): %s", k, bad[k].why, err);
			ASSERT_NULL(strchr(err, '\n'),
				    "baseline: refused, case %zu (want '%s'): %s", k, bad[k].why, err);
		}
		f = fopen(path, "w");
		fputs("{\"schema_version\":1,\"type\":\"check\",\"workload\":\"built-in\",\"test_hook\":false,"
		      "\"floor_figures\":{\"floor_swaps_per_sec\":1,\"floor_cmpxchg_fail_ratio\":null},"
		      "\"floor_figures_unavailable\":{\"floor_cmpxchg_fail_ratio\":\"no fine stamps\"}}\n", f);
		fclose(f);
		ASSERT_EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), 0,
			  "baseline: a report with a null figure loads: %s", err);
		mg_workload_id_free(&bid);
		mg_gates_eval(g, &now, off, &base, 2);
		ASSERT_EQ(g[MG_F_FAIL_RATIO].result, -1,
			  "baseline: a figure null in the baseline says why it is not gated (%s)",
			  g[MG_F_FAIL_RATIO].why);
		ASSERT_HAS_SUBSTR(g[MG_F_FAIL_RATIO].why, "no baseline gate: unavailable in the baseline: " "no fine stamps",
				  "baseline: a figure null in the baseline says why it is not gated (%s)",
				  g[MG_F_FAIL_RATIO].why);
		ASSERT_EQ(g[MG_F_SWAPS_PER_SEC].result, 0,
			  "baseline: a figure null in the baseline says why it is not gated (%s)",
			  g[MG_F_FAIL_RATIO].why);
		ASSERT_GT(mg_baseline_slack(MG_F_FAIL_RATIO), 0.099,
			  "baseline: the cmpxchg-failure ratio has its own slack (0.1), the others 0.02");
		ASSERT_LT(mg_baseline_slack(MG_F_SWAPS_PER_UPDATE), 0.021,
			  "baseline: the cmpxchg-failure ratio has its own slack (0.1), the others 0.02");
	}
	unlink(path);
	ASSERT_EQ(mkdir(path, 0700), 0, "baseline: a directory made to be refused");
	ASSERT_EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -EISDIR,
		  "baseline: a directory is -EISDIR: %s", err);
	rmdir(path);
	ASSERT_EQ(mg_baseline_load(path, &base, &bid, err, sizeof(err)), -ENOENT,
		  "verdict: a missing baseline is -ENOENT: %s", err);
	test_baseline_workload();

	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5 });
	ASSERT_EQ(v.code, 0, "verdict: nothing wrong is PASS");
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .gates_failed = 1 });
	ASSERT_EQ(v.code, 1, "verdict: a failed gate is FAIL");
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .lost = 1 });
	ASSERT_EQ(v.code, 4, "verdict: lost events are INCONCLUSIVE");
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .missed = 3 });
	ASSERT_EQ(v.code, 4, "verdict: BPF runs the kernel skipped are INCONCLUSIVE (%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .step_undecided = 2 });
	ASSERT_EQ(v.code, 4, "verdict: violations near a clock step of their size are INCONCLUSIVE "
		  "(%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .faults = 1, .step_undecided = 2 });
	ASSERT_EQ(v.code, 1, "verdict: ... and a fault beside them still FAILs (%s)", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .lock_failed = 1 });
	ASSERT_EQ(v.code, 4, "verdict: an event whose inode lock failed is INCONCLUSIVE (%s)", v.reason);
	ASSERT_NEQ(strstr(v.reason, "1 not judged (inode lock failed)"), NULL,
		   "verdict: the reason counts it: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 5, .command = true,
						       .command_status = 2 });
	ASSERT_EQ(v.code, 1, "verdict: a failed COMMAND is FAIL (%s)", v.reason);
	test_verdict_interrupted();
	test_verdict_hints();
}

/* check --forget's verdict words: a PASS that forgot says how many, never a plain PASS. */
UNIT_TEST(verdict_forgotten)
{
	char buf[80];
	struct mg_verdict v;

	ASSERT_STREQ(mg_verdict_word_forgotten("PASS", 0, 2278, buf, sizeof(buf)), "PASS, 2278 inodes' history forgotten",
		     "verdict: PASS that forgot 2278");
	ASSERT_STREQ(mg_verdict_word_forgotten("PASS", 0, 1, buf, sizeof(buf)), "PASS, 1 inode's history forgotten",
		     "verdict: PASS that forgot one inode");
	ASSERT_STREQ(mg_verdict_word_forgotten("PASS", 0, 0, buf, sizeof(buf)), "PASS",
		     "verdict: nothing forgotten: a plain PASS");
	/* FAIL and INCONCLUSIVE stay as they are: forgetting qualifies only a pass */
	ASSERT_STREQ(mg_verdict_word_forgotten("FAIL", 1, 5, buf, sizeof(buf)), "FAIL",
		     "verdict: FAIL and INCONCLUSIVE are not qualified");
	ASSERT_STREQ(mg_verdict_word_forgotten("INCONCLUSIVE", 4, 5, buf, sizeof(buf)), "INCONCLUSIVE",
		     "verdict: FAIL and INCONCLUSIVE are not qualified");
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .forget = true,
						       .forgotten = 3 });
	ASSERT_EQ(v.code, 0, "verdict: the reason of a PASS "
		  "that forgot: %s", v.reason);
	ASSERT_HAS_SUBSTR(v.reason, "judged afresh", "verdict: the reason of a PASS "
			  "that forgot: %s", v.reason);
	mg_verdict_decide(&v, &(struct mg_verdict_in){ .events = 9, .untracked = 2, .forget = true,
						       .max_inodes = 1000 });
	ASSERT_EQ(v.code, 4,
		  "verdict: untracked under --forget names the generations: %s", v.reason);
	ASSERT_HAS_SUBSTR(v.reason, "--forget with --max-inodes 1000",
			  "verdict: untracked under --forget names the generations: %s", v.reason);
}
