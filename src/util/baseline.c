// SPDX-License-Identifier: GPL-2.0
/* baseline.c - the baseline report of `mgtrace check --baseline` and its workload (baseline.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "escape.h"
#include "baseline.h"
#include "json_writer.h"
#include "report.h"

void mg_workload_id_free(struct mg_workload_id *id)
{
	json_decref(id->argv);
	id->argv = NULL;
}

/* Copy a JSON string member of o into buf ("" when absent or not a string). */
static void copy_str(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *s = json_object_get(o, key);

	snprintf(buf, len, "%s", json_is_string(s) ? json_string_value(s) : "");
}

/* A non-negative JSON integer member of o into *v; false when absent or not one. */
static bool get_u64(json_t *o, const char *key, uint64_t *v)
{
	json_t *n = json_object_get(o, key);

	if (!json_is_integer(n) || json_integer_value(n) < 0)
		return false;
	*v = (uint64_t)json_integer_value(n);
	return true;
}

/*
 * What makes a report no baseline, though it has figures: another schema
 * version than this mgtrace writes, a figure that is negative or not finite
 * (every figure is a count over a count or over seconds: 0 to below 1e15), or
 * a test hook that
 * faked the run's events (test_hook). -EINVAL with err set; 0 otherwise.
 */
static int check_report(const char *path, json_t *root, const struct mg_figures *f, char *err,
			size_t errlen)
{
	json_t *sv = json_object_get(root, "schema_version");
	int i;

	if (!sv) {
		snprintf(err, errlen, "baseline '%s' has no schema_version, this mgtrace reads %d",
			 path, MG_SCHEMA_VERSION);
		return -EINVAL;
	}
	if (!json_is_integer(sv) || json_integer_value(sv) != MG_SCHEMA_VERSION) {
		char *s = json_dumps(sv, JSON_ENCODE_ANY | JSON_COMPACT);

		snprintf(err, errlen, "baseline '%s' has schema_version %.40s, this mgtrace reads %d",
			 path, s ? s : "?", MG_SCHEMA_VERSION);
		free(s);
		return -EINVAL;
	}
	for (i = 0; i < MG_F_NR; i++)
		if (f->f[i].have && !(f->f[i].value >= 0 && f->f[i].value < 1e15)) {
			snprintf(err, errlen, "baseline '%s' has %s %g, which no run gives (a figure is "
				 "a count per count or per second: >= 0 and below 1e15)", path,
				 mg_figure_name(i), f->f[i].value);
			return -EINVAL;
		}
	if (json_is_string(json_object_get(root, "test_hook")) ||
	    json_is_true(json_object_get(root, "test_hook"))) {
		snprintf(err, errlen, "baseline '%s' is of a run under a test hook (test_hook: its "
			 "events were faked), not a measurement", path);
		return -EINVAL;
	}
	return 0;
}

/* The identity of the workload of report root into id; -EINVAL with err set when it has none. */
static int load_id(const char *path, json_t *root, struct mg_workload_id *id, char *err,
		   size_t errlen)
{
	json_t *wl = json_object_get(root, "workload"), *argv, *p;
	const char *kind = json_is_string(wl) ? json_string_value(wl) : "";
	size_t i;

	memset(id, 0, sizeof(*id));
	copy_str(root, "kernel_release", id->release, sizeof(id->release));
	copy_str(root, "verdict", id->verdict, sizeof(id->verdict));
	if (!strcmp(kind, "command")) {
		argv = json_object_get(root, "command");
		json_array_foreach(argv, i, p)
			if (!json_is_string(p))
				break;
		if (!json_is_array(argv) || !json_array_size(argv) || i < json_array_size(argv)) {
			snprintf(err, errlen, "baseline '%s' is of a COMMAND but does not record its "
				 "argv (\"command\": an array of strings)", path);
			return -EINVAL;
		}
		id->command = true;
		id->argv = json_incref(argv);
		return 0;
	}
	if (strcmp(kind, "built-in")) {
		snprintf(err, errlen, "baseline '%s' does not record its workload (\"workload\": "
			 "\"built-in\" or \"command\")", path);
		return -EINVAL;
	}
	p = json_object_get(root, "workload_params");
	if (p && !(get_u64(p, "threads", &id->threads) &&
		   get_u64(p, "files_per_thread", &id->files) &&
		   get_u64(p, "rate_per_thread", &id->rate))) {
		snprintf(err, errlen, "baseline '%s' has a malformed \"workload_params\" (threads, "
			 "files_per_thread, rate_per_thread: integers >= 0)", path);
		return -EINVAL;
	}
	id->have_params = p != NULL;
	copy_str(json_object_get(root, "workload_dir"), "fs", id->fs, sizeof(id->fs));
	return 0;
}

