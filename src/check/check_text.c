// SPDX-License-Identifier: GPL-2.0
/*
 * check_text.c - the text report of `mgtrace check`, rendered from its result
 * (check_result.c), and the violation line it shares with the JUnit suite
 * (check_junit.c).
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
#include "vocab.h"

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

	/* an observation of the per-inode state whose context its ring no longer held */
	if (o->ctx_lost) {
		fprintf(f, "%lld.%09u (pid, comm and cpu overwritten at %.6f s)",
			(long long)o->ctime.sec, o->ctime.nsec, o->t_ns / 1e9);
		return;
	}
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

void check_put_violation(FILE *f, const struct check_names *nm, const struct mg_violation *v,
			 bool xml, int ex)
{
	bool example = ex >= 0;
	char dev[MG_KDEV_STRLEN], nb[32];
	const char *name, *mnt;
	int mlen = check_mount(nm, v->dev, &mnt);	/* one mountinfo read per report */
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
	name = check_violation_name(nm, v, nb, sizeof(nb), &nlen, &cut);
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

void check_put_stack(FILE *f, const struct check_names *nm, const struct mg_violation *v,
		     int indent, bool xml)
{
	uint32_t i, start = check_stack_start(nm, v);
	struct mg_kframe fr;
	char line[400];
	int n;

	for (i = start; i < v->stack_len && i < MG_STACK_FRAMES; i++) {
		mg_ksyms_name(nm->ks, v->stack[i], &fr);
		n = snprintf(line, sizeof(line), "%*s0x%016llx", indent, "",
			     (unsigned long long)fr.addr);
		/* a BPF program under the stack's first kernel frame: a stale return address
		 * the unwinder read (CONFIG_UNWINDER_GUESS takes every text address on the
		 * stack: three frames of a program loaded after the event, on a 7.2 built so),
		 * or a program that called into the kernel (a kfunc) */
		if (fr.sym)
			snprintf(line + n, sizeof(line) - (size_t)n, " %s+0x%llx%s%s%s%s", fr.sym,
				 (unsigned long long)fr.off, fr.module ? " [" : "",
				 fr.module ? fr.module : "", fr.module ? "]" : "",
				 i > start && !strncmp(fr.sym, "bpf_prog_", 9) ? " (a BPF program "
				 "under kernel frames: a stale value on the stack, named as what is "
				 "there now, as CONFIG_UNWINDER_GUESS reads them; or a BPF caller)" : "");
		if (xml)
			mg_xml_fput(f, line, strlen(line));
		else
			mg_text_fput(f, line, strlen(line), false);
		fputc('\n', f);
	}
}

/*
 * The violations counted (*all, the known faults' aside: text_known() lists them) and
 * those of them listed (*shown, of the reports kept); true when fewer are listed.
 */
static bool reports_cut(const struct check_result *r, uint64_t *all, uint64_t *shown)
{
	size_t i;
	int k;

	*all = *shown = 0;
	for (k = 0; k < MG_V_NR_KINDS; k++)
		*all += r->st.violations[k] - r->st.known[k];
	for (i = 0; i < r->nreports; i++)
		*shown += r->reports[i].known < 0;
	return *all > *shown;
}

/*
 * The kernel stack of report i, under its line: shown under the first report that has it,
 * with how many share it (numbered), and named by its number under the others.
 */
static void put_report_stack(FILE *f, const struct check_result *r, size_t i)
{
	const struct mg_violation *v = &r->reports[i];
	size_t first = r->stack_first ? r->stack_first[i] : i;
	uint64_t all, shown;
	unsigned int no = 0;
	size_t j;

	if (v->stack_why != MG_STACK_TAKEN)
		return;
	for (j = 0; j <= first; j++)	/* the stack's number: distinct stacks before it, + 1 */
		no += r->stack_first && r->stack_first[j] == j &&
		      r->reports[j].stack_why == MG_STACK_TAKEN && r->reports[j].known < 0;
	if (first != i) {
		fprintf(f, "  kernel stack #%u, above\n", no);
		return;
	}
	/* counted over the violations listed: "listed" when those are fewer than all */
	fprintf(f, "  kernel stack #%u, of %llu %sviolation(s)%s%s:\n", no,
		(unsigned long long)(r->stack_count ? r->stack_count[i] : 1),
		reports_cut(r, &all, &shown) ? "listed " : "", r->names.ks_why[0] ? "; " : "",
		r->names.ks_why);
	check_put_stack(f, &r->names, v, 4, false);
}

/* When more violations were counted than reports kept: say so, never a silent cut. */
static void put_reports_kept(FILE *f, const struct check_result *r)
{
	uint64_t all, shown;

	if (reports_cut(r, &all, &shown))
		fprintf(f, "violations listed: %llu of %llu (the first kept, %zu in all; every one "
			"is counted above; --json gives the same)\n", (unsigned long long)shown,
			(unsigned long long)all, r->nreports);
}

/* The reports that have no kernel stack, counted by why: never a silent empty stack. */
static void put_stacks_missing(FILE *f, const struct check_result *r)
{
	static const struct mg_violation why[] = {
		{ .stack_why = MG_STACK_NO_RECORD }, { .stack_why = MG_STACK_TAKEN },
		{ .stack_why = MG_STACK_AT_END }, { .stack_why = MG_STACK_ORDER },
		{ .stack_why = MG_STACK_FLOOR }, { .stack_why = MG_STACK_FAILED },
		{ .stack_why = MG_STACK_SYNTHETIC },
	};
	unsigned int k;

	for (k = 0; k <= MG_STACK_SYNTHETIC; k++) {
		const char *text = mg_stack_why_text(&why[k]);

		if (!r->stacks_missing[k] || !text)
			continue;
		if (k == MG_STACK_FAILED) {	/* each report's own errno */
			fprintf(f, "kernel stacks: none for %llu violation(s): bpf_get_stack() "
				"failed (each report's errno in --json)\n",
				(unsigned long long)r->stacks_missing[k]);
			continue;
		}
		fprintf(f, "kernel stacks: none for %llu violation(s): %s\n",
			(unsigned long long)r->stacks_missing[k], text);
	}
}

/* The not-fault examples: one line each, as a violation's, under "e.g. KIND". */
static void put_examples(FILE *f, const struct check_result *r)
{
	const struct mg_violation *ex;
	size_t n, i;
	unsigned int k;

	for (k = 0; k < MG_B_NR_KINDS; k++) {
		ex = r->examples[k];
		n = r->nexamples[k];
		for (i = 0; i < n; i++) {
			fprintf(f, "  e.g. %s: ", mg_benign_name(k));
			check_put_violation(f, &r->names, &ex[i], false, (int)k);
			fputc('\n', f);
		}
	}
}

/* The header: kernel, workload, scope, the workload's directory, the backend, the counters. */
static void text_header(const struct check_result *r, FILE *f)
{
	char dev[MG_KDEV_STRLEN];
	const char *mnt;
	int mlen;

	fprintf(f, "\nmgtrace check: %.3f s on kernel ", r->rep->seconds);
	mg_text_fput(f, r->release, strlen(r->release), false);
	fputs(", ", f);
	if (r->o.argv)
		mg_text_fput(f, r->o.argv[0], strlen(r->o.argv[0]), false);
	if (!r->o.argv && r->o.interval)
		fprintf(f, "continuous: %llu intervals of %g s, no workload of its own\nscope: %s\n",
			(unsigned long long)r->intervals, r->o.interval, r->scope);
	else
		fprintf(f, "%s workload\nscope: %s\n", r->o.argv ? "" : "built-in", r->scope);
	if (!r->o.argv && r->have_wl_mount) {
		fprintf(f, "workload directory: %s, dev %s, mounted on ", r->wl_fs ? r->wl_fs : "?",
			mg_kdev_str(r->wl_mount_dev, dev));
		mg_text_fput(f, r->wl_mount, strlen(r->wl_mount), false);
		fputc('\n', f);
	} else if (!r->o.argv && r->have_dir_dev) {
		mlen = check_mount(&r->names, r->dir_dev, &mnt);
		fprintf(f, "workload directory: %s, dev %s, mounted on ", r->wl_fs ? r->wl_fs : "?",
			mg_kdev_str(r->dir_dev, dev));
		if (mlen >= 0)
			mg_text_fput(f, mnt, (size_t)mlen, false);
		else
			fputs("? (not in /proc/self/mountinfo)", f);
		fputc('\n', f);
	}
	fputs(r->backend_text, f);
	fputc('\n', f);
	mg_report_print_summary(f, r->rep, &(struct mg_print_opts){ .verbose = mg_verbose > 0 });
}

/* the kinds the events line names in words of its own (the others: by their kind name) */
#define TEXT_NAMED_KINDS (1u << MG_EV_CTIME_SWAP | 1u << MG_EV_CTIME_SKIP | 1u << MG_EV_STAT |	\
			  1u << MG_EV_CTIME_SET)

