/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms_bpf.h - kernel text addresses named by the kernel (bpf/ksym.bpf.c, bpf_snprintf()
 * "%pS"), as a table ksyms.c looks frames up in: no /proc/kallsyms read.
 */
#ifndef MG_KSYMS_BPF_H
#define MG_KSYMS_BPF_H

#include <stddef.h>
#include <stdint.h>
#include "checker_types.h"
#include "ksyms.h"

/*
 * Name addr[0..n) (kernel stack frames; repeats and 0s allowed) with the syscall program
 * ksym_names, loaded for the call and unloaded before it returns, into a table of those
 * addresses only (mg_ksyms_from_frames()): an address no symbol holds stays unnamed.
 * A text cut at MG_KSYM_LEN (longer than the kernel's KSYM_SYMBOL_LEN) leaves its frame
 * unnamed. Returns 0; -ENOMEM; the -errno of the load or of BPF_PROG_TEST_RUN (no CAP_BPF
 * or CAP_PERFMON, a kernel without BPF_PROG_TYPE_SYSCALL or bpf_snprintf(): 5.14-);
 * -EBADMSG when the kernel printed something that is not "%pS"'s form (then the caller
 * names from /proc/kallsyms instead). *out is NULL on error.
 */
int mg_ksyms_by_bpf(struct mg_ksyms **out, const uint64_t *addr, size_t n);

/*
 * The naming program loaded once, for a tool that names stacks again and again (top --by
 * stack, every table): mg_ksym_namer_open() loads it (0, -ENOMEM or the load's -errno,
 * *out NULL on error), mg_ksym_namer_name() is mg_ksyms_by_bpf() without the load (its
 * returns), mg_ksym_namer_close() unloads it (NULL is fine).
 */
struct mg_ksym_namer;
int mg_ksym_namer_open(struct mg_ksym_namer **out);
int mg_ksym_namer_name(struct mg_ksym_namer *nm, struct mg_ksyms **out, const uint64_t *addr,
		       size_t n);
void mg_ksym_namer_close(struct mg_ksym_namer *nm);

/*
 * mg_ksyms_by_bpf() of every address of the kernel stacks v[0..n) carry (stack_why
 * MG_STACK_TAKEN): check's and conform's reports. Its returns.
 */
int mg_ksyms_of_reports(struct mg_ksyms **out, const struct mg_violation *v, size_t n);

/*
 * One "%pS" text into fr (fr->addr set by the caller): "function+0xoff/0xsize",
 * " [module]" after it or not, or "0x..." (no symbol: fr->sym NULL), each number hex
 * digits right after "0x". sym and module point into text, which this cuts with NULs.
 * 0, or -EBADMSG for any other form.
 */
int mg_ksym_parse_pS(char *text, struct mg_kframe *fr);

#endif
