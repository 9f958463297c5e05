// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the kernel's debugfs file multigrain_timestamps (see kenv.h): whether
 * it opens for this process, why not in one line, and reading its four totals
 * (kept open between reads, for narrow brackets around each snapshot). Only the
 * kernel's own file (on debugfs) in the kernel's format (fs/inode.c, mgts_show():
 * "%lu %lu %lu %lu\n", ctime_updates ctime_swaps fine_stamps floor_swaps) is read:
 * anything else is rejected with its reason, never read as zeros.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>
#include "kenv.h"
#include "util.h"
#include "kenv_int.h"

#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

/* Why the file last probed or read is not the kernel's (-EPROTO): mg_debugfs_why(). */
static char dbg_why[256];


/*
 * fd is debugfs's own file: 0, or -EPROTO with dbg_why naming the filesystem of what is
 * mounted over it (a bind-mounted regular file reads anything, zeros included).
 */
static int check_fs(int fd)
{
	struct statfs sfs;
	const char *name;

	if (fstatfs(fd, &sfs))
		return -errno;
	if (sfs.f_type == DEBUGFS_MAGIC)
		return 0;
	name = mg_fs_magic_name((unsigned long)sfs.f_type);
	snprintf(dbg_why, sizeof(dbg_why), MG_DEBUGFS_FILE " is not the kernel's file: a file of "
		 "%s (f_type 0x%lx) is mounted over it", name ? name : "another filesystem",
		 (unsigned long)sfs.f_type);
	return -EPROTO;
}

/* A token of bad text, as the reason quotes it: at most 16 bytes, up to a space or a newline. */
static void quote(char *dst, size_t size, const char *p, const char *end)
{
	size_t i = 0;

	for (; p < end && *p != ' ' && *p != '\n' && i + 1 < size && i < 16; p++)
		dst[i++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
	dst[i] = 0;
}

int mg_debugfs_parse(const char *buf, size_t len, uint64_t out[MG_K_NR_COUNTERS], char *why,
		     size_t whylen)
{
	static const char *const names = "ctime_updates ctime_swaps fine_stamps floor_swaps";
	const char *p = buf, *end = buf + len;
	char tok[20];
	int i;

	if (!len) {
		snprintf(why, whylen, "empty (the kernel's is one line of four counts: %s)", names);
		return -EPROTO;
	}
	for (i = 0; i < MG_K_NR_COUNTERS; i++) {
		uint64_t v = 0;

		if (i && (p == end || *p == '\n')) {
			snprintf(why, whylen, "line 1 has %d count%s, not the kernel's four (%s)", i,
				 i > 1 ? "s" : "", names);
			return -EPROTO;
		}
		if (i && *p++ != ' ') {
			quote(tok, sizeof(tok), p - 1, end);
			snprintf(why, whylen, "line 1: '%s' after count %d, not a space", tok, i);
			return -EPROTO;
		}
		if (p == end || *p < '0' || *p > '9') {
			quote(tok, sizeof(tok), p, end);
			if (!tok[0])
				snprintf(why, whylen, "line 1, field %d is empty (the kernel's line: "
					 "%s)", i + 1, names);
			else
				snprintf(why, whylen, "line 1, field %d: '%s' is not a count (the "
					 "kernel's line: %s)", i + 1, tok, names);
			return -EPROTO;
		}
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) {
				snprintf(why, whylen, "line 1, field %d: a count above 2^64 - 1", i + 1);
				return -EPROTO;
			}
			v = v * 10 + (uint64_t)(*p - '0');
		}
		out[i] = v;
	}
	if (p < end && *p == ' ') {
		snprintf(why, whylen, "line 1 has more than the kernel's four counts (%s)", names);
		return -EPROTO;
	}
	if (p == end || *p != '\n') {
		quote(tok, sizeof(tok), p, end);
		snprintf(why, whylen, p == end ? "line 1 does not end (the kernel's ends in a newline)" :
			 "line 1: '%s' after the fourth count", tok);
		return -EPROTO;
	}
	if (p + 1 != end) {
		snprintf(why, whylen, "more than one line (the kernel's is one line)");
		return -EPROTO;
	}
	return 0;
}

