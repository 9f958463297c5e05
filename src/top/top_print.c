// SPDX-License-Identifier: GPL-2.0
/*
 * top_print.c - `mgtrace top`'s tables: text (sorted, cut to --rows and the screen, fitting its
 * columns) or one JSON object per table (every row), each number with its
 * source. Cgroup ids are named by top_cgroup.c. Text fits the terminal (term.h).
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
#include "term.h"
#include "util.h"

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

/* The scope/sort header and the column legend on f, each line wrapped to width (0: none). */
static void print_header(struct top_state *t, FILE *f, int width)
{
	char src[512], line[700];

	snprintf(line, sizeof(line), "mgtrace top: by %s, %s, every %.2f s, sorted by %s (%s)",
		 top_by_names[t->o.by], t->scope, t->o.interval, top_counter_names[t->sort],
		 t->b.tp_btf ? "tp_btf" : "raw_tp");
	mg_wrap(f, line, 0, 2, width);
	if (t->b.floor_probe && !t->run.env.ksym_in_btf[MG_K_FLOOR_SWAPS])
		snprintf(line, sizeof(line), "fine stamps: %s on ktime_get_real_ts64_mg; floor swaps: "
			 "unknown (the kernel has no timekeeping_mg_floor_swaps: CONFIG_DEBUG_FS=n), "
			 "each fine stamp counted as floor_unknown", t->b.floor_probe);
	else if (t->b.floor_probe)
		snprintf(line, sizeof(line), "fine stamps and floor swaps: %s on ktime_get_real_ts64_mg",
			 t->b.floor_probe);
	else
		snprintf(line, sizeof(line), "fine stamps and floor swaps: not counted (no function "
			 "probe attaches%s)", mg_verbose ? "" : "; -v: why");
	mg_wrap(f, line, 0, 2, width);
	if (mg_verbose) {
		for (int i = 0; i < MG_TOP_NR; i++) {
			int col;

			top_source_of(t, top_col_order[i], src, sizeof(src));
			col = fprintf(f, "  %-11s ", top_counters[top_col_order[i]].head);
			mg_wrap(f, src, col, width && width - col < 30 ? 4 : col, width);
		}
	} else {
		mg_wrap(f, "AFTER_QUERY: ctime swaps with I_CTIME_QUERIED in the old value, the proxy "
			"for fine stamps", 0, 2, width);
	}
}

/* The screen is cleared before each table: only a terminal's, and not with --noclear. */
static bool clearing(const struct top_state *t)
{
	return !t->o.noclear && isatty(mg_out_fd());
}

void top_print_start(struct top_state *t)
{
	/* a cleared screen gets its header with every table (print_text) */
	if (t->o.json || clearing(t))
		return;
	print_header(t, t->out, mg_term_size(mg_out_fd()).cols);
}

/*
 * Text s (mg_text_escape()'s form, UTF-8) in a column of width cells, each code point
 * one cell: padded to width, or, longer, its first width - 1 code points and '+', so that
 * a long file name, comm or cgroup path never pushes the counters out of their columns
 * (JSON keeps it whole).
 */
static void put_cell(FILE *out, const char *s, int width)
{
	int cells = 0;
	size_t i, cut = 0;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;		/* a continuation byte: the same code point */
		if (++cells == width)
			cut = i;		/* where the '+' goes if there is more */
	}
	if (cells <= width) {
		fprintf(out, "%s%*s", s, width - cells, "");
		return;
	}
	fwrite(s, 1, cut, out);
	fputc('+', out);
}

