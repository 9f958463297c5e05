// SPDX-License-Identifier: GPL-2.0
/*
 * conform_judge.c - conform's kernel judge: check's BPF judge (bpf/mgtrace.bpf.c with
 * bpf/mg_judge.bpf.h, configured by src/util/judge.c, its violations and their kernel
 * stacks through the ring buffer into src/util/checker.c), loaded and attached through
 * the engine (run.c) as check does, and bpf/conform.bpf.c, which keeps the last ctime
 * event of each inode of the filesystem under test (missing_update). After the sweep
 * the findings are attributed to its log (conform_attrib.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "conform_attrib.h"
#include "conform_judge.h"
#include "checker.h"
#include "events.h"
#include "judge.h"
#include "run.h"
#include "util.h"
#include "mgtrace.skel.h"
#include "conform.skel.h"

/* Records consumed before control returns to the sweep. */
#define CF_BATCH 65536
/* Inodes the BPF judge's map holds: a sweep touches a few hundred. */
#define CF_MAX_INODES 65536

/* Mirrors bpf/conform.bpf.c's key and value. */
struct cf_key {
	uint64_t ino;
	uint32_t dev, pad;
};

struct cf_seen {
	uint64_t last_ns;
	int64_t sec;
	uint64_t nsec, events;
};

struct cf_judge {
	struct mg_run run;
	struct mg_judge judge;
	struct mg_checker *chk;
	struct mg_events ev;
	bool ev_open;
	struct conform_bpf *cb;		/* missing_update's object */
	struct cf_hooks hooks;
	struct cf_opts *o;		/* its judge line, filled at the end */
};

/* An event judged in user space (tracepoints as raw_tp, no bpf_res_spin_lock). */
static void on_event(void *ctx, const struct mg_event *e)
{
	struct cf_judge *j = ctx;

	mg_checker_event(j->chk, e);
}

/* A violation judged in BPF, with its kernel stack. */
static void on_vrec(void *ctx, const struct mg_vrec *r)
{
	struct cf_judge *j = ctx;

	mg_judge_record(&j->judge, j->chk, r);
}

/* A realtime step BPF saw. */
static void on_steprec(void *ctx, const struct mg_steprec *r)
{
	struct cf_judge *j = ctx;

	mg_checker_kernel_step(j->chk, r->t0_ns, r->t1_ns, r->delta_lo, r->delta_hi);
}

/* Before an op: the ring buffer emptied, so that it never fills during a sweep. */
static void hook_go(void *ctx, struct cf_ctx *c)
{
	struct cf_judge *j = ctx;

	(void)c;
	mg_events_consume(&j->ev);
	/* forget inodes gone when the map fills (as check's event loop) */
	mg_judge_collect(&j->judge, j->run.sess.skel);
}

/* After a role's stat(): did its inode get a ctime event since the op began? */
static void hook_after(void *ctx, struct cf_ctx *c, struct cf_probe *p)
{
	struct cf_judge *j = ctx;
	struct cf_key k = { .ino = p->ino, .dev = p->dev };
	struct cf_seen v;

	(void)c;
	if (bpf_map_lookup_elem(bpf_map__fd(j->cb->maps.cf_inodes), &k, &v)) {
		p->updated = 0;
		return;
	}
	p->updated = v.last_ns >= p->t0_ns;
	p->kernel_last = (struct timespec){ .tv_sec = v.sec, .tv_nsec = (long)v.nsec };
}

/*
 * BPF refused: its cause was printed; one line more with the way around it, and the
 * error record (mg_out_error()) gets both.
 */
static int refused(int ret)
{
	static const char hint[] = "conform: no kernel judge here; `mgtrace conform "
				   "--observer-only` runs the sweep with the observer's stat() "
				   "calls alone";
	char cause[sizeof(mg_last_err)];

	snprintf(cause, sizeof(cause), "%s", mg_last_err);
	mg_err(ret, "%s", hint);
	snprintf(mg_last_err, sizeof(mg_last_err), "%.700s; %s", cause, hint);
	return ret;
}

/* bpf/conform.bpf.c loaded for the filesystem dev. 0 or an exit code (one line). */
static int seen_open(struct cf_judge *j, uint32_t dev)
{
	int err;

	if (!(j->cb = conform_bpf__open()))
		return mg_err(MG_EXIT_ENV, "conform: bpf/conform.bpf.c: open: %s", strerror(errno));
	j->cb->rodata->cf_dev = dev;
	if ((err = conform_bpf__load(j->cb)) || (err = conform_bpf__attach(j->cb)))
		return mg_err(MG_EXIT_ENV, "conform: bpf/conform.bpf.c (raw_tp on the three ctime "
			      "tracepoints): %s", strerror(-err));
	return 0;
}

