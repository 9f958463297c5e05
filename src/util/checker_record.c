// SPDX-License-Identifier: GPL-2.0
/*
 * checker_record.c - what the checker records and reports (see checker_record.h): the names of
 * violation and not-fault kinds; a report's observation from the rules' one; each
 * violation, explained by a backward clock step or left undecided near one, kept in
 * a bounded store; the not-fault examples; the counts BPF judged; the clock steps,
 * losses and skipped runs; the totals and faults read back.
 */
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "checker_record.h"
#include "checker_int.h"

/* The names of violation and not-fault kinds (checker.h). */

const char *mg_violation_name(enum mg_violation_kind k)
{
	static const char *const n[MG_V_NR_KINDS] = {
		"ctime_regression", "not_later_after_query", "skip_after_query", "cross_file_order",
		"floor_backward", "unneeded_fine_stamp",
	};

	return k < MG_V_NR_KINDS ? n[k] : "?";
}

static const struct {
	const char *name, *why;
} benign[MG_B_NR_KINDS] = {
	[MG_B_STALE_READ] = { "stale_reads", "getattr read the ctime just before a concurrent update" },
	[MG_B_REORDERED] = { "reordered_swaps", "swap delivered after the swap that replaced it" },
	[MG_B_UNVERIFIED] = { "unverified_queried_updates",
			      "QUERIED update whose previous ctime was not observed" },
	[MG_B_GRANULARITY] = { "granularity_equal",
			       "equal at the filesystem's time granularity (s_time_gran > 1 ns)" },
	[MG_B_FUTURE_CTIME] = { "future_ctime",
				"a stored or set ctime later than the clock, replaced by the clock" },
	[MG_B_SEC_UNSURE] = { "unsure_seconds",
			      "swap whose seconds another update overwrote before BPF read them" },
	[MG_B_TORN_READ] = { "torn_reads",
			     "getattr read old seconds with new nanoseconds of a concurrent update" },
	[MG_B_CONCURRENT] = { "concurrent_updates",
			      "an older ctime from an update that began before the newer one's "
			      "event: overlapping updates have no order" },
	[MG_B_CONCURRENT_UNDECIDED] = { "concurrent_updates_undecided",
					"the same within 1 s, the update's entry time unknown "
					"(no function probe)" },
	[MG_B_CONCURRENT_READ] = { "concurrent_reads",
				   "getattr of a concurrent update's value, delivered before "
				   "that update's swap" },
	[MG_B_UNSEEN] = { "unseen_values",
			  "getattr of an older value not among the last 4 values the inode held, "
			  "within 1 s of the newer one: undecided" },
	[MG_B_SET_UNDECIDED] = { "sets_state_unknown",
				 "set over a QUERIED ctime of an inode whose i_state this "
				 "kernel's BTF does not describe: undecided" },
	[MG_B_SKIP_UNDECIDED] = { "skips_after_concurrent_query",
				  "skip of a value a getattr reported; the query may follow the "
				  "update's decision (no entry time)" },
};

const char *mg_benign_name(enum mg_benign_kind k)
{
	return k < MG_B_NR_KINDS ? benign[k].name : "?";
}

const char *mg_benign_why(enum mg_benign_kind k)
{
	return k < MG_B_NR_KINDS ? benign[k].why : "?";
}

const char *mg_stack_why_text(const struct mg_violation *v)
{
	static char failed[96];

	switch (v->stack_why) {
	case MG_STACK_TAKEN:
		return NULL;
	case MG_STACK_AT_END:
		return "a held getattr judged at the end of the run, at no event";
	case MG_STACK_ORDER:
		return "judged on the built-in workload's own fstat() calls, at no kernel event";
	case MG_STACK_FLOOR:
		return "judged from a floor event, whose record carries no stack";
	case MG_STACK_FAILED:
		/* judged in BPF: bpf_get_stack(); in user space: the record's bpf_get_stackid(),
		 * whose EEXIST is a stack that another holds the hash bucket of */
		snprintf(failed, sizeof(failed), "%s failed: %s",
			 v->stack_err == -EEXIST ? "bpf_get_stackid() (a hash collision in the "
			 "stack map)" : "bpf_get_stack()/bpf_get_stackid()", strerror(-v->stack_err));
		return failed;
	case MG_STACK_MAP_LOST:
		snprintf(failed, sizeof(failed), "the record's stack could not be read from the "
			 "stack map: %s", strerror(-v->stack_err));
		return failed;
	case MG_STACK_SYNTHETIC:
		return "a synthetic event of the test hook (MGTRACE_TEST_INJECT), no kernel stack";
	default:
		return "judged in user space from a ring-buffer event that carries no stack "
		       "(check --stacks takes every event's)";
	}
}

