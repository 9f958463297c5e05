/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend_types.h - the attach backends, the outcome of one attempt and a skeleton's
 * programs as offsets (parload.c's clones find theirs so). No code:
 * backend.c (load and attach), backend_why.c (why an attempt failed) and funcprobe.c
 * (how each function is probed under a backend) all stand above it.
 */
#ifndef MG_BACKEND_TYPES_H
#define MG_BACKEND_TYPES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Program tables: a program of skeleton struct SKEL as an offset into the skeleton
 * (MG_SKEL_PROG_OFF(mgtrace_bpf, fe_real_mg)), so that a static table names
 * skel->progs.* and a renamed program fails the build; MG_SKEL_PROG(skel, off) is the
 * struct bpf_program * of a loaded-or-opened skeleton at that offset.
 */
#define MG_SKEL_PROG_OFF(SKEL, name) offsetof(struct SKEL, progs.name)
#define MG_SKEL_PROG(skel, off) (*(struct bpf_program **)((char *)(skel) + (off)))

/*
 * MG_BE_KERNEL: no counting program at all: the kernel's own per-CPU counters
 * (src/util/kcounters.c) give ctime_updates, ctime_swaps, fine_stamps and floor_swaps,
 * and only the tracepoints of opted-in event counters (mg_session_opts::tp_mask)
 * are attached, as tp_btf or raw_tp. Chosen by `stat` under auto where those
 * counters are readable, never by the auto order below.
 */
enum mg_backend { MG_BE_AUTO, MG_BE_FENTRY, MG_BE_KPROBE, MG_BE_TRACEPOINT, MG_BE_KERNEL,
		  MG_BE_NR };

/* Outcome of one load+attach attempt: err is 0 or a negative errno. */
struct mg_attempt {
	bool tried;
	int err;
	char why[320];		/* one line: errno name and cause */
};

#endif
