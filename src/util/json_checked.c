// SPDX-License-Identifier: GPL-2.0
/*
 * json_checked.c - checked JSON building: jansson's setters that report a failure
 * instead of dropping the field (see escape.h, which routes every includer's
 * json_object_set_new() and json_array_append_new() here), and the loading of a JSON
 * file with the true cause of a refusal. Apart from escape.c, whose byte rules mg_err()
 * prints with: escape.c calls nothing above it.
 */
#define MG_ESCAPE_NO_REDIRECT
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

json_t *mg_json_load_path(const char *path, const char *what, char *err, size_t errlen, int *e)
{
	json_t *root;
	json_error_t je;
	struct stat st;
	FILE *f;

	*e = 0;
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (root)
		return root;
	/* why: a file that cannot be opened (its errno), a directory, or text that is not JSON */
	if (!(f = fopen(path, "re"))) {
		*e = errno;
	} else {
		fclose(f);
		*e = !stat(path, &st) && S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	}
	if (*e == EINVAL)
		snprintf(err, errlen, "%s%s'%s' is not JSON: %s (line %d)", what, *what ? " " : "",
			 path, je.text, je.line);
	else
		snprintf(err, errlen, "cannot read %s%s'%s': %s", what, *what ? " " : "", path,
			 strerror(*e));
	return NULL;
}
