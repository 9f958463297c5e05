// SPDX-License-Identifier: GPL-2.0
/*
 * kcounters.c - read the kernel's per-CPU multigrain counters on demand.
 *
 * Two readers, tried in this order (the first needs no /proc/kallsyms read and no
 * second parse of the kernel BTF: it starts in a few ms):
 *  2. bpf/pcpu.bpf.c: the counters' offsets in .data..percpu from BTF, added to
 *     each CPU's per-CPU base (found from this CPU's runqueue and the per-CPU
 *     copies of a map value). Before it is trusted, and at every read, its
 *     per-CPU sums must lie between two debugfs readings taken around it
 *     (mg_kpc_check(); the counters only grow, so a right reading always does,
 *     however fast they grow; mg_run_snap() checks each snapshot). Where debugfs
 *     is absent it is validated once at the start instead, against the tracepoint
 *     counts of a known workload on one CPU (pcpu_selftest());
 *  1. bpf/kcounters.bpf.c: typed per-CPU ksyms and bpf_per_cpu_ptr() (needs
 *     CONFIG_KALLSYMS_ALL), where the first cannot load or its reading is rejected.
 * (The numbers name the readers as before: 1 the ksym reader, 2 the BTF-offset one.)
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "backend.h"
#include "counters.h"
#include "kcounters.h"
#include "kcounters.skel.h"
#include "kenv.h"
#include "pcpu.skel.h"
#include "testhook.h"
#include "util.h"

struct mg_kreader {
	struct kcounters_bpf *ksym;	/* reader 1, or NULL */
	struct pcpu_bpf *pcpu;		/* reader 2, or NULL */
	int nr_cpus;
	bool selftested;		/* reader 2 validated at start (no debugfs), not per reading */
	char method[160];		/* mg_kreader_method() of a self-tested reader 2 */
};

static int run_prog(struct bpf_program *p)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	return bpf_prog_test_run_opts(bpf_program__fd(p), &opts) ? -errno : 0;
}

/* Byte offset of member name in type id (mg_btf_find_member()), or -1. */
static long member_off(const struct btf *btf, int id, const char *name)
{
	long off;

	mg_btf_find_member(btf, id, name, &off);
	return off;
}

/* Member offsets bpf/pcpu.bpf.c follows: task_struct.se.cfs_rq, cfs_rq.rq, rq.cpu. */
struct pcpu_layout {
	uint64_t task_cfs_rq, cfs_rq_rq, rq_cpu;
};

static int struct_id(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
}

/* Fill *l from the kernel BTF. Returns 0, -ENOENT, or -EOPNOTSUPP (no cfs_rq->rq). */
static int pcpu_layout(const struct btf *btf, struct pcpu_layout *l)
{
	int task = struct_id(btf, "task_struct"), cfs = struct_id(btf, "cfs_rq");
	int rq = struct_id(btf, "rq"), se;
	long se_off, a, b, c;

	if (task <= 0 || cfs <= 0 || rq <= 0)
		return -ENOENT;
	se = mg_btf_find_member(btf, task, "se", &se_off);
	a = se > 0 ? member_off(btf, se, "cfs_rq") : -1;
	b = member_off(btf, cfs, "rq");
	c = member_off(btf, rq, "cpu");
	if (se_off < 0 || c < 0)
		return -ENOENT;
	if (a < 0 || b < 0)
		return -EOPNOTSUPP;	/* CONFIG_FAIR_GROUP_SCHED unset */
	l->task_cfs_rq = se_off + a;
	l->cfs_rq_rq = b;
	l->rq_cpu = c;
	return 0;
}