int cf_judge_open(struct cf_judge **out, struct cf_opts *o, uint32_t dev, size_t max_reports)
{
	struct mg_session_opts so = { .events = true, .event_clock = true };
	struct cf_judge *j = calloc(1, sizeof(*j));
	int ret, err;

	*out = j;
	if (!j)
		return mg_err(MG_EXIT_FAIL, "conform: out of memory");
	j->o = o;
	snprintf(o->judge, sizeof(o->judge), "check's BPF judge");
	j->judge.max_inodes = CF_MAX_INODES;
	j->judge.ringbuf_bytes = MG_JUDGE_RINGBUF_DEFAULT;
	j->judge.tai_minus_real = mg_tai_minus_realtime();
	j->judge.env = &j->run.env;
	so.pre_load = mg_judge_pre_load;
	so.pre_load_ctx = &j->judge;
	so.post_load = mg_judge_post_load;
	so.split_load = true;	/* check's judging programs, verified on two CPUs */
	if ((ret = mg_run_require_env(&j->run)) ||
	    (ret = mg_run_setup(&j->run, MG_BE_TRACEPOINT, &so)))
		return refused(ret);
	mg_judge_attached(&j->judge, &j->run.sess);
	j->judge.ringbuf_used = bpf_map__max_entries(j->run.sess.skel->maps.events);
	j->chk = mg_checker_new(j->judge.active ? 1 : CF_MAX_INODES, max_reports);
	if (!j->chk)
		return mg_err(MG_EXIT_ENV, "conform: out of memory for the checker");
	if (j->judge.active)
		mg_checker_judged_in_bpf(j->chk);
	mg_checker_set_tai_offset(j->chk, mg_tai_minus_realtime());
	if ((err = mg_events_open(&j->ev, bpf_map__fd(j->run.sess.skel->maps.events), on_event, j,
				  CF_BATCH)))
		return mg_err_step("conform: ring buffer", err);
	j->ev_open = true;
	j->ev.vrec_fn = on_vrec;
	j->ev.step_fn = on_steprec;
	if ((ret = seen_open(j, dev)))
		return ret;
	j->hooks = (struct cf_hooks){ .ctx = j, .go = hook_go, .after = hook_after };
	return 0;
}

const struct cf_hooks *cf_judge_hooks(struct cf_judge *j)
{
	return &j->hooks;
}

/* Every event in, judged; what makes the judge's counts incomplete said in why. 0 or -errno */
static int drain(struct cf_judge *j, bool *incomplete, char *why, size_t len)
{
	const struct mg_check_stats *st;
	struct mg_bpf_counts *scratch;
	uint64_t lost = 0;
	int err;

	if (j->judge.active)		/* "inodes" read whole and still (check_drain) */
		mgtrace_bpf__detach(j->run.sess.skel);
	conform_bpf__detach(j->cb);
	if ((err = mg_events_drain(&j->ev)) < 0)
		return snprintf(why, len, "ring buffer: %s", strerror(-err)), err;
	scratch = calloc((size_t)j->run.sess.nr_cpus, sizeof(*scratch));
	err = scratch ? mg_events_lost(&j->run.sess, NULL, scratch, &lost) : -ENOMEM;
	free(scratch);
	if (!err && j->judge.active)
		err = mg_judge_finish(&j->judge, j->chk, j->run.sess.skel, j->run.sess.nr_cpus);
	if (err)
		return snprintf(why, len, "reading the BPF judging maps: %s", strerror(-err)), err;
	mg_checker_finish(j->chk);
	mg_checker_lost(j->chk, lost + j->ev.short_records);
	mg_checker_missed(j->chk, mg_session_recursion_misses(&j->run.sess, NULL, 0));
	st = mg_checker_stats(j->chk);
	*incomplete = st->lost || st->missed || st->untracked_events || st->lock_failed_events ||
		      st->steps_not_kept;
	if (*incomplete)
		snprintf(j->o->incomplete, sizeof(j->o->incomplete), "the kernel judge's counts are "
			 "incomplete: %llu events lost, %llu BPF runs skipped, %llu events of inodes "
			 "beyond its map, %llu whose lock failed",
			 (unsigned long long)st->lost, (unsigned long long)st->missed,
			 (unsigned long long)st->untracked_events,
			 (unsigned long long)st->lock_failed_events);
	return 0;
}

int cf_judge_finish(struct cf_judge *j, struct cf_sweep *s, char *why, size_t len)
{
	const struct mg_violation *v;
	bool incomplete = false;
	size_t n, i;

	if (drain(j, &incomplete, why, len))
		return -1;
	mg_judge_describe(&j->judge, j->o->judge, sizeof(j->o->judge));
	v = mg_checker_reports(j->chk, &n);
	if (cf_attrib(s, v, n, mg_checker_stats(j->chk), incomplete, why, len))
		return -1;
	for (i = 0; incomplete && i < s->nrows; i++)
		s->rows[i].inconclusive = true;
	return 0;
}

void cf_judge_close(struct cf_judge *j)
{
	if (!j)
		return;
	conform_bpf__destroy(j->cb);
	if (j->ev_open)
		mg_events_close(&j->ev);
	mg_run_cleanup(&j->run);
	mg_checker_free(j->chk);
	mg_judge_free(&j->judge);
	free(j);
}
