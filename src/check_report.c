// SPDX-License-Identifier: GPL-2.0
/*
 * check_report.c - what `mgtrace check` prints: the text report and the JUnit
 * XML suite, and the helpers the JSON report (check_json.c) shares. The
 * verdict itself is decided in check.c from verdict.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check_int.h"
#include "opts.h"
#include "pidns.h"
#include "util.h"

/* ---- names of violation and not-fault kinds (checker.h) ---- */

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

/*
 * What the run covers, for the text report and JUnit: judging is system-wide unless
 * --tree, and the counters, floor figures and gates are always the kernel's global
 * counts (two CI jobs on one machine see each other's events there).
 */
static const char *check_scope_text(const struct check_state *cs)
{
	return cs->o.tree ?
	       "judging: COMMAND's process tree (--tree, below); counters, floor figures and "
	       "gates: system-wide (the kernel's counters are global: other processes' updates "
	       "count too)" :
	       "system-wide: every process's timestamp events are judged, not only the "
	       "workload's (--tree narrows judging to COMMAND's tree), and the counters, floor "
	       "figures and gates are the kernel's global counts";
}

/* One line for a gate: "0.31 <= 0.7 (limit)", "0.9 > 0.47 allowed (baseline 0.3 x 1.5 + 0.01)". */
void check_gate_text(const struct check_state *cs, int i, char *buf, size_t len)
{
	const struct mg_gate *g = &cs->gates[i];
	double v = cs->fig.f[i].value;
	size_t n = 0;

	buf[0] = 0;
	if (g->limit >= 0)
		n += snprintf(buf + n, len - n, "%.6g %s %.6g (limit)", v, v > g->limit ? ">" : "<=",
			      g->limit);
	if (g->have_base && n < len)
		snprintf(buf + n, len - n, "%s%.6g %s %.6g allowed (baseline %.6g x %g + %g)",
			 n ? "; " : "", v, v > g->allowed ? ">" : "<=", g->allowed, g->base,
			 cs->o.baseline_factor, mg_baseline_slack(i));
}

/*
 * The name a violation is about: the one the events carried, or for a cross-file
 * order report (user-space observations, no name) the built-in workload's file
 * with that dev and inode. Sets *len and *cut (escape.h); NULL when unknown.
 */
const char *check_violation_name(const struct check_state *cs, const struct mg_violation *v,
				  char *buf, size_t buflen, size_t *len, bool *cut)
{
	uint64_t i;

	*cut = false;
	if (v->name[0]) {
		*len = mg_name_len(v->name, sizeof(v->name), 0, cut);
		*cut = *cut || v->name_truncated;
		return v->name;
	}
	for (i = 0; v->kind == MG_V_ORDER && cs->wl.t && i < cs->wl.o.threads; i++)
		for (int k = 0; k < 2; k++)
			if (cs->wl.t[i].dev[k] == v->dev && cs->wl.t[i].ino[k] == v->ino) {
				*len = (size_t)snprintf(buf, buflen, "t%d-f%d", cs->wl.t[i].idx, k + 1);
				return buf;
			}
	return NULL;
}

/* External bytes in a text line (xml false) or in XML character data (xml true). */
static void put_bytes(FILE *f, const char *s, size_t len, bool cut, bool xml)
{
	if (!xml) {
		mg_text_fput(f, s, len, cut);
		return;
	}
	mg_xml_fput(f, s, len);
	if (cut)
		fputs("\\...", f);
}

static void put_obs(FILE *f, const struct mg_obs *o, bool xml)
{
	bool cut;
	size_t n = mg_name_len(o->comm, sizeof(o->comm), 0, &cut);

	/* pid 0 in a PID namespace of mgtrace's own: a process outside it, "-" as trace
	 * prints it (JSON null: check_json.c) */
	if (!o->pid && mg_pidns_self(NULL, NULL) > 0)
		fprintf(f, "%lld.%09u (pid - ", (long long)o->ctime.sec, o->ctime.nsec);
	else
		fprintf(f, "%lld.%09u (pid %u ", (long long)o->ctime.sec, o->ctime.nsec, o->pid);
	put_bytes(f, o->comm, n, cut, xml);
	fprintf(f, " cpu %u at %.6f s)", o->cpu, o->t_ns / 1e9);
}

