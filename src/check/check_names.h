/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_names.h - what `mgtrace check`'s reports name a violation by (check_names.c):
 * the built-in workload's files, the kernel's symbols for its stack frames (loaded on a
 * thread of their own from the first violation with a stack: issue 44) and its mount,
 * from one read of /proc/self/mountinfo per report. Not a public interface.
 */
#ifndef MG_CHECK_NAMES_H
#define MG_CHECK_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "checker.h"
#include "ident.h"
#include "known.h"
#include "ksyms.h"

struct check_state;
struct check_result;

/* A file of the built-in workload, by the dev and inode its events name. */
struct check_wl_file {
	uint32_t dev;			/* kernel dev_t (ident.h) */
	uint64_t ino;
	int thread, file;		/* named "t<thread>-f<file>" */
};

/*
 * What a violation report is named by, beyond its own fields: the built-in workload's
 * files (a cross-file order report, made from user-space observations, carries no name)
 * and the --known entries a report matched. Owned by a result (check_names_of()).
 */
struct check_names {
	struct check_wl_file *files;	/* malloc'd; NULL with COMMAND or continuous check */
	size_t nfiles;
	const struct mg_known *known;	/* --known's entries (check_opts.known), or NULL */
	const struct mg_ksyms *ks;	/* the kernel's symbols, to name stack frames (ksyms.h);
					 * NULL: ks_why says why frames go unnamed */
	const char *ks_why;		/* "" when ks is loaded */
	const char *ks_source;		/* who named the frames: "kernel" (bpf/ksym.bpf.c's
					 * "%pS"), "/proc/kallsyms"; NULL with ks NULL */
	/* the mounts of its devices: /proc/self/mountinfo read once, at the first lookup
	 * (check_mount()); malloc'd, freed by check_names_free() */
	struct mg_mounts *mounts;
};

/*
 * The built-in workload's files, --known's entries and the kernel's symbols (loaded
 * when stack frames are to be named: with_ksyms), to name reports by; 0 or -ENOMEM.
 */
int check_names_of(struct check_names *nm, struct check_state *cs, bool with_ksyms);
/*
 * The first frame of v's stack to show: past the frames of BPF's own machinery (the
 * program that took it, bpf_trace_run*(), a trampoline), which are no kernel code path
 * of the event; 0 where no symbol names them (kptr_restrict) or all would go.
 */
uint32_t check_stack_start(const struct check_names *nm, const struct mg_violation *v);
/*
 * r's reports grouped by kernel stack (check_names.c): each distinct stack once, under
 * its first report, with how many share it (r->stack_first, r->stack_count), and the
 * reports without one counted by why (r->stacks_missing). 0 or -ENOMEM.
 */
int check_collect_stacks(struct check_result *r);
/*
 * One kernel stack as text lines on f, each "    0xADDR sym+0xOFF [module]", indented
 * by indent spaces; XML character data with xml.
 */
void check_put_stack(FILE *f, const struct check_names *nm, const struct mg_violation *v,
		     int indent, bool xml);
/* The name to print for a violation (the event's, or the built-in workload's file), or NULL. */
const char *check_violation_name(const struct check_names *nm, const struct mg_violation *v,
				 char *buf, size_t buflen, size_t *len, bool *cut);
/*
 * One violation report as a line (no newline) on f: external bytes escaped for text
 * (xml false) or XML character data. ex: the not-fault kind of an example, -1 for a
 * violation (check_text.c).
 */
void check_put_violation(FILE *f, const struct check_names *nm, const struct mg_violation *v,
			 bool xml, int ex);
/*
 * The mount point of kernel dev_t dev from nm's table (one mountinfo read per report):
 * *mnt its unescaped bytes; returns their length, -ENOENT or -errno, as mg_kdev_mount().
 */
int check_mount(const struct check_names *nm, uint32_t dev, const char **mnt);
/* Free what check_names_of() allocated in nm. */
void check_names_free(struct check_names *nm);
/* The kernel's symbols freed (every exit path: cleanup()). */
void check_ksyms_end(struct check_state *cs);

#endif
