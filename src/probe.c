// SPDX-License-Identifier: GPL-2.0
/*
 * probe.c - `mgtrace probe`: what this kernel offers for tracing multigrain
 * timestamps, established by really loading and attaching each backend (then
 * detaching), in the manner of `bpftool feature probe`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "backend.h"
#include "commands.h"
#include "kcounters.h"
#include "kenv.h"
#include "json_writer.h"
#include "report.h"
#include "opts.h"
#include "util.h"

/* Result of probing one backend, with and without the --hot probes. */
struct be_probe {
	struct mg_attempt base;
	bool tp_btf;
	char tp_why[320];
	bool hot_tried;
	struct mg_attempt hot;
};

static void probe_backend(const struct mg_kenv *env, enum mg_backend be, struct be_probe *p)
{
	struct mg_session_opts cold = { 0 }, hot = { .hot = true };
	struct mg_session s;

	memset(p, 0, sizeof(*p));
	if (!mg_session_open(&s, env, be, &cold)) {
		p->tp_btf = s.tp_btf;
		snprintf(p->tp_why, sizeof(p->tp_why), "%s", s.tp_why);
		mg_session_close(&s);
	}
	p->base = s.attempts[be];
	if (!p->base.tried) {
		p->base.tried = true;
		p->base.err = -EINVAL;
		snprintf(p->base.why, sizeof(p->base.why), "not tried");
	}
	if (p->base.err || !mg_backend_has_funcs(be))
		return;
	p->hot_tried = true;
	if (!mg_session_open(&s, env, be, &hot))
		mg_session_close(&s);
	p->hot = s.attempts[be];
}

static const struct mg_opt probe_opts[] = {
	MG_OPTS_COMMON("one JSON object (docs/json.md)",
		       "the report to FILE instead of stdout",
		       "libbpf's warnings too (-vv: its debug messages)"),
	{ 0 }
};

const struct mg_cmd_opts probe_cmdopts = {
	.name = "probe",
	.synopsis = "[-j] [-o FILE] [-v]",
	.about = "Report the kernel's multigrain support: release, BTF, lockdown, floor API,\n"
		 "tracepoints, debugfs counters, per-CPU counter symbols, and each attach backend\n"
		 "(loaded, attached and detached for real).\n",
	.opts = probe_opts,
	.exit_note = "probe: 0 when the report was made, even on a kernel without multigrain timestamps.\n",
};

/* What probe found: the facts both reports print. */
struct probe_res {
	struct mg_kenv env;
	struct be_probe bp[MG_BE_NR];
	uint64_t dbg[MG_K_NR_COUNTERS];	/* debugfs multigrain_timestamps, when dbg_err is 0 */
	int dbg_err;			/* 0 or -errno of reading it */
	bool kr_ok;			/* the kernel's per-CPU counters are readable from BPF */
	char kr_why[384];		/* why not */
	char kr_method[256];		/* how (mg_kreader_method()) */
	bool mg;			/* multigrain timestamps (mg_kenv_multigrain()) */
	enum mg_backend chosen;		/* what auto picks, MG_BE_AUTO: nothing attaches */
};

