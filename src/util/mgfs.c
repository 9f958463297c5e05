// SPDX-License-Identifier: GPL-2.0
/* mgfs.c - is a path's filesystem multigrain? (see mgfs.h) */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "mgfs.h"
#include "pidns.h"
#include "mgfs.skel.h"

int mg_fs_multigrain(const char *path, char *why, size_t len)
{
	uint32_t kdev;

	return mg_fs_multigrain_dev(path, &kdev, why, len);
}

int mg_fs_multigrain_dev(const char *path, uint32_t *kdev, char *why, size_t len)
{
	struct mgfs_bpf *s = mgfs_bpf__open();
	struct stat st;
	int err;

	*kdev = 0;
	if (!s) {
		err = -errno;
		snprintf(why, len, "bpf/mgfs.bpf.c: open: %s", strerror(-err));
		return err;
	}
	/* the kernel's id of this thread, as BPF sees it (pidns.h) */
	if ((err = mg_pid_kernel(gettid(), NULL, (uint32_t *)&s->rodata->tid, why, len))) {
		mgfs_bpf__destroy(s);
		return err;
	}
	if ((err = mgfs_bpf__load(s)) || (err = mgfs_bpf__attach(s))) {
		snprintf(why, len, "raw_tp/fill_mg_cmtime: %s", strerror(-err));
		mgfs_bpf__destroy(s);
		return err;
	}
	if (stat(path, &st)) {
		err = -errno;
		snprintf(why, len, "cannot stat '%s': %s", path, strerror(-err));
		mgfs_bpf__destroy(s);
		return err;
	}
	err = s->bss->hits > 0;
	*kdev = err ? s->bss->dev : 0;
	mgfs_bpf__destroy(s);
	return err;
}
