// SPDX-License-Identifier: GPL-2.0
/*
 * top_vocab.c - `mgtrace top`'s counters from the one table include/mg_vocab.def
 * (MG_TOP_COUNTER; the tracepoints top counts: MG_TRACEPOINT's top): their names,
 * columns and sources, the --sort list, and the table's consistency check.
 */
#include <stdio.h>
#include <string.h>
#include "kenv.h"
#include "optab.h"
#include "top_int.h"

const struct top_counter top_counters[MG_TOP_NR] = {
#define MG_TOP_COUNTER(ID, name, head, width, place, tp, part_of, source)	\
	[MG_TOP_##ID] = { name, head, source, width, place, tp, part_of },
#include "mg_vocab.def"
};

const char *const top_counter_names[MG_TOP_NR] = {
#define MG_TOP_COUNTER(ID, name, head, width, place, tp, part_of, source) [MG_TOP_##ID] = name,
#include "mg_vocab.def"
};

/* A duplicate place is a second initializer of one element: -Woverride-init warns. */
const int top_col_order[MG_TOP_NR] = {
#define MG_TOP_COUNTER(ID, name, head, width, place, tp, part_of, source) [place] = MG_TOP_##ID,
#include "mg_vocab.def"
};

const bool top_tp_counted[MG_NR_TPS] = {
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in, top)	\
	[MG_TP_##ID] = top,
#include "mg_vocab.def"
};

bool top_counted(const struct top_state *t, int c)
{
	return t->b.floor_probe || top_counters[c].tp >= 0;
}

void top_source_of(const struct top_state *t, int c, char *buf, size_t len)
{
	const struct top_counter *k = &top_counters[c];
	const char *more = k->source[0] ? k->source : NULL;

	if (k->tp >= 0) {
		snprintf(buf, len, "bpf: timestamp:%s (%s)%s%s", mg_tp_names[k->tp],
			 t->b.tp_btf ? "tp_btf" : "raw_tp", more ? " " : "", more ? more : "");
		return;
	}
	if (!t->b.floor_probe)
		snprintf(buf, len, "unavailable: no function probe attaches (%s)", t->b.floor_why);
	else
		snprintf(buf, len, "bpf: %s on %s%s%s", t->b.floor_probe,
			 mg_func_names[MG_FN_REAL_MG], more ? ": " : "", more ? more : "");
}

const char *top_sort_words(void)
{
	static char buf[400];
	size_t n;

	/* the default with function probes first, then the table's order */
	n = (size_t)snprintf(buf, sizeof(buf), "%s", top_counter_names[TOP_SORT_PROBES]);
	for (int c = 0; c < MG_TOP_NR && n < sizeof(buf); c++)
		if (c != TOP_SORT_PROBES)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s", top_counter_names[c]);
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ", auto");
	return buf;
}

const char *top_sort_help(void)
{
	static char buf[500];
	char text[500], words[400];
	size_t n;

	/* the words without ", auto": auto is the default told after them */
	snprintf(words, sizeof(words), "%s", top_sort_words());
	n = strlen(words);
	if (n > 6 && !strcmp(words + n - 6, ", auto"))
		words[n - 6] = 0;
	snprintf(text, sizeof(text), "%s (default: %s with function probes, else %s)", words,
		 top_counter_names[TOP_SORT_PROBES], top_counter_names[TOP_SORT_NO_PROBES]);
	return mg_opt_wrap(buf, sizeof(buf), text);
}

int top_counters_problem(const struct top_counter *k, int n, const bool *tp_counted,
			 char *why, size_t len)
{
	unsigned int places = 0;
	int i, j;

	why[0] = 0;
	for (i = 0; i < n && !why[0]; i++) {
		const struct top_counter *c = &k[i];

		for (j = 0; j < i && strcmp(k[j].name, c->name); j++)
			;
		if (!c->name[0] || !c->head[0] || c->width < (int)strlen(c->head))
			snprintf(why, len, "%s: no name or head, or head %s wider than %d", c->name,
				 c->head, c->width);
		else if (j < i)
			snprintf(why, len, "two counters named %s", c->name);
		else if (c->place < 0 || c->place >= n || places & 1u << c->place)
			snprintf(why, len, "%s: place %d out of 0..%d or taken", c->name, c->place,
				 n - 1);
		else if (c->tp >= MG_NR_TPS || (c->tp >= 0 && !tp_counted[c->tp]))
			snprintf(why, len, "%s: tracepoint %d is not one top counts", c->name, c->tp);
		else if (c->part_of >= 0 && (c->part_of >= n || k[c->part_of].part_of >= 0 ||
					     k[c->part_of].tp != c->tp))
			snprintf(why, len, "%s: part of %d, which is not a whole counted by the "
				 "same probe", c->name, c->part_of);
		places |= c->place >= 0 && c->place < 32 ? 1u << c->place : 0;
	}
	/* every tracepoint top counts is some counter's whole (its programs count something) */
	for (i = 0; i < MG_NR_TPS && !why[0]; i++) {
		for (j = 0; j < n && !(k[j].tp == i && k[j].part_of < 0); j++)
			;
		if (tp_counted[i] && j == n)
			snprintf(why, len, "tracepoint %s: top counts it, but no counter (not a "
				 "part) names it", mg_tp_names[i]);
	}
	return why[0] ? -1 : 0;
}
