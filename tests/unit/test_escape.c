// SPDX-License-Identifier: GPL-2.0
/* test_escape.c - tests of src/util/escape.c: names and external bytes in text and JSON. */
#include <stdlib.h>
#include <jansson.h>
#include "unit.h"
#include "escape.h"
#include "mgtrace.h"

/*
 * Decode a JSON string value by the documented rule (docs/json.md "Strings"):
 * "\\" is a backslash, "\xHH" the byte HH, everything else its UTF-8 bytes.
 * True when the result is exactly want[0..len).
 */
static bool json_decodes_to(const json_t *j, const char *want, size_t len)
{
	const char *s = json_string_value(j);
	size_t n = json_string_length(j), i = 0, o = 0;
	unsigned int hx;

	if (!s)
		return false;
	while (i < n) {
		char c = s[i];

		if (s[i] == '\\') {
			if (i + 1 < n && s[i + 1] == '\\') {
				i += 2;
			} else if (i + 3 < n && s[i + 1] == 'x' && sscanf(s + i + 2, "%2x", &hx) == 1) {
				c = (char)hx;
				i += 4;
			} else {
				return false;
			}
		} else {
			i++;
		}
		if (o >= len || want[o] != c)
			return false;
		o++;
	}
	return o == len;
}

/* Round trip through jansson's encoder and parser, then the documented decoding. */
static bool json_roundtrips(const char *b, size_t len)
{
	json_t *j = mg_json_str(b, len), *arr = json_array(), *back;
	char *txt;
	bool ok = false;

	if (!j || !arr)
		goto out;
	mg_json_append(arr, j);
	j = NULL;
	txt = json_dumps(arr, JSON_COMPACT);
	back = txt ? json_loads(txt, 0, NULL) : NULL;
	ok = back && json_decodes_to(json_array_get(back, 0), b, len);
	json_decref(back);
	free(txt);
out:
	json_decref(j);
	json_decref(arr);
	return ok;
}

