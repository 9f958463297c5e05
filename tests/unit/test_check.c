// SPDX-License-Identifier: GPL-2.0
/*
 * test_check.c - tests of src/check/check_tally.c: the one decision of a verdict from
 * counts, for the end-of-run report (the window from zero) and for each interval of
 * continuous check (the difference of two cumulative tallies).
 */
#include "unit.h"
#include "check_int.h"

/* base plus d, count by count: the tally at the end of an interval that counted d */
static struct check_tally tally_plus(const struct check_tally *base, const struct check_tally *d)
{
	struct check_tally t = *base;
	int k;

	for (k = 0; k < MG_EV_NR_KINDS; k++)
		t.by_kind[k] += d->by_kind[k];
	for (k = 0; k < MG_V_NR_KINDS; k++)
		t.faults[k] += d->faults[k];
	t.lost += d->lost;
	t.untracked += d->untracked;
	t.missed += d->missed;
	t.undecided += d->undecided;
	t.lock_failed += d->lock_failed;
	t.read_failed = d->read_failed;
	return t;
}

/*
 * The same counts give the same verdict whether they are a whole run's (from zero) or
 * one interval's (between two tallies that already counted much), and the same as
 * mg_verdict_decide() given them directly; each count that must not pass does not.
 */
UNIT_TEST(check_decide_counts)
{
	static const struct { const char *what; struct check_tally d; int want; } c[] = {
		{ "nothing wrong", { .by_kind = { 10, 5, 3 } }, MG_EXIT_OK },
		{ "a regression", { .by_kind = { 10 }, .faults = { [MG_V_REGRESSION] = 1 } },
		  MG_EXIT_FAIL },
		{ "a skip after a query", { .by_kind = { 10 },
		  .faults = { [MG_V_SKIP_AFTER_QUERY] = 2 } }, MG_EXIT_FAIL },
		{ "an event lost", { .by_kind = { 10 }, .lost = 1 }, MG_EXIT_INCONCLUSIVE },
		{ "an inode untracked", { .by_kind = { 10 }, .untracked = 1 }, MG_EXIT_INCONCLUSIVE },
		{ "a BPF run missed", { .by_kind = { 10 }, .missed = 1 }, MG_EXIT_INCONCLUSIVE },
		{ "an undecided violation", { .by_kind = { 10 }, .undecided = 1 },
		  MG_EXIT_INCONCLUSIVE },
		{ "a failed lock", { .by_kind = { 10 }, .lock_failed = 1 }, MG_EXIT_INCONCLUSIVE },
		{ "a counter unread", { .by_kind = { 10 }, .read_failed = true },
		  MG_EXIT_INCONCLUSIVE },
		{ "a fault and a loss", { .by_kind = { 10 }, .faults = { [MG_V_ORDER] = 1 }, .lost = 3 },
		  MG_EXIT_FAIL },
	};
	/* what earlier intervals counted: a fault and every kind of loss, none of it this one's */
	const struct check_tally before = {
		.by_kind = { 1000, 400, 300 }, .faults = { [MG_V_REGRESSION] = 7, [MG_V_NOT_LATER] = 2 },
		.lost = 5, .untracked = 6, .missed = 7, .undecided = 8, .lock_failed = 9,
	};
	const struct mg_verdict_in none = { 0 };
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct check_tally after = tally_plus(&before, &c[i].d);
		struct mg_verdict whole, interval, direct;
		struct mg_verdict_in in = {
			.events = 10 + c[i].d.by_kind[1] + c[i].d.by_kind[2],
			.lost = c[i].d.lost, .untracked = c[i].d.untracked, .missed = c[i].d.missed,
			.lock_failed = c[i].d.lock_failed, .step_undecided = c[i].d.undecided,
			.counts_unread = c[i].d.read_failed,
		};
		int k;

		for (k = 0; k < MG_V_NR_KINDS; k++)
			in.faults += c[i].d.faults[k];
		check_decide_counts(&whole, NULL, &c[i].d, &none);
		check_decide_counts(&interval, &before, &after, &none);
		mg_verdict_decide(&direct, &in);
		ASSERT_EQ(whole.code, c[i].want, "check_decide_counts: %s: the run's verdict %s (%s)",
			  c[i].what, whole.word, whole.reason);
		ASSERT_EQ(interval.code, c[i].want, "check_decide_counts: %s: the interval's verdict %s",
			  c[i].what, interval.word);
		ASSERT_EQ(direct.code, c[i].want, "check_decide_counts: %s: mg_verdict_decide()'s",
			  c[i].what);
		ASSERT_STREQ(interval.reason, whole.reason, "check_decide_counts: %s: the same reason",
			     c[i].what);
		ASSERT_STREQ(direct.reason, whole.reason, "check_decide_counts: %s: mg_verdict_decide()'s "
			     "reason", c[i].what);
	}
	/* the run's facts decide with the counts: a failed gate FAILs counts that pass */
	{
		struct mg_verdict v;

		check_decide_counts(&v, NULL, &c[0].d, &(struct mg_verdict_in){ .gates_failed = 1 });
		ASSERT_EQ(v.code, MG_EXIT_FAIL, "check_decide_counts: a failed floor gate FAILs a run "
			  "whose counts pass (%s)", v.reason);
		check_decide_counts(&v, NULL, &(struct check_tally){ 0 }, &(struct mg_verdict_in){
				    .gates_unknown = 1 });
		ASSERT_EQ(v.code, MG_EXIT_INCONCLUSIVE, "check_decide_counts: no events and a gate not "
			  "evaluated is INCONCLUSIVE (%s)", v.reason);
	}
}

