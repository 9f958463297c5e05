// SPDX-License-Identifier: GPL-2.0
/*
 * optstore.c - the one parse loop of a command's options (optab.h mg_opt_parse()): an
 * entry that says where and how its value is stored is stored here, its bounds checked
 * and its refusal worded once; the command's own function sees only the rest.
 */
#include <stdio.h>
#include <string.h>
#include <getopt.h>
#include "optab.h"
#include "util.h"

/* The option as the user spelled it ("--threads", "--threads=4" or "-t"), after getopt took
 * it: the word before its value, or the word that holds both. */
static const char *spelled(const struct mg_opt_parser *p, const char *arg)
{
	const char *last = p->argv[optind - 1];

	/* "--threads=4" and "-t4" are one word; "--threads 4" and "-t 4" two */
	if (arg && last == arg && optind >= 2)
		last = p->argv[optind - 2];
	return last;
}

/* The range a stored number must be in, for the refusal. */
static void range(const struct mg_opt *o, char *buf, size_t len)
{
	if (o->store == MG_OS_SECONDS)
		snprintf(buf, len, "seconds, more than 0, at most %llu", (unsigned long long)o->max);
	else if (o->max == UINT64_MAX)
		snprintf(buf, len, "%llu or more", (unsigned long long)o->min);
	else
		snprintf(buf, len, "%llu..%llu", (unsigned long long)o->min,
			 (unsigned long long)o->max);
}

/* The option o as the user spelled it ("--thr" abbreviates), a short one by its letter
 * ("-vt0" names -t), up to any "=value": for a refusal's line (printed with %.*s). */
static const char *as_spelled(const struct mg_opt_parser *p, const struct mg_opt *o,
			      const char *arg, char *buf, size_t len, int *n)
{
	const char *w = spelled(p, arg);

	if (w[0] != '-' || w[1] != '-')
		w = mg_opt_name(o, buf, len);
	*n = (int)strcspn(w, "=");
	return w;
}

/* Store p->cur's value arg into base. Returns 0 or MG_EXIT_USAGE (printed). */
static int store(const struct mg_opt_parser *p, void *base, const char *arg)
{
	const struct mg_opt *o = p->cur;
	char *at = (char *)base + o->at - 1, r[64], n[64];
	const char *w;
	int bad = 0, wn;

	if (o->seen && !*(const struct mg_opt **)((char *)base + o->seen - 1))
		*(const struct mg_opt **)((char *)base + o->seen - 1) = o;
	switch (o->store) {
	case MG_OS_NONE:
		break;
	case MG_OS_FLAG:
		*(bool *)at = true;
		break;
	case MG_OS_STR:
		/* a path option given "" names no directory (stress -D '' worked in /) */
		if (o->kind == MG_OV_DIR && !*arg) {
			w = as_spelled(p, o, arg, n, sizeof(n), &wn);
			return mg_err(MG_EXIT_USAGE, "%s: an empty path for %.*s", p->cmd->name,
				      wn, w);
		}
		*(const char **)at = arg;
		break;
	case MG_OS_U64:
		bad = mg_parse_u64(arg, o->min, o->max, (uint64_t *)at);
		break;
	case MG_OS_SECONDS:
		bad = mg_parse_seconds(arg, (double)o->max, (double *)at);
		break;
	}
	if (!bad)
		return 0;
	range(o, r, sizeof(r));
	w = as_spelled(p, o, arg, n, sizeof(n), &wn);
	return mg_err(MG_EXIT_USAGE, "%s: invalid value '%s' for %.*s (%s)", p->cmd->name, arg,
		      wn, w, r);
}

const char *mg_opt_name(const struct mg_opt *o, char *buf, size_t len)
{
	if (o->val > 0 && o->val < MG_OPT_LONG)
		snprintf(buf, len, "-%c", o->val);
	else
		snprintf(buf, len, "--%s", o->lname);
	return buf;
}

int mg_opt_parse(struct mg_opt_parser *p, void *base,
		 int (*own)(void *base, int val, const char *arg))
{
	const char *arg;
	int c, e;

	while ((c = mg_opt_next(p, &arg)) > 0) {
		e = p->cur && p->cur->store != MG_OS_NONE ? store(p, base, arg) :
		    own ? own(base, c, arg) : 0;
		if (e)
			return e;
	}
	return c < 0 ? -c : 0;
}
