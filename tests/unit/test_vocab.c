// SPDX-License-Identifier: GPL-2.0
/* test_vocab.c - tests of src/util/vocab.c (include/mg_vocab.def): the names of kinds and rows. */
#include "unit.h"
#include "counters.h"
#include "commands.h"
#include "kenv.h"
#include "optab.h"
#include "util.h"
#include "vocab.h"

/*
 * The vocabulary (include/mg_vocab.def, src/util/vocab.c): every -e spelling selects
 * the kinds it names, in stat and trace alike; each refusal (empty item, unknown
 * name, a glob matching nothing, a kind the command cannot select, one floor kind
 * alone) returns MG_EXIT_USAGE. The names agree with the enums.
 */
UNIT_TEST(vocab)
{
	static const struct { const char *list; unsigned int allowed, want; int err; } c[] = {
		{ "stat", MG_KINDS_TP, 1u << MG_EV_STAT, 0 },
		{ "stat_queries", MG_KINDS_TP, 1u << MG_EV_STAT, 0 },
		{ "timestamp:fill_mg_cmtime", MG_KINDS_TP, 1u << MG_EV_STAT, 0 },
		{ "tracepoint:timestamp:ctime_xchg_skip", MG_KINDS_TP, 1u << MG_EV_CTIME_SKIP, 0 },
		{ "timestamp:*", MG_KINDS_ALL, MG_KINDS_TP, 0 },
		{ "timestamp:ctime_*", MG_KINDS_ALL, 1u << MG_EV_CTIME_SWAP | 1u << MG_EV_CTIME_SKIP, 0 },
		{ "ctime,set", MG_KINDS_ALL, 1u << MG_EV_CTIME_SWAP | 1u << MG_EV_CTIME_SKIP |
		  1u << MG_EV_CTIME_SET, 0 },
		{ "floor", MG_KINDS_ALL, MG_KINDS_FLOOR, 0 },
		{ "all", MG_KINDS_TP, MG_KINDS_TP, 0 },
		{ "stat,,ctime_set", MG_KINDS_TP, 0, MG_EXIT_USAGE },
		{ "stat,", MG_KINDS_TP, 0, MG_EXIT_USAGE },
		{ "", MG_KINDS_TP, 0, MG_EXIT_USAGE },
		{ "bogus", MG_KINDS_ALL, 0, MG_EXIT_USAGE },
		{ "timestamp:nope*", MG_KINDS_ALL, 0, MG_EXIT_USAGE },
		{ "timestamp", MG_KINDS_ALL, 0, MG_EXIT_USAGE },
		{ "floor", MG_KINDS_TP, 0, MG_EXIT_USAGE },
		{ "floor_swap", MG_KINDS_ALL, 0, MG_EXIT_USAGE },
	};
	unsigned int i, k;
	int err, tp;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		k = 0;
		err = mg_events_parse("unit", c[i].list, c[i].allowed, &k);
		if (ASSERT_EQ(err, c[i].err, "-e '%s' (allowed %#x): exit %d, kinds %#x", c[i].list,
			      c[i].allowed, err, k) && !err)
			ASSERT_EQ(k, c[i].want, "-e '%s' (allowed %#x): kinds %#x", c[i].list,
				  c[i].allowed, k);
	}
	for (k = 0; k < MG_EV_NR_KINDS; k++) {
		tp = mg_tp_of_kind(k);
		ASSERT_TRUE(mg_event_kind_name(k),
			    "kind %u (%s): tracepoint %d", k, mg_event_kind_name(k), tp);
		ASSERT_TRUE(mg_event_kind_help(k),
			    "kind %u (%s): tracepoint %d", k, mg_event_kind_name(k), tp);
		ASSERT_TRUE((tp < 0 ? (MG_KINDS_FLOOR & 1u << k) != 0 : (MG_KINDS_TP & 1u << k) != 0),
			    "kind %u (%s): tracepoint %d", k, mg_event_kind_name(k), tp);
	}
	ASSERT_STREQ(mg_tp_names[MG_TP_FILL_MG_CMTIME], "fill_mg_cmtime",
		     "tracepoint names and kinds agree with the enums");
	ASSERT_EQ(mg_tp_of_kind(MG_EV_CTIME_SWAP), MG_TP_CTIME_NS_XCHG,
		  "tracepoint names and kinds agree with the enums");
	ASSERT_FALSE(mg_tp_opt_in(MG_TP_CTIME_NS_XCHG),
		     "tracepoint names and kinds agree with the enums");
	ASSERT_TRUE(mg_tp_opt_in(MG_TP_CTIME_XCHG_SKIP),
		    "tracepoint names and kinds agree with the enums");
	ASSERT_STREQ(mg_row_name(MG_R_STAT_QUERIES), "stat_queries",
		     "rows: names and Prometheus help by enum mg_row_id, none for derived rows");
	ASSERT_TRUE(mg_row_help(MG_R_CTIME_SETS),
		    "rows: names and Prometheus help by enum mg_row_id, none for derived rows");
	ASSERT_NULL(mg_row_help(MG_R_FLOOR_CMPXCHG_FAILS),
		    "rows: names and Prometheus help by enum mg_row_id, none for derived rows");
	ASSERT_NULL(mg_row_name(MG_R_NR),
		    "rows: names and Prometheus help by enum mg_row_id, none for derived rows");
}

