// SPDX-License-Identifier: GPL-2.0
/*
 * judge_inject.c - the MGTRACE_TEST_INJECT hook (see judge.h, mg_judge_inject()): a
 * synthetic stream with a regression beyond every window, through BPF_PROG_TEST_RUN of
 * bpf/judgetest.bpf.c where check judges in BPF, else through the user-space checker.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "judge.h"
#include "mgtrace.skel.h"
#include "judgetest.skel.h"
#include "util.h"

#define INJECT_EVENTS 7

/*
 * The synthetic events of made-up inode ino, 0.25 s apart: a swap to
 * 2000.000000400; a getattr of it after a lock's holder closed the quiet word
 * (the race mg_judge() checks again under the lock: judged there, without its
 * context); a getattr of it again (quiet); a swap to 2000.000000500; a getattr
 * of it (marks the quiet word without the lock); a getattr of it again (quiet:
 * the mark held); then, 2 s after that swap, a swap to 1999.000000500: a
 * regression beyond every window. want[] (enum mg_judge_path) is the path each
 * must take in BPF, so the injected regression is found after every lazy path ran.
 */
static const unsigned int inject_want[INJECT_EVENTS] = {
	MG_JPATH_CONTEXT, MG_JPATH_NO_CONTEXT, MG_JPATH_QUIET, MG_JPATH_CONTEXT,
	MG_JPATH_MARKED, MG_JPATH_QUIET, MG_JPATH_CONTEXT,
};

static void inject_events(struct mg_judge_test_ctx ev[INJECT_EVENTS], uint64_t ino, uint64_t t0)
{
	static const long long sec[INJECT_EVENTS] = { 2000, 2000, 2000, 2000, 2000, 2000, 1999 };
	static const unsigned int nsec[INJECT_EVENTS] = { 400, 400, 400, 500, 500, 500, 500 };
	static const unsigned int kind[INJECT_EVENTS] = {
		MG_EV_CTIME_SWAP, MG_EV_STAT, MG_EV_STAT, MG_EV_CTIME_SWAP, MG_EV_STAT, MG_EV_STAT,
		MG_EV_CTIME_SWAP,
	};
	int i;

	memset(ev, 0, INJECT_EVENTS * sizeof(*ev));
	for (i = 0; i < INJECT_EVENTS; i++) {
		ev[i].key = (struct mg_inode_key){ .ino = ino, .dev = 0, .gen = 0 };
		strcpy(ev[i].name, "mgtrace-injected");
		ev[i].in.o = (struct mg_robs){ .sec = sec[i], .nsec = nsec[i], .kind = kind[i],
					       .t_ns = t0 + (uint64_t)i * 250000000ull,
					       .pid = (uint32_t)getpid() };
		if (i == INJECT_EVENTS - 1)
			ev[i].in.o.t_ns = ev[3].in.o.t_ns + 2000000000ull;
		strcpy(ev[i].in.o.comm, "mgtrace-inject");
		ev[i].in.time_gran = 1;
		/* every swap replacing 100: none is a reordered swap */
		if (kind[i] == MG_EV_CTIME_SWAP)
			ev[i].in.cur_nsec = ev[i].in.old_nsec = 100;
	}
	ev[1].close = 1;
}

/* Run bpf/judgetest.bpf.c once per event, on the session's maps. */
static int inject_bpf(struct mgtrace_bpf *skel, int n, uint64_t t0, char *why, size_t len)
{
	struct judgetest_bpf *t = judgetest_bpf__open();
	struct mg_judge_test_ctx ev[INJECT_EVENTS];
	int err, i, k;

	if (!t) {
		snprintf(why, len, "judgetest.bpf.c: open: %s", strerror(errno));
		return -errno;
	}
	if ((err = bpf_map__reuse_fd(t->maps.inodes, bpf_map__fd(skel->maps.inodes))) ||
	    (err = bpf_map__reuse_fd(t->maps.judge_counts, bpf_map__fd(skel->maps.judge_counts))) ||
	    (err = bpf_map__reuse_fd(t->maps.events, bpf_map__fd(skel->maps.events))) ||
	    (err = bpf_map__reuse_fd(t->maps.judge_ctx, bpf_map__fd(skel->maps.judge_ctx))) ||
	    (err = bpf_map__reuse_fd(t->maps.judge_held, bpf_map__fd(skel->maps.judge_held))) ||
	    (err = judgetest_bpf__load(t))) {
		snprintf(why, len, "judgetest.bpf.c: load: %s", strerror(-err));
		goto out;
	}
	for (k = 1; k <= n; k++) {
		inject_events(ev, (uint64_t)k, t0);
		for (i = 0; i < INJECT_EVENTS; i++) {
			LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &ev[i], .ctx_size_in = sizeof(ev[i]));

			if (bpf_prog_test_run_opts(bpf_program__fd(t->progs.judge_test), &o)) {
				err = -errno;
				snprintf(why, len, "BPF_PROG_TEST_RUN: %s", strerror(errno));
				goto out;
			}
			if (o.retval != inject_want[i]) {
				err = -EIO;
				snprintf(why, len, "judgetest.bpf.c: event %d of injected inode %d took "
					 "path %u (enum mg_judge_path), expected %u", i + 1, k,
					 o.retval, inject_want[i]);
				goto out;
			}
		}
	}
out:
	judgetest_bpf__destroy(t);
	return err;
}

int mg_judge_inject(struct mg_judge *j, struct mgtrace_bpf *skel, struct mg_checker *c, int n,
		    char *why, size_t len)
{
	const uint64_t S = 1000000000ull;
	uint64_t now = mg_now_ns(), t0 = now > 3 * S ? now - 3 * S : 0;
	struct mg_judge_test_ctx ev[INJECT_EVENTS];
	struct mg_event e;
	int i, k;

	if (j->active)
		return inject_bpf(skel, n, t0, why, len);
	for (k = 1; k <= n; k++) {
		inject_events(ev, (uint64_t)k, t0);
		for (i = 0; i < INJECT_EVENTS; i++) {
			e = (struct mg_event){ .ts_ns = ev[i].in.o.t_ns, .ino = (uint64_t)k,
					       .ctime_sec = ev[i].in.o.sec,
					       .ctime_nsec = ev[i].in.o.nsec,
					       .old_nsec = ev[i].in.old_nsec,
					       .cur_nsec = ev[i].in.cur_nsec, .pid = ev[i].in.o.pid,
					       .tgid = ev[i].in.o.pid, .kind = ev[i].in.o.kind,
					       .time_gran = 1 };
			strcpy(e.comm, ev[i].in.o.comm);
			strcpy(e.name, ev[i].name);
			e.name_len = strlen(e.name);
			mg_checker_event(c, &e);
		}
	}
	return 0;
}
