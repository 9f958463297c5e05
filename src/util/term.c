// SPDX-License-Identifier: GPL-2.0
/* term.c - the terminal's size and wrapped text (see term.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "term.h"

int mg_text_cols;

/* A positive number in the environment variable name, else 0. */
static int env_num(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	v = strtol(s, &end, 10);
	return *end || v <= 0 || v > 100000 ? 0 : (int)v;
}

struct mg_term mg_term_size(int fd)
{
	struct mg_term t = { 0, 0 };
	struct winsize ws;

	if (fd >= 0 && isatty(fd) && !ioctl(fd, TIOCGWINSZ, &ws)) {
		t.cols = ws.ws_col;
		t.rows = ws.ws_row;
	}
	/* a terminal that reports 0 (a serial console), or no terminal: the environment's */
	if (!t.cols)
		t.cols = env_num("COLUMNS");
	if (!t.rows)
		t.rows = env_num("LINES");
	return t;
}

int mg_text_width(void)
{
	return mg_text_cols > 0 && mg_text_cols < 100 ? mg_text_cols : 100;
}

int mg_wrap(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;
	bool bol = true;	/* no word yet on this line (from col on) */
	int lines = 1, sp = 0;	/* sp: the spaces before the next word, kept where it fits */

	if (width > 0 && indent >= width)
		indent = width / 2;
	for (; *p == ' ' && (!width || col < width); p++, col++)	/* the text's own indent */
		fputc(' ', f);
	while (*p) {
		int wl = (int)strcspn(p, " "), gap = bol ? 0 : sp;

		/* the next word does not fit: a new line, where it may */
		if (width > 0 && col + gap + wl > width && col > indent) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			gap = 0;
			lines++;
		}
		fprintf(f, "%*s", gap, "");
		col += gap;
		/* a word longer than a line: cut at the line's end, the rest on the next */
		while (width > 0 && col + wl > width) {
			int n = width - col;

			fwrite(p, 1, (size_t)n, f);
			p += n;
			wl -= n;
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			lines++;
		}
		fwrite(p, 1, (size_t)wl, f);
		col += wl;
		p += wl;
		bol = false;
		for (sp = 0; *p == ' '; p++)
			sp++;
	}
	fputc('\n', f);
	return lines;
}
