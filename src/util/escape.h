/* SPDX-License-Identifier: GPL-2.0 */
/*
 * escape.h - external bytes (file names, task comms, COMMAND arguments, kernel
 * strings, paths) in mgtrace's output: one set of rules for text, JSON and XML
 * (docs/json.md "Strings"), and checked JSON building.
 *
 * Rules, all lossless (the original bytes can be recovered):
 *  - JSON: valid UTF-8 is kept (JSON's own escapes handle control characters);
 *    a backslash becomes two backslashes, every byte that is not part of a
 *    valid UTF-8 sequence (RFC 3629: no overlongs, surrogates, > U+10FFFF) and
 *    NUL become the four characters \xHH (lower-case hex).
 *  - text (and XML, which carries the text form): as JSON, and also the C0
 *    controls, DEL, the C1 controls U+0080..U+009F, the non-characters
 *    U+FFFE/U+FFFF and the bidi controls (U+200E/U+200F, U+202A..U+202E,
 *    U+2066..U+2069) are written byte by byte as \xHH, except \n, \t, \r as
 *    themselves escaped ("\n" is the two characters backslash and n).
 *    A truncated name ends with the marker \... (unambiguous: a real
 *    backslash is always doubled).
 *  - names cut by a fixed-size buffer lose the trailing partial UTF-8
 *    character and are marked truncated (mg_name_len).
 *
 * Including this header also routes every json_object_set_new() and
 * json_array_append_new() of the including file through mg_json_set() and
 * mg_json_append(), which report a failure instead of dropping the field.
 */
#ifndef MG_ESCAPE_H
#define MG_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/*
 * Length of s[0..len) without a trailing incomplete UTF-8 sequence: one that
 * is a valid start of a character but is cut by the end of the buffer. Bytes
 * that are invalid anyway are kept (they are escaped when printed).
 */
size_t mg_utf8_cut(const char *s, size_t len);

/*
 * A name the kernel or a BPF program copied into a buffer of cap bytes
 * (NUL-terminated within it, or filling it). full_len: the name's real length
 * when known (dentry d_name.len), 0 when not (task comm: the kernel keeps no
 * length). Returns the number of bytes to print and sets *truncated when the
 * name was longer than that: full_len > the stored length, or (full_len 0)
 * the stored bytes fill the buffer and end inside a character. A cut name
 * also drops its trailing partial character.
 */
size_t mg_name_len(const char *buf, size_t cap, size_t full_len, bool *truncated);

/*
 * A JSON string of the bytes s[0..len), escaped as described above. Never
 * NULL except when out of memory; s may be NULL when len is 0.
 */
json_t *mg_json_str(const char *s, size_t len);
/* mg_json_str of a NUL-terminated string (NULL gives JSON null). */
json_t *mg_json_cstr(const char *s);
/*
 * A file name of len bytes (mg_name_len()) as mg_json_str, or JSON null when
 * len is 0: the kernel names no entry with no bytes, so an empty name is one
 * the probe could not read (no dentry, a floor event outside a file's call),
 * written null as in check --json's reports.
 */
json_t *mg_json_name(const char *s, size_t len);

/*
 * argv (NULL-terminated) as a JSON array of mg_json_cstr() strings, as every
 * report's "command" field writes it (check's --baseline compares two of them);
 * NULL: no memory.
 */
json_t *mg_argv_json(char **argv);

/*
 * JSON form of s[0..len) (the string's value, before JSON's own escapes) into out, cap
 * bytes, not NUL-terminated. Returns the length the full result needs (at most 4 * len):
 * when it is above cap, out holds its first cap bytes (json_writer.c's mg_jw_bytes()).
 */
size_t mg_json_escape(char *out, size_t cap, const char *s, size_t len);
/*
 * Text form of s[0..len) into out (cap bytes, always NUL-terminated when
 * cap > 0), with the marker \... appended when truncated. Returns the length
 * the full result needs (as snprintf does; at most 4 * len + 4).
 */
size_t mg_text_escape(char *out, size_t cap, const char *s, size_t len, bool truncated);
/* Write the text form of s[0..len) to f. */
void mg_text_fput(FILE *f, const char *s, size_t len, bool truncated);
/* Write the text form of s[0..len) to f as XML 1.0 character data or attribute value. */
void mg_xml_fput(FILE *f, const char *s, size_t len);

/*
 * json_object_set_new() and json_array_append_new() that report a failure
 * (a NULL value: invalid UTF-8 or no memory; no memory to insert) as one
 * "mgtrace: JSON: ..." line on stderr and count it in mg_json_failures.
 * As with jansson, the reference to val is stolen. Returns 0 or -1. Defined in
 * json_checked.c: escape.c calls nothing above it, so that mg_err() prints its
 * line in the text form.
 */
int mg_json_set(json_t *obj, const char *key, json_t *val);
int mg_json_append(json_t *arr, json_t *val);
/* Failed mg_json_set/mg_json_append calls since start. */
extern unsigned long mg_json_failures;

/*
 * The JSON document in file path (duplicate keys refused), or NULL with err set to one
 * line naming what ("baseline"; "" for none) and the true cause: "cannot read WHAT
 * 'PATH': ..." (the file's errno, EISDIR for a directory) or "WHAT 'PATH' is not JSON:
 * ... (line N)". *e: 0, or the positive errno (EINVAL: not JSON).
 */
json_t *mg_json_load_path(const char *path, const char *what, char *err, size_t errlen, int *e);

#ifndef MG_ESCAPE_NO_REDIRECT
#define json_object_set_new(obj, key, val) mg_json_set((obj), (key), (val))
#define json_array_append_new(arr, val) mg_json_append((arr), (val))
#endif

#endif
