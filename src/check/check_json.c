// SPDX-License-Identifier: GPL-2.0
/* check_json.c - the JSON report of `mgtrace check --json` (docs/json.md). */
#include <stdio.h>
#include <string.h>
#include "check_int.h"
#include "json_writer.h"
#include "jsonnum.h"
#include "pidns.h"
#include "vocab.h"

#define JI(x) json_integer((json_int_t)(x))

/* An observation of a violation report; its comm cut at a character boundary (escape.h). */
static json_t *json_obs(const struct mg_obs *o)
{
	json_t *j = json_object();
	bool cut;
	size_t n = mg_name_len(o->comm, sizeof(o->comm), 0, &cut);

	json_object_set_new(j, "ctime_sec", json_integer(o->ctime.sec));
	json_object_set_new(j, "ctime_nsec", json_integer(o->ctime.nsec));
	mg_json_put_ns(j, "t_mono", (int64_t)o->t_ns, true);	/* jsonnum.h */
	json_object_set_new(j, "event", mg_json_cstr(mg_event_kind_name(o->kind)));
	mg_json_put_ns(j, "entry_mono", (int64_t)o->entry_ns, o->entry_ns);
	/* the per-inode state's observation whose context was overwritten in its ring:
	 * thread, CPU and comm unknown (null), as the entry time (context_lost) */
	if (o->ctx_lost) {
		json_object_set_new(j, "pid", json_null());
		json_object_set_new(j, "cpu", json_null());
		json_object_set_new(j, "comm", json_null());
		json_object_set_new(j, "comm_truncated", json_false());
		json_object_set_new(j, "context_lost", json_true());
		return j;
	}
	/* 0 where mgtrace runs in a PID namespace of its own: a task outside it (pidns.h) */
	json_object_set_new(j, "pid", !o->pid && mg_pidns_self(NULL, NULL) > 0 ? json_null() :
			    json_integer(o->pid));
	json_object_set_new(j, "cpu", json_integer(o->cpu));
	json_object_set_new(j, "comm", mg_json_str(o->comm, n));
	json_object_set_new(j, "comm_truncated", json_boolean(cut));
	json_object_set_new(j, "context_lost", json_false());
	return j;
}

/*
 * JSON "mount" of a kernel dev_t: the mount point, or null when none is found; from
 * nm's table, one mountinfo read for the whole report (check_mount()).
 */
static json_t *json_mount(const struct check_names *nm, uint32_t dev)
{
	const char *mnt;
	int n = check_mount(nm, dev, &mnt);

	return n >= 0 ? mg_json_str(mnt, (size_t)n) : json_null();
}

/*
 * "interrupted": null when the run reached its planned end, else the signal that ended it
 * (the first SIGINT, SIGTERM or SIGHUP taken), after_s from the run's start, planned_s
 * (the built-in workload's duration; null with COMMAND) and the verdict's line for it.
 */
static json_t *json_interrupted(const struct check_result *r)
{
	json_t *j;

	if (!r->stop_sig || (r->o.interval && !r->o.argv))	/* continuous: the planned end */
		return json_null();
	j = json_object();
	json_object_set_new(j, "signal", json_string(mg_signal_name(r->stop_sig)));
	json_object_set_new(j, "after_s", json_real(r->stop_after_s));
	json_object_set_new(j, "planned_s", r->o.argv ? json_null() : json_real(r->o.duration));
	json_object_set_new(j, "text", json_string(r->interrupt_why));
	return j;
}