/* The row's label columns (text). */
static void print_label(struct top_state *t, FILE *out, const struct top_row *r)
{
	char buf[256], dev[MG_KDEV_STRLEN];
	bool cut;
	size_t n;

	switch (t->o.by) {
	case MG_TOP_BY_PID:
		n = mg_name_len(r->comm, sizeof(r->comm), 0, &cut);
		mg_text_escape(buf, sizeof(buf), r->comm, n, cut);
		if (top_pid_outside(r->key.tgid))	/* every process outside mgtrace's PID namespace */
			fprintf(out, "%-7s %-16s", "-", "(other pidns)");
		else {
			fprintf(out, "%-7u ", r->key.tgid);
			put_cell(out, buf, 16);
		}
		break;
	case MG_TOP_BY_COMM:
		n = mg_name_len(r->key.comm, sizeof(r->key.comm), 0, &cut);
		mg_text_escape(buf, sizeof(buf), r->key.comm, n, cut);
		put_cell(out, buf, 24);
		break;
	case MG_TOP_BY_FILE:
		if (!r->key.dev && !r->key.ino) {
			fprintf(out, "%-9s %-10s %-16s", "-", "-", "(no inode)");
			break;
		}
		n = mg_name_len(r->name, sizeof(r->name), r->name_len, &cut);
		mg_text_escape(buf, sizeof(buf), r->name, n, cut);
		/* inode number 0: the filesystem had not given it one yet (xfs creating it) */
		if (!r->key.ino && !n)
			snprintf(buf, sizeof(buf), "(no number yet)");
		fprintf(out, "%-9s %-10llu ", mg_kdev_str(r->key.dev, dev),
			(unsigned long long)r->key.ino);
		put_cell(out, buf, 16);
		break;
	case MG_TOP_BY_STACK:
		top_stack_label(t, r, buf, sizeof(buf));
		put_cell(out, buf, 60);
		break;
	default: {
		const char *why, *p = top_cgroup_path(r->key.cgroup, &why);

		if (p) {
			mg_text_escape(buf, sizeof(buf), p, strlen(p), false);
			put_cell(out, buf, 24);
		} else {
			fprintf(out, "cgroup id %-14llu", (unsigned long long)r->key.cgroup);
		}
	}
	}
}

static const char *const label_head[MG_TOP_BY_NR] = {
	"PID     COMM            ", "COMM                    ",
	"DEV       INO        NAME            ", "CGROUP                  ",
	"STACK (innermost first, < its caller)                       ",
};

/*
 * The status lines of a table: time, totals in scope, the kernel's, rows and losses.
 * The totals are prose that names top's counters (include/mg_vocab.def) one by one.
 */
static void print_status(struct top_state *t, struct top_table *tb, FILE *f, int width)
{
	char hms[16], line[600];
	uint64_t unattr = 0;
	time_t now = time(NULL);
	struct tm tm;
	size_t n;

	strftime(hms, sizeof(hms), "%H:%M:%S", localtime_r(&now, &tm));
	snprintf(line, sizeof(line), "%s  %.2f s%s  in scope: ctime_swaps %llu (after query %llu), "
		 "skips %llu, stats %llu", hms, tb->interval_s, tb->final ? " (final)" : "",
		 (unsigned long long)tb->total.n[MG_TOP_CTIME_SWAPS],
		 (unsigned long long)tb->total.n[MG_TOP_QUERIED_SWAPS],
		 (unsigned long long)tb->total.n[MG_TOP_CTIME_SKIPS],
		 (unsigned long long)tb->total.n[MG_TOP_STAT_QUERIES]);
	mg_wrap(f, line, 0, 10, width);
	if (t->b.floor_probe) {
		snprintf(line, sizeof(line), "          in scope: fine_stamps %llu, floor_swaps %llu, "
			 "unknown %llu", (unsigned long long)tb->total.n[MG_TOP_FINE_STAMPS],
			 (unsigned long long)tb->total.n[MG_TOP_FLOOR_SWAPS],
			 (unsigned long long)tb->total.n[MG_TOP_FLOOR_UNKNOWN]);
		mg_wrap(f, line, 0, 10, width);
	}
	if (tb->dbg_ok) {
		snprintf(line, sizeof(line), "          kernel, system-wide%s (debugfs): fine_stamps "
			 "%llu..%llu, floor_swaps %llu..%llu", t->o.cpus.given ? ", every CPU" : "",
			 (unsigned long long)tb->dbg_low[MG_K_FINE_STAMPS],
			 (unsigned long long)tb->dbg_high[MG_K_FINE_STAMPS],
			 (unsigned long long)tb->dbg_low[MG_K_FLOOR_SWAPS],
			 (unsigned long long)tb->dbg_high[MG_K_FLOOR_SWAPS]);
		mg_wrap(f, line, 0, 10, width);
	}
	for (int c = 0; c < MG_TOP_NR; c++)	/* events: not the parts of others */
		unattr += top_counters[c].part_of < 0 ? tb->unattr.n[c] : 0;
	n = (size_t)snprintf(line, sizeof(line), "          rows %zu (map holds %llu), not attributed: "
			     "%llu events", tb->nr, (unsigned long long)t->o.max_entries,
			     (unsigned long long)unattr);
	if ((tb->errs[MG_TOPE_FULL] || tb->errs[MG_TOPE_OTHER]) && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, " (new rows refused: %llu map full, "
				      "%llu other)", (unsigned long long)tb->errs[MG_TOPE_FULL],
				      (unsigned long long)tb->errs[MG_TOPE_OTHER]);
	if (tb->errs[MG_TOPE_NO_MAP] && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, ", lost (no map): %llu",
			 (unsigned long long)tb->errs[MG_TOPE_NO_MAP]);
	mg_wrap(f, line, 0, 10, width);
}

