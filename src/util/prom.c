// SPDX-License-Identifier: GPL-2.0
/*
 * prom.c - `stat --prometheus FILE`: the Prometheus text exposition format
 * (0.0.4), written atomically for node_exporter's textfile collector, as the
 * smartmon and apt exporters do. Counters are cumulative since the first
 * snapshot (so that rate() works); a counter mgtrace cannot measure is absent,
 * with its reason in mgtrace_source_info, never written as 0.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "prom.h"
#include "optab.h"
#include "opts.h"
#include "replace.h"
#include "report.h"
#include "util.h"


/*
 * Write s as a Prometheus label value, each character escaped once: a backslash, a double
 * quote and a newline as the exposition format's \\, \" and \n. What mgtrace's text escape
 * (escape.h) writes as \xHH, \t or \r (invalid UTF-8, other controls) keeps that form with its
 * backslash escaped, as Prometheus' parser knows no other escapes and wants UTF-8.
 */
void mg_prom_label(FILE *f, const char *s)
{
	char buf[4 * 512 + 8];
	const char *p;

	mg_text_escape(buf, sizeof(buf), s, strnlen(s, 512), false);
	for (p = buf; *p; p++) {
		if (*p == '"') {
			fputs("\\\"", f);
		} else if (*p == '\\' && (p[1] == '\\' || p[1] == 'n')) {
			/* the text escape's \\ (a backslash) and \n (a newline): Prometheus' own */
			fputc('\\', f);
			fputc(*++p, f);
		} else {
			if (*p == '\\')	/* \xHH, \t, \r: Prometheus reads them as written */
				fputc('\\', f);
			fputc(*p, f);
		}
	}
}

/* The command whose --prometheus this is, for its messages ("stat", "check"). */
static const char *prom_cmd = "stat";

void mg_prom_set_command(const char *cmd)
{
	prom_cmd = cmd;
}

/* --prometheus-label NAME=VALUE: put on every series, before mgtrace's own labels */
#define MG_PROM_MAX_LABELS 8
static struct {
	char name[64], value[256];
} user_labels[MG_PROM_MAX_LABELS];
static int n_user_labels;

/* The labels mgtrace puts on its own series: a user label may not take one of them. */
static const char *const own_labels[] = {
	"cpu", "counter", "source", "from", "state", "per_cpu", "reason", "backend",
	"kernel_release", "scope", "tracepoints", "kernel_per_cpu", "nr_cpus",
	/* the error file's (mg_prom_write_error) */
	"reason_class", "errno",
	/* check's (check_prom.c) */
	"kind", "verdict", "judge", "known_faults",
};

