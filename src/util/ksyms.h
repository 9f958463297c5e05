/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - the kernel's code symbols from /proc/kallsyms, sorted by address, to name
 * the frames of a kernel stack (bpf_get_stack()): function, offset, module (ksyms.c).
 */
#ifndef MG_KSYMS_H
#define MG_KSYMS_H

#include <stdbool.h>
#include <stdint.h>

struct mg_ksyms;

/* One frame named: the function it is in, the offset into it, its module (NULL: vmlinux). */
struct mg_kframe {
	uint64_t addr;
	const char *sym;		/* NULL: no code symbol at or below addr */
	uint64_t off;			/* addr - the symbol's address, bytes */
	const char *module;		/* "ext4", or NULL for the kernel's own text */
};

/*
 * Load the code symbols (types t, T, w, W) of path (NULL: /proc/kallsyms) into *out.
 * Returns 0; -EPERM when every address reads 0 (kptr_restrict hides them from this
 * process: no CAP_SYSLOG); -ENOENT when the file lists no code symbol; -ENOMEM; or the
 * -errno of opening the file. *out is NULL on error.
 */
int mg_ksyms_load(struct mg_ksyms **out, const char *path);

/* Name addr: the code symbol at or below it (fr->sym NULL when there is none). */
void mg_ksyms_name(const struct mg_ksyms *ks, uint64_t addr, struct mg_kframe *fr);

/*
 * The index of the first frame of stack (len frames, innermost first, as bpf_get_stack()
 * takes them in a tracepoint program) that is not BPF's own machinery (bpf_prog_*,
 * bpf_trace_run*, __bpf_trace_*, __traceiter_*, bpf_trampoline_*): the kernel function
 * that fired the tracepoint comes next. 0 when every frame is (or none is named).
 */
uint32_t mg_ksyms_stack_start(const struct mg_ksyms *ks, const uint64_t *stack, uint32_t len);

void mg_ksyms_free(struct mg_ksyms *ks);

#endif
