// SPDX-License-Identifier: GPL-2.0
/* jsonnum.c - JSON numbers that survive every reader (see jsonnum.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ident.h"
#include "escape.h"
#include "jsonnum.h"

/*
 * The mark of a u64 held as a string: NUL then 'U', then the digits. No other string
 * mgtrace writes holds a NUL: jansson's json_string() cannot, and escape.c writes every
 * NUL of external bytes as the four characters \x00. jansson encodes it as \u0000.
 */
#define U64_MARK "\"\\u0000U"

json_t *mg_json_u64(uint64_t v)
{
	char s[24];
	int n;

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	n = snprintf(s, sizeof(s), "%cU%llu", 0, (unsigned long long)v);
	return json_stringn(s, (size_t)n);
}

void mg_json_put_ns(json_t *o, const char *key, int64_t ns, bool known)
{
	char k[64];
	int64_t sec = ns / 1000000000, nsec = ns % 1000000000;

	if (nsec < 0) {		/* before the epoch: the nsec part stays in [0, 10^9) */
		sec--;
		nsec += 1000000000;
	}
	snprintf(k, sizeof(k), "%s_ns", key);
	json_object_set_new(o, k, known ? json_integer(ns) : json_null());
	snprintf(k, sizeof(k), "%s_sec", key);
	json_object_set_new(o, k, known ? json_integer(sec) : json_null());
	snprintf(k, sizeof(k), "%s_nsec", key);
	json_object_set_new(o, k, known ? json_integer(nsec) : json_null());
}

json_t *mg_json_rfc3339(int64_t real_ns)
{
	int64_t nsec = real_ns % 1000000000;
	time_t sec = (time_t)(real_ns / 1000000000);
	char buf[64];
	struct tm tm;
	size_t n;

	if (nsec < 0) {
		sec--;
		nsec += 1000000000;
	}
	if (!gmtime_r(&sec, &tm))
		return NULL;
	n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	if (!n)
		return NULL;
	snprintf(buf + n, sizeof(buf) - n, ".%09lldZ", (long long)nsec);
	return json_string(buf);
}

json_t *mg_json_inode(uint32_t dev, uint64_t ino)
{
	char d[MG_KDEV_STRLEN];

	return json_sprintf("%s:%llu", mg_kdev_str(dev, d), (unsigned long long)ino);
}

/* Rewrite each "\u0000U<digits>" string of s (n bytes) in place as <digits>; the new length. */
static size_t unmark(char *s, size_t n)
{
	size_t r = 0, w = 0, ml = strlen(U64_MARK);

	while (r < n) {
		char *m = r + ml <= n ? memmem(s + r, n - r, U64_MARK, ml) : NULL;
		size_t d;

		if (!m) {
			memmove(s + w, s + r, n - r);
			w += n - r;
			break;
		}
		d = (size_t)(m - (s + r));
		memmove(s + w, s + r, d);
		w += d;
		r += d + ml;
		while (r < n && s[r] >= '0' && s[r] <= '9')
			s[w++] = s[r++];
		r++;	/* the closing quote */
	}
	return w;
}

int mg_json_dump(FILE *f, json_t *v)
{
	char stack[8192], *buf = stack;
	size_t need, n;
	int ret = 0;

	need = json_dumpb(v, stack, sizeof(stack), JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (!need)
		return -1;
	if (need > sizeof(stack)) {
		buf = malloc(need);
		if (!buf || json_dumpb(v, buf, need, JSON_COMPACT | JSON_PRESERVE_ORDER) != need) {
			free(buf);
			return -1;
		}
	}
	n = memchr(buf, '\\', need) ? unmark(buf, need) : need;
	if (fwrite(buf, 1, n, f) != n)
		ret = -1;
	if (buf != stack)
		free(buf);
	return ret;
}
