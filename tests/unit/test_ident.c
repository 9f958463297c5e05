// SPDX-License-Identifier: GPL-2.0
/* test_ident.c - tests of src/util/ident.c: kernel device numbers and their mounts. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "unit.h"
#include "ident.h"

UNIT_TEST(kdev)
{
	char buf[MG_KDEV_STRLEN], mnt[4096];
	uint32_t k = 0;
	struct stat st;
	int n;

	ASSERT_OK(mg_kdev_from_user(makedev(7, 0), &k),
		  "loop0's st_dev converts to kernel 7:0 (%s)", buf);
	ASSERT_EQ(k, 7u << 20, "loop0's st_dev converts to kernel 7:0 (%s)", buf);
	ASSERT_STREQ(mg_kdev_str(k, buf), "7:0", "loop0's st_dev converts to kernel 7:0 (%s)", buf);
	/* the bug: glibc's st_dev of 7:0 is 0x700; read as a kernel dev_t it is 0:1792 */
	ASSERT_NEQ(strcmp(mg_kdev_str((uint32_t)makedev(7, 0), buf), "7:0"), 0,
		   "glibc's raw st_dev is not a kernel dev_t (it reads as %s)", buf);
	ASSERT_OK(mg_kdev_from_user(makedev(259, 1048575), &k), "20-bit minors survive (%s)", buf);
	ASSERT_STREQ(mg_kdev_str(k, buf), "259:1048575", "20-bit minors survive (%s)", buf);
	ASSERT_EQ(mg_kdev_from_user(makedev(4096, 0), &k), -ERANGE, "a 13-bit major is refused");
	ASSERT_EQ(mg_kdev_major(mg_kdev(8, 17)), 8, "mg_kdev and its major/minor agree");
	ASSERT_EQ(mg_kdev_minor(mg_kdev(8, 17)), 17, "mg_kdev and its major/minor agree");
	if (!stat("/proc/self", &st) && !mg_kdev_from_user(st.st_dev, &k)) {
		n = mg_kdev_mount(k, mnt, sizeof(mnt));
		ASSERT_GT(n, 0, "/proc's device is mounted on /proc (%s)",
			  n >= 0 ? mnt : strerror(-n));
		ASSERT_STREQ(mnt, "/proc", "/proc's device is mounted on /proc (%s)",
			     n >= 0 ? mnt : strerror(-n));
	}
	ASSERT_EQ(mg_kdev_mount(mg_kdev(4095, 1048575), mnt, sizeof(mnt)), -ENOENT,
		  "an unused device has no mount (-ENOENT)");
}

/*
 * The table of one mountinfo read (mg_mounts_load()) answers as the per-call lookups do,
 * for every device of this process's mountinfo: the same first mount point, bytes and
 * length (the same parser: octal escapes undone), the same filesystem type; an unused
 * device -ENOENT.
 */
UNIT_TEST(mounts_table)
{
	struct mg_mounts t = { 0 };
	const char *mnt, *fs;
	char one[4096], fst[64];
	size_t i, agree = 0;
	int n, m;

	ASSERT_OK(mg_mounts_load(&t), "mounts: /proc/self/mountinfo read into a table");
	ASSERT_GT(t.n, 0, "mounts: ... of %zu mounts", t.n);
	for (i = 0; i < t.n; i++) {
		n = mg_mounts_find(&t, t.m[i].kdev, &mnt, &fs);
		m = mg_kdev_mount(t.m[i].kdev, one, sizeof(one));
		mg_kdev_fstype(t.m[i].kdev, fst, sizeof(fst));
		if (n == m && n >= 0 && !memcmp(mnt, one, (size_t)n) && !strcmp(fs, fst))
			agree++;
		else
			ASSERT_TRUE(false, "mounts: dev %u:%u: table '%s' (%d, %s), per call '%s' (%d, %s)",
				    mg_kdev_major(t.m[i].kdev), mg_kdev_minor(t.m[i].kdev),
				    n >= 0 ? mnt : "", n, n >= 0 ? fs : "", one, m, fst);
	}
	ASSERT_EQ(agree, t.n, "mounts: table and per-call lookups agree on all %zu mounts", t.n);
	ASSERT_EQ(mg_mounts_find(&t, mg_kdev(4095, 1048575), &mnt, NULL), -ENOENT,
		  "mounts: an unused device has no mount (-ENOENT)");
	mg_mounts_free(&t);
	ASSERT_FALSE(t.loaded, "mounts: freed, not loaded");
	n = mg_mounts_find(&t, mg_kdev(4095, 1048575), NULL, NULL);
	ASSERT_TRUE(t.loaded && n == -ENOENT, "mounts: the first lookup loads the table (%d)", n);
	mg_mounts_free(&t);
}
