// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the kernel's debugfs file multigrain_timestamps (see kenv.h): whether
 * it opens for this process, why not in one line, and reading its four totals
 * (kept open between reads, for narrow brackets around each snapshot).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/statfs.h>
#include <unistd.h>
#include "kenv.h"
#include "kenv_int.h"

#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

/*
 * 0 when the debugfs file opens for reading, else -ENODEV (no debugfs there) or the
 * open's -errno. The open itself, not access(): access() checks the real uid, so a
 * non-root user holding CAP_DAC_READ_SEARCH (or CAP_SYS_ADMIN) was told "not readable".
 */
int mg_debugfs_probe(void)
{
	struct statfs sfs;
	int fd;

	if (statfs(MG_DEBUGFS_DIR, &sfs)) {
		/* the mount point itself may be closed to this user (mode 0700) */
		return errno == EACCES || errno == EPERM ? -errno : -ENODEV;
	}
	if (sfs.f_type != DEBUGFS_MAGIC)
		return -ENODEV;
	fd = open(MG_DEBUGFS_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
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
	char buf[256];
	unsigned long long v[MG_K_NR_COUNTERS];
	struct statfs sfs;
	ssize_t n;
	int i;

	if (fd < 0) {
		if (statfs(MG_DEBUGFS_DIR, &sfs) || sfs.f_type != DEBUGFS_MAGIC)
			return -ENODEV;
		fd = open(MG_DEBUGFS_FILE, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0) {
		int err = -errno;

		close(fd);
		fd = -1;
		return err;
	}
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3]) != 4)
		return -EPROTO;
	for (i = 0; i < MG_K_NR_COUNTERS; i++)
		out[i] = v[i];
	return 0;
}
