/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kenv_int.h - what the parts of the kernel probe share: kenv.c calls these from
 * mg_kenv_probe(); debugfs.c defines them. Not a public interface (kenv.h is).
 */
#ifndef MG_KENV_INT_H
#define MG_KENV_INT_H

#include "kenv.h"

/*
 * Whether MG_DEBUGFS_FILE opens for reading: 0, -ENODEV (no debugfs mounted at
 * MG_DEBUGFS_DIR), or a negative errno (-EACCES, -EPERM: the mount point or the file
 * closed to this user; -ENOENT: no such file; -EPROTO: a file of another filesystem
 * mounted over it, or a line not in the kernel's format, mg_debugfs_why() says which).
 * Opens the file rather than asking access(), which checks the real uid, and reads it
 * once. debugfs.c; its result is mg_kenv::debugfs.
 */
int mg_debugfs_probe(void);

#endif
