/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonnum.h - JSON numbers that survive every reader (docs/json.md "Integers above 2^53").
 *
 * jq 1.6 and JavaScript read a JSON number as an IEEE double: an integer above 2^53
 * (9007199254740992) comes back rounded. A CLOCK_REALTIME reading in ns (1.8e18) always is,
 * a CLOCK_MONOTONIC one after 104 days of uptime, an overlayfs xino inode number (high bits
 * set: 9223372036865761304) always. mgtrace keeps the exact integer and puts beside it a form
 * that a double carries exactly: seconds and nanoseconds as two integers, an RFC 3339 string,
 * the inode as the "MAJ:MIN:INO" string that trace --inode takes.
 */
#ifndef MG_JSONNUM_H
#define MG_JSONNUM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

/* The largest integer every IEEE double reader keeps exact: 2^53. */
#define MG_JSON_EXACT_MAX (1ULL << 53)

/*
 * An unsigned 64-bit integer as a JSON integer, exact over the whole range: jansson's
 * json_int_t is signed, so a value above INT64_MAX (an overlayfs xino inode number) is
 * held as a marked string (json_writer.h MG_JW_U64_MARK) that mg_jw_value() writes as
 * the bare number. Only the writer (mg_json_print_line()) may write an object holding
 * one; a streaming caller writes mg_jw_uint() instead. NULL: ENOMEM.
 */
json_t *mg_json_u64(uint64_t v);

/*
 * Set KEY_ns (the exact integer), KEY_sec and KEY_nsec (ns = sec * 10^9 + nsec, 0 <= nsec
 * < 10^9, each exact in a double for any 64-bit ns) into o; known false sets all three to
 * null. key is the field's name without "_ns" ("time_mono"). Units: ns of the clock KEY names.
 */
void mg_json_put_ns(json_t *o, const char *key, int64_t ns, bool known);

/*
 * A CLOCK_REALTIME reading in ns as RFC 3339, UTC, with 9 decimals:
 * "2026-12-02T06:55:02.169915142Z" (a new string; NULL: ENOMEM or out of range).
 */
json_t *mg_json_rfc3339(int64_t real_ns);

/* The inode dev:ino as "MAJ:MIN:INO" (dev: kernel dev_t, as trace --inode takes it). */
json_t *mg_json_inode(uint32_t dev, uint64_t ino);

/* Streaming forms of the three above, written through the one writer (json_writer.h). */
struct mg_jw;
/* Members KEY_ns, KEY_sec, KEY_nsec as mg_json_put_ns() sets them. */
void mg_jw_ns(struct mg_jw *w, const char *key, int64_t ns, bool known);
/* The value mg_json_rfc3339() makes (null when out of range). */
void mg_jw_rfc3339(struct mg_jw *w, int64_t real_ns);
/* The value mg_json_inode() makes: "MAJ:MIN:INO". */
void mg_jw_inode(struct mg_jw *w, uint32_t dev, uint64_t ino);

#endif
