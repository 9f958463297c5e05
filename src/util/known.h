/* SPDX-License-Identifier: GPL-2.0 */
/*
 * known.h - declared known kernel faults (check --known FILE): a CI gate on a
 * kernel with a reported fault stays green for that fault and red for any
 * other. FILE is JSON (docs/schema/known-faults.schema.json; the shipped one is
 * contrib/known-faults.json). Each entry matches a violation by its kind, the
 * filesystem type of its inode (mountinfo of its dev), optionally the path that
 * set the later value (the event: inode_set_ctime_to_ts, a ctime_set, or
 * inode_set_ctime_current, a ctime_swap) and whether that inode is a directory
 * (MG_EVF_DIR of a set), and a kernel release range. A matched violation is
 * counted as known, with its entry's reference, and does not fail the check.
 */
#ifndef MG_KNOWN_H
#define MG_KNOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "checker.h"

#define MG_KNOWN_MAX 64		/* entries in one file */

/* One declared fault. */
struct mg_known_entry {
	char id[64];			/* "tmpfs-dir-ctime" */
	int kind;			/* enum mg_violation_kind */
	char fstype[32];		/* mountinfo's filesystem type ("tmpfs") */
	int setter;			/* enum mg_event_kind of the later event; -1: any */
	int dir;			/* 1: the later event's inode is a directory (needs
					 * the setter inode_set_ctime_to_ts); -1: any inode */
	char from[32];			/* first kernel release it applies to ("6.13") */
	char before[32];		/* first release it does not ("": open-ended) */
	char reference[256];		/* where it is reported (docs/findings/...) */
	char summary[256];
	bool applies;			/* this kernel's release is in [from, before) */
	uint64_t matched;		/* violations it matched */
	bool have_example;
	struct mg_violation example;	/* the first one */
};

/* A loaded file, and the dev -> filesystem type lookups it made. */
struct mg_known {
	char path[4096];
	char release[65];		/* the kernel's (uname -r) */
	struct mg_known_entry e[MG_KNOWN_MAX];
	size_t n;
	struct { uint32_t dev; char fstype[32]; } cache[32];
	size_t ncache;
};

/*
 * Load path for a kernel of release (uname -r). Returns 0, or -EINVAL (not such a
 * file: err says where and why), -errno (cannot be read), with err set.
 */
int mg_known_load(struct mg_known *k, const char *path, const char *release, char *err,
		  size_t errlen);

/* mg_known_fn (checker.h): the entry v matches (its count and example kept), or -1. */
int mg_known_match(void *ctx, const struct mg_violation *v);

/* Order of two kernel releases by their leading dotted numbers ("6.18.44-x" > "6.13"). */
int mg_release_cmp(const char *a, const char *b);

/* The names a file uses for a setter: "inode_set_ctime_to_ts" or "inode_set_ctime_current". */
const char *mg_known_setter_name(int event_kind);

#endif
