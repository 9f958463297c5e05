// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - one measurement run shared by stat and check (see run.h): setup (the
 * environment, the kernel per-CPU reader, the session, the snapshots' memory), the
 * snapshots of every counter source, cleanup, and the backend lines and JSON header
 * the reports start with. COMMAND and the signals, also trace's, are run_child.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "hostclock.h"
#include "json_writer.h"
#include "report.h"
#include "term.h"
#include "opts.h"
#include "run.h"
#include "testhook.h"
#include "util.h"

/*
 * The environment probed and checked (mg_run_require_env()); with kreader the kernel
 * counter reader opened too, while the probe's parse of the kernel BTF is still held:
 * the reader's offsets come from it, and it is parsed once (about 20 ms on 6.18), not
 * again after the probe released it. Released before anything libbpf parses its own
 * copy for (check's follow_bpf comes next): the two copies (5.5 MiB each on 6.18) are
 * never held at once.
 */
static int require_env(struct mg_run *r, bool kreader)
{
	int ret, kerr = 0;

	if (!r->env_ok) {
		mg_kenv_probe(&r->env);
		if ((ret = mg_env_require(&r->env, true))) {
			mg_vmlinux_btf_release();
			return ret;
		}
		mg_hostclock_note();	/* BPF's times are the host's: said if its clock is unknown */
		r->env_ok = true;
	}
	if (kreader && !r->kr_tried) {
		r->kr = mg_kreader_open(mg_nr_cpus(), &kerr, r->kr_why, sizeof(r->kr_why));
		r->kr_tried = true;
	}
	mg_vmlinux_btf_release();
	return MG_EXIT_OK;
}

int mg_run_require_env(struct mg_run *r)
{
	return require_env(r, false);
}

int mg_run_prepare(struct mg_run *r)
{
	return require_env(r, true);
}

int mg_run_setup(struct mg_run *r, enum mg_backend want, const struct mg_session_opts *o)
{
	struct mg_session_opts so = *o;
	int ret, err;
	bool kpc;

	mg_run_block_signals(r);	/* before the load, which takes a noticeable time */
	if ((ret = mg_run_prepare(r)))
		return ret;
	if (want == MG_BE_KERNEL && !r->kr)
		return mg_err(MG_EXIT_ENV, "backend kernel unavailable: the kernel's per-CPU "
			      "counters are not readable: %s", r->kr_why);
	if (o->prefer_kernel && want == MG_BE_AUTO && r->kr)
		want = MG_BE_KERNEL;
	/* without the kernel's per-CPU counters, ctime_swaps needs timestamp:ctime_ns_xchg */
	if (so.tp_select && want != MG_BE_KERNEL && !r->kr)
		so.tp_mask |= 1u << MG_TP_CTIME_NS_XCHG;
	err = mg_session_open(&r->sess, &r->env, want, &so);
	if (err) {
		enum mg_backend be = want == MG_BE_AUTO ? MG_BE_TRACEPOINT : want;

		return mg_err(MG_EXIT_ENV, "backend %s unavailable: %s", mg_backend_name(be),
			      r->sess.attempts[be].why);
	}
	/* the kernel BTF mgtrace parsed, if the load did not take it (kenv.c) */
	mg_vmlinux_btf_free_spare();
	kpc = r->kr != NULL;
	r->cfg = (struct mg_report_cfg){
		.skew_row = -1,
		.nr_cpus = r->sess.nr_cpus,
		.func_backend = mg_backend_has_funcs(r->sess.backend) ?
				mg_backend_name(r->sess.backend) : NULL,
		.tp_flavour = r->sess.tp_btf ? "tp_btf" : "raw_tp",
		.hot = o->hot, .kpc = kpc, .kpc_method = kpc ? mg_kreader_method(r->kr) : NULL,
		.kpc_check = kpc ? mg_kreader_check(r->kr) : MG_KCHECK_NONE,
		.prefer_kpc = kpc && (want == MG_BE_AUTO || want == MG_BE_KERNEL),
		.tp_off = ~r->sess.tp_mask & ((1u << MG_NR_TPS) - 1),
		.tp_off_why = o->tp_off_why,
		/* loaded nfsd can make delegated-timestamp swaps (counters_derived.c) */
		.nfsd = !access("/sys/module/nfsd", F_OK),
	};
	memcpy(r->cfg.func_probe, r->sess.func_probe, sizeof(r->cfg.func_probe));
	for (int k = 0; k < MG_K_NR_COUNTERS; k++)
		r->cfg.kcounter_absent[k] = r->env.btf && !r->env.ksym_in_btf[k];
	if (mg_test_hook_skew(&r->cfg.skew_row, &r->cfg.skew_n))
		return MG_EXIT_USAGE;
	if (mg_snap_alloc(&r->first, r->sess.nr_cpus, kpc) ||
	    mg_snap_alloc(&r->prev, r->sess.nr_cpus, kpc) ||
	    mg_snap_alloc(&r->cur, r->sess.nr_cpus, kpc))
		return mg_err(MG_EXIT_FAIL, "out of memory");
	return MG_EXIT_OK;
}

