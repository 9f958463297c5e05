// SPDX-License-Identifier: GPL-2.0
/*
 * top_print.c - `mgtrace top`'s tables: text (sorted, cut to --rows, fits 100
 * columns) or one JSON object per table (every row), each number with its
 * source. Cgroup ids are named by top_cgroup.c.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "jsonnum.h"
#include "escape.h"
#include "ident.h"
#include "opts.h"
#include "report.h"
#include "top_int.h"
#include "pidns.h"
#include "util.h"

/* A row's pid 0 where mgtrace runs in a PID namespace of its own: processes outside it
 * (bpf/mg_common.bpf.h mg_shown_ids()). In the initial namespace 0 is the idle task. */
static bool top_pid_outside(uint32_t pid)
{
	return !pid && mg_pidns_self(NULL, NULL) > 0;
}

/* Text column headers and widths, by enum mg_top_counter. */
static const char *const col_names[MG_TOP_NR] = {
	"FINE_STAMPS", "FLOOR_SWAPS", "UNKNOWN", "CTIME_SWAPS", "AFTER_QUERY", "SKIPS", "STATS",
};
static const int col_width[MG_TOP_NR] = { 11, 11, 7, 11, 11, 7, 9 };
/* Printed order of the columns. */
static const int col_order[MG_TOP_NR] = {
	MG_TOP_FLOOR_SWAPS, MG_TOP_FINE_STAMPS, MG_TOP_FLOOR_UNKNOWN, MG_TOP_QUERIED_SWAPS,
	MG_TOP_CTIME_SWAPS, MG_TOP_CTIME_SKIPS, MG_TOP_STAT_QUERIES,
};

/* Where each counter comes from, for the legend and the JSON "sources". */
static void source_of(const struct top_state *t, int c, char *buf, size_t len)
{
	const char *tp = t->b.tp_btf ? "tp_btf" : "raw_tp";

	switch (c) {
	case MG_TOP_FINE_STAMPS:
	case MG_TOP_FLOOR_SWAPS:
	case MG_TOP_FLOOR_UNKNOWN:
		if (!t->b.floor_probe) {
			snprintf(buf, len, "unavailable: no function probe attaches (%s)",
				 t->b.floor_why);
			return;
		}
		snprintf(buf, len, "bpf: %s on ktime_get_real_ts64_mg%s", t->b.floor_probe,
			 c == MG_TOP_FINE_STAMPS ? ": calls seen whole" : c == MG_TOP_FLOOR_SWAPS ?
			 ": this CPU's timekeeping_mg_floor_swaps moved by one in the call" :
			 ": migrated, or another swap on that CPU within the call");
		return;
	case MG_TOP_CTIME_SWAPS:
		snprintf(buf, len, "bpf: timestamp:ctime_ns_xchg (%s)", tp);
		return;
	case MG_TOP_QUERIED_SWAPS:
		snprintf(buf, len, "bpf: timestamp:ctime_ns_xchg (%s) with I_CTIME_QUERIED in the old "
			 "value: updates after a query, the proxy for fine-grained stamps", tp);
		return;
	case MG_TOP_CTIME_SKIPS:
		snprintf(buf, len, "bpf: timestamp:ctime_xchg_skip (%s)", tp);
		return;
	default:
		snprintf(buf, len, "bpf: timestamp:fill_mg_cmtime (%s)", tp);
	}
}

