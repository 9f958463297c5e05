// SPDX-License-Identifier: GPL-2.0
/* ident.c - kernel dev_t conversion, printing and mount lookup (see ident.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "ident.h"

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

/*
 * The first mountinfo line of kdev: its mount point (unescaped) into mnt and its
 * filesystem type (the field after " - ") into fs; either may be NULL. Returns the
 * mount point's length, -ENOENT or -errno.
 */
static int mountinfo_find(uint32_t kdev, char *mnt, size_t mntlen, char *fs, size_t fslen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *save, *tok, *dash;
	size_t cap = 0, n;
	int ret = -ENOENT, field;

	if (!f)
		return -errno;
	if (mnt && mntlen)
		mnt[0] = 0;
	if (fs && fslen)
		fs[0] = 0;
	while (ret == -ENOENT && getline(&line, &cap, f) > 0) {
		unsigned int ma, mi;
		char extra;

		dash = strstr(line, " - ");
		/* mount ID, parent ID, MAJ:MIN, root, mount point, ... (proc(5)) */
		for (field = 0, tok = strtok_r(line, " \n", &save); tok && field < 4;
		     tok = strtok_r(NULL, " \n", &save), field++) {
			if (field == 2 && (sscanf(tok, "%u:%u%c", &ma, &mi, &extra) != 2 ||
					   mg_kdev(ma, mi) != kdev || ma > MG_KDEV_MAX_MAJOR ||
					   mi > MG_KDEV_MAX_MINOR))
				break;
		}
		if (field != 4 || !tok)
			continue;
		n = unescape_octal(tok);
		if (mnt)
			put_cut(mnt, mntlen, tok, n);
		if (fs && dash)
			put_cut(fs, fslen, dash + 3, strcspn(dash + 3, " \n"));
		ret = (int)n;
	}
	free(line);
	fclose(f);
	return ret;
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
