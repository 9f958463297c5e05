// SPDX-License-Identifier: GPL-2.0
/* parload.c - a session's tp_btf programs verified on two CPUs at once (see parload.h). */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <bpf/libbpf.h>
#include "backend_types.h"
#include "kenv.h"
#include "mgtrace.skel.h"
#include "parload.h"

/* Descriptors open now (/proc/self/fd), or -1 when it cannot be read. */
static int fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own */
}

/*
 * Whether RLIMIT_NOFILE leaves room for the clones: each holds a copy of every map's
 * descriptor and its programs', and after them the run still opens its links, ring
 * buffer, epoll and signal descriptors, the workload's pipes and report files (about
 * 40 more in a check run on 6.18, counted with ls /proc/PID/fd). Without the room the
 * load is made as before, in one thread: an EMFILE then comes from the same place.
 */
static bool fd_room(const struct mgtrace_bpf *main, int nprogs)
{
	struct rlimit rl;
	struct bpf_map *m;
	int maps = 0, open = fds_open();

	if (open < 0 || getrlimit(RLIMIT_NOFILE, &rl))
		return false;
	bpf_object__for_each_map(m, main->obj)
		maps++;
	return rl.rlim_cur == RLIM_INFINITY ||
	       (rlim_t)open + MG_PARLOAD_CLONES * (maps + 2) + nprogs + 64 <= rl.rlim_cur;
}

/* Open pl's clone c with only its programs to load. */
static int clone_open(struct mg_parload *pl, struct mg_parload_clone *c)
{
	struct bpf_program *prog;
	int i;

	if (!(c->skel = pl->open()))
		return -errno;
	bpf_object__for_each_program(prog, c->skel->obj)
		bpf_program__set_autoload(prog, false);
	for (i = 0; i < c->n; i++)
		bpf_program__set_autoload(MG_SKEL_PROG(c->skel, c->offs[i]), true);
	return 0;
}

/* Load clone c (opened) on main's maps: each map of c reuses main's descriptor. */
static int clone_load(struct mg_parload *pl, struct mg_parload_clone *c)
{
	struct bpf_map *m, *mm;
	int err;

	bpf_object__for_each_map(m, c->skel->obj) {
		mm = bpf_object__find_map_by_name(pl->main->obj, bpf_map__name(m));
		if (!mm || bpf_map__fd(mm) < 0)
			err = bpf_map__set_autocreate(m, false);
		else
			err = bpf_map__reuse_fd(m, bpf_map__fd(mm));
		if (err)
			return err;
	}
	return bpf_object__load(c->skel->obj);
}

/* The helper: open c[1] while main loads, then load it once main's maps exist. */
static void *helper(void *arg)
{
	struct mg_parload *pl = arg;
	struct mg_parload_clone *c = &pl->c[1];

	c->err = clone_open(pl, c);
	while (sem_wait(&pl->go) && errno == EINTR)
		;
	if (!c->err && !pl->main_failed)
		c->err = clone_load(pl, c);
	return NULL;
}

/*
 * The offset of main's program prog in its skeleton (MG_SKEL_PROG_OFF(): a clone's program
 * of the same name is found at it), or -1 when the skeleton has no such program.
 */
static ptrdiff_t prog_off(const struct mgtrace_bpf *main, const struct bpf_program *prog)
{
	int i;

	for (i = 0; i < main->skeleton->prog_cnt; i++)
		if (*main->skeleton->progs[i].prog == prog)
			return (char *)main->skeleton->progs[i].prog - (char *)main;
	return -1;
}

/* A tp_btf program (BPF_PROG_TYPE_TRACING attached as a raw tracepoint). */
static bool is_tp_btf(const struct bpf_program *prog)
{
	return bpf_program__type(prog) == BPF_PROG_TYPE_TRACING &&
	       bpf_program__expected_attach_type(prog) == BPF_TRACE_RAW_TP;
}

/* CPUs this thread may run on. */
static int cpus_allowed(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
}

bool mg_parload_start(struct mg_parload *pl, struct mgtrace_bpf *main,
		      struct mgtrace_bpf *(*open)(void))
{
	size_t offs[MG_PARLOAD_MAX];
	struct bpf_program *prog;
	int n = 0, ntp = 0, i, k;

