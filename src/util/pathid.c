// SPDX-License-Identifier: GPL-2.0
/*
 * pathid.c - a user's path -> the (dev, ino) identities the kernel's events name.
 *
 * The timestamp tracepoints pass a struct inode; mgtrace's BPF matches
 * inode->i_sb->s_dev and inode->i_ino. stat(2)'s st_dev is not always s_dev:
 * btrfs reports the subvolume's anonymous device (btrfs_getattr()), overlayfs a
 * pseudo device per layer (ovl_getattr()). So the device is taken from the
 * kernel's own record of the superblock instead: statx() gives the path's mount
 * id (STATX_MNT_ID, Linux 5.8+; multigrain needs 6.13), and field 3 of that
 * mount's /proc/self/mountinfo line is MAJOR(sb->s_dev):MINOR(sb->s_dev)
 * (show_mountinfo(), fs/proc_namespace.c). The mount id is what field 1 holds,
 * so exactly one line matches, also for bind mounts and several mounts of one
 * filesystem. The inode number is statx's stx_ino: generic_fillattr() copies
 * i_ino, btrfs reports btrfs_ino() (= i_ino on 64-bit), and overlayfs sets a
 * non-directory's i_ino to the st_ino it reports (ovl_map_ino()).
 *
 * Overlayfs: the overlay inode only gets inode_set_ctime_to_ts() copies
 * (ovl_copyattr()); stat queries and ctime swaps happen on the real inode, in
 * the upper layer, or in a lower layer while the file is not copied up. The
 * layers are named in the mount's super options (upperdir=, lowerdir= or
 * lowerdir+=); the real file is that directory + the path below the overlay's
 * root. Both the overlay inode and the real one are traced. Not followed:
 * redirected directories (redirect_dir) and layers not reachable from this
 * mount namespace (both said in the note). A file only in a lower layer is
 * copied up on its first write, to a new upper inode unknown in advance; the
 * trace says so at its end (mg_ident_copied_up()).
 *
 * No step asks for timestamps (statx without STATX_CTIME/STATX_MTIME, and
 * readlink of /proc/self/fd), so resolving does not set I_CTIME_QUERIED on the
 * traced file, which would change how its next ctime update is stamped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "ident.h"
#include "pathid.h"

/* What statx is asked for: never STATX_CTIME or STATX_MTIME (see above). */
#define ID_MASK (STATX_TYPE | STATX_INO | STATX_MNT_ID)

/* One /proc/self/mountinfo line. */
struct mnt_line {
	unsigned int dev;		/* field 3, kernel dev_t */
	char root[PATH_MAX];		/* field 4: the mount's root within its filesystem */
	char point[PATH_MAX];		/* field 5: mount point */
	char fstype[32];
	char *sopts;			/* super options (malloc'd), unescaped per option later */
};

/* Undo mountinfo's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash, \054 comma). */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = 0;
}

