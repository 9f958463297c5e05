// SPDX-License-Identifier: GPL-2.0
/* ident.c - kernel dev_t conversion, printing and mount lookup (see ident.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "ident.h"
#include "util.h"

uint32_t mg_kdev(unsigned int major, unsigned int minor)
{
	return (major & MG_KDEV_MAX_MAJOR) << MG_KDEV_MINORBITS | (minor & MG_KDEV_MAX_MINOR);
}

unsigned int mg_kdev_major(uint32_t kdev)
{
	return kdev >> MG_KDEV_MINORBITS;
}

unsigned int mg_kdev_minor(uint32_t kdev)
{
	return kdev & MG_KDEV_MAX_MINOR;
}

int mg_kdev_from_user(dev_t dev, uint32_t *kdev)
{
	unsigned int ma = major(dev), mi = minor(dev);

	if (ma > MG_KDEV_MAX_MAJOR || mi > MG_KDEV_MAX_MINOR)
		return -ERANGE;
	*kdev = mg_kdev(ma, mi);
	return 0;
}

const char *mg_kdev_str(uint32_t kdev, char buf[MG_KDEV_STRLEN])
{
	snprintf(buf, MG_KDEV_STRLEN, "%u:%u", mg_kdev_major(kdev), mg_kdev_minor(kdev));
	return buf;
}

/* Undo mountinfo's octal escapes (\ooo) in place; returns the new length. */
static size_t unescape_octal(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 | (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
	return (size_t)(w - s);
}

/* Copy n bytes of src into buf (len bytes), cut to len - 1 and NUL-terminated. */
static void put_cut(char *buf, size_t len, const char *src, size_t n)
{
	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, src, n);
	buf[n] = 0;
}

/* One parsed line of /proc/self/mountinfo: pointers into the line, which they outlive not. */
struct mi_line {
	uint32_t kdev;			/* field 3, MAJ:MIN */
	const char *mnt, *fs;		/* field 5 unescaped; the field after " - " */
	size_t mntlen, fslen;
};

/*
 * Parse one mountinfo line in place into *ml: mount ID, parent ID, MAJ:MIN, root, mount
 * point, ... (proc(5)), the mount point's octal escapes undone. false for a line
 * without those fields or with a MAJ:MIN beyond the kernel's 12/20 bits. The one
 * parser of mg_kdev_mount(), mg_kdev_fstype() and mg_mounts_load().
 */
static bool mountinfo_line(char *line, struct mi_line *ml)
{
	char *save, *tok, *dash = strstr(line, " - ");
	unsigned int ma = 0, mi = 0;
	int field;
	char extra;

	for (field = 0, tok = strtok_r(line, " \n", &save); tok && field < 4;
	     tok = strtok_r(NULL, " \n", &save), field++) {
		if (field == 2 && (sscanf(tok, "%u:%u%c", &ma, &mi, &extra) != 2 ||
				   ma > MG_KDEV_MAX_MAJOR || mi > MG_KDEV_MAX_MINOR))
			return false;
	}
	if (field != 4 || !tok)
		return false;
	ml->kdev = mg_kdev(ma, mi);
	ml->mnt = tok;
	ml->mntlen = unescape_octal(tok);
	ml->fs = dash ? dash + 3 : "";
	ml->fslen = strcspn(ml->fs, " \n");
	return true;
}

/*
 * Each line of /proc/self/mountinfo parsed (mountinfo_line()) and given to fn, in order,
 * until fn returns non-zero. Returns fn's last return (0: every line given), or -errno
 * when the file cannot be opened.
 */
static int mountinfo_each(int (*fn)(void *ctx, const struct mi_line *ml), void *ctx)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	struct mi_line ml;
	int ret = 0;

	if (!f)
		return -errno;
	while (!ret && getline(&line, &cap, f) > 0)
		if (mountinfo_line(line, &ml))
			ret = fn(ctx, &ml);
	free(line);
	fclose(f);
	return ret;
}