UNIT_TEST(utf8_names)
{
	static const struct { const char *s; size_t len, want; } cut[] = {
		{ "abc", 3, 3 },
		{ "a\xc3", 2, 1 },		/* 2-byte character cut after its lead byte */
		{ "a\xe2\x82", 3, 1 },		/* euro sign cut after 2 of 3 bytes */
		{ "\xf0\x9f\x98", 3, 0 },	/* emoji cut after 3 of 4 bytes */
		{ "\xe2\x82\xac", 3, 3 },	/* a whole euro sign stays */
		{ "a\xff", 2, 2 },		/* an invalid byte is not a cut: kept, escaped later */
		{ "a\xed\xa0", 3, 3 },		/* surrogate start: invalid, not a cut */
		{ "a\xe0\x80", 3, 3 },		/* overlong start: invalid, not a cut */
		{ "a\xf4\x90", 3, 3 },		/* beyond U+10FFFF: invalid, not a cut */
	};
	char euro12[37] = "", name[MG_NAME_LEN], comm[16];
	size_t i, n;
	bool cut_flag;

	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
		ASSERT_EQ(mg_utf8_cut(cut[i].s, cut[i].len), cut[i].want,
			  "utf8_cut case %zu: %zu bytes "
			  "kept of %zu (want %zu)", i, mg_utf8_cut(cut[i].s, cut[i].len), cut[i].len,
			  cut[i].want);

	/* twelve 3-byte characters (36 bytes) as the BPF buffer holds them: 31 bytes + NUL */
	for (i = 0; i < 12; i++)
		strcat(euro12, "\xe2\x82\xac");
	memcpy(name, euro12, MG_NAME_LEN - 1);
	name[MG_NAME_LEN - 1] = 0;
	ASSERT_FALSE(json_stringn(name, strlen(name)),
		     "the cut name is invalid UTF-8: jansson refuses it (why fields went missing)");
	n = mg_name_len(name, sizeof(name), 36, &cut_flag);
	ASSERT_EQ(n, 30, "name cut by the buffer: 10 whole characters (30 bytes), "
		  "truncated (got %zu, %d)", n, cut_flag);
	ASSERT_TRUE(cut_flag, "name cut by the buffer: 10 whole characters (30 bytes), "
		    "truncated (got %zu, %d)", n, cut_flag);
	n = mg_name_len(name, sizeof(name), 31, &cut_flag);
	ASSERT_EQ(n, 31, "a 31-byte name that fits is neither cut nor marked (%zu, %d)",
		  n, cut_flag);
	ASSERT_FALSE(cut_flag, "a 31-byte name that fits is neither cut nor marked (%zu, %d)",
		     n, cut_flag);
	memcpy(name, "abcdefghijklmnopqrstuvwxyz01234", 32);
	n = mg_name_len(name, sizeof(name), 40, &cut_flag);
	ASSERT_EQ(n, 31, "an ASCII name cut by the buffer keeps 31 bytes, truncated");
	ASSERT_TRUE(cut_flag, "an ASCII name cut by the buffer keeps 31 bytes, truncated");
	/* comm: 15 bytes, no length known */
	memcpy(comm, "abcdefghijklmn\xc3", 16);
	n = mg_name_len(comm, sizeof(comm), 0, &cut_flag);
	ASSERT_EQ(n, 14, "comm split inside a character at 15 bytes: 14 kept, truncated");
	ASSERT_TRUE(cut_flag, "comm split inside a character at 15 bytes: 14 kept, truncated");
	memcpy(comm, "abcdefghijklm\xc3\xa9", 16);
	n = mg_name_len(comm, sizeof(comm), 0, &cut_flag);
	ASSERT_EQ(n, 15, "comm ending in a whole character is kept whole");
	ASSERT_FALSE(cut_flag, "comm ending in a whole character is kept whole");
	memcpy(comm, "abcdefghijklmn\xff", 16);
	n = mg_name_len(comm, sizeof(comm), 0, &cut_flag);
	ASSERT_EQ(n, 15, "comm ending in an invalid byte: kept (escaped), not a cut");
	ASSERT_FALSE(cut_flag, "comm ending in an invalid byte: kept (escaped), not a cut");
	memcpy(comm, "ab\xc3\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	n = mg_name_len(comm, sizeof(comm), 0, &cut_flag);
	ASSERT_EQ(n, 3, "a short comm ending in a lead byte was not cut: kept for \\xHH");
	ASSERT_FALSE(cut_flag, "a short comm ending in a lead byte was not cut: kept for \\xHH");
}

UNIT_TEST(json_str)
{
	static const struct { const char *in; size_t len; const char *want; } cases[] = {
		{ "plain", 5, "plain" },
		{ "caf\xc3\xa9", 5, "caf\xc3\xa9" },
		{ "a\xff" "b", 3, "a\\xffb" },
		{ "back\\slash", 10, "back\\\\slash" },
		{ "\\xff", 4, "\\\\xff" },		/* literal text that looks like an escape */
		{ "quote\"", 6, "quote\"" },		/* JSON's own escaping handles quotes */
		{ "new\nline", 8, "new\nline" },	/* and control characters */
		{ "nul\0x", 5, "nul\\x00x" },
		{ "\xc0\xaf", 2, "\\xc0\\xaf" },	/* overlong '/' */
		{ "\xed\xa0\x80", 3, "\\xed\\xa0\\x80" },	/* surrogate */
		{ "\xe2\x82", 2, "\\xe2\\x82" },	/* a cut character not removed: escaped */
		{ "\xe2\x80\xae rtl", 7, "\xe2\x80\xae rtl" },	/* a bidi control: the name exactly */
	};
	size_t i;
	unsigned int seed = 12345;
	int bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *j = mg_json_str(cases[i].in, cases[i].len);
		const char *v = j ? json_string_value(j) : NULL;

		char shown[128];

		mg_text_escape(shown, sizeof(shown), v ? v : "(NULL)", v ? strlen(v) : 6, false);
		ASSERT_STREQ(v, cases[i].want,
			     "json_str case %zu: value '%s' as expected, and it round-trips", i, shown);
		ASSERT_TRUE(json_roundtrips(cases[i].in, cases[i].len),
			    "json_str case %zu: value '%s' as expected, and it round-trips", i, shown);
		json_decref(j);
	}
	{	/* a file name: null when unknown (no bytes), else as mg_json_str */
		json_t *u = mg_json_name("", 0), *k = mg_json_name("f\xff", 2);

		ASSERT_TRUE(json_is_null(u),
			    "json_name: an unknown (empty) name is null, a name its escaped string");
		ASSERT_TRUE(json_is_string(k),
			    "json_name: an unknown (empty) name is null, a name its escaped string");
		ASSERT_STREQ(json_string_value(k), "f\\xff",
			     "json_name: an unknown (empty) name is null, a name its escaped string");
		json_decref(u);
		json_decref(k);
	}
	/* random byte strings, biased towards UTF-8 lead/continuation bytes and backslashes */
	for (i = 0; i < 20000; i++) {
		unsigned char b[24];
		size_t n = rand_r(&seed) % sizeof(b), k;

		for (k = 0; k < n; k++) {
			int r = rand_r(&seed) % 8;

			b[k] = r == 0 ? '\\' : r == 1 ? 'x' : r < 4 ? 0x80 + rand_r(&seed) % 64 :
			       r < 6 ? 0xc0 + rand_r(&seed) % 64 : rand_r(&seed) % 256;
		}
		bad += !json_roundtrips((char *)b, n);
	}
	ASSERT_EQ(bad, 0, "20000 random byte strings: always a JSON string, decoding to the same "
		  "bytes (%d failed)", bad);
	/* the round-trip check itself fails on a wrong encoding */
	{
		json_t *naive = json_string("\\xff");	/* "\xff" text left as is: decodes to 0xff */

		ASSERT_FALSE(json_decodes_to(naive, "\\xff", 4),
			     "the decoding check rejects an encoding that does not double backslashes");
		ASSERT_TRUE(json_decodes_to(naive, "\xff", 1),
			    "the decoding check rejects an encoding that does not double backslashes");
		json_decref(naive);
	}
	{
		unsigned long before = mg_json_failures;
		json_t *o = json_object();

		ASSERT_EQ(mg_json_set(o, "name", json_stringn("\xe2\x82", 2)), -1,
			  "a field jansson refuses is reported (mg_json_failures), not dropped silently");
		ASSERT_EQ(mg_json_failures, before + 1,
			  "a field jansson refuses is reported (mg_json_failures), not dropped silently");
		ASSERT_NULL(json_object_get(o, "name"),
			    "a field jansson refuses is reported (mg_json_failures), not dropped silently");
		json_decref(o);
	}
}

