// SPDX-License-Identifier: GPL-2.0
/* test_prom.c - tests of src/util/prom.c: stat --prometheus, its text and its write. */
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include "unit.h"
#include "prom.h"
#include "util.h"

/*
 * stat --prometheus: counters with a cpu label and cumulative values; an unavailable row is
 * absent with its reason in mgtrace_source_info, a derived row absent; label values escaped
 * (a release with a quote, a backslash and a newline); the atomic write leaves one file,
 * mode 0644, and a write into a missing directory fails with nothing left.
 */
UNIT_TEST(prom)
{
	struct mg_run r = { 0 };
	char *buf = NULL, dir[] = "/tmp/mgtrace-unit.XXXXXX", path[64];
	size_t len = 0;
	struct stat st;
	FILE *f;

	r.cfg = (struct mg_report_cfg){ .nr_cpus = 2, .tp_flavour = "tp_btf", .kpc = true,
					.prefer_kpc = true, .tp_off = 0xf & ~(1u << 2),
					.kpc_method = "per-CPU via BTF offsets",
					.tp_off_why = "not counted: opt in with -e %s (or -e all)", .skew_row = -1 };
	r.sess.backend = MG_BE_KERNEL;
	r.sess.nr_cpus = 2;
	snprintf(r.env.release, sizeof(r.env.release), "a\"b\\c\nd");
	snprintf(r.kr_why, sizeof(r.kr_why), "no reader in a unit test");
	make_snaps(&r.first, &r.cur, true);
	f = open_memstream(&buf, &len);
	if (!ASSERT_OK_PTR(f, "prom: a stream"))
		return;
	ASSERT_OK(mg_prom_render(f, &r, "system-wide", 3), "prom: renders");
	fclose(f);
	ASSERT_HAS_SUBSTR(buf, "# TYPE mgtrace_ctime_updates_total counter\n" "mgtrace_ctime_updates_total{cpu=\"0\"} 3\nmgtrace_ctime_updates_total{cpu=\"1\"} 7\n",
			  "prom: kernel counter per CPU, cumulative, with its TYPE");
	ASSERT_HAS_SUBSTR(buf, "mgtrace_stat_queries_total{cpu=\"1\"} 500\n",
			  "prom: opted-in BPF counter");
	ASSERT_NO_SUBSTR(buf, "mgtrace_ctime_skips_total",
			 "prom: an unavailable counter is absent, its reason in mgtrace_source_info");
	ASSERT_HAS_SUBSTR(buf, "counter=\"ctime_skips\",source=\"unavailable\"",
			  "prom: an unavailable counter is absent, its reason in mgtrace_source_info");
	ASSERT_HAS_SUBSTR(buf, "reason=\"not counted: opt in with -e ctime_skips (or -e all)\"",
			  "prom: an unavailable counter is absent, its reason in mgtrace_source_info");
	/* derived rows are never in the file, whether exact or approximate */
	ASSERT_NO_SUBSTR(buf, "mgtrace_floor_cmpxchg_fails_total",
			 "prom: a derived counter is absent, left to PromQL");
	ASSERT_HAS_SUBSTR(buf, "counter=\"floor_cmpxchg_fails\",source=\"",
			  "prom: a derived counter is absent, left to PromQL");
	ASSERT_NO_SUBSTR(buf, "counter=\"floor_cmpxchg_fails\",source=\"derived\",from=\"fine_stamps - " "floor_swaps\",state=\"exported\"",
			 "prom: a derived counter is absent, left to PromQL");
	ASSERT_HAS_SUBSTR(buf, "kernel_release=\"a\\\"b\\\\c\\nd\"",
			  "prom: the release's quote, backslash and newline escaped once");
	ASSERT_HAS_SUBSTR(buf, "scope=\"system-wide\"",
			  "prom: the scope, and the per-CPU reader's absence with why");
	ASSERT_HAS_SUBSTR(buf, "kernel_per_cpu=\"unavailable: no reader in a unit test\"",
			  "prom: the scope, and the per-CPU reader's absence with why");
	ASSERT_HAS_SUBSTR(buf, "mgtrace_intervals_total 3\n", "prom: intervals and the window");
	ASSERT_HAS_SUBSTR(buf, "mgtrace_elapsed_seconds 2.5", "prom: intervals and the window");
	free(buf);
	if (!ASSERT_OK_PTR(mkdtemp(dir), "prom: a scratch directory"))
		return;
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	ASSERT_OK(mg_prom_write(path, &r, NULL, 3), "prom: written, mode 0644");
	ASSERT_OK(stat(path, &st), "prom: written, mode 0644");
	ASSERT_EQ(st.st_mode & 0777, 0644, "prom: written, mode 0644");
	ASSERT_OK(mg_prom_write(path, &r, NULL, 4), "prom: rewritten over the old file");
	snprintf(path, sizeof(path), "%s/missing/m.prom", dir);
	ASSERT_LT(mg_prom_write(path, &r, NULL, 3), 0, "prom: a missing directory fails");
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	unlink(path);
	ASSERT_OK(rmdir(dir), "prom: no temporary file left beside the file");
	mg_snap_free(&r.first);
	mg_snap_free(&r.cur);
}

