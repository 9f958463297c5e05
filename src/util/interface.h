/* SPDX-License-Identifier: GPL-2.0 */
/*
 * interface.h - the kernel interface the BPF programs rely on, as the kernel's BTF shows
 * it (interface.c): the timestamp:* tracepoints' arguments, the floor functions'
 * prototypes, the type of inode.i_ctime_nsec, struct inode's state flags, the task fields
 * bpf/follow.bpf.c reads. kenv.c fills mg_kenv::iface with it.
 */
#ifndef MG_INTERFACE_H
#define MG_INTERFACE_H

#include <stdbool.h>
#include "mgtrace.h"

struct btf;

/* struct inode's i_state as BTF shows it (mg_interface_probe_istate(); bpf/mg_common.bpf.h) */
struct mg_istate {
	bool known;		/* offset, 4-byte size and the three flags found */
	unsigned int off, size;	/* byte offset in struct inode of the flags word */
	unsigned int i_new, i_freeing, i_clear;	/* the flags' values */
	char layout[128];	/* "u32 (flags as macros ...)" (6.12 to 6.17),
				 * "enum inode_state_flags_t" (6.18), "struct
				 * inode_state_flags { enum inode_state_flags_enum
				 * __state; }" (6.19+), or why it is unknown */
};

/*
 * Where bpf/follow.bpf.c reads a task's thread group id and whether its whole group has
 * exited (mg_interface_probe_task()): byte offsets from the kernel BTF, passed to it as
 * constants so that libbpf loads it without a parse of the kernel BTF of its own.
 */
struct mg_task_layout {
	bool known;		/* all three found, each on a byte boundary */
	unsigned int tgid;	/* task_struct.tgid (pid_t) */
	unsigned int signal;	/* task_struct.signal (struct signal_struct *) */
	unsigned int live;	/* signal_struct.live (atomic_t: its int counter) */
};

/* The interface as BTF shows it (empty where absent). */
struct mg_interface {
	char tp_args[MG_NR_TPS][256];	/* tracepoint arguments, "(struct inode *, u32, ...)" */
	bool tp_args_changed[MG_NR_TPS]; /* differ from what bpf/mgtrace.bpf.c reads */
	char func_proto[MG_NR_FUNCS][320];	/* "void ktime_get_real_ts64_mg(struct timespec64 *)",
					 * filled for the floor functions
					 * (MG_FN_REAL_MG, MG_FN_COARSE_MG) */
	char ctime_nsec[64];		/* type of inode.i_ctime_nsec ("u32"), "absent" */
	struct mg_istate istate;
	struct mg_task_layout task;
};

/*
 * Compare the tracepoints' and ktime_get_*_mg's BTF prototypes and the type of
 * inode.i_ctime_nsec with what the BPF programs read: fills ifc->tp_args[],
 * tp_args_changed[], func_proto[] (the floor functions) and ctime_nsec. Never fails:
 * what btf lacks stays empty ("absent" for ctime_nsec).
 */
void mg_interface_probe(struct mg_interface *ifc, const struct btf *btf);

/*
 * Fill ifc->istate: struct inode's i_state offset and size (bytes) and the values of
 * I_NEW, I_FREEING and I_CLEAR, for a u32 with macro flags (6.12 to 6.17), an enum
 * (6.18) or a struct with one enum member (6.19+). Any other shape leaves
 * istate.known false, with the reason in istate.layout.
 */
void mg_interface_probe_istate(struct mg_interface *ifc, const struct btf *btf);

/* Fill ifc->task from btf (known false where a member is absent or not byte-aligned). */
void mg_interface_probe_task(struct mg_interface *ifc, const struct btf *btf);

/*
 * Find member name in the struct or union type id of btf, looking into anonymous
 * members. Returns its type id (or -1 when absent) and sets *off to its byte offset
 * (-1 for a bitfield or a member not on a byte boundary).
 */
int mg_btf_find_member(const struct btf *btf, int id, const char *name, long *off);

/*
 * What changed in the interface of kernel release that the BPF programs read (a
 * tracepoint's arguments; inode.i_ctime_nsec no longer a u32, judged only where
 * ctime_applies: BTF present and multigrain), or NULL. Points to a static buffer.
 */
const char *mg_interface_changed(const struct mg_interface *ifc, const char *release,
				 bool ctime_applies);

#endif
