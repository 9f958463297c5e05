// SPDX-License-Identifier: GPL-2.0
/*
 * ksym.bpf.c - kernel text addresses named by the kernel: the syscall program
 * ksym_names, run by user space with BPF_PROG_TEST_RUN (src/util/ksyms_bpf.c), prints
 * each of ks_addr[0..ks_n) with bpf_snprintf()'s "%pS" into ks_name[], as
 * "function+0xoff/0xsize", " [module]" after it for a module's text, or "0x..." where
 * no symbol holds the address (sprint_symbol(): the kernel's own kallsyms lookup, BPF
 * programs and trampolines included). It names only the addresses asked, in
 * microseconds, where /proc/kallsyms costs the kernel 55 ms to format whole, and it does
 * not depend on kernel.kptr_restrict, which hides that file's addresses. Never attached.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "mg_ksym.h"

char LICENSE[] SEC("license") = "GPL";

/* in: the addresses and how many (at most MG_KSYM_BATCH) */
__u64 ks_addr[MG_KSYM_BATCH];
__u32 ks_n;
/* out: each address's name, and bpf_snprintf()'s return (the bytes it needed with the
 * NUL: more than MG_KSYM_LEN when cut; or -errno) */
char ks_name[MG_KSYM_BATCH][MG_KSYM_LEN];
__s64 ks_ret[MG_KSYM_BATCH];

SEC("syscall")
int ksym_names(void *ctx)
{
	static const char fmt[] = "%pS";
	__u32 i;

	for (i = 0; i < MG_KSYM_BATCH; i++) {
		if (i >= ks_n)
			break;
		ks_ret[i] = bpf_snprintf(ks_name[i], MG_KSYM_LEN, fmt, &ks_addr[i],
					 sizeof(ks_addr[i]));
	}
	return 0;
}