/*
 * The counter columns shown (1 << enum mg_top_counter): those counted, in col_order,
 * as many as width holds after the label (0: all); the sort column always. Columns
 * left out are named on f.
 */
static unsigned int pick_columns(struct top_state *t, struct top_table *tb, FILE *f, int width)
{
	bool unknown = tb->total.n[MG_TOP_FLOOR_UNKNOWN] || mg_verbose;
	int w = (int)strlen(label_head[t->o.by]);
	unsigned int cols = 0, left = 0;
	char line[200];
	size_t n;

	for (int j = 0; j < MG_TOP_NR; j++) {
		int c = top_col_order[j];

		if (top_counted(t, c) && (c != MG_TOP_FLOOR_UNKNOWN || unknown)) {
			cols |= 1u << c;
			w += 1 + top_counters[c].width;
		}
	}
	for (int j = MG_TOP_NR - 1; j >= 0 && width && w > width; j--) {
		int c = top_col_order[j];

		if ((cols & 1u << c) && c != t->sort) {
			cols &= ~(1u << c);
			left |= 1u << c;
			w -= 1 + top_counters[c].width;
		}
	}
	if (!left)
		return cols;
	n = (size_t)snprintf(line, sizeof(line), "(not shown in %d columns:", width);
	for (int j = 0; j < MG_TOP_NR && n < sizeof(line); j++)
		if (left & 1u << top_col_order[j])
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s",
					      top_counters[top_col_order[j]].head);
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "; -j shows every column)");
	mg_wrap(f, line, 0, 2, width);
	return cols;
}

/* line (no newline) and a newline, cut at width (0: whole), as procps top cuts its lines. */
static void put_cut(FILE *f, const char *line, int width)
{
	int n = (int)strlen(line);

	fprintf(f, "%.*s\n", width && n > width ? width : n, line);
}

/*
 * One table row: its label (cut to its column, marked '+', where width is limited),
 * then cols; the whole line cut at width where even the sort column does not fit.
 */
