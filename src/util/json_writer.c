// SPDX-License-Identifier: GPL-2.0
/* json_writer.c - the one JSON writer (see json_writer.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "escape.h"
#include "util.h"
#include "json_writer.h"

void mg_jw_init(struct mg_jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->real_precision = 17;
}

void mg_jw_set_real_precision(struct mg_jw *w, int prec)
{
	w->real_precision = prec < 1 ? 1 : prec > 17 ? 17 : prec;
}

int mg_jw_error(const struct mg_jw *w)
{
	return w->err;
}

static void fail(struct mg_jw *w, int err)
{
	if (!w->err)
		w->err = err;
}

static void put(struct mg_jw *w, const char *s, size_t n)
{
	if (w->err || !n)
		return;
	if (fwrite(s, 1, n, w->f) != n)
		fail(w, errno ? -errno : -EIO);
}

/* The separator before a value (or a name) at the current depth. */
static void before_value(struct mg_jw *w)
{
	if (w->after_name) {
		w->after_name = false;
		return;
	}
	if (!w->depth)
		return;
	if (w->is_object[w->depth - 1]) {	/* a value in an object needs its name */
		fail(w, -EINVAL);
		return;
	}
	if (!w->first[w->depth - 1])
		put(w, ",", 1);
	w->first[w->depth - 1] = false;
}

static void open_(struct mg_jw *w, bool object)
{
	before_value(w);
	if (w->depth == MG_JW_DEPTH) {
		fail(w, -EINVAL);
		return;
	}
	put(w, object ? "{" : "[", 1);
	w->first[w->depth] = true;
	w->is_object[w->depth] = object;
	w->depth++;
}

static void close_(struct mg_jw *w, bool object)
{
	if (!w->depth || w->is_object[w->depth - 1] != object || w->after_name) {
		fail(w, -EINVAL);
		return;
	}
	w->depth--;
	put(w, object ? "}" : "]", 1);
}

void mg_jw_start_object(struct mg_jw *w)
{
	open_(w, true);
}

void mg_jw_end_object(struct mg_jw *w)
{
	close_(w, true);
}

void mg_jw_start_array(struct mg_jw *w)
{
	open_(w, false);
}

void mg_jw_end_array(struct mg_jw *w)
{
	close_(w, false);
}

/* s[0..n) as a JSON string: \\ \" \b \f \n \r \t, other controls \u00XX (as jansson). */
static void put_string(struct mg_jw *w, const char *s, size_t n)
{
	size_t i, run = 0;
	char seq[8];

	put(w, "\"", 1);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = NULL;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(w, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '\\': e = "\\\\"; break;
		case '"': e = "\\\""; break;
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		default:
			snprintf(seq, sizeof(seq), "\\u%04X", c);
			e = seq;
		}
		put(w, e, strlen(e));
	}
	put(w, s + run, n - run);
	put(w, "\"", 1);
}

void mg_jw_name(struct mg_jw *w, const char *name)
{
	if (!w->depth || !w->is_object[w->depth - 1] || w->after_name) {
		fail(w, -EINVAL);
		return;
	}
	if (!w->first[w->depth - 1])
		put(w, ",", 1);
	w->first[w->depth - 1] = false;
	put_string(w, name, strlen(name));
	put(w, ":", 1);
	w->after_name = true;
}

void mg_jw_string(struct mg_jw *w, const char *s)
{
	if (!s) {
		mg_jw_null(w);
		return;
	}
	before_value(w);
	put_string(w, s, strlen(s));
}

void mg_jw_bytes(struct mg_jw *w, const char *s, size_t len)
{
	char stack[256], *buf = stack;
	size_t n = mg_json_escape(stack, sizeof(stack), s, len);

	if (n > sizeof(stack)) {
		buf = malloc(n);
		if (!buf) {
			before_value(w);
			fail(w, -ENOMEM);
			return;
		}
		mg_json_escape(buf, n, s, len);
	}
	before_value(w);
	put_string(w, buf, n);
	if (buf != stack)
		free(buf);
}

void mg_jw_printf(struct mg_jw *w, const char *fmt, ...)
{
	char stack[256], *buf = stack;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(stack, sizeof(stack), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(stack)) {
		buf = malloc((size_t)n + 1);
		if (buf) {
			va_start(ap, fmt);
			vsnprintf(buf, (size_t)n + 1, fmt, ap);
			va_end(ap);
		}
	}
	before_value(w);
	if (n < 0 || !buf)
		fail(w, n < 0 ? -EINVAL : -ENOMEM);
	else
		put_string(w, buf, (size_t)n);
	if (buf != stack)
		free(buf);
}

void mg_jw_int(struct mg_jw *w, int64_t v)
{
	char b[24];

	before_value(w);
	put(w, b, (size_t)snprintf(b, sizeof(b), "%" PRId64, v));
}

