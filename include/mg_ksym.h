/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_ksym.h - the shapes bpf/ksym.bpf.c and src/util/ksyms_bpf.c share: kernel text
 * addresses named by the kernel itself (bpf_snprintf() "%pS").
 */
#ifndef MG_KSYM_H
#define MG_KSYM_H

/* addresses named in one run of the syscall program ksym_names */
#define MG_KSYM_BATCH 64
/*
 * bytes of one name: "function+0xoff/0xsize [module]", NUL-terminated: the kernel's
 * KSYM_SYMBOL_LEN (include/linux/kallsyms.h: a name of up to 511 bytes since 6.1, the
 * offsets, a module name of up to 55) fits; a longer text is cut, and its frame left
 * unnamed (src/util/ksyms_bpf.c)
 */
#define MG_KSYM_LEN 704

#endif
