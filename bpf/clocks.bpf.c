// SPDX-License-Identifier: GPL-2.0
/*
 * clocks.bpf.c - count clock_gettime system calls of one thread, per clock id,
 * for `mgtrace clocks` (src/clocks.c).
 *
 * Attached to the raw syscall entry tracepoint sys_enter (as tp_btf, or raw_tp
 * when tp_btf cannot load; neither needs tracefs). A vDSO clock_gettime never
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

static __always_inline void count(struct pt_regs *regs, long id)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	long clk;

	if (id != nr || pid_tgid >> 32 != tgid || (__u32)pid_tgid != tid)
		return;
	clk = PT_REGS_PARM1_CORE_SYSCALL(regs);
	if (clk >= 0 && clk < MG_CLK_IDS)
		__sync_fetch_and_add(&calls[clk], 1);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(tpb_clk_sys_enter, struct pt_regs *regs, long id)
{
	count(regs, id);
	return 0;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(rtp_clk_sys_enter, struct pt_regs *regs, long id)
{
	count(regs, id);
	return 0;
}