static void print_row(struct top_state *t, const struct top_row *r, unsigned int cols, int width)
{
	int lw = (int)strlen(label_head[t->o.by]);
	char *lab = NULL, *line = NULL;
	size_t len = 0, llen = 0;
	FILE *m = open_memstream(&lab, &len), *l;

	if (!m)
		return;
	print_label(t, m, r);
	fclose(m);
	if (!(l = open_memstream(&line, &llen))) {
		free(lab);
		return;
	}
	if (width && (int)strlen(lab) > lw && lw > 1)	/* a long name: cut, marked '+' */
		fprintf(l, "%.*s+", lw - 1, lab);
	else
		fputs(lab, l);
	for (int j = 0; j < MG_TOP_NR; j++) {
		int c = top_col_order[j];

		if (cols & 1u << c)
			fprintf(l, " %*llu", top_counters[c].width, (unsigned long long)r->n[c]);
	}
	fclose(l);
	put_cut(t->out, line, width);
	free(lab);
	free(line);
}

/*
 * A text table. On a terminal (TIOCGWINSZ, else COLUMNS/LINES) it fits the screen, as
 * procps top does: lines cut to the width (columns left out and named), rows to the
 * height, and when the screen is cleared the header comes again after each clear.
 */
static void print_text(struct top_state *t, struct top_table *tb)
{
	struct mg_term ts = mg_term_size(mg_out_fd());
	bool clear = clearing(t);
	size_t rows = tb->nr < t->o.rows ? tb->nr : t->o.rows, more;
	char *head = NULL;
	size_t len = 0, lines = 0;
	FILE *h = open_memstream(&head, &len);
	unsigned int cols;

	if (!h)
		return;
	if (clear)
		print_header(t, h, ts.cols);
	print_status(t, tb, h, ts.cols);
	cols = pick_columns(t, tb, h, ts.cols);
	fclose(h);
	for (char *c = head; c && *c; c++)
		lines += *c == '\n';
	more = rows < tb->nr;
	/* a cleared screen: header, table head, rows, the "more" line, the cursor's line */
	/* a screen too short for even the table's head and the "more" line: the first
	 * lines of the head only, so that nothing scrolls */
	if (clear && ts.rows && lines + 3 > (size_t)ts.rows) {
		size_t keep = ts.rows > 3 ? (size_t)ts.rows - 3 : 0, k = 0;

		for (char *c = head; *c; c++)
			if (*c == '\n' && ++k == keep) {
				c[1] = 0;
				break;
			}
		if (!keep)
			head[0] = 0;
		lines = keep < lines ? keep : lines;
	}
	if (clear && ts.rows && lines + 2 + rows + more > (size_t)ts.rows) {
		size_t avail = (size_t)ts.rows > lines + 2 ? (size_t)ts.rows - lines - 2 : 0;

		rows = avail > 1 ? avail - 1 : 0;
		rows = rows < tb->nr ? rows : tb->nr;
		more = rows < tb->nr;
	}
	if (clear)
		fputs("\033[H\033[2J", t->out);
	fputs(head, t->out);
	free(head);
	{
		char th[200];
		size_t n = (size_t)snprintf(th, sizeof(th), "%s", label_head[t->o.by]);

		for (int j = 0; j < MG_TOP_NR && n < sizeof(th); j++) {
			int c = top_col_order[j];

			if (cols & 1u << c)
				n += (size_t)snprintf(th + n, sizeof(th) - n, " %*s",
						      top_counters[c].width, top_counters[c].head);
		}
		put_cut(t->out, th, ts.cols);
	}
	for (size_t i = 0; i < rows; i++)
		print_row(t, &tb->rows[i], cols, ts.cols);
	if (more) {
		char m[120];

		snprintf(m, sizeof(m), "(%zu more rows; %s)", tb->nr - rows, rows < t->o.rows ?
			 "a taller terminal or -j shows them" : "-r to show more");
		put_cut(t->out, m, ts.cols);
	}
	if (!clear)	/* tables that scroll: one blank line between them */
		fputc('\n', t->out);
	fflush(t->out);
}

void top_print_table(struct top_state *t, struct top_table *tb)
{
	sort_key = t->sort;
	qsort(tb->rows, tb->nr, sizeof(*tb->rows), by_count);
	if (t->o.json)
		top_print_json(t, tb);
	else
		print_text(t, tb);
}