/* The first line of one device (mountinfo_find()): its mount point, its type. */
struct mi_find {
	uint32_t kdev;
	char *mnt, *fs;
	size_t mntlen, fslen;
};

static int find_one(void *ctx, const struct mi_line *ml)
{
	struct mi_find *q = ctx;

	if (ml->kdev != q->kdev)
		return 0;
	if (q->mnt)
		put_cut(q->mnt, q->mntlen, ml->mnt, ml->mntlen);
	if (q->fs)
		put_cut(q->fs, q->fslen, ml->fs, ml->fslen);
	return (int)ml->mntlen + 1;	/* > 0: found, stop */
}

/*
 * The first mountinfo line of kdev: its mount point (unescaped) into mnt and its
 * filesystem type (the field after " - ") into fs; either may be NULL. Returns the
 * mount point's length, -ENOENT or -errno.
 */
static int mountinfo_find(uint32_t kdev, char *mnt, size_t mntlen, char *fs, size_t fslen)
{
	struct mi_find q = { .kdev = kdev, .mnt = mnt, .fs = fs, .mntlen = mntlen,
			     .fslen = fslen };
	int ret;

	if (mnt && mntlen)
		mnt[0] = 0;
	if (fs && fslen)
		fs[0] = 0;
	ret = mountinfo_each(find_one, &q);
	return ret > 0 ? ret - 1 : ret < 0 ? ret : -ENOENT;
}

int mg_kdev_mount(uint32_t kdev, char *buf, size_t len)
{
	return mountinfo_find(kdev, buf, len, NULL, 0);
}

int mg_kdev_fstype(uint32_t kdev, char *buf, size_t len)
{
	int r = mountinfo_find(kdev, NULL, 0, buf, len);

	return r < 0 ? r : 0;
}

/* Append one line's device, mount point and type to the table (mg_mounts_load()). */
static int table_add(void *ctx, const struct mi_line *ml)
{
	struct mg_mounts *t = ctx;
	size_t need = ml->mntlen + ml->fslen + 2;

	if (mg_grow(&t->m, &t->cap, t->n, sizeof(*t->m), 64))
		return -ENOMEM;
	if (t->used + need > t->pool_cap) {
		size_t cap = t->pool_cap ? t->pool_cap * 2 : 4096;
		char *p;

		while (cap < t->used + need)
			cap *= 2;
		if (!(p = realloc(t->pool, cap)))
			return -ENOMEM;
		t->pool = p;
		t->pool_cap = cap;
	}
	t->m[t->n] = (struct mg_mount){ .kdev = ml->kdev, .mnt = t->used, .mntlen = ml->mntlen,
					.fs = t->used + ml->mntlen + 1 };
	memcpy(t->pool + t->used, ml->mnt, ml->mntlen);
	t->pool[t->used + ml->mntlen] = 0;
	memcpy(t->pool + t->used + ml->mntlen + 1, ml->fs, ml->fslen);
	t->pool[t->used + need - 1] = 0;
	t->used += need;
	t->n++;
	return 0;
}

int mg_mounts_load(struct mg_mounts *t)
{
	mg_mounts_free(t);
	t->err = mountinfo_each(table_add, t);
	t->loaded = true;
	return t->err;
}

int mg_mounts_find(struct mg_mounts *t, uint32_t kdev, const char **mnt, const char **fs)
{
	size_t i;

	if (!t->loaded)
		mg_mounts_load(t);
	if (t->err)
		return t->err;
	for (i = 0; i < t->n; i++)
		if (t->m[i].kdev == kdev) {
			if (mnt)
				*mnt = t->pool + t->m[i].mnt;
			if (fs)
				*fs = t->pool + t->m[i].fs;
			return (int)t->m[i].mntlen;
		}
	return -ENOENT;
}

void mg_mounts_free(struct mg_mounts *t)
{
	free(t->m);
	free(t->pool);
	*t = (struct mg_mounts){ 0 };
}
