// SPDX-License-Identifier: GPL-2.0
/* known.c - declared known kernel faults, check --known FILE (see known.h). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "escape.h"
#include "ident.h"
#include "known.h"
#include "mgtrace.h"
#include "util.h"

int mg_release_cmp(const char *a, const char *b)
{
	int i;

	for (i = 0; i < 4; i++) {
		unsigned long x = 0, y = 0;

		if (*a >= '0' && *a <= '9')
			x = strtoul(a, (char **)&a, 10);
		if (*b >= '0' && *b <= '9')
			y = strtoul(b, (char **)&b, 10);
		if (x != y)
			return x < y ? -1 : 1;
		a += *a == '.';
		b += *b == '.';
	}
	return 0;
}

const char *mg_known_setter_name(int event_kind)
{
	return event_kind == MG_EV_CTIME_SET ? "inode_set_ctime_to_ts" :
	       event_kind == MG_EV_CTIME_SWAP ? "inode_set_ctime_current" : NULL;
}

/* A release: leading digits and dots, as "6.13" or "7.2.12". */
static bool release_ok(const char *s)
{
	return *s >= '0' && *s <= '9' && strspn(s, "0123456789.") == strlen(s) &&
	       !strstr(s, "..") && s[strlen(s) - 1] != '.';
}

/* Copy JSON string member key of o into buf; required: missing is an error. 0 or -EINVAL. */
static int get_str(json_t *o, const char *key, bool required, char *buf, size_t len,
		   char *err, size_t errlen, size_t idx)
{
	json_t *v = json_object_get(o, key);

	buf[0] = 0;
	if (!v || json_is_null(v)) {
		if (!required)
			return 0;
		snprintf(err, errlen, "fault %zu: \"%s\" is missing", idx, key);
		return -EINVAL;
	}
	if (!json_is_string(v) || !json_string_length(v) || json_string_length(v) >= len) {
		snprintf(err, errlen, "fault %zu: \"%s\" must be a string of 1 to %zu bytes", idx, key,
			 len - 1);
		return -EINVAL;
	}
	snprintf(buf, len, "%s", json_string_value(v));
	return 0;
}

/* The violation kind named s (check's JSON names), or -1. */
static int kind_of(const char *s)
{
	int k;

	for (k = 0; k < MG_V_NR_KINDS; k++)
		if (!strcmp(s, mg_violation_name(k)))
			return k;
	return -1;
}

/* Parse one entry of "faults". 0, or -EINVAL with err set. */
static int parse_entry(json_t *o, struct mg_known_entry *e, size_t i, char *err, size_t errlen)
{
	static const char *const keys[] = { "id", "kind", "fstype", "setter", "inode", "kernel",
					    "reference", "summary" };
	char buf[64];
	json_t *kr, *v;
	const char *key;
	size_t j;

	if (!json_is_object(o)) {
		snprintf(err, errlen, "fault %zu: not an object", i);
		return -EINVAL;
	}
	json_object_foreach(o, key, v) {
		for (j = 0; j < sizeof(keys) / sizeof(keys[0]) && strcmp(key, keys[j]); j++)
			;
		if (j == sizeof(keys) / sizeof(keys[0])) {
			snprintf(err, errlen, "fault %zu: unknown member \"%.40s\"", i, key);
			return -EINVAL;
		}
	}
	if (get_str(o, "id", true, e->id, sizeof(e->id), err, errlen, i) ||
	    get_str(o, "kind", true, buf, sizeof(buf), err, errlen, i) ||
	    get_str(o, "fstype", true, e->fstype, sizeof(e->fstype), err, errlen, i) ||
	    get_str(o, "reference", true, e->reference, sizeof(e->reference), err, errlen, i) ||
	    get_str(o, "summary", false, e->summary, sizeof(e->summary), err, errlen, i))
		return -EINVAL;
	if ((e->kind = kind_of(buf)) < 0) {
		snprintf(err, errlen, "fault %zu: unknown kind '%s' (a violation kind of check's "
			 "report: ctime_regression, not_later_after_query, ...)", i, buf);
		return -EINVAL;
	}
	if (get_str(o, "setter", false, buf, sizeof(buf), err, errlen, i))
		return -EINVAL;
	e->setter = !buf[0] ? -1 : !strcmp(buf, "inode_set_ctime_to_ts") ? MG_EV_CTIME_SET :
		    !strcmp(buf, "inode_set_ctime_current") ? MG_EV_CTIME_SWAP : -2;
	if (e->setter == -2) {
		snprintf(err, errlen, "fault %zu: unknown setter '%s' (inode_set_ctime_to_ts, "
			 "inode_set_ctime_current)", i, buf);
		return -EINVAL;
	}
	if (get_str(o, "inode", false, buf, sizeof(buf), err, errlen, i))
		return -EINVAL;
	e->dir = !buf[0] ? -1 : !strcmp(buf, "dir") ? 1 : -2;
	if (e->dir == -2 || (e->dir >= 0 && e->setter != MG_EV_CTIME_SET)) {
		snprintf(err, errlen, "fault %zu: \"inode\" can only be \"dir\", and only with the "
			 "setter inode_set_ctime_to_ts (whose events say it)", i);
		return -EINVAL;
	}
	kr = json_object_get(o, "kernel");
	if (!json_is_object(kr) || get_str(kr, "from", true, e->from, sizeof(e->from), err, errlen, i) ||
	    get_str(kr, "before", false, e->before, sizeof(e->before), err, errlen, i) ||
	    json_object_size(kr) > (size_t)(1 + !!json_object_get(kr, "before"))) {
		snprintf(err, errlen, "fault %zu: \"kernel\" must be {\"from\": RELEASE, \"before\": "
			 "RELEASE or null}", i);
		return -EINVAL;
	}
	if (!release_ok(e->from) || (e->before[0] && !release_ok(e->before)) ||
	    (e->before[0] && mg_release_cmp(e->from, e->before) >= 0)) {
		snprintf(err, errlen, "fault %zu: kernel range [%s, %s) is not of two releases, the "
			 "first lower (as \"6.13\")", i, e->from, e->before[0] ? e->before : "open");
		return -EINVAL;
	}
	return 0;
}