/* The verdict, the workload (COMMAND or built-in: its directory and parameters). */
static void json_workload(json_t *o, const struct check_result *r)
{
	char dev[MG_KDEV_STRLEN];
	json_t *wd;

	json_object_set_new(o, "verdict", json_string(r->v.word));
	json_object_set_new(o, "exit_code", json_integer(r->v.code));
	json_object_set_new(o, "reason", json_string(r->v.reason));
	json_object_set_new(o, "duration_s", json_real(r->rep->seconds));
	json_object_set_new(o, "workload", json_string(r->o.argv ? "command" :
						       r->o.interval ? "none" : "built-in"));
	json_object_set_new(o, "intervals", r->o.interval ? JI(r->intervals) : json_null());
	if (r->o.argv) {
		/* the same encoding --baseline compares (baseline.c) */
		json_object_set_new(o, "command", mg_argv_json(r->o.argv));
		json_object_set_new(o, "command_status", json_incref(r->command_status));
		json_object_set_new(o, "command_signal", r->child_signal ?
				    json_string(mg_signal_name(r->child_signal)) : json_null());
		json_object_set_new(o, "command_status_from_signal",
				    json_boolean(r->status_from_signal));
		json_object_set_new(o, "command_ended_by_count", json_boolean(r->ended_child));
	}
	json_object_set_new(o, "interrupted", json_interrupted(r));
	if (r->o.argv || r->o.interval)	/* COMMAND, or continuous: no workload of its own */
		return;
	wd = json_object();
	if (r->have_wl_mount) {	/* as events name it (mountinfo's s_dev) */
		json_object_set_new(wd, "dev", json_string(mg_kdev_str(r->wl_mount_dev, dev)));
		json_object_set_new(wd, "mount", mg_json_cstr(r->wl_mount));
	} else {
		json_object_set_new(wd, "dev", r->have_dir_dev ?
				    json_string(mg_kdev_str(r->dir_dev, dev)) : json_null());
		json_object_set_new(wd, "mount", r->have_dir_dev ?
				    json_mount(&r->names, r->dir_dev) : json_null());
	}
	json_object_set_new(wd, "fs", json_string(r->wl_fs ? r->wl_fs : "unknown"));
	json_object_set_new(wd, "faults_elsewhere",
			    JI(r->st.faults_elsewhere));
	json_object_set_new(o, "workload_dir", wd);
	/* what makes two built-in runs the same workload (--baseline), beside the fs */
	wd = json_object();
	json_object_set_new(wd, "threads", json_integer((json_int_t)r->o.threads));
	json_object_set_new(wd, "files_per_thread", json_integer(CHECK_WL_FILES));
	json_object_set_new(wd, "rate_per_thread", json_integer((json_int_t)r->o.rate));
	json_object_set_new(o, "workload_params", wd);
}


/*
 * "judged.forget": check --forget's generations (judge.h), or null without it: a CI
 * gate that refuses forgetting reads history_forgotten.
 */
static json_t *json_forget(const struct check_judged *jg)
{
	json_t *o;

	if (!jg->forget || !jg->active)
		return json_null();
	o = json_object();
	json_object_set_new(o, "generation_entries", JI(jg->max_inodes / 2));
	json_object_set_new(o, "generations", JI(jg->rotations + 1));
	json_object_set_new(o, "generation_ms", json_real(jg->rotate_ns / 1e6));
	json_object_set_new(o, "history_forgotten", JI(jg->drained.forgotten));
	json_object_set_new(o, "forgotten_holding_getattr", JI(jg->drained.forgotten_pending));
	json_object_set_new(o, "moved_on", JI(jg->sum.migrated));
	json_object_set_new(o, "gone", JI(jg->drained.gone));
	json_object_set_new(o, "events_not_judged_while_moving", JI(jg->sum.forget_raced));
	json_object_set_new(o, "stopped", jg->forget_why[0] ? mg_json_cstr(jg->forget_why) :
			    json_null());
	return o;
}

