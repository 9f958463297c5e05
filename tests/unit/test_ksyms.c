// SPDX-License-Identifier: GPL-2.0
/* test_ksyms.c - tests of src/util/ksyms.c: kernel stack frames named from a kallsyms file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "unit.h"
#include "ksyms.h"
#include "ksyms_bpf.h"

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

/*
 * "%pS" as the kernel prints it (lib/vsprintf.c symbol_string(), sprint_symbol()):
 * parsed into a frame, every other form refused; and a table of named frames gives each
 * frame back, an unnamed one unnamed, never the symbol below it.
 */
UNIT_TEST(ksyms_pS)
{
	static const char *const bad[] = { "", "simple_link", "simple_link+0x2f", "+0x2f/0x80",
		"simple_link+0x2f/", "simple_link+0x2f/0x80 ext4", "simple_link+0x2f/0x80 []",
		"simple_link+2f/0x80", "simple_link+0x2f/0x80x", "simple_link+0x-1/0x80",
		"simple_link+0x 1f/0x80", "simple_link+0x0x1f/0x80", "0xzz", "0x" };
	struct mg_kframe fr[3] = { { .addr = 0xffffffff81721c0full },
				   { .addr = 0xffffffffc0301010ull },
				   { .addr = 0xffffffff81721d00ull } }, got;
	char t1[] = "simple_link+0x2f/0x80", t2[] = "shmem_link+0x10/0x90 [shmem_mod]";
	char t3[] = "0xffffffff81721d00", b[64];
	struct mg_ksyms *ks = NULL;
	size_t i;

	ASSERT_OK(mg_ksym_parse_pS(t1, &fr[0]), "ksyms_pS: a kernel function");
	ASSERT_STREQ(fr[0].sym, "simple_link", "ksyms_pS: ... its name");
	ASSERT_EQ(fr[0].off, 0x2f, "ksyms_pS: ... its offset");
	ASSERT_NULL(fr[0].module, "ksyms_pS: ... no module");
	ASSERT_OK(mg_ksym_parse_pS(t2, &fr[1]), "ksyms_pS: a module's function");
	ASSERT_STREQ(fr[1].module, "shmem_mod", "ksyms_pS: ... its module");
	ASSERT_OK(mg_ksym_parse_pS(t3, &fr[2]), "ksyms_pS: an address no symbol holds");
	ASSERT_NULL(fr[2].sym, "ksyms_pS: ... unnamed");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(b, sizeof(b), "%s", bad[i]);
		ASSERT_EQ(mg_ksym_parse_pS(b, &got), -EBADMSG, "ksyms_pS: refused: '%s'", bad[i]);
	}
	ASSERT_OK(mg_ksyms_from_frames(&ks, fr, 3), "ksyms_pS: a table of the named frames");
	mg_ksyms_name(ks, 0xffffffff81721c0full, &got);
	ASSERT_STREQ(got.sym, "simple_link", "ksyms_pS: a frame named back");
	ASSERT_EQ(got.off, 0x2f, "ksyms_pS: ... at its offset");
	mg_ksyms_name(ks, 0xffffffffc0301010ull, &got);
	ASSERT_STREQ(got.module, "shmem_mod", "ksyms_pS: ... a module's with its module");
	mg_ksyms_name(ks, 0xffffffff81721d00ull, &got);
	ASSERT_NULL(got.sym, "ksyms_pS: the unnamed frame stays unnamed (not simple_link+0xe0: "
		    "%s)", got.sym ? got.sym : "-");
	mg_ksyms_name(ks, 0xffffffff81721c40ull, &got);
	ASSERT_NULL(got.sym, "ksyms_pS: an address not asked is unnamed, not simple_link+0x60 "
		    "(%s)", got.sym ? got.sym : "-");
	ASSERT_TRUE(mg_ksyms_has(ks, 0xffffffff81721d00ull), "ksyms_pS: the table has its frames, "
		    "the unnamed one too");
	ASSERT_FALSE(mg_ksyms_has(ks, 0xffffffff81721c40ull), "ksyms_pS: ... not another address");
	mg_ksyms_free(ks);
}
