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
 * -e LIST (vocab.h mg_events_parse) into *mask: 1 << kind for the tracepoint kinds,
 * EV_FLOOR for the floor object (its three kinds). Returns 0 or MG_EXIT_USAGE.
 */
static int parse_events(const char *s, unsigned int *mask)
{
	unsigned int k;
	int err = mg_events_parse("trace", s, MG_KINDS_ALL, &k);

	if (err)
		return err;
	*mask = (k & MG_KINDS_TP) | (k & MG_KINDS_FLOOR ? EV_FLOOR : 0);
	return 0;
}

static const char *trace_event_words(void)
{
	return mg_events_names(MG_KINDS_ALL);
}

/*
 * -e's help, from the table (include/mg_vocab.def): the tracepoint kinds, then the
 * floor kinds as the one group they are selected in.
 */
static const char *trace_events_help(void)
{
	static char buf[800];
	char text[800];
	size_t len = (size_t)snprintf(text, sizeof(text), "comma list of ");
	const char *sep = "";

	for (unsigned int k = 0; k < MG_EV_NR_KINDS && len < sizeof(text); k++)
		if (MG_KINDS_TP & 1u << k)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s, ",
						mg_event_kind_name(k));
	if (len < sizeof(text))
		len += (size_t)snprintf(text + len, sizeof(text) - len, "floor (");
	for (unsigned int k = 0; k < MG_EV_NR_KINDS && len < sizeof(text); k++)
		if (MG_KINDS_FLOOR & 1u << k) {
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", sep,
						mg_event_kind_name(k));
			sep = ", ";
		}
	if (len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, "), ctime (swap and skip), "
			 "timestamp:TRACEPOINT with globs (timestamp:*), all (default: all available)");
	return mg_opt_wrap(buf, sizeof(buf), text);
}

enum { O_COMM = MG_OPTID_FIRST_CMD, O_INODE, O_PATH };

/* Where a stored option goes in struct trace_opts */
#define AT(field) MG_OPT_AT(struct trace_opts, field)

static const struct mg_opt trace_opts[] = {
	{ .val = 'a', .lname = "all", .help = "system-wide, also with COMMAND" },
	{ .val = 'a', .lname = "all-cpus" },	/* an alias, as stat and top spell it */
	{ .val = 'p', .lname = "pid", .arg = "PID",
	  .help = "only PID and its descendants (those it has now and later\n"
	  "forks); a list: 1,2, as perf", .kind = MG_OV_PID },
	MG_OPT_CPUS("only events on these CPUs (perf's list: 0,2-3), filtered in BPF"),
	{ .val = O_COMM, .lname = "comm", .arg = "NAME",
	  .help = "only tasks with this comm", .kind = MG_OV_COMM },
	{ .val = O_PATH, .lname = "path", .arg = "FILE",
	  .help = "only this file: the inode the kernel's events name (device from\n"
	  "/proc/self/mountinfo) and, on overlayfs, its real inode", .kind = MG_OV_FILE },
	{ .val = O_INODE, .lname = "inode", .arg = "M:m:INO",
	  .help = "only this inode (device major:minor, inode number)" },
	{ .val = 'e', .lname = "events", .arg = "LIST",
	  .help_fn = trace_events_help, .kind = MG_OV_LIST, .words_fn = trace_event_words },
	MG_OPT_BACKEND("auto fentry kprobe", "floor events: auto (fentry, then kprobe), fentry or kprobe"),
	MG_OPTS_COMMON("one JSON object per event, then a summary object",
		       "events to FILE (default: stdout; stderr with COMMAND, as perf)",
		       "libbpf's messages too"),
	{ .val = MG_OPT_AUTO, .lname = "no-inherit", .store = MG_OS_FLAG, .at = AT(no_inherit),
	  .help = "with COMMAND: only COMMAND's own process, not its children" },
	MG_OPT_RINGBUF("ring buffer bytes, a power of 2 >= 4096 (default 16777216)"),
	{ 0 }
};

const struct mg_cmd_opts trace_cmdopts = {
	.name = "trace",
	.synopsis = "[-a | -p PID[,PID...]] [-C CPUS] [--comm NAME] [--path FILE | --inode MAJ:MIN:INO]\n"
		    "[-e LIST] [-b B] [-j] [-o FILE] [-v]\n"
		    "[--no-inherit] [-- COMMAND [ARGS...]]",
	.about = "Stream multigrain events in order: floor swaps and lost floor cmpxchgs (function-probe\n"
		 "backends), ctime swaps (old/new, QUERIED decoded), ctime skips, stat queries and\n"
		 "explicit ctime sets, each with time, CPU, pid, comm, dev:ino and file name.\n"
		 "TIME is CLOCK_REALTIME: the event's CLOCK_MONOTONIC stamp plus the offset between\n"
		 "the two clocks when tracing began (JSON also gives the raw CLOCK_MONOTONIC ns);\n"
		 "both the host's, also in a time namespace.\n"
		 "Scope: system-wide without COMMAND; with COMMAND, COMMAND and its descendants.\n",
	.opts = trace_opts,
	.after = "Filters run in BPF. Lost events are printed where they are noticed (\"lost N events\")\n"
		 "and counted in the summary. Processes are followed across forks in BPF (one hash\n"
		 "lookup per event). With COMMAND, mgtrace exits with COMMAND's status.\n",
	.command = true,
};

