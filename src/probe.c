// SPDX-License-Identifier: GPL-2.0
/*
 * probe.c - `mgtrace probe`: what this kernel offers for tracing multigrain
 * timestamps, established by really loading and attaching each backend (then
 * detaching), in the manner of `bpftool feature probe`.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "backend.h"
#include "commands.h"
#include "kcounters.h"
#include "kenv.h"
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

static int usage(FILE *f, int code)
{
	fprintf(f,
		"Usage: mgtrace probe [-j] [-o FILE] [-v]\n"
		"Report the kernel's multigrain support: release, BTF, lockdown, floor API,\n"
		"tracepoints, debugfs counters, per-CPU counter symbols, and each attach backend\n"
		"(loaded, attached and detached for real). Exit 0 when the report was made, even\n"
		"on a kernel without multigrain timestamps; 3 without root or BTF.\n");
	return code;
}

int cmd_probe(int argc, char **argv)
{
	static const struct option lo[] = { MG_OPT_COMMON_LONG,
		{ "help", no_argument, 0, 'h' }, { 0 } };
	struct be_probe bp[MG_BE_NR];
	struct mg_kenv env;
	struct mg_kreader *kr;
	uint64_t dbg[MG_K_NR_COUNTERS];
	char kr_why[384] = "";
	char kr_method[256] = "";
	bool mg;
	int c, i, ret, kerr = 0, dbg_err, ncpu = mg_nr_cpus();
	enum mg_backend chosen = MG_BE_AUTO;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h" MG_OPT_COMMON_SHORT, lo, NULL)) != -1) {
		switch (c) {
		case 'h': return usage(stdout, MG_EXIT_OK);
		default:
			if (!mg_opt_common(c, optarg))
				return mg_bad_option("probe", c, argv);
		}
	}
	if (optind < argc)
		return mg_err(MG_EXIT_USAGE, "probe: unexpected argument '%s'", argv[optind]);
	if ((ret = mg_out_open("probe", false)))
		return ret;

	mg_kenv_probe(&env);
	mg_kenv_probe_kallsyms(&env);
	if ((ret = mg_env_require(&env, false)))
		return ret;
	mg_libbpf_setup();
	mg = mg_kenv_multigrain(&env);
	dbg_err = mg_debugfs_read(dbg);
	kr = mg_kreader_open(ncpu, &kerr, kr_why, sizeof(kr_why));
	if (kr)
		/* copied: a start self-test's text lives in kr, closed next */
		snprintf(kr_method, sizeof(kr_method), "%s", mg_kreader_method(kr));
	mg_kreader_close(kr);
	for (i = MG_BE_FENTRY; i <= MG_BE_TRACEPOINT; i++) {
		probe_backend(&env, i, &bp[i]);
		if (chosen == MG_BE_AUTO && !bp[i].base.err)
			chosen = i;
	}

	if (mg_json_output) {
		json_t *o = json_object(), *a;

		mg_json_put_header(o, "probe", env.release);
		json_object_set_new(o, "btf", json_boolean(env.btf));
		json_object_set_new(o, "lockdown", mg_json_cstr(env.lockdown));
		json_object_set_new(o, "multigrain", json_boolean(mg));
		json_object_set_new(o, "floor_api", json_string(
			env.api == MG_API_MAINLINE ? "mainline" : env.api == MG_API_COOKIE ? "cookie" :
			env.api == MG_API_UNKNOWN ? "unknown" : "none"));
		a = json_object();
		for (i = 0; i < MG_NR_TPS; i++)
			json_object_set_new(a, mg_tp_names[i], json_boolean(env.tp_in_btf[i]));
		json_object_set_new(o, "tracepoints", a);
		/* what BTF shows of the interfaces the BPF programs rely on (kenv.h) */
		a = json_object();
		{
			json_t *t = json_object();

			for (i = 0; i < MG_NR_TPS; i++)
				json_object_set_new(t, mg_tp_names[i], env.tp_args[i][0] ?
						    json_string(env.tp_args[i]) : json_null());
			json_object_set_new(a, "tracepoint_args", t);
			for (i = 0; i < MG_NR_FLOOR_FUNCS; i++)
				json_object_set_new(a, mg_func_names[mg_floor_funcs[i]],
						    env.func_proto[mg_floor_funcs[i]][0] ?
						    json_string(env.func_proto[mg_floor_funcs[i]]) :
						    json_null());
			json_object_set_new(a, "inode_i_ctime_nsec", json_string(env.ctime_nsec));
			/* check reads it for I_NEW (sets) and I_FREEING/I_CLEAR (its inode GC) */
			json_object_set_new(a, "inode_i_state", env.istate.known ?
					    json_string(env.istate.layout) : json_null());
			if (!env.istate.known)
				json_object_set_new(a, "inode_i_state_unknown",
						    json_string(env.istate.layout));
			json_object_set_new(a, "problem", mg_interface_problem(&env) ?
					    json_string(mg_interface_problem(&env)) : json_null());
		}
		json_object_set_new(o, "btf_interface", a);
		a = json_object();
		json_object_set_new(a, "path", json_string(MG_DEBUGFS_FILE));
		json_object_set_new(a, "readable", json_boolean(!dbg_err));
		if (dbg_err) {
			json_object_set_new(a, "reason", json_string(mg_debugfs_problem(&env) ?
						mg_debugfs_problem(&env) : strerror(-dbg_err)));
		} else {
			json_t *v = json_object();

			for (i = 0; i < MG_K_NR_COUNTERS; i++)
				json_object_set_new(v, mg_kcounter_names[i], json_integer(dbg[i]));
			json_object_set_new(a, "values", v);
		}
		json_object_set_new(o, "debugfs", a);
		a = json_object();
		for (i = 0; i < MG_K_NR_COUNTERS; i++)
			json_object_set_new(a, mg_kcounter_syms[i], json_boolean(env.ksym_in_btf[i]));
		json_object_set_new(o, "percpu_symbols_in_btf", a);
		json_object_set_new(o, "kallsyms_all", json_boolean(env.kallsyms_all));
		json_object_set_new(o, "percpu_readable", json_boolean(kr != NULL));
		if (kr)
			json_object_set_new(o, "percpu_method", json_string(kr_method));
		else
			json_object_set_new(o, "percpu_reason", json_string(kr_why));
		a = json_object();
		for (i = MG_BE_FENTRY; i <= MG_BE_TRACEPOINT; i++) {
			json_t *b = json_object();

			json_object_set_new(b, "attachable", json_boolean(!bp[i].base.err));
			json_object_set_new(b, "reason", json_string(bp[i].base.why));
			if (!bp[i].base.err)
				json_object_set_new(b, "tracepoints",
						    json_string(bp[i].tp_btf ? "tp_btf" : "raw_tp"));
			if (bp[i].hot_tried) {
				json_object_set_new(b, "hot_attachable", json_boolean(!bp[i].hot.err));
				json_object_set_new(b, "hot_reason", json_string(bp[i].hot.why));
			}
			json_object_set_new(a, mg_backend_name(i), b);
		}
		json_object_set_new(o, "backends", a);
		json_object_set_new(o, "auto_backend", chosen == MG_BE_AUTO ? json_null() :
				    json_string(mg_backend_name(chosen)));
		/* what `stat` uses by default: the kernel's counters (no probe) where readable */
		json_object_set_new(o, "stat_default_backend", kr ? json_string("kernel") :
				    chosen == MG_BE_AUTO ? json_null() :
				    json_string(mg_backend_name(chosen)));
		mg_json_print_line(mg_out, o);
		json_decref(o);
		return mg_out_close();
	}

	fprintf(mg_out, "%-22s %s\n", "kernel release", env.release);
	fprintf(mg_out, "%-22s %s\n", "BTF", env.btf ? "yes (/sys/kernel/btf/vmlinux)" : "no");
	fprintf(mg_out, "%-22s %s\n", "lockdown", env.lockdown);
	fprintf(mg_out, "%-22s %s\n", "multigrain timestamps", mg ? "yes" : "no (needs Linux 6.13+)");
	fprintf(mg_out, "%-22s %s\n", "floor API", mg_api_name(env.api));
	for (i = 0; i < MG_NR_TPS; i++)
		fprintf(mg_out, "%-22s timestamp:%s %s\n", i ? "" : "tracepoints", mg_tp_names[i],
		       env.tp_in_btf[i] ? "yes" : "no");
	for (i = 0; i < MG_NR_TPS; i++)
		if (env.tp_args[i][0])
			fprintf(mg_out, "%-22s timestamp:%s%s\n", i ? "" : "tracepoint args", mg_tp_names[i],
			       env.tp_args[i]);
	for (i = 0; i < MG_NR_FLOOR_FUNCS; i++)
		if (env.func_proto[mg_floor_funcs[i]][0])
			fprintf(mg_out, "%-22s %s\n", i ? "" : "floor functions",
			       env.func_proto[mg_floor_funcs[i]]);
	fprintf(mg_out, "%-22s %s (I_CTIME_QUERIED is its bit 31)\n", "inode.i_ctime_nsec", env.ctime_nsec);
	if (env.istate.known)
		fprintf(mg_out, "%-22s %s at offset %u (I_NEW %#x, I_FREEING %#x, I_CLEAR %#x)\n",
			"inode.i_state", env.istate.layout, env.istate.off, env.istate.i_new,
			env.istate.i_freeing, env.istate.i_clear);
	else
		fprintf(mg_out, "%-22s unknown: %s (check counts a set after a query as "
			"sets_state_unknown, undecided)\n", "inode.i_state", env.istate.layout);
	if (mg_interface_problem(&env))
		fprintf(mg_out, "%-22s %s\n", "interface changed", mg_interface_problem(&env));
	if (!dbg_err)
		fprintf(mg_out, "%-22s %s: ctime_updates %llu, ctime_swaps %llu, fine_stamps %llu, "
		       "floor_swaps %llu\n", "debugfs counters", MG_DEBUGFS_FILE,
		       (unsigned long long)dbg[0], (unsigned long long)dbg[1],
		       (unsigned long long)dbg[2], (unsigned long long)dbg[3]);
	else
		fprintf(mg_out, "%-22s unavailable: %s\n", "debugfs counters",
		       mg_debugfs_problem(&env) ? mg_debugfs_problem(&env) : strerror(-dbg_err));
	fprintf(mg_out, "%-22s", "per-CPU counter syms");
	for (i = 0; i < MG_K_NR_COUNTERS; i++)
		fprintf(mg_out, " %s%s", mg_kcounter_syms[i], env.ksym_in_btf[i] ? "" : "(not in BTF)");
	fprintf(mg_out, "\n%-22s %s%s\n", "per-CPU from BPF", kr ? "yes: " : "no: ", kr ? kr_method : kr_why);
	fprintf(mg_out, "%-22s %s\n", "KALLSYMS_ALL", env.kallsyms_all ? "yes" : "no (no data symbols in /proc/kallsyms)");
	for (i = MG_BE_FENTRY; i <= MG_BE_TRACEPOINT; i++) {
		char label[32];

		snprintf(label, sizeof(label), "backend %s", mg_backend_name(i));
		if (!bp[i].base.err)
			fprintf(mg_out, "%-22s attachable (tracepoints as %s)", label,
			       bp[i].tp_btf ? "tp_btf" : "raw_tp");
		else
			fprintf(mg_out, "%-22s refused: %s", label, bp[i].base.why);
		if (bp[i].hot_tried)
			fprintf(mg_out, "; --hot %s%s", bp[i].hot.err ? "refused: " : "attachable",
			       bp[i].hot.err ? bp[i].hot.why : "");
		fputc('\n', mg_out);
	}
	fprintf(mg_out, "%-22s %s\n", "auto chooses", chosen == MG_BE_AUTO ? "nothing (no backend attaches)" :
	       mg_backend_name(chosen));
	fprintf(mg_out, "%-22s %s\n", "stat by default", kr ? "kernel (the kernel's per-CPU counters; no "
	       "program on the write or stat path; event counters opt-in with -e)" :
	       "the probes above (the kernel's per-CPU counters are not readable)");
	return mg_out_close();
}