/*
 * Snapshots tried before a BTF-offset reading rejected every time is an error, or
 * before a slow snapshot is kept.
 */
#define MG_SNAP_TRIES 3
/*
 * A snapshot takes about 10 us. One that took longer than this was descheduled
 * between its reads (on a busy machine a time slice is milliseconds): still a valid
 * bracket, but a wide one, so it is retaken while tries remain.
 */
#define MG_SNAP_SLOW_NS 200000ull

int mg_run_snap(struct mg_run *r, struct mg_snap *s)
{
	char why[192] = "";
	uint64_t t0;
	int err, i;

	for (i = 1;; i++) {
		/*
		 * debugfs, kernel per-CPU counters, BPF map, debugfs: every counter read
		 * in between lay in [dbg_pre, dbg_post] when it was read (struct mg_snap).
		 * The BPF map goes last: its probes fire just before the kernel's
		 * increments, so nothing but the second debugfs read should follow it.
		 */
		t0 = mg_now_ns();
		s->dbg_err = mg_debugfs_read(s->dbg_pre);
		if (r->kr && (err = mg_kreader_read(r->kr, s->kpc))) {
			mg_err(MG_EXIT_FAIL, "reading kernel per-CPU counters: %s", strerror(-err));
			return err;
		}
		if ((err = mg_session_read(&r->sess, s->bpf))) {
			mg_err(MG_EXIT_FAIL, "reading BPF counters: %s", strerror(-err));
			return err;
		}
		if (!s->dbg_err)
			s->dbg_err = mg_debugfs_read(s->dbg_post);
		s->t_ns = mg_now_ns();
		if (r->kr && mg_kreader_needs_check(r->kr)) {
			if (s->dbg_err) {
				mg_err(MG_EXIT_FAIL, "reading kernel per-CPU counters: the BTF-offset "
				       "reader needs debugfs to check each reading: %s",
				       strerror(-s->dbg_err));
				return s->dbg_err;
			}
			if (mg_kpc_check(s->kpc, r->sess.nr_cpus, s->dbg_pre, s->dbg_post, why,
					 sizeof(why))) {
				if (i == MG_SNAP_TRIES) {
					mg_err(MG_EXIT_FAIL, "reading kernel per-CPU counters: "
					       "BTF-offset reading rejected %d times: %s", i, why);
					return -EPROTO;
				}
				if (mg_verbose)
					fprintf(stderr, "mgtrace: BTF-offset per-CPU reading %d of %d "
						"rejected: %s\n", i, MG_SNAP_TRIES, why);
				continue;
			}
		}
		if (s->t_ns - t0 <= MG_SNAP_SLOW_NS || i == MG_SNAP_TRIES)
			return 0;
		if (mg_verbose)
			fprintf(stderr, "mgtrace: snapshot %d of %d took %llu us (descheduled), "
				"retaking it\n", i, MG_SNAP_TRIES,
				(unsigned long long)(s->t_ns - t0) / 1000);
	}
}

void mg_run_copy_snap(struct mg_run *r, struct mg_snap *dst, const struct mg_snap *src)
{
	int n = r->sess.nr_cpus;

	memcpy(dst->bpf, src->bpf, sizeof(*src->bpf) * n);
	if (src->kpc)
		memcpy(dst->kpc, src->kpc, sizeof(*src->kpc) * n * MG_K_NR_COUNTERS);
	memcpy(dst->dbg_pre, src->dbg_pre, sizeof(src->dbg_pre));
	memcpy(dst->dbg_post, src->dbg_post, sizeof(src->dbg_post));
	dst->dbg_err = src->dbg_err;
	dst->t_ns = src->t_ns;
}

int mg_run_start(struct mg_run *r)
{
	int err = mg_run_snap(r, &r->first);

	if (err)
		return err;
	mg_run_copy_snap(r, &r->prev, &r->first);
	if (r->at_start && (err = r->at_start(r->at_start_arg)))
		return err;
	mg_run_release(r);
	return 0;
}

void mg_run_cleanup(struct mg_run *r)
{
	mg_run_end_child(r);
	if (r->go_fd > 0)
		close(r->go_fd);
	if (r->exec_fd > 0)
		close(r->exec_fd);
	r->go_fd = r->exec_fd = -1;
	mg_session_close(&r->sess);
	mg_kreader_close(r->kr);
	r->kr = NULL;
	mg_snap_free(&r->first);
	mg_snap_free(&r->prev);
	mg_snap_free(&r->cur);
}