/*
 * One violation report as a text line (no newline): kind (not for a not-fault
 * example), dev MAJ:MIN, inode, mount point and name (escaped), and the two
 * observations. ex: the not-fault kind of an example (enum mg_benign_kind), -1
 * for a violation. The rules judge two kinds on one observation (earlier and
 * later the same, include/mg_rules.h): unverified_queried_updates (the value the
 * QUERIED swap replaced was never observed) and unsure_seconds; their line
 * shows it once, so it never reads as an equal ctime seen twice.
 */
static void put_violation(FILE *f, const struct check_state *cs, const struct mg_violation *v,
			  bool xml, int ex);

/* The not-fault examples: one line each, as a violation's, under "e.g. KIND". */
static void put_examples(FILE *f, const struct check_state *cs)
{
	const struct mg_violation *ex;
	size_t n, i;
	unsigned int k;

	for (k = 0; k < MG_B_NR_KINDS; k++) {
		ex = mg_checker_examples(cs->chk, k, &n);
		for (i = 0; i < n; i++) {
			fprintf(f, "  e.g. %s: ", mg_benign_name(k));
			put_violation(f, cs, &ex[i], false, (int)k);
			fputc('\n', f);
		}
	}
}

static void put_violation(FILE *f, const struct check_state *cs, const struct mg_violation *v,
			  bool xml, int ex)
{
	bool example = ex >= 0;
	char dev[MG_KDEV_STRLEN], mnt[4096], nb[32];
	int mlen = mg_kdev_mount(v->dev, mnt, sizeof(mnt));
	const char *name;
	size_t nlen;
	bool cut;

	/* an example (put_examples) has no violation kind of its own */
	if (!example && v->step_undecided)
		fprintf(f, "violation %s (undecided: a realtime clock step back of its size from %llu "
			"ms before the earlier observation on): ", mg_violation_name(v->kind),
			MG_STEP_NEAR_NS / 1000000);
	else if (!example)
		fprintf(f, "violation %s%s: ", mg_violation_name(v->kind),
			v->step_explained ? " (explained by a realtime clock step)" : "");
	fprintf(f, "dev %s ino %llu gen %u (", mg_kdev_str(v->dev, dev), (unsigned long long)v->ino,
		v->gen);
	if (mlen >= 0)
		put_bytes(f, mnt, (size_t)mlen, false, xml);
	else
		fputs("?", f);
	fputs(": ", f);
	name = check_violation_name(cs, v, nb, sizeof(nb), &nlen, &cut);
	if (name)
		put_bytes(f, name, nlen, cut, xml);
	else
		fputs("?", f);
	fprintf(f, ") %s ", v->what);
	if (ex == MG_B_UNVERIFIED) {
		fputs("(previous ctime not observed) then ", f);
	} else if (ex == MG_B_SEC_UNSURE) {
		put_obs(f, &v->later, xml);
		fputs(" (one observation: its seconds may be another update's)", f);
		return;
	} else {
		put_obs(f, &v->earlier, xml);
		fputs(" then ", f);
	}
	put_obs(f, &v->later, xml);
	/* a set is no update the kernel could make later (include/mg_rules.h,
	 * mg_rule_set_after_query()): say which path wrote it */
	if (!example && v->kind == MG_V_NOT_LATER && v->later.kind == MG_EV_CTIME_SET)
		fputs(" set by inode_set_ctime_to_ts over the QUERIED ctime (a time copied onto "
		      "the inode, not taken fresh after the query)", f);
}


/* Why the floor invariants were not (both) checked in this run ("" when they were). */
const char *check_floor_unchecked(const struct check_state *cs)
{
	return cs->floor_why[0] ? cs->floor_why : cs->floor_read_why;
}

/* The invariant lines: name, whether it applies, its violations. */
struct inv_line {
	const char *name;
	int kinds[2];		/* violation kinds counted, -1: none */
	const char *na;		/* not checked: why (NULL: checked) */
};

