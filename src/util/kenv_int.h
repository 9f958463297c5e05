/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kenv_int.h - what the parts of the kernel probe share: kenv.c calls these from
 * mg_kenv_probe(); interface.c and debugfs.c define them. Not a public interface
 * (kenv.h is).
 */
#ifndef MG_KENV_INT_H
#define MG_KENV_INT_H

#include "kenv.h"

struct btf;

/*
 * Compare the tracepoints' and ktime_get_*_mg's BTF prototypes and the type of
 * inode.i_ctime_nsec with what the BPF programs read: fills env->tp_args[],
 * tp_args_changed[], func_proto[] (the floor functions) and ctime_nsec. Never fails:
 * what btf lacks stays empty ("absent" for ctime_nsec). interface.c.
 */
void mg_kenv_probe_interface(struct mg_kenv *env, const struct btf *btf);

/*
 * Fill env->istate: struct inode's i_state offset and size (bytes) and the values of
 * I_NEW, I_FREEING and I_CLEAR, for a u32 with macro flags (6.12 to 6.17), an enum
 * (6.18) or a struct with one enum member (6.19+). Any other shape leaves
 * istate.known false, with the reason in istate.layout. interface.c.
 */
void mg_kenv_probe_istate(struct mg_kenv *env, const struct btf *btf);

/*
 * Whether MG_DEBUGFS_FILE opens for reading: 0, -ENODEV (no debugfs mounted at
 * MG_DEBUGFS_DIR), or a negative errno (-EACCES, -EPERM: the mount point or the file
 * closed to this user; -ENOENT: no such file). Opens the file rather than asking
 * access(), which checks the real uid. debugfs.c; its result is mg_kenv::debugfs.
 */
int mg_debugfs_probe(void);

#endif