/*
 * check's "judged" line is whole however large its numbers and reasons: judged in
 * BPF with every count at its largest, the inode GC's part (passes, or why none can
 * run) and --forget's with a stop reason fit MG_JUDGE_DESCRIBE_LEN, the size of
 * check's line (512 bytes cut the --forget part, reported by a new user).
 */
UNIT_TEST(judge_describe_whole)
{
	static struct mg_judge j;
	char buf[MG_JUDGE_DESCRIBE_LEN], small[512];
	size_t n;

	memset(&j, 0xff, sizeof(j));
	j.env = NULL;
	j.held = NULL;
	j.active = j.forget = true;
	memset(j.forget_why, 'f', sizeof(j.forget_why) - 1);
	j.forget_why[sizeof(j.forget_why) - 1] = 0;
	j.gc_why[0] = 0;	/* passes ran: their part */
	mg_judge_describe(&j, buf, sizeof(buf));
	n = strlen(buf);
	ASSERT_TRUE(n < sizeof(buf) - 1, "judge_describe: GC passes and --forget at their "
		    "largest fit (%zu bytes)", n);
	ASSERT_TRUE(n > 199 && !strcmp(buf + n - 199, j.forget_why),
		    "judge_describe: ... it ends with --forget's whole stop reason");
	mg_judge_describe(&j, small, sizeof(small));
	ASSERT_TRUE(strlen(small) == sizeof(small) - 1 && strncmp(small, buf, sizeof(small) - 1) == 0,
		    "judge_describe: the same line cut in a 512-byte buffer (the size that cut it)");
	memset(j.gc_why, 'g', sizeof(j.gc_why) - 1);
	j.gc_why[sizeof(j.gc_why) - 1] = 0;
	mg_judge_describe(&j, buf, sizeof(buf));
	n = strlen(buf);
	ASSERT_TRUE(n < sizeof(buf) - 1 && strstr(buf, j.gc_why) && n > 199 &&
		    !strcmp(buf + n - 199, j.forget_why),
		    "judge_describe: why no GC pass runs, and --forget's reason, whole (%zu bytes)", n);
}

/*
 * check_put_stack(): BPF's own machinery at the top is left out; a BPF program's frame under
 * the first kernel frame (a stale address CONFIG_UNWINDER_GUESS reads, or a BPF caller) is
 * shown, marked; kernel frames are not.
 */
UNIT_TEST(check_put_stack_bpf_frames)
{
	static const struct mg_kframe fr[] = {
		{ .addr = 0xffffffffa0000110ull, .off = 0x10, .sym = "bpf_prog_0123456789abcdef_tpb_set" },
		{ .addr = 0xffffffff81100010ull, .off = 0x10, .sym = "bpf_trace_run2" },
		{ .addr = 0xffffffff81200010ull, .off = 0x10, .sym = "inode_set_ctime_to_ts" },
		{ .addr = 0xffffffff81300010ull, .off = 0x10, .sym = "simple_unlink" },
		{ .addr = 0xffffffffa0000210ull, .off = 0x10, .sym = "bpf_prog_fedcba9876543210_read_kcounters" },
		{ .addr = 0xffffffff81400010ull, .off = 0x10, .sym = "vfs_unlink" },
	};
	struct mg_violation v = { .stack_why = MG_STACK_TAKEN, .stack_len = 6 };
	struct check_names nm = { .ks_why = "" };
	struct mg_ksyms *ks = NULL;
	char *out = NULL, *first;
	size_t len = 0, i;
	FILE *f;

	if (!ASSERT_OK(mg_ksyms_from_frames(&ks, fr, 6), "put_stack: a table of six frames"))
		return;
	nm.ks = ks;
	for (i = 0; i < 6; i++)
		v.stack[i] = fr[i].addr;
	f = open_memstream(&out, &len);
	if (!ASSERT_OK_PTR(f, "put_stack: a memory stream")) {
		mg_ksyms_free(ks);
		return;
	}
	check_put_stack(f, &nm, &v, 4, false);
	fclose(f);
	first = out ? strchr(out, '\n') : NULL;
	ASSERT_HAS_SUBSTR(out, "    0xffffffff81200010 inode_set_ctime_to_ts+0x10\n",
			  "put_stack: the first frame shown is the kernel's");
	ASSERT_EQ(out && !strncmp(out, "    0xffffffff81200010 ", 23), true,
		  "put_stack: BPF's own program and bpf_trace_run left out at the top");
	ASSERT_HAS_SUBSTR(out, "read_kcounters+0x10 (a BPF program under kernel frames:",
			  "put_stack: a BPF frame under kernel frames is marked");
	ASSERT_NO_SUBSTR(first, "simple_unlink+0x10 (a BPF",
			 "put_stack: a kernel frame is not marked");
	ASSERT_NO_SUBSTR(out, "tpb_set", "put_stack: the event's own program is not shown");
	free(out);
	mg_ksyms_free(ks);
}
