// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - `mgtrace trace`: stream multigrain events as they happen: ctime
 * swaps (old/new, QUERIED decoded), ctime skips, stat queries, explicit ctime
 * sets (timestamp:* tracepoints, bpf/mgtrace.bpf.c in event mode) and, with a
 * function-probe backend, floor swaps and lost floor cmpxchgs
 * (bpf/floor.bpf.c). Both objects write to one ring buffer, so events arrive
 * in reservation order. Filters (pid, comm, inode) are applied in BPF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <jansson.h>
#include "backend.h"
#include "commands.h"
#include "escape.h"
#include "events.h"
#include "trace_int.h"
#include "pidns.h"
#include "floor.h"
#include "follow.h"
#include "follow.skel.h"
#include "ident.h"
#include "pathid.h"
#include "kenv.h"
#include "mgtrace.skel.h"
#include "json_writer.h"
#include "report.h"
#include "run.h"
#include "testhook.h"
#include "util.h"
#include "vocab.h"
#include "opts.h"


/*
 * Follow a process tree (src/util/follow.c): COMMAND (held before exec, so none of its
 * forks can be missed) or --pid PID with the descendants it has now. Returns an exit code.
 */
static int follow_open(struct trace_state *t)
{
	char why[360];

	if (t->o.pids.n)
		t->follow = mg_follow_open_pids(&t->run.env, t->o.pids.pid, t->o.pids.n, true, why, sizeof(why));
	else
		t->follow = mg_follow_open(&t->run.env, t->run.child, false, why, sizeof(why));
	if (t->follow) {
		if (t->o.pids.n) {	/* the run ends when they have all exited */
			t->run.alive = mg_follow_alive;
			t->run.alive_arg = t->follow;
		}
		return MG_EXIT_OK;
	}
	return mg_err(MG_EXIT_ENV, "trace: cannot follow %s: %s%s", t->o.pids.n ? "--pid's children" :
		      "COMMAND's children", why, t->o.pids.n ? "" :
		      " (--no-inherit traces COMMAND's process only)");
}

/* Returns an exit code: 3 only when floor events were asked for explicitly. */
static int floor_open(struct trace_state *t)
{
	struct mg_floor_opts fo = { .backend = t->o.backend, .nids = (unsigned int)t->o.ids.n,
				    .traced_tgids_fd = t->follow ?
				    bpf_map__fd(t->follow->maps.traced_tgids) : 0 };
	int hook;

	if (!(t->o.mask & EV_FLOOR))
		return MG_EXIT_OK;
	if ((hook = mg_test_hook_invert_fine()) < 0)
		return MG_EXIT_USAGE;
	fo.test_invert_fine = hook;
	for (int i = 0; i < t->o.ids.n; i++) {
		fo.devs[i] = t->o.ids.id[i].dev;
		fo.inos[i] = t->o.ids.id[i].ino;
	}
	memcpy(fo.filter_comm, t->o.comm, sizeof(fo.filter_comm));
	if (!mg_floor_open(&t->floor, &t->run.env, &t->run.sess, &fo))
		return MG_EXIT_OK;
	snprintf(t->floor_why, sizeof(t->floor_why), "%s", t->floor.why);
	/* asked for by name (-e floor) or by a backend: refused; through -e all (all available,
	 * as the default) the run goes on without them and says why */
	if (t->o.floor_named || t->o.backend != MG_BE_AUTO)
		return mg_err(MG_EXIT_ENV, "trace: floor events unavailable: %s", t->floor_why);
	return MG_EXIT_OK;
}

/* Events lost so far: the tracepoint object's and the floor object's per-CPU counters. */
static uint64_t lost_total(struct trace_state *t)
{
	uint64_t lost = 0;

	mg_events_lost(&t->run.sess, &t->floor, t->run.cur.bpf, &lost);
	return lost;
}

/* New processes of COMMAND's tree that could not be followed (traced_tgids full). */
static uint64_t not_followed(struct trace_state *t)
{
	return t->follow ? __atomic_load_n(&t->follow->bss->follow_counts.not_followed,
					   __ATOMIC_RELAXED) : 0;
}