json_t *mg_run_json_header(const struct mg_run *r, const char *type)
{
	json_t *o = json_object(), *fp = json_object();
	int i;

	mg_json_put_header(o, type, r->env.release);
	json_object_set_new(o, "backend", json_string(mg_backend_name(r->sess.backend)));
	json_object_set_new(o, "tracepoints", json_string(r->cfg.tp_flavour));
	json_object_set_new(o, "hot", json_boolean(r->cfg.hot));
	for (i = 0; i < MG_NR_FUNCS; i++)
		if (r->sess.func_probe[i])
			json_object_set_new(fp, mg_func_names[i], json_string(r->sess.func_probe[i]));
	json_object_set_new(o, "function_probes", fp);
	json_object_set_new(o, "nr_cpus", json_integer(r->sess.nr_cpus));
	/* process scope uses no kernel counter: say so, not how they would be read (as the
	 * text's backend lines and the Prometheus label say) */
	if (r->cfg.scoped) {
		json_object_set_new(o, "kernel_per_cpu", json_null());
		json_object_set_new(o, "kernel_per_cpu_unavailable",
				    json_string(MG_KPC_UNUSED_SCOPED));
		return o;
	}
	json_object_set_new(o, "kernel_per_cpu", r->kr ? json_string(mg_kreader_method(r->kr)) :
			    json_null());
	if (!r->kr)
		json_object_set_new(o, "kernel_per_cpu_unavailable", json_string(r->kr_why));
	return o;
}

json_t *mg_run_json_attempts(struct mg_run *r)
{
	json_t *a = json_object();
	int b;

	for (b = MG_BE_FENTRY; b < MG_BE_NR; b++) {
		const struct mg_attempt *at = &r->sess.attempts[b];
		json_t *o;

		if (!at->tried)
			continue;
		o = json_object();
		json_object_set_new(o, "attached", json_boolean(!at->err));
		json_object_set_new(o, "reason", json_string(at->why));
		json_object_set_new(a, mg_backend_name(b), o);
	}
	return a;
}

/* One line of the backend block, wrapped to the terminal's width (at most 100), if any. */
static void __attribute__((format(printf, 2, 3))) wline(FILE *f, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* a file or a pipe gets the whole line (term.h); a terminal's width wraps it */
	mg_wrap(f, buf, 0, 2, mg_text_cols > 0 ? mg_text_width() : 0);
}

void mg_run_print_backend(const struct mg_run *r, FILE *f)
{
	int b, n;

	if (r->sess.backend == MG_BE_KERNEL) {
		wline(f, "backend: kernel (the kernel's per-CPU counters; no program on the write "
		      "or stat path)");
		char tps[400];
		size_t k = 0;

		for (b = 0; b < MG_NR_TPS && k < sizeof(tps); b++)
			if (r->sess.tp_mask & 1u << b)
				k += (size_t)snprintf(tps + k, sizeof(tps) - k, "%s%s", k ? ", " : "",
						      mg_tp_names[b]);
		if (r->sess.tp_mask)
			wline(f, "  opted-in tracepoints: %s (%s)", tps, r->cfg.tp_flavour);
	} else {
		fprintf(f, "backend: %s, ", mg_backend_name(r->sess.backend));
		if (!r->sess.tp_mask)
			fprintf(f, "no tracepoints");
		else
			fprintf(f, "tracepoints as %s", r->cfg.tp_flavour);
		if (r->sess.tp_mask && r->sess.tp_mask != (1u << MG_NR_TPS) - 1) {
			for (b = 0; b < MG_NR_TPS; b++)
				if (r->sess.tp_mask & 1u << b)
					fprintf(f, "%s%s", b == __builtin_ctz(r->sess.tp_mask) ?
						" (" : ",", mg_tp_names[b]);
			fprintf(f, " only)");
		}
		fputc('\n', f);
		if (r->cfg.prefer_kpc == false && r->kr == NULL && r->cfg.tp_off_why)
			wline(f, "  probes used because the kernel's per-CPU counters are not "
			      "readable (below)");
	}
	for (b = 0; b < MG_NR_FUNCS; b++)
		if (r->sess.func_probe[b])
			fprintf(f, "  %s %s\n", r->sess.func_probe[b], mg_func_names[b]);
	/* the refusals are long (a load log's cause each): named, and explained under -v */
	for (b = MG_BE_FENTRY, n = 0; b < MG_BE_NR; b++) {
		if (!r->sess.attempts[b].tried || !r->sess.attempts[b].err)
			continue;
		if (mg_verbose)
			wline(f, "  %s refused: %s", mg_backend_name(b), r->sess.attempts[b].why);
		else
			fprintf(f, "%s%s", n++ ? ", " : "  refused: ", mg_backend_name(b));
	}
	if (n)
		fprintf(f, " (-v: why)\n");
	if (r->cfg.scoped)	/* as stat's JSON says it */
		wline(f, "kernel per-CPU counters: %s", MG_KPC_UNUSED_SCOPED);
	else
		wline(f, "kernel per-CPU counters: %s%s", r->kr ? "read from BPF, " :
		      "unavailable: ", r->kr ? mg_kreader_method(r->kr) : r->kr_why);
	if (!r->cfg.scoped && mg_debugfs_problem(&r->env))
		wline(f, "debugfs totals: unavailable: %s; nothing is compared with them",
		      mg_debugfs_problem(&r->env));
}