/* "judged": where and how the ctime events were judged (judge.c). */
static json_t *json_judged(const struct check_result *r)
{
	const struct check_judged *jg = &r->jg;
	json_t *jd = json_object();

	json_object_set_new(jd, "where", json_string(jg->active ? "bpf" : "user"));
	json_object_set_new(jd, "text", json_string(r->judged));
	json_object_set_new(jd, "inode_map_entries", JI(jg->map_inodes));
	json_object_set_new(jd, "inode_map_max_entries", JI(jg->max_inodes));
	json_object_set_new(jd, "inode_map_entry_bytes", JI(jg->value_bytes));
	json_object_set_new(jd, "ringbuf_bytes", JI(jg->ringbuf_used));
	json_object_set_new(jd, "violation_records", JI(jg->sum.records));
	json_object_set_new(jd, "violation_records_lost", JI(jg->sum.lost));
	json_object_set_new(jd, "creation_states_taken", JI(jg->active ? jg->sum.adopted :
							      r->st.creation_taken));
	if (jg->active) {
		json_object_set_new(jd, "clock_brackets", JI(jg->sum.clock_brackets));
		json_object_set_new(jd, "events_without_context_read", JI(jg->sum.context_free));
		json_object_set_new(jd, "events_without_lock", JI(jg->sum.quiet));
		json_object_set_new(jd, "inodes_forgotten", JI(jg->gc_sum.collected -
							       jg->gc_sum.creation_keys));
		json_object_set_new(jd, "creation_keys_forgotten", JI(jg->gc_sum.creation_keys +
								       jg->drained.creation_keys));
		json_object_set_new(jd, "inode_gc_passes", JI(jg->gc_passes));
		json_object_set_new(jd, "inode_gc_ms", json_real(jg->gc_ns / 1e6));
		json_object_set_new(jd, "inodes_gone_kept_held", JI(jg->gc_sum.kept_pending));
		json_object_set_new(jd, "creation_states_found_deleted", JI(jg->sum.adopt_raced));
		json_object_set_new(jd, "inode_gc_unavailable", jg->gc_why[0] ?
				    mg_json_cstr(jg->gc_why) : json_null());
	}
	json_object_set_new(jd, "forget", json_forget(jg));
	json_object_set_new(jd, "scope", json_string(r->o.tree ? "tree" : "system-wide"));
	/* with COMMAND: whether the scope was asked (-a, --tree) or the default, and why the
	 * default tree fell back to system-wide */
	json_object_set_new(jd, "scope_default", json_boolean(r->o.tree_default));
	json_object_set_new(jd, "tree_unavailable", r->tree_why[0] ?
			    mg_json_cstr(r->tree_why) : json_null());
	json_object_set_new(jd, "tree_processes_followed", r->o.tree ?
			    JI(jg->tree_followed + 1) : json_null());
	json_object_set_new(jd, "tree_processes_not_followed", r->o.tree ?
			    JI(jg->tree_not_followed) : json_null());
	json_object_set_new(jd, "tree_processes_alive_at_end", r->o.tree ?
			    JI(jg->tree_alive_at_end) : json_null());
	return jd;
}

/* Lost and skipped runs, the floor probes, a test hook in use. */
static void json_losses(json_t *o, const struct check_result *r)
{

	json_object_set_new(o, "lost_events", JI(r->st.lost));
	json_object_set_new(o, "missed_bpf_runs", JI(r->st.missed));
	json_object_set_new(o, "missed_bpf_runs_undeciding", JI(r->undeciding_misses));
	if (r->undeciding_misses)
		json_object_set_new(o, "missed_bpf_runs_undeciding_by_program",
				    mg_json_cstr(r->undeciding_detail));
	if (r->st.missed)
		json_object_set_new(o, "missed_bpf_runs_by_program", mg_json_cstr(r->missed_detail));
	json_object_set_new(o, "floor_probes", r->floor_probe ? json_string(r->floor_probe) :
			    json_null());
	if (r->o.test_inject)
		json_object_set_new(o, "test_hook", json_string("MGTRACE_TEST_INJECT: synthetic "
				    "ctime regressions of made-up inodes judged with the events (a test "
				    "of the check itself)"));
	if (r->o.test_invert_fine)
		json_object_set_new(o, "test_hook", json_string("MGTRACE_TEST_INVERT_FINE=1: every "
				    "fine-stamp decision inverted (a test of the check itself)"));
}