/* What was judged: the events, the judging, the tree, skipped runs, not-faults, clock steps. */
static void text_events(const struct check_result *r, FILE *f)
{
	const struct mg_check_stats *st = &r->st;
	unsigned int k;
	size_t i;

	/* the counters above are read around the workload; events are judged from attach to
	 * detach, a little wider: the two counts of one kind can differ by what came between */
	fprintf(f, "\nevents (attach to detach): %llu%s (ctime swaps %llu, skips %llu, stat "
		"queries %llu, sets %llu", (unsigned long long)st->events,
		r->o.tree ? " in scope" : "",
		(unsigned long long)st->by_kind[MG_EV_CTIME_SWAP],
		(unsigned long long)st->by_kind[MG_EV_CTIME_SKIP],
		(unsigned long long)st->by_kind[MG_EV_STAT], (unsigned long long)st->by_kind[MG_EV_CTIME_SET]);
	/* any other tracepoint kind of include/mg_vocab.def: under its name, as events_by_kind */
	for (k = 0; k < MG_EV_NR_KINDS; k++)
		if (!(MG_KINDS_FLOOR & 1u << k) && !(TEXT_NAMED_KINDS & 1u << k))
			fprintf(f, ", %s %llu", mg_event_kind_name(k), (unsigned long long)st->by_kind[k]);
	fprintf(f, ", floor %llu) on %llu inodes; lost %llu; untracked %llu; not judged, "
		"no inode number yet %llu\n", (unsigned long long)r->floor_events,
		(unsigned long long)st->inodes, (unsigned long long)st->lost,
		(unsigned long long)st->untracked_events, (unsigned long long)st->no_ino_events);
	fprintf(f, "judged: %s\n", r->judged);
	if (r->o.tree)
		fprintf(f, "scope (COMMAND's tree): inodes COMMAND (pid %d) and its descendants touched first; "
			"%llu process(es) followed, %llu not followed, %llu still running when COMMAND "
			"exited (not judged after it); out of scope (other inodes, other processes) "
			"%llu events\n", (int)r->child,
			(unsigned long long)r->jg.tree_followed + 1,
			(unsigned long long)r->jg.tree_not_followed,
			(unsigned long long)r->jg.tree_alive_at_end,
			(unsigned long long)st->out_of_scope_events);
	if (st->missed)
		fprintf(f, "BPF program runs skipped by the kernel (recursion_misses): %llu (%s): "
			"their events were never seen\n", (unsigned long long)st->missed,
			r->missed_detail);
	if (r->undeciding_misses)
		fprintf(f, "floor probe runs skipped at a coarse call's return: %llu (%s): each can "
			"only leave its fine stamp undecided (counted there), not inconclusive\n",
			(unsigned long long)r->undeciding_misses, r->undeciding_detail);
	fprintf(f, "not faults (outside the kernel's contract, or races the events cannot decide):\n");
	for (i = 0; i < MG_B_NR_KINDS; i++)
		fprintf(f, "  %-30s %10llu  %s\n", mg_benign_name(i),
			(unsigned long long)st->benign[i], mg_benign_why(i));
	put_examples(f, r);
	fprintf(f, "realtime clock steps: %llu (recorded at any size)", (unsigned long long)st->clock_steps);
	fprintf(f, "; seen in BPF: %llu (%llu records, one per CPU that saw a step)",
		(unsigned long long)st->kernel_steps, (unsigned long long)st->kernel_step_records);
	if (st->steps_not_kept)
		fprintf(f, "; not kept: %llu (past the checker's bound, counted as lost)",
			(unsigned long long)st->steps_not_kept);
	fputc('\n', f);
}