/*
 * One of trace's options the table does not store (c, its value arg) into o: the scope,
 * -C, --comm, --path, --inode, -e, -b and --ringbuf-size. Returns 0 or an exit code
 * (printed).
 */
static int trace_opt(void *base, int c, const char *arg)
{
	struct trace_opts *o = base;
	unsigned int maj, min;
	unsigned long long ino;
	char extra, why[320];
	int e;

	if ((e = mg_opt_scope("trace", c, arg, &o->pids, &o->all, NULL)))
		return e < 0 ? -e : 0;
	switch (c) {
	case 'C':
		return mg_opt_cpus("trace", arg, &o->cpus) ? MG_EXIT_USAGE : 0;
	case O_COMM:
		if (!*arg || strlen(arg) > 15)
			return mg_err(MG_EXIT_USAGE, "trace: invalid comm '%s' (1 to 15 characters)",
				      arg);
		strcpy(o->comm, arg);
		return 0;
	case O_PATH:
		if (mg_ident_resolve(arg, &o->ids, why, sizeof(why)))
			return mg_err(MG_EXIT_USAGE, "trace: %s", why);
		o->path = arg;
		return 0;
	case O_INODE:
		if (sscanf(arg, "%u:%u:%llu%c", &maj, &min, &ino, &extra) != 3 ||
		    maj >= 4096 || min >= (1u << 20) || !ino)
			return mg_err(MG_EXIT_USAGE, "trace: invalid inode '%s' (MAJ:MIN:INO)", arg);
		memset(&o->ids, 0, sizeof(o->ids));
		o->ids.n = 1;
		o->ids.id[0].dev = mg_kdev(maj, min);
		o->ids.id[0].ino = ino;
		snprintf(o->ids.id[0].role, sizeof(o->ids.id[0].role), "inode");
		snprintf(o->ids.id[0].why, sizeof(o->ids.id[0].why), "--inode");
		o->inode_given = true;
		return 0;
	case 'e':
		if (parse_events(arg, &o->mask))
			return MG_EXIT_USAGE;
		o->events_given = true;
		return 0;
	case 'b':
		return mg_opt_backend("trace", arg, 0, &o->backend) ? MG_EXIT_USAGE : 0;
	case MG_OPTID_RINGBUF:
		return mg_opt_ringbuf("trace", arg, &o->ringbuf_bytes) ? MG_EXIT_USAGE : 0;
	}
	return 0;
}

static int parse_opts(struct trace_opts *o, int argc, char **argv)
{
	struct mg_opt_parser p;
	int e;

	o->mask = ~0u;
	o->ringbuf_bytes = MG_RINGBUF_DEFAULT;
	mg_opt_begin(&p, &trace_cmdopts, argc, argv);
	if ((e = mg_opt_parse(&p, o, trace_opt)))
		return e;
	o->json = mg_json_output;
	if (o->path && o->inode_given)
		return mg_err(MG_EXIT_USAGE, "trace: --path and --inode exclude each other");
	if ((e = mg_opt_command("trace", argc, argv, &o->argv)))
		return e;
	if (o->no_inherit && (!o->argv || o->all || o->pids.n))
		return mg_err(MG_EXIT_USAGE, "trace: --no-inherit needs COMMAND, without --all or --pid");
	if ((e = mg_opt_scope_check("trace", &o->pids, o->all, NULL, o->argv != NULL)))
		return e;
	/* the kernel's events carry the superblock's s_dev; stat(1) of a file in a btrfs
	 * subvolume gives the subvolume's anonymous device, which no event carries */
	if (o->inode_given) {
		char mnt[64];

		if (mg_kdev_mount(o->ids.id[0].dev, mnt, sizeof(mnt)) == -ENOENT)
			fprintf(stderr, "mgtrace: trace: note: no mounted filesystem has device %s "
				"(/proc/self/mountinfo), so no event may match; a file in a btrfs "
				"subvolume shows another device to stat(1) than its filesystem's: "
				"use --path\n", mg_kdev_str(o->ids.id[0].dev, mnt));
	}
	return MG_EXIT_OK;
}

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
	if (t->o.events_given || t->o.backend != MG_BE_AUTO)
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

	if ((ret = parse_opts(&t.o, argc, argv)))
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
		ret = mg_err(MG_EXIT_FAIL, "ring buffer: %s", strerror(-err));
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