/* "invariants": the events judged, the not-faults, and each violation kind's counts. */
static json_t *json_invariants(const struct check_result *r)
{
	const struct mg_check_stats *st = &r->st;
	json_t *inv = json_object(), *jk = json_object();
	unsigned int k;
	size_t i;

	json_object_set_new(inv, "events", JI(st->events));
	/* the same window (attach to detach) as judged.events_without_*: the text's events line;
	 * the tracepoint kinds by name, the floor kinds as one "floor" (include/mg_vocab.def) */
	for (k = 0; k < MG_EV_NR_KINDS; k++)
		if (!(MG_KINDS_FLOOR & 1u << k))
			json_object_set_new(jk, mg_event_kind_name(k), JI(st->by_kind[k]));
	json_object_set_new(jk, "floor", JI(r->floor_events));
	json_object_set_new(inv, "events_by_kind", jk);
	json_object_set_new(inv, "inodes", JI(st->inodes));
	json_object_set_new(inv, "untracked_events", JI(st->untracked_events));
	json_object_set_new(inv, "out_of_scope_events", r->o.tree ? JI(st->out_of_scope_events) :
			    json_null());
	json_object_set_new(inv, "lock_failed_events", JI(st->lock_failed_events));
	json_object_set_new(inv, "events_without_inode_number", JI(st->no_ino_events));
	for (i = 0; i < MG_B_NR_KINDS; i++)
		json_object_set_new(inv, mg_benign_name(i), JI(st->benign[i]));
	json_object_set_new(inv, "clock_steps", JI(st->clock_steps));
	json_object_set_new(inv, "clock_steps_not_kept", JI(st->steps_not_kept));
	json_object_set_new(inv, "clock_steps_bpf", JI(st->kernel_steps));
	json_object_set_new(inv, "floor_reads_checked", JI(st->floor_checked));
	json_object_set_new(inv, "fine_stamps_decided", JI(st->fine_checked));
	json_object_set_new(inv, "fine_stamps_undecided", JI(st->fine_undecided));
	json_object_set_new(inv, "floor_events", JI(r->floor_events));
	json_object_set_new(inv, "floor_invariants_checked", json_boolean(!r->floor_unchecked[0]));
	if (r->floor_unchecked[0])
		json_object_set_new(inv, "floor_invariants_unchecked", json_string(r->floor_unchecked));
	/* cross-file ordering: judged on the built-in workload's files only (collect_invariants()) */
	json_object_set_new(inv, "cross_file_order_checked", json_boolean(!r->inv[2].why));
	if (r->inv[2].why)
		json_object_set_new(inv, "cross_file_order_unchecked", json_string(r->inv[2].why));
	for (i = 0; i < MG_V_NR_KINDS; i++) {
		json_t *j = json_object();

		json_object_set_new(j, "violations", JI(st->violations[i]));
		json_object_set_new(j, "explained_by_clock_step", JI(st->explained[i]));
		json_object_set_new(j, "undecided_near_clock_step", JI(st->undecided[i]));
		json_object_set_new(j, "known", JI(st->known[i]));
		json_object_set_new(inv, mg_violation_name(i), j);
	}
	if (!r->o.argv && r->have_order) {
		json_object_set_new(inv, "ordering_modifications", JI(r->order_judged));
		json_object_set_new(inv, "ordering_modifications_held_peak", JI(r->order_held));
	}
	return inv;
}