	memset(pl, 0, sizeof(*pl));
	pl->main = main;
	pl->open = open;
	bpf_object__for_each_program(prog, main->obj) {
		if (!bpf_program__autoload(prog) || (!is_tp_btf(prog) &&
		    bpf_program__type(prog) != BPF_PROG_TYPE_SYSCALL))
			continue;
		if (n == MG_PARLOAD_MAX || prog_off(main, prog) < 0)
			return false;
		ntp += is_tp_btf(prog);
		offs[n++] = (size_t)prog_off(main, prog);
	}
	if (ntp < 2 || cpus_allowed() < 2 || !fd_room(main, n))
		return false;
	/*
	 * The tp_btf programs alternate, c[0] first (the judging programs cost about the
	 * same, 20-25 ms each on 6.18); the syscall programs (the inode GC's, about 6 ms) go
	 * to c[1], which has as many or one fewer and whose helper opened it while main
	 * loaded. main then creates the maps only, so the clones begin once they exist.
	 */
	for (i = 0, k = 0; i < n; i++) {
		struct mg_parload_clone *c = &pl->c[1];

		if (is_tp_btf(MG_SKEL_PROG(main, offs[i])))
			c = &pl->c[k++ % 2];
		c->offs[c->n++] = offs[i];
	}
	if (sem_init(&pl->go, 0, 0))
		return false;
	if (pthread_create(&pl->helper, NULL, helper, pl)) {
		sem_destroy(&pl->go);
		memset(pl, 0, sizeof(*pl));
		return false;
	}
	for (i = 0; i < n; i++)
		bpf_program__set_autoload(MG_SKEL_PROG(main, offs[i]), false);
	/* one parse of the kernel BTF for main's load and both clones' */
	mg_vmlinux_btf_lend_begin();
	pl->on = true;
	return true;
}

int mg_parload_finish(struct mg_parload *pl, int main_err)
{
	struct mg_parload_clone *c = &pl->c[0];

	if (!pl->on)
		return main_err;
	pl->main_failed = main_err != 0;
	sem_post(&pl->go);
	if (!main_err) {
		c->err = clone_open(pl, c);
		if (!c->err)
			c->err = clone_load(pl, c);
	}
	pthread_join(pl->helper, NULL);
	sem_destroy(&pl->go);
	mg_vmlinux_btf_lend_end();
	return main_err ? main_err : c->err ? c->err : pl->c[1].err;
}

int mg_parload_attach(struct mg_parload *pl)
{
	struct bpf_object_skeleton *s;
	struct bpf_program *prog;
	struct bpf_link **slot;
	int k, i, j;

	if (!pl->on)
		return 0;
	s = pl->main->skeleton;
	for (k = 0; k < MG_PARLOAD_CLONES; k++) {
		for (i = 0; i < pl->c[k].n; i++) {
			prog = MG_SKEL_PROG(pl->c[k].skel, pl->c[k].offs[i]);
			if (!is_tp_btf(prog))
				continue;	/* a syscall program: run, never attached */
			/* main's slot of the program at the same offset */
			for (j = 0, slot = NULL; j < s->prog_cnt; j++)
				if ((char *)s->progs[j].prog - (char *)pl->main == (ptrdiff_t)pl->c[k].offs[i])
					slot = s->progs[j].link;
			if (!slot)
				return -ENOENT;
			*slot = bpf_program__attach(prog);
			if (!*slot) {
				int err = -errno;

				*slot = NULL;
				return err;
			}
		}
	}
	return 0;
}

int mg_parload_prog_fd(const struct mg_parload *pl, const struct mgtrace_bpf *main,
		       const struct bpf_program *prog)
{
	ptrdiff_t off = prog_off(main, prog);
	int fd = bpf_program__fd(prog), k, i;

	if (fd >= 0 || !pl->on)
		return fd;
	for (k = 0; off >= 0 && k < MG_PARLOAD_CLONES; k++)
		for (i = 0; pl->c[k].skel && i < pl->c[k].n; i++)
			if (pl->c[k].offs[i] == (size_t)off)
				return bpf_program__fd(MG_SKEL_PROG(pl->c[k].skel, (size_t)off));
	return -ENOENT;
}

int mg_parload_objs(const struct mg_parload *pl, struct bpf_object **objs)
{
	int k, n = 0;

	for (k = 0; pl->on && k < MG_PARLOAD_CLONES; k++)
		if (pl->c[k].skel)
			objs[n++] = pl->c[k].skel->obj;
	return n;
}

void mg_parload_close(struct mg_parload *pl)
{
	int k;

	for (k = 0; pl->on && k < MG_PARLOAD_CLONES; k++)
		mgtrace_bpf__destroy(pl->c[k].skel);
	memset(pl, 0, sizeof(*pl));
}