/* The usage text of option val in c's table (its help_fn's where it has one). */
static const char *opt_help_of(const struct mg_cmd_opts *c, int val)
{
	for (const struct mg_opt *o = c->opts; o->val || o->help; o++)
		if (o->val == val)
			return mg_opt_help(o);
	return NULL;
}

/* stat's and trace's -e help come from the table: today's text, every kind named. */
UNIT_TEST(vocab_help)
{
	char buf[200], word[40], text[200], flat[800];
	const char *s = opt_help_of(&stat_cmdopts, 'e'), *t = opt_help_of(&trace_cmdopts, 'e');
	int tps[MG_NR_TPS], n = mg_tps_opt_in(tps);
	unsigned int k;

	ASSERT_STREQ(mg_opt_wrap(buf, sizeof(buf), "aaa bbb ccc"), "aaa bbb ccc",
		     "wrap: a short text stays one line");
	memset(word, 'x', sizeof(word) - 1);
	word[sizeof(word) - 1] = 0;
	snprintf(text, sizeof(text), "%s %s %s", word, word, word);
	mg_opt_wrap(buf, sizeof(buf), text);
	ASSERT_EQ(strchr(buf, '\n') - buf, 39,
		  "wrap: three 39-byte words on three lines (two do not fit in %d)", MG_OPT_HELP_WIDTH);
	ASSERT_EQ(strrchr(buf, '\n') - buf, 79,
		  "wrap: three 39-byte words on three lines (two do not fit in %d)", MG_OPT_HELP_WIDTH);
	mg_opt_wrap(buf, sizeof(buf), "a b");
	ASSERT_NULL(strchr(buf, '\n'), "wrap: no break where the text fits");
	ASSERT_EQ(n, 3, "the opt-in tracepoints by their opt_in place");
	ASSERT_EQ(tps[0], MG_TP_FILL_MG_CMTIME, "the opt-in tracepoints by their opt_in place");
	ASSERT_EQ(tps[1], MG_TP_CTIME_XCHG_SKIP, "the opt-in tracepoints by their opt_in place");
	ASSERT_EQ(tps[2], MG_TP_INODE_SET_CTIME_TO_TS,
		  "the opt-in tracepoints by their opt_in place");
	ASSERT_STREQ(s, "also count these events (comma-separated): stat\n" "(timestamp:fill_mg_cmtime; counter stat_queries), ctime_skip\n" "(timestamp:ctime_xchg_skip; ctime_skips), ctime_set\n" "(timestamp:inode_set_ctime_to_ts; ctime_sets), all, or\n" "tracepoints as perf names them, with globs: timestamp:*",
		     "stat -e's help: the text written by hand before the table");
	ASSERT_STREQ(t, "comma list of ctime_swap, ctime_skip, stat, ctime_set, floor\n" "(floor_swap, floor_fail, floor_unknown), ctime (swap and\n" "skip), timestamp:TRACEPOINT with globs (timestamp:*), all\n" "(default: all available)",
		     "trace -e's help: the text written by hand before the table");
	snprintf(flat, sizeof(flat), "%s", s);
	for (char *c = flat; *c; c++)
		*c = *c == '\n' ? ' ' : *c;
	for (k = 0; k < MG_EV_NR_KINDS; k++) {
		int tp = mg_tp_of_kind(k);

		ASSERT_HAS_SUBSTR(t, mg_event_kind_name(k), "trace -e's help names %s",
				  mg_event_kind_name(k));
		snprintf(text, sizeof(text), "%s (timestamp:%s; ", mg_event_kind_name(k),
			 tp >= 0 ? mg_tp_names[tp] : "");
		if (tp >= 0 && mg_tp_opt_in(tp))
			ASSERT_HAS_SUBSTR(flat, text, "stat -e's help names %s with "
					  "timestamp:%s", mg_event_kind_name(k), mg_tp_names[tp]);
	}
}