static int inv_lines(const struct check_state *cs, struct inv_line *l)
{
	int n = 0;
	const char *fw = check_floor_unchecked(cs);

	l[n++] = (struct inv_line){ "no ctime regression", { MG_V_REGRESSION, -1 }, NULL };
	l[n++] = (struct inv_line){ "change visibility", { MG_V_NOT_LATER, MG_V_SKIP_AFTER_QUERY },
				    NULL };
	l[n++] = (struct inv_line){ "cross-file ordering", { MG_V_ORDER, -1 },
				    cs->o.argv ? "built-in workload only" : NULL };
	l[n++] = (struct inv_line){ "floor moves forward", { MG_V_FLOOR_BACKWARD, -1 },
				    fw[0] ? fw : cs->floor_read_why[0] ? cs->floor_read_why : NULL };
	l[n++] = (struct inv_line){ "fine stamps only when needed", { MG_V_FINE_UNNEEDED, -1 },
				    fw[0] ? fw : NULL };
	return n;
}

/*
 * A per-kind count (st->violations, ->explained, ->undecided) summed over a line's
 * kinds; by_kind NULL: the line's faults (mg_checker_faults_of()).
 */
static uint64_t line_sum(const struct mg_check_stats *st, const struct inv_line *l,
			 const uint64_t *by_kind)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < 2; k++)
		if (l->kinds[k] >= 0)
			n += by_kind ? by_kind[l->kinds[k]] : mg_checker_faults_of(st, l->kinds[k]);
	return n;
}

