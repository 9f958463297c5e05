// SPDX-License-Identifier: GPL-2.0
/* backend.c - choose, load and attach an attach backend (see backend.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "backend.h"
#include "mgtrace.skel.h"
#include "util.h"

static char last_libbpf_err[512];
/* Tail of everything libbpf warned about since the last mg_libbpf_log_reset(): the
 * verifier log of a failed load comes as one warning, the CO-RE and map lines near its end. */
static char libbpf_log[16384];
static size_t libbpf_log_len;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list cp;

	if (level == LIBBPF_WARN) {
		/* the whole message: a verifier log is one warning, its cause near the end */
		char *msg = NULL;
		size_t n;

		va_copy(cp, ap);
		if (vasprintf(&msg, fmt, cp) < 0)
			msg = NULL;
		va_end(cp);
		if (msg) {
			n = strcspn(msg, "\n");
			n = n < sizeof(last_libbpf_err) ? n : sizeof(last_libbpf_err) - 1;
			memcpy(last_libbpf_err, msg, n);
			last_libbpf_err[n] = 0;
			n = strlen(msg);
			if (n >= sizeof(libbpf_log))
				n = sizeof(libbpf_log) - 1;
			if (libbpf_log_len + n >= sizeof(libbpf_log)) {	/* keep the tail */
				size_t drop = libbpf_log_len + n - (sizeof(libbpf_log) - 1);

				drop = drop > libbpf_log_len ? libbpf_log_len : drop;
				memmove(libbpf_log, libbpf_log + drop, libbpf_log_len - drop);
				libbpf_log_len -= drop;
			}
			memcpy(libbpf_log + libbpf_log_len, msg + strlen(msg) - n, n);
			libbpf_log_len += n;
			libbpf_log[libbpf_log_len] = 0;
			free(msg);
		}
	}
	if (!mg_verbose || (level == LIBBPF_DEBUG && mg_verbose < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void mg_libbpf_log_reset(void)
{
	last_libbpf_err[0] = 0;
	libbpf_log_len = 0;
	libbpf_log[0] = 0;
}

/* Copy the rest of the line starting at p (without the newline) into out. */
static void line_from(const char *p, char *out, size_t len)
{
	size_t n = strcspn(p, "\n");

	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

enum mg_load_cause mg_classify_load_log(const char *log, int err, const char *stage,
					bool func_probe, char *cause, size_t len)
{
	const char *p, *q;
	char line[200];

	cause[0] = 0;
	/* libbpf poisons an instruction whose relocation found no target and rewrites the
	 * verifier's complaint into: failed to resolve CO-RE relocation <kind> [id] TYPE.FIELD (spec) */
	p = strstr(log, "failed to resolve CO-RE relocation ");
	if (p) {
		p += strlen("failed to resolve CO-RE relocation ");
		q = strchr(p, ']');
		if (*p == '<' && q && q - p < 40 && q[1] == ' ')
			p = q + 2;	/* skip "<byte_off> [123] " */
		line_from(p, line, sizeof(line));
		line[strcspn(line, "(")] = 0;
		while (*line && line[strlen(line) - 1] == ' ')
			line[strlen(line) - 1] = 0;
		snprintf(cause, len, "CO-RE relocation failed: %s is not in this kernel's BTF", line);
		return MG_CAUSE_CORE_RELO;
	}
	/* libbpf's log fixup for a map reference left poisoned: BPF map 'NAME' is referenced
	 * but wasn't created; or its own "map 'NAME': failed to create: ..." */
	p = strstr(log, "is referenced but wasn't created");
	if (p) {
		q = p;
		while (q > log && q[-1] != '\n')
			q--;
		line_from(q, line, sizeof(line));
		snprintf(cause, len, "map not created: %s", line);
		return MG_CAUSE_MAP;
	}
	p = strstr(log, "failed to create: ");
	if (p && (q = strstr(log, "map '")) && q < p) {
		line_from(q, line, sizeof(line));
		snprintf(cause, len, "map not created: %s", line);
		return MG_CAUSE_MAP;
	}
	/* the verifier refusing the attach target itself */
	if ((p = strstr(log, "is rejected")) || (p = strstr(log, "not traceable")) ||
	    (p = strstr(log, "Cannot attach")) || (p = strstr(log, "attach_btf_id"))) {
		q = p;
		while (q > log && q[-1] != '\n')
			q--;
		line_from(q, line, sizeof(line));
		snprintf(cause, len, "function not traceable: %s", line);
		return MG_CAUSE_UNTRACEABLE;
	}
	/* attaching a probe to a function the kernel will not let be traced */
	if (func_probe && !strcmp(stage, "attach") &&
	    (err == -EINVAL || err == -524 || err == -EOPNOTSUPP)) {
		snprintf(cause, len, "function not traceable");
		return MG_CAUSE_UNTRACEABLE;
	}
	return MG_CAUSE_UNKNOWN;
}

void mg_libbpf_setup(void)
{
	libbpf_set_print(libbpf_print);
}

static const char *const be_names[MG_BE_NR] = { "auto", "fentry", "kprobe", "tracepoint", "kernel" };

const char *mg_backend_name(enum mg_backend b)
{
	return b < MG_BE_NR ? be_names[b] : "?";
}

int mg_backend_parse(const char *s, enum mg_backend *b)
{
	int i;

	for (i = 0; i < MG_BE_NR; i++) {
		if (!strcmp(s, be_names[i])) {
			*b = i;
			return 0;
		}
	}
	return -EINVAL;
}

bool mg_backend_has_funcs(enum mg_backend b)
{
	return b == MG_BE_FENTRY || b == MG_BE_KPROBE;
}

/* Program name suffix -> index into mg_func_names (hot probes are 2 and 3). */
static int prog_func(const char *name)
{
	const char *sfx = strchr(name, '_') + 1;

	if (!strcmp(sfx, "set_ctime_current")) return 0;
	if (!strcmp(sfx, "real_mg")) return 1;
	if (!strcmp(sfx, "current_time")) return 2;
	if (!strcmp(sfx, "coarse_mg")) return 3;
	return -1;
}

/* How function i is probed under backend be: "fentry", "kprobe" or NULL (not at all). */
static const char *func_probe(const struct mg_kenv *env, enum mg_backend be, bool hot, int i)
{
	if (i < 0 || (i >= 2 && !hot))
		return NULL;
	if (be == MG_BE_FENTRY)
		return env->func_ret_struct[i] ? "kprobe" : "fentry";
	return be == MG_BE_KPROBE ? "kprobe" : NULL;
}

/* Tracepoint index (mg_tp_names[]) of a tpb_/rtp_ program name, or -1. */
static int prog_tp(const char *name)
{
	const char *sfx = strchr(name, '_') + 1;
	int i;

	for (i = 0; i < MG_NR_TPS; i++)
		if (strstr(mg_tp_names[i], sfx))	/* set_ctime_to_ts <- inode_set_ctime_to_ts */
			return i;
	return -1;
}

static bool want_prog(const struct mg_kenv *env, const char *name, enum mg_backend be,
		      bool tp_btf, bool hot, const struct mg_session_opts *o)
{
	const char *how;

	if (!strncmp(name, "tpb_", 4) || !strncmp(name, "rtp_", 4)) {
		if (o->tp_select && !(o->tp_mask & (1u << prog_tp(name))))
			return false;
		return tp_btf == !strncmp(name, "tpb_", 4);
	}
	if (be == MG_BE_KERNEL)
		return false;
	how = func_probe(env, be, hot, prog_func(name));
	return how && !strncmp(name, how, 2);	/* "fe_" <-> "fentry", "kp_" <-> "kprobe" */
}

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
	default: return "error";
	}
}

static bool have_kprobe_pmu(void)
{
	return !access("/sys/bus/event_source/devices/kprobe/type", R_OK) ||
	       !access("/sys/kernel/tracing/kprobe_events", F_OK) ||
	       !access("/sys/kernel/debug/tracing/kprobe_events", F_OK);
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
static void explain(struct mg_attempt *a, const struct mg_kenv *env, enum mg_backend be,
		    bool tp_btf, bool hot, int err, const char *stage)
{
	char cause[200] = "";
	int i, nf = hot ? 4 : 2;

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
		if (func_probe(env, be, hot, i) && !strcmp(func_probe(env, be, hot, i), "kprobe") &&
		    !have_kprobe_pmu())
			snprintf(cause, sizeof(cause), "kernel has no kprobes (CONFIG_KPROBES unset)%s",
				 be == MG_BE_FENTRY ? "; fentry needs a kprobe on functions "
				 "returning a struct" : "");
	for (i = 0; !cause[0] && i < nf; i++)
		if (func_probe(env, be, hot, i) && !strcmp(func_probe(env, be, hot, i), "kprobe") &&
		    !mg_kallsyms_has(mg_func_names[i]))
			snprintf(cause, sizeof(cause), "%s missing from kallsyms", mg_func_names[i]);
	for (i = 0; !cause[0] && be == MG_BE_TRACEPOINT && tp_btf && i < MG_NR_TPS; i++)
		if (!env->tp_in_btf[i])
			snprintf(cause, sizeof(cause), "btf_trace_%s missing from kernel BTF",
				 mg_tp_names[i]);
	if (!cause[0] && err == -EPERM && be == MG_BE_FENTRY && geteuid() == 0)
		snprintf(cause, sizeof(cause), "refused as root: kernel lockdown likely "
			 "(lockdown %s)", env->lockdown);
	if (!cause[0] && err == -EPERM)
		snprintf(cause, sizeof(cause), "not permitted (needs CAP_BPF and CAP_PERFMON)");
	if (!cause[0])
		mg_classify_load_log(libbpf_log, err, stage, be != MG_BE_TRACEPOINT, cause,
				     sizeof(cause));
	if (!cause[0] && !strcmp(stage, "load") && err == -EINVAL)
		missing_prog_type(be, tp_btf, cause, sizeof(cause));
	if (!cause[0])
		snprintf(cause, sizeof(cause), "%s%.150s",
			 strncmp(last_libbpf_err, "libbpf: ", 8) ? "libbpf: " : "",
			 last_libbpf_err[0] ? last_libbpf_err : strerror(-err));
	snprintf(a->why, sizeof(a->why), "%s failed: %s (%s)", stage, errname(err), cause);
}

const char *mg_libbpf_cause(int err, const char *stage, bool func_probe, char *buf, size_t len)
{
	if (mg_classify_load_log(libbpf_log, err, stage, func_probe, buf, len) == MG_CAUSE_UNKNOWN)
		snprintf(buf, len, "%s%s", last_libbpf_err[0] && strncmp(last_libbpf_err, "libbpf: ", 8) ?
			 "libbpf: " : "", last_libbpf_err[0] ? last_libbpf_err : strerror(-err));
	return buf;
}

void mg_attempt_explain(struct mg_attempt *a, const struct mg_kenv *env, enum mg_backend be,
			int err, const char *stage)
{
	a->tried = true;
	a->err = err;
	explain(a, env, be, true, false, err, stage);
}

/* One load+attach of the object with the given set of programs. */
static int try_attach(struct mg_session *s, const struct mg_kenv *env, enum mg_backend be,
		      bool tp_btf, const struct mg_session_opts *o, struct mg_attempt *a)
{
	bool hot = o->hot;
	struct mgtrace_bpf *skel;
	struct bpf_program *prog;
	int err;

	mg_libbpf_log_reset();
	a->tried = true;
	skel = mgtrace_bpf__open();
	if (!skel) {
		err = -errno;
		explain(a, env, be, tp_btf, hot, err, "open");
		return a->err = err;
	}
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, want_prog(env, bpf_program__name(prog), be, tp_btf, hot, o));
	if (o->events) {
		skel->rodata->emit_events = true;
		skel->rodata->event_mask = o->event_mask ? o->event_mask : ~0U;
		skel->rodata->filter_tgid = o->filter_tgid;
		skel->rodata->filter_nids = o->filter_nids;
		memcpy((void *)skel->rodata->filter_devs, o->filter_devs, sizeof(o->filter_devs));
		memcpy((void *)skel->rodata->filter_inos, o->filter_inos, sizeof(o->filter_inos));
		skel->rodata->filter_tree = o->traced_tgids_fd > 0;
		memcpy((char *)skel->rodata->filter_comm, o->filter_comm, sizeof(o->filter_comm));
		/* wake the consumer at a quarter full; it also polls every 50-100 ms */
		skel->rodata->wakeup_bytes = (o->ringbuf_bytes ? o->ringbuf_bytes : 16u << 20) / 4;
		err = bpf_map__set_max_entries(skel->maps.events,
					       o->ringbuf_bytes ? o->ringbuf_bytes : 16u << 20);
		if (err) {
			explain(a, env, be, tp_btf, hot, err, "ring buffer size");
			goto fail;
		}
	}
	/* the process set is shared with bpf/follow.bpf.c; unused, it shrinks to one entry */
	if (o->events && o->traced_tgids_fd > 0)
		err = bpf_map__reuse_fd(skel->maps.traced_tgids, o->traced_tgids_fd);
	else
		err = bpf_map__set_max_entries(skel->maps.traced_tgids, 1);
	if (err) {
		explain(a, env, be, tp_btf, hot, err, "process map");
		goto fail;
	}
	err = mgtrace_bpf__load(skel);
	if (err) {
		explain(a, env, be, tp_btf, hot, err, "load");
		goto fail;
	}
	err = mgtrace_bpf__attach(skel);
	if (err) {
		explain(a, env, be, tp_btf, hot, err, "attach");
		goto fail;
	}
	s->skel = skel;
	s->tp_mask = o->tp_select ? o->tp_mask : (1u << MG_NR_TPS) - 1;
	for (int i = 0; i < 4; i++)
		s->func_probe[i] = func_probe(env, be, hot, i);
	a->err = 0;
	snprintf(a->why, sizeof(a->why), "loaded and attached");
	return 0;
fail:
	mgtrace_bpf__destroy(skel);
	return a->err = err;
}

int mg_session_open(struct mg_session *s, const struct mg_kenv *env,
		    enum mg_backend want, const struct mg_session_opts *opts)
{
	bool hot = opts->hot;
	static const enum mg_backend order[] = { MG_BE_FENTRY, MG_BE_KPROBE, MG_BE_TRACEPOINT };
	struct mg_attempt tpa = { 0 };
	struct mgtrace_bpf *tp_skel;
	int i, err;

	memset(s, 0, sizeof(*s));
	s->nr_cpus = mg_nr_cpus();
	if (s->nr_cpus < 0)
		return s->nr_cpus;
	s->hot = hot;

	if (want == MG_BE_KERNEL) {
		/* the kernel's counters; tracepoints only for opted-in event counters */
		s->backend = MG_BE_KERNEL;
		s->tp_btf = true;
		if (!opts->tp_select || !opts->tp_mask)
			return 0;
		err = try_attach(s, env, MG_BE_KERNEL, true, opts, &tpa);
		if (err) {
			snprintf(s->tp_why, sizeof(s->tp_why), "%s", tpa.why);
			s->tp_btf = false;
			err = try_attach(s, env, MG_BE_KERNEL, false, opts, &tpa);
		}
		s->attempts[MG_BE_KERNEL] = tpa;
		return err;
	}

	/* Tracepoints first: every backend needs them; tp_btf, else raw_tp. */
	s->tp_btf = true;
	err = try_attach(s, env, MG_BE_TRACEPOINT, true, opts, &tpa);
	if (err) {
		snprintf(s->tp_why, sizeof(s->tp_why), "%s", tpa.why);
		s->tp_btf = false;
		err = try_attach(s, env, MG_BE_TRACEPOINT, false, opts, &tpa);
	}
	if (err) {
		s->attempts[MG_BE_TRACEPOINT] = tpa;
		for (i = 0; i < 2; i++) {
			struct mg_attempt *a = &s->attempts[order[i]];

			a->tried = true;
			a->err = err;
			snprintf(a->why, sizeof(a->why), "the tracepoints every backend needs: %.280s",
				 tpa.why);
		}
		return err;
	}
	tp_skel = s->skel;
	s->skel = NULL;

	for (i = 0; i < 3; i++) {
		enum mg_backend be = order[i];

		if (want != MG_BE_AUTO && want != be)
			continue;
		if (be == MG_BE_TRACEPOINT) {
			s->attempts[be] = tpa;
			s->skel = tp_skel;
			s->backend = be;
			return 0;
		}
		if (!try_attach(s, env, be, s->tp_btf, opts, &s->attempts[be])) {
			mgtrace_bpf__destroy(tp_skel);
			s->backend = be;
			return 0;
		}
	}
	mgtrace_bpf__destroy(tp_skel);
	return s->attempts[want].err;
}

int mg_session_read(struct mg_session *s, struct mg_bpf_counts *out)
{
	__u32 zero = 0;

	if (!s->skel) {
		memset(out, 0, sizeof(*out) * s->nr_cpus);
		return 0;
	}
	if (bpf_map__lookup_elem(s->skel->maps.counts, &zero, sizeof(zero), out,
				 sizeof(*out) * s->nr_cpus, 0))
		return -errno;
	return 0;
}

uint64_t mg_session_recursion_misses(const struct mg_session *s, char *detail, size_t len)
{
	if (detail && len)
		detail[0] = 0;
	return s->skel ? mg_obj_recursion_misses(s->skel->obj, detail, len) : 0;
}

uint64_t mg_obj_recursion_misses(const struct bpf_object *obj, char *detail, size_t len)
{
	struct bpf_program *prog;
	uint64_t total = 0;
	size_t n = detail ? strlen(detail) : 0;

	if (!obj)
		return 0;
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 ilen = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &ilen) || !info.recursion_misses)
			continue;
		total += info.recursion_misses;
		if (detail && n < len)
			n += snprintf(detail + n, len - n, "%s%s=%llu", n ? " " : "",
				      bpf_program__name(prog), (unsigned long long)info.recursion_misses);
	}
	return total;
}

void mg_session_close(struct mg_session *s)
{
	mgtrace_bpf__destroy(s->skel);
	s->skel = NULL;
}
