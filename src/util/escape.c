// SPDX-License-Identifier: GPL-2.0
/* escape.c - external bytes in text, JSON and XML output (see escape.h). */
#define MG_ESCAPE_NO_REDIRECT
#include <stdlib.h>
#include <string.h>
#include "escape.h"

/*
 * The UTF-8 sequence at s (n > 0 bytes available), RFC 3629: its length 1-4;
 * 0 when s[0] does not start a valid sequence; -1 when the bytes so far are a
 * valid start but the buffer ends before the sequence does.
 */
static int utf8_seq(const unsigned char *s, size_t n)
{
	unsigned int c = s[0], lo = 0x80, hi = 0xbf;
	int need, i;

	if (c < 0x80)
		return 1;
	if (c < 0xc2)		/* continuation byte, or overlong 2-byte lead */
		return 0;
	if (c < 0xe0) {
		need = 2;
	} else if (c < 0xf0) {
		need = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* UTF-16 surrogates */
	} else if (c < 0xf5) {
		need = 4;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* > U+10FFFF */
	} else {
		return 0;
	}
	for (i = 1; i < need; i++) {
		if ((size_t)i >= n)
			return -1;
		if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf))
			return 0;
	}
	return need;
}

size_t mg_utf8_cut(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		int r = utf8_seq(u + i, len - i);

		if (r < 0)
			return i;
		i += r > 0 ? (size_t)r : 1;
	}
	return len;
}

size_t mg_name_len(const char *buf, size_t cap, size_t full_len, bool *truncated)
{
	size_t n = strnlen(buf, cap), cut;

	if (full_len) {
		*truncated = full_len > n;
		return *truncated ? mg_utf8_cut(buf, n) : n;
	}
	/* no length known: a character split by the end of a full buffer shows the cut */
	cut = n + 1 >= cap ? mg_utf8_cut(buf, n) : n;
	*truncated = cut < n;
	return cut;
}

/* Output sink: a bounded buffer that counts what it would need. */
struct sink {
	char *out;
	size_t cap, len;
};

static void put(struct sink *k, const char *s, size_t n)
{
	if (k->len < k->cap) {
		size_t m = k->cap - k->len < n ? k->cap - k->len : n;

		memcpy(k->out + k->len, s, m);
	}
	k->len += n;
}

static void put_hex(struct sink *k, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char b[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	put(k, b, 4);
}

/*
 * Whether the 3-byte UTF-8 sequence at u is a bidi control: LRM/RLM (U+200E/U+200F, e2 80
 * 8e/8f), the embeddings and overrides U+202A..U+202E (e2 80 aa..ae), the isolates
 * U+2066..U+2069 (e2 81 a6..a9).
 */
static bool bidi_control(const unsigned char *u)
{
	if (u[0] != 0xe2)
		return false;
	if (u[1] == 0x80)
		return u[2] == 0x8e || u[2] == 0x8f || (u[2] >= 0xaa && u[2] <= 0xae);
	return u[1] == 0x81 && u[2] >= 0xa6 && u[2] <= 0xa9;
}

/* Escape s into k: text form, or JSON form (only backslash, invalid bytes, NUL). */
static void escape(struct sink *k, const char *s, size_t len, bool text)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, j;

	while (i < len) {
		int r = utf8_seq(u + i, len - i);

		if (r <= 0 || u[i] == 0) {
			put_hex(k, u[i]);
			i++;
			continue;
		}
		if (u[i] == '\\') {
			put(k, "\\\\", 2);
		} else if (text && (u[i] < 0x20 || u[i] == 0x7f)) {
			if (u[i] == '\n')
				put(k, "\\n", 2);
			else if (u[i] == '\t')
				put(k, "\\t", 2);
			else if (u[i] == '\r')
				put(k, "\\r", 2);
			else
				put_hex(k, u[i]);
		} else if (text && ((r == 2 && u[i] == 0xc2 && u[i + 1] < 0xa0) ||
				    (r == 3 && u[i] == 0xef && u[i + 1] == 0xbf && u[i + 2] >= 0xbe) ||
				    (r == 3 && bidi_control(u + i)))) {
			/*
			 * C1 controls and U+FFFE/U+FFFF: terminal controls, invalid in XML;
			 * bidi controls: they reorder the rest of the line on screen
			 */
			for (j = 0; j < (size_t)r; j++)
				put_hex(k, u[i + j]);
		} else {
			put(k, s + i, (size_t)r);
		}
		i += (size_t)r;
	}
}

json_t *mg_json_str(const char *s, size_t len)
{
	struct sink k = { 0 };
	json_t *j;

	escape(&k, s, len, false);
	if (k.len == len)	/* nothing to escape */
		return json_stringn(len ? s : "", len);
	k.out = malloc(k.len);
	if (!k.out)
		return NULL;
	k.cap = k.len;
	k.len = 0;
	escape(&k, s, len, false);
	j = json_stringn(k.out, k.len);
	free(k.out);
	return j;
}

json_t *mg_json_name(const char *s, size_t len)
{
	return len ? mg_json_str(s, len) : json_null();
}

json_t *mg_json_cstr(const char *s)
{
	return s ? mg_json_str(s, strlen(s)) : json_null();
}

json_t *mg_argv_json(char **argv)
{
	json_t *a = json_array();

	if (!a)
		return NULL;
	for (char **p = argv; *p; p++) {
		if (json_array_append_new(a, mg_json_cstr(*p))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

size_t mg_json_escape(char *out, size_t cap, const char *s, size_t len)
{
	struct sink k = { out, cap, 0 };

	escape(&k, s, len, false);
	return k.len;
}

size_t mg_text_escape(char *out, size_t cap, const char *s, size_t len, bool truncated)
{
	struct sink k = { out, cap ? cap - 1 : 0, 0 };

	escape(&k, s, len, true);
	if (truncated)
		put(&k, "\\...", 4);
	if (cap)
		out[k.len < cap ? k.len : cap - 1] = 0;
	return k.len;
}

void mg_text_fput(FILE *f, const char *s, size_t len, bool truncated)
{
	char small[256], *b = small;
	size_t n = mg_text_escape(small, sizeof(small), s, len, truncated);

	if (n >= sizeof(small)) {
		b = malloc(n + 1);
		if (!b) {
			fputs("(out of memory)", f);
			return;
		}
		mg_text_escape(b, n + 1, s, len, truncated);
	}
	fwrite(b, 1, n, f);
	if (b != small)
		free(b);
}

void mg_xml_fput(FILE *f, const char *s, size_t len)
{
	char small[256], *b = small;
	size_t n = mg_text_escape(small, sizeof(small), s, len, false), i;

	if (n >= sizeof(small)) {
		b = malloc(n + 1);
		if (!b) {
			fputs("(out of memory)", f);
			return;
		}
		mg_text_escape(b, n + 1, s, len, false);
	}
	for (i = 0; i < n; i++) {	/* the text form has no control characters left */
		switch (b[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(b[i], f);
		}
	}
	if (b != small)
		free(b);
}