static void note_lost(struct trace_state *t)
{
	uint64_t lost = lost_total(t), nf = not_followed(t);

	if (nf > t->nf_seen) {	/* never silent: their events are missing from here on */
		if (t->o.json) {
			json_t *o = json_object();

			json_object_set_new(o, "type", json_string("not_followed"));
			json_object_set_new(o, "processes", json_integer((json_int_t)(nf - t->nf_seen)));
			json_object_set_new(o, "reason", json_string("process map full"));
			mg_json_print_line(mg_out, o);
			json_decref(o);
		} else {
			fprintf(mg_out, "not followed: %llu new processes of COMMAND (process map full, %u "
			       "entries): their events are not shown\n",
			       (unsigned long long)(nf - t->nf_seen), MG_MAX_TRACED);
		}
		t->nf_seen = nf;
	}

	if (lost <= t->lost_seen)
		return;
	if (t->o.json) {
		json_t *o = json_object();

		json_object_set_new(o, "type", json_string("lost"));
		json_object_set_new(o, "lost_events", json_integer((json_int_t)(lost - t->lost_seen)));
		mg_json_print_line(mg_out, o);
		json_decref(o);
	} else {
		fprintf(mg_out, "lost %llu events\n", (unsigned long long)(lost - t->lost_seen));
	}
	t->lost_seen = lost;
}

/*
 * The processes traced (t->procs) and the session's BPF filters in so: -p, COMMAND's
 * tree (followed) or its own tgid (--no-inherit), --path/--inode, --comm. Returns an
 * exit code.
 */
static int trace_scope(struct trace_state *t, struct mg_session_opts *so)
{
	int ret;

	if (t->o.pids.n) {
		mg_pids_scope(&t->o.pids, t->procs_buf, sizeof(t->procs_buf) - 32);
		strcat(t->procs_buf, " (forks followed in BPF)");
		t->procs = t->procs_buf;
	}
	else if (!t->o.argv || t->o.all)
		t->procs = "system-wide";
	else if (t->o.no_inherit)
		t->procs = "COMMAND's own process (--no-inherit)";
	else
		t->procs = "COMMAND and its descendants (forks followed in BPF)";
	if (t->o.cpus.given) {	/* -C: the header names the CPUs */
		char p[sizeof(t->procs_buf)];

		snprintf(p, sizeof(p), "%s", t->procs);
		snprintf(t->procs_buf, sizeof(t->procs_buf), "%.120s, on CPU%s %.60s (filtered in BPF)",
			 p, t->o.cpus.n > 1 ? "s" : "", t->o.cpus.text);
		t->procs = t->procs_buf;
	}
	if (((t->o.argv && !t->o.all && !t->o.no_inherit) || t->o.pids.n) && (ret = follow_open(t)))
		return ret;
	so->ringbuf_bytes = (unsigned int)t->o.ringbuf_bytes;
	so->event_mask = t->o.mask & ~EV_FLOOR;
	if (t->o.argv && !t->o.all && !t->o.pids.n) {
		char why[300];
		uint32_t k;

		/* --no-inherit: COMMAND's own tgid, as BPF sees it (pidns.h) */
		if (mg_pid_kernel(t->run.child, &k, NULL, why, sizeof(why))) {
			return mg_err(MG_EXIT_ENV, "trace: cannot follow COMMAND: %s", why);
		}
		so->filter_tgid = k;
	}
	so->traced_tgids_fd = t->follow ? bpf_map__fd(t->follow->maps.traced_tgids) : 0;
	so->filter_nids = (unsigned int)t->o.ids.n;
	for (int i = 0; i < t->o.ids.n; i++) {
		so->filter_devs[i] = t->o.ids.id[i].dev;
		so->filter_inos[i] = t->o.ids.id[i].ino;
	}
	memcpy(so->filter_comm, t->o.comm, sizeof(so->filter_comm));
	so->cpu_mask = t->o.cpus.given ? t->o.cpus.mask : NULL;
	return MG_EXIT_OK;
}