UNIT_TEST(text_escape)
{
	static const struct { const char *in; size_t len; bool cut; const char *want; } cases[] = {
		{ "plain name", 10, false, "plain name" },
		{ "new\nline", 8, false, "new\\nline" },
		{ "tab\there\r", 9, false, "tab\\there\\r" },
		{ "\x01\x1b[31m\x7f", 7, false, "\\x01\\x1b[31m\\x7f" },
		{ "c1\xc2\x85", 4, false, "c1\\xc2\\x85" },	/* NEL: a C1 control */
		{ "caf\xc3\xa9", 5, false, "caf\xc3\xa9" },
		{ "\xff", 1, false, "\\xff" },
		{ "a\\b", 3, false, "a\\\\b" },
		{ "\xef\xbf\xbe", 3, false, "\\xef\\xbf\\xbe" },	/* U+FFFE: not XML */
		{ "\xe2\x80\xae rtl", 7, false, "\\xe2\\x80\\xae rtl" },	/* U+202E: RLO */
		{ "\xe2\x80\x8e\xe2\x80\x8f", 6, false, "\\xe2\\x80\\x8e\\xe2\\x80\\x8f" },	/* LRM, RLM */
		{ "\xe2\x80\xaa\xe2\x81\xa9", 6, false, "\\xe2\\x80\\xaa\\xe2\\x81\\xa9" },	/* LRE, PDI */
		{ "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa", 12, false,
		  "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa" },	/* their neighbours: kept */
		{ "cut", 3, true, "cut\\..." },
	};
	char out[64], small[6];
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = mg_text_escape(out, sizeof(out), cases[i].in, cases[i].len, cases[i].cut);
		ASSERT_EQ(n, strlen(cases[i].want),
			  "text_escape case %zu: '%s' (want '%s')", i, out, cases[i].want);
		ASSERT_STREQ(out, cases[i].want,
			     "text_escape case %zu: '%s' (want '%s')", i, out, cases[i].want);
	}
	n = mg_text_escape(small, sizeof(small), "\n\n\n\n", 4, false);
	ASSERT_EQ(n, 8, "text_escape reports the needed length (8) and "
		  "stays within the buffer ('%s')", small);
	ASSERT_STREQ(small, "\\n\\n\\", "text_escape reports the needed length (8) and "
		     "stays within the buffer ('%s')", small);
	for (i = 0, n = 0; i < 256; i++) {
		char b[1] = { (char)i };

		mg_text_escape(out, sizeof(out), b, 1, false);
		n += strchr(out, '\n') || strchr(out, '\r') || (out[0] && (unsigned char)out[0] < 0x20);
	}
	ASSERT_EQ(n, 0, "no single byte escapes to a control character (%zu did)", n);
}
