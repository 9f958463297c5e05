// SPDX-License-Identifier: GPL-2.0
/*
 * top_cgroup.c - the names of `top --by cgroup`'s rows: a cgroup id
 * (bpf_get_current_cgroup_id()) as its cgroup v2 path relative to the caller's
 * cgroup namespace root, found under the cgroup2 mount of /proc/self/mountinfo
 * (see top_int.h).
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "top_int.h"

#define CGROUP_ROOT "/sys/fs/cgroup"

/*
 * The cgroup v2 hierarchy as the caller sees it. dir: where it is mounted (the
 * first cgroup2 line of /proc/self/mountinfo; a hybrid layout mounts it at
 * /sys/fs/cgroup/unified, under a tmpfs), else CGROUP_ROOT. Paths are named
 * relative to the caller's cgroup namespace root, as /proc/self/cgroup names
 * them: mountinfo's root field is the mount's root relative to that namespace
 * root (fs/kernfs/mount.c kernfs_sop_show_path, cgroup_show_path). "/" or
 * "/sub": the namespace root is at or above the mount, prefix is that field.
 * "/../..": the mount is the hierarchy's root seen from inside a namespace
 * whose root is depth levels below it; ns_dir is that directory, found as the
 * one whose subtree holds this process at its /proc/self/cgroup path
 * (cgroup.procs lists pids of the reader's PID namespace). Anything else
 * ("/../x", or ns_dir not found): no cgroup has a name in this namespace.
 */
static struct {
	bool done;
	bool unnamed;		/* names unavailable: the namespace root is not in this mount */
	char dir[4096];		/* mount point */
	char prefix[4096];	/* the mount's root in namespace terms, "" for "/" */
	char ns_dir[4096];	/* below dir: the namespace root, "" for dir itself */
} cg;

/* mountinfo's octal escapes (\040 for a space) undone in place. */
static void mi_unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = 0;
}

/* This process's cgroup v2 path relative to its cgroup namespace ("0::PATH"). */
static bool self_cgroup(char *buf, size_t len)
{
	char line[4096];
	bool ok = false;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, len, "%s", line + 3);
			ok = true;
		}
	fclose(f);
	return ok;
}

/* Does DIR/cgroup.procs list this process? */
static bool holds_self(const char *dir)
{
	char path[8208];
	long pid, me = (long)getpid();
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (!(f = fopen(path, "re")))
		return false;
	while (!found && fscanf(f, "%ld", &pid) == 1)
		found = pid == me;
	fclose(f);
	return found;
}

static int want_depth;
static char self_rel[4096];
static int ns_visit(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	char probe[8192];

	(void)st;
	if (flag != FTW_D || f->level != want_depth)
		return 0;
	snprintf(probe, sizeof(probe), "%s%s", path, strcmp(self_rel, "/") ? self_rel : "");
	if (!holds_self(probe))
		return 0;
	snprintf(cg.ns_dir, sizeof(cg.ns_dir), "%s", path + strlen(cg.dir));
	return 1;
}

static void cg_setup(void)
{
	char line[8192], *fld[10], *sep, *save, *root = NULL;
	FILE *f;
	int i, ups = 0;

	if (cg.done)
		return;
	cg.done = true;
	snprintf(cg.dir, sizeof(cg.dir), "%s", CGROUP_ROOT);
	if (!(f = fopen("/proc/self/mountinfo", "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!(sep = strstr(line, " - ")) || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		*sep = 0;
		for (i = 0, fld[0] = strtok_r(line, " ", &save); fld[i] && i < 9;)
			fld[++i] = strtok_r(NULL, " ", &save);
		if (i < 5)
			continue;
		mi_unescape(fld[3]);
		mi_unescape(fld[4]);
		snprintf(cg.dir, sizeof(cg.dir), "%s", fld[4]);
		root = fld[3];
		break;
	}
	fclose(f);
	if (!root)
		return;
	while (!strncmp(root, "/..", 3) && (root[3] == '/' || !root[3])) {
		ups++;
		root += 3;
	}
	if (!ups) {
		snprintf(cg.prefix, sizeof(cg.prefix), "%s", strcmp(root, "/") ? root : "");
		return;
	}
	/* the namespace root lies ups levels below the mount's root, if root is now "" */
	want_depth = ups;
	if (*root || !self_cgroup(self_rel, sizeof(self_rel)) ||
	    nftw(cg.dir, ns_visit, 16, FTW_PHYS | FTW_MOUNT) != 1)
		cg.unnamed = true;
}

/* Cgroup v2 path of id: the directory under the cgroup2 mount whose inode number is id. */
static uint64_t want_id;
static char found_path[4096];
static int cg_visit(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)f;
	if (flag == FTW_D && (uint64_t)st->st_ino == want_id) {
		snprintf(found_path, sizeof(found_path), "%s", path);
		return 1;
	}
	return 0;
}

/*
 * The name of cgroup id (bpf_get_current_cgroup_id(): the kernfs inode number
 * of its cgroup v2 directory) relative to the caller's cgroup namespace root,
 * cached. NULL with *why set where it has none: outside the namespace, or gone.
 */
const char *top_cgroup_path(uint64_t id, const char **why)
{
	static struct { uint64_t id; char *path; } cache[256];
	static unsigned int next;
	char walk[8192], name[8192];
	const char *rel;
	unsigned int i;
	size_t nl;

	for (i = 0; i < 256; i++)
		if (cache[i].path && cache[i].id == id)
			return cache[i].path;
	cg_setup();
	*why = "outside the caller's cgroup namespace";
	if (cg.unnamed)
		return NULL;
	snprintf(walk, sizeof(walk), "%s%s", cg.dir, cg.ns_dir);
	want_id = id;
	if (nftw(walk, cg_visit, 16, FTW_PHYS | FTW_MOUNT) != 1) {
		/* outside the namespace root's subtree, or no longer there */
		*why = cg.ns_dir[0] ? "outside the caller's cgroup namespace, or gone"
				    : "gone, or not a cgroup v2 cgroup";
		return NULL;
	}
	nl = strlen(walk);
	rel = found_path + nl;
	snprintf(name, sizeof(name), "%s%s", cg.prefix, rel);
	if (!name[0])
		strcpy(name, "/");
	i = next++ % 256;
	free(cache[i].path);
	cache[i].id = id;
	cache[i].path = strdup(name);
	return cache[i].path;
}
