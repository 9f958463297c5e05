// SPDX-License-Identifier: GPL-2.0
/* test_kenv.c - tests of src/util/kenv.c: a changed kernel interface is refused. */
#include "unit.h"
#include "kenv.h"

/* mg_interface_problem: a changed tracepoint prototype or i_ctime_nsec is refused in one line */
UNIT_TEST(interface_problem)
{
	struct mg_kenv e;
	const char *w;

	memset(&e, 0, sizeof(e));
	snprintf(e.release, sizeof(e.release), "9.9-test");
	e.btf = true;
	e.api = MG_API_MAINLINE;
	snprintf(e.iface.ctime_nsec, sizeof(e.iface.ctime_nsec), "u32");
	ASSERT_STREQ(mg_interface_problem(&e) ? mg_interface_problem(&e) : "(none)", "(none)",
		     "interface as expected: no problem");
	snprintf(e.iface.tp_args[0], sizeof(e.iface.tp_args[0]), "(struct inode *, u64, u32, u32)");
	e.iface.tp_args_changed[0] = true;
	w = mg_interface_problem(&e);
	if (!ASSERT_OK_PTR(w, "changed tracepoint arguments named"))
		return;
	ASSERT_HAS_SUBSTR(w, "timestamp:ctime_ns_xchg",
			  "changed tracepoint arguments named: %s", w ? w : "(null)");
	ASSERT_HAS_SUBSTR(w, "(struct inode *, u64, u32, u32)",
			  "changed tracepoint arguments named: %s", w ? w : "(null)");
	ASSERT_HAS_SUBSTR(w, "(struct inode *, u32, u32, u32)",
			  "changed tracepoint arguments named: %s", w ? w : "(null)");
	ASSERT_NULL(strchr(w, '\n'), "changed tracepoint arguments named: %s", w ? w : "(null)");
	e.iface.tp_args_changed[0] = false;
	snprintf(e.iface.ctime_nsec, sizeof(e.iface.ctime_nsec), "u64");
	w = mg_interface_problem(&e);
	ASSERT_HAS_SUBSTR(w, "i_ctime_nsec (BTF: u64)",
			  "changed i_ctime_nsec named: %s", w ? w : "(null)");
}

/* the parse of one multigrain_timestamps text: 0 with out, or -EPROTO with why holding sub */
static void debugfs_case(const char *text, size_t len, const char *sub)
{
	uint64_t out[MG_K_NR_COUNTERS] = { 7, 7, 7, 7 };
	char why[160] = "", shown[64];
	int err = mg_debugfs_parse(text, len, out, why, sizeof(why));
	size_t i, n = 0;

	/* the text on one line of the test's output: a newline as \n */
	for (i = 0; i < len && n + 3 < sizeof(shown); i++) {
		if (text[i] == '\n')
			shown[n++] = '\\';
		shown[n++] = text[i] == '\n' ? 'n' : text[i] == '\t' ? ' ' : text[i];
	}
	shown[n] = 0;

	if (!sub) {
		ASSERT_OK(err, "debugfs parse of the kernel's line '%s' %s", shown, why);
		return;
	}
	ASSERT_EQ(err, -EPROTO, "debugfs parse refuses '%s'", shown);
	ASSERT_HAS_SUBSTR(why, sub, "debugfs parse of '%s' says why: %s", shown, why);
	/* a refused text is never read as counts: out is left alone, no zeros */
	ASSERT_EQ(out[MG_K_CTIME_UPDATES] == 0 && out[MG_K_FINE_STAMPS] == 0, false,
		  "debugfs parse of '%s' reads no zeros", shown);
}

/* mg_debugfs_parse: only the kernel's "%lu %lu %lu %lu\n" (fs/inode.c mgts_show) is counts */
UNIT_TEST(debugfs_parse)
{
	static const char good[] = "341599272 329558028 82370120 80989723\n";
	uint64_t out[MG_K_NR_COUNTERS];
	char why[160];

	ASSERT_OK(mg_debugfs_parse(good, strlen(good), out, why, sizeof(why)), "the kernel's line");
	ASSERT_EQ(out[MG_K_CTIME_UPDATES], 341599272ull, "ctime_updates first");
	ASSERT_EQ(out[MG_K_CTIME_SWAPS], 329558028ull, "ctime_swaps second");
	ASSERT_EQ(out[MG_K_FINE_STAMPS], 82370120ull, "fine_stamps third");
	ASSERT_EQ(out[MG_K_FLOOR_SWAPS], 80989723ull, "floor_swaps fourth");
	ASSERT_OK(mg_debugfs_parse("18446744073709551615 0 0 0\n", 27, out, why, sizeof(why)),
		  "a count of 2^64 - 1");
	ASSERT_EQ(out[0], UINT64_MAX, "2^64 - 1 read exactly");
	debugfs_case("0 0 0 0\n", 8, NULL);
	debugfs_case("", 0, "empty");
	debugfs_case("garbage\n", 8, "line 1, field 1: 'garbage' is not a count");
	debugfs_case("ctime_updates: 5\n", 17, "field 1: 'ctime_updates:' is not a count");
	debugfs_case("1 2 3\n", 6, "line 1 has 3 counts, not the kernel's four");
	debugfs_case("1 2\n", 4, "line 1 has 2 counts");
	debugfs_case("1 2 3 4 5\n", 10, "more than the kernel's four counts");
	debugfs_case("1 2 x 4\n", 8, "field 3: 'x' is not a count");
	debugfs_case("1 -2 3 4\n", 9, "field 2: '-2' is not a count");
	debugfs_case("1  2 3 4\n", 9, "field 2 is empty");
	debugfs_case("1\t2 3 4\n", 8, "not a space");
	debugfs_case("1 2 3 4", 7, "does not end");
	debugfs_case("1 2 3 4x\n", 9, "'x' after the fourth count");
	debugfs_case("1 2 3 4\n5 6 7 8\n", 16, "more than one line");
	debugfs_case("18446744073709551616 0 0 0\n", 27, "above 2^64 - 1");
}
