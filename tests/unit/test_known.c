// SPDX-License-Identifier: GPL-2.0
/*
 * test_known.c - tests of src/util/known.c (check --known FILE): the shipped file loads
 * and matches the tmpfs directory fault it declares; every other violation, kernel
 * and filesystem stays a fault; every malformed file is refused with its reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "known.h"
#include "mgtrace.h"

/* Write text to a fresh temporary file; its path in path (a mkstemp template). */
static void known_tmp(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs(text, f);
	fclose(f);
}

/* The shipped file, for kernel release rel, with dev 0:27 taken as fstype (no mountinfo read). */
static int load_shipped(struct mg_known *k, const char *rel, const char *fstype, char *err,
			size_t len)
{
	int r = mg_known_load(k, "contrib/known-faults.json", rel, err, len);

	k->cache[0].dev = 27;
	snprintf(k->cache[0].fstype, sizeof(k->cache[0].fstype), "%s", fstype);
	k->ncache = 1;
	return r;
}

/* The violation the tmpfs finding makes: a set of a QUERIED directory's ctime, not later. */
static struct mg_violation dir_set(void)
{
	return (struct mg_violation){ .kind = MG_V_NOT_LATER, .dev = 27, .ino = 2319,
				      .later = { .kind = MG_EV_CTIME_SET }, .later_flags = MG_EVF_DIR };
}