int mg_baseline_load(const char *path, struct mg_figures *out, struct mg_workload_id *id,
		     char *err, size_t errlen)
{
	struct mg_workload_id tmp;
	json_t *root, *figo, *type;
	int i, found = 0, ret;

	memset(out, 0, sizeof(*out));
	/* one report, and nothing after it: two reports run together are no baseline */
	root = mg_json_load_path(path, "baseline", err, errlen, &ret);
	if (!root)
		return -ret;
	type = json_object_get(root, "type");
	figo = json_object_get(root, "floor_figures");
	if (!json_is_string(type) || strcmp(json_string_value(type), "check") || !json_is_object(figo)) {
		snprintf(err, errlen, "baseline '%s' is not a report of mgtrace check --json "
			 "with floor_figures", path);
		json_decref(root);
		return -EINVAL;
	}
	for (i = 0; i < MG_F_NR; i++) {
		json_t *v = json_object_get(figo, mg_figure_name(i));
		json_t *u = json_object_get(json_object_get(root, "floor_figures_unavailable"),
					    mg_figure_name(i));

		if (json_is_number(v)) {
			out->f[i].have = true;
			out->f[i].value = json_number_value(v);
			found++;
		} else if (v && !json_is_null(v)) {
			snprintf(err, errlen, "baseline '%s' has %s of the wrong type (a number, or null "
				 "when unavailable)", path, mg_figure_name(i));
			json_decref(root);
			return -EINVAL;
		} else {
			snprintf(out->f[i].why, sizeof(out->f[i].why), "unavailable in the baseline%s%s",
				 json_is_string(u) ? ": " : "", json_is_string(u) ? json_string_value(u) : "");
		}
	}
	if (!found) {
		snprintf(err, errlen, "baseline '%s' has no floor figure", path);
		json_decref(root);
		return -EINVAL;
	}
	if ((ret = check_report(path, root, out, err, errlen))) {
		json_decref(root);
		return ret;
	}
	ret = load_id(path, root, &tmp, err, errlen);
	json_decref(root);
	if (!ret)
		*id = tmp;
	return ret;
}

/* One-line description of a workload, for an error: its argv as JSON (ASCII, cut), or its parameters. */
static void describe(const struct mg_workload_id *id, char *buf, size_t len)
{
	char *s;

	if (id->command) {
		s = json_dumps(id->argv, JSON_COMPACT | JSON_ENSURE_ASCII);
		if (s && strlen(s) > 160)
			snprintf(buf, len, "COMMAND %.157s...", s);
		else
			snprintf(buf, len, "COMMAND %s", s ? s : "(out of memory)");
		free(s);
	} else if (id->have_params) {
		snprintf(buf, len, "the built-in workload (%llu thread%s, %llu file%s each, %llu "
			 "iterations/s per thread%s)", (unsigned long long)id->threads,
			 id->threads == 1 ? "" : "s", (unsigned long long)id->files,
			 id->files == 1 ? "" : "s", (unsigned long long)id->rate,
			 id->rate ? "" : ": unpaced");
	} else {
		snprintf(buf, len, "the built-in workload");
	}
}

int mg_workload_id_compare(const char *path, const struct mg_workload_id *base,
			   const struct mg_workload_id *now, char *err, size_t errlen,
			   char *warn, size_t warnlen)
{
	char b[256], n[256], diff[300] = "";
	bool same;

	if (warnlen)
		warn[0] = 0;
	if (base->command != now->command)
		same = false;
	else if (base->command)
		same = json_equal(base->argv, now->argv);
	else
		same = !base->have_params || !now->have_params ||
		       (base->threads == now->threads && base->files == now->files &&
			base->rate == now->rate);
	if (!same) {
		describe(base, b, sizeof(b));
		describe(now, n, sizeof(n));
		snprintf(err, errlen, "baseline '%s' is of another workload: %s; this run: %s "
			 "(a baseline must be a report of the same workload)", path, b, n);
		return -EINVAL;
	}
	if (base->release[0] && now->release[0] && strcmp(base->release, now->release))
		snprintf(diff, sizeof(diff), "kernel %s (this run: %s)", base->release,
			 now->release);
	if (base->fs[0] && now->fs[0] && strcmp(base->fs, "unknown") &&
	    strcmp(now->fs, "unknown") && strcmp(base->fs, now->fs))
		snprintf(diff + strlen(diff), sizeof(diff) - strlen(diff), "%sfilesystem %s "
			 "(this run: %s)", diff[0] ? ", " : "", base->fs, now->fs);
	if (diff[0])
		snprintf(warn, warnlen, "check: baseline '%s' was recorded on %s: its figures are "
			 "compared as a change between them%s", path, diff,
			 !base->command && !base->have_params ? "; it does not record the built-in "
			 "workload's threads, files and rate, which are not compared" : "");
	else if (!base->command && !base->have_params)
		snprintf(warn, warnlen, "check: baseline '%s' does not record the built-in "
			 "workload's threads, files and rate (an older report): they are not compared",
			 path);
	/* a run that did not pass still measured its figures: they gate, but CI should know */
	if (base->verdict[0] && strcmp(base->verdict, "PASS") && warnlen) {
		size_t at = strlen(warn);
		bool alone = !at;

		if (alone)
			at = (size_t)snprintf(warn, warnlen, "check: baseline '%s':", path);
		if (at < warnlen)
			snprintf(warn + at, warnlen - at, "%s its run's verdict was %s: its figures "
				 "gate this run as they were measured (a PASS run's report is the "
				 "usual baseline)", alone ? "" : ";", base->verdict);
	}
	return 0;
}