static int sort_key;
static int by_count(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	if (x->n[sort_key] != y->n[sort_key])
		return x->n[sort_key] < y->n[sort_key] ? 1 : -1;
	if (x->key.tgid != y->key.tgid)
		return x->key.tgid < y->key.tgid ? -1 : 1;
	if (x->key.ino != y->key.ino)
		return x->key.ino < y->key.ino ? -1 : 1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

void top_print_start(struct top_state *t)
{
	char src[512];

	if (t->o.json)
		return;
	fprintf(t->out, "mgtrace top: by %s, %s, every %.2f s, sorted by %s (%s)\n",
		top_by_names[t->o.by], t->scope, t->o.interval, top_counter_names[t->sort],
		t->b.tp_btf ? "tp_btf" : "raw_tp");
	if (t->b.floor_probe && !t->run.env.ksym_in_btf[MG_K_FLOOR_SWAPS])
		fprintf(t->out, "fine stamps: %s on ktime_get_real_ts64_mg; floor swaps: unknown "
			"(the kernel has no timekeeping_mg_floor_swaps: CONFIG_DEBUG_FS=n), each "
			"fine stamp counted as floor_unknown\n", t->b.floor_probe);
	else if (t->b.floor_probe)
		fprintf(t->out, "fine stamps and floor swaps: %s on ktime_get_real_ts64_mg\n",
			t->b.floor_probe);
	else
		fprintf(t->out, "fine stamps and floor swaps: not counted (no function probe "
			"attaches%s)\n", mg_verbose ? "" : "; -v: why");
	if (mg_verbose) {
		for (int i = 0; i < MG_TOP_NR; i++) {
			source_of(t, col_order[i], src, sizeof(src));
			fprintf(t->out, "  %-11s %s\n", col_names[col_order[i]], src);
		}
	} else {
		fprintf(t->out, "AFTER_QUERY: ctime swaps with I_CTIME_QUERIED in the old value, "
			"the proxy for fine stamps\n");
	}
}

/* The row's label columns (text). */
static void print_label(struct top_state *t, const struct top_row *r)
{
	char buf[256], dev[MG_KDEV_STRLEN];
	bool cut;
	size_t n;

	switch (t->o.by) {
	case MG_TOP_BY_PID:
		n = mg_name_len(r->comm, sizeof(r->comm), 0, &cut);
		mg_text_escape(buf, sizeof(buf), r->comm, n, cut);
		if (top_pid_outside(r->key.tgid))	/* every process outside mgtrace's PID namespace */
			fprintf(t->out, "%-7s %-16s", "-", "(other pidns)");
		else
			fprintf(t->out, "%-7u %-16s", r->key.tgid, buf);
		break;
	case MG_TOP_BY_COMM:
		n = mg_name_len(r->key.comm, sizeof(r->key.comm), 0, &cut);
		mg_text_escape(buf, sizeof(buf), r->key.comm, n, cut);
		fprintf(t->out, "%-24s", buf);
		break;
	case MG_TOP_BY_FILE:
		if (!r->key.dev && !r->key.ino) {
			fprintf(t->out, "%-9s %-10s %-16s", "-", "-", "(no inode)");
			break;
		}
		n = mg_name_len(r->name, sizeof(r->name), r->name_len, &cut);
		mg_text_escape(buf, sizeof(buf), r->name, n, cut);
		fprintf(t->out, "%-9s %-10llu %-16s", mg_kdev_str(r->key.dev, dev),
			(unsigned long long)r->key.ino, buf);
		break;
	default: {
		const char *why, *p = top_cgroup_path(r->key.cgroup, &why);

		if (p) {
			mg_text_escape(buf, sizeof(buf), p, strlen(p), false);
			fprintf(t->out, "%-24s", buf);
		} else {
			fprintf(t->out, "cgroup id %-14llu", (unsigned long long)r->key.cgroup);
		}
	}
	}
}

static const char *const label_head[MG_TOP_BY_NR] = {
	"PID     COMM            ", "COMM                    ",
	"DEV       INO        NAME            ", "CGROUP                  ",
};

static void print_text(struct top_state *t, struct top_table *tb)
{
	char hms[16];
	time_t now = time(NULL);
	struct tm tm;
	bool unknown = tb->total.n[MG_TOP_FLOOR_UNKNOWN] || mg_verbose;
	size_t i, rows = tb->nr < t->o.rows ? tb->nr : t->o.rows;

	if (!t->o.noclear && isatty(mg_out_fd()))
		fputs("\033[H\033[2J", t->out);
	strftime(hms, sizeof(hms), "%H:%M:%S", localtime_r(&now, &tm));
	fprintf(t->out, "%s  %.2f s%s  in scope: ctime_swaps %llu (after query %llu), skips %llu, "
		"stats %llu\n", hms, tb->interval_s, tb->final ? " (final)" : "",
		(unsigned long long)tb->total.n[MG_TOP_CTIME_SWAPS],
		(unsigned long long)tb->total.n[MG_TOP_QUERIED_SWAPS],
		(unsigned long long)tb->total.n[MG_TOP_CTIME_SKIPS],
		(unsigned long long)tb->total.n[MG_TOP_STAT_QUERIES]);
	if (t->b.floor_probe)
		fprintf(t->out, "          in scope: fine_stamps %llu, floor_swaps %llu, unknown %llu\n",
			(unsigned long long)tb->total.n[MG_TOP_FINE_STAMPS],
			(unsigned long long)tb->total.n[MG_TOP_FLOOR_SWAPS],
			(unsigned long long)tb->total.n[MG_TOP_FLOOR_UNKNOWN]);
	if (tb->dbg_ok)
		fprintf(t->out, "          kernel, system-wide (debugfs): fine_stamps %llu..%llu, "
			"floor_swaps %llu..%llu\n", (unsigned long long)tb->dbg_low[MG_K_FINE_STAMPS],
			(unsigned long long)tb->dbg_high[MG_K_FINE_STAMPS],
			(unsigned long long)tb->dbg_low[MG_K_FLOOR_SWAPS],
			(unsigned long long)tb->dbg_high[MG_K_FLOOR_SWAPS]);
	fprintf(t->out, "          rows %zu (map holds %llu), not attributed: %llu events",
		tb->nr, (unsigned long long)t->o.max_entries,
		(unsigned long long)(tb->unattr.n[MG_TOP_CTIME_SWAPS] + tb->unattr.n[MG_TOP_CTIME_SKIPS] +
				     tb->unattr.n[MG_TOP_STAT_QUERIES] +
				     tb->unattr.n[MG_TOP_FINE_STAMPS]));
	if (tb->errs[MG_TOPE_FULL] || tb->errs[MG_TOPE_OTHER])
		fprintf(t->out, " (new rows refused: %llu map full, %llu other)",
			(unsigned long long)tb->errs[MG_TOPE_FULL],
			(unsigned long long)tb->errs[MG_TOPE_OTHER]);
	if (tb->errs[MG_TOPE_NO_MAP])
		fprintf(t->out, ", lost (no map): %llu", (unsigned long long)tb->errs[MG_TOPE_NO_MAP]);
	fputc('\n', t->out);
	fputs(label_head[t->o.by], t->out);
	for (int j = 0; j < MG_TOP_NR; j++) {
		int c = col_order[j];

		if (top_counted(t, c) && (c != MG_TOP_FLOOR_UNKNOWN || unknown))
			fprintf(t->out, " %*s", col_width[c], col_names[c]);
	}
	fputc('\n', t->out);
	for (i = 0; i < rows; i++) {
		print_label(t, &tb->rows[i]);
		for (int j = 0; j < MG_TOP_NR; j++) {
			int c = col_order[j];

			if (top_counted(t, c) && (c != MG_TOP_FLOOR_UNKNOWN || unknown))
				fprintf(t->out, " %*llu", col_width[c],
					(unsigned long long)tb->rows[i].n[c]);
		}
		fputc('\n', t->out);
	}
	if (tb->nr > rows)
		fprintf(t->out, "(%zu more rows; -r to show more)\n", tb->nr - rows);
	fputc('\n', t->out);
}

/* {counter: n or null} of one row or reserved entry. */
static json_t *counts_json(const struct top_state *t, const uint64_t *n)
{
	json_t *o = json_object();

	for (int c = 0; c < MG_TOP_NR; c++)
		json_object_set_new(o, top_counter_names[c], top_counted(t, c) ?
				    json_integer((json_int_t)n[c]) : json_null());
	return o;
}

static json_t *row_json(struct top_state *t, const struct top_row *r)
{
	json_t *o = counts_json(t, r->n);
	char dev[MG_KDEV_STRLEN];
	const char *p, *why;
	bool cut;
	size_t n;

	if (t->o.by == MG_TOP_BY_FILE) {
		json_object_set_new(o, "dev", json_string(mg_kdev_str(r->key.dev, dev)));
		json_object_set_new(o, "ino", mg_json_u64(r->key.ino));	/* jsonnum.h */
		json_object_set_new(o, "inode", mg_json_inode(r->key.dev, r->key.ino));
		n = mg_name_len(r->name, sizeof(r->name), r->name_len, &cut);
		json_object_set_new(o, "name", mg_json_name(r->name, n));
		json_object_set_new(o, "name_truncated", json_boolean(cut));
	} else if (t->o.by == MG_TOP_BY_CGROUP) {
		json_object_set_new(o, "cgroup_id", json_integer((json_int_t)r->key.cgroup));
		p = top_cgroup_path(r->key.cgroup, &why);
		json_object_set_new(o, "cgroup", p ? mg_json_cstr(p) : json_null());
		json_object_set_new(o, "cgroup_unnamed", p ? json_null() : json_string(why));
	}
	if (t->o.by == MG_TOP_BY_COMM) {
		n = mg_name_len(r->key.comm, sizeof(r->key.comm), 0, &cut);
		json_object_set_new(o, "comm", mg_json_str(r->key.comm, n));
	} else {
		uint32_t pid = t->o.by == MG_TOP_BY_PID ? r->key.tgid : r->tgid;

		/* null: processes outside mgtrace's PID namespace, which has no ids for them */
		json_object_set_new(o, "pid", top_pid_outside(pid) ? json_null() : json_integer(pid));
		n = mg_name_len(r->comm, sizeof(r->comm), 0, &cut);
		json_object_set_new(o, "comm", t->o.by == MG_TOP_BY_PID && top_pid_outside(pid) ?
				    json_null() : mg_json_str(r->comm, n));
	}
	return o;
}

static void print_json(struct top_state *t, struct top_table *tb)
{
	json_t *o = json_object(), *src = json_object(), *rows = json_array(), *k;
	char buf[512], iso[40];
	struct timespec now;
	struct tm tm;
	size_t i;

	mg_json_put_header(o, "top", t->run.env.release);
	clock_gettime(CLOCK_REALTIME, &now);
	strftime(iso, 24, "%Y-%m-%dT%H:%M:%S", gmtime_r(&now.tv_sec, &tm));
	snprintf(iso + strlen(iso), sizeof(iso) - strlen(iso), ".%03ldZ", now.tv_nsec / 1000000);
	json_object_set_new(o, "time", json_string(iso));
	json_object_set_new(o, "elapsed_s", json_real(tb->elapsed_s));
	json_object_set_new(o, "interval_s", json_real(tb->interval_s));
	json_object_set_new(o, "final", json_boolean(tb->final));
	json_object_set_new(o, "by", json_string(top_by_names[t->o.by]));
	json_object_set_new(o, "sort", json_string(top_counter_names[t->sort]));
	json_object_set_new(o, "scope", json_string(t->scope));
	json_object_set_new(o, "backend", json_string(mg_backend_name(t->b.backend)));
	json_object_set_new(o, "tracepoints", json_string(t->b.tp_btf ? "tp_btf" : "raw_tp"));
	if (t->b.floor_probe && !t->run.env.ksym_in_btf[MG_K_FLOOR_SWAPS])
		json_object_set_new(o, "floor_swaps_unknown", json_string("the kernel has no "
				    "timekeeping_mg_floor_swaps (CONFIG_DEBUG_FS=n): every fine stamp "
				    "is counted as floor_unknown"));
	json_object_set_new(o, "floor_probe", t->b.floor_probe ? json_string(t->b.floor_probe) :
			    json_null());
	for (int c = 0; c < MG_TOP_NR; c++) {
		source_of(t, c, buf, sizeof(buf));
		json_object_set_new(src, top_counter_names[c], mg_json_cstr(buf));
	}
	json_object_set_new(o, "sources", src);
	json_object_set_new(o, "totals", counts_json(t, tb->total.n));
	json_object_set_new(o, "not_attributed", counts_json(t, tb->unattr.n));
	k = json_object();
	json_object_set_new(k, "map_full", json_integer((json_int_t)tb->errs[MG_TOPE_FULL]));
	json_object_set_new(k, "other", json_integer((json_int_t)tb->errs[MG_TOPE_OTHER]));
	json_object_set_new(o, "rows_refused", k);
	json_object_set_new(o, "lost_no_map", json_integer((json_int_t)tb->errs[MG_TOPE_NO_MAP]));
	json_object_set_new(o, "max_entries", json_integer((json_int_t)t->o.max_entries));
	json_object_set_new(o, "nr_rows", json_integer((json_int_t)tb->nr));
	if (tb->dbg_ok) {
		k = json_object();
		for (int c = 0; c < MG_K_NR_COUNTERS; c++) {
			static const char *const kn[] = { "ctime_updates", "ctime_swaps",
							  "fine_stamps", "floor_swaps" };
			json_t *r = json_object();

			json_object_set_new(r, "low", json_integer((json_int_t)tb->dbg_low[c]));
			json_object_set_new(r, "high", json_integer((json_int_t)tb->dbg_high[c]));
			json_object_set_new(k, kn[c], r);
		}
		json_object_set_new(o, "kernel_debugfs", k);
	} else {
		json_object_set_new(o, "kernel_debugfs", json_null());
	}
	for (i = 0; i < tb->nr; i++)
		json_array_append_new(rows, row_json(t, &tb->rows[i]));
	json_object_set_new(o, "rows", rows);
	mg_json_print_line(t->out, o);
	json_decref(o);
}

void top_print_table(struct top_state *t, struct top_table *tb)
{
	sort_key = t->sort;
	qsort(tb->rows, tb->nr, sizeof(*tb->rows), by_count);
	if (t->o.json)
		print_json(t, tb);
	else
		print_text(t, tb);
}
