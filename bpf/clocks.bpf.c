// SPDX-License-Identifier: GPL-2.0
/*
 * clocks.bpf.c - count clock_gettime system calls of one thread, per clock id,
 * for `mgtrace clocks` (src/clocks.c).
 *
 * Attached to the raw syscall entry tracepoint sys_enter (as tp_btf, or raw_tp
 * when tp_btf cannot load; neither needs tracefs). The tp_btf program reads no
 * kernel memory through bpf_probe_read_kernel, so it loads under
 * lockdown=confidentiality. A vDSO clock_gettime never
 * enters the kernel, so it is never seen here; a real system call is. Only
 * entries of syscall number `nr` by thread `tid` of process `tgid` are
 * counted, so other processes and mgtrace's own timing calls outside the
 * measured loop do not pollute the counts. User space sets the three before
 * load and reads `calls` through the mmap'ed .bss between loops.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

/* Number of clock ids counted: CLOCK_REALTIME (0) .. CLOCK_TAI (11), and spare. */
#define MG_CLK_IDS 16

const volatile __u32 tgid = 0;		/* process to count (getpid()) */
const volatile __u32 tid = 0;		/* thread to count (gettid()) */
const volatile long nr = -1;		/* __NR_clock_gettime of this architecture */

/* calls[clockid]: clock_gettime system calls by tid; ids outside 0..15 go to no slot. */
__u64 calls[MG_CLK_IDS];

/*
 * The clock id, clock_gettime's first argument, from the user registers regs. btf: tp_btf,
 * whose regs is a BTF-typed pointer, read with a direct load, which needs no
 * bpf_probe_read_kernel (lockdown=confidentiality takes that away); raw_tp reads it with a
 * CO-RE probe read. The syscall ABI's first argument register: di on x86-64; orig_x0 on
 * arm64, as libbpf's PT_REGS_PARM1_CORE_SYSCALL reads it.
 */
static __always_inline long clock_arg(struct pt_regs *regs, bool btf)
{
	if (!btf)
		return PT_REGS_PARM1_CORE_SYSCALL(regs);
#if defined(__TARGET_ARCH_x86)
	return regs->di;
#elif defined(__TARGET_ARCH_arm64)
	return regs->orig_x0;
#else
#error "clocks.bpf.c: the first syscall argument's register of this architecture is not known"
#endif
}

static __always_inline void count(struct pt_regs *regs, long id, bool btf)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	long clk;

	if (id != nr || pid_tgid >> 32 != tgid || (__u32)pid_tgid != tid)
		return;
	clk = clock_arg(regs, btf);
	if (clk >= 0 && clk < MG_CLK_IDS)
		__sync_fetch_and_add(&calls[clk], 1);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(tpb_clk_sys_enter, struct pt_regs *regs, long id)
{
	count(regs, id, true);
	return 0;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(rtp_clk_sys_enter, struct pt_regs *regs, long id)
{
	count(regs, id, false);
	return 0;
}
