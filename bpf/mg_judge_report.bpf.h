/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_judge_report.bpf.h - what `mgtrace check` judging in BPF (bpf/mg_judge.bpf.h)
 * tells user space: the per-CPU counts of every event ("judge_counts") and the
 * records of violations and not-fault examples, with their context (struct
 * mg_vrec, on the ring buffer); and a program's lookup of its scratch and counts.
 */
#ifndef MG_JUDGE_REPORT_BPF_H
#define MG_JUDGE_REPORT_BPF_H

#include "mg_judge_ctx.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mg_judge_counts);
} judge_counts SEC(".maps");

/*
 * Write one violation record (example: a not-fault example); a full ring
 * buffer is counted in jc->lost (jc->examples_lost: the counts stay exact).
 * A violation's record carries the kernel stack of the event that broke the
 * rule (bpf_get_stack(ctx): ctx is the program's context), taken here, on the
 * violation path only, so that a run that finds nothing takes none; an includer
 * whose program type has no bpf_get_stack() (judgetest's syscall program) leaves
 * MG_JUDGE_STACKS undefined, and its records say MG_VREC_NO_STACK.
 * wb: the wakeup threshold, bytes (mg_wakeup_flags(); asked only here, when a
 * record is written, not on every event). The name is read now, when the record
 * is written, from the event's inode (when not NULL: its first dentry; none once
 * unlinked and closed, or before a btrfs inode has its dentry), else it is the
 * event's own (name: the test program's synthetic event), else none (name_len 0,
 * reported as null). The per-inode map keeps no name (issue 29: only what
 * judging needs).
 */
static __always_inline void mg_judge_report(void *ctx, void *rb, __u64 wb, struct mg_judge_counts *jc,
					    const struct mg_inode_key *key, struct inode *inode,
					    const char *name, const struct mg_rviol *viol,
					    bool example)
{
	struct mg_vrec *r = bpf_ringbuf_reserve(rb, sizeof(*r), 0);

	if (!r) {
		if (example)
			MG_JADD(jc->examples_lost, 1);
		else
			MG_JADD(jc->lost, 1);
		return;
	}
	r->magic = MG_VREC_MAGIC;
	r->kind = viol->kind;
	r->dev = key->dev;
	r->gen = key->gen;
	r->ino = key->ino;
	r->later_flags = viol->later_flags;
	r->fs_magic = 0;
	r->pad = 0;
	r->name_len = 0;
	r->name[0] = 0;
	if (inode) {
		r->fs_magic = mg_inode_fs_magic(inode);
		mg_inode_name(inode, r->name, MG_NAME_LEN, &r->name_len);
	} else if (name) {	/* the test program's: never cut (name_len 0 says so) */
		__builtin_memcpy(r->name, name, MG_NAME_LEN);
		r->name[MG_NAME_LEN - 1] = 0;
	}
	r->earlier = viol->earlier;
	r->later = viol->later;
	r->stack_bytes = MG_VREC_NO_STACK;
#ifdef MG_JUDGE_STACKS
	if (!example)
		r->stack_bytes = bpf_get_stack(ctx, r->stack, sizeof(r->stack), 0);
#endif
	mg_judge_ctx_fill(&r->earlier, key);
	mg_judge_ctx_fill(&r->later, key);
	bpf_ringbuf_submit(r, mg_wakeup_flags(rb, wb));
	if (example)
		MG_JADD(jc->examples, 1);
	else
		MG_JADD(jc->records, 1);
}

/*
 * This CPU's scratch for events of kind (enum mg_event_kind), and the counts;
 * false if either lookup failed (a kind out of range: never expected).
 */
static __always_inline bool mg_judge_maps(__u32 kind, struct mg_judge_scratch **sc,
					  struct mg_judge_counts **jc)
{
	__u32 zero = 0;

	*sc = bpf_map_lookup_elem(&judge_scratch, &kind);
	*jc = bpf_map_lookup_elem(&judge_counts, &zero);
	return *sc && *jc;
}

#endif
