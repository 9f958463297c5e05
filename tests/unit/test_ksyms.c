// SPDX-License-Identifier: GPL-2.0
/* test_ksyms.c - tests of src/util/ksyms.c: kernel stack frames named from a kallsyms file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "unit.h"
#include "ksyms.h"

/* A kallsyms file of text in a temporary file; its path in buf. */
static const char *kallsyms_file(char *buf, size_t len, const char *text)
{
	FILE *f;
	int fd;

	snprintf(buf, len, "/tmp/mgtrace-ksyms.XXXXXX");
	fd = mkstemp(buf);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return buf;
}

/*
 * Frames fall in the function below them, with their offset and module; data symbols
 * and symbols out of order are handled; hidden addresses and no file are errors.
 */
UNIT_TEST(ksyms)
{
	char path[64];
	struct mg_ksyms *ks = NULL;
	struct mg_kframe fr;
	int err;

	kallsyms_file(path, sizeof(path),
		      "ffffffff81000000 T _stext\n"
		      "ffffffff81400000 t simple_unlink\n"
		      "ffffffff81300000 T inode_set_ctime_current\n"
		      "ffffffff81500000 D some_data\n"
		      "ffffffff81600000 W weak_fn\n"
		      "ffffffffc0201000 t ext4_setattr\t[ext4]\n"
		      "ffffffffc0202000 T ext4_rename\t[ext4]\n"
		      "ffffffffc0301000 t shmem_link\t[shmem_mod]\n");
	err = mg_ksyms_load(&ks, path);
	ASSERT_OK(err, "ksyms: a kallsyms file loads");
	if (!ASSERT_OK_PTR(ks, "ksyms: a kallsyms file loads"))
		return;
	mg_ksyms_name(ks, 0xffffffff81400123ull, &fr);
	ASSERT_STREQ(fr.sym, "simple_unlink", "ksyms: a frame inside simple_unlink");
	ASSERT_EQ(fr.off, 0x123, "ksyms: ... at +0x123");
	ASSERT_NULL(fr.module, "ksyms: ... in vmlinux");
	mg_ksyms_name(ks, 0xffffffff81300000ull, &fr);
	ASSERT_STREQ(fr.sym, "inode_set_ctime_current", "ksyms: a frame at a symbol's address (the "
		     "file's order is not the addresses')");
	ASSERT_EQ(fr.off, 0, "ksyms: ... offset 0");
	mg_ksyms_name(ks, 0xffffffff81500010ull, &fr);
	ASSERT_STREQ(fr.sym, "simple_unlink", "ksyms: a data symbol names no frame");
	ASSERT_EQ(fr.off, 0x100010, "ksyms: ... the code symbol below it does");
	mg_ksyms_name(ks, 0xffffffffc0202010ull, &fr);
	ASSERT_STREQ(fr.sym, "ext4_rename", "ksyms: a module's frame");
	ASSERT_STREQ(fr.module, "ext4", "ksyms: ... names its module");
	ASSERT_EQ(fr.off, 0x10, "ksyms: ... at +0x10");
	mg_ksyms_name(ks, 0xffffffffc0301004ull, &fr);
	ASSERT_STREQ(fr.module, "shmem_mod", "ksyms: the next module's frame, its own");
	mg_ksyms_name(ks, 0xffffffff80000000ull, &fr);
	ASSERT_NULL(fr.sym, "ksyms: an address below every symbol is named by none");
	ASSERT_EQ(fr.addr, 0xffffffff80000000ull, "ksyms: ... its address kept");
	mg_ksyms_free(ks);
	unlink(path);

	kallsyms_file(path, sizeof(path), "0000000000000000 T _stext\n0000000000000000 t simple_unlink\n");
	err = mg_ksyms_load(&ks, path);
	ASSERT_EQ(err, -EPERM, "ksyms: every address 0 (kptr_restrict): -EPERM");
	ASSERT_NULL(ks, "ksyms: ... nothing loaded");
	unlink(path);
	err = mg_ksyms_load(&ks, "/nonexistent/kallsyms");
	ASSERT_EQ(err, -ENOENT, "ksyms: no file: its errno");
	ASSERT_NULL(ks, "ksyms: ... nothing loaded");
	err = mg_ksyms_load(&ks, NULL);
	if (err == 0) {
		mg_ksyms_free(ks);
		ASSERT_TRUE(true, "ksyms: /proc/kallsyms loads here");
	} else {
		ASSERT_EQ(err, -EPERM, "ksyms: /proc/kallsyms: hidden addresses here (not root)");
	}
}