int mg_prom_add_label(const char *arg)
{
	const char *eq = strchr(arg, '='), *p;
	size_t n = eq ? (size_t)(eq - arg) : 0, i;

	if (!eq || !n || n >= sizeof(user_labels[0].name) || !(isalpha((unsigned char)*arg) ||
							      *arg == '_'))
		return mg_err(MG_EXIT_USAGE, "%s: invalid --prometheus-label '%s' (NAME=VALUE, "
			      "NAME as Prometheus names labels: [a-zA-Z_][a-zA-Z0-9_]*)", prom_cmd, arg);
	for (p = arg; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return mg_err(MG_EXIT_USAGE, "%s: invalid --prometheus-label '%s' (NAME: "
				      "[a-zA-Z_][a-zA-Z0-9_]*)", prom_cmd, arg);
	if (n >= 2 && arg[0] == '_' && arg[1] == '_')
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus-label '%s': names beginning with "
			      "__ are Prometheus' own", prom_cmd, arg);
	/* a histogram's bucket bound and a summary's quantile: Prometheus reads them so */
	if ((n == 2 && !strncmp(arg, "le", 2)) || (n == 8 && !strncmp(arg, "quantile", 8)))
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus-label '%s': %.*s is Prometheus' own "
			      "(histogram buckets, summary quantiles)", prom_cmd, arg, (int)n, arg);
	for (i = 0; i < sizeof(own_labels) / sizeof(own_labels[0]); i++)
		if (strlen(own_labels[i]) == n && !strncmp(arg, own_labels[i], n))
			return mg_err(MG_EXIT_USAGE, "%s: --prometheus-label '%s': %.*s is a label "
				      "of mgtrace's own series", prom_cmd, arg, (int)n, arg);
	for (i = 0; i < (size_t)n_user_labels; i++)
		if (strlen(user_labels[i].name) == n && !strncmp(arg, user_labels[i].name, n))
			return mg_err(MG_EXIT_USAGE, "%s: --prometheus-label %.*s given twice", prom_cmd,
				      (int)n, arg);
	if (n_user_labels == MG_PROM_MAX_LABELS)
		return mg_err(MG_EXIT_USAGE, "%s: at most %d --prometheus-label", prom_cmd, MG_PROM_MAX_LABELS);
	/* Prometheus takes a label with an empty value for no label at all */
	if (!eq[1])
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus-label '%s': an empty value is, to "
			      "Prometheus, no label at all (give NAME=VALUE with a VALUE)", prom_cmd, arg);
	if (strlen(eq + 1) >= sizeof(user_labels[0].value))
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus-label '%.*s': value longer than "
			      "%zu bytes", prom_cmd, (int)n, arg, sizeof(user_labels[0].value) - 1);
	snprintf(user_labels[n_user_labels].name, sizeof(user_labels[0].name), "%.*s", (int)n, arg);
	snprintf(user_labels[n_user_labels].value, sizeof(user_labels[0].value), "%s", eq + 1);
	n_user_labels++;
	return 0;
}

/*
 * A series' name and the user's labels: "name{job=\"a\"" (then the caller's labels, after
 * a comma when more, and "}"), or "name{" / "name" without user labels. Returns whether
 * a "{" was opened (the caller closes it).
 */
bool mg_prom_series(FILE *f, const char *name, bool more)
{
	int i;

	fputs(name, f);
	if (!n_user_labels && !more)
		return false;
	fputc('{', f);
	for (i = 0; i < n_user_labels; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "", user_labels[i].name);
		mg_prom_label(f, user_labels[i].value);
		fputc('"', f);
	}
	if (n_user_labels && more)
		fputc(',', f);
	return true;
}

void mg_prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* How a row appears: "exported", "derived" (left to PromQL) or "unavailable". */
static const char *row_state(const struct mg_row *row)
{
	if (row->src == MG_SRC_DERIVED)
		return "derived";
	if (row->src == MG_SRC_UNAVAILABLE || !row->have_total)
		return "unavailable";
	return "exported";
}

static void put_info(FILE *f, struct mg_run *r, const char *scope, const struct mg_report *rep)
{
	int i;

	mg_prom_family(f, "mgtrace_info", "gauge", "mgtrace stat's run: backend, kernel release, "
	       "scope, tracepoint flavour and the kernel per-CPU counter reader (value always 1)");
	mg_prom_series(f, "mgtrace_info", true);
	fprintf(f, "backend=\"");
	mg_prom_label(f, mg_backend_name(r->sess.backend));
	fprintf(f, "\",kernel_release=\"");
	mg_prom_label(f, r->env.release);
	fprintf(f, "\",scope=\"");
	mg_prom_label(f, scope ? scope : "system-wide");
	fprintf(f, "\",tracepoints=\"");
	mg_prom_label(f, r->cfg.tp_flavour ? r->cfg.tp_flavour : "");
	fprintf(f, "\",kernel_per_cpu=\"");
	/* as stat's JSON says it: kernel_per_cpu, else its kernel_per_cpu_unavailable
	 * (prefixed "unavailable: " where the reader failed) */
	if (r->cfg.scoped) {
		mg_prom_label(f, MG_KPC_UNUSED_SCOPED);
	} else if (r->kr) {
		mg_prom_label(f, mg_kreader_method(r->kr));
	} else {
		fprintf(f, "unavailable: ");
		mg_prom_label(f, r->kr_why);
	}
	fprintf(f, "\",nr_cpus=\"%d\"} 1\n", rep->nr_cpus);

	mg_prom_family(f, "mgtrace_source_info", "gauge", "Every counter mgtrace knows: its source "
	       "(kernel, bpf, derived, unavailable), where it comes from, whether it is exported "
	       "as mgtrace_COUNTER_total, and why not (value always 1)");
	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &rep->rows[i];
		const char *state = row_state(row);

		mg_prom_series(f, "mgtrace_source_info", true);
		fprintf(f, "counter=\"%s\",source=\"%s\",from=\"", row->name, mg_src_name(row->src));
		mg_prom_label(f, row->detail);
		fprintf(f, "\",state=\"%s\",per_cpu=\"%s\",reason=\"", state,
			row->have_percpu ? "yes" : "no");
		if (!strcmp(state, "derived"))
			fprintf(f, "derived from other counters read at slightly different instants "
				"(not monotonic): compute it in PromQL as ");
		mg_prom_label(f, !strcmp(state, "derived") ? row->detail : row->why);
		fprintf(f, "\"} 1\n");
	}
}

