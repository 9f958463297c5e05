// SPDX-License-Identifier: GPL-2.0
/* jsonnum.c - JSON numbers that survive every reader (see jsonnum.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ident.h"
#include "escape.h"
#include "json_writer.h"
#include "jsonnum.h"

json_t *mg_json_u64(uint64_t v)
{
	char s[24];
	int n;

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	n = snprintf(s, sizeof(s), "%c%c%llu", 0, MG_JW_U64_MARK, (unsigned long long)v);
	return json_stringn(s, (size_t)n);
}

/* ns as seconds and nanoseconds, nsec in [0, 10^9) also before the epoch. */
static void split_ns(int64_t ns, int64_t *sec, int64_t *nsec)
{
	*sec = ns / 1000000000;
	*nsec = ns % 1000000000;
	if (*nsec < 0) {
		(*sec)--;
		*nsec += 1000000000;
	}
}

void mg_json_put_ns(json_t *o, const char *key, int64_t ns, bool known)
{
	char k[64];
	int64_t sec, nsec;

	split_ns(ns, &sec, &nsec);
	snprintf(k, sizeof(k), "%s_ns", key);
	json_object_set_new(o, k, known ? json_integer(ns) : json_null());
	snprintf(k, sizeof(k), "%s_sec", key);
	json_object_set_new(o, k, known ? json_integer(sec) : json_null());
	snprintf(k, sizeof(k), "%s_nsec", key);
	json_object_set_new(o, k, known ? json_integer(nsec) : json_null());
}

/* real_ns as RFC 3339 into buf (64 bytes); false when out of range. */
static bool rfc3339(char *buf, size_t len, int64_t real_ns)
{
	int64_t s, nsec;
	time_t sec;
	struct tm tm;
	size_t n;

	split_ns(real_ns, &s, &nsec);
	sec = (time_t)s;
	if (!gmtime_r(&sec, &tm))
		return false;
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!n)
		return false;
	snprintf(buf + n, len - n, ".%09lldZ", (long long)nsec);
	return true;
}

json_t *mg_json_rfc3339(int64_t real_ns)
{
	char buf[64];

	return rfc3339(buf, sizeof(buf), real_ns) ? json_string(buf) : NULL;
}

json_t *mg_json_inode(uint32_t dev, uint64_t ino)
{
	char d[MG_KDEV_STRLEN];

	return json_sprintf("%s:%llu", mg_kdev_str(dev, d), (unsigned long long)ino);
}

void mg_jw_ns(struct mg_jw *w, const char *key, int64_t ns, bool known)
{
	char k[64];
	int64_t sec, nsec;

	split_ns(ns, &sec, &nsec);
	snprintf(k, sizeof(k), "%s_ns", key);
	mg_jw_name(w, k);
	known ? mg_jw_int(w, ns) : mg_jw_null(w);
	snprintf(k, sizeof(k), "%s_sec", key);
	mg_jw_name(w, k);
	known ? mg_jw_int(w, sec) : mg_jw_null(w);
	snprintf(k, sizeof(k), "%s_nsec", key);
	mg_jw_name(w, k);
	known ? mg_jw_int(w, nsec) : mg_jw_null(w);
}

void mg_jw_rfc3339(struct mg_jw *w, int64_t real_ns)
{
	char buf[64];

	mg_jw_string(w, rfc3339(buf, sizeof(buf), real_ns) ? buf : NULL);
}

void mg_jw_inode(struct mg_jw *w, uint32_t dev, uint64_t ino)
{
	char d[MG_KDEV_STRLEN];

	mg_jw_printf(w, "%s:%llu", mg_kdev_str(dev, d), (unsigned long long)ino);
}
