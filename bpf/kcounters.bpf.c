// SPDX-License-Identifier: GPL-2.0
/*
 * kcounters.bpf.c - read the kernel's own per-CPU multigrain counters.
 *
 * Reads mg_ctime_updates, mg_ctime_swaps, mg_fine_stamps (fs/inode.c) and
 * timekeeping_mg_floor_swaps (kernel/time/timekeeping.c) for every possible
 * CPU through typed per-CPU ksyms and bpf_per_cpu_ptr(). The program is never
 * attached: user space runs it on demand with bpf_prog_test_run_opts(), so it
 * costs the probed write path nothing.
 *
 * Typed ksyms of data symbols need CONFIG_KALLSYMS_ALL: without it the
 * verifier refuses the load ("failed to find the address for kernel symbol").
 * That is why this is a separate object from mgtrace.bpf.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "mgtrace.h"

char LICENSE[] SEC("license") = "GPL";

extern const long mg_ctime_updates __ksym;
extern const long mg_ctime_swaps __ksym;
extern const long mg_fine_stamps __ksym;
extern const unsigned long timekeeping_mg_floor_swaps __ksym;

/* Number of possible CPUs, set by user space before load. */
const volatile __u32 nr_cpus = 1;

/* Output: out[cpu][enum mg_kernel_counter], filled for cpu < nr_cpus. */
__u64 out[MG_MAX_CPUS][MG_K_NR_COUNTERS];

static __always_inline __u64 rd(const void *p)
{
	return p ? *(const long *)p : 0;
}

SEC("raw_tp/mgtrace_read_kcounters")
int read_kcounters(void *ctx)
{
	__u32 cpu;

	for (cpu = 0; cpu < MG_MAX_CPUS; cpu++) {
		if (cpu >= nr_cpus)
			break;
		out[cpu][MG_K_CTIME_UPDATES] = rd(bpf_per_cpu_ptr(&mg_ctime_updates, cpu));
		out[cpu][MG_K_CTIME_SWAPS] = rd(bpf_per_cpu_ptr(&mg_ctime_swaps, cpu));
		out[cpu][MG_K_FINE_STAMPS] = rd(bpf_per_cpu_ptr(&mg_fine_stamps, cpu));
		out[cpu][MG_K_FLOOR_SWAPS] = rd(bpf_per_cpu_ptr(&timekeeping_mg_floor_swaps, cpu));
	}
	return 0;
}