/* PREFIX_up, 1 or 0, with its HELP and TYPE (prom.h). */
void mg_prom_up(FILE *f, const char *prefix, bool up)
{
	const char *cmd = strcmp(prefix, "mgtrace") ? "check" : "stat";
	char name[64];

	snprintf(name, sizeof(name), "%s_up", prefix);
	fprintf(f, "# HELP %s 1: this file holds mgtrace %s's counts; 0: the run ended without "
		"%s, and %s_error says why (docs/prometheus.md)\n# TYPE %s gauge\n", name, cmd,
		strcmp(cmd, "stat") ? "judging" : "counting", prefix, name);
	MG_PROM_SERIES(f, name, "%d", up);
}

int mg_prom_render(FILE *f, struct mg_run *r, const char *scope, uint64_t intervals)
{
	struct mg_report rep;
	struct timespec now;
	uint64_t misses;
	double start;
	char name[96];
	int i, cpu, err;

	if ((err = mg_report_build(&rep, &r->cfg, &r->first, &r->cur)))
		return err;
	put_info(f, r, scope, &rep);
	mg_prom_up(f, "mgtrace", true);
	for (i = 0; i < MG_R_NR; i++) {
		const struct mg_row *row = &rep.rows[i];

		if (strcmp(row_state(row), "exported"))
			continue;
		snprintf(name, sizeof(name), "mgtrace_%s_total", row->name);
		mg_prom_family(f, name, "counter", mg_row_help(i) ? mg_row_help(i) : row->name);
		if (!row->have_percpu) {
			MG_PROM_SERIES(f, name, "%" PRId64, row->total);
			continue;
		}
		for (cpu = 0; cpu < rep.nr_cpus; cpu++) {
			mg_prom_series(f, name, true);
			fprintf(f, "cpu=\"%d\"} %" PRId64 "\n", cpu, row->percpu[cpu]);
		}
	}
	/* CLOCK_REALTIME of the first snapshot (taken with CLOCK_MONOTONIC) */
	clock_gettime(CLOCK_REALTIME, &now);
	start = now.tv_sec + now.tv_nsec / 1e9 - (mg_now_ns() - r->first.t_ns) / 1e9;
	mg_prom_family(f, "mgtrace_start_time_seconds", "gauge",
	       "Unix time when counting began: every counter is cumulative since then");
	MG_PROM_SERIES(f, "mgtrace_start_time_seconds", "%.3f", start);
	mg_prom_family(f, "mgtrace_elapsed_seconds", "gauge",
	       "Seconds counted: from the first snapshot to the one this file was written from");
	MG_PROM_SERIES(f, "mgtrace_elapsed_seconds", "%.9f", (r->cur.t_ns - r->first.t_ns) / 1e9);
	mg_prom_family(f, "mgtrace_intervals_total", "counter",
	       "Intervals (-i) completed when this file was written");
	MG_PROM_SERIES(f, "mgtrace_intervals_total", "%" PRIu64, intervals);
	/* only when a row was compared with debugfs (not in process scope): never a 0
	 * that stands for "nothing compared" */
	if (rep.compared) {
		mg_prom_family(f, "mgtrace_debugfs_mismatches", "gauge", "Counters whose cumulative count "
		       "lies outside the debugfs multigrain_timestamps bracket of the same window "
		       "(0 expected; absent when nothing was compared, as in process scope)");
		MG_PROM_SERIES(f, "mgtrace_debugfs_mismatches", "%d", rep.mismatches);
	}
	misses = mg_session_recursion_misses(&r->sess, NULL, 0);
	mg_prom_family(f, "mgtrace_bpf_recursion_misses_total", "counter", "Runs the kernel skipped of "
	       "mgtrace's BPF programs (recursion_misses): the bpf counters are short by that many");
	MG_PROM_SERIES(f, "mgtrace_bpf_recursion_misses_total", "%" PRIu64, misses);
	mg_report_free(&rep);
	return ferror(f) ? -EIO : 0;
}