void mg_jw_uint(struct mg_jw *w, uint64_t v)
{
	char b[24];

	before_value(w);
	put(w, b, (size_t)snprintf(b, sizeof(b), "%" PRIu64, v));
}

/*
 * v as jansson writes a real: %.*g, ".0" added where neither a point nor an exponent
 * shows it is one, the exponent without '+' and leading zeros ("1e+20" is "1e20").
 */
void mg_jw_real(struct mg_jw *w, double v)
{
	char b[40], *e, *z;
	size_t n;

	if (!isfinite(v)) {
		mg_jw_null(w);
		return;
	}
	n = (size_t)snprintf(b, sizeof(b) - 3, "%.*g", w->real_precision, v);
	if (!strchr(b, '.') && !strchr(b, 'e')) {
		memcpy(b + n, ".0", 3);
		n += 2;
	}
	e = strchr(b, 'e');
	if (e) {
		e++;
		z = e + 1;
		if (*e == '-')
			e++;
		while (*z == '0')
			z++;
		if (z != e) {
			memmove(e, z, n - (size_t)(z - b) + 1);
			n -= (size_t)(z - e);
		}
	}
	before_value(w);
	put(w, b, n);
}

void mg_jw_bool(struct mg_jw *w, bool v)
{
	before_value(w);
	put(w, v ? "true" : "false", v ? 4 : 5);
}

void mg_jw_null(struct mg_jw *w)
{
	before_value(w);
	put(w, "null", 4);
}

void mg_jw_value(struct mg_jw *w, json_t *v)
{
	const char *key, *s;
	json_t *m;
	size_t i, n;

	if (!v) {
		before_value(w);
		fail(w, -ENOMEM);
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		mg_jw_start_object(w);
		json_object_foreach(v, key, m) {
			mg_jw_name(w, key);
			mg_jw_value(w, m);
		}
		mg_jw_end_object(w);
		break;
	case JSON_ARRAY:
		mg_jw_start_array(w);
		json_array_foreach(v, i, m)
			mg_jw_value(w, m);
		mg_jw_end_array(w);
		break;
	case JSON_STRING:
		s = json_string_value(v);
		n = json_string_length(v);
		if (n > 2 && s[0] == 0 && s[1] == MG_JW_U64_MARK) {
			before_value(w);
			put(w, s + 2, n - 2);
		} else {
			before_value(w);
			put_string(w, s, n);
		}
		break;
	case JSON_INTEGER:
		mg_jw_int(w, json_integer_value(v));
		break;
	case JSON_REAL:
		mg_jw_real(w, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		mg_jw_bool(w, json_is_true(v));
		break;
	case JSON_NULL:
		mg_jw_null(w);
		break;
	}
}

void mg_jw_string_field(struct mg_jw *w, const char *name, const char *s)
{
	mg_jw_name(w, name);
	mg_jw_string(w, s);
}

void mg_jw_int_field(struct mg_jw *w, const char *name, int64_t v)
{
	mg_jw_name(w, name);
	mg_jw_int(w, v);
}

void mg_jw_uint_field(struct mg_jw *w, const char *name, uint64_t v)
{
	mg_jw_name(w, name);
	mg_jw_uint(w, v);
}

void mg_jw_bool_field(struct mg_jw *w, const char *name, bool v)
{
	mg_jw_name(w, name);
	mg_jw_bool(w, v);
}

void mg_jw_null_field(struct mg_jw *w, const char *name)
{
	mg_jw_name(w, name);
	mg_jw_null(w);
}

int mg_jw_end_line(struct mg_jw *w)
{
	if (w->depth || w->after_name)
		fail(w, -EINVAL);
	put(w, "\n", 1);
	if (!w->err && fflush(w->f))
		fail(w, errno ? -errno : -EIO);
	return w->err;
}

/* The stream whose failed writes its owner names (mg_jw_owned_stream()), or NULL. */
static FILE *owned_stream;

void mg_jw_owned_stream(FILE *f)
{
	owned_stream = f;
}

void mg_json_print_line(FILE *f, json_t *v)
{
	struct mg_jw w;

	mg_jw_init(&w, f);
	mg_jw_value(&w, v);
	/* a failed write to the owned stream is named once, with its file, by its owner */
	if (mg_jw_end_line(&w) && !(v && f && f == owned_stream)) {
		mg_err(MG_EXIT_FAIL, "JSON: %s", v ? "writing an object failed" :
		       "an object could not be built (out of memory)");
		mg_json_failures++;
	}
}

void mg_json_put_header(json_t *o, const char *type, const char *release)
{
	json_object_set_new(o, "schema_version", json_integer(MG_SCHEMA_VERSION));
	json_object_set_new(o, "type", json_string(type));
	json_object_set_new(o, "kernel_release", mg_json_cstr(release));
}