/* Consume events until COMMAND ends, a signal, or a failed write. Returns an exit code. */
static int trace_loop(struct trace_state *t)
{
	static const struct timespec zero = { 0, 0 };
	int err;

	for (;;) {
		/* events are submitted without wakeups below a backlog: consume on a timer too */
		err = mg_events_wait(&t->ev, 100);
		if (!err)
			err = mg_events_consume(&t->ev);
		if (err < 0) {
			return mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(-err));
		}
		note_lost(t);
		/* a closed pipe, a full disk, or output abandoned after a stop: the run ends */
		if (mg_out_failed() || mg_run_wait(&t->run, &zero))
			break;
	}
	return MG_EXIT_OK;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_state t = { 0 };
	struct mg_session_opts so = { .events = true };
	int ret, err;

	if ((ret = trace_parse_opts(&t.o, argc, argv)))
		return ret;
	if ((ret = mg_out_open("trace", t.o.argv != NULL)))
		return ret;
	if ((ret = mg_run_require_env(&t.run)))	/* before any BPF object */
		goto out;
	if (t.o.path) {		/* a path that cannot have every event: say so (pathid.h) */
		char probe[PATH_MAX];

		t.path_mg = mg_ident_multigrain(&t.o.ids, probe, sizeof(probe), t.path_mg_why,
						sizeof(t.path_mg_why));
		mg_ident_notes(&t.o.ids, t.o.path, t.path_mg, t.path_mg_why);
	}
	/* COMMAND first (held on a pipe), so that its pid can be a load-time filter. */
	mg_run_block_signals(&t.run);
	if (t.o.argv && (ret = mg_run_spawn(&t.run, t.o.argv)))
		goto out;
	if ((ret = trace_scope(&t, &so)))
		goto out;
	if (!so.event_mask)	/* floor only: keep the tracepoints quiet */
		so.event_mask = 1u << MG_EV_NR_KINDS;
	err = mg_session_open(&t.run.sess, &t.run.env, MG_BE_TRACEPOINT, &so);
	if (err) {
		ret = mg_err(MG_EXIT_ENV, "trace: tracepoints unavailable: %s",
			     t.run.sess.attempts[MG_BE_TRACEPOINT].why);
		goto out;
	}
	if ((ret = floor_open(&t)))
		goto out;
	if (mg_snap_alloc(&t.run.cur, t.run.sess.nr_cpus, false)) {
		ret = mg_err(MG_EXIT_FAIL, "out of memory");
		goto out;
	}
	if ((err = mg_events_open(&t.ev, bpf_map__fd(t.run.sess.skel->maps.events), trace_on_event, &t,
				  16384))) {
		ret = mg_err_step("ring buffer", err);
		goto out;
	}
	/* COMMAND's end seen at once, not at the next tick (trace_loop() takes the signal) */
	mg_events_wake_on_signals(&t.ev, &t.run.sigs);
	t.offset = mg_realtime_offset();	/* against the host's monotonic clock, BPF's */
	/* COMMAND runs from here (its events wait in the ring buffer for the header) */
	mg_run_release(&t.run);
	if ((ret = mg_run_exec_failed(&t.run)))	/* its one line said why; nothing else */
		goto out;
	if (!t.o.json) {
		fprintf(stderr, "mgtrace: tracing %s events (tracepoints as %s; floor events: %s%s)%s\n",
			t.o.events_given ? "selected" : "all", t.run.sess.tp_btf ? "tp_btf" : "raw_tp",
			t.floor.skel ? t.floor.probe : (t.o.mask & EV_FLOOR) ? mg_verbose ?
			"unavailable: " : "unavailable (-v: why)" : "not asked",
			t.floor.skel || !(t.o.mask & EV_FLOOR) || !mg_verbose ? "" : t.floor_why,
			t.o.argv ? "" : "; Ctrl-C to stop");
		trace_print_selection(&t);
		fprintf(mg_out, "%-18s %3s %7s %-15s %-13s %-7s %-10s %-16s %s\n", "TIME(REALTIME)", "CPU", "PID",
		       "COMM", "EVENT", "DEV", "INO", "NAME", "DETAILS");
	}
	if ((ret = trace_loop(&t)))
		goto out;
	mg_run_end_child(&t.run);	/* SIGTERM, SIGKILL after the grace (COMMAND may be blocked
					 * on a failed output, or ignore SIGTERM) */
	if ((err = mg_events_drain(&t.ev)) < 0) {
		ret = mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(-err));
		goto out;
	}
	note_lost(&t);
	trace_print_summary(&t);
	ret = mg_out_failed() ? MG_EXIT_OUTPUT : t.o.argv ? t.run.child_status : MG_EXIT_OK;
out:
	mg_events_close(&t.ev);
	mg_floor_close(&t.floor);
	mg_run_cleanup(&t.run);
	mg_follow_close(t.follow);
	if (mg_run_refused(&t.run, ret))
		mg_out_error("trace", ret);
	if (mg_out_close() && !ret)
		ret = MG_EXIT_OUTPUT;
	return ret;
}
