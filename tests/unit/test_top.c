// SPDX-License-Identifier: GPL-2.0
/* test_top.c - tests of src/top/top.c: top's options and its program table. */
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
	ASSERT_OK(err, "top.bpf.c's table: each program where the table says, every "
		  "program once (%s)", why);

	ASSERT_EQ(top_parse(&o, ""), 0, "top: no arguments");
	ASSERT_EQ(o.interval, 1.0,
		  "top: defaults 1 s, no count, 20 rows, %u entries, sort auto", MG_TOP_ENTRIES_DEFAULT);
	ASSERT_EQ(o.count, 0,
		  "top: defaults 1 s, no count, 20 rows, %u entries, sort auto", MG_TOP_ENTRIES_DEFAULT);
	ASSERT_NULL(o.argv,
		    "top: defaults 1 s, no count, 20 rows, %u entries, sort auto", MG_TOP_ENTRIES_DEFAULT);
	ASSERT_EQ(o.rows, 20,
		  "top: defaults 1 s, no count, 20 rows, %u entries, sort auto", MG_TOP_ENTRIES_DEFAULT);
	ASSERT_EQ(o.max_entries, MG_TOP_ENTRIES_DEFAULT,
		  "top: defaults 1 s, no count, 20 rows, %u entries, sort auto", MG_TOP_ENTRIES_DEFAULT);
	ASSERT_EQ(o.sort, TOP_SORT_AUTO,
		  "top: defaults 1 s, no count, 20 rows, %u entries, sort auto", MG_TOP_ENTRIES_DEFAULT);
	ASSERT_EQ(top_parse(&o, "-i 0.5 -c 4 --by file -s ctime_skips"), 0, "top -i -c --by -s");
	ASSERT_EQ(o.interval, 0.5, "top: -i 0.5 -c 4, --by file, -s ctime_skips");
	ASSERT_EQ(o.count, 4, "top: -i 0.5 -c 4, --by file, -s ctime_skips");
	ASSERT_EQ(o.by, MG_TOP_BY_FILE, "top: -i 0.5 -c 4, --by file, -s ctime_skips");
	ASSERT_EQ(o.sort, MG_TOP_CTIME_SKIPS, "top: -i 0.5 -c 4, --by file, -s ctime_skips");
	ASSERT_EQ(top_parse(&o, "-I 250 --interval-count 3"), 0, "top -I 250 --interval-count 3");
	ASSERT_EQ(o.interval, 0.25, "top -I 250: 0.25 s, as perf's -I");
	ASSERT_EQ(o.count, 3, "top -I 250: 0.25 s, as perf's -I");
	ASSERT_EQ(top_parse(&o, "-i 5 -- sleep 1"), 0, "top -i 5 -- sleep 1");
	ASSERT_EQ(o.interval, 5.0, "top -i 5 -- sleep 1: COMMAND after --");
	if (!ASSERT_OK_PTR(o.argv, "top -i 5 -- sleep 1: COMMAND after --"))
		return;
	ASSERT_STREQ(o.argv[0], "sleep", "top -i 5 -- sleep 1: COMMAND after --");
	ASSERT_STREQ(o.argv[1], "1", "top -i 5 -- sleep 1: COMMAND after --");
	ASSERT_EQ(top_parse(&o, "--noclear sleep 1"), 0, "top --noclear sleep 1");
	if (!ASSERT_OK_PTR(o.argv, "top: the first non-option starts COMMAND"))
		return;
	ASSERT_STREQ(o.argv[0], "sleep", "top: the first non-option starts COMMAND");
	ASSERT_TRUE(o.noclear, "top: the first non-option starts COMMAND");
	ASSERT_EQ(top_parse(&o, "-C 0 -- true"), 0, "top -C 0: perf's CPU list");
	ASSERT_TRUE(o.cpus.given, "top -C 0: CPU 0 selected, the screen still cleared");
	ASSERT_EQ(o.cpus.n, 1, "top -C 0: CPU 0 selected, the screen still cleared");
	ASSERT_FALSE(o.noclear, "top -C 0: CPU 0 selected, the screen still cleared");
	ASSERT_EQ(top_parse(&o, "-C 1-0 -- true"), MG_EXIT_USAGE, "top -C 1-0: a reversed range");
	ASSERT_EQ(top_parse(&o, "-C 0,,1 -- true"), MG_EXIT_USAGE, "top -C 0,,1: an empty item");
	ASSERT_EQ(top_parse(&o, "--tree -- true"), 0, "top --tree -- true");
	ASSERT_TRUE(o.tree, "top --tree with COMMAND");
	ASSERT_OK_PTR(o.argv, "top --tree with COMMAND");
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

