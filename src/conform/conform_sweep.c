// SPDX-License-Identifier: GPL-2.0
/*
 * conform_sweep.c - one conform run: every operation of the table N times, each inode
 * it changes stat()ed right before it (the query that marks its ctime QUERIED) and
 * right after it (the observer, as tests/mgobserve.c). Every run of every role is kept
 * in a log (struct cf_log) for the kernel judge to attribute its findings to; the
 * progress line on a terminal.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "conform_int.h"
#include "conform_sweep.h"
#include "ident.h"
#include "util.h"

/* Whether the sweep runs op i (its operands, or every operation). */
static bool picked(const struct cf_sweep *s, size_t i)
{
	return !s->pick || s->pick[i];
}

/* The progress line on stderr, rewritten: the k-th op of the sweep's, op i, the time so far. */
static void progress(const struct cf_sweep *s, size_t k, size_t i, uint64_t t0)
{
	if (!s->progress)
		return;
	fprintf(stderr, "\r\033[Kconform: operation %zu of %zu, %s, %.1f s", k + 1, s->nops,
		cf_ops[i].name, (double)(mg_now_ns() - t0) / 1e9);
	fflush(stderr);
}

/* The log entry of run iter of role ri of op: its row's index, and the probe. */
static int log_add(struct cf_sweep *s, size_t row, const struct cf_probe *p)
{
	if (mg_grow(&s->log, &s->caplog, s->nlog, sizeof(*s->log), 1024))
		return -ENOMEM;
	memset(&s->log[s->nlog], 0, sizeof(s->log[0]));
	s->log[s->nlog].row = row;
	s->log[s->nlog].p = *p;
	s->nlog++;
	return 0;
}

/* Op i, n times, into the rows from first on and the log. 0, or -1 with why set. */
static int sweep_op(struct cf_sweep *s, size_t i, size_t first, struct cf_ctx *c)
{
	const struct cf_op *op = &cf_ops[i];
	unsigned int it, r;
	int ret;

	for (it = 0; it < s->n; it++)
		for (r = 0; r < op->nroles; r++) {
			const struct cf_probe *p = &c->probe[op->roles[r].role];

			memset(c->probe, 0, sizeof(c->probe));
			c->iter = it;
			c->only = op->roles[r].role;
			c->why[0] = 0;
			ret = op->fn(c);
			if (ret > 0) {		/* not supported here: reported so, never a pass */
				for (r = 0; r < op->nroles; r++)
					s->rows[first + r].unsupported = ret;
				return 0;
			}
			if (ret < 0) {
				snprintf(s->why, sizeof(s->why), "%s: %s", op->name, c->why);
				return -1;
			}
			s->rows[first + r].done++;
			if (!p->used) {
				snprintf(s->why, sizeof(s->why), "%s: role %s not observed", op->name,
					 cf_role_name(op->roles[r].role));
				return -1;
			}
			if (log_add(s, first + r, p)) {
				snprintf(s->why, sizeof(s->why), "out of memory");
				return -1;
			}
		}
	return 0;
}

int cf_sweep_rows(struct cf_sweep *s)
{
	size_t i, r, n = 0;

	for (i = 0, s->nops = 0; i < cf_nops; i++)
		if (picked(s, i)) {
			n += cf_ops[i].nroles;
			s->nops++;
		}
	s->rows = calloc(n ? n : 1, sizeof(*s->rows));
	if (!s->rows)
		return -ENOMEM;
	s->nrows = n;
	for (i = 0, n = 0; i < cf_nops; i++)
		for (r = 0; picked(s, i) && r < cf_ops[i].nroles; r++, n++) {
			s->rows[n].op = &cf_ops[i];
			s->rows[n].ri = (unsigned int)r;
		}
	return 0;
}

int cf_sweep_run(struct cf_sweep *s, int dfd)
{
	struct cf_ctx c = { .dfd = dfd, .d2fd = -1, .hooks = s->hooks, .dev_stat = s->dev_stat,
			    .dev_kernel = s->dev_kernel };
	uint64_t t0 = mg_now_ns();
	size_t i, k = 0, first = 0;
	int fd, ret = 0;

	if (mkdirat(dfd, "d2", 0755) && errno != EEXIST) {
		snprintf(s->why, sizeof(s->why), "mkdir d2: %s", strerror(errno));
		return -1;
	}
	c.d2fd = openat(dfd, "d2", O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd = openat(dfd, CF_FILE_NAME, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (c.d2fd < 0 || fd < 0 || write(fd, "conform\n", 8) != 8) {
		snprintf(s->why, sizeof(s->why), "cannot make the work files: %s", strerror(errno));
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	for (i = 0; !ret && i < cf_nops; i++) {
		if (!picked(s, i))
			continue;
		progress(s, k++, i, t0);
		ret = sweep_op(s, i, first, &c);
		first += cf_ops[i].nroles;
		if (!ret && s->stop && s->stop(s->stop_ctx)) {
			s->stopped = true;
			break;
		}
	}
	if (s->progress)
		fprintf(stderr, "\r\033[K");
	s->elapsed_ns = mg_now_ns() - t0;
	if (c.d2fd >= 0)
		close(c.d2fd);
	unlinkat(dfd, "d2", AT_REMOVEDIR);
	unlinkat(dfd, CF_FILE_NAME, 0);
	return ret;
}

void cf_sweep_account(struct cf_sweep *s)
{
	size_t i;

	for (i = 0; i < s->nlog; i++) {
		struct cf_row *row = &s->rows[s->log[i].row];

		cf_row_account(row, row->op->roles[row->ri].expect, &s->log[i].p,
			       s->judged ? &s->log[i].j : NULL);
	}
	for (i = 0; i < s->nrows; i++) {
		s->rows[i].judged = s->judged;
		s->rows[i].verdict = cf_row_verdict(&s->rows[i],
						    s->rows[i].op->roles[s->rows[i].ri].expect);
	}
}

void cf_sweep_free(struct cf_sweep *s)
{
	size_t i, k;

	for (i = 0; s->rows && i < s->nrows; i++) {
		for (k = 0; k < s->rows[i].nstacks; k++) {
			size_t f;

			for (f = 0; f < s->rows[i].stacks[k].nframes; f++)
				free(s->rows[i].stacks[k].frames[f]);
			free(s->rows[i].stacks[k].frames);
		}
		free(s->rows[i].stacks);
	}
	free(s->rows);
	free(s->log);
	s->rows = NULL;
	s->log = NULL;
}