/* probe --json: one object (docs/schema/probe.schema.json). */
static void probe_print_json(const struct probe_res *r)
{
	json_t *o = json_object(), *a;
	int i;


	mg_json_put_header(o, "probe", r->env.release);
	json_object_set_new(o, "btf", json_boolean(r->env.btf));
	json_object_set_new(o, "lockdown", mg_json_cstr(r->env.lockdown));
	json_object_set_new(o, "multigrain", json_boolean(r->mg));
	json_object_set_new(o, "floor_api", json_string(
		r->env.api == MG_API_MAINLINE ? "mainline" : r->env.api == MG_API_COOKIE ? "cookie" :
		r->env.api == MG_API_UNKNOWN ? "unknown" : "none"));
	a = json_object();
	for (i = 0; i < MG_NR_TPS; i++)
		json_object_set_new(a, mg_tp_names[i], json_boolean(r->env.tp_in_btf[i]));
	json_object_set_new(o, "tracepoints", a);
	/* what BTF shows of the interfaces the BPF programs rely on (kenv.h) */
	a = json_object();
	{
		json_t *t = json_object();

		for (i = 0; i < MG_NR_TPS; i++)
			json_object_set_new(t, mg_tp_names[i], r->env.iface.tp_args[i][0] ?
					    json_string(r->env.iface.tp_args[i]) : json_null());
		json_object_set_new(a, "tracepoint_args", t);
		for (i = 0; i < MG_NR_FLOOR_FUNCS; i++)
			json_object_set_new(a, mg_func_names[mg_floor_funcs[i]],
					    r->env.iface.func_proto[mg_floor_funcs[i]][0] ?
					    json_string(r->env.iface.func_proto[mg_floor_funcs[i]]) :
					    json_null());
		json_object_set_new(a, "inode_i_ctime_nsec", json_string(r->env.iface.ctime_nsec));
		/* check reads it for I_NEW (sets) and I_FREEING/I_CLEAR (its inode GC) */
		json_object_set_new(a, "inode_i_state", r->env.iface.istate.known ?
				    json_string(r->env.iface.istate.layout) : json_null());
		if (!r->env.iface.istate.known)
			json_object_set_new(a, "inode_i_state_unknown",
					    json_string(r->env.iface.istate.layout));
		json_object_set_new(a, "problem", mg_interface_problem(&r->env) ?
				    json_string(mg_interface_problem(&r->env)) : json_null());
	}
	json_object_set_new(o, "btf_interface", a);
	a = json_object();
	json_object_set_new(a, "path", json_string(MG_DEBUGFS_FILE));
	json_object_set_new(a, "readable", json_boolean(!r->dbg_err));
	if (r->dbg_err) {
		json_object_set_new(a, "reason", json_string(mg_debugfs_problem(&r->env) ?
					mg_debugfs_problem(&r->env) : strerror(-r->dbg_err)));
	} else {
		json_t *v = json_object();

		for (i = 0; i < MG_K_NR_COUNTERS; i++)
			json_object_set_new(v, mg_kcounter_names[i], json_integer(r->dbg[i]));
		json_object_set_new(a, "values", v);
	}
	json_object_set_new(o, "debugfs", a);
	a = json_object();
	for (i = 0; i < MG_K_NR_COUNTERS; i++)
		json_object_set_new(a, mg_kcounter_syms[i], json_boolean(r->env.ksym_in_btf[i]));
	json_object_set_new(o, "percpu_symbols_in_btf", a);
	json_object_set_new(o, "kallsyms_all", json_boolean(r->env.kallsyms_all));
	json_object_set_new(o, "percpu_readable", json_boolean(r->kr_ok));
	if (r->kr_ok)
		json_object_set_new(o, "percpu_method", json_string(r->kr_method));
	else
		json_object_set_new(o, "percpu_reason", json_string(r->kr_why));
	a = json_object();
	for (i = MG_BE_FENTRY; i <= MG_BE_TRACEPOINT; i++) {
		json_t *b = json_object();

		json_object_set_new(b, "attachable", json_boolean(!r->bp[i].base.err));
		json_object_set_new(b, "reason", json_string(r->bp[i].base.why));
		if (!r->bp[i].base.err)
			json_object_set_new(b, "tracepoints",
					    json_string(r->bp[i].tp_btf ? "tp_btf" : "raw_tp"));
		if (r->bp[i].hot_tried) {
			json_object_set_new(b, "hot_attachable", json_boolean(!r->bp[i].hot.err));
			json_object_set_new(b, "hot_reason", json_string(r->bp[i].hot.why));
		}
		json_object_set_new(a, mg_backend_name(i), b);
	}
	json_object_set_new(o, "backends", a);
	json_object_set_new(o, "auto_backend", r->chosen == MG_BE_AUTO ? json_null() :
			    json_string(mg_backend_name(r->chosen)));
	/* what `stat` uses by default: the kernel's counters (no probe) where readable */
	json_object_set_new(o, "stat_default_backend", r->kr_ok ? json_string("kernel") :
			    r->chosen == MG_BE_AUTO ? json_null() :
			    json_string(mg_backend_name(r->chosen)));
	mg_json_print_line(mg_out, o);
	json_decref(o);
}