/*
 * top's counters from include/mg_vocab.def: the table holds together (and each doctored
 * copy is refused), the columns and --sort text are those written by hand before it.
 */
UNIT_TEST(top_vocab)
{
	struct top_counter k[MG_TOP_NR];
	bool tps[MG_NR_TPS];
	char why[256] = "";
	struct {
		const char *what;
		int c, field, value;	/* field: 0 place, 1 tp, 2 part_of, 3 width */
	} bad[] = {
		{ "two counters in one place", MG_TOP_CTIME_SKIPS, 0, 0 },
		{ "a place past the last", MG_TOP_STAT_QUERIES, 0, MG_TOP_NR },
		{ "a tracepoint top does not count", MG_TOP_CTIME_SKIPS, 1, MG_TP_INODE_SET_CTIME_TO_TS },
		{ "a part of a part", MG_TOP_FLOOR_UNKNOWN, 2, MG_TOP_FLOOR_SWAPS },
		{ "a part of another probe's whole", MG_TOP_QUERIED_SWAPS, 2, MG_TOP_FINE_STAMPS },
		{ "a head wider than its column", MG_TOP_CTIME_SWAPS, 3, 4 },
		{ "a counted tracepoint no whole names", MG_TOP_STAT_QUERIES, 2, MG_TOP_CTIME_SWAPS },
	};

	ASSERT_FALSE(top_counters_problem(top_counters, MG_TOP_NR, top_tp_counted, why, sizeof(why)),
		     "top's table holds together (%s)", why);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(k, top_counters, sizeof(k));
		int *f[] = { &k[bad[i].c].place, &k[bad[i].c].tp, &k[bad[i].c].part_of,
			     &k[bad[i].c].width };

		*f[bad[i].field] = bad[i].value;
		if (bad[i].field == 2 && bad[i].value == MG_TOP_CTIME_SWAPS)
			k[bad[i].c].tp = MG_TP_CTIME_NS_XCHG;	/* a part, counted with its whole */
		why[0] = 0;
		ASSERT_EQ(top_counters_problem(k, MG_TOP_NR, top_tp_counted, why, sizeof(why)), -1,
			  "doctored table refused: %s (%s)", bad[i].what, why);
	}
	memcpy(tps, top_tp_counted, sizeof(tps));
	tps[MG_TP_INODE_SET_CTIME_TO_TS] = true;
	ASSERT_EQ(top_counters_problem(top_counters, MG_TOP_NR, tps, why, sizeof(why)), -1,
		  "doctored: a tracepoint marked counted that no counter names (%s)", why);
	ASSERT_STREQ(top_counters[top_col_order[0]].head, "FLOOR_SWAPS",
		     "top's columns: FLOOR_SWAPS first, AFTER_QUERY fourth, widths as before");
	ASSERT_STREQ(top_counters[top_col_order[3]].head, "AFTER_QUERY",
		     "top's columns: FLOOR_SWAPS first, AFTER_QUERY fourth, widths as before");
	ASSERT_EQ(top_counters[MG_TOP_FLOOR_UNKNOWN].width, 7,
		  "top's columns: FLOOR_SWAPS first, AFTER_QUERY fourth, widths as before");
	ASSERT_EQ(top_counters[MG_TOP_STAT_QUERIES].width, 9,
		  "top's columns: FLOOR_SWAPS first, AFTER_QUERY fourth, widths as before");
	ASSERT_STREQ(top_sort_words(), "floor_swaps, fine_stamps, floor_unknown, ctime_swaps, " "queried_swaps, ctime_skips, stat_queries, auto",
		     "--sort's words: %s",
		     top_sort_words());
	ASSERT_STREQ(top_sort_help(), "floor_swaps, fine_stamps, floor_unknown, ctime_swaps,\n" "queried_swaps, ctime_skips, stat_queries (default: floor_swaps\n" "with function probes, else queried_swaps)",
		     "--sort's help: the text written by hand before the table");
}
