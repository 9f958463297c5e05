// SPDX-License-Identifier: GPL-2.0
/* test_report.c - tests of src/util/report.c: the report's rows as text, -x fields and JSON. */
#include <errno.h>
#include <stdlib.h>
#include "unit.h"
#include "report.h"

UNIT_TEST(report_tracepoint_only)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .func_backend = NULL, .tp_flavour = "raw_tp",
				     .kpc = false };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *R;
	json_t *j, *parsed, *row;
	json_error_t jerr;
	char *text;

	make_snaps(&a, &b, false);
	mg_report_build(&r, &cfg, &a, &b);
	R = r.rows;
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].src, MG_SRC_KERNEL,
		  "tracepoint backend: ctime_updates is the debugfs total, no per-CPU values");
	ASSERT_TRUE(R[MG_R_CTIME_UPDATES].have_total,
		    "tracepoint backend: ctime_updates is the debugfs total, no per-CPU values");
	ASSERT_FALSE(R[MG_R_CTIME_UPDATES].have_percpu,
		     "tracepoint backend: ctime_updates is the debugfs total, no per-CPU values");
	ASSERT_EQ(R[MG_R_CTIME_UPDATES].total, 110,
		  "tracepoint backend: ctime_updates is the debugfs total, no per-CPU values");
	ASSERT_EQ(R[MG_R_FLOOR_SWAPS].total, 15,
		  "floor_swaps debugfs total 15, per-CPU marked unavailable with a reason");
	ASSERT_TRUE(R[MG_R_FLOOR_SWAPS].why[0],
		    "floor_swaps debugfs total 15, per-CPU marked unavailable with a reason");
	ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_DERIVED,
		  "floor_cmpxchg_fails derived from totals only");
	ASSERT_FALSE(R[MG_R_FLOOR_CMPXCHG_FAILS].have_percpu,
		     "floor_cmpxchg_fails derived from totals only");
	ASSERT_EQ(R[MG_R_FLOOR_CMPXCHG_FAILS].total, 220 - 15,
		  "floor_cmpxchg_fails derived from totals only");
	ASSERT_EQ(R[MG_R_CURRENT_TIME].src, MG_SRC_UNAVAILABLE,
		  "current_time unavailable without a function-probe backend, with the reason");
	ASSERT_FALSE(R[MG_R_CURRENT_TIME].have_total,
		     "current_time unavailable without a function-probe backend, with the reason");
	ASSERT_HAS_SUBSTR(R[MG_R_CURRENT_TIME].why, "function-probe",
			  "current_time unavailable without a function-probe backend, with the reason");

	j = mg_report_json(&r);
	text = json_dumps(j, JSON_COMPACT);
	parsed = json_loads(text, 0, &jerr);
	if (!ASSERT_OK_PTR(parsed, "report JSON parses back (%s)", parsed ? "ok" : jerr.text))
		return;
	row = json_object_get(parsed, "floor_swaps");
	ASSERT_OK_PTR(row, "JSON floor_swaps: total 15, per_cpu null, source kernel");
	ASSERT_EQ(json_integer_value(json_object_get(row, "total")), 15,
		  "JSON floor_swaps: total 15, per_cpu null, source kernel");
	ASSERT_TRUE(json_is_null(json_object_get(row, "per_cpu")),
		    "JSON floor_swaps: total 15, per_cpu null, source kernel");
	ASSERT_STREQ(json_string_value(json_object_get(row, "source")), "kernel",
		     "JSON floor_swaps: total 15, per_cpu null, source kernel");
	row = json_object_get(parsed, "ctime_swaps");
	ASSERT_OK_PTR(row, "JSON ctime_swaps: per_cpu [30, 300], match true");
	ASSERT_EQ(json_array_size(json_object_get(row, "per_cpu")), 2,
		  "JSON ctime_swaps: per_cpu [30, 300], match true");
	ASSERT_EQ(json_integer_value(json_array_get(json_object_get(row, "per_cpu"), 1)), 300,
		  "JSON ctime_swaps: per_cpu [30, 300], match true");
	ASSERT_TRUE(json_is_true(json_object_get(row, "match")),
		    "JSON ctime_swaps: per_cpu [30, 300], match true");
	row = json_object_get(parsed, "current_time");
	ASSERT_OK_PTR(row, "JSON current_time: total null with an 'unavailable' reason");
	ASSERT_TRUE(json_is_null(json_object_get(row, "total")),
		    "JSON current_time: total null with an 'unavailable' reason");
	ASSERT_TRUE(json_string_value(json_object_get(row, "unavailable")),
		    "JSON current_time: total null with an 'unavailable' reason");
	free(text);
	json_decref(j);
	json_decref(parsed);
	mg_report_free(&r);

	/* debugfs-sourced rows carry the bracket of their own count */
	a.dbg_post[MG_K_FLOOR_SWAPS] += 2;
	b.dbg_pre[MG_K_FLOOR_SWAPS] -= 1;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_EQ(r.rows[MG_R_FLOOR_SWAPS].total, 15,
		  "debugfs total: outer delta 15, its bracket [12, 15] in the detail, not compared (%s)",
		  r.rows[MG_R_FLOOR_SWAPS].detail);
	ASSERT_TRUE(r.rows[MG_R_FLOOR_SWAPS].have_bracket,
		    "debugfs total: outer delta 15, its bracket [12, 15] in the detail, not compared (%s)",
		    r.rows[MG_R_FLOOR_SWAPS].detail);
	ASSERT_EQ(r.rows[MG_R_FLOOR_SWAPS].bracket.low, 12,
		  "debugfs total: outer delta 15, its bracket [12, 15] in the detail, not compared (%s)",
		  r.rows[MG_R_FLOOR_SWAPS].detail);
	ASSERT_FALSE(r.rows[MG_R_FLOOR_SWAPS].have_kernel,
		     "debugfs total: outer delta 15, its bracket [12, 15] in the detail, not compared (%s)",
		     r.rows[MG_R_FLOOR_SWAPS].detail);
	ASSERT_HAS_SUBSTR(r.rows[MG_R_FLOOR_SWAPS].detail, "[12, 15]",
			  "debugfs total: outer delta 15, its bracket [12, 15] in the detail, not compared (%s)",
			  r.rows[MG_R_FLOOR_SWAPS].detail);
	mg_report_free(&r);

	/* debugfs unreadable at the end: kernel-sourced rows become unavailable, never 0 */
	b.dbg_err = -ENOENT;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_EQ(r.rows[MG_R_CTIME_UPDATES].src, MG_SRC_UNAVAILABLE,
		  "without debugfs: kernel rows and their derivations are unavailable, not zero");
	ASSERT_FALSE(r.rows[MG_R_CTIME_UPDATES].have_total,
		     "without debugfs: kernel rows and their derivations are unavailable, not zero");
	ASSERT_EQ(r.rows[MG_R_CTIME_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE,
		  "without debugfs: kernel rows and their derivations are unavailable, not zero");
	ASSERT_FALSE(r.rows[MG_R_CTIME_SWAPS].have_kernel,
		     "without debugfs: kernel rows and their derivations are unavailable, not zero");
	mg_report_free(&r);
	mg_snap_free(&a);
	mg_snap_free(&b);
}

