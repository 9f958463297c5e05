// SPDX-License-Identifier: GPL-2.0
/*
 * vocab.c - event kind and tracepoint names, and the -e parser (vocab.h), from
 * the one table include/mg_vocab.def.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include "counters.h"
#include "util.h"
#include "vocab.h"

static const struct { const char *name, *alias, *help; } kinds[MG_EV_NR_KINDS] = {
#define MG_KIND(ID, n, a, h) [MG_EV_##ID] = { n, a, h },
#include "mg_vocab.def"
};

static const struct { const char *tp; int kind, row, opt_in; } tps[MG_NR_TPS] = {
#define MG_TRACEPOINT(ID, tp, prog, proto, kind, row, bpf_counter, opt_in, top)	\
	[MG_TP_##ID] = { tp, kind, row, opt_in },
#include "mg_vocab.def"
};

const char *mg_event_kind_name(unsigned int kind)
{
	return kind < MG_EV_NR_KINDS ? kinds[kind].name : NULL;
}

const char *mg_event_kind_help(unsigned int kind)
{
	return kind < MG_EV_NR_KINDS ? kinds[kind].help : NULL;
}

int mg_tp_of_kind(unsigned int kind)
{
	int i;

	for (i = 0; i < MG_NR_TPS; i++)
		if (tps[i].kind == (int)kind)
			return i;
	return -1;
}

int mg_tp_opt_in(int tp)
{
	return tp >= 0 && tp < MG_NR_TPS ? tps[tp].opt_in : 0;
}

int mg_tp_kind(int tp)
{
	return tp >= 0 && tp < MG_NR_TPS ? tps[tp].kind : -1;
}

int mg_tp_row(int tp)
{
	return tp >= 0 && tp < MG_NR_TPS ? tps[tp].row : -1;
}

int mg_tps_opt_in(int *out)
{
	int i, j, n = 0;

	for (i = 0; i < MG_NR_TPS; i++) {
		if (!tps[i].opt_in)
			continue;
		/* insertion by place, after the equal ones: table order among them */
		for (j = n; j > 0 && tps[out[j - 1]].opt_in > tps[i].opt_in; j--)
			out[j] = out[j - 1];
		out[j] = i;
		n++;
	}
	return n;
}

unsigned int mg_event_item(const char *t)
{
	unsigned int m = 0;
	const char *p;
	int i;

	if (!strcmp(t, "all"))
		return MG_KINDS_ALL;
	if (!strcmp(t, "ctime"))
		return 1u << MG_EV_CTIME_SWAP | 1u << MG_EV_CTIME_SKIP;
	if (!strcmp(t, "floor"))
		return MG_KINDS_FLOOR;
	if (!strcmp(t, "set"))	/* trace's spelling before the table */
		return 1u << MG_EV_CTIME_SET;
	for (i = 0; i < MG_EV_NR_KINDS; i++)
		if (!strcmp(t, kinds[i].name) || (kinds[i].alias[0] && !strcmp(t, kinds[i].alias)))
			return 1u << i;
	/* perf's timestamp:NAME, bpftrace's tracepoint:timestamp:NAME; globs in NAME */
	p = !strncmp(t, "tracepoint:", 11) ? t + 11 : t;
	if (strncmp(p, "timestamp:", 10))
		return 0;
	for (i = 0, p += 10; i < MG_NR_TPS; i++)
		if (!fnmatch(p, tps[i].tp, 0))
			m |= 1u << tps[i].kind;
	return m;
}

int mg_events_parse(const char *cmd, const char *list, unsigned int allowed, unsigned int *kinds_out)
{
	char buf[512], *t, *next;
	unsigned int m, got = 0;

	if (strlen(list) >= sizeof(buf))
		return mg_err(MG_EXIT_USAGE, "%s: event list too long (%zu bytes)", cmd, strlen(list));
	snprintf(buf, sizeof(buf), "%s", list);
	for (t = buf; t; t = next) {
		if ((next = strchr(t, ',')))
			*next++ = 0;
		if (!*t)
			return mg_err(MG_EXIT_USAGE, "%s: empty item in event list '%s'", cmd, list);
		m = mg_event_item(t);
		if (!m)
			return mg_err(MG_EXIT_USAGE, "%s: unknown event '%s' (%s)", cmd, t,
				      mg_events_names(allowed));
		if (!(m & allowed))
			return mg_err(MG_EXIT_USAGE, "%s: event '%s' is not one %s selects (%s)", cmd,
				      t, cmd, mg_events_names(allowed));
		got |= m & allowed;
	}
	if ((got & MG_KINDS_FLOOR) && (got & MG_KINDS_FLOOR) != (MG_KINDS_FLOOR & allowed))
		return mg_err(MG_EXIT_USAGE, "%s: the floor events (floor_swap, floor_fail, "
			      "floor_unknown) come as one stream: select them as floor", cmd);
	*kinds_out = got;
	return 0;
}

const char *mg_events_names(unsigned int allowed)
{
	static char buf[512];
	size_t n = 0;
	int i;

	const unsigned int ctime = 1u << MG_EV_CTIME_SWAP | 1u << MG_EV_CTIME_SKIP;

	buf[0] = 0;
	for (i = 0; i < MG_EV_NR_KINDS; i++)	/* the floor kinds only together */
		if (allowed & 1u << i & ~MG_KINDS_FLOOR)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s, ", kinds[i].name);
	if (allowed & MG_KINDS_FLOOR)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "floor, ");
	if ((allowed & ctime) == ctime)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "ctime, ");
	snprintf(buf + n, sizeof(buf) - n, "all, timestamp:*");
	return buf;
}