/* probe's text report: one line a fact. */
static void probe_print_text(const struct probe_res *r)
{
	int i;

	fprintf(mg_out, "%-22s %s\n", "kernel release", r->env.release);
	fprintf(mg_out, "%-22s %s\n", "BTF", r->env.btf ? "yes (/sys/kernel/btf/vmlinux)" : "no");
	fprintf(mg_out, "%-22s %s\n", "lockdown", r->env.lockdown);
	fprintf(mg_out, "%-22s %s\n", "multigrain timestamps", r->mg ? "yes" : "no (needs Linux 6.13+)");
	fprintf(mg_out, "%-22s %s\n", "floor API", mg_api_name(r->env.api));
	for (i = 0; i < MG_NR_TPS; i++)
		fprintf(mg_out, "%-22s timestamp:%s %s\n", i ? "" : "tracepoints", mg_tp_names[i],
		       r->env.tp_in_btf[i] ? "yes" : "no");
	for (i = 0; i < MG_NR_TPS; i++)
		if (r->env.iface.tp_args[i][0])
			fprintf(mg_out, "%-22s timestamp:%s%s\n", i ? "" : "tracepoint args", mg_tp_names[i],
			       r->env.iface.tp_args[i]);
	for (i = 0; i < MG_NR_FLOOR_FUNCS; i++)
		if (r->env.iface.func_proto[mg_floor_funcs[i]][0])
			fprintf(mg_out, "%-22s %s\n", i ? "" : "floor functions",
			       r->env.iface.func_proto[mg_floor_funcs[i]]);
	fprintf(mg_out, "%-22s %s (I_CTIME_QUERIED is its bit 31)\n", "inode.i_ctime_nsec", r->env.iface.ctime_nsec);
	if (r->env.iface.istate.known)
		fprintf(mg_out, "%-22s %s at offset %u (I_NEW %#x, I_FREEING %#x, I_CLEAR %#x)\n",
			"inode.i_state", r->env.iface.istate.layout, r->env.iface.istate.off, r->env.iface.istate.i_new,
			r->env.iface.istate.i_freeing, r->env.iface.istate.i_clear);
	else
		fprintf(mg_out, "%-22s unknown: %s (check counts a set after a query as "
			"sets_state_unknown, undecided)\n", "inode.i_state", r->env.iface.istate.layout);
	if (mg_interface_problem(&r->env))
		fprintf(mg_out, "%-22s %s\n", "interface changed", mg_interface_problem(&r->env));
	if (!r->dbg_err)
		fprintf(mg_out, "%-22s %s: ctime_updates %llu, ctime_swaps %llu, fine_stamps %llu, "
		       "floor_swaps %llu\n", "debugfs counters", MG_DEBUGFS_FILE,
		       (unsigned long long)r->dbg[0], (unsigned long long)r->dbg[1],
		       (unsigned long long)r->dbg[2], (unsigned long long)r->dbg[3]);
	else
		fprintf(mg_out, "%-22s unavailable: %s\n", "debugfs counters",
		       mg_debugfs_problem(&r->env) ? mg_debugfs_problem(&r->env) : strerror(-r->dbg_err));
	fprintf(mg_out, "%-22s", "per-CPU counter syms");
	for (i = 0; i < MG_K_NR_COUNTERS; i++)
		fprintf(mg_out, " %s%s", mg_kcounter_syms[i], r->env.ksym_in_btf[i] ? "" : "(not in BTF)");
	fprintf(mg_out, "\n%-22s %s%s\n", "per-CPU from BPF", r->kr_ok ? "yes: " : "no: ", r->kr_ok ? r->kr_method : r->kr_why);
	fprintf(mg_out, "%-22s %s\n", "KALLSYMS_ALL", r->env.kallsyms_all ? "yes" : "no (no data symbols in /proc/kallsyms)");
	for (i = MG_BE_FENTRY; i <= MG_BE_TRACEPOINT; i++) {
		char label[32];

		snprintf(label, sizeof(label), "backend %s", mg_backend_name(i));
		if (!r->bp[i].base.err)
			fprintf(mg_out, "%-22s attachable (tracepoints as %s)", label,
			       r->bp[i].tp_btf ? "tp_btf" : "raw_tp");
		else
			fprintf(mg_out, "%-22s refused: %s", label, r->bp[i].base.why);
		if (r->bp[i].hot_tried)
			fprintf(mg_out, "; --hot %s%s", r->bp[i].hot.err ? "refused: " : "attachable",
			       r->bp[i].hot.err ? r->bp[i].hot.why : "");
		fputc('\n', mg_out);
	}
	fprintf(mg_out, "%-22s %s\n", "auto chooses", r->chosen == MG_BE_AUTO ? "nothing (no backend attaches)" :
	       mg_backend_name(r->chosen));
	fprintf(mg_out, "%-22s %s\n", "stat by default", r->kr_ok ? "kernel (the kernel's per-CPU counters; no "
	       "program on the write or stat path; event counters opt-in with -e)" :
	       "the probes above (the kernel's per-CPU counters are not readable)");
}

int cmd_probe(int argc, char **argv)
{
	struct mg_opt_parser p;
	const char *arg;
	struct probe_res r = { .chosen = MG_BE_AUTO };
	struct mg_kreader *kr;
	int c, i, ret, kerr = 0, ncpu = mg_nr_cpus();

	mg_opt_begin(&p, &probe_cmdopts, argc, argv);
	if ((c = mg_opt_next(&p, &arg)) < 0)
		return -c;
	if ((ret = mg_opt_no_operands(&p)))
		return ret;
	if ((ret = mg_out_open_once("probe", false)))
		return ret;

	mg_kenv_probe(&r.env);
	mg_kenv_probe_kallsyms(&r.env);
	if ((ret = mg_env_require(&r.env, false)))
		return ret;
	mg_libbpf_setup();
	r.mg = mg_kenv_multigrain(&r.env);
	r.dbg_err = mg_debugfs_read(r.dbg);
	kr = mg_kreader_open(ncpu, &kerr, r.kr_why, sizeof(r.kr_why));
	r.kr_ok = kr != NULL;
	if (kr)
		/* copied: a start self-test's text lives in kr, closed next */
		snprintf(r.kr_method, sizeof(r.kr_method), "%s", mg_kreader_method(kr));
	mg_kreader_close(kr);
	for (i = MG_BE_FENTRY; i <= MG_BE_TRACEPOINT; i++) {
		probe_backend(&r.env, i, &r.bp[i]);
		if (r.chosen == MG_BE_AUTO && !r.bp[i].base.err)
			r.chosen = i;
	}
	if (mg_json_output)
		probe_print_json(&r);
	else
		probe_print_text(&r);
	return mg_out_close();
}
