// SPDX-License-Identifier: GPL-2.0
/*
 * json_checked.c - checked JSON building: jansson's setters that report a failure
 * instead of dropping the field (see escape.h, which routes every includer's
 * json_object_set_new() and json_array_append_new() here). Apart from escape.c, whose
 * byte rules mg_err() prints with: escape.c calls nothing above it.
 */
#define MG_ESCAPE_NO_REDIRECT
#include "escape.h"
#include "util.h"

unsigned long mg_json_failures;

int mg_json_set(json_t *obj, const char *key, json_t *val)
{
	if (!val) {
		mg_err(MG_EXIT_FAIL, "JSON: field '%s' could not be built (invalid UTF-8 or out of "
		       "memory): it is missing from this output", key);
		mg_json_failures++;
		return -1;
	}
	if (json_object_set_new(obj, key, val)) {
		mg_err(MG_EXIT_FAIL, "JSON: field '%s' could not be added (out of memory): it is "
		       "missing from this output", key);
		mg_json_failures++;
		return -1;
	}
	return 0;
}

int mg_json_append(json_t *arr, json_t *val)
{
	if (!val || json_array_append_new(arr, val)) {
		mg_err(MG_EXIT_FAIL, "JSON: an array element could not be %s (%s): it is missing "
		       "from this output", val ? "added" : "built",
		       val ? "out of memory" : "invalid UTF-8 or out of memory");
		mg_json_failures++;
		return -1;
	}
	return 0;
}