/* "clock_steps", "floor_figures" (and unavailable), "gates", the baseline. */
static void json_gates(json_t *o, const struct check_result *r)
{
	const struct mg_clock_step *steps;
	json_t *a = json_array(), *fo = json_object(), *fu = json_object();
	size_t n, i;

	steps = r->steps;
	n = r->nsteps;
	for (i = 0; i < n; i++) {
		json_t *j = json_object();

		mg_json_put_ns(j, "t0_mono", (int64_t)steps[i].t0_ns, true);
		mg_json_put_ns(j, "t1_mono", (int64_t)steps[i].t1_ns, true);
		json_object_set_new(j, "delta_ns", json_integer(steps[i].delta_ns));
		json_array_append_new(a, j);
	}
	json_object_set_new(o, "clock_steps", a);
	for (i = 0; i < MG_F_NR; i++) {
		if (r->fig.f[i].have)
			json_object_set_new(fo, mg_figure_name(i), json_real(r->fig.f[i].value));
		else
			json_object_set_new(fu, mg_figure_name(i), json_string(r->fig.f[i].why));
	}
	json_object_set_new(o, "floor_figures", fo);
	json_object_set_new(o, "floor_figures_unavailable", fu);
	a = json_array();
	for (i = 0; i < MG_F_NR; i++) {
		const struct mg_gate *g = &r->gates[i];
		json_t *j = json_object();

		json_object_set_new(j, "figure", json_string(mg_figure_name(i)));
		json_object_set_new(j, "formula", json_string(mg_figure_formula(i)));
		json_object_set_new(j, "value", r->fig.f[i].have ? json_real(r->fig.f[i].value) :
					       json_null());
		json_object_set_new(j, "limit", g->limit < 0 ? json_null() : json_real(g->limit));
		json_object_set_new(j, "baseline", g->have_base ? json_real(g->base) : json_null());
		json_object_set_new(j, "allowed", g->have_base ? json_real(g->allowed) : json_null());
		json_object_set_new(j, "pass", g->result < 0 ? json_null() : json_boolean(g->result));
		if (!r->fig.f[i].have)
			json_object_set_new(j, "unavailable", json_string(r->fig.f[i].why));
		else if (g->result < 0 && g->why[0])
			json_object_set_new(j, "not_evaluated", json_string(g->why));
		json_array_append_new(a, j);
	}
	json_object_set_new(o, "gates", a);
	if (r->o.baseline) {
		json_object_set_new(o, "baseline_file", mg_json_cstr(r->o.baseline));
		json_object_set_new(o, "baseline_factor", json_real(r->o.baseline_factor));
		if (r->o.baseline_warn[0])
			json_object_set_new(o, "baseline_warning", mg_json_cstr(r->o.baseline_warn));
	}
}

/*
 * "stack": the kernel stack of the event that broke the rule, innermost frame first
 * (the frames of BPF's own machinery left out: check_stack_start()),
 * each {"addr": "0x...", "sym", "off", "module"} (sym and off null where no symbol names
 * it), or null; "stack_unavailable": why it is null, or why its frames have no names;
 * "stack_symbols": who named the frames ("kernel": bpf_snprintf()'s "%pS" in
 * bpf/ksym.bpf.c; "/proc/kallsyms"), null when no frame is named or there is no stack.
 */
static void json_stack(json_t *j, const struct check_names *nm, const struct mg_violation *v)
{
	const char *why = mg_stack_why_text(v);
	struct mg_kframe fr;
	json_t *a;
	uint32_t i;

	if (why) {
		json_object_set_new(j, "stack", json_null());
		json_object_set_new(j, "stack_unavailable", json_string(why));
		json_object_set_new(j, "stack_symbols", json_null());
		return;
	}
	a = json_array();
	for (i = check_stack_start(nm, v); i < v->stack_len && i < MG_STACK_FRAMES; i++) {
		mg_ksyms_name(nm->ks, v->stack[i], &fr);
		json_array_append_new(a, mg_kframe_json(&fr));
	}
	json_object_set_new(j, "stack", a);
	json_object_set_new(j, "stack_unavailable", nm->ks_why && nm->ks_why[0] ?
			    json_string(nm->ks_why) : json_null());
	json_object_set_new(j, "stack_symbols", nm->ks_source ? json_string(nm->ks_source) :
			    json_null());
}

