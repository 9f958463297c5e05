// SPDX-License-Identifier: GPL-2.0
/* test_vocab.c - tests of src/vocab.c (include/mg_vocab.def): the names of kinds and rows. */
#include "unit.h"
#include "counters.h"
#include "kenv.h"
#include "util.h"
#include "vocab.h"

/*
 * The vocabulary (include/mg_vocab.def, src/vocab.c): every -e spelling selects
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
		CHECK(EQ(err, c[i].err) && (err || EQ(k, c[i].want)),
		      "-e '%s' (allowed %#x): exit %d, kinds %#x", c[i].list, c[i].allowed, err, k);
	}
	for (k = 0; k < MG_EV_NR_KINDS; k++) {
		tp = mg_tp_of_kind(k);
		CHECK(IS_TRUE(mg_event_kind_name(k)) && IS_TRUE(mg_event_kind_help(k)) &&
		      (tp < 0 ? (MG_KINDS_FLOOR & 1u << k) != 0 : (MG_KINDS_TP & 1u << k) != 0),
		      "kind %u (%s): tracepoint %d", k, mg_event_kind_name(k), tp);
	}
	CHECK(STREQ(mg_tp_names[MG_TP_FILL_MG_CMTIME], "fill_mg_cmtime") &&
	      EQ(mg_tp_of_kind(MG_EV_CTIME_SWAP), MG_TP_CTIME_NS_XCHG) &&
	      IS_FALSE(mg_tp_opt_in(MG_TP_CTIME_NS_XCHG)) && IS_TRUE(mg_tp_opt_in(MG_TP_CTIME_XCHG_SKIP)),
	      "tracepoint names and kinds agree with the enums");
	CHECK(STREQ(mg_row_name(MG_R_STAT_QUERIES), "stat_queries") && IS_TRUE(mg_row_help(MG_R_CTIME_SETS)) &&
	      IS_FALSE(mg_row_help(MG_R_FLOOR_CMPXCHG_FAILS)) && IS_FALSE(mg_row_name(MG_R_NR)),
	      "rows: names and Prometheus help by enum mg_row_id, none for derived rows");
}
