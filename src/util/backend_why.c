// SPDX-License-Identifier: GPL-2.0
/*
 * backend_why.c - why a backend's load or attach failed, in one line (see
 * backend_why.h): the errno's name and the best-known cause, from the environment
 * (BTF, lockdown, kprobes, kallsyms, capabilities), libbpf's log (loadlog.c) or a
 * program type the kernel lacks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "backend_why.h"
#include "funcprobe.h"
#include "loadlog.h"
#include "util.h"

static const char *errname(int err)
{
	switch (-err) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case 524: return "ENOTSUPP";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case E2BIG: return "E2BIG";
	case ENODEV: return "ENODEV";
	case EMFILE: return "EMFILE";
	case ENFILE: return "ENFILE";
	case ENOMEM: return "ENOMEM";
	default: return "error";
	}
}

/*
 * The program types backend be loads that this kernel lacks, as "program type ...
 * missing" in cause (left empty when all exist). libbpf probes each by loading a
 * trivial program of that type.
 */
static void missing_prog_type(enum mg_backend be, bool tp_btf, char *cause, size_t len)
{
	enum bpf_prog_type t[2] = { tp_btf ? BPF_PROG_TYPE_TRACING : BPF_PROG_TYPE_RAW_TRACEPOINT,
				    be == MG_BE_FENTRY ? BPF_PROG_TYPE_TRACING :
				    be == MG_BE_KPROBE ? BPF_PROG_TYPE_KPROBE : t[0] };
	int i;

	for (i = 0; i < 2; i++)
		if (libbpf_probe_bpf_prog_type(t[i], NULL) == 0) {
			snprintf(cause, len, "program type %s missing from this kernel",
				 libbpf_bpf_prog_type_str(t[i]));
			return;
		}
}

/* Best-known cause of a failed attempt, given the errno and the environment. */
void mg_backend_explain(struct mg_attempt *a, const struct mg_kenv *env, enum mg_backend be,
			bool tp_btf, bool hot, int err, const char *stage)
{
	char cause[200] = "";
	int i, nf = hot ? MG_NR_FUNCS : MG_FN_NR_BASE;

	if (!env->btf && (be == MG_BE_FENTRY || (be == MG_BE_TRACEPOINT && tp_btf)))
		snprintf(cause, sizeof(cause), "no kernel BTF (/sys/kernel/btf/vmlinux)");
	for (i = 0; !cause[0] && be == MG_BE_FENTRY && i < nf; i++)
		if (!env->func_in_btf[i])
			snprintf(cause, sizeof(cause), "%s missing from kernel BTF", mg_func_names[i]);
	if (!cause[0] && err == -EPERM && be == MG_BE_FENTRY && strcmp(env->lockdown, "none") &&
	    strncmp(env->lockdown, "unknown", 7))
		snprintf(cause, sizeof(cause), "BPF trampolines refused under lockdown=%s",
			 env->lockdown);
	for (i = 0; !cause[0] && (err == -ENOENT || err == -EOPNOTSUPP) && i < nf; i++)
		if (mg_func_probe(env, be, hot, i) &&
		    !strcmp(mg_func_probe(env, be, hot, i), "kprobe") && !mg_have_kprobe_pmu())
			snprintf(cause, sizeof(cause), "kernel has no kprobes (CONFIG_KPROBES unset)%s",
				 be == MG_BE_FENTRY ? "; fentry needs a kprobe on functions "
				 "returning a struct" : "");
	for (i = 0; !cause[0] && i < nf; i++)
		if (mg_func_probe(env, be, hot, i) &&
		    !strcmp(mg_func_probe(env, be, hot, i), "kprobe") &&
		    mg_kallsyms_lookup(mg_func_names[i]) == 0)	/* hidden addresses: listed */
			snprintf(cause, sizeof(cause), "%s missing from kallsyms", mg_func_names[i]);
	for (i = 0; !cause[0] && be == MG_BE_TRACEPOINT && tp_btf && i < MG_NR_TPS; i++)
		if (!env->tp_in_btf[i])
			snprintf(cause, sizeof(cause), "btf_trace_%s missing from kernel BTF",
				 mg_tp_names[i]);
	if (!cause[0])
		mg_resource_cause(err, cause, sizeof(cause));
	if (!cause[0] && err == -EPERM && be == MG_BE_FENTRY && geteuid() == 0)
		snprintf(cause, sizeof(cause), "refused as root: kernel lockdown likely "
			 "(lockdown %s)", env->lockdown);
	if (!cause[0] && err == -EPERM)
		snprintf(cause, sizeof(cause), "not permitted (needs CAP_BPF and CAP_PERFMON)");
	if (!cause[0])
		mg_classify_load_log(mg_libbpf_log(), err, stage, be != MG_BE_TRACEPOINT, cause,
				     sizeof(cause));
	if (!cause[0] && !strcmp(stage, "load") && err == -EINVAL)
		missing_prog_type(be, tp_btf, cause, sizeof(cause));
	if (!cause[0])
		snprintf(cause, sizeof(cause), "%s%.150s",
			 strncmp(mg_libbpf_last_error(), "libbpf: ", 8) ? "libbpf: " : "",
			 mg_libbpf_last_error()[0] ? mg_libbpf_last_error() : strerror(-err));
	snprintf(a->why, sizeof(a->why), "%s failed: %s (%s)", stage, errname(err), cause);
}

void mg_attempt_explain(struct mg_attempt *a, const struct mg_kenv *env, enum mg_backend be,
			int err, const char *stage)
{
	a->tried = true;
	a->err = err;
	mg_backend_explain(a, env, be, true, false, err, stage);
}