/* A violation report, or a not-fault example (full false: no kind, timestamp, steps, mount). */
static json_t *json_violation(const struct check_names *nm, const struct mg_violation *v, bool full)
{
	char dev[MG_KDEV_STRLEN], nb[32];
	json_t *j = json_object();
	const char *name;
	size_t nlen;
	bool cut;

	name = check_violation_name(nm, v, nb, sizeof(nb), &nlen, &cut);
	if (full) {
		json_object_set_new(j, "kind", json_string(mg_violation_name(v->kind)));
		json_object_set_new(j, "timestamp", json_string(v->what));
	}
	json_object_set_new(j, "dev", json_string(mg_kdev_str(v->dev, dev)));
	json_object_set_new(j, "ino", mg_json_u64(v->ino));
	json_object_set_new(j, "inode", mg_json_inode(v->dev, v->ino));
	json_object_set_new(j, "gen", json_integer(v->gen));
	if (full)
		json_object_set_new(j, "mount", json_mount(nm, v->dev));
	json_object_set_new(j, "name", name ? mg_json_str(name, nlen) : json_null());
	json_object_set_new(j, "name_truncated", json_boolean(cut));
	if (full) {
		json_object_set_new(j, "step_explained", json_boolean(v->step_explained));
		json_object_set_new(j, "step_undecided", json_boolean(v->step_undecided));
		json_object_set_new(j, "known", v->known >= 0 && nm->known ?
				    json_string(nm->known->e[v->known].id) : json_null());
		json_stack(j, nm, v);
	}
	json_object_set_new(j, "earlier", json_obs(&v->earlier));
	json_object_set_new(j, "later", json_obs(&v->later));
	return j;
}

json_t *check_json_violation(const struct check_names *nm, const struct mg_violation *v)
{
	return json_violation(nm, v, true);
}

/*
 * "known_faults": null without --known; else the file, this kernel's release, the
 * violations matched, and each entry with its match count and first example.
 */
static json_t *json_known(const struct check_names *nm)
{
	const struct mg_known *k = nm->known;
	json_t *o, *a;
	uint64_t total = 0;
	size_t i;

	if (!k)
		return json_null();
	o = json_object();
	a = json_array();
	for (i = 0; i < k->n; i++) {
		const struct mg_known_entry *e = &k->e[i];
		json_t *j = json_object(), *kr = json_object();

		total += e->matched;
		json_object_set_new(j, "id", json_string(e->id));
		json_object_set_new(j, "kind", json_string(mg_violation_name(e->kind)));
		json_object_set_new(j, "fstype", json_string(e->fstype));
		json_object_set_new(j, "setter", e->setter >= 0 ?
				    json_string(mg_known_setter_name(e->setter)) : json_null());
		json_object_set_new(j, "inode", e->dir > 0 ? json_string("dir") : json_null());
		json_object_set_new(kr, "from", json_string(e->from));
		json_object_set_new(kr, "before", e->before[0] ? json_string(e->before) : json_null());
		json_object_set_new(j, "kernel", kr);
		json_object_set_new(j, "applies", json_boolean(e->applies));
		json_object_set_new(j, "reference", json_string(e->reference));
		json_object_set_new(j, "matched", JI(e->matched));
		json_object_set_new(j, "example", e->have_example ?
				    json_violation(nm, &e->example, true) : json_null());
		json_array_append_new(a, j);
	}
	json_object_set_new(o, "file", mg_json_cstr(k->path));
	json_object_set_new(o, "kernel_release", json_string(k->release));
	json_object_set_new(o, "matched", JI(total));
	json_object_set_new(o, "faults", a);
	return o;
}

void check_print_json(const struct check_result *r, FILE *f)
{
	json_t *o = json_deep_copy(r->header), *a;
	const struct mg_violation *vs;
	size_t i, k;

	json_workload(o, r);
	json_object_set_new(o, "judged", json_judged(r));
	json_losses(o, r);
	json_object_set_new(o, "invariants", json_invariants(r));
	json_gates(o, r);
	a = json_array();
	vs = r->reports;
	for (i = 0; i < r->nreports; i++)
		json_array_append_new(a, json_violation(&r->names, &vs[i], true));
	json_object_set_new(o, "violations", a);
	json_object_set_new(o, "known_faults", json_known(&r->names));
	a = json_object();
	for (i = 0; i < MG_B_NR_KINDS; i++) {
		json_t *l = json_array();

		vs = r->examples[i];
		for (k = 0; k < r->nexamples[i]; k++)
			json_array_append_new(l, json_violation(&r->names, &vs[k], false));
		json_object_set_new(a, mg_benign_name(i), l);
	}
	json_object_set_new(o, "not_fault_examples", a);
	json_object_set_new(o, "counters", mg_report_json(r->rep));
	mg_json_print_line(f, o);
	json_decref(o);
}