void check_print_text(struct check_state *cs, const struct mg_report *rep,
		       const struct mg_verdict *v)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);
	const struct mg_violation *vs;
	struct inv_line lines[8];
	size_t n, i;
	uint64_t und;
	int nl;
	FILE *f = cs->out;
	char dev[MG_KDEV_STRLEN], mnt[4096], judged[512];
	int mlen;

	fprintf(f, "\nmgtrace check: %.3f s on kernel ", rep->seconds);
	mg_text_fput(f, cs->run.env.release, strlen(cs->run.env.release), false);
	fputs(", ", f);
	if (cs->o.argv)
		mg_text_fput(f, cs->o.argv[0], strlen(cs->o.argv[0]), false);
	fprintf(f, "%s workload\nscope: %s\n", cs->o.argv ? "" : "built-in", check_scope_text(cs));
	if (!cs->o.argv && cs->have_wl_mount) {
		fprintf(f, "workload directory: dev %s, mounted on ", mg_kdev_str(cs->wl_mount_dev, dev));
		mg_text_fput(f, cs->wl_mount, strlen(cs->wl_mount), false);
		fputc('\n', f);
	} else if (!cs->o.argv && cs->wl.have_dir_dev) {
		mlen = mg_kdev_mount(cs->wl.dir_dev, mnt, sizeof(mnt));
		fprintf(f, "workload directory: dev %s, mounted on ", mg_kdev_str(cs->wl.dir_dev, dev));
		if (mlen >= 0)
			mg_text_fput(f, mnt, (size_t)mlen, false);
		else
			fputs("? (not in /proc/self/mountinfo)", f);
		fputc('\n', f);
	}
	mg_run_print_backend(&cs->run, f);
	fputc('\n', f);
	mg_report_print_summary(f, rep, &(struct mg_print_opts){ .verbose = mg_verbose > 0 });
	/* the counters above are read around the workload; events are judged from attach to
	 * detach, a little wider: the two counts of one kind can differ by what came between */
	fprintf(f, "\nevents (attach to detach): %llu (ctime swaps %llu, skips %llu, stat queries "
		"%llu, sets %llu, floor %llu) on %llu inodes; lost %llu; untracked %llu; not judged, "
		"no inode number yet %llu\n",
		(unsigned long long)st->events, (unsigned long long)st->by_kind[MG_EV_CTIME_SWAP],
		(unsigned long long)st->by_kind[MG_EV_CTIME_SKIP],
		(unsigned long long)st->by_kind[MG_EV_STAT], (unsigned long long)st->by_kind[MG_EV_CTIME_SET],
		(unsigned long long)(st->by_kind[MG_EV_FLOOR_SWAP] + st->by_kind[MG_EV_FLOOR_FAIL] +
				     st->by_kind[MG_EV_FLOOR_UNKNOWN]),
		(unsigned long long)st->inodes, (unsigned long long)st->lost,
		(unsigned long long)st->untracked_events, (unsigned long long)st->no_ino_events);
	mg_judge_describe(&cs->judge, judged, sizeof(judged));
	fprintf(f, "judged: %s\n", judged);
	if (cs->o.tree)
		fprintf(f, "scope (--tree): inodes COMMAND (pid %d) and its descendants touched first; "
			"%llu process(es) followed, %llu not followed, %llu still running when COMMAND "
			"exited (not judged after it); out of scope (other inodes, other processes) "
			"%llu events\n", (int)cs->run.child,
			(unsigned long long)mg_judge_tree_followed(&cs->judge) + 1,
			(unsigned long long)mg_judge_tree_not_followed(&cs->judge),
			(unsigned long long)cs->judge.tree_alive_at_end,
			(unsigned long long)st->out_of_scope_events);
	if (st->missed)
		fprintf(f, "BPF program runs skipped by the kernel (recursion_misses): %llu (%s): "
			"their events were never seen\n", (unsigned long long)st->missed,
			cs->missed_detail);
	if (cs->undeciding_misses)
		fprintf(f, "floor probe runs skipped at a coarse call's return: %llu (%s): each can "
			"only leave its fine stamp undecided (counted there), not inconclusive\n",
			(unsigned long long)cs->undeciding_misses, cs->undeciding_detail);
	fprintf(f, "not faults (outside the kernel's contract, or races the events cannot decide):\n");
	for (i = 0; i < MG_B_NR_KINDS; i++)
		fprintf(f, "  %-30s %10llu  %s\n", mg_benign_name(i),
			(unsigned long long)st->benign[i], mg_benign_why(i));
	put_examples(f, cs);
	fprintf(f, "realtime clock steps: %llu (recorded at any size)", (unsigned long long)st->clock_steps);
	if (cs->judge.active)
		fprintf(f, "; seen in BPF: %llu (%llu records, one per CPU that saw a step)",
			(unsigned long long)st->kernel_steps, (unsigned long long)st->kernel_step_records);
	if (st->steps_not_kept)
		fprintf(f, "; not kept: %llu (past the checker's bound, counted as lost)",
			(unsigned long long)st->steps_not_kept);
	fputc('\n', f);
	nl = inv_lines(cs, lines);
	for (i = 0; i < (size_t)nl; i++) {
		const struct inv_line *l = &lines[i];

		if (l->na) {
			fprintf(f, "%-6s %-30s not checked: %s\n", "-", l->name, l->na);
			continue;
		}
		und = line_sum(st, l, st->undecided);
		fprintf(f, "%-6s %-30s %llu violation(s)", line_sum(st, l, NULL) ? "FAIL" :
			und ? "UNDEC" : "PASS", l->name, (unsigned long long)line_sum(st, l, st->violations));
		if (l->kinds[0] == MG_V_REGRESSION || l->kinds[0] == MG_V_ORDER ||
		    l->kinds[0] == MG_V_NOT_LATER) {
			fprintf(f, ", %llu explained by clock steps",
				(unsigned long long)line_sum(st, l, st->explained));
			if (und)
				fprintf(f, ", %llu undecided (near a clock step of their size)",
					(unsigned long long)und);
		}
		if (l->kinds[0] == MG_V_ORDER && cs->order) {
			uint64_t taken, judged;
			size_t held;

			mg_order_counts(cs->order, &taken, &judged, &held);
			fprintf(f, " in %llu modifications", (unsigned long long)judged);
		}
		if (l->kinds[0] == MG_V_FLOOR_BACKWARD)
			fprintf(f, " in %llu floor reads", (unsigned long long)st->floor_checked);
		if (l->kinds[0] == MG_V_FINE_UNNEEDED)
			fprintf(f, " in %llu decided fine stamps, %llu undecided",
				(unsigned long long)st->fine_checked,
				(unsigned long long)st->fine_undecided);
		fputc('\n', f);
	}
	for (i = 0; i < MG_F_NR; i++) {
		const struct mg_gate *g = &cs->gates[i];
		char buf[200];

		if (!cs->fig.f[i].have) {
			fprintf(f, "%-6s %-30s unavailable: %s\n", g->result < 0 && (g->limit >= 0 ||
				g->have_base) ? "?" : "-", mg_figure_name(i), cs->fig.f[i].why);
			continue;
		}
		if (g->result < 0) {
			fprintf(f, "%-6s %-30s %.6g (%s, derived), %s\n", g->why[0] ? "?" : "-",
				mg_figure_name(i), cs->fig.f[i].value, mg_figure_formula(i),
				g->why[0] ? g->why : "no gate");
			continue;
		}
		check_gate_text(cs, i, buf, sizeof(buf));
		fprintf(f, "%-6s %-30s %s (%s, derived)\n", g->result ? "PASS" : "FAIL",
			mg_figure_name(i), buf, mg_figure_formula(i));
	}
	/* so are the run's own end and COMMAND's status (JUnit): one line per FAIL */
	if (cs->interrupt_why[0])
		fprintf(f, "%-6s %-30s %s\n", "INTR", "workload ran to its end", cs->interrupt_why);
	if (cs->o.argv && cs->run.child_abandoned)
		fprintf(f, "%-6s %-30s not judged: COMMAND did not end (no exit status)\n", "-",
			"COMMAND succeeds");
	else if (cs->o.argv && cs->status_from_signal)
		fprintf(f, "%-6s %-30s not judged: exit status %d is from %s, which interrupted "
			"the run\n", "-", "COMMAND succeeds", cs->run.child_status,
			mg_signal_name(cs->run.child_status - 128));
	else if (cs->o.argv)
		fprintf(f, "%-6s %-30s exit status %d%s%s (expected 0)\n", cs->run.child_status ?
			"FAIL" : "PASS", "COMMAND succeeds", cs->run.child_status,
			cs->run.child_signal ? ", killed by " : "",
			cs->run.child_signal ? mg_signal_name(cs->run.child_signal) : "");
	vs = mg_checker_reports(cs->chk, &n);
	for (i = 0; i < n; i++) {
		put_violation(f, cs, &vs[i], false, -1);
		fputc('\n', f);
	}
	fprintf(f, "verdict: %s (%s)\n", v->word, v->reason);
	fflush(f);
}

