// SPDX-License-Identifier: GPL-2.0
/* test_ident.c - tests of src/util/ident.c: kernel device numbers and their mounts. */
#include <errno.h>
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