/* Find mount id in /proc/self/mountinfo. Returns 0, -ENOENT or -errno. */
static int mount_by_id(int id, struct mnt_line *m)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *dash;
	size_t cap = 0;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		unsigned int mid, pid, maj, min;
		char root[PATH_MAX], point[PATH_MAX], fstype[32];
		int used;

		if (sscanf(line, "%u %u %u:%u %4095s %4095s%n", &mid, &pid, &maj, &min, root, point,
			   &used) != 6 || (int)mid != id)
			continue;
		dash = strstr(line + used, " - ");
		if (!dash)
			break;
		m->sopts = calloc(1, strlen(dash) + 1);
		if (!m->sopts) {
			ret = -ENOMEM;
			break;
		}
		/* after " - ": fstype source super_options */
		if (sscanf(dash + 3, "%31s %*s %s", fstype, m->sopts) < 1) {
			free(m->sopts);
			m->sopts = NULL;
			break;
		}
		unescape(root);
		unescape(point);
		m->dev = mg_kdev(maj, min);
		snprintf(m->root, sizeof(m->root), "%s", root);
		snprintf(m->point, sizeof(m->point), "%s", point);
		snprintf(m->fstype, sizeof(m->fstype), "%s", fstype);
		ret = 0;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * "WHAT 'PATH': REASON (ENAME)" into err: a path of more than 160 bytes is cut, with
 * its length said (a 6,000-byte path's reason would otherwise be cut off the line).
 */
static void path_err(char *err, size_t errlen, const char *what, const char *path, int e)
{
	size_t n = strlen(path);
	char len[40] = "";

	if (n > 160)
		snprintf(len, sizeof(len), "... (%zu bytes)", n);
	snprintf(err, errlen, "%s '%.160s%s': %s (%s)", what, path, len, strerror(e),
		 strerrorname_np(e) ?: "?");
}

/*
 * statx path (no timestamps asked) and its mount's line. canon (may be NULL)
 * gets the path as the kernel names it (readlink of /proc/self/fd of an O_PATH
 * open, which calls no getattr). Returns 0 or -errno with err filled.
 */
static int resolve_one(const char *path, struct statx *stx, struct mnt_line *m, char *canon,
		       char *err, size_t errlen)
{
	char link[64];
	int fd, ret;
	ssize_t n;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		path_err(err, errlen, "cannot stat", path, -ret);
		return ret;
	}
	if (statx(fd, "", AT_EMPTY_PATH, ID_MASK, stx)) {
		ret = -errno;
		path_err(err, errlen, "cannot statx", path, -ret);
		goto out;
	}
	if (!(stx->stx_mask & STATX_MNT_ID) || !(stx->stx_mask & STATX_INO)) {
		ret = -EOPNOTSUPP;
		snprintf(err, errlen, "statx gave no mount id or inode for '%s' (needs Linux 5.8+)",
			 path);
		goto out;
	}
	if (canon) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, canon, PATH_MAX - 1);
		canon[n > 0 ? n : 0] = 0;
	}
	ret = mount_by_id((int)stx->stx_mnt_id, m);
	if (ret)
		snprintf(err, errlen, "mount %llu of '%s' not in /proc/self/mountinfo: %s",
			 (unsigned long long)stx->stx_mnt_id, path, strerror(-ret));
out:
	close(fd);
	return ret;
}

/* Append one identity. */
static void add_id(struct mg_ident_set *s, unsigned int dev, unsigned long long ino,
		   unsigned int mode, const char *fstype, const char *role, const char *why)
{
	struct mg_ident *id;

	if (s->n >= MG_MAX_IDS)
		return;
	id = &s->id[s->n++];
	id->dev = dev;
	id->ino = ino;
	snprintf(id->fstype, sizeof(id->fstype), "%s", fstype);
	snprintf(id->role, sizeof(id->role), "%s", role);
	snprintf(id->ftype, sizeof(id->ftype), "%s", mg_ident_ftype(mode));
	snprintf(id->why, sizeof(id->why), "%s", why);
}

const char *mg_ident_ftype(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "regular";
	case S_IFDIR: return "directory";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	case S_IFCHR: return "char-device";
	case S_IFBLK: return "block-device";
	case S_IFLNK: return "symlink";
	}
	return "unknown";
}

static void note(struct mg_ident_set *s, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(s->note);

	snprintf(s->note + n, sizeof(s->note) - n, "%s", n ? "; " : "");
	n = strlen(s->note);
	snprintf(s->note + n, sizeof(s->note) - n, fmt, a, b);
}

