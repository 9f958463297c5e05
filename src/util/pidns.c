// SPDX-License-Identifier: GPL-2.0
/* pidns.c - process ids across PID namespaces (see pidns.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mgtrace.h"
#include "pidns.h"
#include "pidns.skel.h"

int mg_pidns_self(uint64_t *dev, uint64_t *ino)
{
	static int known = 2;
	static uint64_t d, i;
	struct stat st;

	if (known == 2) {
		if (stat("/proc/self/ns/pid", &st)) {
			known = -errno;
		} else {
			/* the kernel compares against new_encode_dev() of the nsfs device */
			d = ((uint64_t)major(st.st_dev) << 20) | minor(st.st_dev);
			i = st.st_ino;
			known = i != MG_PIDNS_INIT_INO;
		}
	}
	if (dev)
		*dev = d;
	if (ino)
		*ino = i;
	return known;
}

int mg_pid_kernel(pid_t vpid, uint32_t *tgid, uint32_t *tid, char *why, size_t len)
{
	struct mg_pid_xlate x = { .vpid = (uint32_t)vpid };
	/* a syscall program's context is copied back into ctx_in (no ctx_out) */
	LIBBPF_OPTS(bpf_test_run_opts, run, .ctx_in = &x, .ctx_size_in = sizeof(x));
	/* loaded once and kept: a /proc scan of a tree translates every child (never attached) */
	static struct pidns_bpf *s;
	int err;

	if (mg_pidns_self(NULL, NULL) <= 0) {
		if (tgid)
			*tgid = (uint32_t)vpid;
		if (tid)
			*tid = (uint32_t)vpid;
		return 0;
	}
	if (!s)
		s = pidns_bpf__open_and_load();
	if (!s) {
		err = -errno;
		snprintf(why, len, "mgtrace runs in a PID namespace of its own and cannot turn its "
			 "pids into the kernel's: bpf/pidns.bpf.c (kfunc bpf_task_from_vpid, 6.13+) "
			 "did not load: %s", strerror(-err));
		return err;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(s->progs.pid_xlate), &run);
	if (err) {
		err = -errno;
		snprintf(why, len, "pid %d: the PID namespace translation failed: %s", (int)vpid,
			 strerror(-err));
		return err;
	}
	if (!x.tgid) {
		snprintf(why, len, "pid %d: no such process in mgtrace's PID namespace", (int)vpid);
		return -ESRCH;
	}
	if (tgid)
		*tgid = x.tgid;
	if (tid)
		*tid = x.tid;
	return 0;
}
