/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_writer.h - the one JSON writer: every JSON byte mgtrace prints goes through it.
 *
 * A streaming writer in the manner of bpftool's json_writer.c: values are written to a
 * FILE as they are given, compact (JSON lines: no space, one object per line), with
 * native signed and unsigned 64-bit integers (an overlayfs xino inode number above 2^63
 * is written as its digits, no marked string, no rounding). Strings given as C strings
 * must be valid UTF-8 (mgtrace's own words); bytes from outside mgtrace (file names,
 * comms, arguments) go through mg_jw_bytes(), which applies escape.h's rule first.
 *
 * A command that still builds a jansson tree prints it with mg_jw_value(), which walks
 * the tree through the same functions: the bytes are the same either way.
 *
 * Errors: a failed write (a full disk, a closed pipe) or a misuse (a name outside an
 * object, nesting deeper than MG_JW_DEPTH) is remembered; mg_jw_error() gives the first
 * as a negative errno, and the writer stops writing after it.
 */
#ifndef MG_JSON_WRITER_H
#define MG_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

/*
 * jansson's integers are signed: jsonnum.h's mg_json_u64() holds a value above INT64_MAX
 * in a tree as a string of a NUL, this letter and the digits, which mg_jw_value() writes
 * as the bare unsigned integer. No other string mgtrace writes holds a NUL (escape.c
 * writes the NUL of external bytes as the four characters \x00).
 */
#define MG_JW_U64_MARK 'U'

/* Deepest nesting of objects and arrays a writer takes (mgtrace's reports reach 6). */
#define MG_JW_DEPTH 32

/* A writer: initialise with mg_jw_init(); it holds no memory of its own. */
struct mg_jw {
	FILE *f;
	int depth;			/* open objects and arrays */
	int err;			/* first error, negative errno; 0: none */
	int real_precision;		/* %.*g digits of a real (jansson's default: 17) */
	bool after_name;		/* a name was written, its value is due */
	bool first[MG_JW_DEPTH];	/* no element yet at this depth */
	bool is_object[MG_JW_DEPTH];
};

/* Start writing to f, compact, reals with 17 significant digits. */
void mg_jw_init(struct mg_jw *w, FILE *f);
/* Reals written from now on with prec significant digits (1..17; clocks uses 6). */
void mg_jw_set_real_precision(struct mg_jw *w, int prec);
/* The first error (negative errno: -EIO or the write's errno, -EINVAL a misuse), or 0. */
int mg_jw_error(const struct mg_jw *w);

void mg_jw_start_object(struct mg_jw *w);
void mg_jw_end_object(struct mg_jw *w);
void mg_jw_start_array(struct mg_jw *w);
void mg_jw_end_array(struct mg_jw *w);
/* The name of the next member of the open object (valid UTF-8, mgtrace's own word). */
void mg_jw_name(struct mg_jw *w, const char *name);

/* A string of valid UTF-8 (NULL: null), JSON-escaped as jansson escapes it. */
void mg_jw_string(struct mg_jw *w, const char *s);
/* A string of len bytes from outside mgtrace, escaped by escape.h's rule (never dropped). */
void mg_jw_bytes(struct mg_jw *w, const char *s, size_t len);
/* A string formatted as printf does (valid UTF-8). */
void mg_jw_printf(struct mg_jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mg_jw_int(struct mg_jw *w, int64_t v);
void mg_jw_uint(struct mg_jw *w, uint64_t v);
/* A real: NaN and infinities, which JSON cannot carry, are written null. */
void mg_jw_real(struct mg_jw *w, double v);
void mg_jw_bool(struct mg_jw *w, bool v);
void mg_jw_null(struct mg_jw *w);
/*
 * A jansson value and everything under it, in the order it holds (a string marked by
 * jsonnum.h's mg_json_u64() is written as its unsigned integer). NULL: -ENOMEM.
 */
void mg_jw_value(struct mg_jw *w, json_t *v);

/* name then value, for the common members */
void mg_jw_string_field(struct mg_jw *w, const char *name, const char *s);
void mg_jw_int_field(struct mg_jw *w, const char *name, int64_t v);
void mg_jw_uint_field(struct mg_jw *w, const char *name, uint64_t v);
void mg_jw_bool_field(struct mg_jw *w, const char *name, bool v);
void mg_jw_null_field(struct mg_jw *w, const char *name);

/*
 * End a JSON line: the newline and a flush. Returns mg_jw_error() (the writer may be
 * reused for the next line only when it is 0 and every object was closed: -EINVAL).
 */
int mg_jw_end_line(struct mg_jw *w);

/* Version of every JSON object mgtrace prints (docs/json.md). */
#define MG_SCHEMA_VERSION 1

/*
 * The header every JSON report starts with: schema_version, type and
 * kernel_release (escaped as escape.h says), set into o.
 */
void mg_json_put_header(json_t *o, const char *type, const char *release);

/*
 * Print a JSON value compactly on one line and flush. A NULL value or a failed
 * write is reported on stderr ("mgtrace: JSON: ...") and counted in mg_json_failures;
 * a failed write to the stream of mg_jw_owned_stream() is left to its owner.
 */
void mg_json_print_line(FILE *f, json_t *v);

/*
 * f (NULL: none) is a stream whose owner names its failed writes, with the file, in one
 * line (mg_out: mg_out_close()): mg_json_print_line() says nothing more of them.
 */
void mg_jw_owned_stream(FILE *f);

#endif