/*
 * A breached gate as JUnit wants it, expected against actual: "expected
 * floor_swaps_per_update <= 0.7 (limit), got 0.999001". Both bounds when both are set.
 */
static void gate_expected(const struct check_state *cs, int i, char *buf, size_t len)
{
	const struct mg_gate *g = &cs->gates[i];
	double v = cs->fig.f[i].value;
	size_t n = 0;

	n += snprintf(buf, len, "expected %s", mg_figure_name(i));
	if (g->limit >= 0 && n < len)
		n += snprintf(buf + n, len - n, " <= %.6g (limit)", g->limit);
	if (g->have_base && n < len)
		n += snprintf(buf + n, len - n, "%s <= %.6g (baseline %.6g x %g + %g)",
			      g->limit >= 0 ? " and" : "", g->allowed, g->base, cs->o.baseline_factor,
			      mg_baseline_slack(i));
	if (n < len)
		snprintf(buf + n, len - n, ", got %.6g", v);
}

/*
 * The XML declaration and <testsuite> with what the strict Ant JUnit schema requires:
 * counts, timestamp (UTC, ISO 8601 without a zone, as that schema's type has it),
 * hostname and time (s, the run's window: attach to detach).
 */
static void suite_open(FILE *f, int tests, int failures, int errors, int skipped, double secs)
{
	char host[256] = "localhost", when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "localhost");
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", gmtime_r(&now, &tm));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuite name=\"mgtrace check\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		"skipped=\"%d\" timestamp=\"%s\" hostname=\"", tests, failures, errors, skipped, when);
	mg_xml_fput(f, host, strlen(host));
	fprintf(f, "\" time=\"%.3f\">\n", secs);
}

