// SPDX-License-Identifier: GPL-2.0
/* test_jsonnum.c - tests of src/util/jsonnum.c: exact integers above 2^53 and 2^63, and their twins. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "escape.h"
#include "json_writer.h"
#include "jsonnum.h"

/* o as the writer writes it (json_writer.c mg_jw_value(); a new string, no newline). */
static char *dumped(json_t *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct mg_jw w;

	if (!f)
		return NULL;
	mg_jw_init(&w, f);
	mg_jw_value(&w, o);
	if (mg_jw_error(&w)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

UNIT_TEST(jsonnum_u64)
{
	json_t *o = json_object();
	char *s;

	/* an overlayfs xino inode number (seen on this host: 9223372036865761322) and the ends */
	json_object_set_new(o, "ino", mg_json_u64(9223372036865761322ULL));
	json_object_set_new(o, "max", mg_json_u64(UINT64_MAX));
	json_object_set_new(o, "i63", mg_json_u64(INT64_MAX));
	json_object_set_new(o, "small", mg_json_u64(7));
	/* external bytes with a NUL and the mark's letters: escaped by escape.c, never unmarked */
	json_object_set_new(o, "name", mg_json_str("\0U123", 5));
	json_object_set_new(o, "text", json_string("\\u0000U5"));
	s = dumped(o);
	ASSERT_STREQ(s, "{\"ino\":9223372036865761322,\"max\":18446744073709551615," "\"i63\":9223372036854775807,\"small\":7,\"name\":\"\\\\x00U123\"," "\"text\":\"\\\\u0000U5\"}",
		     "u64 above INT64_MAX written as its bare digits (jansson's json_int_t would be negative); "
		     "a name holding NUL+U and a string holding the mark's text are left alone");
	free(s);
	json_decref(o);
}

UNIT_TEST(jsonnum_ns_pairs)
{
	json_t *o = json_object();
	char *s;

	/* the reading of issue 28: jq's % 1000000000 gave 623932160, the truth is 623932076 */
	mg_json_put_ns(o, "time_realtime", 1796194825623932076LL, true);
	mg_json_put_ns(o, "entry_mono", 0, false);
	mg_json_put_ns(o, "before", -1, true);
	json_object_set_new(o, "time", mg_json_rfc3339(1796194825623932076LL));
	json_object_set_new(o, "epoch", mg_json_rfc3339(-1));
	json_object_set_new(o, "inode", mg_json_inode((254u << 20) | 3, 9223372036865761322ULL));
	s = dumped(o);
	ASSERT_STREQ(s, "{\"time_realtime_ns\":1796194825623932076,\"time_realtime_sec\":1796194825," "\"time_realtime_nsec\":623932076,\"entry_mono_ns\":null,\"entry_mono_sec\":null," "\"entry_mono_nsec\":null,\"before_ns\":-1,\"before_sec\":-1,\"before_nsec\":999999999," "\"time\":\"2026-12-02T07:00:25.623932076Z\",\"epoch\":\"1969-12-31T23:59:59.999999999Z\"," "\"inode\":\"254:3:9223372036865761322\"}",
		     "ns as exact integer, seconds and nanoseconds (nsec in [0, 1e9) before the epoch too), "
		     "RFC 3339 UTC with 9 decimals, unknown as three nulls, MAJ:MIN:INO");
	ASSERT_NEQ((long long)(double)1796194825623932076LL % 1000000000, 623932076LL,
		   "the case is real: a double rounds the ns reading (%lld)",
		   (long long)(double)1796194825623932076LL % 1000000000);
	free(s);
	json_decref(o);
}