/* Read fd's line at offset 0 into out: 0, -EPROTO (dbg_why says why) or -errno. */
static int read_fd(int fd, uint64_t out[MG_K_NR_COUNTERS])
{
	char buf[256], why[160];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	if (n < 0)
		return -errno;
	/* a full buffer: longer than any line of the kernel's, said as "does not end" */
	if (mg_debugfs_parse(buf, (size_t)(n == (ssize_t)sizeof(buf) ? n - 1 : n), out, why,
			     sizeof(why))) {
		snprintf(dbg_why, sizeof(dbg_why), MG_DEBUGFS_FILE " is not the kernel's: %s", why);
		return -EPROTO;
	}
	return 0;
}

/*
 * 0 when the debugfs file opens for reading, else -ENODEV (no debugfs there) or the
 * open's -errno. The open itself, not access(): access() checks the real uid, so a
 * non-root user holding CAP_DAC_READ_SEARCH (or CAP_SYS_ADMIN) was told "not readable".
 */
int mg_debugfs_probe(void)
{
	uint64_t v[MG_K_NR_COUNTERS];
	struct statfs sfs;
	int fd, err;

	if (statfs(MG_DEBUGFS_DIR, &sfs)) {
		/* the mount point itself may be closed to this user (mode 0700) */
		return errno == EACCES || errno == EPERM ? -errno : -ENODEV;
	}
	if (sfs.f_type != DEBUGFS_MAGIC)
		return -ENODEV;
	fd = open(MG_DEBUGFS_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* the kernel's file, in the kernel's format: anything else is never read as counts */
	if (!(err = check_fs(fd)))
		err = read_fd(fd, v);
	close(fd);
	return err == -EPROTO ? err : 0;
}

const char *mg_debugfs_why(int err)
{
	if (err == -EPROTO && dbg_why[0])
		return dbg_why;
	if (err == -ENODEV)
		return "debugfs is not mounted at " MG_DEBUGFS_DIR;
	return strerror(-err);
}

const char *mg_debugfs_problem(const struct mg_kenv *env)
{
	switch (env->debugfs) {
	case 0: return NULL;
	case -ENODEV: return "debugfs is not mounted at " MG_DEBUGFS_DIR
			     " (mount -t debugfs none " MG_DEBUGFS_DIR "; in a container, "
			     "which may not mount it: -v " MG_DEBUGFS_DIR ":" MG_DEBUGFS_DIR ":ro)";
	case -ENOENT: return MG_DEBUGFS_FILE " is missing (kernel without multigrain "
			     "timestamps or without CONFIG_DEBUG_FS)";
	case -EACCES:
	case -EPERM: return MG_DEBUGFS_FILE " is not readable by this user (EACCES: debugfs "
			    "is root's, mode 0700; CAP_DAC_READ_SEARCH opens it)";
	case -EPROTO: return dbg_why;
	default: return MG_DEBUGFS_FILE " is not readable";
	}
}

int mg_debugfs_read(uint64_t out[MG_K_NR_COUNTERS])
{
	/*
	 * Kept open: each pread() at offset 0 makes the seq_file sum the counters
	 * afresh. About 1.3 us against 9 us for statfs+open+read+close, which keeps
	 * the debugfs brackets around each snapshot narrow (src/util/run.c).
	 */
	static int fd = -1;
	struct statfs sfs;
	int err;

	if (fd < 0) {
		if (statfs(MG_DEBUGFS_DIR, &sfs) || sfs.f_type != DEBUGFS_MAGIC)
			return -ENODEV;
		fd = open(MG_DEBUGFS_FILE, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if ((err = check_fs(fd))) {
			close(fd);
			fd = -1;
			return err;
		}
	}
	err = read_fd(fd, out);
	if (err && err != -EPROTO) {
		close(fd);
		fd = -1;
	}
	return err;
}
