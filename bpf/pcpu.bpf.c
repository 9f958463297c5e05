// SPDX-License-Identifier: GPL-2.0
/*
 * pcpu.bpf.c - read the kernel's per-CPU multigrain counters without ksyms.
 *
 * For kernels without CONFIG_KALLSYMS_ALL, where typed per-CPU ksyms of data
 * symbols cannot load (bpf/kcounters.bpf.c). BTF still gives each per-CPU
 * variable's offset in the .data..percpu section (user space passes them in),
 * and a per-CPU variable's address on a CPU is that offset plus a base that
 * is the same for every variable of that CPU. The base of this CPU comes from
 * a per-CPU object whose address BPF can see: this CPU's runqueue (the running
 * task's se.cfs_rq->rq), checked by rq->cpu. The bases of the other CPUs differ
 * from it as the per-CPU copies of this object's own PERCPU_ARRAY value do
 * (bpf_map_lookup_percpu_elem). User space validates every reading against the
 * debugfs totals before trusting it (src/util/kcounters.c).
 *
 * Run on demand with bpf_prog_test_run_opts(); never attached.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mgtrace.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 nr_cpus = 1;
const volatile __u64 rq_off = 0;			/* runqueues in .data..percpu */
const volatile __u64 var_off[MG_K_NR_COUNTERS] = {};	/* the counters, enum mg_kernel_counter */
/*
 * Member offsets from the kernel BTF, found by user space (src/util/kcounters.c) in the
 * one parse it makes: no CO-RE relocation here, so libbpf loads this object without
 * parsing the kernel BTF a second time.
 */
const volatile __u64 task_cfs_rq_off = 0;	/* task_struct.se.cfs_rq */
const volatile __u64 cfs_rq_rq_off = 0;		/* cfs_rq.rq */
const volatile __u64 rq_cpu_off = 0;		/* rq.cpu */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} anchor SEC(".maps");

/* Output: out[cpu][enum mg_kernel_counter]; status 0 ok, else a negative errno-like code. */
__u64 out[MG_MAX_CPUS][MG_K_NR_COUNTERS];
int status;

SEC("raw_tp/mgtrace_read_pcpu")
int read_pcpu(void *ctx)
{
	__u64 t = bpf_get_current_task();
	__u32 zero = 0, cpu = bpf_get_smp_processor_id(), c;
	__u64 cfs_rq = 0, rq = 0;
	int rq_cpu = -1, k;
	void *mine;
	__u64 base;

	if (bpf_probe_read_kernel(&cfs_rq, sizeof(cfs_rq), (void *)(t + task_cfs_rq_off)) ||
	    bpf_probe_read_kernel(&rq, sizeof(rq), (void *)(cfs_rq + cfs_rq_rq_off)) ||
	    bpf_probe_read_kernel(&rq_cpu, sizeof(rq_cpu), (void *)(rq + rq_cpu_off))) {
		status = -14;	/* EFAULT */
		return 0;
	}
	if (!rq || rq_cpu != (int)cpu) {
		status = -22;	/* EINVAL: the runqueue is not this CPU's */
		return 0;
	}
	mine = bpf_map_lookup_elem(&anchor, &zero);
	if (!mine) {
		status = -2;
		return 0;
	}
	base = rq - rq_off;
	for (c = 0; c < MG_MAX_CPUS; c++) {
		void *theirs;
		__u64 b, d;

		if (c >= nr_cpus)
			break;
		theirs = bpf_map_lookup_percpu_elem(&anchor, &zero, c);
		if (!theirs) {
			status = -6;	/* ENXIO: no such CPU */
			return 0;
		}
		/*
		 * One pointer - pointer subtraction (a scalar for a privileged
		 * loader), fenced so that the compiler cannot fold it into
		 * map-pointer arithmetic the verifier refuses.
		 */
		d = (__u64)theirs - (__u64)mine;
		asm volatile("" : "+r"(d));
		b = base + d;
		for (k = 0; k < MG_K_NR_COUNTERS; k++)
			if (bpf_probe_read_kernel(&out[c][k], sizeof(__u64), (void *)(b + var_off[k]))) {
				status = -14;	/* EFAULT */
				return 0;
			}
	}
	status = 0;
	return 0;
}

/*
 * The start self-test of the reader where debugfs is absent (src/util/kcounters.c
 * pcpu_selftest()): the ctime_ns_xchg and ctime_xchg_skip events of each CPU,
 * counted while user space makes a known number of ctime updates on a memfd.
 * fs/inode.c inode_set_ctime_current() fires ctime_ns_xchg right before it adds
 * one to mg_ctime_swaps, on the same CPU. Attached only for that test.
 */
__u64 st_xchg[MG_MAX_CPUS], st_skip[MG_MAX_CPUS];

/* Count one event of this CPU in counts[]. */
static __always_inline void st_count(__u64 *counts)
{
	__u32 cpu = bpf_get_smp_processor_id();

	if (cpu < MG_MAX_CPUS)
		__sync_fetch_and_add(&counts[cpu], 1);
}

SEC("raw_tp/ctime_ns_xchg")
int st_on_xchg(void *ctx)
{
	st_count(st_xchg);
	return 0;
}

SEC("raw_tp/ctime_xchg_skip")
int st_on_skip(void *ctx)
{
	st_count(st_skip);
	return 0;
}
