// SPDX-License-Identifier: GPL-2.0
/* test_top.c - tests of src/top.c: top's options and its program table. */
#include "unit.h"
#include "opts.h"
#include "top_int.h"
#include "util.h"

/* top's options: positionals [interval [count]] before --, COMMAND after it. */
static int top_parse(struct top_opts *o, const char *line)
{
	static char buf[256];
	static char *argv[16];
	char *save = NULL, *tok;
	int argc = 0;

	memset(o, 0, sizeof(*o));
	snprintf(buf, sizeof(buf), "top %s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return top_parse_opts(o, argc, argv);
}

UNIT_TEST(top_opts)
{
	struct top_opts o;
	char why[256] = "";
	int err;

	err = mg_top_progs_check(why, sizeof(why));
	CHECK(IS_FALSE(err), "top.bpf.c's table: each program where the table says, every "
	      "program once (%s)", why);

	ASSERT_EQ(top_parse(&o, ""), 0, "top: no arguments");
	CHECK(EQ(o.interval, 1.0) && EQ(o.count, 0) && IS_FALSE(o.argv) && EQ(o.rows, 20) &&
	      EQ(o.max_entries, MG_TOP_ENTRIES_DEFAULT) && EQ(o.sort, TOP_SORT_AUTO),
	      "top: defaults 1 s, no count, 20 rows, %u entries, sort auto", MG_TOP_ENTRIES_DEFAULT);
	ASSERT_EQ(top_parse(&o, "-i 0.5 -c 4 --by file -s ctime_skips"), 0, "top -i -c --by -s");
	CHECK(EQ(o.interval, 0.5) && EQ(o.count, 4) && EQ(o.by, MG_TOP_BY_FILE) &&
	      EQ(o.sort, MG_TOP_CTIME_SKIPS), "top: -i 0.5 -c 4, --by file, -s ctime_skips");
	ASSERT_EQ(top_parse(&o, "-I 250 --interval-count 3"), 0, "top -I 250 --interval-count 3");
	CHECK(EQ(o.interval, 0.25) && EQ(o.count, 3), "top -I 250: 0.25 s, as perf's -I");
	ASSERT_EQ(top_parse(&o, "-i 5 -- sleep 1"), 0, "top -i 5 -- sleep 1");
	CHECK(EQ(o.interval, 5.0) && IS_TRUE(o.argv) && STREQ(o.argv[0], "sleep") &&
	      STREQ(o.argv[1], "1"), "top -i 5 -- sleep 1: COMMAND after --");
	ASSERT_EQ(top_parse(&o, "--noclear sleep 1"), 0, "top --noclear sleep 1");
	CHECK(IS_TRUE(o.argv) && STREQ(o.argv[0], "sleep") && IS_TRUE(o.noclear),
	      "top: the first non-option starts COMMAND");
	ASSERT_EQ(top_parse(&o, "-C 0 -- true"), 0, "top -C 0: perf's CPU list");
	CHECK(IS_TRUE(o.cpus.given) && EQ(o.cpus.n, 1) && IS_FALSE(o.noclear),
	      "top -C 0: CPU 0 selected, the screen still cleared");
	ASSERT_EQ(top_parse(&o, "-C 1-0 -- true"), MG_EXIT_USAGE, "top -C 1-0: a reversed range");
	ASSERT_EQ(top_parse(&o, "-C 0,,1 -- true"), MG_EXIT_USAGE, "top -C 0,,1: an empty item");
	ASSERT_EQ(top_parse(&o, "--tree -- true"), 0, "top --tree -- true");
	CHECK(IS_TRUE(o.tree) && IS_TRUE(o.argv), "top --tree with COMMAND");
	ASSERT_EQ(top_parse(&o, "-i 0"), MG_EXIT_USAGE, "top -i 0: interval 0");
	ASSERT_EQ(top_parse(&o, "-I 5"), MG_EXIT_USAGE, "top -I 5: below 10 ms");
	ASSERT_EQ(top_parse(&o, "-c 0"), MG_EXIT_USAGE, "top -c 0");
	ASSERT_EQ(top_parse(&o, "-i 1x"), MG_EXIT_USAGE, "top -i 1x: junk");
	ASSERT_EQ(top_parse(&o, "-a -p 1"), MG_EXIT_USAGE, "top -a and -p");
	ASSERT_EQ(top_parse(&o, "--tree"), MG_EXIT_USAGE, "top --tree without COMMAND");
	ASSERT_EQ(top_parse(&o, "-p 1 --tree -- true"), MG_EXIT_USAGE, "top -p and --tree");
	ASSERT_EQ(top_parse(&o, "--max-entries 1000001"), MG_EXIT_USAGE, "top --max-entries too big");
	ASSERT_EQ(top_parse(&o, "--by inode"), MG_EXIT_USAGE, "top --by inode");
	ASSERT_EQ(top_parse(&o, "-b kernel"), MG_EXIT_USAGE, "top -b kernel: not a top backend");
}