int check_write_junit(struct check_state *cs, const struct mg_verdict *v)
{
	const struct mg_check_stats *st = mg_checker_stats(cs->chk);
	FILE *f = cs->junit;
	struct inv_line lines[8];
	/* kinds: the violation kinds whose reports a failed testcase lists (-1: none) */
	struct { const char *name; char fail[240]; char skip[512]; const char *type; int kinds[2]; }
		tc[8 + MG_F_NR + 1];
	const struct mg_violation *vs;
	size_t nv, j;
	int i, n = 0, nl, failures = 0, skipped = 0, errors;
	double secs;

	cs->junit = NULL;
	vs = mg_checker_reports(cs->chk, &nv);
	memset(tc, 0, sizeof(tc));
	nl = inv_lines(cs, lines);
	for (i = 0; i < nl; i++, n++) {
		tc[n].name = lines[i].name;
		tc[n].kinds[0] = lines[i].kinds[0];
		tc[n].kinds[1] = lines[i].kinds[1];
		tc[n].type = "violation";
		if (lines[i].na)
			snprintf(tc[n].skip, sizeof(tc[n].skip), "%s", lines[i].na);
		else if (line_sum(st, &lines[i], NULL))
			snprintf(tc[n].fail, sizeof(tc[n].fail), "expected 0 violations, got %llu%s",
				 (unsigned long long)line_sum(st, &lines[i], NULL), cs->judge.sum.lost ?
				 " (some not listed below: violation records were lost to a full ring "
				 "buffer, raise --ringbuf-size; the count is exact)" : "");
	}
	for (i = 0; i < MG_F_NR; i++, n++) {
		const struct mg_gate *g = &cs->gates[i];

		tc[n].name = mg_figure_name(i);
		tc[n].type = "gate";
		tc[n].kinds[0] = tc[n].kinds[1] = -1;
		if (g->result < 0)
			snprintf(tc[n].skip, sizeof(tc[n].skip), "%s", g->why[0] ? g->why :
				 "no gate set");
		else if (!g->result)
			gate_expected(cs, i, tc[n].fail, sizeof(tc[n].fail));
	}
	if (cs->o.argv) {
		tc[n].name = "COMMAND succeeds";
		tc[n].type = "command";
		tc[n].kinds[0] = tc[n].kinds[1] = -1;
		if (cs->run.child_abandoned)
			snprintf(tc[n].skip, sizeof(tc[n].skip), "COMMAND did not end, not even "
				 "after SIGKILL: no exit status");
		else if (cs->status_from_signal)
			snprintf(tc[n].skip, sizeof(tc[n].skip), "exit status %d is from %s, which "
				 "interrupted the run", cs->run.child_status,
				 mg_signal_name(cs->run.child_status - 128));
		else if (cs->run.child_status)
			snprintf(tc[n].fail, sizeof(tc[n].fail), "expected exit status 0, got %d%s%s%s",
				 cs->run.child_status, cs->run.child_signal ? " (killed by " : "",
				 cs->run.child_signal ? mg_signal_name(cs->run.child_signal) : "",
				 cs->run.child_signal ? ")" : "");
		n++;
	}
	for (i = 0; i < n; i++) {
		failures += tc[i].fail[0] != 0;
		skipped += tc[i].skip[0] != 0;
	}
	/* errors: a run a signal cut short; incomplete events (an INCONCLUSIVE not the signal's) */
	errors = (cs->interrupt_why[0] != 0) + (v->code == MG_EXIT_INCONCLUSIVE && !v->interrupted);
	secs = cs->run.cur.t_ns > cs->run.first.t_ns ?
	       (double)(cs->run.cur.t_ns - cs->run.first.t_ns) / 1e9 : 0;
	/* the two run-level testcases are always there: the count never changes between runs */
	suite_open(f, n + 2, failures, errors, skipped, secs);
	/* what was checked: external bytes, escaped as in text output (docs/json.md "Strings") */
	fprintf(f, "  <properties>\n    <property name=\"kernel_release\" value=\"");
	mg_xml_fput(f, cs->run.env.release, strlen(cs->run.env.release));
	fprintf(f, "\"/>\n    <property name=\"scope\" value=\"%s\"/>\n", check_scope_text(cs));
	for (i = 0; cs->o.argv && cs->o.argv[i]; i++) {
		fprintf(f, "    <property name=\"command[%d]\" value=\"", i);
		mg_xml_fput(f, cs->o.argv[i], strlen(cs->o.argv[i]));
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "  </properties>\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "  <testcase classname=\"mgtrace.check\" name=\"");
		mg_xml_fput(f, tc[i].name, strlen(tc[i].name));
		fprintf(f, "\" time=\"%.3f\">", secs);
		if (tc[i].skip[0]) {
			fprintf(f, "<skipped message=\"");
			mg_xml_fput(f, tc[i].skip, strlen(tc[i].skip));
			fprintf(f, "\"/>");
		} else if (tc[i].fail[0]) {
			/* the body lists the stored reports of this testcase's kinds, one a line */
			fprintf(f, "<failure type=\"%s\" message=\"", tc[i].type);
			mg_xml_fput(f, tc[i].fail, strlen(tc[i].fail));
			fprintf(f, "\">");
			for (j = 0; j < nv; j++) {
				if (vs[j].step_explained || vs[j].step_undecided ||
				    ((int)vs[j].kind != tc[i].kinds[0] &&
							     (int)vs[j].kind != tc[i].kinds[1]))
					continue;
				put_violation(f, cs, &vs[j], true, -1);
				fputc('\n', f);
			}
			fprintf(f, "</failure>");
		}
		fprintf(f, "</testcase>\n");
	}
	fprintf(f, "  <testcase classname=\"mgtrace.check\" name=\"workload ran to its end\" "
		"time=\"%.3f\">", secs);
	if (cs->interrupt_why[0]) {
		fprintf(f, "<error type=\"interrupted\" message=\"");
		mg_xml_fput(f, cs->interrupt_why, strlen(cs->interrupt_why));
		fprintf(f, "\"/>");
	}
	fprintf(f, "</testcase>\n  <testcase classname=\"mgtrace.check\" name=\"events complete\" "
		"time=\"%.3f\">", secs);
	if (v->code == MG_EXIT_INCONCLUSIVE && !v->interrupted) {
		fprintf(f, "<error type=\"inconclusive\" message=\"");
		mg_xml_fput(f, v->reason, strlen(v->reason));
		fprintf(f, "\"/>");
	}
	fprintf(f, "</testcase>\n");
	fprintf(f, "</testsuite>\n");
	return fclose(f) ? mg_err(MG_EXIT_OUTPUT, "check: writing '%s' failed", cs->o.junit) : 0;
}

int check_write_junit_error(struct check_state *cs, int code)
{
	FILE *f = cs->junit;
	int err = 0;

	cs->junit = NULL;
	if (!f && !(f = fopen(cs->o.junit, "we")))
		return mg_err(mg_path_exit(errno), "check: cannot open '%s': %s", cs->o.junit,
			      strerror(errno));
	suite_open(f, 1, 0, 1, 0, 0);
	fprintf(f, "  <properties>\n    <property name=\"exit_code\" value=\"%d\"/>\n"
		"  </properties>\n", code);
	fprintf(f, "  <testcase classname=\"mgtrace.check\" name=\"check ran\" time=\"0.000\">"
		"<error type=\"exit %d\" message=\"", code);
	mg_xml_fput(f, mg_last_err, strlen(mg_last_err));
	fprintf(f, "\">mgtrace check could not judge (exit %d): ", code);
	mg_xml_fput(f, mg_last_err, strlen(mg_last_err));
	fprintf(f, "</error></testcase>\n</testsuite>\n");
	if (fflush(f))
		err = errno;
	if (fclose(f) && !err)
		err = errno;
	return err ? mg_err(MG_EXIT_OUTPUT, "check: writing '%s': %s", cs->o.junit, strerror(err)) : 0;
}