int mg_known_load(struct mg_known *k, const char *path, const char *release, char *err,
		  size_t errlen)
{
	json_t *root, *faults, *t;
	size_t i;
	int r = 0;

	memset(k, 0, sizeof(*k));
	snprintf(k->path, sizeof(k->path), "%s", path);
	snprintf(k->release, sizeof(k->release), "%s", release);
	root = mg_json_load_path(path, "", err, errlen, &r);
	if (!root)
		return -r;
	t = json_object_get(root, "type");
	faults = json_object_get(root, "faults");
	if (!json_is_string(t) || strcmp(json_string_value(t), "known_faults") ||
	    json_integer_value(json_object_get(root, "schema_version")) != 1 ||
	    !json_is_array(faults) || json_array_size(faults) > MG_KNOWN_MAX) {
		snprintf(err, errlen, "'%s' is not a known-faults file (\"type\": \"known_faults\", "
			 "\"schema_version\": 1, \"faults\": an array of at most %d)", path,
			 MG_KNOWN_MAX);
		r = -EINVAL;
	}
	for (i = 0; !r && i < json_array_size(faults); i++) {
		struct mg_known_entry *e = &k->e[i];
		char why[300];

		if ((r = parse_entry(json_array_get(faults, i), e, i, why, sizeof(why))))
			snprintf(err, errlen, "'%s': %s", path, why);
		/* an id names one fault: a report matched by it must say which */
		for (size_t j = 0; !r && j < i; j++)
			if (!strcmp(k->e[j].id, e->id)) {
				snprintf(err, errlen, "'%s': faults %zu and %zu have the same id '%s'",
					 path, j, i, e->id);
				r = -EINVAL;
			}
		e->applies = mg_release_cmp(release, e->from) >= 0 &&
			     (!e->before[0] || mg_release_cmp(release, e->before) < 0);
		k->n = i + 1;
	}
	json_decref(root);
	return r;
}

/*
 * The filesystem type of v's inode: from the superblock magic BPF read at the violation
 * where it names one (it holds for a tmpfs in another mount namespace, or unmounted
 * before the report), else v->dev's in /proc/self/mountinfo, looked up once; "" when
 * neither tells.
 */
static const char *fstype_of(struct mg_known *k, const struct mg_violation *v)
{
	const char *name = v->fs_magic ? mg_fs_magic_name(v->fs_magic) : NULL;
	uint32_t dev = v->dev;
	size_t i;

	if (name)
		return name;
	for (i = 0; i < k->ncache; i++)
		if (k->cache[i].dev == dev)
			return k->cache[i].fstype;
	i = k->ncache < sizeof(k->cache) / sizeof(k->cache[0]) ? k->ncache++ : 0;
	k->cache[i].dev = dev;
	if (mg_kdev_fstype(dev, k->cache[i].fstype, sizeof(k->cache[i].fstype)))
		k->cache[i].fstype[0] = 0;
	return k->cache[i].fstype;
}

int mg_known_match(void *ctx, const struct mg_violation *v)
{
	struct mg_known *k = ctx;
	size_t i;

	for (i = 0; i < k->n; i++) {
		struct mg_known_entry *e = &k->e[i];

		if (!e->applies || e->kind != (int)v->kind ||
		    (e->setter >= 0 && (int)v->later.kind != e->setter) ||
		    (e->dir > 0 && !(v->later_flags & MG_EVF_DIR)) ||
		    strcmp(fstype_of(k, v), e->fstype))
			continue;
		if (!e->matched++) {
			e->example = *v;
			e->have_example = true;
		}
		return (int)i;
	}
	return -1;
}