int mg_prom_check_path(const char *path, char *resolved, size_t len)
{
	char buf[PATH_MAX], tmp[PATH_MAX + 16], *dir;
	struct stat st;
	int fd;

	/* no file name to replace: refused now, not after the run at the first write */
	if (!*path)
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus '': an empty path", prom_cmd);
	if (path[strlen(path) - 1] == '/')
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus '%s' ends in '/': it names a "
			      "directory, not a file", prom_cmd, path);
	snprintf(resolved, len, "%s", path);
	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		/* written through: the target is replaced, the symlink stays */
		if (!realpath(path, buf))
			return mg_err(errno == ENOENT ? MG_EXIT_USAGE : mg_path_exit(errno),
				      "%s: --prometheus '%s': a symlink whose target %s", prom_cmd, path,
				      errno == ENOENT ? "does not exist" : strerror(errno));
		snprintf(resolved, len, "%s", buf);
	}
	if (!stat(resolved, &st) && S_ISDIR(st.st_mode))
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus '%s' is a directory", prom_cmd, path);
	if (!stat(resolved, &st) && !S_ISREG(st.st_mode))
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus '%s' is not a regular file (%s): "
			      "it would be replaced by one", prom_cmd, path, S_ISCHR(st.st_mode) ? "a character "
			      "device" : S_ISBLK(st.st_mode) ? "a block device" : S_ISFIFO(st.st_mode) ?
			      "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file");
	snprintf(buf, sizeof(buf), "%s", resolved);
	dir = dirname(buf);
	/* as -o's open decides (mg_path_exit): absent is usage (2), refused is environment (3) */
	if (stat(dir, &st))
		return mg_err(mg_path_exit(errno), "%s: --prometheus '%s': directory '%s' %s", prom_cmd, path,
			      dir, errno == ENOENT ? "does not exist" : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return mg_err(MG_EXIT_USAGE, "%s: --prometheus '%s': '%s' is not a directory", prom_cmd,
			      path, dir);
	if (access(dir, W_OK))
		return mg_err(mg_path_exit(errno), "%s: --prometheus '%s': directory '%s' not writable: "
			      "%s", prom_cmd, path, dir, strerror(errno));
	/* the temporary file the writes rename over FILE: /proc, say, takes none */
	snprintf(tmp, sizeof(tmp), "%s/.mgtrace-check.XXXXXX", dir);
	if ((fd = mkstemp(tmp)) < 0)
		return mg_err(mg_path_exit(errno) == MG_EXIT_USAGE ? MG_EXIT_ENV : mg_path_exit(errno),
			      "%s: --prometheus '%s': directory '%s' cannot hold the temporary file "
			      "written beside it: %s", prom_cmd, path, dir, strerror(errno));
	close(fd);
	unlink(tmp);
	return 0;
}

int mg_opt_prom(int c, const char *arg, char *resolved, size_t len, const char **path,
		int *labels)
{
	int e;

	if (c == MG_OPTID_PROM) {
		if ((e = mg_prom_check_path(arg, resolved, len)))
			return e;
		*path = resolved;
		return 0;
	}
	if ((e = mg_prom_add_label(arg)))
		return e;
	(*labels)++;
	return 0;
}

