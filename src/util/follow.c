// SPDX-License-Identifier: GPL-2.0
/* follow.c - a process tree followed in BPF (see follow.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mgtrace.h"
#include "cpulist.h"
#include "follow.h"
#include "kenv.h"
#include "loadlog.h"
#include "pidns.h"
#include "follow.skel.h"

/* Descendants found by the /proc scan, per skeleton (a process has one follow set). */
static uint64_t found_at_start;

/* Insert pid, then its children (after the insert: a later fork is followed in BPF). */
static int add_tree(struct follow_bpf *f, __u32 pid, __u32 parent, int depth)
{
	char path[64], buf[4096];
	struct dirent *d;
	char why[256];
	DIR *dir;
	__u32 kpid;
	int err;

	/* the map holds the kernel's ids (a PID namespace's pid is turned into it) */
	if (mg_pid_kernel((pid_t)pid, &kpid, NULL, why, sizeof(why)))
		return 0;	/* exited meanwhile, or (reported at the root) untranslatable */
	err = bpf_map__update_elem(f->maps.traced_tgids, &kpid, sizeof(kpid), &parent,
				   sizeof(parent), BPF_ANY);
	if (err || depth > 64)
		return err;
	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;	/* exited meanwhile */
	while ((d = readdir(dir))) {
		FILE *c;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%u/task/%.16s/children", pid, d->d_name);
		c = fopen(path, "re");
		if (!c)
			continue;
		if (fgets(buf, sizeof(buf), c)) {
			char *save = NULL;

			for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
				/* mgtrace itself (-p $$ from its shell): its own writes and
				 * stats are not the tree's, and its output would feed back */
				if ((pid_t)strtoul(t, NULL, 10) == getpid())
					continue;
				found_at_start++;
				if ((err = add_tree(f, (__u32)strtoul(t, NULL, 10), kpid, depth + 1)))
					break;
			}
		}
		fclose(c);
		if (err)
			break;
	}
	closedir(dir);
	return err;
}

struct follow_bpf *mg_follow_open(const struct mg_kenv *env, pid_t root, bool existing,
				  char *why, size_t len)
{
	uint32_t r = (uint32_t)root;

	return mg_follow_open_pids(env, &r, 1, existing, why, len);
}

/* Put each root in the map (the kernel's id, mgtrace's pid as parent), then with
 * existing the descendants each has now. Returns 0 or -errno (libbpf's). */
static int add_roots(struct follow_bpf *f, const __u32 *kroots, const uint32_t *roots,
		     unsigned int n, __u32 parent, bool existing)
{
	int err = 0;

	for (unsigned int i = 0; i < n && !err; i++)
		err = bpf_map__update_elem(f->maps.traced_tgids, &kroots[i], sizeof(kroots[i]),
					   &parent, sizeof(parent), BPF_ANY);
	for (unsigned int i = 0; i < n && !err && existing; i++)
		err = add_tree(f, roots[i], parent, 0);
	return err;
}

/*
 * Open, load and attach follow_bpf with its tp_btf programs (btf) or its raw_tp ones,
 * the roots put in its map (add_roots()). Returns it, or NULL with why the load or the
 * attach failed in w.
 */
static struct follow_bpf *follow_try(const struct mg_task_layout *tl, bool btf,
				     const __u32 *kroots, const uint32_t *roots, unsigned int n,
				     __u32 kparent, bool existing, char *w, size_t wlen)
{
	struct follow_bpf *f = follow_bpf__open();
	int err;

	mg_libbpf_log_reset();
	if (!f) {
		snprintf(w, wlen, "open: %s", strerror(errno));
		return NULL;
	}
	f->rodata->task_tgid_off = tl->tgid;
	f->rodata->task_signal_off = tl->signal;
	f->rodata->signal_live_off = tl->live;
	bpf_program__set_autoload(f->progs.tpb_follow_fork, btf);
	bpf_program__set_autoload(f->progs.tpb_follow_exit, btf);
	bpf_program__set_autoload(f->progs.rtp_follow_fork, !btf);
	bpf_program__set_autoload(f->progs.rtp_follow_exit, !btf);
	err = follow_bpf__load(f);
	/* the roots before the programs attach, their descendants after: a fork
	 * between the two is seen either way */
	if (!err)
		err = add_roots(f, kroots, roots, n, kparent, false);
	if (!err)
		err = follow_bpf__attach(f);
	if (!err && existing)
		err = add_roots(f, kroots, roots, n, kparent, true);
	if (!err)
		return f;
	if (err < 0)
		mg_libbpf_cause(err, "load", false, w, wlen);
	else
		snprintf(w, wlen, "%s", strerror(EINVAL));
	follow_bpf__destroy(f);
	return NULL;
}