/* Offsets in .data..percpu of runqueues and of the counters (mg_kcounter_syms). */
static int percpu_offsets(const struct btf *btf, uint64_t *rq_off, uint64_t off[MG_K_NR_COUNTERS])
{
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	int id, i, k, found = 0;

	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
	if (id <= 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (i = 0; i < btf_vlen(t); i++, vs++) {
		const char *n = btf__name_by_offset(btf, btf__type_by_id(btf, vs->type)->name_off);

		if (!strcmp(n, "runqueues")) {
			*rq_off = vs->offset;
			found |= 1 << MG_K_NR_COUNTERS;
		}
		for (k = 0; k < MG_K_NR_COUNTERS; k++) {
			if (!strcmp(n, mg_kcounter_syms[k])) {
				off[k] = vs->offset;
				found |= 1 << k;
			}
		}
	}
	return found == (1 << (MG_K_NR_COUNTERS + 1)) - 1 ? 0 : -ENOENT;
}

/* Run reader 2 into out (unchecked). Returns 0 or a negative errno (the program's status). */
static int pcpu_read(struct mg_kreader *r, uint64_t *out)
{
	int err;

	if ((err = run_prog(r->pcpu->progs.read_pcpu)))
		return err;
	if (r->pcpu->bss->status)
		return r->pcpu->bss->status;
	memcpy(out, r->pcpu->bss->out, sizeof(uint64_t) * MG_K_NR_COUNTERS * r->nr_cpus);
	return 0;
}

/*
 * Read reader 2 between two debugfs readings and check it (mg_kpc_check). Returns 0,
 * -EPROTO with the reason in why, or -errno.
 */
static int pcpu_read_checked(struct mg_kreader *r, uint64_t *out, char *why, size_t whylen)
{
	uint64_t d1[MG_K_NR_COUNTERS], d2[MG_K_NR_COUNTERS];
	int err;

	if ((err = mg_debugfs_read(d1)) || (err = pcpu_read(r, out)) ||
	    (err = mg_debugfs_read(d2))) {
		snprintf(why, whylen, "%s", strerror(-err));
		return err;
	}
	return mg_kpc_check(out, r->nr_cpus, d1, d2, why, whylen);
}

#define MG_ST_QUERIED 64	/* ctime updates after a query each: fine-grained */
#define MG_ST_PLAIN 16		/* then updates without a query, a tick later: coarse */
#define MG_ST_TRIES 3		/* a busy CPU (another task's updates) may spoil one try */

/* Counter k of CPU cpu in a reading out[cpu][k]. */
static uint64_t kpc_at(const uint64_t *v, int cpu, int k)
{
	return v[(size_t)cpu * MG_K_NR_COUNTERS + k];
}

/*
 * One try of the start self-test on this CPU (pinned): the counter deltas of the CPU
 * around MG_ST_QUERIED fstat+fchmod pairs on a memfd (shmem is FS_MGTIME: a query
 * before each update makes nearly every one fine-grained), then, 20 ms later (the
 * coarse clock past the last fine stamp), MG_ST_PLAIN fchmods without a query: the
 * first takes a coarse time later than the ctime (a swap, no fine stamp), the next
 * ones find that same coarse time already there (fs/inode.c skips an equal ctime).
 * Judged against the ctime_ns_xchg and ctime_xchg_skip events of the same CPU and
 * window, which also count any other task's updates there:
 *  - ctime_swaps moves exactly as ctime_ns_xchg fires (it fires just before the
 *    increment: the tracepoint window holds the counter's);
 *  - ctime_updates as swaps + skips (a failed cmpxchg needs another CPU on the same
 *    inode; 2 allowed for other tasks'), with at least one skip;
 *  - fine_stamps at least half the queried updates and below the swaps (the first
 *    plain update was coarse);
 *  - floor_swaps at least one, at most the fine stamps.
 * So a counter read at another counter's offset fails, but for floor_swaps read at
 * fine_stamps' (equal on one quiet CPU: a floor cmpxchg fails only against another
 * CPU's). Returns 0, -EPROTO with why, or -errno.
 */
static int selftest_once(struct mg_kreader *r, int fd, int cpu, uint64_t *a, uint64_t *b,
			 char *why, size_t whylen)
{
	uint64_t x0, x1, s0, s1, dx, ds, du, dsw, dfi, dfl;
	struct stat st;
	int i, err;

	x0 = __atomic_load_n(&r->pcpu->bss->st_xchg[cpu], __ATOMIC_SEQ_CST);
	s0 = __atomic_load_n(&r->pcpu->bss->st_skip[cpu], __ATOMIC_SEQ_CST);
	if ((err = pcpu_read(r, a)))
		return err;
	for (i = 0; i < MG_ST_QUERIED; i++)
		if (fstat(fd, &st) || fchmod(fd, i & 1 ? 0600 : 0644))
			return -errno;
	nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	for (i = 0; i < MG_ST_PLAIN; i++)
		if (fchmod(fd, i & 1 ? 0600 : 0644))
			return -errno;
	if ((err = pcpu_read(r, b)))
		return err;
	x1 = __atomic_load_n(&r->pcpu->bss->st_xchg[cpu], __ATOMIC_SEQ_CST);
	s1 = __atomic_load_n(&r->pcpu->bss->st_skip[cpu], __ATOMIC_SEQ_CST);
	dx = x1 - x0;
	ds = s1 - s0;
	du = kpc_at(b, cpu, MG_K_CTIME_UPDATES) - kpc_at(a, cpu, MG_K_CTIME_UPDATES);
	dsw = kpc_at(b, cpu, MG_K_CTIME_SWAPS) - kpc_at(a, cpu, MG_K_CTIME_SWAPS);
	dfi = kpc_at(b, cpu, MG_K_FINE_STAMPS) - kpc_at(a, cpu, MG_K_FINE_STAMPS);
	dfl = kpc_at(b, cpu, MG_K_FLOOR_SWAPS) - kpc_at(a, cpu, MG_K_FLOOR_SWAPS);
	if (dsw != dx || dx < MG_ST_QUERIED)
		snprintf(why, whylen, "%s on CPU %d moved by %llu where ctime_ns_xchg fired %llu "
			 "times", mg_kcounter_syms[MG_K_CTIME_SWAPS], cpu, (unsigned long long)dsw,
			 (unsigned long long)dx);
	else if (du < dx + ds || du > dx + ds + 2 || !ds)
		snprintf(why, whylen, "%s on CPU %d moved by %llu where ctime_ns_xchg and "
			 "ctime_xchg_skip fired %llu and %llu times", mg_kcounter_syms[MG_K_CTIME_UPDATES],
			 cpu, (unsigned long long)du, (unsigned long long)dx, (unsigned long long)ds);
	else if (dfi < MG_ST_QUERIED / 2 || dfi >= dx)
		snprintf(why, whylen, "%s on CPU %d moved by %llu around %d queried updates and "
			 "%llu swaps (want %d to %llu)", mg_kcounter_syms[MG_K_FINE_STAMPS], cpu,
			 (unsigned long long)dfi, MG_ST_QUERIED, (unsigned long long)dx,
			 MG_ST_QUERIED / 2, (unsigned long long)dx - 1);
	else if (dfl < 1 || dfl > dfi)
		snprintf(why, whylen, "%s on CPU %d moved by %llu around %llu fine-grained stamps "
			 "(want 1 to %llu)", mg_kcounter_syms[MG_K_FLOOR_SWAPS], cpu,
			 (unsigned long long)dfl, (unsigned long long)dfi, (unsigned long long)dfi);
	else
		return 0;
	return -EPROTO;
}

/*
 * Where debugfs is absent (a container, debugfs=off), reader 2 is validated once, at
 * the start, against a known workload: see selftest_once(). Pins this thread to the
 * CPU it runs on for the test, then restores its affinity. 0, -EPROTO with why (each
 * of MG_ST_TRIES tries rejected: the last reason), or -errno with why.
 */
static int pcpu_selftest(struct mg_kreader *r, char *why, size_t whylen)
{
	struct bpf_link *lx = NULL, *ls = NULL;
	uint64_t *a = NULL, *b = NULL;
	cpu_set_t old, one;
	int fd = -1, cpu, err, i;

	a = calloc((size_t)r->nr_cpus * MG_K_NR_COUNTERS, sizeof(*a));
	b = calloc((size_t)r->nr_cpus * MG_K_NR_COUNTERS, sizeof(*b));
	if (!a || !b) {
		err = -ENOMEM;
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	lx = bpf_program__attach(r->pcpu->progs.st_on_xchg);
	ls = lx ? bpf_program__attach(r->pcpu->progs.st_on_skip) : NULL;
	if (!lx || !ls) {
		err = -errno;
		snprintf(why, whylen, "its self-test needs raw_tp/ctime_ns_xchg and ctime_xchg_skip: "
			 "%s", strerror(-err));
		goto out;
	}
	fd = memfd_create("mgtrace-selftest", MFD_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen, "its self-test's memfd: %s", strerror(-err));
		goto out;
	}
	for (i = 1; i <= MG_ST_TRIES; i++) {
		cpu = sched_getcpu();
		CPU_ZERO(&one);
		if (cpu < 0 || cpu >= r->nr_cpus || cpu >= MG_MAX_CPUS || sched_getaffinity(0, sizeof(old), &old)) {
			err = -EINVAL;
			snprintf(why, whylen, "its self-test cannot tell which CPU it runs on");
			goto out;
		}
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one)) {
			err = -errno;
			snprintf(why, whylen, "its self-test cannot pin itself to CPU %d: %s", cpu,
				 strerror(-err));
			goto out;
		}
		err = selftest_once(r, fd, cpu, a, b, why, whylen);
		sched_setaffinity(0, sizeof(old), &old);
		if (err != -EPROTO)
			break;
	}
	if (!err)
		snprintf(r->method, sizeof(r->method), "per-CPU via BTF offsets, validated at start "
			 "(no debugfs: %d ctime updates on CPU %d against its ctime_ns_xchg and "
			 "ctime_xchg_skip events)", MG_ST_QUERIED + MG_ST_PLAIN, cpu);
	else if (err != -EPROTO)
		snprintf(why, whylen, "its self-test failed: %s", strerror(-err));
