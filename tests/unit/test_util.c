// SPDX-License-Identifier: GPL-2.0
/* test_util.c - tests of src/util/util.c: the number parsers. */
#include <errno.h>
#include "unit.h"
#include "util.h"
#include "term.h"
#include "cpulist.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

UNIT_TEST(parse_u64)
{
	static const struct { const char *s; uint64_t min, max; int err; uint64_t v; } cases[] = {
		{ "5", 1, 10, 0, 5 },
		{ "0", 1, 10, -ERANGE, 0 },
		{ "11", 1, 10, -ERANGE, 0 },
		{ "-1", 0, 10, -EINVAL, 0 },
		{ "+1", 0, 10, -EINVAL, 0 },
		{ "", 0, 10, -EINVAL, 0 },
		{ " 1", 0, 10, -EINVAL, 0 },
		{ "1x", 0, 10, -EINVAL, 0 },
		{ "0x10", 0, 100, -EINVAL, 0 },
		{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", 0, UINT64_MAX, -ERANGE, 0 },
		{ "99999999999999999999999", 0, UINT64_MAX, -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int err = mg_parse_u64(cases[i].s, cases[i].min, cases[i].max, &v);

		if (ASSERT_EQ(err, cases[i].err, "parse_u64(\"%s\") -> %d (want %d)", cases[i].s,
			      err, cases[i].err) && !err)
			ASSERT_EQ(v, cases[i].v, "parse_u64(\"%s\"): the value", cases[i].s);
	}
	ASSERT_EQ(mg_parse_u64(NULL, 0, 1, &(uint64_t){0}), -EINVAL, "parse_u64(NULL) is -EINVAL");
}

UNIT_TEST(parse_seconds)
{
	static const struct { const char *s; int err; double v; } cases[] = {
		{ "1", 0, 1 }, { "0.5", 0, 0.5 }, { ".25", 0, 0.25 }, { "86400", 0, 86400 },
		{ "0", -ERANGE, 0 }, { "-1", -EINVAL, 0 }, { "86401", -ERANGE, 0 },
		{ "1e999", -ERANGE, 0 }, { "1e-1", 0, 0.1 }, { "2.5e1", 0, 25 }, { "1e", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 }, { "+1", -EINVAL, 0 }, { "0x10", -EINVAL, 0 }, { "1.5.2", -EINVAL, 0 }, { "nan", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
		{ "1s", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "abc", -EINVAL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = 0;
		int err = mg_parse_seconds(cases[i].s, 86400, &v);

		if (ASSERT_EQ(err, cases[i].err, "parse_seconds(\"%s\") -> %d (want %d)", cases[i].s,
			      err, cases[i].err) && !err)
			ASSERT_EQ(v, cases[i].v, "parse_seconds(\"%s\"): the value", cases[i].s);
	}
}

/* mg_parse_real(): decimal with an exponent, '-' only where asked, nothing strtod() adds. */
UNIT_TEST(parse_real)
{
	static const struct { const char *s; bool neg; int err; double v; } cases[] = {
		{ "0.5", false, 0, 0.5 }, { "2e-3", false, 0, 2e-3 }, { "-1", true, 0, -1 },
		{ "-0", true, 0, 0 }, { "-1", false, -EINVAL, 0 }, { "-", true, -EINVAL, 0 },
		{ "--1", true, -EINVAL, 0 }, { "0x1p3", true, -EINVAL, 0 }, { "-inf", true, -EINVAL, 0 },
		{ "1e400", true, -ERANGE, 0 }, { "1e-400", true, -ERANGE, 0 }, { "1 ", true, -EINVAL, 0 },
		{ "1e+2", false, 0, 100 }, { "e5", false, -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = 42;
		int err = mg_parse_real(cases[i].s, cases[i].neg, &v);

		if (ASSERT_EQ(err, cases[i].err, "parse_real(\"%s\", %d) -> %d (want %d)", cases[i].s,
			      cases[i].neg, err, cases[i].err) && !err)
			ASSERT_TRUE(v == cases[i].v, "parse_real(\"%s\"): %g", cases[i].s, v);
		else if (err)
			ASSERT_TRUE(v == 42, "parse_real(\"%s\"): refused, the value untouched", cases[i].s);
	}
}

/* mg_wrap(): no line past the width, words kept whole where they fit, long ones cut. */
UNIT_TEST(wrap_width)
{
	static const char *const texts[] = {
		"not counted here: ctime_skips, ctime_cmpxchg_fails, stat_queries, ctime_sets, "
		"current_time, coarse_mg (-v: why and how to opt in)",
		"a_single_word_much_longer_than_any_line_of_the_terminal_is_cut_not_left_past_it x",
		"short",
	};
	static const int widths[] = { 20, 40, 60, 80 };

	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			for (int col = 0; col < 30 && col < widths[w]; col += 13) {
				char *buf = NULL, *line, *save = NULL;
				size_t len = 0, words = 0;
				FILE *f = open_memstream(&buf, &len);
				int n, maxw = 0, nl = 0;

				fprintf(f, "%*s", col, "");
				n = mg_wrap(f, texts[t], col, 2, widths[w]);
				fclose(f);
				for (char *c = buf; *c; c++)
					nl += *c == '\n';
				for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
					if ((int)strlen(line) > maxw)
						maxw = (int)strlen(line);
				ASSERT_LE(maxw, widths[w],
					  "wrap text %zu at %d from col %d: widest "
					  "line %d, %d lines said, %d printed", t, widths[w], col, maxw, n, nl);
				ASSERT_EQ(n, nl, "wrap text %zu at %d from col %d: widest "
					  "line %d, %d lines said, %d printed", t, widths[w], col, maxw, n, nl);
				(void)words;
				free(buf);
			}
	/* the same text, unlimited: one line */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int n = mg_wrap(f, texts[0], 0, 2, 0);

		fclose(f);
		ASSERT_EQ(n, 1, "width 0: one line, the text as given (%d lines)", n);
		ASSERT_STREQ(buf + strlen(buf) - 1, "\n",
			     "width 0: one line, the text as given (%d lines)", n);
		ASSERT_EQ(strlen(buf), strlen(texts[0]) + 1,
			  "width 0: one line, the text as given (%d lines)", n);
		free(buf);
	}
}

/* perf's CPU list syntax: what parses, what is refused, the canonical form. */
UNIT_TEST(cpulist)
{
	static const struct { const char *s; int n; const char *canon; } cases[] = {
		{ "0", 1, "0" }, { "0,2-3", 3, "0,2-3" }, { "3,2,1,0", 4, "0-3" }, { "1-1", 1, "1" },
		{ "0-2,1", 3, "0-2" }, { "1023", 1, "1023" },
		{ "", -EINVAL, NULL }, { ",", -EINVAL, NULL }, { "0,,1", -EINVAL, NULL },
		{ "1,", -EINVAL, NULL }, { "3-1", -EINVAL, NULL }, { "1-", -EINVAL, NULL },
		{ "-1", -EINVAL, NULL }, { "a", -EINVAL, NULL }, { "0 1", -EINVAL, NULL },
		{ "1024", -ERANGE, NULL }, { "0-99999", -ERANGE, NULL },
	};
	uint64_t mask[MG_CPU_WORDS];
	char why[160], canon[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = mg_cpulist_parse(cases[i].s, mask, why, sizeof(why));

		if (n >= 0)
			mg_cpulist_str(mask, canon, sizeof(canon));
		if (ASSERT_EQ(n, cases[i].n, "cpulist \"%s\" -> %d %s (want %d %s)", cases[i].s, n,
			      n >= 0 ? canon : why, cases[i].n, cases[i].canon ? cases[i].canon : "") &&
		    n >= 0)
			ASSERT_STREQ(canon, cases[i].canon, "cpulist \"%s\": %d CPUs, canonical %s",
				     cases[i].s, n, canon);
	}
}

/* pid lists: parsed, duplicates dropped, bad items refused; the scope's words. */
UNIT_TEST(pidlist)
{
	struct mg_pids p = { 0 };
	char why[96], scope[160];

	ASSERT_FALSE(mg_pidlist_parse("5,7,5", &p, why, sizeof(why)),
		     "pid list 5,7,5: two pids (%u)", p.n);
	ASSERT_EQ(p.n, 2u, "pid list 5,7,5: two pids (%u)", p.n);
	ASSERT_EQ(p.pid[1], 7u, "pid list 5,7,5: two pids (%u)", p.n);
	mg_pids_scope(&p, scope, sizeof(scope));
	ASSERT_STREQ(scope, "pids 5, 7 and their descendants", "scope: %s", scope);
	p.n = 0;
	ASSERT_FALSE(mg_pidlist_parse("9", &p, why, sizeof(why)), "one pid");
	mg_pids_scope(&p, scope, sizeof(scope));
	ASSERT_STREQ(scope, "pid 9 and its descendants", "scope: %s", scope);
	ASSERT_EQ(mg_pidlist_parse("1,,2", &p, why, sizeof(why)), -EINVAL, "1,,2 refused");
	ASSERT_EQ(mg_pidlist_parse("", &p, why, sizeof(why)), -EINVAL, "empty refused");
	ASSERT_EQ(mg_pidlist_parse("0", &p, why, sizeof(why)), -ERANGE, "pid 0 refused");
	ASSERT_EQ(mg_pidlist_parse("4194305", &p, why, sizeof(why)), -ERANGE,
		  "pid past 4194304 refused");
	ASSERT_EQ(mg_pidlist_parse("1x", &p, why, sizeof(why)), -EINVAL, "1x refused");
}

/*
 * mg_same_file: one path named for two outputs, where neither exists yet. A dangling symlink
 * names the file an open would create through it (issue 28 item 0: -o X --junit LINK-to-X
 * wrote both reports into X); a link to another file is another file.
 */
UNIT_TEST(same_file)
{
	char dir[] = "/tmp/mgtrace-unit-same.XXXXXX", a[64], b[64], l[64], rl[64], ll[64];

	if (!ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp: %s", strerror(errno)))
		return;
	snprintf(a, sizeof(a), "%s/a.xml", dir);
	snprintf(b, sizeof(b), "%s/b.xml", dir);
	snprintf(l, sizeof(l), "%s/l.xml", dir);
	snprintf(rl, sizeof(rl), "%s/rl.xml", dir);
	snprintf(ll, sizeof(ll), "%s/ll.xml", dir);
	ASSERT_TRUE(mg_same_file(a, a), "one path twice, not yet created: one file");
	ASSERT_FALSE(mg_same_file(a, b), "two names, not yet created: two files");
	ASSERT_OK(symlink(a, l), "a dangling symlink to a, and a: one file: the symlink");
	ASSERT_TRUE(mg_same_file(a, l), "a dangling symlink to a, and a: one file");
	ASSERT_OK(symlink("a.xml", rl), "a dangling relative symlink to a, and a: one file: the symlink");
	ASSERT_TRUE(mg_same_file(rl, a), "a dangling relative symlink to a, and a: one file");
	ASSERT_OK(symlink(rl, ll), "a chain of two dangling symlinks to a, and a: one file: the symlink");
	ASSERT_TRUE(mg_same_file(ll, a), "a chain of two dangling symlinks to a, and a: one file");
	ASSERT_FALSE(mg_same_file(l, b), "twin: a dangling symlink to a, and b: two files");
	unlink(l);
	unlink(rl);
	unlink(ll);
	rmdir(dir);
}

/*
 * at_word(full, out): out is full, or a prefix of full that ends where a word of full ends,
 * followed by MG_WORDS_CUT.
 */
static bool at_word(const char *full, const char *out)
{
	size_t n = strlen(out), m = strlen(MG_WORDS_CUT);

	if (!strcmp(full, out))
		return true;
	if (n < m || strcmp(out + n - m, MG_WORDS_CUT))
		return unit_note("\"%s\" is neither whole nor marked cut", out);
	n -= m;
	if (!n || strncmp(full, out, n) || full[n] != ' ' || out[n - 1] == ' ')
		return unit_note("\"%s\" is not cut at a word boundary of \"%.80s...\"", out, full);
	return true;
}

/*
 * mg_snprintf_words: a text that fits is whole; a longer one ends at a word boundary, marked,
 * within size; a single long word is cut at the limit, marked. Twin: snprintf's cut of the
 * same text ends mid-word, which at_word() reports.
 */
UNIT_TEST(snprintf_words)
{
	const char *full = "needs a function-probe backend; this run has tracepoints only: fentry "
			   "load failed: EPERM (BPF trampolines refused under lockdown=integrity)";
	char out[64], raw[64], word[16];

	ASSERT_FALSE(mg_snprintf_words(out, sizeof(out), "%s", "no gate set"),
		     "snprintf_words: a text that fits is whole");
	ASSERT_STREQ(out, "no gate set", "snprintf_words: a text that fits is whole");
	ASSERT_TRUE(mg_snprintf_words(out, sizeof(out), "%s", full),
		    "snprintf_words: a long text ends at a word boundary: '%s'", out);
	ASSERT_LT(strlen(out), sizeof(out),
		  "snprintf_words: a long text ends at a word boundary: '%s'", out);
	ASSERT_TRUE(at_word(full, out),
		    "snprintf_words: a long text ends at a word boundary: '%s'", out);
	memcpy(raw, full, sizeof(raw) - 1);	/* what snprintf() keeps of it */
	raw[sizeof(raw) - 1] = 0;
	ASSERT_FALSE(at_word(full, raw),
		     "snprintf_words twin: snprintf's cut '%s' is told apart", raw);
	ASSERT_TRUE(mg_snprintf_words(word, sizeof(word), "%s", "/a-very-long-path-without-spaces"),
		    "snprintf_words: one long word, cut where it stops fitting, marked");
	ASSERT_STREQ(word, "/a-very-long...",
		     "snprintf_words: one long word, cut where it stops fitting, marked");
}