static const char *const outcome_word[] = {
	[CHECK_PASS] = "PASS", [CHECK_FAIL] = "FAIL", [CHECK_UNDECIDED] = "UNDEC",
	[CHECK_NOT_CHECKED] = "-", [CHECK_KNOWN] = "KNOWN",
};

/* One line an invariant: PASS, FAIL, UNDEC or "-" (not checked), its counts, what it judged. */
static void text_invariants(const struct check_result *r, FILE *f)
{
	int i;

	for (i = 0; i < r->ninv; i++) {
		const struct check_inv *l = &r->inv[i];

		if (l->result == CHECK_NOT_CHECKED) {
			fprintf(f, "%-6s %-30s not checked: %s\n", "-", l->name, l->why);
			continue;
		}
		fprintf(f, "%-6s %-30s %llu violation(s)", outcome_word[l->result], l->name,
			(unsigned long long)l->violations);
		if (l->clock_steps) {
			fprintf(f, ", %llu explained by clock steps", (unsigned long long)l->explained);
			if (l->undecided)
				fprintf(f, ", %llu undecided (near a clock step of their size)",
					(unsigned long long)l->undecided);
		}
		if (l->known)
			fprintf(f, ", %llu known kernel fault(s) (--known)",
				(unsigned long long)l->known);
		fprintf(f, "%s\n", l->scope);
	}
}