/* A busy machine: every end read while the counters moved; and the test skew. */
UNIT_TEST(report_busy)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .func_backend = NULL, .tp_flavour = "tp_btf",
				     .kpc = true, .kpc_method = "per-CPU via BTF offsets", .skew_row = -1 };
	struct mg_snap a, b;
	struct mg_report r;
	const struct mg_row *sw, *fl;
	json_t *j, *row, *br;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	struct mg_print_opts po = { 0 };
	int k;

	make_snaps(&a, &b, true);
	/* kernel rows from kpc: deltas (k+1)*10 in all; ctime_swaps from bpf: 330 */
	for (k = 0; k < MG_K_NR_COUNTERS; k++) {
		int64_t d = k == MG_K_CTIME_SWAPS ? 330 : (k + 1) * 10;

		a.dbg_pre[k] = 1000;
		a.dbg_post[k] = 1004;		/* 4 counted while the start was read */
		b.dbg_pre[k] = 1000 + d - 3;	/* the figure's end was read 3 + 2 into the end read */
		b.dbg_post[k] = 1000 + d + 4;
	}
	mg_report_build(&r, &cfg, &a, &b);
	sw = &r.rows[MG_R_CTIME_SWAPS];
	fl = &r.rows[MG_R_FLOOR_SWAPS];
	ASSERT_TRUE(sw->have_kernel, "busy: bpf ctime_swaps 330 within [323, 334]");
	ASSERT_EQ(sw->total, 330, "busy: bpf ctime_swaps 330 within [323, 334]");
	ASSERT_EQ(sw->bracket.low, 330 - 7, "busy: bpf ctime_swaps 330 within [323, 334]");
	ASSERT_EQ(sw->bracket.high, 330 + 4, "busy: bpf ctime_swaps 330 within [323, 334]");
	ASSERT_EQ(sw->bracket.width, 11, "busy: bpf ctime_swaps 330 within [323, 334]");
	ASSERT_EQ(sw->match, MG_MATCH_WITHIN, "busy: bpf ctime_swaps 330 within [323, 334]");
	ASSERT_FALSE(sw->mismatch, "busy: bpf ctime_swaps 330 within [323, 334]");
	ASSERT_EQ(fl->total, 40,
		  "busy: kernel floor_swaps 40 within [33, 44]; no mismatch at all (got %d)", r.mismatches);
	ASSERT_EQ(fl->match, MG_MATCH_WITHIN,
		  "busy: kernel floor_swaps 40 within [33, 44]; no mismatch at all (got %d)", r.mismatches);
	ASSERT_EQ(r.mismatches, 0,
		  "busy: kernel floor_swaps 40 within [33, 44]; no mismatch at all (got %d)", r.mismatches);
	po.width = 100;		/* a 100-column terminal (0: a file, full lines) */
	po.cols = mg_report_columns(&r, &po);
	f = open_memstream(&text, &len);
	mg_report_print_summary(f, &r, &po);
	mg_report_print_interval(f, &r, &po, "12:00:01", false);
	fclose(f);
	ASSERT_HAS_SUBSTR(text, "323..334  within",
			  "text: range 323..334, match 'within', a note, the interval row at 12:00:01 says within");
	ASSERT_HAS_SUBSTR(text, "within: the count lies",
			  "text: range 323..334, match 'within', a note, the interval row at 12:00:01 says within");
	ASSERT_NO_SUBSTR(text, "WARNING",
			 "text: range 323..334, match 'within', a note, the interval row at 12:00:01 says within");
	ASSERT_HAS_SUBSTR(text, "  within\n",
			  "text: range 323..334, match 'within', a note, the interval row at 12:00:01 says within");
	ASSERT_HAS_SUBSTR(text, "\n12:00:01 ",
			  "text: range 323..334, match 'within', a note, the interval row at 12:00:01 says within");
	for (char *l = text, *e; l && *l; l = e ? e + 1 : NULL) {
		e = strchr(l, '\n');
		ASSERT_LE((long)(e ? e - l : (long)strlen(l)), 100L,
			  "text: a line within 100 columns: %.*s",
			  (int)(e ? e - l : (long)strlen(l)), l);
	}
	free(text);
	/* -x ,: perf stat -x's lines, one per counter, mgtrace's fields after perf's seven */
	text = NULL;
	f = open_memstream(&text, &len);
	po.sep = ",";
	mg_report_print_csv(f, &r, &po, "2.500000000", false);
	mg_report_print_csv(f, &r, &po, NULL, true);
	po.sep = NULL;
	fclose(f);
	ASSERT_HAS_SUBSTR(text, "2.500000000,330,,ctime_swaps,2500000000,100.00,,,bpf,323,334,within,\n",
			  "-x ,: time,value,unit,event,run-time,pct,metric,metric-unit,source,low,high,match,"
			  "approximate; per-CPU lines with CPUn; no padding, no header: %s", text);
	ASSERT_HAS_SUBSTR(text, "\nCPU1,",
			  "-x ,: time,value,unit,event,run-time,pct,metric,metric-unit,source,low,high,match,"
			  "approximate; per-CPU lines with CPUn; no padding, no header: %s", text);
	ASSERT_NO_SUBSTR(text, ", ",
			 "-x ,: time,value,unit,event,run-time,pct,metric,metric-unit,source,low,high,match,"
			 "approximate; per-CPU lines with CPUn; no padding, no header: %s", text);
	ASSERT_NO_SUBSTR(text, " ,",
			 "-x ,: time,value,unit,event,run-time,pct,metric,metric-unit,source,low,high,match,"
			 "approximate; per-CPU lines with CPUn; no padding, no header: %s", text);
	ASSERT_TRUE(strncmp(text, "time", 4),
		    "-x ,: time,value,unit,event,run-time,pct,metric,metric-unit,source,low,high,match,"
		    "approximate; per-CPU lines with CPUn; no padding, no header: %s", text);
	free(text);
	j = mg_report_json(&r);
	row = json_object_get(j, "ctime_swaps");
	br = json_object_get(row, "debugfs_bracket");
	ASSERT_EQ(json_integer_value(json_object_get(br, "low")), 323,
		  "JSON: debugfs_bracket {323, 334, 11}, match true, match_kind within");
	ASSERT_EQ(json_integer_value(json_object_get(br, "high")), 334,
		  "JSON: debugfs_bracket {323, 334, 11}, match true, match_kind within");
	ASSERT_EQ(json_integer_value(json_object_get(br, "width")), 11,
		  "JSON: debugfs_bracket {323, 334, 11}, match true, match_kind within");
	ASSERT_TRUE(json_is_true(json_object_get(row, "match")),
		    "JSON: debugfs_bracket {323, 334, 11}, match true, match_kind within");
	ASSERT_STREQ(json_string_value(json_object_get(row, "match_kind")), "within",
		     "JSON: debugfs_bracket {323, 334, 11}, match true, match_kind within");
	json_decref(j);
	mg_report_free(&r);

	/* one event more than the widest reading allows: NO, in text and JSON */
	b.bpf[1].v[MG_BPF_CTIME_SWAPS] += 5;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_EQ(r.rows[MG_R_CTIME_SWAPS].total, 335, "busy: 335 above [323, 334] is NO");
	ASSERT_TRUE(r.rows[MG_R_CTIME_SWAPS].mismatch, "busy: 335 above [323, 334] is NO");
	ASSERT_EQ(r.mismatches, 1, "busy: 335 above [323, 334] is NO");
	text = NULL;
	f = open_memstream(&text, &len);
	mg_report_print_summary(f, &r, &po);
	mg_report_print_interval(f, &r, &po, "12:00:02", false);
	fclose(f);
	ASSERT_HAS_SUBSTR(text, "323..334  NO", "text: NO in the summary and the interval row");
	ASSERT_HAS_SUBSTR(text, "WARNING: 1 counter",
			  "text: NO in the summary and the interval row");
	ASSERT_HAS_SUBSTR(text, "NO: ctime_swaps\n",
			  "text: NO in the summary and the interval row");
	free(text);
	j = mg_report_json(&r);
	row = json_object_get(j, "ctime_swaps");
	ASSERT_TRUE(json_is_false(json_object_get(row, "match")),
		    "JSON: match false, match_kind outside");
	ASSERT_STREQ(json_string_value(json_object_get(row, "match_kind")), "outside",
		     "JSON: match false, match_kind outside");
	json_decref(j);
	mg_report_free(&r);
	b.bpf[1].v[MG_BPF_CTIME_SWAPS] -= 5;

	/* the test skew shifts one row out of its bracket and keeps the per-CPU sum */
	cfg.skew_row = MG_R_FLOOR_SWAPS;
	cfg.skew_n = 5;
	mg_report_build(&r, &cfg, &a, &b);
	fl = &r.rows[MG_R_FLOOR_SWAPS];
	/* an operand outside its bracket: the difference is unavailable, never 30 - 45 */
	ASSERT_EQ(fl->total, 45,
		  "skew floor_swaps +5: 45 outside [33, 44], per-CPU sum 45, derived row unavailable: %s",
		  r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why);
	ASSERT_EQ(fl->percpu[0] + fl->percpu[1], 45,
		  "skew floor_swaps +5: 45 outside [33, 44], per-CPU sum 45, derived row unavailable: %s",
		  r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why);
	ASSERT_TRUE(fl->mismatch,
		    "skew floor_swaps +5: 45 outside [33, 44], per-CPU sum 45, derived row unavailable: %s",
		    r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why);
	ASSERT_EQ(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].src, MG_SRC_UNAVAILABLE,
		  "skew floor_swaps +5: 45 outside [33, 44], per-CPU sum 45, derived row unavailable: %s",
		  r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why);
	ASSERT_HAS_SUBSTR(r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why, "floor_swaps 45 differs",
			  "skew floor_swaps +5: 45 outside [33, 44], per-CPU sum 45, derived row unavailable: %s",
			  r.rows[MG_R_FLOOR_CMPXCHG_FAILS].why);
	mg_report_free(&r);
	cfg.skew_n = 4;
	mg_report_build(&r, &cfg, &a, &b);
	ASSERT_FALSE(r.rows[MG_R_FLOOR_SWAPS].mismatch, "skew +4: 44 still within [33, 44]");
	mg_report_free(&r);
	ASSERT_EQ(mg_row_by_name("ctime_swaps"), MG_R_CTIME_SWAPS, "row names resolve");
	ASSERT_EQ(mg_row_by_name("nope"), -1, "row names resolve");
	mg_snap_free(&a);
	mg_snap_free(&b);
}

