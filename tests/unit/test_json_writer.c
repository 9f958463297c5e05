// SPDX-License-Identifier: GPL-2.0
/* test_json_writer.c - tests of src/util/json_writer.c: the bytes jansson wrote, misuse, errors. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "json_writer.h"

/* What the writer wrote through fn into a memory stream (a new string), its error in *err. */
static char *written(void (*fn)(struct mg_jw *), int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct mg_jw w;

	*err = -ENOMEM;
	if (!f)
		return NULL;
	mg_jw_init(&w, f);
	fn(&w);
	*err = mg_jw_error(&w);
	fclose(f);
	return buf;
}

/* A tree of every kind of value and string escape. */
static json_t *every_kind(void)
{
	json_t *o = json_object(), *a = json_array();

	json_object_set_new(o, "schema_version", json_integer(1));
	json_object_set_new(o, "neg", json_integer(INT64_MIN));
	json_object_set_new(o, "max", json_integer(INT64_MAX));
	json_object_set_new(o, "ctl", json_string("q\"b\\s\b\f\n\r\t\x01\x1f/ü€"));
	json_object_set_new(o, "r1", json_real(2.0));
	json_object_set_new(o, "r2", json_real(1e20));
	json_object_set_new(o, "r3", json_real(1.5e-7));
	json_object_set_new(o, "r4", json_real(0.1));
	json_object_set_new(o, "r5", json_real(-123456.789));
	json_object_set_new(o, "t", json_true());
	json_object_set_new(o, "f", json_false());
	json_object_set_new(o, "n", json_null());
	json_array_append_new(a, json_object());
	json_array_append_new(a, json_array());
	json_array_append_new(a, json_integer(0));
	json_object_set_new(o, "a", a);
	return o;
}

UNIT_TEST(json_writer_as_jansson)
{
	json_t *o = every_kind();
	char *want = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER), *got = NULL, *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct mg_jw w;

	if (!ASSERT_OK_PTR(want, "jansson dumps the tree") || !ASSERT_OK_PTR(f, "memory stream"))
		return;
	mg_jw_init(&w, f);
	mg_jw_value(&w, o);
	ASSERT_EQ(mg_jw_error(&w), 0, "no error");
	fclose(f);
	got = buf;
	ASSERT_STREQ(got, want, "the writer's bytes are jansson's: escapes, reals, order, nesting");
	free(want);
	free(got);
	json_decref(o);
}

static void stream_report(struct mg_jw *w)
{
	mg_jw_start_object(w);
	mg_jw_string_field(w, "type", "event");
	mg_jw_uint_field(w, "ino", 9223372036865761322ULL);
	mg_jw_int_field(w, "before_ns", -1);
	mg_jw_name(w, "name");
	mg_jw_bytes(w, "bad\xff\\\0x", 7);
	mg_jw_name(w, "cpus");
	mg_jw_start_array(w);
	mg_jw_uint(w, UINT64_MAX);
	mg_jw_real(w, NAN);
	mg_jw_printf(w, "%s:%d", "cpu", 1);
	mg_jw_end_array(w);
	mg_jw_bool_field(w, "ok", true);
	mg_jw_null_field(w, "gone");
	mg_jw_end_object(w);
	mg_jw_end_line(w);
}

UNIT_TEST(json_writer_streaming)
{
	int err = -1;
	char *s = written(stream_report, &err);

	ASSERT_EQ(err, 0, "no error");
	ASSERT_STREQ(s, "{\"type\":\"event\",\"ino\":9223372036865761322,\"before_ns\":-1,"
		     "\"name\":\"bad\\\\xff\\\\\\\\\\\\x00x\",\"cpus\":[18446744073709551615,null,"
		     "\"cpu:1\"],\"ok\":true,\"gone\":null}\n",
		     "native u64 and i64, external bytes by escape.h's rule, NaN as null, a line");
	free(s);
}

static void value_without_name(struct mg_jw *w)
{
	mg_jw_start_object(w);
	mg_jw_int(w, 1);
	mg_jw_end_object(w);
}

static void name_in_array(struct mg_jw *w)
{
	mg_jw_start_array(w);
	mg_jw_name(w, "x");
}

static void unclosed(struct mg_jw *w)
{
	mg_jw_start_object(w);
	mg_jw_end_line(w);
}

static void mismatched(struct mg_jw *w)
{
	mg_jw_start_object(w);
	mg_jw_end_array(w);
}

static void too_deep(struct mg_jw *w)
{
	int i;

	for (i = 0; i <= MG_JW_DEPTH; i++)
		mg_jw_start_array(w);
}

static void null_tree(struct mg_jw *w)
{
	mg_jw_value(w, NULL);
}

UNIT_TEST(json_writer_misuse)
{
	void (*const bad[])(struct mg_jw *) = { value_without_name, name_in_array, unclosed,
						mismatched, too_deep };
	size_t i;
	int err;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		free(written(bad[i], &err));
		ASSERT_EQ(err, -EINVAL, "misuse %zu is an error, never a malformed line", i);
	}
	free(written(null_tree, &err));
	ASSERT_EQ(err, -ENOMEM, "a tree that could not be built is an error");
}

UNIT_TEST(json_writer_full_disk)
{
	FILE *f = fopen("/dev/full", "w");
	struct mg_jw w;

	if (!f)
		return;		/* no /dev/full in this container: nothing to test */
	setvbuf(f, NULL, _IONBF, 0);
	mg_jw_init(&w, f);
	stream_report(&w);
	ASSERT_EQ(mg_jw_error(&w), -ENOSPC, "a full disk is the write's errno (%d)",
		  mg_jw_error(&w));
	fclose(f);
}