UNIT_TEST(known)
{
	static struct mg_known k;
	struct mg_violation v;
	char err[600] = "", path[64];
	size_t i;

	ASSERT_GT(mg_release_cmp("6.18.44-fc-v669", "6.13"), 0,
		  "release order: by numbers, not as text (6.9 < 6.13), suffixes ignored");
	ASSERT_EQ(mg_release_cmp("6.13", "6.13.0"), 0,
		  "release order: by numbers, not as text (6.9 < 6.13), suffixes ignored");
	ASSERT_LT(mg_release_cmp("6.9", "6.13"), 0,
		  "release order: by numbers, not as text (6.9 < 6.13), suffixes ignored");
	ASSERT_LT(mg_release_cmp("7.2.12-1~bpo13+1", "7.3"), 0,
		  "release order: by numbers, not as text (6.9 < 6.13), suffixes ignored");
	/* must pass: the shipped file, the fault it declares, on a kernel in its range */
	ASSERT_OK(load_shipped(&k, "6.18.44-fc-v669", "tmpfs", err, sizeof(err)),
		  "contrib/known-faults.json loads: %s", err);
	ASSERT_EQ(k.n, 1, "contrib/known-faults.json loads: %s", err);
	ASSERT_STREQ(k.e[0].id, "tmpfs-dir-ctime", "contrib/known-faults.json loads: %s", err);
	ASSERT_TRUE(k.e[0].applies, "contrib/known-faults.json loads: %s", err);
	v = dir_set();
	ASSERT_EQ(mg_known_match(&k, &v), 0,
		  "known: a tmpfs directory's set over a QUERIED ctime matches");
	ASSERT_EQ(k.e[0].matched, 1, "known: a tmpfs directory's set over a QUERIED ctime matches");
	ASSERT_TRUE(k.e[0].have_example,
		    "known: a tmpfs directory's set over a QUERIED ctime matches");
	ASSERT_EQ(k.e[0].example.ino, 2319,
		  "known: a tmpfs directory's set over a QUERIED ctime matches");
	/* must fail (stay faults): each field of the match differs in turn */
	v = dir_set();
	v.kind = MG_V_REGRESSION;
	ASSERT_EQ(mg_known_match(&k, &v), -1, "known: another violation kind is not the fault");
	v = dir_set();
	v.later.kind = MG_EV_CTIME_SWAP;
	ASSERT_EQ(mg_known_match(&k, &v), -1,
		  "known: another setter (inode_set_ctime_current) is not");
	v = dir_set();
	v.later_flags = 0;
	ASSERT_EQ(mg_known_match(&k, &v), -1, "known: a set of a file, not a directory, is not");
	v = dir_set();
	v.dev = 28;
	k.cache[1].dev = 28;
	snprintf(k.cache[1].fstype, sizeof(k.cache[1].fstype), "ext4");
	k.ncache = 2;
	ASSERT_EQ(mg_known_match(&k, &v), -1, "known: the same on ext4 is not");
	ASSERT_EQ(k.e[0].matched, 1, "known: only the match was counted");
	v = dir_set();
	ASSERT_OK(load_shipped(&k, "6.12.48", "tmpfs", err, sizeof(err)),
		  "known: a kernel before the range (6.12) does not match");
	ASSERT_FALSE(k.e[0].applies, "known: a kernel before the range (6.12) does not match");
	ASSERT_EQ(mg_known_match(&k, &v), -1,
		  "known: a kernel before the range (6.12) does not match");
	/* malformed files: refused with the reason (-EINVAL), never half loaded */
	static const struct { const char *text, *why; } bad[] = {
		{ "[", "is not JSON" },
		{ "{\"schema_version\":1,\"type\":\"stat\",\"faults\":[]}", "not a known-faults file" },
		{ "{\"schema_version\":2,\"type\":\"known_faults\",\"faults\":[]}", "not a known-faults" },
		{ "{\"schema_version\":1,\"type\":\"known_faults\",\"faults\":[{\"id\":\"a\","
		  "\"kind\":\"not_later_after_query\",\"fstype\":\"tmpfs\",\"kernel\":{\"from\":\"6.13\"},"
		  "\"reference\":\"r\",\"extra\":1}]}", "unknown member \"extra\"" },
		{ "{\"schema_version\":1,\"type\":\"known_faults\",\"faults\":[{\"id\":\"a\","
		  "\"kind\":\"bogus\",\"fstype\":\"tmpfs\",\"kernel\":{\"from\":\"6.13\"},"
		  "\"reference\":\"r\"}]}", "unknown kind 'bogus'" },
		{ "{\"schema_version\":1,\"type\":\"known_faults\",\"faults\":[{\"id\":\"a\","
		  "\"kind\":\"not_later_after_query\",\"fstype\":\"tmpfs\",\"kernel\":{\"from\":\"7.0\","
		  "\"before\":\"6.13\"},\"reference\":\"r\"}]}", "kernel range [7.0, 6.13)" },
		{ "{\"schema_version\":1,\"type\":\"known_faults\",\"faults\":[{\"id\":\"a\","
		  "\"kind\":\"not_later_after_query\",\"fstype\":\"tmpfs\",\"kernel\":{\"from\":\"six\"},"
		  "\"reference\":\"r\"}]}", "is not of two releases" },
		{ "{\"schema_version\":1,\"type\":\"known_faults\",\"faults\":[{\"id\":\"a\","
		  "\"kind\":\"not_later_after_query\",\"fstype\":\"tmpfs\",\"inode\":\"dir\","
		  "\"kernel\":{\"from\":\"6.13\"},\"reference\":\"r\"}]}", "only with the setter" },
		{ "{\"schema_version\":1,\"type\":\"known_faults\",\"faults\":[{\"id\":\"a\","
		  "\"kind\":\"not_later_after_query\",\"kernel\":{\"from\":\"6.13\"},"
		  "\"reference\":\"r\"}]}", "\"fstype\" is missing" },
		{ "{\"schema_version\":1,\"type\":\"known_faults\",\"faults\":[{\"id\":\"a\","
		  "\"kind\":\"not_later_after_query\",\"fstype\":\"tmpfs\",\"setter\":\"vfs_utimes\","
		  "\"kernel\":{\"from\":\"6.13\"},\"reference\":\"r\"}]}", "unknown setter" },
		{ "{\"schema_version\":1,\"type\":\"known_faults\",\"faults\":[{\"id\":\"a\","
		  "\"kind\":\"not_later_after_query\",\"fstype\":\"tmpfs\",\"kernel\":{\"from\":\"6.13\"},"
		  "\"reference\":\"r\"},{\"id\":\"a\",\"kind\":\"ctime_regression\",\"fstype\":\"ext4\","
		  "\"kernel\":{\"from\":\"6.13\"},\"reference\":\"r\"}]}",
		  "faults 0 and 1 have the same id 'a'" },
	};
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), "/tmp/mgtrace-unit-XXXXXX");
		known_tmp(path, bad[i].text);
		ASSERT_EQ(mg_known_load(&k, path, "6.18", err, sizeof(err)), -EINVAL,
			  "known: refused: %s", bad[i].why);
		ASSERT_HAS_SUBSTR(err, bad[i].why, "known: refused: %s", bad[i].why);
		unlink(path);
	}
	ASSERT_EQ(mg_known_load(&k, "/nonexistent/known.json", "6.18", err, sizeof(err)), -ENOENT,
		  "known: a missing file: -ENOENT, cannot read");
	ASSERT_HAS_SUBSTR(err, "cannot read", "known: a missing file: -ENOENT, cannot read");
}