/* A report's observation from the rules' one. */
void mg_obs_from_rule(struct mg_obs *o, const struct mg_robs *r)
{
	o->ctime = (struct mg_ts){ r->sec, r->nsec };
	o->t_ns = r->t_ns;
	o->pid = r->pid;
	o->cpu = r->cpu;
	o->kind = r->kind;
	o->entry_ns = r->entry_ns;
	memcpy(o->comm, r->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = 0;
	/* a state's observation whose context no ring kept any more: no pid, CPU, comm,
	 * realtime offset or entry time (the rules' fields are exact) */
	o->ctx_lost = r->ctx_from != MG_CTX_READ;
}

/* a - b in ns, saturated to INT64 range. */
static int64_t ts_diff(struct mg_ts a, struct mg_ts b)
{
	__int128 d = (__int128)(a.sec - b.sec) * 1000000000 + ((int64_t)a.nsec - (int64_t)b.nsec);

	return d > INT64_MAX ? INT64_MAX : d < INT64_MIN ? INT64_MIN : (int64_t)d;
}

/*
 * When the clock behind observation a's ctime may have been read, at the
 * earliest: an update's entry into inode_set_ctime_current (function probes),
 * which reads the clock after it and fires its tracepoint after the swap, so a
 * preempted update's event can come long after its clock read; else the event.
 */
static uint64_t read_from(const struct mg_obs *a)
{
	return a->entry_ns && a->entry_ns < a->t_ns ? a->entry_ns : a->t_ns;
}

/*
 * How far the realtime clock stepped back between two observations: the
 * largest of what user space recorded in that window (from the earlier one's
 * clock read on: read_from()) and what BPF's clock brackets saw (records of
 * bpf/mg_common.bpf.h mg_clock_bracket(), judged in BPF or not), never their
 * sum. <= 0 ns. Two events' own offsets (TAI read after MONOTONIC) are not
 * used: each is the realtime offset plus the time between its two reads,
 * microseconds with an interrupt or a preempted vCPU between, so a fall
 * between two of them proves no step (a CI machine's 41 equal ctimes after a
 * query had one "explained" by a fall of more than 10 us with no step).
 */
static int64_t backward_between(const struct mg_checker *c, const struct mg_obs *a,
				const struct mg_obs *b)
{
	return mg_steps_back_between(&c->steps, read_from(a), b->t_ns);
}

void mg_checker_add(struct mg_checker *c, const struct mg_violation *v)
{
	struct mg_violation copy = *v;
	int64_t back = 0, gap = 0, near;

	/* A backward step can explain a later value that is not later, nothing else. */
	copy.step_undecided = false;
	if (copy.kind == MG_V_REGRESSION || copy.kind == MG_V_NOT_LATER || copy.kind == MG_V_ORDER) {
		back = backward_between(c, &copy.earlier, &copy.later);
		gap = ts_diff(copy.earlier.ctime, copy.later.ctime);	/* >= 0 */
		if (back < 0 && -back + MG_STEP_SLACK_NS < gap)
			back = 0;	/* the steps are too small to explain it */
		if (!back) {
			near = mg_steps_largest_back_near(&c->steps, read_from(&copy.earlier),
							  copy.later.t_ns, MG_STEP_NEAR_NS);
			copy.step_undecided = near < 0 && -near + MG_STEP_SLACK_NS >= gap;
		}
	}
	copy.step_explained = back != 0;
	copy.step_ns = back;
	copy.known = !copy.step_explained && !copy.step_undecided && c->known_fn ?
		     c->known_fn(c->known_ctx, &copy) : -1;
	c->st.violations[copy.kind]++;
	c->st.explained[copy.kind] += copy.step_explained;
	c->st.undecided[copy.kind] += copy.step_undecided;
	c->st.known[copy.kind] += copy.known >= 0;
	c->st.faults_elsewhere += c->home_dev && copy.dev != c->home_dev && !copy.step_explained &&
				  !copy.step_undecided && copy.known < 0;
	if (c->nreports < c->max_reports) {
		c->reports[c->nreports++] = copy;
		return;
	}
	/* full: a violation that fails the check takes the place of one a step explains
	 * (or leaves undecided, or a known fault), so that the reports show what failed it */
	if (!copy.step_explained && !copy.step_undecided && copy.known < 0)
		for (size_t i = 0; i < c->nreports; i++)
			if (c->reports[i].step_explained || c->reports[i].step_undecided ||
			    c->reports[i].known >= 0) {
				c->reports[i] = copy;
				return;
			}
}

void mg_checker_example(struct mg_checker *c, unsigned int k, uint32_t dev, uint64_t ino,
			uint32_t gen, const char *name, bool name_cut, const struct mg_rviol *ben)
{
	struct mg_violation *v;

	if (k >= MG_B_NR_KINDS || c->nexamples[k] >= MG_EXAMPLES)
		return;
	v = &c->examples[k][c->nexamples[k]++];
	*v = (struct mg_violation){ .dev = dev, .gen = gen, .ino = ino, .name_truncated = name_cut };
	if (name) {
		memcpy(v->name, name, sizeof(v->name));
		v->name[sizeof(v->name) - 1] = 0;
	}
	strcpy(v->what, "ctime");
	mg_obs_from_rule(&v->earlier, &ben->earlier);
	mg_obs_from_rule(&v->later, &ben->later);
}

const struct mg_violation *mg_checker_examples(const struct mg_checker *c, unsigned int k,
					       size_t *n)
{
	*n = k < MG_B_NR_KINDS ? c->nexamples[k] : 0;
	return k < MG_B_NR_KINDS ? c->examples[k] : NULL;
}

void mg_checker_import_judged(struct mg_checker *c, const struct mg_judge_counts *sum,
			      const uint64_t *received, const uint64_t *unheld)
{
	int k;

	for (k = 0; k < MG_EV_NR_KINDS; k++) {
		c->st.events += sum->by_kind[k];
		c->st.by_kind[k] += sum->by_kind[k];
	}
	for (k = 0; k < MG_B_NR_KINDS; k++)
		c->st.benign[k] += sum->benign[k];
	for (k = 0; k < MG_V_NR_KINDS; k++) {
		c->st.violations[k] += unheld[k];
		if (sum->violations[k] > received[k])
			c->st.violations[k] += sum->violations[k] - received[k];
	}
	c->st.violations[MG_V_REGRESSION] += sum->overflow;
	c->st.inodes += sum->inodes;
	c->st.untracked_events += sum->untracked;
	c->st.lock_failed_events += sum->lock_failed;
	c->st.no_ino_events += sum->no_ino;
	c->st.out_of_scope_events += sum->out_of_scope;
	c->st.lost += sum->lost + sum->steps_lost;	/* a lost step record may hide a step */
}

void mg_checker_import_floor(struct mg_checker *c, const struct mg_floor_judge_counts *sum)
{
	int k;

	for (k = 0; k < 3; k++) {
		c->st.events += sum->by_kind[k];
		c->st.by_kind[MG_EV_FLOOR_SWAP + k] += sum->by_kind[k];
	}
	c->st.floor_checked += sum->floor_checked;
	c->st.fine_checked += sum->fine_decided;
	c->st.fine_undecided += sum->fine_undecided;
	if (sum->backward > c->floor_records[0])
		c->st.violations[MG_V_FLOOR_BACKWARD] += sum->backward - c->floor_records[0];
	if (sum->unneeded > c->floor_records[1])
		c->st.violations[MG_V_FINE_UNNEEDED] += sum->unneeded - c->floor_records[1];
}

void mg_checker_clock_step(struct mg_checker *c, uint64_t t0_ns, uint64_t t1_ns, int64_t delta_ns)
{
	c->st.clock_steps++;
	if (mg_steps_add_user(&c->steps, t0_ns, t1_ns, delta_ns)) {
		c->st.lost++;		/* a step not kept may be what explains a violation */
		c->st.steps_not_kept++;
	}
}

void mg_checker_kernel_step(struct mg_checker *c, uint64_t t0_ns, uint64_t t1_ns,
			    int64_t delta_lo, int64_t delta_hi)
{
	int r = mg_steps_add_kernel(&c->steps, t0_ns, t1_ns, delta_lo, delta_hi);

	c->st.kernel_step_records++;
	if (r == 1)
		return;		/* the same step seen from another CPU */
	c->st.kernel_steps++;
	if (r < 0) {
		c->st.lost++;		/* as mg_checker_clock_step() */
		c->st.steps_not_kept++;
	}
}

const struct mg_clock_step *mg_checker_steps(const struct mg_checker *c, size_t *n)
{
	*n = c->steps.nuser;
	return c->steps.user;
}

void mg_checker_missed(struct mg_checker *c, uint64_t n)
{
	c->st.missed += n;
}

void mg_checker_lost(struct mg_checker *c, uint64_t n)
{
	c->st.lost += n;
}

const struct mg_check_stats *mg_checker_stats(const struct mg_checker *c)
{
	return &c->st;
}

const struct mg_violation *mg_checker_reports(const struct mg_checker *c, size_t *n)
{
	*n = c->nreports;
	return c->reports;
}

uint64_t mg_checker_undecided(const struct mg_checker *c)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < MG_V_NR_KINDS; k++)
		n += c->st.undecided[k];
	return n;
}

uint64_t mg_checker_faults_of(const struct mg_check_stats *st, enum mg_violation_kind k)
{
	return st->violations[k] - st->explained[k] - st->undecided[k] - st->known[k];
}

void mg_checker_set_known(struct mg_checker *c, mg_known_fn fn, void *ctx)
{
	c->known_fn = fn;
	c->known_ctx = ctx;
}

uint64_t mg_checker_faults(const struct mg_checker *c)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < MG_V_NR_KINDS; k++)
		n += mg_checker_faults_of(&c->st, k);
	return n;
}