struct follow_bpf *mg_follow_open_pids(const struct mg_kenv *env, const uint32_t *roots,
				       unsigned int n, bool existing, char *why, size_t len)
{
	__u32 kroots[MG_PIDS_MAX], kparent;
	const struct mg_task_layout *tl = &env->iface.task;
	struct follow_bpf *f;
	char w[2][200];
	bool btf;
	int i;

	found_at_start = 0;
	if (!n || n > sizeof(kroots) / sizeof(kroots[0])) {
		snprintf(why, len, "%u processes to follow (1 to %zu)", n,
			 sizeof(kroots) / sizeof(kroots[0]));
		return NULL;
	}
	if (!tl->known) {	/* what the programs read of a task is found there */
		snprintf(why, len, env->btf ? "the kernel BTF has no task_struct.tgid, "
			 "task_struct.signal or signal_struct.live" : "no kernel BTF "
			 "(/sys/kernel/btf/vmlinux) to find task_struct.tgid in");
		return NULL;
	}
	/* BPF sees the kernel's ids: in a PID namespace of its own, mgtrace's are turned into them */
	for (unsigned int k = 0; k < n; k++)
		if (mg_pid_kernel((pid_t)roots[k], &kroots[k], NULL, why, len))
			return NULL;
	if (mg_pid_kernel(getpid(), &kparent, NULL, why, len))
		return NULL;
	/*
	 * raw_tp first where BPF may read kernel memory: libbpf loads it without a parse
	 * of the kernel BTF of its own (about 40 ms on 6.18, check's start); tp_btf, whose
	 * direct loads lockdown=confidentiality allows, first under that lockdown.
	 */
	for (i = 0; i < 2; i++) {
		btf = MG_NO_KERNEL_READS(env) ? i == 0 : i == 1;
		f = follow_try(tl, btf, kroots, roots, n, kparent, existing, w[btf], sizeof(w[btf]));
		if (f)
			return f;
	}
	snprintf(why, len, "sched_process_fork/exit as tp_btf: %s, as raw_tp: %s", w[1], w[0]);
	return NULL;
}

int mg_follow_fd(struct follow_bpf *f)
{
	return f ? bpf_map__fd(f->maps.traced_tgids) : 0;
}

uint64_t mg_follow_followed(const struct follow_bpf *f)
{
	return f ? __atomic_load_n(&f->bss->follow_counts.followed, __ATOMIC_RELAXED) : 0;
}

uint64_t mg_follow_not_followed(const struct follow_bpf *f)
{
	return f ? __atomic_load_n(&f->bss->follow_counts.not_followed, __ATOMIC_RELAXED) : 0;
}

bool mg_follow_alive(void *arg)
{
	struct follow_bpf *f = arg;
	__u32 key;

	if (!f || mg_follow_not_followed(f))
		return true;
	return !bpf_map_get_next_key(bpf_map__fd(f->maps.traced_tgids), NULL, &key);
}

uint64_t mg_follow_live(const struct follow_bpf *f)
{
	__u32 key, next;
	uint64_t n = 0;
	int fd = f ? bpf_map__fd(f->maps.traced_tgids) : -1;

	if (fd < 0 || bpf_map_get_next_key(fd, NULL, &key))
		return 0;
	/* at most the map's entries: a key deleted while we walk restarts the walk (the
	 * kernel's get_next_key of a missing key returns the first), so bound the steps */
	for (n = 1; n < 4 * MG_MAX_TRACED && !bpf_map_get_next_key(fd, &key, &next); n++)
		key = next;
	return n < MG_MAX_TRACED ? n : MG_MAX_TRACED;
}

uint64_t mg_follow_found(const struct follow_bpf *f)
{
	return f ? found_at_start : 0;
}

void mg_follow_close(struct follow_bpf *f)
{
	follow_bpf__destroy(f);
}
