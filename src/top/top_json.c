// SPDX-License-Identifier: GPL-2.0
/* top_json.c - `mgtrace top --json`: one object per table, every row, each number's source. */
#include <string.h>
#include <time.h>
#include <jansson.h>
#include "escape.h"
#include "ident.h"
#include "jsonnum.h"
#include "kenv.h"
#include "json_writer.h"
#include "report.h"
#include "top_int.h"

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
	} else if (t->o.by == MG_TOP_BY_STACK) {
		top_stack_json(t, r, o);
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

void top_print_json(struct top_state *t, struct top_table *tb)
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
		top_source_of(t, c, buf, sizeof(buf));
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
			json_t *r = json_object();

			json_object_set_new(r, "low", json_integer((json_int_t)tb->dbg_low[c]));
			json_object_set_new(r, "high", json_integer((json_int_t)tb->dbg_high[c]));
			json_object_set_new(k, mg_kcounter_names[c], r);
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