/* mg_prom_write()'s renderer, its arguments in one struct */
struct stat_render {
	struct mg_run *r;
	const char *scope;
	uint64_t intervals;
};

static int stat_render(FILE *f, void *ctx)
{
	struct stat_render *a = ctx;

	return mg_prom_render(f, a->r, a->scope, a->intervals);
}

int mg_prom_write(const char *path, struct mg_run *r, const char *scope, uint64_t intervals)
{
	struct stat_render a = { r, scope, intervals };

	return mg_prom_write_with(path, stat_render, &a);
}

int mg_prom_write_with(const char *path, int (*render)(FILE *f, void *ctx), void *ctx)
{
	/* the collector reads the file at any time: never written in place, even where the
	 * directory refuses the temporary file (that refusal is the error) */
	struct mg_replace rp = { .atomic = true };
	FILE *f;
	int err;

	/* a temporary file beside it, hidden and not ending in .prom: the textfile
	 * collector never reads it; 0644 so that node_exporter's user can */
	if (!(f = mg_replace_fopen(&rp, path, 0644)))
		return mg_err(-errno, "%s: writing --prometheus '%s': %s", prom_cmd, path,
			      strerror(errno));
	errno = 0;
	err = render(f, ctx);
	/* the write's own errno (ENOSPC, EDQUOT...), not the stream's bare error flag */
	if (err)
		err = -(errno ? errno : -err);
	if (!(err = mg_replace_fclose(&rp, f, err)))
		return 0;
	return mg_err(err, "%s: writing --prometheus '%s': %s", prom_cmd, path, strerror(-err));
}

/* mgtrace_error's reason_class of an exit code, from a fixed set (prom.h). */
const char *mg_prom_reason_class(int code)
{
	switch (code) {
	case MG_EXIT_USAGE:
		return "usage";
	case MG_EXIT_ENV:
		return "environment";
	case MG_EXIT_INCONCLUSIVE:	/* check: a stop signal before judging began */
		return "interrupted";
	case MG_EXIT_OUTPUT:
		return "output";
	case 126:
	case 127:
		return "command";
	default:
		return "internal";
	}
}

/* mg_prom_write_error()'s renderer: the series prefix, the exit code and its reason */
struct error_render {
	const char *prefix;
	int code;
	char reason[sizeof(mg_last_err)];
};

/* The error file: PREFIX_up 0, PREFIX_error{reason_class}, PREFIX_error_info{reason,errno}. */
static int error_render(FILE *f, void *ctx)
{
	const struct error_render *e = ctx;
	const char *en = mg_errno_name(e->reason);
	char name[64];

	mg_prom_up(f, e->prefix, false);
	snprintf(name, sizeof(name), "%s_error", e->prefix);
	fprintf(f, "# HELP %s The run ended without a result: its exit code, by reason_class "
		"(usage 2, environment 3, interrupted 4, output 5, command 126/127: COMMAND could "
		"not be run, internal: any other); why: %s_info\n# TYPE %s gauge\n", name, name, name);
	mg_prom_series(f, name, true);
	fprintf(f, "reason_class=\"%s\"} %d\n", mg_prom_reason_class(e->code), e->code);
	snprintf(name, sizeof(name), "%s_error_info", e->prefix);
	mg_prom_family(f, name, "gauge", "Why the run ended without a result: the one line mgtrace "
		       "printed on stderr, and the errno it names (\"\": none) (value always 1)");
	mg_prom_series(f, name, true);
	fprintf(f, "reason=\"");
	mg_prom_label(f, e->reason);
	fprintf(f, "\",errno=\"%s\"} 1\n", en ? en : "");
	return ferror(f) ? -EIO : 0;
}

/* Rewrite FILE as the file of a run without a result (prom.h). */
int mg_prom_write_error(const char *path, const char *prefix, int code)
{
	struct error_render e = { prefix, code, "" };

	/* the reason now: a failed write below replaces mg_last_err with its own */
	snprintf(e.reason, sizeof(e.reason), "%s", mg_last_err);
	return mg_prom_write_with(path, error_render, &e);
}