/*
 * The interval header names every row of include/mg_vocab.def, in its order, under the
 * summary's names (mg_row_name): a hand-kept copy of the names went out of step with the
 * table when a row was added (stat -I crashed on the NULL past the copy's end).
 */
UNIT_TEST(interval_header)
{
	struct mg_print_opts po = { .cols = (1u << MG_R_NR) - 1 };
	char want[1024], *buf = NULL;
	size_t len = 0, n;
	FILE *f = open_memstream(&buf, &len);
	int i;

	n = (size_t)snprintf(want, sizeof(want), "%-12s", "time");
	for (i = 0; i < MG_R_NR; i++) {
		int w = (int)strlen(mg_row_name(i));

		n += (size_t)snprintf(want + n, sizeof(want) - n, " %*s", w < 10 ? 10 : w,
				      mg_row_name(i));
	}
	snprintf(want + n, sizeof(want) - n, "  debugfs\n");
	mg_report_print_interval_header(f, &po);
	fclose(f);
	ASSERT_STREQ(buf, want, "interval header: every row of the table, in its order, by name");
	free(buf);
	po.cols = 1u << MG_R_CTIME_UPDATES | 1u << MG_R_CTIME_SETS;
	buf = NULL;
	f = open_memstream(&buf, &len);
	mg_report_print_interval_header(f, &po);
	fclose(f);
	snprintf(want, sizeof(want), "%-12s %13s %10s  debugfs\n", "time", "ctime_updates",
		 "ctime_sets");
	ASSERT_STREQ(buf, want, "interval header: only the columns asked for");
	free(buf);
}

