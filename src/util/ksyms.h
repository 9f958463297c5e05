/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - the kernel's code symbols from /proc/kallsyms, sorted by address, to name
 * the frames of a kernel stack (bpf_get_stack()): function, offset, module (ksyms.c).
 */
#ifndef MG_KSYMS_H
#define MG_KSYMS_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

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

void mg_ksyms_free(struct mg_ksyms *ks);

/*
 * A table of the frames fr[0..n) already named (src/util/ksyms_bpf.c: by the kernel),
 * into *out: mg_ksyms_name() of each fr[i].addr then gives fr[i] back (an unnamed frame,
 * sym NULL, stays unnamed), and of any other address no name. 0 or -ENOMEM (*out NULL).
 */
int mg_ksyms_from_frames(struct mg_ksyms **out, const struct mg_kframe *fr, size_t n);

/* Whether ks names addr as the kernel would: any address of a /proc/kallsyms table, only
 * the frames it was made of for mg_ksyms_from_frames()'s (false for ks NULL). */
bool mg_ksyms_has(const struct mg_ksyms *ks, uint64_t addr);

/*
 * One frame as JSON, as check's violations and top --by stack give it: {"addr": "0x...",
 * "sym", "off", "module"}, sym and off null where no symbol names it, module null for
 * the kernel's own text. NULL: no memory.
 */
json_t *mg_kframe_json(const struct mg_kframe *fr);

/*
 * The first frame of stack (len addresses, innermost first, as bpf_get_stack() gives
 * them) that is not the tracing machinery: the BPF program, bpf_trace_run*,
 * __bpf_trace_*, __traceiter_*, a BPF trampoline. 0 when every frame is (or none is
 * named): then the whole stack is shown.
 */
uint32_t mg_kstack_start(const struct mg_ksyms *ks, const uint64_t *stack, uint32_t len);

#endif