/*
 * A label value as the exposition format escapes it, once: a backslash as \\, a double quote
 * as \", a newline as \n (Prometheus reads back the value given); a tab and a byte that is
 * not UTF-8 keep mgtrace's text form, its backslash escaped (Prometheus knows no \t, \x).
 */
UNIT_TEST(prom_label)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "C:\\tmp", "C:\\\\tmp" },
		{ "fs \"x\"", "fs \\\"x\\\"" },
		{ "a\nb", "a\\nb" },
		{ "a\\nb", "a\\\\nb" },	/* a backslash, then n: not a newline */
		{ "\\\"\n", "\\\\\\\"\\n" },
		{ "t\tb\xff", "t\\\\tb\\\\xff" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		if (!ASSERT_OK_PTR(f, "prom label: a stream"))
			continue;
		mg_prom_label(f, cases[i].in);
		fclose(f);
		ASSERT_STREQ(buf, cases[i].out, "prom label: case %zu escaped once", i);
		free(buf);
	}
}

/*
 * A run without a result: mgtrace_up 0, mgtrace_error{reason_class} with the exit code,
 * the reason (mg_last_err) and its errno only in mgtrace_error_info, written atomically over
 * an earlier file of counts; the classes are a fixed set. Twin: a file of counts has
 * mgtrace_up 1 and no error series.
 */
UNIT_TEST(prom_error)
{
	char dir[] = "/tmp/mgtrace-unit.XXXXXX", path[64], buf[4096] = "";
	FILE *f;
	size_t n;

	ASSERT_STREQ(mg_prom_reason_class(2), "usage",
		     "prom error: the reason classes of the exit codes");
	ASSERT_STREQ(mg_prom_reason_class(3), "environment",
		     "prom error: the reason classes of the exit codes");
	ASSERT_STREQ(mg_prom_reason_class(4), "interrupted",
		     "prom error: the reason classes of the exit codes");
	ASSERT_STREQ(mg_prom_reason_class(5), "output",
		     "prom error: the reason classes of the exit codes");
	ASSERT_STREQ(mg_prom_reason_class(126), "command",
		     "prom error: the reason classes of the exit codes");
	ASSERT_STREQ(mg_prom_reason_class(127), "command",
		     "prom error: the reason classes of the exit codes");
	ASSERT_STREQ(mg_prom_reason_class(1), "internal",
		     "prom error: the reason classes of the exit codes");
	ASSERT_STREQ(mg_prom_reason_class(77), "internal",
		     "prom error: the reason classes of the exit codes");
	if (!ASSERT_OK_PTR(mkdtemp(dir), "prom error: a scratch directory"))
		return;
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	f = fopen(path, "w");
	if (!ASSERT_OK_PTR(f, "prom error: an earlier run's counts"))
		return;
	ASSERT_GT(fputs("mgtrace_up 1\nmgtrace_ctime_updates_total{cpu=\"0\"} 5\n", f), -1,
		  "prom error: an earlier run's counts");
	fclose(f);
	snprintf(mg_last_err, sizeof(mg_last_err), "backend fentry unavailable: load failed: EPERM "
		 "(\"lockdown\")");
	ASSERT_OK(mg_prom_write_error(path, "mgtrace_check", 3), "prom error: written");
	f = fopen(path, "r");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = 0;
	if (f)
		fclose(f);
	ASSERT_HAS_SUBSTR(buf, "# TYPE mgtrace_check_up gauge\nmgtrace_check_up 0\n",
			  "prom error: up 0, the exit code by class, the escaped reason and its errno");
	ASSERT_HAS_SUBSTR(buf, "\nmgtrace_check_error{reason_class=\"environment\"} 3\n",
			  "prom error: up 0, the exit code by class, the escaped reason and its errno");
	ASSERT_HAS_SUBSTR(buf, "\nmgtrace_check_error_info{reason=\"backend fentry unavailable: load " "failed: EPERM (\\\"lockdown\\\")\",errno=\"EPERM\"} 1\n",
			  "prom error: up 0, the exit code by class, the escaped reason and its errno");
	ASSERT_NO_SUBSTR(buf, "ctime_updates", "prom error: nothing left of the earlier counts");
	ASSERT_NO_SUBSTR(buf, "\nmgtrace_check_up 1\n",
			 "prom error: nothing left of the earlier counts");
	unlink(path);
	ASSERT_OK(rmdir(dir), "prom error: no temporary file left beside the file");
	{
		char *p = NULL;
		size_t len = 0;

		f = open_memstream(&p, &len);
		if (ASSERT_OK_PTR(f, "prom error twin: a stream")) {
			mg_prom_up(f, "mgtrace", true);
			fclose(f);
		}
		ASSERT_HAS_SUBSTR(p, "\nmgtrace_up 1\n",
				  "prom error twin: a file of counts says mgtrace_up 1, no error");
		ASSERT_NO_SUBSTR(p, "\nmgtrace_error",
				 "prom error twin: a file of counts says mgtrace_up 1, no error");
		free(p);
	}
}