/* Value of super option name= (or name+= for the n-th occurrence) into out, unescaped. */
static bool sopt(const char *sopts, const char *name, int nth, char *out, size_t len)
{
	size_t nl = strlen(name);
	const char *p = sopts;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t l = end ? (size_t)(end - p) : strlen(p);

		if (l > nl && !strncmp(p, name, nl) && p[nl] == '=' && nth-- == 0) {
			snprintf(out, len, "%.*s", (int)(l - nl - 1), p + nl + 1);
			unescape(out);
			return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

/*
 * The next layer of a layer list in *list (overlayfs's own syntax, left in the
 * super options mountinfo shows: "\," is a comma, "\:" a colon, "\\" a backslash,
 * and an unescaped sep ends the layer: ':' in lowerdir=, none (0) in upperdir=)
 * into out, unescaped; *list moves past it. False at the end of the list.
 */
static bool ovl_layer(char **list, char sep, char *out, size_t len)
{
	char *s = *list;
	size_t n = 0;

	if (!s || !*s)
		return false;
	for (; *s && !(sep && *s == sep); s++) {
		if (*s == '\\' && s[1])
			s++;
		if (n + 1 < len)
			out[n++] = *s;
	}
	out[n] = 0;
	*list = *s ? s + 1 : s;
	return true;
}

/* Layer dir + rel (rel starts with '/' or is empty). */
static void join(char *out, const char *dir, const char *rel)
{
	snprintf(out, PATH_MAX, "%s%s", dir, rel);
}

/*
 * Try dir+rel as the real file: on success add its identity with role. A relative
 * dir (as given to mount: mountinfo does not say from which directory) is never
 * joined to this process's own: it could name another file; noted instead.
 */
static bool try_layer(struct mg_ident_set *s, const char *dir, const char *rel, const char *role,
		      char *path_out)
{
	char err[256], why[200], p[PATH_MAX];
	struct mnt_line m = { 0 };
	struct statx stx;

	join(p, dir, rel);
	if (path_out)
		snprintf(path_out, PATH_MAX, "%s", p);
	if (dir[0] != '/') {
		note(s, "the %s layer's path %s is relative, as it was given to mount, and "
		     "mountinfo does not say relative to what: not followed", role, dir);
		return false;
	}
	if (resolve_one(p, &stx, &m, NULL, err, sizeof(err)))
		return false;
	snprintf(why, sizeof(why), "%s layer's file %.120s: s_dev of mount %llu (%s)", role, p,
		 (unsigned long long)stx.stx_mnt_id, m.fstype);
	add_id(s, m.dev, stx.stx_ino, stx.stx_mode, m.fstype, role, why);
	free(m.sopts);
	return true;
}

/* The overlay's real file: upper if present (plus lower for a metacopy), else lower. */
static void overlay_real(struct mg_ident_set *s, const struct mnt_line *m, const char *canon)
{
	char rel[PATH_MAX], dir[PATH_MAX], upper[PATH_MAX], lowers[PATH_MAX], opt[PATH_MAX], *l;
	size_t pl = strlen(m->point);
	bool have_upper, meta = false;
	int i;

	/* the path below the overlay's root: canon minus the mount point, plus the mount's root */
	if (strcmp(m->point, "/") && (strncmp(canon, m->point, pl) || (canon[pl] && canon[pl] != '/'))) {
		note(s, "%s is not below its mount point %s: overlay layers not followed", canon,
		     m->point);
		return;
	}
	if (snprintf(rel, sizeof(rel), "%.2047s%.2047s", strcmp(m->root, "/") ? m->root : "",
		     strcmp(m->point, "/") ? canon + pl : canon) >= 4094) {
		note(s, "%s: path too long%s, overlay layers not followed", canon, "");
		return;
	}
	l = opt;
	have_upper = sopt(m->sopts, "upperdir", 0, opt, sizeof(opt)) &&
		     ovl_layer(&l, 0, dir, sizeof(dir));
	if (have_upper && try_layer(s, dir, rel, "upper", upper)) {
		/* metacopy=on: the upper file may hold only metadata, the data stays below */
		meta = getxattr(upper, "trusted.overlay.metacopy", NULL, 0) >= 0;
		if (!meta)
			return;
	} else if (have_upper) {
		s->upper_pending = true;
		snprintf(s->upper_path, sizeof(s->upper_path), "%s", upper);
	}
	/* lower layers, top first: "lowerdir=a:b" or one "lowerdir+=" per layer */
	l = lowers;
	if (sopt(m->sopts, "lowerdir", 0, lowers, sizeof(lowers)))
		while (ovl_layer(&l, ':', dir, sizeof(dir)))
			if (try_layer(s, dir, rel, meta ? "lower-data" : "lower", NULL))
				goto found;
	for (i = 0; sopt(m->sopts, "lowerdir+", i, dir, sizeof(dir)); i++)
		if (try_layer(s, dir, rel, meta ? "lower-data" : "lower", NULL))
			goto found;
	note(s, "the real file of %s was found in no reachable layer (%s): only the overlay "
	     "inode is traced", canon, have_upper ? "upper and lower" : "lower");
	s->upper_pending = false;
	return;
found:
	if (s->upper_pending)
		note(s, "%s is only in a lower layer: a write copies it up to a new upper inode "
		     "(%s), which is not traced", canon, s->upper_path);
}

int mg_ident_resolve(const char *path, struct mg_ident_set *s, char *err, size_t errlen)
{
	char canon[PATH_MAX], why[200];
	struct mnt_line m = { 0 };
	struct statx stx;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = resolve_one(path, &stx, &m, canon, err, errlen);
	if (ret)
		return ret;
	s->stat_dev = mg_kdev(stx.stx_dev_major, stx.stx_dev_minor);
	if (s->stat_dev == m.dev)
		snprintf(why, sizeof(why), "statx (dev = s_dev of mount %llu, %s)",
			 (unsigned long long)stx.stx_mnt_id, m.fstype);
	else
		snprintf(why, sizeof(why), "s_dev of mount %llu (%s) from /proc/self/mountinfo; "
			 "stat reports dev %u:%u", (unsigned long long)stx.stx_mnt_id, m.fstype,
			 stx.stx_dev_major, stx.stx_dev_minor);
	s->mode = stx.stx_mode & S_IFMT;
	s->ino = stx.stx_ino;
	s->mnt_id = stx.stx_mnt_id;
	snprintf(s->mnt_point, sizeof(s->mnt_point), "%s", m.point);
	add_id(s, m.dev, stx.stx_ino, stx.stx_mode, m.fstype,
	       strcmp(m.fstype, "overlay") ? "file" : "overlay", why);
	if (!strcmp(m.fstype, "overlay") && !S_ISDIR(stx.stx_mode))
		overlay_real(s, &m, canon);
	/* btrfs: one superblock for all subvolumes, each numbering its inodes from 256 */
	if (!strcmp(m.fstype, "btrfs")) {
		char ino[24];

		snprintf(ino, sizeof(ino), "%llu", (unsigned long long)stx.stx_ino);
		note(s, "btrfs subvolumes share one s_dev and each numbers its inodes afresh: %s is "
		     "inode %s, and that number in any other subvolume of this filesystem matches "
		     "too", canon, ino);
	}
	free(m.sopts);
	return 0;
}

bool mg_ident_copied_up(const struct mg_ident_set *s, struct mg_ident *now)
{
	struct mnt_line m = { 0 };
	struct statx stx;
	char err[256];

	if (!s->upper_pending || resolve_one(s->upper_path, &stx, &m, NULL, err, sizeof(err)))
		return false;
	now->dev = m.dev;
	now->ino = stx.stx_ino;
	snprintf(now->fstype, sizeof(now->fstype), "%s", m.fstype);
	snprintf(now->role, sizeof(now->role), "upper");
	snprintf(now->ftype, sizeof(now->ftype), "%s", mg_ident_ftype(stx.stx_mode));
	snprintf(now->why, sizeof(now->why), "%.180s", s->upper_path);
	free(m.sopts);
	return true;
}

bool mg_ident_replaced(const char *path, const struct mg_ident_set *s, struct mg_ident *now)
{
	struct mg_ident_set cur;
	char err[256];
	int i;

	if (!path || mg_ident_resolve(path, &cur, err, sizeof(err)) || !cur.n)
		return false;
	for (i = 0; i < s->n; i++)
		if (s->id[i].dev == cur.id[0].dev && s->id[i].ino == cur.id[0].ino)
			return false;
	*now = cur.id[0];
	return true;
}

int mg_path_mount(const char *path, unsigned int *kdev, char *buf, size_t len, char *fstype,
		  size_t flen)
{
	struct mnt_line m = { 0 };
	struct statx stx;
	char err[PATH_MAX + 100];
	int ret = resolve_one(path, &stx, &m, NULL, err, sizeof(err));

	snprintf(fstype, flen, "%s", ret ? "unknown" : m.fstype);
	if (!ret) {
		*kdev = m.dev;
		snprintf(buf, len, "%s", m.point);
	}
	free(m.sopts);
	return ret;
}