out:
	if (fd >= 0)
		close(fd);
	bpf_link__destroy(lx);
	bpf_link__destroy(ls);
	free(a);
	free(b);
	return err;
}

static int open_pcpu(struct mg_kreader *r, char *why, size_t whylen)
{
	uint64_t rq_off = 0, off[MG_K_NR_COUNTERS], *tmp;
	const struct btf *btf = mg_vmlinux_btf();
	uint64_t d[MG_K_NR_COUNTERS];
	struct pcpu_layout l;
	char reason[160];
	bool no_debugfs;
	int err;

	if ((err = percpu_offsets(btf, &rq_off, off))) {
		snprintf(why, whylen, "BTF has no .data..percpu offsets for the counters");
		return err;
	}
	if ((err = pcpu_layout(btf, &l))) {
		snprintf(why, whylen, err == -EOPNOTSUPP ? "BTF-offset reader: no cfs_rq->rq "
			 "(CONFIG_FAIR_GROUP_SCHED unset)" : "BTF-offset reader: no task_struct.se "
			 "or rq.cpu in BTF");
		return err;
	}
	if ((err = mg_test_hook_pcpu_alias(off))) {
		snprintf(why, whylen, "bad MGTRACE_TEST_PCPU_ALIAS (test hook)");
		return err;
	}
	mg_libbpf_log_reset();
	r->pcpu = pcpu_bpf__open();
	if (!r->pcpu) {
		snprintf(why, whylen, "BTF-offset reader: open failed: %s", strerror(errno));
		return -errno;
	}
	r->pcpu->rodata->nr_cpus = r->nr_cpus;
	r->pcpu->rodata->rq_off = rq_off;
	memcpy((void *)r->pcpu->rodata->var_off, off, sizeof(off));
	r->pcpu->rodata->task_cfs_rq_off = l.task_cfs_rq;
	r->pcpu->rodata->cfs_rq_rq_off = l.cfs_rq_rq;
	r->pcpu->rodata->rq_cpu_off = l.rq_cpu;
	/* without debugfs the reading is validated by a self-test with two raw_tp counters */
	no_debugfs = mg_debugfs_read(d) != 0;
	bpf_program__set_autoload(r->pcpu->progs.st_on_xchg, no_debugfs);
	bpf_program__set_autoload(r->pcpu->progs.st_on_skip, no_debugfs);
	if ((err = pcpu_bpf__load(r->pcpu))) {
		char c[200];

		snprintf(why, whylen, "BTF-offset reader refused: %s (%s)", strerror(-err),
			 mg_libbpf_cause(err, "load", false, c, sizeof(c)));
		return err;
	}
	if (no_debugfs) {
		err = pcpu_selftest(r, reason, sizeof(reason));
		if (err == -EPROTO)
			snprintf(why, whylen, "BTF-offset reader rejected by its self-test (no debugfs "
				 "to check it against): %s", reason);
		else if (err)
			snprintf(why, whylen, "BTF-offset reader unchecked (no debugfs): %s", reason);
		else
			r->selftested = true;
		return err;
	}
	tmp = calloc((size_t)r->nr_cpus * MG_K_NR_COUNTERS, sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	/* one reading, bracketed by debugfs: a right one always lies in the bracket */
	err = pcpu_read_checked(r, tmp, reason, sizeof(reason));
	free(tmp);
	if (err == -EPROTO)
		snprintf(why, whylen, "BTF-offset reader rejected: %s", reason);
	else if (err)
		snprintf(why, whylen, "BTF-offset reader failed: %s", reason);
	return err;
}

struct mg_kreader *mg_kreader_open(int nr_cpus, int *err, char *why, size_t whylen)
{
	char why1[256];
	struct mg_kreader *r;
	int e;

	if (nr_cpus > MG_MAX_CPUS) {
		*err = -E2BIG;
		snprintf(why, whylen, "%d possible CPUs, reader handles %d", nr_cpus, MG_MAX_CPUS);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		*err = -ENOMEM;
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	r->nr_cpus = nr_cpus;
	/*
	 * The BTF-offset reader first: it needs the kernel BTF mgtrace parsed already
	 * and debugfs, but neither /proc/kallsyms nor a second BTF parse, which the
	 * typed-ksym reader's libbpf load costs (tens of ms each).
	 */
	e = open_pcpu(r, why1, sizeof(why1));
	if (!e)
		return r;
	pcpu_bpf__destroy(r->pcpu);
	r->pcpu = NULL;
	r->ksym = kcounters_bpf__open();
	if (r->ksym) {
		r->ksym->rodata->nr_cpus = nr_cpus;
		e = kcounters_bpf__load(r->ksym);
		if (!e)
			return r;
		snprintf(why, whylen, "%s; typed per-CPU ksyms refused (%s): data symbols "
			 "need CONFIG_KALLSYMS_ALL", why1, strerror(-e));
	} else {
		e = -errno;
		snprintf(why, whylen, "%s; ksym reader: open failed: %s", why1, strerror(errno));
	}
	*err = e;
	mg_kreader_close(r);
	return NULL;
}

const char *mg_kreader_method(const struct mg_kreader *r)
{
	if (r->ksym)
		return "per-CPU ksym";
	return r->selftested ? r->method : "per-CPU via BTF offsets, checked against debugfs";
}

enum mg_kcheck mg_kreader_check(const struct mg_kreader *r)
{
	return r->ksym ? MG_KCHECK_KSYM : r->selftested ? MG_KCHECK_START : MG_KCHECK_NONE;
}

bool mg_kreader_needs_check(const struct mg_kreader *r)
{
	return !r->ksym && !r->selftested;
}

int mg_kreader_read(struct mg_kreader *r, uint64_t *out)
{
	int err;

	if (r->ksym) {
		if ((err = run_prog(r->ksym->progs.read_kcounters)))
			return err;
		memcpy(out, r->ksym->bss->out, sizeof(uint64_t) * MG_K_NR_COUNTERS * r->nr_cpus);
		return 0;
	}
	return pcpu_read(r, out);
}

void mg_kreader_close(struct mg_kreader *r)
{
	if (!r)
		return;
	kcounters_bpf__destroy(r->ksym);
	pcpu_bpf__destroy(r->pcpu);
	free(r);
}