/* One line a floor figure: its gate's outcome, or "-" (no gate) and "?" (gate not evaluated). */
static void text_gates(const struct check_result *r, FILE *f)
{
	int i;

	for (i = 0; i < MG_F_NR; i++) {
		const struct mg_gate *g = &r->gates[i];
		char buf[200];

		if (!r->fig.f[i].have) {
			fprintf(f, "%-6s %-30s unavailable: %s\n", g->result < 0 && (g->limit >= 0 ||
				g->have_base) ? "?" : "-", mg_figure_name(i), r->fig.f[i].why);
			continue;
		}
		if (g->result < 0) {
			fprintf(f, "%-6s %-30s %.6g (%s, derived), %s\n", g->why[0] ? "?" : "-",
				mg_figure_name(i), r->fig.f[i].value, mg_figure_formula(i),
				g->why[0] ? g->why : "no gate");
			continue;
		}
		check_gate_text(r, i, buf, sizeof(buf));
		fprintf(f, "%-6s %-30s %s (%s, derived)\n", g->result ? "PASS" : "FAIL",
			mg_figure_name(i), buf, mg_figure_formula(i));
	}
}

/* The --known entries: each one's matches, reference, and first example; nothing without --known. */
static void text_known(const struct check_result *r, FILE *f)
{
	const struct mg_known *k = r->o.known;
	size_t i;

	if (!k)
		return;
	fputs("known kernel faults (--known ", f);
	mg_text_fput(f, k->path, strlen(k->path), false);
	fprintf(f, ", kernel %s):%s\n", k->release, k->n ? "" : " none declared in the file");
	for (i = 0; i < k->n; i++) {
		const struct mg_known_entry *e = &k->e[i];

		fprintf(f, "  %-20s %llu matched%s; %s on %s%s%s; see %s\n", e->id,
			(unsigned long long)e->matched, e->applies ? "" : " (not this kernel's: "
			"outside its releases)", mg_violation_name(e->kind), e->fstype,
			e->setter >= 0 ? ", set by " : "",
			e->setter >= 0 ? mg_known_setter_name(e->setter) : "", e->reference);
		if (e->have_example) {
			fputs("    e.g. ", f);
			check_put_violation(f, &r->names, &e->example, false, -1);
			fputc('\n', f);
			/* the kernel code that made it, as for a violation */
			if (e->example.stack_why == MG_STACK_TAKEN) {
				fprintf(f, "      kernel stack%s%s:\n", r->names.ks_why[0] ? "; " : "",
					r->names.ks_why);
				check_put_stack(f, &r->names, &e->example, 6, false);
			}
		}
	}
}

void check_print_text(const struct check_result *r, FILE *f)
{
	const struct mg_violation *vs;
	char word[80];
	size_t n, i;

	text_header(r, f);
	text_events(r, f);
	text_invariants(r, f);
	text_gates(r, f);
	/* so are the run's own end and COMMAND's status (JUnit): one line per FAIL */
	if (r->interrupt_why[0])
		fprintf(f, "%-6s %-30s %s\n", "INTR", "workload ran to its end", r->interrupt_why);
	if (r->cmd.present)
		fprintf(f, "%-6s %-30s %s\n", outcome_word[r->cmd.result], "COMMAND succeeds",
			r->cmd.text);
	vs = r->reports;
	n = r->nreports;
	for (i = 0; i < n; i++) {
		if (vs[i].known >= 0)
			continue;
		check_put_violation(f, &r->names, &vs[i], false, -1);
		fputc('\n', f);
		put_report_stack(f, r, i);
	}
	put_reports_kept(f, r);
	put_stacks_missing(f, r);
	text_known(r, f);
	fprintf(f, "verdict: %s (%s)\n", mg_verdict_word_forgotten(r->v.word, r->v.code,
		r->jg.forgotten, word, sizeof(word)), r->v.reason);
	fflush(f);
}