/* Render r three ways: the summary text, -x , lines and the JSON row name's "checked_against"
 * (NULL when absent) and whether it has "match"; *text and *csv are the caller's to free. */
static const char *render(const struct mg_report *r, const char *name, char **text, char **csv,
			  bool *has_match, json_t **j)
{
	struct mg_print_opts po = { 0 };
	size_t len = 0;
	FILE *f;

	*text = *csv = NULL;
	f = open_memstream(text, &len);
	mg_report_print_summary(f, r, &po);
	fclose(f);
	po.sep = ",";
	f = open_memstream(csv, &len);
	mg_report_print_csv(f, r, &po, NULL, false);
	fclose(f);
	*j = mg_report_json(r);
	*has_match = json_object_get(json_object_get(*j, name), "match") != NULL;
	return json_string_value(json_object_get(json_object_get(*j, name), "checked_against"));
}

/*
 * No debugfs (issue 26): the kernel per-CPU rows' match column says what their figure was
 * checked against, in text (with a legend), -x and JSON; never a silent yes. The twins: with
 * debugfs the same rows say yes and carry no checked_against; a probe-counted row says "-".
 */
UNIT_TEST(report_no_debugfs_checked_against)
{
	struct mg_report_cfg cfg = { .nr_cpus = 2, .tp_flavour = "tp_btf", .kpc = true,
				     .prefer_kpc = true, .kpc_check = MG_KCHECK_START,
				     .kpc_method = "per-CPU via BTF offsets, validated at start (test)",
				     .tp_off = (1u << MG_NR_TPS) - 1, .skew_row = -1 };
	struct mg_snap a, b;
	struct mg_report r;
	char *text, *csv;
	bool has_match;
	const char *ca;
	json_t *j;

	make_snaps(&a, &b, true);
	a.dbg_err = b.dbg_err = -ENOENT;
	mg_report_build(&r, &cfg, &a, &b);
	ca = render(&r, "fine_stamps", &text, &csv, &has_match, &j);
	ASSERT_HAS_SUBSTR(text, "  start  mg_ctime_updates\n",
			  "no debugfs, BTF offsets: text match 'start' on the kernel rows, with its legend: %s", text);
	ASSERT_HAS_SUBSTR(text, "  start  mg_ctime_swaps\n",
			  "no debugfs, BTF offsets: text match 'start' on the kernel rows, with its legend: %s", text);
	ASSERT_HAS_SUBSTR(text, "  start  timekeeping_mg_floor_swaps\n",
			  "no debugfs, BTF offsets: text match 'start' on the kernel rows, with its legend: %s", text);
	ASSERT_HAS_SUBSTR(text, "\nstart: no debugfs to compare with;",
			  "no debugfs, BTF offsets: text match 'start' on the kernel rows, with its legend: %s", text);
	ASSERT_NO_SUBSTR(text, " yes ",
			 "no debugfs, BTF offsets: text match 'start' on the kernel rows, with its legend: %s", text);
	ASSERT_NO_SUBSTR(text, "ksym:",
			 "no debugfs, BTF offsets: text match 'start' on the kernel rows, with its legend: %s", text);
	ASSERT_HAS_SUBSTR(csv, "\n30,,fine_stamps,2500000000,100.00,,,kernel,,,start,\n",
			  "-x: MATCH start on kernel rows, empty on the derived one: %s", csv);
	ASSERT_HAS_SUBSTR(csv, ",floor_cmpxchg_fails,",
			  "-x: MATCH start on kernel rows, empty on the derived one: %s", csv);
	ASSERT_NO_SUBSTR(csv, ",derived,,,start,",
			 "-x: MATCH start on kernel rows, empty on the derived one: %s", csv);
	ASSERT_STREQ(ca, "start", "JSON: checked_against start, no match");
	ASSERT_FALSE(has_match, "JSON: checked_against start, no match");
	free(text);
	free(csv);
	json_decref(j);
	mg_report_free(&r);

	cfg.kpc_check = MG_KCHECK_KSYM;
	mg_report_build(&r, &cfg, &a, &b);
	ca = render(&r, "ctime_swaps", &text, &csv, &has_match, &j);
	ASSERT_HAS_SUBSTR(text, "  ksym   mg_ctime_swaps\n",
			  "no debugfs, typed ksyms: 'ksym' in text (legend), -x and JSON: %s", text);
	ASSERT_HAS_SUBSTR(text, "\nksym: no debugfs",
			  "no debugfs, typed ksyms: 'ksym' in text (legend), -x and JSON: %s", text);
	ASSERT_NO_SUBSTR(text, "start:",
			 "no debugfs, typed ksyms: 'ksym' in text (legend), -x and JSON: %s", text);
	ASSERT_HAS_SUBSTR(csv, ",ctime_swaps,2500000000,100.00,,,kernel,,,ksym,\n",
			  "no debugfs, typed ksyms: 'ksym' in text (legend), -x and JSON: %s", text);
	ASSERT_STREQ(ca, "ksym",
		     "no debugfs, typed ksyms: 'ksym' in text (legend), -x and JSON: %s", text);
	ASSERT_FALSE(has_match,
		     "no debugfs, typed ksyms: 'ksym' in text (legend), -x and JSON: %s", text);
	free(text);
	free(csv);
	json_decref(j);
	mg_report_free(&r);

	/* twin: debugfs readable (its deltas set to the kpc ones): yes, as before, nothing else */
	a.dbg_err = b.dbg_err = 0;
	for (int k = 0; k < MG_K_NR_COUNTERS; k++) {
		a.dbg_pre[k] = a.dbg_post[k] = 10000;
		b.dbg_pre[k] = b.dbg_post[k] = 10000 + (k + 1) * 10;
	}
	mg_report_build(&r, &cfg, &a, &b);
	ca = render(&r, "ctime_swaps", &text, &csv, &has_match, &j);
	ASSERT_HAS_SUBSTR(text, "  yes    mg_ctime_swaps\n",
			  "twin, debugfs: yes, no checked_against: %s", text);
	ASSERT_NO_SUBSTR(text, "ksym", "twin, debugfs: yes, no checked_against: %s", text);
	ASSERT_HAS_SUBSTR(csv, ",kernel,40,40,yes,\n",
			  "twin, debugfs: yes, no checked_against: %s", text);
	ASSERT_NULL(ca, "twin, debugfs: yes, no checked_against: %s", text);
	ASSERT_TRUE(has_match, "twin, debugfs: yes, no checked_against: %s", text);
	free(text);
	free(csv);
	json_decref(j);
	mg_report_free(&r);

	/* twin: without debugfs a probe-counted row (fentry, not the kernel's) says "-" */
	a.dbg_err = b.dbg_err = -ENOENT;
	cfg.func_backend = "fentry";
	cfg.func_probe[MG_FN_SET_CTIME_CURRENT] = cfg.func_probe[MG_FN_REAL_MG] = "fentry";
	cfg.prefer_kpc = false;
	mg_report_build(&r, &cfg, &a, &b);
	ca = render(&r, "ctime_updates", &text, &csv, &has_match, &j);
	ASSERT_HAS_SUBSTR(text, "  -      fentry inode_set_ctime_current\n",
			  "twin, probes: a bpf row says '-', the kernel's floor_swaps ksym: %s",
			  text);
	ASSERT_HAS_SUBSTR(text, "  ksym   timekeeping_mg_floor_swaps\n",
			  "twin, probes: a bpf row says '-', the kernel's floor_swaps ksym: %s",
			  text);
	ASSERT_NULL(ca,
		    "twin, probes: a bpf row says '-', the kernel's floor_swaps ksym: %s",
		    text);
	ASSERT_FALSE(has_match,
		     "twin, probes: a bpf row says '-', the kernel's floor_swaps ksym: %s",
		     text);
	free(text);
	free(csv);
	json_decref(j);
	mg_report_free(&r);
	mg_snap_free(&a);
	mg_snap_free(&b);
}
